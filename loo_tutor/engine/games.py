"""The registry of games: what each game the engine plays calls its own.

Every game is one module of the engine that registers a :class:`GameSpec` when
it is imported, as OpenSpiel's games register themselves:
``loo_tutor.engine.three_card`` for three-card Loo and its variants, and
:mod:`loo_tutor.engine.pam` for five-card Loo with Pam. Importing the package
``loo_tutor.engine`` imports both. A spec names the profile options only
that game reads, how a deal of it starts, which keys its deal records may
have and what its result calls the kind of a deal. Code that differs by game
asks :func:`game_of` for the profile's spec instead of testing the game's name.

>>> import loo_tutor.engine
>>> from loo_tutor.engine.profiles import PAM
>>> from loo_tutor.engine.rules import LIMITED
>>> game_of(LIMITED).name, game_of(PAM).title
('three-card', 'Pam Loo')
>>> sorted(spec.name for spec in games())
['pam', 'three-card']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .actions import Seat
from .cards import Card
from .errors import LooError
from .legality import Announcement
from .machine import DealMachine
from .rules import GameParams, Profile

DealStart = Callable[[Sequence[str], Seat, Fraction | int, random.Random, Profile], DealMachine]
"""The function that starts a deal of a game. It shuffles, cuts and deals for the
players, the dealer's seat and the carried balance, with the given random generator."""

RecordDeal = tuple[DealMachine, list[tuple[Seat, Announcement]], list[tuple[Card, ...]],
                   frozenset[int]]
"""A record's deal as its game reads it: the deal at its start, the announcements
by seat, the cards of each trick, and the numbers of the tricks led with "Pam, be
civil" (empty in a game without Pam)."""

DealReader = Callable[[dict[str, Any], list[str], dict[str, Seat], Seat, Fraction, Profile],
                      RecordDeal]
"""How a game reads the deal of a record: given the record, the players' names,
each name's seat, the dealer's seat, the carried balance and the profile (all
read already by :mod:`loo_tutor.records.parse`), the deal's own fields.
:mod:`loo_tutor.engine.record_fields` has the readers of the fields games share."""


@dataclass(frozen=True)
class GameSpec:
    """One game as the rest of the package sees it.

    Attributes:
        name: the game's name, the value of :attr:`Profile.game
            <loo_tutor.engine.rules.Profile.game>` for its profiles.
        title: the game's name in a sentence (``"three-card Loo"``).
        options: the options of a record's ``rules`` mapping that only this
            game reads (SPEC §11); the options of the table (seats, stakes,
            ante, loo, first dealer, session end) belong to no one game.
        start: shuffle, cut and deal a new deal (R-DEAL-ORDER as the game deals).
        record_keys: the top-level keys a deal record of this game may have
            under a profile, in the order records are written.
        kind_name: what a deal's result calls its kind (``"simple"``,
            ``"double"``, ``"pam"``).
        add_result: add to the result of checking a record of this game
            (:func:`loo_tutor.records.record.check`) the keys the game adds
            to the contract's (``rules``, ``flush``, ...); the contract's own
            keys are filled already.
        read_deal: read the deal of a record of this game (its hands, the
            cards of its own, announcements, tricks) and build it at its
            start; refusals are :class:`~loo_tutor.engine.errors.MalformedRecord`.
        params: the game's params dataclass, which holds its ``options``
            (:class:`~loo_tutor.engine.rules.ThreeCardParams`,
            :class:`~loo_tutor.engine.rules.PamParams`): every profile of the
            game has one as its ``params``.
        bundles: the profiles of this game a record may name with one word
            (``rules: pam``), besides the engine's own
            (:data:`loo_tutor.engine.profiles.BUNDLES`).
    """

    name: str
    title: str
    options: frozenset[str]
    start: DealStart
    record_keys: Callable[[Profile], tuple[str, ...]]
    kind_name: Callable[[DealMachine], str]
    read_deal: DealReader
    add_result: Callable[[DealMachine, Any], None]  # the result: a CheckResult, a dict
    params: type[GameParams]
    bundles: tuple[Profile, ...] = ()


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Register a game; its module calls this once, when imported.

    Raises:
        LooError: a game of that name is registered already, the game
            claims an option another game owns, or one of its bundles has
            params of another kind than the game's.
    """
    if spec.name in _GAMES:
        raise LooError(f"a game named {spec.name!r} is registered already")
    for profile in spec.bundles:
        if not isinstance(profile.params, spec.params):
            raise LooError(f"the {profile.name} profile's params are no "
                           f"{spec.params.__name__}, the params of {spec.title}")
    for other in _GAMES.values():
        shared = sorted(spec.options & other.options)
        if shared:
            raise LooError(f"the option {shared[0]} belongs to {other.title} already")
    _GAMES[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Take the game ``name`` out of the registry (a game registered for a while,
    as a test does); the engine's own games stay registered for good.

    Raises:
        LooError: no game of that name is registered.
    """
    if _GAMES.pop(name, None) is None:
        raise LooError(f"no game named {name!r} is registered")


def game_of(profile: Profile) -> GameSpec:
    """The game ``profile`` plays.

    Raises:
        LooError: no game of the profile's name is registered.
    """
    spec = _GAMES.get(profile.game)
    if spec is None:
        raise LooError(f"the {profile.name} profile plays {profile.game!r}, which is no game "
                       f"the engine knows (known: {', '.join(_GAMES)})")
    return spec


def games() -> tuple[GameSpec, ...]:
    """Every registered game, in the order they were registered."""
    return tuple(_GAMES.values())


def bundle(name: str) -> Profile | None:
    """The profile named ``name`` that a registered game offers, or ``None``."""
    for spec in _GAMES.values():
        for profile in spec.bundles:
            if profile.name == name:
                return profile
    return None


def option_owner(option: str) -> GameSpec | None:
    """The game that alone reads the profile option ``option``, or ``None`` for
    an option of the table, which every game reads."""
    for spec in _GAMES.values():
        if option in spec.options:
            return spec
    return None
