"""The deal state machine's API: checking never changes anything."""

from __future__ import annotations

import random

import pytest

from loo_tutor import (
    Announce,
    Announcement,
    IllegalActionError,
    LooError,
    Play,
    RuleId,
    deal_from_deck,
    deal_from_hands,
    full_deck,
    new_deal,
    parse_card,
)
from loo_tutor.engine.state import Phase
from loo_tutor.records.record import record_from_state

FIVE = ["A", "B", "C", "D", "E"]


def forced_ace():
    hands = [[parse_card(c) for c in h.split()] for h in
             ("AH 7H KC", "9H 3S AC", "2H 5D 6D", "QS QD QC", "JS JD JC")]
    state = deal_from_hands(FIVE, 4, 9, hands, [parse_card(c) for c in ["2S", "2D", "2C"]],
                            parse_card("4H"))
    for seat, call in enumerate(["stand", "stand", "stand", "pass", "pass"]):
        state = state.apply(Announce(seat, Announcement(call)))
    return state


def test_apply_returns_a_new_state_and_leaves_the_old_one_alone() -> None:
    state = forced_ace()
    before = record_from_state(state)
    after = state.apply(Play(0, parse_card("AH")))
    assert record_from_state(state) == before
    assert after.current_player() == 1 and state.current_player() == 0


def test_illegal_apply_raises_with_the_verdict_and_changes_nothing() -> None:
    state = forced_ace()
    before = record_from_state(state)
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Play(0, parse_card("7H")))
    verdict = refused.value.verdict
    assert verdict.rule is RuleId.LEAD_ACE and not verdict
    assert verdict.allowed == (Play(0, parse_card("AH")),)
    assert "[R-LEAD-ACE]" in str(refused.value)
    assert record_from_state(state) == before


def test_check_names_the_rule_and_lists_the_alternatives() -> None:
    state = forced_ace().apply(Play(0, parse_card("AH")))
    verdict = state.check(Play(1, parse_card("3S")))
    assert verdict.rule is RuleId.FOLLOW
    assert verdict.allowed == (Play(1, parse_card("9H")),)
    assert state.check(Play(1, parse_card("9H")))


def test_settling_an_unfinished_deal_is_refused() -> None:
    with pytest.raises(LooError):
        forced_ace().settlement()


def test_bad_setups_are_refused() -> None:
    with pytest.raises(LooError):
        new_deal(FIVE[:4], 0, 0, random.Random(1))
    with pytest.raises(LooError):
        new_deal(FIVE, 5, 0, random.Random(1))
    with pytest.raises(LooError):
        new_deal(FIVE, 0, -1, random.Random(1))
    with pytest.raises(LooError):
        deal_from_deck(FIVE, 0, 0, full_deck()[:51])


def test_the_last_trick_ends_the_deal() -> None:
    state = forced_ace()
    for card in ["AH", "9H", "2H", "7H", "3S", "5D", "KC", "AC", "6D"]:
        state = state.apply(Play(state.current_player(), parse_card(card)))
    assert state.phase is Phase.OVER and state.current_player() is None
    assert state.legal_actions() == []
    assert state.check(Play(0, parse_card("AH"))).rule is RuleId.PLAY_ORDER
