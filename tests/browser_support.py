"""What the browser tests share: Debian's Chromium, a quiet local web server."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium; the tests never download a browser of their own."""
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""Flags that keep Chromium off the network apart from the pages it is sent to."""


def require_chromium() -> None:
    """Fail, never skip, when the browser is missing."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install it with 'apt-get install chromium' "
                    "(./dev test does this when run as root); this test must not be skipped")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the browser closed a page while a file was on its way
        super().handle_error(request, client_address)


@contextmanager
def serve_directory(directory: Path) -> Iterator[str]:
    """Serve ``directory`` on a free port of 127.0.0.1; yields the base URL."""
    server = _QuietServer(("127.0.0.1", 0), partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def in_browser(work: Callable[[Any], None]) -> None:
    """Run ``work(browser)`` with Debian's Chromium, in a thread of its own.

    Playwright's sync API refuses to start in a thread where another copy of
    it is running, as it is when another test module keeps a browser for the
    whole session; a thread of its own has none.
    """
    require_chromium()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            from playwright.sync_api import sync_playwright

            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
                try:
                    work(browser)
                finally:
                    browser.close()
        except BaseException as exc:  # noqa: BLE001 (re-raised in the test's own thread)
            failure.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
