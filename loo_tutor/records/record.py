"""Deal records: reading, checking and writing them (CONTRACT.md).

A deal record writes down one deal, possibly unfinished, as YAML or JSON.
:func:`check` replays it with the engine and returns the result dict of the
contract: the settlement, the next legal options, or the first illegal action
with the rule it breaks.

>>> result = check(loads('''
... players: [A, B, C, D, E]
... dealer: E
... carried: 9
... hands: {A: [AH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D],
...         D: [QS, QD, QC], E: [JS, JD, JC]}
... miss: [2S, 2D, 2C]
... trump: 4H
... announce: {A: stand, B: stand, C: stand, D: pass, E: pass}
... tricks: [[7H]]
... '''))
>>> result["status"], result["error"]["rule"]
('illegal', 'R-LEAD-ACE')
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

import yaml

from ..engine.cards import CARDS, Card, parse_card
from ..engine.errors import LooError, MalformedRecord, NotationError
from ..engine.legality import Announcement
from ..engine.pam import HAND_SIZE as PAM_HAND
from ..engine.pam import TRICKS as PAM_TRICKS
from ..engine.pam import PamState, split_pam_deck
from ..engine.profiles import describe, profile_from_rules, rules_value
from ..engine.rules import LIMITED, Profile
from ..engine.state import (
    Announce,
    CivilLead,
    DealKind,
    DealMachine,
    DealState,
    Exchange,
    Phase,
    Play,
    Verdict,
    amount_text,
    deal_kind,
    deals_miss,
    exact,
    split_deck,
    start_deal,
    undealt,
)
from .reading import load
from .reading import loads as loads  # a record's text is read there (re-exported)

FIELDS = ("rules", "players", "dealer", "carried", "deck", "hands", "miss", "trump",
          "announce", "tricks")
"""The top-level keys a record may have, in the order records are written."""

IRISH_FIELDS = (*FIELDS[:-1], "stock", "exchange", "tricks")
"""The keys of an Irish Loo record: the stock drawn from, and the exchanges."""

PAM_FIELDS = ("rules", "players", "dealer", "carried", "deck", "hands", "trump", "stock",
              "announce", "exchange", "civil", "tricks")
"""The keys of a Pam Loo record (``book/pam.md``): no miss; civil leads by trick number."""

CIVIL = " civil"
"""Added to the ace of trumps in ``next.options`` and ``error.action`` for a civil lead."""

TAKE_TURNED = " + turned"
"""Added to the discards in ``next.options`` and ``error.action`` when the dealer takes
the turned card (Pam Loo's ``dealer_takes_trump``)."""

_STAKE_TEXT = tuple(str(-stake) for stake in range(10))
_FIELD_SETS = {fields: frozenset(fields) for fields in (FIELDS, IRISH_FIELDS, PAM_FIELDS)}
_SIMPLE, _DOUBLE = DealKind.SIMPLE, DealKind.DOUBLE  # enum lookups are slow in hot code
_WORDS = {a.value: a for a in Announcement}
_CARD_OF_TEXT = {card.text: card for card in CARDS}.__getitem__
_CARRIED_TEXT = re.compile(r"\s*(\d+)(?:\s*/\s*(\d+))?\s*")


# -- reading -----------------------------------------------------------------


def load_record(source: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record from a file path or from the record's text.

    A :class:`~pathlib.Path` is always read as a file. A string is read as a
    file when it is a single line naming an existing file, else as text.
    Whatever the text holds, the answer is a mapping or a one-line refusal
    (:mod:`loo_tutor.records.reading`, whose :func:`~loo_tutor.records.reading.loads` reads a
    record's text).

    Raises:
        MalformedRecord: the file cannot be read, or its text is not a record.
    """
    return load(source)


def _card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except NotationError:
        raise MalformedRecord(f"{where}: unknown card text {value!r}") from None


def _cards(value: Any, field: str, key: object = None, count: int | None = None
           ) -> tuple[Card, ...]:
    """Read a list of cards for ``field`` (``field.key`` or ``field[key]`` in messages)."""
    if type(value) is not list and not isinstance(value, tuple):
        raise MalformedRecord(f"{_where(field, key)}: expected a list of cards, got {_kind(value)}")
    if count is not None and len(value) != count:
        raise MalformedRecord(
            f"{_where(field, key)}: expected exactly {count} cards, got {len(value)}"
        )
    try:
        return tuple(map(_CARD_OF_TEXT, value))
    except (KeyError, TypeError):  # not canonical text: take the slow, forgiving route
        where = _where(field, key)
        return tuple(_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def _where(field: str, key: object) -> str:
    if key is None:
        return field
    return f"{field}[{key}]" if isinstance(key, int) else f"{field}.{key}"


def _is_mapping(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def _kind(value: Any) -> str:
    return "nothing" if value is None else f"{type(value).__name__} {value!r}"


def parse_carried(value: Any) -> Fraction:
    """Read a carried balance: a whole number ≥ 0, or text ``"N"`` or ``"N/D"``.

    Raises:
        MalformedRecord: floats, booleans, negatives, a zero denominator, other text.

    >>> parse_carried(9), parse_carried("13/3")
    (Fraction(9, 1), Fraction(13, 3))
    """
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MalformedRecord(
            f"carried: expected a whole number or text like \"13/3\", got {_kind(value)}"
        )
    if isinstance(value, int):
        if value < 0:
            raise MalformedRecord(f"carried: {value} is negative")
        return exact(value, 1)
    match = _CARRIED_TEXT.fullmatch(value)
    if match is None:
        raise MalformedRecord(
            f"carried: {value!r} is not a whole number ≥ 0 or an exact fraction \"N/D\""
        )
    numerator, denominator = match.groups()
    if denominator is not None and int(denominator) == 0:
        raise MalformedRecord(f"carried: {value!r} has a zero denominator")
    return Fraction(int(numerator), int(denominator or 1))


class _Record:
    """A record whose static shape has been validated (CONTRACT §2.1, first part)."""

    __slots__ = (
        "announce",
        "carried",
        "civil",
        "dealer",
        "exchange",
        "players",
        "start",
        "tricks",
    )

    def __init__(self, record: Any, profile: Profile | None = None) -> None:
        """Validate ``record``; ``profile`` is its ``rules`` already read, if it was."""
        if not _is_mapping(record):
            raise MalformedRecord(f"record: expected a mapping of fields, got {_kind(record)}")
        if profile is None:
            rules = record.get("rules")
            profile = LIMITED if rules is None else profile_from_rules(rules)
        pam = profile.game == "pam"
        allowed = PAM_FIELDS if pam else IRISH_FIELDS if profile.irish else FIELDS
        if not _FIELD_SETS[allowed].issuperset(record):
            key = next(k for k in record if k not in allowed)
            raise MalformedRecord(f"{key}: unknown field (allowed: {', '.join(allowed)})")
        players = self._players(record.get("players"), profile)
        dealer = record.get("dealer")
        if not isinstance(dealer, str) or dealer not in players:
            raise MalformedRecord(f"dealer: {_kind(dealer)} is not one of the players")
        if "carried" not in record:
            raise MalformedRecord("carried: missing (use 0 when nothing was carried)")
        carried = parse_carried(record["carried"])
        seat = {name: index for index, name in enumerate(players)}
        dealer_seat = seat[dealer]
        self.players = players
        self.dealer = dealer_seat
        self.carried = carried
        self.exchange = self._exchange(record.get("exchange"), seat)
        if pam:
            dealt, indicator, stock = _pam_cards(record, players, dealer_seat)
            self.start: DealMachine = PamState(players, dealer_seat, carried, dealt, indicator,
                                               stock, profile)
            self.announce = self._announce(record.get("announce"), seat, False)
            self.tricks = self._tricks(record.get("tricks"), PAM_TRICKS)
            self.civil = _civil(record.get("civil"), len(self.tricks))
            _check_pam_stock(self.start, self.exchange)
            return
        kind = deal_kind(carried, profile)
        hands, miss, indicator, stock = self._cards(record, players, seat, dealer_seat, kind,
                                                    profile)
        self.start = start_deal(players, dealer_seat, carried, hands, miss, indicator, profile,
                                stock)
        self.announce = self._announce(record.get("announce"), seat,
                                       kind is _SIMPLE and miss is None)
        self.tricks = self._tricks(record.get("tricks"), 3)
        self.civil = _NO_CIVIL

    @staticmethod
    def _players(players: Any, profile: Profile) -> list[str]:
        if not isinstance(players, list):
            raise MalformedRecord(f"players: expected a list of names, got {_kind(players)}")
        try:
            named = all(map(str.strip, players))
        except TypeError:  # not text
            named = False
        if not named:
            i, name = next((i, n) for i, n in enumerate(players)
                           if not isinstance(n, str) or not n.strip())
            raise MalformedRecord(
                f"players[{i}]: {_kind(name)} is not a name (quote names such as \"No\")"
            )
        if len(set(players)) != len(players):
            twice = next(n for n in players if players.count(n) > 1)
            raise MalformedRecord(f"players: {twice!r} is listed twice")
        if not profile.min_players <= len(players) <= profile.max_players:
            raise MalformedRecord(
                f"players: {len(players)} players; {profile.name} Loo needs "
                f"{profile.min_players} to {profile.max_players} (R-SEAT-COUNT)"
            )
        return players

    @staticmethod
    def _cards(record: Mapping[str, Any], players: list[str], seat: dict[str, int],
               dealer: int, kind: DealKind, profile: Profile
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
            cards = _cards(deck, "deck", count=52)
            if len(set(cards)) != 52:
                twice = next(c for c in cards if cards.count(c) > 1)
                raise MalformedRecord(f"deck: {twice.shown} appears twice (R-PACK-CARDS)")
            stock = undealt(cards, len(players), kind, profile) if profile.irish else ()
            return (*split_deck(cards, len(players), dealer, kind, profile), stock)
        if hands is None or not _is_mapping(hands):
            raise MalformedRecord(f"hands: expected a mapping player -> cards, got {_kind(hands)}")
        for name in hands:
            if name not in seat:
                raise MalformedRecord(f"hands: {name!r} is not one of the players")
        by_seat: list[tuple[Card, ...]] = []
        for name in players:
            if name not in hands:
                raise MalformedRecord(f"hands: no hand for {name!r}")
            given = hands[name]
            if type(given) is list and len(given) == 3:
                try:  # canonical card text: one lookup per card
                    by_seat.append(tuple(map(_CARD_OF_TEXT, given)))
                    continue
                except (KeyError, TypeError):
                    pass
            by_seat.append(_cards(given, "hands", name, 3))
        if profile is LIMITED or (not profile.irish and not profile.single_pot_miss):
            if kind is _DOUBLE and miss_text is None:
                raise MalformedRecord(
                    "miss: a double deal (carried above 0) needs the 3 cards of the miss"
                )
            if kind is _SIMPLE and miss_text is not None:
                raise MalformedRecord("miss: a simple deal (carried 0) has no miss")
        elif deals_miss(kind, profile) != (miss_text is not None):
            raise MalformedRecord("miss: this deal needs the 3 cards of the miss"
                                  if miss_text is None else "miss: this deal has no miss")
        miss = None if miss_text is None else _cards(miss_text, "miss", count=3)
        if trump_text is None:
            raise MalformedRecord("trump: missing (the indicator card is needed with 'hands')")
        indicator = _card(trump_text, "trump")
        stock_text = record.get("stock")
        stock = () if stock_text is None else _cards(stock_text, "stock")
        distinct = set().union(*by_seat, miss or (), (indicator,), stock)
        if len(distinct) != 3 * len(by_seat) + (3 if miss else 0) + 1 + len(stock):
            every = [c for h in by_seat for c in h] + list(miss or ()) + [indicator, *stock]
            twice = next(c for c in every if every.count(c) > 1)
            raise MalformedRecord(f"hands/miss/trump: {twice.shown} appears twice (R-PACK-CARDS)")
        return by_seat, miss, indicator, stock

    @staticmethod
    def _announce(announce: Any, seat: dict[str, int], silent: bool
                  ) -> list[tuple[int, Announcement]]:
        if announce is None:
            return []
        if not _is_mapping(announce):
            raise MalformedRecord(
                f"announce: expected a mapping player -> word, got {_kind(announce)}")
        if announce and silent:
            raise MalformedRecord("announce: a simple deal (carried 0) has no announcements")
        calls = []
        for name, word in announce.items():
            if name not in seat:
                raise MalformedRecord(f"announce: {name!r} is not one of the players")
            call = _WORDS.get(word) if type(word) is str else None  # written canonically
            if call is None and isinstance(word, str):
                call = _WORDS.get(word.strip().lower())
            if call is None:
                raise MalformedRecord(
                    f"announce.{name}: {_kind(word)} is not stand, pass, miss or defend"
                )
            calls.append((seat[name], call))
        return calls

    @staticmethod
    def _exchange(exchange: Any, seat: dict[str, int]
                  ) -> list[tuple[int, tuple[Card, ...], bool]]:
        """Each exchange: a list of the cards discarded, or (Pam Loo) a mapping
        ``{discard: [...], take_turned: true}`` for a dealer who takes the turned card."""
        if exchange is None:
            return []
        if not _is_mapping(exchange):
            raise MalformedRecord(
                f"exchange: expected a mapping player -> cards discarded, got {_kind(exchange)}"
            )
        swaps = []
        for name, given in exchange.items():
            if name not in seat:
                raise MalformedRecord(f"exchange: {name!r} is not one of the players")
            take = False
            if _is_mapping(given):
                unknown = sorted(str(key) for key in given if key not in ("discard", "take_turned"))
                if unknown:
                    raise MalformedRecord(f"exchange.{name}: unknown key {unknown[0]!r} "
                                          "(allowed: discard, take_turned)")
                take = given.get("take_turned", False)
                if not isinstance(take, bool):
                    raise MalformedRecord(
                        f"exchange.{name}.take_turned: expected true or false, got {_kind(take)}"
                    )
                given = given.get("discard", [])
            swaps.append((seat[name], _cards(given, "exchange", name), take))
        return swaps

    @staticmethod
    def _tricks(tricks: Any, most: int) -> list[tuple[Card, ...]]:
        if tricks is None:
            return []
        if not isinstance(tricks, list):
            raise MalformedRecord(f"tricks: expected a list of tricks, got {_kind(tricks)}")
        if len(tricks) > most:
            raise MalformedRecord(f"tricks: {len(tricks)} tricks; a deal has at most {most}")
        played = []
        count = 0
        for t, trick in enumerate(tricks):
            cards = _cards(trick, "tricks", t)
            if not cards:
                raise MalformedRecord(f"tricks[{t}]: an empty trick")
            played.append(cards)
            count += len(cards)
        if len(set().union(*played)) != count:
            every = [c for cards in played for c in cards]
            twice = next(c for c in every if every.count(c) > 1)
            raise MalformedRecord(f"tricks: {twice.shown} is played twice")
        return played


_NO_CIVIL: frozenset[int] = frozenset()


def _pam_cards(record: Mapping[str, Any], players: list[str], dealer: int
               ) -> tuple[tuple[tuple[Card, ...], ...], Card, tuple[Card, ...]]:
    """The hands, the turned card and the stock of a Pam record."""
    deck, hands = record.get("deck"), record.get("hands")
    if (deck is None) == (hands is None):
        raise MalformedRecord("deck/hands: give exactly one of 'deck' and 'hands'")
    if deck is not None:
        for key in ("trump", "stock"):
            if record.get(key) is not None:
                raise MalformedRecord(f"{key}: not allowed with 'deck' (the deck fixes it)")
        cards = _cards(deck, "deck", count=len(CARDS))
        _distinct(cards, "deck")
        dealt, indicator, stock = split_pam_deck(cards, len(players), dealer)
        return tuple(dealt), indicator, stock
    if hands is None or not _is_mapping(hands):
        raise MalformedRecord(f"hands: expected a mapping player -> cards, got {_kind(hands)}")
    for name in hands:
        if name not in players:
            raise MalformedRecord(f"hands: {name!r} is not one of the players")
    by_seat = []
    for name in players:
        if name not in hands:
            raise MalformedRecord(f"hands: no hand for {name!r}")
        by_seat.append(_cards(hands[name], "hands", name, PAM_HAND))
    if record.get("trump") is None:
        raise MalformedRecord("trump: missing (the turned card is needed with 'hands')")
    indicator = _card(record["trump"], "trump")
    stock = () if record.get("stock") is None else _cards(record["stock"], "stock")
    room = len(CARDS) - PAM_HAND * len(players) - 1
    if len(stock) > room:
        raise MalformedRecord(f"stock: {len(stock)} cards, but only {room} are left after the deal")
    _distinct([c for h in by_seat for c in h] + [indicator, *stock], "hands/trump/stock")
    return tuple(by_seat), indicator, stock


def _distinct(cards: Sequence[Card], field: str) -> None:
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise MalformedRecord(f"{field}: {twice.shown} appears twice (R-PACK-CARDS)")


def _civil(value: Any, tricks: int) -> frozenset[int]:
    if value is None:
        return _NO_CIVIL
    if not isinstance(value, list):
        raise MalformedRecord(f"civil: expected a list of trick numbers, got {_kind(value)}")
    for number in value:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= PAM_TRICKS:
            raise MalformedRecord(f"civil: {number!r} is not a trick number from 1 to {PAM_TRICKS}")
        if number > tricks:
            raise MalformedRecord(f"civil: trick {number} has no lead in 'tricks'")
    if len(set(value)) != len(value):
        raise MalformedRecord("civil: a trick number is listed twice")
    return frozenset(value)


def _check_pam_stock(start: PamState, exchange: list[tuple[int, tuple[Card, ...], bool]]
                     ) -> None:
    """A Pam hands record must list the stock as far as its exchanges can draw."""
    draws = sum(len(cards) - take for _, cards, take in exchange)
    if len(start.stock) < min(draws, start.stock_size):
        raise MalformedRecord(
            f"stock: the exchanges need {draws} cards from the stock, but it lists "
            f"{len(start.stock)}"
        )


# -- checking ----------------------------------------------------------------


def check(record: Mapping[str, Any]) -> dict[str, Any]:
    """Replay a deal record and report what happened (CONTRACT.md §2).

    Returns:
        the result dict, whose ``status`` is ``complete``, ``in_progress`` or
        ``illegal``; an illegal action is described in ``error`` with its
        ``rule``.

    Raises:
        MalformedRecord: the record does not describe a deal.
    """
    walked = _walk(_Record(record), keep=False)
    state = walked.states[-1]
    if walked.refused is None:
        return _result(state)
    action, verdict = walked.refused
    return _result(state, error=(action.seat, _phase_of(action), action_text(action),
                                 verdict.rule, verdict.message))


@dataclass(frozen=True)
class Replay:
    """A record replayed step by step.

    Attributes:
        states: the state at the start, then after each legal action
            (:class:`~loo_tutor.engine.state.DealState`, or
            :class:`~loo_tutor.engine.pam.PamState` for a Pam Loo record).
        actions: the legal actions, ``actions[i]`` leading from ``states[i]``
            to ``states[i + 1]``.
        refused: the first illegal action and its verdict, if any.
    """

    states: list[Any]
    actions: list[Any]
    refused: tuple[Any, Verdict] | None


def replay(record: Mapping[str, Any]) -> Replay:
    """Every state a three-card record passes through, for stepping through a deal.

    Raises:
        MalformedRecord: as :func:`check`; also for a Pam Loo record, which
            :func:`replay_pam` steps through.
    """
    parsed = _Record(record)
    if type(parsed.start) is not DealState:
        raise MalformedRecord("rules: a pam record is stepped through with replay_pam")
    return _walk(parsed, keep=True)


def replay_pam(record: Mapping[str, Any]) -> Replay:
    """Every state a Pam Loo record passes through (the same replay as :func:`replay`).

    Raises:
        MalformedRecord: as :func:`check`; also for a three-card record.
    """
    parsed = _Record(record)
    if type(parsed.start) is not PamState:
        raise MalformedRecord("rules: only a pam record is stepped through with replay_pam")
    return _walk(parsed, keep=True)


class _Parsed(Protocol):
    """What the replay reads of a record whose shape has been validated."""

    @property
    def start(self) -> Any: ...
    @property
    def announce(self) -> list[tuple[int, Announcement]]: ...
    @property
    def exchange(self) -> list[tuple[int, tuple[Card, ...], bool]]: ...
    @property
    def civil(self) -> frozenset[int]: ...
    @property
    def tricks(self) -> list[tuple[Card, ...]]: ...


def _walk(parsed: _Parsed, keep: bool) -> Replay:
    """Take the record's actions in order until one is refused (CONTRACT §2.2).

    The one replay loop of every game. With ``keep`` every state is kept (each
    action is taken on a copy); without, the start is changed in place and
    ``states`` holds only the last. A trick number in ``civil`` makes that
    trick's lead a :class:`~loo_tutor.engine.state.CivilLead`.
    """
    state = parsed.start
    states = [state]
    actions: list[Any] = []
    for seat, call in parsed.announce:
        announce = Announce(seat, call)
        if not state.is_legal(announce):
            return _stopped(state, states, actions, announce)
        state = _take(state, announce, states, actions, keep)
    if parsed.exchange and state.phase is not Phase.EXCHANGE:
        if state.phase is Phase.ANNOUNCE:
            raise MalformedRecord("exchange: given before the announcements are finished")
        raise MalformedRecord("exchange: the deal has no exchanges left to make (it is "
                              "over, or play has begun)")
    for seat, cards, take in parsed.exchange:
        exchange = Exchange(seat, cards, take)
        if not state.is_legal(exchange):
            return _stopped(state, states, actions, exchange)
        try:
            state = _take(state, exchange, states, actions, keep)
        except LooError as exc:
            raise MalformedRecord(f"stock: {exc}") from None
    if parsed.tricks:
        _check_trick_shape(state, parsed.tricks)
    civil = parsed.civil
    for t, trick in enumerate(parsed.tricks):
        for i, card in enumerate(trick):
            player: int = state.current_player()
            play = CivilLead(player, card) if i == 0 and t + 1 in civil else Play(player, card)
            if not state.is_legal(play):
                return _stopped(state, states, actions, play)
            state = _take(state, play, states, actions, keep)
    return Replay(states, actions, None)


def _stopped(state: Any, states: list[Any], actions: list[Any], action: Any) -> Replay:
    return Replay(states, actions, (action, state.check(action)))


_State = TypeVar("_State", bound=DealMachine)


def _take(state: _State, action: Any, states: list[_State], actions: list[Any],
          keep: bool) -> _State:
    """``state`` after the legal ``action``: a copy kept in ``states``, or ``state`` itself."""
    if keep:
        state = state.copy()
        states.append(state)
        actions.append(action)
    state.push(action)
    return state


def _phase_of(action: Any) -> str:
    if type(action) is Announce:
        return "announce"
    return "exchange" if type(action) is Exchange else "play"


def action_text(action: Any) -> str:
    """An action as ``next.options`` and ``error.action`` write it (CONTRACT §2.4).

    ``stand``, ``7H``, ``AH civil``, ``2C 3D`` (the cards discarded), ``keep``.
    """
    if type(action) is Announce:
        return str(action.announcement.value)
    if type(action) is Exchange:
        return _swap_text(action.cards) + (TAKE_TURNED if action.take_turned else "")
    if type(action) is CivilLead:
        return str(action.card.text) + CIVIL
    return str(action.card.text)


class _Dealt(Protocol):
    """What the trick-shape check reads of a deal, three-card or Pam."""

    @property
    def phase(self) -> Phase: ...
    @property
    def flush(self) -> object: ...
    @property
    def collected_by(self) -> int | None: ...
    @property
    def active(self) -> tuple[int, ...]: ...


def _check_trick_shape(state: _Dealt, tricks: list[tuple[Card, ...]]) -> None:
    """Structural checks made once the announcements are known to be legal."""
    if state.phase is Phase.ANNOUNCE:
        raise MalformedRecord("tricks: cards are played before the announcements are finished")
    if state.phase is Phase.EXCHANGE:
        raise MalformedRecord("tricks: cards are played before the exchanges are finished")
    if state.flush is not None:
        raise MalformedRecord("tricks: a flush took the pool without play (V-FLUSH)")
    if state.collected_by is not None:
        raise MalformedRecord("tricks: the pool was collected without play (R-COLLECT)")
    players = len(state.active)
    for t, trick in enumerate(tricks):
        if len(trick) > players:
            raise MalformedRecord(
                f"tricks[{t}]: {len(trick)} cards but only {players} players are active"
            )
        if len(trick) < players and t < len(tricks) - 1:
            raise MalformedRecord(
                f"tricks[{t}]: {len(trick)} cards of {players}, yet another trick follows"
            )


def _result(state: Any, error: tuple[Any, ...] | None = None) -> dict[str, Any]:
    """The result dict of CONTRACT.md §2.4, with the keys a variant adds (book: Variants)."""
    names = state.players
    complete = error is None and state.phase is Phase.OVER
    pam = type(state) is PamState
    tricks = []
    for trick in state.all_tricks():
        cards = []
        for seat, card in trick.plays:
            cards.append([names[seat], card.text])
        winner = trick.winner
        tricks.append({"leader": names[trick.leader], "cards": cards,
                       "winner": None if winner is None else names[winner]})
    active = []
    for seat in state.active:
        active.append(names[seat])
    defender = None if pam else state.defender
    result: dict[str, Any] = {
        "status": "illegal" if error else ("complete" if complete else "in_progress"),
        "kind": "pam" if pam else "simple" if state.kind is _SIMPLE else "double",
        "pool": amount_text(state.pool),
        "trump": None if state.trump is None else "SHDC"[state.trump],
        "revealed_after_trick": None if pam else state.revealed_after,
        "active": active,
        "defender": None if defender is None else names[defender],
        "collected_by": None,
        "tricks": tricks,
        "payouts": {},
        "looed": [],
        "carried_next": None,
    }
    net = {}
    if complete:
        settled = state.settlement()
        if state.collected_by is not None:
            result["collected_by"] = names[state.collected_by]
        payouts = result["payouts"]
        for seat, amount in settled.payouts.items():
            payouts[names[seat]] = amount_text(amount)
        for seat in settled.looed:
            result["looed"].append(names[seat])
        result["carried_next"] = amount_text(settled.carried_next)
        for seat, amount in settled.net.items():
            net[names[seat]] = amount_text(amount)
    else:  # only the stakes have been booked (R-DEAL-ANTE)
        for seat, stake in enumerate(state.stakes):
            net[names[seat]] = _STAKE_TEXT[stake] if stake < len(_STAKE_TEXT) else str(-stake)
    result["net"] = net
    if error is None and not complete:
        to_act: int = state.current_player()
        options = [action_text(action) for action in state.legal_actions()]
        result["next"] = {"player": names[to_act], "phase": state.phase.value,
                          "options": sorted(options)}
    else:
        result["next"] = None
    if error is None:
        result["error"] = None
    else:
        player, phase, action, rule, message = error
        result["error"] = {"player": names[player], "phase": phase, "action": action,
                           "rule": rule.value, "message": message}
    if pam:
        _pam_result(state, result)
    elif state.profile is not LIMITED and not state.profile.is_limited:
        result["rules"] = describe(state.profile)
        result["flush"] = None if state.flush is None else names[state.flush]
        if state.profile.irish:
            result["exchanges"] = {names[seat]: _texts(cards) for seat, cards, _ in state.exchanges}
    return result


def _pam_result(state: PamState, result: dict[str, Any]) -> None:
    """The keys only a Pam result has (``book/pam.md``, "The result")."""
    names = state.players
    flush = state.flush
    result["rules"] = describe(state.profile)
    result["flush"] = None if flush is None else names[flush.seat]
    result["flush_kind"] = None if flush is None else flush.kind
    result["exempt"] = [] if flush is None else [names[s] for s in flush.exempt]
    result["exchanges"] = {names[s]: _texts(gone) for s, gone, _ in state.exchanges}
    result["drawn"] = {names[s]: _texts(new) for s, _, new in state.exchanges}
    result["pam"] = None if state.pam is None else state.pam.text
    result["civil"] = list(state.civil)


def _texts(cards: Sequence[Card]) -> list[str]:
    return [card.text for card in cards]


def _swap_text(cards: Sequence[Card]) -> str:
    """An exchange as the result writes it: the cards discarded, or ``keep``."""
    return " ".join(card.text for card in cards) or "keep"


# -- writing -----------------------------------------------------------------


def format_amount(value: Fraction) -> int | str:
    """A carried balance as a record writes it: an int, or text ``"N/D"``."""
    return int(value) if value.denominator == 1 else str(value)


def record_from_state(state: DealState | PamState) -> dict[str, Any]:
    """Write a deal of any game, as far as it has gone, as a record in the ``hands`` form.

    ``check(record_from_state(s))`` describes the same deal as ``s``.
    """
    names = state.players
    record: dict[str, Any] = {}
    rules = rules_value(state.profile)
    if rules is not None:
        record["rules"] = rules
    record.update({
        "players": list(names),
        "dealer": names[state.dealer],
        "carried": format_amount(state.carried),
        "hands": {names[s]: _texts(state.hands[s]) for s in range(len(names))},
    })
    if type(state) is DealState and state.miss is not None:
        record["miss"] = _texts(state.miss)
    record["trump"] = state.indicator.text
    if state.stock:
        record["stock"] = _texts(state.stock)
    if state.announcements:
        record["announce"] = {names[s]: a.value for s, a in state.announcements}
    if state.exchanges:
        record["exchange"] = {names[s]: _exchange_entry(state, cards, drawn)
                              for s, cards, *drawn in state.exchanges}
    if state.civil:
        record["civil"] = list(state.civil)
    tricks = [[c.text for _, c in t.plays] for t in state.all_tricks()]
    if tricks:
        record["tricks"] = tricks
    return record


def _exchange_entry(state: DealState | PamState, cards: tuple[Card, ...],
                    drawn: list[tuple[Card, ...]]) -> Any:
    """An exchange as a record writes it: the discards, or a mapping when the
    dealer took the turned card."""
    if drawn and state.indicator in drawn[0]:
        return {"discard": _texts(cards), "take_turned": True}
    return _texts(cards)


def dumps(record: Mapping[str, Any]) -> str:
    """The record as YAML text: one field per line, card lists inline."""
    return yaml.safe_dump(dict(record), sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=100)
