"""At least one test for every rule ID of SPEC.md, asserting the ID, not wording."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import TypeVar

import pytest

from loo_tutor import (
    CARDS,
    Announce,
    Announcement,
    DealKind,
    IllegalActionError,
    MalformedRecord,
    Play,
    RuleId,
    deal_from_deck,
    deal_from_hands,
    new_deal,
    parse_card,
)
from loo_tutor.engine.legality import trick_winner_index
from loo_tutor.engine.observe import observation
from loo_tutor.engine.session import Session
from loo_tutor.engine.sim import play_out
from loo_tutor.engine.state import shuffle_and_cut, split_deck

from conftest import FORCED_ACE, run

COVERED: set[RuleId] = set()
F = TypeVar("F", bound=Callable[..., None])


def covers(*rules: RuleId) -> Callable[[F], F]:
    """Mark a test as exercising the given rules."""
    def mark(test: F) -> F:
        COVERED.update(rules)
        return test
    return mark


def cards(text: str) -> list:
    return [parse_card(t) for t in text.split()]


FIVE = ["A", "B", "C", "D", "E"]


def double_deal(announce: str = "", tricks: str = "", hands: str | None = None,
                carried: str = "9") -> str:
    """A five-player double deal, E dealing, with optional announcements and tricks."""
    hands = hands or (
        "{A: [AH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}"
    )
    text = (f"players: [A, B, C, D, E]\ndealer: E\ncarried: {carried}\nhands: {hands}\n"
            "miss: [2S, 2D, 2C]\ntrump: 4H\n")
    if announce:
        text += f"announce: {{{announce}}}\n"
    if tricks:
        text += f"tricks: {tricks}\n"
    return text


def error_rule(text: str) -> str:
    result = run(text)
    assert result["status"] == "illegal", result
    return result["error"]["rule"]


# -- 1. pack and ranks --------------------------------------------------------


@covers(RuleId.PACK_CARDS)
def test_pack_has_52_distinct_cards_and_a_repeated_card_is_malformed() -> None:
    assert len(set(CARDS)) == 52
    deck = [str(c) for c in CARDS]
    deck[51] = deck[0]
    with pytest.raises(MalformedRecord):
        run(f"players: [A, B, C, D, E]\ndealer: E\ncarried: 0\ndeck: {deck}\n")


@covers(RuleId.PACK_RANK)
def test_ace_is_high_and_ten_beats_nine() -> None:
    assert trick_winner_index(cards("2S AS KS"), None) == 1
    assert trick_winner_index(cards("9D 10D"), None) == 1


# -- 2. seating and the dealer -------------------------------------------------


@covers(RuleId.SEAT_COUNT)
@pytest.mark.parametrize("count, ok", [(4, False), (5, True), (8, True), (9, False)])
def test_seat_count_five_to_eight(count: int, ok: bool) -> None:
    names = [f"P{i}" for i in range(count)]
    text = f"players: {names}\ndealer: P0\ncarried: 0\ndeck: {[str(c) for c in CARDS]}\n"
    if ok:
        assert run(text)["status"] == "in_progress"
    else:
        with pytest.raises(MalformedRecord):
            run(text)


@covers(RuleId.SEAT_FIRST_DEALER)
def test_first_dealer_is_drawn_at_random_and_reproducibly() -> None:
    firsts = {Session(FIVE, deals=5, seed=seed).first_dealer for seed in range(60)}
    assert firsts == set(range(5))
    assert Session(FIVE, deals=5, seed=3).first_dealer == Session(FIVE, deals=5, seed=3).first_dealer
    assert Session(FIVE, deals=5, seed=3, first_dealer=2).dealer == 2


@covers(RuleId.SEAT_ROTATE)
def test_deal_passes_to_the_left_and_play_goes_clockwise() -> None:
    session = Session(FIVE, deals=3, seed=1, first_dealer=4)
    dealers = []
    while not session.is_over():
        state = session.start_deal()
        dealers.append(state.dealer)
        session.finish_deal(play_out(state, session.rng))
    assert dealers == [4, 0, 1]
    state = new_deal(FIVE, dealer=2, carried=0, rng=random.Random(5))
    assert state.order == (3, 4, 0, 1, 2)


# -- 3. before and during the deal ------------------------------------------------


@covers(RuleId.DEAL_ANTE, RuleId.POOL)
def test_dealer_pays_three_and_the_pool_is_carried_plus_three() -> None:
    session = Session(FIVE, deals=1, seed=2, first_dealer=1)
    state = session.start_deal()
    assert session.ledger.balances[1] == -3
    assert session.ledger.pool == 3 == state.pool
    assert run(FORCED_ACE)["pool"] == "12"
    result = run(double_deal(carried='"13/3"'))
    assert result["pool"] == "22/3"


@covers(RuleId.DEAL_KIND)
def test_carried_zero_is_simple_and_any_positive_balance_is_double() -> None:
    deck = [str(c) for c in CARDS]
    base = f"players: [A, B, C, D, E]\ndealer: E\ndeck: {deck}\n"
    assert run(base + "carried: 0\n")["kind"] == "simple"
    assert run(base + 'carried: "1/3"\n')["kind"] == "double"
    assert run(base + 'carried: "0/7"\n')["kind"] == "simple"


@covers(RuleId.DEAL_SHUFFLE_CUT)
def test_shuffle_and_cut_is_a_seeded_permutation_cut_inside_the_pack() -> None:
    deck, cut = shuffle_and_cut(random.Random(42))
    assert sorted(deck) == sorted(CARDS) and 1 <= cut <= 51
    again, cut_again = shuffle_and_cut(random.Random(42))
    assert (again, cut_again) == (deck, cut)
    cuts = {shuffle_and_cut(random.Random(s))[1] for s in range(300)}
    assert min(cuts) >= 1 and max(cuts) <= 51 and len(cuts) > 30


@covers(RuleId.DEAL_ORDER)
def test_simple_deal_goes_round_from_the_dealers_left_one_card_at_a_time() -> None:
    deck = list(CARDS)
    hands, miss, indicator = split_deck(deck, 5, dealer=1, kind=DealKind.SIMPLE)
    assert miss is None
    assert hands[2] == (deck[0], deck[5], deck[10])  # dealer's left
    assert hands[1] == (deck[4], deck[9], deck[14])  # the dealer, last
    assert indicator is deck[15]


@covers(RuleId.DEAL_MISS)
def test_miss_takes_the_second_to_last_card_of_each_circuit() -> None:
    deck = list(CARDS)
    hands, miss, indicator = split_deck(deck, 5, dealer=4, kind=DealKind.DOUBLE)
    assert miss == (deck[4], deck[10], deck[16])
    assert hands[4] == (deck[5], deck[11], deck[17])
    assert hands[0] == (deck[0], deck[6], deck[12])
    assert indicator is deck[18]


@covers(RuleId.DEAL_TRUMP)
def test_indicator_is_the_first_card_after_the_deal_and_can_never_be_played() -> None:
    deck = [str(c) for c in CARDS]
    result = run(f"players: [A, B, C, D, E]\ndealer: E\ncarried: 3\ndeck: {deck}\n")
    assert result["trump"] == CARDS[18].suit.letter
    assert error_rule(double_deal("A: stand, B: stand, C: pass, D: pass, E: pass",
                                  "[[4H]]")) == "R-PLAY-HAND"


@covers(RuleId.DEAL_STOCK)
def test_cards_after_the_indicator_belong_to_nobody() -> None:
    state = deal_from_deck(FIVE, 4, 0, list(CARDS))
    dealt = {c for h in state.hands for c in h} | {state.indicator}
    assert len(dealt) == 16
    stock_card = CARDS[20]
    assert stock_card not in dealt
    verdict = state.check(Play(state.current_player(), stock_card))
    assert verdict.rule is RuleId.PLAY_HAND


# -- 4. announcements --------------------------------------------------------------


@covers(RuleId.ANN_SIMPLE)
def test_simple_deal_has_no_announcements_and_everyone_plays() -> None:
    state = new_deal(FIVE, dealer=4, carried=0, rng=random.Random(1))
    assert state.active == (0, 1, 2, 3, 4)
    assert state.check(Announce(0, Announcement.PASS)).rule is RuleId.ANN_SIMPLE
    with pytest.raises(MalformedRecord):
        run("players: [A, B, C, D, E]\ndealer: E\ncarried: 0\n"
            f"deck: {[str(c) for c in CARDS]}\nannounce: {{A: pass}}\n")


@covers(RuleId.ANN_ORDER)
def test_announcing_out_of_turn_is_refused() -> None:
    assert error_rule(double_deal("B: stand, A: stand")) == "R-ANN-ORDER"
    assert error_rule(double_deal("E: stand")) == "R-ANN-ORDER"
    state = deal_from_hands(FIVE, 4, 9, [cards("AH 7H KC"), cards("9H 3S AC"), cards("2H 5D 6D"),
                                         cards("QS QD QC"), cards("JS JD JC")],
                            cards("2S 2D 2C"), parse_card("4H"))
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Announce(2, Announcement.STAND))
    assert refused.value.verdict.rule is RuleId.ANN_ORDER
    assert state.announcements == [] and state.current_player() == 0


@covers(RuleId.ANN_LOOK)
def test_a_player_sees_only_their_own_hand_and_only_from_their_turn() -> None:
    state = new_deal(FIVE, dealer=4, carried=6, rng=random.Random(8))
    assert observation(state, 0).hand == state.hands[0]
    assert observation(state, 1).hand is None
    state = state.apply(Announce(0, Announcement.PASS))
    assert observation(state, 0).hand is None  # thrown in
    assert observation(state, 1).hand == state.hands[1]
    state = state.apply(Announce(1, Announcement.MISS))
    assert observation(state, 1).hand is None  # the miss is taken unseen
    for seat in range(5):
        view = observation(state, seat)
        assert view.hand in (None, state.hands[seat])
    simple = new_deal(FIVE, dealer=4, carried=0, rng=random.Random(8))
    assert observation(simple, 2).indicator is None and observation(simple, 2).trump is None


@covers(RuleId.ANN_CHOICES)
def test_non_dealer_may_stand_pass_or_take_an_unclaimed_miss() -> None:
    assert run(double_deal())["next"]["options"] == ["miss", "pass", "stand"]
    assert run(double_deal("A: miss"))["next"]["options"] == ["pass", "stand"]


@covers(RuleId.ANN_MISS_ONCE)
def test_the_miss_can_be_taken_only_once() -> None:
    assert error_rule(double_deal("A: miss, B: miss")) == "R-ANN-MISS-ONCE"
    assert error_rule(double_deal("A: miss, B: stand, C: pass, D: pass, E: miss")) == "R-ANN-MISS-ONCE"


@covers(RuleId.ANN_PASS)
def test_a_player_who_passes_neither_plays_nor_pays() -> None:
    result = run(FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
                 "tricks: [[AH, 9H, 2H], [7H, 3S, 5D], [KC, AC, 6D]]\n")
    assert "D" not in result["active"] and "D" not in result["looed"]
    assert result["net"]["D"] == "0"


@covers(RuleId.COLLECT)
def test_pool_is_collected_without_play() -> None:
    everyone_passed = run(double_deal("A: pass, B: pass, C: pass, D: pass"))
    assert everyone_passed["status"] == "complete" and everyone_passed["collected_by"] == "E"
    assert everyone_passed["payouts"] == {"E": "12"} and everyone_passed["carried_next"] == "0"
    assert error_rule(double_deal("A: pass, B: pass, C: pass, D: pass, E: pass")) == "R-COLLECT"
    sole_miss = run(double_deal("A: pass, B: miss, C: pass, D: pass, E: pass"))
    assert sole_miss["collected_by"] == "B" and sole_miss["active"] == []
    with pytest.raises(MalformedRecord):
        run(double_deal("A: pass, B: pass, C: pass, D: pass", "[[AH]]"))


@covers(RuleId.ANN_DEALER_SOLE_STAND)
def test_dealer_may_not_pass_against_a_single_stander() -> None:
    result = run(double_deal("A: stand, B: pass, C: pass, D: pass"))
    assert result["next"]["options"] == ["defend", "miss", "stand"]
    assert error_rule(double_deal("A: stand, B: pass, C: pass, D: pass, E: pass")) == \
        "R-ANN-DEALER-SOLE-STAND"


@covers(RuleId.ANN_DEALER_SOLE_MISS)
def test_dealer_may_not_defend_against_a_single_miss_taker() -> None:
    result = run(double_deal("A: miss, B: pass, C: pass, D: pass"))
    assert result["next"]["options"] == ["pass", "stand"]
    assert error_rule(double_deal("A: miss, B: pass, C: pass, D: pass, E: defend")) == \
        "R-ANN-DEALER-SOLE-MISS"


@covers(RuleId.ANN_DEALER_OTHER)
def test_dealer_against_two_or_more_may_stand_pass_or_take_the_miss() -> None:
    assert run(double_deal("A: stand, B: stand, C: pass, D: pass"))["next"]["options"] == \
        ["miss", "pass", "stand"]
    assert run(double_deal("A: stand, B: miss, C: pass, D: pass"))["next"]["options"] == \
        ["pass", "stand"]
    assert error_rule(double_deal("A: stand, B: stand, C: pass, D: pass, E: defend")) == "R-DEFEND"
    dealer_out = run(double_deal("A: stand, B: stand, C: pass, D: pass, E: pass"))
    assert dealer_out["active"] == ["A", "B"] and dealer_out["next"]["player"] == "A"


@covers(RuleId.DEFEND)
def test_only_the_dealer_facing_a_single_stander_defends_and_keeps_the_thirds() -> None:
    assert error_rule(double_deal("A: defend")) == "R-DEFEND"
    hands = "{A: [3H, 5H, 6H], B: [2C, 3C, 4C], C: [5C, 6C, 7C], D: [8C, 9C, 10C], E: [2D, 3D, 4D]}"
    won_all = run(double_deal("A: stand, B: pass, C: pass, D: pass, E: defend",
                              "[[6H, AH], [KH, 5H], [QH, 3H]]", hands=hands).replace(
                                  "miss: [2S, 2D, 2C]", "miss: [AH, KH, QH]"))
    assert won_all["defender"] == "E" and won_all["payouts"] == {}
    assert won_all["looed"] == ["A"] and won_all["carried_next"] == "15"


# -- 5. play -----------------------------------------------------------------------


@covers(RuleId.PLAY_ORDER)
def test_play_goes_clockwise_among_active_players_and_tricks_have_one_card_each() -> None:
    state = deal_from_hands(FIVE, 4, 0, [cards("2S 2D 2C"), cards("3S 3D 3C"), cards("4S 4D 4C"),
                                         cards("5S 5D 5C"), cards("6S 6D 6C")],
                            None, parse_card("7H"))
    assert state.check(Play(1, parse_card("3S"))).rule is RuleId.PLAY_ORDER
    assert state.check(Announce(0, Announcement.STAND)).rule is RuleId.ANN_SIMPLE
    with pytest.raises(MalformedRecord):
        run(FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
            "tricks: [[AH, 9H, 2H, QS]]\n")
    with pytest.raises(MalformedRecord):
        run(FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
            "tricks: [[AH, 9H], [7H]]\n")


@covers(RuleId.PLAY_HAND)
def test_cards_of_a_thrown_in_hand_or_the_unclaimed_miss_cannot_be_played() -> None:
    stood = "A: stand, B: stand, C: stand, D: pass, E: pass"
    assert error_rule(double_deal(stood, "[[QS]]")) == "R-PLAY-HAND"  # D's thrown-in hand
    assert error_rule(double_deal(stood, "[[2S]]")) == "R-PLAY-HAND"  # the unclaimed miss


@covers(RuleId.LEAD_FIRST)
def test_first_active_player_from_the_dealers_left_leads() -> None:
    result = run(double_deal("A: pass, B: pass, C: stand, D: stand"))
    assert result["next"]["phase"] == "announce"
    result = run(double_deal("A: pass, B: pass, C: stand, D: stand, E: stand"))
    assert result["next"]["player"] == "C"


@covers(RuleId.LEAD_FREE)
def test_any_card_may_be_led_before_trumps_are_known() -> None:
    state = deal_from_hands(FIVE, 4, 0, [cards("2S 2H 2C"), cards("3S 3D 3C"), cards("4S 4D 4C"),
                                         cards("5S 5D 5C"), cards("6S 6D 6C")],
                            None, parse_card("7H"))
    assert set(state.legal_cards()) == set(state.hands[0])


@covers(RuleId.LEAD_TRUMP)
def test_leader_holding_a_trump_must_lead_one() -> None:
    hands = "{A: [KH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}"
    assert error_rule(double_deal("A: stand, B: stand, C: stand, D: pass, E: pass", "[[KC]]",
                                  hands=hands)) == "R-LEAD-TRUMP"


@covers(RuleId.LEAD_ACE)
def test_ace_of_trumps_must_be_led_and_the_king_when_the_ace_is_turned() -> None:
    stood = "A: stand, B: stand, C: stand, D: pass, E: pass"
    assert error_rule(double_deal(stood, "[[7H]]")) == "R-LEAD-ACE"
    hands = "{A: [KH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}"
    king = double_deal(stood, "[[7H]]", hands=hands).replace("trump: 4H", "trump: AH")
    assert error_rule(king) == "R-LEAD-ACE"
    no_duty = double_deal(stood, "[[7H]]", hands=hands)  # the ace lies in the stock
    assert run(no_duty)["status"] == "in_progress"


@covers(RuleId.FOLLOW)
def test_a_player_holding_the_led_suit_must_follow() -> None:
    stood = "A: stand, B: stand, C: stand, D: pass, E: pass"
    assert error_rule(double_deal(stood, "[[AH, 3S]]")) == "R-FOLLOW"


@covers(RuleId.HEAD)
def test_a_follower_must_beat_the_trick_when_able() -> None:
    hands = "{A: [AH, 5C, 6C], B: [9H, 4C, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}"
    stood = "A: stand, B: stand, C: stand, D: pass, E: pass"
    assert run(double_deal(stood, "[[AH, 9H, 2H], [5C]]", hands=hands))["next"]["options"] == ["AC"]
    assert error_rule(double_deal(stood, "[[AH, 9H, 2H], [5C, 4C]]", hands=hands)) == "R-HEAD"


@covers(RuleId.TRUMP_WIN)
def test_a_void_player_holding_a_winning_trump_must_play_it() -> None:
    hands = "{A: [AH, KC, KD], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, 8H, 3H]}"
    stood = "A: stand, B: stand, C: stand, D: pass, E: stand"
    text = double_deal(stood, "[[AH, 9H, 2H, 3H], [KC, AC, 5D, JS]]", hands=hands)
    assert error_rule(text) == "R-TRUMP-WIN"
    allowed = double_deal(stood, "[[AH, 9H, 2H, 3H], [KC, AC, 5D]]", hands=hands)
    assert run(allowed)["next"]["options"] == ["8H"]


@covers(RuleId.DISCARD)
def test_a_void_player_without_a_winning_trump_may_play_anything() -> None:
    stood = "A: stand, B: stand, C: stand, D: pass, E: pass"
    result = run(double_deal(stood, "[[AH, 9H, 2H], [7H]]"))
    assert result["next"]["options"] == ["3S", "AC"]


@covers(RuleId.REVEAL)
def test_hidden_trump_is_revealed_after_the_first_trick_with_a_void() -> None:
    hands = "{A: [5S, 9D, 2C], B: [7S, KD, 3C], C: [8H, 4D, 4C], D: [9S, 5D, 5C], E: [JS, 6D, 6C]}"
    text = f"players: [A, B, C, D, E]\ndealer: E\ncarried: 0\nhands: {hands}\ntrump: 2H\n"
    during = run(text + "tricks: [[5S, 7S, 8H, 9S]]\n")
    assert during["trump"] is None and during["revealed_after_trick"] is None
    assert during["next"]["options"] == ["JS"]
    after = run(text + "tricks: [[5S, 7S, 8H, 9S, JS]]\n")
    assert after["trump"] == "H" and after["revealed_after_trick"] == 1
    assert after["tricks"][0]["winner"] == "C"


@covers(RuleId.WIN)
def test_highest_trump_wins_else_highest_of_the_led_suit() -> None:
    trump = parse_card("2H").suit
    assert trump_wins(cards("KC AC 3H"), trump) == 2
    assert trump_wins(cards("KC AC AS"), trump) == 1
    assert trump_wins(cards("5H 9H 3H"), trump) == 1


def trump_wins(trick: list, trump) -> int:
    return trick_winner_index(trick, trump)


@covers(RuleId.LEAD_NEXT)
def test_the_winner_of_a_trick_leads_the_next() -> None:
    result = run(FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
                 "tricks: [[AH, 9H, 2H], [7H, 3S, 5D], [KC, AC, 6D]]\n")
    assert [t["leader"] for t in result["tricks"]] == ["A", "A", "A"]
    assert result["tricks"][2]["winner"] == "B"


# -- 6. settlement -------------------------------------------------------------------


@covers(RuleId.PAY_THIRD, RuleId.LOO, RuleId.CARRY)
def test_thirds_loo_and_carry_in_the_forced_ace_deal() -> None:
    result = run(FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
                 "tricks: [[AH, 9H, 2H], [7H, 3S, 5D], [KC, AC, 6D]]\n")
    assert result["payouts"] == {"A": "8", "B": "4"}
    assert result["looed"] == ["C"] and result["net"]["C"] == "-3"
    assert result["carried_next"] == "3"


@covers(RuleId.LOO)
def test_the_loo_is_three_whatever_the_pool() -> None:
    result = run(FORCED_ACE.replace("carried: 9", "carried: 90") +
                 "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
                 "tricks: [[AH, 9H, 2H], [7H, 3S, 5D], [KC, AC, 6D]]\n")
    assert result["net"]["C"] == "-3" and result["carried_next"] == "3"


@covers(RuleId.LEDGER)
def test_thirds_are_exact_fractions() -> None:
    result = run(FORCED_ACE.replace("carried: 9", "carried: 7") +
                 "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
                 "tricks: [[AH, 9H, 2H], [7H, 3S, 5D], [KC, AC, 6D]]\n")
    assert result["payouts"] == {"A": "20/3", "B": "10/3"}


@covers(RuleId.CONSERVE)
def test_net_changes_equal_the_change_in_the_carried_balance() -> None:
    result = run(FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"
                 "tricks: [[AH, 9H, 2H], [7H, 3S, 5D], [KC, AC, 6D]]\n")
    total = sum(Fraction(v) for v in result["net"].values())
    assert total == Fraction(9) - Fraction(result["carried_next"])


# -- 7. session ----------------------------------------------------------------------


@covers(RuleId.SESSION_LENGTH)
def test_a_session_stops_after_the_agreed_number_of_deals() -> None:
    session = Session(FIVE, deals=2, seed=4)
    for _ in range(2):
        session.finish_deal(play_out(session.start_deal(), session.rng))
    assert session.is_over()
    with pytest.raises(ValueError):
        session.start_deal()


@covers(RuleId.SESSION_END, RuleId.SESSION_RESULT)
def test_the_last_pool_is_shared_equally_and_the_highest_balance_wins() -> None:
    session = Session(FIVE, deals=1, seed=6, first_dealer=4)
    state = session.start_deal()
    while state.current_player() is not None:  # everyone who may, passes
        calls = state.legal_announcements()
        state = state.apply(state.legal_actions()[calls.index(Announcement.PASS)]
                            if Announcement.PASS in calls else state.legal_actions()[0])
    session.finish_deal(state)
    before = dict(session.ledger.balances)
    pool = session.ledger.pool
    final = session.end()
    assert sum(final.values()) == 0
    for seat, name in enumerate(FIVE):
        assert final[name] == before[seat] + pool / 5
    best = max(final.values())
    assert session.leaders() == [n for n in FIVE if final[n] == best]


def test_every_rule_id_has_a_test() -> None:
    assert set(RuleId) == COVERED
