"""The actions of a deal and the engine's answer to one.

An action is one player's move: an announcement (:class:`Announce`), an
exchange with the stock (:class:`Exchange`), a card played (:class:`Play`) or
Pam Loo's civil lead (:class:`CivilLead`). A :class:`Verdict` says whether one
may be taken now and, if not, which rule it breaks;
:class:`IllegalActionError` carries a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .errors import LooError
from .legality import Announcement
from .rules import RuleKey

Seat = int
"""A player's position in the seating list (0-based, clockwise)."""


@dataclass(frozen=True, slots=True)
class Announce:
    """``seat`` makes an announcement."""

    seat: Seat
    announcement: Announcement


@dataclass(frozen=True, slots=True)
class Play:
    """``seat`` plays ``card`` to the current trick."""

    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class Exchange:
    """``seat`` discards ``cards`` and draws as many from the stock (Irish Loo, Pam Loo).

    With ``take_turned`` (Pam Loo's ``dealer_takes_trump``, the dealer only) the
    first card drawn is the turned trump card instead of the stock's top card.
    """

    seat: Seat
    cards: tuple[Card, ...]
    take_turned: bool = False


@dataclass(frozen=True, slots=True)
class CivilLead:
    """(Pam Loo) ``seat`` leads ``card``, the ace of trumps, and says "Pam, be civil".

    See V-PAM-CIVIL.
    """

    seat: Seat
    card: Card


Action = Announce | Play | Exchange | CivilLead
"""An action of any game: what :meth:`~loo_tutor.engine.state.DealMachine.check` judges."""


@dataclass(frozen=True)
class Verdict:
    """The answer to "may this action be taken now?". Truthy when legal.

    Attributes:
        ok: whether the action is legal.
        rule: the rule the action breaks, or ``None`` when legal.
        message: one sentence; for a refusal it says what the rule requires.
        allowed: the legal actions at this point.
    """

    ok: bool
    rule: RuleKey | None
    message: str
    allowed: tuple[Action, ...] = ()

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return self.message if self.rule is None else f"{self.message} [{self.rule}]"


class IllegalActionError(LooError):
    """An action that can be read but breaks a rule of the game.

    Args:
        verdict: the refusal, naming the rule ID and saying what it requires.
    """

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(str(verdict))
        self.verdict = verdict
