"""The practice page runs its session in the browser.

Served and driven like tests/book/test_live_browser.py: the page turns live
(Python in the browser, without matplotlib), a hint is asked for and names
the card the engine's solver names, the card is played and accepted, and
nothing is fetched from another host or logged as an error.
"""

from __future__ import annotations

from typing import Any

from loo_tutor.engine.cards import card_text
from loo_tutor.widgets import PracticeSession

from browser_support import in_browser, new_page, open_live, outside_site

PRACTICE_PAGE = "notebooks/practice.html"
# The notebook's cell, built here too so the test knows the first hint.
SETTINGS: dict[str, Any] = {"players": ["Anna", "Ben", "Carla", "Dan", "Emil"], "seat": "Anna",
                            "deals": 5, "seed": 7}


def test_practice_page_goes_live_and_gives_a_hint(site: str) -> None:
    here = PracticeSession(**SETTINGS)
    here.ask_hint()
    expected = here.hint_text
    card = card_text(here.state.legal_cards()[0])
    assert expected.startswith(f"Play {card}")
    requests: list[str] = []
    errors: list[str] = []
    in_browser(lambda browser: _hint_and_play(browser, site, expected, card, requests, errors))
    assert not outside_site(requests, site), f"requests left the site: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _hint_and_play(browser: Any, url: str, expected: str, card: str, requests: list[str],
                   errors: list[str]) -> None:
    with new_page(browser, requests, errors) as page:
        app = open_live(page, url, PRACTICE_PAGE, "You are Anna.", "Best card and why")
        widget = app.locator(".loo-widget").filter(has_text="You are Anna.")
        widget.locator("button", has_text="Best card and why").click()
        hint = widget.locator(".loo-hint")
        hint.wait_for(timeout=60_000)
        assert hint.inner_text().strip() == expected
        widget.locator("button", has_text=card).first.click()
        widget.locator(".loo-ok").wait_for(timeout=60_000)
        assert widget.locator(".loo-refused").count() == 0
