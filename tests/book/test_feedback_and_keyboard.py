"""Feedback where the eye is, and the widgets with the keyboard alone.

On every page of the built book that shows widgets, at 390 px (a phone),
each widget's buttons are pressed one by one, as a reader would: each is
first brought to the middle of the screen, then pressed. Every verdict,
refusal, hint or check summary that the press changes (the parts a screen
reader reads out, an ARIA live region) must then be inside the screen, next
to what was pressed. (That the table of a stepper or a trainer fits on a
1280 x 800 screen with the buttons that move its deal on is checked as each
page is opened in tests/book/test_pages_on_every_screen.py.)

Then the forced-ace page is used with the keyboard alone: the stepper is
stepped to its last step with Enter, a trainer's deal is played to its end,
and an exercise is answered and checked; the keyboard's focus stays in the
widget each time, even when the button pressed last is disabled or gone.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_pages_on_every_screen import widget_pages

from browser_support import ANSWERED, LIVE_TIMEOUT_MS, SETTLE

LIVE = "() => ['ready', 'failed'].includes(document.documentElement?.dataset.looLive)"
SAID = ".loo-said"
"""The parts that say verdicts, refusals, hints and check summaries (ARIA live regions)."""
MESSAGES = f"{SAID}, .loo-compare-now"
"""Those, and the line that says what the last step of a comparison did."""

_PRESS_AND_LOOK = """async () => {
  const skip = /^(New variant|New session|New deal|Start again|Reset|Show solution)$/;
  const checked = [], wrong = [];
  const answered = (widget) => (""" + ANSWERED + """)(widget, 150, 60000);
  const shown = (el) => el.getClientRects().length && el.innerText.trim();
  for (const widget of document.querySelectorAll('.loo-widget')) {
    if (!widget.getClientRects().length || widget.parentElement.closest('.loo-widget')) continue;
    const buttons = [...widget.querySelectorAll('button')]
      .filter(b => !b.disabled && b.getClientRects().length && !skip.test(b.innerText.trim()));
    for (const button of buttons.slice(0, 8)) {
      if (!button.isConnected || button.disabled || !button.getClientRects().length) continue;
      const messages = () => [...widget.querySelectorAll('""" + MESSAGES + """')];
      const before = messages().map(el => el.innerText);
      button.scrollIntoView({block: 'center', behavior: 'instant'});
      const name = button.innerText.trim();
      const answer = answered(widget);
      button.click();
      await answer;
      messages().forEach((el, i) => {
        if (!shown(el) || el.innerText === before[i]) return;
        const box = el.getBoundingClientRect();
        const first = el.querySelector('p, div') || el;
        const top = first.getBoundingClientRect().top;
        checked.push(name);
        if (top < 0 || top + Math.min(box.height, 60) > innerHeight)
          wrong.push(`after "${name}", "${el.innerText.trim().slice(0, 50)}" is at ` +
                     `${Math.round(top)} px, outside the ${innerHeight} px screen`);
      });
    }
  }
  return {checked, wrong};
}"""
"""Press each widget's buttons (eight at most, not the ones that start over), each
brought to the middle of the screen first; what the presses said, and where."""

def _open(page: Any, site: str, path: str) -> None:
    page.goto(f"{site}/{path}", wait_until="domcontentloaded")
    page.wait_for_function(LIVE, timeout=LIVE_TIMEOUT_MS)
    assert page.evaluate("document.documentElement?.dataset.looLive") == "ready", path
    page.evaluate(SETTLE)


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    return chromium


def test_what_a_press_says_shows_next_to_it_on_a_phone(site: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    wrong: dict[str, list[str]] = {}
    checked: dict[str, int] = {}
    try:
        for path in widget_pages():
            _open(page, site, path)
            found = page.evaluate(_PRESS_AND_LOOK)
            checked[path] = len(found["checked"])
            if found["wrong"]:
                wrong[path] = found["wrong"]
    finally:
        context.close()
    assert not wrong, json.dumps(wrong, indent=1, ensure_ascii=False)
    # The presses said something to look at on the trainers' and the exercises' pages.
    for path in ("notebooks/forced-ace.html", "notebooks/exercises.html",
                 "notebooks/trainers.html", "notebooks/practice.html"):
        assert checked.get(path), (path, checked)


_FOCUS_IN = "(name) => !!document.activeElement.closest('.loo-widget')?.innerText.includes(name)"


def _focused(page: Any) -> str:
    return str(page.evaluate("document.activeElement.innerText || document.activeElement.tagName"))


def test_the_widgets_work_with_the_keyboard_alone_and_keep_its_focus(site: str,
                                                                    browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        _open(page, site, "notebooks/forced-ace.html")

        # The stepper: Enter on "Next" until the last step, where "Next" is disabled.
        stepper = page.locator(".loo-live-widget .loo-widget").filter(has_text="Jump to").first
        forward = stepper.locator("button", has_text="Next ▶")
        forward.focus()
        for _ in range(60):
            if forward.is_disabled():
                break
            page.keyboard.press("Enter")
            page.evaluate(SETTLE)
        assert forward.is_disabled(), "the stepper never reached its last step"
        assert page.evaluate(_FOCUS_IN, "Jump to"), f"the focus left the stepper: {_focused(page)}"
        assert _focused(page) == "◀ Back"
        # Every step button is named in words, not by its arrow alone.
        names = stepper.locator("button").all_inner_texts()
        assert all(any(c.isalpha() for c in name) for name in names), names

        # The trainer: each card pressed with Enter, from the hand, until the deal is over.
        trainer = page.locator(".loo-live-widget .loo-widget").filter(has_text="You are A.")
        cards = trainer.locator("button.loo-card-button")
        for _ in range(12):
            if "The deal is over" in trainer.inner_text():
                break
            lit = trainer.locator("button.loo-card-button.loo-lit:enabled")
            button = lit.first if lit.count() else cards.first
            button.focus()
            page.keyboard.press("Enter")
            page.evaluate(SETTLE)
            said = trainer.locator(SAID)
            assert said.get_attribute("aria-live") == "polite"
        assert "The deal is over" in trainer.inner_text()
        assert page.evaluate(_FOCUS_IN, "You are A."), f"the focus left the trainer: {_focused(page)}"
    finally:
        context.close()


def test_an_exercise_is_answered_and_checked_with_the_keyboard(site: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        _open(page, site, "notebooks/exercises.html")
        exercise = page.locator(".loo-live-widget .loo-exercise").filter(
            has_text="Which cards may be played?").first
        check = exercise.locator("button", has_text="Check").first
        check.focus()
        page.keyboard.press("Enter")
        summary = exercise.locator(".loo-summary").first
        summary.wait_for(timeout=30_000)
        assert "Nothing to check yet" in summary.inner_text()
        box = exercise.locator("input[type=checkbox]").first
        box.focus()
        page.keyboard.press("Space")
        assert box.is_checked()
        check.focus()
        page.keyboard.press("Enter")
        expect(summary).to_contain_text(re.compile(r"\d+ of \d+ answers? right"), timeout=30_000)
        assert page.evaluate(_FOCUS_IN, "Which cards may be played?")
        assert exercise.locator(SAID).first.get_attribute("aria-live") == "polite"
    finally:
        context.close()
