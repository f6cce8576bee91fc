"""Seeded random play-outs, for tests, benchmarks and demonstrations.

Every choice is drawn uniformly from the engine's own legal actions, so a
play-out is always a legal deal.

>>> import random
>>> state = random_deal(["A", "B", "C", "D", "E", "F"], dealer=5, carried=9,
...                     rng=random.Random(1))
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Sequence

from .state import DealState, deal_in_place, new_deal


def play_out(state: DealState, rng: random.Random) -> DealState:
    """A copy of ``state`` played to the end with uniformly random legal actions."""
    state = state.copy()
    while state.current_player() is not None:
        actions = state.legal_actions()
        deal_in_place(state, actions[rng.randrange(len(actions))])
    return state


def random_deal(players: Sequence[str], dealer: int, carried: Fraction | int,
                rng: random.Random) -> DealState:
    """Shuffle, cut, deal and play a whole deal at random."""
    state = new_deal(players, dealer, carried, rng)
    while state.current_player() is not None:
        actions = state.legal_actions()
        deal_in_place(state, actions[rng.randrange(len(actions))])
    return state
