"""Narration and the settlement table say what variant rules did (book: Variants).

The comparison widget shows these sentences beside each table, so a flush,
an undivided pool and an unlimited loo must be told as such.
"""

from __future__ import annotations

from pathlib import Path

from loo_tutor import load_record
from loo_tutor.engine.rules import RuleId, VariantRuleId
from loo_tutor.records.record import replay
from loo_tutor.render.markup import ledger_html
from loo_tutor.teaching.narrate import narrate_settlement, steps

VARIANTS = Path(__file__).parents[1] / "data" / "variants"


def last_step(name: str) -> tuple[str, tuple[object, ...]]:
    told = steps(load_record(VARIANTS / f"{name}.yaml"))[-1].narration
    return told.text, told.rules


def test_a_flush_is_told_as_a_flush_with_the_players_it_loos() -> None:
    text, rules = last_step("07_three_card_flush")
    assert "A holds three trumps, a flush" in text and "B and C, also in, are looed" in text
    assert VariantRuleId.FLUSH in rules and RuleId.COLLECT not in rules
    state = replay(load_record(VARIANTS / "07_three_card_flush.yaml")).states[-1]
    assert VariantRuleId.FLUSH in narrate_settlement(state).rules


def test_an_undivided_pool_says_why_tricks_won_are_not_paid() -> None:
    text, rules = last_step("06_undivided_split")
    assert "A wins two tricks but is paid nothing" in text
    assert VariantRuleId.UNDIVIDED in rules


def test_an_unlimited_loo_is_told_and_tabled_at_its_real_price() -> None:
    text, _ = last_step("03_loo_unlimited")
    assert "B is looed and pays 12 units" in text
    state = replay(load_record(VARIANTS / "03_loo_unlimited.yaml")).states[-1]
    assert "yes, pays 12" in ledger_html(state)


def test_irish_loo_has_no_simple_deal_to_announce() -> None:
    record = load_record(VARIANTS / "39_irish_dealer_stands_against_a_sole_stander.yaml")
    record["announce"] = {"A": "pass", "B": "pass", "C": "pass", "D": "pass"}
    text = steps(record)[-1].narration.text
    assert "Nothing carries over (R-CARRY)." in text and "simple" not in text
