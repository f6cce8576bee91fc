"""Exercise 4: settle the deal (payouts, who is looed, the carried balance, the next pool)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from ...engine.errors import LooError
from ...engine.rules import RuleId, RuleKey
from ...engine.state import DealState, Seat
from ...records.record import record_from_state
from ..answers import EMPTY, AnswerError, FieldResult, judge_amount, parse_amount, parse_names
from ..narrate import carry_hint, payout_hint
from .base import (
    Answer,
    Exercise,
    Field,
    Kind,
    first_rule,
    join_names,
    right_answer,
    show_amount,
    summed,
    tricks_word,
    wrong_answer,
)

# -- 4. settle the deal ------------------------------------------------------------------


class Settle(Exercise):
    """Exercise 4: what each player receives, who is looed, what carries, the next pool.

    Attributes:
        state: a finished deal.
    """

    kind = Kind.SETTLE

    def __init__(self, state: DealState, seed: int | None) -> None:
        if not state.is_terminal():
            raise LooError("exercise 4 needs a finished deal; this one is not over yet")
        self.state = state
        self.settled = state.settlement()
        names = state.players
        question = ("The deal is over. What does each player receive from the pool, who is "
                    "looed, what is carried to the next deal, and what will the next deal's "
                    "pool be at the start of play?")
        amount = "a whole number (4), a fraction (10/3) or a mixed number (3 1/3)"
        fields = [Field(f"payout:{name}", f"{name} receives", "amount", hint=amount)
                  for name in names]
        fields += [
            Field("looed", "Looed players", "names", names, names,
                  "the looed players' names, or \"nobody\""),
            Field("carried", "Carried to the next deal", "amount", hint=amount),
            Field("next_pool", "The next deal's pool", "amount", hint=amount),
        ]
        super().__init__(seed, question, fields, [record_from_state(state)])

    def _wins(self) -> Counter[Seat | None]:
        return Counter(t.winner for t in self.state.tricks)

    def _why_payout(self, seat: Seat) -> str:
        state = self.state
        name = state.players[seat]
        amount = self.settled.payouts.get(seat, Fraction(0))
        if state.collected_by is not None:
            if seat == state.collected_by:
                return (f"{name} collects the whole pool of {show_amount(state.pool)} without play "
                        "(R-COLLECT).")
            return f"{name} receives nothing: the pool was collected without play (R-COLLECT)."
        if seat == state.defender:
            return f"{name} defended the pool and receives nothing (R-DEFEND)."
        if seat not in state.active:
            return f"{name} passed and receives nothing (R-ANN-PASS)."
        wins = self._wins()[seat]
        if not wins:
            return f"{name} won no trick and receives nothing (R-PAY-THIRD)."
        return (f"{name} won {tricks_word(wins)}, each worth a third of the pool of "
                f"{show_amount(state.pool)}: {show_amount(amount)} (R-PAY-THIRD).")

    def _payout_rule(self, seat: Seat) -> RuleKey | None:
        return first_rule(payout_hint(self.state, seat))

    def _paid(self) -> Fraction:
        return sum(self.settled.payouts.values(), Fraction(0))

    def next_pool(self) -> Fraction:
        """The pool of the next deal at the start of play (R-POOL)."""
        return self.state.next_pool()

    def solution(self) -> tuple[Answer, ...]:
        state, settled = self.state, self.settled
        found = []
        for seat, name in enumerate(state.players):
            amount = settled.payouts.get(seat, Fraction(0))
            found.append(Answer(f"payout:{name}", show_amount(amount), show_amount(amount),
                                self._why_payout(seat), self._payout_rule(seat)))
        looed = [state.players[s] for s in settled.looed]
        if state.collected_by is not None:
            why = "Nobody is looed when the pool is collected without play (R-COLLECT, R-LOO)."
        elif looed:
            why = (f"{join_names(looed)} took part and won no trick, so "
                   f"{'each pays' if len(looed) > 1 else 'pays'} {state.profile.loo} (R-LOO).")
        else:
            why = "Every player who took part won a trick (or defended), so nobody is looed (R-LOO)."
        found.append(Answer("looed", ", ".join(looed) or "nobody", ", ".join(looed) or "nobody",
                            why, RuleId.LOO))
        loo = state.profile.loo
        carried = settled.carried_next
        found.append(Answer(
            "carried", show_amount(carried), show_amount(carried),
            f"The pool of {show_amount(state.pool)}, less {show_amount(self._paid())} paid out, plus "
            f"{loo} for each of {len(settled.looed)} looed: {show_amount(carried)} (R-CARRY).",
            RuleId.CARRY))
        found.append(Answer(
            "next_pool", show_amount(self.next_pool()), show_amount(self.next_pool()),
            f"The carried {show_amount(carried)} plus the next dealer's ante of "
            f"{state.profile.ante}: {show_amount(self.next_pool())} (R-POOL).", RuleId.POOL))
        return tuple(found)

    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        return (("The whole deal, ending with its settlement", record_from_state(self.state)),)

    def _judge(self, field: Field, value: object) -> FieldResult:
        state, settled = self.state, self.settled
        if field.key.startswith("payout:"):
            seat = state.players.index(field.key.split(":", 1)[1])
            try:
                signed = parse_amount(value, signed=True)
            except AnswerError:
                signed = None  # judge_amount says which forms are accepted
            if signed is not None and signed < 0:  # a loss is not something received
                name = state.players[seat]
                if seat in settled.looed:
                    return wrong_answer(RuleId.LOO, f"not right: {name} receives nothing from this "
                                              f"pool; being looed, {name} pays "
                                              f"{state.profile.loo} into the next one (R-LOO).")
                return wrong_answer(self._payout_rule(seat), "not right: write what the player "
                                                       "receives from the pool, never less "
                                                       "than 0.")
            hint = payout_hint(state, seat)
            return judge_amount(value, settled.payouts.get(seat, Fraction(0)),
                                self._payout_rule(seat), hint.text)
        if field.key == "looed":
            return self._judge_looed(value)
        if field.key == "carried":
            given = parse_amount(value)
            looed = len(settled.looed)
            if given is not None and looed and given == state.pool - self._paid():
                return wrong_answer(RuleId.CARRY,
                              f"not right: each looed player pays {state.profile.loo} into the "
                              "pool for the next deal, and that is part of what carries "
                              "(R-CARRY).")
            if given is not None and given == state.next_pool():
                return wrong_answer(RuleId.CARRY, "not right: the carried balance is counted before "
                                            "the next dealer's ante (R-CARRY).")
            return judge_amount(value, settled.carried_next, RuleId.CARRY,
                                carry_hint(state).text)
        given = parse_amount(value)
        if given is not None and given == settled.carried_next:
            return wrong_answer(RuleId.POOL, f"not right: the next dealer adds an ante of "
                                       f"{state.profile.ante} to what is carried (R-POOL).")
        return judge_amount(value, self.next_pool(), RuleId.POOL,
                            f"The next pool is the carried balance plus the next dealer's ante "
                            f"of {state.profile.ante} (R-POOL).")

    def _judge_looed(self, value: object) -> FieldResult:
        state = self.state
        chosen = parse_names(value, state.players)
        if chosen is None:
            return EMPTY
        looed = {state.players[s] for s in self.settled.looed}
        wins = self._wins()
        details = []
        for name in state.players:
            seat = state.players.index(name)
            if name in chosen and name not in looed:
                if state.collected_by is not None:
                    details.append(wrong_answer(RuleId.COLLECT, f"{name} is not looed: the pool was "
                                                          "collected without play (R-COLLECT)."))
                elif seat == state.defender:
                    details.append(wrong_answer(RuleId.DEFEND, f"{name} defended the pool, and a "
                                                         "defender is never looed (R-DEFEND)."))
                elif seat not in state.active:
                    details.append(wrong_answer(RuleId.ANN_PASS, f"{name} passed, and a player who "
                                                           "passes is never looed (R-ANN-PASS)."))
                else:
                    details.append(wrong_answer(RuleId.LOO, f"{name} won {tricks_word(wins[seat])}, "
                                                      "so is not looed (R-LOO)."))
            elif name in looed and name not in chosen:
                details.append(wrong_answer(RuleId.LOO, f"{name} took part and won no trick, so "
                                                  f"{name} is looed and pays "
                                                  f"{state.profile.loo} (R-LOO)."))
        if details:
            return summed(details)
        return right_answer(RuleId.LOO)
