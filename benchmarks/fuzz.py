"""The long fuzz run: every input reader, with a large hypothesis budget.

Runs the properties of ``tests/fuzzing.py`` (records, card text, the command
line, exercise answers, hostile YAML text, answers files for ``loo-tutor mark``)
far longer than the test suite does, each example under a time limit that
turns a hang into a failure. Prints, per target, the examples run, the examples per second, the slowest
example, what the examples came to (e.g. how many records were complete, in
progress, illegal or malformed), then the tracebacks (errors other than a
failed property), the hangs and the lines lost in all (a file given to
``loo-tutor check --jsonl`` or ``loo-tutor mark`` that got no line), and the
failures with the smallest failing input hypothesis found.

    python benchmarks/fuzz.py                      # 20,000 examples per target
    python benchmarks/fuzz.py --examples 2000 --targets records cli --seed 7

Exit status 1 when a property failed. The CI run of the same properties is
``pytest tests/records/test_fuzz_records.py tests/apps/test_fuzz_inputs.py``.
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

from hypothesis import HealthCheck, Phase, given, seed, settings
from tqdm import tqdm

from fuzzing import JSONL, MARKED, TARGETS

ROOT = Path(__file__).resolve().parent.parent


HANG_SECONDS = 10


class Hang(BaseException):
    """An example ran longer than the time limit (a BaseException, which ``except
    Exception`` in the code under test cannot take for an error of its own)."""


def _alarm(signum: int, frame: Any) -> None:
    raise Hang(f"an example ran longer than {HANG_SECONDS} s")


class Tally:
    """What one target's examples came to."""

    def __init__(self) -> None:
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.examples = self.tracebacks = self.hangs = 0
        self.slowest = 0.0
        self.failure: str | None = None
        self.hung_on = ""


def run(name: str, examples: int, base_seed: int) -> Tally:
    """Run one target with a progress bar on standard error."""
    strategy, prop = TARGETS[name]
    tally = Tally()
    bar = tqdm(total=examples, desc=f"{name:>10}", unit="example", file=sys.stderr,
               mininterval=0.5 if sys.stderr.isatty() else 15)

    def example(drawn: Any) -> None:
        tally.examples += 1
        bar.update()
        started = time.monotonic()
        signal.alarm(HANG_SECONDS)
        try:
            tally.outcomes[str(prop(drawn))] += 1
        except Hang:
            tally.hangs += 1
            tally.hung_on = repr(drawn)[:2000]
            raise
        except AssertionError:
            raise
        except Exception:
            tally.tracebacks += 1
            raise
        finally:
            signal.alarm(0)
            tally.slowest = max(tally.slowest, time.monotonic() - started)

    # No explain phase: its line tracing slows an example tenfold and would pass for a hang.
    test = settings(max_examples=examples, deadline=None, database=None,
                    phases=[p for p in Phase if p is not Phase.explain],
                    suppress_health_check=list(HealthCheck))(seed(base_seed)(given(strategy)(example)))
    try:
        test()
    except Hang as hang:  # hypothesis does not shrink what is not an Exception
        tally.failure = f"{hang}: {tally.hung_on}"
    except Exception:  # reported, with hypothesis's smallest example
        tally.failure = traceback.format_exc(limit=-6)
    bar.close()
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=20_000,
                        help="examples per target (default 20000)")
    parser.add_argument("--targets", nargs="*", choices=sorted(TARGETS), default=sorted(TARGETS),
                        help="which readers to fuzz (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    print(f"command: python benchmarks/fuzz.py --examples {args.examples} --seed {args.seed} "
          f"--targets {' '.join(args.targets)}")
    total = tracebacks = hangs = 0
    spent = 0.0
    failed, rows = [], []
    for name in args.targets:
        started = time.monotonic()
        tally = run(name, args.examples, args.seed)
        seconds = time.monotonic() - started
        total += tally.examples
        tracebacks += tally.tracebacks
        hangs += tally.hangs
        spent += seconds
        seen = ", ".join(f"{k} {v}" for k, v in tally.outcomes.most_common())
        rows.append(f"{name:>10}: {tally.examples} examples in {seconds:.0f} s, "
                    f"{tally.examples / max(seconds, 1e-9):.0f}/s, slowest {tally.slowest:.2f} s; "
                    f"{'FAILED' if tally.failure else 'no failure'} ({seen})")
        if tally.failure:
            failed.append((name, tally.failure))
    lost = JSONL["files"] - JSONL["lines"] + MARKED["files"] - MARKED["lines"]
    print()
    print("\n".join(rows))
    print(f"\nin all: {total} examples in {spent:.0f} s ({total / max(spent, 1e-9):.0f}/s), "
          f"{len(failed)} of {len(args.targets)} targets failed; {tracebacks} tracebacks, "
          f"{hangs} hangs (over {HANG_SECONDS} s), {lost} lost lines "
          f"({JSONL['lines']} --jsonl lines for {JSONL['files']} files; "
          f"{MARKED['lines']} files of {MARKED['files']} given to loo-tutor mark got their line)")
    for name, failure in failed:
        print(f"\n--- {name} ---\n{failure}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
