"""The widgets with the keyboard alone.

The forced-ace page is used with the keyboard alone: the stepper is stepped
to its last step with Enter, a trainer's deal is played to its end, and an
exercise is answered and checked; the keyboard's focus stays in the widget
each time, even when the button pressed last is disabled or gone. (That what
a press says shows next to what was pressed, on a phone, is checked as each
page with widgets is walked in tests/book/test_pages_on_every_screen.py.)
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect
from test_pages_on_every_screen import SAID

from browser_support import LIVE_TIMEOUT_MS, SETTLE

LIVE = "() => ['ready', 'failed'].includes(document.documentElement?.dataset.looLive)"


def _open(page: Any, site: str, path: str) -> None:
    page.goto(f"{site}/{path}", wait_until="domcontentloaded")
    page.wait_for_function(LIVE, timeout=LIVE_TIMEOUT_MS)
    assert page.evaluate("document.documentElement?.dataset.looLive") == "ready", path
    page.evaluate(SETTLE)


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    return chromium


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
