"""One deal of three-card Loo and its variants: :class:`DealState` and the ways to deal one.

The machine itself is :class:`~loo_tutor.engine.state.DealMachine`'s; this
module adds what three-card Loo's announcements do to a deal (the miss,
defending), its flush, and deals a pack into hands, a miss and the trump
indicator. What a player may announce or play, and why anything else is
refused, it asks :mod:`loo_tutor.engine.legality`: the fast path when the
profile's duties are limited Loo's (``Profile.limited_duties``), else the
general one.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, Final

from .actions import Action, Seat
from .cards import Card
from .errors import LooError, MalformedRecord, RuleError
from .explain import explain_card
from .games import GameSpec, RecordDeal, game_of, register
from .legality import (
    Announcement,
    DealerCase,
    dealer_case_of,
    legal_follows,
    legal_leads,
    limited_announcements,
    variant_announcements,
    variant_cards,
)
from .machine import DealMachine, Phase, check_pack, check_seats, shuffle_and_cut
from .profiles import describe
from .record_fields import (
    CARD_OF_TEXT,
    NO_CIVIL,
    all_distinct,
    canonical_cards,
    is_mapping,
    read_announce,
    read_card,
    read_cards,
    read_tricks,
    refuse_hand_names,
)
from .rules import LIMITED, Profile, RuleId, RuleKey, ThreeCardParams
from .three_card_explain import (
    explain_announcement,
    explain_simple_announcement,
    explain_variant_card,
    no_exchanges,
    turned_stays,
)
from .words import kind_of


class DealKind(str, enum.Enum):
    """Simple or double deal, fixed by the carried balance (R-DEAL-KIND)."""

    SIMPLE = "simple"
    """Nothing carried, so no miss, no announcements and trumps hidden."""
    DOUBLE = "double"
    """Something carried, so a miss, announcements and trumps turned at once."""


_ANNOUNCE: Final = Phase.ANNOUNCE
_PLAY: Final = Phase.PLAY
_SIMPLE: Final = DealKind.SIMPLE
_DOUBLE: Final = DealKind.DOUBLE
_STAND: Final = Announcement.STAND
_PASS: Final = Announcement.PASS
_MISS: Final = Announcement.MISS
_DEFEND: Final = Announcement.DEFEND


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
                   "_params", "_limited_duties")
    __slots__ = _OWN_FIELDS

    kind: DealKind
    miss: tuple[Card, ...] | None
    ace_duty: bool
    miss_taker: Seat | None
    defender: Seat | None
    flush: Seat | None
    _params: ThreeCardParams
    _limited_duties: bool

    # -- starting ----------------------------------------------------------

    def __init__(self, players: Sequence[str], dealer: Seat, carried: Fraction,
                 dealt: Sequence[tuple[Card, ...]], spare: tuple[Card, ...] | None,
                 indicator: Card, profile: Profile = LIMITED,
                 stock: tuple[Card, ...] = (), kind: DealKind | None = None) -> None:
        """A deal at its start; see :func:`start_deal`, which callers use.

        ``kind`` is the deal's kind (R-DEAL-KIND) when the caller has worked it
        out from ``carried`` already, as every caller that validated the miss
        has; else it is worked out here.
        """
        count = len(players)
        params = profile.params
        if not isinstance(params, ThreeCardParams):  # inline: a deal starts in every check
            params = params_of(profile)  # refused
        self._params = params
        if kind is None:
            kind = _deal_kind(carried, params)
        self._seat(profile, players, dealer, carried, dealt, indicator, stock,
                   3 * count + (3 if spare is not None else 0) + 1)
        self.kind = kind
        self.miss = spare
        self._reveal_at_once = params.reveal_immediate
        self._pay_undivided = params.undivided
        # R-LEAD-ACE binds whenever trumps are turned at the start: a double deal, or a
        # single pot with a miss (SPEC §11.1); V-SIMPLE-ACE extends it past a reveal.
        self.ace_duty = kind is _DOUBLE or params.simple_ace_duty or spare is not None
        self.miss_taker = self.defender = self.flush = None
        self._limited_duties = profile.limited_duties  # worked out once per profile
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
                         self.indicator, self.profile, self.stock, self.kind)

    # -- queries ---------------------------------------------------------

    def trumps_known(self) -> bool:
        """Whether the trump suit is known to the table (R-DEAL-TRUMP, R-REVEAL)."""
        return self.trump is not None

    def legal_announcements(self) -> list[Announcement]:
        """The announcements open to the player to act (empty outside announcing)."""
        if self.phase is not _ANNOUNCE:
            return []
        case = None if self._turn != self.dealer else dealer_case_of(self.active, self.miss_taker)
        if self._limited_duties:
            return limited_announcements(case, self.miss_taker is None)
        return variant_announcements(self._params, case, self.miss is not None,
                                     self.miss_taker is None, self.kind is _SIMPLE,
                                     self.indicator.suit)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, in a stable order."""
        return super().legal_actions()

    def _open_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        if not self._limited_duties:
            return variant_cards(self._params, hand, self.trick, self.trump, self.ace_duty,
                                 self.indicator, len(self.tricks), len(self.active))
        if self.trick:
            return legal_follows(hand, self.trick, self.trump)
        return legal_leads(hand, self.trump, self.ace_duty, self.indicator)

    def miss_cards(self) -> tuple[Card, ...] | None:
        return self.miss

    def taken_by_flush(self) -> bool:
        return self.flush is not None

    def miss_holder(self) -> Seat | None:
        return self.miss_taker if self.miss_taker is not None else self.defender

    def defending(self) -> Seat | None:
        return self.defender

    def face_down(self) -> tuple[Card, ...]:
        return self.miss or ()

    def shown_aside(self) -> tuple[Card, ...]:
        in_play = self.phase is _PLAY or bool(self.tricks)
        if self.miss is not None and self.miss_holder() is not None and in_play:
            return self.miss
        return ()

    def _not_paid(self) -> tuple[Seat, ...]:
        return () if self.defender is None else (self.defender,)

    def _flush_spared(self) -> tuple[Seat, ...] | None:
        if self.flush is None:
            return None
        return (self.flush,) if self.defender is None else (self.flush, self.defender)

    def _exchanges_played(self) -> bool:
        return self._params.irish

    def dealer_case(self) -> DealerCase | None:
        """Which row of the dealer's decision table applies (SPEC §4).

        ``None`` unless it is the dealer's turn to announce.
        """
        if self.phase is not _ANNOUNCE or self._turn != self.dealer:
            return None
        return dealer_case_of(self.active, self.miss_taker)  # the non-dealers who are in

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
            elif self.profile.is_limited:
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
        if not self._params.three_card_flush:
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
            speaks = self.phase is _ANNOUNCE and seat == self._turn
            return explain_simple_announcement(self._params, name, speaks,
                                               self._name(self.order[0]))
        return super()._announce_turn_refusal(name, seat)

    def _call_refusal(self, name: str, seat: Seat, call: Announcement
                      ) -> tuple[RuleKey, str] | None:
        taker = None if self.miss_taker is None else self._name(self.miss_taker)
        return explain_announcement(self._params, name, call, self.dealer_case(),
                                    self.miss is not None, taker, self.indicator.suit)

    def _exchange_barred(self, name: str, take_turned: bool) -> tuple[RuleKey, str] | None:
        if take_turned:
            return turned_stays(name)
        if not self._params.irish:
            return no_exchanges(name)
        return None

    def _card_refusal(self, name: str, seat: Seat, card: Card) -> tuple[RuleKey, str]:
        hand = self.held[seat]
        if self._limited_duties:
            return explain_card(name, card, hand, self.trick, self.trump, self.ace_duty,
                                self.indicator)
        return explain_variant_card(self._params, name, card, hand, self.trick, self.trump,
                                    self.ace_duty, self.indicator)


def params_of(profile: Profile) -> ThreeCardParams:
    """The options of three-card Loo that ``profile`` plays with.

    Raises:
        LooError: ``profile`` plays another game.
    """
    params = profile.params
    if not isinstance(params, ThreeCardParams):
        raise LooError(f"{profile.name}: this plays three-card Loo only, not "
                       f"{game_title(profile)}")
    return params


def deal_kind(carried: Fraction, profile: Profile = LIMITED) -> DealKind:
    """Simple when nothing is carried, double otherwise (R-DEAL-KIND).

    Irish Loo knows no simple deal: every deal is played like a double deal,
    without a miss; neither does ``blenheim`` (``simple_pool`` off), whose every
    deal has a miss.
    """
    return _deal_kind(carried, params_of(profile))


def _deal_kind(carried: Fraction, params: ThreeCardParams) -> DealKind:
    return (_SIMPLE if carried.numerator == 0 and params.simple_pool and not params.irish
            else _DOUBLE)


def deals_miss(kind: DealKind, profile: Profile = LIMITED) -> bool:
    """Whether a deal of this kind gets a miss (R-DEAL-MISS, V-SINGLE-POT, Irish Loo)."""
    params = params_of(profile)
    return not params.irish and (kind is _DOUBLE or params.single_pot_miss)


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
        miss = piles.pop(0 if params_of(profile).miss_first else players - 1)
    hands: list[tuple[Card, ...]] = [()] * players
    for k in range(players):
        hands[(dealer + 1 + k) % players] = piles[k]
    return hands, miss, deck[end]


def undealt(deck: Sequence[Card], players: int, kind: DealKind, profile: Profile = LIMITED
            ) -> tuple[Card, ...]:
    """The stock: the cards of a dealt pack after the indicator (R-DEAL-STOCK)."""
    return tuple(deck[3 * (players + deals_miss(kind, profile)) + 1:])


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
    return start_deal(players, dealer, carried, dealt, spare, indicator, profile, drawn, kind)


def start_deal(players: Sequence[str], dealer: Seat, carried: Fraction,
               dealt: Sequence[tuple[Card, ...]], spare: tuple[Card, ...] | None,
               indicator: Card, profile: Profile = LIMITED,
               stock: tuple[Card, ...] = (), kind: DealKind | None = None) -> DealState:
    """A deal at its start from seats and cards the caller has already validated.

    :func:`deal_from_hands` is the checked way in; deal records validate with
    field names of their own and then come here. ``kind``, when given, is
    :func:`deal_kind` of ``carried``, which a caller that checked the miss
    has worked out already: the deal does not work it out again.
    """
    return DealState(players, dealer, carried, dealt, spare, indicator, profile, stock, kind)


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


def plays(profile: Profile) -> bool:
    """Whether ``profile`` is a profile of three-card Loo (its own or a variant's)."""
    return game_of(profile) is GAME


def _three_card(profile: Profile) -> None:
    if not plays(profile):
        raise RuleError(f"the {profile.name} profile plays five-card Loo, which loo_tutor.engine.pam "
                        "deals", RuleId.DEAL_ORDER)


def _start_from_deck(players: Sequence[str], dealer: Seat, carried: Fraction,
                     deck: Sequence[Card], profile: Profile) -> DealState:
    kind = deal_kind(carried, profile)
    hands, miss, indicator = split_deck(deck, len(players), dealer, kind, profile)
    stock = undealt(deck, len(players), kind, profile) if params_of(profile).irish else ()
    return start_deal(players, dealer, carried, tuple(hands), miss, indicator, profile, stock,
                      kind)


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


# -- records ------------------------------------------------------------------

RECORD_WORDS: Final[dict[str, dict[str, Announcement]]] = {"blenheim": {"resign": _PASS}}
"""Words of a bundle's own for an announcement, by the bundle's name: the
Blenheim rules say ``resign`` for passing (SPEC §11.3)."""

def _record_cards(record: dict[str, Any], players: list[str], seat: dict[str, int],
                  dealer: int, kind: DealKind, profile: Profile, params: ThreeCardParams
                  ) -> tuple[list[tuple[Card, ...]], tuple[Card, ...] | None, Card,
                      tuple[Card, ...]]:
    deck, hands = record.get("deck"), record.get("hands")
    if (deck is None) == (hands is None):
        raise MalformedRecord("deck/hands: give exactly one of 'deck' and 'hands'")
    miss_text, trump_text = record.get("miss"), record.get("trump")
    if deck is not None:
        for key in ("miss", "trump", "stock"):
            if record.get(key) is not None:
                raise MalformedRecord(f"{key}: not allowed with 'deck' (the deck fixes it)")
        cards = read_cards(deck, "deck", count=52)
        if len(set(cards)) != 52:
            twice = next(c for c in cards if cards.count(c) > 1)
            raise MalformedRecord(f"deck: {twice.shown} appears twice (R-PACK-CARDS)")
        stock = undealt(cards, len(players), kind, profile) if params.irish else ()
        return (*split_deck(cards, len(players), dealer, kind, profile), stock)
    if hands is None or not is_mapping(hands):
        raise MalformedRecord(f"hands: expected a mapping player -> cards, got {kind_of(hands)}")
    if len(hands) != len(players):
        refuse_hand_names(hands, players, seat)
    # Declared a dict: the compiled build then reads it without a method call by name.
    by_name: dict[Any, Any] = hands if type(hands) is dict else dict(hands)
    by_seat: list[tuple[Card, ...]] = []
    for name in players:
        given = by_name.get(name)  # None for a missing name, refused below
        if type(given) is list:
            try:  # three canonical card texts: one lookup per card
                first, second, third = given
                by_seat.append((CARD_OF_TEXT[first], CARD_OF_TEXT[second],
                                CARD_OF_TEXT[third]))
                continue
            except (KeyError, TypeError, ValueError):
                pass
        if hands.keys() != seat.keys():  # an odd name is refused before an odd card
            refuse_hand_names(hands, players, seat)
        by_seat.append(read_cards(given, "hands", name, 3))
    # A miss exactly when the deal is double, as in limited Loo (asked of the params,
    # which read faster than profile.is_limited): the messages name the kind.
    if not params.irish and not params.single_pot_miss:
        if kind is _DOUBLE and miss_text is None:
            raise MalformedRecord(
                "miss: a double deal (carried above 0) needs the 3 cards of the miss"
            )
        if kind is _SIMPLE and miss_text is not None:
            raise MalformedRecord("miss: a simple deal (carried 0) has no miss")
    elif deals_miss(kind, profile) != (miss_text is not None):
        raise MalformedRecord("miss: this deal needs the 3 cards of the miss"
                              if miss_text is None else "miss: this deal has no miss")
    miss = None if miss_text is None else canonical_cards(miss_text)
    if miss_text is not None and (miss is None or len(miss) != 3):
        miss = read_cards(miss_text, "miss", count=3)  # refused, or read the forgiving way
    if trump_text is None:
        raise MalformedRecord("trump: missing (the indicator card is needed with 'hands')")
    indicator = CARD_OF_TEXT.get(trump_text) if type(trump_text) is str else None
    if indicator is None:
        indicator = read_card(trump_text, "trump")
    stock_text = record.get("stock")
    stock = () if stock_text is None else read_cards(stock_text, "stock")
    if not all_distinct([*by_seat, miss or (), (indicator,), stock]):
        every = [c for h in by_seat for c in h] + list(miss or ()) + [indicator, *stock]
        twice = next(c for c in every if every.count(c) > 1)
        raise MalformedRecord(f"hands/miss/trump: {twice.shown} appears twice (R-PACK-CARDS)")
    return by_seat, miss, indicator, stock



def read_deal(record: dict[str, Any], players: list[str], seat: dict[str, int],
              dealer: int, carried: Fraction, profile: Profile) -> RecordDeal:
    """The deal of a three-card record: hands and the miss as the deal's kind needs them."""
    params = profile.params
    if not isinstance(params, ThreeCardParams):  # inline, as in DealState
        params = params_of(profile)  # refused
    kind = _deal_kind(carried, params)
    hands, miss, indicator, stock = _record_cards(record, players, seat, dealer, kind, profile,
                                                  params)
    start = start_deal(players, dealer, carried, hands, miss, indicator, profile, stock, kind)
    announce = read_announce(record.get("announce"), seat, kind is _SIMPLE and miss is None,
                             RECORD_WORDS.get(profile.name))
    return start, announce, read_tricks(record.get("tricks"), 3), NO_CIVIL


# -- the game's registration --------------------------------------------------

RECORD_KEYS = ("rules", "players", "dealer", "carried", "deck", "hands", "miss", "trump",
               "announce", "tricks")
"""The top-level keys a three-card record may have, in the order records are written."""

IRISH_RECORD_KEYS = (*RECORD_KEYS[:-1], "stock", "exchange", "tricks")
"""The keys of an Irish Loo record: the stock drawn from, and the exchanges."""

OPTIONS = frozenset({"single_pot", "reveal", "simple_ace_duty", "miss_position",
                     "two_player_top_trump", "trump_lead", "no_heading", "club_law", "irish",
                     "three_card_flush", "undivided", "dealer_defends_sole"})
"""The profile options only three-card Loo reads: Pam Loo has duties and a flush
of its own (SPEC §11: an option is never accepted and then ignored)."""


def record_keys(profile: Profile) -> tuple[str, ...]:
    """The keys a record of a deal under ``profile`` may have."""
    if profile.is_limited:  # no params to ask
        return RECORD_KEYS
    return IRISH_RECORD_KEYS if params_of(profile).irish else RECORD_KEYS


def game_title(profile: Profile) -> str:
    return game_of(profile).title


def deal_kind_of(state: DealMachine) -> DealKind | None:
    """A three-card deal's kind, simple or double; ``None`` for a deal of another game."""
    return state.kind if isinstance(state, DealState) else None


def three_card_deal(state: DealMachine) -> DealState:
    """``state`` as a deal of three-card Loo, for the tools that play only it
    (the exercises, the practice table, the ledger, the lab).

    Raises:
        LooError: ``state`` is a deal of another game.
    """
    if not isinstance(state, DealState):
        raise LooError(f"{state.profile.name}: this plays three-card Loo only, not "
                       f"{game_title(state.profile)}")
    return state


def kind_name(state: DealMachine) -> str:
    """A deal's kind as its result names it: ``"simple"`` or ``"double"`` (R-DEAL-KIND)."""
    assert isinstance(state, DealState)  # the game's own machine
    return "simple" if state.kind is _SIMPLE else "double"


def add_result(state: DealMachine, result: dict[str, Any]) -> None:
    """The keys a result of a three-card deal adds under a variant's profile (book: Variants)."""
    profile = state.profile
    if profile.is_limited:
        return
    assert isinstance(state, DealState)  # the game's own machine
    names = state.players
    result["rules"] = describe(profile)
    result["flush"] = None if state.flush is None else names[state.flush]
    if params_of(profile).irish:
        result["exchanges"] = {names[seat]: [card.text for card in cards]
                               for seat, cards, _ in state.exchanges}


GAME = register(GameSpec("three-card", "three-card Loo", OPTIONS, new_deal, record_keys,
                         kind_name, read_deal, add_result, params=ThreeCardParams))
"""Three-card Loo and its variants in the registry of games."""
