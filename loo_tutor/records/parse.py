"""Reading a deal record's fields: the shape CONTRACT.md §2.1 asks of a record.

:class:`ParsedRecord` validates a record's fields and builds the deal at its
start; every refusal is a :class:`~loo_tutor.engine.errors.MalformedRecord`
naming the field. The replay (``replay``) takes its actions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Final, cast

from ..engine import pam, three_card
from ..engine.cards import CARDS, Card, parse_card
from ..engine.errors import MalformedRecord, NotationError
from ..engine.games import game_of
from ..engine.legality import Announcement
from ..engine.pam import HAND_SIZE as PAM_HAND
from ..engine.pam import TRICKS as PAM_TRICKS
from ..engine.pam import PamState, split_pam_deck
from ..engine.profiles import profile_from_rules
from ..engine.rules import LIMITED, Profile
from ..engine.state import (
    DealKind,
    DealMachine,
    deal_kind,
    deals_miss,
    exact,
    split_deck,
    start_deal,
    undealt,
)
from ..engine.words import counted, ordinal
from .reading import kind_of, load

FIELDS = three_card.RECORD_KEYS
"""The top-level keys a three-card record may have, in the order records are
written; each game registers its own (:mod:`loo_tutor.engine.games`)."""

IRISH_FIELDS = three_card.IRISH_RECORD_KEYS
"""The keys of an Irish Loo record: the stock drawn from, and the exchanges."""

PAM_FIELDS = pam.RECORD_KEYS
"""The keys of a Pam Loo record (``book/pam.md``): no miss; civil leads by trick number."""

_KEY_SETS: dict[tuple[str, ...], frozenset[str]] = {}  # a game's record keys, as a set
# Final: the compiled build keeps these in C variables instead of looking them up by name.
_SIMPLE: Final = DealKind.SIMPLE  # enum lookups are slow in hot code
_DOUBLE: Final = DealKind.DOUBLE
_WORDS: Final = {a.value: a for a in Announcement}
_CARD_OF_TEXT: Final[dict[str, Card]] = {card.text: card for card in CARDS}
_CARRIED_TEXT: Final = re.compile(r"\s*(\d+)(?:\s*/\s*(\d+))?\s*")


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
    """Read a list of cards for ``field`` (``field.key`` in messages)."""
    if type(value) is not list and not isinstance(value, tuple):
        raise MalformedRecord(f"{_where(field, key)}: expected a list of cards, got {kind_of(value)}")
    if count is not None and len(value) != count:
        raise MalformedRecord(
            f"{_where(field, key)}: expected exactly {counted(count, 'card')}, got {len(value)}"
        )
    try:
        return tuple([_CARD_OF_TEXT[text] for text in value])
    except (KeyError, TypeError):  # not canonical text: take the slow, forgiving route
        where = _where(field, key)
        return tuple(_card(v, f"{where}, {ordinal(i + 1)} card") for i, v in enumerate(value))


def _canonical(value: Any) -> tuple[Card, ...] | None:
    """The cards of a non-empty list of canonical card texts; ``None`` for anything else."""
    if type(value) is not list or not value:
        return None
    try:
        return tuple([_CARD_OF_TEXT[text] for text in value])
    except (KeyError, TypeError):
        return None


def _where(field: str, key: object) -> str:
    return field if key is None else f"{field}.{key}"


def _is_mapping(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def parse_carried(value: Any) -> Fraction:
    """Read a carried balance: a whole number ≥ 0, or text ``"N"`` or ``"N/D"``.

    Raises:
        MalformedRecord: floats, booleans, negatives, a zero denominator, other text.

    >>> parse_carried(9), parse_carried("13/3")
    (Fraction(9, 1), Fraction(13, 3))
    """
    if isinstance(value, float) and value.is_integer() and value >= 0:
        raise MalformedRecord(
            f"carried: {value!r} is a decimal; write the whole number {int(value)} "
            "or an exact fraction in quotes like \"13/3\""
        )
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise MalformedRecord(
            f"carried: expected a whole number or text like \"13/3\", got {kind_of(value)}"
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
    return exact(int(numerator), int(denominator or 1))


class ParsedRecord:
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

    def __init__(self, given: Any, profile: Profile | None = None) -> None:
        """Validate ``given``, a record; ``profile`` is its ``rules`` already read, if it was."""
        if type(given) is dict:
            record: dict[str, Any] = given
        elif isinstance(given, Mapping):
            record = dict(given)  # a dict's fields are read faster than any other mapping's
        else:
            raise MalformedRecord(f"record: expected a mapping of fields, got {kind_of(given)}")
        if profile is None:
            rules = record.get("rules")
            profile = LIMITED if rules is None else profile_from_rules(rules)
        game = game_of(profile)
        allowed = game.record_keys(profile)
        known = _KEY_SETS.get(allowed)
        if known is None:
            known = _KEY_SETS[allowed] = frozenset(allowed)
        if not known.issuperset(record):
            key = next(k for k in cast("dict[object, object]", record) if k not in known)
            raise MalformedRecord(f"{key}: unknown field (allowed: {', '.join(allowed)})")
        players, seat = self._players(record.get("players"), profile)
        dealer = record.get("dealer")
        if not isinstance(dealer, str) or dealer not in seat:
            raise MalformedRecord(f"dealer: {kind_of(dealer)} is not one of the players")
        if "carried" not in record:
            raise MalformedRecord("carried: missing (use 0 when nothing was carried)")
        carried = parse_carried(record["carried"])
        dealer_seat = seat[dealer]
        self.players = players
        self.dealer = dealer_seat
        self.carried = carried
        self.exchange = self._exchange(record.get("exchange"), seat)
        self.start, self.announce, self.tricks, self.civil = _DEAL_READERS[game.name](
            record, players, seat, dealer_seat, carried, profile)

    @staticmethod
    def _players(players: Any, profile: Profile) -> tuple[list[str], dict[str, int]]:
        """The players' names, and each name's seat."""
        if not isinstance(players, list):
            raise MalformedRecord(f"players: expected a list of names, got {kind_of(players)}")
        try:
            named = all(map(str.strip, players))
        except TypeError:  # not text
            named = False
        if not named:
            i, name = next((i, n) for i, n in enumerate(players)
                           if not isinstance(n, str) or not n.strip())
            raise MalformedRecord(
                f"players: the {ordinal(i + 1)} is {kind_of(name)}, not a name "
                "(quote names such as \"No\")"
            )
        seat = {name: index for index, name in enumerate(players)}
        if len(seat) != len(players):
            twice = next(n for n in players if players.count(n) > 1)
            raise MalformedRecord(f"players: {twice!r} is listed twice")
        if not profile.min_players <= len(players) <= profile.max_players:
            raise MalformedRecord(
                f"players: {len(players)} players; {profile.name} Loo needs "
                f"{profile.min_players} to {profile.max_players} (R-SEAT-COUNT)"
            )
        return players, seat

    @staticmethod
    def _exchange(exchange: Any, seat: dict[str, int]
                  ) -> list[tuple[int, tuple[Card, ...], bool]]:
        """Each exchange: a list of the cards discarded, or (Pam Loo) a mapping
        ``{discard: [...], take_turned: true}`` for a dealer who takes the turned card."""
        if exchange is None:
            return []
        if not _is_mapping(exchange):
            raise MalformedRecord(
                f"exchange: expected a mapping player -> cards discarded, got {kind_of(exchange)}"
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
                        f"exchange.{name}.take_turned: expected true or false, got {kind_of(take)}"
                    )
                given = given.get("discard", [])
            swaps.append((seat[name], _cards(given, "exchange", name), take))
        return swaps



def _three_card_cards(record: dict[str, Any], players: list[str], seat: dict[str, int],
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
        raise MalformedRecord(f"hands: expected a mapping player -> cards, got {kind_of(hands)}")
    if len(hands) != len(players):
        _hand_names(hands, players, seat)
    by_seat: list[tuple[Card, ...]] = []
    for name in players:
        given = hands.get(name)  # None for a missing name, refused below
        if type(given) is list:
            try:  # three canonical card texts: one lookup per card
                first, second, third = given
                by_seat.append((_CARD_OF_TEXT[first], _CARD_OF_TEXT[second],
                                _CARD_OF_TEXT[third]))
                continue
            except (KeyError, TypeError, ValueError):
                pass
        if hands.keys() != seat.keys():  # an odd name is refused before an odd card
            _hand_names(hands, players, seat)
        by_seat.append(_cards(given, "hands", name, 3))
    if profile.is_limited or (not profile.irish and not profile.single_pot_miss):
        if kind is _DOUBLE and miss_text is None:
            raise MalformedRecord(
                "miss: a double deal (carried above 0) needs the 3 cards of the miss"
            )
        if kind is _SIMPLE and miss_text is not None:
            raise MalformedRecord("miss: a simple deal (carried 0) has no miss")
    elif deals_miss(kind, profile) != (miss_text is not None):
        raise MalformedRecord("miss: this deal needs the 3 cards of the miss"
                              if miss_text is None else "miss: this deal has no miss")
    miss = None if miss_text is None else _canonical(miss_text)
    if miss_text is not None and (miss is None or len(miss) != 3):
        miss = _cards(miss_text, "miss", count=3)  # refused, or read the forgiving way
    if trump_text is None:
        raise MalformedRecord("trump: missing (the indicator card is needed with 'hands')")
    indicator = _CARD_OF_TEXT.get(trump_text) if type(trump_text) is str else None
    if indicator is None:
        indicator = _card(trump_text, "trump")
    stock_text = record.get("stock")
    stock = () if stock_text is None else _cards(stock_text, "stock")
    if not _all_distinct([*by_seat, miss or (), (indicator,), stock]):
        every = [c for h in by_seat for c in h] + list(miss or ()) + [indicator, *stock]
        twice = next(c for c in every if every.count(c) > 1)
        raise MalformedRecord(f"hands/miss/trump: {twice.shown} appears twice (R-PACK-CARDS)")
    return by_seat, miss, indicator, stock


def _hand_names(hands: Mapping[str, Any], players: list[str], seat: dict[str, int]) -> None:
    """Refuse a hand for somebody not playing, or a player without a hand, if there is one."""
    for name in hands:
        if name not in seat:
            raise MalformedRecord(f"hands: {name!r} is not one of the players")
    for name in players:
        if name not in hands:
            raise MalformedRecord(f"hands: no hand for {name!r}")


def _announce(announce: Any, seat: dict[str, int], silent: bool, blenheim: bool = False
              ) -> list[tuple[int, Announcement]]:
    """Each announcement; under the Blenheim rules ``resign``, their word for passing,
    is read as ``pass`` (SPEC §11.3)."""
    if announce is None:
        return []
    if not _is_mapping(announce):
        raise MalformedRecord(
            f"announce: expected a mapping player -> word, got {kind_of(announce)}")
    if announce and silent:
        raise MalformedRecord("announce: a simple deal (carried 0) has no announcements")
    calls = []
    for name, word in announce.items():
        if name not in seat:
            raise MalformedRecord(f"announce: {name!r} is not one of the players")
        call = _WORDS.get(word) if type(word) is str else None  # written canonically
        if call is None and isinstance(word, str):
            said = word.strip().lower()
            call = _WORDS.get(said)
            if said == "resign":
                if not blenheim:
                    raise MalformedRecord(
                        f"announce.{name}: 'resign' is the Blenheim rules' word for "
                        "passing; under these rules write pass")
                call = Announcement.PASS
        if call is None:
            raise MalformedRecord(
                f"announce.{name}: {kind_of(word)} is not stand, pass, miss or defend"
            )
        calls.append((seat[name], call))
    return calls


def _tricks(tricks: Any, most: int) -> list[tuple[Card, ...]]:
    if tricks is None:
        return []
    if not isinstance(tricks, list):
        raise MalformedRecord(f"tricks: expected a list of tricks, got {kind_of(tricks)}")
    if len(tricks) > most:
        raise MalformedRecord(f"tricks: {len(tricks)} tricks; a deal has at most {most}")
    played = []
    for t, trick in enumerate(tricks):
        cards = _canonical(trick)  # the field's name is written only for a refusal
        if cards is None:
            cards = _cards(trick, f"tricks: the {ordinal(t + 1)} trick")
        if not cards:
            raise MalformedRecord(f"tricks: the {ordinal(t + 1)} trick is empty")
        played.append(cards)
    if not _all_distinct(played):
        every = [c for cards in played for c in cards]
        twice = next(c for c in every if every.count(c) > 1)
        raise MalformedRecord(f"tricks: {twice.shown} is played twice")
    return played


_NO_CIVIL: Final[frozenset[int]] = frozenset()

_Deal = tuple[DealMachine, list[tuple[int, Announcement]], list[tuple[Card, ...]], frozenset[int]]
"""A record's deal as read: its start, announcements, tricks and civil leads."""


def _three_card_deal(record: dict[str, Any], players: list[str], seat: dict[str, int],
                     dealer: int, carried: Fraction, profile: Profile) -> _Deal:
    """The deal of a three-card record: hands and the miss as the deal's kind needs them."""
    kind = deal_kind(carried, profile)
    hands, miss, indicator, stock = _three_card_cards(record, players, seat, dealer, kind,
                                                        profile)
    start = start_deal(players, dealer, carried, hands, miss, indicator, profile, stock)
    announce = _announce(record.get("announce"), seat,
                                      kind is _SIMPLE and miss is None,
                                      blenheim=profile.name == "blenheim")
    return start, announce, _tricks(record.get("tricks"), 3), _NO_CIVIL


def _pam_deal(record: dict[str, Any], players: list[str], seat: dict[str, int],
              dealer: int, carried: Fraction, profile: Profile) -> _Deal:
    """The deal of a Pam record: five-card hands, the stock, and civil leads."""
    dealt, indicator, stock = _pam_cards(record, players, dealer)
    start = PamState(players, dealer, carried, dealt, indicator, stock, profile)
    announce = _announce(record.get("announce"), seat, False)
    tricks = _tricks(record.get("tricks"), PAM_TRICKS)
    return start, announce, tricks, _civil(record.get("civil"), len(tricks))


_DEAL_READERS: dict[str, Callable[[dict[str, Any], list[str], dict[str, int], int, Fraction,
                                   Profile], _Deal]] = {
    three_card.GAME.name: _three_card_deal,
    pam.GAME.name: _pam_deal,
}
"""How the deal of a record is read, by the name of its game (a reader for every
game registered in :mod:`loo_tutor.engine.games`)."""


def _pam_cards(record: dict[str, Any], players: list[str], dealer: int
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
        raise MalformedRecord(f"hands: expected a mapping player -> cards, got {kind_of(hands)}")
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
        raise MalformedRecord(f"stock: {counted(len(stock), 'card')}, but only {room} are left "
                              "after the deal")
    _distinct((*[c for h in by_seat for c in h], indicator, *stock), "hands/trump/stock")
    return tuple(by_seat), indicator, stock


def _all_distinct(groups: list[tuple[Card, ...]]) -> bool:
    """Whether no card appears twice in ``groups``, all taken together."""
    seen = [False] * len(CARDS)
    for cards in groups:
        for card in cards:
            if seen[card.index]:
                return False
            seen[card.index] = True
    return True


def _distinct(cards: tuple[Card, ...], field: str) -> None:
    if not _all_distinct([cards]):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise MalformedRecord(f"{field}: {twice.shown} appears twice (R-PACK-CARDS)")


def _civil(value: Any, tricks: int) -> frozenset[int]:
    if value is None:
        return _NO_CIVIL
    if not isinstance(value, list):
        raise MalformedRecord(f"civil: expected a list of trick numbers, got {kind_of(value)}")
    for number in value:
        if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= PAM_TRICKS:
            raise MalformedRecord(f"civil: {number!r} is not a trick number from 1 to {PAM_TRICKS}")
        if number > tricks:
            raise MalformedRecord(f"civil: trick {number} has no lead in 'tricks'")
    if len(set(value)) != len(value):
        raise MalformedRecord("civil: a trick number is listed twice")
    return frozenset(value)


