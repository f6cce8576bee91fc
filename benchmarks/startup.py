"""How long ``loo-tutor check`` takes to start: the whole run of a small record, and its imports.

Runs ``python -m loo_tutor check RECORD`` again and again in fresh processes
and prints the median and quickest wall time and the median processor time
(user and system, which a busy machine inflates less), then, from one run under
``-X importtime``, the time spent importing loo-tutor's command and the
modules that cost most. ``--root`` picks the checkout whose loo_tutor is
imported, so that two versions can be compared on the same machine.

    python benchmarks/startup.py                      # this checkout, 30 runs
    python benchmarks/startup.py --root ../other --runs 50
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = "tests/data/examples/01_seed000_forced_ace.yaml"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the checkout to import loo_tutor from (default: this one)")
    parser.add_argument("--runs", type=int, default=30, help="runs to time (default 30)")
    args = parser.parse_args()
    root = args.root.resolve()
    env = dict(os.environ, PYTHONPATH=str(root))
    command = [sys.executable, "-m", "loo_tutor", "check", str(root / RECORD)]
    print(f"command: python benchmarks/startup.py --root {root} --runs {args.runs}")
    times, cpu = [], []
    for _ in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, cwd=root, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    print(f"loo-tutor check {RECORD}: median {statistics.median(times) * 1000:.0f} ms, "
          f"quickest {min(times) * 1000:.0f} ms over {args.runs} runs; "
          f"processor time median {statistics.median(cpu) * 1000:.0f} ms")
    traced = subprocess.run([sys.executable, "-X", "importtime", *command[1:]], cwd=root, env=env,
                            capture_output=True, text=True, check=True)
    rows = []
    for line in traced.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[0].strip().isdigit():
            rows.append((int(parts[1]), parts[2].strip()))
    cumulative = {name: us for us, name in rows}
    own = sorted((us, name) for us, name in rows if name.startswith("loo_tutor"))
    print(f"importing loo_tutor.apps.cli: {cumulative.get('loo_tutor.apps.cli', 0) / 1000:.0f} ms "
          f"(the package loo_tutor: {cumulative.get('loo_tutor', 0) / 1000:.0f} ms); "
          f"{len(own)} loo_tutor modules imported")
    for us, name in sorted(rows, reverse=True)[:8]:
        print(f"  {us / 1000:6.1f} ms  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
