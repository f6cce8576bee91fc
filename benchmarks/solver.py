"""Speed of the best-play solver with eight players in the tricks.

Run ``python benchmarks/solver.py``. Each position is solved from cold (a new
:class:`loo_tutor.analysis.solver.Solver`, nothing remembered), for every legal card
of the player to move, and timed in this process's CPU time. Prints the
median, worst and mean in milliseconds for two sets of positions:

* random: a seeded deal for eight players (half simple deals, half double
  deals in which everybody stands), played at random for 0 to 23 cards, so
  the position is anywhere in the play;
* first lead: the same deals at the first lead, the hardest moment.

Target (issue "Analysis and practice"): at most 5 ms per position, median and
worst over 1,000 random positions. ``--worst 5`` also lists the five slowest
positions of each set (deal kind, trick, cards down), to profile them.
``--repeat 5`` solves each position five times (each from cold) and keeps
its fastest time, which takes out some of the noise of other work on a
busy machine.

``python scripts/build_compiled.py --run benchmarks/solver.py`` measures the
solver compiled with mypyc from the same source (see ``setup.py``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from loo_tutor.analysis.solver import Solver
from loo_tutor.engine.legality import Announcement
from loo_tutor.engine.state import Announce, DealState, Phase, new_deal

PLAYERS = [f"P{i}" for i in range(1, 9)]


def position(rng: random.Random, simple: bool, cards: int) -> DealState:
    """A deal for eight with everybody in, after ``cards`` random legal cards."""
    state = new_deal(PLAYERS, dealer=rng.randrange(8), carried=0 if simple else 6, rng=rng)
    while state.phase is Phase.ANNOUNCE:
        state = state.apply(Announce(state.current_player(), Announcement.STAND))  # type: ignore[arg-type]
    for _ in range(cards):
        options = state.legal_actions()
        state = state.apply(options[rng.randrange(len(options))])
    return state


def timings(states: list[DealState], repeat: int = 1) -> list[float]:
    """Milliseconds of CPU time to solve each state from cold, the fastest of ``repeat`` runs."""
    out = []
    for state in states:
        fastest = float("inf")
        for _ in range(repeat):
            began = time.process_time()
            Solver().solve(state)
            fastest = min(fastest, time.process_time() - began)
        out.append(fastest * 1e3)
    return out


def report(name: str, states: list[DealState], times: list[float], worst: int) -> None:
    print(f"{name:>10}: {len(times)} positions, median {statistics.median(times):.2f} ms, "
          f"worst {max(times):.2f} ms, mean {statistics.mean(times):.2f} ms")
    slowest = sorted(range(len(times)), key=lambda i: -times[i])[:worst]
    for i in slowest:
        state = states[i]
        down = " ".join(str(card) for card in state.trick) or "none"
        print(f"{'':>12}#{i}: {times[i]:.2f} ms, {state.kind.value} deal, "
              f"trick {len(state.tricks) + 1}, cards down: {down}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--worst", type=int, default=0,
                        help="list this many of the slowest positions of each set")
    parser.add_argument("--repeat", type=int, default=1,
                        help="solve each position this many times, keeping the fastest")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    simple = [i % 2 == 0 for i in range(args.positions)]
    anywhere = [position(rng, s, rng.randrange(24)) for s in simple]
    first = [position(rng, s, 0) for s in simple]
    print(f"load average before: {os.getloadavg()[0]:.2f} (other work on the machine slows "
          "the figures)")
    report("random", anywhere, timings(anywhere, args.repeat), args.worst)
    report("first lead", first, timings(first, args.repeat), args.worst)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
