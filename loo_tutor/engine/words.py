"""Numbers in the words of the engine's messages: "the second trick", "1 card".

>>> ordinal(1), counted(1, "card"), counted(3, "card")
('first', '1 card', '3 cards')
"""

from __future__ import annotations

import math

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


def ordinal(number: int) -> str:
    """``1`` → ``"first"``; past the tenth, ``"11th"``.

    >>> ordinal(3), ordinal(12), ordinal(22)
    ('third', '12th', '22nd')
    """
    if 1 <= number <= len(_ORDINALS):
        return _ORDINALS[number - 1]
    tail = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{tail}"


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, the noun plural unless the number is one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def kind_of(value: object) -> str:
    """What a value of a record is, in the reader's words (no Python type names).

    A decimal is shown with its point, so that ``1000.0`` is not mistaken for
    the whole number it equals.

    >>> [kind_of(v) for v in (None, True, 3, 1.5, 1000.0, "resign")]
    ['nothing', 'true', 'a whole number', 'the decimal 1.5', 'the decimal 1000.0', "the word 'resign'"]
    """
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return f"the decimal {value!r}" if math.isfinite(value) else f"the number {value!r}"
    if isinstance(value, str):
        return f"the word {value[:40]!r}" if value.strip() else "empty text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "a value of another kind"
