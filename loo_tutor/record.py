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

import json
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping, Protocol, Sequence

import yaml

from .cards import CARDS, Card, parse_card
from .errors import MalformedRecord, NotationError
from .legality import Announcement
from .profiles import describe, profile_from_rules, rules_value
from .rules import LIMITED, Profile
from .state import (
    Action,
    Announce,
    DealKind,
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

FIELDS = ("rules", "players", "dealer", "carried", "deck", "hands", "miss", "trump",
          "announce", "tricks")
"""The top-level keys a record may have, in the order records are written."""

IRISH_FIELDS = FIELDS[:-1] + ("stock", "exchange", "tricks")
"""The keys of an Irish Loo record: the stock drawn from, and the exchanges."""

_FIELD_SET = frozenset(FIELDS)
_IRISH_FIELD_SET = frozenset(IRISH_FIELDS)
_SIMPLE, _DOUBLE = DealKind.SIMPLE, DealKind.DOUBLE  # enum lookups are slow in hot code
_WORDS = {a.value: a for a in Announcement}
_CARD_OF_TEXT = {card.text: card for card in CARDS}.__getitem__
_CARRIED_TEXT = re.compile(r"\s*(\d+)(?:\s*/\s*(\d+))?\s*")


# -- reading -----------------------------------------------------------------


class _StrictLoader(yaml.SafeLoader):
    """A YAML loader that refuses a mapping holding the same key twice."""


def _mapping_without_duplicates(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise MalformedRecord(
                f"line {key_node.start_mark.line + 1}: the key {key!r} appears twice"
            )
        result[key] = loader.construct_object(value_node, deep=True)
    return result


_StrictLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping_without_duplicates
)


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise MalformedRecord(f"the key {key!r} appears twice")
        result[key] = value
    return result


def loads(text: str) -> dict[str, Any]:
    """Parse the text of a record: JSON first, then YAML.

    Raises:
        MalformedRecord: the text is neither, or is not a mapping.
    """
    try:
        data = json.loads(text, object_pairs_hook=_json_object)
    except json.JSONDecodeError:
        try:
            data = yaml.load(text, Loader=_StrictLoader)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark
            where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
            raise MalformedRecord(f"invalid YAML{where}: {exc.problem}") from None
        except yaml.YAMLError as exc:
            raise MalformedRecord(f"invalid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(data, dict):
        what = "empty" if data is None else f"a {type(data).__name__}"
        raise MalformedRecord(f"record: expected a mapping of fields, got {what}")
    return data


def load_record(source: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a record from a file path or from the record's text.

    A :class:`~pathlib.Path` is always read as a file. A string is read as a
    file when it is a single line naming an existing file, else as text.
    Whatever the text holds, the answer is a mapping or a one-line refusal
    (:mod:`loo_tutor.reading`).

    Raises:
        MalformedRecord: the file cannot be read, or its text is not a record.
    """
    from .reading import load

    return load(source)


# -- validation ----------------------------------------------------------------


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

    __slots__ = ("players", "dealer", "carried", "start", "announce", "exchange", "tricks")

    def __init__(self, record: Any, profile: Profile | None = None) -> None:
        """Validate ``record``; ``profile`` is its ``rules`` already read, if it was."""
        if not _is_mapping(record):
            raise MalformedRecord(f"record: expected a mapping of fields, got {_kind(record)}")
        if profile is None:
            rules = record.get("rules")
            profile = LIMITED if rules is None else profile_from_rules(rules)
        if profile.game != "three-card":
            raise MalformedRecord(f"rules: a {profile.name} record cannot be stepped through here")
        fields = _IRISH_FIELD_SET if profile.irish else _FIELD_SET
        if not fields.issuperset(record):
            key = next(k for k in record if k not in fields)
            allowed = IRISH_FIELDS if profile.irish else FIELDS
            raise MalformedRecord(f"{key}: unknown field (allowed: {', '.join(allowed)})")
        players = self._players(record.get("players"), profile)
        dealer = record.get("dealer")
        if not isinstance(dealer, str) or dealer not in players:
            raise MalformedRecord(f"dealer: {_kind(dealer)} is not one of the players")
        if "carried" not in record:
            raise MalformedRecord("carried: missing (use 0 for a simple deal)")
        carried = parse_carried(record["carried"])
        kind = deal_kind(carried, profile)
        seat = dict(zip(players, range(len(players))))
        dealer_seat = seat[dealer]
        hands, miss, indicator, stock = self._cards(record, players, seat, dealer_seat, kind,
                                                    profile)
        self.players = players
        self.dealer = dealer_seat
        self.carried = carried
        self.start = start_deal(players, dealer_seat, carried, hands, miss, indicator, profile,
                                stock)
        self.announce = self._announce(record.get("announce"), seat,
                                       kind is _SIMPLE and miss is None)
        self.exchange = self._exchange(record.get("exchange"), seat)
        self.tricks = self._tricks(record.get("tricks"))

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
                raise MalformedRecord(f"deck: {twice} appears twice (R-PACK-CARDS)")
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
        if profile is LIMITED or not profile.irish and not profile.single_pot_miss:
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
            raise MalformedRecord(f"hands/miss/trump: {twice} appears twice (R-PACK-CARDS)")
        return by_seat, miss, indicator, stock

    @staticmethod
    def _announce(announce: Any, seat: dict[str, int], silent: bool
                  ) -> list[tuple[int, Announcement]]:
        if announce is None:
            return []
        if not _is_mapping(announce):
            raise MalformedRecord(f"announce: expected a mapping player -> word, got {_kind(announce)}")
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
    def _exchange(exchange: Any, seat: dict[str, int]) -> list[tuple[int, tuple[Card, ...]]]:
        if exchange is None:
            return []
        if not _is_mapping(exchange):
            raise MalformedRecord(
                f"exchange: expected a mapping player -> cards discarded, got {_kind(exchange)}"
            )
        swaps = []
        for name, cards in exchange.items():
            if name not in seat:
                raise MalformedRecord(f"exchange: {name!r} is not one of the players")
            swaps.append((seat[name], _cards(cards, "exchange", name)))
        return swaps

    @staticmethod
    def _tricks(tricks: Any) -> list[tuple[Card, ...]]:
        if tricks is None:
            return []
        if not isinstance(tricks, list):
            raise MalformedRecord(f"tricks: expected a list of tricks, got {_kind(tricks)}")
        if len(tricks) > 3:
            raise MalformedRecord(f"tricks: {len(tricks)} tricks; a deal has at most 3")
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
            raise MalformedRecord(f"tricks: {twice} is played twice")
        return played


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
    rules = record.get("rules") if _is_mapping(record) else None
    profile = LIMITED if rules is None else profile_from_rules(rules)
    if profile.game == "pam":
        from .pam import check_record  # the Pam module builds on this one
        return check_record(record, profile)
    parsed = _Record(record, profile)
    state = parsed.start
    for seat, call in parsed.announce:
        if seat != state._turn or call not in state.legal_announcements():
            refusal = state._announce_refusal(seat, call)
            assert refusal is not None
            return _result(state, error=(seat, "announce", call.value, *refusal))
        state._announce(seat, call)
    for seat, cards in parsed.exchange:
        refusal = state._exchange_refusal(seat, cards)
        if refusal is not None:
            return _result(state, error=(seat, "exchange", _swap_text(cards), *refusal))
        _check_stock(state, cards)
        state._exchange(seat, cards)
    tricks = parsed.tricks
    if tricks:
        _check_trick_shape(state, tricks)
    legal_cards, play = state.legal_cards, state._play
    for trick in tricks:
        for card in trick:
            player: int = state._turn  # type: ignore[assignment]
            if card not in legal_cards():
                refusal = state._play_refusal(player, card)
                return _result(state, error=(player, "play", card.text, *refusal))  # type: ignore[misc]
            play(player, card)
    return _result(state)


@dataclass(frozen=True)
class Replay:
    """A record replayed step by step.

    Attributes:
        states: the state at the start, then after each legal action.
        actions: the legal actions, ``actions[i]`` leading from ``states[i]``
            to ``states[i + 1]``.
        refused: the first illegal action and its verdict, if any.
    """

    states: list[DealState]
    actions: list[Action]
    refused: tuple[Action, Verdict] | None


def replay(record: Mapping[str, Any]) -> Replay:
    """Every state a record passes through, for stepping through a deal.

    Raises:
        MalformedRecord: as :func:`check`; also for a Pam Loo record, which
            :func:`loo_tutor.pam.replay_record` steps through.
    """
    parsed = _Record(record)
    state = parsed.start
    states: list[DealState] = [state]
    actions: list[Action] = []

    def take(action: Action) -> Verdict | None:
        nonlocal state
        verdict = state.check(action)
        if verdict:
            state = state.apply(action)
            states.append(state)
            actions.append(action)
            return None
        return verdict

    for seat, call in parsed.announce:
        refused = take(Announce(seat, call))
        if refused is not None:
            return Replay(states, actions, (Announce(seat, call), refused))
    for seat, cards in parsed.exchange:
        if state.phase is Phase.EXCHANGE and state._turn == seat:
            _check_stock(state, cards)
        refused = take(Exchange(seat, cards))
        if refused is not None:
            return Replay(states, actions, (Exchange(seat, cards), refused))
    if parsed.tricks:
        _check_trick_shape(state, parsed.tricks)
    for trick in parsed.tricks:
        for card in trick:
            play = Play(state.current_player(), card)  # type: ignore[arg-type]
            refused = take(play)
            if refused is not None:
                return Replay(states, actions, (play, refused))
    return Replay(states, actions, None)


def _check_stock(state: DealState, cards: tuple[Card, ...]) -> None:
    """A hands record must list the stock as far as its exchanges draw."""
    if state._drawn() + len(cards) > len(state.stock):
        raise MalformedRecord(
            f"stock: lists {len(state.stock)} cards, but the exchanges draw more "
            f"({state.players[state._turn]} is short)"  # type: ignore[index]
        )


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


def _result(state: DealState, error: tuple[Any, ...] | None = None) -> dict[str, Any]:
    names = state.players
    complete = error is None and state.phase is Phase.OVER
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
    result: dict[str, Any] = {
        "status": "illegal" if error else ("complete" if complete else "in_progress"),
        "kind": "simple" if state.kind is _SIMPLE else "double",
        "pool": amount_text(state.pool),
        "trump": None if state.trump is None else "SHDC"[state.trump],
        "revealed_after_trick": state.revealed_after,
        "active": active,
        "defender": None if state.defender is None else names[state.defender],
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
    else:
        profile = state.profile
        stake = str(-profile.stake) if profile.stake else "0"
        for name in names:
            net[name] = stake
        net[names[state.dealer]] = str(-profile.ante)
    result["net"] = net
    if error is None and not complete:
        to_act: int = state.current_player()  # type: ignore[assignment]
        if state.phase is Phase.ANNOUNCE:
            options = [a.value for a in state.legal_announcements()]
        elif state.phase is Phase.EXCHANGE:
            options = [_swap_text(cards) for cards in state.legal_exchanges()]
        else:
            options = [c.text for c in state.legal_cards()]
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
    if state.profile is not LIMITED and not state.profile.is_limited:
        _variant_result(state, result)
    return result


def _variant_result(state: DealState, result: dict[str, Any]) -> None:
    """The keys a variant profile adds to the result (book: Variants)."""
    names = state.players
    result["rules"] = describe(state.profile)
    result["flush"] = None if state.flush is None else names[state.flush]
    if state.profile.irish:
        result["exchanges"] = {names[seat]: [c.text for c in cards]
                               for seat, cards in state.exchanges}


def _swap_text(cards: Sequence[Card]) -> str:
    """An exchange as the result writes it: the cards discarded, or ``keep``."""
    return " ".join(card.text for card in cards) or "keep"


# -- writing -----------------------------------------------------------------


def format_amount(value: Fraction) -> int | str:
    """A carried balance as a record writes it: an int, or text ``"N/D"``."""
    return int(value) if value.denominator == 1 else str(value)


def record_from_state(state: DealState) -> dict[str, Any]:
    """Write a deal, as far as it has gone, as a record in the ``hands`` form.

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
        "hands": {names[s]: [str(c) for c in state.hands[s]] for s in range(len(names))},
    })
    if state.miss is not None:
        record["miss"] = [str(c) for c in state.miss]
    record["trump"] = str(state.indicator)
    if state.stock:
        record["stock"] = [str(c) for c in state.stock]
    if state.announcements:
        record["announce"] = {names[s]: a.value for s, a in state.announcements}
    if state.exchanges:
        record["exchange"] = {names[s]: [str(c) for c in cards] for s, cards in state.exchanges}
    tricks = [[str(c) for _, c in t.plays] for t in state.all_tricks()]
    if tricks:
        record["tricks"] = tricks
    return record


def dumps(record: Mapping[str, Any]) -> str:
    """The record as YAML text: one field per line, card lists inline."""
    return yaml.safe_dump(dict(record), sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=100)
