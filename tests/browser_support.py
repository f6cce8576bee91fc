"""What the browser tests and benchmarks/browser.py share: Debian's Chromium, a quiet server."""

from __future__ import annotations

import atexit
import fcntl
import io
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import pytest

from book_built import BOOK_STAMP, book_build_needed

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
"""Where ./dev builds the site."""
LIVE_PAGE = "notebooks/forced-ace.html"
LOCAL_SCHEMES = {"data", "blob", "about", "chrome-error"}
"""URL schemes that never leave the browser."""
LIVE_TIMEOUT_MS = 120_000
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium; the tests never download a browser of their own."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"]
"""Flags that keep Chromium off the network apart from the pages it is sent to, and
without the renderer it starts for each new window's address-bar popup, which a
headless window never shows (processor time taken while the window's first page
loads)."""


def require_chromium() -> None:
    """Fail, never skip, when the browser is missing."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with 'apt-get install chromium' "
                    "(./dev test does this when run as root); this test must not be skipped")


class _QuietHandler(SimpleHTTPRequestHandler):
    cache_seconds: int | None = None
    appended: ClassVar[dict[str, bytes]] = {}

    def send_head(self) -> Any:
        extra = self.appended.get(urlsplit(self.path).path)
        if extra is None:
            return super().send_head()
        body = Path(self.translate_path(self.path)).read_bytes() + extra
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(self.path))
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def end_headers(self) -> None:
        if self.cache_seconds is not None:
            self.send_header("Cache-Control", f"max-age={self.cache_seconds}")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser closed a page while a file was on its way
        super().handle_error(request, client_address)


@contextmanager
def serve_directory(directory: Path, cache_seconds: int | None = None,
                    appended: dict[str, bytes] | None = None) -> Iterator[str]:
    """Serve ``directory`` on a free port of 127.0.0.1; yields the base URL.

    With ``cache_seconds`` every reply says ``Cache-Control: max-age=...``,
    as a real host does (GitHub Pages sends 600), so that a second visit
    takes its files from the browser's cache. ``appended`` maps a file's
    address (``/_static/...``) to bytes sent after the file's own.
    """
    handler = type("Handler", (_QuietHandler,), {"cache_seconds": cache_seconds,
                                                 "appended": appended or {}})
    server = _QuietServer(("127.0.0.1", 0), partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


class _BrowserThread:
    """One Chromium, started on first use and kept for the session, in a thread of its own.

    Playwright's sync API refuses to start in a thread where another copy of
    it is running, as it is when another test module keeps a browser for the
    whole session (the ``chromium`` fixture); a thread of its own has none.
    Its objects belong to that thread, so each piece of work is handed to it.
    """

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[Any], None], list[BaseException],
                                      threading.Event] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def run(self, work: Callable[[Any], None]) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._serve, name="chromium", daemon=True)
                self._thread.start()
                atexit.register(self._stop)
        failure: list[BaseException] = []
        done = threading.Event()
        self._jobs.put((work, failure, done))
        done.wait()
        if failure:
            raise failure[0]

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = None
            while (job := self._jobs.get()) is not None:
                work, failure, done = job
                try:
                    if browser is None or not browser.is_connected():
                        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                             args=FLAGS)
                    work(browser)
                except BaseException as exc:  # handed back to the caller
                    failure.append(exc)
                finally:
                    for context in browser.contexts if browser is not None else []:
                        with suppress(Exception):  # the next work starts with none left open
                            context.close()
                    done.set()
            if browser is not None:
                browser.close()

    def _stop(self) -> None:
        self._jobs.put(None)
        if self._thread is not None:
            self._thread.join(timeout=30)


_BROWSER = _BrowserThread()


def in_browser(work: Callable[[Any], None]) -> None:
    """Run ``work(browser)`` with Debian's Chromium, in a thread of its own.

    The browser is started once and shared by every caller (each makes its
    own contexts, which share no cache, storage or cookies), as starting one
    for each test costs a second or two of the machine's time.
    """
    require_chromium()
    _BROWSER.run(work)


# -- the built book ---------------------------------------------------------------------

BOOK_BUILT_FOR_THIS_RUN = "LOO_TUTOR_BOOK_BUILT"
"""Set by a whole ``./dev test`` run, which builds the book first: the tests take it as built."""


def build_book() -> None:
    """Build the book with ``./dev build`` when it is missing or out of date; fails if that fails.

    Its progress goes to the terminal, so the caller lets it through pytest's capture.
    """
    if os.environ.get(BOOK_BUILT_FOR_THIS_RUN):
        return
    # Under pytest-xdist each worker asks: the first builds, the others wait for it.
    BOOK_STAMP.parent.mkdir(parents=True, exist_ok=True)
    with open(BOOK_STAMP.parent / ".book-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        needed = book_build_needed()
        if needed is None:
            return
        mode, why = needed
        print(f"\n==> the tests open the built book: {why}; building it ({mode})", flush=True)
        done = subprocess.run([str(ROOT / "dev"), "build", mode], cwd=ROOT, check=False)
    if done.returncode != 0:
        pytest.fail(f"the book build (./dev build {mode}) failed with exit {done.returncode}; "
                    "its output is above")


@contextmanager
def built_site(appended: dict[str, bytes] | None = None) -> Iterator[str]:
    """The built site, served on a free port of 127.0.0.1 (``appended`` as
    :func:`serve_directory` takes it); fails when it has not been built.

    The ``book`` fixture (tests/conftest.py) builds it first when needed.
    """
    for needed in (HTML / LIVE_PAGE, HTML / "_static" / "live" / "live.js",
                   HTML / "_static" / "pyodide" / "pyodide.js"):
        if not needed.exists():
            pytest.fail(f"{needed.relative_to(ROOT)} is missing: build the site first "
                        "(./dev build, or ./dev test, which builds it before running pytest)")
    with serve_directory(HTML, appended=appended) as url:
        yield url


def outside_site(urls: list[str], site: str) -> list[str]:
    """The URLs that leave ``site`` (any other host or port)."""
    here = urlsplit(site).netloc
    return [u for u in urls
            if urlsplit(u).scheme not in LOCAL_SCHEMES and urlsplit(u).netloc != here]


@contextmanager
def new_page(browser: Any, requests: list[str], errors: list[str]) -> Iterator[Any]:
    """A page of a fresh browser context, noting every request and every error logged."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    try:
        yield page
    finally:
        context.close()


def drive_clean(site: str, work: Callable[[Any, list[str], list[str]], None]) -> None:
    """Run ``work(browser, requests, errors)`` in Debian's Chromium, then check that no
    request left ``site`` and that nothing was logged as an error."""
    requests: list[str] = []
    errors: list[str] = []
    in_browser(lambda browser: work(browser, requests, errors))
    assert not outside_site(requests, site), f"requests left the site: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def open_live(page: Any, site: str, path: str, widget_text: str, button_text: str) -> Any:
    """Open ``path`` of the site, wait until its widgets are live and return the page.

    Until Python is ready the page shows its saved widgets and a status line
    saying so (tests/book/test_browser_book.py looks at them); once live, each
    saved copy has given way to its live widget, in place, and the one
    showing ``widget_text`` draws its ``button_text`` button.
    """
    page.goto(f"{site}/{path}", wait_until="domcontentloaded")
    return wait_live(page, widget_text, button_text)


def wait_live(page: Any, widget_text: str, button_text: str) -> Any:
    """Wait until the page opened in ``page`` is live (see ``open_live``); returns the page."""
    status = page.locator(".loo-live-status")
    status.wait_for(timeout=30_000)
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement?.dataset.looLive)",
        timeout=LIVE_TIMEOUT_MS)
    assert page.evaluate("document.documentElement?.dataset.looLive") == "ready", \
        status.inner_text()
    assert "Live" in status.inner_text()
    assert page.locator(".loo-snapshot").count() == 0, \
        "every saved copy gives way to its live widget"
    live = page.locator(".loo-live-widget .loo-widget").filter(has_text=widget_text)
    live.locator("button", has_text=button_text).first.wait_for(timeout=10_000)
    assert page.locator("iframe").count() == 0
    return page


SETTLE = """() => new Promise(resolve => {
  let last = performance.now();
  const seen = new MutationObserver(() => { last = performance.now(); });
  seen.observe(document.body, {subtree: true, childList: true, attributes: true,
                               characterData: true});
  const started = performance.now();
  (function tick() {
    const now = performance.now();
    if (now - last > 400 || now - started > 8000) { seen.disconnect(); resolve(); }
    else setTimeout(tick, 50);
  })();
})"""
"""Wait until the page has not changed for 0.4 s (at most 8 s)."""

ANSWERED = """(widget, still, most) => new Promise(resolve => {
    const started = performance.now();
    let changed = started;
    const seen = new MutationObserver(() => { changed = performance.now(); });
    seen.observe(widget, {subtree: true, childList: true, attributes: true, characterData: true});
    const answering = () => (document.documentElement?.dataset.looWaiting || '0') !== '0';
    (function tick() {
      const now = performance.now();
      const done = !answering() && now - changed >= still;
      if (done || now - started >= most) {
        seen.disconnect();
        resolve(done);
      } else setTimeout(tick, 10);
    })();
  })"""
"""A JavaScript function, called just before a press, that resolves with ``true`` once
Python has answered every request of the page (``data-loo-waiting`` is 0:
classroom_page's connection.js) and ``widget`` has then stayed still for ``still`` ms
(the answer drawn), or with ``false`` after ``most`` ms, the bound for a Python that
never answers."""


# -- accessibility ------------------------------------------------------------------

AXE = ROOT / "_vendor_test" / "axe-core" / "axe.min.js"
"""axe-core, fetched from npm by ``./dev test`` and kept out of the site."""

# axe-core's preload (on by default) fetches and parses every style sheet of the
# page and waits for its media, for two rules: css-orientation-lock, tagged
# experimental, which the tags below never run, and no-autoplay-audio, whose
# findings are moderate, never reported here. Without it a run costs a quarter
# to a half less processor time, and finds the same.
_AXE_RUN = """async (within) => {
  const result = await axe.run(within ? {include: [within]} : document, {runOnly: {type: 'tag',
    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}, resultTypes: ['violations'],
    preload: false});
  return result.violations.filter(v => ['serious', 'critical'].includes(v.impact)).map(v =>
    ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' +
                                     (n.failureSummary || '').split('\\n').slice(1, 2).join(''))
    }));
}"""


def axe_findings(page: Any, within: str | None = None) -> list[str]:
    """axe-core's serious and critical WCAG 2 A/AA findings in the page and each of its frames.

    With ``within`` (a CSS selector) only that part of the page is looked at,
    in the page itself.
    """
    if not AXE.exists():
        pytest.fail(f"{AXE.relative_to(ROOT)} is missing: ./dev test fetches it from npm")
    found = []
    frames = [page.main_frame] if within else page.frames
    for frame in frames:
        if frame.is_detached() or not frame.url.startswith("http"):
            continue
        if not frame.evaluate("typeof axe !== 'undefined'"):  # once per page: 0.5 MB to parse
            frame.add_script_tag(path=str(AXE))
        for violation in frame.evaluate(_AXE_RUN, within):
            where = "" if frame is page.main_frame else f" (in the frame {frame.url})"
            found.append(f"{violation['impact']} {violation['id']}{where}: {violation['help']}; "
                         + " | ".join(violation["nodes"]))
    return found
