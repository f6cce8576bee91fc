"""Wrong answers made from right ones, for the tests of marking.

:func:`spoiled` takes the engine's answer to an exercise (its key) and spoils
one part at a time, from the exercise's own fields and options, never from
numbers typed into the tests.
"""

from __future__ import annotations

from typing import Any

from loo_tutor.teaching.answers import parse_amount
from loo_tutor.teaching.exercises import Exercise
from loo_tutor.teaching.marking import key_answer


def _other(options: Any, right: Any) -> Any:
    return next(o for o in options if o != right)


def _spoil(exercise: Exercise, key: str, right: Any) -> Any:
    """A wrong answer to the field ``key``, made from its options and the right answer."""
    form = exercise.field(key).form
    options = exercise.field(key).options
    if form == "cards":
        illegal = [c for c in options if c not in right]
        return [*right, illegal[0]] if illegal else right[1:]
    if form in ("choice", "rule"):
        return _other(options, str(right))
    if form == "yesno":
        return "no" if right == "yes" else "yes"
    if form == "choices":
        if right == ["none"]:
            return ["stand"]
        missing = [o for o in options if o not in right and o != "none"]
        return [*right, missing[0]] if missing else right[1:]
    if form == "names":
        if right == "nobody":
            return [options[0]]
        names = right if isinstance(right, list) else [right]
        return names[1:] or "nobody"
    amount = parse_amount(str(right), signed=True)
    assert amount is not None
    return str(amount + 1)


def spoiled(exercise: Exercise) -> list[tuple[str, Any]]:
    """One answer per part of the exercise, with exactly that part wrong."""
    found = []
    answer = key_answer(exercise)
    for f in exercise.fields:
        head, _, name = f.key.partition(":")
        if not isinstance(answer, dict):
            found.append((f.key, _spoil(exercise, f.key, answer)))
            continue
        copy = {k: dict(v) if isinstance(v, dict) else v for k, v in answer.items()}
        if name:
            group = "payouts" if head == "payout" else head
            copy[group][name] = _spoil(exercise, f.key, copy[group][name])
        else:
            copy[f.key] = _spoil(exercise, f.key, copy[f.key])
        found.append((f.key, copy))
    return found
