"""Pure functions that draw cards, hands and deals as HTML strings.

Nothing here decides a rule: the functions only draw what the engine
reports. Every card carries a text alternative (``role="img"`` and an
``aria-label`` such as "queen of hearts") for screen readers.

>>> from loo_tutor.cards import parse_card
>>> 'aria-label="10 of hearts"' in card_html(parse_card("10H"))
True
"""

from __future__ import annotations

import html
from typing import Iterable

from .cards import Card, Suit

_TWO_COLOURS = {Suit.SPADES: "#1b1b1b", Suit.HEARTS: "#c8102e",
                Suit.DIAMONDS: "#c8102e", Suit.CLUBS: "#1b1b1b"}
_FOUR_COLOURS = {Suit.SPADES: "#1b1b1b", Suit.HEARTS: "#c8102e",
                 Suit.DIAMONDS: "#0b57d0", Suit.CLUBS: "#1a7f37"}

_CARD_STYLE = ("display:inline-flex;flex-direction:column;align-items:center;"
               "justify-content:center;width:2.6em;height:3.6em;margin:0.15em;"
               "border:1px solid #888;border-radius:0.35em;background:#fff;"
               "font:600 1em/1.1 system-ui,sans-serif;box-shadow:0 1px 2px #0003;")
_BACK_STYLE = ("display:inline-block;width:2.6em;height:3.6em;margin:0.15em;"
               "border:1px solid #555;border-radius:0.35em;vertical-align:middle;"
               "background:repeating-linear-gradient(45deg,#37598a 0 4px,#4a6fa5 4px 8px);")


def suit_colour(suit: Suit, four_colour: bool = False) -> str:
    """The CSS colour a suit is drawn in."""
    return (_FOUR_COLOURS if four_colour else _TWO_COLOURS)[suit]


def card_html(card: Card, four_colour: bool = False, mark: str = "") -> str:
    """One card face up, with its rank above its suit symbol.

    Args:
        card: the card to draw.
        four_colour: draw diamonds blue and clubs green.
        mark: an extra CSS declaration, e.g. an outline to highlight the card.
    """
    colour = suit_colour(card.suit, four_colour)
    return (
        f'<span class="loo-card" role="img" aria-label="{card.label}" title="{card.label}" '
        f'style="{_CARD_STYLE}color:{colour};{mark}">'
        f'<span aria-hidden="true">{card.rank_text}</span>'
        f'<span aria-hidden="true" style="font-size:1.3em">{card.suit.symbol}</span></span>'
    )


def card_back_html(label: str = "a face-down card") -> str:
    """A face-down card."""
    return (f'<span class="loo-card-back" role="img" aria-label="{html.escape(label)}" '
            f'style="{_BACK_STYLE}"></span>')


def hand_html(cards: Iterable[Card], four_colour: bool = False) -> str:
    """A row of face-up cards."""
    return '<span class="loo-hand">' + "".join(card_html(c, four_colour) for c in cards) + "</span>"


class HtmlStr(str):
    """A string of HTML that Jupyter displays as HTML."""

    def _repr_html_(self) -> str:
        return str(self)
