"""Step through a recorded deal, one action at a time, with narration."""

from __future__ import annotations

import ipywidgets as widgets

from ..engine.cards import Card
from ..engine.observe import hidden_cards
from ..engine.pam import PamState
from ..engine.state import DealState, Seat
from ..render.markup import RULES_BASE, step_html
from ..teaching.narrate import Narration, Step, steps
from ._base import LooWidget, Source, nothing, read_record, seat_of, unless_failed


class DealStepper(LooWidget):
    """A deal replayed step by step: buttons, a step number field, a menu of actions.

    Each step shows its narration, with the rules linked to the book, above
    the table. A record that ends in an illegal action gets a last step
    showing the refusal. The step field and the menu also work on a static
    page without a kernel: they are linked to the pages in the browser. Once
    the reader reaches the last step the stepper is marked finished
    (its ``finish`` method). A Pam Loo record is
    stepped through as well.

    Args:
        record: a deal record: a file path, its text or a dict.
        four_colour: draw diamonds blue and clubs green.
        view_seat: draw only what this player (index or name) may see;
            ``None`` shows every hand.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        steps: the narrated steps (empty when the record is unusable).
        view_seat: the seat whose view is drawn, ``None`` for every hand.
    """

    def __init__(self, record: Source, four_colour: bool = False,
                 view_seat: Seat | str | None = None, rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.steps: list[Step] = []
        self.view_seat: Seat | None = None
        read = self.attempt(lambda: self._steps(record, view_seat))
        if read is None:
            return
        self.steps, seat = read
        self.view_seat = seat
        self._pages = [step_html(s, four_colour, seat, rules_base) for s in self.steps]
        last = len(self.steps) - 1
        pages = [self.part(widgets.HTML, page) for page in self._pages]
        self.stack = self.part(widgets.Stack, pages, selected_index=0)
        self.field = self.part(widgets.BoundedIntText, value=0, min=0, max=last,
                               description="Step", tooltip="Type a step, or use the arrow keys")
        self.field.add_class("loo-step-field")
        self.menu = self.part(widgets.Dropdown,
                              options=[(s.title, i) for i, s in enumerate(self.steps)],
                              value=0, description="Jump to",
                              tooltip="Jump to any action of the deal")
        self.first_button = self.button("|◀ First", "First step: the deal as dealt", self.first)
        self.back_button = self.button("◀ Back", "Previous step", self.back)
        self.forward_button = self.button("Next ▶", "Next step", self.forward)
        self.last_button = self.button("Last ▶|",
                                       "Last step: the settlement, or the refused action",
                                       self.last)
        widgets.jslink((self.field, "value"), (self.stack, "selected_index"))
        widgets.jslink((self.field, "value"), (self.menu, "index"))
        self.field.observe(self._moved, names="value")
        self.menu.observe(self._picked, names="value")
        controls = self.part(widgets.HBox, [
            self.first_button, self.back_button,
            self.part(widgets.HBox, [self.field, self.part(widgets.Label, f"of {last}")]),
            self.forward_button, self.last_button, self.menu])
        self.show(controls, self.stack)
        self._moved()

    @staticmethod
    def _steps(record: Source, view_seat: Seat | str | None) -> tuple[list[Step], Seat | None]:
        """The steps of ``record``'s deal, and the seat whose view is shown (``None``: all).

        Raises:
            LooError: the record is not a deal, or has no such seat.
        """
        found = steps(read_record(record))
        return found, None if view_seat is None else seat_of(found[0].state, view_seat)

    @unless_failed(frozenset)
    def hidden_cards(self) -> frozenset[Card]:
        """The cards face down at every step: a step-through shows each step on demand."""
        return frozenset.intersection(*(hidden_cards(s.state, self.view_seat) for s in self.steps))

    # -- navigation ------------------------------------------------------------

    @property
    def index(self) -> int:
        """The step shown, 0 being the deal as dealt."""
        return int(self.field.value) if self.steps and self.error is None else 0

    @unless_failed(nothing)
    def go(self, index: int) -> None:
        """Show step ``index``, clamped to the steps there are."""
        self.field.value = max(0, min(index, len(self.steps) - 1))

    def first(self) -> None:
        """Show the deal as dealt."""
        self.go(0)
        self._keep_focus(self.forward_button)

    def back(self) -> None:
        """Show the previous step."""
        self.go(self.index - 1)
        self._keep_focus(self.forward_button)

    def forward(self) -> None:
        """Show the next step."""
        self.go(self.index + 1)
        self._keep_focus(self.back_button)

    def last(self) -> None:
        """Show the last step: the settlement, or the refused action."""
        self.go(len(self.steps) - 1)
        self._keep_focus(self.back_button)

    def _keep_focus(self, other: widgets.Button) -> None:
        """After a button's press has disabled it (the first or the last step), move
        the keyboard focus to ``other``, so that it stays in the stepper."""
        if self.error is None and not other.disabled and (
                self.index in (0, len(self.steps) - 1)):
            other.focus()

    def _moved(self, change: object = None) -> None:
        index = self.index
        self.stack.selected_index = index
        self.menu.value = index
        self.first_button.disabled = self.back_button.disabled = index == 0
        self.forward_button.disabled = self.last_button.disabled = index == len(self.steps) - 1
        if change is not None and index == len(self.steps) - 1:
            self.finish()

    def _picked(self, change: object = None) -> None:
        self.go(int(self.menu.value))

    # -- what is shown ---------------------------------------------------------

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.steps[self.index]

    @property
    def state(self) -> DealState | PamState:
        """The deal as it stands at the step shown."""
        return self.step.state

    @property
    def narration(self) -> Narration:
        """The narration of the step shown."""
        return self.step.narration

    def _render(self) -> str:
        return self._pages[self.index]
