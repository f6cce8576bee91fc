"""Announcing in a double deal: a trainer for one seat, and the dealer's decision table."""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import ipywidgets as widgets

from ..engine.errors import LooError
from ..engine.legality import Announcement
from ..engine.rules import RuleId, RuleKey
from ..engine.state import Announce, DealKind, DealMachine, DealState, Phase, Seat, Verdict
from ..records.record import announcing_turn, replay
from ..render.markup import (
    RULES_BASE,
    link_rules,
    narration_html,
    rule_link,
    table_html,
)
from ..teaching.calls import SAYING
from ..teaching.narrate import dealer_rule
from ._base import LooWidget, SeatWidget, Source, nothing, read_record, seat_of, unless_failed
from .play import verdict_html

BUTTONS = {
    Announcement.STAND: ("Stand", "Play the hand you were dealt"),
    Announcement.PASS: ("Pass", "Throw your hand in and sit out this deal"),
    Announcement.MISS: ("Take the miss", "Throw your hand in and play the miss, unseen"),
    Announcement.DEFEND: ("Defend", "Dealer only: play the miss on behalf of the pool"),
}
"""Each announcement's button: its words and its tooltip."""

def announcing_state(source: Source, seat: Seat | str) -> tuple[DealState, Seat]:
    """The state in which ``seat`` is to announce, and the seat as an index.

    A record is replayed up to that seat's turn
    (:func:`~loo_tutor.records.replay.announcing_turn`: if the record stops
    earlier, the seats before it take their first legal option).

    Raises:
        MalformedRecord: the record does not describe a deal.
        LooError: no such seat.
    """
    if isinstance(source, DealMachine):
        return source, seat_of(source, seat)
    states = replay(read_record(source)).states
    index = seat_of(states[0], seat)
    return announcing_turn(states, index), index


def announcement_buttons(owner: LooWidget, on_announce: Callable[[Announcement], object]
                         ) -> dict[str, widgets.Button]:
    """One button part of ``owner`` per announcement, keyed by its word
    (``"pass"``), each calling ``on_announce`` with its announcement when clicked."""
    return {call.value: owner.button(words, tip, partial(on_announce, call))
            for call, (words, tip) in BUTTONS.items()}


class AnnouncementTrainer(SeatWidget[DealState]):
    """The reader announces for one seat: stand, pass, take the miss or defend.

    All four buttons are always offered; the engine judges the choice and the
    widget shows its verdict with the rule, including the dealer's special
    cases (for instance a dealer's pass against a single stander is refused
    under R-ANN-DEALER-SOLE-STAND).

    Args:
        record_or_state: a deal record (path, text or dict) or a deal state.
        seat: the reader's seat, by index or by name.
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        verdict: the engine's verdict on the last button pressed, or ``None``.
        states: the starting state, then the state after a legal announcement.
        buttons: the four buttons, keyed by announcement word (``"pass"``).
    """

    def __init__(self, record_or_state: Source, seat: Seat | str, four_colour: bool = False,
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.buttons: dict[str, widgets.Button] = {}
        if not self._open(lambda: announcing_state(record_or_state, seat), four_colour,
                          rules_base):
            return
        self.feedback = self.said()
        self.table = self.part(widgets.HTML)
        self.buttons = announcement_buttons(self, self.announce)
        self.reset_button = self.button("Reset", "Take the announcement back and try again",
                                        self.reset, icon="undo")
        self.show(self.header,
                  self.part(widgets.HBox, [*self.buttons.values(), self.reset_button]),
                  self.feedback, self.table)
        self.reset()

    @unless_failed(nothing)
    def reset(self) -> None:
        """Go back to the reader's turn to announce."""
        self._begin(self._start)

    def announce(self, call: Announcement | str) -> Verdict:
        """Try an announcement for the reader, as pressing its button does.

        Returns:
            the engine's verdict; the announcement is made only when legal.
        """
        return self.take(Announce(self.seat, Announcement(call)))

    def _done(self) -> bool:
        return True  # an announcement the engine accepts answers the trainer's question

    def _refresh(self) -> None:
        state = self.state
        name = html.escape(state.players[self.seat])
        said = [f"{html.escape(state.players[s])} {a.value}" for s, a in state.announcements]
        so_far = f" So far: {', '.join(said)}." if said else ""
        role = " (the dealer)" if self.seat == state.dealer else ""
        done = len(self.states) > 1
        if done:
            where = "You have announced."
        elif state.phase is Phase.ANNOUNCE and state.current_player() == self.seat:
            where = "Your turn to announce."
        else:
            where = "It is not your turn to announce: try a button to see why."
        self.header.value = (f'<p class="loo-header"><strong>You are {name}{role}.</strong> '
                             f'{where}{so_far}</p>')
        for button in self.buttons.values():
            button.disabled = done
        if done:
            self.reset_button.focus()
        self.feedback.value = verdict_html(self.verdict, self._base) + "".join(
            narration_html(n, self._base) for n in self.told)
        self.table.value = table_html(state, self.seat, self._four, base=self._base)

    def _render(self) -> str:
        return f"{self.header.value}{self.feedback.value}{self.table.value}"


class DealerDecisionTable(LooWidget):
    """Choose what the non-dealers announce; see what the engine lets the dealer do.

    One menu per non-dealer, in announcing order. After each change the
    announcements are put to the engine in turn: a refused one is shown with
    its rule; otherwise each of the dealer's four announcements is checked and
    shown as allowed or refused, with the rule that governs the dealer.

    Args:
        record: a double deal whose hands are used (its announcements and
            tricks are ignored); the shipped ``forced-ace`` deal by default.
        calls: optional starting choices, player name to announcement word.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        options: the dealer's legal announcements for the current choices.
        rule: the rule governing the dealer's choice, or the rule that
            refused a non-dealer's announcement, or ``None``.
    """

    def __init__(self, record: Source | None = None, calls: Mapping[str, str] | None = None,
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.options: list[Announcement] = []
        self.rule: RuleKey | None = None
        self.menus: dict[str, widgets.Dropdown] = {}
        self._base = rules_base
        start = self.attempt(lambda: self._base_state(record))
        if start is None:
            return
        self._start = start
        start = self._start
        wanted = dict(calls or {})
        for number, seat in enumerate(start.order[:-1]):
            name = start.players[seat]
            default = "stand" if number == 0 else "pass"
            menu = self.part(
                widgets.Dropdown, options=[(SAYING[a], a.value) for a in Announcement],
                value=wanted.get(name, default), description=name,
                tooltip=f"What {name} announces",
            )
            menu.observe(lambda _: self._refresh(), names="value")
            self.menus[name] = menu
        self.result = self.said()
        dealer = html.escape(start.players[start.dealer])
        self.show(
            self.part(widgets.HTML, f"<p>The dealer is <strong>{dealer}</strong>. "
                      "Choose the others' announcements:</p>"),
            self.part(widgets.HBox, list(self.menus.values()), layout={"flex_flow": "row wrap"}),
            self.result,
        )
        self._refresh()

    @staticmethod
    def _base_state(record: Source | None) -> DealState:
        if record is None:
            from ..records.data import example

            record = example("forced-ace")
        data: dict[str, Any] = read_record(record)
        data.pop("announce", None)  # only the hands, miss and indicator matter
        data.pop("tricks", None)
        state: DealState = replay(data).states[0]
        if state.kind is not DealKind.DOUBLE:
            raise LooError("the dealer's decision table needs a double deal (carried above 0)")
        return state

    def choose(self, name: str, call: str) -> None:
        """Set what ``name`` announces, as the menu does."""
        self.menus[name].value = call

    def _refresh(self) -> None:
        self.result.value = self._table()

    def _table(self) -> str:
        base = self._base
        state = self._start
        self.options, self.rule = [], None
        for seat in state.order[:-1]:
            call = Announcement(self.menus[state.players[seat]].value)
            verdict = state.check(Announce(seat, call))
            if not verdict:
                self.rule = verdict.rule
                return verdict_html(verdict, base)
            state = state.apply(Announce(seat, call))
        dealer = state.players[state.dealer]
        if state.collected_by is not None:
            self.rule = RuleId.COLLECT
            return (f'<p>Everybody else passed: {html.escape(dealer)} collects the pool '
                    f'without announcing at all ({rule_link(RuleId.COLLECT, base)}).</p>')
        self.options = state.legal_announcements()
        self.rule = dealer_rule(state)
        rows = []
        for call in Announcement:
            verdict = state.check(Announce(state.dealer, call))
            if verdict:
                answer = '<span class="loo-ok">✓ allowed</span>'
            else:
                link = "" if verdict.rule is None else rule_link(verdict.rule, base)
                answer = (f'<span class="loo-bad">✗ refused</span> {link}: '
                          f'{link_rules(verdict.message, base)}')
            rows.append(f'<tr><th scope="row" style="text-align:left;padding:0.15em 0.6em">'
                        f'{SAYING[call]}</th><td style="padding:0.15em 0.6em">{answer}</td></tr>')
        governing = "" if self.rule is None else f" ({rule_link(self.rule, base)})"
        allowed = ", ".join(SAYING[a] for a in self.options)
        return (f'<p><strong>{html.escape(dealer)} may {allowed}</strong>{governing}.</p>'
                f'<table class="loo-decisions" style="border-collapse:collapse">'
                f'<caption style="text-align:left">What the engine says to each of the '
                f"dealer's announcements</caption>{''.join(rows)}</table>")

    def _render(self) -> str:
        return str(self.result.value)
