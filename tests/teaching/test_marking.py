"""Marking: every exercise made again from its kind and seed, and each answer judged.

The right answers come from the engine's exercises (``key_answer``); the wrong
ones are made from them one part at a time (``marking_support.spoiled``).
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from loo_tutor.engine.rules import RuleId
from loo_tutor.teaching.exercises import Kind, make
from loo_tutor.teaching.marking import (
    CSV_COLUMNS,
    MAX_SEED,
    NOT_AN_EXERCISE,
    RIGHT,
    WRONG,
    Mark,
    judge,
    key_answer,
    key_text,
    mark_text,
    write_csv,
)

from marking_support import spoiled

SEEDS = (0, 7, 2024)


@pytest.mark.parametrize("kind", list(Kind))
@pytest.mark.parametrize("seed", SEEDS)
def test_the_engines_answer_is_right_and_each_spoiled_part_is_wrong_under_a_rule(
        kind: Kind, seed: int) -> None:
    exercise = make(kind, seed)
    right = judge(kind.word, seed, key_answer(exercise))
    assert (right.verdict, right.kind, right.seed, right.rule) == (RIGHT, kind.word, seed, "")
    assert judge(str(int(kind)), str(seed), key_answer(exercise)).is_right
    for part, answer in spoiled(exercise):
        mark = judge(kind.word, seed, answer)
        assert mark.verdict == WRONG, (part, answer, mark)
        assert mark.rule in {r.value for r in RuleId}, (part, mark)
        assert mark.rule_name and "\n" not in mark.message and mark.expected, mark


def _no_decimal(value: object) -> bool:
    """Whether an amount has no exact decimal (a third, say)."""
    bottom = Fraction(str(value)).denominator
    for factor in (2, 5):
        while bottom % factor == 0:
            bottom //= factor
    return bottom > 1


def test_a_decimal_close_to_a_fraction_is_wrong_under_the_ledger_rule() -> None:
    exercise = next(e for e in (make(Kind.SESSION, s) for s in range(200))
                    if any(_no_decimal(v) for v in key_answer(e)["net"].values()))
    answer = key_answer(exercise)
    name, value = next((n, v) for n, v in answer["net"].items() if _no_decimal(v))
    answer["net"][name] = round(float(Fraction(str(value))), 2)  # as YAML reads 3.33
    mark = judge("session", exercise.seed, answer)
    assert (mark.verdict, mark.rule) == (WRONG, "R-LEDGER")


@pytest.mark.parametrize(("kind", "seed", "answer", "said"), [
    ("cards", 1, "AS", "neither a number from 1 to 6 nor one of legal-cards"),
    (9, 1, "AS", "neither a number"),
    ("legal-cards", -1, "AS", "a seed is a whole number from 0"),
    ("legal-cards", MAX_SEED + 1, "AS", "a seed is a whole number from 0"),
    ("legal-cards", "x", "AS", "a seed is a whole number from 0"),
    ("legal-cards", True, "AS", "a seed is a whole number from 0"),
    ("legal-cards", 1, "ZZ", "cannot read 'ZZ' as a card"),
    ("legal-cards", 1, {"card": "AS"}, "no part 'card'"),
    ("settle", 1, "9", "the answer is not a mapping"),
    ("settle", 1, {"payouts": {"Zed": 1}}, "'Zed' is not a player"),
    ("settle", 1, {"payouts": [1, 2]}, "payouts is not a mapping"),
    ("settle", 1, {"carried": "a lot"}, "cannot read 'a lot'"),
    ("find-illegal", 1, {"rule": "R-NOTHING"}, "cannot read 'R-NOTHING' as a rule"),
    ("dealer", 1, [["stand"]], "cannot read"),
])
def test_what_is_not_an_exercise_says_why_on_one_line(kind: object, seed: object, answer: object,
                                                       said: str) -> None:
    mark = judge(kind, seed, answer)
    assert mark.verdict == NOT_AN_EXERCISE
    assert said in mark.message and "\n" not in mark.message and mark.rule == ""


def test_an_empty_part_is_wrong_and_says_the_answer() -> None:
    exercise = make(Kind.FIND_ILLEGAL, 3)
    mark = judge("find-illegal", 3, {"action": key_answer(exercise)["action"]})
    assert mark.verdict == WRONG
    assert "not answered" in mark.message and mark.rule == exercise.solution()[1].rule.value


def test_a_key_marks_right_and_the_csv_neutralises_formulas() -> None:
    exercises = [make(kind, 11) for kind in Kind]
    marked = mark_text(key_text(exercises, student="=cmd|' /C calc'!A0"), "key.yaml")
    assert marked.read and not marked.problems
    assert [m.verdict for _, m, _ in marked.marks] == [RIGHT] * len(Kind)
    assert marked.score() == {k.word: (1, 1) for k in Kind}
    out = io.StringIO()
    wrong = Mark("settle", 11, "-3", WRONG, "R-CARRY", "…")
    write_csv([(marked.student, m, "") for _, m, _ in marked.marks]
              + [("@Ann", wrong, "+2026-12-04T10:00:00")], out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == len(Kind) + 2
    assert all(row[0] == "'=cmd|' /C calc'!A0" for row in rows[1:-1])
    assert rows[-1] == ["'@Ann", "settle", "11", "'-3", "wrong", "R-CARRY",
                        "'+2026-12-04T10:00:00"]
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in row)


@pytest.mark.parametrize(("text", "said"), [
    ("[1, 2]", "expected a mapping"),
    ("student: Ann\nanswers: 3", "answers: missing or not a list"),
    ("student: Ann\nresults: []", "only the fields student and answers"),
    ('{"\x85student": "Ann", "answers": []}', "'\\x85student': an answers file has only"),
    ("a: &a [" + ", ".join(["x"] * 10) + "]\nb: &b [" + ", ".join(["*a"] * 10) + "]\n"
     "c: &c [" + ", ".join(["*b"] * 10) + "]\nd: &d [" + ", ".join(["*c"] * 10) + "]\n"
     "answers: [" + ", ".join(["*d"] * 10) + "]",
     "values once its aliases are written out"),
    ("answers: " + "[" * 100 + "]" * 100, "nested more than"),
    ("# " + "x" * 200_000, "longer than 100,000 characters, far more than an answers file"),
    ("student: " + "x" * 600, "a value of 600 characters"),
    ("student: Ann\nanswers: [\n", "invalid YAML"),
])
def test_a_file_that_cannot_be_read_is_one_line_naming_it(text: str, said: str) -> None:
    marked = mark_text(text, "ann.yaml")
    assert not marked.read and not marked.marks and len(marked.problems) == 1
    assert marked.problems[0].startswith("ann.yaml: ") and said in marked.problems[0]
    assert "record" not in marked.problems[0]


def test_a_bad_item_is_a_line_with_its_place_and_the_rest_is_marked() -> None:
    good = key_text([make(Kind.DEALER, 4)])
    text = good + ("- 12\n- {kind: trick, seed: 4, answer: Anna, verdict: right}\n"
                   "- {kind: trick, answer: Anna}\n- {kind: legal-cards, seed: 4, answer: [ZZ]}\n"
                   "- {kind: dealer, seed: 4, answer: none, time: yesterday}\n"
                   "- {kind: dealer, seed: 4, answer: [stand], time: 2026-12-04T10:15:00Z}\n")
    marked = mark_text(text, "ann.yaml")
    assert marked.read and marked.student == "answer key"
    verdicts = [m.verdict for _, m, _ in marked.marks]
    assert verdicts[0] == RIGHT and verdicts[1:5] == [NOT_AN_EXERCISE] * 4
    assert verdicts[5] == WRONG or verdicts[5] == RIGHT
    places = [line.split(": ")[1] for line in marked.problems]
    assert places == ["answers[1]", "answers[2]", "answers[3]", "answers[4] (legal-cards, seed 4)",
                      "answers[5].time"]
    assert "unknown field verdict" in marked.problems[1]
    assert [t for _, _, t in marked.marks][-1] == "2026-12-04T10:15:00+00:00"
