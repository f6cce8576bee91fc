"""The computer players by name, and the one way a computer player plays on.

Every widget and comparison that lets the computer act for a seat goes
through :func:`play_on`: the player to act gets their own seat's view
(:func:`~loo_tutor.engine.observe.observation`), never the deal itself, and
a :class:`~loo_tutor.analysis.bots.Bot` chooses from it. :data:`BOTS` is
the one list of the players a reader can ask for by name.

>>> import random
>>> from loo_tutor.engine.state import new_deal
>>> state = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=6, rng=random.Random(5))
>>> play_on(state, bot_named("first"), random.Random(1)) == state.legal_actions()[0]
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..engine.errors import LooError
from ..engine.observe import observation
from ..engine.state import Action, DealMachine
from .bots import Bot, FirstBot, RandomBot, ThumbBot
from .estimate import SamplingBot

__all__ = ["BOTS", "bot_named", "play_on"]

BOTS: dict[str, Callable[[], Bot]] = {
    "thumb": ThumbBot,
    "random": RandomBot,
    "sampling": SamplingBot,
    "first": FirstBot,
}
"""The computer players by name (rules of thumb, random legal choices, sampling,
or always the first legal action), each made afresh when asked for."""


def bot_named(value: str | Bot, what: str = "player") -> Bot:
    """The computer player ``value`` names in :data:`BOTS`, or ``value`` itself
    when it is already a bot.

    Args:
        value: a name in :data:`BOTS`, or a bot.
        what: the argument's name, for the error message.

    Raises:
        LooError: no player has that name.
    """
    if not isinstance(value, str):
        return value
    made = BOTS.get(value)
    if made is None:
        raise LooError(f"{what}: {value!r} is not one of {', '.join(BOTS)}")
    return made()


def play_on(state: DealMachine, bot: Bot, rng: random.Random) -> Action:
    """What ``bot`` does for the player to act in ``state``, from that player's view.

    Raises:
        LooError: the deal is over, so nobody is to act.
    """
    seat = state.current_player()
    if seat is None:
        raise LooError("the deal is over: nobody is to act")
    return bot.choose(observation(state, seat), rng)
