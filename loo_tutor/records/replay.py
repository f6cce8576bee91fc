"""Replaying a deal record with the engine, action by action (CONTRACT.md §2.2).

:func:`walk` is the one replay loop of every game; :func:`replay`,
:func:`replay_pam` and :func:`replay_deal` (either game) keep every state for
stepping through a deal; :func:`trick_start`, :func:`turn_in_trick` and
:func:`announcing_turn` find a moment among those states; and
:func:`action_text` writes an action as a result names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, Generic, TypeVar, cast

from ..engine.cards import Card
from ..engine.errors import LooError, MalformedRecord
from ..engine.pam import PamState
from ..engine.state import (
    Action,
    Announce,
    CivilLead,
    DealMachine,
    DealState,
    Exchange,
    Phase,
    Play,
    Verdict,
)
from ..engine.words import counted, ordinal
from .parse import ParsedRecord

CIVIL: Final = " civil"
"""Added to the ace of trumps in ``next.options`` and ``error.action`` for a civil lead."""

TAKE_TURNED: Final = " + turned"
"""Added to the discards in ``next.options`` and ``error.action`` when the dealer takes
the turned card (Pam Loo's ``dealer_takes_trump``)."""


_State = TypeVar("_State", bound=DealMachine)

# Looked up once: reading a member off the Enum class is slow in a check.
_ANNOUNCE: Final = Phase.ANNOUNCE
_EXCHANGE: Final = Phase.EXCHANGE


class Replay(Generic[_State]):
    """A record replayed step by step, typed by its game's deal.

    A plain class rather than a dataclass: the compiled build cannot make a
    generic dataclass. Its attributes are read-only.

    Attributes:
        states: the state at the start, then after each legal action
            (:class:`~loo_tutor.engine.state.DealState`, or
            :class:`~loo_tutor.engine.pam.PamState` for a Pam Loo record).
        actions: the legal actions, ``actions[i]`` leading from ``states[i]``
            to ``states[i + 1]``.
        refused: the first illegal action and its verdict, if any.
    """

    __slots__ = ("_actions", "_refused", "_states")

    def __init__(self, states: list[_State], actions: list[Action],
                 refused: tuple[Action, Verdict] | None) -> None:
        self._states = states
        self._actions = actions
        self._refused = refused

    @property
    def states(self) -> list[_State]:
        return self._states

    @property
    def actions(self) -> list[Action]:
        return self._actions

    @property
    def refused(self) -> tuple[Action, Verdict] | None:
        return self._refused


def replay(record: Mapping[str, Any]) -> Replay[DealState]:
    """Every state a three-card record passes through, for stepping through a deal.

    Raises:
        MalformedRecord: as :func:`check`; also for a Pam Loo record, which
            :func:`replay_pam` steps through.
    """
    parsed = ParsedRecord(record)
    if type(parsed.start) is not DealState:
        raise MalformedRecord("rules: a pam record is stepped through with replay_pam")
    return cast("Replay[DealState]", walk(parsed, keep=True))  # every state of its start's type


def replay_pam(record: Mapping[str, Any]) -> Replay[PamState]:
    """Every state a Pam Loo record passes through (the same replay as :func:`replay`).

    Raises:
        MalformedRecord: as :func:`check`; also for a three-card record.
    """
    parsed = ParsedRecord(record)
    if type(parsed.start) is not PamState:
        raise MalformedRecord("rules: only a pam record is stepped through with replay_pam")
    return cast("Replay[PamState]", walk(parsed, keep=True))


def replay_deal(record: Mapping[str, Any]) -> Replay[DealState | PamState]:
    """Every state a record of either game passes through: three-card Loo or Pam Loo.

    Raises:
        MalformedRecord: as :func:`check`.
    """
    return cast("Replay[DealState | PamState]", walk(ParsedRecord(record), keep=True))


def trick_start(states: Sequence[_State], trick: int) -> _State:
    """The first of ``states`` in which trick ``trick`` (1 for the first) is about to be led.

    Raises:
        LooError: the states never reach that moment.
    """
    for state in states:
        if state.phase is Phase.PLAY and len(state.tricks) == trick - 1 \
                and not state.trick_cards():
            return state
    raise LooError(f"the record never reaches the start of trick {trick}")


def turn_in_trick(states: Sequence[_State], seat: int, trick: int) -> _State:
    """The first of ``states`` in which ``seat`` is to play to trick ``trick``.

    Raises:
        LooError: the states never give ``seat`` that turn.
    """
    for state in states:
        if state.phase is Phase.PLAY and len(state.tricks) == trick - 1 \
                and state.current_player() == seat:
            return state
    raise LooError(f"the record never gives {states[0].players[seat]} a turn in trick {trick}")


def announcing_turn(states: Sequence[DealState], seat: int) -> DealState:
    """The first of ``states`` in which ``seat`` is to announce.

    If the states stop earlier, the seats before it take the first legal
    option the engine lists. If the seat never gets a turn (a simple deal, or
    it has already announced) the last state is given, and the engine
    explains why any announcement is refused.
    """
    for state in states:
        if state.phase is Phase.ANNOUNCE and state.current_player() == seat:
            return state
    state = states[-1]
    while state.phase is Phase.ANNOUNCE and state.current_player() != seat \
            and seat not in dict(state.announcements):
        state = state.apply(state.legal_actions()[0])
    return state


def walk(parsed: ParsedRecord, keep: bool) -> Replay[DealMachine]:
    """Take the record's actions in order until one is refused (CONTRACT §2.2).

    With ``keep`` every state is kept (each action is taken on a copy);
    without, the start is changed in place and ``states`` holds only the last
    (see :func:`take_actions`).
    """
    states = [parsed.start]
    actions: list[Action] = []
    return Replay(states, actions, take_actions(parsed, keep, states, actions))


def take_actions(parsed: ParsedRecord, keep: bool, states: list[DealMachine],
                 actions: list[Action]) -> tuple[Action, Verdict] | None:
    """The one replay loop of every game: the first refused action and its verdict, or ``None``.

    With ``keep`` each action is taken on a copy of the last state, and the
    copy and the action are added to ``states`` and ``actions``; without,
    ``parsed.start`` is changed in place and the lists are left as they are. A
    trick number in ``civil`` makes that trick's lead a
    :class:`~loo_tutor.engine.state.CivilLead`.
    """
    state = parsed.start
    for seat, call in parsed.announce:
        if keep:
            announce = Announce(seat, call)
            if not state.is_legal(announce):
                return _refused(state, announce)
            state = _kept(state, announce, states, actions)
        elif not state.announce_if_legal(seat, call):
            return _refused(state, Announce(seat, call))
    for seat, cards, take in parsed.exchange:
        exchange = Exchange(seat, cards, take)
        if not state.is_legal(exchange):
            return _refused(state, exchange)
        try:
            if keep:
                state = _kept(state, exchange, states, actions)
            else:
                state.push(exchange)
        except LooError as exc:
            raise MalformedRecord(f"stock: {exc}") from None
    if parsed.tricks:
        _check_trick_shape(state, parsed.tricks)
    civil = parsed.civil
    for t, trick in enumerate(parsed.tricks):
        civil_lead = t + 1 in civil
        if not (keep or civil_lead):
            for card in trick:
                if not state.play_if_legal(card):
                    return _refused(state, Play(_to_act(state), card))
            continue
        for i, card in enumerate(trick):
            if keep or (civil_lead and i == 0):
                player = _to_act(state)
                play: Play | CivilLead = (CivilLead(player, card) if civil_lead and i == 0
                                          else Play(player, card))
                if not state.is_legal(play):
                    return _refused(state, play)
                if keep:
                    state = _kept(state, play, states, actions)
                else:
                    state.push(play)
            elif not state.play_if_legal(card):
                return _refused(state, Play(_to_act(state), card))
    return None


def _refused(state: DealMachine, action: Action) -> tuple[Action, Verdict]:
    return action, state.check(action)


def _to_act(state: DealMachine) -> int:
    """The player to play a record's next card: there is one, as the trick shape was checked."""
    player = state.current_player()
    assert player is not None
    return player


def _kept(state: DealMachine, action: Action, states: list[DealMachine],
          actions: list[Action]) -> DealMachine:
    """A copy of ``state`` after the legal ``action``, kept in ``states``."""
    after = state.copy()
    after.push(action)
    states.append(after)
    actions.append(action)
    return after


def phase_of(action: Action) -> str:
    """The phase an action is taken in, as a result names it: ``announce``, ``exchange``, ``play``."""
    if type(action) is Announce:
        return "announce"
    return "exchange" if type(action) is Exchange else "play"


def action_text(action: Action) -> str:
    """An action as ``next.options`` and ``error.action`` write it (CONTRACT §2.4).

    ``stand``, ``7H``, ``AH civil``, ``2C 3D`` (the cards discarded), ``keep``.
    """
    if type(action) is Announce:
        return str(action.announcement.value)
    if type(action) is Exchange:
        return _swap_text(action.cards) + (TAKE_TURNED if action.take_turned else "")
    if type(action) is CivilLead:
        return str(action.card.text) + CIVIL
    return str(cast(Play, action).card.text)  # the one action left


def _check_trick_shape(state: DealMachine, tricks: list[tuple[Card, ...]]) -> None:
    """Structural checks made once the announcements are known to be legal."""
    phase = state.phase
    if phase is _ANNOUNCE:
        raise MalformedRecord("tricks: cards are played before the announcements are finished")
    if phase is _EXCHANGE:
        raise MalformedRecord("tricks: cards are played before the exchanges are finished")
    if state.taken_by_flush():
        raise MalformedRecord("tricks: a flush took the pool without play (V-FLUSH)")
    if state.collected_by is not None:
        raise MalformedRecord("tricks: the pool was collected without play (R-COLLECT)")
    players = len(state.active)
    for t, trick in enumerate(tricks):
        if len(trick) > players:
            raise MalformedRecord(
                f"tricks: the {ordinal(t + 1)} trick has {counted(len(trick), 'card')}, "
                f"but only {counted(players, 'player')} are in the deal"
            )
        if len(trick) < players and t < len(tricks) - 1:
            raise MalformedRecord(
                f"tricks: the {ordinal(t + 1)} trick has {counted(len(trick), 'card')} of "
                f"{players}, yet another trick follows it"
            )


def _swap_text(cards: Sequence[Card]) -> str:
    """An exchange as the result writes it: the cards discarded, or ``keep``."""
    return " ".join(card.text for card in cards) or "keep"
