"""What one player may see of a deal (R-ANN-LOOK).

Bots, trainers and hints get a :class:`PlayerView` instead of the
:class:`~loo_tutor.engine.state.DealState`, so they cannot use cards the player has
not seen: other hands, thrown-in hands, an unclaimed miss, or the hidden
indicator of a simple deal.

>>> import random
>>> from loo_tutor.engine.state import new_deal
>>> state = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=6, rng=random.Random(3))
>>> observation(state, 0).hand is not None, observation(state, 1).hand
(True, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .cards import Card, Suit
from .legality import Announcement
from .state import Action, DealKind, DealState, Phase, Seat, Trick


@dataclass(frozen=True)
class PlayerView:
    """One seat's view of a deal.

    Attributes:
        seat: whose view this is.
        players: every name, clockwise.
        dealer: the dealer's seat.
        kind: simple or double deal.
        pool: the pool at start of play.
        trump: the trump suit if the table knows it.
        indicator: the indicator if it is face up, else ``None``.
        hand: the cards this seat holds and may look at, else ``None``.
        announcements: the announcements made so far, in order.
        active: the seats taking part in the tricks (so far).
        tricks: finished tricks and the trick in progress.
        cards_left: how many cards each active seat still holds.
        to_act: the seat to act next, if any.
        legal: this seat's legal actions when it is to act, else empty.
    """

    seat: Seat
    players: tuple[str, ...]
    dealer: Seat
    kind: DealKind
    pool: Fraction
    trump: Suit | None
    indicator: Card | None
    hand: tuple[Card, ...] | None
    announcements: tuple[tuple[Seat, Announcement], ...]
    active: tuple[Seat, ...]
    tricks: tuple[Trick, ...]
    cards_left: dict[Seat, int]
    to_act: Seat | None
    legal: tuple[Action, ...]


def visible_hand(state: DealState, seat: Seat) -> tuple[Card, ...] | None:
    """The cards ``seat`` may look at now, or ``None`` if it may see none.

    In a simple deal a player sees their hand throughout. In a double deal a
    player first sees their dealt hand at their turn to announce; after
    standing they keep it, after passing or taking the miss it is thrown in
    unseen by anyone else. The miss is taken sight unseen: its holder sees it
    once the announcements are over.
    """
    if state.kind is DealKind.SIMPLE:
        return state.held[seat]
    said = dict(state.announcements).get(seat)
    if said is None:
        return state.hands[seat] if state.current_player() == seat else None
    if said is Announcement.STAND:
        return state.held[seat]
    if said is Announcement.PASS or state.phase is Phase.ANNOUNCE:
        return None
    return state.held[seat] if seat in state.active else None


def observation(state: DealState, seat: Seat) -> PlayerView:
    """Build ``seat``'s view of ``state``."""
    indicator = state.indicator if state.trump is not None else None
    to_act = state.current_player()
    return PlayerView(
        seat=seat,
        players=state.players,
        dealer=state.dealer,
        kind=state.kind,
        pool=state.pool,
        trump=state.trump,
        indicator=indicator,
        hand=visible_hand(state, seat),
        announcements=tuple(state.announcements),
        active=state.active,
        tricks=tuple(state.all_tricks()),
        cards_left={s: len(state.held[s]) for s in state.active},
        to_act=to_act,
        legal=tuple(state.legal_actions()) if to_act == seat else (),
    )
