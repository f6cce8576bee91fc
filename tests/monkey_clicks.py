"""Random clicks on the live widgets of the built site, each shown deal re-checked by the engine.

A monkey opens a notebook page of the built book, waits until its widgets run
in the browser (Pyodide) and then, again and again, picks one of the
controls the widgets show (a button, a check box, a menu, a text field) at
random and uses it. After each action it waits until the page stops
changing and reads every deal on show. The page holds no record of the
deals (it carries only what its reader may see), so the monkey asks the
Python that runs the widgets, in the page's Web Worker, through a hook only
the tests add: the tests' file server sends the worker's ``pyodide.js`` with a line
that keeps Pyodide where the test can reach it (:data:`HOOK`), and
:data:`DEALS_ON_SHOW` runs there. It tags each table the widgets draw with a
class naming its widget model and answers with each one's deal written as a
record and the reader's seat. The record is checked here, outside the
browser, with :func:`loo_tutor.records.record.check`, and the result is
compared with what the widget draws:

* the record is a deal the engine accepts, never illegal: widgets only
  apply actions the engine allowed;
* the seat the table marks "to act" is the one the engine names, and none
  is marked once the deal is over;
* a trainer shows the reader exactly the cards the engine says are still
  in their hand (:func:`loo_tutor.engine.observe.observation`), and the card
  buttons are enabled only on the reader's turn to play;
* no widget's drawing names a card the widget hides (its ``hidden_cards()``).

Used by ``tests/book/test_offline_site.py`` (a few clicks per page, in CI) and by
``benchmarks/monkey.py`` (1,000 clicks, on demand). Every request that
leaves the site can be refused (``offline=True``), as a school network that
blocks other hosts would.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from loo_tutor.engine.cards import CARDS, card_text, parse_card
from loo_tutor.engine.errors import MalformedRecord
from loo_tutor.engine.observe import observation
from loo_tutor.records.record import check, replay_deal

from leaks import leaks

LIVE_TIMEOUT_MS = 180_000
_LABELS = frozenset(card.label for card in CARDS)
LOCAL_SCHEMES = {"data", "blob", "about", "chrome-error"}
TYPED = ["9H", "a♥, kc", "10/3", "3 1/3", "-2", "nobody", "A, B", "R-FOLLOW", "yes", "",
         "ZZ", "1e9", "<b>", "¼", "\u202e7H", "7H 7H 7H", "   ", "999999999999999999999"]
"""What the monkey types into text fields: answers in every form, and nonsense."""
NUMBERS = ["0", "1", "7", "2024", "-3", "2.5", "1000000000", "99999999999", ""]
"""What it types into number fields (a browser refuses other text there)."""

# Controls of the live widgets that a reader can use.
_CONTROLS = """() => {
  const found = [];
  for (const old of document.querySelectorAll("[data-monkey]")) delete old.dataset.monkey;
  const selector = ".loo-live-widget .loo-widget :is(button, input, select, textarea)";
  for (const el of document.querySelectorAll(selector)) {
    if (el.disabled || el.type === "hidden" || !el.getClientRects().length) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    el.dataset.monkey = String(found.length);
    found.push({tag: el.tagName.toLowerCase(), type: el.type || "",
                text: (el.textContent || el.value || "").trim().slice(0, 40),
                options: el.tagName === "SELECT" ? el.options.length : 0});
  }
  return found;
}"""

# Resolve once the document has not changed for ``quiet`` ms (or after ``limit`` ms).
_SETTLE = """([quiet, limit]) => new Promise(resolve => {
  const start = performance.now();
  let last = start;
  const observer = new MutationObserver(() => { last = performance.now(); });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true,
                                   characterData: true});
  const tick = () => {
    const now = performance.now();
    if (now - last >= quiet || now - start >= limit) {
      observer.disconnect();
      resolve(now - start);
    } else {
      setTimeout(tick, 25);
    }
  };
  setTimeout(tick, 25);
})"""

HOOK = (";self.loadPyodide = ((load) => async (options) => "
        "(self.looTestPython = await load(options)))(self.loadPyodide);\n")
"""Added by the tests to the worker's ``pyodide.js``: the worker's Pyodide, kept in reach."""
PYTHON_IN_REACH = {"/_static/pyodide/pyodide.js": HOOK.encode()}
"""What the tests' file server adds to the site it serves to a monkey
(``serve_directory(..., appended=PYTHON_IN_REACH)``). Added there, not by
Playwright's routing, which would turn the browser's cache off."""
OFFLINE = {"proxy": {"server": "http://127.0.0.1:9", "bypass": "127.0.0.1"}}
"""Options of a browser context on a network that lets nothing out: every host
but 127.0.0.1 is reached through a proxy where nothing listens. Playwright's
routing could refuse them too, but it turns the browser's cache off."""

DEALS_ON_SHOW = """
import json
from loo_tutor.records.record import record_from_state
from loo_tutor.widgets import DealStepper, PayoutChecker

def tag(widget, name):
    # Whether the class is new to the widget: only then does its drawing change.
    new = name not in widget._dom_classes
    widget.add_class(name)
    return new

def deals_on_show(every, roots):
    # Tag the tables of the widgets under roots (model ids), each with its
    # model's id; answer with their deals, each widget's hidden cards and
    # whether a tag was new.
    deals, hidden, waiting, seen, tagged = {}, {}, list(roots), set(), False
    while waiting:
        widget = every.get(waiting.pop())
        if widget is None or widget.model_id in seen:
            continue
        seen.add(widget.model_id)
        waiting.extend(child.model_id for child in getattr(widget, "children", ()))
        if not callable(getattr(widget, "hidden_cards", None)) or widget.error is not None:
            continue
        tagged |= tag(widget, f"loo-test-widget-{widget.model_id}")
        hidden[widget.model_id] = sorted(card.text for card in widget.hidden_cards())
        if isinstance(widget, DealStepper):
            parts = [(page, step.state, widget.view_seat)
                     for page, step in zip(widget.stack.children, widget.steps)]
        elif isinstance(widget, PayoutChecker):
            parts = [(widget.table, widget.final, None)]
        elif hasattr(widget, "table") and hasattr(widget, "seat"):
            parts = [(widget.table, widget.state, widget.seat)]
        else:
            parts = []
        for part, state, seat in parts:
            tagged |= tag(part, f"loo-test-deal-{part.model_id}")
            deals[part.model_id] = {"record": record_from_state(state),
                                    "seat": None if seat is None else state.players[seat]}
    return json.dumps({"deals": deals, "hidden": hidden, "tagged": tagged})
"""
"""Run in the Python that holds the widgets (the worker's, or this process in a test of it)."""

_ASK_WORKER = """([code, roots]) => {
  const python = self.looTestPython;
  if (!python.globals.has("deals_on_show")) python.runPython(code);
  const every = python.runPython(
    "import ipywidgets, warnings\\nwith warnings.catch_warnings():\\n"
    + "    warnings.simplefilter('ignore')\\n    every = dict(ipywidgets.Widget.widgets)\\nevery");
  try {
    return python.globals.get("deals_on_show")(every, roots);
  } finally {
    every.destroy();
  }
}"""

_ROOTS = """() => [...document.querySelectorAll(
  'script[type="application/vnd.jupyter.widget-view+json"]')].map(s => JSON.parse(s.textContent).model_id)"""

# Every deal on show, by the widget model of its table: the seat marked to
# act and the card buttons; and the drawing of each widget tagged.
_SHOWN = """() => {
  const tagged = (el, prefix) => [...el.classList].find(c => c.startsWith(prefix)).slice(prefix.length);
  const shown = [];
  for (const holder of document.querySelectorAll("[class*='loo-test-deal-']")) {
    if (!holder.getClientRects().length) continue;
    const widget = holder.closest(".loo-widget");
    const acting = holder.querySelector(".loo-seat[data-to-act]");
    const hand = [];
    if (widget) {
      for (const box of widget.querySelectorAll(".widget-hbox")) {
        const buttons = box.querySelectorAll(":scope > button");
        if (!buttons.length || box.closest(".loo-seat")) continue;
        for (const b of buttons) {
          hand.push({text: b.textContent.trim(), disabled: b.disabled,
                     title: (b.getAttribute("title") || "").replace(/ \\(legal\\)$/, "")});
        }
      }
    }
    shown.push({id: tagged(holder, "loo-test-deal-"),
                acting: acting ? acting.getAttribute("aria-label").split(",")[0] : null,
                hand: hand});
  }
  const drawn = [...document.querySelectorAll("[class*='loo-test-widget-']")].map(
    el => ({id: tagged(el, "loo-test-widget-"), html: el.outerHTML}));
  return {shown, drawn};
}"""


@dataclass
class Tally:
    """What a monkey run did and found."""

    clicks: int = 0
    checks: int = 0
    pages: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    settle_ms: list[float] = field(default_factory=list)
    live_s: list[float] = field(default_factory=list)
    by_control: dict[str, int] = field(default_factory=dict)
    last: str = "opening the page"
    reloads: list[str] = field(default_factory=list)


def problems_with(shown: dict[str, Any]) -> list[str]:
    """What is wrong with one deal on show, judged by the engine (empty when all is well).

    ``shown`` holds ``json``, the deal as the widget's Python gave it
    (``{"record": ..., "seat": ...}``), and what the page draws of it:
    ``acting``, the name marked to act, and ``hand``, the card buttons.
    """
    try:
        data = json.loads(shown["json"])
        record, seat = data["record"], data["seat"]
        result = check(record)
    except (MalformedRecord, ValueError, KeyError, TypeError) as exc:
        return [f"the shown record cannot be checked: {exc}"]
    found = []
    if result["status"] == "illegal":
        found.append(f"the shown deal is illegal: {result['error']}")
        return found
    expected = result["next"]["player"] if result["next"] else None
    if shown["acting"] != expected:
        found.append(f"the table marks {shown['acting']!r} to act, the engine says {expected!r}")
    hand = [b for b in shown["hand"] if b["title"] in _LABELS]
    if seat is not None and hand:
        final = replay_deal(record).states[-1]
        # The reader's hand as the engine lets them see it (the miss, if taken).
        left = sorted(card_text(c) for c in observation(final, final.players.index(seat)).hand
                      or ())
        buttons = sorted(b["text"] for b in hand)
        if buttons != left:
            found.append(f"{seat}'s card buttons show {buttons}, the engine says {left}")
        turn = (result["next"] is not None and result["next"]["phase"] == "play"
                and result["next"]["player"] == seat)
        if any(b["disabled"] == turn for b in hand):
            found.append(f"{seat}'s card buttons are {'disabled' if turn else 'enabled'} "
                         f"when it is {'' if turn else 'not '}their turn to play")
    return found


def open_live(page: Any, url: str) -> tuple[Any, float]:
    """Open a live page and wait until its widgets are live; returns the page and the seconds it took."""
    started = time.monotonic()
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement?.dataset.looLive)",
        timeout=LIVE_TIMEOUT_MS)
    state = page.evaluate("document.documentElement?.dataset.looLive")
    if state != "ready":
        raise AssertionError(f"{url} did not go live: "
                             + page.locator(".loo-live-status").inner_text())
    return page, time.monotonic() - started


def watch(context: Any, page: Any, site: str, tally: Tally) -> None:
    """Note errors logged, requests leaving ``site`` and those of them refused."""
    here = urlsplit(site).netloc

    def leaves(url: str) -> bool:
        return urlsplit(url).scheme not in LOCAL_SCHEMES and urlsplit(url).netloc != here

    context.on("request", lambda r: tally.outside.append(r.url) if leaves(r.url) else None)
    context.on("requestfailed", lambda r: tally.blocked.append(r.url) if leaves(r.url) else None)

    def console(message: Any) -> None:
        if message.type == "error" or "Traceback" in message.text:
            tally.errors.append(f"console {message.type}: {message.text} ({tally.last})")

    page.on("console", console)
    page.on("pageerror",
            lambda error: tally.errors.append(f"page error: {error} ({tally.last})"))


def inspect(frame: Any, tally: Tally, where: str) -> None:
    """Check every deal on show and every widget's drawing for hidden cards, and look
    for Python errors printed into the page."""
    if frame.evaluate("document.documentElement?.dataset.looLive") != "ready":
        tally.problems.append(f"{where}: Python stopped: " + frame.locator(".loo-live-status")
                              .inner_text())
        return
    python = json.loads(frame.workers[0].evaluate(_ASK_WORKER,
                                                  [DEALS_ON_SHOW, frame.evaluate(_ROOTS)]))
    if python["tagged"]:
        frame.evaluate(_SETTLE, [150, 8_000])  # the new tags reach the page
    page = frame.evaluate(_SHOWN)
    for shown in page["shown"]:
        deal = python["deals"].get(shown["id"])
        if deal is None:
            tally.problems.append(f"{where}: a table whose deal Python does not name")
            continue
        tally.checks += 1
        tally.problems.extend(f"{where}: {p}"
                              for p in problems_with(dict(shown, json=json.dumps(deal))))
    for drawn in page["drawn"]:
        hidden = [parse_card(text) for text in python["hidden"].get(drawn["id"], [])]
        tally.problems.extend(f"{where}: a widget draws a card it hides: {leak}"
                              for leak in leaks(drawn["html"], hidden))
    printed = frame.locator(".jp-OutputArea-output[data-mime-type*='stderr'], "
                            ".jp-OutputArea-output[data-mime-type*='error']")
    if printed.count():
        tally.problems.append(f"{where}: Python printed an error: "
                              + printed.first.inner_text()[:300])


def act(frame: Any, rng: random.Random, tally: Tally, where: str) -> bool:
    """Use one control chosen at random; ``False`` when there is none to use."""
    controls = frame.evaluate(_CONTROLS)
    if not controls:
        return False
    index = rng.randrange(len(controls))
    control = controls[index]
    target = frame.locator(f'[data-monkey="{index}"]')
    kind = control["tag"] if control["tag"] != "input" else f"input:{control['type']}"
    tally.by_control[kind] = tally.by_control.get(kind, 0) + 1
    tally.last = f"{where}, click {tally.clicks + 1}: {kind} {control['text']!r}"
    try:
        if control["tag"] == "select" and control["options"]:
            target.select_option(index=rng.randrange(control["options"]), timeout=5_000)
        elif control["tag"] in ("input", "textarea") and control["type"] in ("text", "textarea",
                                                                             "number", ""):
            typed = rng.choice(NUMBERS if control["type"] == "number" else TYPED)
            target.fill(typed, timeout=5_000)
            target.press(rng.choice(["Enter", "Tab"]), timeout=5_000)
        else:
            target.click(timeout=5_000)
    except Exception as exc:  # a control that went away as the page changed
        if "Timeout" not in type(exc).__name__ and "detached" not in str(exc):
            raise
    tally.clicks += 1
    tally.settle_ms.append(frame.evaluate(_SETTLE, [150, 8_000]))
    return True


def run_page(browser: Any, site: str, path: str, clicks: int, seed: int, tally: Tally,
             offline: bool = True) -> None:
    """Open ``path`` live and use ``clicks`` random controls, checking the deals after each."""
    run_pages(browser, site, [path], clicks, seed, tally, offline)


def run_pages(browser: Any, site: str, paths: list[str], clicks: int, seed: int, tally: Tally,
              offline: bool = True) -> None:
    """``run_page`` for each of ``paths`` in turn, in one browser window.

    Only the first page starts Python from nothing; the others find the
    site's files in the window's cache, as a reader's browser does.
    """
    with window(browser, site, tally, offline) as page:
        for path in paths:
            play(page, site, path, clicks, seed, tally)


@contextmanager
def window(browser: Any, site: str, tally: Tally, offline: bool = True) -> Iterator[Any]:
    """A page in a browser window of its own (1280 x 1000) whose errors and requests leaving
    ``site`` go to ``tally`` (:func:`watch`), on a network that lets nothing out when
    ``offline`` (:data:`OFFLINE`); the window is closed after the block."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000},
                                  **(OFFLINE if offline else {}))
    page = context.new_page()
    watch(context, page, site, tally)
    try:
        yield page
    finally:
        context.close()


def play(page: Any, site: str, path: str, clicks: int, seed: int, tally: Tally) -> None:
    """Open ``path`` live in ``page`` and use ``clicks`` random controls, chosen by ``seed``,
    checking the deals after each."""
    rng = random.Random(f"{seed}:{path}")
    frame, seconds = open_live(page, f"{site}/{path}")
    tally.live_s.append(seconds)
    tally.pages.append(path)
    inspect(frame, tally, f"{path}, as opened")
    number = 0
    while number < clicks:
        if not act(frame, rng, tally, path):
            # Every control is disabled (a practice session played to its
            # end, say): a reader would reload the page, and so does the monkey.
            tally.reloads.append(f"{path}, after click {number}")
            if len(tally.reloads) > clicks:
                tally.problems.append(f"{path}: no control to use, even after a reload")
                break
            frame, _ = open_live(page, f"{site}/{path}")
            continue
        number += 1
        inspect(frame, tally, f"{path}, after click {number}")
