"""Exercise 6: a short session, the pool left and every balance after the end split."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from ...engine.errors import LooError
from ...engine.rules import RuleId
from ...engine.session import end_share
from ...engine.state import (
    DealState,
)
from ...records.record import record_from_state
from ..answers import (
    SIGNED_FORMS,
    FieldResult,
    judge_amount,
    parse_amount,
)
from .base import (
    Answer,
    Exercise,
    Field,
    Kind,
    join_names,
    show_amount,
    show_signed,
    wrong_answer,
)

# -- 6. a short session ---------------------------------------------------------------------


class SessionNet(Exercise):
    """Exercise 6: the pool left after a short session, and every final net balance.

    Attributes:
        deals: the session's deals, each played to its end, in order.
    """

    kind = Kind.SESSION

    def __init__(self, deals: Sequence[DealState], seed: int | None) -> None:
        if not deals:
            raise LooError("exercise 6 needs at least one deal")
        first = deals[0]
        for number, deal in enumerate(deals, 1):
            if not deal.is_terminal():
                raise LooError(f"exercise 6: deal {number} is not finished")
            if deal.players != first.players:
                raise LooError(f"exercise 6: deal {number} has other players than deal 1")
        for number, (one, two) in enumerate(itertools.pairwise(deals), 2):
            if two.dealer != (one.dealer + 1) % len(one.players):
                raise LooError(f"exercise 6: deal {number} is not dealt by the player on the "
                               "previous dealer's left (R-SEAT-ROTATE)")
            if two.carried != one.settlement().carried_next:
                raise LooError(f"exercise 6: deal {number} does not carry what deal "
                               f"{number - 1} left (R-CARRY)")
        self.deals = tuple(deals)
        names = first.players
        count = len(self.deals)
        question = (f"{join_names(list(names))} play a session of {count} "
                    f"deal{'s' if count > 1 else ''}, starting with every balance and the pool at "
                    "0; the deals are summarised below. After the last deal, what is left in the "
                    "pool is shared equally among all the players. How much is left in the pool, "
                    "and what is each player's net balance after the split?")
        fields = [Field("left", "Left in the pool after the last deal", "amount",
                        hint="a whole number, a fraction or a mixed number")]
        fields += [Field(f"net:{name}", f"{name}'s final balance", "signed", hint=SIGNED_FORMS)
                   for name in names]
        super().__init__(seed, question, fields, [record_from_state(d) for d in self.deals])

    def left(self) -> Fraction:
        """What is in the pool after the last deal (its carried balance, R-CARRY)."""
        return self.deals[-1].settlement().carried_next

    def before_split(self) -> dict[str, Fraction]:
        """Every balance after the last deal: the sum of the deals' net changes."""
        names = self.deals[0].players
        totals = dict.fromkeys(names, Fraction(0))
        for deal in self.deals:
            for seat, change in deal.settlement().net.items():
                totals[names[seat]] += change
        return totals

    def final(self) -> dict[str, Fraction]:
        """Every balance after the pool is shared equally (R-SESSION-END)."""
        share = end_share(self.left(), len(self.deals[0].players))
        return {name: value + share for name, value in self.before_split().items()}

    def solution(self) -> tuple[Answer, ...]:
        left = self.left()
        count = len(self.deals[0].players)
        found = [Answer("left", show_amount(left), show_amount(left),
                        f"Deal {len(self.deals)} leaves {show_amount(left)} to carry (R-CARRY).",
                        RuleId.CARRY)]
        before = self.before_split()
        share = left / count
        for seat, (name, value) in enumerate(self.final().items()):
            changes = " ".join(show_signed(d.settlement().net[seat]) for d in self.deals)
            found.append(Answer(
                f"net:{name}", show_amount(value), show_signed(value),
                f"{name}'s changes deal by deal: {changes}, making {show_signed(before[name])}; "
                f"plus a share of {show_amount(left)} / {count} = {show_amount(share)}: {show_signed(value)} "
                "(R-SESSION-END).", RuleId.SESSION_END))
        return tuple(found)

    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        return tuple((f"Deal {i}", record) for i, record in enumerate(self.records, 1))

    def _judge(self, field: Field, value: object) -> FieldResult:
        if field.key == "left":
            return judge_amount(value, self.left(), RuleId.CARRY,
                                "What is left is the last deal's carried balance: its pool, less "
                                "what was paid out, plus 3 for each looed player (R-CARRY).")
        name = field.key.split(":", 1)[1]
        given = parse_amount(value, signed=True)
        right = self.final()[name]
        if given is None or given == right:
            return judge_amount(value, right, RuleId.SESSION_END, "", signed=True)
        names = self.deals[0].players
        seat = names.index(name)
        ante = self.deals[0].profile.ante
        loo = self.deals[0].profile.loo
        dealt = sum(d.dealer == seat for d in self.deals)
        looed = sum(seat in d.settlement().looed for d in self.deals)
        if self.left() and given == self.before_split()[name]:
            return wrong_answer(RuleId.SESSION_END, f"not right: after the last deal the "
                                              f"{show_amount(self.left())} left in the pool is shared "
                                              "equally among all the players (R-SESSION-END).")
        if dealt and given == right + ante * dealt:
            return wrong_answer(RuleId.DEAL_ANTE, f"not right: {name} dealt {dealt} time"
                                            f"{'s' if dealt > 1 else ''} and paid the ante of "
                                            f"{ante} each time (R-DEAL-ANTE).")
        if looed and given == right + loo * looed:
            return wrong_answer(RuleId.LOO, f"not right: {name} was looed {looed} time"
                                      f"{'s' if looed > 1 else ''} and paid {loo} each time "
                                      "(R-LOO).")
        return judge_amount(value, right, RuleId.SESSION_END,
                            "Add up the player's net change in each deal (what they received, "
                            "less the ante when dealing and 3 when looed), then add an equal "
                            "share of what is left in the pool (R-SESSION-END).", signed=True)
