"""Every page with widgets, on a wide screen, on a phone and in the dark theme.

Each page of the built book that shows widgets is looked at in Debian's
Chromium on four screens: at 1280 px, at 390 px and 360 px (phones) and at
1280 px in the book's dark theme. A page is opened once, at 1280 px; it must
go live (``document.documentElement?.dataset.looLive`` becomes ``ready``),
and is looked at there and on the other screens in turn: 1280 px in the
dark theme (switched on and off again with the theme's own button), 390 px
and 360 px (the window narrowed). Then the reader's presses are made (below),
and the page is looked at again on every screen, in the opposite order:

* nothing is clipped sideways or hidden behind an inner scroll: no widget
  part, and not the document, is wider than the room it has;
* no text in a widget is smaller than 12 px (the prose is 16 px), and no
  button, menu, field or tick box is smaller than 24 x 24 px;
* no raw MyST text shows (``{doc}`…```, ``(label)=``);
* the rule links inside widgets look like the book's links (the same colour,
  underlined);
* in the dark theme the widgets are dark: no light box larger than a card;
* axe-core (vendored from npm by ``./dev`` into ``_vendor_test``) finds no
  serious or critical WCAG 2 A/AA violation: once the page is live in the
  whole page and in any frame, theme elements included, and after the
  presses in the widgets, the part of the page the presses change (the
  theme's "Back to top", shown only once the reader scrolls, has a test of
  its own below).

Once live, before the screens, the page is looked at on a 1280 x 800 screen:
the table of each stepper and trainer fits on it together with the buttons
that move its deal on.

The reader's presses come in two rounds. At 390 px (a phone), each widget's
buttons are pressed one by one: each is first brought to the middle of the
screen, then pressed. Every verdict, refusal, hint or check summary that the
press changes (the parts a screen reader reads out, an ARIA live region)
must then be inside the screen, next to what was pressed; on the trainers'
and the exercises' pages the presses must say something. Then every widget
is tried as a reader trying things would: each button once, each menu once.

Each page is a test of its own, in one of two classes (the chapters and the
notebooks) that pytest's workers share out; the pages of one worker share one
browser window, so the in-browser Python is fetched once and then comes from
the cache.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_support import (
    ANSWERED,
    AXE,
    HTML,
    LIVE_TIMEOUT_MS,
    ROOT,
    axe_findings,
    serve_directory,
)
from browser_support import SETTLE as _SETTLE

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass(frozen=True)
class Screen:
    """A way to look at a page."""

    name: str
    width: int
    height: int
    theme: str = "light"


WIDE, DARK = Screen("1280 px", 1280, 900), Screen("dark", 1280, 900, "dark")
PHONE, SMALL_PHONE = Screen("390 px", 390, 844), Screen("360 px", 360, 800)
SCREENS = (WIDE, DARK, PHONE, SMALL_PHONE)
"""The screens: a page is opened on the first and then looked at on each in turn."""
SMALLEST_TEXT_PX = 12
SMALLEST_TARGET_PX = 24  # WCAG 2.2's target size (minimum)


def pages_with_code() -> list[str]:
    """The pages whose sources hold code cells (the notebooks, and the MyST pages with a
    ``{code-cell}``), as built pages relative to the site's root: the pages that can show
    widgets, known before the book is built."""
    sources = [*(ROOT / "notebooks").glob("*.ipynb"),
               *(md for md in (ROOT / "book").glob("*.md") if "{code-cell}" in md.read_text())]
    return sorted(str(source.relative_to(ROOT).with_suffix(".html")) for source in sources)


def widget_pages() -> list[str]:
    """The built pages that show widgets, relative to the site's root."""
    pages = sorted(str(path.relative_to(HTML)) for path in HTML.rglob("*.html")
                   if "lite" not in path.relative_to(HTML).parts[:1]
                   and WIDGET_VIEW in path.read_text(encoding="utf-8", errors="replace"))
    return pages


# -- what the page is asked ---------------------------------------------------------


SAID = ".loo-said"
"""The parts that say verdicts, refusals, hints and check summaries (ARIA live regions)."""
MESSAGES = f"{SAID}, .loo-compare-now"
"""Those, and the line that says what the last step of a comparison did."""
SAYING_PAGES = ("notebooks/forced-ace.html", "notebooks/exercises.html",
                "notebooks/trainers.html", "notebooks/practice.html")
"""Pages where pressing the widgets' buttons must say something to look at."""

STARTING_OVER = ("New variant", "New session", "New deal", "Start again", "Reset")
"""The labels of the buttons that start a widget over, which the presses leave alone."""

_PRESS = """async ({skip, most, still, look}) => {
  const skipped = new RegExp(`^(${skip.join('|')})$`);
  const checked = [], wrong = [];
  const shown = (el) => el.getClientRects().length && el.innerText.trim();
  for (const widget of document.querySelectorAll('.loo-widget')) {
    if (!widget.getClientRects().length || widget.parentElement.closest('.loo-widget')) continue;
    const buttons = [...widget.querySelectorAll('button')]
      .filter(b => !b.disabled && b.getClientRects().length && !skipped.test(b.innerText.trim()));
    const messages = () => [...widget.querySelectorAll('""" + MESSAGES + """')];
    for (const button of buttons.slice(0, most)) {
      if (!button.isConnected || button.disabled || !button.getClientRects().length) continue;
      const before = messages().map(el => el.innerText);
      if (look) button.scrollIntoView({block: 'center', behavior: 'instant'});
      const name = button.innerText.trim();
      const answer = (""" + ANSWERED + """)(widget, still, 60000);
      button.click();
      if (!(await answer)) return {checked, wrong, unanswered: name};
      if (!look) continue;
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
    const menu = widget.querySelector('select:not([disabled])');
    if (!look && menu && menu.options.length > 1) {
      menu.selectedIndex = menu.options.length - 1;
      menu.dispatchEvent(new Event('change', {bubbles: true}));
    }
  }
  return {checked, wrong, unanswered: null};
}"""
"""Press the buttons of each widget in turn (``most`` at most, none labelled as in
``skip``); after each press, wait until Python has answered and the widget has then
stayed still for ``still`` ms (the answer drawn). With ``look``, each button is first
brought to the middle of the screen, and what each press said (``checked``) and where
(``wrong``, when outside the screen) is returned; without, the last item of each
widget's first menu is picked too, as a reader trying things would. Stops at a press
that nothing answers within a minute (``unanswered``)."""
LOOKED_AT_PRESSES = {"skip": [*STARTING_OVER, "Show solution"], "most": 8, "still": 150,
                     "look": True}
"""The presses made one by one on a phone, each looked at."""
EVERY_PRESS = {"skip": list(STARTING_OVER), "most": 6, "still": 50, "look": False}
"""The presses made as a reader trying things would."""


_CLIPPED = """() => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1)
    found.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
  const describe = el => (el.className && typeof el.className === 'string'
    ? el.tagName.toLowerCase() + '.' + el.className.trim().split(/\\s+/).slice(0, 3).join('.')
    : el.tagName.toLowerCase()) + ` "${(el.innerText || '').trim().slice(0, 40)}"`;
  // Text kept for screen readers only (a 1 px absolute box, such as a
  // narrow table's header row) is not content cut off from the reader.
  const forScreenReaders = (el, widget) => {
    for (let e = el; e && e !== widget; e = e.parentElement) {
      const r = e.getBoundingClientRect();
      if (getComputedStyle(e).position === 'absolute' && r.width <= 1 && r.height <= 1) return true;
    }
    return false;
  };
  for (const widget of document.querySelectorAll('.loo-widget')) {
    if (!widget.getClientRects().length) continue;
    const column = widget.closest('article, main, body').getBoundingClientRect();
    for (const el of [widget, ...widget.querySelectorAll('*')]) {
      if (!el.getClientRects().length || el.closest('script, style') || forScreenReaders(el, widget))
        continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (box.width === 0 || style.visibility === 'hidden') continue;
      const overflow = style.overflowX + ' ' + style.overflowY;
      if (el.scrollWidth > el.clientWidth + 1 && /auto|scroll|hidden|clip/.test(overflow))
        found.push(`${describe(el)} hides ${el.scrollWidth - el.clientWidth} px sideways`);
      if (el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(style.overflowY))
        found.push(`${describe(el)} scrolls ${el.scrollHeight - el.clientHeight} px inside`);
      if (box.right > column.right + 2 || box.left < column.left - 2)
        found.push(`${describe(el)} sticks out of its column (${Math.round(box.left)}` +
                   `-${Math.round(box.right)} px in ${Math.round(column.left)}-` +
                   `${Math.round(column.right)} px)`);
      if (el.matches('button') && el.scrollWidth > el.clientWidth + 1)
        found.push(`${describe(el)} cuts its label`);
    }
  }
  return [...new Set(found)].slice(0, 12);
}"""

_RAW_MYST = re.compile(r"\{(doc|ref|term|numref|eq)\}`|^\([\w-]+\)=\s*$", re.MULTILINE)

_LINKS = """() => {
  const book = [...document.querySelectorAll('article a.reference, article a[href]')]
    .find(a => !a.closest('.loo-widget') && a.getClientRects().length
               && !a.classList.contains('headerlink'));
  const links = [...document.querySelectorAll('.loo-widget a.loo-rule')]
    .filter(a => a.getClientRects().length);
  const look = a => { const s = getComputedStyle(a);
    return {color: s.color, underline: s.textDecorationLine.includes('underline')}; };
  return {book: book ? look(book) : null, rules: links.slice(0, 20).map(a =>
    ({text: a.innerText, ...look(a)}))};
}"""

_LIGHT_BOXES = """() => {
  const found = [];
  const light = c => { const m = c.match(/[\\d.]+/g); if (!m) return false;
    const [r, g, b, a = 1] = m.map(Number); if (a < 0.5) return false;
    const lin = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b) > 0.4; };
  for (const widget of document.querySelectorAll('.loo-widget')) {
    for (const el of [widget, ...widget.querySelectorAll('*')]) {
      if (el.closest('.loo-card, .loo-card-button, .loo-card-back')) continue;
      const box = el.getBoundingClientRect();
      if (box.width * box.height < 70 * 90 || !el.getClientRects().length) continue;
      if (light(getComputedStyle(el).backgroundColor))
        found.push(`${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} ` +
                   `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return found.slice(0, 8);
}"""

_SMALL = """([smallestText, smallestTarget]) => {
  const found = [];
  const describe = el => `${el.tagName.toLowerCase()} "${(el.innerText || el.value || '')
    .trim().slice(0, 30)}"`;
  for (const widget of document.querySelectorAll('.loo-widget')) {
    if (!widget.getClientRects().length) continue;
    for (const el of widget.querySelectorAll('*')) {
      if (!el.getClientRects().length || el.closest('script, style')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      const text = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      const size = parseFloat(style.fontSize);
      if (text && size < smallestText) found.push(`${describe(el)} is written at ${size} px`);
      if (el.matches('button, select, input:not([type=hidden])')) {
        const box = el.getBoundingClientRect();
        if (box.width < smallestTarget - 0.5 || box.height < smallestTarget - 0.5)
          found.push(`${describe(el)} is a target of ${Math.round(box.width)}` +
                     `x${Math.round(box.height)} px`);
      }
    }
  }
  return [...new Set(found)].slice(0, 12);
}"""
"""Text under 12 px and controls smaller than 24 x 24 px, in any widget."""


_TABLE_AND_BUTTONS = """() => {
  const found = [];
  let measured = 0;
  for (const widget of document.querySelectorAll('.loo-widget')) {
    if (!widget.getClientRects().length || widget.parentElement.closest('.loo-widget')) continue;
    if (!widget.querySelector('.loo-step, .loo-table-box')) continue;  // steppers and trainers
    const table = [...widget.querySelectorAll('.loo-table')].find(t => t.getClientRects().length);
    const buttons = [...widget.querySelectorAll('button:not(.loo-card-button)')]
      .filter(b => b.getClientRects().length);
    if (!table || !buttons.length) continue;
    measured += 1;
    const boxes = [table, ...buttons].map(el => el.getBoundingClientRect());
    const top = Math.min(...boxes.map(b => b.top)), bottom = Math.max(...boxes.map(b => b.bottom));
    if (bottom - top > innerHeight)
      found.push(`${(widget.innerText || '').trim().slice(0, 40)}: the table and the buttons ` +
                 `take ${Math.round(bottom - top)} px, more than the ${innerHeight} px screen`);
  }
  return {found, measured};
}"""
"""The steppers and trainers whose table does not fit on the screen together with the
buttons that move its deal on, and how many were measured."""
TABLE_SCREEN = Screen("1280 x 800", 1280, 800)
"""The screen a stepper's or a trainer's table and buttons must fit on."""
TABLE_PAGES = ("notebooks/forced-ace.html", "notebooks/trainers.html")
"""Pages with steppers or trainers, where the table check must have measured some."""


def looks(page: Any, theme: str, when: str) -> list[str]:
    """Everything wrong with the page as it is drawn now."""
    problems = []
    for frame in page.frames:
        if frame.is_detached() or not frame.url.startswith("http"):
            continue
        where = "" if frame is page.main_frame else " (frame)"
        problems += [f"{when}{where}: {p}" for p in frame.evaluate(_CLIPPED)]
        problems += [f"{when}{where}: {p}" for p in
                     frame.evaluate(_SMALL, [SMALLEST_TEXT_PX, SMALLEST_TARGET_PX])]
        text = frame.evaluate("() => document.body ? document.body.innerText : ''")
        problems += [f"{when}{where}: raw MyST text {m.group(0)!r}"
                     for m in _RAW_MYST.finditer(text)]
        links = frame.evaluate(_LINKS)
        book = links["book"] or page.evaluate(_LINKS)["book"]
        for rule in links["rules"]:
            if not rule["underline"] or (book and rule["color"] != book["color"]):
                problems.append(f"{when}{where}: the rule link {rule['text']} is "
                                f"{rule['color']}{'' if rule['underline'] else ', not underlined'}"
                                f", the book's links {book and book['color']}")
        if theme == "dark":
            problems += [f"{when}{where}: a light box in the dark theme: {box}"
                         for box in frame.evaluate(_LIGHT_BOXES)]
    return problems


_TRANSITIONS_OVER = """() => !document.getAnimations().some(
  a => a instanceof CSSTransition && a.playState === 'running')"""


def use_theme(page: Any, theme: str) -> None:
    """Press the theme's own button (it goes round auto, light and dark) until ``theme`` is on,
    and wait until the colours have finished changing."""
    for _ in range(3):
        if page.evaluate("document.documentElement?.dataset.theme") == theme:
            break
        # Pressed from script, not by the mouse, so that no tooltip comes over the page.
        page.evaluate("document.querySelector('.theme-switch-button').click()")
    on = page.evaluate("document.documentElement?.dataset.theme")
    assert on == theme, f"the theme's button did not switch to the {theme} theme ({on!r})"
    page.wait_for_function(_TRANSITIONS_OVER)


def look_on(page: Any, screens: tuple[Screen, ...], when: str,
            within: str | None = None) -> list[str]:
    """What ``looks`` finds in the page and axe-core in the page, or only ``within`` it
    (a CSS selector), on each of ``screens``, shown in turn."""
    found = []
    for screen in screens:
        size = {"width": screen.width, "height": screen.height}
        if page.viewport_size != size:
            page.set_viewport_size(size)
            page.evaluate(_SETTLE)
        use_theme(page, screen.theme)
        said = f"{when}, {screen.name}"
        found += looks(page, screen.theme, said)
        found += [f"{said}: {f}" for f in axe_findings(page, within)]
    return found


# -- the test -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(book: Path) -> Iterator[str]:
    if not (HTML / "index.html").exists():
        pytest.fail("_build/html is missing: build the site first (./dev build, or ./dev test)")
    if not AXE.exists():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: ./dev test fetches it from npm")
    with serve_directory(HTML) as url:
        yield url


@pytest.fixture(scope="module")
def browser(chromium: Any) -> Any:
    return chromium


def test_there_are_widget_pages_to_look_at(book: Path) -> None:
    pages = widget_pages()
    assert "notebooks/forced-ace.html" in pages and len(pages) >= 7, pages
    # The pages looked at below are those with code, which are exactly those with widgets.
    assert pages_with_code() == pages


@pytest.fixture(scope="module")
def window(browser: Any) -> Iterator[Any]:
    """One browser window for the pages of this module, opened on the first screen: the
    in-browser Python is fetched by the first page and comes from the cache for the others."""
    first = SCREENS[0]
    context = browser.new_context(viewport={"width": first.width, "height": first.height})
    try:
        yield context.new_page()
    finally:
        context.close()


def look_at_page(site: str, page: Any, path: str) -> None:
    """Open ``path`` on the first screen, see it go live, look at it on every screen,
    press each button on a phone and see what it says, press everything, and look
    again; fails with what is wrong."""
    first = SCREENS[0]
    page.set_viewport_size({"width": first.width, "height": first.height})
    page.goto(f"{site}/{path}", wait_until="domcontentloaded")
    with suppress(PlaywrightTimeout):  # a page that never says is reported below
        page.wait_for_function(
            "() => ['ready', 'failed'].includes(document.documentElement?.dataset.looLive)",
            timeout=LIVE_TIMEOUT_MS)
    state = page.evaluate("document.documentElement?.dataset.looLive")
    assert state == "ready", f"the page did not go live: looLive is {state!r}"
    page.set_viewport_size({"width": TABLE_SCREEN.width, "height": TABLE_SCREEN.height})
    page.evaluate(_SETTLE)
    tables = page.evaluate(_TABLE_AND_BUTTONS)
    found = [f"live, {TABLE_SCREEN.name}: {problem}" for problem in tables["found"]]
    assert tables["measured"] or path not in TABLE_PAGES, "no stepper's or trainer's table measured"
    found += look_on(page, SCREENS, "live")
    page.set_viewport_size({"width": PHONE.width, "height": PHONE.height})
    page.evaluate(_SETTLE)
    said = page.evaluate(_PRESS, LOOKED_AT_PRESSES)
    found += [f"pressed one by one, {PHONE.name}: {wrong}" for wrong in said["wrong"]]
    if said["unanswered"] is not None:
        found.append(f"pressed one by one, {PHONE.name}: after \"{said['unanswered']}\", the page "
                     "was still changing or waiting a minute later")
    assert said["checked"] or path not in SAYING_PAGES, "no press said anything to look at"
    for frame in page.frames:
        if not frame.is_detached() and frame.url.startswith("http"):
            unanswered = frame.evaluate(_PRESS, EVERY_PRESS)["unanswered"]
            assert unanswered is None, f"the press of {unanswered!r} was not answered in a minute"
    page.evaluate(_SETTLE)
    for frame in page.frames[1:]:
        if not frame.is_detached():
            frame.evaluate(_SETTLE)
    found += look_on(page, SCREENS[::-1], "after pressing", within=".loo-widget")
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


# The pages come in two classes, the chapters and the notebooks, which pytest-xdist
# (--dist loadscope, as ./dev runs it) gives to its two workers.


class TestChapters:
    @pytest.mark.parametrize("path", [p for p in pages_with_code() if p.startswith("book/")])
    def test_goes_live_and_reads_well(self, site: str, window: Any, path: str) -> None:
        look_at_page(site, window, path)


class TestNotebooks:
    @pytest.mark.parametrize("path", [p for p in pages_with_code() if not p.startswith("book/")])
    def test_goes_live_and_reads_well(self, site: str, window: Any, path: str) -> None:
        look_at_page(site, window, path)


def test_the_accessibility_checker_is_not_part_of_the_site() -> None:
    assert not [p for p in HTML.rglob("axe*.js")], "axe-core must stay out of the site"
    assert Path(ROOT / ".gitignore").read_text().count("_vendor_test/") == 1


def test_the_keyboard_reaches_the_first_widget_and_plays_its_cards(site: str,
                                                                    browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{site}/notebooks/forced-ace.html", wait_until="domcontentloaded")
        page.wait_for_function("() => document.documentElement?.dataset.looLive === 'ready'",
                               timeout=LIVE_TIMEOUT_MS)
        page.evaluate(_SETTLE)
        # The second stop of the Tab key is the skip link to the first widget.
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.innerText") == "Skip to the first widget"
        page.keyboard.press("Enter")
        assert page.evaluate("!!document.activeElement.closest('.loo-widget')")
        # The focus ring shows: 2 px or more.
        ring = page.evaluate("parseFloat(getComputedStyle(document.activeElement).outlineWidth)")
        assert ring >= 2, ring

        trainer = page.locator(".loo-widget").filter(has_text="You are A.")
        seven = trainer.locator("button.loo-card-button", has_text="7♥")
        ace = trainer.locator("button.loo-card-button", has_text="A♥")
        seven.focus()
        page.keyboard.press("Enter")
        refusal = trainer.locator(".loo-refused")
        refusal.wait_for(timeout=30_000)
        # The refusal names and links its rule, and the legal card is lit at once.
        assert refusal.locator("a.loo-rule").first.inner_text() == "the forced ace (R-LEAD-ACE)"
        page.wait_for_function("el => el.classList.contains('loo-lit')", arg=ace.element_handle())
        assert page.evaluate("document.activeElement.innerText") == "7♥"
        ace.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => ![...document.querySelectorAll('button.loo-card-button')]"
                               ".some(b => b.innerText === 'A♥')", timeout=30_000)
        page.evaluate(_SETTLE)
        # The played card's button is gone; the focus stays in the hand.
        assert page.evaluate("document.activeElement.classList.contains('loo-card-button')")
    finally:
        context.close()


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_the_back_to_top_button_reads_in_both_themes(site: str, browser: Any, mode: str) -> None:
    """The theme shows "Back to top" only once the reader scrolls back up, so the
    walk above meets it by chance; here it is shown on purpose and checked."""
    context = browser.new_context(viewport={"width": 360, "height": 800})
    context.add_init_script(f"localStorage.setItem('mode', '{mode}')")
    page = context.new_page()
    try:
        page.goto(f"{site}/book/rules.html", wait_until="domcontentloaded")
        page.evaluate("document.getElementById('pst-back-to-top').style.display = 'block'")
        assert page.evaluate("document.documentElement?.dataset.theme") == mode
        assert axe_findings(page, within="#pst-back-to-top") == []
    finally:
        context.close()
