"""Live ipywidgets for the book's notebooks: steppers, trainers, checkers and a session.

The widgets hold no rules. Each one draws HTML from :mod:`loo_tutor.render.markup`,
hands every click to the engine (:meth:`~loo_tutor.engine.state.DealState.check`,
:meth:`~loo_tutor.engine.state.DealState.apply`, :func:`~loo_tutor.records.record.check`)
and keeps the list of states it has been through.

Every widget takes any deal record (a file path, the record's text or a
dict) so a teacher can use a deal of their own; a record that cannot be used
is reported on one line inside the widget instead of raising. The current
rendering is always available as the ``html`` attribute.

>>> from loo_tutor.records.data import example
>>> from loo_tutor.widgets import DealStepper
>>> stepper = DealStepper(example("forced-ace"))
>>> stepper.last(); stepper.narration.rules[-1].value
'R-CARRY'

Each widget's module is imported when the widget is first asked for, so a
page that shows a stepper does not pay for the solver behind the practice
table; in the browser, where Python starts on the reader's machine, that
matters.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .announce import AnnouncementTrainer, DealerDecisionTable
    from .assignment import AssignmentSheet
    from .compare import VariantCompare
    from .exercise import ExerciseWidget, Scoreboard
    from .payout import PayoutChecker, parse_amount
    from .play import PlayTrainer
    from .practice import PracticeSession
    from .session import SessionLedger
    from .stepper import DealStepper

_MODULES = {
    "AnnouncementTrainer": "announce", "DealerDecisionTable": "announce",
    "AssignmentSheet": "assignment",
    "VariantCompare": "compare", "ExerciseWidget": "exercise", "Scoreboard": "exercise",
    "PayoutChecker": "payout", "parse_amount": "payout", "PlayTrainer": "play",
    "PracticeSession": "practice", "SessionLedger": "session", "DealStepper": "stepper",
}

__all__ = [
    "AnnouncementTrainer", "AssignmentSheet", "DealStepper", "DealerDecisionTable", "ExerciseWidget",
    "PayoutChecker", "PlayTrainer", "PracticeSession", "Scoreboard", "SessionLedger",
    "VariantCompare", "parse_amount",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
