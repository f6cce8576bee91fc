"""Cards, suits and ranks, and their text forms (see :ref:`r-pack-cards`).

A :class:`Card` is an immutable value. There are exactly 52 of them and every
way of obtaining one (:func:`parse_card`, :data:`CARDS`, :func:`full_deck`)
returns the same shared objects, so cards compare and hash cheaply.

>>> parse_card("10h"), parse_card("T♥"), parse_card(" A♠️ ")
(Card.parse('10H'), Card.parse('10H'), Card.parse('AS'))
>>> str(parse_card("q♦"))
'QD'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .errors import NotationError


class Suit(enum.IntEnum):
    """The four suits; the value is the suit's position in a fresh pack."""

    SPADES = 0
    """♠, black."""
    HEARTS = 1
    """♥, red."""
    DIAMONDS = 2
    """♦, red."""
    CLUBS = 3
    """♣, black."""

    @property
    def letter(self) -> str:
        """The upper-case letter used in canonical card text (``S H D C``)."""
        return "SHDC"[self.value]

    @property
    def symbol(self) -> str:
        """The suit symbol (``♠ ♥ ♦ ♣``)."""
        return "♠♥♦♣"[self.value]

    @property
    def noun(self) -> str:
        """The suit's singular English noun (``spade``, ``heart``, ...)."""
        return ("spade", "heart", "diamond", "club")[self.value]

    @property
    def is_red(self) -> bool:
        """Whether the suit is printed in red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter or symbol (case-insensitive).

        Raises:
            NotationError: the text is not a suit.
        """
        key = text.strip().replace("\ufe0f", "").upper()
        try:
            return _SUIT_BY_TEXT[key]
        except KeyError:
            raise NotationError(f"unknown suit text {text!r}") from None


_SUIT_BY_TEXT = {s.letter: s for s in Suit} | {s.symbol: s for s in Suit}

RANK_TEXT: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank texts from low to high; a card's ``rank`` indexes this tuple (R-PACK-RANK)."""

ACE: Final = 12
KING: Final = 11


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card of the 52-card pack.

    Attributes:
        rank: 0 for the two up to 12 for the ace (see :data:`RANK_TEXT`);
            a higher number always beats a lower one of the same suit.
        suit: the card's :class:`Suit`.
        index: position in a fresh pack, ``13 * suit + rank`` (0–51).
        text: the canonical text, e.g. ``"10H"``.

    Use :func:`parse_card` or :data:`CARDS` rather than the constructor, so
    every card stays a single shared object.
    """

    rank: int
    suit: Suit
    index: int
    text: str

    @staticmethod
    def parse(text: str) -> Card:
        """Same as :func:`parse_card`."""
        return parse_card(text)

    @property
    def rank_text(self) -> str:
        """``"2"`` … ``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``."""
        return RANK_TEXT[self.rank]

    @property
    def shown(self) -> str:
        """The card as a reader writes it, e.g. ``"7♥"`` or ``"10♣"``.

        >>> parse_card("10C").shown
        '10♣'
        """
        return f"{RANK_TEXT[self.rank]}{self.suit.symbol}"

    @property
    def label(self) -> str:
        """A spoken form for screen readers, e.g. ``"10 of hearts"``."""
        names = {9: "jack", 10: "queen", 11: "king", 12: "ace"}
        return f"{names.get(self.rank, self.rank_text)} of {self.suit.noun}s"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:  # equality is identity: each card is a single object
        return self.index


CARDS: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit, 13 * suit + rank, RANK_TEXT[rank] + suit.letter)
    for suit in Suit
    for rank in range(13)
)
"""All 52 cards in fresh-pack order (spades 2 to A, then hearts, diamonds, clubs)."""

_RANK_BY_TEXT = {text: i for i, text in enumerate(RANK_TEXT)} | {"T": 8}
_CARD_BY_TEXT: Final[dict[str, Card]] = {}
for _card in CARDS:
    for _rank in (k for k, v in _RANK_BY_TEXT.items() if v == _card.rank):
        for _suit in (_card.suit.letter, _card.suit.symbol):
            _CARD_BY_TEXT[_rank + _suit] = _card


def parse_card(text: object) -> Card:
    """Read a card: a rank then a suit letter or symbol.

    Ranks are ``A K Q J 10 9 … 2`` (``T`` for ten); suits ``S H D C`` or
    ``♠ ♥ ♦ ♣``. Case, surrounding spaces and the emoji variation selector
    are ignored.

    Raises:
        NotationError: the text names no card.

    >>> parse_card("kc")
    Card.parse('KC')
    """
    if isinstance(text, str):
        card = _CARD_BY_TEXT.get(text) or _CARD_BY_TEXT.get(
            text.strip().replace("\ufe0f", "").upper()
        )
        if card is not None:
            return card
    raise NotationError(f"unknown card text {text!r}")


def format_card(card: Card) -> str:
    """Canonical text of a card, e.g. ``"10H"`` (same as ``str(card)``)."""
    return str(card)


def full_deck() -> list[Card]:
    """A fresh 52-card pack as a new list, in :data:`CARDS` order."""
    return list(CARDS)


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards grouped by suit (♠ ♥ ♦ ♣), highest first within a suit."""
    return tuple(sorted(cards, key=lambda c: (c.suit, -c.rank)))


def card_text(card: Card) -> str:
    """A card as a reader writes it, e.g. ``"A♥"`` or ``"10♣"``.

    >>> card_text(parse_card("10C"))
    '10♣'
    """
    return f"{card.rank_text}{card.suit.symbol}"
