"""The types of a check result: the dict CONTRACT.md §2.4 fixes, typed key by key.

They are :class:`~typing.TypedDict` types, so a result stays the plain dict the
contract promises (``json.dumps`` writes it, ``==`` compares it with a dict) while
``mypy`` checks every key a program reads. This module stays out of the
compiled build: a TypedDict that mypyc 2.4.1 compiles can lose the keys of its
base and which keys are optional (it did once ``typing_extensions`` was loaded).
"""

from __future__ import annotations

from typing import Literal, TypedDict

Status = Literal["complete", "in_progress", "illegal"]
"""How far a record's deal went: played out, legal so far, or stopped by an illegal action."""


class TrickResult(TypedDict):
    """One trick of a result: its leader, the cards as ``[player, card]`` pairs in the
    order played, and its winner (``None`` while the trick is unfinished)."""

    leader: str
    cards: list[list[str]]
    winner: str | None


class NextTurn(TypedDict):
    """Who acts next in an unfinished deal, in which phase, and their legal options, sorted."""

    player: str
    phase: str
    options: list[str]


class ErrorResult(TypedDict):
    """The first illegal action: who took it, in which phase, the action as written,
    the ID of the rule it breaks and a sentence saying why."""

    player: str
    phase: str
    action: str
    rule: str
    message: str


class _ContractResult(TypedDict):
    """The keys CONTRACT.md §2.4 fixes, present in every result, in this order."""

    status: Status
    kind: str
    pool: str
    trump: str | None
    revealed_after_trick: int | None
    active: list[str]
    defender: str | None
    collected_by: str | None
    tricks: list[TrickResult]
    payouts: dict[str, str]
    looed: list[str]
    carried_next: str | None
    net: dict[str, str]
    next: NextTurn | None
    error: ErrorResult | None


class CheckResult(_ContractResult, total=False):
    """The result of :func:`~loo_tutor.records.record.check`: the contract's keys, then
    the keys a variant adds.

    A profile other than ``limited`` adds ``rules`` and ``flush``, Irish Loo
    ``exchanges``; a Pam deal adds all of the keys below (``book/pam.md``, "The
    result"). The amounts are exact rational strings (``"22/3"``).
    """

    rules: str
    flush: str | None
    exchanges: dict[str, list[str]]
    flush_kind: str | None
    exempt: list[str]
    drawn: dict[str, list[str]]
    pam: str | None
    civil: list[int]
