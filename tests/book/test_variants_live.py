"""The Variants live page runs its comparison widgets in the browser.

Served and driven like tests/book/test_live_browser.py: the page turns live
(Python in the browser), the club-law comparison answers a click on Back
and on Step with the engine's own verdict, and nothing is fetched from
another host or logged as an error.
"""

from __future__ import annotations

from typing import Any

from browser_support import drive_clean, new_page, open_live

VARIANTS_PAGE = "notebooks/variants.html"


def test_variants_page_goes_live_and_steps_both_deals(site: str) -> None:
    drive_clean(site, lambda browser, requests, errors: _step_club_law(
        browser, site, requests, errors))


def _step_club_law(browser: Any, url: str, requests: list[str], errors: list[str]) -> None:
    with new_page(browser, requests, errors) as page:
        app = open_live(page, url, VARIANTS_PAGE, "Right: Club law", "Back")
        widget = app.locator(".loo-widget").filter(has_text="Right: Club law")
        now = widget.locator(".loo-compare-now")
        assert "Both deals are over" in now.inner_text()
        widget.locator("button", has_text="New deal").click()
        now.filter(has_text="The deal as dealt").wait_for(timeout=30_000)
        widget.locator("button", has_text="Play to end").click()
        now.filter(has_text="Both deals are over").wait_for(timeout=30_000)
        rows = widget.locator(".loo-compare-log li")
        played = rows.count()
        assert played > 0
        widget.locator("button", has_text="Back").click()
        now.filter(has_not_text="Both deals are over").wait_for(timeout=30_000)
        assert rows.count() == played - 1
        widget.locator("button", has_text="Step").click()
        now.filter(has_text="Both deals are over").wait_for(timeout=30_000)
        assert rows.count() == played
