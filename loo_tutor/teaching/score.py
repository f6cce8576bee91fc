"""One score for a student's work, wherever it was done: on paper, on the site or in a classroom.

A student *checks* an exercise (kind and seed) some number of times; each
check has the engine's verdict. The same checks always give the same
:class:`Score`, so ``loo-tutor mark``, ``loo-tutor mark --class``, the grade
book and the classroom's teacher page agree when they call :func:`score`.

For each exercise the outcome (:class:`Outcome`) is one of:

* right at the first check;
* right after several checks (:attr:`ItemScore.checks` says how many);
* solution shown: the solution was shown before any right check, and no
  check after it counts as right;
* wrong: checked, never right (an answer that could not be read is wrong);
* not answered: on the assignment, never checked.

Right at the first check and right after several checks are the two
outcomes that count as right. An exercise checked several times counts once.

The checks are any objects with ``kind``, ``seed`` and ``verdict``, such as
:class:`~loo_tutor.teaching.marking.Mark` or the classroom's rows: ``kind``
is the kind's name (``"settle"``), ``verdict`` is ``"right"``, ``"wrong"``,
``"unreadable"``, ``"not an exercise"`` (no exercise has that kind and seed:
it is set apart, never scored) or :data:`SOLUTION` for "the solution was
shown here".

A class's page scores each student the way ``loo-tutor mark --class`` does:
``score([mark for _, mark, _ in book.rows(student)], keys)``, where ``keys``
is ``class_assignment(folder).keys()`` when the class has an assignment
(:mod:`loo_tutor.teaching.assignment`) and ``None`` otherwise.

>>> from dataclasses import dataclass
>>> @dataclass
... class C:
...     kind: str
...     seed: int
...     verdict: str
>>> done = score([C("settle", 4, "wrong"), C("settle", 4, "right"), C("trick", 2, SOLUTION),
...               C("trick", 2, "right")], [("settle", 4), ("trick", 2), ("dealer", 9)])
>>> [(i.kind, i.outcome.value, i.checks) for i in done.items]
[('settle', 'right after several checks', 2), ('trick', 'solution shown', 0), ('dealer', 'not answered', 0)]
>>> done.line()
'1 of 3 right'
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from .exercises import Kind

RIGHT, WRONG, UNREADABLE, NOT_AN_EXERCISE = "right", "wrong", "unreadable", "not an exercise"
"""The verdicts a check can carry (:class:`~loo_tutor.teaching.marking.Mark` gives them)."""

SOLUTION = "solution shown"
"""The verdict of the event "the solution of this exercise was shown"."""


class Outcome(str, enum.Enum):
    """What became of one exercise; its value is how a person reads it."""

    RIGHT_FIRST = "right at the first check"
    """Right at the first check."""
    RIGHT_AFTER = "right after several checks"
    """Right, after one or more checks that were not."""
    SOLUTION_SHOWN = "solution shown"
    """The solution was shown before any right check; never right afterwards."""
    WRONG = "wrong"
    """Checked, never right."""
    NOT_ANSWERED = "not answered"
    """On the assignment, never checked."""

    @property
    def is_right(self) -> bool:
        """Whether the exercise counts as right."""
        return self in (Outcome.RIGHT_FIRST, Outcome.RIGHT_AFTER)


class Checked(Protocol):
    """One check of an exercise: what :func:`score` reads."""

    @property
    def kind(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def verdict(self) -> str: ...


C = TypeVar("C", bound=Checked)


@dataclass(frozen=True)
class ItemScore(Generic[C]):
    """One exercise's outcome.

    Attributes:
        kind: the kind's name.
        seed: the seed.
        outcome: what became of it.
        checks: the checks made until it was right, or until the solution
            was shown, or in all (wrong); 0 when never checked.
        last: the check that decided the outcome (the right one, or the last
            one made), or ``None``.
    """

    kind: str
    seed: int
    outcome: Outcome
    checks: int
    last: C | None = None

    @property
    def is_right(self) -> bool:
        """Whether the exercise counts as right."""
        return self.outcome.is_right


@dataclass(frozen=True)
class Score(Generic[C]):
    """A student's work, one outcome per exercise.

    Attributes:
        items: the exercises in the assignment's order, or else in the order
            first checked.
        off: checks of exercises that are not on the assignment (a mistyped
            seed, say), in order; never scored.
        unjudged: checks that name no exercise (verdict "not an exercise").
    """

    items: tuple[ItemScore[C], ...]
    off: tuple[C, ...] = ()
    unjudged: tuple[C, ...] = ()

    @property
    def right(self) -> int:
        """How many exercises count as right."""
        return sum(item.is_right for item in self.items)

    @property
    def total(self) -> int:
        """How many exercises are scored."""
        return len(self.items)

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """Right exercises and exercises, by kind name, in the kinds' order 1 to 6."""
        tally: dict[str, list[int]] = {}
        for item in self.items:
            counts = tally.setdefault(item.kind, [0, 0])
            counts[0] += item.is_right
            counts[1] += 1
        return {k.word: (tally[k.word][0], tally[k.word][1]) for k in Kind if k.word in tally}

    def count(self, outcome: Outcome) -> int:
        """How many exercises had ``outcome``."""
        return sum(item.outcome is outcome for item in self.items)

    def line(self) -> str:
        """The score in words, e.g. ``"8 of 12 right"``."""
        return f"{self.right} of {self.total} right"


def score(checks: Iterable[C], assignment: Sequence[tuple[str, int]] | None = None
          ) -> Score[C]:
    """The outcome of every exercise, from a student's checks in the order they were made.

    Args:
        checks: every check (and every "solution shown" event) of one student,
            oldest first.
        assignment: the exercises set, as ``(kind name, seed)`` in their order;
            every one gets an outcome, "not answered" when never checked, and
            checks of any other exercise go to :attr:`Score.off`. Without it,
            each exercise checked is scored.
    """
    by_exercise: dict[tuple[str, int], list[C]] = {}
    unjudged: list[C] = []
    for check in checks:
        if check.verdict == NOT_AN_EXERCISE:
            unjudged.append(check)
        else:
            by_exercise.setdefault((check.kind, check.seed), []).append(check)
    if assignment is None:
        wanted = list(by_exercise)
        off: list[C] = []
    else:
        wanted = list(dict.fromkeys((kind, seed) for kind, seed in assignment))
        chosen = set(wanted)
        off = [c for key, found in by_exercise.items() if key not in chosen for c in found]
    items = tuple(_outcome(kind, seed, by_exercise.get((kind, seed), []))
                  for kind, seed in wanted)
    return Score(items, tuple(off), tuple(unjudged))


def _outcome(kind: str, seed: int, checks: Sequence[C]) -> ItemScore[C]:
    made = 0
    for check in checks:
        if check.verdict == SOLUTION:
            return ItemScore(kind, seed, Outcome.SOLUTION_SHOWN, made, check)
        made += 1
        if check.verdict == RIGHT:
            outcome = Outcome.RIGHT_FIRST if made == 1 else Outcome.RIGHT_AFTER
            return ItemScore(kind, seed, outcome, made, check)
    if not made:
        return ItemScore(kind, seed, Outcome.NOT_ANSWERED, 0)
    return ItemScore(kind, seed, Outcome.WRONG, made, checks[-1])
