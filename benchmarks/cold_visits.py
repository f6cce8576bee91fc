"""Cold openings of the live page, two or more builds taken in turn, from a static host.

Run ``python benchmarks/cold_visits.py SITE [SITE ...]`` with built sites
(``_build/html`` after ``./dev build``, or a copy of an older build). Each
site is served as a static host serves it (``benchmarks/static_host.py``:
gzip); then ``--rounds`` times, each site is opened once in turn with an
empty browser profile on the throttled link (``--mbit`` down, ``--rtt``
round trip, as ``benchmarks/browser.py`` throttles) and once unthrottled. A
first round, not counted, has each host compress its files. Taking the
builds in turn spreads the other work of a shared machine over them alike.
It prints each opening's ms to live, then per site and link the median and
spread. A measurement, not a test: it exits 0 whatever the figures are.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

import browser  # beside this script
from static_host import static_host  # beside this script

LINKS = ("throttled", "unthrottled")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", type=Path, nargs="+", help="built sites, taken in turn")
    parser.add_argument("--rounds", type=int, default=3, help="cold openings of each site on "
                        "each link (default 3)")
    browser.link_arguments(parser)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    flags = [*browser.FLAGS, browser.NO_POPUP]
    lives: dict[tuple[Path, str], list[float]] = {(site, link): [] for site in args.sites
                                                  for link in LINKS}
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    with ExitStack() as stack, sync_playwright() as playwright:
        urls = {site: f"{stack.enter_context(static_host(site))[0]}/{browser.PAGE}"
                for site in args.sites}
        for turn in range(args.rounds + 1):
            for link in LINKS:
                for site in args.sites:
                    with tempfile.TemporaryDirectory(prefix="loo-bench-") as profile:
                        context = browser.launch_browser(playwright, profile, flags)
                        try:
                            page = context.new_page()
                            if link == "throttled":
                                browser.throttle(context, page, args.mbit, args.rtt)
                            ms = browser.open_until_live(page, urls[site])
                        finally:
                            context.close()
                    if turn:
                        lives[site, link].append(ms)
                        print(f"round {turn}: {link} {site}: {ms:.0f} ms", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for (site, link), times in lives.items():
        print(f"{site}: {link} cold, live {statistics.median(times):.0f} ms "
              f"({min(times):.0f} to {max(times):.0f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
