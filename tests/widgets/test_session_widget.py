"""The session widget, driven headlessly: deal after deal, the ledger, the final split.

Every expected figure comes from the engine: the widget's own
:class:`~loo_tutor.engine.session.Session`, or a second session with the same seed
played beside it. No balance is typed into these tests.
"""

from __future__ import annotations

from fractions import Fraction
from html.parser import HTMLParser
from itertools import pairwise

import pytest

from loo_tutor.engine.session import Session
from loo_tutor.engine.sim import play_out
from loo_tutor.render.markup import table_html
from loo_tutor.widgets import SessionLedger

FIVE = ["A", "B", "C", "D", "E"]
SIX = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


class _Rows(HTMLParser):
    """The text of every cell in the body of the session's ledger table."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self._in_body = False
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tbody":
            self._in_body = True
        elif self._in_body and tag == "tr":
            self.rows.append([])
        elif self._in_body and tag in ("td", "th"):
            self._cell = []
        elif self._cell is not None and tag == "br":
            self._cell.append(", ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False
        elif self._cell is not None and tag in ("td", "th"):
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def ledger_rows(widget: SessionLedger) -> list[list[str]]:
    parser = _Rows()
    parser.feed(widget.ledger.value)
    return parser.rows


def signed(amount: Fraction) -> str:
    """The book's signs: +6, 0, and a true minus, −3."""
    return f"+{amount}" if amount > 0 else f"\u2212{-amount}" if amount < 0 else "0"


@pytest.mark.parametrize(("players", "deals", "seed"), [(FIVE, 5, 1), (FIVE, 10, 7), (SIX, 6, 2)])
def test_clicking_through_matches_a_session_played_beside_it(players: list[str], deals: int,
                                                             seed: int) -> None:
    widget = SessionLedger(players=players, deals=deals, seed=seed)
    twin = Session(players, deals, seed=seed)
    assert widget.rows == [] and widget.session.first_dealer == twin.first_dealer
    for number in range(1, deals + 1):
        widget.next_button.click()
        final = play_out(twin.start_deal(), twin.rng)
        twin.finish_deal(final)
        row = widget.rows[number - 1]
        assert row.state is not None
        assert row.state.hands == final.hands and row.state.dealer == final.dealer
        assert row.state.tricks == final.tricks
        assert dict(enumerate(row.balances)) == twin.ledger.balances
        assert row.pool == twin.ledger.pool == final.settlement().carried_next
        assert row.total == twin.ledger.total() == 0
        assert sum(row.balances) + row.pool == 0
    final_balances = twin.end()
    closing = widget.rows[-1]
    assert len(widget.rows) == deals + 1 and closing.state is None
    assert widget.session.balances() == final_balances
    assert dict(zip(players, closing.balances, strict=True)) == final_balances
    assert closing.pool == 0 and sum(closing.balances) == 0 == closing.total
    assert widget.session.leaders() == twin.leaders()


def test_the_ledger_table_shows_the_engines_figures_row_by_row() -> None:
    widget = SessionLedger(players=FIVE, deals=5, seed=11)
    for _ in range(5):
        widget.next_deal()
        shown = ledger_rows(widget)
        deal_rows = [r for r in widget.rows if r.state is not None]
        assert len([r for r in shown if r[0] != "End"]) == len(deal_rows)
        for cells, row in zip(shown, deal_rows, strict=False):
            state = row.state
            assert state is not None
            settled = state.settlement()
            assert cells[1] == state.players[state.dealer]
            assert cells[2] == state.kind.value
            assert cells[3] == str(state.pool)
            for seat, amount in settled.payouts.items():
                assert f"{state.players[seat]} " in cells[4] and str(amount) in cells[4]
            looed = [state.players[s] for s in settled.looed]
            assert cells[5] == (", ".join(looed) or "—")
            assert cells[6] == str(row.pool)
            assert cells[7:12] == [signed(b) for b in row.balances]
            assert cells[12] == "0 ✓"
    end = ledger_rows(widget)[-1]
    closing = widget.rows[-1]
    assert end[0] == "End"
    assert end[-7:-1] == [str(closing.pool), *(signed(b) for b in closing.balances)]
    assert end[-1] == "0 ✓"


def test_the_dealer_passes_to_the_left_each_deal() -> None:
    widget = SessionLedger(players=SIX, deals=8, seed=5)
    widget.play_to_end()
    dealers = [row.state.dealer for row in widget.rows if row.state is not None]
    first = widget.session.first_dealer
    assert dealers[0] == first
    for before, after in pairwise(dealers):
        assert after == (before + 1) % len(SIX)
    assert [cells[1] for cells in ledger_rows(widget)[:-1]] == [SIX[d] for d in dealers]


def test_the_last_pool_is_shared_equally_and_the_balances_then_sum_to_zero() -> None:
    widget = SessionLedger(players=FIVE, deals=5, seed=3)
    widget.end_button.click()
    last_deal, closing = widget.rows[-2], widget.rows[-1]
    assert last_deal.pool > 0  # this seed leaves something to share
    assert len(set(closing.shares)) == 1
    assert sum(closing.shares) == last_deal.pool
    for seat, share in enumerate(closing.shares):
        assert closing.balances[seat] == last_deal.balances[seat] + share
    assert sum(closing.balances) == 0 and closing.pool == 0
    assert sum(widget.session.ledger.balances.values()) + widget.session.ledger.pool == 0
    share = closing.shares[0]
    assert f"The last pool of {last_deal.pool} is shared equally: {share} each" in widget.html
    assert "rules.html#r-session-end" in widget.html


def test_the_winner_is_the_sessions_leader() -> None:
    widget = SessionLedger(players=FIVE, deals=5, seed=3)
    assert "wins the session" not in widget.html
    widget.play_to_end()
    leaders = widget.session.leaders()
    best = max(widget.session.ledger.balances.values())
    assert leaders and all(widget.session.balances()[name] == best for name in leaders)
    assert " and ".join(leaders) in widget.html and signed(best) in widget.html
    assert "rules.html#r-session-result" in widget.html
    assert widget.next_button.disabled and widget.end_button.disabled
    widget.next_button.click()  # nothing more to play
    assert len(widget.rows) == 6


def test_each_deals_table_can_be_picked_from_the_menu() -> None:
    widget = SessionLedger(players=FIVE, deals=5, seed=8, played=3)
    assert len(widget.rows) == 3 and len(widget.tables.children) == 5  # a page for every deal
    assert [bool(page.value) for page in widget.tables.children] == [True] * 3 + [False] * 2
    assert widget.shown == 2 and widget.tables.selected_index == 2
    widget.menu.index = 0
    assert widget.tables.selected_index == 0
    first = widget.rows[0].state
    assert first is not None
    assert widget.tables.children[0].value == table_html(first)
    assert widget.html.endswith(table_html(first))
    assert 'class="loo-ledger"' in widget.tables.children[0].value  # its settlement
    assert widget.menu.options[0][0].startswith(
        f"Deal 1: {first.players[first.dealer]} deals, pool {first.pool}")


def test_starting_again_replays_the_same_seeded_session() -> None:
    widget = SessionLedger(players=FIVE, deals=5, seed=4)
    widget.play_to_end()
    played = [(r.balances, r.pool) for r in widget.rows]
    widget.restart_button.click()
    assert widget.rows == [] and widget.shown is None
    assert not any(page.value for page in widget.tables.children)
    assert not widget.next_button.disabled and widget.restart_button.disabled
    widget.play_to_end()
    assert [(r.balances, r.pool) for r in widget.rows] == played


def test_seeds_make_different_sessions() -> None:
    def balances(seed: int) -> tuple[Fraction, ...]:
        return SessionLedger(players=FIVE, deals=5, seed=seed, played=5).rows[-1].balances

    assert balances(1) == balances(1)
    assert any(balances(1) != balances(seed) for seed in range(2, 8))


def test_buttons_are_labelled() -> None:
    widget = SessionLedger(seed=1)
    for button in (widget.next_button, widget.end_button, widget.restart_button):
        assert button.description and button.tooltip


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"players": ["A", "B", "C", "D"]}, "4 players"),
    ({"deals": 0}, "deals: 0"),
    ({"players": ["A", "A", "B", "C", "D"]}, "different name"),
])
def test_a_session_that_cannot_be_played_is_a_one_line_error(kwargs: dict[str, object],
                                                              words: str) -> None:
    widget = SessionLedger(**kwargs)  # type: ignore[arg-type]
    assert widget.error is not None and words in widget.error and "\n" not in widget.error
    assert 'role="alert"' in widget.html
    # the hidden style sheet, then the error
    assert [c.layout.display for c in widget.children] == ["none", None]
