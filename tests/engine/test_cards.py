"""Card text, in and out."""

from __future__ import annotations

import pytest

from loo_tutor import CARDS, Card, NotationError, parse_card
from loo_tutor.engine.cards import Suit, card_text, sort_hand


@pytest.mark.parametrize("text", ["AH", "ah", "A♥", "a♥️", " AH ", "Ah"])
def test_every_form_of_the_ace_of_hearts(text: str) -> None:
    assert parse_card(text) is parse_card("AH")


@pytest.mark.parametrize("text", ["10h", "T♥", "t h".replace(" ", ""), "10♥"])
def test_ten_forms(text: str) -> None:
    assert str(parse_card(text)) == "10H"


@pytest.mark.parametrize("text", ["", "1H", "11H", "AX", "A", "H", "AHH", "10", None, 7, ["AH"]])
def test_unknown_card_text_is_refused(text: object) -> None:
    with pytest.raises(NotationError):
        parse_card(text)


def test_canonical_text_and_repr_round_trip() -> None:
    for card in CARDS:
        assert parse_card(str(card)) is card
        assert eval(repr(card), {"Card": Card}) is card


def test_card_text_is_rank_and_suit_symbol() -> None:
    assert card_text(parse_card("10C")) == "10♣"
    assert [card_text(parse_card(c)) for c in ("AH", "QD", "7S")] == ["A♥", "Q♦", "7♠"]


def test_hands_sort_by_suit_then_rank() -> None:
    hand = sort_hand(parse_card(c) for c in ["2H", "AS", "KH", "3S"])
    assert [str(c) for c in hand] == ["AS", "3S", "KH", "2H"]
    assert Suit.parse("♣") is Suit.CLUBS and Suit.HEARTS.is_red
