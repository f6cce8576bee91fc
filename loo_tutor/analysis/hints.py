"""Hints and reviews from the best-play solver (:mod:`loo_tutor.analysis.solver`).

* :func:`hint`: the best card for the player to move and one plain sentence
  saying why.
* :func:`review`: every card one seat played in a finished deal, with what
  it was worth against the best card at that moment.
* :func:`avoidable_loo`: "could this player have avoided the loo?" over a
  finished deal or a deal record.

What "best play" means here, in every sentence these functions write: from
the moment judged on, every player, the one asked about included, sees every
hand and plays for their own result in this deal (the order of preference of
:mod:`loo_tutor.analysis.solver`). The hints and reviews say so in their own
words ("if everyone plays their best for themselves from here, with every
hand seen"), because players who play otherwise, as the computer players of a
practice session do, can leave a deal ending otherwise than best play would.
What a deal as played did end with is the engine's settlement, and
:func:`played_result` says it.

>>> from loo_tutor.records.data import example
>>> from loo_tutor.records.record import replay
>>> states = replay(example("forced-ace")).states
>>> start = next(s for s in states if s.phase.value == "play")
>>> print(hint(start).sentence)  # doctest: +NORMALIZE_WHITESPACE
Play A♥, your only legal card: if everyone plays their best for themselves from here,
with every hand seen, you win two tricks (+8).
>>> print(played_result(states[-1], "A"))
In the deal as played you won two tricks (+8).
>>> print(avoidable_loo(states[-1], "C").sentence)  # doctest: +NORMALIZE_WHITESPACE
No: at none of C's cards would another card have won C a trick, had everyone played their best
for themselves from there, with every hand seen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any

from ..engine.cards import Card, card_text
from ..engine.errors import LooError
from ..engine.state import DealMachine, DealState, Phase, Seat, Settlement, signed_text
from ..records.record import record_from_state, replay
from .solver import Outcome, Solver

_WORDS = {0: "no", 1: "one", 2: "two", 3: "three"}

IF_BEST = "if everyone plays their best for themselves from here, with every hand seen"
"""The assumption of every hint, in the words the hint uses."""

HAD_BEST = "had everyone played their best for themselves from there, with every hand seen"
"""The same assumption looking back, in the words a review uses."""

FinishedDeal = DealState | Sequence[DealState] | Mapping[str, Any]
"""A finished deal: its last state, every state it went through, or its record."""


def settled_amount(settlement: Settlement, seat: Seat) -> Fraction:
    """What ``seat`` gains or loses by the play: payout, less a loo (the ante not counted)."""
    won = settlement.payouts.get(seat, Fraction(0))
    return won - settlement.loo if seat in settlement.looed else won


def result(state: DealState, outcome: Outcome, seat: Seat) -> Fraction:
    """What ``seat`` gains or loses by the play of ``outcome`` (see :func:`settled_amount`)."""
    return settled_amount(outcome.settlement, seat)


def _tricks(count: int) -> str:
    word = _WORDS.get(count, str(count))
    return f"{word} trick" if count == 1 else f"{word} tricks"


_VERBS = {  # the verbs for winning and for being looed, by person and tense
    "present": ("wins", "is looed"),
    "would have": ("would have won", "would have been looed"),
    "you, present": ("win", "are looed"),
    "you, would": ("would win", "would be looed"),
    "you, would have": ("would have won", "would have been looed"),
    "you, past": ("won", "were looed"),
}


def _end(state: DealState, won: int, settlement: Settlement, seat: Seat, person: str,
         tense: str) -> str:
    """``seat``'s end of a deal in a few words, e.g. "you win one trick (+4)"."""
    win, looed = _VERBS[tense if person != "you" else f"you, {tense}"]
    if seat == state.defender:
        return f"{person} {win} {_tricks(won)} for the pool"
    amount = signed_text(settled_amount(settlement, seat))
    if seat in settlement.looed:
        return f"{person} {looed} ({amount})"
    return f"{person} {win} {_tricks(won)} ({amount})"


def describe(state: DealState, outcome: Outcome, seat: Seat, person: str = "you") -> str:
    """``seat``'s end of the deal in a few words, e.g. "you win one trick (+4)"."""
    return _end(state, outcome.tricks[seat], outcome.settlement, seat, person, "present")


def _would(state: DealState, outcome: Outcome, seat: Seat, tense: str = "would") -> str:
    return _end(state, outcome.tricks[seat], outcome.settlement, seat, "you", tense)


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
        sentence: one plain sentence for the reader, stating what it assumes.
    """

    seat: Seat
    card: Card
    outcome: Outcome
    outcomes: dict[Card, Outcome]
    sentence: str


def hint(state: DealState, solver: Solver | None = None) -> Hint:
    """The best card for the player to move and one sentence explaining it.

    The sentence states its assumption (:data:`IF_BEST`): what it promises
    holds when every player from here plays their best for themselves.

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
        sentence = f"Play {name}, your only legal card: {IF_BEST}, {said}."
        return Hint(seat, best.card, best, outcomes, sentence)
    worse = [o for o in outcomes.values() if _rank(state, o, seat) < _rank(state, best, seat)]
    if worse:
        worst = min(worse, key=lambda o: (_rank(state, o, seat), o.card.rank, o.card.suit))
        sentence = (f"Play {name}: {IF_BEST}, {said}; with {card_text(worst.card)} "
                    f"{_would(state, worst, seat)}.")
    elif all(o.tricks == best.tricks for o in outcomes.values()):
        sentence = f"Play {name}, the lowest: {IF_BEST}, {said} whichever card you play."
    elif any(len(o.looed) < len(best.looed) for o in outcomes.values()):
        sentence = (f"Play {name}: {IF_BEST}, {said} whichever card you play, "
                    f"and {name} does the most for the loo (it loos more of the others).")
    else:
        sentence = (f"Play {name}: {IF_BEST}, {said} whichever card you play; "
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
        sentence: one sentence for the reader, stating what it assumes.
    """

    trick: int
    before: DealState
    played: Outcome
    best: Outcome
    lost: Fraction
    sentence: str


def _states(deal: FinishedDeal) -> list[DealState]:
    if isinstance(deal, DealMachine):
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


def review(deal: FinishedDeal, seat: Seat | str, solver: Solver | None = None) -> list[CardReview]:
    """Every card ``seat`` played, with its value against the best card then.

    ``deal`` is a finished (or partly played) deal: its last state, the list
    of its states, or its record. Each card is judged by what it would have
    led to had everyone played their best from there (:data:`HAD_BEST`); a
    card that was the only legal one is named as such, with no judgement.

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
        name = card_text(card)
        if len(outcomes) == 1:
            sentence = f"{name} was your only legal card."
        elif lost > 0 or played.tricks[who] < best.tricks[who]:
            sentence = (f"{name} lost value and {card_text(best.card)} was better: {HAD_BEST}, "
                        f"with {name} {_would(before, played, who, 'would have')}, with "
                        f"{card_text(best.card)} {_would(before, best, who, 'would have')}.")
        else:
            sentence = (f"{name} was as good as any card: {HAD_BEST}, "
                        f"{_would(before, played, who, 'would have')}.")
        out.append(CardReview(len(before.tricks) + 1, before, played, best, lost, sentence))
    return out


def played_result(state: DealState, seat: Seat | str,
                  reviews: Sequence[CardReview] = ()) -> str:
    """How a finished deal as played ended for ``seat``, as the engine settled it.

    With the :func:`review` of the seat's cards, the sentence also says where
    the others' play first took the deal away from what best play promised
    after one of the seat's cards (the seat's own cards that lost value are
    the review's to name).

    Raises:
        LooError: the deal is not over, or no such seat.
    """
    who = _seat(state, seat)
    settlement = state.settlement()
    if who not in state.active:
        return "You were not in the deal as played."
    won = sum(1 for trick in state.tricks if trick.winner == who)
    text = f"In the deal as played {_end(state, won, settlement, who, 'you', 'past')}."
    ended = (won, who in settlement.looed)
    then = [(item.best.tricks[who], who in item.best.looed) for item in reviews[1:]]
    for item, after in zip(reviews, [*then, ended], strict=False):  # no review: no promise
        if (item.played.tricks[who], who in item.played.looed) != after:
            return (f"{text} Had everyone played their best for themselves after your card in "
                    f"trick {item.trick}, with every hand seen, "
                    f"{_would(item.before, item.played, who, 'would have')}: some of the "
                    "others' cards after it were not the ones best play has them play.")
    return text


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


def avoidable_loo(deal: FinishedDeal, seat: Seat | str, solver: Solver | None = None) -> LooCheck:
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
            ended = _end(before, better.tricks[who], better.settlement, who, name, "would have")
            sentence = (f"Yes: in trick {len(before.tricks) + 1} {name} played "
                        f"{card_text(card)}; with {card_text(better.card)} instead, {HAD_BEST}, "
                        f"{ended}.")
            return LooCheck(who, True, before, card, better, sentence)
    return LooCheck(who, True, None, None, None,
                    f"No: at none of {name}'s cards would another card have won {name} a "
                    f"trick, {HAD_BEST}.")
