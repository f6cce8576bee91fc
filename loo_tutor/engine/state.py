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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any, ClassVar, NamedTuple, TypeVar, cast

from .cards import ACE, Card, Suit, full_deck
from .errors import LooError, RuleError
from .legality import (
    Announcement,
    cards_shown,
    explain_card,
    follow_suit,
    highest_trump,
    legal_follows,
    legal_leads,
    trick_winner_index,
)
from .rules import LIMITED, Profile, RuleId, RuleKey, VariantRuleId

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
            _TEXTS[id(value)] = str(value)
    return value


# Texts of the Fractions kept in _FRACTIONS, by id. Those objects live for
# good, so no other object can ever share one of these ids.
_TEXTS: dict[int, str] = {}


def amount_text(value: Fraction) -> str:
    """``str(value)``, looked up for the amounts :func:`exact` keeps.

    >>> amount_text(exact(10, 3)), amount_text(Fraction(7, 9))
    ('10/3', '7/9')
    """
    text = _TEXTS.get(id(value))
    return str(value) if text is None else text


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
    EXCHANGE = "exchange"
    """(Irish Loo) A player who stayed in may swap cards with the stock."""
    PLAY = "play"
    """A player must play a card."""
    OVER = "over"
    """The deal has ended and can be settled."""


class DealerCase(str, enum.Enum):
    """Which row of the dealer's decision table applies when the dealer announces (SPEC §4)."""

    SOLE_STAND = "sole-stand"
    """Exactly one other player stood, so the dealer may not pass."""
    SOLE_MISS = "sole-miss"
    """Exactly one other player is in, playing the miss, so the dealer stands or passes."""
    SEVERAL = "several"
    """Two or more others are in, so the dealer stands, passes or takes the miss."""

    @property
    def rule(self) -> RuleId:
        """The rule that governs the dealer's announcement in this case."""
        return _DEALER_RULES[self]


_DEALER_RULES = {
    DealerCase.SOLE_STAND: RuleId.ANN_DEALER_SOLE_STAND,
    DealerCase.SOLE_MISS: RuleId.ANN_DEALER_SOLE_MISS,
    DealerCase.SEVERAL: RuleId.ANN_DEALER_OTHER,
}
_SOLE_STAND, _SOLE_MISS, _SEVERAL = DealerCase.SOLE_STAND, DealerCase.SOLE_MISS, DealerCase.SEVERAL


# Enum members looked up once: attribute access on an Enum class is slow in
# the hot paths of play-outs and record checking.
_ANNOUNCE, _EXCHANGE, _PLAY, _OVER = Phase.ANNOUNCE, Phase.EXCHANGE, Phase.PLAY, Phase.OVER
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


Action = Announce | Play | Exchange


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


class Trick(NamedTuple):
    """A trick: who led, the cards in the order played, and who won it.

    ``winner`` is ``None`` while the trick is unfinished.
    """

    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat | None


class Settlement(NamedTuple):
    """Who receives and who pays when a deal ends (R-PAY-THIRD, R-LOO, R-CARRY)."""

    payouts: dict[Seat, Fraction]
    """Pool money received, only for seats that received some."""
    looed: tuple[Seat, ...]
    """Looed seats in announcement order."""
    carried_next: Fraction
    """The carried balance of the next deal, before its ante."""
    net: dict[Seat, Fraction]
    """Every seat's change, which is its payout less its stake and any loo it pays."""
    loo: Fraction
    """What each looed seat pays (3 in the limited profile)."""


def settle(profile: Profile, pool: Fraction, stakes: Sequence[int], tricks_per_deal: int,
           active: Sequence[Seat], winners: Sequence[Seat], collected_by: Seat | None,
           not_paid: Sequence[Seat] = (), flush_spared: Sequence[Seat] | None = None
           ) -> Settlement:
    """Settle a finished deal of any game (R-PAY-THIRD, R-LOO, R-CARRY, R-LEDGER).

    Args:
        profile: the rules played (the loo and ``undivided``).
        pool: the pool at start of play.
        stakes: what each seat paid in before the deal.
        tricks_per_deal: 3, or 5 in Pam Loo; each trick earns that share of the pool.
        active: the players in the deal, in order.
        winners: the winner of each trick played.
        collected_by: who took the whole pool without play (R-COLLECT or a flush).
        not_paid: players in the deal who play for the pool (the defender).
        flush_spared: when a flush took the pool, the players in it who are not
            looed (the flush's holder, the defender, those a rule exempts).
    """
    # Count in parts of 1/(T*q) of a unit for a pool p/q and T tricks: a trick then
    # earns exactly p parts and every amount stays a whole number.
    p, q = pool.numerator, pool.denominator
    per_unit = tricks_per_deal * q
    whole = tricks_per_deal * p
    if profile.loo_rule == "fixed":
        loo = profile.loo * per_unit
    else:  # unlimited: the pool at start of play; mixed: at most the limit
        loo = whole if profile.loo_rule == "unlimited" else min(whole, profile.loo * per_unit)
    received: dict[Seat, int] = {}
    looed: tuple[Seat, ...] = ()
    if collected_by is not None:
        received[collected_by] = whole
        if flush_spared is not None:  # every other player in is looed (V-FLUSH)
            looed = tuple(s for s in active if s not in flush_spared)
    else:
        wins = dict.fromkeys(active, 0)
        for winner in winners:
            wins[winner] += 1
        for seat in active:
            if seat in not_paid:
                continue
            won = wins[seat]
            if not won:
                looed += (seat,)
            elif won == tricks_per_deal or not profile.undivided:  # V-UNDIVIDED: a clean sweep
                received[seat] = won * p
    payouts = {}
    for seat, amount in received.items():
        payouts[seat] = exact(amount, per_unit)
    parts = {}
    for seat, stake in enumerate(stakes):
        parts[seat] = received.get(seat, 0) - stake * per_unit
    for seat in looed:
        parts[seat] -= loo
    net = {}
    for seat, amount in parts.items():
        net[seat] = exact(amount, per_unit)
    left = whole - sum(received.values()) + loo * len(looed)
    return Settlement(payouts, looed, exact(left, per_unit), net, exact(loo, per_unit))


_Machine = TypeVar("_Machine", bound="DealMachine")
_COUNTS = {3: "three", 5: "five"}

_MACHINE_FIELDS = (
    "profile", "players", "dealer", "order", "carried", "stakes", "pool", "hands", "indicator",
    "trump", "pam", "stock", "stock_size", "revealed_after", "announcements", "exchanges",
    "civil", "held", "active", "collected_by", "tricks", "trick", "leader", "phase", "_turn",
    "_rounds", "_round",
)


class DealMachine:
    """The deal machine of every game: turns, phases, judging an action, taking one.

    Three-card Loo (:class:`DealState`) and five-card Pam Loo
    (:class:`~loo_tutor.engine.pam.PamState`) share everything here: the phases
    (announce, exchange, play, over), the order of play, the order in which
    refusals are tried, :meth:`check`, :meth:`apply`, :meth:`push`, the
    exchanges with the stock, the tricks and settlement. A game supplies
    data (``HAND_SIZE``, ``EXCHANGES``, its own fields in
    ``_OWN_FIELDS``) and small hooks: its announcements (``legal_announcements``,
    ``_announce``, ``_call_refusal``), its duties in play (``_open_cards``,
    ``_card_refusal``), its flush (``_take_flush``), who plays for the pool
    unpaid (``_not_paid``, ``_flush_spared``) and a fresh copy of its start
    (``_fresh``). Pam, where there is one, is a card the legality functions
    are handed (``pam``).

    Attributes:
        profile: the rules played.
        players: names in clockwise seating order.
        dealer: the dealer's seat.
        order: seats from the dealer's left round to the dealer (R-DEAL-ORDER).
        carried: the carried balance before the stakes.
        stakes: what each seat paid into the pool before the deal (R-DEAL-ANTE).
        pool: the pool at start of play (R-POOL).
        hands: the dealt hands, by seat.
        indicator: the trump indicator card (R-DEAL-TRUMP).
        trump: the trump suit, or ``None`` while it is hidden.
        pam: the card that is Pam in this deal, or ``None`` in three-card Loo.
        stock: the undealt cards after the indicator, top first, as far as known.
        stock_size: how many cards the stock really holds.
        revealed_after: the trick after which a hidden trump was revealed, if any.
        announcements: (seat, announcement) in the order made.
        exchanges: (seat, discarded, drawn) for each exchange so far.
        civil: (Pam Loo) the 1-based numbers of the tricks led with "Pam, be civil".
        held: the cards each seat holds now.
        active: the players in the deal, in order of play from the dealer's left.
        collected_by: who took the whole pool without play (R-COLLECT or a flush).
        tricks: the finished tricks.
        trick: the cards of the trick in progress.
        leader: who leads (or led) the trick in progress.
        phase: what the deal waits for.
    """

    __slots__ = _MACHINE_FIELDS
    _OWN_FIELDS: ClassVar[tuple[str, ...]] = ()
    """A game's own fields, which :meth:`copy` copies too (its ``__slots__``)."""
    _LISTS: ClassVar[tuple[str, ...]] = ("announcements", "exchanges", "civil", "held",
                                         "tricks", "trick")
    """The list fields, which a copy must not share."""
    HAND_SIZE: ClassVar[int] = 3
    """Cards in every hand, which is also the number of tricks in a deal played out."""
    EXCHANGES: ClassVar[bool] = False
    """Whether every deal that is played has exchanges with the stock (else only Irish Loo)."""
    profile: Profile
    players: tuple[str, ...]
    dealer: Seat
    order: tuple[Seat, ...]
    carried: Fraction
    stakes: tuple[int, ...]
    pool: Fraction
    hands: tuple[tuple[Card, ...], ...]
    indicator: Card
    trump: Suit | None
    pam: Card | None
    stock: tuple[Card, ...]
    stock_size: int
    revealed_after: int | None
    announcements: list[tuple[Seat, Announcement]]
    exchanges: list[tuple[Seat, tuple[Card, ...], tuple[Card, ...]]]
    civil: list[int]
    held: list[tuple[Card, ...]]
    active: tuple[Seat, ...]
    collected_by: Seat | None
    tricks: list[Trick]
    trick: list[Card]
    leader: Seat | None
    phase: Phase
    _turn: Seat | None
    _rounds: dict[Seat, tuple[Seat, ...]]
    _round: tuple[Seat, ...]

    def _seat(self, profile: Profile, players: Sequence[str], dealer: Seat, carried: Fraction,
              dealt: Sequence[tuple[Card, ...]], indicator: Card, stock: tuple[Card, ...],
              cards_out: int) -> None:
        """Set up the table: seats, stakes and pool (R-DEAL-ANTE, R-POOL), the cards dealt.

        ``cards_out`` counts the cards dealt or turned, so that the stock is the rest.
        """
        count = len(players)
        self.profile = profile
        self.players = tuple(players)
        self.dealer = dealer
        self.order = seats_from_left(count, dealer)
        self.carried = carried
        self.stakes = profile.stakes_by_seat(count, dealer, carried.numerator != 0)
        staked = sum(self.stakes)
        self.pool = exact(carried.numerator + staked * carried.denominator, carried.denominator)
        self.hands = tuple(dealt)
        self.indicator = indicator
        self.pam = None
        self.stock = stock
        self.stock_size = 52 - cards_out
        self.revealed_after = None
        self.announcements = []
        self.exchanges = []
        self.civil = []
        self.held = list(dealt)
        self.active = ()
        self.collected_by = None
        self.tricks = []
        self.trick = []
        self.leader = None
        self._rounds = {}
        self._round = ()
        self.phase = _ANNOUNCE
        self._turn = self.order[0]

    # -- queries ---------------------------------------------------------

    def current_player(self) -> Seat | None:
        """The seat that must act next, or ``None`` when the deal is over."""
        return self._turn

    def is_terminal(self) -> bool:
        """Whether the deal is over: collected, taken by a flush, or every trick played."""
        return self.phase is _OVER

    def settlement(self) -> Settlement:
        """Payouts, loos, the carried balance and net changes of a finished deal.

        Raises:
            LooError: the deal is not over yet.
        """
        if self.phase is not _OVER:
            raise LooError("the deal is not over, so it cannot be settled yet")
        winners = []
        for trick in self.tricks:
            winners.append(trick.winner)
        return settle(self.profile, self.pool, self.stakes, self.HAND_SIZE, self.active,
                      winners, self.collected_by, self._not_paid(),  # type: ignore[arg-type]
                      self._flush_spared())

    def next_pool(self) -> Fraction:
        """The pool the next deal starts play with, once this one is over (R-CARRY, R-POOL).

        That is the carried balance plus the next dealer's stakes (and the
        others', where they stake).
        """
        carried = self.settlement().carried_next
        seats = len(self.players)
        stakes = self.profile.stakes_by_seat(seats, (self.dealer + 1) % seats, carried != 0)
        return carried + sum(stakes)

    def legal_announcements(self) -> list[Announcement]:
        """The announcements open to the player to act (empty outside announcing)."""
        raise NotImplementedError

    def exchange_limit(self, take_turned: bool = False) -> int:
        """How many cards the player to exchange may discard (V-EXCHANGE).

        A whole hand at most, and no more than the stock can replace; a dealer
        taking the turned card (``dealer_takes_trump``) receives it as one
        replacement. 0 outside the exchanges.
        """
        if self.phase is not _EXCHANGE:
            return 0
        return min(self.HAND_SIZE, self.stock_size - self.cards_drawn() + take_turned)

    def may_take_turned(self) -> bool:
        """Whether the player to exchange may take the turned card (the dealer, under
        Pam Loo's ``dealer_takes_trump``: a choice, never a duty)."""
        return (self.phase is _EXCHANGE and self._turn == self.dealer
                and self.profile.dealer_takes_trump)

    def legal_exchanges(self) -> list[tuple[Card, ...]]:
        """The sets of cards the player to act may discard, keeping all first.

        Each set lists its cards in hand order (in Pam Loo, in the order of
        their canonical text).
        """
        if self.phase is not _EXCHANGE:
            return []
        hand = self._discards(self._turn)  # type: ignore[arg-type]
        return [cards for size in range(self.exchange_limit() + 1)
                for cards in combinations(hand, size)]

    def cards_drawn(self) -> int:
        """How many stock cards the exchanges so far have taken (the turned card is not one)."""
        drawn = 0
        for _, _, cards in self.exchanges:
            drawn += len(cards)
        return drawn - self._took_turned()

    def legal_cards(self) -> list[Card]:
        """The cards the player to act may play (empty outside play)."""
        if self.phase is not _PLAY:
            return []
        hand = self.held[self._turn]  # type: ignore[index]
        if len(hand) == 1:  # a last card is always playable, whatever the duties
            return list(hand)
        return self._open_cards(hand)

    def may_call_civil(self, card: Card) -> bool:
        """Whether leading ``card`` now may come with "Pam, be civil" (V-PAM-CIVIL): the
        ace of trumps, led, in a game with Pam."""
        return (self.pam is not None and self.phase is _PLAY and not self.trick
                and card.suit is self.trump and card.rank == ACE)

    def legal_actions(self) -> list[Any]:
        """Every legal action of the player to act, in a stable order."""
        seat = self._turn
        if seat is None:
            return []
        if self.phase is _ANNOUNCE:
            return [Announce(seat, a) for a in self.legal_announcements()]
        if self.phase is _EXCHANGE:
            swaps = [Exchange(seat, cards) for cards in self.legal_exchanges()]
            if self.may_take_turned():
                hand = self._discards(seat)
                swaps += [Exchange(seat, cards, True)
                          for size in range(1, self.exchange_limit(True) + 1)
                          for cards in combinations(hand, size)]
            return swaps
        actions: list[Any] = []
        civil = self.pam is not None
        for card in self.legal_cards():
            actions.append(Play(seat, card))
            if civil and self.may_call_civil(card):
                actions.append(CivilLead(seat, card))
        return actions

    def trick_cards(self) -> list[Card]:
        """The cards of the trick in progress, in the order played."""
        return list(self.trick)

    def trick_plays(self) -> tuple[tuple[Seat, Card], ...]:
        """The trick in progress as (seat, card) pairs, clockwise from its leader."""
        return tuple(zip(self._round, self.trick, strict=False))

    def all_tricks(self) -> list[Trick]:
        """Finished tricks, then the trick in progress if it has any card."""
        if self.trick:
            return [*self.tricks, Trick(self.leader, self.trick_plays(), None)]  # type: ignore[arg-type]
        return list(self.tricks)

    # -- judging and acting ----------------------------------------------

    def check(self, action: Any) -> Verdict:
        """Judge an action without taking it. Never raises.

        Returns:
            a :class:`~loo_tutor.engine.state.Verdict`: truthy when legal; otherwise it
            names the rule broken and says what the rule requires here.

        See :ref:`r-play-hand` for the order in which card duties are checked.
        """
        refusal = self._refusal(action)
        allowed = tuple(self.legal_actions())
        if refusal is None:
            return Verdict(True, None, f"{self._describe(action)} is legal.", allowed)
        return Verdict(False, refusal[0], refusal[1], allowed)

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` may be taken now: :meth:`check` without the sentence."""
        kind = type(action)
        if kind is Play:
            return (self.phase is _PLAY and action.seat == self._turn
                    and action.card in self.legal_cards())
        if kind is Announce:
            return (self.phase is _ANNOUNCE and action.seat == self._turn
                    and action.announcement in self.legal_announcements())
        return self._refusal(action) is None

    def apply(self: _Machine, action: Any) -> _Machine:
        """The state after a legal action; this state is left unchanged.

        This is :meth:`check`, :meth:`copy`, then :meth:`push` on the copy.

        Raises:
            IllegalActionError: the action breaks a rule; its ``verdict`` names it.
        """
        refusal = self._refusal(action)
        if refusal is not None:
            rule, message = refusal
            raise IllegalActionError(Verdict(False, rule, message, tuple(self.legal_actions())))
        after = self.copy()
        after.push(action)
        return after

    def push(self, action: Any) -> None:
        """Take ``action`` in this state, in place, **without checking it**.

        Like python-chess's ``Board.push``: the caller vouches that the action
        is legal (it came from ``legal_actions``, or ``is_legal`` or
        ``check`` approved it). An illegal action leaves a state that no
        rule describes. Replaying records, play-outs, estimates and the solver
        use this; anything else should use :meth:`apply`.
        """
        kind = type(action)
        if kind is Play:
            self._play(action.seat, action.card)
        elif kind is Announce:
            self._announce(action.seat, action.announcement)
        elif kind is Exchange:
            self._exchange(action.seat, action.cards, action.take_turned)
        else:  # a civil lead (V-PAM-CIVIL)
            self.civil.append(len(self.tricks) + 1)
            self._play(action.seat, action.card)

    def copy(self: _Machine) -> _Machine:
        """An independent copy of this state."""
        other = cast(_Machine, self._fresh())
        for name in _MACHINE_FIELDS:
            setattr(other, name, getattr(self, name))
        for name in self._OWN_FIELDS:
            setattr(other, name, getattr(self, name))
        for name in self._LISTS:
            setattr(other, name, list(getattr(self, name)))
        return other

    def _fresh(self) -> DealMachine:
        """This deal at its start, as a state of its game."""
        raise NotImplementedError

    def _announce(self, seat: Seat, call: Announcement) -> None:
        raise NotImplementedError

    def _close_announcements(self) -> None:
        """After the announcements: exchanges, a flush, or the first trick."""
        if self.EXCHANGES or self.profile.irish:
            self.phase = _EXCHANGE
            self._turn = self.active[0]
        else:
            self._start_tricks()

    def _exchange(self, seat: Seat, cards: tuple[Card, ...], take_turned: bool) -> None:
        count = len(cards)
        drawn: tuple[Card, ...] = (self.indicator,) if take_turned else ()
        start = self.cards_drawn()
        drawn += self.stock[start:start + count - len(drawn)]
        if len(drawn) < count:
            raise RuleError(f"the stock given lists {len(self.stock)} cards, too few for "
                            "the cards drawn; give the stock in full", RuleId.DEAL_STOCK)
        self.exchanges.append((seat, tuple(cards), drawn))
        kept = tuple(card for card in self.held[seat] if card not in cards)
        self.held[seat] = kept + drawn
        position = self.active.index(seat) + 1
        if position < len(self.active):
            self._turn = self.active[position]
        else:
            self._start_tricks()

    def _took_turned(self) -> int:
        """1 if the dealer has taken the turned card into hand, else 0."""
        indicator = self.indicator
        for _, _, drawn in self.exchanges:
            if indicator in drawn:
                return 1
        return 0

    def _discards(self, seat: Seat) -> Sequence[Card]:
        """The cards ``seat`` may discard, in the order the exchanges list them."""
        return self.held[seat]

    def _start_tricks(self) -> None:
        if not self._take_flush():
            self._start_play()

    def _take_flush(self) -> bool:
        """Whether a flush takes the pool without play (V-FLUSH); if so the deal is over."""
        raise NotImplementedError

    def _collect(self, seat: Seat) -> None:
        """``seat`` takes the pool without play (R-COLLECT)."""
        self.active = ()
        self._end(seat)

    def _end(self, collector: Seat) -> None:
        self.collected_by = collector
        self.phase = _OVER
        self._turn = None

    def _start_play(self) -> None:
        active = self.active
        self._rounds = rounds = _rounds(active)
        self.phase = _PLAY
        self.leader = self._turn = active[0]  # R-LEAD-FIRST
        self._round = rounds[active[0]]

    def _play(self, seat: Seat, card: Card) -> None:
        hand = self.held[seat]
        i = hand.index(card)
        self.held[seat] = hand[1:] if i == 0 else hand[:i] + hand[i + 1:]
        cards = self.trick
        cards.append(card)
        if self.trump is None and card.suit is not cards[0].suit and self.profile.reveal_immediate:
            self.trump = self.indicator.suit
            self.revealed_after = len(self.tricks) + 1
        seats = self._round
        if len(cards) < len(seats):
            self._turn = seats[len(cards)]
            return
        if self.trump is None:  # R-REVEAL: a trick with a card off the led suit
            led = cards[0].suit
            for other in cards:
                if other.suit is not led:
                    self.trump = self.indicator.suit
                    self.revealed_after = len(self.tricks) + 1
                    break
        winner = seats[trick_winner_index(cards, self.trump, self.pam)]
        self.tricks.append(Trick(self.leader, tuple(zip(seats, cards, strict=True)), winner))  # type: ignore[arg-type]
        self.trick = []
        if len(self.tricks) == self.HAND_SIZE:
            self.phase = _OVER
            self._turn = None
            self.leader = None
        else:
            self.leader = self._turn = winner  # R-LEAD-NEXT
            self._round = self._rounds[winner]

    def _name(self, seat: Seat) -> str:
        return self.players[seat]

    def _not_paid(self) -> tuple[Seat, ...]:
        """Players in the deal who play for the pool and are neither paid nor looed."""
        raise NotImplementedError

    def _flush_spared(self) -> tuple[Seat, ...] | None:
        """After a flush took the pool, the players in it who are not looed; else ``None``."""
        raise NotImplementedError

    def _open_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        """The cards of ``hand`` (two or more) that the game's duties let its holder play."""
        raise NotImplementedError

    # -- explanations, and the refusals in the order they are tried ----------

    def _describe(self, action: Any) -> str:
        name = self._name(action.seat)
        if isinstance(action, Announce):
            return f"{name} announcing {action.announcement.value}"
        if isinstance(action, Exchange):
            cards = cards_shown(action.cards) if action.cards else "nothing"
            taking = " and taking the turned card" if action.take_turned else ""
            return f"{name} discarding {cards}{taking}"
        if isinstance(action, CivilLead):
            return f"{name} leading {action.card.shown} with \"Pam, be civil\""
        return f"{name} playing {action.card.shown}"

    def _refusal(self, action: Any) -> tuple[RuleKey, str] | None:
        """``None`` if the action is legal, else the rule and the message."""
        if isinstance(action, Announce):
            return self._announce_refusal(action.seat, action.announcement)
        if isinstance(action, Exchange):
            return self._exchange_refusal(action.seat, action.cards, action.take_turned)
        if isinstance(action, (Play, CivilLead)):
            refusal = self._play_refusal(action.seat, action.card)
            if refusal is None and isinstance(action, CivilLead):
                refusal = self._civil_refusal(action.seat, action.card)
            return refusal
        raise TypeError(f"not an action: {action!r}")

    def _announce_refusal(self, seat: Seat, call: Announcement) -> tuple[RuleKey, str] | None:
        if self.phase is _ANNOUNCE and seat == self._turn and call in self.legal_announcements():
            return None
        name = self._name(seat)
        return self._announce_turn_refusal(name, seat) or self._call_refusal(name, seat, call)

    def _call_refusal(self, name: str, seat: Seat, call: Announcement
                      ) -> tuple[RuleKey, str] | None:
        """Why the player to announce may not make this announcement."""
        raise NotImplementedError

    def _exchange_refusal(self, seat: Seat, cards: tuple[Card, ...], take_turned: bool
                          ) -> tuple[RuleKey, str] | None:
        name = self._name(seat)
        return (self._exchange_barred(name, take_turned)
                or self._exchange_turn_refusal(name, seat, cards)
                or self._discard_refusal(name, cards, take_turned))

    def _exchange_barred(self, name: str, take_turned: bool) -> tuple[RuleKey, str] | None:
        """Why this game has no such exchange at all; ``None`` where it has."""
        return None

    def _play_refusal(self, seat: Seat, card: Card) -> tuple[RuleKey, str] | None:
        name = self._name(seat)
        refusal = self._play_turn_refusal(name, seat)
        if refusal is not None:
            return refusal
        if card in self.legal_cards():
            return None
        return self._card_refusal(name, seat, card)

    def _card_refusal(self, name: str, seat: Seat, card: Card) -> tuple[RuleKey, str]:
        """Why the player to play may not play ``card``, a card the duties rule out."""
        raise NotImplementedError

    def _over_refusal(self, name: str) -> tuple[RuleKey, str]:
        """Why nothing more can be done once the deal is over."""
        spared = self._flush_spared()
        if spared is not None:
            return VariantRuleId.FLUSH, (
                f"{name} cannot act: {self._name(spared[0])}'s flush took the pool without play."
            )
        if self.collected_by is not None:
            return RuleId.COLLECT, (
                f"{name} cannot act: {self._name(self.collected_by)} took the pool without play."
            )
        return RuleId.PLAY_ORDER, (
            f"{name} cannot act: all {_COUNTS[self.HAND_SIZE]} tricks have been played."
        )

    def _announce_turn_refusal(self, name: str, seat: Seat) -> tuple[RuleKey, str] | None:
        """An announcement after the dealer collected, after every announcement, or out of turn."""
        if self.phase is _OVER and self.collected_by == self.dealer and not self.active:
            return RuleId.COLLECT, (
                f"{name} cannot announce: every other player passed, so the dealer "
                "collects the pool without play."
            )
        if self.phase is not _ANNOUNCE:
            return RuleId.ANN_ORDER, (
                f"{name} cannot announce: every player has already announced once."
            )
        return self._out_of_turn(name, seat, RuleId.ANN_ORDER, "announced out of turn",
                                 "announcements go clockwise from the dealer's left")

    def _exchange_turn_refusal(self, name: str, seat: Seat, cards: tuple[Card, ...]
                               ) -> tuple[RuleKey, str] | None:
        """An exchange at the wrong time, by a player not in, out of turn, or of cards not held."""
        if self.phase is _OVER:
            return self._over_refusal(name)
        if self.phase is not _EXCHANGE:
            when = ("the announcements are not finished" if self.phase is _ANNOUNCE
                    else "the exchanges are over and play has begun")
            return VariantRuleId.EXCHANGE, f"{name} cannot exchange now: {when}."
        if seat not in self.active:
            return VariantRuleId.EXCHANGE, (
                f"{name} is out of this deal, so {name} takes no part in the exchange."
            )
        refusal = self._out_of_turn(name, seat, VariantRuleId.EXCHANGE, "must wait",
                                    "the players in the deal exchange in turn from the "
                                    "dealer's left")
        if refusal is not None:
            return refusal
        hand = self.held[seat]
        stray = [card for card in cards if card not in hand]
        if stray or len(set(cards)) != len(cards):
            what = f"{stray[0].shown} is not in the hand" if stray else "a card is named twice"
            return VariantRuleId.EXCHANGE, (
                f"{name} can only discard cards of their own hand ({cards_shown(hand)}), "
                f"each once: {what}."
            )
        return None

    def _discard_refusal(self, name: str, cards: tuple[Card, ...], take_turned: bool
                         ) -> tuple[RuleKey, str] | None:
        """Too many cards discarded, or the turned card taken where it may not be."""
        if take_turned and not self.may_take_turned():
            why = ("only the dealer may" if self.profile.dealer_takes_trump
                   else "it stays out of play unless the table plays dealer_takes_trump")
            return VariantRuleId.EXCHANGE, f"{name} cannot take the turned card: {why}."
        if take_turned and not cards:
            return VariantRuleId.EXCHANGE, (
                f"{name} must discard a card to take the turned card in its place."
            )
        limit = self.exchange_limit(take_turned)
        if len(cards) > limit:
            why = (f"{_COUNTS[limit]} cards" if limit == self.HAND_SIZE
                   else f"{limit}, as many as the stock can still replace")
            return VariantRuleId.EXCHANGE, (
                f"{name} cannot discard {len(cards)} cards: the most {name} may exchange is {why}."
            )
        return None

    def _play_turn_refusal(self, name: str, seat: Seat) -> tuple[RuleKey, str] | None:
        """A card played when the deal is not at play, or out of turn."""
        if self.phase is _OVER:
            return self._over_refusal(name)
        turn = self._name(self._turn)  # type: ignore[arg-type]
        if self.phase is _ANNOUNCE:
            return RuleId.PLAY_ORDER, (
                f"{name} cannot play yet: the announcements are not finished and it is "
                f"{turn}'s turn to announce."
            )
        if self.phase is _EXCHANGE:
            return RuleId.PLAY_ORDER, (
                f"{name} cannot play yet: the exchanges with the stock are not finished."
            )
        why = "is not playing this deal" if seat not in self.active else "must wait"
        return self._out_of_turn(name, seat, RuleId.PLAY_ORDER, why,
                                 "play goes clockwise among the players in the deal")

    def _civil_refusal(self, seat: Seat, card: Card) -> tuple[RuleKey, str] | None:
        if self.may_call_civil(card):
            return None
        name = self._name(seat)
        if self.pam is None:
            return VariantRuleId.PAM_CIVIL, (
                f"{name} cannot call \"Pam, be civil\": three-card Loo has no Pam."
            )
        if self.trick:
            return VariantRuleId.PAM_CIVIL, (
                f"{name} cannot call \"Pam, be civil\": only the leader may, with the lead."
            )
        return VariantRuleId.PAM_CIVIL, (
            f"{name} cannot call \"Pam, be civil\" with {card.shown}: the call goes only with "
            f"the lead of the ace of trumps (A{self.indicator.suit.symbol})."
        )

    def _out_of_turn(self, name: str, seat: Seat, rule: RuleKey, why: str, how: str
                     ) -> tuple[RuleKey, str] | None:
        """``rule``'s refusal of ``seat`` acting while it is another player's turn."""
        if seat == self._turn:
            return None
        turn = self._name(self._turn)  # type: ignore[arg-type]
        return rule, f"{name} {why}: {how}, and it is {turn}'s turn."


class DealState(DealMachine):
    """The state of one deal of three-card Loo, from the first announcement to settlement.

    Build one with :func:`new_deal`, :func:`deal_from_deck` or
    :func:`deal_from_hands`. Treat it as a value: :meth:`apply` returns a new
    state and never changes this one. Its fields are those of
    :class:`DealMachine` and:

    Attributes:
        kind: simple or double deal.
        miss: the miss (double deal) or ``None``.
        ace_duty: whether R-LEAD-ACE binds leaders once trumps are known.
        miss_taker: who took the miss, if anybody.
        defender: the dealer defending the pool with the miss, if so.
        flush: the seat whose flush took the pool (``three_card_flush``), if any.
    """

    _OWN_FIELDS = ("kind", "miss", "ace_duty", "miss_taker", "defender", "flush",
                   "_variant_play")
    __slots__ = _OWN_FIELDS

    kind: DealKind
    miss: tuple[Card, ...] | None
    ace_duty: bool
    miss_taker: Seat | None
    defender: Seat | None
    flush: Seat | None
    _variant_play: bool

    # -- starting ----------------------------------------------------------

    def __init__(self, players: Sequence[str], dealer: Seat, carried: Fraction,
                 dealt: Sequence[tuple[Card, ...]], spare: tuple[Card, ...] | None,
                 indicator: Card, profile: Profile = LIMITED,
                 stock: tuple[Card, ...] = ()) -> None:
        """A deal at its start; see :func:`start_deal`, which callers use."""
        count = len(players)
        kind = deal_kind(carried, profile)
        self._seat(profile, players, dealer, carried, dealt, indicator, stock,
                   3 * count + (3 if spare is not None else 0) + 1)
        self.kind = kind
        self.miss = spare
        # R-LEAD-ACE binds whenever trumps are turned at the start: a double deal, or a
        # single pot with a miss (SPEC §11.1); V-SIMPLE-ACE extends it past a reveal.
        self.ace_duty = kind is _DOUBLE or profile.simple_ace_duty or spare is not None
        self.miss_taker = self.defender = self.flush = None
        self._variant_play = (not profile.heading or profile.trump_leads is not None
                              or profile.two_player_top_trump)
        if kind is _SIMPLE and spare is None:
            self.trump = None
            self.active = self.order
            self._start_play()
        else:  # a double deal, or a single pot with a miss (V-SINGLE-POT)
            self.trump = indicator.suit
            if kind is not _SIMPLE:
                self.held = [()] * count

    def _fresh(self) -> DealState:
        return DealState(self.players, self.dealer, self.carried, self.hands, self.miss,
                         self.indicator, self.profile, self.stock)

    # -- queries ---------------------------------------------------------

    def trumps_known(self) -> bool:
        """Whether the trump suit is known to the table (R-DEAL-TRUMP, R-REVEAL)."""
        return self.trump is not None

    def legal_announcements(self) -> list[Announcement]:
        """The announcements open to the player to act (empty outside announcing)."""
        if self.phase is not _ANNOUNCE:
            return []
        if self.profile is not LIMITED:
            return self._variant_announcements()
        miss_free = self.miss_taker is None
        if self._turn != self.dealer:
            calls = [_STAND, _PASS]
            if miss_free:
                calls.append(_MISS)
            return calls
        case = self.dealer_case()
        if case is _SOLE_STAND:
            return [_STAND, _MISS, _DEFEND]
        if case is _SOLE_MISS:
            return [_STAND, _PASS]
        calls = [_STAND, _PASS]
        if miss_free:
            calls.append(_MISS)
        return calls

    def _variant_announcements(self) -> list[Announcement]:
        """:meth:`legal_announcements` under a profile's options (SPEC §11.1)."""
        profile = self.profile
        if self.kind is _SIMPLE:  # a single pot with a miss: only the dealer's left speaks
            return [_STAND, _MISS]
        no_pass = profile.club_law and self.indicator.suit is Suit.CLUBS
        miss_free = self.miss is not None and self.miss_taker is None
        calls = [_STAND] if no_pass else [_STAND, _PASS]
        if miss_free:
            calls.append(_MISS)
        if self._turn != self.dealer:
            return calls
        case = self.dealer_case()
        if case is _SOLE_STAND:
            if self.miss is None:  # Irish Loo: no miss to defend with, so the dealer stands
                return [_STAND]
            return [_DEFEND] if profile.dealer_defends_sole else [_STAND, _MISS, _DEFEND]
        if case is _SOLE_MISS:
            return [_STAND] if no_pass else [_STAND, _PASS]
        return calls

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a stable order."""
        return super().legal_actions()

    def _open_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        if self._variant_play:
            return self._variant_cards(hand)
        if self.trick:
            return legal_follows(hand, self.trick, self.trump)
        return legal_leads(hand, self.trump, self.ace_duty, self.indicator)

    def _variant_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        """:meth:`legal_cards` under the heading and lead options (SPEC §11.1)."""
        profile = self.profile
        if self.trick:
            if profile.heading:
                return legal_follows(hand, self.trick, self.trump)
            return follow_suit(hand, self.trick)
        if profile.trump_leads is not None and len(self.tricks) >= profile.trump_leads:
            return list(hand)
        if profile.two_player_top_trump and self.trump is not None and len(self.active) == 2:
            top = highest_trump(hand, self.trump)
            if top is not None:
                return [top]
        return legal_leads(hand, self.trump, self.ace_duty, self.indicator)

    def _not_paid(self) -> tuple[Seat, ...]:
        return () if self.defender is None else (self.defender,)

    def _flush_spared(self) -> tuple[Seat, ...] | None:
        if self.flush is None:
            return None
        return (self.flush,) if self.defender is None else (self.flush, self.defender)

    def dealer_case(self) -> DealerCase | None:
        """Which row of the dealer's decision table applies (SPEC §4).

        ``None`` unless it is the dealer's turn to announce.
        """
        if self.phase is not _ANNOUNCE or self._turn != self.dealer:
            return None
        players_in = self.active  # the non-dealers who stood or took the miss
        if len(players_in) == 1:
            return _SOLE_MISS if players_in[0] == self.miss_taker else _SOLE_STAND
        return _SEVERAL

    # -- acting ----------------------------------------------------------

    def _announce(self, seat: Seat, call: Announcement) -> None:
        if self.kind is _SIMPLE:
            self._single_pot(seat, call)
            return
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
            elif self.profile is LIMITED:
                self._start_play()
            else:
                self._close_announcements()
            return
        position = len(self.announcements)
        if position == len(self.order) - 1 and not self.active:
            self._collect(self.dealer)
        else:
            self._turn = self.order[position]

    def _single_pot(self, seat: Seat, call: Announcement) -> None:
        """The one announcement of a single pot with a miss; everyone else plays (V-SINGLE-POT)."""
        self.announcements.append((seat, call))
        self.held = list(self.hands)
        if call is _MISS:
            self.held[seat] = self.miss  # type: ignore[assignment]
            self.miss_taker = seat
        self.active = self.order
        self._close_announcements()

    def _take_flush(self) -> bool:
        """Whether a hand of three trumps takes the pool without play (V-FLUSH).

        Of two such hands the one with the higher top trump wins. The defender
        plays for the pool and cannot take it.
        """
        if not self.profile.three_card_flush:
            return False
        trump = self.trump
        best: Seat | None = None
        best_top = -1
        for seat in self.active:
            hand = self.held[seat]
            if seat != self.defender and all(card.suit is trump for card in hand):
                top = max(card.rank for card in hand)
                if top > best_top:
                    best, best_top = seat, top
        if best is None:
            return False
        self.flush = best
        self._end(best)
        return True

    # -- explanations ------------------------------------------------------

    def _announce_turn_refusal(self, name: str, seat: Seat) -> tuple[RuleKey, str] | None:
        if self.kind is _SIMPLE:
            if self.profile.single_pot_miss:
                return self._single_pot_refusal(name, seat)
            return RuleId.ANN_SIMPLE, (
                f"{name} cannot announce: a simple deal has no announcements and everyone plays."
            )
        return super()._announce_turn_refusal(name, seat)

    def _call_refusal(self, name: str, seat: Seat, call: Announcement
                      ) -> tuple[RuleKey, str] | None:
        if self.profile is not LIMITED:
            refusal = self._variant_announce_refusal(name, seat, call)
            if refusal is not None:
                return refusal
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
        case = self.dealer_case()
        if case is _SOLE_STAND:
            return RuleId.ANN_DEALER_SOLE_STAND, (
                f"{name}, dealing against a single player who stood, may not pass: the "
                "dealer must stand, take the miss or defend the pool."
            )
        if case is _SOLE_MISS:
            return RuleId.ANN_DEALER_SOLE_MISS, (
                f"{name}, dealing against a single player who took the miss, may not "
                "defend: the dealer may only stand or pass."
            )
        return RuleId.DEFEND, (
            f"{name} may not defend: two or more players are in, and the dealer may "
            "defend only against a single player who stood."
        )

    def _single_pot_refusal(self, name: str, seat: Seat) -> tuple[RuleKey, str]:
        left = self._name(self.order[0])
        if self.phase is _ANNOUNCE and seat == self._turn:
            return VariantRuleId.SINGLE_POT, (
                f"{name} may only stand or take the miss: in a single pot nobody passes."
            )
        return VariantRuleId.SINGLE_POT, (
            f"{name} cannot announce: in a single pot everyone plays, and only {left}, on the "
            "dealer's left, may first swap for the miss."
        )

    def _variant_announce_refusal(self, name: str, seat: Seat, call: Announcement
                                  ) -> tuple[RuleKey, str] | None:
        """The refusals that only a profile's options cause, for a player whose turn it is."""
        profile = self.profile
        if self.miss is None and (call is _MISS or call is _DEFEND):
            return RuleId.ANN_CHOICES, (
                f"{name} may only stand or pass: this deal has no miss."
            )
        if call is _PASS and profile.club_law and self.indicator.suit is Suit.CLUBS:
            return VariantRuleId.CLUB_LAW, (
                f"{name} may not pass: a club was turned for trumps, and under club law "
                "everyone plays."
            )
        if seat == self.dealer and self.dealer_case() is _SOLE_STAND:
            if self.miss is None:
                return RuleId.ANN_DEALER_SOLE_STAND, (
                    f"{name}, dealing against a single player who stood, may not pass: "
                    "there is no miss to defend with, so the dealer stands and plays."
                )
            if profile.dealer_defends_sole:
                return RuleId.ANN_DEALER_SOLE_STAND, (
                    f"{name}, dealing against a single player who stood, must defend the "
                    "pool with the miss."
                )
        return None

    def _exchange_barred(self, name: str, take_turned: bool) -> tuple[RuleKey, str] | None:
        if take_turned:
            return VariantRuleId.EXCHANGE, (
                f"{name} cannot take the turned card: in three-card Loo it stays on the table."
            )
        if not self.profile.irish:
            return VariantRuleId.EXCHANGE, f"{name} cannot exchange: this game has no exchanges."
        return None

    def _card_refusal(self, name: str, seat: Seat, card: Card) -> tuple[RuleKey, str]:
        hand, trick, trump = self.held[seat], self.trick, self.trump
        if (self._variant_play and not trick and card in hand and trump is not None
                and card in legal_leads(hand, trump, self.ace_duty, self.indicator)):
            top = highest_trump(hand, trump)
            assert top is not None
            return VariantRuleId.TWO_TOP_TRUMP, (
                f"{name} may not lead {card.shown}: only two players are in, so {name} must "
                f"lead the highest trump, {top.shown}."
            )
        return explain_card(name, card, hand, trick, trump, self.ace_duty, self.indicator)


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


def _rounds(active: tuple[Seat, ...]) -> dict[Seat, tuple[Seat, ...]]:
    """For each player in, the seats of a trick they lead, in the order of play.

    >>> _rounds((1, 3, 4))
    {1: (1, 3, 4), 3: (3, 4, 1), 4: (4, 1, 3)}
    """
    rounds = _ROUNDS.get(active)
    if rounds is None:
        rounds = _ROUNDS[active] = {seat: active[i:] + active[:i]
                                    for i, seat in enumerate(active)}
    return rounds


_ROUNDS: dict[tuple[Seat, ...], dict[Seat, tuple[Seat, ...]]] = {}


def deal_kind(carried: Fraction, profile: Profile = LIMITED) -> DealKind:
    """Simple when nothing is carried, double otherwise (R-DEAL-KIND).

    Irish Loo knows no simple deal: every deal is played like a double deal,
    without a miss; neither does ``blenheim`` (``simple_pool`` off), whose every
    deal has a miss.
    """
    return (_SIMPLE if carried.numerator == 0 and profile.simple_pool and not profile.irish
            else _DOUBLE)


def deals_miss(kind: DealKind, profile: Profile = LIMITED) -> bool:
    """Whether a deal of this kind gets a miss (R-DEAL-MISS, V-SINGLE-POT, Irish Loo)."""
    return not profile.irish and (kind is _DOUBLE or profile.single_pot_miss)


def split_deck(deck: Sequence[Card], players: int, dealer: Seat, kind: DealKind,
               profile: Profile = LIMITED
               ) -> tuple[list[tuple[Card, ...]], tuple[Card, ...] | None, Card]:
    """Deal a shuffled and cut pack: the hands by seat, the miss and the indicator.

    Three circuits, one card at a time from the dealer's left; a miss takes the
    second-to-last card of every circuit, or the first with the option
    ``miss_position: first`` (R-DEAL-ORDER, R-DEAL-MISS, R-DEAL-TRUMP).
    """
    with_miss = deals_miss(kind, profile)
    width = players + with_miss
    end = 3 * width
    # The k-th receiver of a circuit gets deck[k], deck[k + width], deck[k + 2*width].
    piles = [tuple(deck[k:end:width]) for k in range(width)]
    miss = None
    if with_miss:
        miss = piles.pop(0 if profile.miss_first else players - 1)
    hands: list[tuple[Card, ...]] = [()] * players
    for k in range(players):
        hands[(dealer + 1 + k) % players] = piles[k]
    return hands, miss, deck[end]


def undealt(deck: Sequence[Card], players: int, kind: DealKind, profile: Profile = LIMITED
            ) -> tuple[Card, ...]:
    """The stock: the cards of a dealt pack after the indicator (R-DEAL-STOCK)."""
    return tuple(deck[3 * (players + deals_miss(kind, profile)) + 1:])


def check_seats(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                 profile: Profile) -> Fraction:
    """The carried balance as a Fraction, once the seats are known to be valid."""
    count = len(players)
    if not profile.min_players <= count <= profile.max_players:
        raise RuleError(f"{count} players: this game needs "
                        f"{profile.min_players} to {profile.max_players}", RuleId.SEAT_COUNT)
    if not 0 <= dealer < count:
        raise LooError(f"dealer seat {dealer} is not one of the {count} seats")
    if type(carried) is int:
        carried = exact(carried, 1)
    elif type(carried) is not Fraction:
        carried = Fraction(carried)
    if carried.numerator < 0:
        raise LooError(f"carried balance {carried} is negative")
    return carried


def deal_from_hands(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                    hands: Sequence[Iterable[Card]], miss: Iterable[Card] | None,
                    indicator: Card, profile: Profile = LIMITED,
                    stock: Iterable[Card] = ()) -> DealState:
    """A deal at its start from known hands.

    Args:
        players: names in clockwise order.
        dealer: the dealer's seat.
        carried: the carried balance before the ante; 0 makes a simple deal.
        hands: three cards for every seat.
        miss: three cards in a double deal, ``None`` in a simple deal.
        indicator: the trump indicator.
        profile: the rules played.
        stock: the undealt cards in the order they are drawn (Irish Loo).

    Raises:
        LooError: the seats, hands or cards do not make a deal, or ``profile``
            is Pam Loo (see :func:`loo_tutor.engine.pam.pam_from_hands`).
    """
    _three_card(profile)
    carried = check_seats(players, dealer, carried, profile)
    kind = deal_kind(carried, profile)
    dealt = tuple(tuple(h) for h in hands)
    spare = None if miss is None else tuple(miss)
    drawn = tuple(stock)
    if len(dealt) != len(players) or any(len(h) != 3 for h in dealt):
        raise LooError("every seat needs a hand of exactly 3 cards")
    if (spare is not None) != deals_miss(kind, profile) or (spare is not None and len(spare) != 3):
        raise LooError("a double deal needs a miss of 3 cards and a simple deal has none")
    every = [c for h in dealt for c in h] + list(spare or ()) + [indicator, *drawn]
    if len(set(every)) != len(every):
        raise RuleError("the same card appears twice", RuleId.PACK_CARDS)
    return start_deal(players, dealer, carried, dealt, spare, indicator, profile, drawn)


def start_deal(players: Sequence[str], dealer: Seat, carried: Fraction,
               dealt: Sequence[tuple[Card, ...]], spare: tuple[Card, ...] | None,
               indicator: Card, profile: Profile = LIMITED,
               stock: tuple[Card, ...] = ()) -> DealState:
    """A deal at its start from seats and cards the caller has already validated.

    :func:`deal_from_hands` is the checked way in; deal records validate with
    field names of their own and then come here.
    """
    return DealState(players, dealer, carried, dealt, spare, indicator, profile, stock)


def deal_from_deck(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                   deck: Sequence[Card], profile: Profile = LIMITED) -> DealState:
    """A deal at its start from the pack as shuffled and cut, top card first.

    Raises:
        LooError: the deck is not the 52 distinct cards, or the seats are wrong,
            or ``profile`` is Pam Loo (see :func:`loo_tutor.engine.pam.pam_from_deck`).
    """
    _three_card(profile)
    check_pack(deck)
    carried = check_seats(players, dealer, carried, profile)
    return _start_from_deck(players, dealer, carried, deck, profile)


def _three_card(profile: Profile) -> None:
    if profile.game != "three-card":
        raise RuleError(f"the {profile.name} profile plays five-card Loo, which loo_tutor.engine.pam "
                        "deals", RuleId.DEAL_ORDER)


def check_pack(deck: Sequence[Card]) -> None:
    """Raise :class:`~loo_tutor.engine.errors.LooError` unless ``deck`` is a whole pack (R-PACK-CARDS)."""
    if len(deck) != 52 or len(set(deck)) != 52:
        raise RuleError("the deck must be the 52 distinct cards of one pack", RuleId.PACK_CARDS)


def _start_from_deck(players: Sequence[str], dealer: Seat, carried: Fraction,
                     deck: Sequence[Card], profile: Profile) -> DealState:
    kind = deal_kind(carried, profile)
    hands, miss, indicator = split_deck(deck, len(players), dealer, kind, profile)
    stock = undealt(deck, len(players), kind, profile) if profile.irish else ()
    return start_deal(players, dealer, carried, tuple(hands), miss, indicator, profile, stock)


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
    """Shuffle, cut and deal a new deal of three-card Loo with the given random generator.

    Raises:
        LooError: the seats or the carried balance are wrong, or ``profile`` is
            five-card Pam Loo, which :func:`loo_tutor.engine.pam.new_pam_deal` deals.
    """
    _three_card(profile)
    carried = check_seats(players, dealer, carried, profile)
    deck, _ = shuffle_and_cut(rng)
    return _start_from_deck(players, dealer, carried, deck, profile)
