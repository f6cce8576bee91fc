"""Five-card Loo with Pam (SPEC §11.2): one deal as a state machine, and its records.

Pam Loo is played with the ``pam`` profile (``loo_tutor.profiles.PAM``, its
options read by ``loo_tutor.profiles.profile_from_rules``). A :class:`PamState` has the interface of
:class:`~loo_tutor.state.DealState`: :meth:`~PamState.current_player`,
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
the seeds leave a gap; :func:`loo_tutor.record.check` reads the deal records it describes.

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
from itertools import combinations

from .cards import ACE, CARDS, Card, Suit, sort_hand
from .errors import LooError, RuleError
from .legality import (
    Announcement,
    cards_shown,
    explain_card,
    follow_suit,
    legal_follows,
    legal_leads,
    trick_winner_index,
    trumps_held,
)
from .profiles import PAM
from .rules import Profile, RuleId, RuleKey, VariantRuleId
from .state import (
    Announce,
    CivilLead,
    DealMachine,
    Exchange,
    Phase,
    Play,
    Seat,
    Trick,
    _check_seats,
    check_pack,
    seats_from_left,
    shuffle_and_cut,
)

HAND_SIZE = 5
"""Cards in every hand (R-DEAL-ORDER as Pam Loo changes it)."""

TRICKS = 5
"""Tricks in a deal played out; each earns a fifth of the pool (R-PAY-THIRD)."""

JACK = 9
"""The rank index of a jack (see :data:`loo_tutor.cards.RANK_TEXT`)."""

_STAND, _PASS = Announcement.STAND, Announcement.PASS


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


_FLUSH_KINDS = ("plain", "trump", "pam")  # weakest first: a flush's class is its index


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

    >>> from loo_tutor.cards import parse_card as c
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
    one unchanged.

    Attributes:
        profile: the ``pam`` profile and its options.
        players: names in clockwise seating order.
        dealer: the dealer's seat.
        order: seats from the dealer's left round to the dealer.
        carried: the carried balance before the stakes.
        pool: the pool at start of play: carried + the dealer's ante + the
            other players' stakes (R-POOL).
        hands: the dealt hands, by seat.
        indicator: the turned card; its suit is trumps (R-DEAL-TRUMP).
        trump: the trump suit.
        pam: the card that is Pam in this deal.
        stock: the undealt cards after the indicator, top first, as far as known.
        stock_size: how many cards the stock really holds (``52 − 5n − 1``).
        announcements: (seat, stand or pass) in the order made.
        standers: the players who stood, in order.
        active: the players who take part in the tricks: those who stood, unless
            the pool was collected without play (R-COLLECT).
        exchanges: (seat, discarded, drawn) for each exchange so far.
        held: the cards each seat holds now.
        collected_by: who took the whole pool without play (R-COLLECT or a flush).
        flush: the flush that took the pool, if any.
        tricks: the finished tricks.
        civil: the 1-based numbers of the tricks led with "Pam, be civil".
    """

    _FIELDS = (
        "profile", "players", "dealer", "order", "carried", "stakes", "pool", "hands", "indicator",
        "trump", "pam", "stock", "stock_size", "announcements", "standers", "active", "exchanges",
        "held", "collected_by", "flush", "tricks", "civil", "trick", "leader", "phase",
        "_turn",
    )
    __slots__ = _FIELDS
    _LISTS = ("announcements", "exchanges", "held", "tricks", "civil", "trick")
    TRICKS = TRICKS

    profile: Profile
    players: tuple[str, ...]
    dealer: Seat
    order: tuple[Seat, ...]
    carried: Fraction
    stakes: tuple[int, ...]
    pool: Fraction
    hands: tuple[tuple[Card, ...], ...]
    indicator: Card
    trump: Suit
    pam: Card
    stock: tuple[Card, ...]
    stock_size: int
    announcements: list[tuple[Seat, Announcement]]
    standers: tuple[Seat, ...]
    active: tuple[Seat, ...]
    exchanges: list[tuple[Seat, tuple[Card, ...], tuple[Card, ...]]]
    held: list[tuple[Card, ...]]
    collected_by: Seat | None
    flush: Flush | None
    tricks: list[Trick]
    civil: list[int]
    trick: list[Card]
    leader: Seat | None
    phase: Phase
    _turn: Seat | None

    # -- starting ----------------------------------------------------------

    def __init__(self, players: Sequence[str], dealer: Seat, carried: Fraction,
                 dealt: tuple[tuple[Card, ...], ...], indicator: Card,
                 stock: tuple[Card, ...], profile: Profile = PAM) -> None:
        """A Pam deal at its start from validated seats and cards (see :func:`pam_from_hands`)."""
        count = len(players)
        self.profile = profile
        self.players = tuple(players)
        self.dealer = dealer
        self.order = seats_from_left(count, dealer)
        self.carried = carried
        self.stakes = profile.stakes_by_seat(count, dealer, carried != 0)
        self.pool = carried + sum(self.stakes)
        self.hands = dealt
        self.indicator = indicator
        self.trump = indicator.suit
        self.pam = pam_card(self.trump, profile.running_pam)
        self.stock = stock
        self.stock_size = len(CARDS) - HAND_SIZE * count - 1
        self.announcements = []
        self.standers = self.active = ()
        self.exchanges = []
        self.held = list(dealt)
        self.collected_by = None
        self.flush = None
        self.tricks = []
        self.civil = []
        self.trick = []
        self.leader = None
        self.phase = Phase.ANNOUNCE
        self._turn = self.order[0]

    # -- queries ---------------------------------------------------------

    def is_terminal(self) -> bool:
        """Whether the deal is over: collected, taken by a flush, or five tricks played."""
        return self.phase is Phase.OVER

    def legal_announcements(self) -> list[Announcement]:
        """Stand and pass while announcing (R-ANN-CHOICES), else nothing."""
        return [_STAND, _PASS] if self.phase is Phase.ANNOUNCE else []

    def exchange_limit(self, take_turned: bool = False) -> int:
        """How many cards the player to exchange may discard (V-EXCHANGE).

        Five at most, and no more than the stock can replace; a dealer taking
        the turned card (``dealer_takes_trump``) receives it as one replacement.
        """
        if self.phase is not Phase.EXCHANGE:
            return 0
        return min(HAND_SIZE, self.stock_size - self.cards_drawn() + take_turned)

    def may_take_turned(self) -> bool:
        """Whether the player to exchange may take the turned card (the dealer, under
        ``dealer_takes_trump``: a choice, never a duty)."""
        return (self.phase is Phase.EXCHANGE and self._turn == self.dealer
                and self.profile.dealer_takes_trump)

    def legal_exchanges(self) -> list[tuple[Card, ...]]:
        """The sets of cards the player to act may discard, keeping all first.

        Each set lists its cards in the order of their canonical text.
        """
        if self.phase is not Phase.EXCHANGE:
            return []
        hand = sorted(self.held[self._turn], key=str)  # type: ignore[index]
        return [cards for size in range(self.exchange_limit() + 1)
                for cards in combinations(hand, size)]

    def legal_cards(self) -> list[Card]:
        """The cards the player to act may play (empty outside play)."""
        if self.phase is not Phase.PLAY:
            return []
        hand = list(self.held[self._turn])  # type: ignore[index]
        if self.trick:
            return self._follows(hand, self.trick)
        return self._leads(hand)

    def may_call_civil(self, card: Card) -> bool:
        """Whether leading ``card`` now may come with "Pam, be civil" (the ace of trumps)."""
        return (self.phase is Phase.PLAY and not self.trick and card.suit is self.trump
                and card.rank == ACE)

    def legal_actions(self) -> list[PamAction]:
        """Every legal action of the player to act, in a stable order."""
        seat = self._turn
        if seat is None:
            return []
        if self.phase is Phase.ANNOUNCE:
            return [Announce(seat, a) for a in self.legal_announcements()]
        if self.phase is Phase.EXCHANGE:
            swaps: list[PamAction] = [Exchange(seat, cards) for cards in self.legal_exchanges()]
            if self.may_take_turned():
                hand = sorted(self.held[seat], key=str)
                swaps += [Exchange(seat, cards, True)
                          for size in range(1, self.exchange_limit(True) + 1)
                          for cards in combinations(hand, size)]
            return swaps
        actions: list[PamAction] = []
        for card in self.legal_cards():
            actions.append(Play(seat, card))
            if self.may_call_civil(card):
                actions.append(CivilLead(seat, card))
        return actions

    def all_tricks(self) -> list[Trick]:
        """Finished tricks, then the trick in progress if it has any card."""
        if not self.trick:
            return list(self.tricks)
        seat: Seat = self.leader  # type: ignore[assignment]
        plays = []
        for card in self.trick:
            plays.append((seat, card))
            seat = self._next(seat)
        return [*self.tricks, Trick(self.leader, tuple(plays), None)]  # type: ignore[arg-type]

    def _not_paid(self) -> tuple[Seat, ...]:
        return ()

    def _flush_spared(self) -> tuple[Seat, ...] | None:
        return None if self.flush is None else (self.flush.seat, *self.flush.exempt)

    # -- acting ----------------------------------------------------------

    def push(self, action: PamAction) -> None:
        """Take ``action`` in place, without checking it (see ``DealMachine.push``)."""
        if isinstance(action, Announce):
            self._announce(action.seat, action.announcement)
        elif isinstance(action, Exchange):
            self._exchange(action.seat, action.cards, action.take_turned)
        else:
            if isinstance(action, CivilLead):
                self.civil.append(len(self.tricks) + 1)
            self._play(action.seat, action.card)

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
            self.phase = Phase.EXCHANGE
            self._turn = self.standers[0]

    def _collect(self, seat: Seat) -> None:
        if self.flush is None:
            self.active = ()
        self.collected_by = seat
        self.phase = Phase.OVER
        self._turn = None

    def cards_drawn(self) -> int:
        """How many stock cards the exchanges so far have taken (the turned card is not one)."""
        return sum(len(drawn) for _, _, drawn in self.exchanges) - self._took_turned()

    def _took_turned(self) -> int:
        """1 if the dealer has taken the turned card into hand, else 0."""
        return int(any(self.indicator in drawn for _, _, drawn in self.exchanges))

    def _exchange(self, seat: Seat, cards: tuple[Card, ...], take_turned: bool) -> None:
        count = len(cards)
        source: tuple[Card, ...] = (self.indicator,) if take_turned else ()
        start = self.cards_drawn()
        source += self.stock[start:start + count - len(source)]
        if len(source) < count:
            raise LooError(f"the stock given lists {len(self.stock)} cards, too few for "
                           f"this exchange; give the stock in full")
        self.exchanges.append((seat, tuple(cards), source))
        kept = tuple(card for card in self.held[seat] if card not in cards)
        self.held[seat] = kept + source
        index = self.standers.index(seat) + 1
        if index < len(self.standers):
            self._turn = self.standers[index]
        elif not self._take_flush():
            self.phase = Phase.PLAY
            self.leader = self._turn = self.standers[0]  # R-LEAD-FIRST

    def _take_flush(self) -> bool:
        """After the exchanges: give the pool to the best flush, if any (V-FLUSH)."""
        best: tuple[tuple[int, tuple[int, ...]], Seat] | None = None
        flushes: list[Seat] = []
        for seat in self.standers:
            rank = flush_rank(self.held[seat], self.trump, self.pam)
            if rank is not None:
                flushes.append(seat)
                if best is None or rank > best[0]:  # a tie goes to the elder hand
                    best = rank, seat
        if best is None:
            return False
        winner = best[1]
        exempt: tuple[Seat, ...] = ()
        if self.profile.flush_exempt:
            exempt = tuple(s for s in self.standers if s != winner
                           and (s in flushes or self.pam in self.held[s]))
        cards = sort_hand(self.held[winner])
        self.flush = Flush(winner, _FLUSH_KINDS[best[0][0]], cards, exempt)
        self._collect(winner)
        return True

    def _play(self, seat: Seat, card: Card) -> None:
        hand = self.held[seat]
        self.held[seat] = tuple(c for c in hand if c is not card)
        cards = self.trick
        cards.append(card)
        if len(cards) < len(self.standers):
            self._turn = self._next(seat)
            return
        plays = self.all_tricks()[-1].plays
        winner = plays[trick_winner_index(cards, self.trump, self.pam)][0]
        self.tricks.append(Trick(self.leader, plays, winner))  # type: ignore[arg-type]
        self.trick = []
        if len(self.tricks) == TRICKS:
            self.phase = Phase.OVER
            self._turn = self.leader = None
        else:
            self.leader = self._turn = winner  # R-LEAD-NEXT

    def _next(self, seat: Seat) -> Seat:
        standers = self.standers
        return standers[(standers.index(seat) + 1) % len(standers)]

    # -- duties ------------------------------------------------------------

    def _civil_trick(self) -> bool:
        return bool(self.civil) and self.civil[-1] == len(self.tricks) + 1 and bool(self.trick)

    def _duty_indicator(self) -> Card:
        """The card R-LEAD-ACE reads: the turned card, unless the dealer took it.

        The king of trumps is forced only while a turned ace lies on the table;
        once the dealer holds that ace, the ace itself is forced. Pam (never an
        ace) stands in for "no ace turned".
        """
        return self.pam if self._took_turned() else self.indicator

    def _leads(self, hand: list[Card]) -> list[Card]:
        """R-LEAD-TRUMP and R-LEAD-ACE, as the duty set of the profile has them."""
        if self.profile.pam_duties == "first-lead":
            if self.tricks:  # only the first lead must be a trump
                return hand
            return legal_leads(hand, self.trump, False, self.indicator, self.pam)
        return legal_leads(hand, self.trump, True, self._duty_indicator(), self.pam)

    def _civil_hand(self, hand: list[Card]) -> list[Card]:
        """The hand without Pam when Pam must be civil and its holder has another trump."""
        if not self._civil_trick():
            return hand
        pam = self.pam
        if pam in hand and any(c.suit is self.trump for c in hand if c is not pam):
            return [c for c in hand if c is not pam]
        return hand

    def _follows(self, hand: list[Card], trick: list[Card]) -> list[Card]:
        """R-FOLLOW (and for seed 002 R-HEAD, R-TRUMP-WIN), Pam's freedom, Pam's manners."""
        hand = self._civil_hand(hand)
        if self.profile.pam_duties == "three-card":
            return legal_follows(hand, trick, self.trump, self.pam)
        same = follow_suit(hand, trick, self.trump, self.pam)  # Pam follows a trump lead
        if self.pam in hand and self.pam not in same:
            same.append(self.pam)  # and may be played to any trick
        return same

    # -- explanations ------------------------------------------------------

    def _describe(self, action: PamAction) -> str:
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

    def _refusal(self, action: PamAction) -> tuple[RuleKey, str] | None:
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

    def _holding(self, seat: Seat) -> tuple[Card, ...]:
        return self.held[seat]

    def _announce_refusal(self, seat: Seat, call: Announcement) -> tuple[RuleKey, str] | None:
        name = self._name(seat)
        refusal = self._announce_turn_refusal(name, seat)
        if refusal is not None:
            return refusal
        if call not in (_STAND, _PASS):
            return RuleId.ANN_CHOICES, (
                f"{name} cannot announce {call.value}: Pam Loo has no miss, so a player may "
                "only stand or pass."
            )
        return None

    def _exchange_refusal(self, seat: Seat, cards: tuple[Card, ...], take_turned: bool
                          ) -> tuple[RuleKey, str] | None:
        name = self._name(seat)
        refusal = self._exchange_turn_refusal(name, seat, cards)
        if refusal is not None:
            return refusal
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
            why = ("five cards" if limit == HAND_SIZE
                   else f"{limit}, as many as the stock can still replace")
            return VariantRuleId.EXCHANGE, (
                f"{name} cannot discard {len(cards)} cards: the most {name} may exchange is {why}."
            )
        return None

    def _play_refusal(self, seat: Seat, card: Card) -> tuple[RuleKey, str] | None:
        name = self._name(seat)
        refusal = self._play_turn_refusal(name, seat)
        if refusal is not None:
            return refusal
        if card in self.legal_cards():
            return None
        hand = list(self.held[seat])
        pam = self.pam
        if (self.trick and card is pam and card in hand
                and pam not in self._civil_hand(hand)):
            return VariantRuleId.PAM_CIVIL, (
                f"{name} may not play Pam ({card.shown}): the ace of trumps was led with \"Pam, "
                f"be civil\", and {name} holds another trump to play instead."
            )
        trick = self.trick
        rule, message = explain_card(name, card, self._civil_hand(hand), trick, self.trump,
                                     self.profile.pam_duties == "three-card",
                                     self._duty_indicator(), pam)
        if trick and trick[0] is pam and rule is RuleId.FOLLOW:
            trumps = cards_shown(trumps_held(hand, self.trump, pam))
            return VariantRuleId.PAM, (
                f"{name} may not play {card.shown}: Pam was led, and Pam is a trump, so "
                f"{name} must play one of their trumps ({trumps})."
            )
        return rule, message

    def _civil_refusal(self, seat: Seat, card: Card) -> tuple[RuleKey, str] | None:
        if self.may_call_civil(card):
            return None
        name = self._name(seat)
        if self.trick:
            return VariantRuleId.PAM_CIVIL, (
                f"{name} cannot call \"Pam, be civil\": only the leader may, with the lead."
            )
        return VariantRuleId.PAM_CIVIL, (
            f"{name} cannot call \"Pam, be civil\" with {card.shown}: the call goes only with "
            f"the lead of the ace of trumps (A{self.trump.symbol})."
        )


# -- building a deal ---------------------------------------------------------


def split_pam_deck(deck: Sequence[Card], players: int, dealer: Seat
                   ) -> tuple[list[tuple[Card, ...]], Card, tuple[Card, ...]]:
    """Deal a shuffled and cut pack for Pam Loo: hands by seat, the indicator, the stock.

    From the dealer's left round to the dealer, each player first receives a
    packet of three cards off the top, then in a second round a packet of two.
    The next card is turned for trumps; the rest is the stock, top first.

    >>> from loo_tutor.cards import full_deck
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
    fraction = _check_seats(players, dealer, carried, profile)
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
    fraction = _check_seats(players, dealer, carried, profile)
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
