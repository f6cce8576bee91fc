"""What every exercise shares: the kinds, the fields and answers, the base class and the
wording helpers the kinds use."""

from __future__ import annotations

import abc
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ...engine.errors import LooError
from ...engine.legality import Announcement
from ...engine.rules import RuleId, RuleKey
from ...engine.state import Verdict
from ..answers import (
    EMPTY,
    AnswerError,
    FieldResult,
    is_empty,
)
from ..narrate import (
    Narration,
)

NAMES = ("Anna", "Ben", "Carla", "Dan", "Emil", "Fay", "Gus", "Hana")
"""The players of generated deals, in clockwise order (the first five to eight)."""

REPORTED_RULES: tuple[RuleId, ...] = (
    RuleId.ANN_ORDER, RuleId.ANN_MISS_ONCE, RuleId.COLLECT, RuleId.ANN_DEALER_SOLE_STAND,
    RuleId.ANN_DEALER_SOLE_MISS, RuleId.DEFEND, RuleId.PLAY_HAND, RuleId.LEAD_TRUMP,
    RuleId.LEAD_ACE, RuleId.FOLLOW, RuleId.HEAD, RuleId.TRUMP_WIN,
)
"""The rules the checker can name for an illegal action (SPEC §9), offered by exercise 5
when it is made from a teacher's record."""

SEEDED_RULES: tuple[RuleId, ...] = tuple(r for r in REPORTED_RULES if r is not RuleId.COLLECT)
"""The rules a seeded exercise 5 can turn on, and offers: every reported rule but R-COLLECT,
which only an announcement after the deal is over breaks, so that the record would show
where its mistake is by ending there."""

STAND, PASS, MISS, DEFEND = (Announcement.STAND, Announcement.PASS, Announcement.MISS,
                                 Announcement.DEFEND)
CALL_WORDS = {STAND: "stand", PASS: "pass", MISS: "take the miss", DEFEND: "defend"}
CALLED = {STAND: "stands", PASS: "passes", MISS: "takes the miss", DEFEND: "defends"}
NONE = "none"


class Kind(enum.IntEnum):
    """The six kinds of exercise, numbered as the book and the worksheets number them."""

    LEGAL_CARDS = 1
    """Which cards may this player play?"""
    TRICK = 2
    """Who wins this trick, and is the hidden trump revealed after it?"""
    DEALER = 3
    """What may the dealer announce?"""
    SETTLE = 4
    """Settle a finished deal."""
    FIND_ILLEGAL = 5
    """Find the first illegal action in a record and name its rule."""
    SESSION = 6
    """Net balances at the end of a short session."""

    @property
    def title(self) -> str:
        """A few words naming the kind, e.g. ``"Which cards may be played?"``."""
        return _TITLES[self]

    @property
    def word(self) -> str:
        """The kind's name on the command line and in answers files, e.g. ``"legal-cards"``."""
        return self.name.lower().replace("_", "-")

    @classmethod
    def parse(cls, value: object) -> Kind:
        """The kind numbered or named ``value``: ``4``, ``"4"`` or ``"settle"``.

        Raises:
            LooError: neither a number from 1 to 6 nor a kind's name.

        >>> Kind.parse("legal-cards") is Kind.parse(" 1 ") is Kind.LEGAL_CARDS
        True
        """
        if isinstance(value, Kind):
            return value
        text = ""
        if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
            text = str(value).strip()
        if text.isascii() and text.isdigit() and 1 <= int(text) <= len(cls):
            return cls(int(text))
        for kind in cls:
            if kind.word == text.lower().replace("_", "-"):
                return kind
        raise LooError(f"exercise type {value!r} is neither a number from 1 to {len(cls)} nor "
                       f"one of {', '.join(k.word for k in cls)}")


_TITLES = {
    Kind.LEGAL_CARDS: "Which cards may be played?",
    Kind.TRICK: "Who wins the trick?",
    Kind.DEALER: "What may the dealer announce?",
    Kind.SETTLE: "Settle the deal",
    Kind.FIND_ILLEGAL: "Find the illegal action",
    Kind.SESSION: "The end of a session",
}


def parse_kinds(text: str) -> tuple[Kind, ...]:
    """Exercise kinds written as ``"1,4"`` (or ``"1 4"``), without repeats.

    Raises:
        LooError: empty, or an item is not a kind.

    >>> parse_kinds("1, 4")
    (<Kind.LEGAL_CARDS: 1>, <Kind.SETTLE: 4>)
    """
    items = [t for t in text.replace(",", " ").split() if t]
    if not items:
        raise LooError("no exercise type given: write types from 1 to 6 or their names, "
                       "e.g. 1,4 or legal-cards,settle")
    kinds: list[Kind] = []
    for item in items:
        kind = Kind.parse(item)
        if kind not in kinds:
            kinds.append(kind)
    return tuple(kinds)


@dataclass(frozen=True)
class Field:
    """One answer an exercise asks for.

    Attributes:
        key: the name under which :meth:`Exercise.grade` reads the answer.
        label: a few words shown beside the answer.
        form: how the answer is given: ``"cards"`` (several cards),
            ``"choice"`` (one of ``options``), ``"choices"`` (several of
            ``options``), ``"names"`` (players, or "nobody"), ``"amount"``,
            ``"signed"`` (an amount that may be negative), ``"yesno"`` or
            ``"rule"`` (a rule ID, one of ``options``).
        options: the possible values, for the forms that have them.
        labels: how each option is shown (same length as ``options``).
        hint: what form the answer takes, in words.
    """

    key: str
    label: str
    form: str
    options: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    hint: str = ""


@dataclass(frozen=True)
class Answer:
    """The engine's answer to one field, with its reason.

    Attributes:
        field: the field's key.
        value: the answer in a form :meth:`Exercise.grade` accepts.
        text: the answer as an answer key writes it.
        why: the reason, citing rule IDs as ``(R-…)``.
        rule: the main rule behind the answer.
    """

    field: str
    value: Any
    text: str
    why: str
    rule: RuleKey | None


def score(results: Mapping[str, FieldResult]) -> tuple[int, int]:
    """How many answers are right, out of how many.

    >>> score({"a": FieldResult("right", None, "right"), "b": FieldResult("empty", None, "")})
    (1, 2)
    """
    return sum(r.is_right for r in results.values()), len(results)


def wrong_answer(rule: RuleKey | None, message: str) -> FieldResult:
    return FieldResult("wrong", rule, message)


def right_answer(rule: RuleKey | None, message: str = "right") -> FieldResult:
    return FieldResult("right", rule, message)


def summed(details: Sequence[FieldResult]) -> FieldResult:
    """One wrong verdict standing for several mistakes (the first one's rule)."""
    return FieldResult("wrong", details[0].rule, " ".join(d.message for d in details),
                       tuple(details))


def first_rule(told: Narration) -> RuleKey | None:
    """The first rule a narration cites."""
    return told.rules[0] if told.rules else None


def cite(message: str, rule: RuleKey | None) -> str:
    """``message`` as one sentence ending with the rule ID in brackets."""
    text = message.rstrip().rstrip(".")
    return f"{text}." if rule is None else f"{text} ({rule})."


def refused(verdict: Verdict) -> FieldResult:
    """The engine's refusal of an action as a wrong answer: its rule, and its message cited."""
    return wrong_answer(verdict.rule, cite(verdict.message, verdict.rule))


def join_names(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names) or "nobody"
    return ", ".join(names[:-1]) + " and " + names[-1]


def show_amount(value: Fraction) -> str:
    return str(value)


def show_signed(value: Fraction) -> str:
    return f"+{value}" if value > 0 else str(value)


def tricks_word(count: int) -> str:
    return "one trick" if count == 1 else f"{('no', 'one', 'two', 'three')[count]} tricks"


def _folded(text: str) -> str:
    return " ".join(text.split()).lower()


def _as_options(field: Field, value: object) -> object:
    """An answer written with the words the sheet shows, as the field's options.

    A worksheet, its answer key and the site show a choice by its label
    (``take the miss``, ``9. trick 2, card 4: A♥``, ``R-HEAD (Head the trick)``);
    each label written, alone, in a list or several in one text separated by
    commas, is read as its option. Anything else is left for the field's reader.

    >>> dealer = Field("announcements", "", "choices", ("stand", "miss"), ("stand", "take the miss"))
    >>> _as_options(dealer, "stand, take the miss"), _as_options(dealer, ["Take the miss"])
    (['stand', 'miss'], ['miss'])
    """
    if field.form not in ("choice", "choices", "rule") or not field.labels:
        return value
    by_label = {_folded(label): option for label, option in zip(field.labels, field.options,
                                                                  strict=True)}
    by_label.update({_folded(option): option for option in field.options})
    if isinstance(value, str) and _folded(value) in by_label:
        chosen = by_label[_folded(value)]
        return [chosen] if field.form == "choices" else chosen
    if field.form != "choices":
        return value
    pieces = value.replace(";", ",").split(",") if isinstance(value, str) else value
    if not isinstance(pieces, (list, tuple)) or not all(isinstance(p, str) for p in pieces):
        return value
    written = [_folded(p) for p in pieces if p.strip()]
    if all(p in by_label for p in written):
        return [by_label[p] for p in written]
    return value


# -- exercises ----------------------------------------------------------------


class Exercise(abc.ABC):
    """One exercise: a position, a question, the answer fields, and a grader.

    Attributes:
        kind: which of the six kinds.
        seed: the seed it was generated from, or ``None`` when it was made
            from a deal record.
        question: the question, in one or two sentences.
        fields: the answers asked for.
        records: the position as deal records that :func:`~loo_tutor.records.record.check`
            accepts (one per deal; exercise 6 has several).
        origin: where it came from, e.g. ``"seed 1234"`` or ``"a deal record"``.
    """

    kind: ClassVar[Kind]

    def __init__(self, seed: int | None, question: str, fields: Sequence[Field],
                 records: Sequence[dict[str, Any]], origin: str | None = None) -> None:
        self.seed = seed
        self.question = question
        self.fields = tuple(fields)
        self.records = tuple(records)
        self.origin = origin or ("a deal record" if seed is None else f"seed {seed}")

    @property
    def name(self) -> str:
        """How a teacher names it, e.g. ``"exercise 4, seed 1234"``."""
        return f"exercise {int(self.kind)}, {self.origin}"

    @property
    def title(self) -> str:
        """The kind's title."""
        return self.kind.title

    @abc.abstractmethod
    def solution(self) -> tuple[Answer, ...]:
        """The engine's answer to every field, with the reasons."""

    @abc.abstractmethod
    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """Deal records to step through as the worked solution, each with a title."""

    @abc.abstractmethod
    def _judge(self, field: Field, value: object) -> FieldResult:
        """The verdict on one non-empty answer; may raise :class:`AnswerError`."""

    def answers(self) -> dict[str, Any]:
        """The right answers in the form :meth:`grade` accepts."""
        return {a.field: a.value for a in self.solution()}

    def grade(self, answers: Mapping[str, object]) -> dict[str, FieldResult]:
        """Judge the answers, one verdict per field. Never raises.

        Args:
            answers: field key to answer; a missing key or an empty answer
                is "not answered yet". Text is read leniently (``"10/3"``,
                ``"3 1/3"``, ``"9H, Q♥"``, ``"nobody"``, ``"R-HEAD"``).

        Returns:
            field key to :class:`~loo_tutor.teaching.answers.FieldResult`, in the
            order of :attr:`fields`.
        """
        results: dict[str, FieldResult] = {}
        for field in self.fields:
            value = answers.get(field.key) if isinstance(answers, Mapping) else None
            if is_empty(value):
                results[field.key] = EMPTY
                continue
            try:
                results[field.key] = self._judge(field, _as_options(field, value))
            except AnswerError as exc:
                results[field.key] = FieldResult("unreadable", None, str(exc))
        return results

    def field(self, key: str) -> Field:
        """The field called ``key``.

        Raises:
            KeyError: no such field.
        """
        for field in self.fields:
            if field.key == key:
                return field
        raise KeyError(key)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
