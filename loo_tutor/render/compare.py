"""The same deal under two profiles side by side, as HTML: both tables, the
latest step explained, and the list of steps with where the two games part
and meet again (:mod:`loo_tutor.teaching.compare` plays the deals and says why)."""

from __future__ import annotations

import html
from collections.abc import Sequence

from ..teaching.compare import CompareStep, Comparison, action_words
from .markup import RULES_BASE, link_rules, stylesheet, table_html

__all__ = ["comparison_html", "parting_summary", "step_lines"]


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
