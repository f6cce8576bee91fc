"""The same deal under two profiles side by side, with where they part and meet again marked.

The widget holds no rules: :mod:`loo_tutor.teaching.compare` plays the two deals and
says where and why they part; this module draws them with
:func:`~loo_tutor.render.markup.table_html` and hands the clicks on.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from ..engine.errors import LooError
from ..engine.profiles import describe, rules_value
from ..engine.rules import Profile
from ..render.markup import RULES_BASE, link_rules, stylesheet, table_html
from ..teaching.compare import (
    PRESETS,
    CompareStep,
    Comparison,
    action_words,
    compare_deals,
    profile_named,
)
from ._base import LooWidget, Source, read_record


def step_lines(steps: Sequence[CompareStep], base: str = RULES_BASE) -> list[str]:
    """The steps of a comparison as list items, in sentences.

    A step both sides take alike is one sentence. The step where the two
    games part says so, and why; so does the step where they meet again.
    Between the two, each side's action is given, with a reason only where a
    rule refused the left side's action on the right or where the reason changes.
    """
    lines = []
    apart = False
    said = ""
    for step in steps:
        left = "waits" if step.left_action is None else action_words(step.left, step.left_action)
        right = ("waits" if step.right_action is None
                 else action_words(step.right, step.right_action))
        classes, head, why = "", "", ""
        if step.repeated:
            what = f"Both sides: {left}."
            if apart:
                classes, head = "loo-diverge", "<strong>Here the two games meet again.</strong> "
            elif step.options_differ:
                classes = "loo-differ"
            why = step.explanation
            apart = False
        else:
            what = f"Left: {left}. Right: {right}."
            if not apart:
                classes, head = "loo-diverge", "<strong>Here the two games part.</strong> "
                why = step.explanation
            elif step.refusal is not None or (step.explanation != said and step.note):
                why = step.explanation
            apart = True
        said = step.explanation if why else said
        reason = f"<br>{link_rules(why, base)}" if why else ""
        lines.append(f'<li class="{classes}" value="{step.number}">{head}'
                     f'{link_rules(what, base)}{reason}</li>')
    return lines


def parting_summary(steps: Sequence[CompareStep]) -> str:
    """Where the two games part and meet again so far, in one sentence.

    >>> parting_summary([])
    'So far the two games go the same way.'
    """
    parts, meets = [], []
    apart = False
    for step in steps:
        if step.diverges and not apart:
            parts.append(step.number)
        elif step.repeated and apart:
            meets.append(step.number)
        apart = step.diverges
    if not parts:
        return "So far the two games go the same way."
    said = f"The two games part at {_steps(parts)}"
    return said + (f" and meet again at {_steps(meets)}." if meets else ".")


def _steps(numbers: Sequence[int]) -> str:
    """``step 4``, ``steps 1 and 5``, ``steps 1, 5 and 9``."""
    words = [str(n) for n in numbers]
    if len(words) == 1:
        return f"step {words[0]}"
    return "steps " + ", ".join(words[:-1]) + " and " + words[-1]


def comparison_html(comparison: Comparison, four_colour: bool = False,
                    base: str = RULES_BASE, names: tuple[str, str] | None = None) -> str:
    """Both tables side by side, the latest step explained, and the list of steps.

    ``names`` are the words for the two sides' rules; by default the
    profiles' own descriptions.
    """
    sides = []
    left, right = names or (comparison.left.name, comparison.right.name)
    for label, name, state in (("Left", left, comparison.left_state),
                               ("Right", right, comparison.right_state)):
        table = table_html(state, four_colour=four_colour, base=base, style=False)
        sides.append(f'<section class="loo-compare-side" aria-label="{label}: '
                     f'{html.escape(name)}"><h4>{label}: {html.escape(name)}</h4>'
                     f'{table}</section>')
    steps = comparison.steps
    if steps:
        last = steps[-1]
        if last.repeated:
            said = f"Step {last.number} (both sides): {last.left_words.text}"
        else:
            said = (f"Step {last.number}. Left: {last.left_words.text or 'waits.'} "
                    f"Right: {last.right_words.text or 'waits.'}")
        mark = f" {last.explanation}" if last.explanation else ""
        now = str(link_rules(said + mark, base))
    else:
        now = html.escape("The deal as dealt under both rules. Press Step to play on.")
    if comparison.is_over():
        now += html.escape(" Both deals are over; each settlement is under its table.")
    log = "".join(step_lines(steps, base))
    body = (f'<div class="loo-compare">'
            f'<p class="loo-compare-now" role="status" aria-live="polite">{now}</p>'
            f'<div class="loo-compare-sides">{"".join(sides)}</div>'
            f'<p>{parting_summary(steps)}</p>'
            f'<ol class="loo-compare-log" aria-label="Steps of the two deals">{log}</ol></div>')
    return stylesheet(body) + body


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
        try:
            if record is not None:
                self._record = read_record(record)
            self.comparison = compare_deals(left, right, seed, record=self._record,
                                            carried=carried, chooser=chooser)
        except LooError as exc:
            self._fail(exc)
            return
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

    def step(self) -> None:
        """Take one step on both sides."""
        if self.error is None:
            self.comparison.step()
            self._show()
            self._finished_both()

    def back(self) -> None:
        """Take the last step back."""
        if self.error is None:
            self.comparison.back()
            self._show()

    def play_to_end(self) -> None:
        """Step until both deals are over."""
        if self.error is None:
            self.message.value = "<p>Playing both deals to the end…</p>"
            self.comparison.play_to_end()
            self._show()
            self._finished_both()

    def _finished_both(self) -> None:
        """Mark the widget finished once the reader has stepped both deals to their end."""
        if self.comparison.is_over():
            self.finish()

    def new_deal(self) -> None:
        """Shuffle a new deal (the next seed) and start both sides again."""
        if self.error is None:
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
