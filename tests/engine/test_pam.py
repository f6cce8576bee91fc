"""Five-card Loo with Pam (SPEC §11.2): the example records and one test per rule.

Every rule Pam Loo adds or changes, and every option of the ``pam`` profile,
has a test here that names it; refusals are checked by rule ID, never by
wording. The invariants over random deals are in ``test_pam_properties.py``.
"""

from __future__ import annotations

import io
import json
import random
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from loo_tutor import (
    MalformedRecord,
    Session,
    check,
    load_record,
    loads,
    new_deal,
    record_from_state,
)
from loo_tutor.apps.cli import main
from loo_tutor.engine.cards import Suit, full_deck, parse_card
from loo_tutor.engine.errors import LooError, RuleError
from loo_tutor.engine.legality import Announcement
from loo_tutor.engine.observe import hidden_cards, observation
from loo_tutor.engine.pam import (
    CivilLead,
    PamState,
    flush_rank,
    new_pam_deal,
    pam_card,
    pam_from_deck,
    pam_from_hands,
    split_pam_deck,
)
from loo_tutor.engine.profiles import PAM, profile_from_rules
from loo_tutor.engine.rules import Profile, RuleId, RuleKey, VariantRuleId
from loo_tutor.engine.state import Announce, Exchange, IllegalActionError, Phase, Play
from loo_tutor.records.record import replay_pam

from conftest import without_message

DATA = Path(__file__).parents[1] / "data" / "pam"
RECORDS = sorted(DATA.glob("*.yaml"))
PLAYERS = ["A", "B", "C", "D", "E"]
A, B, C, D, E = range(5)
STAND, PASS = Announcement.STAND, Announcement.PASS

# The hands of the worked example tests/data/pam/01 (hearts trumps, E deals).
HANDS = "AH 7H KS QD 3C | 2S 3S 4S 5S 6S | JC 9H AS 2D 5C | 7S 8S 9S 10S 2C | KH QH KD 4D 6C"


def cards(text: str) -> tuple[Any, ...]:
    return tuple(parse_card(c) for c in text.split())


def pam(**options: Any) -> Profile:
    return profile_from_rules({"base": "pam", **options}) if options else PAM


def deal(hands: str = HANDS, indicator: str = "4H", carried: int = 10, profile: Profile = PAM,
         stock: str = "") -> PamState:
    """A Pam deal dealt by E from hands written as ``"A cards | B cards | …"``."""
    return pam_from_hands(PLAYERS, E, carried, [cards(h) for h in hands.split("|")],
                          parse_card(indicator), cards(stock), profile)


def announced(state: PamState, *calls: Announcement) -> PamState:
    for call in calls:
        state = state.apply(Announce(state.current_player(), call))  # type: ignore[arg-type]
    return state


def exchanged(state: PamState, *discards: str) -> PamState:
    for text in discards:
        state = state.apply(Exchange(state.current_player(), cards(text)))  # type: ignore[arg-type]
    return state


def played(state: PamState, *texts: str) -> PamState:
    for text in texts:
        state = state.apply(Play(state.current_player(), parse_card(text)))  # type: ignore[arg-type]
    return state


def ready(profile: Profile = PAM, **kwargs: Any) -> PamState:
    """Deal 01 with A, C and E in, nobody exchanging: A to lead the first trick."""
    state = announced(deal(profile=profile, **kwargs), STAND, PASS, STAND, PASS, STAND)
    return exchanged(state, "", "", "")


def refused(state: PamState, action: Any) -> RuleKey | None:
    verdict = state.check(action)
    assert not verdict and verdict.message.strip()
    return verdict.rule


# -- the example records -------------------------------------------------------


def test_the_pam_examples_are_present() -> None:
    kinds = {json.loads((DATA / "expected" / f"{p.stem}.json").read_text()).get("status",
             "malformed") for p in RECORDS}
    assert len(RECORDS) >= 30 and kinds == {"complete", "illegal", "in_progress", "malformed"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_pam_record_gives_its_expected_result(path: Path) -> None:
    expected = json.loads((DATA / "expected" / f"{path.stem}.json").read_text())
    if "malformed" in expected:
        with pytest.raises(MalformedRecord) as caught:
            check(load_record(path))
        assert "\n" not in str(caught.value)
        return
    result = check(load_record(path))
    assert without_message(result) == without_message(expected)
    assert list(result) == list(expected)
    assert list(result)[:15] == ["status", "kind", "pool", "trump", "revealed_after_trick",
                                 "active", "defender", "collected_by", "tricks", "payouts",
                                 "looed", "carried_next", "net", "next", "error"]


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_command_line_agrees_on_pam_records(path: Path) -> None:
    expected = json.loads((DATA / "expected" / f"{path.stem}.json").read_text())
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", "--json", str(path)])
    if "malformed" in expected:
        assert (code, out.getvalue(), err.getvalue().count("\n")) == (2, "", 1)
        return
    assert code == (1 if expected["status"] == "illegal" else 0)
    assert without_message(json.loads(out.getvalue())) == without_message(expected)


def test_the_illegal_examples_cover_every_rule_a_pam_record_can_break() -> None:
    rules = {json.loads((DATA / "expected" / f"{p.stem}.json").read_text()).get("error", {})
             .get("rule") for p in RECORDS if "_illegal_" in p.name}
    assert rules == {"R-ANN-ORDER", "R-ANN-CHOICES", "R-COLLECT", "V-EXCHANGE", "R-LEAD-TRUMP",
                     "R-LEAD-ACE", "R-PLAY-HAND", "R-FOLLOW", "R-HEAD", "R-TRUMP-WIN", "V-PAM",
                     "V-PAM-CIVIL"}


def test_replay_gives_every_state_of_a_record() -> None:
    record = load_record(DATA / "10_illegal_civil_pam.yaml")
    steps = replay_pam(record)
    assert len(steps.states) == len(steps.actions) + 1 == 5 + 3 + 1 + 1
    assert isinstance(steps.actions[-1], CivilLead)
    assert steps.refused is not None and steps.refused[1].rule is VariantRuleId.PAM_CIVIL


# -- dealing -------------------------------------------------------------------


def test_deal_order_packets_of_three_then_two_from_the_dealers_left() -> None:
    # R-DEAL-ORDER in Pam Loo: 3 cards to each from the dealer's left, then 2 each.
    deck = full_deck()
    hands, indicator, stock = split_pam_deck(deck, 5, dealer=1)
    order = [2, 3, 4, 0, 1]
    for k, seat in enumerate(order):
        assert hands[seat] == (*deck[3 * k:3 * k + 3], *deck[15 + 2 * k:17 + 2 * k])
    assert indicator is deck[25] and stock == tuple(deck[26:])


def test_deck_and_hands_forms_give_the_same_result() -> None:
    record = load_record(DATA / "09_deck_six_players.yaml")
    state = replay_pam(record).states[0]
    hands_form = dict(record, hands={state.players[s]: [c.text for c in h]
                                     for s, h in enumerate(state.hands)},
                      trump=state.indicator.text, stock=[c.text for c in state.stock])
    del hands_form["deck"]
    assert check(hands_form) == check(record)


def test_ante_five_stakes_and_pool() -> None:
    # R-DEAL-ANTE / R-POOL: the dealer antes 5; "stakes: everyone" adds a unit from the others.
    assert deal(carried=10).pool == 15
    everyone = deal(carried=0, profile=pam(stakes="everyone"))
    assert everyone.pool == 2 + 4
    result = check(loads(
        (DATA / "07_all_pass_dealer_collects.yaml").read_text().replace(
            "rules: pam", "rules: {base: pam, stakes: everyone}")))
    # Something is carried, so only the dealer stakes, a single unit (SPEC §11.1).
    assert result["pool"] == "11" and result["net"] == {"A": "0", "B": "0", "C": "0",
                                                        "D": "0", "E": "10"}


def test_seat_count_four_to_seven_or_five_to_six() -> None:
    # R-SEAT-COUNT: 002 plays Pam with 4-7, 004 with 5-6 (option seats).
    four = "AH 7H KS QD 3C | 2S 3S 4S 5S 6S | JC 9H AS 2D 5C | 7S 8S 9S 10S 2C"
    pam_from_hands(PLAYERS[:4], 3, 0, [cards(h) for h in four.split("|")], parse_card("4H"))
    with pytest.raises(RuleError) as refused:
        pam_from_hands(PLAYERS[:4], 3, 0, [cards(h) for h in four.split("|")],
                       parse_card("4H"), (), pam(seats="5-6"))
    assert refused.value.rule is RuleId.SEAT_COUNT


# -- announcing ----------------------------------------------------------------


def test_stand_or_pass_only() -> None:
    # R-ANN-CHOICES: no miss in Pam Loo.
    state = deal()
    assert state.legal_actions() == [Announce(A, STAND), Announce(A, PASS)]
    assert refused(state, Announce(A, Announcement.MISS)) is RuleId.ANN_CHOICES
    assert refused(state, Announce(A, Announcement.DEFEND)) is RuleId.ANN_CHOICES


def test_announcements_in_turn() -> None:
    assert refused(deal(), Announce(B, STAND)) is RuleId.ANN_ORDER


def test_all_pass_gives_the_dealer_the_pool() -> None:
    # R-COLLECT (a): the dealer takes the pool without announcing.
    state = announced(deal(), PASS, PASS, PASS, PASS)
    assert state.is_terminal() and state.collected_by == E and state.active == ()
    assert refused(state, Announce(E, STAND)) is RuleId.COLLECT
    assert state.settlement().payouts == {E: 15} and state.settlement().carried_next == 0


def test_a_single_stander_takes_the_pool_without_play() -> None:
    # R-COLLECT as Pam Loo changes it: one player in, whoever it is, takes the pool.
    state = announced(deal(), PASS, PASS, STAND, PASS, PASS)
    assert state.is_terminal() and state.collected_by == C
    assert refused(state, Play(C, parse_card("9H"))) is RuleId.COLLECT
    assert state.settlement().net == {A: 0, B: 0, C: 15, D: 0, E: -5}


# -- exchanging ----------------------------------------------------------------


def test_exchange_draws_from_the_top_of_the_stock_in_turn() -> None:
    # V-EXCHANGE: standers exchange 0-5 cards in order from the dealer's left.
    state = announced(deal(stock="2H 3H 5H 6H 8H 10H"), STAND, PASS, STAND, PASS, STAND)
    assert state.phase is Phase.EXCHANGE and state.current_player() == A
    assert len(state.legal_actions()) == 32
    state = exchanged(state, "KS QD", "", "6C")
    assert state.held[A] == cards("AH 7H 3C 2H 3H")
    assert state.held[E] == cards("KH QH KD 4D 5H")
    assert state.phase is Phase.PLAY and state.current_player() == A


def test_exchange_refusals() -> None:
    state = announced(deal(stock="2H 3H"), STAND, PASS, STAND, PASS, STAND)
    assert refused(state, Exchange(C, ())) is VariantRuleId.EXCHANGE  # out of turn
    assert refused(state, Exchange(B, ())) is VariantRuleId.EXCHANGE  # passed
    assert refused(state, Exchange(A, cards("2S"))) is VariantRuleId.EXCHANGE  # not held
    assert refused(state, Play(A, parse_card("AH"))) is RuleId.PLAY_ORDER  # no play yet
    assert refused(deal(), Exchange(A, ())) is VariantRuleId.EXCHANGE  # still announcing
    after = exchanged(state, "", "", "")
    assert refused(after, Exchange(A, ())) is VariantRuleId.EXCHANGE  # play has begun


def test_exchange_is_limited_by_what_the_stock_holds() -> None:
    # Seven players leave 16 cards in the stock: the last to exchange may find it short.
    names = [*PLAYERS, "F", "G"]
    deck = full_deck()
    state = pam_from_deck(names, 6, 0, deck)
    for _ in names:
        state = state.apply(Announce(state.current_player(), STAND))  # type: ignore[arg-type]
    assert state.stock_size == 16
    for _ in range(3):
        hand = state.held[state.current_player()]  # type: ignore[index]
        state = state.apply(Exchange(state.current_player(), hand))  # type: ignore[arg-type]
    assert state.exchange_limit() == 1
    seat = state.current_player()
    too_many = Exchange(seat, state.held[seat][:2])  # type: ignore[arg-type, index]
    assert refused(state, too_many) is VariantRuleId.EXCHANGE


def test_the_dealer_may_take_the_turned_card_and_need_not() -> None:
    # Option dealer_takes_trump: a choice of the dealer who exchanges (seed 002), never forced.
    state = announced(deal(profile=pam(dealer_takes_trump=True), stock="2H 3H"),
                      STAND, PASS, STAND, PASS, STAND)
    state = exchanged(state, "", "")
    options = state.legal_actions()
    assert Exchange(E, cards("4D 6C"), True) in options and Exchange(E, cards("4D 6C")) in options
    taking = state.apply(Exchange(E, cards("6C 4D"), True))
    assert taking.held[E] == cards("KH QH KD 4H 2H")
    not_taking = state.apply(Exchange(E, cards("6C 4D")))
    assert not_taking.held[E] == cards("KH QH KD 2H 3H")
    assert refused(state, Exchange(E, (), True)) is VariantRuleId.EXCHANGE  # nothing discarded
    plain = exchanged(announced(deal(stock="2H 3H"), STAND, PASS, STAND, PASS, STAND), "", "")
    assert refused(plain, Exchange(E, cards("6C 4D"), True)) is VariantRuleId.EXCHANGE
    others = announced(deal(profile=pam(dealer_takes_trump=True), stock="2H 3H"),
                       STAND, PASS, STAND, PASS, STAND)
    assert refused(others, Exchange(A, cards("AH"), True)) is VariantRuleId.EXCHANGE


# -- flushes -------------------------------------------------------------------


def test_flush_order_pam_then_trumps_then_plain_by_top_card() -> None:
    # V-FLUSH: Pam flush > trump flush > plain flush; plain flushes by their top cards.
    jc = parse_card("JC")
    pam_flush = flush_rank(cards("2D 3D 4D 5D JC"), Suit.HEARTS, jc)
    trump_flush = flush_rank(cards("AH KH QH 10H 9H"), Suit.HEARTS, jc)
    king_high = flush_rank(cards("KS 2S 3S 4S 5S"), Suit.HEARTS, jc)
    queen_high = flush_rank(cards("QD JD 10D 9D 8D"), Suit.HEARTS, jc)
    assert pam_flush and trump_flush and king_high and queen_high
    assert pam_flush > trump_flush > king_high > queen_high
    assert flush_rank(cards("2D 3D 4D 5D 6C"), Suit.HEARTS, jc) is None


def test_flush_takes_the_pool_and_the_exempt_are_spared() -> None:
    # V-FLUSH with flush_exempt (002): Pam holders and weaker flushes are not looed.
    hands = ("2D 5D 8D 10D KD | 2H 5H 6H 8H 10H | JC 4H 7H 9H QH | 5S 6S 7S 8S 9S | "
             "AS KS 2C 3C 4C")
    state = exchanged(announced(deal(hands, "3S", 0, stock="5C 6C 7C"),
                                STAND, PASS, STAND, PASS, STAND), "", "", "2C 3C 4C")
    assert state.is_terminal() and state.flush is not None
    assert (state.flush.seat, state.flush.kind, state.flush.exempt) == (C, "pam", (A,))
    assert state.settlement().looed == (E,)
    strict = exchanged(announced(deal(hands, "3S", 0, pam(flush_exempt=False), "5C 6C 7C"),
                                 STAND, PASS, STAND, PASS, STAND), "", "", "2C 3C 4C")
    assert strict.settlement().looed == (A, E)
    assert refused(strict, Play(A, parse_card("2D"))) is VariantRuleId.FLUSH


def test_a_pam_holder_is_spared_by_a_flush_and_ties_go_to_the_elder_hand() -> None:
    hands = ("2D 5D 8D 10D KD | 2H 5H 6H 8H 10H | JC 4S 9C QC AC | 5S 6S 7S 8S 9S | "
             "2C 3C 4C 6C 7C")
    state = exchanged(announced(deal(hands, "3S", 0), STAND, PASS, STAND, PASS, STAND),
                      "", "", "")
    assert state.flush is not None and state.flush.seat == A and state.flush.kind == "plain"
    assert state.flush.exempt == (C, E)  # C holds Pam; E's club flush is weaker
    tie = ("2D 5D 8D 10D KD | 2H 5H 6H 8H 10H | JC 4S 7C 9C QC | 5S 6S 7S 8S 9S | "
           "2C 5C 8C 10C KC")
    first = exchanged(announced(deal(tie, "3S", 0), STAND, PASS, STAND, PASS, STAND), "", "", "")
    assert first.flush is not None and first.flush.seat == A


# -- Pam and play --------------------------------------------------------------


def test_pam_is_the_jack_of_clubs_and_beats_the_ace_of_trumps() -> None:
    # V-PAM and R-PACK-RANK as changed: Pam is the highest trump.
    assert pam_card(Suit.HEARTS, running=False) is parse_card("JC")
    state = played(ready(), "AH", "JC", "QH")
    assert state.tricks[0].winner == C


def test_running_pam_is_the_jack_of_trumps() -> None:
    # Option running_pam (002): the jack of trumps is Pam; the jack of clubs is a club.
    assert pam_card(Suit.HEARTS, running=True) is parse_card("JH")
    hands = "AH 7H KS QD 3C | 2S 3S 4S 5S 6S | JH 9H AS 2D 5C | 7S 8S 9S 10S 2C | KH QH KD 4D JC"
    state = played(ready(pam(running_pam=True), hands=hands), "AH", "JH", "QH")
    assert state.tricks[0].winner == C
    assert check(loads("rules: {base: pam, running_pam: true}\n" + _record_tail()))["pam"] == "JH"


def _record_tail() -> str:
    text = (DATA / "31_in_progress_civil_option.yaml").read_text()
    return text[text.index("players:"):]


def test_pam_led_calls_for_trumps() -> None:
    # V-PAM: a lead of Pam is a trump lead; a player with trumps must play one.
    state = announced(deal(), PASS, PASS, STAND, PASS, STAND)
    state = exchanged(state, "", "")
    state = played(state, "JC")
    assert refused(state, Play(E, parse_card("KD"))) is VariantRuleId.PAM
    assert set(state.legal_cards()) == set(cards("KH QH"))


def test_pam_be_civil_keeps_pam_back() -> None:
    # V-PAM-CIVIL: with the call, Pam may not go on the ace unless it is the only trump.
    state = ready()
    assert CivilLead(A, parse_card("AH")) in state.legal_actions()
    civil = state.apply(CivilLead(A, parse_card("AH")))
    assert civil.legal_cards() == [parse_card("9H")]
    assert refused(civil, Play(C, parse_card("JC"))) is VariantRuleId.PAM_CIVIL
    plain = state.apply(Play(A, parse_card("AH")))
    assert plain.legal_cards() == [parse_card("JC")]
    assert refused(plain, Play(C, parse_card("9H"))) is RuleId.HEAD


def test_civil_pam_must_play_when_it_is_the_only_trump() -> None:
    hands = "AH 7H KS QD 3C | 2S 3S 4S 5S 6S | JC 9S AS 2D 5C | 7S 8S 9H 10S 2C | KH QH KD 4D 6C"
    civil = ready(hands=hands).apply(CivilLead(A, parse_card("AH")))
    assert civil.legal_cards() == [parse_card("JC")]


def test_civil_call_only_with_the_lead_of_the_ace_of_trumps() -> None:
    state = ready(pam(duties="004"))
    assert refused(state, CivilLead(A, parse_card("7H"))) is VariantRuleId.PAM_CIVIL
    assert [a for a in state.legal_actions() if isinstance(a, CivilLead)] == [
        CivilLead(A, parse_card("AH"))]
    follower = state.apply(Play(A, parse_card("AH")))
    assert refused(follower, CivilLead(C, parse_card("JC"))) is VariantRuleId.PAM_CIVIL


def test_seed_002_duties_bind_every_lead() -> None:
    # R-LEAD-ACE, then R-LEAD-TRUMP at every lead (002).
    state = ready()
    assert refused(state, Play(A, parse_card("7H"))) is RuleId.LEAD_ACE
    assert refused(state, Play(A, parse_card("KS"))) is RuleId.LEAD_TRUMP
    state = played(state, "AH", "JC", "QH")
    assert refused(state, Play(C, parse_card("AS"))) is RuleId.LEAD_TRUMP


def test_seed_002_follow_and_trump_to_win_treat_pam_as_a_trump() -> None:
    # R-FOLLOW: Pam is no club, so it cannot follow a club lead while clubs are held.
    hands = "3C KS QD 8S 7D | 2S 3S 4S 5S 6S | JC 9C AS 2D 5C | 7S 9S 10S 2C AH | KH QH KD 4D 6C"
    state = played(ready(hands=hands), "3C")
    assert set(state.legal_cards()) == set(cards("9C 5C"))
    assert refused(state, Play(C, parse_card("JC"))) is RuleId.FOLLOW
    # R-TRUMP-WIN: void in the led suit, the follower must win with a trump, Pam included.
    void = "3C KS QD 8S 7D | 2S 3S 4S 5S 6S | JC 9H AS 2D 5D | 7S 9S 10S 2C AH | KH QH KD 4D 6C"
    state = played(ready(hands=void), "3C")
    assert set(state.legal_cards()) == set(cards("JC 9H"))
    assert refused(state, Play(C, parse_card("AS"))) is RuleId.TRUMP_WIN


def test_seed_004_duties_first_lead_only_no_heading_pam_anywhere() -> None:
    # duties "004": R-LEAD-TRUMP only at the first lead, no R-LEAD-ACE, no R-HEAD, Pam free.
    state = ready(pam(duties="004"))
    assert refused(state, Play(A, parse_card("KS"))) is RuleId.LEAD_TRUMP
    state = played(state, "7H")
    assert set(state.legal_cards()) == set(cards("JC 9H"))  # no duty to head
    state = played(state, "9H", "QH", "6C")  # E won and leads a club: any lead
    assert set(state.legal_cards()) == set(cards("3C"))
    state = played(state, "3C")
    assert set(state.legal_cards()) == set(cards("5C JC"))  # Pam may go on a club
    assert refused(state, Play(C, parse_card("AS"))) is RuleId.FOLLOW


def test_tricks_pay_fifths_and_a_loo_is_five() -> None:
    # R-PAY-THIRD as changed: a fifth of the pool per trick; R-LOO: 5 units.
    result = check(load_record(DATA / "09_deck_six_players.yaml"))
    assert result["payouts"] == {"A": "18/5", "B": "27/5"} and result["looed"] == ["E"]
    assert result["net"]["E"] == "-5" and result["carried_next"] == "5"


@pytest.mark.parametrize("loo, pays", [("unlimited", Fraction(15)), ("mixed(8)", Fraction(8)),
                                       ("mixed(30)", Fraction(15)), (3, Fraction(3))])
def test_loo_options(loo: object, pays: Fraction) -> None:
    state = played(ready(pam(loo=loo)), "AH", "JC", "QH", "9H", "KH", "7H", "KD", "QD", "2D",
                   "6C", "3C", "5C", "4D", "KS", "AS")
    settled = state.settlement()
    assert settled.looed == (A,) and settled.net[A] == -pays and settled.carried_next == pays


def test_illegal_action_changes_nothing() -> None:
    state = ready()
    with pytest.raises(IllegalActionError) as caught:
        state.apply(Play(A, parse_card("7H")))
    assert caught.value.verdict.rule is RuleId.LEAD_ACE
    assert state.current_player() == A and not state.trick and len(state.held[A]) == 5
    assert refused(played(ready(), "AH"), Play(E, parse_card("QH"))) is RuleId.PLAY_ORDER


def test_writer_round_trips_a_record() -> None:
    record = load_record(DATA / "02_pam_be_civil.yaml")
    state = replay_pam(record).states[-1]
    written = record_from_state(state)
    assert written["civil"] == [1] and check(written) == check(record)
    assert loads(json.dumps(written)) == written


def test_a_settlement_needs_a_finished_deal() -> None:
    with pytest.raises(LooError):
        ready().settlement()


# -- a session of Pam Loo --------------------------------------------------------


def test_a_pam_session_deals_five_card_loo_from_the_first_deal_to_the_end_split() -> None:
    # Session with the pam profile (R-DEAL-ORDER as Pam Loo changes it, R-SESSION-END).
    session = Session(PLAYERS, deals=6, seed=5, profile=PAM)
    rng = random.Random(5)
    while not session.is_over():
        state = session.start_deal()
        assert isinstance(state, PamState)
        assert all(len(hand) == 5 for hand in state.hands) and state.trump is not None
        assert session.ledger.total() == 0
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
        session.finish_deal(state)
    final = session.end()
    assert sum(final.values()) == 0 and session.ledger.pool == 0
    assert len(session.history) == 6


def test_the_three_card_dealing_functions_refuse_the_pam_profile() -> None:
    with pytest.raises(LooError, match="five-card"):
        new_deal(PLAYERS, 4, 0, random.Random(1), PAM)


# -- one player's view -------------------------------------------------------------


def test_a_pam_player_sees_their_hand_at_their_turn_and_what_they_draw() -> None:

    state = new_pam_deal(["A", "B", "C", "D", "E"], dealer=4, carried=0, rng=random.Random(8))
    view = observation(state, 0)
    assert view.kind is None and view.hand == state.hands[0]
    assert observation(state, 1).hand is None, "B has not looked yet"
    assert hidden_cards(state, None) == frozenset(state.stock), "the tutor sees every hand"
    rng = random.Random(2)
    while state.phase is not Phase.PLAY and not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    for seat in range(5):
        seen = observation(state, seat).hand
        assert seen == (state.held[seat] if seat in state.active else None)
        assert hidden_cards(state, seat).isdisjoint(seen or ())
