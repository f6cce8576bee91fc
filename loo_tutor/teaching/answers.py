"""Reading a reader's answers, and the verdict on each one.

The checkers and exercises accept answers typed by people: amounts such as
``10/3`` or ``3 1/3``, lists of cards, player names, rule IDs. Each reader
here returns ``None`` for an empty answer (which is "not answered yet",
never "wrong") and raises :class:`AnswerError` with a message saying which
forms are accepted when the text cannot be read.

Nothing here knows a rule of the game; the right answers always come from
the engine.

>>> parse_amount("10/3"), parse_amount(" 3 1/3 "), parse_amount("")
(Fraction(10, 3), Fraction(10, 3), None)
>>> parse_cards("9h, Q♥")
(Card.parse('9H'), Card.parse('QH'))
>>> parse_rule("head").value
'R-HEAD'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..engine.cards import Card, parse_card
from ..engine.errors import LooError, NotationError
from ..engine.rules import RuleId, RuleKey

FORMS = "a whole number (4), a fraction (10/3) or a mixed number (3 1/3)"
"""How an amount may be written, as the checkers tell the reader."""

SIGNED_FORMS = ("a whole number (4), a fraction (10/3) or a mixed number (3 1/3), with a "
                "minus sign for a loss (-19/5)")
"""How a balance, which may be negative, may be written."""

CARD_FORMS = "cards such as 9H, 10C or Q♥, separated by commas or spaces"
"""How a list of cards may be written."""

NOBODY = ("nobody", "none", "no one", "noone", "-")
"""Words that answer "nobody" (an empty list given on purpose)."""

_WHOLE = re.compile(r"\d+")
_FRACTION = re.compile(r"(\d+)\s*/\s*(\d+)")
_MIXED = re.compile(r"(\d+)\s+(\d+)\s*/\s*(\d+)")
_DECIMAL = re.compile(r"\d*\.\d+(?:\.\.\.|…)?|\d+\.")
_SEPARATORS = re.compile(r"[,;\s]+")


class AnswerError(LooError):
    """An answer that cannot be read; the message says which forms are accepted."""


@dataclass(frozen=True)
class FieldResult:
    """The verdict on one answer.

    Attributes:
        status: ``"right"``, ``"wrong"``, ``"empty"`` (not answered yet) or
            ``"unreadable"`` (the form is wrong; the message says which
            forms are accepted).
        rule: the rule the answer is about: for a wrong answer, the rule
            that shows why; ``None`` when no rule is involved.
        message: what the reader is told.
        details: one verdict per mistake, when an answer (a set of cards,
            say) holds several.
    """

    status: str
    rule: RuleKey | None
    message: str
    details: tuple[FieldResult, ...] = ()

    @property
    def is_right(self) -> bool:
        """Whether the answer is right."""
        return self.status == "right"


EMPTY = FieldResult("empty", None, "not answered yet")
"""The verdict on an empty answer."""


def _text(value: object) -> str | None:
    """``value`` as stripped text, or ``None`` when it is not text."""
    return value.strip() if isinstance(value, str) else None


_QUOTED_LENGTH = 40


def _quoted(value: object) -> str:
    """``value`` as a message quotes it: in quotes, cut short after 40 characters,
    so that a huge answer gets a short message.

    >>> _quoted("7H"), _quoted("x" * 100)
    ("'7H'", "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…")
    """
    text = repr(value)
    return text if len(text) <= _QUOTED_LENGTH else text[:_QUOTED_LENGTH - 1] + "…"


def is_empty(value: object) -> bool:
    """Whether an answer is blank: ``None``, empty or blank text, an empty collection."""
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, tuple, set, frozenset)):
        return all(is_empty(v) for v in value)
    return False


def parse_amount(text: object, signed: bool = False) -> Fraction | None:
    """Read an amount typed by the reader; ``None`` when the field is empty.

    Whole numbers, fractions and mixed numbers are exact. A decimal is read
    as the exact value it names (so ``3.33`` is not ten thirds); a trailing
    ``...`` or ``…`` is ignored.

    Args:
        text: what the reader typed (a number is taken as it is).
        signed: accept a leading minus sign, for balances that may be
            negative; amounts received or carried are never negative. A
            leading plus sign is always accepted.

    Raises:
        AnswerError: the text is none of the accepted forms, or divides by 0.

    >>> parse_amount("8"), parse_amount("2.5"), parse_amount("-3 4/5", signed=True)
    (Fraction(8, 1), Fraction(5, 2), Fraction(-19, 5))
    """
    forms = SIGNED_FORMS if signed else FORMS
    if isinstance(text, bool):
        raise AnswerError(f"cannot read {_quoted(text)}: write {forms}")
    if isinstance(text, (int, Fraction)):
        value = Fraction(text)
        if value < 0 and not signed:
            raise AnswerError(f"{text} is negative: write {forms}")
        return value
    cleaned = _text(text)
    if cleaned is None:
        raise AnswerError(f"cannot read {_quoted(text)}: write {forms}")
    if not cleaned:
        return None
    sign = 1
    body = cleaned
    if body[0] == "+" or (signed and body[0] in "-−"):  # a gain may be written +7/3
        sign = 1 if body[0] == "+" else -1
        body = body[1:].strip()
    if _WHOLE.fullmatch(body):
        return sign * Fraction(int(body))
    match = _FRACTION.fullmatch(body) or _MIXED.fullmatch(body)
    if match is not None:
        *whole, top, bottom = (int(g) for g in match.groups())
        if bottom == 0:
            raise AnswerError(f"{_quoted(cleaned)} divides by zero; write {forms}")
        return sign * (sum(whole, Fraction(0)) + Fraction(top, bottom))
    if _DECIMAL.fullmatch(body):
        return sign * Fraction(body.rstrip(".…") if not body.endswith(".") else body[:-1])
    raise AnswerError(f"cannot read {_quoted(cleaned)}: write {forms}")


def judge_amount(given: object, right: Fraction, rule: RuleKey | None, hint: str,
                 signed: bool = False) -> FieldResult:
    """The verdict on an amount: right, wrong (with ``hint`` under ``rule``), empty or unreadable.

    A decimal within a hundredth of the right amount is wrong under
    R-LEDGER: the ledger keeps exact fractions.

    >>> judge_amount("3.33", Fraction(10, 3), RuleId.PAY_THIRD, "").rule.value
    'R-LEDGER'
    """
    try:
        value = parse_amount(given, signed)
    except AnswerError as exc:
        return FieldResult("unreadable", None, str(exc))
    if value is None:
        return EMPTY
    if value == right:
        return FieldResult("right", None, "right")
    if isinstance(given, str) and "." in given and abs(value - right) < Fraction(1, 100):
        return FieldResult("wrong", RuleId.LEDGER,
                           "close, but the ledger is exact: write the amount as a fraction "
                           "(R-LEDGER).")
    return FieldResult("wrong", rule, f"not right. {hint}".strip())


def parse_cards(value: object) -> tuple[Card, ...] | None:
    """Read a list of cards: text such as ``"9H, Q♥"`` or a list of texts or cards.

    Returns ``None`` for an empty answer. Repeats are dropped; the order is
    kept.

    Raises:
        AnswerError: some text names no card.
    """
    if is_empty(value):
        return None
    items: Iterable[object]
    if isinstance(value, str):
        items = [t for t in _SEPARATORS.split(value.strip()) if t]
    elif isinstance(value, Card):
        items = [value]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
    else:
        raise AnswerError(f"cannot read {_quoted(value)}: write {CARD_FORMS}")
    cards: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            card = item
        else:
            try:
                card = parse_card(item)
            except NotationError:
                raise AnswerError(f"cannot read {_quoted(item)} as a card: write {CARD_FORMS}") from None
        if card not in cards:
            cards.append(card)
    return tuple(cards)


def parse_choice(value: object, options: Sequence[str], what: str = "answer") -> str | None:
    """Read one of ``options`` (case and surrounding spaces ignored); ``None`` if empty.

    Raises:
        AnswerError: the text is none of the options.
    """
    if is_empty(value):
        return None
    text = _text(value)
    if text is None:
        raise AnswerError(f"cannot read {_quoted(value)}: the {what} is one of {', '.join(options)}")
    for option in options:
        if option.lower() == text.lower():
            return option
    raise AnswerError(f"{_quoted(text)} is not a possible {what}: choose one of {', '.join(options)}")


def parse_choices(value: object, options: Sequence[str], what: str = "answer"
                  ) -> tuple[str, ...] | None:
    """Read several of ``options``: a list, or text separated by commas or spaces.

    Returns ``None`` for an empty answer; the options chosen come back in
    the order of ``options``.

    Raises:
        AnswerError: some item is none of the options.
    """
    if is_empty(value):
        return None
    if isinstance(value, str):
        items: list[object] = [t for t in _SEPARATORS.split(value.strip()) if t]
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    else:
        raise AnswerError(f"cannot read {_quoted(value)}: choose from {', '.join(options)}")
    chosen = {parse_choice(item, options, what) for item in items if not is_empty(item)}
    return tuple(o for o in options if o in chosen)


def parse_names(value: object, players: Sequence[str]) -> tuple[str, ...] | None:
    """Read a list of player names, or ``"nobody"`` for an empty list on purpose.

    Returns ``None`` for an empty answer and ``()`` for "nobody". Names are
    matched without regard to case.

    Raises:
        AnswerError: a name is not one of ``players``.
    """
    if is_empty(value):
        return None
    text = _text(value)
    if text is not None and text.lower() in NOBODY:
        return ()
    if isinstance(value, (list, tuple, set, frozenset)) and not [v for v in value if v]:
        return None
    try:
        return parse_choices(value, players, "player")
    except AnswerError:
        raise AnswerError(f"cannot read {_quoted(value)}: write player names ({', '.join(players)}) "
                          "separated by commas, or \"nobody\"") from None


def parse_yes_no(value: object) -> bool | None:
    """Read yes or no (also ``true``/``false``, ``y``/``n``); ``None`` if empty.

    Raises:
        AnswerError: the text is neither.
    """
    if isinstance(value, bool):
        return value
    if is_empty(value):
        return None
    text = (_text(value) or "").lower()
    if text in ("yes", "y", "true"):
        return True
    if text in ("no", "n", "false"):
        return False
    raise AnswerError(f"cannot read {_quoted(value)}: answer yes or no")


def parse_rule(value: object) -> RuleId | None:
    """Read a rule ID: ``R-HEAD``, ``r-head``, ``head`` or ``HEAD`` all name R-HEAD.

    Returns ``None`` for an empty answer.

    Raises:
        AnswerError: no rule has that ID.
    """
    if isinstance(value, RuleId):
        return value
    if is_empty(value):
        return None
    text = (_text(value) or "").upper().replace("_", "-").replace(" ", "-")
    if not text.startswith("R-"):
        text = "R-" + text
    for rule in RuleId:
        if rule.value == text:
            return rule
    raise AnswerError(f"cannot read {_quoted(value)} as a rule: write a rule ID such as R-FOLLOW")
