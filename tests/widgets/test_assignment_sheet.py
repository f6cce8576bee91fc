"""The exercises page's work, downloaded and marked: the same score as the page shows.

An assignment opened from a link shows its exercises in order; the page's
score, the answers its download holds (``solution_shown`` and the
assignment's id included) and ``loo-tutor mark`` on that download agree
exercise by exercise.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from loo_tutor.teaching.assignment import (
    AssignmentError,
    from_link_query,
    link_query,
    parse_assignment,
    save_for_class,
)
from loo_tutor.teaching.marking import mark_text
from loo_tutor.teaching.score import Outcome
from loo_tutor.widgets import AssignmentSheet, ExerciseWidget, Scoreboard
from loo_tutor.widgets.assignment import CLASS_FOLDER

WEEK = parse_assignment({"title": "Week 3 — Loo", "id": "week-3", "exercises": [
    {"kind": "settle", "seeds": [4, 5]}, {"kind": "legal-cards", "seed": 2024},
    {"kind": "find-illegal", "seed": 9}, {"kind": "dealer", "seed": 1}]})


def entries(board: Scoreboard) -> list[dict[str, object]]:
    found = re.search(r'data-loo-answers="([^"]*)"', board.value)
    assert found is not None
    listed: list[dict[str, object]] = json.loads(html.unescape(found.group(1)))
    return listed


def wrong_answer(widget: ExerciseWidget) -> dict[str, object]:
    """The right answers, but the first field's changed so that the whole is not right."""
    exercise = widget.exercise
    assert exercise is not None
    answers = dict(exercise.answers())
    first = exercise.fields[0]
    right = answers[first.key]
    if isinstance(right, list):
        answers[first.key] = [o for o in first.options if o not in right][:1] or right[1:]
    elif first.options:
        answers[first.key] = next(o for o in first.options if o != right)
    else:
        answers[first.key] = "99"
    return answers


def test_the_link_carries_the_assignment_and_the_page_shows_its_exercises_in_order() -> None:
    query = link_query(WEEK)
    assert query == ("assignment=week-3&title=Week%203%20%E2%80%94%20Loo"
                     "&items=settle:4.5,legal-cards:2024,find-illegal:9,dealer:1")
    assert from_link_query(query) == WEEK
    sheet = AssignmentSheet(link=f"https://example.org/book/exercises.html?{query}#top")
    assert [(w.kind.word, w.seed) for w in sheet.exercises] == list(WEEK.keys())
    assert sheet.sheet.children == tuple(sheet.exercises)
    assert 'data-loo-assignment="week-3"' in sheet.scoreboard.value
    assert "0 of 5 right" in sheet.scoreboard.value
    assert "Week 3 — Loo" in sheet.status.value


@pytest.mark.parametrize(("link", "said"), [
    ("exercises.html", "names no assignment"),
    ("?assignment=w&items=settle:4x", "settle:4x"),
    ("?assignment=w&items=cards:4", "kind"),
    ("?assignment=has space&items=settle:4", "id:"),
    ("?assignment=w&items=settle:4.4", "set twice"),
])
def test_a_link_that_carries_no_assignment_says_why_in_one_line(link: str, said: str) -> None:
    sheet = AssignmentSheet(link=link)
    assert sheet.exercises == [] and sheet.assignment is None
    assert "This link opens no assignment" in sheet.status.value and said in sheet.status.value
    with pytest.raises(AssignmentError):
        from_link_query(link.partition("?")[2])


def test_an_assignment_with_a_record_has_no_link() -> None:
    recorded = parse_assignment({"exercises": [{"kind": 4, "seed": 0, "record": "deal.yaml"}]})
    with pytest.raises(AssignmentError, match="deal record"):
        link_query(recorded)


def test_the_download_marked_gives_the_page_s_score_exercise_by_exercise() -> None:
    sheet = AssignmentSheet(link="?" + link_query(WEEK))
    first, again, shown, late, _ = sheet.exercises
    first.fill(first.exercise.answers())  # type: ignore[union-attr]
    first.check_button.click()  # right at the first check
    first.solution_button.click()  # after it was right: still right
    again.check_button.click()  # nothing answered: no check
    again.fill(wrong_answer(again))
    again.check_button.click()
    again.check_button.click()
    again.fill(again.exercise.answers())  # type: ignore[union-attr]
    again.check_button.click()  # right after three checks
    shown.fill(wrong_answer(shown))
    shown.check_button.click()
    shown.solution_button.click()
    shown.fill(shown.exercise.answers())  # type: ignore[union-attr]
    shown.check_button.click()  # copied from the solution: never right
    late.solution_button.click()  # shown before any check
    # the fifth is not answered; an exercise off the assignment is never scored
    off = ExerciseWidget(2, seed=77, scoreboard=sheet.scoreboard)
    off.fill(off.exercise.answers())  # type: ignore[union-attr]
    off.check_button.click()

    page = sheet.scoreboard.work()
    assert [(i.outcome, i.checks) for i in page.items] == [
        (Outcome.RIGHT_FIRST, 1), (Outcome.RIGHT_AFTER, 3), (Outcome.SOLUTION_SHOWN, 1),
        (Outcome.SOLUTION_SHOWN, 0), (Outcome.NOT_ANSWERED, 0)]
    line = ("Score: 2 of 5 right: 1 right at the first check, 1 right after several checks, "
            "2 solution shown, 1 not answered.")
    assert line in sheet.scoreboard.value

    download = sheet.scoreboard.answers_file("Ann Smith")
    assert download["assignment"] == "week-3"
    # the page's script downloads the items each entry lists, in order
    assert [i for e in entries(sheet.scoreboard) for i in e["items"]] == download["answers"]  # type: ignore[attr-defined]
    assert sum(i.get("solution_shown") == "yes" for i in download["answers"]) == 2
    marked = mark_text(json.dumps(download), "answers-ann-smith.json")
    assert marked.problems == () and marked.assignment == "week-3"
    assert marked.student == "Ann Smith"
    again_marked = marked.score(WEEK)
    assert [(i.kind, i.seed, i.outcome, i.checks) for i in again_marked.items] == [
        (i.kind, i.seed, i.outcome, i.checks) for i in page.items]
    assert [(m.kind, m.seed) for m in again_marked.off] == [("trick", 77)]
    assert f"Score: {again_marked.line()}: {again_marked.tally()}." == line
    by_entry = {(e["name"], e["seed"]): (e["outcome"], e["solved"])
                for e in entries(sheet.scoreboard)}
    assert by_entry[("settle", 5)] == ("right after several checks", True)
    assert by_entry[("find-illegal", 9)] == ("solution shown", False)


def test_a_page_without_an_assignment_scores_what_was_checked_and_says_so_when_nothing_was(
) -> None:
    board = Scoreboard()
    assert "no exercise checked yet" in board.value and "Solved in this browser" in board.value
    widget = ExerciseWidget(3, seed=1, scoreboard=board)
    widget.solution_button.click()
    assert "Score: 0 of 1 right: 1 solution shown." in board.value
    download = board.answers_file("Bo")
    assert "assignment" not in download
    marked = mark_text(json.dumps(download))
    assert marked.score().line() == "0 of 1 right"
    assert marked.score().items[0].outcome is Outcome.SOLUTION_SHOWN


def test_in_a_classroom_the_class_s_assignment_opens_by_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CLASS_FOLDER, str(tmp_path))
    assert AssignmentSheet().assignment is None  # a class without an assignment
    save_for_class(tmp_path, WEEK)
    sheet = AssignmentSheet()
    assert sheet.assignment == WEEK
    assert [(w.kind.word, w.seed) for w in sheet.exercises] == list(WEEK.keys())
    (tmp_path / "assignment.yaml").write_text("title: [\n", encoding="utf-8")
    assert "The class's assignment cannot be read" in html.unescape(AssignmentSheet().status.value)
