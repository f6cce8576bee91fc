"""One deal under two profiles: loo_tutor.teaching.compare and the VariantCompare widget."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_tutor import loads
from loo_tutor.engine import three_card
from loo_tutor.engine.cards import Suit
from loo_tutor.engine.errors import LooError, MalformedRecord
from loo_tutor.engine.legality import Announcement
from loo_tutor.engine.rules import RuleId, VariantRuleId
from loo_tutor.engine.state import Announce, DealKind, Exchange, deal_from_deck
from loo_tutor.records.record import replay
from loo_tutor.teaching.compare import (
    PRESETS,
    Comparison,
    compare_deals,
    option_text,
    pack_of,
    profile_named,
)
from loo_tutor.widgets import VariantCompare

from conftest import FORCED_ACE

CLUB_SEED = 8  # the pack of seed 8 turns a club for trumps


def finished(left: Any, right: Any, seed: int, **kw: Any) -> Comparison:
    duel = compare_deals(left, right, seed, **kw)
    duel.play_to_end()
    return duel


def conserved(duel: Comparison) -> None:
    for side, settled in zip((duel.left, duel.right), duel.settlements(), strict=True):
        assert sum(settled.net.values()) == side.start.carried - settled.carried_next


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(sorted(PRESETS)),
       carried=st.sampled_from([0, 3, Fraction(10, 3)]),
       chooser=st.sampled_from(["thumb", "random"]))
def test_the_same_profile_on_both_sides_never_diverges(seed: int, preset: str, carried: Any,
                                                       chooser: str) -> None:
    duel = finished(preset, preset, seed, carried=carried, chooser=chooser)
    assert duel.steps and not duel.diverging and not duel.marked
    assert all(step.left_action == step.right_action for step in duel.steps)
    left, right = duel.settlements()
    assert left == right
    conserved(duel)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), chooser=st.sampled_from(["thumb", "random"]))
def test_club_law_diverges_exactly_when_a_pass_is_refused_under_club_law(
        seed: int, chooser: str) -> None:
    duel = finished("limited", "club_law", seed, chooser=chooser)
    start = duel.left.start
    clubs = start.indicator.suit is Suit.CLUBS and start.kind is DealKind.DOUBLE
    passed = [step for step in duel.steps if isinstance(step.left_action, Announce)
              and step.left_action.announcement is Announcement.PASS]
    if clubs and passed:
        first = duel.diverging[0]
        assert first is passed[0]
        assert first.rule is VariantRuleId.CLUB_LAW
        assert first.right_action.announcement is not Announcement.PASS  # type: ignore[union-attr]
        assert "V-CLUB-LAW" in first.explanation
    else:
        assert not duel.diverging
    if clubs:  # the first announcement already offers different options
        assert duel.steps[0].options_differ
    conserved(duel)


def test_a_fixed_seed_shows_club_law_refusing_the_first_pass() -> None:
    duel = finished("limited", "club_law", CLUB_SEED)
    first = duel.diverging[0]
    assert (first.number, option_text(first.left_action)) == (1, "pass")  # type: ignore[arg-type]
    assert first.refusal is not None and "club" in first.refusal


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), left=st.sampled_from(sorted(PRESETS)),
       right=st.sampled_from(sorted(PRESETS)), carried=st.sampled_from([0, 6]),
       chooser=st.sampled_from(["thumb", "random"]))
def test_both_sides_conserve_units_and_finish(seed: int, left: str, right: str, carried: int,
                                              chooser: str) -> None:
    duel = finished(left, right, seed, carried=carried, chooser=chooser)
    assert duel.is_over()
    conserved(duel)
    for step in duel.steps:  # the rule named is the refusal of the left action on the right
        if step.refusal is not None:
            assert step.rule is not None and step.left_action is not None


def test_exchanges_happen_on_one_side_while_the_other_waits() -> None:
    duel = finished("limited", "irish", 3, carried=3, chooser="random")
    alone = [s for s in duel.steps if isinstance(s.right_action, Exchange)]
    assert alone and all(s.left_action is None and s.rule is VariantRuleId.EXCHANGE
                         for s in alone)


def test_a_simple_deal_beside_irish_announcements_names_the_simple_deal_rule() -> None:
    duel = finished("limited", "irish", 3, carried=0)
    first = duel.steps[0]
    assert first.left_action is None and first.rule is RuleId.ANN_SIMPLE


def test_back_then_step_gives_the_same_step_again() -> None:
    duel = compare_deals("limited", "blenheim", 12, chooser="random")
    for _ in range(7):
        duel.step()
    before = duel.steps[-1]
    duel.back()
    assert len(duel.steps) == 6
    again = duel.step()
    assert again is not None
    assert (again.left_action, again.right_action) == (before.left_action, before.right_action)


def test_a_hands_record_is_dealt_again_from_a_rebuilt_pack() -> None:
    start = replay(loads(FORCED_ACE)).states[0]
    pack = pack_of(start)
    assert sorted(pack) == sorted(set(pack)) and len(pack) == 52
    again = deal_from_deck(start.players, start.dealer, start.carried, pack)
    assert (again.hands, again.miss, again.indicator) == (start.hands, start.miss,
                                                          start.indicator)
    duel = compare_deals("limited", "miss_position: first", record=loads(FORCED_ACE))
    assert duel.left.start.hands == start.hands
    assert duel.right.start.miss == tuple(pack[k] for k in (0, 6, 12))


def test_bad_profiles_and_choosers_are_refused_with_one_line() -> None:
    with pytest.raises(MalformedRecord, match=r"^rules"):
        profile_named("whist")
    with pytest.raises(LooError, match="not three-card"):
        compare_deals("limited", "pam")
    with pytest.raises(LooError, match="chooser"):
        compare_deals(chooser="psychic")


# -- the widget ----------------------------------------------------------------------------


def test_the_widget_draws_both_tables_and_steps_on_both_sides() -> None:
    widget = VariantCompare("limited", "club_law", seed=CLUB_SEED)
    page = widget.html
    assert page.count('class="loo-table"') == 2
    assert "Left: Limited Loo" in page and "Right: Club law" in page
    assert widget.back_button.disabled and not widget.step_button.disabled
    widget.step_button.click()
    assert len(widget.comparison.steps) == 1
    assert 'class="loo-diverge"' in widget.html
    assert 'href="../book/variants.html#v-club-law"' in widget.html
    assert "Here the two games part." in widget.html  # said in words, not only in colour
    widget.back_button.click()
    assert not widget.comparison.steps and 'class="loo-diverge"' not in widget.html


def test_the_rules_menus_speak_words_not_identifiers() -> None:
    widget = VariantCompare("limited", "loo: mixed(10)", seed=CLUB_SEED)
    labels = [label for label, _ in widget.left_picker.options]
    assert len(labels) == len(PRESETS) and "Club law" in labels and "Irish Loo" in labels
    assert all("_" not in label and ":" not in label and "(10)" not in label for label in labels)
    assert widget.right_picker.value == "loo: mixed(10)"  # the value is still the preset
    assert "Right: A loo pays the pool, up to 10" in widget.html


def test_play_to_end_shows_both_settlements_and_disables_stepping() -> None:
    widget = VariantCompare("limited", "blenheim", seed=4)
    assert not widget.finished
    widget.end_button.click()
    assert widget.comparison.is_over() and widget.finished
    assert widget.html.count('class="loo-ledger"') == 2
    assert widget.step_button.disabled and widget.end_button.disabled


def test_picking_a_profile_and_dealing_anew_restart_the_comparison() -> None:
    widget = VariantCompare(seed=1)
    widget.step()
    widget.right_picker.value = "irish"
    assert three_card.params_of(widget.comparison.right.profile).irish
    assert not widget.comparison.steps
    first_pack = widget.comparison.left.start.hands
    widget.new_button.click()
    assert widget.seed == 2 and widget.comparison.left.start.hands != first_pack


def test_options_that_differ_are_marked_in_the_list() -> None:
    widget = VariantCompare("limited", "club_law", seed=CLUB_SEED)
    widget.play_to_end()
    marked = widget.comparison.marked
    assert any(step.options_differ and not step.diverges for step in marked)
    assert "the rules offered different choices" in widget.html


def test_a_custom_rules_mapping_joins_the_picker() -> None:
    rules = {"base": "limited", "club_law": True, "loo": "unlimited"}
    widget = VariantCompare(right=rules)
    assert widget.right_picker.value == "limited + club_law, loo unlimited"
    widget.new_deal()
    assert widget.comparison.right.profile.loo_rule == "unlimited"


@pytest.mark.parametrize("kwargs", [
    {"record": "no-such-deal.yaml"},
    {"record": "players: [A, B]\ndealer: A\ncarried: 0\n"},
    {"right": {"base": "limited", "colour": "red"}},
    {"right": "pam"},
])
def test_an_unusable_record_or_profile_gives_one_line_inside_the_widget(
        kwargs: dict[str, Any]) -> None:
    widget = VariantCompare(**kwargs)
    assert widget.error is not None and "\n" not in widget.error
    assert 'role="alert"' in widget.html


def test_the_widget_can_open_part_way_or_at_the_end() -> None:
    assert len(VariantCompare(seed=CLUB_SEED, steps=3).comparison.steps) == 3
    whole = VariantCompare(seed=CLUB_SEED, steps=None)
    assert whole.comparison.is_over() and whole.step_button.disabled
    assert not whole.finished, "opened at the end by the page, not by its reader"


def test_the_steps_say_once_where_the_games_part_and_where_they_meet_again() -> None:
    widget = VariantCompare("limited", "club_law", seed=CLUB_SEED)
    widget.play_to_end()
    page = widget.html
    parts = [s.number for i, s in enumerate(widget.comparison.steps)
             if s.diverges and (i == 0 or not widget.comparison.steps[i - 1].diverges)]
    assert parts and page.count("Here the two games part.") == len(parts)
    assert f"The two games part at step{'s' if len(parts) > 1 else ''} {parts[0]}" in page
    assert page.count("The deals have gone apart") <= len(parts)
    assert "Diverges" not in page
    assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", re.sub("<[^>]+>", " ", page))
