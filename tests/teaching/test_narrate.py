"""Narration cites the rule the engine applied at each step (loo_tutor.teaching.narrate).

Also checks the shipped example records (loo_tutor.records.data) against the test
collection they were copied from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loo_tutor import Announce, Announcement, MalformedRecord, Play, RuleId, load_record, loads
from loo_tutor.engine.cards import parse_card
from loo_tutor.engine.rules import VariantRuleId
from loo_tutor.records.data import example, names
from loo_tutor.records.record import replay, replay_deal
from loo_tutor.teaching.narrate import (
    CITED,
    VARIANT_CITED,
    Narration,
    card_text,
    dealer_rule,
    narrate_action,
    narrate_settlement,
    steps,
)

from conftest import OWN_EXAMPLES

# Where each shipped record comes from in tests/data/examples.
SHIPPED = {
    "forced-ace": "01_seed000_forced_ace.yaml",
    "nine-unit-pool": "02_seed002_nine_chip.yaml",
    "hearts": "03_seed002_hearts.yaml",
    "simple-reveal": "04_simple_reveal_void_trump_wins.yaml",
    "king-forced": "12_king_forced_when_ace_is_indicator.yaml",
    "defended-pool": "14_defender_wins_all.yaml",
    "sole-miss-taker": "17_sole_miss_taker_given_pool.yaml",
    "fractional-pool": "23_pool_ten_thirds.yaml",
    "sole-stander": "28_sole_stander_dealer_options.yaml",
    "follow-suit": "31_follow_suit.yaml",
    "dealer-options": "43_dealer_options_miss_available.yaml",
    "pam-civil": "../pam/02_pam_be_civil.yaml",
    "pam-flush": "../pam/04_pam_flush_takes_the_pool.yaml",
}

HEAD_CASE = """
players: [A, B, C, D, E]
dealer: E
carried: 9
hands: {A: [KS, 2D, 3D], B: [AS, 2S, 4D], C: [2C, 3C, 4C], D: [5C, 6C, 7C], E: [8C, 9C, 10C]}
miss: [5D, 6D, 7D]
trump: 2H
announce: {A: stand, B: stand, C: pass, D: pass, E: pass}
tricks: [[KS]]
"""
"""B holds A♠ and 2♠ over A's K♠: only the ace heads the trick."""


def story(name: str) -> list[Narration]:
    return [step.narration for step in steps(example(name))]


def by_title(name: str, title: str) -> Narration:
    for step in steps(example(name)):
        if step.title.endswith(title):
            return step.narration
    raise AssertionError(f"no step {title!r} in {name}")


# -- the shipped records ---------------------------------------------------------


def test_every_shipped_record_is_a_copy_of_a_tested_example() -> None:
    assert sorted(SHIPPED) == names()
    for name, source in SHIPPED.items():
        shipped = Path(__file__).parents[2] / "loo_tutor" / "records" / "data" / f"{name}.yaml"
        assert shipped.read_bytes() == (OWN_EXAMPLES / source).read_bytes(), name


def test_example_returns_a_fresh_record_each_time() -> None:
    first = example("forced-ace")
    first["dealer"] = "A"
    assert example("forced-ace")["dealer"] == "E"


def test_example_names_the_known_records_when_the_name_is_unknown() -> None:
    with pytest.raises(MalformedRecord, match="forced-ace"):
        example("no-such-deal")


# -- cards --------------------------------------------------------------------


def test_forced_ace_lead_cites_lead_ace() -> None:
    told = by_title("forced-ace", "A leads A♥")
    assert told.rules == (RuleId.LEAD_ACE,)
    assert told.text == "A leads A♥: A holds the ace of trumps and must lead it (R-LEAD-ACE)."


def test_second_lead_with_a_trump_left_cites_lead_trump() -> None:
    assert by_title("forced-ace", "A leads 7♥").rules == (RuleId.LEAD_TRUMP,)


def test_following_with_the_only_card_of_the_suit_cites_follow() -> None:
    assert by_title("forced-ace", "B plays 9♥").rules == (RuleId.FOLLOW,)


def test_void_without_trump_may_discard() -> None:
    told = by_title("forced-ace", "B plays 3♠")
    assert told.rules == (RuleId.DISCARD,)
    assert "B is void in hearts and holds no trump, so may discard 3♠" in told.text


def test_following_with_a_card_that_beats_the_trick_mentions_heading() -> None:
    told = by_title("forced-ace", "B plays A♣")
    assert told.rules[:2] == (RuleId.FOLLOW, RuleId.HEAD)


def test_a_forced_heading_card_cites_head() -> None:
    before = replay(loads(HEAD_CASE)).states[-1]
    action = Play(1, parse_card("AS"))
    told = narrate_action(before, action, before.apply(action))
    assert told.rules[0] is RuleId.HEAD
    assert "K♠" in told.text


def test_void_player_with_a_winning_trump_cites_trump_win() -> None:
    assert by_title("nine-unit-pool", "Emil plays A♠").rules == (RuleId.TRUMP_WIN,)


def test_king_lead_when_the_ace_is_the_indicator_cites_lead_ace() -> None:
    before = replay(example("king-forced")).states[-1]
    action = Play(0, parse_card("KS"))
    told = narrate_action(before, action, before.apply(action))
    assert told.rules == (RuleId.LEAD_ACE,)
    assert "king of trumps" in told.text


def test_free_lead_before_trumps_are_known_cites_lead_free() -> None:
    assert by_title("simple-reveal", "A leads 5♠").rules == (RuleId.LEAD_FREE,)


def test_discard_before_the_reveal_cites_discard() -> None:
    told = by_title("simple-reveal", "C plays 8♥")
    assert told.rules == (RuleId.DISCARD,)
    assert "trumps are not known yet" in told.text


# -- tricks ---------------------------------------------------------------------


def test_end_of_trick_names_the_winner_and_the_next_leader() -> None:
    told = by_title("forced-ace", "C plays 2♥")
    assert told.rules == (RuleId.FOLLOW, RuleId.WIN, RuleId.LEAD_NEXT)
    assert "Trick 1 goes to A with A♥, the highest trump (R-WIN)." in told.text


def test_the_reveal_is_narrated_with_the_trick_it_judges() -> None:
    told = by_title("simple-reveal", "E plays J♠")
    assert RuleId.REVEAL in told.rules
    assert told.rules.index(RuleId.REVEAL) < told.rules.index(RuleId.WIN)
    assert "hearts are trumps" in told.text
    assert "Trick 1 goes to C with 8♥, the highest trump" in told.text


# -- announcements ----------------------------------------------------------------


def test_non_dealer_announcements_cite_their_rules() -> None:
    assert by_title("nine-unit-pool", "Anna passes").rules == (RuleId.ANN_PASS,)
    assert by_title("nine-unit-pool", "Ben takes the miss").rules == (RuleId.ANN_MISS_ONCE,)
    assert by_title("nine-unit-pool", "Carla stands").rules == (RuleId.ANN_CHOICES,)


def test_dealer_with_two_others_in_cites_dealer_other_and_the_first_lead() -> None:
    told = by_title("nine-unit-pool", "Emil stands")
    assert told.rules == (RuleId.ANN_DEALER_OTHER, RuleId.LEAD_FIRST)
    assert "may stand or pass" in told.text  # the miss is claimed: the engine offers no miss


def test_dealer_defending_against_a_sole_stander() -> None:
    told = by_title("defended-pool", "E defends")
    assert told.rules[:2] == (RuleId.ANN_DEALER_SOLE_STAND, RuleId.DEFEND)


def test_dealer_passing_against_a_sole_miss_taker_hands_over_the_pool() -> None:
    told = by_title("sole-miss-taker", "E passes")
    assert told.rules == (RuleId.ANN_DEALER_SOLE_MISS, RuleId.COLLECT, RuleId.CARRY)
    assert "A, the only player left in, collects the pool of 12" in told.text


def test_everybody_passing_lets_the_dealer_collect() -> None:
    record = load_record(OWN_EXAMPLES / "24_all_pass_dealer_collects.yaml")
    told = steps(record)[-1].narration
    assert RuleId.COLLECT in told.rules
    assert "E collects the pool of 12" in told.text


@pytest.mark.parametrize(("name", "rule"), [
    ("sole-stander", RuleId.ANN_DEALER_SOLE_STAND),
    ("dealer-options", RuleId.ANN_DEALER_OTHER),
])
def test_dealer_rule_asks_the_engine(name: str, rule: RuleId) -> None:
    assert dealer_rule(replay(example(name)).states[-1]) is rule


def test_dealer_rule_for_a_sole_miss_taker() -> None:
    state = replay(example("sole-miss-taker")).states[-2]
    assert dealer_rule(state) is RuleId.ANN_DEALER_SOLE_MISS


def test_dealer_rule_is_none_when_the_dealer_is_not_announcing() -> None:
    states = replay(example("forced-ace")).states
    assert dealer_rule(states[0]) is None
    assert dealer_rule(states[-1]) is None


def test_start_of_a_simple_deal() -> None:
    told = story("simple-reveal")[0]
    assert told.rules == (RuleId.DEAL_KIND, RuleId.POOL, RuleId.ANN_SIMPLE, RuleId.DEAL_TRUMP,
                          RuleId.LEAD_FIRST)


def test_start_of_a_double_deal() -> None:
    told = story("forced-ace")[0]
    assert "pool of 12" in told.text and "hearts are trumps" in told.text
    assert told.rules[-1] is RuleId.ANN_ORDER


# -- settlement ----------------------------------------------------------------


def test_settlement_of_the_forced_ace_deal() -> None:
    told = narrate_settlement(replay(example("forced-ace")).states[-1])
    assert told.rules == (RuleId.PAY_THIRD, RuleId.LOO, RuleId.CARRY)
    assert "A wins two tricks: 8 units (R-PAY-THIRD)" in told.text
    assert "C is looed and pays 3 units (R-LOO)" in told.text
    assert "3 units carry to the next deal" in told.text


def test_settlement_in_exact_thirds() -> None:
    told = story("fractional-pool")[-1]
    assert "A wins one trick: 10/3 units" in told.text
    assert "B wins two tricks: 20/3 units" in told.text
    assert "Nothing carries over" in told.text


def test_one_unit_is_singular() -> None:
    told = narrate_settlement(replay(example("simple-reveal")).states[-1])
    assert "B wins one trick: 1 unit (R-PAY-THIRD)" in told.text
    assert "1 units" not in told.text


def test_settlement_of_a_defended_pool() -> None:
    told = story("defended-pool")[-1]
    assert RuleId.DEFEND in told.rules and RuleId.LOO in told.rules
    assert "15 units carry" in told.text


# -- refusals and the whole story --------------------------------------------------


def test_a_refused_record_ends_with_the_refusal() -> None:
    last = steps(example("follow-suit"))[-1]
    assert last.refused is not None
    assert last.narration.rules == (RuleId.FOLLOW,)
    assert last.narration.text.startswith("Refused: C may not play 9♣")
    assert last.title == "Refused: C plays 9♣"


def test_steps_accept_a_replay() -> None:
    assert len(steps(replay(example("forced-ace")))) == 15


@pytest.mark.parametrize("name", names())
def test_every_narration_cites_known_rules_and_names_them_in_its_text(name: str) -> None:
    for step in steps(example(name)):
        told = step.narration
        assert told.text.strip()
        assert len(set(told.rules)) == len(told.rules)
        for rule in told.rules:
            assert rule.value in told.text
            if step.refused is None:
                assert rule in CITED or rule in VARIANT_CITED, (step.title, rule)


def test_narrations_add_up() -> None:
    both = Narration("One (R-WIN).", (RuleId.WIN,)) + Narration("Two (R-WIN).", (RuleId.WIN,))
    assert both == Narration("One (R-WIN). Two (R-WIN).", (RuleId.WIN,))


def test_card_text_uses_suit_symbols() -> None:
    assert [card_text(parse_card(c)) for c in ("AH", "10C", "QS", "2D")] == [
        "A♥", "10♣", "Q♠", "2♦"]


def test_announcing_narrations_for_every_call_of_a_non_dealer() -> None:
    start = replay(example("forced-ace")).states[0]
    for call, rule in [(Announcement.STAND, RuleId.ANN_CHOICES),
                       (Announcement.PASS, RuleId.ANN_PASS),
                       (Announcement.MISS, RuleId.ANN_MISS_ONCE)]:
        action = Announce(0, call)
        assert narrate_action(start, action, start.apply(action)).rules == (rule,)


# -- five-card Loo with Pam --------------------------------------------------------


def test_a_pam_deal_is_narrated_with_its_own_rules_from_the_deal_to_the_fifths() -> None:
    story = steps(example("pam-civil"))
    assert story[0].narration.rules == (RuleId.DEAL_ANTE, RuleId.POOL, VariantRuleId.PAM,
                                        RuleId.ANN_ORDER)
    civil = next(step for step in story if step.title.endswith('"Pam, be civil"'))
    assert civil.narration.rules == (VariantRuleId.PAM_CIVIL,)
    kept_back = story[story.index(civil) + 1]
    assert kept_back.narration.rules == (VariantRuleId.PAM_CIVIL,)
    last = story[-1].narration
    assert RuleId.PAY_THIRD in last.rules and "a fifth of the pool of 15, 3" in last.text
    end = replay_deal(example("pam-civil")).states[-1]
    looed = [end.players[seat] for seat in end.settlement().looed]
    assert looed == ["E"] and "E wins nothing, is looed" in last.text


def test_a_pam_flush_is_told_with_who_is_spared_and_who_is_looed() -> None:
    told = steps(example("pam-flush"))[-1].narration
    assert told.rules[-2:] == (VariantRuleId.FLUSH, RuleId.LOO)
    assert "C holds a Pam flush" in told.text
    assert "A stood too but is spared, holding a weaker flush" in told.text
