"""Invariants over random seeded deals and sessions (hypothesis)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from loo_tutor import (
    CARDS,
    Announce,
    Announcement,
    Play,
    check,
    deal_from_deck,
    dumps,
    loads,
    new_deal,
    record_from_state,
)
from loo_tutor.engine.session import Session
from loo_tutor.engine.sim import play_out
from loo_tutor.engine.state import DealState, Phase
from loo_tutor.records.record import format_amount

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=5, max_value=8)
carried_values = st.sampled_from(
    [Fraction(0), Fraction(3), Fraction(9), Fraction(10, 3), Fraction(13, 3), Fraction(27)]
)


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(1, count + 1)]


@st.composite
def deals(draw: st.DrawFn) -> tuple[DealState, random.Random]:
    count = draw(player_counts)
    dealer = draw(st.integers(0, count - 1))
    rng = random.Random(draw(seeds))
    return new_deal(names(count), dealer, draw(carried_values), rng), rng


def history(start: DealState, rng: random.Random) -> list[DealState]:
    """Every state of a random legal play-out, start included."""
    states = [start]
    while not states[-1].is_terminal():
        actions = states[-1].legal_actions()
        states.append(states[-1].apply(rng.choice(actions)))
    return states


def options_of(state: DealState) -> list[str]:
    if state.phase is Phase.ANNOUNCE:
        return sorted(a.value for a in state.legal_announcements())
    return sorted(str(c) for c in state.legal_cards())


@settings(max_examples=150, deadline=None)
@given(deals())
def test_random_legal_play_completes_and_conserves_units(deal: tuple[DealState, random.Random]) -> None:
    start, rng = deal
    states = history(start, rng)
    end = states[-1]
    assert end.is_terminal() and len(states) <= len(start.players) + 3 * len(start.players) + 1
    settled = end.settlement()
    assert sum(settled.net.values()) == end.carried - settled.carried_next
    assert settled.carried_next >= 0
    cards = [c for t in end.tricks for _, c in t.plays]
    assert len(cards) == len(set(cards)) == 3 * len(end.active)


@settings(max_examples=60, deadline=None)
@given(deals())
def test_every_prefix_is_in_progress_with_the_engines_options(
        deal: tuple[DealState, random.Random]) -> None:
    start, rng = deal
    states = history(start, rng)
    for state in states:
        result = check(record_from_state(state))
        if state.is_terminal():
            assert result["status"] == "complete"
            continue
        assert result["status"] == "in_progress"
        assert result["next"]["player"] == state.players[state.current_player()]
        assert result["next"]["options"] == options_of(state)


@settings(max_examples=80, deadline=None)
@given(deals(), st.data())
def test_a_non_option_is_reported_illegal_at_exactly_that_step(
        deal: tuple[DealState, random.Random], data: st.DataObject) -> None:
    start, rng = deal
    states = history(start, rng)
    step = data.draw(st.integers(0, len(states) - 2))
    before = states[step]
    seat = before.current_player()
    if before.phase is Phase.PLAY:
        played = {c for t in before.all_tricks() for _, c in t.plays}
        wrong = [c for c in CARDS if c not in before.legal_cards() and c not in played]
        action: Announce | Play = Play(seat, data.draw(st.sampled_from(wrong)))
    else:
        words = {"stand", "pass", "miss", "defend"} - set(options_of(before))
        assume(words)
        action = Announce(seat, Announcement(data.draw(st.sampled_from(sorted(words)))))
    assert not before.check(action)
    record = record_from_state(_with_action(before, action))
    result = check(record)
    assert result["status"] == "illegal"
    assert result["error"]["player"] == before.players[seat]
    played = sum(len(t["cards"]) for t in result["tricks"])
    assert played == sum(len(t.plays) for t in before.all_tricks())
    assert result["error"]["rule"] == before.check(action).rule.value


def _with_action(state: DealState, action: Announce | Play) -> DealState:
    """A copy of ``state`` with an unchecked action appended to its history, for writing out."""
    forced = state.copy()
    if isinstance(action, Announce):
        forced.announcements.append((action.seat, action.announcement))
    else:
        forced.trick.append(action.card)
    return forced


@settings(max_examples=100, deadline=None)
@given(player_counts, seeds, carried_values)
def test_deck_and_hands_forms_agree(count: int, seed: int, carried: Fraction) -> None:
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    dealer = rng.randrange(count)
    start = deal_from_deck(names(count), dealer, carried, deck)
    end = history(start, rng)[-1]
    hands_form = record_from_state(end)
    deck_form = {k: v for k, v in hands_form.items() if k not in ("hands", "miss", "trump")}
    deck_form["deck"] = [str(c) for c in deck]
    assert check(deck_form) == check(hands_form)


@settings(max_examples=100, deadline=None)
@given(deals())
def test_records_round_trip_through_yaml(deal: tuple[DealState, random.Random]) -> None:
    start, rng = deal
    end = history(start, rng)[-1]
    record = record_from_state(end)
    assert loads(dumps(record)) == record
    assert check(loads(dumps(record))) == check(record)
    assert format_amount(end.carried) == record["carried"]


@settings(max_examples=40, deadline=None)
@given(player_counts, seeds, st.integers(1, 12))
def test_a_session_keeps_balances_plus_pool_at_zero(count: int, seed: int, deals_: int) -> None:
    session = Session(names(count), deals=deals_, seed=seed)
    while not session.is_over():
        state = session.start_deal()
        assert session.ledger.total() == 0
        session.finish_deal(play_out(state, session.rng))
        assert session.ledger.total() == 0
        assert session.ledger.pool == session.carried
    final = session.end()
    assert sum(final.values()) == 0 and session.ledger.pool == 0
