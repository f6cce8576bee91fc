"""One deal of limited three-card Loo as a state machine.

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

import enum
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, NamedTuple, Sequence, Union

from .cards import Card, Suit, full_deck
from .errors import IllegalActionError, LooError
from .legality import (
    Announcement,
    explain_card,
    legal_follows,
    legal_leads,
    trick_winner_index,
)
from .rules import LIMITED, Profile, RuleId, RuleKey

Seat = int
"""A player's position in the seating list (0-based, clockwise)."""

_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def exact(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)``, reusing objects for common values.

    Ledger amounts repeat a great deal (thirds of small pools), and building a
    Fraction costs far more than looking one up.
    """
    key = (numerator, denominator)
    value = _FRACTIONS.get(key)
    if value is None:
        value = Fraction(numerator, denominator)
        if len(_FRACTIONS) < 4096:
            _FRACTIONS[key] = value
    return value


class DealKind(str, enum.Enum):
    """Simple or double deal, fixed by the carried balance (R-DEAL-KIND)."""

    SIMPLE = "simple"
    """Nothing carried, so no miss, no announcements and trumps hidden."""
    DOUBLE = "double"
    """Something carried, so a miss, announcements and trumps turned at once."""


class Phase(str, enum.Enum):
    """What the deal is waiting for."""

    ANNOUNCE = "announce"
    """A player must stand, pass, take the miss or defend."""
    PLAY = "play"
    """A player must play a card."""
    OVER = "over"
    """The deal has ended and can be settled."""


# Enum members looked up once: attribute access on an Enum class is slow in
# the hot paths of play-outs and record checking.
_ANNOUNCE, _PLAY, _OVER = Phase.ANNOUNCE, Phase.PLAY, Phase.OVER
_SIMPLE, _DOUBLE = DealKind.SIMPLE, DealKind.DOUBLE
_STAND, _PASS, _MISS, _DEFEND = (Announcement.STAND, Announcement.PASS, Announcement.MISS,
                                 Announcement.DEFEND)


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


Action = Union[Announce, Play]


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


class Trick(NamedTuple):
    """A trick: who led, the cards in the order played, and who won it.

    ``winner`` is ``None`` while the trick is unfinished.
    """

    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat | None


@dataclass(frozen=True)
class Settlement:
    """Who receives and who pays when a deal ends (R-PAY-THIRD, R-LOO, R-CARRY).

    Attributes:
        payouts: pool money received, only for seats that received some.
        looed: looed seats in announcement order.
        carried_next: the carried balance of the next deal, before its ante.
        net: every seat's change: payouts − the dealer's ante − loo payments.
    """

    payouts: dict[Seat, Fraction]
    looed: tuple[Seat, ...]
    carried_next: Fraction
    net: dict[Seat, Fraction]


class DealState:
    """The state of one deal, from the first announcement to settlement.

    Build one with :func:`new_deal`, :func:`deal_from_deck` or
    :func:`deal_from_hands`. Treat it as a value: :meth:`apply` returns a new
    state and never changes this one.

    Attributes:
        players: names in clockwise seating order.
        dealer: the dealer's seat.
        order: seats from the dealer's left round to the dealer (R-DEAL-ORDER).
        carried: the carried balance before the ante.
        pool: the pool at start of play (R-POOL).
        kind: simple or double deal.
        hands: the dealt hands, by seat.
        miss: the miss (double deal) or ``None``.
        indicator: the trump indicator card (R-DEAL-TRUMP).
    """

    __slots__ = (
        "profile", "players", "dealer", "order", "carried", "pool", "kind", "hands",
        "miss", "indicator", "trump", "revealed_after", "announcements", "miss_taker",
        "defender", "collected_by", "held", "active", "tricks", "trick", "leader",
        "phase", "_turn", "_next_active", "_trick_size",
    )

    profile: Profile
    players: tuple[str, ...]
    dealer: Seat
    order: tuple[Seat, ...]
    carried: Fraction
    pool: Fraction
    kind: DealKind
    hands: tuple[tuple[Card, ...], ...]
    miss: tuple[Card, ...] | None
    indicator: Card
    trump: Suit | None
    revealed_after: int | None
    announcements: list[tuple[Seat, Announcement]]
    miss_taker: Seat | None
    defender: Seat | None
    collected_by: Seat | None
    held: list[tuple[Card, ...]]
    active: tuple[Seat, ...]
    tricks: list[Trick]
    trick: list[Card]
    leader: Seat | None
    phase: Phase
    _turn: Seat | None
    _next_active: dict[Seat, Seat]
    _trick_size: int

    # -- queries ---------------------------------------------------------

    def current_player(self) -> Seat | None:
        """The seat that must act next, or ``None`` when the deal is over."""
        return self._turn

    def is_terminal(self) -> bool:
        """Whether the deal is over (collected, or three tricks played)."""
        return self.phase is _OVER

    def trumps_known(self) -> bool:
        """Whether the trump suit is known to the table (R-DEAL-TRUMP, R-REVEAL)."""
        return self.trump is not None

    def legal_announcements(self) -> list[Announcement]:
        """The announcements open to the player to act (empty outside announcing)."""
        if self.phase is not _ANNOUNCE:
            return []
        miss_free = self.miss_taker is None
        if self._turn != self.dealer:
            calls = [_STAND, _PASS]
            if miss_free:
                calls.append(_MISS)
            return calls
        case = self._dealer_case()
        if case == "sole-stand":
            return [_STAND, _MISS, _DEFEND]
        if case == "sole-miss":
            return [_STAND, _PASS]
        calls = [_STAND, _PASS]
        if miss_free:
            calls.append(_MISS)
        return calls

    def legal_cards(self) -> list[Card]:
        """The cards the player to act may play (empty outside play)."""
        if self.phase is not _PLAY:
            return []
        hand = self.held[self._turn]  # type: ignore[index]
        if self.trick:
            return legal_follows(hand, self.trick, self.trump)
        return legal_leads(hand, self.trump, self.kind is _DOUBLE, self.indicator)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a stable order."""
        seat = self._turn
        if seat is None:
            return []
        if self.phase is _ANNOUNCE:
            return [Announce(seat, a) for a in self.legal_announcements()]
        return [Play(seat, c) for c in self.legal_cards()]

    def trick_cards(self) -> list[Card]:
        """The cards of the trick in progress, in the order played."""
        return list(self.trick)

    def check(self, action: Action) -> Verdict:
        """Judge an action without taking it. Never raises.

        Returns:
            a :class:`Verdict`: truthy when legal; otherwise it names the
            :class:`~loo_tutor.rules.RuleId` broken and says what is required.

        See :ref:`r-play-hand` for the order in which card duties are checked.
        """
        refusal = self._refusal(action)
        allowed = tuple(self.legal_actions())
        if refusal is None:
            return Verdict(True, None, f"{self._describe(action)} is legal.", allowed)
        rule, message = refusal
        return Verdict(False, rule, message, allowed)

    def settlement(self) -> Settlement:
        """Payouts, loos, the carried balance and net changes of a finished deal.

        Raises:
            LooError: the deal is not over yet.
        """
        if self.phase is not _OVER:
            raise LooError("the deal is not over, so it cannot be settled yet")
        pool, ante, loo = self.pool, self.profile.ante, self.profile.loo
        # Count in parts of 1/(3q) of a unit for a pool p/q: a trick then earns
        # exactly p parts and every amount stays a whole number (R-PAY-THIRD, R-LEDGER).
        p, q = pool.numerator, pool.denominator
        per_unit = 3 * q
        parts = dict.fromkeys(range(len(self.players)), 0)
        looed: tuple[Seat, ...] = ()
        paid: tuple[Seat, ...] = ()
        if self.collected_by is not None:
            parts[self.collected_by] = 3 * p
            paid = (self.collected_by,)
            left = 0
        else:
            wins = dict.fromkeys(self.active, 0)
            for trick in self.tricks:
                wins[trick.winner] += 1  # type: ignore[index]
            paid_thirds = 0
            for seat in self.active:
                if seat == self.defender:
                    continue
                won = wins[seat]
                if won:
                    parts[seat] = won * p
                    paid += (seat,)
                    paid_thirds += won
                else:
                    looed += (seat,)
            left = (3 - paid_thirds) * p + loo * len(looed) * per_unit
        payouts = {}
        for seat in paid:
            payouts[seat] = exact(parts[seat], per_unit)
        parts[self.dealer] -= ante * per_unit
        for seat in looed:
            parts[seat] -= loo * per_unit
        net = {}
        for seat, amount in parts.items():
            net[seat] = exact(amount, per_unit)
        carried_next = exact(left, per_unit)
        return Settlement(payouts, looed, carried_next, net)

    def all_tricks(self) -> list[Trick]:
        """Finished tricks, then the trick in progress if it has any card."""
        if self.trick:
            return [*self.tricks, Trick(self.leader, self._plays(), None)]  # type: ignore[arg-type]
        return list(self.tricks)

    def _plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The trick in progress as (seat, card) pairs, clockwise from its leader."""
        seat: Seat = self.leader  # type: ignore[assignment]
        following = self._next_active
        pairs = []
        for card in self.trick:
            pairs.append((seat, card))
            seat = following[seat]
        return tuple(pairs)

    # -- acting ----------------------------------------------------------

    def apply(self, action: Action) -> DealState:
        """The state after a legal action; this state is left unchanged.

        Raises:
            IllegalActionError: the action breaks a rule; its ``verdict`` names it.
        """
        refusal = self._refusal(action)
        if refusal is not None:
            rule, message = refusal
            raise IllegalActionError(Verdict(False, rule, message, tuple(self.legal_actions())))
        after = self.copy()
        after._advance(action)
        return after

    def copy(self) -> DealState:
        """An independent copy of this state."""
        other = object.__new__(DealState)
        for name in DealState.__slots__:
            setattr(other, name, getattr(self, name))
        other.announcements = list(self.announcements)
        other.held = list(self.held)
        other.tricks = list(self.tricks)
        other.trick = list(self.trick)
        return other

    def _advance(self, action: Action) -> None:
        """Take a legal action in place (the caller has checked it)."""
        if type(action) is Play:
            self._play(action.seat, action.card)
        else:
            self._announce(action.seat, action.announcement)  # type: ignore[union-attr]

    def _announce(self, seat: Seat, call: Announcement) -> None:
        self.announcements.append((seat, call))
        if call is _STAND:
            self.held[seat] = self.hands[seat]
        elif call is _MISS or call is _DEFEND:
            self.held[seat] = self.miss  # type: ignore[assignment]
            if call is _MISS:
                self.miss_taker = seat
            else:
                self.defender = seat
        if call is not _PASS:
            self.active += (seat,)  # announcements follow seating order, dealer last
        if seat == self.dealer:
            if call is _PASS and len(self.active) == 1:
                self._collect(self.active[0])
            else:
                self._start_play()
            return
        position = len(self.announcements)
        if position == len(self.order) - 1 and not self.active:
            self._collect(self.dealer)
        else:
            self._turn = self.order[position]

    def _collect(self, seat: Seat) -> None:
        self.collected_by = seat
        self.active = ()
        self.phase = _OVER
        self._turn = None

    def _start_play(self) -> None:
        active = self.active
        self._next_active = {s: active[(i + 1) % len(active)] for i, s in enumerate(active)}
        self._trick_size = len(active)
        self.phase = _PLAY
        self.leader = self._turn = active[0]

    def _play(self, seat: Seat, card: Card) -> None:
        hand = self.held[seat]
        i = hand.index(card)
        self.held[seat] = hand[:i] + hand[i + 1:]
        cards = self.trick
        cards.append(card)
        if len(cards) < self._trick_size:
            self._turn = self._next_active[seat]
            return
        if self.trump is None:
            led = cards[0].suit
            for other in cards:
                if other.suit is not led:
                    self.trump = self.indicator.suit
                    self.revealed_after = len(self.tricks) + 1
                    break
        plays = self._plays()
        winner = plays[trick_winner_index(cards, self.trump)][0]
        self.tricks.append(Trick(self.leader, plays, winner))  # type: ignore[arg-type]
        self.trick = []
        if len(self.tricks) == 3:
            self.phase = _OVER
            self._turn = None
            self.leader = None
        else:
            self.leader = self._turn = winner

    # -- explanations ------------------------------------------------------

    def _dealer_case(self) -> str:
        """Which row of the dealer's decision table applies (SPEC §4)."""
        players_in = self.active  # the non-dealers who stood or took the miss
        if len(players_in) == 1:
            return "sole-miss" if players_in[0] == self.miss_taker else "sole-stand"
        return "other"

    def _name(self, seat: Seat) -> str:
        return self.players[seat]

    def _describe(self, action: Action) -> str:
        if isinstance(action, Play):
            return f"{self._name(action.seat)} playing {action.card}"
        return f"{self._name(action.seat)} announcing {action.announcement.value}"

    def _refusal(self, action: Action) -> tuple[RuleId, str] | None:
        """``None`` if the action is legal, else the rule and the message."""
        if isinstance(action, Announce):
            return self._announce_refusal(action.seat, action.announcement)
        if isinstance(action, Play):
            return self._play_refusal(action.seat, action.card)
        raise TypeError(f"not an action: {action!r}")

    def _announce_refusal(self, seat: Seat, call: Announcement) -> tuple[RuleId, str] | None:
        if self.phase is _ANNOUNCE and seat == self._turn and call in self.legal_announcements():
            return None
        name = self._name(seat)
        if self.kind is _SIMPLE:
            return RuleId.ANN_SIMPLE, (
                f"{name} cannot announce: a simple deal has no announcements and everyone plays."
            )
        if self.phase is _OVER and self.collected_by == self.dealer and not self.tricks:
            return RuleId.COLLECT, (
                f"{name} cannot announce: every other player passed, so the dealer "
                "collects the pool without play."
            )
        if self.phase is not _ANNOUNCE:
            return RuleId.ANN_ORDER, (
                f"{name} cannot announce: every player has already announced once."
            )
        if seat != self._turn:
            turn = self._name(self._turn)  # type: ignore[arg-type]
            return RuleId.ANN_ORDER, (
                f"{name} announced out of turn; announcements go clockwise from the "
                f"dealer's left and it is {turn}'s turn."
            )
        if call is _MISS:
            taker = self._name(self.miss_taker)  # type: ignore[arg-type]
            return RuleId.ANN_MISS_ONCE, (
                f"{name} cannot take the miss: {taker} has already taken it, and it "
                "goes only to the first player who asks."
            )
        if seat != self.dealer:
            return RuleId.DEFEND, (
                f"{name} may not defend: only the dealer may, and only against a single "
                "player who stood."
            )
        case = self._dealer_case()
        if case == "sole-stand":
            return RuleId.ANN_DEALER_SOLE_STAND, (
                f"{name}, dealing against a single player who stood, may not pass: the "
                "dealer must stand, take the miss or defend the pool."
            )
        if case == "sole-miss":
            return RuleId.ANN_DEALER_SOLE_MISS, (
                f"{name}, dealing against a single player who took the miss, may not "
                "defend: the dealer may only stand or pass."
            )
        return RuleId.DEFEND, (
            f"{name} may not defend: two or more players are in, and the dealer may "
            "defend only against a single player who stood."
        )

    def _play_refusal(self, seat: Seat, card: Card) -> tuple[RuleId, str] | None:
        name = self._name(seat)
        if self.phase is _ANNOUNCE:
            turn = self._name(self._turn)  # type: ignore[arg-type]
            return RuleId.PLAY_ORDER, (
                f"{name} cannot play yet: the announcements are not finished and it is "
                f"{turn}'s turn to announce."
            )
        if self.phase is _OVER:
            if self.collected_by is not None:
                return RuleId.COLLECT, (
                    f"{name} cannot play: the pool was collected without play."
                )
            return RuleId.PLAY_ORDER, f"{name} cannot play: all three tricks have been played."
        if seat != self._turn:
            turn = self._name(self._turn)  # type: ignore[arg-type]
            why = "is not playing this deal" if seat not in self.active else "must wait"
            return RuleId.PLAY_ORDER, (
                f"{name} {why}: play goes clockwise among the active players and it is "
                f"{turn}'s turn."
            )
        if card in self.legal_cards():
            return None
        return explain_card(name, card, self.held[seat], self.trick_cards(), self.trump,
                            self.kind is _DOUBLE, self.indicator)


# -- building a deal ---------------------------------------------------------


def seats_from_left(players: int, dealer: Seat) -> tuple[Seat, ...]:
    """Seats from the dealer's left round to the dealer (R-DEAL-ORDER).

    >>> seats_from_left(5, 4)
    (0, 1, 2, 3, 4)
    >>> seats_from_left(5, 1)
    (2, 3, 4, 0, 1)
    """
    key = (players, dealer)
    order = _ORDERS.get(key)
    if order is None:
        order = _ORDERS[key] = tuple((dealer + 1 + i) % players for i in range(players))
    return order


_ORDERS: dict[tuple[int, int], tuple[Seat, ...]] = {}


def deal_kind(carried: Fraction) -> DealKind:
    """Simple when nothing is carried, double otherwise (R-DEAL-KIND)."""
    return _SIMPLE if carried.numerator == 0 else _DOUBLE


def split_deck(deck: Sequence[Card], players: int, dealer: Seat, kind: DealKind
               ) -> tuple[list[tuple[Card, ...]], tuple[Card, ...] | None, Card]:
    """Deal a shuffled and cut pack: the hands by seat, the miss and the indicator.

    Three circuits, one card at a time from the dealer's left; in a double deal
    the miss takes the second-to-last card of every circuit (R-DEAL-ORDER,
    R-DEAL-MISS, R-DEAL-TRUMP).
    """
    width = players + (kind is _DOUBLE)
    end = 3 * width
    # The k-th receiver of a circuit gets deck[k], deck[k + width], deck[k + 2*width].
    piles = [tuple(deck[k:end:width]) for k in range(width)]
    hands: list[tuple[Card, ...]] = [()] * players
    for k in range(players - 1):
        hands[(dealer + 1 + k) % players] = piles[k]
    hands[dealer] = piles[-1]
    miss = piles[players - 1] if kind is _DOUBLE else None
    return hands, miss, deck[end]


def _check_seats(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                 profile: Profile) -> Fraction:
    """The carried balance as a Fraction, once the seats are known to be valid."""
    count = len(players)
    if not profile.min_players <= count <= profile.max_players:
        raise LooError(f"{count} players: this game needs "
                       f"{profile.min_players} to {profile.max_players} [R-SEAT-COUNT]")
    if not 0 <= dealer < count:
        raise LooError(f"dealer seat {dealer} is not one of the {count} seats")
    if type(carried) is not Fraction:
        carried = Fraction(carried)
    if carried.numerator < 0:
        raise LooError(f"carried balance {carried} is negative")
    return carried


def deal_from_hands(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                    hands: Sequence[Iterable[Card]], miss: Iterable[Card] | None,
                    indicator: Card, profile: Profile = LIMITED) -> DealState:
    """A deal at its start from known hands.

    Args:
        players: names in clockwise order.
        dealer: the dealer's seat.
        carried: the carried balance before the ante; 0 makes a simple deal.
        hands: three cards for every seat.
        miss: three cards in a double deal, ``None`` in a simple deal.
        indicator: the trump indicator.

    Raises:
        LooError: the seats, hands or cards do not make a deal.
    """
    carried = _check_seats(players, dealer, carried, profile)
    kind = deal_kind(carried)
    dealt = tuple(tuple(h) for h in hands)
    spare = None if miss is None else tuple(miss)
    if len(dealt) != len(players) or any(len(h) != 3 for h in dealt):
        raise LooError("every seat needs a hand of exactly 3 cards")
    if (spare is None) != (kind is _SIMPLE) or (spare is not None and len(spare) != 3):
        raise LooError("a double deal needs a miss of 3 cards and a simple deal has none")
    every = [c for h in dealt for c in h] + list(spare or ()) + [indicator]
    if len(set(every)) != len(every):
        raise LooError("the same card appears twice [R-PACK-CARDS]")
    return start_deal(players, dealer, carried, dealt, spare, indicator, profile)


def start_deal(players: Sequence[str], dealer: Seat, carried: Fraction,
               dealt: Sequence[tuple[Card, ...]], spare: tuple[Card, ...] | None,
               indicator: Card, profile: Profile = LIMITED) -> DealState:
    """A deal at its start from seats and cards the caller has already validated.

    :func:`deal_from_hands` is the checked way in; deal records validate with
    field names of their own and then come here.
    """
    count = len(players)
    kind = _SIMPLE if carried.numerator == 0 else _DOUBLE
    state = object.__new__(DealState)
    state.profile = profile
    state.players = tuple(players)
    state.dealer = dealer
    state.order = seats_from_left(count, dealer)
    state.carried = carried
    state.pool = exact(carried.numerator + profile.ante * carried.denominator,
                       carried.denominator)
    state.kind = kind
    state.hands = tuple(dealt)
    state.miss = spare
    state.indicator = indicator
    state.revealed_after = None
    state.announcements = []
    state.miss_taker = state.defender = state.collected_by = None
    state.tricks = []
    state.trick = []
    state.leader = None
    state._next_active = {}
    state._trick_size = 0
    if kind is _SIMPLE:
        state.trump = None
        state.held = list(dealt)
        state.active = state.order
        state._start_play()
    else:
        state.trump = indicator.suit
        state.held = [()] * count
        state.active = ()
        state.phase = _ANNOUNCE
        state._turn = state.order[0]
    return state


def deal_from_deck(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                   deck: Sequence[Card], profile: Profile = LIMITED) -> DealState:
    """A deal at its start from the pack as shuffled and cut, top card first.

    Raises:
        LooError: the deck is not the 52 distinct cards, or the seats are wrong.
    """
    if len(deck) != 52 or len(set(deck)) != 52:
        raise LooError("the deck must be the 52 distinct cards of one pack [R-PACK-CARDS]")
    carried = _check_seats(players, dealer, carried, profile)
    return _start_from_deck(players, dealer, carried, deck, profile)


def _start_from_deck(players: Sequence[str], dealer: Seat, carried: Fraction,
                     deck: Sequence[Card], profile: Profile) -> DealState:
    hands, miss, indicator = split_deck(deck, len(players), dealer, deal_kind(carried))
    return start_deal(players, dealer, carried, tuple(hands), miss, indicator, profile)


def shuffle_and_cut(rng: random.Random) -> tuple[list[Card], int]:
    """A shuffled pack cut by the player on the dealer's right (R-DEAL-SHUFFLE-CUT).

    Returns:
        the deck, top card first, and the size of the packet lifted by the cut
        (at least one card, leaving at least one below).
    """
    deck = full_deck()
    rng.shuffle(deck)
    cut = rng.randint(1, 51)
    return deck[cut:] + deck[:cut], cut


def new_deal(players: Sequence[str], dealer: Seat, carried: Fraction | int,
             rng: random.Random, profile: Profile = LIMITED) -> DealState:
    """Shuffle, cut and deal a new deal with the given random generator.

    Raises:
        LooError: the seats or the carried balance are wrong.
    """
    carried = _check_seats(players, dealer, carried, profile)
    deck, _ = shuffle_and_cut(rng)
    return _start_from_deck(players, dealer, carried, deck, profile)


def deal_in_place(state: DealState, action: Action) -> None:
    """Take ``action`` in ``state`` without checking it or copying the state.

    For simulations that pick from :meth:`DealState.legal_actions` and need
    speed; anything else should use :meth:`DealState.apply`.
    """
    state._advance(action)
