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

from .cards import CARDS, Card, Suit
from .legality import Announcement
from .state import Action, DealKind, DealMachine, Phase, Seat, Trick
from .three_card import deal_kind_of


@dataclass(frozen=True)
class PlayerView:
    """One seat's view of a deal.

    Attributes:
        seat: whose view this is.
        players: every name, clockwise.
        dealer: the dealer's seat.
        kind: simple or double deal; ``None`` in Pam Loo, which deals every
            deal alike, with trumps turned at once.
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
    kind: DealKind | None
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


def kind_of(state: DealMachine) -> DealKind | None:
    """A three-card deal's kind, simple or double; ``None`` for a Pam Loo deal."""
    return deal_kind_of(state)


def visible_hand(state: DealMachine, seat: Seat) -> tuple[Card, ...] | None:
    """The cards ``seat`` may look at now, or ``None`` if it may see none.

    In a simple deal a player sees their hand throughout. In a double deal,
    and in every Pam Loo deal, a player first sees their dealt hand at their
    turn to announce; after standing they keep it (with what they draw from
    the stock), after passing or taking the miss it is thrown in unseen by
    anyone else. The miss is taken sight unseen: its holder sees it once the
    announcements are over.
    """
    if kind_of(state) is DealKind.SIMPLE:
        return state.held[seat]
    said = dict(state.announcements).get(seat)
    if said is None:
        return state.hands[seat] if state.current_player() == seat else None
    if said is Announcement.STAND:
        return state.held[seat]
    if said is Announcement.PASS or state.phase is Phase.ANNOUNCE:
        return None
    return state.held[seat] if seat in state.active else None


def observation(state: DealMachine, seat: Seat) -> PlayerView:
    """Build ``seat``'s view of ``state``."""
    indicator = state.indicator if state.trump is not None else None
    to_act = state.current_player()
    return PlayerView(
        seat=seat,
        players=state.players,
        dealer=state.dealer,
        kind=kind_of(state),
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


def seen_cards(state: DealMachine, seat: Seat | None) -> frozenset[Card]:
    """The cards a view of ``state`` shows face up.

    With a ``seat``, what :func:`observation` lets that seat see: its hand,
    the indicator once turned, and every card played. With ``None``, the
    tutor's view, looking over the table: every dealt hand, the indicator
    once turned, and the miss once a player holds it in play; not the miss
    while it lies face down or is taken unseen during the announcements.
    """
    played = {card for trick in state.all_tricks() for _, card in trick.plays}
    if seat is not None:
        view = observation(state, seat)
        shown = played | set(view.hand or ())
        return frozenset(shown if view.indicator is None else shown | {view.indicator})
    shown = played | {card for hand in state.hands for card in hand}
    if state.trump is not None:
        shown.add(state.indicator)
    return frozenset(shown.union(state.shown_aside()))


def hidden_cards(state: DealMachine, seat: Seat | None) -> frozenset[Card]:
    """The cards of ``state`` that a view of it keeps face down (see :func:`seen_cards`).

    With a ``seat``, every card of the pack that seat does not see: the
    other hands, the miss, the indicator before it is turned, the undealt
    cards. With ``None``, the tutor's view: the indicator before it is
    turned and the miss while it is face down, and in Pam Loo the cards of
    the stock not drawn yet.

    >>> import random
    >>> from loo_tutor.engine.state import new_deal
    >>> state = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=0, rng=random.Random(3))
    >>> len(hidden_cards(state, 0)), hidden_cards(state, None)  # a simple deal's indicator
    (49, frozenset({Card.parse('AH')}))
    """
    if seat is not None:
        return frozenset(CARDS) - seen_cards(state, seat)
    dealt = {card for hand in state.hands for card in hand} | {state.indicator}
    dealt.update(state.face_down())
    return frozenset(dealt) - seen_cards(state, None)
