"""Deal records: reading, checking and writing them (CONTRACT.md).

The work is done in four modules of this folder, whose public names this one
gathers: ``parse`` (the fields of a record), ``replay`` (the actions taken
with the engine), ``result`` (:func:`check` and its result) and ``write``
(:func:`record_from_state`, :func:`dumps`).

A deal record writes down one deal, possibly unfinished, as YAML or JSON.
:func:`check` replays it with the engine and returns the result dict of the
contract, typed as :class:`CheckResult`: the settlement, the next legal
options, or the first illegal action with the rule it breaks.

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

from ..engine.pam import RECORD_KEYS as PAM_FIELDS
from ..engine.three_card import IRISH_RECORD_KEYS as IRISH_FIELDS
from ..engine.three_card import RECORD_KEYS as FIELDS
from .parse import load_record, parse_carried
from .reading import loads
from .replay import (
    CIVIL,
    TAKE_TURNED,
    Replay,
    action_text,
    announcing_turn,
    replay,
    replay_deal,
    replay_pam,
    trick_start,
    turn_in_trick,
)
from .result import check, to_json
from .result_types import CheckResult, ErrorResult, NextTurn, TrickResult
from .write import dumps, format_amount, record_from_state

__all__ = [
    "CIVIL",
    "FIELDS",
    "IRISH_FIELDS",
    "PAM_FIELDS",
    "TAKE_TURNED",
    "CheckResult",
    "ErrorResult",
    "NextTurn",
    "Replay",
    "TrickResult",
    "action_text",
    "announcing_turn",
    "check",
    "dumps",
    "format_amount",
    "load_record",
    "loads",
    "parse_carried",
    "record_from_state",
    "replay",
    "replay_deal",
    "replay_pam",
    "to_json",
    "trick_start",
    "turn_in_trick",
]
