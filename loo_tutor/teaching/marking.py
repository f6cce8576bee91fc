"""Marking a student's answers: every exercise made again from its kind and seed, and judged.

An answers file is YAML (or JSON with the same keys), one per student, the
same for a sheet typed in by a teacher, a key written by ``loo-tutor
worksheet`` and a download from the book's exercises page::

    student: Ann Smith
    answers:
      - kind: legal-cards              # the kind's name or number (1 to 6)
        seed: 2024                     # the exercise's own seed, 0 to 1,000,000,000
        answer: [10D, 3S]
        time: 2026-12-04T10:15:00Z     # optional: when it was answered

What ``answer`` holds depends on the kind (:data:`SHAPES`): cards as records
write them (``10D``, ``QH``), players by name, announcements and rule IDs as
words, amounts as whole numbers, fractions or mixed numbers (``4``,
``-10/3``, ``-3 1/3``); the exercises' own readers
(:mod:`loo_tutor.teaching.answers`) read each one.

:func:`judge` makes the exercise again with the engine and judges the answer:
``"right"``, ``"wrong"`` (with the rule behind the right answer and one
sentence), ``"unreadable"`` (an answer that cannot be read or has the wrong
shape, which counts as wrong) or ``"not an exercise"`` (an unknown kind, a
bad seed). Nothing a file says about being right is read; each student's
marks are scored with the one score model (:mod:`loo_tutor.teaching.score`).
:func:`read_answers` reads a file with the records' safe reader
(:mod:`loo_tutor.records.reading`), :func:`key_text` writes an exercise
sheet's key in the same format (it is also the sheet's assignment,
:mod:`loo_tutor.teaching.assignment`), :func:`write_grade_book` writes a grade
book of one row per student and exercise, and :func:`write_csv` a log of
every check.

>>> from loo_tutor.teaching.exercises import make
>>> exercise = make(1, 2024)
>>> judge("legal-cards", 2024, key_answer(exercise)).verdict
'right'
>>> judge("legal-cards", 2024, "AS").verdict
'wrong'
>>> judge("cards", 2024, "AS").verdict
'not an exercise'
>>> judge("legal-cards", 2024, "4X").verdict
'unreadable'
"""

from __future__ import annotations

import csv
import datetime
import functools
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import yaml

from ..engine.errors import LooError, MalformedRecord
from ..engine.rules import RuleKey
from ..records.reading import Limits, loads, read_text, reason
from ..records.record import load_record
from .answers import AnswerError, FieldResult, is_empty
from .assignment import LIMITS as ASSIGNMENT_LIMITS
from .assignment import MAX_ITEMS, Assignment
from .assignment import MAX_SEED as MAX_SEED
from .exercises import Answer, Exercise, Kind, from_record, make
from .score import NOT_AN_EXERCISE as NOT_AN_EXERCISE
from .score import RIGHT as RIGHT
from .score import SOLUTION as SOLUTION
from .score import UNREADABLE as UNREADABLE
from .score import WRONG as WRONG
from .score import Score, score

CSV_COLUMNS = ("student", "kind", "seed", "answer", "verdict", "rule", "time")
"""The columns of a log of checks (:func:`write_csv`), one row per check."""

GRADE_BOOK_COLUMNS = (*CSV_COLUMNS, "outcome", "checks", "note")
"""The grade book's columns (:func:`write_grade_book`): one row per student and exercise,
the first seven as in :data:`CSV_COLUMNS` for the check that decided it, then its
outcome (:class:`~loo_tutor.teaching.score.Outcome`), how many checks it took and what was
amiss."""

SHAPES: dict[Kind, str] = {
    Kind.LEGAL_CARDS: "the cards that may be played: [10D, 3S] or \"10D, 3S\"",
    Kind.TRICK: "the winner's name (Ben); when the exercise also asks whether trumps are "
                "revealed: {winner: Ben, revealed: yes}",
    Kind.DEALER: "the dealer's announcements, some of stand, pass, miss and defend: "
                 "[stand, miss]; or none when the dealer collects",
    Kind.SETTLE: "{payouts: {Anna: 0, Ben: 10/3, ...}, looed: [Carla] or nobody, "
                 "carried: 3, next_pool: 6}",
    Kind.FIND_ILLEGAL: "{action: 7, rule: R-FOLLOW}: the number of the first illegal action "
                       "and the rule it breaks",
    Kind.SESSION: "{left: 4, net: {Anna: -3 1/3, Ben: 10/3, ...}}: what is left in the pool "
                  "and every final balance",
}
"""What ``answer`` holds for each kind, in the words of ``loo-tutor mark --help``."""

AMOUNTS = "amounts are whole numbers (4), fractions (-10/3) or mixed numbers (-3 1/3)"
"""How every amount of an answers file is written."""

OFF = "not on the assignment"
"""The outcome the grade book gives an answer to an exercise the assignment does not set."""
OFF_NOTE = ("not marked: no exercise of the assignment has this kind and seed (a mistyped "
            "seed?)")

_GROUPS = {"payout": "payouts", "net": "net"}  # fields "payout:Anna" are read under "payouts"
_BARE = (Kind.LEGAL_CARDS, Kind.TRICK, Kind.DEALER)  # kinds whose answer may be one value
_ITEM_KEYS = ("kind", "seed", "answer", "time", "record", "solution_shown")
_FILE_KEYS = ("student", "answers", "assignment", "title")
_LONGEST_TEXT = 300

LIMITS = Limits(characters=ASSIGNMENT_LIMITS.characters, values=ASSIGNMENT_LIMITS.values,
                what="an answers file")
"""How large an answers file may be, as large as an assignment, so that the key of the
largest worksheet (:data:`~loo_tutor.render.worksheet.MAX_COUNT` of each kind) is read;
read with the records' safe reader all the same, which takes seconds at most."""


@dataclass(frozen=True)
class Mark:
    """The verdict on one answered exercise.

    Attributes:
        kind: the kind's name (``"legal-cards"``), or the kind as the file
            gave it when it names none.
        seed: the exercise's seed; -1 when the file gave no whole number.
        answer: the answer as text, in the answers-file notation
            (``[10D, 3S]``, ``{winner: Ben, revealed: yes}``).
        verdict: ``"right"``, ``"wrong"``, ``"unreadable"`` (the answer, or a
            part of it, cannot be read or has the wrong shape; it counts as
            wrong) or ``"not an exercise"`` (no exercise has this kind and
            seed; never counted).
        rule: for a wrong answer, the ID of the rule behind the right answer
            (``"R-FOLLOW"``); otherwise ``""``.
        message: one sentence: why the answer is wrong, or why it is not an
            exercise; ``"right"`` for a right answer.
        rule_name: the rule's heading (``"Follow suit"``), or ``""``.
        expected: for a wrong answer, the engine's answer to the first part
            that is not right, as an answer key writes it; otherwise ``""``.
        parts: one sentence for every part that is not right (wrong, left
            empty or unreadable), each with the engine's answer to it.
    """

    kind: str
    seed: int
    answer: str
    verdict: str
    rule: str
    message: str
    rule_name: str = ""
    expected: str = ""
    parts: tuple[str, ...] = ()

    @property
    def is_right(self) -> bool:
        """Whether the answer is right."""
        return self.verdict == RIGHT


# -- the answer as text ----------------------------------------------------------------------


def _plain(value: object) -> Any:
    """A value read from YAML or JSON, or sent by a page, as text, lists and mappings only.

    Numbers become the text they stand for (``2.5`` the text ``"2.5"``, so a
    decimal is read as written), YAML's ``yes``/``no`` become those words,
    dates their ISO 8601 text.
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, Mapping):
        return {_scalar_text(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return str(value)


def _scalar_text(value: object) -> str:
    plain = _plain(value)
    return plain if isinstance(plain, str) else answer_text(plain)


def answer_text(value: object) -> str:
    """An answer as one line in the answers-file notation, at most a few hundred characters.

    >>> answer_text(["10D", "3S"]), answer_text({"winner": "Ben", "revealed": True})
    ('[10D, 3S]', '{winner: Ben, revealed: yes}')
    """
    plain = _plain(value)
    if plain is None:
        text = ""
    elif isinstance(plain, list):
        text = "[" + ", ".join(answer_text(v) for v in plain) + "]"
    elif isinstance(plain, dict):
        text = "{" + ", ".join(f"{_printable(k)}: {answer_text(v)}" for k, v in plain.items()) + "}"
    else:
        text = _printable(str(plain))
    return text if len(text) <= _LONGEST_TEXT else text[:_LONGEST_TEXT - 1] + "…"


# -- judging ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=512)
def _made(kind: Kind, seed: int) -> Exercise:
    """The exercise of ``kind`` and ``seed``, made once for a whole class's files."""
    return make(kind, seed)


def _seed(value: object) -> int:
    """A seed from 0 to :data:`~loo_tutor.teaching.assignment.MAX_SEED`, given as a number or its text.

    Raises:
        LooError: anything else.
    """
    text = str(value).strip() if isinstance(value, (int, str)) and not isinstance(
        value, bool) else None
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 10 or int(text) > MAX_SEED:
        raise LooError(f"seed {answer_text(value) or 'missing'}: a seed is a whole number from 0 "
                       f"to {MAX_SEED:,}")
    return int(text)


def _fields(exercise: Exercise, answer: object) -> dict[str, object]:
    """The answer of an answers file as the exercise's fields (:data:`SHAPES`).

    Raises:
        AnswerError: the answer does not have the kind's shape.
    """
    shape = f"for {exercise.kind.word} write {SHAPES[exercise.kind]}"
    if not isinstance(answer, dict):
        if exercise.kind not in _BARE:
            raise AnswerError(f"the answer is not a mapping: {shape}")
        return {exercise.fields[0].key: answer}
    groups: dict[str, dict[str, str]] = {}  # "payouts" -> {"anna": "payout:Anna"}
    plain: set[str] = set()
    for f in exercise.fields:
        head, _, name = f.key.partition(":")
        if name:
            groups.setdefault(_GROUPS[head], {})[name.lower()] = f.key
        else:
            plain.add(f.key)
    found: dict[str, object] = {}
    for key, value in answer.items():
        if key in plain and value == [] and exercise.field(key).form == "names":
            found[key] = "nobody"  # an empty list written on purpose: nobody is looed
        elif key in plain:
            found[key] = value
        elif key in groups:
            if not isinstance(value, dict):
                raise AnswerError(f"{key} is not a mapping of players to amounts: {shape}")
            for name, amount in value.items():
                if name.lower() not in groups[key]:
                    players = ", ".join(f.key.partition(":")[2] for f in exercise.fields
                                        if f.key.partition(":")[2])
                    raise AnswerError(f"{key}: {name!r} is not a player of this deal "
                                      f"({players})")
                found[groups[key][name.lower()]] = amount
        else:
            parts = ", ".join([f.key for f in exercise.fields if f.key in plain] + list(groups))
            raise AnswerError(f"the answer has no part {key!r}: this exercise asks for {parts}")
    return found


def _not_an_exercise(kind: str, seed: int, answer: object, message: str) -> Mark:
    return Mark(kind, seed, answer_text(answer), NOT_AN_EXERCISE, "", _sentence(message))


def _printable(text: str) -> str:
    """``text`` on one line, without characters a terminal or a spreadsheet would act on."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _sentence(text: str) -> str:
    """``text`` on one line, ending with a full stop."""
    line = _printable(text)
    return line if line.endswith((".", "!", "?")) else line + "."


def judge(kind: object, seed: object, answer: object, *,
          record: Mapping[str, Any] | None = None) -> Mark:
    """Make the exercise of ``kind`` and ``seed`` again and judge ``answer``. Never raises.

    Args:
        kind: the kind's name (``"legal-cards"``) or number (``1`` or ``"1"``).
        seed: the exercise's seed, 0 to :data:`~loo_tutor.teaching.assignment.MAX_SEED`.
        answer: the answer as read from an answers file (YAML or JSON) or
            sent by a page: text, numbers, lists and mappings (:data:`SHAPES`).
        record: make the exercise from this deal record instead (as
            ``loo-tutor exercise`` does), ``seed`` choosing as it does there.

    Returns:
        the :class:`Mark`: "right" when every part of the answer is right;
        "wrong" when some part is wrong or left empty, naming the first
        such part's rule; "unreadable" when the answer or a part of it
        cannot be read or has another shape than the kind's (it counts as
        wrong); "not an exercise" when there is no such exercise. Its
        ``parts`` say what is amiss with every part that is not right.
    """
    try:
        chosen = Kind.parse(kind)
    except LooError as exc:
        return _not_an_exercise(_kind_shown(kind), _seed_or_minus_one(seed), answer, str(exc))
    try:
        number = _seed(seed)
        exercise = _made(chosen, number) if record is None else from_record(record, chosen,
                                                                           number)
    except LooError as exc:  # MalformedRecord among them
        return _not_an_exercise(chosen.word, _seed_or_minus_one(seed), answer, str(exc))
    given = _plain(answer)
    text = answer_text(given)
    try:
        results = exercise.grade(_fields(exercise, given))
    except AnswerError as exc:
        return Mark(chosen.word, number, text, UNREADABLE, "", _sentence(str(exc)),
                    parts=(_sentence(str(exc)),))
    parts: list[str] = []
    first: tuple[FieldResult, Answer] | None = None
    unreadable = ""
    for f in exercise.fields:
        result = results[f.key]
        if result.is_right:
            continue
        right = next(a for a in exercise.solution() if a.field == f.key)
        if result.status == "empty":
            said = "not answered"
        else:
            said = " ".join(d.message for d in result.details) or result.message
        parts.append(_sentence(f"{f.label}: {said}") + f" The answer: {right.text}.")
        if result.status == "unreadable":
            unreadable = unreadable or _sentence(f"{f.label}: {result.message}")
        elif first is None:
            first = result, right
    if unreadable:
        return Mark(chosen.word, number, text, UNREADABLE, "", unreadable, parts=tuple(parts))
    if first is None:
        return Mark(chosen.word, number, text, RIGHT, "", "right")
    result, right = first
    if result.status == "empty":
        said, rule = "not answered", right.rule
    else:
        said = (result.details[0] if result.details else result).message
        rule = result.rule or right.rule
    label = exercise.field(right.field).label
    return Mark(chosen.word, number, text, WRONG, _rule_id(rule), _sentence(f"{label}: {said}"),
                rule.heading if rule is not None else "", right.text, tuple(parts))


def _seed_or_minus_one(seed: object) -> int:
    try:
        return _seed(seed)
    except LooError:
        return -1


def _rule_id(rule: RuleKey | None) -> str:
    return "" if rule is None else str(rule.value)


# -- keys ------------------------------------------------------------------------------------


def answer_value(exercise: Exercise, answers: Mapping[str, Any]) -> Any:
    """Answers by field key, as an exercise's ``grade`` takes them, in the answers-file shape
    (:data:`SHAPES`); parts left empty are left out.

    >>> from loo_tutor.teaching.exercises import make
    >>> answer_value(make(6, 1), {"left": "12", "net:Anna": "-3", "net:Ben": ""})
    {'left': 12, 'net': {'Anna': '-3'}}
    """
    values: dict[str, Any] = {}
    for f in exercise.fields:
        value = answers.get(f.key)
        if is_empty(value) and not (exercise.kind in _BARE and f is exercise.fields[0]):
            continue
        shown = int(value) if isinstance(value, str) and value.isascii() and value.isdigit() else value
        if f.form == "names" and isinstance(value, str) and "," in value:
            shown = [name.strip() for name in value.split(",")]
        head, _, name = f.key.partition(":")
        if name:
            values.setdefault(_GROUPS[head], {})[name] = shown
        else:
            values[f.key] = shown
    if exercise.kind in _BARE and list(values) == [exercise.fields[0].key]:
        return values[exercise.fields[0].key]
    return values


def key_answer(exercise: Exercise) -> Any:
    """The engine's answer to ``exercise`` in the answers-file shape (:data:`SHAPES`)."""
    return answer_value(exercise, exercise.answers())


def key_text(exercises: Sequence[Exercise], student: str = "answer key",
             record: str | None = None, seed: int = 0, *, title: str | None = None,
             assignment: str | None = None, records: Sequence[str] | None = None) -> str:
    """An answers file holding the engine's answer to every exercise, as YAML.

    The key is also an assignment (:mod:`loo_tutor.teaching.assignment`): with
    ``title`` and ``assignment`` (its id) it names them.

    Args:
        exercises: the exercises, each made from a seed or (with ``record``)
            from a deal record.
        student: the name the file gives.
        record: the deal record file the exercises were made from, as the
            key's items name it (a path from the key's folder).
        seed: the seed the exercises made from the record were made with.
        title: the assignment's title.
        assignment: the assignment's id.
        records: each exercise's own record file (``""`` for none), instead of ``record``.
    """
    items = []
    for index, exercise in enumerate(exercises):
        item: dict[str, Any] = {"kind": exercise.kind.word, "seed": (
            seed if exercise.seed is None else exercise.seed)}
        named = records[index] if records is not None else record
        if named:
            item["record"] = named
        item["answer"] = key_answer(exercise)
        items.append(item)
    head: dict[str, Any] = {"student": student}
    if title is not None:
        head["title"] = title
    if assignment is not None:
        head["assignment"] = assignment
    return yaml.safe_dump({**head, "answers": items}, sort_keys=False,
                          allow_unicode=True, default_flow_style=None, width=100)


# -- reading an answers file -----------------------------------------------------------------


@dataclass(frozen=True)
class Marked:
    """One answers file, marked.

    Attributes:
        path: the file as named.
        student: the name the file gives (the file's name when it gives none).
        marks: ``(place, mark, time)`` per answer, in the file's order; the
            place is ``answers[0]``, ``answers[1]``…
        problems: one line per thing that could not be read, each naming
            the file and the place.
        read: whether the file could be read at all.
        assignment: the id of the assignment the file says it answers, or ``""``.
    """

    path: str
    student: str
    marks: tuple[tuple[str, Mark, str], ...] = ()
    problems: tuple[str, ...] = ()
    read: bool = True
    assignment: str = ""

    def score(self, assignment: Assignment | None = None) -> Score[Mark]:
        """The outcome of each exercise (:func:`~loo_tutor.teaching.score.score`): every
        exercise of ``assignment``, or else every exercise the file answers."""
        return score([mark for _, mark, _ in self.marks],
                     None if assignment is None else assignment.keys())

    def grade_rows(self, assignment: Assignment | None = None) -> list[tuple[str, ...]]:
        """The grade book's rows for this student (:data:`GRADE_BOOK_COLUMNS`).

        One row per exercise scored, then one per answer to an exercise not on
        the assignment and one per item that is no exercise, each with its
        note; a file that cannot be read is one row saying why.
        """
        if not self.read:
            why = " ".join(self.problems)
            return [(self.student, "", "", "", "", "", "", "unreadable file", "0", why)]
        times = {id(mark): when for _, mark, when in self.marks}
        chosen = self.score(assignment)
        rows: list[tuple[str, ...]] = []
        for item in chosen.items:
            mark = item.last
            if mark is None:
                rows.append((self.student, item.kind, str(item.seed), "", "", "", "",
                             item.outcome.value, str(item.checks), ""))
                continue
            note = " ".join(mark.parts) if mark.verdict in (WRONG, UNREADABLE) else ""
            rows.append((self.student, item.kind, str(item.seed), mark.answer, mark.verdict,
                         mark.rule, times.get(id(mark), ""), item.outcome.value,
                         str(item.checks), note))
        for outcome, marks in ((OFF, chosen.off), (NOT_AN_EXERCISE, chosen.unjudged)):
            for check in marks:
                seed = str(check.seed) if check.seed >= 0 else ""
                judged = outcome == NOT_AN_EXERCISE  # an answer off the assignment is not judged
                rows.append((self.student, check.kind, seed, check.answer,
                             check.verdict if judged else "", check.rule if judged else "",
                             times.get(id(check), ""), outcome, "",
                             OFF_NOTE if outcome == OFF else check.message))
        return rows


@dataclass
class _Reading:
    path: str
    folder: Path
    marks: list[tuple[str, Mark, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def problem(self, place: str, message: str) -> None:
        self.problems.append(f"{self.path}: {_printable(place)}: {_sentence(message)}")


def read_answers(path: str) -> Marked:
    """Read and mark one answers file. Never raises: what cannot be read is a problem line.

    ``-`` reads standard input. A record an item names is read from the
    answers file's folder.
    """
    shown = "standard input" if path == "-" else _printable(path)
    folder = Path.cwd() if path == "-" else Path(path).parent
    try:
        text = read_text(path, LIMITS)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name, or not UTF-8
        return Marked(path, Path(path).stem or shown,
                      problems=(f"{shown}: cannot read the file: {reason(exc)}",), read=False)
    return mark_text(text, shown, folder)


def mark_text(text: str, path: str = "answers", folder: str | os.PathLike[str] = ".") -> Marked:
    """Read and mark the text of an answers file; ``path`` names it in the problem lines."""
    try:
        data = loads(text, LIMITS)
    except MalformedRecord as exc:
        message = str(exc).removeprefix("record: ")
        return Marked(path, Path(path).stem, problems=(f"{path}: {_sentence(message)}",),
                      read=False)
    reading = _Reading(path, Path(folder))
    unknown = [k for k in data if k not in _FILE_KEYS]
    student = data.get("student")
    answers = data.get("answers")
    tag = data.get("assignment")
    if unknown:
        reading.problem(_key_name(unknown[0]), "an answers file has only the fields student, "
                        "answers, and optionally assignment and title")
    elif tag is not None and not isinstance(tag, (str, int)):
        reading.problem("assignment", "the assignment's id is one word")
    elif not isinstance(answers, list):
        reading.problem("answers", "missing or not a list: write answers as a list of "
                        "items, each with kind, seed and answer")
    elif len(answers) > MAX_ITEMS:
        reading.problem("answers", f"{len(answers):,} items, more than the {MAX_ITEMS:,} of "
                        "the largest worksheet")
    elif student is not None and not isinstance(student, (str, int)):
        reading.problem("student", "the student's name is one line of text")
    if reading.problems:
        return Marked(path, Path(path).stem, problems=tuple(reading.problems), read=False)
    name = _printable(str(student))[:_LONGEST_TEXT] if student is not None else ""
    assert isinstance(answers, list)
    for index, item in enumerate(answers):
        _mark_item(reading, f"answers[{index}]", item)
    return Marked(path, name or Path(path).stem, tuple(reading.marks), tuple(reading.problems),
                  assignment=_printable(str(tag))[:60] if tag is not None else "")


def _kind_shown(kind: object) -> str:
    """A kind that names none, as a mark shows it."""
    return _printable(_scalar_text(kind))[:40]


def _key_name(key: object) -> str:
    """A key as a place in a problem line: as written, or quoted when it would mislead."""
    text = _scalar_text(key)
    plain = text and text.isprintable() and text.strip() == text and len(text) <= 40
    return text if plain else repr(text[:40])


def _mark_item(reading: _Reading, place: str, item: object) -> None:
    if not isinstance(item, dict):
        reading.problem(place, "an item is a mapping with kind, seed and answer")
        reading.marks.append((place, _not_an_exercise("", -1, item, "not a mapping"), ""))
        return
    unknown = [k for k in item if k not in _ITEM_KEYS]
    missing = [k for k in ("kind", "seed") if k not in item]
    kind, seed = item.get("kind"), item.get("seed")
    if unknown or missing:
        said = (f"unknown field {_key_name(unknown[0])}" if unknown
                else f"no {missing[0]}")
        message = (f"{said}: an item has kind, seed, answer, and optionally time, record "
                   "and solution_shown")
        reading.problem(place, message)
        reading.marks.append((place, _not_an_exercise(_kind_shown(kind),
                                                      _seed_or_minus_one(seed), item.get("answer"),
                                                      message), ""))
        return
    when = _time(item.get("time"))
    if when is None:
        reading.problem(f"{place}.time", "not a date and time in ISO 8601 form, such as "
                        "2026-12-04T10:15:00Z; left out")
    record = None
    if item.get("record") is not None:
        try:
            record = _record(reading.folder, item["record"])
        except MalformedRecord as exc:
            mark = _not_an_exercise(_kind_shown(kind), _seed_or_minus_one(seed),
                                    item.get("answer"), f"the record: {exc}")
            reading.problem(f"{place}.record", mark.message)
            reading.marks.append((place, mark, when or ""))
            return
    mark = judge(kind, seed, item.get("answer"), record=record)
    if mark.verdict == NOT_AN_EXERCISE:
        reading.problem(f"{place} ({mark.kind}, seed {_scalar_text(seed)[:20]})", mark.message)
    elif str(_plain(item.get("solution_shown"))).strip().lower() in ("yes", "true"):
        shown = Mark(mark.kind, mark.seed, "", SOLUTION, "", "the solution was shown.")
        reading.marks.append((place, shown, when or ""))
    reading.marks.append((place, mark, when or ""))


def _time(value: object) -> str | None:
    """An item's time as ISO 8601 text; ``""`` when it has none, ``None`` when it is not one."""
    if value is None:
        return ""
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, str) and len(value) <= 40:
        try:
            return datetime.datetime.fromisoformat(value.strip()).isoformat()
        except ValueError:
            return None
    return None


def _record(folder: Path, name: object) -> dict[str, Any]:
    """The deal record an item names, read from the answers file's folder and from no other.

    Raises:
        MalformedRecord: no such file, a file outside that folder, or not a record.
    """
    if not isinstance(name, str) or not name.strip() or len(name) > 500:
        raise MalformedRecord("write the record as the name of a deal record file")
    path = folder / name.strip()
    try:
        inside = path.resolve().is_relative_to(folder.resolve())
    except (OSError, ValueError):
        inside = False
    if not inside:
        raise MalformedRecord(f"{name.strip()!r} is not in the answers file's folder; a record "
                              "is read only from the folder of the answers file that names it")
    return load_record(path)


# -- the grade book --------------------------------------------------------------------------

_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A grade-book field a spreadsheet shows as text and never runs as a formula."""
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def write_csv(rows: Iterable[tuple[str, Mark, str]], out: TextIO) -> None:
    """Write a grade book: :data:`CSV_COLUMNS`, one row per ``(student, mark, time)``.

    Every field that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return is written after an apostrophe, so that a spreadsheet shows it as
    text and runs nothing.
    """
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for student, mark, when in rows:
        seed = str(mark.seed) if mark.seed >= 0 else ""
        writer.writerow([_cell(v) for v in (student, mark.kind, seed, mark.answer, mark.verdict,
                                            mark.rule, when)])


def write_grade_book(rows: Iterable[Sequence[str]], out: TextIO) -> None:
    """Write a grade book: :data:`GRADE_BOOK_COLUMNS`, then ``rows`` (:meth:`Marked.grade_rows`).

    Fields that a spreadsheet would run as a formula are written as text, as
    :func:`write_csv` writes them.
    """
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GRADE_BOOK_COLUMNS)
    for row in rows:
        writer.writerow([_cell(v) for v in row])
