"""Packaging hook: with ``LOO_TUTOR_COMPILE=1`` the engine's hot modules are compiled.

A plain build (and the editable install ``./dev`` makes) is pure Python, so
edits take effect at once and the same wheel runs in the browser. A build with
``LOO_TUTOR_COMPILE=1`` compiles the modules below from the same source with
mypyc, which the strict typing of the package allows; ``./dev compiled`` makes
one, and the engine benchmark measures both.
"""

import os

from setuptools import setup

COMPILED = [
    "loo_tutor/engine/cards.py",
    "loo_tutor/engine/legality.py",
    "loo_tutor/engine/explain.py",
    "loo_tutor/engine/actions.py",
    "loo_tutor/engine/money.py",
    "loo_tutor/engine/games.py",
    "loo_tutor/engine/machine.py",
    "loo_tutor/engine/three_card_explain.py",
    "loo_tutor/engine/three_card.py",
    "loo_tutor/engine/pam_explain.py",
    "loo_tutor/engine/pam.py",
    "loo_tutor/engine/record_fields.py",
    "loo_tutor/records/parse.py",
    "loo_tutor/records/replay.py",
    "loo_tutor/records/result.py",
    "loo_tutor/records/write.py",
    "loo_tutor/engine/sim.py",
    "loo_tutor/analysis/solver.py",
]


def compiled_modules() -> list:
    if os.environ.get("LOO_TUTOR_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=compiled_modules())
