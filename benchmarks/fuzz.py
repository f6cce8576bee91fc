"""The long fuzz run: every input reader, with a large hypothesis budget.

Runs the properties of ``tests/fuzzing.py`` (records, card text, the command
line, exercise answers) far longer than the test suite does, each example
under a time limit that turns a hang into a failure. Prints, per target, the
examples run, the examples per second, what the examples came to (e.g. how
many records were complete, in progress, illegal or malformed) and the
failures with the smallest failing input hypothesis found.

    python benchmarks/fuzz.py                      # 20,000 examples per target
    python benchmarks/fuzz.py --examples 2000 --targets records cli --seed 7

Exit status 1 when a property failed. The CI run of the same properties is
``pytest tests/test_fuzz_records.py tests/test_fuzz_inputs.py``.
"""

from __future__ import annotations

import argparse
import collections
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from fuzzing import TARGETS  # noqa: E402

HANG_SECONDS = 10


class Hang(Exception):
    """An example ran longer than the time limit."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"an example ran longer than {HANG_SECONDS} s")


class Bar:
    """A one-line progress bar on standard error."""

    def __init__(self, name: str, total: int) -> None:
        self.name, self.total, self.started, self.shown = name, total, time.monotonic(), 0.0
        self.tty = sys.stderr.isatty()

    def update(self, done: int) -> None:
        now = time.monotonic()
        if now - self.shown < (0.2 if self.tty else 15) and done < self.total:
            return
        self.shown = now
        width = 30
        filled = min(width, width * done // max(1, self.total))
        rate = done / max(1e-9, now - self.started)
        line = (f"{self.name:>10} [{'#' * filled}{'.' * (width - filled)}] "
                f"{done}/{self.total} {rate:.0f}/s")
        print(("\r" + line) if self.tty else line, end="" if self.tty else "\n",
              file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tty:
            print(file=sys.stderr)


def run(name: str, examples: int, base_seed: int) -> tuple[int, float, collections.Counter[str],
                                                           str | None]:
    """Run one target; returns examples run, seconds, outcomes, and the failure if any."""
    strategy, prop = TARGETS[name]
    outcomes: collections.Counter[str] = collections.Counter()
    bar = Bar(name, examples)
    count = [0]

    def example(drawn: Any) -> None:
        count[0] += 1
        bar.update(count[0])
        signal.alarm(HANG_SECONDS)
        try:
            outcomes[str(prop(drawn))] += 1
        finally:
            signal.alarm(0)

    test = settings(max_examples=examples, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))(seed(base_seed)(given(strategy)(example)))
    started = time.monotonic()
    failure = None
    try:
        test()
    except Exception:  # noqa: BLE001 (reported, with hypothesis's smallest example)
        failure = traceback.format_exc(limit=-6)
    bar.close()
    return count[0], time.monotonic() - started, outcomes, failure


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=20_000,
                        help="examples per target (default 20000)")
    parser.add_argument("--targets", nargs="*", choices=sorted(TARGETS), default=sorted(TARGETS),
                        help="which readers to fuzz (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    total, failed, spent = 0, [], 0.0
    rows = []
    for name in args.targets:
        done, seconds, outcomes, failure = run(name, args.examples, args.seed)
        total += done
        spent += seconds
        seen = ", ".join(f"{k} {v}" for k, v in outcomes.most_common())
        rows.append(f"{name:>10}: {done} examples in {seconds:.0f} s, {done / seconds:.0f}/s; "
                    f"{'FAILED' if failure else 'no failure'} ({seen})")
        if failure:
            failed.append((name, failure))
    print()
    print("\n".join(rows))
    print(f"\nin all: {total} examples in {spent:.0f} s ({total / max(spent, 1e-9):.0f}/s), "
          f"{len(failed)} of {len(args.targets)} targets failed")
    for name, failure in failed:
        print(f"\n--- {name} ---\n{failure}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
