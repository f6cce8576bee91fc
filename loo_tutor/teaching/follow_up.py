"""A short follow-up sheet for one student: new exercises aimed at the rules they missed.

:func:`missed_rules` reads a student's score against an assignment: the rule
behind each exercise they got wrong (or could not be read, or whose solution
they were shown). :func:`aimed_at` asks the engine for new exercises until each
one turns on a missed rule, that is, until the rule is behind a part of its
answer (:attr:`~loo_tutor.teaching.exercises.Answer.rule`). The seeds are drawn
from the student's name and the assignment, so the same marking writes the same
sheets.

>>> from loo_tutor.engine.rules import RuleId
>>> found, lost = aimed_at([RuleId.HEAD], "Ann Smith, a-1")
>>> [RuleId.HEAD in {a.rule for a in e.solution()} for e in found], lost
([True, True], [])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from ..engine.rules import RuleKey, rule_by_id
from .exercises import Exercise, Kind, make
from .marking import SOLUTION, UNREADABLE, WRONG, Mark
from .score import Outcome, Score

PER_RULE = 2
"""Exercises on the follow-up sheet for each rule missed."""
MOST_RULES = 5
"""The most rules one follow-up sheet aims at (the ones missed most often)."""
TRIES = 800
"""How many exercises the engine makes, at most, looking for those that turn on one rule."""
_SEEDS = 1_000_000


def missed_rules(score: Score[Mark]) -> list[RuleKey]:
    """The rules behind the exercises a student did not get right, most often missed first.

    A wrong answer gives the rule behind its first wrong part; an answer that
    could not be read, and an exercise whose solution was shown, give the
    rules behind every part of the engine's answer. Exercises not answered
    give none.
    """
    counted: Counter[RuleKey] = Counter()
    order: list[RuleKey] = []
    for item in score.items:
        if item.is_right or item.outcome is Outcome.NOT_ANSWERED or item.last is None:
            continue
        found: Iterable[RuleKey | None]
        if item.last.verdict == WRONG:
            found = [rule_by_id(item.last.rule)]
        elif item.last.verdict in (UNREADABLE, SOLUTION):
            found = [answer.rule for answer in make(Kind.parse(item.kind), item.seed).solution()]
        else:
            found = []
        for rule in found:
            if rule is None:
                continue
            if rule not in counted:
                order.append(rule)
            counted[rule] += 1
    return sorted(order, key=lambda rule: -counted[rule])[:MOST_RULES]


def turns_on(exercise: Exercise, rule: RuleKey) -> bool:
    """Whether ``rule`` is behind some part of the engine's answer to ``exercise``."""
    return any(answer.rule == rule for answer in exercise.solution())


def aimed_at(rules: Sequence[RuleKey], seed_text: str, avoid: Iterable[tuple[str, int]] = ()
             ) -> tuple[list[Exercise], list[RuleKey]]:
    """New exercises, :data:`PER_RULE` for each of ``rules``, each turning on its rule.

    Args:
        rules: the rules to aim at, in order.
        seed_text: what the seeds are drawn from (the student and the assignment).
        avoid: exercises not to set again, as ``(kind name, seed)``.

    Returns:
        the exercises, rule by rule, and the rules for which :data:`TRIES`
        exercises found none.
    """
    rng = random.Random(f"loo-tutor follow-up {seed_text}")
    taken = set(avoid)
    chosen: list[Exercise] = []
    lost: list[RuleKey] = []
    kinds = list(Kind)
    for rule in rules:
        found = 0
        for _ in range(TRIES):
            kind, seed = rng.choice(kinds), rng.randrange(_SEEDS)
            if (kind.word, seed) in taken:
                continue
            exercise = make(kind, seed)
            if turns_on(exercise, rule):
                taken.add((kind.word, seed))
                chosen.append(exercise)
                found += 1
                if found == PER_RULE:
                    break
        if not found:
            lost.append(rule)
    return chosen, lost
