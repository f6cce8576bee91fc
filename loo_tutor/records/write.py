"""Writing deal records: a deal as a record, and a record as YAML text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import yaml

from ..engine.cards import Card
from ..engine.machine import DealMachine
from ..engine.profiles import rules_value


def card_texts(cards: Sequence[Card]) -> list[str]:
    return [card.text for card in cards]


def format_amount(value: Fraction) -> int | str:
    """A carried balance as a record writes it: an int, or text ``"N/D"``."""
    return int(value) if value.denominator == 1 else str(value)


def record_from_state(state: DealMachine) -> dict[str, Any]:
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
        "hands": {names[s]: card_texts(state.hands[s]) for s in range(len(names))},
    })
    miss = state.miss_cards()
    if miss is not None:
        record["miss"] = card_texts(miss)
    record["trump"] = state.indicator.text
    if state.stock:
        record["stock"] = card_texts(state.stock)
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


def _exchange_entry(state: DealMachine, cards: tuple[Card, ...],
                    drawn: list[tuple[Card, ...]]) -> Any:
    """An exchange as a record writes it: the discards, or a mapping when the
    dealer took the turned card."""
    if drawn and state.indicator in drawn[0]:
        return {"discard": card_texts(cards), "take_turned": True}
    return card_texts(cards)


def dumps(record: Mapping[str, Any]) -> str:
    """The record as YAML text: one field per line, card lists inline."""
    return yaml.safe_dump(dict(record), sort_keys=False, allow_unicode=True,
                          default_flow_style=None, width=100)
