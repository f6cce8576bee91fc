"""The bots: legal choices only, reproducible by seed, and the tips they follow."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_tutor import Announce, Announcement, LooError, Play, parse_card
from loo_tutor.analysis.bots import (
    Bot,
    RandomBot,
    ThumbBot,
    Tip,
    play_with_bots,
    thumb_announcement,
    thumb_card,
)
from loo_tutor.analysis.estimate import SamplingBot, finisher
from loo_tutor.engine.cards import Card, Suit
from loo_tutor.engine.observe import observation
from loo_tutor.engine.state import DealState, deal_from_hands, new_deal

seeds = st.integers(min_value=0, max_value=2**32 - 1)
carried_values = st.sampled_from([Fraction(0), Fraction(3), Fraction(6), Fraction(10, 3),
                                  Fraction(27)])


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(1, count + 1)]


@st.composite
def deals(draw: st.DrawFn) -> DealState:
    count = draw(st.integers(5, 8))
    dealer = draw(st.integers(0, count - 1))
    return new_deal(names(count), dealer, draw(carried_values), random.Random(draw(seeds)))


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def all_bots() -> list[Bot]:
    return [RandomBot(), ThumbBot(), ThumbBot(good_of_the_loo=False),
            SamplingBot(samples=4, rollout=RandomBot())]


@settings(max_examples=40, deadline=None)
@given(deals(), seeds)
def test_every_bot_only_chooses_legal_actions(start: DealState, seed: int) -> None:
    rng = random.Random(seed)
    bots = all_bots()
    state = start
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        view = observation(state, seat)
        choices = [bot.choose(view, rng) for bot in bots]
        for choice in choices:
            assert choice in view.legal
            assert state.check(choice)
        state = state.apply(choices[int(rng.random() * len(choices))])


@settings(max_examples=25, deadline=None)
@given(deals(), seeds)
def test_play_with_bots_is_reproducible_and_leaves_the_start_unchanged(
        start: DealState, seed: int) -> None:
    bots: dict[int, Bot] = {}
    for seat in range(len(start.players)):
        bots[seat] = all_bots()[seat % 3]
    before = observation(start, start.current_player() or 0)
    first = play_with_bots(start, bots, random.Random(seed))
    second = play_with_bots(start, bots, random.Random(seed))
    assert first.is_terminal()
    assert first.tricks == second.tricks
    assert first.announcements == second.announcements
    assert observation(start, start.current_player() or 0) == before


@settings(max_examples=25, deadline=None)
@given(deals(), seeds, st.booleans())
def test_fast_play_outs_make_the_same_choices_as_the_bots(
        start: DealState, seed: int, thumb: bool) -> None:
    bot: Bot = ThumbBot() if thumb else RandomBot()
    by_view = play_with_bots(start, dict.fromkeys(range(len(start.players)), bot),
                             random.Random(seed))
    fast = start.copy()
    finisher(bot)(fast, random.Random(seed))
    assert fast.announcements == by_view.announcements
    assert fast.tricks == by_view.tricks


@settings(max_examples=20, deadline=None)
@given(deals(), seeds)
def test_fast_play_outs_with_a_bot_for_each_seat_match_the_bots(
        start: DealState, seed: int) -> None:
    bots: dict[int, Bot] = {seat: ThumbBot(good_of_the_loo=seat % 2 == 0, high_trump=9 + seat % 3)
                            for seat in range(len(start.players))}
    by_view = play_with_bots(start, bots, random.Random(seed))
    fast = start.copy()
    finisher(bots)(fast, random.Random(seed))
    assert fast.announcements == by_view.announcements
    assert fast.tricks == by_view.tricks
    bots[0] = RandomBot()  # a mixed table goes through the views
    by_view = play_with_bots(start, bots, random.Random(seed))
    fast = start.copy()
    finisher(bots)(fast, random.Random(seed))
    assert fast.tricks == by_view.tricks


def test_sampling_bot_is_reproducible_by_seed() -> None:
    start = new_deal(names(6), 5, 6, random.Random(11))
    bots = dict.fromkeys(range(6), SamplingBot(samples=8, rollout=RandomBot()))
    first = play_with_bots(start, bots, random.Random(4))
    second = play_with_bots(start, bots, random.Random(4))
    assert first.announcements == second.announcements
    assert first.tricks == second.tricks


def test_a_seat_without_a_bot_is_refused_in_one_line() -> None:
    start = new_deal(names(5), 4, 3, random.Random(1))
    with pytest.raises(LooError, match=r"seat 0 .* has no bot"):
        play_with_bots(start, {1: RandomBot()}, random.Random(1))


def test_a_view_without_a_turn_is_refused() -> None:
    start = new_deal(names(5), 4, 3, random.Random(1))
    with pytest.raises(LooError, match="not that seat's turn"):
        RandomBot().choose(observation(start, 3), random.Random(1))


def test_thumb_bot_stands_with_a_high_trump_and_passes_a_weak_hand() -> None:
    rich, poor = Fraction(12), Fraction(6)
    calls = [Announcement.STAND, Announcement.PASS, Announcement.MISS]

    def first_to_speak(hand: str, pool: Fraction) -> tuple[Announcement, Tip]:
        return thumb_announcement(cards(hand), calls, Suit.HEARTS, pool, is_dealer=False,
                                  others_in=0, high_trump=10, rich_pool=Fraction(9))

    assert first_to_speak("QH 2C 3D", poor) == (Announcement.STAND, Tip.HIGH_TRUMP)
    assert first_to_speak("5H 2C AD", poor) == (Announcement.STAND, Tip.STRONG_HAND)
    assert first_to_speak("5C 2C 3D", poor) == (Announcement.PASS, Tip.PASS_WEAK)
    assert first_to_speak("5C 2C 3D", rich) == (Announcement.MISS, Tip.RICH_MISS)


def test_thumb_bot_as_dealer_defends_a_weak_hand_against_one_stander() -> None:
    calls = [Announcement.STAND, Announcement.MISS, Announcement.DEFEND]
    assert thumb_announcement(cards("5C 2C 3D"), calls, Suit.HEARTS, Fraction(12),
                              is_dealer=True, others_in=1, high_trump=10,
                              rich_pool=Fraction(9)) == (Announcement.DEFEND, Tip.DEFEND_WEAK)


def test_thumb_bot_wins_cheaply_when_last_and_throws_low_when_it_cannot_win() -> None:
    trick = [(0, parse_card("9S")), (1, parse_card("JS"))]
    legal = cards("QS AS")

    def needing(legal: list[Card], trick: list[tuple[int, Card]],
                still: set[int]) -> tuple[Card, Tip]:
        return thumb_card(legal, trick, Suit.HEARTS, need_trick=True,
                          still_to_play=frozenset(still), without_trick=frozenset({0, 1}),
                          good_of_the_loo=True)

    assert needing(legal, trick, set()) == (parse_card("QS"), Tip.WIN_CHEAPLY)
    assert needing(legal, trick, {3}) == (parse_card("AS"), Tip.WIN_CHEAPLY)
    trumped = [(0, parse_card("9S")), (1, parse_card("2H"))]
    assert needing(cards("KS 3S"), trumped, set()) == (parse_card("3S"), Tip.THROW_LOWEST)
    assert needing(cards("3D QS 2H"), [], {1}) == (parse_card("2H"), Tip.LEAD_HIGH)


def test_thumb_bot_plays_for_the_good_of_the_loo_once_safe() -> None:
    trick = [(0, parse_card("9S")), (1, parse_card("JS"))]
    legal = cards("QS AS")

    def safe(legal: list[Card], trick: list[tuple[int, Card]], without: set[int],
             loo: bool = True) -> tuple[Card, Tip]:
        return thumb_card(legal, trick, Suit.HEARTS, need_trick=False,
                          still_to_play=frozenset({3}), without_trick=frozenset(without),
                          good_of_the_loo=loo)

    # Seat 3, without a trick, still plays: keep it from the trick with the ace.
    assert safe(legal, trick, {3}) == (parse_card("AS"), Tip.GOOD_OF_THE_LOO)
    # Only seats with a trick are still to play: the cheapest winner will do.
    assert safe(legal, trick, {0}) == (parse_card("QS"), Tip.WIN_CHEAPLY)
    assert safe(legal, trick, {3}, loo=False) == (parse_card("QS"), Tip.COAST)
    assert safe(cards("3D QS 9C"), [], {1}) == (parse_card("QS"), Tip.GOOD_OF_THE_LOO)


def test_thumb_bot_explains_a_forced_ace_lead() -> None:
    # E deals with 9 carried; hearts are trumps; A holds the ace and must lead it.
    state = deal_from_hands(
        ["A", "B", "C", "D", "E"], 4, 9,
        [cards("AH 7H KC"), cards("9H 3S AC"), cards("2H 5D 6D"), cards("2S 3C 4C"),
         cards("5S 6S 7S")], cards("8S 9S 10S"), parse_card("4H"))
    for call in ("stand", "stand", "stand", "pass", "pass"):
        seat = state.current_player()
        assert seat is not None
        state = state.apply(Announce(seat, Announcement(call)))
    action, tip = ThumbBot().explain(observation(state, 0))
    assert action == Play(0, parse_card("AH"))
    assert tip is Tip.FORCED
