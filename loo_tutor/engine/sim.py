"""Seeded random play-outs, for tests, benchmarks and demonstrations.

Every choice is drawn uniformly from the engine's own legal options, so a
play-out is always a legal deal.

>>> import random
>>> state = random_deal(["A", "B", "C", "D", "E", "F"], dealer=5, carried=9,
...                     rng=random.Random(1))
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from .state import Announce, DealState, Exchange, Phase, Play, new_deal


def finish_in_place(state: DealState, rng: random.Random) -> DealState:
    """Play ``state`` to the end in place with uniformly random legal choices."""
    # Indexing by rng.random() is uniform for these few options and much
    # cheaper than rng.choice, which matters in long simulations.
    draw = rng.random
    announcing, exchanging, playing = Phase.ANNOUNCE, Phase.EXCHANGE, Phase.PLAY
    push, turn = state.push, state.current_player
    while state.phase is announcing:
        calls = state.legal_announcements()
        push(Announce(turn(), calls[int(draw() * len(calls))]))  # type: ignore[arg-type]
    while state.phase is exchanging:
        swaps = state.legal_exchanges()
        push(Exchange(turn(), swaps[int(draw() * len(swaps))]))  # type: ignore[arg-type]
    while state.phase is playing:
        cards = state.legal_cards()
        # A forced card needs no draw.
        card = cards[0] if len(cards) == 1 else cards[int(draw() * len(cards))]
        push(Play(turn(), card))  # type: ignore[arg-type]
    return state


def play_out(state: DealState, rng: random.Random) -> DealState:
    """A copy of ``state`` played to the end with uniformly random legal choices."""
    return finish_in_place(state.copy(), rng)


def random_deal(players: Sequence[str], dealer: int, carried: Fraction | int,
                rng: random.Random) -> DealState:
    """Shuffle, cut, deal and play a whole deal at random."""
    return finish_in_place(new_deal(players, dealer, carried, rng), rng)
