"""A monkey on the built site: random clicks on the live widgets, each shown deal re-checked.

Serves ``_build/html`` on 127.0.0.1, opens each notebook page in Debian's
Chromium (Playwright), waits until its widgets run in the browser (Pyodide)
and uses controls picked at random, refusing every request that leaves the
site. After every click each deal on show is re-checked with the engine
(see ``tests/monkey_clicks.py``). Prints the clicks made, the states checked, the
errors found and the time the page took to settle after a click.

    python benchmarks/monkey.py                 # 1,000 clicks over every live page
    python benchmarks/monkey.py --clicks 100 --pages forced-ace trainers --seed 3

Exit status 1 when anything was found. Build the site first (``./dev build``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from browser_support import in_browser, serve_directory
from monkey_clicks import PYTHON_IN_REACH, Tally, run_page

ROOT = Path(__file__).resolve().parent.parent


HTML = ROOT / "_build" / "html"


def live_pages() -> list[str]:
    """The notebook pages of the built book (each one goes live)."""
    return sorted(p.stem for p in (HTML / "notebooks").glob("*.html"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clicks", type=int, default=1000, help="clicks in all (default 1000)")
    parser.add_argument("--pages", nargs="*", default=None,
                        help="notebook pages by name, e.g. forced-ace (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--online", action="store_true",
                        help="let requests to other hosts through (default: refused)")
    args = parser.parse_args()
    pages = args.pages or live_pages()
    if not pages or not (HTML / "notebooks" / f"{pages[0]}.html").exists():
        print("error: no built notebook pages; run ./dev build first", file=sys.stderr)
        return 2
    share = [args.clicks // len(pages) + (i < args.clicks % len(pages)) for i in range(len(pages))]
    tally = Tally()
    started = time.monotonic()

    def work(browser: object) -> None:
        for name, clicks in zip(pages, share, strict=True):
            before = (tally.clicks, len(tally.problems), len(tally.errors))
            t0 = time.monotonic()
            run_page(browser, site, f"notebooks/{name}.html", clicks, args.seed, tally,
                     offline=not args.online)
            print(f"{name}: {tally.clicks - before[0]} clicks in {time.monotonic() - t0:.0f} s "
                  f"(live after {tally.live_s[-1]:.1f} s), "
                  f"{len(tally.problems) - before[1]} problems, "
                  f"{len(tally.errors) - before[2]} console errors", flush=True)

    with serve_directory(HTML, appended=PYTHON_IN_REACH) as site:
        in_browser(work)
    elapsed = time.monotonic() - started
    settle = sorted(tally.settle_ms)
    print(f"\nclicks: {tally.clicks} on {len(tally.pages)} pages in {elapsed:.0f} s; "
          f"deals on show re-checked: {tally.checks}")
    print("controls used: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.by_control.items())))
    if settle:
        p95 = settle[min(len(settle) - 1, int(0.95 * len(settle)))]
        print(f"page settled after a click: median {statistics.median(settle):.0f} ms, "
              f"p95 {p95:.0f} ms (includes 150 ms of quiet)")
    print(f"requests to other hosts: {len(tally.outside)} ({len(tally.blocked)} refused)")
    if tally.reloads:
        print(f"pages reloaded because no control could be used: {len(tally.reloads)} "
              f"({'; '.join(tally.reloads[:5])})")
    print(f"problems: {len(tally.problems)}; console errors: {len(tally.errors)}")
    for line in (tally.problems + tally.errors)[:30]:
        print("  " + line)
    return 1 if tally.problems or tally.errors or tally.outside else 0


if __name__ == "__main__":
    raise SystemExit(main())
