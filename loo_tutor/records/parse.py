"""Reading a deal record's fields: the shape CONTRACT.md §2.1 asks of a record.

:class:`ParsedRecord` validates the fields every record has and asks the record's game
(:attr:`GameSpec.read_deal <loo_tutor.engine.games.GameSpec.read_deal>`) to read
its deal and build it at its start; every refusal is a :class:`~loo_tutor.engine.errors.MalformedRecord`
naming the field. The replay (``replay``) takes its actions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final, cast

from ..engine.cards import Card
from ..engine.errors import MalformedRecord
from ..engine.games import game_of
from ..engine.money import exact
from ..engine.profiles import profile_from_rules
from ..engine.record_fields import is_mapping, read_cards
from ..engine.rules import LIMITED, Profile
from ..engine.words import kind_of, ordinal
from .reading import load

_KEY_SETS: dict[tuple[str, ...], frozenset[str]] = {}  # a game's record keys, as a set
# Final: the compiled build keeps this in a C variable instead of looking it up by name.
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


def parse_carried(value: Any) -> Fraction:
    """Read a carried balance: a whole number ≥ 0, or text ``"N"`` or ``"N/D"``.

    Raises:
        MalformedRecord: floats, booleans, negatives, a zero denominator, other text.

    >>> parse_carried(9), parse_carried("13/3")
    (Fraction(9, 1), Fraction(13, 3))
    """
    if type(value) is int and value >= 0:  # the usual whole number, in one test
        return exact(value, 1)
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
        "game",
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
        players, seat = _read_players(record.get("players"), profile)
        dealer = record.get("dealer")
        if not isinstance(dealer, str) or dealer not in seat:
            raise MalformedRecord(f"dealer: {kind_of(dealer)} is not one of the players")
        if "carried" not in record:
            raise MalformedRecord("carried: missing (use 0 when nothing was carried)")
        carried = parse_carried(record["carried"])
        dealer_seat = seat[dealer]
        self.game = game
        self.players = players
        self.dealer = dealer_seat
        self.carried = carried
        self.exchange = _read_exchange(record.get("exchange"), seat)
        self.start, self.announce, self.tricks, self.civil = game.read_deal(
            record, players, seat, dealer_seat, carried, profile)


# The readers below are functions, not static methods: CPython 3.11 looks a static
# method up the slow way at every call, and a record is read in every check.


def _read_players(players: Any, profile: Profile) -> tuple[list[str], dict[str, int]]:
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


def _read_exchange(exchange: Any, seat: dict[str, int]
                   ) -> list[tuple[int, tuple[Card, ...], bool]]:
    """Each exchange: a list of the cards discarded, or (Pam Loo) a mapping
    ``{discard: [...], take_turned: true}`` for a dealer who takes the turned card."""
    if exchange is None:
        return []
    if not is_mapping(exchange):
        raise MalformedRecord(
            f"exchange: expected a mapping player -> cards discarded, got {kind_of(exchange)}"
        )
    swaps = []
    for name, given in exchange.items():
        if name not in seat:
            raise MalformedRecord(f"exchange: {name!r} is not one of the players")
        take = False
        if is_mapping(given):
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
        swaps.append((seat[name], read_cards(given, "exchange", name), take))
    return swaps
