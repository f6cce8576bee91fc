"""A live page whose Python fails, and a live page fed hostile text, in Debian's Chromium.

* Python cannot start (its standard library or the worker's script cannot
  be loaded, as on a network that drops them): the page says so in plain
  words and its saved copy of each widget stays, readable; the saved memory
  that cannot be loaded only leaves later visits to start Python afresh;
* Python stops after the page went live (the worker throws, as it does when
  it runs out of memory): the page says so, tells the reader to reload, and
  the widgets stay drawn as they were, readable but inert;
* text typed into an answer field that would run a script if it were
  written into the page as HTML runs nothing and is shown back as text.
"""

from __future__ import annotations

import re
import time
from typing import Any

from browser_support import LIVE_PAGE, LIVE_TIMEOUT_MS, in_browser, new_page, open_live

EXERCISES_PAGE = "notebooks/exercises.html"
STATUS = ".loo-live-status"
TRAINER_TEXT = "You are A."  # the forced-ace page's trainer


def _state(page: Any) -> str:
    page.wait_for_function(
        "() => ['ready', 'failed', 'stopped'].includes(document.documentElement?.dataset.looLive)",
        timeout=120_000)
    state: str = page.evaluate("document.documentElement?.dataset.looLive")
    return state


def _cannot_start(site: str, blocked: str) -> tuple[str, str, int, list[str]]:
    requests: list[str] = []
    errors: list[str] = []
    seen: list[Any] = []

    def look(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            page.context.route(blocked, lambda route: route.abort("failed"))
            page.goto(f"{site}/{LIVE_PAGE}", wait_until="domcontentloaded")
            seen.append(_state(page))
            seen.append(page.locator(STATUS).inner_text())
            copy = page.locator(".loo-snapshot").filter(has_text=TRAINER_TEXT)
            seen.append(copy.count() if copy.first.is_visible() else 0)

    in_browser(look)
    return seen[0], seen[1], seen[2], errors


def test_python_that_cannot_load_its_standard_library_leaves_the_saved_copy_and_says_why(
        site: str) -> None:
    state, status, copies, _ = _cannot_start(site, "**/_static/pyodide/python_stdlib.zip*")
    assert state == "failed"
    assert "Python could not start in this browser, so the widgets below stay a saved copy." \
        in status
    assert "could not be loaded" in status
    assert "Traceback" not in status and "Error:" not in status
    assert copies == 1, "the trainer's saved copy stays on the page, visible"


def test_a_page_whose_saved_memory_cannot_be_loaded_goes_live_all_the_same(site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    seen: list[str] = []

    def look(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            asked: list[str] = []

            def refuse(route: Any) -> None:
                asked.append(route.request.url)
                route.abort("failed")

            page.context.route("**/_static/pyodide/snapshot.bin.gz*", refuse)
            settled = "() => document.documentElement?.dataset.looLiveSettled === ''"
            open_live(page, site, LIVE_PAGE, TRAINER_TEXT, "7♥")
            page.wait_for_function(settled)
            # The second visit is the one that asks for the saved memory.
            page.reload(wait_until="domcontentloaded")
            page.wait_for_function(settled)
            seen.append(str(len(asked)))
            page.reload(wait_until="domcontentloaded")
            seen.append(_state(page))
            seen.append(page.evaluate("document.documentElement?.dataset.looLiveStart"))

    in_browser(look)
    assert seen == ["1", "ready", "fresh"], "nothing kept: the next visit starts Python afresh"


def test_a_worker_that_cannot_be_loaded_leaves_the_saved_copy(site: str) -> None:
    state, status, copies, _ = _cannot_start(site, "**/_static/live/worker.js*")
    assert state == "failed"
    assert "Python could not start in this browser" in status
    assert copies == 1


def test_python_that_stops_after_going_live_leaves_the_widgets_readable(site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    seen: dict[str, Any] = {}

    def look(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            app = open_live(page, site, LIVE_PAGE, TRAINER_TEXT, "7♥")
            trainer = app.locator(".loo-live-widget .loo-widget").filter(has_text=TRAINER_TEXT)
            # Once the page has kept what it fetches, its worker is the only one
            # (the second, which imports Pyodide's scripts, has ended).
            page.wait_for_function("() => document.documentElement?.dataset.looLiveSettled === ''")
            # The browser tells of the second's end a moment later: wait for it, within bounds.
            deadline = time.monotonic() + LIVE_TIMEOUT_MS / 1000
            while len(page.workers) > 1 and time.monotonic() < deadline:
                page.wait_for_timeout(100)
            assert len(page.workers) == 1, page.workers
            # The worker throws outside any handler, as when its memory runs out.
            page.workers[0].evaluate(
                "() => { setTimeout(() => { throw new Error('out of memory'); }); }")
            # The page hears of it when the worker's error event reaches it.
            page.wait_for_function("() => document.documentElement?.dataset.looLive !== 'ready'",
                                   timeout=LIVE_TIMEOUT_MS)
            seen["state"] = _state(page)
            seen["status"] = page.locator(STATUS).inner_text()
            seen["visible"] = trainer.is_visible() and "7♥" in trainer.inner_text()
            seen["inert"] = trainer.evaluate("el => el.closest('.loo-live-widget').inert")
            seen["enabled"] = trainer.locator("button", has_text="7♥").is_enabled()

    in_browser(look)
    assert seen["state"] == "stopped"
    assert re.search(r"Python stopped in this browser: .* no longer respond\. "
                     r"Reload the page to start again\.", seen["status"]), seen["status"]
    assert seen["visible"], "the trainer stays drawn as it was"
    assert seen["inert"], "and nothing on it can be pressed any more"


def test_hostile_text_typed_in_a_live_answer_field_runs_nothing(site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    seen: dict[str, Any] = {}
    hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'

    def look(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            title = "Exercise 4:"
            app = open_live(page, site, EXERCISES_PAGE, title, "Check")
            widget = app.locator(".loo-live-widget .loo-exercise").filter(has_text=title)
            field = widget.locator("input[type=text]").first
            field.fill(hostile)
            field.press("Enter")
            note = widget.locator(".loo-field-unreadable").first
            note.wait_for(timeout=30_000)
            seen["note"] = note.inner_text()
            seen["pwned"] = page.evaluate("window.pwned === undefined")
            seen["images"] = page.locator(".loo-live-widget img[src=x]").count()
            seen["value"] = field.input_value()

    in_browser(look)
    assert seen["pwned"], "no script ran"
    assert seen["images"] == 0
    assert "cannot read '<img src=x onerror=" in seen["note"], seen["note"]
    assert "\n" not in seen["note"].strip()
    assert seen["value"] == hostile, "the field keeps what was typed"
    assert not errors, errors
