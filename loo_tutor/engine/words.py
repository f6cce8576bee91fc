"""Numbers in the words of the engine's messages: "the second trick", "1 card".

>>> ordinal(1), counted(1, "card"), counted(3, "card")
('first', '1 card', '3 cards')
"""

from __future__ import annotations

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
