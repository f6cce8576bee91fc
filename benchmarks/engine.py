"""Engine speed, measured against shuffling a pack.

Run ``python benchmarks/engine.py``. Prints microseconds per operation and
each figure as a multiple of one ``random.Random.shuffle`` of 52 cards:

* shuffle: ``random.Random.shuffle`` of a 52-card list;
* check: :func:`loo_tutor.check` of a complete record already parsed from YAML
  (the packaged seed-000 forced-ace deal);
* check, varied corpus: :func:`loo_tutor.check` of each of 200 complete records
  parsed from YAML, made from seeded random deals (seed 27) for 5 to 8
  players: a quarter each of simple deals, double deals played, double deals
  the dealer defended and deals whose pool was collected without play; the
  figure is the mean per record;
* random deal: shuffle, cut, deal and play a whole 6-player double deal with
  uniformly random legal choices, settlement included.

Targets (issue "Engine"): check ≤ 4× shuffle, random deal ≤ 5× shuffle;
(issue "Layers you can see") the varied corpus ≤ 3× shuffle compiled and
≤ 6× pure.

Both builds of the engine are measured, each in a process of its own: the
pure-Python package of this checkout, and the same source compiled with mypyc
(``scripts/build_compiled.py``, built first when missing or out of date).
``--engine pure`` measures the checkout's engine alone, and
``python scripts/build_compiled.py --run benchmarks/engine.py --engine compiled``
the compiled one alone.
"""

from __future__ import annotations

import argparse
import itertools
import random
import subprocess
import sys
import time
import timeit
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAYERS = ["P1", "P2", "P3", "P4", "P5", "P6"]
CORPUS_SIZE = 200
CORPUS_SEED = 27
KINDS = ("simple", "double", "defended", "collected")


def varied_corpus(size: int = CORPUS_SIZE, seed: int = CORPUS_SEED) -> list[dict[str, object]]:
    """``size`` complete records of seeded random deals, parsed from their YAML text.

    Record ``i`` has ``5 + i // 4 % 4`` players and is of kind ``KINDS[i % 4]``;
    deals are played at random until one of that kind comes up.
    """
    from loo_tutor import dumps, loads, record_from_state
    from loo_tutor.engine.sim import random_deal

    rng = random.Random(seed)
    records = []
    for i in range(size):
        names = [f"P{n}" for n in range(1, 6 + i // 4 % 4)]
        kind = KINDS[i % 4]
        while True:
            carried = 0 if kind == "simple" else rng.choice((3, 6, 9, "10/3", "9/2"))
            state = random_deal(names, rng.randrange(len(names)),
                                Fraction(carried), rng)
            if kind == "simple" or state.kind.value == "simple":
                if kind == "simple" and state.kind.value == "simple":
                    break
                continue
            if kind == "collected" and state.collected_by is not None:
                break
            if kind == "defended" and state.defender is not None:
                break
            if kind == "double" and state.collected_by is None and state.defender is None:
                break
        records.append(loads(dumps(record_from_state(state))))
    return records


def best_times(operations: dict[str, Callable[[], object]], number: int,
               rounds: int) -> dict[str, float]:
    """Microseconds per call of each operation: the best of ``rounds`` batches.

    The operations take turns batch by batch, so a burst of other work on the
    machine slows all of them alike instead of one, and the time counted is
    this process's CPU time.
    """
    best = dict.fromkeys(operations, float("inf"))
    for _ in range(rounds):
        for name, operation in operations.items():
            seconds = timeit.Timer(operation, timer=time.process_time).timeit(number)
            best[name] = min(best[name], seconds / number * 1e6)
    return best


def measure(engine: str, number: int, rounds: int) -> None:
    """Measure the engine this process imports, which must be ``engine``, and print its rows."""
    import loo_tutor.engine.machine
    from loo_tutor import check
    from loo_tutor.engine.sim import random_deal
    from loo_tutor.records.data import example

    if loo_tutor.engine.machine.__file__.endswith(".so") != (engine == "compiled"):
        raise SystemExit(f"engine.py: expected the {engine} engine, got {loo_tutor.engine.machine.__file__}")

    rng = random.Random(2026)
    pack = list(range(52))
    record = example("forced-ace")  # the seed-000 deal, complete, parsed from YAML
    assert check(record)["status"] == "complete"
    deal_rng = random.Random(7)
    corpus = varied_corpus()
    assert all(check(r)["status"] == "complete" for r in corpus)
    next_record = itertools.cycle(corpus).__next__

    operations: dict[str, Callable[[], object]] = {
        "shuffle 52 cards (random.Random.shuffle)": lambda: rng.shuffle(pack),
        "check() a complete record": lambda: check(record),
        f"check() a record of the varied {CORPUS_SIZE}": lambda: check(next_record()),
        "random complete deal, 6 players":
            lambda: random_deal(PLAYERS, 5, 9, deal_rng).settlement(),
    }
    times = best_times(operations, number, rounds)
    shuffle = times["shuffle 52 cards (random.Random.shuffle)"]
    for name, micros in times.items():
        print(f"{engine:<10}{name:<42}{micros:>9.1f}{micros / shuffle:>12.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--engine", choices=("pure", "compiled", "both"), default="both",
                        help="which build to measure (default both)")
    parser.add_argument("--rows-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    number, rounds = (CORPUS_SIZE, 5) if args.quick else (5 * CORPUS_SIZE, 25)
    if not args.rows_only:
        print(f"{'engine':<10}{'operation':<42}{'µs':>9}{'× shuffle':>12}", flush=True)
    if args.engine != "both":
        measure(args.engine, number, rounds)
        return
    runner = [sys.executable, str(ROOT / "scripts" / "build_compiled.py"), "--run"]
    for engine, start in (("pure", [sys.executable]), ("compiled", runner)):
        command = [*start, __file__, "--engine", engine, "--rows-only"]
        subprocess.run(command + (["--quick"] if args.quick else []), check=True)


if __name__ == "__main__":
    main()
