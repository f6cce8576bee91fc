"""Exercises with answers checked on the spot, and a running score.

The widget draws an exercise of :mod:`loo_tutor.teaching.exercises`, collects the
reader's answers from ordinary form controls and hands them to
:meth:`~loo_tutor.teaching.exercises.Exercise.grade`; every verdict, rule and right
answer comes from there. It holds no rule of its own.
"""

from __future__ import annotations

import datetime
import html
import json
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from ..engine.cards import card_text, parse_card
from ..render.markup import RULES_BASE, cite_once, colour_class, link_rules, rule_link
from ..render.worksheet import position_html, question_html, solution_html
from ..teaching.answers import FieldResult
from ..teaching.assignment import Assignment
from ..teaching.exercises import Exercise, Field, Kind, from_record, make, score
from ..teaching.issued import classroom_key, ticket
from ..teaching.marking import answer_value, mark_text
from ..teaching.score import (
    NOT_AN_EXERCISE,
    RIGHT,
    SOLUTION,
    UNREADABLE,
    WRONG,
    Outcome,
    Score,
)
from ..teaching.score import score as score_work
from ._base import LooWidget, Source, nothing, read_record, unless_failed
from .stepper import DealStepper

_MARKS = {"right": "✓", "wrong": "✗", "unreadable": "?", "empty": "…"}
_NOT_ANSWERED = ""
_MOST_ITEMS = 20
"""Answers-file items kept per variant for the download; past it, the latest replaces the last."""
_MOST_KEPT = 1000
"""Variants of earlier visits a page is given back at the most (as the page's script keeps)."""
_MOST_BOOK = 20_000
"""Checks of the class book a classroom page is given at the most."""
_VERDICTS = (RIGHT, WRONG, UNREADABLE, SOLUTION, NOT_AN_EXERCISE)


@dataclass(frozen=True)
class _PageCheck:
    """One check made on the page, or one solution shown, as the score model reads it."""

    kind: str
    seed: int
    verdict: str
    id: str = ""
    """The check's own id, as its report to the classroom server names it ("" for none)."""


def _kind_named(name: object) -> Kind | None:
    return next((kind for kind in Kind if kind.word == name), None)


def _next_seed(seed: int) -> int:
    """The seed of the next variant: drawn from this one, so a page is reproducible."""
    rng = random.Random(f"loo-tutor next variant {seed}")
    while True:
        chosen = rng.randrange(1_000_000)
        if chosen != seed:
            return chosen


class Scoreboard(widgets.HTML):  # type: ignore[misc]
    """The running score of the exercises on a page.

    Give the same scoreboard to several :class:`ExerciseWidget` objects
    (``scoreboard=board``) to count them together; a widget without one
    keeps its own. A variant counts as solved when every answer is right at
    a check made before its solution was shown.

    The score line also lists the variants made from a seed that were
    solved, as JSON in its ``data-loo-solved`` attribute (``[{"kind": 1,
    "title": "Which cards may be played?", "seed": 2024}]``, left out while
    there is none): the page's script keeps that list in the reader's
    browser, so the progress lasts from one visit to the next. Every variant
    made from a seed that was checked (or whose solution was shown) is listed
    too, as JSON in ``data-loo-answers``: its last answer in the answers-file
    shape (:mod:`loo_tutor.teaching.marking`) and the time of that check, its
    outcome in the one score model (:mod:`loo_tutor.teaching.score`) and the
    answers-file items that give that outcome when marked (``[{"kind": 1,
    "name": "legal-cards", "seed": 2024, "answer": ["10D"], "time":
    "2026-12-04T10:15:00+00:00", "solved": true, "outcome": "right at the
    first check", "checks": 1, "items": [...]}]``): the page's script keeps
    them for the reader's "Download my answers", which ``loo-tutor mark``
    marks again. The score line itself is :meth:`work` in words; with an
    assignment (:meth:`set_assignment`) it counts the assignment's exercises
    and carries its id in ``data-loo-assignment`` and its exercises
    (``[["settle", 4], ...]``) in ``data-loo-assignment-items``, which the
    panel's score counts.

    The work of earlier visits comes back as messages from the page's
    script, once it is live: ``{"kept": entries}``, the ``data-loo-answers``
    entries the browser kept (:meth:`resume`: their items are judged again
    and scored before this visit's checks, and the download and the entries
    carry them on), and in a classroom ``{"book": rows}``, the student's
    checks as the server's class book holds them (:meth:`from_book`), which
    the score line then counts as the teacher's page does. Either way the
    score is the one score model's, from the checks in order.

    Attributes:
        results: for each variant (``"exercise 4, seed 1234"``): answers
            right and answers given (fields left empty do not count) at its
            last check, and whether it was solved.
        solved_variants: the kind and seed of each variant made from a seed
            that was solved, in the order they were solved.
        answers: each variant made from a seed that was checked, by kind
            and seed: its last answer (answers-file shape) and the time of
            that check.
    """

    def __init__(self) -> None:
        super().__init__()
        self.results: dict[str, tuple[int, int, bool]] = {}
        self.solved_variants: list[tuple[Kind, int]] = []
        self.answers: dict[tuple[Kind, int], tuple[Any, str]] = {}
        self.assignment: Assignment | None = None
        self._checks: list[_PageCheck] = []
        self._kept_checks: list[_PageCheck] = []
        self._resumed = False
        self._book: list[_PageCheck] | None = None
        self._items: dict[tuple[Kind, int], list[dict[str, Any]]] = {}
        self._decided: set[tuple[Kind, int]] = set()
        self.add_class("loo-score")
        self.on_msg(self._told)
        self._show()

    def record(self, name: str, right: int, answered: int, solved: bool, *,
               kind: Kind | None = None, seed: int | None = None, answer: Any = None,
               time: str = "") -> None:
        """Note the latest check of one variant: ``right`` of ``answered`` answers given.

        ``kind`` and ``seed`` say which variant it is, when it was made from
        a seed: once solved, it is listed in the marks the page keeps.
        ``answer`` is what was given (answers-file shape) and ``time`` when
        (ISO 8601); with a seed and some answer given, they are kept as the
        variant's last answer.
        """
        was = self.results.get(name, (0, answered, False))
        self.results[name] = (right, answered, solved or was[2])
        if kind is not None and seed is not None and answered:
            self.answers[(kind, seed)] = (answer, time)
        if solved and kind is not None and seed is not None and (
                (kind, seed) not in self.solved_variants):
            self.solved_variants.append((kind, seed))
        self._show()

    @property
    def solved(self) -> int:
        """How many variants were solved."""
        return sum(done for _, _, done in self.results.values())

    def set_assignment(self, assignment: Assignment | None) -> None:
        """Score the page against ``assignment`` and tag its download with its id."""
        self.assignment = assignment
        self._show()

    def keep_check(self, kind: Kind, seed: int, answer: Any, time: str, right: bool,
                   check_id: str = "") -> None:
        """Note one check of a variant made from a seed, for the score and the download.

        The download keeps the checks up to the first right one, as items of an
        answers file, so that ``loo-tutor mark`` scores the variant as the page
        does (at most ``_MOST_ITEMS`` of them: past that, the latest check
        replaces the last one kept). ``check_id`` is the check's own id, as its
        report to a classroom server names it.
        """
        self._checks.append(_PageCheck(kind.word, seed, RIGHT if right else WRONG, check_id))
        self._keep_item(kind, seed, {"kind": kind.word, "seed": seed, "answer": answer,
                                     "time": time}, decides=right)

    def keep_solution(self, kind: Kind, seed: int, answer: Any, time: str,
                      check_id: str = "") -> None:
        """Note that the solution of a variant was shown: unless it was right before, it is
        never right afterwards, and its download says ``solution_shown: yes``."""
        self._checks.append(_PageCheck(kind.word, seed, SOLUTION, check_id))
        self._keep_item(kind, seed, {"kind": kind.word, "seed": seed, "answer": answer,
                                     "time": time, "solution_shown": "yes"}, decides=True)

    def _keep_item(self, kind: Kind, seed: int, item: dict[str, Any], decides: bool) -> None:
        if (kind, seed) not in self._decided:
            items = self._items.setdefault((kind, seed), [])
            if len(items) >= _MOST_ITEMS:
                items[-1] = item
            else:
                items.append(item)
            if decides:
                self._decided.add((kind, seed))
        self._show()

    def resume(self, entries: object) -> None:
        """Take back the work of earlier visits, as the page's script kept it in the browser.

        ``entries`` are the variants the score line listed in ``data-loo-answers``
        on earlier visits, each with its ``name``, ``seed``, last ``answer`` and
        ``time``, and ``items`` (the answers-file items of its checks). Each
        variant's items are read and judged again as ``loo-tutor mark`` reads
        a download (:func:`~loo_tutor.teaching.marking.mark_text`); their checks
        come before this visit's in the score, and their items before this
        visit's in the download (none after an item that decided the
        variant). Taken once, when the page goes live; an entry of another
        shape is left out.
        """
        if self._resumed or not isinstance(entries, list):
            return
        self._resumed = True
        kept: list[_PageCheck] = []
        for entry in entries[-_MOST_KEPT:]:
            if not isinstance(entry, dict):
                continue
            kind, seed, items = _kind_named(entry.get("name")), entry.get("seed"), entry.get("items")
            if kind is None or type(seed) is not int or not isinstance(items, list):
                continue
            items = [item for item in items[:_MOST_ITEMS] if isinstance(item, dict)
                     and item.get("kind") == kind.word and item.get("seed") == seed]
            marked = mark_text(json.dumps({"answers": items}), "kept answers") if items else None
            checks = [] if marked is None else [
                _PageCheck(mark.kind, mark.seed, mark.verdict) for _, mark, _ in marked.marks
                if mark.kind == kind.word and mark.seed == seed]
            scored = score_work(checks).items
            if not scored:
                continue
            kept += checks
            decided = scored[0].outcome is not Outcome.WRONG
            own = self._items.get((kind, seed), [])
            merged = items if decided else items + own
            if len(merged) > _MOST_ITEMS:
                merged = [*merged[:_MOST_ITEMS - 1], merged[-1]]
            self._items[(kind, seed)] = merged
            if decided:
                self._decided.add((kind, seed))
            if (kind, seed) not in self.answers and isinstance(entry.get("time"), str):
                self.answers[(kind, seed)] = (entry.get("answer"), entry["time"][:40])
        self._kept_checks = kept
        self._show()

    def from_book(self, rows: object) -> None:
        """Score the page from the classroom's class book, as the teacher's page does.

        ``rows`` are the student's checks as the server keeps them, oldest
        first, each ``[id, kind, seed, verdict]`` (``/loo/me`` gives them as
        ``work``); this visit's checks that the book does not hold yet (by
        their id) follow them. Given again, the new rows replace the old; a
        row of another shape is left out.
        """
        if not isinstance(rows, list):
            return
        self._book = [_PageCheck(row[1], row[2], row[3], row[0]) for row in rows[-_MOST_BOOK:]
                      if isinstance(row, list) and len(row) == 4 and isinstance(row[0], str)
                      and isinstance(row[1], str) and type(row[2]) is int
                      and row[3] in _VERDICTS]
        self._show()

    def _told(self, _: object, content: Any, buffers: object) -> None:
        if isinstance(content, dict):
            if "kept" in content:
                self.resume(content["kept"])
            if "book" in content:
                self.from_book(content["book"])

    def _scored(self) -> list[_PageCheck]:
        """The checks the score line counts, oldest first."""
        if self._book is not None:
            held = {check.id for check in self._book}
            return self._book + [c for c in self._checks if not c.id or c.id not in held]
        return self._kept_checks + self._checks

    def work(self) -> Score[Any]:
        """The page's work in the one score model: every variant checked (or whose solution
        was shown), or the assignment's exercises when the page has one. It counts the
        earlier visits' checks the page was given back (:meth:`resume`), or in a classroom
        the class book's (:meth:`from_book`)."""
        keys = self.assignment.keys() if self.assignment is not None else None
        return score_work(self._scored(), keys)

    def answers_file(self, student: str) -> dict[str, Any]:
        """The answers file of the work done on this page, as its download writes it."""
        data: dict[str, Any] = {"student": student}
        if self.assignment is not None:
            data["assignment"] = self.assignment.id
        data["answers"] = [item for items in self._items.values() for item in items]
        return data

    def _entries(self) -> list[dict[str, Any]]:
        """Each variant made from a seed that was checked, as ``data-loo-answers`` lists it."""
        outcomes = {(item.kind, item.seed): item
                    for item in score_work(self._kept_checks + self._checks).items}
        entries = []
        for (kind, seed), items in self._items.items():
            answer, time = self.answers.get((kind, seed), (items[-1]["answer"],
                                                           items[-1]["time"]))
            outcome = outcomes[(kind.word, seed)]
            entries.append({"kind": int(kind), "name": kind.word, "seed": seed,
                            "answer": answer, "time": time, "solved": outcome.is_right,
                            "outcome": outcome.outcome.value, "checks": outcome.checks,
                            "items": items})
        return entries

    def _line(self) -> str:
        """The score line's words, from the one score model."""
        work = self.work()
        if not self._scored():
            if self.assignment is not None:
                return (f"Score: 0 of {work.total} right: no exercise of this assignment "
                        "checked yet on this visit.")
            return ("Score of this visit: no exercise checked yet (what you did on earlier "
                    "visits is kept under “Solved in this browser”).")
        return f"Score: {work.line()}: {work.tally()}."

    def _show(self) -> None:
        marks = ""
        if self.solved_variants:
            solved = [{"kind": int(kind), "title": kind.title, "seed": seed}
                      for kind, seed in self.solved_variants]
            marks = f' data-loo-solved="{html.escape(json.dumps(solved), quote=True)}"'
        if self._items:
            marks += (f' data-loo-answers="'
                      f'{html.escape(json.dumps(self._entries()), quote=True)}"')
        if self.assignment is not None:
            marks += (f' data-loo-assignment="{html.escape(self.assignment.id, quote=True)}"'
                      f' data-loo-assignment-items="'
                      f'{html.escape(json.dumps(self.assignment.keys()), quote=True)}"')
        self.value = (f'<p class="loo-score-line" role="status" aria-live="polite"{marks}>'
                      f"{html.escape(self._line())}</p>")


class ExerciseWidget(LooWidget):
    """One exercise: the position, the question, a control per answer, and feedback.

    *Check* grades every answer and shows, beside each one, whether it is
    right, with the rule behind each mistake linked to the book; an empty
    answer is "not answered yet". *Show solution* shows the engine's answers
    with their reasons and steps through the deal. *New variant* draws a new
    seed. The score counts every variant checked on the page.

    Args:
        kind: the exercise type, 1 to 6.
        seed: the variant; the same seed always gives the same exercise. By
            default a fresh seed is drawn (and shown, so it can be given
            again).
        record: make the exercise from this deal record (a file path, its
            text or a dict) instead of a seed; for type 6 a list of records,
            the deals of a session in order.
        scoreboard: a score shared with other exercises of the page.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        exercise: the exercise shown (``None`` if it could not be made).
        inputs: the answer controls, by field key (a list of check boxes
            for answers that are several things).
        results: the verdicts of the last check, by field key.

    >>> widget = ExerciseWidget(1, seed=1234)
    >>> widget.fill(widget.exercise.answers()); widget.check_button.click()
    >>> widget.results["cards"].status, widget.scoreboard.solved
    ('right', 1)
    """

    _FAILED = "This exercise cannot be made"

    def __init__(self, kind: int | Kind, seed: int | None = None, *,
                 record: Source | Sequence[Source] | None = None,
                 scoreboard: Scoreboard | None = None, rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.add_class("loo-exercise")
        self.exercise: Exercise | None = None
        self.inputs: dict[str, Any] = {}
        self.results: dict[str, FieldResult] = {}
        self._base = rules_base
        self._own_board = scoreboard is None
        self.scoreboard = scoreboard if scoreboard is not None else Scoreboard()
        parsed = self.attempt(lambda: Kind.parse(kind))
        if parsed is None:
            return
        self.kind = parsed
        self._record = record
        self.header = self.part(widgets.HTML)
        self.position = self.part(widgets.HTML)
        self.form = self.part(widgets.VBox)
        self.summary = self.said()
        self.solution = self.part(widgets.VBox)
        self.seed_field = self.part(
            widgets.BoundedIntText, value=0, min=0, max=10**9, description="Seed",
            tooltip="Type a seed to get that variant", continuous_update=False,
            layout={"width": "14em"})
        self.form.add_class("loo-form")
        self.seed_field.add_class("loo-seed")
        self.check_button = self.button("Check", "Check every answer", self.check,
                                        button_style="primary")
        self.check_button.add_class("loo-check")
        self.on_msg(self._asked)
        self.solution_button = self.button("Show solution",
                                           "Show the answers and step through the deal",
                                           self.show_solution)
        self.variant_button = self.button("New variant", "A new exercise of the same type",
                                          self.new_variant, icon="refresh")
        self.seed_field.observe(self._seed_typed, names="value")
        buttons = [self.check_button, self.solution_button]
        if record is None:
            buttons += [self.variant_button, self.seed_field]
        parts = [self.header, self.position, self.form, self.part(widgets.HBox, buttons),
                 self.summary]
        if self._own_board:
            parts.append(self.scoreboard)
        self.show(*parts, self.solution)
        self.load(seed)

    # -- choosing the variant ----------------------------------------------------------

    @property
    def seed(self) -> int | None:
        """The seed of the variant shown (``None`` for a record)."""
        return None if self.exercise is None else self.exercise.seed

    def _made(self, seed: int | None) -> Exercise:
        """The variant of ``seed``: of the record, or a fresh one of the kind when ``None``."""
        if self._record is not None:
            return self._from_record(seed or 0)
        chosen = random.SystemRandom().randrange(1_000_000) if seed is None else seed
        return make(self.kind, chosen)

    def load(self, seed: int | None = None) -> None:
        """Show the variant of ``seed`` (a fresh one when ``None``)."""
        made = self.attempt(lambda: self._made(seed))
        if made is None:
            return
        self.exercise = exercise = made
        self.error = None
        self.header.value = (f'<p class="loo-exercise-title"><strong>Exercise '
                             f'{int(exercise.kind)}: {html.escape(exercise.title)}</strong> — '
                             f"{html.escape(exercise.origin)}</p>")
        self.position.value = position_html(exercise) + question_html(exercise)
        if exercise.seed is not None and self.seed_field.value != exercise.seed:
            self.seed_field.unobserve(self._seed_typed, names="value")
            self.seed_field.value = exercise.seed
            self.seed_field.observe(self._seed_typed, names="value")
        self._shown = False
        self._variant = uuid.uuid4().hex
        self.results = {}
        self.summary.value = ""
        self.solution.children = ()
        self._build_form(exercise)

    def _from_record(self, seed: int) -> Exercise:
        source = self._record
        if self.kind is Kind.SESSION and isinstance(source, (list, tuple)):
            return from_record([read_record(s) for s in source], self.kind, seed)
        return from_record(read_record(source), self.kind, seed)  # type: ignore[arg-type]

    def new_variant(self) -> None:
        """Show another variant of the same type."""
        if self.exercise is not None and self.exercise.seed is not None:
            self.load(_next_seed(self.exercise.seed))

    def _seed_typed(self, change: Any = None) -> None:
        if self.exercise is None or self.seed_field.value != self.exercise.seed:
            self.load(int(self.seed_field.value))

    # -- the answer controls -------------------------------------------------------------

    def _build_form(self, exercise: Exercise) -> None:
        self.inputs = {}
        self._notes: dict[str, widgets.HTML] = {}
        rows = []
        for field in exercise.fields:
            control, shown = self._control(field)
            self.inputs[field.key] = control
            note = self.part(widgets.HTML)
            note.add_class("loo-field-note")
            self._notes[field.key] = note
            if isinstance(control, list):  # a group of check boxes, under its question
                label = self.part(widgets.HTML, f'<span class="loo-field-label">'
                                  f"{html.escape(field.label)}</span>")
                line = self.part(widgets.HBox, [label, shown])
            else:  # a single control, named by its own label
                line = shown
            line.add_class("loo-field")
            rows.append(self.part(widgets.VBox, [line, note]))
        self.form.children = tuple(rows)

    def _control(self, field: Field) -> tuple[Any, Any]:
        """The control for one field, and what to show (a box of check boxes, say).

        Every control is named by a label of its own (the check boxes by
        their option, the others by the field's question), with plain words
        as its tooltip; a text field is checked when Enter is pressed in it.
        """
        described = field.hint or field.label
        if field.form in ("cards", "choices", "names"):
            labels = list(field.labels or field.options)
            tips = list(labels)
            if field.form == "cards":  # written as the reader sees them: 10♦
                cards = [parse_card(option) for option in field.options]
                labels = [card_text(card) for card in cards]
                tips = [card.label for card in cards]
            boxes = [self.part(widgets.Checkbox, value=False, description=label, indent=False,
                               tooltip=f"{field.label}: {tip}", layout={"width": "auto"})
                     for label, tip in zip(labels, tips, strict=True)]
            if field.form == "cards":
                for box, card in zip(boxes, cards, strict=False):
                    box.add_class(colour_class(card))
            if field.form == "names":
                boxes.append(self.part(widgets.Checkbox, value=False, description="nobody",
                                       indent=False, tooltip="Tick if nobody is looed",
                                       layout={"width": "auto"}))
            return boxes, self.part(widgets.HBox, boxes)
        named: dict[str, Any] = {"description": field.label,
                                 "style": {"description_width": "initial"}}
        if field.form in ("choice", "yesno", "rule"):
            options = [("— not answered —", _NOT_ANSWERED),
                       *zip(field.labels or field.options, field.options, strict=True)]
            menu = self.part(widgets.Dropdown, options=options, value=_NOT_ANSWERED,
                             tooltip=described, **named)
            return menu, menu
        example = "e.g. 4, 10/3 or 3 1/3" if field.form == "amount" else "e.g. -3, 10/3 or -3 1/5"
        text = self.part(widgets.Text, placeholder=example, tooltip=described, **named)
        self.on_enter(text, self.check)
        return text, text

    def answers(self) -> dict[str, Any]:
        """The answers as the controls hold them, in the form the exercise grades."""
        found: dict[str, Any] = {}
        if self.exercise is None:
            return found
        for field in self.exercise.fields:
            control = self.inputs[field.key]
            if isinstance(control, list):
                ticked = [field.options[i] for i, box in enumerate(control[:len(field.options)])
                          if box.value]
                if field.form == "names" and control[-1].value and not ticked:
                    found[field.key] = "nobody"
                elif field.form == "names" and control[-1].value:
                    found[field.key] = [*ticked, "nobody"]  # both ticked: the grader says so
                else:
                    found[field.key] = ticked
            else:
                found[field.key] = control.value
        return found

    def fill(self, answers: dict[str, Any]) -> None:
        """Set the controls to ``answers`` (field key to value), as a reader would.

        Values are those :meth:`~loo_tutor.teaching.exercises.Exercise.answers`
        returns: text, or lists of option values.
        """
        if self.exercise is None:
            return
        for field in self.exercise.fields:
            if field.key not in answers:
                continue
            value = answers[field.key]
            control = self.inputs[field.key]
            if isinstance(control, list):
                wanted = value if isinstance(value, (list, tuple)) else [
                    v.strip() for v in str(value).replace(",", " ").split() if v.strip()]
                for option, box in zip(field.options, control, strict=False):
                    box.value = option in wanted
                if field.form == "names":
                    control[-1].value = str(value).strip().lower() == "nobody"
            elif isinstance(control, widgets.Dropdown):
                control.value = str(value) if str(value) in field.options else _NOT_ANSWERED
            else:
                control.value = str(value)

    def restore(self, seed: object, values: object, check: bool = False) -> None:
        """Put back the work a page kept across a reload, then check it when ``check``.

        ``seed`` is the variant the page showed; ``values`` the controls'
        values in the order of the form (a check box's ``True`` or
        ``False``, a menu's index, a text field's text), as the classroom's
        page reads them (``classroom_page/src/work.js``). A value that does
        not fit its control is left out.
        """
        if self.exercise is None or self.error is not None or not isinstance(values, list):
            return
        if (self._record is None and type(seed) is int and 0 <= seed <= 10**9
                and seed != self.exercise.seed):
            self.load(seed)
        controls = [one for control in self.inputs.values()
                    for one in (control if isinstance(control, list) else [control])]
        for control, value in zip(controls, values, strict=False):
            if isinstance(control, widgets.Checkbox) and isinstance(value, bool):
                control.value = value
            elif (isinstance(control, widgets.Dropdown) and type(value) is int
                  and 0 <= value < len(control.options)):
                control.index = value
            elif isinstance(control, widgets.Text) and isinstance(value, str) and len(value) < 200:
                control.value = value
        if check:
            self.check()

    def _asked(self, _: object, content: Any, buffers: object) -> None:
        work = content.get("restore") if isinstance(content, dict) else None
        if isinstance(work, dict):
            self.restore(work.get("seed"), work.get("values"), work.get("check") is True)

    # -- checking ------------------------------------------------------------------------

    @unless_failed(dict)
    def check(self) -> dict[str, FieldResult]:
        """Grade the answers, show the verdicts and update the score."""
        if self.exercise is None:
            return {}
        results = self.exercise.grade(self.answers())
        self.results = results
        right, total = score(results)
        answered = sum(r.status != "empty" for r in results.values())
        if not answered:
            self.ask_for_an_answer(self._notes.values(), self.summary)
            return results
        for key, outcome in results.items():
            self._notes[key].value = self._note(outcome)
        waiting = f" {total - answered} not answered yet." if answered < total else ""
        check_id = uuid.uuid4().hex
        self.summary.value = (f'<p class="loo-summary"{self._report(check_id)}>'
                              f"{right} of {answered} answers right.{waiting}</p>")
        self.scoreboard.record(self.exercise.name, right, answered,
                               right == total and not self._shown,
                               kind=self.exercise.kind, seed=self.exercise.seed,
                               answer=answer_value(self.exercise, self.answers()),
                               time=datetime.datetime.now(datetime.timezone.utc).isoformat(
                                   timespec="seconds"))
        self._keep_check(right == total, check_id)
        if right == total and not self._shown:
            self.finish()
        return results

    def _now(self) -> str:
        return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")

    def _keep_check(self, right: bool, check_id: str = "") -> None:
        """Give the check to the score model and the download (a variant made from a seed, with
        some answer given); ``check_id`` is the id its report names."""
        exercise = self.exercise
        answers = self.answers()
        if exercise is None or exercise.seed is None or all(
                r.status == "empty" for r in self.results.values()):
            return
        self.scoreboard.keep_check(exercise.kind, exercise.seed,
                                   answer_value(exercise, answers), self._now(), right, check_id)

    def _keep_solution(self, check_id: str = "") -> None:
        exercise = self.exercise
        if exercise is not None and exercise.seed is not None:
            self.scoreboard.keep_solution(exercise.kind, exercise.seed,
                                          answer_value(exercise, self.answers()), self._now(),
                                          check_id)

    def _report(self, check_id: str = "") -> str:
        """The check as the classroom's page reports it to its server, as an attribute.

        ``data-loo-checked`` holds the check's own id and the item of an
        answers file: the kind, the seed and the answer (no verdict: the
        server has the engine judge it again). Left out for an exercise made
        from a record, which a seed cannot make. In the classroom (a kernel
        given the class's key) it also names the variant, says whether its
        solution was shown, and carries the kernel's ticket for both
        (:mod:`loo_tutor.teaching.issued`); a report with ``shown`` and no
        answer says the solution has just been shown.
        """
        return self._reported(answer_value(self.exercise, self.answers())
                              if self.exercise is not None else None, check_id)

    def _reported(self, answer: Any, check_id: str = "") -> str:
        if self.exercise is None or self.exercise.seed is None:
            return ""
        report = {"id": check_id or uuid.uuid4().hex, "kind": self.exercise.kind.word,
                  "seed": self.exercise.seed, "answer": answer}
        key = classroom_key()
        if key is not None:
            report.update(variant=self._variant, shown=self._shown,
                          issued=ticket(key, self._variant, self.exercise.kind.word,
                                        self.exercise.seed, self._shown))
        return f' data-loo-checked="{html.escape(json.dumps(report), quote=True)}"'

    def _note(self, outcome: FieldResult) -> str:
        lines = [d.message for d in outcome.details] or [outcome.message]
        shown = "<br>".join(str(link_rules(line, self._base)) for line in cite_once(lines))
        rule = ""
        link = None if outcome.rule is None else rule_link(outcome.rule, self._base)
        if link is not None and outcome.status == "wrong" and outcome.rule is not None \
                and f"#{outcome.rule.label}\"" not in shown:  # named once, not again
            rule = f' <span class="loo-note-rule">— read {link}</span>'
        return (f'<div class="loo-field-{outcome.status}">'
                f'{_MARKS.get(outcome.status, "")} {shown}{rule}</div>')

    @unless_failed(nothing)
    def show_solution(self) -> None:
        """Show the engine's answers and a step-through of the deal."""
        if self.exercise is None:
            return
        self._shown = True
        check_id = uuid.uuid4().hex
        self._keep_solution(check_id)
        told = self._reported(None, check_id) if classroom_key() is not None else ""
        parts: list[Any] = [self.part(widgets.HTML, f'<h5 class="loo-solution-title"{told}>'
                                      'Solution</h5>'
                                      + solution_html(self.exercise, self._base))]
        for title, record in self.exercise.walkthrough():
            parts.append(self.part(widgets.HTML, f"<p><strong>{html.escape(title)}</strong></p>"))
            parts.append(DealStepper(record, rules_base=self._base))
        self.solution.children = tuple(parts)

    def _render(self) -> str:
        notes = "".join(n.value for n in getattr(self, "_notes", {}).values())
        solution = "".join(getattr(child, "value", "") for child in self.solution.children)
        return (f"{self.header.value}{self.position.value}{notes}{self.summary.value}"
                f"{self.scoreboard.value}{solution}")
