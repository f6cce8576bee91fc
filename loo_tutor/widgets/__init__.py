"""Live ipywidgets for the book's notebooks: steppers, trainers, checkers and a session.

The widgets hold no rules. Each one draws HTML from :mod:`loo_tutor.render`,
hands every click to the engine (:meth:`~loo_tutor.state.DealState.check`,
:meth:`~loo_tutor.state.DealState.apply`, :func:`~loo_tutor.record.check`)
and keeps the list of states it has been through.

Every widget takes any deal record (a file path, the record's text or a
dict) so a teacher can use a deal of their own; a record that cannot be used
is reported on one line inside the widget instead of raising. The current
rendering is always available as the ``html`` attribute.

>>> from loo_tutor.data import example
>>> stepper = DealStepper(example("forced-ace"))
>>> stepper.last(); stepper.narration.rules[-1].value
'R-CARRY'
"""

from .announce import AnnouncementTrainer, DealerDecisionTable
from .compare import VariantCompare
from .exercise import ExerciseWidget, Scoreboard
from .payout import PayoutChecker, parse_amount
from .play import PlayTrainer
from .practice import PracticeSession
from .session import SessionLedger
from .stepper import DealStepper

__all__ = [
    "AnnouncementTrainer", "DealStepper", "DealerDecisionTable", "ExerciseWidget",
    "PayoutChecker", "PlayTrainer", "PracticeSession", "Scoreboard", "SessionLedger",
    "VariantCompare", "parse_amount",
]
