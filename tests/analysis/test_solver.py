"""The best-play solver and the hints built on it."""

from __future__ import annotations

import random
from fractions import Fraction

import hypothesis
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from loo_tutor import LooError, Play, new_deal
from loo_tutor.analysis.hints import avoidable_loo, hint, review
from loo_tutor.analysis.solver import (
    Solver,
    _better2,
    _follows2,
    best_card,
    follows_mask,
    leads_mask,
    leads_of_two,
    solve,
)
from loo_tutor.engine.cards import ACE, CARDS, KING, Card, Suit
from loo_tutor.engine.legality import legal_follows, legal_leads
from loo_tutor.engine.sim import play_out
from loo_tutor.engine.state import Announce, DealState, Phase, Seat, deal_from_hands
from loo_tutor.records.data import example
from loo_tutor.records.record import replay

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def names(count: int) -> list[str]:
    return [f"P{i}" for i in range(1, count + 1)]


def position(seed: int, count: int, cards: int, carried: int) -> DealState:
    """A seeded deal, announced and played at random for up to ``cards`` cards."""
    rng = random.Random(seed)
    state = new_deal(names(count), rng.randrange(count), carried, rng)
    while state.phase is Phase.ANNOUNCE:
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    for _ in range(cards):
        if state.phase is not Phase.PLAY:
            break
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    return state


def looed_count(state: DealState, tricks: dict[Seat, int]) -> int:
    return sum(1 for s in state.active if s != state.defender and tricks[s] == 0)


def prefers(state: DealState, seat: Seat, new: dict[Seat, int], old: dict[Seat, int]) -> bool:
    """The solver's stated order: own tricks, more players looed, then tricks nearer the
    dealer's left (fewer tricks for the active seats furthest from it, first)."""
    if new[seat] != old[seat]:
        return new[seat] > old[seat]
    if looed_count(state, new) != looed_count(state, old):
        return looed_count(state, new) > looed_count(state, old)
    order = list(reversed(state.active))
    return [new[s] for s in order] < [old[s] for s in order]


def brute(state: DealState) -> dict[Seat, int]:
    """Tricks per active seat with best play: every line tried, nothing remembered."""
    if state.is_terminal():
        won = dict.fromkeys(state.active, 0)
        for trick in state.tricks:
            assert trick.winner is not None
            won[trick.winner] += 1
        return won
    seat = state.current_player()
    assert seat is not None
    best: dict[Seat, int] | None = None
    for action in state.legal_actions():
        value = brute(state.apply(action))
        if best is None or prefers(state, seat, value, best):
            best = value
    assert best is not None
    return best


def small_position(seed: int) -> DealState:
    """A position of a 5- or 6-player deal with 6 to 12 cards left, small enough for brute force."""
    rng = random.Random(seed)
    state = position(seed, rng.choice([5, 6]), 0, rng.choice([0, 0, 3, 6, 9]))
    target = rng.randrange(6, 13)
    while state.phase is Phase.PLAY and sum(len(state.held[s]) for s in state.active) > target:
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    return state


def eight_standing(seed: int, carried: int, cards: int) -> DealState:
    """An eight-player deal in which everybody stands, after ``cards`` random cards."""
    rng = random.Random(seed)
    state = new_deal(names(8), rng.randrange(8), carried, rng)
    while state.phase is Phase.ANNOUNCE:
        state = state.apply(Announce(state.current_player(), state.legal_announcements()[0]))  # type: ignore[arg-type]
    for _ in range(cards):
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    return state


def agrees_with_brute_force(state: DealState) -> None:
    seat = state.current_player()
    assert seat is not None
    outcomes = solve(state)
    assert list(outcomes) == state.legal_cards()
    for card, outcome in outcomes.items():
        assert outcome.tricks == brute(state.apply(Play(seat, card))), card


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_solver_agrees_with_brute_force_on_small_positions(seed: int) -> None:
    state = small_position(seed)
    assume(state.phase is Phase.PLAY)
    agrees_with_brute_force(state)


@pytest.mark.parametrize("seed", [3, 17])
def test_solver_agrees_with_brute_force_for_eight_players_in_the_second_trick(seed: int) -> None:
    rng = random.Random(seed)
    state = new_deal(names(8), 0, 6, rng)
    while state.phase is Phase.ANNOUNCE:
        state = state.apply(Announce(state.current_player(), state.legal_announcements()[0]))  # type: ignore[arg-type]
    while len(state.tricks) < 1 or len(state.trick) < 2:
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    assert len(state.active) == 8
    agrees_with_brute_force(state)


@settings(max_examples=40, deadline=None)
@given(seeds, st.sampled_from([0, 6]), st.integers(8, 15))
def test_eight_players_in_the_second_trick_agree_with_brute_force(seed: int, carried: int,
                                                                  cards: int) -> None:
    # The second trick is where the solver settles a trick whose winner is certain
    # (nobody still to play may beat the best card down) without asking each player.
    state = eight_standing(seed, carried, cards)
    assert len(state.active) == 8 and len(state.tricks) == 1
    agrees_with_brute_force(state)


@settings(max_examples=6, deadline=None)
@given(seeds, st.sampled_from([0, 6]), st.integers(0, 7))
@hypothesis.example(seed=1, carried=0, cards=0)  # a simple deal at the first lead
def test_eight_players_in_the_first_trick_agree_with_brute_force(seed: int, carried: int,
                                                                 cards: int) -> None:
    # Simple deals (carried 0: trumps hidden, a player without the led suit may throw
    # any card) and double deals, from the first lead to the first trick's last card.
    state = eight_standing(seed, carried, cards)
    assert len(state.active) == 8 and not state.tricks
    agrees_with_brute_force(state)


def throw_in(seed: int, count: int, double: bool) -> DealState:
    """A deal whose first lead is sure to win and after which every other player may throw any card.

    The first leader holds the ace of trumps and nobody else holds a trump. In
    a double deal the leader must lead the ace (R-LEAD-ACE), and the others,
    with no trump to win with, may play anything (R-DISCARD); in a simple deal
    the leader may lead any card, the ace among them.
    """
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    indicator = next(c for c in deck if c.rank < KING)
    ace = CARDS[13 * indicator.suit + ACE]
    rest = [c for c in deck if c.suit is not indicator.suit]
    hands = [rest[3 * i:3 * i + 3] for i in range(count)]
    hands[1] = [ace, *hands[1][:2]]  # seat 1 leads: the dealer is seat 0
    miss = rest[3 * count:3 * count + 3] if double else None
    state = deal_from_hands(names(count), 0, 6 if double else 0, hands, miss, indicator)
    while state.phase is Phase.ANNOUNCE:
        state = state.apply(Announce(state.current_player(), state.legal_announcements()[0]))  # type: ignore[arg-type]
    return state


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(5, 6), st.booleans())
def test_a_sure_lead_that_everyone_may_throw_to_agrees_with_brute_force(seed: int, count: int,
                                                                       double: bool) -> None:
    # The worst case for speed: every follower chooses which two cards to keep.
    state = throw_in(seed, count, double)
    assert state.phase is Phase.PLAY and len(state.active) == count
    seat = state.current_player()
    assert seat is not None
    ace = next(c for c in state.held[seat] if c.rank == ACE and c.suit is state.indicator.suit)
    state = state.apply(Play(seat, ace))
    assert len(state.legal_cards()) == 3  # the next player may throw any card
    agrees_with_brute_force(state)


@settings(max_examples=60, deadline=None)
@given(seeds, st.integers(5, 6), st.integers(0, 5))
def test_a_second_trick_with_the_trump_still_hidden_agrees_with_brute_force(
        seed: int, count: int, cards: int) -> None:
    # Everybody followed suit in the first trick of a simple deal, so the second is
    # played under the no-trump duties and judged with the hidden trump if somebody
    # cannot follow (R-REVEAL).
    rng = random.Random(seed)
    for _ in range(40):
        state = position(rng.randrange(2**32), count, count, 0)
        if state.phase is Phase.PLAY and state.trump is None and len(state.tricks) == 1:
            break
    else:
        hypothesis.reject()
    for _ in range(min(cards, count - 1)):
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    agrees_with_brute_force(state)


@st.composite
def trick_and_hand(draw: st.DrawFn) -> tuple[list[Card], list[Card], Suit | None]:
    """Distinct cards: a trick of one to seven cards, a hand of one to three, and the trump if known."""
    cards = draw(st.permutations(CARDS))
    size = draw(st.integers(1, 7))
    held = draw(st.integers(1, 3))
    trump = draw(st.sampled_from([None, *Suit]))
    return list(cards[:size]), list(cards[size:size + held]), trump


def mask(cards: list[Card]) -> int:
    return sum(1 << card.index for card in cards)


@given(trick_and_hand())
def test_the_solvers_follow_duties_are_the_engines(
        drawn: tuple[list[Card], list[Card], Suit | None]) -> None:
    trick, hand, trump = drawn
    led = trick[0].suit
    high_led = max(c.rank for c in trick if c.suit is led)
    high_trump = max((c.rank for c in trick if c.suit is trump), default=-1)
    known = -1 if trump is None else trump
    engine = legal_follows(hand, trick, trump)
    assert follows_mask(mask(hand), led, high_led, high_trump, known) == mask(engine)
    if len(hand) == 2:
        only = _follows2(hand[0].index, hand[1].index, led, high_led, high_trump, known)
        allowed = [only] if only >= 0 else [hand[0].index, hand[1].index]
        assert sorted(allowed) == sorted(c.index for c in engine)


@st.composite
def leader_hand(draw: st.DrawFn) -> tuple[Card, list[Card], bool, bool]:
    """An indicator, a hand of one to three other cards, whether trumps are known, whether
    it is a double deal. The hand often holds a trump and the ace or king that carries
    R-LEAD-ACE."""
    cards = draw(st.permutations(CARDS))
    indicator, hand = cards[0], list(cards[1:1 + draw(st.integers(1, 3))])
    top = CARDS[13 * indicator.suit + (KING if indicator.rank == ACE else ACE)]
    if draw(st.booleans()) and top not in hand:
        hand[0] = top
    if draw(st.booleans()) and len(hand) > 1 and cards[5].suit is indicator.suit \
            and cards[5] not in hand and cards[5] != indicator:
        hand[1] = cards[5]
    return indicator, hand, draw(st.booleans()), draw(st.booleans())


@given(leader_hand())
def test_the_solvers_lead_duties_are_the_engines(
        drawn: tuple[Card, list[Card], bool, bool]) -> None:
    indicator, hand, known, double = drawn
    trump = indicator.suit if known or double else None
    duty = 13 * indicator.suit + (KING if indicator.rank == ACE else ACE) if double else -1
    engine = legal_leads(hand, trump, double, indicator)
    assert leads_mask(mask(hand), -1 if trump is None else trump, duty) == mask(engine)
    if len(hand) == 2:
        mine = leads_of_two(hand[0].index, hand[1].index, -1 if trump is None else trump, duty)
        assert sorted(mine) == sorted(c.index for c in engine)


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(1, 8))
def test_one_solver_for_a_whole_deal_agrees_with_brute_force(seed: int, later: int) -> None:
    # From the first lead of a 5-player deal, then further into the same deal with the
    # positions the solver remembers from the first question.
    state = position(seed, 5, 0, 0)
    solver = Solver()
    rng = random.Random(seed)
    for _ in range(2):
        seat = state.current_player()
        assert seat is not None
        for card, outcome in solver.solve(state).items():
            assert outcome.tricks == brute(state.apply(Play(seat, card))), card
        for _ in range(later):
            if len(state.tricks) == 2 or state.phase is not Phase.PLAY:
                break
            options = state.legal_actions()
            state = state.apply(options[rng.randrange(len(options))])
        if state.phase is not Phase.PLAY:
            break  # the deal ended before the second question


@settings(max_examples=40, deadline=None)
@given(seeds, st.integers(5, 8), st.integers(0, 20), st.sampled_from([0, 3, 10]))
def test_outcomes_conserve_units_and_share_three_tricks(seed: int, count: int, cards: int,
                                                       carried: int) -> None:
    state = position(seed, count, cards, carried)
    assume(state.phase is Phase.PLAY)
    for outcome in solve(state).values():
        assert sum(outcome.tricks.values()) == 3
        settled = outcome.settlement
        assert sum(settled.net.values()) == state.carried - settled.carried_next  # R-CONSERVE
        assert set(settled.looed) == {s for s, won in outcome.tricks.items()
                                      if won == 0 and s != state.defender}
        for seat, won in outcome.tricks.items():
            if seat != state.defender and won:
                assert settled.payouts[seat] == state.pool * Fraction(won, 3)  # R-PAY-THIRD


@settings(max_examples=30, deadline=None)
@given(seeds, st.integers(5, 8), st.integers(0, 20), st.sampled_from([0, 6]))
def test_hints_name_only_legal_cards(seed: int, count: int, cards: int, carried: int) -> None:
    state = position(seed, count, cards, carried)
    assume(state.phase is Phase.PLAY)
    given_hint = hint(state)
    assert given_hint.card in state.legal_cards()
    assert given_hint.sentence.startswith("Play ")
    assert given_hint.outcome is given_hint.outcomes[given_hint.card]
    own = given_hint.seat
    assert all(o.tricks[own] <= given_hint.outcome.tricks[own]
               for o in given_hint.outcomes.values())


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(5, 7))
def test_review_and_loo_check_over_a_finished_deal(seed: int, count: int) -> None:
    rng = random.Random(seed)
    end = play_out(new_deal(names(count), 0, 0, rng), rng)
    states = replay_states(end)
    for seat in range(count):
        reviews = review(states, seat)
        assert len(reviews) == 3  # a simple deal: everyone plays three cards
        for item in reviews:
            assert item.best.card in item.before.legal_cards()
            assert item.played.card in item.before.legal_cards()
            assert item.lost >= 0
        answer = avoidable_loo(states, seat)
        assert answer.looed == (seat in end.settlement().looed)
        if answer.at is not None:
            assert answer.instead is not None and answer.played is not None
            assert answer.instead.card in answer.at.legal_cards()
            assert seat not in answer.instead.looed
            assert answer.sentence.startswith("Yes")


def replay_states(end: DealState) -> list[DealState]:
    from loo_tutor.records.record import record_from_state
    return replay(record_from_state(end)).states


@given(st.integers(2, 8).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n - 1), st.sets(st.integers(0, n - 1)),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), min_size=2, max_size=2))))
def test_the_last_two_tricks_compare_results_by_the_stated_order(
        case: tuple[int, int, set[int], list[tuple[int, int]]]) -> None:
    # Results of the last two tricks (two bits of tricks per player) compared
    # for one player: own tricks, then more players looed, then the smaller number.
    n, player, open_players, winners = case
    open_bits = sum(1 << 2 * i for i in open_players)
    new, old = ((1 << 2 * a) + (1 << 2 * b) for a, b in winners)

    def order(value: int) -> tuple[int, int, int]:
        tricks = [value >> 2 * i & 3 for i in range(n)]
        looed = sum(1 for i in open_players if tricks[i] == 0)
        return tricks[player], looed, -value

    assert _better2(new, old, 2 * player, open_bits) == (order(new) > order(old))


def test_forced_ace_deal_best_play() -> None:
    states = replay(example("forced-ace")).states
    start = next(s for s in states if s.phase is Phase.PLAY)
    best = best_card(start)
    assert str(best.card) == "AH"
    assert best.tricks == {0: 2, 1: 1, 2: 0}
    assert best.looed == (2,)
    assert best.payouts == {0: Fraction(8), 1: Fraction(4)}
    assert "only legal card" in hint(start).sentence


def test_a_hint_names_what_the_worse_card_costs() -> None:
    # Find a seeded position where one card wins a trick and another is looed.
    for seed in range(200):
        state = position(seed, 5, seed % 8, 0)
        if state.phase is not Phase.PLAY:
            continue
        seat = state.current_player()
        assert seat is not None
        outcomes = solve(state)
        if {o.tricks[seat] == 0 for o in outcomes.values()} == {True, False}:
            text = hint(state).sentence
            assert "looed (\u22123)" in text and "you win" in text
            return
    pytest.fail("no position with a loo at stake among 200 seeds")


def test_a_solver_remembers_positions_between_questions() -> None:
    state = position(5, 8, 0, 0)
    solver = Solver()
    assert solver.positions_known() == 0
    first = solver.solve(state)
    learnt = solver.positions_known()
    assert learnt > 0
    assert solver.solve(state) == first
    assert solver.positions_known() == learnt  # answered from memory, nothing searched again
    later = state.apply(state.legal_actions()[0])
    solver.solve(later)  # a later position of the same deal reuses the same search
    assert solver.positions_known() == learnt


def test_outside_play_the_solver_refuses_in_one_line() -> None:
    state = new_deal(names(5), 0, 6, random.Random(1))
    with pytest.raises(LooError, match="announcements are not over"):
        solve(state)
    with pytest.raises(LooError, match="not finished"):
        avoidable_loo(state, 0)
    with pytest.raises(LooError, match="not one of the players"):
        review(state, "Nobody")
