"""The book's deals are the engine's: every table the ``loo-deal`` directive draws
agrees with ``loo_tutor.check`` of the same record, and no card is typed by hand."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from loo_tutor import check
from loo_tutor.engine.cards import CARDS, parse_card
from loo_tutor.engine.errors import LooError
from loo_tutor.render.markup import card_text_html, ledger_html, table_html
from loo_tutor.teaching.answers import parse_amount

import loo_book  # the book's Sphinx extension, in _ext/

ROOT = Path(__file__).parents[2]
BOOK = ROOT / "book"


DIRECTIVE = re.compile(r"^```\{loo-deal\} (\S+)\n:show: ([^\n]+)", re.MULTILINE)
LABEL = re.compile(r'class="loo-card-text [^"]*" role="img" aria-label="([^"]+)"')
BY_LABEL = {card.label: card.text for card in CARDS}


def chips(html: str) -> list[str]:
    """The cards written in ``html``, as card text ("7H")."""
    return [BY_LABEL[label] for label in LABEL.findall(html)]
CARD_TEXT = re.compile(r"(?<![\w`])(?:10|[2-9JQKA])(?:[♠♣♥♦]|[SCHD](?!\w))")
"""A card as the reader sees it (7♥) or as a record writes it (7H)."""
ENGINE_PAGES = {"engine.md", "api.md"}
"""The engine's own pages, which show how records and the API write cards."""


def directives() -> list[tuple[str, str, list[str]]]:
    """Every ``loo-deal`` of the book: page, record and the parts shown."""
    found = []
    for page in sorted(BOOK.glob("*.md")):
        for source, shown in DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            found.append((page.name, source, [part.strip() for part in shown.split(",")]))
    return found


DEALS = directives()


def test_the_book_draws_its_deals_with_the_directive() -> None:
    pages = {page for page, _, _ in DEALS}
    assert {"examples.md", "simple-deal.md", "dealer.md", "play.md", "payout.md"} <= pages
    assert len(DEALS) >= 30


@pytest.mark.parametrize(("page", "source", "shown"), DEALS,
                         ids=[f"{p}:{s}" for p, s, _ in DEALS])
def test_each_drawn_deal_agrees_with_the_checker(page: str, source: str, shown: list[str]
                                                 ) -> None:
    record = loo_book.read_record(source, BOOK)
    result = check(record)
    states, refusal = loo_book.states_of(record)
    assert set(shown) <= set(loo_book.SHOWN)
    assert (refusal is not None) == (result["status"] == "illegal")
    if "hands" in shown:
        rows = loo_book.hands_rows(states)
        hands: dict[str, Any] = record["hands"]
        said = {"stand": "stand", "pass": "pass", "miss": "takes the miss",
                "defend": "defends the pool"}
        announced = record.get("announce") or {}
        players = record["players"]
        for (who, cards, words), name in zip(rows[:len(players)], players, strict=True):
            assert who.split(" ")[0] == name
            assert chips(cards) == [parse_card(c).text for c in hands[name]]
            if name in announced:
                assert words == said[announced[name]]
            elif name == result["collected_by"]:
                assert words == "collects the pool"
            else:
                assert words == ""
        if record.get("miss") is not None:
            assert rows[-1][0] == "miss"
            assert chips(rows[-1][1]) == [parse_card(c).text for c in record["miss"]]
        trump = loo_book.indicator_text(states)
        if result["trump"] is None:
            assert "never turned" in trump
        else:
            assert f"{parse_card(str(record['trump'])).suit.noun}s are trumps" in trump
    if "tricks" in shown:
        drawn = loo_book.trick_rows(states)
        assert len(drawn) == len(result["tricks"])
        for (cards, winner), trick in zip(drawn, result["tricks"], strict=True):
            plays = re.findall(r'(\w+): <span class="loo-cards"><span class="loo-card-text[^"]*" '
                               r'role="img" aria-label="([^"]+)"', cards)
            assert [(player, BY_LABEL[label]) for player, label in plays] == [
                (player, card) for player, card in trick["cards"]]
            assert winner == (trick["winner"] or "in play")
    if "settlement" in shown:
        assert result["status"] == "complete"
        ledger = str(ledger_html(states[-1], loo_book.rules_base("book/x")))
        rows = re.findall(r'<tr><th scope="row">([^<(]+?)(?: \(dealer\))?</th><td>[^<]*</td>'
                          r'<td>([^<]*)</td><td>[^<]*</td><td>([^<]*)</td></tr>', ledger)
        assert [name for name, _, _ in rows] == record["players"]
        for name, received, net in rows:
            # the ledger writes amounts as the reader reads them (−3, 2 1/3)
            assert parse_amount(net, signed=True) == Fraction(result["net"][name])
            assert (parse_amount(received, signed=True) or 0) == Fraction(
                result["payouts"].get(name, "0"))
        carried = re.search(r"Carried to the next deal</th><td>([^<]+)</td>", ledger)
        assert carried is not None and parse_amount(carried.group(1), signed=True) == Fraction(
            result["carried_next"])


def test_cards_in_running_text_are_written_as_the_engine_writes_them() -> None:
    cards = [parse_card("7H"), parse_card("10S")]
    assert loo_book.cards_html(cards) == ('<span class="loo-cards">'
                                          + " ".join(card_text_html(card) for card in cards)
                                          + "</span>")
    assert chips(loo_book.cards_html(cards)) == ["7H", "10S"]
    assert ".loo-red{" in loo_book.INKS and ".loo-black{" in loo_book.INKS


def test_a_moment_the_deal_never_reaches_is_refused_in_one_line() -> None:
    states, _ = loo_book.states_of(loo_book.read_record("king-forced", BOOK))
    with pytest.raises(LooError, match=r"^at: the deal never reaches 'trick 3'$"):
        loo_book.moment(states, "trick 3")
    with pytest.raises(LooError, match="is not dealt, play, end or trick N"):
        loo_book.moment(states, "halfway")


def prose(text: str) -> str:
    """A page without its code: fenced blocks, inline code and {card} roles."""
    text = re.sub(r"^(```+).*?^\1\s*$", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"(\{card\})?`[^`\n]*`", "", text)


@pytest.mark.parametrize("page", sorted(BOOK.glob("*.md")), ids=lambda p: p.name)
def test_no_card_is_typed_by_hand(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert "loo-red" not in text and "#d32f2f" not in text, "hand-coloured card markup"
    if page.name not in ENGINE_PAGES:
        assert CARD_TEXT.findall(prose(text)) == [], "cards outside the {card} role"


def test_the_prose_filter_keeps_what_a_reader_reads() -> None:
    assert CARD_TEXT.findall(prose("A leads 7♥ and {card}`8♥`, `9♥`.")) == ["7♥"]
    assert CARD_TEXT.findall(prose("then 10H, not `JH` nor {card}`QH`; QSX stays.")) == ["10H"]


def test_the_home_pages_first_picture_shows_what_its_caption_says() -> None:
    """The caption names whose view the picture is and says that player sees their own cards."""
    text = (ROOT / "book" / "index.md").read_text(encoding="utf-8")
    directive = re.search(r"```\{loo-deal\} (\S+)\n(.*?)```", text, re.DOTALL)
    assert directive
    options = dict(re.findall(r"^:(\w+): (.*)$", directive.group(2), re.MULTILINE))
    viewer = options["view"]
    assert f"{viewer} may now look at {viewer}'s own three cards" in options["caption"]
    states, _ = loo_book.states_of(loo_book.read_record(directive.group(1), BOOK))
    state = loo_book.moment(states, options["at"])
    drawing = table_html(state, loo_book.seat_of(state, viewer), ledger=False)
    seat = state.players.index(viewer)
    own = [f'aria-label="{card.label}"' for card in state.hands[seat]]
    assert all(label in drawing for label in own), drawing
    faces = re.findall(r'class="loo-card [^"]*" role="img"', drawing)
    assert len(faces) == len(own) + 1  # the player's cards and the indicator, nothing else
