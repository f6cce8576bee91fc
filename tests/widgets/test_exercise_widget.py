"""The exercise widget, driven headlessly: fill in answers, click, read the verdicts.

The right answers come from the exercise (the engine), never from the test.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import ipywidgets as widgets
import pytest

from loo_tutor import Play, RuleId, dumps
from loo_tutor.records.data import example
from loo_tutor.teaching.exercises import Kind, LegalCards, make
from loo_tutor.teaching.marking import judge
from loo_tutor.widgets import DealStepper, ExerciseWidget, Scoreboard

from conftest import OWN_EXAMPLES

RULE_HREF = re.compile(r'href="[^"]*rules\.html#([^"]*)"')
LABELS = {rule.label for rule in RuleId}


@pytest.mark.parametrize("kind", list(Kind))
def test_a_variant_is_stable_for_its_seed_and_checks_the_engines_answers(kind: Kind) -> None:
    widget = ExerciseWidget(kind, seed=321)
    assert widget.error is None and widget.seed == 321
    assert widget.position.value == ExerciseWidget(kind, seed=321).position.value
    assert widget.exercise is not None
    assert widget.exercise.question == make(kind, 321).question
    widget.check_button.click()
    assert {r.status for r in widget.results.values()} == {"empty"}
    assert "Nothing to check yet" in widget.html and "0 of 0" not in widget.html
    assert widget.scoreboard.results == {}  # an empty check is no attempt
    widget.fill(widget.exercise.answers())
    widget.check_button.click()
    assert all(r.status == "right" for r in widget.results.values()), widget.results
    assert widget.scoreboard.solved == 1


def test_each_mistake_is_shown_beside_its_answer_with_a_link_to_its_rule() -> None:
    widget = ExerciseWidget(4, seed=8)
    exercise = widget.exercise
    assert exercise is not None
    answers = exercise.answers()
    wrong = {key: "1" if value == "0" else "0" for key, value in answers.items()
             if key.startswith("payout:")}
    widget.fill({**answers, **wrong, "carried": "1/0"})
    widget.check_button.click()
    page = widget.html
    assert all(widget.results[key].status == "wrong" for key in wrong)
    assert widget.results["carried"].status == "unreadable"
    assert "whole number (4), a fraction (10/3) or a mixed number (3 1/3)" in page
    links = RULE_HREF.findall(page)
    assert links and set(links) <= LABELS
    assert "loo-field-wrong" in page and "loo-field-right" in page
    assert widget.scoreboard.solved == 0


def test_a_card_the_engine_refuses_is_shown_under_the_rule_it_names() -> None:
    exercise = next(e for e in (make(1, seed) for seed in range(200))
                    if isinstance(e, LegalCards) and len(e.legal()) < len(e.hand))
    widget = ExerciseWidget(1, seed=exercise.seed)
    for box in widget.inputs["cards"]:
        box.value = True  # tick every card, the refused ones included
    widget.check_button.click()
    refused = [c for c in exercise.hand if c not in exercise.legal()]
    expected = {exercise.state.check(Play(exercise.seat, c)).rule for c in refused}
    assert {d.rule for d in widget.results["cards"].details} == expected
    assert all(f'rules.html#{rule.label}"' in widget.html for rule in expected if rule)


def test_new_variant_changes_the_seed_reproducibly_and_resets_the_answers() -> None:
    widget = ExerciseWidget(2, seed=5)
    widget.fill(widget.exercise.answers())  # type: ignore[union-attr]
    widget.check_button.click()
    widget.variant_button.click()
    first = widget.seed
    assert first != 5 and widget.results == {} and widget.summary.value == ""
    again = ExerciseWidget(2, seed=5)
    again.variant_button.click()
    assert again.seed == first
    widget.seed_field.value = 5
    assert widget.seed == 5
    assert widget.exercise.question == make(2, 5).question  # type: ignore[union-attr]


def test_a_shared_scoreboard_counts_every_exercise_of_the_page() -> None:
    board = Scoreboard()
    one = ExerciseWidget(1, seed=1, scoreboard=board)
    two = ExerciseWidget(3, seed=1, scoreboard=board)
    assert board not in one.children  # shown once, by the page
    for widget in (one, two):
        widget.fill(widget.exercise.answers())  # type: ignore[union-attr]
        widget.check_button.click()
    assert board.solved == 2 and "2 of 2 right: 2 right at the first check." in board.value
    three = ExerciseWidget(4, seed=1, scoreboard=board)
    three.solution_button.click()
    three.fill(three.exercise.answers())  # type: ignore[union-attr]
    three.check_button.click()
    assert board.solved == 2 and ("2 of 3 right: 2 right at the first check, 1 solution shown."
                                 in board.value)


SOLVED_MARKS = re.compile(r'data-loo-solved="([^"]*)"')


def solved_marks(board: Scoreboard) -> list[dict[str, object]]:
    """The variants the score line marks as solved, for the page to keep (none: no mark)."""
    found = SOLVED_MARKS.findall(board.value)
    assert len(found) <= 1, board.value
    return json.loads(html.unescape(found[0])) if found else []


def test_the_score_line_marks_only_the_variants_solved_before_their_solution() -> None:
    board = Scoreboard()
    assert "data-loo-solved" not in board.value
    wrong = ExerciseWidget(1, seed=2024, scoreboard=board)
    assert wrong.exercise is not None
    wrong.check_button.click()  # nothing answered: not solved
    refused = next(c for c in wrong.exercise.hand if c not in wrong.exercise.legal())
    wrong.fill({"cards": [str(refused)]})
    wrong.check_button.click()  # a wrong answer: not solved
    shown = ExerciseWidget(4, seed=7, scoreboard=board)
    shown.solution_button.click()
    shown.fill(shown.exercise.answers())  # type: ignore[union-attr]
    shown.check_button.click()  # right, but after the solution: not solved
    assert not wrong.finished and not shown.finished
    teachers = ExerciseWidget(4, record=example("fractional-pool"), scoreboard=board)
    teachers.fill(teachers.exercise.answers())  # type: ignore[union-attr]
    teachers.check_button.click()  # solved, but a record has no seed to keep
    assert board.solved == 1 and solved_marks(board) == []

    solved = ExerciseWidget(3, seed=11, scoreboard=board)
    solved.fill(solved.exercise.answers())  # type: ignore[union-attr]
    solved.check_button.click()
    assert solved.finished
    solved.check_button.click()  # checked again: marked once
    wrong.fill(wrong.exercise.answers())
    wrong.check_button.click()
    assert solved_marks(board) == [
        {"kind": 3, "title": Kind.DEALER.title, "seed": 11},
        {"kind": 1, "title": Kind.LEGAL_CARDS.title, "seed": 2024}]
    assert board.solved_variants == [(Kind.DEALER, 11), (Kind.LEGAL_CARDS, 2024)]
    # A wrong check later does not take a solved variant back.
    wrong.fill({"cards": [str(refused)]})
    wrong.check_button.click()
    assert len(solved_marks(board)) == 2


def test_a_widget_with_its_own_score_marks_its_solved_variants_too() -> None:
    widget = ExerciseWidget(2, seed=5)
    widget.fill(widget.exercise.answers())  # type: ignore[union-attr]
    widget.check_button.click()
    assert solved_marks(widget.scoreboard) == [{"kind": 2, "title": Kind.TRICK.title,
                                                "seed": 5}]
    assert "data-loo-solved" in widget.html


def test_the_score_line_lists_each_seeded_variants_last_answer_for_marking() -> None:
    board = Scoreboard()
    widgets_ = [ExerciseWidget(kind, seed=2024, scoreboard=board) for kind in Kind]
    ExerciseWidget(4, record=example("fractional-pool"), scoreboard=board).check_button.click()
    assert "data-loo-answers" not in board.value  # a record has no seed; nothing answered yet
    for widget in widgets_:
        widget.check_button.click()  # nothing answered: not listed
    assert "data-loo-answers" not in board.value
    for widget in widgets_:
        widget.fill(widget.exercise.answers())  # type: ignore[union-attr]
        widget.check_button.click()
    found = re.search(r'data-loo-answers="([^"]*)"', board.value)
    assert found is not None
    given = json.loads(html.unescape(found.group(1)))
    assert [(g["kind"], g["name"], g["seed"], g["solved"]) for g in given] == [
        (int(kind), kind.word, 2024, True) for kind in Kind]
    for entry in given:  # the answers-file shape: loo-tutor mark finds each one right
        assert judge(entry["name"], entry["seed"], entry["answer"]).is_right, entry
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", entry["time"])
    cards = widgets_[0]
    refused = next(c for c in cards.exercise.hand if c not in cards.exercise.legal())  # type: ignore[union-attr]
    cards.fill({"cards": [str(refused)]})
    cards.check_button.click()  # the last answer is the one listed, wrong as it is
    found = re.search(r'data-loo-answers="([^"]*)"', board.value)
    assert found is not None
    first = json.loads(html.unescape(found.group(1)))[0]
    assert first["answer"] == [str(refused)] and first["solved"] is True
    assert judge(first["name"], first["seed"], first["answer"]).verdict == "wrong"


def test_show_solution_steps_through_the_deal() -> None:
    widget = ExerciseWidget(6, seed=2)
    assert widget.solution.children == ()
    widget.solution_button.click()
    steppers = [c for c in widget.solution.children if isinstance(c, DealStepper)]
    assert widget.exercise is not None
    assert len(steppers) == len(widget.exercise.records) >= 3
    assert all(s.error is None for s in steppers)
    steppers[0].last_button.click()
    assert steppers[0].narration.rules[-1] is RuleId.CARRY
    assert "R-SESSION-END" in widget.html


@pytest.mark.parametrize("kind", [1, 2, 3, 4, 5])
def test_a_teachers_record_file_becomes_an_exercise(kind: int, tmp_path: Path) -> None:
    path = tmp_path / "deal.yaml"
    path.write_text(dumps(example("forced-ace")), encoding="utf-8")
    widget = ExerciseWidget(kind, record=str(path))
    assert widget.error is None and widget.seed is None
    assert widget.variant_button not in widget.children[3].children
    widget.fill(widget.exercise.answers())  # type: ignore[union-attr]
    widget.check_button.click()
    assert all(r.is_right for r in widget.results.values())


def test_a_session_of_records_and_unusable_records_in_the_widget() -> None:
    deals = [OWN_EXAMPLES / "01_seed000_forced_ace.yaml"]
    assert ExerciseWidget(6, record=[str(d) for d in deals]).error is None
    assert "not finished" in (ExerciseWidget(4, record=example("sole-stander")).error or "")
    assert "cannot find" in (ExerciseWidget(4, record="missing.yaml").error or "")
    assert "1 to 6" in (ExerciseWidget(0).error or "")
    broken = ExerciseWidget(4, record="players: [A]")
    assert broken.error is not None and broken.error.startswith("This exercise cannot be made")
    broken.check_button.click()  # nothing to check, and no traceback
    assert broken.results == {}


def test_the_controls_can_be_reached_and_named_without_a_mouse() -> None:
    widget = ExerciseWidget(1, seed=9)
    boxes = widget.inputs["cards"]
    assert all(isinstance(b, widgets.Checkbox) and b.description for b in boxes)
    assert all(b.tooltip for b in boxes)
    assert widget.check_button.tooltip and widget.solution_button.tooltip
    settle = ExerciseWidget(4, seed=9)
    assert all(isinstance(settle.inputs[k], widgets.Text) for k in settle.inputs
               if k.startswith("payout:"))
    looed = settle.inputs["looed"]
    assert looed[-1].description == "nobody"
    looed[-1].value = True
    assert settle.answers()["looed"] == "nobody"
    looed[0].value = True
    settle.check_button.click()
    assert settle.results["looed"].status == "unreadable"
    page = ExerciseWidget(5, seed=9).position.value
    assert page.count('role="img" aria-label="') >= 3


def test_the_score_counts_only_the_answers_given() -> None:
    widget = ExerciseWidget(4, seed=2024)
    exercise = widget.exercise
    assert exercise is not None and len(exercise.fields) > 2
    first = exercise.fields[0]
    widget.fill({first.key: exercise.answers()[first.key]})
    widget.check_button.click()
    empty = len(exercise.fields) - 1
    assert "1 of 1 answers right." in widget.summary.value
    assert f"{empty} not answered yet" in widget.summary.value
    assert "Score: 0 of 1 right: 1 wrong." in widget.scoreboard.value


def test_enter_in_an_answer_field_checks_the_answers() -> None:
    widget = ExerciseWidget(4, seed=2024)
    exercise = widget.exercise
    assert exercise is not None
    key = next(k for k, c in widget.inputs.items() if isinstance(c, widgets.Text))
    widget.inputs[key].value = str(exercise.answers()[key])
    assert widget.results == {}
    widget.inputs[key]._handle_custom_msg({"event": "submit"}, [])  # what Enter sends
    assert widget.results[key].status == "right"


def test_every_answer_control_has_a_label_and_plain_tooltips() -> None:
    for kind in range(1, 7):
        widget = ExerciseWidget(kind, seed=2024)
        assert widget.exercise is not None
        for field in widget.exercise.fields:
            control = widget.inputs[field.key]
            for part in control if isinstance(control, list) else [control]:
                assert part.description, (kind, field.key)  # a real label, not a title
                assert "<" not in part.tooltip and "<" not in part.description
                assert not part.description_allow_html
    cards = ExerciseWidget(1, seed=2024).inputs["cards"]
    assert all(box.description[-1] in "♠♥♦♣" for box in cards)
    assert all(" of " in box.tooltip for box in cards)  # "…: 10 of diamonds"


def test_a_wrong_answer_names_each_rule_once_and_not_the_cards_left_out() -> None:
    def two_refused_alike(seed: int) -> bool:
        exercise = make(Kind.LEGAL_CARDS, seed)
        assert isinstance(exercise, LegalCards)
        refused = [c for c in exercise.hand if c not in exercise.legal()]
        rules = {exercise.state.check(Play(exercise.seat, c)).rule for c in refused}
        return len(refused) >= 2 and len(rules) == 1

    seed = next(s for s in range(500) if two_refused_alike(s))
    widget = ExerciseWidget(Kind.LEGAL_CARDS, seed=seed)
    exercise = widget.exercise
    assert isinstance(exercise, LegalCards)
    refused = [str(c) for c in exercise.hand if c not in exercise.legal()]
    widget.fill({"cards": refused})
    widget.check()
    note = widget.html
    for rule in RuleId:  # the refusals share their rule: it is linked once
        assert note.count(f'#{rule.label}"') <= 1, (rule, note)
    assert "did not tick may be played" in note


def _form_values(widget: ExerciseWidget) -> list[object]:
    """The controls' values in the order of the form, as the classroom's page reads them."""
    values: list[object] = []
    for control in widget.inputs.values():
        for one in control if isinstance(control, list) else [control]:
            values.append(one.index if isinstance(one, widgets.Dropdown) else one.value)
    return values


@pytest.mark.parametrize("kind", list(Kind))
def test_work_kept_by_the_page_is_restored_and_its_waiting_check_judged(kind: Kind) -> None:
    before = ExerciseWidget(kind, seed=321)
    assert before.exercise is not None
    before.fill(before.exercise.answers())
    after = ExerciseWidget(kind, seed=7)  # the page's fresh exercise, after a reload
    after.restore(321, _form_values(before), check=True)
    assert after.seed == 321 and after.answers() == before.answers()
    assert all(r.status == "right" for r in after.results.values()), after.results
    assert "data-loo-checked" in after.summary.value
    odd = ExerciseWidget(kind, seed=7)
    odd.restore(True, ["x", 3.5, None, -1, 10**6], check=False)
    assert odd.seed == 7 and odd.results == {} and odd.summary.value == ""


def _answers_listed(board: Scoreboard) -> list[dict[str, object]]:
    found = re.search(r'data-loo-answers="([^"]*)"', board.value)
    assert found is not None, board.value
    listed: list[dict[str, object]] = json.loads(html.unescape(found.group(1)))
    return listed


def _wrong_cards(widget: ExerciseWidget) -> list[str]:
    made = widget.exercise
    assert isinstance(made, LegalCards)
    return [str(next(c for c in made.hand if c not in made.legal()))]


def test_the_work_of_earlier_visits_given_back_is_scored_with_this_visits_checks() -> None:
    from loo_tutor.teaching.marking import mark_text

    seed = next(s for s in range(100, 200) if isinstance(made := make(Kind.LEGAL_CARDS, s),
                                                          LegalCards)
                and set(made.hand) - set(made.legal()))
    earlier = Scoreboard()  # the first visit: a wrong check, a solution shown, one right
    cards = ExerciseWidget(1, seed=seed, scoreboard=earlier)
    cards.fill({"cards": _wrong_cards(cards)})
    cards.check_button.click()
    shown = ExerciseWidget(3, seed=7, scoreboard=earlier)
    shown.solution_button.click()
    right = ExerciseWidget(3, seed=11, scoreboard=earlier)
    right.fill(right.exercise.answers())  # type: ignore[union-attr]
    right.check_button.click()
    kept = _answers_listed(earlier)

    board = Scoreboard()  # the page after a reload: given what the browser kept
    assert "no exercise checked yet" in board.value
    board.resume(kept)
    board.resume(kept)  # taken once
    assert "Score: 1 of 3 right: 1 right at the first check, 1 solution shown, 1 wrong." \
        in board.value
    again = ExerciseWidget(1, seed=seed, scoreboard=board)
    again.fill(again.exercise.answers())  # type: ignore[union-attr]
    again.check_button.click()
    late = ExerciseWidget(3, seed=7, scoreboard=board)
    late.fill(late.exercise.answers())  # type: ignore[union-attr]
    late.check_button.click()  # right, but its solution was shown on the first visit
    work = board.work()
    assert [(i.kind, i.seed, i.outcome.value, i.checks) for i in work.items] == [
        ("legal-cards", seed, "right after several checks", 2),
        ("dealer", 7, "solution shown", 0), ("dealer", 11, "right at the first check", 1)]
    assert f"Score: {work.line()}: {work.tally()}." in board.value
    # The entries and the download carry the first visit's items; mark scores them the same.
    outcomes = {(e["name"], e["seed"]): (e["outcome"], e["checks"])
                for e in _answers_listed(board)}
    assert outcomes == {(i.kind, i.seed): (i.outcome.value, i.checks) for i in work.items}
    marked = mark_text(json.dumps(board.answers_file("Ida")))
    assert marked.read and not marked.problems
    assert [(i.kind, i.seed, i.outcome, i.checks) for i in marked.score().items] == [
        (i.kind, i.seed, i.outcome, i.checks) for i in work.items]


def test_a_classroom_page_scores_the_class_books_checks_and_its_own_not_yet_kept() -> None:
    seed = next(s for s in range(100, 200) if isinstance(made := make(Kind.LEGAL_CARDS, s),
                                                          LegalCards)
                and set(made.hand) - set(made.legal()))
    board = Scoreboard()
    cards = ExerciseWidget(1, seed=seed, scoreboard=board)
    cards.fill(cards.exercise.answers())  # type: ignore[union-attr]
    cards.check_button.click()
    report = re.search(r'data-loo-checked="([^"]*)"', cards.summary.value)
    assert report is not None
    own_id = json.loads(html.unescape(report.group(1)))["id"]
    assert "1 right at the first check" in board.value
    # The class book holds an earlier wrong check (before a restart) and this page's check.
    book = [["earlier-1", "legal-cards", seed, "wrong"], [own_id, "legal-cards", seed, "right"],
            ["earlier-2", "dealer", 7, "solution shown"], ["bad"], [1, 2, 3, 4]]
    board.from_book(book)
    assert "Score: 1 of 2 right: 1 right after several checks, 1 solution shown." \
        in board.value
    dealer = ExerciseWidget(3, seed=11, scoreboard=board)
    dealer.fill(dealer.exercise.answers())  # type: ignore[union-attr]
    dealer.check_button.click()  # not in the book yet: counted from the page
    assert "Score: 2 of 3 right: 1 right at the first check, 1 right after several checks, " \
        "1 solution shown." in board.value
    board.from_book(book[:1])  # given again: the new rows replace the old
    assert [(i.kind, i.outcome.value) for i in board.work().items] == [
        ("legal-cards", "right after several checks"), ("dealer", "right at the first check")]
