"""Five-card Loo with Pam (SPEC §11.2): one deal as a state machine, and its records.

Pam Loo is played with the ``pam`` profile (``loo_tutor.engine.profiles.PAM``, its
options read by ``loo_tutor.engine.profiles.profile_from_rules``). A :class:`PamState` has the interface of
:class:`~loo_tutor.engine.state.DealState`: :meth:`~PamState.current_player`,
:meth:`~PamState.legal_actions`, :meth:`~PamState.check` (never raises),
:meth:`~PamState.apply` (returns a new state), :meth:`~PamState.is_terminal`
and :meth:`~PamState.settlement`. A deal goes through four phases:

1. **announce** — from the dealer's left, everyone stands or passes. When every
   non-dealer has passed the dealer takes the pool without a word; when only one
   player stands at the end, that player takes it (R-COLLECT).
2. **exchange** — each player who stood, in the same order, discards 0–5 cards
   and draws as many from the top of the stock (V-EXCHANGE). Then the best flush,
   if anybody holds one, takes the pool without play (V-FLUSH).
3. **play** — five tricks. Pam is the highest trump (V-PAM); the leader of the
   ace of trumps may tell Pam to be civil (V-PAM-CIVIL).
4. **over** — each trick earned a fifth of the pool (R-PAY-THIRD); a player who
   stood and won nothing is looed (R-LOO).

The book page ``book/pam.md`` explains the game and every decision taken where
the seeds leave a gap; :func:`loo_tutor.records.record.check` reads the deal records it describes.

>>> import random
>>> state = new_pam_deal(["A", "B", "C", "D", "E"], dealer=4, carried=0, rng=random.Random(3))
>>> state.pool, state.current_player(), [str(a.announcement) for a in state.legal_actions()]
(Fraction(5, 1), 0, ['stand', 'pass'])
>>> rng = random.Random(3)
>>> while not state.is_terminal():
...     state = state.apply(rng.choice(state.legal_actions()))
>>> settled = state.settlement()
>>> sum(settled.net.values()) == state.carried - settled.carried_next
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final

from .actions import Announce, CivilLead, Exchange, Play, Seat
from .cards import CARDS, Card, Suit, sort_hand
from .errors import LooError, MalformedRecord, RuleError
from .games import GameSpec, RecordDeal, register
from .legality import Announcement, pam_announcements, pam_cards
from .machine import (
    DealMachine,
    Phase,
    check_pack,
    check_seats,
    seats_from_left,
    shuffle_and_cut,
)
from .pam_explain import explain_pam_announcement, explain_pam_card
from .profiles import PAM, describe
from .record_fields import (
    NO_CIVIL,
    is_mapping,
    read_announce,
    read_card,
    read_cards,
    read_tricks,
    refuse_repeats,
)
from .rules import PamParams, Profile, RuleId, RuleKey
from .words import counted, kind_of

HAND_SIZE: Final = 5
"""Cards in every hand (R-DEAL-ORDER as Pam Loo changes it)."""

TRICKS: Final = 5
"""Tricks in a deal played out; each earns a fifth of the pool (R-PAY-THIRD)."""

JACK: Final = 9
"""The rank index of a jack (see :data:`loo_tutor.engine.cards.RANK_TEXT`)."""

_STAND: Final = Announcement.STAND


PamAction = Announce | Exchange | Play | CivilLead
"""The actions of a Pam deal, which are to stand or pass, exchange, play, or lead civilly."""


@dataclass(frozen=True)
class Flush:
    """The flush that took the pool without play (V-FLUSH).

    Attributes:
        seat: who held it.
        kind: ``"pam"`` (four of a suit and Pam), ``"trump"`` (five trumps) or
            ``"plain"`` (five of another suit).
        cards: the five cards.
        exempt: other players who stood and are not looed by it: holders of Pam
            or of a weaker flush, when the profile's ``flush_exempt`` is on.
    """

    seat: Seat
    kind: str
    cards: tuple[Card, ...]
    exempt: tuple[Seat, ...]


_FLUSH_KINDS: Final = ("plain", "trump", "pam")  # weakest first: a flush's class is its index


def pam_card(trump: Suit, running: bool) -> Card:
    """Pam: the jack of clubs, or with ``running_pam`` the jack of trumps (V-PAM).

    >>> pam_card(Suit.HEARTS, False), pam_card(Suit.HEARTS, True)
    (Card.parse('JC'), Card.parse('JH'))
    """
    return CARDS[13 * (trump if running else Suit.CLUBS) + JACK]


def flush_rank(hand: Sequence[Card], trump: Suit, pam: Card) -> tuple[int, tuple[int, ...]] | None:
    """How strong a flush ``hand`` is, or ``None`` when it is no flush (V-FLUSH).

    A flush is five cards of one suit, or four of one suit with Pam. The first
    number is 2 for a Pam flush, 1 for five trumps, 0 for five of a plain suit;
    then come the ranks, highest first, so that larger means stronger.

    >>> from loo_tutor.engine.cards import parse_card as c
    >>> pam = c("JC")
    >>> flush_rank([c(t) for t in "2H 5H 9H QH JC".split()], Suit.SPADES, pam)
    (2, (10, 7, 3, 0))
    >>> flush_rank([c(t) for t in "2H 5H 9H QH KS".split()], Suit.SPADES, pam) is None
    True
    """
    if len(hand) != HAND_SIZE:
        return None
    others = [card for card in hand if card is not pam]
    suits = {card.suit for card in others}
    if len(suits) != 1:
        return None
    ranks = tuple(sorted((card.rank for card in others), reverse=True))
    if len(others) < HAND_SIZE:
        return 2, ranks
    return (1 if trump in suits else 0), ranks


class PamState(DealMachine):
    """The state of one Pam deal, from the first announcement to settlement.

    Build one with :func:`new_pam_deal`, :func:`pam_from_deck` or
    :func:`pam_from_hands`. :meth:`apply` returns a new state and leaves this
    one unchanged. The machine is :class:`~loo_tutor.engine.state.DealMachine`'s, with
    five cards a hand, exchanges in every deal played, Pam in ``pam`` and
    these fields of its own:

    Attributes:
        standers: the players who stood, in order.
        flush: the flush that took the pool, if any.
    """

    _OWN_FIELDS = ("standers", "flush", "_params")
    __slots__ = _OWN_FIELDS
    HAND_SIZE = HAND_SIZE
    EXCHANGES = True

    standers: tuple[Seat, ...]
    flush: Flush | None
    _params: PamParams

    # -- starting ----------------------------------------------------------

    def __init__(self, players: Sequence[str], dealer: Seat, carried: Fraction,
                 dealt: tuple[tuple[Card, ...], ...], indicator: Card,
                 stock: tuple[Card, ...], profile: Profile = PAM) -> None:
        """A Pam deal at its start from validated seats and cards (see :func:`pam_from_hands`)."""
        self._seat(profile, players, dealer, carried, dealt, indicator, stock,
                   HAND_SIZE * len(players) + 1)
        self.trump = indicator.suit
        self._params = params = params_of(profile)
        self.pam = pam_card(indicator.suit, params.running_pam)
        self.standers = ()
        self.flush = None

    def _fresh(self) -> PamState:
        return PamState(self.players, self.dealer, self.carried, self.hands, self.indicator,
                        self.stock, self.profile)

    # -- queries ---------------------------------------------------------

    def legal_announcements(self) -> list[Announcement]:
        """Stand and pass while announcing (R-ANN-CHOICES), else nothing."""
        return pam_announcements() if self.phase is Phase.ANNOUNCE else []

    def legal_actions(self) -> list[PamAction]:
        """Every legal action of the player to act, in a stable order."""
        return super().legal_actions()

    def _open_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        return pam_cards(self._params, hand, self.trick, self.indicator.suit, self._pam(),
                         self._duty_indicator(), len(self.tricks), self._civil_trick())

    def _discards(self, seat: Seat) -> list[Card]:
        return sorted(self.held[seat], key=str)

    def face_down(self) -> tuple[Card, ...]:
        return self.stock

    def taken_by_flush(self) -> bool:
        return self.flush is not None

    def shown_aside(self) -> tuple[Card, ...]:
        return tuple(card for hand in self.held for card in hand)

    def _dealer_takes_trump(self) -> bool:
        return self._params.dealer_takes_trump

    def _not_paid(self) -> tuple[Seat, ...]:
        return ()

    def _flush_spared(self) -> tuple[Seat, ...] | None:
        return None if self.flush is None else (self.flush.seat, *self.flush.exempt)

    # -- acting ----------------------------------------------------------

    def _announce(self, seat: Seat, call: Announcement) -> None:
        self.announcements.append((seat, call))
        if call is _STAND:
            self.standers += (seat,)
            self.active = self.standers
        position = len(self.announcements)
        if position == len(self.order) - 1 and not self.standers:
            self._collect(self.dealer)  # everyone else passed (R-COLLECT)
        elif position < len(self.order):
            self._turn = self.order[position]
        elif len(self.standers) == 1:
            self._collect(self.standers[0])  # a single player stands (R-COLLECT)
        else:
            self._close_announcements()

    def _take_flush(self) -> bool:
        """After the exchanges: give the pool to the best flush, if any (V-FLUSH)."""
        trump, pam = self.indicator.suit, self._pam()
        best: tuple[tuple[int, tuple[int, ...]], Seat] | None = None
        flushes: list[Seat] = []
        for seat in self.standers:
            rank = flush_rank(self.held[seat], trump, pam)
            if rank is not None:
                flushes.append(seat)
                if best is None or rank > best[0]:  # a tie goes to the elder hand
                    best = rank, seat
        if best is None:
            return False
        winner = best[1]
        exempt: tuple[Seat, ...] = ()
        if self._params.flush_exempt:
            exempt = tuple(s for s in self.standers if s != winner
                           and (s in flushes or pam in self.held[s]))
        cards = sort_hand(self.held[winner])
        self.flush = Flush(winner, _FLUSH_KINDS[best[0][0]], cards, exempt)
        self._end(winner)
        return True

    # -- duties ------------------------------------------------------------

    def _pam(self) -> Card:
        return self.pam  # type: ignore[return-value]  # a Pam deal always has Pam

    def _civil_trick(self) -> bool:
        return bool(self.civil) and self.civil[-1] == len(self.tricks) + 1 and bool(self.trick)

    def _duty_indicator(self) -> Card:
        """The card R-LEAD-ACE reads: the turned card, unless the dealer took it.

        The king of trumps is forced only while a turned ace lies on the table;
        once the dealer holds that ace, the ace itself is forced. Pam (never an
        ace) stands in for "no ace turned".
        """
        return self._pam() if self._took_turned() else self.indicator

    # -- explanations ------------------------------------------------------

    def _call_refusal(self, name: str, seat: Seat, call: Announcement
                      ) -> tuple[RuleKey, str] | None:
        return explain_pam_announcement(name, call)

    def _card_refusal(self, name: str, seat: Seat, card: Card) -> tuple[RuleKey, str]:
        return explain_pam_card(self._params, name, card, self.held[seat], self.trick,
                                self.indicator.suit, self._pam(), self._duty_indicator(),
                                self._civil_trick())


# -- building a deal ---------------------------------------------------------


def params_of(profile: Profile) -> PamParams:
    """The options of Pam Loo that ``profile`` plays with.

    Raises:
        LooError: ``profile`` plays another game.
    """
    params = profile.params
    if not isinstance(params, PamParams):
        raise LooError(f"the {profile.name} profile plays {profile.game!r}, not Pam Loo")
    return params


def split_pam_deck(deck: Sequence[Card], players: int, dealer: Seat
                   ) -> tuple[list[tuple[Card, ...]], Card, tuple[Card, ...]]:
    """Deal a shuffled and cut pack for Pam Loo: hands by seat, the indicator, the stock.

    From the dealer's left round to the dealer, each player first receives a
    packet of three cards off the top, then in a second round a packet of two.
    The next card is turned for trumps; the rest is the stock, top first.

    >>> from loo_tutor.engine.cards import full_deck
    >>> hands, turned, stock = split_pam_deck(full_deck(), 4, 3)
    >>> [str(c) for c in hands[0]], [str(c) for c in hands[3]], str(turned), len(stock)
    (['2S', '3S', '4S', 'AS', '2H'], ['JS', 'QS', 'KS', '7H', '8H'], '9H', 31)
    """
    order = seats_from_left(players, dealer)
    second = 3 * players
    hands: list[tuple[Card, ...]] = [()] * players
    for k, seat in enumerate(order):
        hands[seat] = (*deck[3 * k:3 * k + 3], *deck[second + 2 * k:second + 2 * k + 2])
    end = HAND_SIZE * players
    return hands, deck[end], tuple(deck[end + 1:])


def pam_from_hands(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                   hands: Sequence[Sequence[Card]], indicator: Card,
                   stock: Sequence[Card] = (), profile: Profile = PAM) -> PamState:
    """A Pam deal at its start from known hands.

    Args:
        players: names in clockwise order.
        dealer: the dealer's seat.
        carried: the carried balance before the stakes.
        hands: five cards for every seat.
        indicator: the turned card.
        stock: the top of the stock, in order; as many cards as the exchanges
            will draw (give all of it to be safe).
        profile: the ``pam`` profile or one of its variations.

    Raises:
        LooError: the seats, hands or cards do not make a deal.
    """
    fraction = check_seats(players, dealer, carried, profile)
    dealt = tuple(tuple(h) for h in hands)
    if len(dealt) != len(players) or any(len(h) != HAND_SIZE for h in dealt):
        raise LooError("every seat needs a hand of exactly 5 cards")
    every = [c for h in dealt for c in h] + [indicator, *stock]
    if len(set(every)) != len(every):
        raise RuleError("the same card appears twice", RuleId.PACK_CARDS)
    if len(every) > len(CARDS):
        raise RuleError("more cards than one pack holds", RuleId.PACK_CARDS)
    return PamState(players, dealer, fraction, dealt, indicator, tuple(stock), profile)


def pam_from_deck(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                  deck: Sequence[Card], profile: Profile = PAM) -> PamState:
    """A Pam deal at its start from the pack as shuffled and cut, top card first.

    Raises:
        LooError: the deck is not the 52 distinct cards, or the seats are wrong.
    """
    check_pack(deck)
    fraction = check_seats(players, dealer, carried, profile)
    hands, indicator, stock = split_pam_deck(deck, len(players), dealer)
    return PamState(players, dealer, fraction, tuple(hands), indicator, stock, profile)


def new_pam_deal(players: Sequence[str], dealer: Seat, carried: Fraction | int,
                 rng: random.Random, profile: Profile = PAM) -> PamState:
    """Shuffle, cut and deal a Pam deal with the given random generator.

    Raises:
        LooError: the seats or the carried balance are wrong.
    """
    deck, _ = shuffle_and_cut(rng)
    return pam_from_deck(players, dealer, carried, deck, profile)


# -- records ------------------------------------------------------------------

def read_deal(record: dict[str, Any], players: list[str], seat: dict[str, int],
              dealer: int, carried: Fraction, profile: Profile) -> RecordDeal:
    """The deal of a Pam record: five-card hands, the stock, and civil leads."""
    dealt, indicator, stock = _record_cards(record, players, dealer)
    start = PamState(players, dealer, carried, dealt, indicator, stock, profile)
    announce = read_announce(record.get("announce"), seat, False)
    tricks = read_tricks(record.get("tricks"), TRICKS)
    return start, announce, tricks, _civil(record.get("civil"), len(tricks))


def _record_cards(record: dict[str, Any], players: list[str], dealer: int
                  ) -> tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """The hands, the turned card and the stock of a Pam record."""
    deck, hands = record.get("deck"), record.get("hands")
    if (deck is None) == (hands is None):
        raise MalformedRecord("deck/hands: give exactly one of 'deck' and 'hands'")
    if deck is not None:
        for key in ("trump", "stock"):
            if record.get(key) is not None:
                raise MalformedRecord(f"{key}: not allowed with 'deck' (the deck fixes it)")
        cards = read_cards(deck, "deck", count=len(CARDS))
        refuse_repeats(cards, "deck")
        dealt, indicator, stock = split_pam_deck(cards, len(players), dealer)
        return tuple(dealt), indicator, stock
    if hands is None or not is_mapping(hands):
        raise MalformedRecord(f"hands: expected a mapping player -> cards, got {kind_of(hands)}")
    for name in hands:
        if name not in players:
            raise MalformedRecord(f"hands: {name!r} is not one of the players")
    by_seat = []
    for name in players:
        if name not in hands:
            raise MalformedRecord(f"hands: no hand for {name!r}")
        by_seat.append(read_cards(hands[name], "hands", name, HAND_SIZE))
    if record.get("trump") is None:
        raise MalformedRecord("trump: missing (the turned card is needed with 'hands')")
    indicator = read_card(record["trump"], "trump")
    stock = () if record.get("stock") is None else read_cards(record["stock"], "stock")
    room = len(CARDS) - HAND_SIZE * len(players) - 1
    if len(stock) > room:
        raise MalformedRecord(f"stock: {counted(len(stock), 'card')}, but only {room} are left "
                              "after the deal")
    refuse_repeats((*[c for h in by_seat for c in h], indicator, *stock), "hands/trump/stock")
    return tuple(by_seat), indicator, stock



def _civil(value: Any, tricks: int) -> frozenset[int]:
    if value is None:
        return NO_CIVIL
    if not isinstance(value, list):
        raise MalformedRecord(f"civil: expected a list of trick numbers, got {kind_of(value)}")
    for number in value:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= TRICKS:
            raise MalformedRecord(f"civil: {number!r} is not a trick number from 1 to {TRICKS}")
        if number > tricks:
            raise MalformedRecord(f"civil: trick {number} has no lead in 'tricks'")
    if len(set(value)) != len(value):
        raise MalformedRecord("civil: a trick number is listed twice")
    return frozenset(value)


# -- the game's registration --------------------------------------------------

RECORD_KEYS = ("rules", "players", "dealer", "carried", "deck", "hands", "trump", "stock",
               "announce", "exchange", "civil", "tricks")
"""The keys of a Pam Loo record (``book/pam.md``): no miss; civil leads by trick number."""

OPTIONS = frozenset({"running_pam", "flush_exempt", "duties", "dealer_takes_trump"})
"""The profile options only Pam Loo reads."""


def record_keys(profile: Profile) -> tuple[str, ...]:
    """The keys a record of a Pam deal may have, under any of its profiles."""
    return RECORD_KEYS


def kind_name(state: DealMachine) -> str:
    """A Pam deal's kind as its result names it: always ``"pam"`` (no simple or double deal)."""
    return "pam"


def add_result(state: DealMachine, result: dict[str, Any]) -> None:
    """The keys only a Pam result has (``book/pam.md``, "The result")."""
    assert isinstance(state, PamState)  # the game's own machine
    names = state.players
    flush = state.flush
    result["rules"] = describe(state.profile)
    result["flush"] = None if flush is None else names[flush.seat]
    result["flush_kind"] = None if flush is None else flush.kind
    result["exempt"] = [] if flush is None else [names[s] for s in flush.exempt]
    result["exchanges"] = {names[s]: [card.text for card in gone] for s, gone, _ in state.exchanges}
    result["drawn"] = {names[s]: [card.text for card in new] for s, _, new in state.exchanges}
    result["pam"] = None if state.pam is None else state.pam.text
    result["civil"] = list(state.civil)


GAME = register(GameSpec("pam", "Pam Loo", OPTIONS, new_pam_deal, record_keys, kind_name,
                         read_deal, add_result, params=PamParams))
"""Five-card Loo with Pam in the registry of games."""
