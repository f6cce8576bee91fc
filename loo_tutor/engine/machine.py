"""The deal machine every game shares: phases, turns, judging and taking actions.

:class:`DealMachine` holds what three-card Loo
(:class:`~loo_tutor.engine.state.DealState`) and Pam Loo
(:class:`~loo_tutor.engine.pam.PamState`) have in common; the functions at
the end check seats and packs and shuffle, for every game.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from typing import Any, ClassVar, Final, NamedTuple, TypeVar, cast

from .actions import Action, Announce, CivilLead, Exchange, IllegalActionError, Play, Seat, Verdict
from .cards import ACE, Card, Suit, full_deck
from .errors import LooError, RuleError
from .explain import (
    announce_after_all,
    announce_after_collect,
    announce_out_of_turn,
    civil_not_leading,
    civil_without_pam,
    civil_wrong_card,
    discard_not_held,
    exchange_after_pass,
    exchange_before_announced,
    exchange_not_in,
    exchange_out_of_turn,
    exchange_too_late,
    legal_sentence,
    over_all_played,
    over_by_collect,
    over_by_flush,
    play_before_announced,
    play_before_exchanged,
    play_out_of_turn,
    too_many_discards,
    turned_not_open,
    turned_without_discard,
)
from .legality import Announcement, trick_winner_index
from .money import Settlement, exact, settle
from .rules import Profile, RuleId, RuleKey
from .words import counted

try:  # only mypyc reads the decorator: the pure package runs without mypy_extensions
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - an install without mypy (the browser's Python)
    def mypyc_attr(*_args: Any, **_attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


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


# Enum members looked up once: attribute access on an Enum class is slow in
# the hot paths of play-outs and record checking.
_ANNOUNCE: Final = Phase.ANNOUNCE
_EXCHANGE: Final = Phase.EXCHANGE
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER


class Trick(NamedTuple):
    """A trick: who led, the cards in the order played, and who won it.

    ``winner`` is ``None`` while the trick is unfinished.
    """

    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat | None


_Machine = TypeVar("_Machine", bound="DealMachine")

# Builds a named tuple without running its Python __new__. Held here, the compiled
# build calls it without looking up tuple and then __new__ at every trick.
_NEW_TUPLE: Final = tuple.__new__

_MACHINE_FIELDS: Final = (
    "profile", "players", "dealer", "order", "carried", "stakes", "pool", "hands", "indicator",
    "trump", "pam", "stock", "stock_size", "revealed_after", "announcements", "exchanges",
    "civil", "held", "active", "collected_by", "tricks", "trick", "leader", "phase", "_turn",
    "_rounds", "_round", "_reveal_at_once", "_pay_undivided",
)


# A game defined outside the compiled build (a game of a test, or of a reader's
# notebook) subclasses DealMachine in Python; the compiled build allows that
# with a second method table for such classes, which the engine's own games
# never use (benchmarks/README.md gives the cost).
@mypyc_attr(allow_interpreted_subclasses=True)
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
    (``_fresh``). What its params change here it says through hooks
    (``_exchanges_played``, ``_dealer_takes_trump``) and, where the machine
    asks in every deal, through two flags it sets after ``_seat``
    (``_reveal_at_once``, ``_pay_undivided``), so that the machine reads no
    game's options. Pam, where there is one, is a card the legality functions
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
    _reveal_at_once: bool
    """Whether a hidden trump is turned the moment a card fails to follow, not after
    the trick (R-REVEAL; three-card Loo's ``reveal: immediate``). False unless the game sets it."""
    _pay_undivided: bool
    """Whether only a player winning every trick is paid (V-UNDIVIDED; three-card
    Loo's ``undivided``). False unless the game sets it."""

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
        numerator, denominator = carried.as_integer_ratio()  # one call, not two properties
        self.stakes = profile.stakes_by_seat(count, dealer, numerator != 0)
        self.pool = exact(numerator + sum(self.stakes) * denominator, denominator)
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
        self._reveal_at_once = self._pay_undivided = False
        self.phase = _ANNOUNCE
        self._turn = self.order[0]

    # -- queries ---------------------------------------------------------

    def current_player(self) -> Seat | None:
        """The seat that must act next, or ``None`` when the deal is over."""
        return self._turn

    # What a game lays on the table beside the hands. Views, records and pages
    # ask these instead of asking which game is played; a game without a miss
    # or a stock keeps the defaults.

    def miss_cards(self) -> tuple[Card, ...] | None:
        """The miss of this deal (the spare hand), or ``None`` when it has none."""
        return None

    def miss_holder(self) -> Seat | None:
        """Who took the miss or defends with it, if anybody has it."""
        return None

    def defending(self) -> Seat | None:
        """The dealer defending the pool with the miss, if so (R-DEAL-DEFEND)."""
        return None

    def face_down(self) -> tuple[Card, ...]:
        """The cards dealt outside the hands and the indicator that lie face down
        until they are taken: the miss, or a stock drawn from in exchanges."""
        return ()

    def shown_aside(self) -> tuple[Card, ...]:
        """The cards beside the hands dealt that the tutor's view shows: a miss
        taken into play, or the cards drawn in exchanges."""
        return ()

    def taken_by_flush(self) -> bool:
        """Whether a flush took the pool without play (V-FLUSH, in a game with flushes)."""
        return self._flush_spared() is not None

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
                      self._flush_spared(), self._pay_undivided)

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
                and self._dealer_takes_trump())

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

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a stable order."""
        seat = self._turn
        if seat is None:
            return []
        if self.phase is _ANNOUNCE:
            return [Announce(seat, a) for a in self.legal_announcements()]
        if self.phase is _EXCHANGE:
            swaps: list[Action] = [Exchange(seat, cards) for cards in self.legal_exchanges()]
            if self.may_take_turned():
                hand = self._discards(seat)
                swaps += [Exchange(seat, cards, True)
                          for size in range(1, self.exchange_limit(True) + 1)
                          for cards in combinations(hand, size)]
            return swaps
        actions: list[Action] = []
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

    def check(self, action: Action) -> Verdict:
        """Judge an action without taking it. Never raises.

        Returns:
            a :class:`~loo_tutor.engine.state.Verdict`: truthy when legal; otherwise it
            names the rule broken and says what the rule requires here.

        See :ref:`r-play-hand` for the order in which card duties are checked.
        """
        refusal = self._refusal(action)
        allowed = tuple(self.legal_actions())
        if refusal is None:
            return Verdict(True, None, legal_sentence(self._name(action.seat), action), allowed)
        return Verdict(False, refusal[0], refusal[1], allowed)

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` may be taken now: :meth:`check` without the sentence."""
        if type(action) is Play:
            return (self.phase is _PLAY and action.seat == self._turn
                    and action.card in self.legal_cards())
        if type(action) is Announce:
            return (self.phase is _ANNOUNCE and action.seat == self._turn
                    and action.announcement in self.legal_announcements())
        return self._refusal(action) is None

    def announce_if_legal(self, seat: Seat, call: Announcement) -> bool:
        """Take ``seat``'s announcement if it is legal now; whether it was taken.

        :meth:`is_legal` and :meth:`push` of an
        :class:`~loo_tutor.engine.state.Announce` in one step,
        for replaying a record in place; a refused announcement changes nothing.
        """
        if self.phase is not _ANNOUNCE or seat != self._turn:
            return False
        if call not in self.legal_announcements():
            return False
        self._announce(seat, call)
        return True

    def play_if_legal(self, card: Card) -> bool:
        """Play ``card`` for the player to act if it is legal now; whether it was played.

        :meth:`is_legal` and :meth:`push` of a
        :class:`~loo_tutor.engine.state.Play` in one step, for
        replaying a record in place; a refused card changes nothing.
        """
        seat = self._turn
        if self.phase is not _PLAY or seat is None:
            return False
        hand = self.held[seat]
        if card not in (hand if len(hand) == 1 else self._open_cards(hand)):
            return False
        self._play(seat, card)
        return True

    def apply(self: _Machine, action: Action) -> _Machine:
        """The state after a legal action; this state is left unchanged.

        This is :meth:`check`, :meth:`copy`, then :meth:`push` on the copy.

        Raises:
            loo_tutor.engine.state.IllegalActionError: the action breaks a rule; its ``verdict`` names it.
        """
        refusal = self._refusal(action)
        if refusal is not None:
            rule, message = refusal
            raise IllegalActionError(Verdict(False, rule, message, tuple(self.legal_actions())))
        after = self.copy()
        after.push(action)
        return after

    def push(self, action: Action) -> None:
        """Take ``action`` in this state, in place, **without checking it**.

        Like python-chess's ``Board.push``: the caller vouches that the action
        is legal (it came from ``legal_actions``, or ``is_legal`` or
        ``check`` approved it). An illegal action leaves a state that no
        rule describes. Replaying records, play-outs, estimates and the solver
        use this; anything else should use :meth:`apply`.
        """
        if type(action) is Play:
            self._play(action.seat, action.card)
        elif type(action) is Announce:
            self._announce(action.seat, action.announcement)
        elif type(action) is Exchange:
            self._exchange(action.seat, action.cards, action.take_turned)
        elif type(action) is CivilLead:  # V-PAM-CIVIL
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
        if self.EXCHANGES or self._exchanges_played():
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
            raise RuleError(f"the stock given lists {counted(len(self.stock), 'card')}, too few for "
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
        if hand[0] is card:  # no method call for the first card of the hand
            self.held[seat] = hand[1:]
        else:
            i = hand.index(card)
            self.held[seat] = hand[:i] + hand[i + 1:]
        cards = self.trick
        cards.append(card)
        if self.trump is None and card.suit is not cards[0].suit and self._reveal_at_once:
            self.trump = self.indicator.suit
            self.revealed_after = len(self.tricks) + 1
        seats = self._round
        played = len(cards)
        if played < len(seats):
            self._turn = seats[played]
            return
        if self.trump is None:  # R-REVEAL: a trick with a card off the led suit
            led = cards[0].suit
            for other in cards:
                if other.suit is not led:
                    self.trump = self.indicator.suit
                    self.revealed_after = len(self.tricks) + 1
                    break
        winner = seats[trick_winner_index(cards, self.trump, self.pam)]
        # One card per seat here; a keyword to zip would cost a dict at every trick.
        plays = tuple(zip(seats, cards))  # noqa: B905
        self.tricks.append(_NEW_TUPLE(Trick, (self.leader, plays, winner)))
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

    # What a game's options change in the machine every game shares; a game
    # whose params have no such option keeps the defaults.

    def _exchanges_played(self) -> bool:
        """Whether this deal has exchanges with the stock besides a game's ``EXCHANGES``
        (three-card Loo's ``irish``)."""
        return False

    def _dealer_takes_trump(self) -> bool:
        """Whether the dealer may take the turned card in an exchange (Pam Loo's
        ``dealer_takes_trump``)."""
        return False

    def _not_paid(self) -> tuple[Seat, ...]:
        """Players in the deal who play for the pool and are neither paid nor looed."""
        raise NotImplementedError

    def _flush_spared(self) -> tuple[Seat, ...] | None:
        """After a flush took the pool, the players in it who are not looed; else ``None``."""
        raise NotImplementedError

    def _open_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        """The cards of ``hand`` (two or more) that the game's duties let its holder play."""
        raise NotImplementedError

    # -- the refusals, in the order they are tried (their sentences: explain.py) --

    def _refusal(self, action: Action) -> tuple[RuleKey, str] | None:
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
            return over_by_flush(name, self._name(spared[0]))
        if self.collected_by is not None:
            return over_by_collect(name, self._name(self.collected_by))
        return over_all_played(name, self.HAND_SIZE)

    def _announce_turn_refusal(self, name: str, seat: Seat) -> tuple[RuleKey, str] | None:
        """An announcement after the dealer collected, after every announcement, or out of turn."""
        if self.phase is _OVER and self.collected_by == self.dealer and not self.active:
            return announce_after_collect(name)
        if self.phase is not _ANNOUNCE:
            return announce_after_all(name)
        if seat != self._turn:
            return announce_out_of_turn(name, self._name(self._turn))  # type: ignore[arg-type]
        return None

    def _exchange_turn_refusal(self, name: str, seat: Seat, cards: tuple[Card, ...]
                               ) -> tuple[RuleKey, str] | None:
        """An exchange at the wrong time, by a player not in, out of turn, or of cards not held."""
        if dict(self.announcements).get(seat) is Announcement.PASS:
            return exchange_after_pass(name)
        if self.phase is _OVER:
            return self._over_refusal(name)
        if self.phase is _ANNOUNCE:
            return exchange_before_announced(name, self._name(self._turn))  # type: ignore[arg-type]
        if seat not in self.active:
            return exchange_not_in(name)
        if self.phase is not _EXCHANGE:
            return exchange_too_late(name, bool(self.all_tricks()))
        if seat != self._turn:
            return exchange_out_of_turn(name, self._name(self._turn))  # type: ignore[arg-type]
        hand = self.held[seat]
        stray = [card for card in cards if card not in hand]
        if stray or len(set(cards)) != len(cards):
            return discard_not_held(name, hand, stray[0] if stray else None)
        return None

    def _discard_refusal(self, name: str, cards: tuple[Card, ...], take_turned: bool
                         ) -> tuple[RuleKey, str] | None:
        """Too many cards discarded, or the turned card taken where it may not be."""
        if take_turned and not self.may_take_turned():
            return turned_not_open(name, self._dealer_takes_trump())
        if take_turned and not cards:
            return turned_without_discard(name)
        limit = self.exchange_limit(take_turned)
        if len(cards) > limit:
            return too_many_discards(name, len(cards), limit, self.HAND_SIZE)
        return None

    def _play_turn_refusal(self, name: str, seat: Seat) -> tuple[RuleKey, str] | None:
        """A card played when the deal is not at play, or out of turn."""
        if self.phase is _OVER:
            return self._over_refusal(name)
        turn = self._name(self._turn)  # type: ignore[arg-type]
        if self.phase is _ANNOUNCE:
            return play_before_announced(name, turn)
        if self.phase is _EXCHANGE:
            return play_before_exchanged(name)
        if seat != self._turn:
            return play_out_of_turn(name, turn, seat in self.active)
        return None

    def _civil_refusal(self, seat: Seat, card: Card) -> tuple[RuleKey, str] | None:
        if self.may_call_civil(card):
            return None
        name = self._name(seat)
        if self.pam is None:
            return civil_without_pam(name)
        if self.trick:
            return civil_not_leading(name)
        return civil_wrong_card(name, card, self.indicator.suit)


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


_ORDERS: Final[dict[tuple[int, int], tuple[Seat, ...]]] = {}


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


_ROUNDS: Final[dict[tuple[Seat, ...], dict[Seat, tuple[Seat, ...]]]] = {}


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


def check_pack(deck: Sequence[Card]) -> None:
    """Raise :class:`~loo_tutor.engine.errors.LooError` unless ``deck`` is a whole pack (R-PACK-CARDS)."""
    if len(deck) != 52 or len(set(deck)) != 52:
        raise RuleError("the deck must be the 52 distinct cards of one pack", RuleId.PACK_CARDS)


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
