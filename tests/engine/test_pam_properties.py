"""Invariants of Pam Loo over random seeded deals, under every Pam option (hypothesis)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from loo_tutor import check, dumps, loads, record_from_state
from loo_tutor.engine.cards import CARDS
from loo_tutor.engine.legality import Announcement
from loo_tutor.engine.pam import (
    CivilLead,
    PamAction,
    PamState,
    new_pam_deal,
    pam_from_deck,
)
from loo_tutor.engine.profiles import profile_from_rules
from loo_tutor.engine.rules import Profile
from loo_tutor.engine.state import Announce, Exchange, Phase, Play, shuffle_and_cut
from loo_tutor.records.record import replay_pam

PROFILES: list[Profile] = [
    profile_from_rules(rules) for rules in (
        "pam",
        {"base": "pam", "duties": "004", "flush_exempt": False, "seats": "5-6",
         "dealer_takes_trump": True},
        {"base": "pam", "running_pam": True, "loo": "unlimited"},
        {"base": "pam", "stakes": "everyone", "loo": "mixed(7)", "dealer_takes_trump": True},
        {"base": "pam", "seats": "3-10"},
    )
]
seeds = st.integers(min_value=0, max_value=2**32 - 1)
carried_values = st.sampled_from([0, 5, 7, "10/3", 22])


@st.composite
def deals(draw: st.DrawFn) -> tuple[PamState, random.Random]:
    profile = draw(st.sampled_from(PROFILES))
    count = draw(st.integers(profile.min_players, profile.max_players))
    dealer = draw(st.integers(0, count - 1))
    rng = random.Random(draw(seeds))
    carried = draw(carried_values)
    return new_pam_deal([f"P{i}" for i in range(count)], dealer, Fraction(carried), rng,
                        profile), rng


def choose(state: PamState, rng: random.Random) -> PamAction:
    """A random legal action, standing more often than not so that play happens."""
    actions = state.legal_actions()
    stand = [a for a in actions if isinstance(a, Announce) and a.announcement is Announcement.STAND]
    if stand and rng.random() < 0.7:
        return stand[0]
    return rng.choice(actions)


def history(start: PamState, rng: random.Random) -> list[PamState]:
    states = [start]
    while not states[-1].is_terminal():
        states.append(states[-1].apply(choose(states[-1], rng)))
    return states


def options_of(state: PamState) -> list[str]:
    texts = []
    for action in state.legal_actions():
        if isinstance(action, Announce):
            texts.append(action.announcement.value)
        elif isinstance(action, Exchange):
            taking = " + turned" if action.take_turned else ""
            texts.append((" ".join(sorted(c.text for c in action.cards)) or "keep") + taking)
        elif isinstance(action, CivilLead):
            texts.append(action.card.text + " civil")
        else:
            texts.append(action.card.text)
    return sorted(texts)


@settings(max_examples=120, deadline=None)
@given(deals())
def test_random_legal_play_completes_and_conserves_units(deal: tuple[PamState, random.Random]
                                                         ) -> None:
    start, rng = deal
    end = history(start, rng)[-1]
    settled = end.settlement()
    assert sum(settled.net.values()) == end.carried - settled.carried_next
    assert settled.carried_next >= 0
    played = [c for t in end.tricks for _, c in t.plays]
    assert len(set(played)) == len(played)
    if end.tricks:
        assert len(end.tricks) == 5 and all(not end.held[s] for s in end.standers)
        assert sum(settled.payouts.values()) == end.pool
    elif end.flush is None:
        assert end.collected_by is not None and settled.looed == ()


@settings(max_examples=40, deadline=None)
@given(deals())
def test_every_prefix_is_in_progress_with_the_engines_options(
        deal: tuple[PamState, random.Random]) -> None:
    start, rng = deal
    states = history(start, rng)
    for state in states[:-1]:
        result = check(record_from_state(state))
        assert result["status"] == "in_progress"
        assert result["next"]["options"] == options_of(state)
        assert result["next"]["phase"] == state.phase.value
    assert check(record_from_state(states[-1]))["status"] == "complete"


@settings(max_examples=60, deadline=None)
@given(deals(), st.data())
def test_a_card_that_is_not_an_option_is_illegal_at_that_step(
        deal: tuple[PamState, random.Random], data: st.DataObject) -> None:
    start, rng = deal
    states = history(start, rng)
    plays = [s for s in states if s.phase is Phase.PLAY]
    assume(plays)
    state = data.draw(st.sampled_from(plays))
    seat = state.current_player()
    assert seat is not None
    legal = set(state.legal_cards())
    played = {c for t in state.all_tricks() for _, c in t.plays}
    wrong = [c for c in CARDS if c not in legal and c not in played]
    card = data.draw(st.sampled_from(wrong))
    verdict = state.check(Play(seat, card))
    assert not verdict and verdict.rule is not None
    record = record_from_state(state)
    record.setdefault("tricks", [])
    if state.trick:
        record["tricks"][-1].append(card.text)
    else:
        record["tricks"].append([card.text])
    result = check(record)
    assert result["status"] == "illegal"
    assert result["error"]["rule"] == str(verdict.rule)
    assert result["error"]["action"] == card.text


@settings(max_examples=60, deadline=None)
@given(seeds, st.sampled_from(PROFILES))
def test_deck_and_hands_forms_agree_and_records_round_trip(seed: int, profile: Profile) -> None:
    rng = random.Random(seed)
    deck, _ = shuffle_and_cut(rng)
    count = rng.randint(profile.min_players, profile.max_players)
    names = [f"P{i}" for i in range(count)]
    state = pam_from_deck(names, count - 1, 5, deck, profile)
    states = history(state, rng)
    end = states[-1]
    hands_form = record_from_state(end)
    deck_form: dict[str, Any] = {k: v for k, v in hands_form.items()
                                 if k not in ("hands", "trump", "stock")}
    deck_form["deck"] = [c.text for c in deck]
    assert check(deck_form) == check(hands_form)
    assert loads(dumps(hands_form)) == hands_form
    middle = states[len(states) // 2]
    assert record_from_state(pam_again(middle)) == record_from_state(middle)


def pam_again(state: PamState) -> PamState:
    """The state a record of ``state`` replays to, through the record reader."""
    return replay_pam(record_from_state(state)).states[-1]
