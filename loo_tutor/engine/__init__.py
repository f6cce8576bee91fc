"""The rules engine: cards, rules and variant profiles, the deal machines of
three-card Loo and Pam Loo, legality, sessions and one player's view.

The bottom layer: it imports nothing else of the package. Importing it
imports every game's module, which registers the game
(:mod:`loo_tutor.engine.games`).
"""

from . import pam, three_card  # noqa: F401  (each registers its game)
