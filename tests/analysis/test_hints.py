"""Hints and reviews tell the truth (book: Best play, hints and practice).

Every number a hint or a review prints is the solver's value under the
assumption the sentence states (everyone plays their best for themselves,
every hand seen), and a deal played on from a hint, the hinted player
following the hints and the others playing their best, ends exactly as the
hint promised. The review's account of the deal as played is the engine's
settlement.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from test_solver import names, position, seeds

from loo_tutor import Play, new_deal
from loo_tutor.analysis.hints import (
    HAD_BEST,
    IF_BEST,
    CardReview,
    avoidable_loo,
    hint,
    played_result,
    result,
    review,
    settled_amount,
)
from loo_tutor.analysis.solver import Outcome, Solver
from loo_tutor.engine.cards import Card, card_text
from loo_tutor.engine.money import signed_text
from loo_tutor.engine.sim import play_out
from loo_tutor.engine.state import DealState, Phase, Seat
from loo_tutor.records.record import record_from_state, replay

CLAIM = re.compile(
    r"(?:with (?P<card>\S+) )?you (?P<verb>win|would win|would have won|won"
    r"|are looed|would be looed|would have been looed|were looed)"
    r"(?: (?P<count>\w+) tricks?)?(?: for the pool| \((?P<amount>[^)]*)\))")
COUNTS = {"no": 0, "one": 1, "two": 2, "three": 3}

Claim = tuple[str | None, int | None, str | None]
"""What a sentence says of one end of the deal: the card it follows (if named), the
tricks won (``None`` for a loo) and the money (``None`` for a defender's tricks)."""


def claims(sentence: str) -> list[Claim]:
    found = [(m["card"], None if "looed" in m["verb"] else COUNTS[m["count"]], m["amount"])
             for m in CLAIM.finditer(sentence)]
    assert found, sentence
    return found


def claim_of(state: DealState, outcome: Outcome, seat: Seat, card: str | None) -> Claim:
    amount = None if seat == state.defender else signed_text(result(state, outcome, seat))
    return card, None if seat in outcome.looed else outcome.tricks[seat], amount


def by_text(cards: Sequence[Card]) -> dict[str, Card]:
    return {card_text(card): card for card in cards}


@settings(max_examples=150, deadline=None)
@given(seeds, st.integers(5, 8), st.integers(0, 14), st.sampled_from([0, 6]))
def test_a_hint_states_its_assumption_and_prints_the_solvers_numbers(
        seed: int, count: int, cards: int, carried: int) -> None:
    state = position(seed, count, cards, carried)
    assume(state.phase is Phase.PLAY)
    given_hint = hint(state)
    seat = given_hint.seat
    assert IF_BEST in given_hint.sentence
    said = claims(given_hint.sentence)
    assert said[0] == claim_of(state, given_hint.outcome, seat, None)
    outcomes = {card_text(card): outcome for card, outcome in given_hint.outcomes.items()}
    for named in said[1:]:  # "with 7♥ you would …": that card's value
        assert named[0] in outcomes
        assert named == claim_of(state, outcomes[named[0]], seat, named[0])


@settings(max_examples=100, deadline=None)
@given(seeds, st.integers(5, 8), st.integers(0, 14), st.sampled_from([0, 6]))
def test_a_deal_played_as_the_hints_advise_ends_as_the_first_hint_promised(
        seed: int, count: int, cards: int, carried: int) -> None:
    state = position(seed, count, cards, carried)
    assume(state.phase is Phase.PLAY)
    solver = Solver()
    first = hint(state, solver)
    seat, promised = first.seat, first.outcome
    states = [state]
    while not state.is_terminal():
        mover = state.current_player()
        if mover == seat:
            advice = hint(state, solver)
            assert advice.outcome.tricks[seat] == promised.tricks[seat]
            card = advice.card
        else:  # the assumption the hint states: the others play their best for themselves
            card = solver.best(state, solver.solve(state)).card
        assert mover is not None
        state = state.apply(Play(mover, card))
        states.append(state)
    settlement = state.settlement()
    won = sum(1 for trick in state.tricks if trick.winner == seat)
    assert won == promised.tricks[seat]
    assert settled_amount(settlement, seat) == result(state, promised, seat)
    assert (seat in settlement.looed) == (seat in promised.looed)
    assert "Had everyone" not in played_result(state, seat, review(states, seat))


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(5, 7), st.sampled_from([0, 6]))
def test_a_review_prints_the_solvers_numbers_and_the_engines_result(
        seed: int, count: int, carried: int) -> None:
    rng = random.Random(seed)
    states = replay_of(play_out(new_deal(names(count), rng.randrange(count), carried, rng),
                                rng))
    end = states[-1]
    for seat in end.active:
        items = review(states, seat)
        for item in items:
            check_review_line(item, seat)
        told = played_result(end, seat, items)
        settled = end.settlement()
        won = sum(1 for trick in end.tricks if trick.winner == seat)
        amount = None if seat == end.defender else signed_text(settled_amount(settled, seat))
        said = claims(told)
        assert said[0] == (None, None if seat in settled.looed else won, amount)
        check_loo_answer(states, seat)
        if len(said) > 1:  # where the others' play took the deal away from best play
            assert told.count("Had everyone played their best for themselves") == 1
            trick = int(re.search(r"after your card in trick (\d)", told)[1])  # type: ignore[index]
            item = next(i for i in items if i.trick == trick)
            assert said[1] == claim_of(item.before, item.played, seat, None)


def check_review_line(item: CardReview, seat: Seat) -> None:
    before, text = item.before, item.sentence
    legal = by_text(before.legal_cards())
    if len(legal) == 1:
        assert text.endswith("was your only legal card.") and "(" not in text
        return
    assert HAD_BEST in text
    outcomes = Solver().solve(before)
    for named in claims(text):
        card = legal[named[0]] if named[0] is not None else item.played.card
        assert named == claim_of(before, outcomes[card], seat, named[0])


def check_loo_answer(states: list[DealState], seat: Seat) -> None:
    answer = avoidable_loo(states, seat)
    if not answer.looed:
        return
    assert HAD_BEST in answer.sentence
    if answer.at is not None:
        assert answer.instead is not None
        name = states[0].players[seat]
        tricks = answer.instead.tricks[seat]
        amount = signed_text(result(answer.at, answer.instead, seat))
        if seat == answer.at.defender:
            assert f"{name} would have won {WORDS[tricks]} for the pool" in answer.sentence
        else:
            assert f"{name} would have won {WORDS[tricks]} ({amount})" in answer.sentence


WORDS = ["no tricks", "one trick", "two tricks", "three tricks"]


def replay_of(end: DealState) -> list[DealState]:
    return replay(record_from_state(end)).states

