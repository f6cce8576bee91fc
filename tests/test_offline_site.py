"""The built site works on a network that lets nothing out, and survives random clicks.

A school network may block every host but the one serving the site. These
tests serve ``_build/html`` on 127.0.0.1 and drive Debian's Chromium with
every request to another host refused (Playwright routing aborts it):

* every page of the book renders: a title, its text, no error in the
  console;
* every notebook page still goes live (Python starts in the browser from the
  site's own files, and the page's app, ``lite/voici/render/...``, replaces
  the saved widgets) and its widgets react: a monkey uses eight controls at
  random on each page (``tests/monkey.py``), and after each click every deal
  on show is re-checked with the engine here, outside the browser, and
  compared with what the widget draws. No console error, no Python error.

The monkey's long run, 1,000 clicks, is ``benchmarks/monkey.py``. A missing
Chromium is a failure, never a skip.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import in_browser, serve_directory
from monkey import Tally, problems_with, run_page, watch

from loo_tutor.data import example
from loo_tutor.widgets import PlayTrainer

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
CLICKS_PER_PAGE = 8
SEED = 2026


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The built site on a free port of 127.0.0.1."""
    for needed in (HTML / "index.html", HTML / "lite" / "static" / "pyodide" / "pyodide.js"):
        if not needed.exists():
            pytest.fail(f"{needed.relative_to(ROOT)} is missing: build the site first (./dev build)")
    with serve_directory(HTML) as url:
        yield url


def _pages() -> list[str]:
    """Every page of the book (the app pages it embeds are opened by the live test)."""
    return sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                  if not p.relative_to(HTML).as_posix().startswith(("_static/", "_sources/",
                                                                     "lite/")))


def _live_pages() -> list[str]:
    return sorted(f"notebooks/{p.name}" for p in (HTML / "notebooks").glob("*.html"))


def test_every_page_renders_with_other_hosts_blocked(site: str) -> None:
    pages = _pages()
    assert "index.html" in pages and "notebooks/forced-ace.html" in pages
    tally = Tally()
    shown: dict[str, tuple[str, int]] = {}

    def visit(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        watch(context, page, site, tally, offline=True)
        try:
            for relative in pages:
                tally.last = relative
                reply = page.goto(f"{site}/{relative}", wait_until="load")
                assert reply is not None and reply.ok, relative
                page.wait_for_timeout(200)
                page.wait_for_load_state("load")  # the start page forwards to the book's
                shown[relative] = (page.title(), len(page.inner_text("body").strip()))
        finally:
            context.close()

    in_browser(visit)
    empty = [p for p, (title, length) in shown.items() if not title or length < 40]
    assert not empty, f"pages that show nothing: {empty}"
    assert not tally.errors, "\n".join(tally.errors)
    assert not tally.outside, f"requests to other hosts (refused): {sorted(set(tally.outside))}"


def test_live_pages_go_live_offline_and_survive_random_clicks(site: str) -> None:
    pages = _live_pages()
    assert len(pages) >= 5, pages
    tally = Tally()

    def work(browser: Any) -> None:
        for path in pages:
            run_page(browser, site, path, CLICKS_PER_PAGE, SEED, tally, offline=True)

    in_browser(work)
    assert tally.pages == pages
    assert tally.clicks == CLICKS_PER_PAGE * len(pages)
    assert tally.checks >= tally.clicks, "the deals on show were not read back"
    assert not tally.problems, "\n".join(tally.problems[:20])
    assert not tally.errors, "\n".join(tally.errors[:20])
    assert not tally.outside, f"requests to other hosts: {sorted(set(tally.outside))}"


# -- the monkey's judge, without a browser ----------------------------------------------


def _shown_by(trainer: PlayTrainer) -> dict[str, Any]:
    """What the monkey reads from a trainer's page, taken from the widget itself."""
    value = trainer.table.value
    start = value.index('class="loo-record">') + len('class="loo-record">')
    text = value[start:value.index("</script>", start)]
    state = trainer.state
    acting = state.current_player()
    return {"json": text,
            "acting": None if acting is None else state.players[acting],
            "hand": [{"text": b.description, "disabled": b.disabled,
                      "title": b.tooltip.removesuffix(" (legal)")}
                     for b in trainer.buttons.values()]}


def test_the_judge_accepts_what_a_trainer_shows_and_catches_a_wrong_display() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    shown = _shown_by(trainer)
    assert json.loads(shown["json"])["seat"] == "A"
    assert problems_with(shown) == []

    wrong_seat = dict(shown, acting="B")
    assert any("marks 'B' to act" in p for p in problems_with(wrong_seat))
    extra_card = dict(shown, hand=[*shown["hand"], {"text": "2♣", "disabled": False,
                                                    "title": "2 of clubs"}])
    assert any("card buttons show" in p for p in problems_with(extra_card))
    asleep = dict(shown, hand=[dict(b, disabled=True) for b in shown["hand"]])
    assert any("disabled when it is their turn" in p for p in problems_with(asleep))
    record = json.loads(shown["json"])
    record["record"]["tricks"] = [["7H"]]  # A may not lead 7H: R-LEAD-ACE
    assert any("illegal" in p for p in problems_with(dict(shown, json=json.dumps(record))))
    assert problems_with(dict(shown, json="{not json")) != []
