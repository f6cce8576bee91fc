"""Marking: every exercise made again from its kind and seed, and each answer judged.

The right answers come from the engine's exercises (``key_answer``); the wrong
ones are made from them one part at a time (``marking_support.spoiled``).
"""

from __future__ import annotations

import csv
import html
import io
import re
from fractions import Fraction

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from loo_tutor.engine.rules import RuleId
from loo_tutor.render.worksheet import answer_key_html
from loo_tutor.teaching.exercises import Exercise, Kind, make
from loo_tutor.teaching.marking import (
    CSV_COLUMNS,
    MAX_SEED,
    NOT_AN_EXERCISE,
    RIGHT,
    UNREADABLE,
    WRONG,
    Mark,
    answer_value,
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
])
def test_what_is_not_an_exercise_says_why_on_one_line(kind: object, seed: object, answer: object,
                                                       said: str) -> None:
    mark = judge(kind, seed, answer)
    assert mark.verdict == NOT_AN_EXERCISE
    assert said in mark.message and "\n" not in mark.message and mark.rule == ""


@pytest.mark.parametrize(("kind", "seed", "answer", "said"), [
    ("legal-cards", 1, "ZZ", "cannot read 'ZZ' as a card"),
    ("legal-cards", 1, "4X", "cannot read '4X' as a card"),
    ("legal-cards", 1, {"card": "AS"}, "no part 'card'"),
    ("settle", 1, "9", "the answer is not a mapping"),
    ("settle", 1, {"payouts": {"Zed": 1}}, "'Zed' is not a player"),
    ("settle", 1, {"payouts": [1, 2]}, "payouts is not a mapping"),
    ("settle", 1, {"carried": "a lot"}, "cannot read 'a lot'"),
    ("settle", 1, {"carried": "-3"}, "-3"),
    ("find-illegal", 1, {"rule": "R-NOTHING"}, "cannot read 'R-NOTHING' as a rule"),
    ("dealer", 1, [["stand"]], "cannot read"),
])
def test_an_answer_that_cannot_be_read_is_unreadable_and_says_why_on_one_line(
        kind: object, seed: object, answer: object, said: str) -> None:
    mark = judge(kind, seed, answer)
    assert mark.verdict == UNREADABLE and not mark.is_right
    assert said in mark.message and "\n" not in mark.message and mark.rule == ""
    assert mark.parts and all("\n" not in part for part in mark.parts)


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
    assert marked.score().by_kind() == {k.word: (1, 1) for k in Kind}
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
    ("student: Ann\nresults: []", "only the fields student, answers"),
    ('{"\x85student": "Ann", "answers": []}', "'\\x85student': an answers file has only"),
    ("a: &a [" + ", ".join(["x"] * 10) + "]\nb: &b [" + ", ".join(["*a"] * 10) + "]\n"
     "c: &c [" + ", ".join(["*b"] * 10) + "]\nd: &d [" + ", ".join(["*c"] * 10) + "]\n"
     "answers: [" + ", ".join(["*d"] * 10) + "]",
     "values once its aliases are written out"),
    ("answers: " + "[" * 100 + "]" * 100, "nested more than"),
    ("# " + "x" * 200_000, "longer than 160,000 characters, far more than an answers file"),
    ("answers: [" + ", ".join(["{}"] * 1201) + "]", "1,201 items, more than the 1,200"),
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
                   "- {kind: dealer, seed: 4, answer: [stand], time: 2026-12-04T10:15:00Z}\n"
                   "- {kind: cards, seed: 4, answer: [stand]}\n")
    marked = mark_text(text, "ann.yaml")
    assert marked.read and marked.student == "answer key"
    verdicts = [m.verdict for _, m, _ in marked.marks]
    assert verdicts[0] == RIGHT and verdicts[1:4] == [NOT_AN_EXERCISE] * 3
    assert verdicts[4] == UNREADABLE and verdicts[5] in (RIGHT, WRONG)
    assert verdicts[7] == NOT_AN_EXERCISE
    places = [line.split(": ")[1] for line in marked.problems]
    assert places == ["answers[1]", "answers[2]", "answers[3]", "answers[5].time",
                      "answers[7] (cards, seed 4)"]
    assert "unknown field verdict" in marked.problems[1]
    assert [t for _, _, t in marked.marks][-2] == "2026-12-04T10:15:00+00:00"


# -- the sheet's own words are answers ---------------------------------------------------------

_SHOWN = re.compile(r"<li><strong>(.*?):</strong> (.*?)<br>")


def _as_shown(exercise: Exercise) -> dict[str, str]:
    """Each part of the exercise's answer as its answer key page writes it, by field key."""
    page = answer_key_html([exercise])
    by_label = {f.label: f.key for f in exercise.fields}
    return {by_label[html.unescape(label)]: html.unescape(text)
            for label, text in _SHOWN.findall(page)}


@pytest.mark.parametrize("kind", list(Kind))
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=MAX_SEED))
def test_what_the_answer_key_page_shows_is_marked_right(kind: Kind, seed: int) -> None:
    exercise = make(kind, seed)
    shown = _as_shown(exercise)
    assert set(shown) == {f.key for f in exercise.fields}
    text = yaml.safe_dump({"student": "Ann", "answers": [
        {"kind": kind.word, "seed": seed, "answer": answer_value(exercise, shown)}]},
        allow_unicode=True)
    marked = mark_text(text, "ann.yaml")
    assert [m.verdict for _, m, _ in marked.marks] == [RIGHT], (shown, marked.marks)


@pytest.mark.parametrize(("kind", "written"), [
    ("dealer", "stand, take the miss, defend"),
    ("dealer", ["Stand", "take the miss", "defend"]),
])
def test_the_dealers_choices_are_read_as_the_sheet_labels_them(kind: str, written: object) -> None:
    exercise = next(e for e in (make(3, s) for s in range(200))
                    if set(e.answers()["announcements"]) == {"stand", "miss", "defend"})
    assert judge(kind, exercise.seed, written).is_right


def test_the_dealer_collecting_is_read_as_the_sheet_says_it() -> None:
    exercise = next(e for e in (make(3, s) for s in range(400)) if e.collects())
    assert judge("dealer", exercise.seed, "no announcement: the dealer collects").is_right
    assert judge("dealer", exercise.seed, "none").is_right


def test_an_empty_list_of_looed_players_means_nobody_and_a_plus_sign_is_read() -> None:
    exercise = next(e for e in (make(4, s) for s in range(400))
                    if not e.answers()["looed"] or e.answers()["looed"] == "nobody")
    answer = key_answer(exercise)
    answer["looed"] = []
    answer["next_pool"] = f"+{answer['next_pool']}"
    assert judge("settle", exercise.seed, answer).is_right


def test_a_card_where_a_player_is_asked_is_unreadable_and_counts_as_wrong() -> None:
    exercise = make(2, 5)
    mark = judge("trick", 5, {"winner": "7H", "revealed": "no"}
                 if len(exercise.fields) > 1 else "7H")
    assert mark.verdict == UNREADABLE and "'7H' is not a possible player" in mark.message
    marked = mark_text(yaml.safe_dump({"answers": [{"kind": "trick", "seed": 5, "answer": "7H"}]}),
                       "bo.yaml")
    done = marked.score()
    assert (done.right, done.total) == (0, 1) and not marked.problems


def test_every_mistaken_part_is_named_with_its_answer() -> None:
    exercise = make(4, 9)
    answer = key_answer(exercise)
    answer["carried"] = "999"
    answer["next_pool"] = "998"
    mark = judge("settle", 9, answer)
    assert mark.verdict == WRONG and len(mark.parts) == 2
    assert all("The answer:" in part for part in mark.parts)


@pytest.mark.parametrize("kind", [k for k in Kind if any(
    f.labels and f.form != "cards" for f in make(k, 0).fields)])
@pytest.mark.parametrize("seed", range(0, 60, 7))
def test_every_choice_the_worksheet_labels_is_read_as_that_choice(kind: Kind, seed: int) -> None:
    exercise = make(kind, seed)
    for f in exercise.fields:
        for option, label in zip(f.options, f.labels, strict=True):
            if f.form == "cards":
                continue
            value: object = [label] if f.form == "choices" else label
            as_option: object = [option] if f.form == "choices" else option
            assert (exercise.grade({f.key: value})[f.key]
                    == exercise.grade({f.key: as_option})[f.key]), (f.key, label)
