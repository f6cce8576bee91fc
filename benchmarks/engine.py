"""Engine speed, measured against shuffling a pack.

Run ``python benchmarks/engine.py``. Prints microseconds per operation and
each figure as a multiple of one ``random.Random.shuffle`` of 52 cards:

* shuffle: ``random.Random.shuffle`` of a 52-card list;
* check: :func:`loo_tutor.check` of a complete record already parsed from YAML
  (the packaged seed-000 forced-ace deal);
* random deal: shuffle, cut, deal and play a whole 6-player double deal with
  uniformly random legal choices, settlement included.

Targets (issue "Engine"): check ≤ 4× shuffle, random deal ≤ 5× shuffle.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import timeit
from typing import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loo_tutor import check  # noqa: E402
from loo_tutor.data import example  # noqa: E402
from loo_tutor.sim import random_deal  # noqa: E402

PLAYERS = ["P1", "P2", "P3", "P4", "P5", "P6"]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    number, rounds = (200, 5) if args.quick else (1000, 25)

    rng = random.Random(2026)
    pack = list(range(52))
    record = example("forced-ace")  # the seed-000 deal, complete, parsed from YAML
    assert check(record)["status"] == "complete"
    deal_rng = random.Random(7)

    operations: dict[str, Callable[[], object]] = {
        "shuffle 52 cards (random.Random.shuffle)": lambda: rng.shuffle(pack),
        "check() a complete record": lambda: check(record),
        "random complete deal, 6 players": lambda: random_deal(PLAYERS, 5, 9, deal_rng).settlement(),
    }
    times = best_times(operations, number, rounds)
    shuffle = times["shuffle 52 cards (random.Random.shuffle)"]
    print(f"{'operation':<42}{'µs':>9}{'× shuffle':>12}")
    for name, micros in times.items():
        print(f"{name:<42}{micros:>9.1f}{micros / shuffle:>12.2f}")


if __name__ == "__main__":
    main()
