"""Exercise 5: the first illegal action of a deal record and the rule it breaks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine.cards import Card, card_text, parse_card
from ...engine.errors import LooError
from ...engine.legality import Announcement
from ...engine.rules import RuleId, RuleKey
from ...engine.state import (
    Action,
    DealState,
    Verdict,
)
from ...records.record import check, replay
from ..answers import (
    FieldResult,
    parse_choice,
    parse_rule,
)
from ..narrate import (
    narrate_action,
)
from .base import (
    CALL_WORDS,
    SEEDED_RULES,
    Answer,
    Exercise,
    Field,
    Kind,
    cite,
    first_rule,
    right_answer,
    wrong_answer,
)

# -- 5. find the illegal action -------------------------------------------------------------


@dataclass(frozen=True)
class _Item:
    """One action of a record, as exercise 5 lists it."""

    label: str
    before: DealState | None
    action: Action | None
    after: DealState | None


class FindIllegal(Exercise):
    """Exercise 5: which action of a record is the first illegal one, and which rule does it break?

    Attributes:
        record: the record, which :func:`~loo_tutor.records.record.check` finds illegal.
        items: every action of the record, in order.
        bad: the position in ``items`` of the first illegal action.
        verdict: the engine's refusal of it.
        offered: the rules the exercise offers as answers.
    """

    kind = Kind.FIND_ILLEGAL

    def __init__(self, record: Mapping[str, Any], seed: int | None,
                 offered: Sequence[RuleId] = SEEDED_RULES) -> None:
        result = check(record)
        if result["status"] != "illegal":
            raise LooError("exercise 5 needs a record with an illegal action; every action of "
                           "this one is legal")
        self.record = dict(record)
        played = replay(record)
        assert played.refused is not None
        self.start = played.states[0]
        self.items, self.bad = _record_items(self.record, played.states, played.actions,
                                             played.refused[0])
        self.verdict: Verdict = played.refused[1]
        self.offered = tuple(offered)
        if self.rule not in self.offered:
            raise LooError(f"exercise 5 offers {', '.join(r.value for r in self.offered)}, "
                           f"not the rule this record breaks ({self.rule})")
        question = ("Every action of this deal record is listed below in order. Which is the first "
                    "illegal one, and which rule does it break?")
        options = tuple(str(i + 1) for i in range(len(self.items)))
        fields = [
            Field("action", "The first illegal action", "choice", options,
                  tuple(f"{i + 1}. {item.label}" for i, item in enumerate(self.items)),
                  "the number of the action"),
            Field("rule", "The rule it breaks", "rule", tuple(r.value for r in self.offered),
                  tuple(f"{r.value} ({r.heading})" for r in self.offered), "a rule ID, e.g. R-FOLLOW"),
        ]
        super().__init__(seed, question, fields, [self.record])

    @property
    def rule(self) -> RuleKey:
        """The rule the first illegal action breaks."""
        assert self.verdict.rule is not None
        return self.verdict.rule

    def solution(self) -> tuple[Answer, ...]:
        label = self.items[self.bad].label
        number = str(self.bad + 1)
        return (
            Answer("action", number, f"{number}. {label}",
                   f"Every earlier action is legal, and the engine refuses this one: "
                   f"{self.verdict.message}", self.rule),
            Answer("rule", self.rule.value, f"{self.rule.value} ({self.rule.heading})",
                   cite(self.verdict.message, self.rule), self.rule),
        )

    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        return (("The record, up to the action the engine refuses", self.record),)

    def _judge(self, field: Field, value: object) -> FieldResult:
        if field.key == "rule":
            given = parse_rule(value)
            if given == self.rule:
                return right_answer(self.rule)
            shown = "that" if given is None else given.value
            return wrong_answer(self.rule, f"The engine refuses this action under {self.rule.value} "
                                     f"({self.rule.heading}), not {shown}: "
                                     + cite(self.verdict.message, self.rule))
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str):
            value = value.strip().rstrip(".")
        number = parse_choice(value, field.options, "action number")
        assert number is not None
        index = int(number) - 1
        if index == self.bad:
            return right_answer(None, "right: this is the first action the engine refuses")
        item = self.items[index]
        later = index > self.bad
        where = " The first illegal action comes earlier." if later else ""
        if item.before is None or item.action is None or item.after is None:
            return wrong_answer(None, f"Action {number} comes after the first illegal one; the record "
                                "is checked in order and the check stops there.")
        verdict = item.before.check(item.action)
        if not verdict:
            return wrong_answer(verdict.rule, f"Action {number} breaks a rule too, but an earlier "
                                        f"action is already illegal ({verdict.rule}).")
        told = narrate_action(item.before, item.action, item.after)
        return wrong_answer(first_rule(told), f"Action {number} is legal: {told.text}{where}")


def _record_items(record: Mapping[str, Any], states: Sequence[DealState],
                  actions: Sequence[Action], refused: Action
                  ) -> tuple[tuple[_Item, ...], int]:
    """Every action of an illegal record, with the states around it where they are known.

    The legal prefix comes from the engine's replay; the check stops at the
    refused action, so the states after it are not known. Every action is
    labelled in the same form wherever it stands (:func:`_labels`), so that
    the wording never tells where the illegal action is.
    """
    calls = [(str(k), v) for k, v in dict(record.get("announce") or {}).items()]
    cards = [(t, k, parse_card(c)) for t, trick in enumerate(record.get("tricks") or [])
             for k, c in enumerate(trick)]
    labels = _labels(calls, cards)
    items: list[_Item] = []
    for i, taken in enumerate(actions):
        items.append(_Item(labels[i], states[i], taken, states[i + 1]))
    bad = len(items)
    items.append(_Item(labels[bad], states[-1], refused, None))
    items += [_Item(label, None, None, None) for label in labels[bad + 1:]]
    return tuple(items), bad


def _labels(calls: Sequence[tuple[str, object]], cards: Sequence[tuple[int, int, Card]]
            ) -> list[str]:
    """How exercise 5 lists each action of a record: from the record alone, in one form
    wherever the action stands.

    An announcement is ``Anna: take the miss``; a card is ``trick 2, card 1: Q♣``,
    as the record lists it, without a player. Naming players would name them
    only as far as the check goes: after the illegal action nobody's turn is
    known, and the players who played the later cards in the deal the record
    was made from are not the ones whose turn it would be.
    """
    said = []
    for name, word in calls:
        call = _call(word)
        said.append(f"{name}: {CALL_WORDS[call] if call is not None else str(word).strip()}")
    return said + [f"trick {t + 1}, card {k + 1}: {card_text(card)}" for t, k, card in cards]


def _call(word: object) -> Announcement | None:
    """The announcement a record's word names, or ``None``."""
    try:
        return Announcement(str(word).strip().lower())
    except ValueError:
        return None
