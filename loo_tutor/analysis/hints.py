"""Hints and reviews from the best-play solver (:mod:`loo_tutor.analysis.solver`).

* :func:`hint`: the best card for the player to move and one plain sentence
  saying why.
* :func:`review`: every card one seat played in a finished deal, with what
  it was worth against the best card at that moment.
* :func:`avoidable_loo`: "could this player have avoided the loo?" over a
  finished deal or a deal record.

All of them look at every hand ("with best play by everyone, all cards
known"), so they judge the play after the event, not what a player could
see at the table.

>>> from loo_tutor.records.data import example
>>> from loo_tutor.records.record import replay
>>> states = replay(example("forced-ace")).states
>>> start = next(s for s in states if s.phase.value == "play")
>>> print(hint(start).sentence)
Play A♥: it is your only legal card; with best play you win two tricks (+8).
>>> print(avoidable_loo(states[-1], "C").sentence)
No: at none of C's cards would another card have won C a trick with best play by everyone from then on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any

from ..engine.cards import Card, card_text
from ..engine.errors import LooError
from ..engine.state import DealState, Phase, Seat, signed_text
from ..records.record import record_from_state, replay
from .solver import Outcome, Solver

_WORDS = {0: "no", 1: "one", 2: "two", 3: "three"}

Deal = DealState | Sequence[DealState] | Mapping[str, Any]
"""A finished deal: its last state, every state it went through, or its record."""


def result(state: DealState, outcome: Outcome, seat: Seat) -> Fraction:
    """What ``seat`` gains or loses by the play: payout, less a loo (the ante not counted)."""
    won = outcome.payouts.get(seat, Fraction(0))
    return won - state.profile.loo if seat in outcome.looed else won


def _tricks(count: int) -> str:
    word = _WORDS.get(count, str(count))
    return f"{word} trick" if count == 1 else f"{word} tricks"


def describe(state: DealState, outcome: Outcome, seat: Seat, person: str = "you") -> str:
    """``seat``'s end of the deal in a few words, e.g. "you win one trick (+4)"."""
    won = outcome.tricks[seat]
    be, win = ("are", "win") if person == "you" else ("is", "wins")
    if seat == state.defender:
        return f"{person} {win} {_tricks(won)} for the pool"
    if seat in outcome.looed:
        return f"{person} {be} looed ({signed_text(result(state, outcome, seat))})"
    return f"{person} {win} {_tricks(won)} ({signed_text(result(state, outcome, seat))})"


def _would(state: DealState, outcome: Outcome, seat: Seat) -> str:
    won = outcome.tricks[seat]
    if seat == state.defender:
        return f"you would win {_tricks(won)} for the pool"
    if seat in outcome.looed:
        return f"you would be looed ({signed_text(result(state, outcome, seat))})"
    return f"you would win {_tricks(won)} ({signed_text(result(state, outcome, seat))})"


def _rank(state: DealState, outcome: Outcome, seat: Seat) -> tuple[int, Fraction]:
    """How ``seat`` ranks an outcome for itself: tricks, then money."""
    return outcome.tricks[seat], result(state, outcome, seat)


@dataclass(frozen=True)
class Hint:
    """The best card for the player to move, and why.

    Attributes:
        seat: the player to move.
        card: the card to play (the lowest, among cards that do equally well).
        outcome: what the card leads to with best play by everyone.
        outcomes: every legal card's outcome, in the engine's order.
        sentence: one plain sentence for the reader.
    """

    seat: Seat
    card: Card
    outcome: Outcome
    outcomes: dict[Card, Outcome]
    sentence: str


def hint(state: DealState, solver: Solver | None = None) -> Hint:
    """The best card for the player to move and one sentence explaining it.

    Raises:
        LooError: the deal is not in its play phase.
    """
    solver = solver or Solver()
    outcomes = solver.solve(state)
    seat: Seat = state.current_player()  # type: ignore[assignment]
    best = solver.best(state, outcomes)
    said = describe(state, best, seat)
    name = card_text(best.card)
    if len(outcomes) == 1:
        sentence = f"Play {name}: it is your only legal card; with best play {said}."
        return Hint(seat, best.card, best, outcomes, sentence)
    worse = [o for o in outcomes.values() if _rank(state, o, seat) < _rank(state, best, seat)]
    if worse:
        worst = min(worse, key=lambda o: (_rank(state, o, seat), o.card.rank, o.card.suit))
        sentence = (f"Play {name}: with best play {said}; with {card_text(worst.card)} "
                    f"{_would(state, worst, seat)}.")
    elif all(o.tricks == best.tricks for o in outcomes.values()):
        sentence = (f"Play {name}: with best play {said} whichever card you play, "
                    f"and {name} is the lowest.")
    elif any(len(o.looed) < len(best.looed) for o in outcomes.values()):
        sentence = (f"Play {name}: with best play {said} whichever card you play, "
                    f"and {name} does the most for the loo (it loos more of the others).")
    else:
        sentence = (f"Play {name}: with best play {said} whichever card you play; "
                    f"{name} is the one the solver settles on when results tie.")
    return Hint(seat, best.card, best, outcomes, sentence)


def _top(state: DealState, outcomes: Sequence[Outcome], seat: Seat) -> Outcome:
    """The outcome best for ``seat`` itself; the lowest card among equals."""
    return max(outcomes, key=lambda o: (_rank(state, o, seat), -o.card.rank, -o.card.suit))


@dataclass(frozen=True)
class CardReview:
    """One card a seat played, judged with every hand known.

    Attributes:
        trick: the trick it was played to (1–3).
        before: the state in which it was played.
        played: what the card played led to with best play afterwards.
        best: what the best card led to.
        lost: how much the seat's result was worse for it (0 if nothing).
        sentence: one sentence for the reader.
    """

    trick: int
    before: DealState
    played: Outcome
    best: Outcome
    lost: Fraction
    sentence: str


def _states(deal: Deal) -> list[DealState]:
    if isinstance(deal, DealState):
        return replay(record_from_state(deal)).states
    if isinstance(deal, Mapping):
        return replay(deal).states
    return list(deal)


def _seat(state: DealState, seat: Seat | str) -> Seat:
    if isinstance(seat, str) and seat in state.players:
        return state.players.index(seat)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.players):
        return seat
    raise LooError(f"{seat!r} is not one of the players ({', '.join(state.players)})")


def _decisions(states: list[DealState], seat: Seat) -> list[tuple[DealState, Card]]:
    """The moments ``seat`` played a card, and the card."""
    out = []
    for before, after in pairwise(states):
        if before.phase is Phase.PLAY and before.current_player() == seat:
            played = [c for c in before.held[seat] if c not in after.held[seat]]
            out.append((before, played[0]))
    return out


def review(deal: Deal, seat: Seat | str, solver: Solver | None = None) -> list[CardReview]:
    """Every card ``seat`` played, with its value against the best card then.

    ``deal`` is a finished (or partly played) deal: its last state, the list
    of its states, or its record.

    Raises:
        LooError: no such seat. MalformedRecord: the record is not a deal.
    """
    states = _states(deal)
    who = _seat(states[0], seat)
    solver = solver or Solver()
    out = []
    for before, card in _decisions(states, who):
        outcomes = solver.solve(before)
        best = solver.best(before, outcomes)
        played = outcomes[card]
        lost = result(before, best, who) - result(before, played, who)
        if lost > 0 or played.tricks[who] < best.tricks[who]:
            sentence = (f"{card_text(card)} lost value: with best play "
                        f"{describe(before, played, who)}; {card_text(best.card)} was better, "
                        f"{_would(before, best, who)}.")
        else:
            sentence = f"{card_text(card)} was as good as any card: {describe(before, played, who)}."
        out.append(CardReview(len(before.tricks) + 1, before, played, best, lost, sentence))
    return out


@dataclass(frozen=True)
class LooCheck:
    """The answer to "could this player have avoided the loo?".

    Attributes:
        seat: the player asked about.
        looed: whether the player was looed in the deal.
        at: the first moment another card would have avoided the loo with
            best play, or ``None``.
        played: the card actually played at that moment.
        instead: what the better card led to.
        sentence: the answer in one sentence.
    """

    seat: Seat
    looed: bool
    at: DealState | None
    played: Card | None
    instead: Outcome | None
    sentence: str


def avoidable_loo(deal: Deal, seat: Seat | str, solver: Solver | None = None) -> LooCheck:
    """Could ``seat`` have avoided being looed in a finished deal?

    Walks the cards ``seat`` played in order and reports the first moment at
    which the card played leaves the seat looed with best play by everyone
    while another legal card would have won a trick. Only cards are judged:
    a double deal's announcements (passing, for one) are not.

    Raises:
        LooError: the deal is not finished, or no such seat.
        MalformedRecord: the record is not a deal.
    """
    states = _states(deal)
    last = states[-1]
    who = _seat(last, seat)
    name = last.players[who]
    if last.phase is not Phase.OVER:
        raise LooError("the deal is not finished, so nobody has been looed yet")
    if who not in last.settlement().looed:
        return LooCheck(who, False, None, None, None, f"{name} was not looed in this deal.")
    solver = solver or Solver()
    for before, card in _decisions(states, who):
        outcomes = solver.solve(before)
        if who not in outcomes[card].looed:
            continue
        escapes = [o for o in outcomes.values() if who not in o.looed]
        if escapes:
            better = _top(before, escapes, who)
            sentence = (f"Yes: in trick {len(before.tricks) + 1} {name} played "
                        f"{card_text(card)}; with {card_text(better.card)} instead and best "
                        f"play by everyone, {describe(before, better, who, name)}.")
            return LooCheck(who, True, before, card, better, sentence)
    return LooCheck(who, True, None, None, None,
                    f"No: at none of {name}'s cards would another card have won {name} a "
                    "trick with best play by everyone from then on.")
