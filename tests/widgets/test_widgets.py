"""The widgets, driven headlessly: build them, click their buttons, read their HTML.

Nothing here needs a browser: ``Button.click()`` runs the Python callbacks.
The expected answers always come from the engine (``check``, ``replay``,
``settlement``), never from numbers typed into the tests.
"""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from loo_tutor import Announcement, RuleId, check, load_record
from loo_tutor.records.data import example
from loo_tutor.records.record import replay
from loo_tutor.widgets import (
    AnnouncementTrainer,
    DealerDecisionTable,
    DealStepper,
    PayoutChecker,
    PlayTrainer,
    parse_amount,
)

from conftest import OWN_EXAMPLES

WIDGETS_DIR = Path(__file__).parents[2] / "loo_tutor" / "widgets"
RULE_HREF = re.compile(r'href="[^"]*rules\.html#([^"]*)"')
LABELS = {rule.label for rule in RuleId}


def assert_rule_links_are_valid(page: str) -> None:
    for label in RULE_HREF.findall(page):
        assert label in LABELS, label


def words(page: str) -> str:
    """The text of ``page`` as a reader sees it, without its markup."""
    return re.sub(r"<style>.*?</style>|<[^>]+>", "", page)


def shown_parts(widget: Any) -> list[Any]:
    """The parts a widget draws: its children but the hidden style sheet."""
    return [child for child in widget.children if child.layout.display != "none"]


def every_button(widget: Any) -> list[widgets.Button]:
    found = []
    stack = [widget]
    while stack:
        item = stack.pop()
        if isinstance(item, widgets.Button):
            found.append(item)
        stack.extend(getattr(item, "children", ()))
    return found


# -- the deal stepper --------------------------------------------------------------


def test_stepper_moves_through_the_deal() -> None:
    stepper = DealStepper(example("forced-ace"))
    assert stepper.error is None
    assert stepper.index == 0 and stepper.state.tricks == []
    start = stepper.narration
    stepper.forward_button.click()
    assert stepper.index == 1
    assert stepper.narration != start
    assert stepper.narration.text.startswith("A stands")
    stepper.last_button.click()
    assert len(stepper.state.tricks) == 3
    assert stepper.narration.rules[-1] is RuleId.CARRY
    stepper.back_button.click()
    assert len(stepper.state.tricks) == 2
    stepper.first_button.click()
    assert stepper.index == 0 and stepper.narration == start


def test_stepper_keeps_its_controls_in_step() -> None:
    stepper = DealStepper(example("forced-ace"))
    assert stepper.first_button.disabled and stepper.back_button.disabled
    stepper.menu.value = 6
    assert stepper.index == 6 and stepper.field.value == 6
    assert stepper.stack.selected_index == 6
    assert stepper.narration.rules == (RuleId.LEAD_ACE,)
    stepper.field.value = 14
    assert stepper.menu.value == 14
    assert stepper.forward_button.disabled and stepper.last_button.disabled
    stepper.go(99)
    assert stepper.index == 14


def test_stepper_html_is_the_current_step() -> None:
    stepper = DealStepper(example("forced-ace"))
    stepper.go(6)
    page = stepper.html
    assert "A leads A♥" in words(page)
    assert '<span class="loo-card-text loo-red" role="img" aria-label="ace of hearts">A♥</span>' \
        in page
    assert 'href="../book/rules.html#r-lead-ace"' in page
    assert page == stepper.stack.children[6].value
    assert_rule_links_are_valid(page)


def test_stepper_ends_with_the_refused_action() -> None:
    stepper = DealStepper(example("follow-suit"))
    stepper.last()
    assert stepper.step.refused is not None
    assert stepper.narration.rules == (RuleId.FOLLOW,)
    assert "Refused" in stepper.menu.label


def test_stepper_in_a_players_view_and_four_colours() -> None:
    stepper = DealStepper(example("forced-ace"), four_colour=True, view_seat="B",
                          rules_base="https://example.org/loo/")
    stepper.go(6)
    assert 'aria-label="9 of hearts"' in stepper.html
    assert 'aria-label="7 of hearts"' not in stepper.html  # A's card stays hidden
    assert "https://example.org/loo/rules.html#r-lead-ace" in stepper.html


def test_stepper_buttons_are_labelled_for_keyboard_and_screen_reader_users() -> None:
    stepper = DealStepper(example("forced-ace"))
    buttons = every_button(stepper)
    assert len(buttons) == 4
    assert all(b.description and b.tooltip for b in buttons)


# -- what the parts of a widget share ---------------------------------------------------


def test_parts_that_look_alike_share_their_layout_and_style_objects() -> None:
    stepper = DealStepper(example("forced-ace"))
    pages = stepper.stack.children
    assert len(pages) == len(stepper.steps) > 2
    assert len({id(page.layout) for page in pages}) == 1
    assert len({id(page.style) for page in pages}) == 1
    assert len({id(b.layout) for b in every_button(stepper)}) == 1
    assert stepper.field.layout is stepper.first_button.layout is stepper.stack.layout
    # Other CSS, another layout object: the hidden style sheet's.
    sheet = stepper.children[0]
    assert sheet.layout.display == "none" and sheet.layout is not stepper.stack.layout
    # Each widget has its own: nothing is shared between two widgets.
    other = DealStepper(example("forced-ace"))
    assert other.stack.layout is not stepper.stack.layout
    assert other.stack.children[0].style is not pages[0].style
    # A style given as traits is the part's own.
    made = stepper.part(widgets.Dropdown, options=["a"], style={"description_width": "initial"})
    assert made.style is not stepper.menu.style and made.layout is stepper.stack.layout


def test_card_buttons_made_after_a_click_share_the_first_ones_looks() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)

    def looks() -> set[int]:
        buttons = trainer.hand.children
        return {id(b.layout) for b in buttons} | {id(b.style) for b in buttons}

    before = looks()
    trainer.play("AH")  # the ace's button is closed, and made again by the reset
    trainer.reset()
    assert len(before) == 2 and looks() == before


# -- the play trainer ----------------------------------------------------------------


def test_forced_ace_trainer_refuses_seven_of_hearts_then_plays_the_ace() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    assert list(trainer.buttons) == ["AH", "7H", "KC"]
    trainer.buttons["7H"].click()
    assert trainer.verdict is not None and not trainer.verdict
    assert trainer.verdict.rule is RuleId.LEAD_ACE
    assert len(trainer.states) == 1  # nothing was played
    assert 'href="../book/rules.html#r-lead-ace"' in trainer.feedback.value
    assert trainer.verdict.message in words(trainer.feedback.value)
    # the cards in the message as the reader sees them, each read out by name
    assert 'aria-label="7 of hearts">7♥</span>' in trainer.feedback.value
    assert 'aria-label="ace of hearts">A♥</span>' in trainer.feedback.value
    trainer.buttons["AH"].click()
    assert trainer.verdict
    trick = trainer.state.tricks[0]
    assert [str(card) for _, card in trick.plays] == ["AH", "9H", "2H"]
    assert trainer.state.current_player() == 0  # A won and leads again
    assert list(trainer.buttons) == ["7H", "KC"]


def test_holding_a_heart_b_may_not_discard_a_spade() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="B", from_trick=1)
    assert [str(c) for _, c in trainer.state.all_tricks()[0].plays] == ["AH"]
    trainer.buttons["3S"].click()
    assert trainer.verdict.rule is RuleId.FOLLOW
    assert "rules.html#r-follow" in trainer.html


def lit_buttons(trainer: PlayTrainer) -> set[str]:
    return {key for key, b in trainer.buttons.items() if "loo-lit" in b._dom_classes}


def test_highlighting_shows_the_engines_legal_cards() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    assert not lit_buttons(trainer)
    trainer.highlight.value = True
    legal = {str(c) for c in trainer.state.legal_cards()}
    assert lit_buttons(trainer) == legal
    assert {k for k, b in trainer.buttons.items() if b.tooltip.endswith("(legal)")} == legal
    trainer.highlight.value = False
    assert not lit_buttons(trainer)


def test_a_refusal_lights_the_legal_cards_at_once() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    trainer.buttons["7H"].click()
    assert trainer.verdict is not None and not trainer.verdict
    assert lit_buttons(trainer) == {str(c) for c in trainer.state.legal_cards()} == {"AH"}
    trainer.buttons["AH"].click()
    assert not lit_buttons(trainer)  # a legal card puts the lights out again


def test_the_readers_cards_are_buttons_at_the_readers_seat_of_the_table() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    table = trainer.table.value
    mine = re.search(r'<div class="loo-seat loo-near loo-mine"[^>]*aria-label="A[,"][^>]*>(.*?)'
                     r'<div class="loo-status">', table)
    assert mine is not None and 'class="loo-hand loo-own-hand"></div>' in mine.group(1)
    assert "loo-card " not in mine.group(1)  # the cards there are the buttons
    assert trainer.hand.children == tuple(trainer.buttons[k] for k in ("AH", "7H", "KC"))
    assert all("loo-card-button" in b._dom_classes for b in trainer.buttons.values())
    assert "loo-red" in trainer.buttons["7H"]._dom_classes
    assert "loo-black" in trainer.buttons["KC"]._dom_classes


def test_card_buttons_carry_the_card_and_its_spoken_name() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    assert trainer.buttons["7H"].description == "7♥"
    assert trainer.buttons["7H"].tooltip == "7 of hearts"
    assert all(b.description and b.tooltip for b in every_button(trainer))


def test_playing_a_whole_deal_and_resetting() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    while not trainer.state.is_terminal():
        card = trainer.state.legal_cards()[0]
        trainer.buttons[str(card)].click()
        assert trainer.verdict
    assert "The deal is over." in trainer.header.value
    assert 'class="loo-ledger"' in trainer.html
    assert not trainer.buttons
    trainer.reset_button.click()
    assert len(trainer.states) == 1 and trainer.verdict is None
    assert list(trainer.buttons) == ["AH", "7H", "KC"]


def test_seeded_automatic_players_repeat_themselves() -> None:
    def history(seed: int) -> list[str]:
        trainer = PlayTrainer(example("simple-reveal"), seat="C", seed=seed, from_trick=1)
        while not trainer.state.is_terminal():
            trainer.play(trainer.state.legal_cards()[-1])
        return [str(c) for t in trainer.state.tricks for _, c in t.plays]

    assert history(7) == history(7)
    assert any(history(7) != history(seed) for seed in range(8, 14))


def test_trainer_starts_where_the_record_stops() -> None:
    trainer = PlayTrainer(example("king-forced"), seat="A")
    trainer.play("4S")
    assert trainer.verdict.rule is RuleId.LEAD_ACE
    trainer.play("KS")
    assert trainer.verdict


def test_trainer_from_a_deal_state_and_from_announcements() -> None:
    state = replay(example("forced-ace")).states[5]
    assert list(PlayTrainer(state, seat=0).buttons) == ["AH", "7H", "KC"]
    announcing = PlayTrainer(example("sole-stander"), seat="A")
    assert announcing.state.current_player() == 0  # the dealer announced automatically


def test_a_seat_that_passed_watches_the_deal_play_out() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="D", from_trick=1)
    assert trainer.state.is_terminal()
    assert not trainer.buttons


def test_a_trick_the_record_never_reaches_is_an_error() -> None:
    trainer = PlayTrainer(example("king-forced"), seat="A", from_trick=2)
    assert trainer.error is not None and "trick 2" in trainer.error


# -- announcements ---------------------------------------------------------------------


def test_dealer_may_not_pass_against_a_sole_stander() -> None:
    trainer = AnnouncementTrainer(example("sole-stander"), seat="E")
    assert "Your turn to announce" in trainer.header.value
    trainer.buttons["pass"].click()
    assert trainer.verdict.rule is RuleId.ANN_DEALER_SOLE_STAND
    assert "rules.html#r-ann-dealer-sole-stand" in trainer.feedback.value
    assert len(trainer.states) == 1
    trainer.buttons["defend"].click()
    assert trainer.verdict
    assert trainer.state.defender == 4
    assert all(b.disabled for b in trainer.buttons.values())
    trainer.reset_button.click()
    assert not any(b.disabled for b in trainer.buttons.values())


def test_dealer_may_not_defend_against_a_sole_miss_taker() -> None:
    trainer = AnnouncementTrainer(example("sole-miss-taker"), seat="E")
    trainer.announce("defend")
    assert trainer.verdict.rule is RuleId.ANN_DEALER_SOLE_MISS
    trainer.announce(Announcement.PASS)
    assert trainer.state.collected_by == 0


@pytest.mark.parametrize(("name", "seat", "call", "rule"), [
    ("dealer-options", "F", "defend", RuleId.DEFEND),
    ("nine-unit-pool", "Carla", "miss", RuleId.ANN_MISS_ONCE),
    ("forced-ace", "A", "defend", RuleId.DEFEND),
    ("simple-reveal", "A", "stand", RuleId.ANN_SIMPLE),
])
def test_announcement_refusals_name_the_engines_rule(name: str, seat: str, call: str,
                                                     rule: RuleId) -> None:
    trainer = AnnouncementTrainer(example(name), seat=seat)
    trainer.buttons[call].click()
    assert trainer.verdict.rule is rule
    assert_rule_links_are_valid(trainer.html)
    assert not trainer.finished, "a refused announcement does not finish the trainer"
    legal = trainer.state.legal_announcements()
    if legal:
        trainer.buttons[legal[0].value].click()
        assert trainer.verdict and trainer.finished


def test_announcement_buttons_are_labelled() -> None:
    trainer = AnnouncementTrainer(example("sole-stander"), seat="E")
    assert all(b.description and b.tooltip for b in every_button(trainer))


@pytest.mark.parametrize(("calls", "options", "rule"), [
    ({"A": "pass", "B": "pass", "C": "pass", "D": "pass"}, [], RuleId.COLLECT),
    ({"A": "stand"}, ["stand", "miss", "defend"], RuleId.ANN_DEALER_SOLE_STAND),
    ({"A": "miss"}, ["stand", "pass"], RuleId.ANN_DEALER_SOLE_MISS),
    ({"A": "stand", "B": "stand"}, ["stand", "pass", "miss"], RuleId.ANN_DEALER_OTHER),
    ({"A": "miss", "B": "stand"}, ["stand", "pass"], RuleId.ANN_DEALER_OTHER),
    ({"A": "miss", "B": "miss"}, [], RuleId.ANN_MISS_ONCE),
    ({"A": "defend"}, [], RuleId.DEFEND),
])
def test_decision_table_matches_the_spec_rows(calls: dict[str, str], options: list[str],
                                              rule: RuleId) -> None:
    table = DealerDecisionTable(calls={"A": "pass", **calls})
    for name, call in calls.items():
        table.choose(name, call)
    assert [a.value for a in table.options] == options
    assert table.rule is rule
    assert_rule_links_are_valid(table.html)


def test_decision_table_checks_all_four_dealer_calls() -> None:
    table = DealerDecisionTable()
    assert table.html.count("✓ allowed") == 3
    assert table.html.count("✗ refused") == 1
    assert "rules.html#r-ann-dealer-sole-stand" in table.html


def test_decision_table_needs_a_double_deal() -> None:
    assert "double deal" in DealerDecisionTable(example("simple-reveal")).error


# -- the payout checker ---------------------------------------------------------------


def fill_with_engine_answers(checker: PayoutChecker, record: dict[str, Any]) -> None:
    result = check(record)
    for name, field in checker.payout_fields.items():
        field.value = result["payouts"].get(name, "0")
    for name, box in checker.looed_boxes.items():
        box.value = name in result["looed"]
    checker.nobody_box.value = not result["looed"]
    checker.carried_field.value = result["carried_next"]


def test_payout_checker_takes_nobody_for_an_empty_loo_as_the_exercises_do() -> None:
    record = example("fractional-pool")
    assert check(record)["looed"] == []  # the engine says nobody is looed
    checker = PayoutChecker(record)
    assert checker.check()["looed"].status == "empty"  # nothing ticked: not answered yet
    assert "Nothing to check yet" in checker.summary.value  # asked for an answer, not "0 of 0"
    checker.nobody_box.value = True
    assert checker.check()["looed"].status == "right"
    assert "1 of 1 answers right." in checker.summary.value
    checker.looed_boxes["A"].value = True
    assert checker.check()["looed"].status == "unreadable"  # a name and nobody
    checker.nobody_box.value = False
    assert (checker.check()["looed"].status, checker.results["looed"].rule) == ("wrong", RuleId.LOO)


@pytest.mark.parametrize("name", ["forced-ace", "fractional-pool", "defended-pool",
                                  "sole-miss-taker", "nine-unit-pool", "simple-reveal"])
def test_payout_checker_accepts_the_engines_settlement(name: str) -> None:
    record = example(name)
    checker = PayoutChecker(record)
    fill_with_engine_answers(checker, record)
    assert not checker.finished
    checker.check_button.click()
    assert {key: r.status for key, r in checker.results.items()} == dict.fromkeys(
        checker.results, "right")
    assert checker.finished
    assert f"{len(checker.results)} of {len(checker.results)} answers right" in checker.html


def test_payout_checker_names_the_rule_for_each_wrong_field() -> None:
    record = example("forced-ace")
    checker = PayoutChecker(record)
    fill_with_engine_answers(checker, record)
    checker.payout_fields["A"].value = "12"
    checker.looed_boxes["D"].value = True
    checker.carried_field.value = "0"
    results = checker.check()
    assert not checker.finished
    assert (results["payout:A"].status, results["payout:A"].rule) == ("wrong", RuleId.PAY_THIRD)
    assert (results["looed"].status, results["looed"].rule) == ("wrong", RuleId.LOO)
    assert (results["carried"].status, results["carried"].rule) == ("wrong", RuleId.CARRY)
    assert results["payout:B"].status == "right"
    page = checker.html
    for label in ("r-pay-third", "r-loo", "r-carry"):
        assert f"rules.html#{label}" in page


def test_payout_checker_rules_for_collected_defended_and_passing_seats() -> None:
    collected = PayoutChecker(example("sole-miss-taker"))
    collected.payout_fields["A"].value = "4"
    assert collected.check()["payout:A"].rule is RuleId.COLLECT
    defended = PayoutChecker(example("defended-pool"))
    defended.payout_fields["E"].value = "12"
    defended.payout_fields["B"].value = "1"
    results = defended.check()
    assert results["payout:E"].rule is RuleId.DEFEND
    assert results["payout:B"].rule is RuleId.ANN_PASS


def test_payout_answers_in_every_accepted_form() -> None:
    checker = PayoutChecker(example("fractional-pool"))
    checker.payout_fields["A"].value = "3 1/3"
    checker.payout_fields["B"].value = "20/3"
    checker.payout_fields["C"].value = "0"
    checker.payout_fields["D"].value = ""
    checker.payout_fields["E"].value = "lots"
    results = checker.check()
    assert results["payout:A"].status == results["payout:B"].status == "right"
    assert results["payout:C"].status == "right"
    assert (results["payout:D"].status, results["payout:D"].message) == (
        "empty", "not answered yet")
    assert results["payout:E"].status == "unreadable"
    assert "10/3" in results["payout:E"].message and "3 1/3" in results["payout:E"].message


def test_a_rounded_decimal_is_close_but_not_exact() -> None:
    checker = PayoutChecker(example("fractional-pool"))
    checker.payout_fields["A"].value = "3.33"
    assert checker.check()["payout:A"].rule is RuleId.LEDGER


def test_show_answer_draws_the_engines_ledger() -> None:
    checker = PayoutChecker(example("forced-ace"))
    assert 'class="loo-ledger"' not in checker.html
    checker.answer_button.click()
    assert 'class="loo-ledger"' in checker.html


def test_payout_checker_refuses_unfinished_and_illegal_deals() -> None:
    assert "not finished" in PayoutChecker(example("sole-stander")).error
    illegal = PayoutChecker(example("follow-suit")).error
    assert "illegal" in illegal and "R-FOLLOW" in illegal


@pytest.mark.parametrize(("text", "value"), [
    ("8", Fraction(8)), ("10/3", Fraction(10, 3)), ("3 1/3", Fraction(10, 3)),
    (" 20 / 3 ", Fraction(20, 3)), ("2.5", Fraction(5, 2)), ("", None), ("   ", None),
])
def test_parse_amount_reads_the_accepted_forms(text: str, value: Fraction | None) -> None:
    assert parse_amount(text) == value


@pytest.mark.parametrize("text", ["abc", "1/0", "-3", "3 1/3 1", "1e3"])
def test_parse_amount_explains_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError, match="whole number"):
        parse_amount(text)


# -- any record, and bad ones -------------------------------------------------------


BAD_RECORDS = [
    "no/such/file.yaml",
    "players: [A, B\n",
    "players: [A, B]\ndealer: A\ncarried: 0\n",
    {"players": ["A", "B", "C", "D", "E"], "dealer": "Z", "carried": 0},
    42,
]


@pytest.mark.parametrize("record", BAD_RECORDS, ids=range(len(BAD_RECORDS)))
@pytest.mark.parametrize("make", [
    lambda r: DealStepper(r),
    lambda r: PlayTrainer(r, seat="A"),
    lambda r: AnnouncementTrainer(r, seat="A"),
    lambda r: PayoutChecker(r),
    lambda r: DealerDecisionTable(r),
], ids=["stepper", "play", "announce", "payout", "dealer-table"])
def test_a_bad_record_gives_a_one_line_error_in_the_widget(make: Any, record: Any) -> None:
    widget = make(record)
    assert widget.error is not None and "\n" not in widget.error
    assert widget.error.startswith("This deal cannot be used: ")
    assert 'role="alert"' in widget.html
    assert len(shown_parts(widget)) == 1


def test_a_missing_file_is_named() -> None:
    assert "cannot find the record file 'no/such/file.yaml'" in DealStepper(
        "no/such/file.yaml").error


def test_an_unknown_seat_is_an_error_line() -> None:
    assert "'Z' is not one of the players" in PlayTrainer(example("forced-ace"), seat="Z").error


def test_widgets_take_a_path_text_or_dict() -> None:
    path = OWN_EXAMPLES / "01_seed000_forced_ace.yaml"
    as_path = DealStepper(path)
    as_text = DealStepper(path.read_text())
    as_name = DealStepper(str(path))
    as_dict = DealStepper(load_record(path))
    assert as_path.html == as_text.html == as_name.html == as_dict.html
    assert len(as_path.steps) == 15


# -- thin widgets --------------------------------------------------------------------


def test_widgets_import_no_rule_functions() -> None:
    """The widgets ask the engine; they never import its rule predicates."""
    forbidden = {"legal_leads", "legal_follows", "explain_card", "trick_winner_index"}
    for source in WIDGETS_DIR.glob("*.py"):
        tree = ast.parse(source.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imported = {alias.name for alias in node.names}
                assert not imported & forbidden, (source.name, imported & forbidden)


def test_a_refused_card_leaves_the_hand_buttons_and_table_as_they_were() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    buttons = dict(trainer.buttons)
    table = trainer.table.value
    trainer.buttons["7H"].click()
    assert trainer.verdict is not None and trainer.verdict.rule is RuleId.LEAD_ACE
    assert trainer.buttons == buttons and all(trainer.buttons[k] is b for k, b in buttons.items())
    assert trainer.table.value == table
    trainer.buttons["AH"].click()
    assert "AH" not in trainer.buttons and trainer.buttons["7H"] is buttons["7H"]


def test_the_package_exports_every_widget_it_can_load() -> None:
    import loo_tutor.widgets as package

    assert sorted(package.__all__) == sorted(package._MODULES)
    assert all(getattr(package, name) for name in package.__all__)


def test_enter_in_a_payout_field_checks_the_answers() -> None:
    record = example("forced-ace")
    checker = PayoutChecker(record)
    checker.carried_field.value = check(record)["carried_next"]
    assert checker.results == {}
    checker.carried_field._handle_custom_msg({"event": "submit"}, [])  # what Enter sends
    assert checker.results["carried"].status == "right"
