"""Faults a class meets, seen from a student's page in Debian's Chromium.

* The page's Python stops on the server in the middle of a deal (here its
  kernel process is killed): the page says so in plain words, shows no
  traceback, keeps the old deal readable but out of reach, and its *Start
  again* button opens a fresh, live page.
* The page's connection to the server is cut for longer than a blip (the
  page's kernel websocket is closed, and the browser is offline until the
  page has made its six quick tries, a second apart, and says the connection
  is lost until the server is back): the page says the connection is lost
  and connects again by itself, and the deal is where it was, answering
  clicks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from browser_support import axe_findings, in_browser, new_page
from classroom_server import (
    NOTEBOOKS,
    PAGE,
    TRAINER,
    Server,
    free_port,
    ids_of,
    kernels,
    start,
    stop,
    wait_for_kernels,
)

CHANNELS = re.compile(r"/api/kernels/[^/]+/channels")
LOST = "the deal on it is lost"
LONG_CUT = "This page opens again when the server is back"
"""What the page says once its six quick tries to connect again have failed (main.js)."""


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = start("--port", str(free_port()))
    try:
        wait_for_kernels(running, len(list(NOTEBOOKS.glob("*.ipynb"))), 180)
        yield running
    finally:
        stop(running)


def open_trainer(page: Any, server: Server) -> Any:
    page.goto(server.url + PAGE, timeout=180_000)
    trainer = page.locator(".loo-widget").filter(has_text=TRAINER)
    trainer.locator("button", has_text="7♥").wait_for(timeout=180_000)
    return trainer


def test_a_kernel_that_dies_mid_deal_is_said_plainly_and_a_fresh_start_offered(
        server: Server) -> None:
    seen: dict[str, Any] = {}

    def look(browser: Any) -> None:
        errors: list[str] = []
        with new_page(browser, [], errors) as page:
            trainer = open_trainer(page, server)
            trainer.locator("button", has_text="7♥").click()
            trainer.locator(".loo-refused").wait_for(timeout=30_000)  # mid-deal
            kernel_id = page.evaluate("window.looClassroom.kernel.id")
            killed = [k for k in kernels(server) if kernel_id in ids_of(k)]
            for kernel in killed:
                kernel.kill()
            notice = page.locator(".loo-kernel-lost")
            notice.wait_for(timeout=60_000)
            seen["killed"] = len(killed)
            seen["notice"] = notice.inner_text()
            seen["page"] = page.locator("body").inner_text()
            seen["inert"] = page.evaluate("document.getElementById('rendered_cells').inert")
            seen["focused"] = page.evaluate("document.activeElement.textContent")
            seen["axe"] = axe_findings(page, within=".loo-kernel-lost")
            box = notice.get_by_role("button", name="Start again").bounding_box()
            seen["target"] = (box["width"], box["height"])
            notice.get_by_role("button", name="Start again").click()
            fresh = page.locator(".loo-widget").filter(has_text=TRAINER)
            fresh.locator("button", has_text="7♥").wait_for(timeout=180_000)
            seen["fresh"] = fresh.locator(".loo-refused").count()
            seen["new kernel"] = page.evaluate("window.looClassroom.kernel.id") != kernel_id
            seen["notice after"] = page.locator(".loo-kernel-lost").count()
            seen["errors"] = errors

    in_browser(look)
    assert seen["killed"] == 1
    assert LOST in seen["notice"] and "Start again" in seen["notice"]
    assert "Traceback" not in seen["page"] and "Error" not in seen["page"]
    assert seen["inert"] is True and seen["focused"] == "Start again"
    assert seen["axe"] == [] and min(seen["target"]) >= 24
    assert seen["fresh"] == 0 and seen["new kernel"] and seen["notice after"] == 0


def test_a_connection_cut_past_the_quick_tries_comes_back_with_the_deal(server: Server) -> None:
    seen: dict[str, Any] = {}

    def look(browser: Any) -> None:
        errors: list[str] = []
        with new_page(browser, [], errors) as page:
            sockets: list[Any] = []

            def through(socket: Any) -> None:
                socket.connect_to_server()
                sockets.append(socket)

            page.route_web_socket(CHANNELS, through)
            trainer = open_trainer(page, server)
            trainer.locator("button", has_text="7♥").click()
            trainer.locator(".loo-refused").wait_for(timeout=30_000)
            kernel_id = page.evaluate("window.looClassroom.kernel.id")
            page.context.set_offline(True)
            sockets[-1].close()
            notice = page.locator(".loo-connection")
            notice.wait_for(timeout=10_000)
            seen["notice"] = notice.inner_text()
            # Offline until the quick tries are over (about six seconds): the page then says
            # it is waiting for the server, and keeps trying.
            notice.filter(has_text=LONG_CUT).wait_for(timeout=60_000)
            seen["lost past the quick tries"] = notice.count()  # no way back while offline
            page.context.set_offline(False)
            notice.wait_for(state="detached", timeout=60_000)
            seen["same kernel"] = page.evaluate("window.looClassroom.kernel.id") == kernel_id
            seen["deal kept"] = trainer.locator(".loo-refused").count()
            trainer.locator("button.loo-lit:not([disabled])").first.click()
            trainer.locator(".loo-ok").wait_for(timeout=30_000)  # answered by the same kernel
            seen["lost"] = page.locator(".loo-kernel-lost").count()
            seen["sockets"] = len(sockets)

    in_browser(look)
    assert "connection to the server was lost" in seen["notice"]
    assert seen["lost past the quick tries"] == 1
    assert seen["same kernel"] and seen["deal kept"] == 1 and seen["lost"] == 0
    assert seen["sockets"] >= 2
