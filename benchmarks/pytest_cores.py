"""Where a pytest run spends the machine's processor time: each test module's share of the busy cores.

Runs pytest, by default as ``./dev test`` runs it (the whole suite on three
workers, ``-n 3 --dist loadscope``), with this file as a plugin that notes when
each test began and ended, in which worker; meanwhile this process reads the
machine's busy time from ``/proc/stat`` once a second. Each second's busy time
is shared among the tests running in it, in proportion to how long each ran in
it. Prints the modules that took most of it, with the time their tests took,
and how many cores were busy in each 15 s of the run, with the module each
worker was in. The figures are the whole machine's: take them on a quiet one.
The book must be built first (``./dev build``), as for any test that opens it.

    python benchmarks/pytest_cores.py                         # the whole suite, as ./dev test runs it
    python benchmarks/pytest_cores.py -- -n 2 tests/engine    # what follows -- goes to pytest
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOG = "LOO_PYTEST_CORES_LOG"
"""The environment variable naming the file the plugin appends each test's times to."""
BIN_SECONDS = 15
TOP = 25


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Note the test's start and end (its fixtures' set-up and tear-down included)."""
    began = time.time()
    yield
    log = os.environ.get(LOG)
    if log:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        with open(log, "a", encoding="utf-8") as file:
            file.write(json.dumps([item.nodeid, worker, began, time.time()]) + "\n")


@dataclass(frozen=True)
class Run:
    module: str
    worker: str
    began: float
    ended: float


def busy_cores(stop: threading.Event, samples: list[tuple[float, float]]) -> None:
    """Append (time, busy core-seconds since the sample before) once a second until ``stop``."""
    before: tuple[float, int, int] | None = None
    while True:
        with open("/proc/stat", encoding="ascii") as stat:
            ticks = [int(n) for n in stat.readline().split()[1:9]]
        now, idle, total = time.time(), ticks[3] + ticks[4], sum(ticks)
        if before is not None:
            samples.append((now, ((total - before[2]) - (idle - before[1])) / os.sysconf("SC_CLK_TCK")))
        before = (now, idle, total)
        if stop.wait(1.0):
            return


def shares(runs: list[Run], samples: list[tuple[float, float]]) -> dict[str, float]:
    """Each module's core-seconds: each sample's busy time shared among the runs in it."""
    spent: dict[str, float] = defaultdict(float)
    last = samples[0][0] - 1.0 if samples else 0.0
    for now, busy in samples:
        inside = [(run.module, min(now, run.ended) - max(last, run.began)) for run in runs
                  if run.began < now and run.ended > last]
        length = sum(seconds for _, seconds in inside)
        for module, seconds in inside:
            spent[module] += busy * seconds / length
        if not inside:
            spent["(no test running)"] += busy
        last = now
    return spent


def report(runs: list[Run], samples: list[tuple[float, float]], wall: float) -> None:
    spent = shares(runs, samples)
    took: dict[str, float] = defaultdict(float)
    for run in runs:
        took[run.module] += run.ended - run.began
    busy = sum(b for _, b in samples)
    print(f"pytest took {wall:.0f} s; the cores were busy {busy:.0f} core-seconds "
          f"({busy / wall:.2f} cores on average; load average at the end "
          f"{os.getloadavg()[0]:.1f})")
    print(f"\n{'core-s':>7} {'tests took':>10}  module (the {TOP} that took most)")
    for module, seconds in sorted(spent.items(), key=lambda kv: -kv[1])[:TOP]:
        print(f"{seconds:7.1f} {took.get(module, 0.0):9.1f}s  {module}")
    if not runs:
        return
    start = min(run.began for run in runs)
    workers = sorted({run.worker for run in runs})
    print(f"\nbusy cores in each {BIN_SECONDS} s, and the module each worker was in")
    bins: dict[int, float] = defaultdict(float)
    for now, busy_now in samples:
        bins[int((now - start) // BIN_SECONDS)] += busy_now
    for n in sorted(b for b in bins if b >= 0):
        middle = start + n * BIN_SECONDS + BIN_SECONDS / 2
        inside = [next((run.module.rsplit("/", 1)[-1] for run in runs
                        if run.worker == worker and run.began <= middle <= run.ended), "-")
                  for worker in workers]
        print(f"{n * BIN_SECONDS:5d} s {bins[n] / BIN_SECONDS:5.2f}  " +
              "  ".join(f"{name[:34]:34s}" for name in inside))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pytest_args", nargs="*", metavar="ARGS",
                        help="pytest's arguments, after -- (default: -n 3 --dist loadscope)")
    args = parser.parse_args()
    given = args.pytest_args or ["-n", "3", "--dist", "loadscope"]
    print("command: python benchmarks/pytest_cores.py -- " + " ".join(given), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "tests.jsonl"
        env: dict[str, Any] = dict(os.environ, **{LOG: str(log)})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).parent),
                                                           os.environ.get("PYTHONPATH")]))
        stop = threading.Event()
        samples: list[tuple[float, float]] = []
        sampler = threading.Thread(target=busy_cores, args=(stop, samples), daemon=True)
        sampler.start()
        began = time.time()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "pytest_cores",
                               *given], cwd=ROOT, env=env, check=False)
        wall = time.time() - began
        stop.set()
        sampler.join()
        runs: list[Run] = []
        if log.exists():
            for line in log.read_text(encoding="utf-8").splitlines():
                nodeid, worker, start, end = json.loads(line)
                runs.append(Run(nodeid.split("::")[0], worker, start, end))
    report(runs, samples, wall)
    if done.returncode != 0:
        print(f"error: pytest failed (exit {done.returncode}); the figures above are of a failed run",
              file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
