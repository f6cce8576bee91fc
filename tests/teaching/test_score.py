"""The one score model: checks of exercises become one outcome per exercise."""

from __future__ import annotations

from dataclasses import dataclass

from loo_tutor.teaching.score import SOLUTION, Outcome, score


@dataclass(frozen=True)
class Check:
    kind: str
    seed: int
    verdict: str


def test_each_outcome_comes_from_the_checks_in_order() -> None:
    checks = [Check("settle", 1, "right"),
              Check("trick", 2, "wrong"), Check("trick", 2, "unreadable"), Check("trick", 2, "right"),
              Check("dealer", 3, "wrong"), Check("dealer", 3, SOLUTION), Check("dealer", 3, "right"),
              Check("session", 4, "wrong"), Check("session", 4, "wrong")]
    done = score(checks, [("settle", 1), ("trick", 2), ("dealer", 3), ("session", 4),
                          ("legal-cards", 5)])
    assert [(i.outcome, i.checks) for i in done.items] == [
        (Outcome.RIGHT_FIRST, 1), (Outcome.RIGHT_AFTER, 3), (Outcome.SOLUTION_SHOWN, 1),
        (Outcome.WRONG, 2), (Outcome.NOT_ANSWERED, 0)]
    assert (done.right, done.total) == (2, 5) and done.line() == "2 of 5 right"
    assert done.by_kind() == {"legal-cards": (0, 1), "trick": (1, 1), "dealer": (0, 1),
                              "settle": (1, 1), "session": (0, 1)}
    assert list(done.by_kind()) == ["legal-cards", "trick", "dealer", "settle", "session"]


def test_a_solution_shown_after_a_right_check_leaves_it_right() -> None:
    done = score([Check("trick", 2, "right"), Check("trick", 2, SOLUTION)])
    assert done.items[0].outcome is Outcome.RIGHT_FIRST


def test_an_exercise_checked_twice_counts_once() -> None:
    done = score([Check("settle", 1, "right"), Check("settle", 1, "right")])
    assert (done.right, done.total) == (1, 1)


def test_checks_off_the_assignment_are_set_apart_and_never_scored() -> None:
    typo = Check("settle", 12, "right")
    nothing = Check("cards", -1, "not an exercise")
    done = score([typo, nothing, Check("settle", 21, "wrong")], [("settle", 21)])
    assert done.off == (typo,) and done.unjudged == (nothing,)
    assert (done.right, done.total) == (0, 1) and done.items[0].outcome is Outcome.WRONG


def test_without_an_assignment_every_exercise_checked_is_scored_in_the_order_first_checked() -> None:
    done = score([Check("trick", 2, "wrong"), Check("settle", 1, "right"),
                  Check("trick", 2, "right")])
    assert [(i.kind, i.outcome) for i in done.items] == [("trick", Outcome.RIGHT_AFTER),
                                                         ("settle", Outcome.RIGHT_FIRST)]
