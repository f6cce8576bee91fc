"""The three-card variant options of SPEC §11.1: one or more tests per option.

Each test builds a deal under a profile with the option and, where the option
changes a refusal, checks the rule ID named (not the wording). Property tests
at the end run random play under every option.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_tutor.engine import explain, legality, three_card, three_card_explain
from loo_tutor.engine.cards import Suit, full_deck, parse_card
from loo_tutor.engine.errors import MalformedRecord, RuleError
from loo_tutor.engine.legality import Announcement
from loo_tutor.engine.profiles import BLENHEIM, RULES_OPTIONS, describe, profile_from_rules
from loo_tutor.engine.rules import LIMITED, Profile, RuleId, VariantRuleId
from loo_tutor.engine.session import Session
from loo_tutor.engine.sim import play_out
from loo_tutor.engine.state import (
    Announce,
    DealKind,
    DealState,
    Exchange,
    Phase,
    Play,
    deal_from_hands,
    new_deal,
    split_deck,
)
from loo_tutor.records.record import check, loads, record_from_state, replay

PLAYERS = ["A", "B", "C", "D", "E"]
A, B, C, D, E = range(5)
STAND, PASS, MISS, DEFEND = (Announcement.STAND, Announcement.PASS, Announcement.MISS,
                             Announcement.DEFEND)
COVERED: set[VariantRuleId] = set()


def profile(**options: Any) -> Profile:
    return profile_from_rules({"base": "limited", **options})


def cards(text: str) -> tuple[Any, ...]:
    return tuple(parse_card(c) for c in text.split())


def deal(hands: str, indicator: str, carried: int = 3, miss: str | None = "4S 4D 7S",
         rules: Profile = LIMITED, stock: str = "") -> DealState:
    """A deal dealt by E from hands written as ``"A cards | B cards | …"``."""
    by_seat = [cards(h) for h in hands.split("|")]
    return deal_from_hands(PLAYERS, E, carried, by_seat, None if miss is None else cards(miss),
                           parse_card(indicator), rules, cards(stock))


def announce(state: DealState, *calls: Announcement) -> DealState:
    for call in calls:
        seat = state.current_player()
        assert seat is not None
        state = state.apply(Announce(seat, call))
    return state


def play(state: DealState, *texts: str) -> DealState:
    for text in texts:
        seat = state.current_player()
        assert seat is not None
        state = state.apply(Play(seat, parse_card(text)))
    return state


def refused(state: DealState, action: Any) -> Any:
    verdict = state.check(action)
    assert not verdict, verdict
    if isinstance(verdict.rule, VariantRuleId):
        COVERED.add(verdict.rule)
    return verdict.rule


def lead(state: DealState, text: str) -> Play:
    seat = state.current_player()
    assert seat is not None
    return Play(seat, parse_card(text))


# -- reading the rules key -------------------------------------------------------------------


def test_the_limited_profile_is_the_default_and_a_name_or_mapping_selects_others() -> None:
    assert profile_from_rules(None) is LIMITED
    assert profile_from_rules("limited") is LIMITED
    assert profile_from_rules(" Blenheim ") is BLENHEIM
    chosen = profile(loo="mixed(30)", club_law=True)
    assert (chosen.loo_rule, chosen.loo, three_card.params_of(chosen).club_law) == (
        "mixed", 30, True)
    assert describe(chosen) == "limited + loo mixed(30), club_law"
    assert profile() == LIMITED and profile().is_limited


@pytest.mark.parametrize("rules, field", [
    ("whist", "rules"),
    (7, "rules"),
    ({"loo": 5}, "rules.base"),
    ({"base": "limited", "colour": "red"}, "rules.colour"),
    ({"base": "limited", "loo": "lots"}, "rules.loo"),
    ({"base": "limited", "seats": "2-12"}, "rules.seats"),
    ({"base": "limited", "club_law": "yes"}, "rules.club_law"),
    ({"base": "limited", "irish": True, "single_pot": "miss"}, "rules.single_pot"),
    ({"base": "limited", "running_pam": True}, "rules.running_pam"),
    ({"base": "pam", "club_law": True}, "rules.club_law"),
])
def test_a_bad_rules_value_is_malformed_and_names_the_option(rules: Any, field: str) -> None:
    with pytest.raises(MalformedRecord) as error:
        profile_from_rules(rules)
    assert str(error.value).startswith(field + ":")
    assert "\n" not in str(error.value)


def test_every_option_name_is_read() -> None:
    assert {"seats", "loo", "single_pot", "irish", "club_law", "trump_lead"} <= set(RULES_OPTIONS)


# -- options that change numbers --------------------------------------------------------------


def test_seats_3_to_10_lets_three_and_ten_players_sit_down() -> None:
    wide = profile(seats="3-10")
    for count in (3, 10):
        names = [f"P{i}" for i in range(count)]
        state = new_deal(names, 0, 3, random.Random(count), wide)
        assert state.kind is DealKind.DOUBLE and len(state.hands) == count
    with pytest.raises(RuleError) as refused:
        new_deal(["P1", "P2", "P3"], 0, 3, random.Random(1))
    assert refused.value.rule is RuleId.SEAT_COUNT


def test_a_ten_player_record_deals_34_cards_from_the_deck() -> None:
    names = [f"P{i}" for i in range(10)]
    deck = [c.text for c in full_deck()]
    result = check({"rules": {"base": "limited", "seats": "3-10"}, "players": names,
                    "dealer": "P9", "carried": 3, "deck": deck})
    assert result["status"] == "in_progress"
    assert result["trump"] == full_deck()[33].suit.letter  # after 10 hands and a miss


HANDS_5 = "AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC"


def test_everyone_stakes_a_fresh_pool_one_each_and_the_dealer_two() -> None:
    # R-DEAL-ANTE under stakes: everyone, with nothing carried (seed 003).
    state = deal(HANDS_5, "4H", carried=0, miss=None, rules=profile(stakes="everyone"))
    assert state.stakes == (1, 1, 1, 1, 2) and state.pool == 2 + 4
    result = check(record_from_state(state))
    assert result["net"] == {"A": "-1", "B": "-1", "C": "-1", "D": "-1", "E": "-2"}
    done = play_out(state, random.Random(3))
    settled = done.settlement()
    assert sum(settled.net.values()) == done.carried - settled.carried_next


def test_after_a_loo_only_the_new_dealer_stakes_a_single_unit() -> None:
    # R-DEAL-ANTE under stakes: everyone, with something carried (seed 003: "no one
    # else contributing").
    state = deal(HANDS_5, "4H", carried=6, rules=profile(stakes="everyone"))
    assert state.stakes == (0, 0, 0, 0, 1) and state.pool == 6 + 1
    result = check(record_from_state(state))
    assert result["net"] == {"A": "0", "B": "0", "C": "0", "D": "0", "E": "-1"}
    blenheim = deal(HANDS_5, "4H", carried=9, rules=BLENHEIM)
    assert blenheim.pool == 10  # seed 003's example: 9 carried and the new dealer's one


@pytest.mark.parametrize("loo, carried, paid", [
    ("unlimited", 9, 12),
    ("mixed(5)", 9, 5),
    ("mixed(30)", 9, 12),
    (4, 9, 4),
])
def test_a_looed_player_pays_the_pool_up_to_the_limit(loo: Any, carried: int, paid: int) -> None:
    state = deal("AH KH QH | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC", "4H",
                 carried=carried, rules=profile(loo=loo))
    state = announce(state, STAND, STAND, PASS, PASS, PASS)
    state = play(state, "AH", "9H", "KH", "3S", "QH", "AC")
    settled = state.settlement()
    assert settled.looed == (B,)
    assert settled.loo == paid
    assert settled.net[B] == -paid
    assert settled.carried_next == paid


# -- dealing and announcing ---------------------------------------------------------------------


def test_the_miss_gets_the_first_card_of_each_circuit_when_asked() -> None:
    deck = full_deck()
    hands, miss, indicator = split_deck(deck, 5, 4, DealKind.DOUBLE, profile(miss_position="first"))
    assert miss == (deck[0], deck[6], deck[12])
    assert hands[0] == (deck[1], deck[7], deck[13]) and hands[4] == (deck[5], deck[11], deck[17])
    assert indicator is deck[18]
    _, usual, _ = split_deck(deck, 5, 4, DealKind.DOUBLE)
    assert usual == (deck[4], deck[10], deck[16])


def test_a_single_pot_deals_a_miss_and_only_the_dealers_left_may_take_it() -> None:
    rules = profile(single_pot="miss")
    state = deal("AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC", "4H", carried=0,
                 rules=rules)
    assert state.kind is DealKind.SIMPLE and state.trump is Suit.HEARTS
    assert state.phase is Phase.ANNOUNCE and state.current_player() == A
    assert state.legal_announcements() == [STAND, MISS]
    assert refused(state, Announce(A, PASS)) is VariantRuleId.SINGLE_POT
    assert refused(state, Announce(B, STAND)) is VariantRuleId.SINGLE_POT
    after = announce(state, MISS)
    assert after.phase is Phase.PLAY and after.active == (A, B, C, D, E)
    assert after.held[A] == cards("4S 4D 7S")
    assert refused(after, Announce(B, STAND)) is VariantRuleId.SINGLE_POT


def test_without_the_option_a_simple_deal_has_no_announcement() -> None:
    state = deal("AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC", "4H", carried=0,
                 miss=None)
    assert refused(state, Announce(A, STAND)) is RuleId.ANN_SIMPLE


def test_club_law_forbids_passing_when_a_club_is_turned() -> None:
    rules = profile(club_law=True)
    hands = "AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JH"
    clubs = deal(hands, "4C", rules=rules)
    assert refused(clubs, Announce(A, PASS)) is VariantRuleId.CLUB_LAW
    assert PASS not in clubs.legal_announcements()
    hearts = deal(hands.replace("JH", "JC"), "4H", rules=rules)
    assert hearts.check(Announce(A, PASS))


def test_blenheim_dealer_must_defend_against_a_single_stander() -> None:
    state = deal("AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC", "4H", rules=BLENHEIM)
    state = announce(state, STAND, PASS, PASS, PASS)
    assert state.legal_announcements() == [DEFEND]
    assert refused(state, Announce(E, STAND)) is RuleId.ANN_DEALER_SOLE_STAND
    limited = announce(deal("AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC", "4H"),
                       STAND, PASS, PASS, PASS)
    assert limited.check(Announce(E, STAND))


# -- Irish Loo -----------------------------------------------------------------------------------


IRISH_HANDS = "AH 7H KC | 9H 3S AC | 2H 5D 6D | QS QD QC | JS JD JC"


def test_irish_loo_announces_every_deal_without_a_miss() -> None:
    state = deal(IRISH_HANDS, "4H", carried=0, miss=None, rules=profile(irish=True),
                 stock="8S 8D 8C 9S")
    assert state.kind is DealKind.DOUBLE and state.miss is None and state.trump is Suit.HEARTS
    assert state.legal_announcements() == [STAND, PASS]
    assert refused(state, Announce(A, MISS)) is RuleId.ANN_CHOICES


def test_irish_players_in_exchange_up_to_three_cards_from_the_stock_in_order() -> None:
    state = deal(IRISH_HANDS, "4H", carried=3, miss=None, rules=profile(irish=True),
                 stock="8S 8D 8C 9S")
    state = announce(state, STAND, STAND, PASS, PASS, PASS)
    assert state.phase is Phase.EXCHANGE and state.current_player() == A
    assert len(state.legal_exchanges()) == 8  # every subset of three cards
    assert refused(state, Play(A, parse_card("AH"))) is RuleId.PLAY_ORDER
    assert refused(state, Exchange(B, cards("AC"))) is VariantRuleId.EXCHANGE
    assert refused(state, Exchange(A, cards("AC"))) is VariantRuleId.EXCHANGE
    state = state.apply(Exchange(A, cards("7H KC")))
    assert state.held[A] == cards("AH 8S 8D")
    state = state.apply(Exchange(B, cards("3S")))
    assert state.held[B] == cards("9H AC 8C")
    assert state.phase is Phase.PLAY and state.current_player() == A


IRISH_RECORD = """
rules: {base: limited, irish: true}
players: [A, B, C, D, E]
dealer: E
carried: 0
hands: {A: [AH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}
trump: 4H
announce: {A: stand, B: stand, C: pass, D: pass, E: pass}
"""


def test_an_irish_record_replays_its_exchanges() -> None:
    record = loads(IRISH_RECORD + """
stock: [8S, 8D, 8C, 9S]
exchange: {A: [7H, KC], B: []}
tricks: [[AH, 9H]]
""")
    result = check(record)
    assert result["status"] == "in_progress" and result["rules"] == "limited + irish"
    assert result["exchanges"] == {"A": ["7H", "KC"], "B": []}
    assert result["next"] == {"player": "A", "phase": "play", "options": ["8D", "8S"]}
    assert len(replay(record).actions) == 5 + 2 + 2
    with pytest.raises(MalformedRecord, match=r"^stock: unknown field"):
        check({**record, "rules": None})


def test_an_irish_record_lists_the_stock_it_draws_and_discards_at_most_three() -> None:
    record = loads(IRISH_RECORD + """
stock: [8S]
exchange: {A: [7H, KC]}
""")
    with pytest.raises(MalformedRecord, match=r"^stock: .*lists 1 card,"):
        check(record)
    record["exchange"] = {"A": ["7H", "KC", "AH", "9S"]}
    result = check(record)
    assert result["status"] == "illegal"
    assert result["error"]["rule"] == "V-EXCHANGE" and result["error"]["phase"] == "exchange"


# -- play --------------------------------------------------------------------------------------------


REVEAL_HANDS = "KS 2D 3D | 5H 4D 5D | 9H 6C 7C | QS 8D 9D | JS 10D JD"


def test_immediate_reveal_binds_the_next_void_player_to_trump() -> None:
    quick = play(deal(REVEAL_HANDS, "4H", carried=0, miss=None, rules=profile(reveal="immediate")),
                 "KS", "5H")
    assert quick.trump is Suit.HEARTS and quick.revealed_after == 1
    assert refused(quick, Play(C, parse_card("6C"))) is RuleId.TRUMP_WIN
    usual = play(deal(REVEAL_HANDS, "4H", carried=0, miss=None), "KS", "5H")
    assert usual.trump is None and usual.check(Play(C, parse_card("6C")))


ACE_HANDS = "KS AH 2H | 5C 4D 5D | 2S 6C 7C | 3S 8D 9D | 4S 10D JD"


def test_simple_ace_duty_binds_the_lead_after_the_reveal() -> None:
    bound = play(deal(ACE_HANDS, "4H", carried=0, miss=None, rules=profile(simple_ace_duty=True)),
                 "KS", "5C", "2S", "3S", "4S")
    assert bound.trump is Suit.HEARTS and bound.current_player() == A
    assert refused(bound, Play(A, parse_card("2H"))) is RuleId.LEAD_ACE
    free = play(deal(ACE_HANDS, "4H", carried=0, miss=None), "KS", "5C", "2S", "3S", "4S")
    assert free.check(Play(A, parse_card("2H")))


def test_with_two_players_in_the_leader_leads_the_highest_trump() -> None:
    hands = "KH 5H 2C | 9S 3S AC | 2H 5D 6D | QS QD QC | JS JD JC"
    rules = profile(two_player_top_trump=True)
    state = announce(deal(hands, "3H", rules=rules), STAND, PASS, PASS, PASS, STAND)
    assert state.legal_cards() == [parse_card("KH")]
    assert refused(state, Play(A, parse_card("5H"))) is VariantRuleId.TWO_TOP_TRUMP
    assert refused(state, Play(A, parse_card("2C"))) is RuleId.LEAD_TRUMP
    usual = announce(deal(hands, "3H"), STAND, PASS, PASS, PASS, STAND)
    assert usual.check(Play(A, parse_card("5H")))


LEAD_HANDS = "AH 5H 2C | 9S 3S AC | 2S 5D 6D | QS QD QC | JS JD JC"


@pytest.mark.parametrize("option, bound", [("every", True), ("opening", False),
                                           ("opening-and-next", True)])
def test_trump_lead_duties_bind_only_the_leads_the_option_names(option: str, bound: bool) -> None:
    state = announce(deal(LEAD_HANDS, "3H", rules=profile(trump_lead=option)),
                     STAND, STAND, STAND, PASS, PASS)
    assert state.legal_cards() == [parse_card("AH")]  # the opening lead is always bound
    state = play(state, "AH", "9S", "2S")
    second = state.check(lead(state, "2C"))
    assert bool(second) is not bound
    if bound:
        assert second.rule is RuleId.LEAD_TRUMP


def test_without_heading_followers_only_follow_suit() -> None:
    hands = "5S 2C 3C | 9S 2S 4C | 6H 7C 8C | QD JD 10D | KD 9D 8D"
    plain = announce(deal(hands, "3H", rules=profile(no_heading=True)),
                     STAND, STAND, STAND, PASS, PASS)
    plain = play(plain, "5S")
    assert plain.check(Play(B, parse_card("2S")))
    assert refused(plain, Play(B, parse_card("4C"))) is RuleId.FOLLOW
    plain = play(plain, "2S")
    assert plain.check(Play(C, parse_card("7C")))  # void: no duty to trump
    usual = play(announce(deal(hands, "3H"), STAND, STAND, STAND, PASS, PASS), "5S")
    assert refused(usual, Play(B, parse_card("2S"))) is RuleId.HEAD


# -- settlement ---------------------------------------------------------------------------------------


def test_a_three_card_flush_takes_the_pool_and_loos_the_others_in() -> None:
    hands = "2H 5H 9H | 9S 3S AC | 2S 5D 6D | QS QD QC | JS JD JC"
    state = announce(deal(hands, "3H", carried=9, rules=profile(three_card_flush=True)),
                     STAND, STAND, STAND, PASS, PASS)
    assert state.is_terminal() and state.flush == A and state.collected_by == A
    settled = state.settlement()
    assert settled.payouts == {A: 12} and settled.looed == (B, C)
    assert settled.carried_next == 6
    result = check(record_from_state(state))
    assert (result["flush"], result["collected_by"], result["looed"]) == ("A", "A", ["B", "C"])
    COVERED.add(VariantRuleId.FLUSH)
    usual = announce(deal(hands, "3H", carried=9), STAND, STAND, STAND, PASS, PASS)
    assert usual.phase is Phase.PLAY


UNDIVIDED_HANDS = "AH KH 2C | 9S 3S AC | QH 5D 6D | QS QD QC | JS JD JC"


def test_undivided_pays_only_a_clean_sweep() -> None:
    state = announce(deal(UNDIVIDED_HANDS, "4H", carried=9, rules=profile(undivided=True)),
                     STAND, STAND, STAND, PASS, PASS)
    state = play(state, "AH", "9S", "QH", "KH", "3S", "5D", "2C", "AC", "6D")
    settled = state.settlement()
    assert settled.payouts == {} and settled.looed == (C,)
    assert settled.carried_next == 12 + 3
    COVERED.add(VariantRuleId.UNDIVIDED)
    divided = announce(deal(UNDIVIDED_HANDS, "4H", carried=9), STAND, STAND, STAND, PASS, PASS)
    divided = play(divided, "AH", "9S", "QH", "KH", "3S", "5D", "2C", "AC", "6D")
    assert divided.settlement().payouts == {A: 8, B: 4}


def test_undivided_pays_the_whole_pool_for_three_tricks() -> None:
    hands = "AH KH QH | 9S 3S AC | 2H 5D 6D | QS QD QC | JS JD JC"
    state = announce(deal(hands, "4H", carried=9, rules=profile(undivided=True)),
                     STAND, STAND, PASS, PASS, PASS)
    state = play(state, "AH", "9S", "KH", "3S", "QH", "AC")
    assert state.settlement().payouts == {A: 12}


# -- sessions -------------------------------------------------------------------------------------------


def _play_session(rules: Profile, seed: int, deals: int = 5) -> Session:
    session = Session(PLAYERS, deals=deals, seed=seed, profile=rules)
    while not session.is_over():
        session.finish_deal(play_out(session.start_deal(), session.rng))
        assert session.ledger.total() == 0
    return session


@pytest.mark.parametrize("seed", range(8))
def test_a_clean_end_plays_on_until_nobody_is_looed(seed: int) -> None:
    session = _play_session(profile(session_end="clean"), seed)
    assert len(session.history) >= 5
    assert not session.history[-1].settlement().looed
    assert all(deal.settlement().looed for deal in session.history[5 - 1:-1])
    assert sum(session.end().values()) == 0
    COVERED.add(VariantRuleId.SESSION_CLEAN)


@pytest.mark.parametrize("seed", range(8))
def test_cutting_for_the_deal_gives_it_to_the_lowest_card_ace_low(seed: int) -> None:
    session = Session(PLAYERS, deals=1, seed=seed, profile=profile(first_dealer="low-cut"))
    last = session.cuts[-1]
    def value(card: Any) -> int:
        return -1 if card.rank_text == "A" else card.rank
    lowest = min(value(card) for card in last.values())
    assert value(last[session.dealer]) == lowest
    assert [value(card) for card in last.values()].count(lowest) == 1
    for earlier in session.cuts[:-1]:
        low = min(value(card) for card in earlier.values())
        assert [value(card) for card in earlier.values()].count(low) > 1
    COVERED.add(VariantRuleId.LOW_CUT)


def test_stakes_and_unlimited_loos_keep_a_session_balanced() -> None:
    for rules in (profile(stakes="everyone"), profile(loo="unlimited"), BLENHEIM):
        session = _play_session(rules, seed=4)
        assert sum(session.end().values()) == 0


# -- every option under random play ------------------------------------------------------------------


VARIANTS: dict[str, Profile] = {
    "seats 3-10": profile(seats="3-10"),
    "stakes everyone": profile(stakes="everyone"),
    "loo unlimited": profile(loo="unlimited"),
    "loo mixed": profile(loo="mixed(10)"),
    "single pot": profile(single_pot="miss"),
    "reveal immediate": profile(reveal="immediate"),
    "simple ace duty": profile(simple_ace_duty=True),
    "miss first": profile(miss_position="first"),
    "two-player top trump": profile(two_player_top_trump=True),
    "trump lead opening": profile(trump_lead="opening"),
    "no heading": profile(no_heading=True),
    "club law": profile(club_law=True),
    "irish": profile(irish=True),
    "three-card flush": profile(three_card_flush=True, irish=True),
    "undivided": profile(undivided=True),
    "blenheim": BLENHEIM,
    "limited as a mapping": profile(),
}


def _random_deal(rules: Profile, seed: int) -> tuple[DealState, random.Random]:
    rng = random.Random(seed)
    count = rng.randint(rules.min_players, rules.max_players)
    carried = rng.choice([0, 3, Fraction(10, 3), 9])
    names = [f"P{i}" for i in range(count)]
    return new_deal(names, rng.randrange(count), carried, rng, rules), rng


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_play_completes_conserves_units_and_records_agree(rules: Profile, seed: int) -> None:
    state, rng = _random_deal(rules, seed)
    while not state.is_terminal():
        result = check(record_from_state(state))
        assert result["status"] == "in_progress"
        actions = state.legal_actions()
        shown = sorted(result["next"]["options"])
        assert len(shown) == len(actions)
        # a card or call that is not an option is illegal at exactly this step
        if state.phase is Phase.PLAY:
            seat = state.current_player()
            assert seat is not None
            stranger = next(c for c in full_deck() if c not in state.legal_cards())
            assert not state.check(Play(seat, stranger))
        state = state.apply(rng.choice(actions))
    settled = state.settlement()
    assert sum(settled.net.values()) == state.carried - settled.carried_next
    result = check(record_from_state(state))
    assert result["status"] == "complete"
    assert result["carried_next"] == str(settled.carried_next)
    assert result["net"] == {state.players[s]: str(v) for s, v in settled.net.items()}


def test_a_limited_profile_written_as_a_mapping_gives_the_contract_output() -> None:
    state, rng = _random_deal(LIMITED, 11)
    state = play_out(state, rng)
    record = record_from_state(state)
    assert "rules" not in record
    assert check({**record, "rules": {"base": "limited"}}) == check(record)


def test_every_three_card_variant_rule_has_a_test() -> None:
    three_card = set(VariantRuleId) - {VariantRuleId.PAM, VariantRuleId.PAM_CIVIL}
    assert three_card == COVERED, sorted(three_card - COVERED)


FAST_PATH_PROFILES = [
    LIMITED, BLENHEIM, profile(club_law=True), profile(irish=True), profile(single_pot="miss"),
    profile(dealer_defends_sole=True), profile(two_player_top_trump=True),
    profile(no_heading=True), profile(three_card_flush=True), profile(reveal="immediate"),
    profile(trump_lead="opening"), profile(trump_lead="opening-and-next"),
    profile(simple_ace_duty=True), profile(miss_position="first"), profile(undivided=True),
    profile(stakes="everyone", loo="mixed(30)", session_end="clean"),
    profile(club_law=True, no_heading=True, trump_lead="opening", two_player_top_trump=True,
            dealer_defends_sole=True),
    profile(irish=True, club_law=True, three_card_flush=True, no_heading=True),
]
"""The bundles of three-card Loo, every three-card option on its own, and mixtures."""

TABLE_NUMBERS = {"seats", "first_dealer", "ante", "stake"}
PAM_OPTIONS = {"running_pam", "flush_exempt", "duties", "dealer_takes_trump"}


def test_the_fast_path_profiles_hold_every_three_card_option() -> None:
    written = {option for rules in FAST_PATH_PROFILES for option, _ in rules.options}
    assert set(RULES_OPTIONS) - TABLE_NUMBERS - PAM_OPTIONS <= written
    assert {p.limited_duties for p in FAST_PATH_PROFILES} == {True, False}


def _tried(state: DealState) -> list[Any]:
    """The actions to judge at a step: every announcement or card of the player to act,
    and the same from the next seat, out of turn."""
    tried: list[Any] = []
    for seat in {state.current_player(), (state.current_player() or 0) + 1}:
        seat %= len(state.players)
        tried += [Announce(seat, call) for call in Announcement]
        tried += [Play(seat, card) for card in state.hands[seat] + (state.miss or ())]
    return tried


@pytest.mark.parametrize("rules", FAST_PATH_PROFILES, ids=lambda p: describe(p) or p.name)
def test_the_limited_fast_path_answers_as_the_general_path(rules: Profile) -> None:
    # The same rules under another name are never taken for the limited profile, so
    # they go the general way; every answer must be the same on random deals.
    general = replace(rules, name=f"{rules.name} (general)")
    assert not general.is_limited
    for seed in range(40):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(rng.randint(5, 8))]
        dealer, carried = rng.randrange(len(players)), rng.choice((0, 0, 3, 6, 9))
        fast = new_deal(players, dealer, carried, random.Random(seed), rules)
        slow = new_deal(players, dealer, carried, random.Random(seed), general)
        while not fast.is_terminal():
            assert fast.legal_actions() == slow.legal_actions()
            for action in _tried(fast):
                one, other = fast.check(action), slow.check(action)
                assert (one.ok, one.rule, one.message) == (other.ok, other.rule, other.message)
            if fast.phase is Phase.EXCHANGE:
                assert fast.legal_exchanges() == slow.legal_exchanges()
            options = fast.legal_actions()
            passing = Announce(fast.current_player(), PASS)  # type: ignore[arg-type]
            # Passing often brings the dealer's rarer cases: a single stander or miss-taker.
            action = passing if passing in options and rng.random() < 0.6 else rng.choice(options)
            fast, slow = fast.apply(action), slow.apply(action)
        assert slow.is_terminal()
        assert fast.settlement() == slow.settlement()


def _general_answers(state: DealState) -> tuple[list[Announcement], list[Any]]:
    """The announcements and cards open to the player to act, from the general path."""
    rules, seat = three_card.params_of(state.profile), state.current_player()
    calls: list[Announcement] = []
    if state.phase is Phase.ANNOUNCE:
        calls = legality.variant_announcements(
            rules, state.dealer_case(), state.miss is not None, state.miss_taker is None,
            state.kind is DealKind.SIMPLE, state.indicator.suit)
    playable: list[Any] = []
    if state.phase is Phase.PLAY:
        hand = state.held[seat]  # type: ignore[index]
        playable = list(hand) if len(hand) == 1 else legality.variant_cards(
            rules, hand, state.trick, state.trump, state.ace_duty, state.indicator,
            len(state.tricks), len(state.active))
    return calls, playable


def _fast_answers(state: DealState) -> tuple[list[Announcement], list[Any]]:
    """The same from limited Loo's fast path, called directly."""
    calls: list[Announcement] = []
    if state.phase is Phase.ANNOUNCE:
        calls = legality.limited_announcements(state.dealer_case(), state.miss_taker is None)
    playable: list[Any] = []
    if state.phase is Phase.PLAY:
        hand = state.held[state.current_player()]  # type: ignore[index]
        playable = (list(hand) if len(hand) == 1
                    else legality.legal_follows(hand, state.trick, state.trump) if state.trick
                    else legality.legal_leads(hand, state.trump, state.ace_duty, state.indicator))
    return calls, playable


@pytest.mark.parametrize("rules", FAST_PATH_PROFILES, ids=lambda p: describe(p) or p.name)
def test_the_fast_path_gives_the_general_paths_cards_and_announcements(rules: Profile) -> None:
    # Where the profile's duties are limited Loo's the deal asks the fast path; under
    # every profile the deal's answers must be the general path's, and where the fast
    # path applies its answers and refusals must be the general path's too.
    for seed in range(60):
        rng = random.Random(seed)
        players = [f"P{i}" for i in range(rng.randint(5, 8))]
        dealer, carried = rng.randrange(len(players)), rng.choice((0, 0, 3, 6, 9))
        state = new_deal(players, dealer, carried, random.Random(seed), rules)
        while not state.is_terminal():
            general = _general_answers(state)
            assert (state.legal_announcements(), state.legal_cards()) == general
            if rules.limited_duties:
                assert _fast_answers(state) == general
                seat = state.current_player()
                if state.phase is Phase.PLAY and seat is not None:
                    hand = state.held[seat]
                    for card in (c for c in hand if c not in general[1]):
                        args = ("X", card, hand, state.trick, state.trump, state.ace_duty,
                                state.indicator)
                        assert (explain.explain_card(*args)
                                == three_card_explain.explain_variant_card(
                                    three_card.params_of(rules), *args))
            options = state.legal_actions()
            passing = Announce(state.current_player(), PASS)  # type: ignore[arg-type]
            action = passing if passing in options and rng.random() < 0.6 else rng.choice(options)
            state = state.apply(action)
