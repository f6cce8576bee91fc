"""Exercises on paper and on the page: positions as HTML, worksheets and answer keys.

:func:`position_html` draws what an exercise shows (the deal so far, the
trick, the record, the session), :func:`solution_html` the engine's answers
with their reasons, and :func:`write_worksheet` a printable worksheet of
seeded exercises with a separate answer key, as a page and as an answers file
that ``loo-tutor mark`` scores all right (:mod:`loo_tutor.teaching.marking`). Everything here only draws what
:mod:`loo_tutor.teaching.exercises` and the engine report. The output depends on
nothing but its arguments, so the same seed always writes the same bytes.

The ``loo-tutor worksheet`` and ``loo-tutor exercise`` commands
(``loo_tutor.apps.cli``) run these.

>>> from loo_tutor.teaching.exercises import make
>>> page = position_html(make(1, 1234))
>>> 'role="img" aria-label="' in page
True
"""

from __future__ import annotations

import html
import os
import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..engine.cards import CARDS, Card, card_text
from ..engine.errors import LooError, MalformedRecord
from ..engine.legality import Announcement
from ..engine.state import DealKind, DealState, Trick
from ..records.reading import loads, read_text, reason
from ..records.record import dumps, load_record
from ..teaching.assignment import Assignment, Item, make_id
from ..teaching.exercises import (
    DealerChoice,
    Exercise,
    Field,
    FindIllegal,
    Kind,
    LegalCards,
    SessionNet,
    Settle,
    TrickWinner,
    from_record,
    make,
)
from ..teaching.marking import key_text
from .markup import HtmlStr, card_text_html, cite_once, link_rules, stylesheet

__all__ = [
    "MAX_COUNT", "answer_key_html", "position_html",
    "question_html", "solution_html", "worksheet_html", "worksheet_seeds",
    "write_assignment_sheet", "write_exercise_sheet", "write_record_sheet", "write_worksheet",
]

MAX_COUNT = 200
"""The most exercises of one type a worksheet may hold."""

RECORD_NAME = "record.yaml"
"""The copy of the deal record ``loo-tutor exercise`` writes beside its key."""

_CALLED = {Announcement.STAND: "stood", Announcement.PASS: "passed",
           Announcement.MISS: "took the miss", Announcement.DEFEND: "defended"}


def _e(text: object) -> str:
    return html.escape(str(text))


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(card_text_html(c) for c in cards) or "—"


def _facts(state: DealState, show_indicator: bool = False) -> str:
    """Who plays, who deals, the kind of deal, the pool and what is known of trumps."""
    players = ", ".join(_e(p) for p in state.players)
    dealer = _e(state.players[state.dealer])
    if state.kind is DealKind.DOUBLE:
        kind = f"a double deal: {_e(state.carried)} carried, so the pool is {_e(state.pool)}"
    else:
        kind = f"a simple deal: nothing carried, so the pool is {_e(state.pool)}"
    if state.trump is not None:
        trumps = (f"{state.trump.noun}s are trumps (indicator "
                  f"{card_text_html(state.indicator)})")
    elif show_indicator:
        trumps = (f"trumps are not known yet; the face-down indicator is "
                  f"{card_text_html(state.indicator)}")
    else:
        trumps = "trumps are not known yet (the indicator lies face down)"
    return (f'<p class="loo-facts">Players, clockwise: {players}. {dealer} deals {kind}; '
            f'{trumps}.</p>')


def _announcements(state: DealState) -> str:
    if not state.announcements:
        return ""
    said = "; ".join(f"{_e(state.players[s])} {_CALLED[a]}" for s, a in state.announcements)
    return f'<p class="loo-announced">Announcements, in order: {said}.</p>'


def _plays(state: DealState, trick: Trick) -> str:
    return ", ".join(f"{_e(state.players[s])} {card_text_html(c)}" for s, c in trick.plays)


def _trick_row(state: DealState, number: int, trick: Trick) -> str:
    cards = _plays(state, trick)
    won = ""
    if trick.winner is not None:
        won = f" — won by <strong>{_e(state.players[trick.winner])}</strong>"
    return f"<li>Trick {number} ({_e(state.players[trick.leader])} leads): {cards}{won}</li>"


def _tricks(state: DealState, tricks: Sequence[Trick], title: str = "Tricks") -> str:
    if not tricks:
        return ""
    rows = "".join(_trick_row(state, i, t) for i, t in enumerate(tricks, 1))
    return (f'<p>{title}:</p>'
            f'<ol class="loo-tricks" style="list-style:none;padding-left:1em">{rows}</ol>')


def _legal_cards(exercise: LegalCards) -> str:
    state = exercise.state
    name = _e(state.players[exercise.seat])
    parts = [_facts(state), _announcements(state), _tricks(state, state.tricks, "Tricks so far")]
    trick = state.all_tricks()[len(state.tricks):]
    if trick:
        leader = _e(state.players[trick[0].leader])
        parts.append(f"<p>Trick {len(state.tricks) + 1} so far ({leader} led): "
                     f"{_plays(state, trick[0])}; now it is {name}'s turn.</p>")
    else:
        parts.append(f"<p>{name} is to lead to trick {len(state.tricks) + 1}.</p>")
    parts.append(f'<p class="loo-hand-text">{name} holds: {_cards(exercise.hand)}</p>')
    return "".join(parts)


def _trick(exercise: TrickWinner) -> str:
    before = exercise.before
    parts = [_facts(before, show_indicator=True), _announcements(before),
             _tricks(before, before.tricks, "Earlier tricks")]
    cards = "".join(f"<li>{_e(name)}: {card_text_html(card)}</li>" for name, card in exercise.plays)
    parts.append(f'<p>Trick {exercise.number}, in the order played:</p>'
                 f'<ol class="loo-trick">{cards}</ol>')
    return "".join(parts)


def _dealer(exercise: DealerChoice) -> str:
    state = exercise.state
    return _facts(state) + _announcements(state) + (
        f"<p>{_e(exercise.dealer)}, the dealer, is the last to announce.</p>")


def _settle(exercise: Settle) -> str:
    state = exercise.state
    parts = [_facts(state), _announcements(state)]
    if state.tricks:
        parts.append(_tricks(state, state.tricks))
    else:
        parts.append("<p>No card was played.</p>")
    return "".join(parts)


def _hands(state: DealState) -> str:
    rows = "".join(f'<tr><th scope="row" style="text-align:left;padding-right:1em">{_e(name)}'
                   f'{" (dealer)" if seat == state.dealer else ""}</th>'
                   f"<td>{_cards(state.hands[seat])}</td></tr>"
                   for seat, name in enumerate(state.players))
    if state.miss is not None:
        rows += (f'<tr><th scope="row" style="text-align:left;padding-right:1em">the miss</th>'
                 f"<td>{_cards(state.miss)}</td></tr>")
    return ('<table class="loo-hands"><caption style="text-align:left">The hands as dealt'
            f'</caption>{rows}</table>')


def _find_illegal(exercise: FindIllegal) -> str:
    state = exercise.start
    labels = exercise.field("action").labels
    items = "".join(f"<li>{_label_html(label.split('. ', 1)[1])}</li>" for label in labels)
    return (_facts(state, show_indicator=True) + _hands(state)
            + f'<p>The actions, in order:</p><ol class="loo-actions">{items}</ol>')


def _label_html(label: str) -> str:
    """An action label with its card (the last word) drawn as a card."""
    head, _, last = label.rpartition(" ")
    card = _CARD_BY_SHOWN.get(last)
    if card is None:
        return _e(label)
    return f"{_e(head)} {card_text_html(card)}".lstrip()


def _session(exercise: SessionNet) -> str:
    deals = []
    for number, state in enumerate(exercise.deals, 1):
        dealer = _e(state.players[state.dealer])
        kind = "double" if state.kind is DealKind.DOUBLE else "simple"
        lines = [(f"{dealer} deals a {kind} deal with {_e(state.carried)} carried: the pool is "
                  f"{_e(state.pool)}.")]
        if state.announcements:
            lines.append("; ".join(f"{_e(state.players[s])} {_CALLED[a]}"
                                   for s, a in state.announcements) + ".")
        if state.collected_by is not None:
            lines.append(f"{_e(state.players[state.collected_by])} collects the pool without "
                         "play.")
        else:
            winners = ", ".join(_e(state.players[t.winner]) for t in state.tricks
                                if t.winner is not None)
            lines.append(f"Tricks won, in order: {winners}.")
        deals.append(f"<li><strong>Deal {number}.</strong> {' '.join(lines)}</li>")
    return f'<ol class="loo-deals" style="list-style:none;padding-left:0">{"".join(deals)}</ol>'


_CARD_BY_SHOWN = {card_text(card): card for card in CARDS}

_DRAWERS: dict[type[Exercise], Callable[[Any], str]] = {
    LegalCards: _legal_cards,
    TrickWinner: _trick,
    DealerChoice: _dealer,
    Settle: _settle,
    FindIllegal: _find_illegal,
    SessionNet: _session,
}


def position_html(exercise: Exercise) -> str:
    """What the exercise shows: the deal so far, the trick, the record or the session."""
    return HtmlStr(f'<div class="loo-position">{_DRAWERS[type(exercise)](exercise)}</div>')


def question_html(exercise: Exercise) -> str:
    """The question as a paragraph."""
    return HtmlStr(f'<p class="loo-question"><strong>{_e(exercise.question)}</strong></p>')


def solution_html(exercise: Exercise, base: str | None = None) -> str:
    """The engine's answer to each field, with its reason.

    Args:
        exercise: the exercise.
        base: where the book's ``rules.html`` is; rule IDs become links when
            given, and stay plain text (with the rule's title) otherwise.
    """
    rows = []
    for answer in exercise.solution():
        label = _e(exercise.field(answer.field).label)
        said = cite_once([answer.why])[0]
        why = link_rules(said, base) if base is not None else _e(said)
        rule = ""
        if answer.rule is not None and base is None:
            rule = f' <span class="loo-rule-title">[{_e(answer.rule.heading)}]</span>'
        rows.append(f'<li><strong>{label}:</strong> {_e(answer.text)}'
                    f'<br><span class="loo-why">{why}{rule}</span></li>')
    return HtmlStr(f'<ul class="loo-solution">{"".join(rows)}</ul>')


# -- paper -------------------------------------------------------------------------------------

_STYLE = """
body { font: 11pt/1.45 Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto;
       padding: 0 1em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin: 1.6em 0 0.4em; border-bottom: 1px solid #999; }
.loo-exercise { margin: 1.2em 0 1.8em; break-inside: avoid; page-break-inside: avoid; }
.loo-exercise h3 { font-size: 1.05em; margin: 0 0 0.3em; }
.loo-seed { color: #555; font-weight: normal; }
.loo-answers { margin: 0.6em 0 0; padding-left: 1.2em; }
.loo-answers li { margin: 0.35em 0; }
.loo-blank { display: inline-block; min-width: 9em; border-bottom: 1px solid #333; }
.loo-student { margin: 0.8em 0 1.2em; }
.loo-student .loo-blank { min-width: 16em; margin-right: 2em; }
.loo-box { display: inline-block; margin-right: 0.9em; white-space: nowrap; }
.loo-why { color: #333; font-size: 0.95em; }
.loo-hands td, .loo-hands th { padding: 0.1em 0.4em; }
@media print { body { margin: 0; } a { color: inherit; text-decoration: none; } }
"""


def _blank(field: Field) -> str:
    if field.form in ("cards", "choices", "names"):
        boxes = "".join(f'<span class="loo-box">☐ {_option(field, i)}</span>'
                        for i in range(len(field.options)))
        if field.form == "names":
            boxes += '<span class="loo-box">☐ nobody</span>'
        return boxes
    if field.form == "yesno":
        return '<span class="loo-box">☐ yes</span><span class="loo-box">☐ no</span>'
    if field.form == "rule":
        return ('<span class="loo-blank">&nbsp;</span><br><span class="loo-why">one of '
                f'{", ".join(_e(o) for o in field.options)}</span>')
    if field.form == "choice" and len(field.options) <= 8 and all(
            len(label) < 24 for label in field.labels):
        return "".join(f'<span class="loo-box">☐ {_option(field, i)}</span>'
                       for i in range(len(field.options)))
    return '<span class="loo-blank">&nbsp;</span>'


def _option(field: Field, index: int) -> str:
    label = field.labels[index] if field.labels else field.options[index]
    if field.form == "cards":
        return _label_html(label)
    return _e(label)


def _exercise_block(number: int, exercise: Exercise, body: str) -> str:
    return (f'<section class="loo-exercise" id="exercise-{number}">'
            f'<h3>{number}. {_e(exercise.title)} '
            f'<span class="loo-seed">({_e(exercise.name)})</span></h3>{body}</section>')


def _page(title: str, intro: str, sections: Iterable[str], ident: str = "") -> str:
    tag = f'<p class="loo-assignment">Assignment {_e(ident)}</p>\n' if ident else ""
    body = f"<h1>{_e(title)}</h1>\n{tag}{intro}\n" + "\n".join(sections)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_e(title)}</title>\n<style>{_STYLE}</style>{stylesheet(body)}\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")


def _groups(exercises: Sequence[Exercise]) -> list[tuple[Kind, list[tuple[int, Exercise]]]]:
    """The exercises in order, each run of one kind under one heading."""
    groups: list[tuple[Kind, list[tuple[int, Exercise]]]] = []
    for number, exercise in enumerate(exercises, 1):
        if not groups or groups[-1][0] is not exercise.kind:
            groups.append((exercise.kind, []))
        groups[-1][1].append((number, exercise))
    return groups


def worksheet_html(exercises: Sequence[Exercise], title: str = "Loo exercises",
                   ident: str = "") -> str:
    """A printable worksheet: a line for the student's name and the date, then each
    exercise's position, question and answer spaces, in order; ``ident`` is the
    assignment's id, printed under the title."""
    student = ('<p class="loo-student">Name: <span class="loo-blank loo-name">&nbsp;</span>'
               'Date: <span class="loo-blank loo-date">&nbsp;</span></p>')
    intro = (student + "<p>Answer every question. Write amounts as a whole number (4), "
             "a fraction (10/3) or "
             "a mixed number (3 1/3); the ledger is exact, so never round. Each exercise can also "
             "be opened in the tutor by its type and seed.</p>")
    sections = []
    for kind, members in _groups(exercises):
        blocks = []
        for number, exercise in members:
            fields = "".join(f"<li>{_e(f.label)}: {_blank(f)}</li>" for f in exercise.fields)
            body = (position_html(exercise) + question_html(exercise)
                    + f'<ol class="loo-answers" style="list-style:none">{fields}</ol>')
            blocks.append(_exercise_block(number, exercise, body))
        sections.append(f"<h2>Type {int(kind)}: {_e(kind.title)}</h2>" + "".join(blocks))
    return _page(title, intro, sections, ident)


def answer_key_html(exercises: Sequence[Exercise], title: str = "Loo exercises",
                    ident: str = "") -> str:
    """The answer key of a worksheet: every answer with its reason and rule ID."""
    intro = ("<p>Answers computed by the rules engine. Each reason names the rule it rests on; "
             "the rule index of the book explains every rule ID.</p>")
    sections = []
    for kind, members in _groups(exercises):
        blocks = [_exercise_block(number, exercise,
                                  question_html(exercise) + solution_html(exercise))
                  for number, exercise in members]
        sections.append(f"<h2>Type {int(kind)}: {_e(kind.title)}</h2>" + "".join(blocks))
    return _page(f"{title}: answer key", intro, sections, ident)


def worksheet_seeds(seed: int, count: int) -> list[int]:
    """The seeds of the exercises of a worksheet, drawn from the worksheet's seed.

    >>> worksheet_seeds(1, 3) == worksheet_seeds(1, 3) != worksheet_seeds(2, 3)
    True
    """
    rng = random.Random(f"loo-tutor worksheet {seed}")
    return [rng.randrange(1_000_000) for _ in range(count)]


def write_worksheet(kinds: Sequence[int | Kind], count: int, seed: int, out: str | os.PathLike[str],
                    progress: Callable[[int, int], None] | None = None
                    ) -> tuple[Path, Path, Path]:
    """Write ``count`` seeded exercises of each kind as a worksheet and its answer key.

    Args:
        kinds: exercise types, 1 to 6.
        count: exercises of each type (1 to :data:`MAX_COUNT`).
        seed: the worksheet's seed; the same seed writes the same files.
        out: the folder to write ``worksheet.html``, ``answers.html`` and
            ``key.yaml`` into (made if missing).
        progress: called with (done, total) after each exercise.

    Returns:
        the paths of the worksheet, the answer key and the key as an answers file.

    Raises:
        LooError: a bad type, count or seed, or the folder cannot be written.
    """
    chosen = [Kind.parse(k) for k in kinds]
    if not chosen:
        raise LooError("no exercise type given")
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise LooError(f"count {count!r} is not a whole number from 1 to {MAX_COUNT}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise LooError(f"seed {seed!r} is not a whole number, 0 or more")
    total = count * len(chosen)
    seeds = worksheet_seeds(seed, total)
    exercises: list[Exercise] = []
    for kind in chosen:
        for _ in range(count):
            exercises.append(make(kind, seeds[len(exercises)]))
            if progress is not None:
                progress(len(exercises), total)
    return write_exercise_sheet(exercises, f"Loo exercises, seed {seed}", out)


def _sheet_files(exercises: Sequence[Exercise], title: str, ident: str,
                 records: Sequence[str] | None = None, seed: int = 0) -> dict[str, str]:
    """The worksheet, its answer key and the key (an assignment with ``title`` and id ``ident``)."""
    return {"worksheet.html": worksheet_html(exercises, title, ident),
            "answers.html": answer_key_html(exercises, title, ident),
            "key.yaml": key_text(exercises, f"answer key, {title}", seed=seed, title=title,
                                 assignment=ident, records=records)}


def write_exercise_sheet(exercises: Sequence[Exercise], title: str, out: str | os.PathLike[str]
                         ) -> tuple[Path, Path, Path]:
    """Write seeded ``exercises`` as a worksheet, its answer key and its key (an assignment
    whose id is made from the exercises), e.g. a student's follow-up sheet.

    Raises:
        LooError: the folder cannot be written.
    """
    ident = make_id(tuple(Item(e.kind, e.seed or 0) for e in exercises))
    return _write(out, _sheet_files(exercises, title, ident))


def write_assignment_sheet(assignment: Assignment, folder: str | os.PathLike[str],
                           out: str | os.PathLike[str],
                           progress: Callable[[int, int], None] | None = None
                           ) -> tuple[Path, Path, Path]:
    """Print an assignment: its exercises in its order, as a worksheet and its answer key.

    Args:
        assignment: the assignment (:func:`~loo_tutor.teaching.assignment.read_assignment`).
        folder: the assignment file's folder, where the records its items name are read.
        out: the folder to write into.
        progress: called with (done, total) after each exercise.

    Raises:
        MalformedRecord: a record an item names cannot be read.
        LooError: a record does not suit its item's kind, or the folder cannot be written.
    """
    exercises: list[Exercise] = []
    records: list[str] = []
    for item in assignment.items:
        if item.record:
            path = Path(folder) / item.record
            exercise = from_record(load_record(path), item.kind, item.seed)
            exercise.origin = f"the record {path.name}, seed {item.seed}"
            records.append(os.path.relpath(path.resolve(), Path(out).resolve()))
        else:
            exercise = make(item.kind, item.seed)
            records.append("")
        exercises.append(exercise)
        if progress is not None:
            progress(len(exercises), len(assignment.items))
    return _write(out, _sheet_files(exercises, assignment.title, assignment.id, records))


def _write(out: str | os.PathLike[str], files: dict[str, str]) -> tuple[Path, Path, Path]:
    """Write ``files`` (name to text) into ``out``; the paths of the first three."""
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / name for name in files]
        for path, text in zip(paths, files.values(), strict=True):
            path.write_text(text, encoding="utf-8", newline="\n")
    except OSError as exc:
        reason = exc.strerror.lower() if exc.strerror else str(exc)
        raise LooError(f"cannot write into {str(folder)!r}: {reason}") from None
    return paths[0], paths[1], paths[2]


def write_record_sheet(record_path: str, kinds: Sequence[int | Kind], out: str | os.PathLike[str],
                       seed: int = 0) -> tuple[Path, Path, Path]:
    """Turn a teacher's deal record into an exercise sheet and its answer key.

    Writes ``worksheet.html``, ``answers.html``, ``key.yaml`` and, for the
    key's items to name, the record itself as ``record.yaml``.

    Raises:
        MalformedRecord: the record cannot be read or is not a deal.
        LooError: the record does not suit an exercise type.
    """
    record = load_record(Path(record_path)) if record_path != "-" else _stdin_record()
    exercises: list[Exercise] = []
    for kind in kinds:
        exercise = from_record(record, kind, seed)
        exercise.origin = f"the record {Path(record_path).name}" if record_path != "-" else \
            "a deal record"
        exercises.append(exercise)
    title = "Loo exercises from a deal record"
    ident = make_id(tuple(Item(e.kind, seed, RECORD_NAME) for e in exercises))
    return _write(out, {**_sheet_files(exercises, title, ident, [RECORD_NAME] * len(exercises),
                                       seed), RECORD_NAME: dumps(record)})


def _stdin_record() -> dict[str, Any]:
    try:
        text = read_text("-")
    except (OSError, UnicodeDecodeError) as exc:
        raise MalformedRecord(f"cannot read standard input: {reason(exc)}") from None
    return loads(text)
