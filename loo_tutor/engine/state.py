"""One deal of limited three-card Loo as a state machine: the names of its modules in one place.

The deal is written in four modules of the engine, which this one gathers:
``actions`` (the actions and the :class:`Verdict` on one),
``money`` (exact amounts and :func:`settle`),
``machine`` (the :class:`DealMachine` every game shares)
and ``three_card`` (:class:`DealState` and dealing).

A :class:`DealState` knows whose turn it is (:meth:`DealState.current_player`),
what that player may do (:meth:`DealState.legal_actions`), why any other action
is refused (:meth:`DealState.check`, which never raises), and the state an
action leads to (:meth:`DealState.apply`, which returns a new state and leaves
the old one untouched).

>>> import random
>>> state = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=0,
...                  rng=random.Random(7))
>>> state.kind, state.pool, state.current_player()
(<DealKind.SIMPLE: 'simple'>, Fraction(3, 1), 0)
>>> while not state.is_terminal():
...     state = state.apply(state.legal_actions()[0])
>>> sum(state.settlement().net.values()) == state.carried - state.settlement().carried_next
True
"""

from __future__ import annotations

from .actions import (
    Action,
    Announce,
    CivilLead,
    Exchange,
    IllegalActionError,
    Play,
    Seat,
    Verdict,
)
from .legality import DealerCase
from .machine import (
    DealMachine,
    Phase,
    Trick,
    check_pack,
    check_seats,
    seats_from_left,
    shuffle_and_cut,
)
from .money import (
    Settlement,
    amount_text,
    exact,
    settle,
    signed_text,
)
from .three_card import (
    DealKind,
    DealState,
    deal_from_deck,
    deal_from_hands,
    deal_kind,
    deals_miss,
    new_deal,
    split_deck,
    start_deal,
    undealt,
)

__all__ = [
    "Action",
    "Announce",
    "CivilLead",
    "DealKind",
    "DealMachine",
    "DealState",
    "DealerCase",
    "Exchange",
    "IllegalActionError",
    "Phase",
    "Play",
    "Seat",
    "Settlement",
    "Trick",
    "Verdict",
    "amount_text",
    "check_pack",
    "check_seats",
    "deal_from_deck",
    "deal_from_hands",
    "deal_kind",
    "deals_miss",
    "exact",
    "new_deal",
    "seats_from_left",
    "settle",
    "shuffle_and_cut",
    "signed_text",
    "split_deck",
    "start_deal",
    "undealt",
]
