"""The built site needs no other host, works on a network that lets nothing out, survives clicks.

A school network may block every host but the one serving the site. These
tests read ``_build/html``, serve it on 127.0.0.1 and drive Debian's
Chromium with every request to another host refused (the browser window
reaches other hosts through a proxy where nothing listens, ``OFFLINE``):

* no page names another host to load anything from: no script, style
  sheet, image, frame or font address, and no address in a page's own
  scripts and styles (a theme's constant, an ``import()``), whether or not
  it is ever fetched;
* in one walk of every page, going from page to page in one browser window
  as a reader does:
  * every page of the book renders (a title, its text, no error in the
    console) and makes no request to another host, its network left to go
    quiet;
  * every page with widgets goes live (Python starts in the browser from
    the site's own files and each widget comes alive in place; the first
    page starts Python from nothing, the others with the site's files in
    the window's cache) and its widgets react: a monkey uses eight controls
    at random on each page (``tests/monkey_clicks.py``), and after each click
    every deal on show is re-checked with the engine here, outside the
    browser, and compared with what the widget draws. No console error, no
    Python error.

The monkey's long run, 1,000 clicks, is ``benchmarks/monkey.py``. A missing
Chromium is a failure, never a skip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loo_tutor.records.data import example
from loo_tutor.widgets import PlayTrainer

from browser_support import HTML, LIVE_PAGE, LIVE_TIMEOUT_MS, built_site, in_browser
from leaks import open_widgets
from monkey_clicks import DEALS_ON_SHOW, PYTHON_IN_REACH, Tally, play, problems_with, window

CLICKS_PER_PAGE = 8
SEED = 2026
# Where a page names an address to load: a tag that fetches (script, image,
# frame, media; a style sheet, icon or preload link) ...
_FETCHING_TAG = re.compile(
    r"<(?:script|img|iframe|source|audio|video|embed|track|input)\b[^>]*\bsrc\s*=\s*[\"']?(?P<src>[^\"'\s>]+)"
    r"|<link\b(?=[^>]*\brel\s*=\s*[\"']?(?:stylesheet|icon|preload|modulepreload|prefetch|manifest))"
    r"[^>]*\bhref\s*=\s*[\"']?(?P<href>[^\"'\s>]+)", re.IGNORECASE)
# ... and the page's own scripts and style sheets, where any address is one
# that code could load from.
_INLINE = re.compile(r"<(?P<tag>script|style)\b[^>]*>(?P<body>.*?)</(?P=tag)>",
                     re.DOTALL | re.IGNORECASE)
_OTHER_HOST = re.compile(r"(?:https?:)?//[a-z0-9-]+(?:\.[a-z0-9-]+)+", re.IGNORECASE)
# Text in a page's scripts that names an address but loads nothing: the
# saved widgets' state and the code of the page's cells (JSON, never run
# as a script), and XML namespaces of drawings.
_DATA_SCRIPT = re.compile(r'type="application/(?:vnd\.jupyter\.widget-(?:state|view)\+)?json"')
_NAMESPACE = re.compile(r"https?://www\.w3\.org/")
_FETCHED_ALL = """() => { const page = document.documentElement?.dataset;  // none between pages
  return !!page && (page.looLive === undefined || page.looLive === 'failed'
                    || page.looLiveSettled !== undefined); }"""
"""Whether the page has nothing more to fetch: it has no live widgets, or their Python
failed or says it has fetched all it needs."""


@pytest.fixture(scope="module")
def site(book: Path) -> Iterator[str]:
    """The built site, its worker's Pyodide kept in the monkey's reach."""
    with built_site(appended=PYTHON_IN_REACH) as url:
        yield url


def _pages() -> list[str]:
    """Every page of the book."""
    return sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                  if not p.relative_to(HTML).as_posix().startswith(("_static/", "_sources/")))


def _live_pages() -> list[str]:
    """Every page with live widgets (the build gives them the live page's script)."""
    return [p for p in _pages() if 'data-loo-live="page"' in (HTML / p).read_text(encoding="utf-8")]


def _addresses_to_load(text: str) -> list[str]:
    found = [m.group("src") or m.group("href") for m in _FETCHING_TAG.finditer(text)]
    found = [u for u in found if _OTHER_HOST.match(u)]
    for inline in _INLINE.finditer(text):
        opening = inline.group(0)[:inline.group(0).index(">") + 1]
        if inline.group("tag").lower() == "script" and _DATA_SCRIPT.search(opening):
            continue
        found += [u for u in _OTHER_HOST.findall(inline.group("body")) if not _NAMESPACE.match(u)]
    return found


def test_no_page_names_another_host_to_load_from(site: str) -> None:
    pages = _pages()
    assert LIVE_PAGE in pages and "index.html" in pages
    offenders = [f"{page}: {url}" for page in pages
                 for url in _addresses_to_load((HTML / page).read_text(encoding="utf-8"))]
    assert not offenders, "pages that name another host to load from:\n" + "\n".join(offenders[:40])


def test_the_start_page_forwards_to_the_first_page_and_names_the_icon(book: Path) -> None:
    """A page that names no icon makes a browser that stays on it ask for /favicon.ico,
    which the site does not have: a failed request in the server's log and the console."""
    start = (HTML / "index.html").read_text(encoding="utf-8")
    forward = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', start)
    icon = re.search(r'<link rel="icon" href="([^"]+)"', start)
    assert forward and (HTML / forward.group(1)).is_file(), start
    assert icon and (HTML / icon.group(1)).is_file(), start


def test_the_scan_finds_an_address_in_a_theme_constant_or_a_tag() -> None:
    assert _addresses_to_load('<script>const THEBE_JS_URL = "https://unpkg.com/thebe@0.8.2"</script>')
    assert _addresses_to_load('<script>import("https://cdnjs.cloudflare.com/mermaid.js")</script>')
    assert _addresses_to_load('<link rel="stylesheet" href="//fonts.googleapis.com/css">')
    assert _addresses_to_load('<img src="https://example.org/a.png">')
    assert not _addresses_to_load('<a href="https://example.org/">a link to read</a>')
    assert not _addresses_to_load('<script type="application/json">["https://example.org"]</script>')
    assert not _addresses_to_load('<script src="../_static/live/live.js"></script>')


def test_the_window_on_a_closed_network_reaches_the_site_alone(site: str) -> None:
    """The browser window these tests use refuses every other host, and says so.

    Refused by the window itself (its proxy), not by a machine that happens to have no
    way out.
    """
    tally = Tally()
    said: dict[str, str] = {}
    failures: list[str] = []

    def visit(browser: Any) -> None:
        with window(browser, site, tally) as page:
            page.context.on("requestfailed",
                            lambda request: failures.append(str(request.failure)))
            reply = page.goto(f"{site}/book/rules.html", wait_until="load")
            said["site"] = "reached" if reply is not None and reply.ok else "refused"
            said["other"] = page.evaluate("fetch('http://example.org/loo').then("
                                          "() => 'reached', () => 'refused')")

    in_browser(visit)
    assert said == {"site": "reached", "other": "refused"}
    assert tally.outside == tally.blocked == ["http://example.org/loo"]
    assert failures == ["net::ERR_PROXY_CONNECTION_FAILED"]


def test_every_page_renders_offline_and_its_widgets_survive_random_clicks(site: str) -> None:
    pages, live = _pages(), _live_pages()
    assert LIVE_PAGE in live and len(live) >= 5, live
    tally = Tally()
    shown: dict[str, tuple[str, int]] = {}

    def visit(browser: Any) -> None:
        with window(browser, site, tally) as page:
            for relative in pages:
                tally.last = relative
                if relative in live:
                    play(page, site, relative, CLICKS_PER_PAGE, SEED, tally)
                else:
                    reply = page.goto(f"{site}/{relative}", wait_until="load")
                    assert reply is not None and reply.ok, relative
                # Late requests (fonts, a live page's Python), and the start
                # page, which forwards to the book's first page; a live page's
                # worker may still fetch the saved memory for later visits.
                page.wait_for_load_state("networkidle")
                page.wait_for_function(_FETCHED_ALL, timeout=LIVE_TIMEOUT_MS)
                shown[relative] = (page.title(), len(page.inner_text("body").strip()))

    in_browser(visit)
    empty = [p for p, (title, length) in shown.items() if not title or length < 40]
    assert not empty, f"pages that show nothing: {empty}"
    assert tally.pages == live
    assert tally.clicks == CLICKS_PER_PAGE * len(live)
    assert tally.checks >= tally.clicks, "the deals on show were not read back"
    assert not tally.problems, "\n".join(tally.problems[:20])
    assert not tally.errors, "\n".join(tally.errors[:20])
    assert not tally.outside, f"requests to other hosts (refused): {sorted(set(tally.outside))}"


# -- the monkey's judge, without a browser ----------------------------------------------


def _shown_by(trainer: PlayTrainer) -> dict[str, Any]:
    """What the monkey reads of a trainer: its deal, as the monkey's hook in the page's
    Python gives it (run here, in this process), and its drawing, from the widget itself."""
    namespace: dict[str, Any] = {}
    exec(DEALS_ON_SHOW, namespace)
    every = open_widgets()
    python = json.loads(namespace["deals_on_show"](every, [trainer.model_id]))
    again = json.loads(namespace["deals_on_show"](every, [trainer.model_id]))
    assert python["tagged"] and not again["tagged"], "the tags are new only the first time"
    assert python["hidden"][trainer.model_id] == sorted(c.text for c in trainer.hidden_cards())
    state = trainer.state
    acting = state.current_player()
    return {"json": json.dumps(python["deals"][trainer.table.model_id]),
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
