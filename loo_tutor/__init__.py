"""loo_tutor: an exact rules engine for three-card Loo, its variants and five-card Pam Loo.

The names most programs need are re-exported here: cards
(:func:`parse_card`), a deal (:func:`new_deal`, :class:`DealState`) and its
actions (:class:`Announce`, :class:`Exchange`, :class:`Play`, and Pam Loo's
:class:`CivilLead`), a
session of any game a record's ``rules`` can name (:class:`Session`), deal
records (:func:`load_record`, :func:`check`) and the errors.
"""

from .engine.cards import CARDS, Card, Suit, format_card, full_deck, parse_card
from .engine.errors import LooError, MalformedRecord, NotationError, RuleError
from .engine.legality import Announcement
from .engine.rules import LIMITED, Profile, RuleId
from .engine.session import Session
from .engine.state import (
    Action,
    Announce,
    CivilLead,
    DealKind,
    DealState,
    Exchange,
    IllegalActionError,
    Phase,
    Play,
    Settlement,
    Trick,
    Verdict,
    deal_from_deck,
    deal_from_hands,
    new_deal,
)
from .records.record import check, dumps, load_record, loads, record_from_state

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "LIMITED",
    "Action",
    "Announce",
    "Announcement",
    "Card",
    "CivilLead",
    "DealKind",
    "DealState",
    "Exchange",
    "IllegalActionError",
    "LooError",
    "MalformedRecord",
    "NotationError",
    "Phase",
    "Play",
    "Profile",
    "RuleError",
    "RuleId",
    "Session",
    "Settlement",
    "Suit",
    "Trick",
    "Verdict",
    "check",
    "deal_from_deck",
    "deal_from_hands",
    "dumps",
    "format_card",
    "full_deck",
    "load_record",
    "loads",
    "new_deal",
    "parse_card",
    "record_from_state",
]
