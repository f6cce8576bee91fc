"""The solver's fast duties are the engine's, under every profile it accepts.

The solver's search works on masks of card numbers and so writes the lead and
follow duties out in that form (``leads_mask``, ``follows_mask`` and their
two-card forms). This test holds them to the engine: over random positions of
random deals under every profile (each bundle, and each three-card option on
the limited base), either the solver refuses the profile, or every way its
search works out the cards allowed gives exactly the engine's
``legal_cards()``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from loo_tutor.analysis.solver import search_allows, solve
from loo_tutor.engine.errors import LooError
from loo_tutor.engine.pam import new_pam_deal
from loo_tutor.engine.profiles import BUNDLES, RULES_OPTIONS, profile_from_rules
from loo_tutor.engine.rules import Profile
from loo_tutor.engine.state import DealMachine, Phase, new_deal

THREE_CARD_VALUES: dict[str, list[Any]] = {
    "seats": ["3-10"],
    "first_dealer": ["low-cut"],
    "stakes": ["everyone"],
    "ante": [4],
    "stake": [1],
    "loo": ["unlimited", "mixed(4)"],
    "single_pot": ["miss"],
    "reveal": ["immediate"],
    "simple_ace_duty": [True],
    "miss_position": ["first"],
    "two_player_top_trump": [True],
    "trump_lead": ["opening", "opening-and-next"],
    "no_heading": [True],
    "club_law": [True],
    "irish": [True],
    "three_card_flush": [True],
    "undivided": [True],
    "session_end": ["clean"],
    "dealer_defends_sole": [True],
}
PAM_VALUES: dict[str, list[Any]] = {
    "running_pam": [True], "flush_exempt": [False], "duties": ["004"],
    "dealer_takes_trump": [True],
}
PROFILES: dict[str, Profile] = {
    **BUNDLES,
    **{f"limited + {option}: {value}": profile_from_rules({"base": "limited", option: value})
       for option, values in THREE_CARD_VALUES.items() for value in values},
    **{f"pam + {option}: {value}": profile_from_rules({"base": "pam", option: value})
       for option, values in PAM_VALUES.items() for value in values},
}
DEALS = 60


def test_every_option_is_tried() -> None:
    assert set(THREE_CARD_VALUES) | set(PAM_VALUES) == set(RULES_OPTIONS)


def positions(profile: Profile, seed: int) -> list[DealMachine]:
    """Every moment a card is to be played in ``DEALS`` random deals under ``profile``."""
    rng = random.Random(seed)
    found: list[DealMachine] = []
    low, high = profile.min_players, profile.max_players
    for _ in range(DEALS):
        count = rng.randint(max(low, 3), min(high, 8))
        players = [f"P{i}" for i in range(count)]
        dealer = rng.randrange(count)
        carried = rng.choice([0, 0, 6, 10])
        state: DealMachine = (new_pam_deal(players, dealer, carried, rng, profile)
                              if profile.game == "pam" else
                              new_deal(players, dealer, carried, rng, profile))
        while not state.is_terminal():
            if state.phase is Phase.PLAY:
                found.append(state)
            options = state.legal_actions()
            state = state.apply(options[rng.randrange(len(options))])
    return found


@pytest.mark.parametrize("name", PROFILES)
def test_the_solvers_duties_are_the_engines_or_the_solver_refuses(name: str) -> None:
    profile = PROFILES[name]
    found = positions(profile, seed=len(name))
    assert len(found) > DEALS  # every deal of three cards a player has plays to check
    accepted = 0
    for state in found:
        try:
            ways = search_allows(state)  # type: ignore[arg-type]
        except (LooError, TypeError):  # compiled, a Pam deal is refused at the call itself
            with pytest.raises((LooError, TypeError)):
                solve(state)  # type: ignore[arg-type]
            continue
        accepted += 1
        engine = tuple(state.legal_cards())
        assert all(sorted(way) == sorted(engine) for way in ways), (state.held, state.trick)
    assert accepted in (0, len(found))  # a profile is solved throughout or not at all
    if name == "limited":
        assert accepted == len(found)
