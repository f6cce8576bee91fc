"""The built book shows the forced-ace widgets offline, in a real browser.

The test serves ``_build/html`` on 127.0.0.1 and opens the forced-ace
notebook page in Debian's Chromium through Playwright. The saved widgets are
in the page as HTML, shown even with scripts turned off. In a browser that
cannot run Python (here: one without WebAssembly) they are drawn again by
the vendored widget manager from the state saved at build time, with no
kernel, and their slider works. Every request the page makes is recorded,
and any request that leaves 127.0.0.1 fails the test. Another test picks
deals from the session widget's menu on the payout page, which also works
without a kernel.

The book is built first only when ``_build/html`` is missing or older than
its sources (the ``book`` fixture of tests/conftest.py). A missing Chromium
is a failure, not a skip: CI installs it, and a skipped browser test proves
nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from loo_tutor.engine.cards import card_text
from loo_tutor.teaching.exercises import make

PAGE = "notebooks/forced-ace.html"
LOCAL_HOSTS = {"127.0.0.1"}
LOCAL_SCHEMES = {"data", "blob", "about"}
# A browser without WebAssembly, which cannot run Python: the live pages
# stay a saved copy and load the widget manager to draw it.
NO_PYTHON = "delete window.WebAssembly"


def test_saved_widgets_are_in_the_page_itself(site: str, chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 2000},
                                   java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site}/{PAGE}", wait_until="load")
        saved = page.locator(".loo-snapshot")
        assert saved.count() == 2  # the stepper and the trainer
        table = saved.first.locator(".loo-table")
        assert table.count() == 1 and table.is_visible()
        assert table.locator('[aria-label="4 of hearts, trump indicator"]').count() == 1
        stepper = saved.first.locator("button")
        assert stepper.count() == 4 and all(b.is_disabled() for b in stepper.all())
        trainer = saved.nth(1)
        assert "You are A." in trainer.inner_text()
        assert trainer.locator("button", has_text="7♥").is_disabled()
        assert page.locator(".jupyter-widgets").count() == 0  # no widget manager ran
    finally:
        context.close()


def test_forced_ace_page_shows_saved_widgets_without_leaving_localhost(
        site: str, chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 2000})
    context.add_init_script(NO_PYTHON)
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    try:
        page.goto(f"{site}/{PAGE}", wait_until="load")
        widgets = page.locator(".jupyter-widgets")

        # The stepper's table, drawn from the saved widget state, with text
        # alternatives on its cards.
        table = widgets.locator(".loo-table").first
        table.wait_for(state="visible", timeout=30_000)
        assert page.locator(".loo-snapshot").count() == 0  # drawn in place of the HTML copies
        # The page says why its widgets stay a saved copy, and signals it.
        assert page.evaluate("document.documentElement?.dataset.looLive") == "failed"
        assert "This browser cannot run Python." in page.locator(".loo-live-status").inner_text()
        assert table.locator('[aria-label="ace of hearts"]').count() == 1
        assert table.locator('[aria-label="hidden trump indicator"]').count() == 0
        assert table.locator('[aria-label="4 of hearts, trump indicator"]').count() == 1
        assert widgets.locator("button", has_text="▶|").count() == 1
        narration = widgets.locator(".loo-narration").first
        assert "double deal" in narration.inner_text()
        link = narration.locator("a.loo-rule").first
        assert link.get_attribute("href").startswith("../book/rules.html#r-")

        # The step field is linked to the steps in the browser, so it moves
        # through the deal even without a kernel.
        widgets.locator(".loo-step-field input").first.focus()
        page.keyboard.press("ArrowUp")
        page.wait_for_function(
            "() => [...document.querySelectorAll('.loo-narration')]"
            ".some(p => p.offsetParent !== null && p.innerText.startsWith('A stands'))",
            timeout=10_000,
        )

        # The trainer for seat A: its card buttons and A's cards face up.
        trainer = page.locator(".loo-widget").filter(has_text="You are A.")
        assert trainer.count() == 1
        assert trainer.locator("button", has_text="7♥").count() == 1
        assert trainer.locator("button", has_text="A♥").count() == 1
        assert trainer.locator('[aria-label="a card held by B"]').count() == 3
    finally:
        context.close()

    assert requests, "the page made no requests at all"
    outside = [url for url in requests
               if urlsplit(url).scheme not in LOCAL_SCHEMES
               and urlsplit(url).hostname not in LOCAL_HOSTS]
    assert not outside, f"requests left 127.0.0.1: {outside}"


def test_session_menu_shows_each_deal_without_a_kernel(site: str, chromium: Any) -> None:
    """The session widget's deal menu is linked to its tables in the browser."""
    context = chromium.new_context(viewport={"width": 1280, "height": 1600})
    context.add_init_script(NO_PYTHON)
    page = context.new_page()
    try:
        page.goto(f"{site}/notebooks/payout.html", wait_until="load")
        widget = page.locator(".loo-widget").filter(has=page.locator(".loo-session"))
        widget.locator(".loo-session").wait_for(state="visible", timeout=30_000)
        options = [o.inner_text().replace("\xa0", " ")
                   for o in widget.locator("select option").all()]
        assert len(options) >= 2
        # every deal has its row in the ledger, and the closing split follows them
        assert widget.locator(".loo-session tbody tr").count() == len(options) + 1
        for index in (0, len(options) - 1, 1):
            label = re.fullmatch(r"Deal (\d+): (.+) deals, pool (\S+)", options[index])
            assert label, options[index]
            widget.locator("select").select_option(index=index)
            table = widget.locator(".loo-table").first
            pool = table.locator(".loo-pool")
            pool.filter(has_text=f"Pool {label.group(3)} ").wait_for(timeout=10_000)
            dealer = table.locator(".loo-seat", has=page.locator(".loo-dealer"))
            assert dealer.get_attribute("aria-label").startswith(label.group(2))
            assert widget.locator(".loo-table").count() == 1  # only the chosen deal is drawn
    finally:
        context.close()


# -- the exercises page ---------------------------------------------------------------

EXERCISES_PAGE = "notebooks/exercises.html"
EXERCISE_SEED = 2024  # the seed the notebook gives every exercise


def test_exercises_page_shows_every_type_from_saved_state_without_leaving_localhost(
        site: str, chromium: Any, book: Path) -> None:
    # Answering needs a kernel, so this checks each exercise as drawn from the
    # state saved at build time against the engine's exercise for that seed.
    if not (book / EXERCISES_PAGE).exists():
        pytest.fail(f"the book build has no {EXERCISES_PAGE}: is it in _toc.yml?")
    context = chromium.new_context(viewport={"width": 1280, "height": 2000})
    context.add_init_script(NO_PYTHON)
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    try:
        page.goto(f"{site}/{EXERCISES_PAGE}", wait_until="load")
        exercises = page.locator(".loo-exercise")
        exercises.first.wait_for(state="visible", timeout=30_000)
        assert exercises.count() == 7  # the six types, and one made from a record

        # Exercise 1: the engine's question, and a check box named by each
        # card as the reader sees it (10♦).
        first = make(1, EXERCISE_SEED)
        shown = exercises.nth(0)
        assert first.question in shown.inner_text()
        for card in first.hand:  # type: ignore[attr-defined]
            named = shown.locator(".widget-checkbox", has_text=card_text(card))
            assert named.count() == 1, card
        cards = shown.locator('.loo-card-text[role="img"][aria-label]')
        assert cards.count() >= len(first.field("cards").labels)
        for words in ("Check", "Show solution", "New variant"):
            assert shown.locator("button", has_text=words).count() == 1
        assert shown.locator("input[type=number]").input_value() == str(EXERCISE_SEED)

        # Every other type shows its own question; settling has a text box
        # for each amount.
        for index in range(1, 6):
            assert make(index + 1, EXERCISE_SEED).question in exercises.nth(index).inner_text()
        settle = make(4, EXERCISE_SEED)
        amounts = [f for f in settle.fields if f.form == "amount"]
        assert exercises.nth(3).locator("input[type=text]").count() == len(amounts)
        score_line = page.locator(".loo-score-line").first.inner_text()
        assert score_line.startswith("Score of this visit: no exercise checked yet"), score_line

        # The narrative page of the part links to this one.
        page.goto(f"{site}/book/exercises.html", wait_until="load")
        assert page.locator('a[href$="notebooks/exercises.html"]').count() >= 1
    finally:
        context.close()

    outside = [url for url in requests
               if urlsplit(url).scheme not in LOCAL_SCHEMES
               and urlsplit(url).hostname not in LOCAL_HOSTS]
    assert not outside, f"requests left 127.0.0.1: {outside}"
