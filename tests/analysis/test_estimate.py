"""The estimator: sampled deals agree with the view, and estimates hit exact values."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_tutor import (
    CARDS,
    Announce,
    Announcement,
    IllegalActionError,
    LooError,
    Play,
    parse_card,
)
from loo_tutor.analysis.bots import RandomBot, ThumbBot
from loo_tutor.analysis.estimate import WorldSampler, _proofs, estimate_action, estimate_actions
from loo_tutor.engine.cards import Card
from loo_tutor.engine.observe import observation
from loo_tutor.engine.state import Action, DealState, deal_from_hands, new_deal

seeds = st.integers(min_value=0, max_value=2**32 - 1)
NAMES = ["A", "B", "C", "D", "E"]


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def five_seats(hands: str, calls: str, plays: str) -> DealState:
    """A double deal at A–E, E dealing with 3 carried, the miss 2S 3S 4S and the
    indicator 5H (hearts trumps), after the given announcements and plays."""
    state = deal_from_hands(NAMES, 4, 3, [cards(h) for h in hands.split("/")],
                            cards("2S 3S 4S"), parse_card("5H"))
    for call in calls.split():
        seat = state.current_player()
        assert seat is not None
        state = state.apply(Announce(seat, Announcement(call)))
    for play in plays.split(", "):
        seat_text, card = play.split()
        state = state.apply(Play(int(seat_text), parse_card(card)))
    return state


@st.composite
def positions(draw: st.DrawFn) -> tuple[DealState, int]:
    """A random deal stopped after a random number of random legal actions, and a seat."""
    count = draw(st.integers(5, 8))
    carried = draw(st.sampled_from([Fraction(0), Fraction(3), Fraction(10, 3), Fraction(12)]))
    rng = random.Random(draw(seeds))
    state = new_deal([f"P{i}" for i in range(count)], draw(st.integers(0, count - 1)),
                     carried, rng)
    for _ in range(draw(st.integers(0, 30))):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state, draw(st.integers(0, count - 1))


@settings(max_examples=60, deadline=None)
@given(positions(), seeds)
def test_sampled_deals_show_the_player_exactly_what_the_view_shows(
        position: tuple[DealState, int], seed: int) -> None:
    state, seat = position
    view = observation(state, seat)
    sampler = WorldSampler(view)
    rng = random.Random(seed)
    for _ in range(5):
        world = sampler.sample(rng)
        dealt = [c for hand in world.hands for c in hand] + list(world.miss or ())
        dealt.append(world.indicator)
        assert len(set(dealt)) == len(dealt)  # no seen card dealt a second time
        assert observation(world, seat) == view
        if view.to_act == seat:
            assert world.legal_actions() == list(view.legal)


@settings(max_examples=80, deadline=None)
@given(positions())
def test_what_plays_prove_is_true_of_the_real_deal(position: tuple[DealState, int]) -> None:
    # The early checks may only bar cards that a player truly did not hold.
    state, _ = position
    double = state.miss is not None
    trump = state.trump if double else None
    for number, trick in enumerate(state.all_tricks(), start=1):
        for seat, barred in _proofs(trick.plays, trump, double, state.indicator):
            played_before = {c for t in state.all_tricks()[:number - 1] for s, c in t.plays
                             if s == seat}
            own = state.miss if seat in (state.miss_taker, state.defender) else None
            holding = set(own or state.hands[seat]) - played_before
            card_now = next(c for s, c in trick.plays if s == seat)
            assert not (holding - {card_now}) & set(barred)
        if state.revealed_after == number:
            trump = state.trump


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(5, 8), st.integers(0, 12))
def test_believed_announcements_are_what_the_tips_would_say(seed: int, count: int,
                                                             steps: int) -> None:
    # A table of rule-of-thumb bots; another seat samples believing in the tips.
    rng = random.Random(seed)
    state = new_deal([f"P{i}" for i in range(count)], count - 1, 6, rng)
    bot = ThumbBot()
    for _ in range(steps):
        if state.is_terminal():
            break
        state = state.apply(bot.choose(observation(state, state.current_player() or 0), rng))
    seat = rng.randrange(count)
    view = observation(state, seat)
    sampler = WorldSampler(view, beliefs=bot, belief_attempts=20_000)
    for _ in range(3):
        world = sampler.sample(rng)
        assert observation(world, seat) == view
        replay = deal_from_hands(world.players, world.dealer, world.carried, world.hands,
                                 world.miss, world.indicator)
        for who, call in world.announcements:
            if who != seat:
                assert bot.choose(observation(replay, who), rng) == Announce(who, call)
            replay = replay.apply(Announce(who, call))
    assert not sampler.beliefs_dropped


def test_a_belief_the_table_contradicts_is_dropped() -> None:
    # B stands, then shows it holds no trump: the tips would never have stood.
    state = five_seats("2C 3C 4C/2D 3D 5D/5C 6C 7C/8C 9C 10C/QH KH AH",
                       "pass stand pass pass stand", "1 5D, 4 QH, 4 AH, 1 3D")
    view = observation(state, 4)
    sampler = WorldSampler(view, beliefs=ThumbBot(), belief_attempts=50)
    world = sampler.sample(random.Random(1))
    assert sampler.beliefs_dropped
    assert observation(world, 4) == view
    assert not any(c.suit is parse_card("5H").suit for c in world.held[1])


def test_a_player_who_did_not_follow_suit_is_never_dealt_that_suit() -> None:
    # Simple deal, E deals: A leads the ace of spades and C discards a diamond.
    state = deal_from_hands(
        NAMES, 4, 0,
        [cards("AS 2H 3H"), cards("5S 4H 9C"), cards("8D 10D JD"), cards("6S 7S 8S"),
         cards("9S 2C 3C")], None, parse_card("KH"))
    for card in ("AS", "5S", "8D", "6S", "9S"):
        seat = state.current_player()
        assert seat is not None
        state = state.apply(Play(seat, parse_card(card)))
    view = observation(state, 0)
    assert view.trump is not None  # C's discard turned the indicator
    sampler = WorldSampler(view)
    rng = random.Random(3)
    for _ in range(300):
        world = sampler.sample(rng)
        assert not any(c.suit is parse_card("AS").suit for c in world.held[2])
        assert world.indicator == parse_card("KH")


def test_unseen_cards_are_spread_evenly() -> None:
    # Seat 0 announces first: 48 cards are unseen (its hand and the indicator are not).
    state = new_deal(["P0", "P1", "P2", "P3", "P4", "P5"], 5, 6, random.Random(8))
    view = observation(state, 0)
    sampler = WorldSampler(view)
    rng = random.Random(1)
    unseen = [c for c in CARDS if c not in state.hands[0] and c != state.indicator]
    target = unseen[0]
    runs = 4800
    hits = sum(target in sampler.sample(rng).hands[3] for _ in range(runs))
    expected = runs * 3 / 48
    spread = math.sqrt(runs * (3 / 48) * (45 / 48))
    assert abs(hits - expected) < 5 * spread


def two_player_deal() -> DealState:
    """A stands, B C D pass, E (dealer) stands; two tricks played; A to lead the last."""
    return five_seats("KH 9S 4C/2D 3D 4D/5D 6D 7D/8D 9D 10D/QH 9C 8S",
                      "stand pass pass pass stand", "0 KH, 4 QH, 0 9S, 4 8S")


def exact_value(state: DealState, seat: int, action: Action) -> Fraction:
    """The mean result over every deal consistent with ``seat``'s view, by enumeration.

    Only the opponent's last card matters; each unseen card is tried there in turn
    (swapped with wherever it lay) and the deal replayed through the checked API.
    """
    start = deal_from_hands(state.players, state.dealer, state.carried, state.hands,
                            state.miss, state.indicator)
    history: list[Action] = [Announce(s, a) for s, a in state.announcements]
    history += [Play(s, c) for t in state.tricks for s, c in t.plays]
    opponent = 4
    own = state.held[opponent][0]
    seen = set(state.hands[seat]) | {state.indicator} | {c for t in state.tricks
                                                         for _, c in t.plays}
    results = []
    for candidate in (c for c in CARDS if c not in seen):
        def swap(hand: tuple[Card, ...], candidate: Card = candidate) -> tuple[Card, ...]:
            return tuple(candidate if c == own else own if c == candidate else c
                         for c in hand)
        world = deal_from_hands(start.players, start.dealer, start.carried,
                                [swap(h) for h in start.hands], swap(start.miss or ()),
                                candidate if start.indicator == own else start.indicator)
        try:
            for step in history:
                world = world.apply(step)
        except IllegalActionError:
            continue  # the opponent could not have played that way with this card
        world = world.apply(action)
        while not world.is_terminal():
            world = world.apply(world.legal_actions()[0])  # one card each: forced
        results.append(world.settlement().net[seat])
    return sum(results, Fraction(0)) / len(results)


def test_estimate_matches_enumeration_when_one_card_is_hidden() -> None:
    state = two_player_deal()
    view = observation(state, 0)
    (action,) = view.legal
    exact = exact_value(state, 0, action)
    assert 4 < exact < 6  # two thirds of 6 won; the third trick is uncertain
    found = estimate_action(view, action, samples=3000, rng=random.Random(5))
    assert found.low <= exact <= found.high
    assert abs(float(found.mean) - float(exact)) < 4 * found.stdev / math.sqrt(found.samples)


def test_estimate_is_exact_when_nothing_that_matters_is_hidden() -> None:
    state = two_player_deal()
    state = state.apply(Play(0, parse_card("4C")))
    view = observation(state, 4)  # E plays the last card and has seen every other one
    for found in estimate_actions(view, samples=50, rng=random.Random(2),
                                  rollout=ThumbBot()):
        final = state.apply(found.action)
        assert found.mean == final.settlement().net[4]
        assert found.stdev == 0 and found.low == found.high == float(found.mean)


def test_passing_is_worth_exactly_nothing() -> None:
    state = new_deal(NAMES, 4, 6, random.Random(12))
    view = observation(state, 0)
    found = estimate_action(view, Announce(0, Announcement.PASS), samples=40,
                            rng=random.Random(1))
    assert found.mean == 0 and found.stdev == 0


def test_same_seed_gives_the_same_estimates() -> None:
    state = new_deal(NAMES, 4, 6, random.Random(12))
    view = observation(state, 0)
    first = estimate_actions(view, samples=60, rng=random.Random(9), rollout=RandomBot())
    second = estimate_actions(view, samples=60, rng=random.Random(9), rollout=RandomBot())
    third = estimate_actions(view, samples=60, rng=random.Random(10), rollout=RandomBot())
    assert first == second
    assert first != third


def test_bad_requests_are_refused_in_one_line() -> None:
    state = new_deal(NAMES, 4, 6, random.Random(12))
    with pytest.raises(LooError, match="not to act"):
        estimate_actions(observation(state, 2), samples=10, rng=random.Random(1))
    view = observation(state, 0)
    with pytest.raises(LooError, match="at least 1"):
        estimate_actions(view, samples=0, rng=random.Random(1))
    with pytest.raises(LooError, match="not a legal action"):
        estimate_action(view, Announce(0, Announcement.DEFEND), samples=5,
                        rng=random.Random(1))
