"""A whole session at one table: deal after deal, the ledger, the final split."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from ..engine.session import Session
from ..engine.sim import play_out
from ..engine.state import DealState, Seat
from ..engine.three_card import three_card_deal
from ..render.markup import RULES_BASE, SessionRow, session_html, table_html
from ._base import LooWidget, nothing, unless_failed

DEFAULT_PLAYERS = ("Anna", "Ben", "Carla", "Dan", "Emil")
"""The table the widget seats when no names are given."""


class SessionLedger(LooWidget):
    """A session dealt and played with seeded random legal choices, with its ledger.

    *Next deal* has the engine's :class:`~loo_tutor.engine.session.Session` book the
    ante, shuffle, cut and deal, plays the deal out with
    :func:`~loo_tutor.engine.sim.play_out` and books its settlement; the ledger
    gains a row. *Play to the end* does that for every deal left. After the
    last agreed deal the session shares out the pool and names the winner.
    Any deal played can be picked from the menu to see its table. The menu
    is linked to the tables in the browser, so it also works on a static page
    without a kernel.

    The widget only reads what the session and each finished deal report;
    it decides nothing itself.

    Args:
        players: the names in clockwise seating order (5 to 8 of them).
        deals: the agreed number of deals.
        seed: seeds the first dealer, every shuffle and cut, and every choice
            of play; the same seed gives the same session.
        first_dealer: the first dealer's seat; drawn at random when ``None``.
        played: how many deals to play straight away (up to ``deals``).
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        session: the engine's session, as it stands.
        rows: one row per settled deal, then the closing split.

    >>> ledger = SessionLedger(["A", "B", "C", "D", "E"], deals=5, seed=3)
    >>> ledger.next_button.click(); len(ledger.rows), ledger.rows[0].total
    (1, Fraction(0, 1))
    >>> ledger.play_to_end(); ledger.rows[-1].pool, ledger.session.leaders()
    (Fraction(0, 1), ['E'])
    """

    def __init__(self, players: Sequence[str] = DEFAULT_PLAYERS, deals: int = 5,
                 seed: int | None = None, first_dealer: Seat | None = None, played: int = 0,
                 four_colour: bool = False, rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.rows: list[SessionRow] = []
        self._args: dict[str, Any] = {"players": players, "deals": deals, "seed": seed,
                                      "first_dealer": first_dealer}
        session = self.attempt(lambda: Session(**self._args))
        if session is None:
            return
        self.session = session
        self._four = four_colour
        self._base = rules_base
        self.next_button = self.button("Next deal", "Deal, play and settle the next deal",
                                       self.next_deal, button_style="primary")
        self.end_button = self.button("Play to the end",
                                      "Play every deal that is left, then share out the pool",
                                      self.play_to_end)
        self.restart_button = self.button("Start again",
                                          "Back to before the first deal, with the same seed",
                                          self.restart, icon="undo")
        self.ledger = self.part(widgets.HTML)
        self.menu = self.part(widgets.Dropdown, options=[], description="Show deal",
                              tooltip="Pick a deal to see its table and settlement")
        # One page per deal from the start, filled in as the deals are played:
        # a Stack whose children change while the menu's jslink moves its
        # selected_index made the browser draw a page it had not received yet.
        pages = [self.part(widgets.HTML, layout={"width": "100%"})
                 for _ in range(self.session.deals)]
        self.tables = self.part(widgets.Stack, pages, selected_index=None)
        widgets.jslink((self.menu, "index"), (self.tables, "selected_index"))
        self.menu.observe(self._picked, names="index")
        self.show(self.part(widgets.HBox, [self.next_button, self.end_button,
                                                  self.restart_button]),
                         self.ledger, self.menu, self.tables)
        for _ in range(played):
            self.next_deal()
        self._update()

    # -- playing ---------------------------------------------------------------

    @unless_failed(nothing)
    def next_deal(self) -> None:
        """Deal, play and settle the next deal; after the last, share out the pool."""
        if self.session.is_over():
            return
        session = self.session
        dealt = three_card_deal(session.start_deal())  # the ledger's sessions play limited Loo
        final = play_out(dealt, session.rng)
        session.finish_deal(final)
        self.rows.append(self._row(final))
        if session.is_over():
            before = dict(session.ledger.balances)
            session.end()
            shares = tuple(session.ledger.balances[seat] - before[seat]
                           for seat in range(len(session.players)))
            self.rows.append(self._row(None, shares))
        number = len(session.history)
        dealer = final.players[final.dealer]
        page = table_html(final, four_colour=self._four, base=self._base)
        self.tables.children[number - 1].value = page
        self.menu.options = (*self.menu.options,
                             (f"Deal {number}: {dealer} deals, pool {final.pool}", number - 1))
        self.menu.index = number - 1
        self._update()

    @unless_failed(nothing)
    def play_to_end(self) -> None:
        """Play every deal that is left, then share out the pool."""
        while not self.session.is_over():
            self.next_deal()

    @unless_failed(nothing)
    def restart(self) -> None:
        """Go back to before the first deal: a new session with the same seed."""
        self.session = Session(**self._args)
        self.rows = []
        self.menu.options = []
        for page in self.tables.children:
            page.value = ""
        self._update()

    def _row(self, final: DealState | None, shares: tuple[Fraction, ...] = ()) -> SessionRow:
        """The ledger as the session has it now, after ``final`` or the split."""
        ledger = self.session.ledger
        balances = tuple(ledger.balances[seat] for seat in range(len(self.session.players)))
        return SessionRow(final, balances, ledger.pool, ledger.total(), shares)

    # -- what is shown -----------------------------------------------------------

    def _picked(self, change: object = None) -> None:
        self.tables.selected_index = self.menu.index

    def _update(self) -> None:
        session = self.session
        over = session.is_over()
        winners = session.leaders() if over else []
        first = session.first_dealer
        assert first is not None
        self.ledger.value = session_html(session.players, self.rows, session.deals, first,
                                         winners, self._base)
        self.next_button.disabled = self.end_button.disabled = over
        self.restart_button.disabled = not self.rows
        self.menu.disabled = not self.rows

    @property
    def shown(self) -> int | None:
        """The index of the deal whose table is shown (0 for the first), or ``None``."""
        index = self.menu.index
        return None if index is None else int(index)

    def _render(self) -> str:
        shown = self.shown
        table = "" if shown is None else self.tables.children[shown].value
        return f"{self.ledger.value}{table}"
