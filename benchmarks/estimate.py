"""Speed of the estimator: sampled play-outs per second.

Run ``python benchmarks/estimate.py`` (``--samples N`` to change the length).
For each position the estimator deals the unseen cards consistently with the
player's view, then plays every legal action out to the end of the deal in
each sampled deal. A play-out is one action played to the end and settled, so
a decision with three legal actions and 1,000 samples is 3,000 play-outs.
Times are this process's CPU time; a bar on standard error shows progress.

Positions (6 players, double deals with a pool of 9 unless said otherwise):

* first announcement, every action (stand, pass, miss);
* first announcement, "stand" alone (no sampled deal is shared);
* second trick, every legal card of the player to act;
* second trick of an 8-player simple deal (hidden hands of seven players);
* the dealer's announcement after two or more players came in, sampled
  plainly and believing that the others announced as the rule-of-thumb bot
  would (``beliefs``), which rejects many more proposed deals.

Target (issue "Analysis and practice"): at least 10,000 play-outs per second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence

from loo_tutor.analysis.bots import Bot, RandomBot, ThumbBot
from loo_tutor.analysis.estimate import WorldSampler, estimate_actions
from loo_tutor.analysis.progress import ProgressBar
from loo_tutor.engine.observe import PlayerView, observation
from loo_tutor.engine.state import Action, Announce, DealState, Phase, new_deal

PLAYERS = ["P1", "P2", "P3", "P4", "P5", "P6"]


def first_announcement() -> DealState:
    return new_deal(PLAYERS, 5, 6, random.Random(2026))


def during_play(players: list[str], carried: int, trick: int, seed: int) -> DealState:
    """A deal played by rule-of-thumb bots until trick ``trick`` (1-based) has begun,
    stopped at the first follower there with a real choice."""
    bot = ThumbBot()
    for attempt in range(1000):
        rng = random.Random(seed + attempt)
        state = new_deal(players, len(players) - 1, carried, rng)
        while not state.is_terminal():
            if (state.phase is Phase.PLAY and len(state.tricks) == trick - 1
                    and state.trick and len(state.legal_cards()) > 1):
                return state
            seat = state.current_player()
            assert seat is not None
            state = state.apply(bot.choose(observation(state, seat), rng))
    raise SystemExit("no suitable position found")


def during_announcements(players: list[str], carried: int, seed: int) -> DealState:
    """A deal announced by rule-of-thumb bots up to the dealer's turn, with at
    least two players in before the dealer."""
    bot = ThumbBot()
    for attempt in range(1000):
        rng = random.Random(seed + attempt)
        state = new_deal(players, len(players) - 1, carried, rng)
        while state.current_player() != state.dealer:
            seat = state.current_player()
            assert seat is not None
            state = state.apply(bot.choose(observation(state, seat), rng))
        if len(state.active) >= 2:
            return state
    raise SystemExit("no suitable position found")


def measure(label: str, view: PlayerView, samples: int, rollout: Bot,
            actions: Sequence[Action] | None = None, beliefs: ThumbBot | None = None) -> float:
    bar = ProgressBar(samples, f"{label:<46}")
    start = time.process_time()
    found = estimate_actions(view, samples=samples, rng=random.Random(1), rollout=rollout,
                             actions=actions, beliefs=beliefs, progress=bar.update)
    seconds = time.process_time() - start
    bar.update(samples)
    bar.close()
    return samples * len(found) / seconds


def acceptance(view: PlayerView, draws: int, beliefs: ThumbBot | None = None) -> float:
    sampler = WorldSampler(view, beliefs=beliefs)
    rng = random.Random(3)
    for _ in range(draws):
        sampler.sample(rng)
    return draws / (draws + sampler.rejected)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=4000, help="sampled deals per row")
    args = parser.parse_args()

    start = first_announcement()
    announce = observation(start, 0)
    mid = during_play(PLAYERS, 6, 2, 11)
    mid_view = observation(mid, mid.current_player() or 0)
    late = during_play([f"P{i}" for i in range(1, 9)], 0, 2, 40)
    late_view = observation(late, late.current_player() or 0)
    stand = [a for a in announce.legal if isinstance(a, Announce)][:1]

    rows: list[tuple[str, float, str]] = []
    for rollout in (RandomBot(), ThumbBot()):
        name = rollout.name
        rows.append((f"first announcement, every action, {name}",
                     measure(f"announce/all/{name}", announce, args.samples, rollout),
                     f"{len(announce.legal)} actions"))
        rows.append((f"first announcement, stand only, {name}",
                     measure(f"announce/stand/{name}", announce, args.samples, rollout, stand),
                     "1 action"))
        rows.append((f"trick 2, every legal card, {name}",
                     measure(f"trick 2/{name}", mid_view, args.samples, rollout),
                     f"{len(mid_view.legal)} cards"))
        rows.append((f"trick 2, 8-player simple deal, {name}",
                     measure(f"simple 8/{name}", late_view, args.samples, rollout),
                     f"{len(late_view.legal)} cards"))
    dealer = during_announcements(PLAYERS, 6, 31)
    dealer_view = observation(dealer, dealer.dealer)
    thumb = ThumbBot()
    rows.append(("dealer's announcement, thumb, believing tips",
                 measure("dealer/beliefs", dealer_view, args.samples, thumb, beliefs=thumb),
                 f"{len(dealer_view.legal)} actions"))
    rows.append(("dealer's announcement, thumb",
                 measure("dealer/thumb", dealer_view, args.samples, thumb),
                 f"{len(dealer_view.legal)} actions"))
    print(f"\n{'position and rollout bot':<48}{'play-outs/s':>12}  note")
    for label, rate, note in rows:
        print(f"{label:<48}{rate:>12,.0f}  {note}")
    print("\nshare of proposed deals consistent with the view (the rest are redrawn):")
    for label, view in (("first announcement", announce), ("trick 2", mid_view),
                        ("trick 2, 8-player simple deal", late_view)):
        print(f"  {label:<34}{acceptance(view, 2000):.0%}")
    print(f"  {'dealer, believing the tips':<34}{acceptance(dealer_view, 2000, thumb):.0%}"
          "  (a hand redrawn to match a belief is not counted)")


if __name__ == "__main__":
    main()
