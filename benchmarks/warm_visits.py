"""Warm openings of the live page, two or more builds taken in turn.

Run ``python benchmarks/warm_visits.py SITE [SITE ...]`` with built sites
(``_build/html`` after ``./dev build``, or a copy of an older build). Each
site gets its own browser profile, filled by a first visit that stays until
the page has nothing more to fetch, and one more opening (a reader's second
visit); then ``--rounds`` times, each site is opened once more in turn, with
the browser restarted for each opening as ``benchmarks/browser.py`` does.
Taking the builds in turn spreads the other work of a shared machine over
them alike, where two runs of ``browser.py`` one after the other may meet
different loads. It prints each opening's ms to live, then per site the
median and spread, and the median of each mark on the warm timeline
(``browser.py``'s, with the stages the page's worker marks). A measurement,
not a test: it exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import browser  # beside this script
from browser_support import serve_directory  # the tests' folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built sites, taken in turn")
    parser.add_argument("--rounds", type=int, default=6, help="warm openings of each site (default 6)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    flags = [*browser.FLAGS, browser.NO_POPUP]
    openings: dict[Path, list[tuple[float, dict[str, float]]]] = {site: [] for site in args.sites}
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    with ExitStack() as stack, sync_playwright() as playwright:
        urls = {site: f"{stack.enter_context(serve_directory(site, browser.CACHE_SECONDS))}"
                      f"/{browser.PAGE}" for site in args.sites}
        profiles = {site: stack.enter_context(tempfile.TemporaryDirectory(prefix="loo-bench-"))
                    for site in args.sites}
        for site in args.sites:
            for stay in (True, False):  # a first visit, then a second
                context = browser.launch_browser(playwright, profiles[site], flags)
                try:
                    page = context.new_page()
                    browser.open_until_live(page, urls[site])
                    if stay:
                        browser.wait_settled(page)
                finally:
                    context.close()
        for turn in range(args.rounds):
            for site in args.sites:
                context = browser.launch_browser(playwright, profiles[site], flags)
                requests: list[tuple[float, str]] = []
                context.on("request",
                           lambda r, noted=requests: noted.append((time.time() * 1000, r.url)))
                try:
                    page = context.new_page()
                    ms = browser.open_until_live(page, urls[site])
                    openings[site].append((ms, browser.opening_phases(page, requests)))
                finally:
                    context.close()
                print(f"round {turn + 1}: {site}: {ms:.0f} ms", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for site, runs in openings.items():
        lives = [ms for ms, _ in runs]
        print(f"{site}: live {statistics.median(lives):.0f} ms ({min(lives):.0f} to {max(lives):.0f})")
        marks: dict[str, list[float]] = {}
        for _, phases in runs:
            for name, at in phases.items():
                marks.setdefault(name, []).append(at)
        for name, times in sorted(marks.items(), key=lambda item: statistics.median(item[1])):
            print(f"    {statistics.median(times):6.0f}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
