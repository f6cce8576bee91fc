"""The HTML drawn by loo_tutor.render.markup: tables, views, links, ledgers, replays."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from loo_tutor import RuleId, load_record
from loo_tutor.engine.cards import parse_card
from loo_tutor.records.data import example
from loo_tutor.records.record import replay
from loo_tutor.render.markup import (
    card_back_html,
    card_html,
    hand_html,
    ledger_html,
    link_rules,
    narration_html,
    replay_html,
    rule_link,
    session_html,
    step_html,
    stylesheet,
    table_html,
)
from loo_tutor.teaching.narrate import CITED, VARIANT_CITED, Narration, steps

BOOK_RULES = Path(__file__).parents[2] / "book" / "rules.md"
BOOK_VARIANTS = Path(__file__).parents[2] / "book" / "variants.md"


class _Cards(HTMLParser):
    """Collects the text alternatives of every drawn card and card back."""

    def __init__(self) -> None:
        super().__init__()
        self.faces: list[str] = []
        self.backs: list[str] = []
        self.unlabelled = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if "loo-card" in classes or "loo-card-back" in classes:
            label = found.get("aria-label")
            if not label or found.get("role") != "img":
                self.unlabelled += 1
            elif "loo-card" in classes:
                self.faces.append(label)
            else:
                self.backs.append(label)


def cards_in(page: str) -> _Cards:
    parser = _Cards()
    parser.feed(page)
    assert parser.unlabelled == 0, "every card needs role=img and an aria-label"
    return parser


def states(name: str) -> list:
    return replay(example(name)).states


# -- the card functions keep their behaviour -------------------------------------


def test_card_html_without_a_note_is_unchanged() -> None:
    drawn = card_html(parse_card("10H"))
    assert 'aria-label="10 of hearts" title="10 of hearts"' in drawn
    assert card_html(parse_card("10H"), note="legal").count("10 of hearts, legal") == 2


def test_hand_and_back_keep_their_text_alternatives() -> None:
    assert cards_in(hand_html([parse_card("AS"), parse_card("2C")])).faces == [
        "ace of spades", "2 of clubs"]
    assert cards_in(card_back_html()).backs == ["a face-down card"]


# -- rule links ---------------------------------------------------------------------


@pytest.mark.parametrize("rule", list(RuleId))
def test_rule_link_points_at_the_rules_page_anchor(rule: RuleId) -> None:
    link = rule_link(rule)
    assert f'href="../book/rules.html#{rule.label}"' in link
    assert re.sub("<[^>]+>", "", html.unescape(link)) == rule.cited
    assert rule.label == "r-" + rule.value[2:].lower()


def test_rule_link_base_is_configurable() -> None:
    assert 'href="/loo/rules.html#r-follow"' in rule_link(RuleId.FOLLOW, base="/loo/")


def test_every_rule_narration_can_cite_has_a_target_in_the_book() -> None:
    if not BOOK_RULES.exists():
        pytest.fail("book/rules.md is missing")
    targets = set(re.findall(r"^\((r-[a-z-]+)\)=", BOOK_RULES.read_text(), re.MULTILINE))
    missing = sorted(rule.label for rule in CITED if rule.label not in targets)
    assert not missing, f"rules cited by narration but not labelled in book/rules.md: {missing}"


def test_every_variant_rule_narration_can_cite_has_a_target_in_the_variants_chapter() -> None:
    targets = set(re.findall(r"^\((v-[a-z-]+)\)=", BOOK_VARIANTS.read_text(), re.MULTILINE))
    assert {rule.label for rule in VARIANT_CITED} <= targets


def test_link_rules_links_known_ids_only_and_escapes_text() -> None:
    linked = link_rules("<b> R-FOLLOW, R-NOT-A-RULE and R-LEAD-ACE")
    assert "&lt;b&gt;" in linked
    assert linked.count('class="loo-rule"') == 2
    assert "R-NOT-A-RULE" in linked and "#r-not-a-rule" not in linked
    assert 'href="../book/rules.html#r-lead-ace"' in linked


def test_narration_html_links_each_cited_rule() -> None:
    told = Narration("A wins (R-WIN); C is looed (R-LOO).", (RuleId.WIN, RuleId.LOO))
    drawn = narration_html(told, base="x/")
    assert 'href="x/rules.html#r-win"' in drawn and 'href="x/rules.html#r-loo"' in drawn


# -- the table ------------------------------------------------------------------------


def test_tutor_view_shows_every_hand_face_up_and_marks_the_dealer() -> None:
    start = states("forced-ace")[0]
    page = table_html(start)
    drawn = cards_in(page)
    assert len(drawn.faces) == 5 * 3 + 1  # every hand and the turned indicator
    assert drawn.backs.count("a card of the miss, face down") == 3
    assert page.count('class="loo-dealer"') == 1
    assert len(re.findall(r'class="loo-seat[ "]', page)) == 5
    # the dealer's seat, nearest the reader, stands on the table's edge
    assert re.findall(r'class="loo-seat loo-near"[^>]*aria-label="([^"]*)"', page) == ["E, dealer"]


def test_player_view_shows_only_the_players_own_cards() -> None:
    lead = states("forced-ace")[5]  # A to lead trick 1
    drawn = cards_in(table_html(lead, view_seat=0))
    assert {"ace of hearts", "7 of hearts", "king of clubs"} <= set(drawn.faces)
    assert "9 of hearts" not in drawn.faces  # B's card
    assert "queen of spades" not in drawn.faces  # D's thrown-in hand
    assert drawn.backs.count("a card held by B") == 3
    assert drawn.backs.count("a card held by C") == 3


def test_player_view_before_announcing_hides_other_hands() -> None:
    start = states("forced-ace")[0]
    drawn = cards_in(table_html(start, view_seat=1))
    assert "9 of hearts" not in drawn.faces  # B sees nothing until B's turn
    assert drawn.backs.count("a card dealt to A") == 3


def test_hidden_indicator_is_a_labelled_back_until_the_reveal() -> None:
    simple = states("simple-reveal")
    before = cards_in(table_html(simple[0]))
    assert "hidden trump indicator" in before.backs
    assert "2 of hearts, trump indicator" not in before.faces
    after = cards_in(table_html(simple[5]))  # trick 1 complete: trumps revealed
    assert "hidden trump indicator" not in after.backs
    assert "2 of hearts, trump indicator" in after.faces


def test_the_miss_is_face_down_until_its_taker_plays_it() -> None:
    nine = states("nine-unit-pool")
    taken = table_html(nine[2])  # Ben has just taken the miss
    assert "miss taken by Ben" in taken
    assert cards_in(taken).backs.count("a card of the miss, taken unseen") == 3
    playing = cards_in(table_html(nine[5]))  # announcements over
    assert "3 of hearts" in playing.faces


def test_trick_in_play_shows_who_played_what() -> None:
    page = table_html(states("forced-ace")[7])
    assert "Trick 1, in play" in page
    drawn = cards_in(page).faces
    assert "ace of hearts, played by A" in drawn and "9 of hearts, played by B" in drawn


def test_finished_trick_names_its_winner_and_seats_count_tricks() -> None:
    page = table_html(states("forced-ace")[8])
    assert "Trick 1, won by A" in page
    assert "tricks won: 1" in page


def test_highlighted_cards_are_outlined_and_say_so() -> None:
    lead = states("forced-ace")[5]
    page = table_html(lead, highlight=lead.legal_cards())
    assert "ace of hearts, legal" in cards_in(page).faces
    lit = re.findall(r'class="loo-card [^"]*\bloo-lit\b[^"]*"[^>]*aria-label="([^"]*)"', page)
    assert lit == ["ace of hearts, legal"]  # exactly one card is outlined
    assert re.search(r"\.loo-lit\{[^}]*outline:3px", page)
    assert "loo-lit" not in table_html(lead)


def test_four_colours_draw_diamonds_blue() -> None:
    diamonds = states("forced-ace")[0]
    assert re.search(r'class="loo-card loo-blue[^"]*"[^>]*aria-label="[^"]*diamonds',
                     table_html(diamonds, four_colour=True))
    assert "loo-card loo-blue" not in table_html(diamonds)


def test_ledger_after_settlement() -> None:
    final = states("forced-ace")[-1]
    page = table_html(final)
    assert 'class="loo-ledger"' in page
    assert "Carried to the next deal" in page
    assert 'href="../book/rules.html#r-pay-third"' in page
    assert 'class="loo-ledger"' not in table_html(final, ledger=False)
    assert 'class="loo-ledger"' not in table_html(states("forced-ace")[-2])


def test_ledger_rows_come_from_the_settlement() -> None:
    final = states("forced-ace")[-1]
    ledger = ledger_html(final)
    settled = final.settlement()
    for seat, amount in settled.net.items():
        name = final.players[seat]
        # the book's signs: +6, 0, and a true minus, −3
        shown = re.escape(f"+{amount}" if amount > 0
                          else f"\u2212{-amount}" if amount < 0 else "0")
        row = rf">{name}(?: \(dealer\))?</th>(?:(?!<tr>).)*?>{shown}</td></tr>"
        assert re.search(row, ledger), name


@pytest.mark.parametrize("name", ["forced-ace", "nine-unit-pool", "simple-reveal",
                                  "defended-pool", "sole-miss-taker", "dealer-options"])
def test_every_state_draws_with_labelled_cards_in_every_view(name: str) -> None:
    for state in states(name):
        for seat in (None, *range(len(state.players))):
            cards_in(table_html(state, view_seat=seat))


# -- one style sheet per drawing ------------------------------------------------------

STYLE_BLOCK = re.compile(r"<style>(.*?)</style>", re.DOTALL)
SEAT_PLACE = re.compile(r"left:\d+(?:\.\d)?%;(?:top:\d+(?:\.\d)?%|bottom:0)")


def drawings() -> dict[str, str]:
    """One of every top-level drawing, each from a real deal."""
    forced = states("forced-ace")
    story = steps(example("simple-reveal"))
    return {
        "card": card_html(parse_card("QH")),
        "back": card_back_html(),
        "hand": hand_html([parse_card("AS"), parse_card("10D")], four_colour=True),
        "table": table_html(forced[5], highlight=forced[5].legal_cards()),
        "player view": table_html(forced[5], view_seat=0),
        "finished table": table_html(forced[-1]),
        "ledger": ledger_html(forced[-1]),
        "step": step_html(story[5]),
        "replay": replay_html(example("defended-pool")),
        "session": session_html(["A", "B", "C", "D", "E"], [], 5, 4),
    }


@pytest.mark.parametrize("name", list(drawings()))
def test_each_drawing_carries_one_style_sheet_and_no_repeated_inline_styles(name: str) -> None:
    page = drawings()[name]
    assert page.startswith("<style>") and page.count("<style>") == 1, name
    sheet = STYLE_BLOCK.search(page).group(1)
    # Every class the drawing uses that has a look of its own is defined in its sheet.
    used = {c for attr in re.findall(r'class="([^"]*)"', page) for c in attr.split()}
    for wanted in {"loo-card", "loo-card-back", "loo-seat", "loo-table", "loo-ledger"} & used:
        assert f".{wanted}" in sheet, (name, wanted)
    # The only inline style left is where a seat sits round the table.
    for inline in re.findall(r'style="([^"]*)"', page):
        assert SEAT_PLACE.fullmatch(inline), (name, inline)
    assert cards_in(page)


def test_a_drawing_inside_another_leaves_the_style_sheet_to_it() -> None:
    final = states("forced-ace")[-1]
    assert "<style>" not in table_html(final, style=False)
    assert "<style>" not in ledger_html(final, style=False)
    assert "<style>" not in card_html(parse_card("QH"), style=False)
    assert table_html(final) == stylesheet(table_html(final, style=False)) + table_html(
        final, style=False)


def test_the_style_sheet_holds_only_the_rules_a_drawing_needs() -> None:
    assert stylesheet("<p>no classes</p>") == ""
    card = card_html(parse_card("QH"))
    assert ".loo-red{color:var(--loo-red-ink,#c8102e)}" in card and ".loo-seat" not in card
    assert ".loo-lit" not in table_html(states("forced-ace")[5])


def test_the_player_to_act_and_the_dealer_are_marked_by_class() -> None:
    page = table_html(states("forced-ace")[5])
    acting = re.findall(r'<div class="loo-seat[^"]*" role="group" aria-label="([^"]*)" data-to-act',
                        page)
    assert acting == ["A, to act"]
    assert ".loo-seat[data-to-act]{" in page
    assert ".loo-dealer," in page and 'class="loo-you"' not in page
    assert ".loo-you{background:#0b57d0}" in table_html(states("forced-ace")[5], view_seat=0)


# -- the static replay ------------------------------------------------------------------


def test_replay_html_draws_every_step_with_narration() -> None:
    page = replay_html(example("forced-ace"))
    assert page.count('class="loo-step"') == 15
    assert page.count('class="loo-narration"') == 15
    assert 'href="../book/rules.html#r-lead-ace"' in page
    assert page._repr_html_() == page


def test_replay_html_reads_a_path_and_shows_a_refusal() -> None:
    path = Path(__file__).parents[1] / "data" / "examples" / "31_follow_suit.yaml"
    page = replay_html(str(path))
    assert ('Refused: C may not play <span class="loo-card-text loo-black" role="img" '
            'aria-label="9 of clubs">9♣</span>') in page
    assert page == replay_html(load_record(path))


def test_replay_html_of_a_bad_record_is_one_line() -> None:
    page = replay_html({"players": "nobody"})
    assert page.startswith('<p class="loo-error"') and "\n" not in page
