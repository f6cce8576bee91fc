"""One deal under two profiles: how long a whole comparison and its drawing take.

Run ``python benchmarks/compare.py``. For a few pairs of profiles it plays
``--deals`` seeded comparisons to the end (rules of thumb on both sides) and
prints, per pair, the milliseconds per comparison (median), the average
number of steps and of diverging steps, and the milliseconds to draw the
widget's HTML once at the end. A measurement, not a test: it always exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import time

from loo_tutor.render.compare import comparison_html
from loo_tutor.teaching.compare import compare_deals

PAIRS = [("limited", "limited"), ("limited", "club_law"), ("limited", "blenheim"),
         ("limited", "irish"), ("limited", "three_card_flush"), ("limited", "single_pot: miss")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    args = parser.parse_args()
    print(f"{'pair':<32} {'ms/comparison':>14} {'steps':>6} {'diverging':>9} {'ms/draw':>8}")
    for left, right in PAIRS:
        play_ms, draw_ms, steps, diverging = [], [], [], []
        for seed in range(args.deals):
            start = time.perf_counter()
            duel = compare_deals(left, right, seed, carried=seed % 2 * 3)
            duel.play_to_end()
            play_ms.append((time.perf_counter() - start) * 1000)
            steps.append(len(duel.steps))
            diverging.append(len(duel.diverging))
            if seed < 20:
                start = time.perf_counter()
                comparison_html(duel)
                draw_ms.append((time.perf_counter() - start) * 1000)
        print(f"{left + ' vs ' + right:<32} {statistics.median(play_ms):>14.2f} "
              f"{statistics.mean(steps):>6.1f} {statistics.mean(diverging):>9.1f} "
              f"{statistics.median(draw_ms):>8.2f}")


if __name__ == "__main__":
    main()
