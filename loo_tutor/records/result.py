"""The result of checking a deal record: the dict CONTRACT.md §2.4 describes.

:func:`check` replays a record and reports its settlement, the next legal
options, or the first illegal action with the rule it breaks. The result is
the plain dict the contract fixes, typed key by key
(:class:`~loo_tutor.records.result_types.CheckResult`), so that a program
reading it is checked as strictly as the engine; :func:`to_json` writes it as
``loo-tutor check --json`` prints it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from ..engine.games import GameSpec
from ..engine.money import amount_texts
from ..engine.rules import RuleKey
from ..engine.state import DealMachine, Phase, amount_text
from .parse import ParsedRecord
from .replay import action_text, phase_of, take_actions
from .result_types import CheckResult, TrickResult

_STAKE_TEXT: Final = tuple(str(-stake) for stake in range(10))
_OVER: Final = Phase.OVER  # enum lookups are slow in hot code


def to_json(result: CheckResult) -> str:
    """``result`` as ``loo-tutor check --json`` prints it: one JSON object, indented,
    cards and names as written (not escaped to ASCII)."""
    return json.dumps(result, ensure_ascii=False, indent=2)


def check(record: Mapping[str, Any]) -> CheckResult:
    """Replay a deal record and report what happened (CONTRACT.md §2).

    Returns:
        the result dict, whose ``status`` is ``complete``, ``in_progress`` or
        ``illegal``; an illegal action is described in ``error`` with its
        ``rule``. It is a plain dict, typed as :class:`CheckResult`.

    Raises:
        MalformedRecord: the record does not describe a deal.
    """
    parsed = ParsedRecord(record)
    refused = take_actions(parsed, False, [], [])
    state = parsed.start  # which take_actions changed in place
    if refused is None:
        return _result(state, parsed.game)
    action, verdict = refused
    assert verdict.rule is not None  # a refusal names the rule it applies
    return _result(state, parsed.game, error=(action.seat, phase_of(action), action_text(action),
                                              verdict.rule, verdict.message))


def _result(state: DealMachine, game: GameSpec,
            error: tuple[int, str, str, RuleKey, str] | None = None) -> CheckResult:
    """The result dict of CONTRACT.md §2.4, with the keys ``game``, the game
    played, adds (:attr:`GameSpec.add_result <loo_tutor.engine.games.GameSpec.add_result>`)."""
    names = state.players
    complete = error is None and state.phase is _OVER
    tricks: list[TrickResult] = []
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
    defender = state.defending()
    net: dict[str, str] = {}
    result: CheckResult = {
        "status": "illegal" if error else ("complete" if complete else "in_progress"),
        "kind": game.kind_name(state),
        "pool": amount_text(state.pool),
        "trump": None if state.trump is None else "SHDC"[state.trump],
        "revealed_after_trick": state.revealed_after,
        "active": active,
        "defender": None if defender is None else names[defender],
        "collected_by": None,
        "tricks": tricks,
        "payouts": {},
        "looed": [],
        "carried_next": None,
        "net": net,
        "next": None,
        "error": None,
    }
    if complete:
        settled = state.settlement()
        if state.collected_by is not None:
            result["collected_by"] = names[state.collected_by]
        result["payouts"] = amount_texts(settled.payouts, names)
        for seat in settled.looed:
            result["looed"].append(names[seat])
        result["carried_next"] = amount_text(settled.carried_next)
        result["net"] = amount_texts(settled.net, names)  # in the place of the empty one
    else:  # only the stakes have been booked (R-DEAL-ANTE)
        for seat, stake in enumerate(state.stakes):
            net[names[seat]] = _STAKE_TEXT[stake] if stake < len(_STAKE_TEXT) else str(-stake)
    if error is None and not complete:
        to_act = state.current_player()
        assert to_act is not None  # an unfinished deal waits for somebody
        options = [action_text(action) for action in state.legal_actions()]
        result["next"] = {"player": names[to_act], "phase": state.phase.value,
                          "options": sorted(options)}
    if error is not None:
        player, phase, action, rule, message = error
        result["error"] = {"player": names[player], "phase": phase, "action": action,
                           "rule": rule.value, "message": message}
    game.add_result(state, result)  # the keys the game adds
    return result
