"""Play a deal from one seat: the reader picks cards, the engine judges them."""

from __future__ import annotations

import html
import os
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial
from typing import Any

import ipywidgets as widgets

from ..analysis.bots import FirstBot, RandomBot
from ..analysis.computer_players import play_on
from ..engine.cards import Card, card_text, parse_card
from ..engine.errors import LooError
from ..engine.observe import observation
from ..engine.pam import PamState
from ..engine.state import Action, CivilLead, DealMachine, DealState, Phase, Play, Seat, Verdict
from ..records.record import replay, replay_deal, trick_start, turn_in_trick
from ..render.markup import (
    RULES_BASE,
    colour_class,
    ledger_html,
    link_rules,
    narration_html,
    rule_link,
    table_html,
)
from ._base import LooWidget, SeatWidget, Source, nothing, read_record, seat_of, unless_failed


def starting_state(source: Source, from_trick: int | None = None) -> DealState | PamState:
    """The state a trainer starts from.

    A :class:`~loo_tutor.engine.state.DealState` is used as it is. A record, of
    three-card Loo or of Pam Loo, is
    replayed: to where it stops (just before its refused action, if it has
    one), or with ``from_trick`` to the moment trick ``from_trick`` is about
    to be led.

    Raises:
        MalformedRecord: the record does not describe a deal.
        LooError: the record never reaches that trick.
    """
    if isinstance(source, DealMachine):
        return source
    states: list[DealState | PamState] = replay_deal(read_record(source)).states
    return states[-1] if from_trick is None else trick_start(states, from_trick)


def _starting_seat(source: Source, seat: Seat | str, from_trick: int | None
                   ) -> tuple[DealState | PamState, Seat]:
    """The state a trainer starts from, and the reader's seat as an index."""
    start = starting_state(source, from_trick)
    return start, seat_of(start, seat)


def hand_box(owner: LooWidget) -> widgets.HBox:
    """The row that holds the reader's card buttons, at the reader's seat of the table."""
    box = owner.part(widgets.HBox)
    box.add_class("loo-hand-row")
    return box


def table_box(owner: LooWidget, table: widgets.HTML, hand: widgets.HBox) -> widgets.Box:
    """The table with the reader's card buttons laid over the empty place of their
    cards (see ``own_hand`` of :func:`~loo_tutor.render.markup.table_html`)."""
    box = owner.part(widgets.Box, [table, hand])
    box.add_class("loo-table-box")
    return box


def update_card_buttons(owner: LooWidget, box: widgets.HBox, buttons: dict[str, widgets.Button],
                        hand: Sequence[Card], lit: Collection[Card], enabled: bool,
                        on_play: Callable[[Card], object], four_colour: bool = False) -> None:
    """Keep one button part of ``owner`` per card in ``hand`` inside ``box``,
    changing only what changed.

    Buttons are reused from click to click (``buttons`` is keyed by card
    text), so a refused card costs the browser no new widgets. Each button
    shows the card as the reader writes it (7♥), drawn like a card in its
    suit's colour, says its spoken name (and "legal" for the cards in
    ``lit``, which are outlined) as its tooltip, and calls ``on_play(card)``
    when clicked. When a played card's button goes, the keyboard focus moves
    to the first card left, so a keyboard user stays in the hand.
    """
    wanted = [str(card) for card in hand]
    gone = [k for k in buttons if k not in wanted]
    for key in gone:
        buttons.pop(key).close()
    for card in hand:
        button = buttons.get(str(card))
        if button is None:
            button = owner.button(card_text(card), card.label, partial(on_play, card))
            button.add_class("loo-card-button")
            button.add_class(colour_class(card, four_colour))
            buttons[str(card)] = button
        legal = card in lit
        button.tooltip = f"{card.label}{' (legal)' if legal else ''}"
        button.disabled = not enabled
        if legal:
            button.add_class("loo-lit")  # both do nothing when nothing changes
        else:
            button.remove_class("loo-lit")
    children = tuple(buttons[key] for key in wanted)
    if box.children != children:
        box.children = children
    if gone and children and enabled:
        children[0].focus()


def verdict_html(verdict: Verdict | None, base: str = RULES_BASE) -> str:
    """The engine's verdict on a card as one line: a tick, or the refusal with its rule."""
    if verdict is None:
        return ""
    if verdict:
        return '<p class="loo-verdict loo-ok">✓ Legal.</p>'
    rule = verdict.rule
    link = "" if rule is None else f" — {rule_link(rule, base)}"
    return (f'<p class="loo-verdict loo-refused">'
            f'✗ Refused: {link_rules(verdict.message, base)}{link}</p>')


class PlayTrainer(SeatWidget[DealState | PamState]):
    """The reader plays one seat; the other seats play automatically.

    Each card of the reader's hand is a button, drawn as the card at the
    reader's seat of the table. A click asks the engine: an illegal card is
    refused on the spot with the rule broken, the engine's explanation and a
    link to the rule, and the cards the rules allow are lit at once; a legal
    card is played, and the other seats then play until it is the reader's
    turn again or the deal is over. A deal that is still announcing is
    announced automatically first (each seat takes its first legal option).
    In a Pam Loo deal a tick box lets the reader say "Pam, be civil" with a
    lead; the engine judges the call with the card. When the deal is over the
    trainer is marked finished (its ``finish`` method).

    Args:
        record_or_state: a deal record (path, text or dict) or a deal state.
        seat: the reader's seat, by index or by name.
        highlight_legal: start with the legal cards highlighted.
        from_trick: with a record, start when this trick is about to be led
            (1 for the first lead); by default start where the record stops.
        seed: ``None`` for automatic players that play their first legal
            card; a number for seeded random legal cards.
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        verdict: the engine's verdict on the reader's last card, or ``None``.
        states: every state of the deal so far, the first being the start.
        buttons: the card buttons, keyed by canonical card text (``"7H"``).
    """

    def __init__(self, record_or_state: Source, seat: Seat | str, highlight_legal: bool = False,
                 from_trick: int | None = None, seed: int | None = None,
                 four_colour: bool = False, rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.buttons: dict[str, widgets.Button] = {}
        self._seed = seed
        self._bot = FirstBot() if seed is None else RandomBot()
        if not self._open(lambda: _starting_seat(record_or_state, seat, from_trick),
                          four_colour, rules_base):
            return
        self.table = self.part(widgets.HTML)
        self.hand = hand_box(self)
        self.ledger = self.part(widgets.HTML)
        self.feedback = self.said()
        self.story = self.part(widgets.HTML)
        self.highlight = self.part(widgets.Checkbox, value=highlight_legal,
                                   description="Highlight legal cards", indent=False,
                                   tooltip="Outline the cards the rules allow you to play")
        self.civil = self.part(widgets.Checkbox, value=False,
                               description="Say \u201cPam, be civil\u201d with my lead",
                               indent=False,
                               tooltip="Lead with the call \u201cPam, be civil\u201d")
        self.reset_button = self.button("Reset", "Start this deal again", self.reset, icon="undo")
        self.highlight.observe(lambda _: self._refresh(), names="value")
        options = [self.highlight, self.reset_button]
        if self._start.pam is not None:
            options.insert(1, self.civil)
        self.show(self.header, table_box(self, self.table, self.hand), self.feedback,
                  self.part(widgets.HBox, options, layout={"flex_flow": "row wrap"}),
                  self.story, self.ledger)
        self.reset()

    @classmethod
    def at_turn(cls, record: str | os.PathLike[str] | Mapping[str, Any] | DealState,
                seat: Seat | str, trick: int,
                **options: Any) -> PlayTrainer:
        """A trainer on the moment the record's own play reaches ``seat``'s turn
        in trick ``trick``: the very position a rule decides.

        ``options`` are those of the constructor. A record that never gives
        ``seat`` that turn makes a trainer that says so on one line.
        """
        try:
            states = replay(read_record(record)).states
            index = seat_of(states[0], seat)
            start = turn_in_trick(states, index, trick)
        except LooError as exc:
            trainer = cls(record, seat, **options)
            trainer._fail(exc)
            return trainer
        return cls(start, index, **options)

    # -- acting ------------------------------------------------------------------

    @unless_failed(nothing)
    def reset(self) -> None:
        """Start again from the first state."""
        self._rng = random.Random(self._seed)
        self._begin(self._start)

    def play(self, card: Card | str) -> Verdict:
        """Try to play ``card`` for the reader, as a click on its button does.

        Returns:
            the engine's verdict; the card is played only when it is legal.
        """
        chosen = parse_card(card) if isinstance(card, str) else card
        if self.civil.value and self._my_turn() and not self.state.trick_cards():
            verdict = self.take(CivilLead(self.seat, chosen))
        else:
            verdict = self.take(Play(self.seat, chosen))
        if verdict and self.state.is_terminal():
            self.reset_button.focus()  # the card buttons are gone: the focus stays here
        return verdict

    def _automatic(self, state: DealState | PamState) -> Action | None:
        if state.phase is Phase.ANNOUNCE or state.current_player() != self.seat:
            return play_on(state, self._bot, self._rng)
        return None

    # -- drawing -------------------------------------------------------------------

    def _my_turn(self) -> bool:
        return self.state.current_player() == self.seat and self.state.phase is Phase.PLAY

    def _lit(self) -> list[Card]:
        """The cards to light: the legal ones, when asked for or after a refusal."""
        refused = self.verdict is not None and not self.verdict
        if self._my_turn() and (self.highlight.value or refused):
            return self.state.legal_cards()
        return []

    def _refresh(self) -> None:
        state = self.state
        name = state.players[self.seat]
        if state.is_terminal():
            where = "The deal is over."
        elif self._my_turn():
            number = len(state.tricks) + 1
            where = (f"Your turn to play to trick {number}: press a card of your hand."
                     if state.trick_cards()
                     else f"Your turn to lead to trick {number}: press a card of your hand.")
        else:
            where = f"{name} is not playing in this deal."
        self.header.value = (f'<p class="loo-header"><strong>You are {html.escape(name)}.</strong> '
                             f'{where}</p>')
        lit = self._lit()
        hand = observation(state, self.seat).hand or ()
        self.table.value = table_html(state, self.seat, self._four, lit, base=self._base,
                                      ledger=False, own_hand=bool(hand))
        update_card_buttons(self, self.hand, self.buttons, hand, lit, self._my_turn(),
                            self.play, self._four)
        self.feedback.value = verdict_html(self.verdict, self._base)
        self.story.value = "".join(narration_html(n, self._base) for n in self.told)
        self.ledger.value = ledger_html(state, self._base) if state.is_terminal() else ""

    def _render(self) -> str:
        return (f"{self.header.value}{self.feedback.value}{self.story.value}{self.table.value}"
                f"{self.ledger.value}")
