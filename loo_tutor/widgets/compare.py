"""The same deal under two profiles side by side, with where they part and meet again marked.

The widget holds no rules: :mod:`loo_tutor.teaching.compare` plays the two deals and
says where and why they part; :mod:`loo_tutor.render.compare` draws them; this
module holds the menus and buttons and hands the clicks on.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from ..engine.errors import LooError
from ..engine.profiles import describe, rules_value
from ..engine.rules import Profile
from ..render.compare import comparison_html
from ..render.markup import RULES_BASE
from ..teaching.compare import PRESETS, Comparison, compare_deals, profile_named
from ._base import LooWidget, Source, nothing, read_record, unless_failed


class VariantCompare(LooWidget):
    """Play one deal under two rule profiles side by side.

    Pick a profile for each side (the bundles and each option of SPEC §11.1),
    then Step, Back, Play to end or deal a New deal. The left side's choices
    are repeated on the right whenever the right side's rules allow them;
    where they do not, the step is highlighted with the rule that refused it
    and a sentence saying why.

    Args:
        left: the left profile: a name of :data:`loo_tutor.teaching.compare.PRESETS`
            or a record's ``rules`` value.
        right: the right profile, likewise.
        seed: shuffles the pack and seeds the players' choices.
        record: a deal record (file path, text or dict) to take the table and
            cards from instead of shuffling; New deal then shuffles.
        carried: the carried balance of shuffled deals (0 makes most deals simple).
        chooser: ``"thumb"`` (beginner's rules of thumb) or ``"random"``.
        steps: how many steps to take before showing, ``None`` for all of
            them (a static page then shows the whole comparison).
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's pages are, for the rule links.

    Attributes:
        comparison: the two deals being stepped.
    """

    def __init__(self, left: Any = "limited", right: Any = "club_law", seed: int = 0,
                 record: Source | None = None, carried: int = 3, chooser: str = "thumb",
                 steps: int | None = 0, four_colour: bool = False,
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.seed = seed
        self.carried = carried
        self.chooser = chooser
        self.four_colour = four_colour
        self.rules_base = rules_base
        self._record: Mapping[str, Any] | None = None
        self._extra: dict[str, Any] = {}
        comparison = self.attempt(lambda: self._first(record, left, right))
        if comparison is None:
            return
        self.comparison = comparison
        if steps is None:
            self.comparison.play_to_end()
        for _ in range(steps or 0):
            self.comparison.step()
        self.left_picker = self._picker("Left rules", self.comparison.left.profile)
        self.right_picker = self._picker("Right rules", self.comparison.right.profile)
        self.step_button = self.button("Step", "Take one step on both sides", self.step)
        self.back_button = self.button("Back", "Take the last step back", self.back)
        self.end_button = self.button("Play to end", "Play both deals to the end",
                                      self.play_to_end)
        self.new_button = self.button("New deal", "Shuffle a new deal for both sides",
                                      self.new_deal)
        self.view = self.part(widgets.HTML)
        self.message = self.part(widgets.HTML)
        self.left_picker.observe(self._picked, names="value")
        self.right_picker.observe(self._picked, names="value")
        controls = self.part(widgets.HBox, [self.step_button, self.back_button,
                                            self.end_button, self.new_button])
        pickers = self.part(widgets.HBox, [self.left_picker, self.right_picker])
        self.show(pickers, controls, self.message, self.view)
        self._show()

    def _first(self, record: Source | None, left: Any, right: Any) -> Comparison:
        """The comparison first shown: of ``record``'s deal, or of a shuffled one."""
        if record is not None:
            self._record = read_record(record)
        return compare_deals(left, right, self.seed, record=self._record,
                             carried=self.carried, chooser=self.chooser)

    def _picker(self, label: str, profile: Profile) -> widgets.Dropdown:
        options = [*PRESETS, *self._extra]
        chosen = _preset_of(profile)
        if chosen is None:  # a profile given as a mapping that no preset matches
            chosen = describe(profile)
            self._extra[chosen] = rules_value(profile)
            options.append(chosen)
        return self.part(widgets.Dropdown, options=[(menu_label(o), o) for o in options],
                         value=chosen, description=label,
                         tooltip=f"{label}: limited Loo, a bundle, or limited Loo with one "
                                 "option changed",
                         style={"description_width": "initial"})

    # -- actions ---------------------------------------------------------------

    @unless_failed(nothing)
    def step(self) -> None:
        """Take one step on both sides."""
        self.comparison.step()
        self._show()
        self._finished_both()

    @unless_failed(nothing)
    def back(self) -> None:
        """Take the last step back."""
        self.comparison.back()
        self._show()

    @unless_failed(nothing)
    def play_to_end(self) -> None:
        """Step until both deals are over."""
        self.message.value = "<p>Playing both deals to the end…</p>"
        self.comparison.play_to_end()
        self._show()
        self._finished_both()

    def _finished_both(self) -> None:
        """Mark the widget finished once the reader has stepped both deals to their end."""
        if self.comparison.is_over():
            self.finish()

    @unless_failed(nothing)
    def new_deal(self) -> None:
        """Shuffle a new deal (the next seed) and start both sides again."""
        self.seed += 1
        self._record = None
        self._restart()

    def _picked(self, change: object = None) -> None:
        self._restart()

    def _restart(self) -> None:
        left = self._extra.get(self.left_picker.value, self.left_picker.value)
        right = self._extra.get(self.right_picker.value, self.right_picker.value)
        try:
            self.comparison = compare_deals(left, right, self.seed, record=self._record,
                                            carried=self.carried, chooser=self.chooser)
        except LooError as exc:
            self.message.value = f'<p class="loo-error" role="alert">{html.escape(str(exc))}</p>'
            return
        self._show()

    # -- drawing -----------------------------------------------------------------

    def _show(self) -> None:
        over = self.comparison.is_over()
        self.step_button.disabled = self.end_button.disabled = over
        self.back_button.disabled = not self.comparison.steps
        self.message.value = ""
        self.view.value = self._render()

    def _render(self) -> str:
        names = (menu_label(self.left_picker.value), menu_label(self.right_picker.value))
        return comparison_html(self.comparison, self.four_colour, self.rules_base, names)


_MENU_WORDS = {
    "limited": "Limited Loo",
    "blenheim": "The Blenheim rules",
    "stakes: everyone": "Everyone stakes",
    "loo: unlimited": "An unlimited loo (pays the pool)",
    "loo: mixed(10)": "A loo pays the pool, up to 10",
    "single_pot: miss": "A single pot may take the miss",
    "reveal: immediate": "The hidden trump turns at once",
    "simple_ace_duty": "The forced ace in simple deals too",
    "miss_position: first": "The miss dealt first",
    "two_player_top_trump": "Two players in lead the top trump",
    "trump_lead: opening": "Only the opening lead must be a trump",
    "no_heading": "No duty to head",
    "club_law": "Club law",
    "irish": "Irish Loo",
    "three_card_flush": "The three-card flush",
    "irish + three_card_flush": "Irish Loo with the three-card flush",
    "undivided": "Undivided Loo",
}


def menu_label(name: str) -> str:
    """The words a rules menu shows for a preset (``"Club law"``), or the
    profile's own description for any other profile."""
    return _MENU_WORDS.get(name, name)


def _preset_of(profile: Profile) -> str | None:
    """The name of the preset that is ``profile``, if any."""
    for name, value in PRESETS.items():
        if profile_named(value) == profile:
            return name
    return None
