"""The classroom server under load: many students at once, click latency, memory, culling.

Starts ``loo-tutor classroom`` on a free port of 127.0.0.1 with a short cull
time, opens SESSIONS pages of the forced-ace app in Debian's Chromium (one
browser context each, Playwright; the students arrive STAGGER seconds apart
and all stay until the last is done), and in each page
plays A's cards through the deal twice (a refused 7♥, then the legal cards,
then Reset). It prints

* the time for a page to show its live trainer, and the click latency (from
  the click to the server's answer changing the widget) as median and 95th
  percentile;
* the memory of each kernel (one per open page) when all pages are open,
  resident and unique (what stopping it frees), and the peak of the server
  plus its kernels;
* that the kernels of the pages, left without closing them properly, are
  stopped once idle for the cull time.

    python benchmarks/classroom_load.py                    # 30 sessions
    python benchmarks/classroom_load.py --sessions 3 --cull-after 10
    python benchmarks/classroom_load.py --answers          # 30 students answer exercises

With ``--answers`` the class answers exercises instead, with the teacher's
page open (``tests/classroom_answers.py``): each student joins by name, opens
the exercises app and checks exercise 1 ROUNDS times. It prints the click
latency (the verdict on the student's page) and the time until the server
has kept the check, how long the teacher's page took to count each answer
after the class book held it, and whether the class book's rows are exactly
the checks the pages showed (none lost, none kept twice).

It also prints where the processor time went during the class (the server,
its kernels, the browser) and the clicks split by what else was happening:
made while another student's page was opening, in the few seconds after one
went live (when Voila starts a kernel to refill its pool), or neither.

The browser runs on the same machine as the server, so on a small machine
the latencies include the browser's own work for every page. Each student
is a window of its own, and Chromium 156 starts a renderer for each new
window's address-bar popup (its WebUI omnibox popup, about a second of
processor time per window, on the server's cores) although a headless window
never shows one; a student's own browser pays that on the student's
computer. The script turns that popup off (``--disable-features``), which
leaves the work of the page itself untouched; ``--browser-ui`` keeps it, for
comparison with the figures measured before this was done.

For classes larger than the browsers let this machine hold, and to measure
the server alone, ``benchmarks/classroom_crowd.py`` has students speak the
page's protocol without a browser.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from browser_support import CHROMIUM, FLAGS
from classroom_answers import class_answers
from classroom_server import (
    class_at_work,
    free_port,
    start,
    stop,
    wait_for_kernels,
    wait_until_quiet,
)

ROOT = Path(__file__).resolve().parent.parent


NOTEBOOKS = len(list((ROOT / "notebooks").glob("*.ipynb")))
NO_POPUP = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
REFILL_S = 3.0  # after a page goes live: Voila's 1 s delay, then a kernel starts and runs it


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _split(clicks: list[float], at: list[float],
           spans: list[tuple[float, float]]) -> dict[str, list[float]]:
    """The clicks made while a page was opening, in the refill after one went live, or neither."""
    groups: dict[str, list[float]] = {"opening": [], "refill": [], "quiet": []}
    for ms, when in zip(clicks, at, strict=True):
        if any(start <= when <= live for start, live in spans):
            groups["opening"].append(ms)
        elif any(live < when <= live + REFILL_S for _, live in spans):
            groups["refill"].append(ms)
        else:
            groups["quiet"].append(ms)
    return groups


def _figures(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"{len(values)} clicks, p50 {statistics.median(values):.0f} ms, "
            f"p95 {percentile(values, 0.95):.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=30, help="students at once (default 30)")
    parser.add_argument("--rounds", type=int, default=None,
                        help="deals each plays (default 2), or with --answers checks each "
                             "(default 5)")
    parser.add_argument("--stagger", type=float, default=3.0,
                        help="seconds between two students arriving (default 3; 0 all at once)")
    parser.add_argument("--cull-after", type=int, default=20,
                        help="seconds before an idle kernel is stopped (default 20)")
    parser.add_argument("--pool-size", type=int, default=1,
                        help="kernels kept ready per notebook (default 1, as the classroom)")
    parser.add_argument("--browser-ui", action="store_true",
                        help="keep Chromium's address-bar popup renderer for each window "
                             "(off by default: see the docstring)")
    parser.add_argument("--answers", action="store_true",
                        help="the students answer exercises, with the teacher's page open; "
                             "ROUNDS checks each (default 5)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        print(f"error: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    if args.answers:
        return answering(args)
    t0 = time.monotonic()
    server = start("--port", str(free_port()), "--cull-after", f"{args.cull_after}s",
                   "--pool-size", str(args.pool_size))
    try:
        ready = NOTEBOOKS * args.pool_size
        wait_for_kernels(server, ready, 180)
        wait_until_quiet(server, 180)
        print(f"classroom up with {ready} kernels ready in {time.monotonic() - t0:.1f} s; "
              f"{args.sessions} students open the forced-ace app, {args.stagger:g} s apart, "
              f"and stay; load average {os.getloadavg()[0]:.2f}", flush=True)
        flags = FLAGS if args.browser_ui else [*FLAGS, NO_POPUP]
        load = class_at_work(server, args.sessions, args.rounds or 2,
                             cull_wait=args.cull_after * 3 + 30, executable=str(CHROMIUM),
                             flags=flags, stagger=args.stagger)
    finally:
        code = stop(server)
    clicks = load.click_ms
    print(f"\nsessions live: {load.live} of {load.sessions}; deals played to the end: "
          f"{load.finished}")
    if load.open_s:
        print(f"page to live trainer: median {statistics.median(load.open_s):.1f} s, "
              f"slowest {max(load.open_s):.1f} s")
    if clicks:
        print(f"click to answer ({len(clicks)} clicks): p50 {statistics.median(clicks):.0f} ms, "
              f"p95 {percentile(clicks, 0.95):.0f} ms, max {max(clicks):.0f} ms; "
              f"unanswered within 20 s: {load.unanswered}")
        groups = _split(clicks, load.click_at, load.open_spans)
        print(f"  made while another page was opening: {_figures(groups['opening'])}")
        print(f"  in the {REFILL_S:g} s after a page went live (pool refill): "
              f"{_figures(groups['refill'])}")
        print(f"  neither: {_figures(groups['quiet'])}")
    if load.cpu_s:
        cpu = load.cpu_s
        per = max(1, load.sessions)
        print(f"processor time during the class: browser {cpu['browser']:.0f} s, kernels "
              f"{cpu['kernels']:.0f} s, server {cpu['server']:.0f} s (per student "
              f"{cpu['browser'] / per:.1f}, {cpu['kernels'] / per:.1f} and "
              f"{cpu['server'] / per:.1f} s)")
    if load.kernel_rss_mb:
        rss, uss = load.kernel_rss_mb, load.kernel_uss_mb
        print(f"memory per kernel with every page open ({len(rss)} kernels, the "
              f"{load.ready_kernels} kept ready included): resident median "
              f"{statistics.median(rss):.0f} MB (max {max(rss):.0f}), unique median "
              f"{statistics.median(uss):.0f} MB (max {max(uss):.0f})")
    added = (load.peak_total_mb - load.before_total_mb) / max(1, load.sessions)
    print(f"peak: {load.peak_kernels} kernels, largest {load.peak_kernel_mb:.0f} MB; server plus "
          f"kernels {load.peak_total_mb:.0f} MB resident ({load.before_total_mb:.0f} MB before "
          f"the class, so {added:.0f} MB more per session)")
    if load.culled_s is None:
        print(f"culling: FAILED, {load.kernels_left} kernels still running "
              f"(ready before the class: {load.ready_kernels})")
    else:
        print(f"culling: the pages' kernels were stopped {load.culled_s:.0f} s after the pages "
              f"went away (cull time {args.cull_after} s); {load.kernels_left} kernels left, "
              f"the {load.ready_kernels} kept ready")
    print(f"requests to other hosts: {len(load.outside)}; console errors: {len(load.errors)}; "
          f"server exit status {code}")
    for line in load.errors[:20]:
        print("  " + line)
    failed = (load.errors or load.outside or load.culled_s is None or load.live < load.sessions
              or load.unanswered)
    return 1 if failed else 0


def answering(args: argparse.Namespace) -> int:
    """The class answers exercises with the teacher's page open (``--answers``)."""
    rounds = args.rounds or 5
    data = Path(tempfile.mkdtemp(prefix="loo-class-"))
    t0 = time.monotonic()
    server = start("--port", str(free_port()), "--pool-size", str(args.pool_size), data=data)
    try:
        wait_for_kernels(server, NOTEBOOKS * args.pool_size, 180)
        wait_until_quiet(server, 180)
        print(f"classroom up in {time.monotonic() - t0:.1f} s; {args.sessions} students join "
              f"and check exercise 1 {rounds} times each, {args.stagger:g} s apart, with the "
              f"teacher's page open; load average {os.getloadavg()[0]:.2f}", flush=True)
        flags = FLAGS if args.browser_ui else [*FLAGS, NO_POPUP]
        out = class_answers(server, data / "class.sqlite3", args.sessions, rounds,
                            args.stagger, str(CHROMIUM), flags)
    finally:
        code = stop(server)
    print(f"\nstudents joined: {out.joined} of {out.students}; checks shown on their pages: "
          f"{len(out.shown)} (unanswered within 20 s: {out.unanswered})")
    if out.check_ms:
        print(f"click to verdict: {_figures(out.check_ms)}, max {max(out.check_ms):.0f} ms")
    if out.kept_ms:
        print(f"click to kept by the server: {_figures(out.kept_ms)}, "
              f"max {max(out.kept_ms):.0f} ms")
    lag = out.teacher_lag_s
    if lag:
        print(f"teacher's page counted each answer after the class book held it: median "
              f"{statistics.median(lag):.1f} s, p95 {percentile(lag, 0.95):.1f} s, max "
              f"{max(lag):.1f} s (read every 0.25 s); at the end it showed "
              f"{out.teacher_final} answers")
        arriving = [s for s, at in zip(lag, out.teacher_lag_at, strict=True)
                    if at <= out.last_joined]
        settled = [s for s, at in zip(lag, out.teacher_lag_at, strict=True)
                   if at > out.last_joined]
        for words, part in (("while students were still arriving", arriving),
                            ("once every student had joined", settled)):
            if part:
                print(f"  {words}: {len(part)} answers, median "
                      f"{statistics.median(part):.1f} s, max {max(part):.1f} s")
    print(f"class book: {out.rows} rows, {out.distinct} distinct checks; shown but not kept: "
          f"{out.missing}; kept but never shown: {out.extra}")
    print(f"requests to other hosts: {len(out.outside)}; console errors: {len(out.errors)}; "
          f"server exit status {code}")
    for line in out.errors[:20]:
        print("  " + line)
    failed = (out.errors or out.outside or out.missing or out.extra or out.rows != out.distinct
              or out.rows != len(out.shown) or out.teacher_final != out.rows
              or out.joined < out.students or (lag and max(lag) > 2.0))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
