"""Live widgets in a real browser: time to go live, time to answer a click, site size.

Run ``python benchmarks/browser.py`` after ``./dev build`` (it reads
``_build/html``). It drives Debian's Chromium (``/usr/bin/chromium``) through
Playwright and prints:

* in-browser (Pyodide): milliseconds from opening the forced-ace page to its
  widgets live (every saved widget replaced in place by the live one), with
  a fresh browser profile (cold) and with the profile of an earlier visit
  (warm cache, the browser restarted in between), and where the cold and
  the warm openings spend their time (the page's worker requested, Pyodide
  requested, the page's widgets drawn while Python starts, Python ready
  with the page's widgets, the page live, and between them the stages of
  Python's start that the page's worker marks on the page's timeline);
* under Voila (``loo-tutor classroom``, started here on a free port, kernels
  preheated): milliseconds from opening the forced-ace app to its card
  buttons, with a fresh browser profile and with the profile of an earlier
  visit (each opening gets a freshly preheated kernel: after each, the
  benchmark waits until the server says the kernel started to replace the
  one the page took has run the notebook, and the first opening waits for
  the kernels of every notebook); and, for a student who arrives just after
  another, with the profile of an earlier visit, each page opened as soon
  as Voila says the kernel replacing the last page's has started, so the
  page waits while that kernel runs the notebook. The pages are the
  classroom's light page (its own small script draws the widgets);
  ``--voila-page voila`` measures Voila's own JupyterLab front end instead,
  and ``--skip-browser`` runs the Voila half alone.

  For both, Chromium's renderer for a new window's address-bar popup (WebUI
  omnibox popup, about a second of processor time that a headless window
  never uses, run while the page loads) is turned off, as the browser is
  started afresh for each opening while a reader's or student's browser is
  already running; ``--browser-ui`` keeps it, as in the figures measured
  before it was turned off;
* on the wire: the same page served by a static host that compresses as
  GitHub Pages does (``benchmarks/static_host.py``: text, JavaScript and
  WebAssembly with gzip, files already compressed as they are), opened
  cold and warm, unthrottled and with Chromium's network emulation at
  ``--mbit`` 20 Mbit/s down and ``--rtt`` 40 ms round trip (DevTools
  applies it to the page's Web Worker too), each opening timed to the
  first widget drawn (a saved copy, before Python) and to live; and the
  bytes a cold opening is sent until it is live (the replies to the
  requests made by then: not the rest of Python's modules, which the page
  asks for once live), listed by file. The warm
  openings come after two visits that each stay until the page has
  nothing more to fetch: a reader's first visit, then their second, which
  fetches the saved memory for the visits after it; the bytes each of those
  two was sent in all (and what that makes for a class of ``--class-size``
  readers on one link) and the second's time to live (Python started
  afresh from the browser's cache) are printed too;
* click to verdict: the median of 20 clicks on A's 7♥, from the click to the
  refusal drawn on the page (the trainer is reset between clicks, unmeasured),
  in the browser and under Voila (there once the server has started and run
  the kernel that replaces the one the page took);
* the size of the built site in MB (10^6 bytes) and the number of source maps.

Targets (issue "Live in place"): ≤ 1.5 s cold and ≤ 1.0 s warm in-browser,
≤ 0.5 s for the classroom's light page; click ≤ 20 ms in-browser and under
Voila; a site smaller than 38.1 MB with no source maps. Issue "Light on the
wire": ≤ 8 MB sent until live on a first visit, and on the throttled link
≤ 5 s cold and ≤ 0.6 s warm. Issue 40: ≤ 10 MB sent in all on a first
visit, the saved memory included if it is fetched then. The site is served
from 127.0.0.1 (by the browser tests' server, tests/browser_support.py) with
``Cache-Control: max-age=600`` (what GitHub Pages sends), so times are
processor time, not network time, and a warm opening (within ten minutes of
the first visit) takes every file from the browser's cache without asking
the server; later, a host like GitHub Pages answers each request with "not
modified", which adds a round trip per file. This is a measurement, not a
test: it exits 0 whatever the figures are, and 1 only if something could
not be run.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from browser_support import serve_directory  # the tests' folder
from static_host import static_host  # beside this script

ROOT = Path(__file__).resolve().parent.parent


HTML = ROOT / "_build" / "html"
PAGE = "notebooks/forced-ace.html"
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NO_POPUP = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
TARGETS = {"cold": 1500, "warm": 1000, "voila": 500, "click": 20, "voila_click": 20, "size": 38.1,
           "throttled_cold": 5000, "throttled_warm": 600, "wire": 8.0,
           "first_visit": 10.0}
CACHE_SECONDS = 600  # what GitHub Pages sends

# Runs in the page that holds the trainer: resets it, then times clicks on
# A's 7H until the refusal is on the page (after the next animation frame).
CLICKS_JS = """
async (count) => {
  const trainer = [...document.querySelectorAll('.loo-widget')]
    .find(w => w.textContent.includes('You are A.'));
  if (!trainer) throw new Error('no trainer for A on this page');
  const button = (label) => [...trainer.querySelectorAll('button')]
    .find(b => b.textContent.trim() === label);
  const until = (test) => new Promise((done) => {
    if (test()) return done();
    const watch = new MutationObserver(() => { if (test()) { watch.disconnect(); done(); } });
    watch.observe(trainer, {subtree: true, childList: true, characterData: true, attributes: true});
  });
  const frame = () => new Promise((done) => requestAnimationFrame(() => done()));
  const times = [];
  for (let i = 0; i < count; i++) {
    button('Reset').click();
    await until(() => button('7♥') && !trainer.querySelector('.loo-verdict'));
    await frame();
    const start = performance.now();
    button('7♥').click();
    await until(() => trainer.querySelector('.loo-refused'));
    await frame();
    times.push(performance.now() - start);
  }
  return times;
}
"""


def site_size(html: Path) -> tuple[float, int]:
    files = [p for p in html.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 1e6, sum(p.suffix == ".map" for p in files)


def launch_browser(playwright: Any, profile: str, flags: list[str] = FLAGS) -> Any:
    return playwright.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, headless=True, args=flags,
        viewport={"width": 1280, "height": 1000})


# Requests that mark a phase of a warm opening: (label, the end of the URL).
PHASE_REQUESTS = (("page's worker requested", "_static/live/worker.js"),
                  ("Pyodide requested", "_static/pyodide/pyodide.js"))
# Marks the page sets on its timeline (classroom_page/src/live.js).
PHASE_MARKS = (("widgets drawn (usable)", "loo-live:widgets drawn"),
               ("Python ready", "loo-live:python ready"), ("live", "loo-live:live"))
# The marks of the stages of Python's start in the page's worker (live-worker.js).
WORKER_MARK = "loo-live:worker "


def opening_phases(page: Any, requests: list[tuple[float, str]]) -> dict[str, float]:
    """The phases of one opening, in ms from navigation start."""
    origin = float(page.evaluate("performance.timeOrigin"))
    phases: dict[str, float] = {}
    for label, tail in PHASE_REQUESTS:
        starts = [t for t, u in requests if u.split("?")[0].endswith(tail)]
        if starts:
            phases[label] = min(starts) - origin
    for label, name in PHASE_MARKS:
        marks = page.evaluate(
            f"performance.getEntriesByName({json.dumps(name)}).map(m => m.startTime)")
        if marks:
            phases[label] = float(marks[0])
    worker = page.evaluate(
        f"performance.getEntriesByType('mark').filter(m => m.name.startsWith({json.dumps(WORKER_MARK)}))"
        ".map(m => [m.name, m.startTime])")
    for name, start in worker:
        phases.setdefault(f"  worker: {name[len(WORKER_MARK):]}", float(start))
    return phases


def open_until_live(page: Any, url: str) -> float:
    """Open the live page in ``page``; returns ms from navigation start to live."""
    page.goto(url, wait_until="commit")
    page.wait_for_function(
        "() => ['ready', 'failed'].includes(document.documentElement?.dataset.looLive)",
        timeout=180_000)
    state = page.evaluate("document.documentElement?.dataset.looLive")
    if state != "ready":
        status = page.locator(".loo-live-status").inner_text()
        raise RuntimeError(f"the page did not go live: {status}")
    return float(page.evaluate("Number(document.documentElement?.dataset.looLiveMs)"))


def wait_settled(page: Any) -> None:
    """Wait until a live page has nothing more to fetch (what it keeps for the next visit)."""
    page.wait_for_function("() => document.documentElement?.dataset.looLiveSettled !== undefined",
                           timeout=180_000)


# Runs in every page before its own scripts: marks on the page's timeline the
# first frame drawn with a widget in it (a saved copy, or a widget drawn by
# the page's script).
FIRST_WIDGET_JS = """
(() => {
  const look = () => {
    if (document.querySelector('.loo-snapshot:not(:empty), .loo-live-widget:not([hidden])')) {
      performance.mark('loo-bench:first widget drawn');
    } else {
      requestAnimationFrame(look);
    }
  };
  requestAnimationFrame(look);
})();
"""


def _first_widget(page: Any) -> float:
    marks = page.evaluate(
        "performance.getEntriesByName('loo-bench:first widget drawn').map(m => m.startTime)")
    return float(marks[0]) if marks else float("nan")


def throttle(context: Any, page: Any, mbit: float, rtt: float) -> None:
    """Chromium's network emulation for ``page``: ``mbit`` down, ``rtt`` ms round trip.

    DevTools applies it to the page's Web Worker too: the forced-ace page of
    a build whose worker fetched 17 MB went live in 11.7 s with 20 Mbit/s
    emulated and in 1.7 s without, where the page's own 3 MB would take 1.2 s.
    """
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": rtt, "downloadThroughput": mbit * 1e6 / 8,
        "uploadThroughput": mbit * 1e6 / 8})


def on_the_wire(html: Path, runs: int, mbit: float, rtt: float,
                browser_ui: bool = False) -> dict[str, Any]:
    """Openings of the live page from a static host (gzip), unthrottled and on a throttled link.

    For each, ``runs`` cold openings (a fresh profile each) and ``runs`` warm
    ones (the profile of a reader's first and second visits, each staying
    until the page had nothing more to fetch, the browser restarted), with
    ms to the first widget drawn and to live; the bytes each cold opening
    was sent until it was live, by file; and the bytes the first and second
    visits were sent in all, with the second's ms to live.
    """
    from playwright.sync_api import sync_playwright

    flags = FLAGS if browser_ui else [*FLAGS, NO_POPUP]
    figures: dict[str, Any] = {}
    with static_host(html) as (site, sent), sync_playwright() as playwright:
        url = f"{site}/{PAGE}"

        def opening(profile: str, throttled: bool, stay: bool = False) -> dict[str, Any]:
            """One opening: ms to the first widget and to live, the replies sent until live
            and, if it stays until the page has nothing more to fetch, the bytes sent in all."""
            context = launch_browser(playwright, profile, flags)
            context.add_init_script(FIRST_WIDGET_JS)
            try:
                page = context.new_page()
                if throttled:
                    throttle(context, page, mbit, rtt)
                sent.take()
                ms = open_until_live(page, url)
                # What the page fetches once live (the rest of Python's modules) is not counted.
                replies = sent.take(asked_by=page.evaluate(
                    "performance.timeOrigin + Number(document.documentElement.dataset.looLiveMs)"))
                first = _first_widget(page)
                found = {"live": ms, "first widget": first, "replies": replies}
                if stay:
                    wait_settled(page)
                    found["sent"] = sum(size for _, size, _ in replies + sent.take())
            finally:
                context.close()
            return found

        for name, throttled in (("fast", False), ("throttled", True)):
            with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
                opening(profile, throttled)  # the host compresses each file once, here
            cold = []
            for _ in range(runs):
                with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
                    cold.append(opening(profile, throttled))
            with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
                visits = [opening(profile, throttled, stay=True) for _ in ("first", "second")]
                warm = [opening(profile, throttled) for _ in range(runs)]
            figures[name] = {
                "cold": [{k: v for k, v in o.items() if k != "replies"} for o in cold],
                "warm": [{k: v for k, v in o.items() if k != "replies"} for o in warm],
                "wire": [o["replies"] for o in cold],
                "visits": [{k: v for k, v in o.items() if k != "replies"} for o in visits]}
    return figures


def in_browser(html: Path, runs: int, clicks: int, browser_ui: bool = False) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    flags = FLAGS if browser_ui else [*FLAGS, NO_POPUP]
    cold: list[float] = []
    warm: list[float] = []
    phases: list[dict[str, float]] = []
    cold_phases: list[dict[str, float]] = []
    click_times: list[float] = []
    with serve_directory(html, CACHE_SECONDS) as site, sync_playwright() as playwright:
        url = f"{site}/{PAGE}"
        for _ in range(runs):
            with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
                context = launch_browser(playwright, profile, flags)
                cold_requests: list[tuple[float, str]] = []
                context.on("request",
                           lambda r, noted=cold_requests: noted.append((time.time() * 1000, r.url)))
                try:
                    page = context.new_page()
                    ms = open_until_live(page, url)
                    cold.append(ms)
                    cold_phases.append(opening_phases(page, cold_requests))
                    if not click_times:
                        click_times = page.evaluate(CLICKS_JS, clicks)
                finally:
                    context.close()
        with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
            for _ in ("first", "second"):  # visits that fill the cache and keep the saved memory
                context = launch_browser(playwright, profile, flags)
                try:
                    page = context.new_page()
                    open_until_live(page, url)
                    wait_settled(page)
                finally:
                    context.close()
            for _ in range(runs):
                context = launch_browser(playwright, profile, flags)
                requests: list[tuple[float, str]] = []
                context.on("request",
                           lambda r, noted=requests: noted.append((time.time() * 1000, r.url)))
                try:
                    page = context.new_page()
                    ms = open_until_live(page, url)
                    warm.append(ms)
                    phases.append(opening_phases(page, requests))
                finally:
                    context.close()
    return {"cold": cold, "warm": warm, "click": click_times, "warm_phases": phases,
            "cold_phases": cold_phases}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def under_voila(runs: int, clicks: int, browser_ui: bool = False,
                page: str = "light") -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    flags = FLAGS if browser_ui else [*FLAGS, NO_POPUP]

    env = dict(os.environ, PYTHONUNBUFFERED="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "loo_tutor", "classroom", "notebooks", "--port", str(port),
         "--page", page],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    ready = re.compile(r"Kernel ready for (\S+\.ipynb)")
    # Voila's own line comes as the kernel starts, before the notebook has run in it:
    # a page opened then waits for the cells, on the same cores.
    started = re.compile(r"Kernel pool of (\S+\.ipynb) is filled")

    def wait_pool(timeout: float = 120, notebooks: tuple[str, ...] = ("forced-ace.ipynb",),
                  ready: re.Pattern[str] = ready) -> None:
        waiting = set(notebooks)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                filled = ready.search(lines.get(timeout=0.5))
                waiting.discard(filled.group(1) if filled else "")
                if not waiting:
                    return
            except queue.Empty:
                if process.poll() is not None:
                    raise RuntimeError("loo-tutor classroom stopped") from None
        raise RuntimeError(f"the kernels of {', '.join(sorted(waiting))} were never ready")

    cold: list[float] = []
    warm: list[float] = []
    soon: list[float] = []
    click_times: list[float] = []

    def open_app(context: Any) -> tuple[Any, float]:
        page = context.new_page()
        page.goto(url, wait_until="commit")
        ms = page.wait_for_function(
            "() => [...document.querySelectorAll('.loo-widget button')]"
            ".some(b => b.textContent.trim() === '7♥') && performance.now()",
            polling="raf", timeout=120_000).json_value()
        return page, float(ms)

    url = f"http://127.0.0.1:{port}/voila/render/forced-ace.ipynb"
    try:
        # Every notebook's kernel run ahead, as before a class: the first page
        # opened does not share the cores with the kernels still starting.
        wait_pool(notebooks=tuple(p.name for p in (ROOT / "notebooks").glob("*.ipynb")))
        with sync_playwright() as playwright:
            for _ in range(runs):
                with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
                    context = launch_browser(playwright, profile, flags)
                    try:
                        app, ms = open_app(context)
                        cold.append(ms)
                        wait_pool()  # the used kernel is replaced by a fresh, preheated one
                        if not click_times:
                            # Timed once that is done: a page live in half a second
                            # would otherwise share the cores with the kernel started
                            # for the next student while its clicks are timed.
                            click_times = app.evaluate(CLICKS_JS, clicks)
                    finally:
                        context.close()
            with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:

                def openings(pool: re.Pattern[str]) -> list[float]:
                    """``runs`` openings after a first one, waiting for ``pool`` after each."""
                    times: list[float] = []
                    for run in range(runs + 1):
                        context = launch_browser(playwright, profile, flags)
                        try:
                            times.append(open_app(context)[1])
                        finally:
                            context.close()
                        if run < runs:
                            wait_pool(ready=pool)
                    return times[1:]

                warm = openings(ready)  # the first visit fills the cache
                # A student arriving just after another: each page opened as soon as the
                # kernel replacing the last one's has started, while it runs the notebook
                # (the first opening takes a kernel that is ready).
                wait_pool()
                soon = openings(started)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
    return {"cold": cold, "warm": warm, "soon": soon, "click": click_times}


def _summary(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{statistics.median(values):7.0f} ms  (runs: {', '.join(f'{v:.0f}' for v in values)})"


def _median(values: list[float]) -> str:
    if not values:
        return "-"
    return (f"{statistics.median(values):7.0f} ms  (median of {len(values)} clicks, "
            f"{min(values):.0f} to {max(values):.0f} ms)")


def _print_wire(wire: dict[str, Any], mbit: float, rtt: float, readers: int, mark: Any) -> None:
    """The static host's figures: times to the first widget and to live, bytes sent by file,
    and the bytes of a reader's first and second visits."""
    print(f"  from a static host (gzip), unthrottled and on a {mbit:g} Mbit/s, {rtt:g} ms link:")
    visits = wire["throttled"]["visits"]
    print(f"open -> live  second visit, throttled (Python afresh, files cached) "
          f"{visits[1]['live']:.0f} ms")
    for visit, label in zip(visits, ("first", "second"), strict=True):
        megabytes = visit["sent"] / 1e6
        target = mark(megabytes, TARGETS["first_visit"]) if label == "first" else ""
        print(f"{label} visit, sent in all   {megabytes:7.2f} MB{target}"
              f"; a class of {readers} on one link: {readers * megabytes:.0f} MB, "
              f"{readers * megabytes * 8 / mbit:.0f} s of the link")
    for name, label in (("fast", "unthrottled"), ("throttled", "throttled")):
        for kind in ("cold", "warm"):
            openings = wire[name][kind]
            for what in ("first widget", "live"):
                values = [o[what] for o in openings]
                target = TARGETS.get(f"{name}_{kind}") if what == "live" else None
                value = statistics.median(values) if values else None
                print(f"open -> {what:12} {label} {kind:4} {_summary(values)}"
                      f"{mark(value, target) if target else ''}")
    visits = wire["throttled"]["wire"] or wire["fast"]["wire"]
    if not visits:
        return
    totals = [sum(size for _, size, _ in replies) for replies in visits]
    middle = visits[totals.index(sorted(totals)[len(totals) // 2])]
    by_file: dict[str, int] = {}
    for path, size, _ in middle:
        by_file[path] = by_file.get(path, 0) + size
    total = sum(by_file.values()) / 1e6
    print(f"sent until live, cold         {total:7.2f} MB in {len(middle)} replies "
          f"({len(by_file)} files; runs: {', '.join(f'{t / 1e6:.2f}' for t in totals)} MB)"
          f"{mark(total, TARGETS['wire'])}")
    compressed = {path for path, _, gz in middle if gz}
    for path, size in sorted(by_file.items(), key=lambda item: -item[1]):
        if size >= 20_000:
            print(f"    {size / 1e6:6.2f} MB  {path}{' (gzip)' if path in compressed else ''}")
    rest = [size for size in by_file.values() if size < 20_000]
    if rest:
        print(f"    {sum(rest) / 1e6:6.2f} MB  {len(rest)} smaller files")


def link_arguments(parser: argparse.ArgumentParser) -> None:
    """The throttled link's options, ``--mbit`` and ``--rtt``."""
    parser.add_argument("--mbit", type=float, default=20, help="the throttled link's megabits a "
                        "second down (default 20)")
    parser.add_argument("--rtt", type=float, default=40, help="the throttled link's round trip "
                        "in ms (default 40)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="page openings per figure (default 3)")
    parser.add_argument("--clicks", type=int, default=20, help="clicks timed (default 20)")
    parser.add_argument("--skip-browser", action="store_true", help="skip the in-browser figures")
    parser.add_argument("--skip-voila", action="store_true", help="skip the Voila figures")
    parser.add_argument("--browser-ui", action="store_true",
                        help="keep Chromium's address-bar popup renderer per window")
    parser.add_argument("--voila-page", choices=("light", "voila"), default="light",
                        help="the classroom's pages measured: its light page (default) or "
                             "Voila's own front end")
    parser.add_argument("--skip-wire", action="store_true",
                        help="skip the figures from the static host (bytes sent, throttled link)")
    link_arguments(parser)
    parser.add_argument("--class-size", type=int, default=30, help="readers on one link, for "
                        "the bytes a class's first and second visits send (default 30)")
    parser.add_argument("--site", type=Path, default=HTML,
                        help="the built site measured (default _build/html)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON")
    args = parser.parse_args(argv)
    html = args.site.resolve()
    if not (html / PAGE).exists():
        print(f"error: {html / PAGE} is missing; run ./dev build first", file=sys.stderr)
        return 1
    if not shutil.which(CHROMIUM):
        print(f"error: {CHROMIUM} is missing; install it with apt-get install chromium",
              file=sys.stderr)
        return 1

    size, maps = site_size(html)
    figures: dict[str, Any] = {"size_mb": round(size, 1), "source_maps": maps,
                               "cpus": os.cpu_count(), "load": os.getloadavg()[0]}
    if not args.skip_browser:
        figures["browser"] = in_browser(html, args.runs, args.clicks, args.browser_ui)
    if not args.skip_wire:
        figures["wire"] = on_the_wire(html, args.runs, args.mbit, args.rtt, args.browser_ui)
    if not args.skip_voila:
        figures["voila"] = under_voila(args.runs, args.clicks, args.browser_ui, args.voila_page)
        figures["voila_page"] = args.voila_page
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0

    def mark(value: float | None, target: float) -> str:
        if value is None:
            return ""
        return "  ok" if value <= target else f"  over the {target:g} target"

    print(f"loo-tutor live widgets, {figures['cpus']} CPUs, load average {figures['load']:.2f} "
          f"at the start")
    print(f"site size                     {size:7.1f} MB, {maps} source maps"
          f"{mark(size, TARGETS['size'])}")
    browser = figures.get("browser")
    if browser:
        for key, label in (("cold", "in-browser, cold"), ("warm", "in-browser, warm cache")):
            value = statistics.median(browser[key]) if browser[key] else None
            print(f"open -> live  {label:16}{_summary(browser[key])}{mark(value, TARGETS[key])}")
        value = statistics.median(browser["click"]) if browser["click"] else None
        print(f"click -> verdict, in-browser  {_median(browser['click'])}"
              f"{mark(value, TARGETS['click'])}")
        for kind in ("cold", "warm"):
            openings = browser.get(f"{kind}_phases")
            if not openings:
                continue
            print(f"  {kind} opening, median ms from navigation start:")
            medians = {label: statistics.median(p[label] for p in openings if label in p)
                       for phases in openings for label in phases}
            for label, value in sorted(medians.items(), key=lambda item: item[1]):
                print(f"    {label:34}{value:7.0f}")
    wire = figures.get("wire")
    if wire:
        _print_wire(wire, args.mbit, args.rtt, args.class_size, mark)
    voila = figures.get("voila")
    if voila:
        print(f"  Voila: the classroom's {args.voila_page} page")
        for key, label in (("cold", "Voila, cold"), ("warm", "Voila, warm cache")):
            value = statistics.median(voila[key]) if voila[key] else None
            print(f"open -> live  {label:16}{_summary(voila[key])}{mark(value, TARGETS['voila'])}")
        print(f"  opened just after another, the kernel still running the notebook (warm cache):"
              f"\n              {_summary(voila['soon'])}")
        value = statistics.median(voila["click"]) if voila["click"] else None
        print(f"click -> verdict, Voila       {_median(voila['click'])}"
              f"{mark(value, TARGETS['voila_click'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
