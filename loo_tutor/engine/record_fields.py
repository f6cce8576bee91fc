"""Reading the fields of a deal record that several games share: cards, hands' names,
announcements and tricks (CONTRACT.md §2.1).

Each game reads the deal of its own records (:attr:`GameSpec.read_deal
<loo_tutor.engine.games.GameSpec.read_deal>`) with these readers;
:mod:`loo_tutor.records.parse` reads the fields every record has and asks the
registry of games for the rest. Every refusal is a
:class:`~loo_tutor.engine.errors.MalformedRecord` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from .cards import CARDS, Card, parse_card
from .errors import MalformedRecord, NotationError
from .legality import Announcement
from .words import counted, kind_of, ordinal

# Final: the compiled build keeps these in C variables instead of looking them up by name.
WORDS: Final = {a.value: a for a in Announcement}
CARD_OF_TEXT: Final[dict[str, Card]] = {card.text: card for card in CARDS}
"""Each card by its canonical text, for the fast reading of a record written canonically."""

NO_CIVIL: Final[frozenset[int]] = frozenset()
"""No trick led with "Pam, be civil": the civil leads of a game without Pam."""


def read_card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except NotationError:
        raise MalformedRecord(f"{where}: unknown card text {value!r}") from None


def read_cards(value: Any, field: str, key: object = None, count: int | None = None
           ) -> tuple[Card, ...]:
    """Read a list of cards for ``field`` (``field.key`` in messages)."""
    if type(value) is not list and not isinstance(value, tuple):
        raise MalformedRecord(f"{_where(field, key)}: expected a list of cards, got {kind_of(value)}")
    if count is not None and len(value) != count:
        raise MalformedRecord(
            f"{_where(field, key)}: expected exactly {counted(count, 'card')}, got {len(value)}"
        )
    try:
        return tuple([CARD_OF_TEXT[text] for text in value])
    except (KeyError, TypeError):  # not canonical text: take the slow, forgiving route
        where = _where(field, key)
        return tuple(read_card(v, f"{where}, {ordinal(i + 1)} card") for i, v in enumerate(value))


def canonical_cards(value: Any) -> tuple[Card, ...] | None:
    """The cards of a non-empty list of canonical card texts; ``None`` for anything else."""
    if type(value) is not list or not value:
        return None
    try:
        return tuple([CARD_OF_TEXT[text] for text in value])
    except (KeyError, TypeError):
        return None


def _where(field: str, key: object) -> str:
    return field if key is None else f"{field}.{key}"


def is_mapping(value: Any) -> bool:
    return type(value) is dict or isinstance(value, Mapping)


def refuse_hand_names(hands: Mapping[str, Any], players: list[str], seat: dict[str, int]) -> None:
    """Refuse a hand for somebody not playing, or a player without a hand, if there is one."""
    for name in hands:
        if name not in seat:
            raise MalformedRecord(f"hands: {name!r} is not one of the players")
    for name in players:
        if name not in hands:
            raise MalformedRecord(f"hands: no hand for {name!r}")


def read_announce(announce: Any, seat: dict[str, int], silent: bool,
              synonyms: Mapping[str, Announcement] | None = None
              ) -> list[tuple[int, Announcement]]:
    """Each announcement. ``synonyms`` are words of a profile's own for an
    announcement (the Blenheim rules' ``resign`` for ``pass``, SPEC §11.3)."""
    if announce is None:
        return []
    if not is_mapping(announce):
        raise MalformedRecord(
            f"announce: expected a mapping player -> word, got {kind_of(announce)}")
    if announce and silent:
        raise MalformedRecord("announce: a simple deal (carried 0) has no announcements")
    calls = []
    try:  # every player named and every word written canonically: one lookup each
        for name, word in announce.items():
            calls.append((seat[name], WORDS[word]))
        return calls
    except (KeyError, TypeError):  # read again, field by field, to refuse or to read forgivingly
        calls = []
    for name, word in announce.items():
        if name not in seat:
            raise MalformedRecord(f"announce: {name!r} is not one of the players")
        call = WORDS.get(word) if type(word) is str else None  # written canonically
        if call is None and isinstance(word, str):
            said = word.strip().lower()
            call = WORDS.get(said)
            if call is None and synonyms is not None:
                call = synonyms.get(said)
            if call is None and said == "resign":
                raise MalformedRecord(
                    f"announce.{name}: 'resign' is the Blenheim rules' word for "
                    "passing; under these rules write pass")
        if call is None:
            raise MalformedRecord(
                f"announce.{name}: {kind_of(word)} is not stand, pass, miss or defend"
            )
        calls.append((seat[name], call))
    return calls


def read_tricks(tricks: Any, most: int) -> list[tuple[Card, ...]]:
    if tricks is None:
        return []
    if not isinstance(tricks, list):
        raise MalformedRecord(f"tricks: expected a list of tricks, got {kind_of(tricks)}")
    if len(tricks) > most:
        raise MalformedRecord(f"tricks: {len(tricks)} tricks; a deal has at most {most}")
    played = []
    for t, trick in enumerate(tricks):
        cards = canonical_cards(trick)  # the field's name is written only for a refusal
        if cards is None:
            cards = read_cards(trick, f"tricks: the {ordinal(t + 1)} trick")
        if not cards:
            raise MalformedRecord(f"tricks: the {ordinal(t + 1)} trick is empty")
        played.append(cards)
    if not all_distinct(played):
        every = [c for cards in played for c in cards]
        twice = next(c for c in every if every.count(c) > 1)
        raise MalformedRecord(f"tricks: {twice.shown} is played twice")
    return played


def all_distinct(groups: list[tuple[Card, ...]]) -> bool:
    """Whether no card appears twice in ``groups``, all taken together."""
    seen = [False] * len(CARDS)
    for cards in groups:
        for card in cards:
            if seen[card.index]:
                return False
            seen[card.index] = True
    return True


def refuse_repeats(cards: tuple[Card, ...], field: str) -> None:
    if not all_distinct([cards]):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise MalformedRecord(f"{field}: {twice.shown} appears twice (R-PACK-CARDS)")
