"""Worksheets on paper: ``loo-tutor worksheet`` and ``loo-tutor exercise``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from loo_tutor.apps.cli import main
from loo_tutor.render.worksheet import position_html, solution_html, worksheet_seeds
from loo_tutor.teaching.exercises import make

from conftest import OWN_EXAMPLES

FORCED_ACE = OWN_EXAMPLES / "01_seed000_forced_ace.yaml"
FOLLOW_SUIT = OWN_EXAMPLES / "31_follow_suit.yaml"


def sheet(folder: Path) -> tuple[bytes, bytes]:
    return (folder / "worksheet.html").read_bytes(), (folder / "answers.html").read_bytes()


def test_the_same_seed_writes_byte_identical_files(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    args = ["worksheet", "--kinds", "1,4", "--count", "3", "--seed", "1234"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    assert sheet(tmp_path / "a") == sheet(tmp_path / "b")
    assert main(["worksheet", "--kinds", "1,4", "--count", "3", "--seed", "1235",
                 "--out", str(tmp_path / "c")]) == 0
    assert sheet(tmp_path / "c") != sheet(tmp_path / "a")
    out = capsys.readouterr().out
    assert "worksheet.html" in out and "answers.html" in out


def test_the_worksheet_holds_each_exercise_and_the_key_each_answer(tmp_path: Path) -> None:
    assert main(["worksheet", "--kinds", "2,4", "--count", "2", "--seed", "7",
                 "--out", str(tmp_path)]) == 0
    work, key = (t.decode() for t in sheet(tmp_path))
    seeds = worksheet_seeds(7, 4)
    for number, (kind, seed) in enumerate(zip([2, 2, 4, 4], seeds, strict=True), 1):
        exercise = make(kind, seed)
        assert f"exercise {kind}, seed {seed}" in work and f'id="exercise-{number}"' in work
        assert exercise.question.replace('"', "&quot;").replace("'", "&#x27;") in work
        for answer in exercise.solution():
            assert answer.text.replace("'", "&#x27;") in key
    assert "R-WIN" in key and "R-CARRY" in key
    assert "R-CARRY" not in work  # the worksheet gives no answers away
    assert work.count('role="img" aria-label="') > 4  # every card has a text alternative


def test_every_type_can_go_on_a_sheet(tmp_path: Path) -> None:
    assert main(["worksheet", "--count", "1", "--seed", "3", "--out", str(tmp_path)]) == 0
    work = (tmp_path / "worksheet.html").read_text()
    assert [int(n) for n in re.findall(r"<h2>Type (\d):", work)] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("args", [
    ["--kinds", "7"], ["--kinds", "1,x"], ["--kinds", ""], ["--count", "0"],
    ["--count", "201"], ["--count", "many"], ["--seed", "-1"], ["--seed", "1.5"], [],
])
def test_bad_arguments_give_one_line_and_exit_2(args: list[str], tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = [] if not args else ["--out", str(tmp_path)]
    with pytest.raises(SystemExit) as stop:
        main(["worksheet", *args, *out])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ")
    assert captured.err.count("\n") == 1


def test_an_unwritable_folder_is_one_line_and_exit_2(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["worksheet", "--kinds", "1", "--count", "1", "--out", str(blocker)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: cannot write") and captured.err.count("\n") == 1


def test_long_runs_show_a_progress_bar(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worksheet", "--kinds", "1,2", "--count", "3", "--out", str(tmp_path),
                 "--progress"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("\rexercises: ") and "| 6/6 [" in err and "|##########|" in err
    assert main(["worksheet", "--kinds", "1", "--count", "2", "--out", str(tmp_path)]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: quiet


def test_a_teachers_record_becomes_a_sheet(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exercise", str(FORCED_ACE), "--kind", "1,4", "--out", str(tmp_path)]) == 0
    work, key = (t.decode() for t in sheet(tmp_path))
    assert "01_seed000_forced_ace.yaml" in work and "Settle the deal" in work
    assert "R-PAY-THIRD" in key
    assert main(["exercise", str(FOLLOW_SUIT), "--kind", "5", "--out", str(tmp_path)]) == 0
    assert "R-FOLLOW" in (tmp_path / "answers.html").read_text()
    capsys.readouterr()


@pytest.mark.parametrize(("record", "kind", "start"), [
    (FOLLOW_SUIT, "4", "error: the record has an illegal action"),
    (OWN_EXAMPLES / "40_malformed_four_players.yaml", "4", "malformed record: "),
    (Path("no/such/record.yaml"), "4", "error: cannot read"),
    (FORCED_ACE, "8", "error: argument --kind"),
])
def test_a_record_that_cannot_make_the_exercise_is_one_line_and_exit_2(
        record: Path, kind: str, start: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(["exercise", str(record), "--kind", kind, "--out", str(tmp_path)])
    except SystemExit as stop:
        code = int(stop.code or 0)
    assert code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(start)
    assert captured.err.count("\n") == 1


def test_the_installed_command_runs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "loo_tutor", "worksheet", "--kinds", "3",
                           "--count", "2", "--seed", "5", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "answers.html").exists()


def test_rule_links_point_into_the_book_when_asked() -> None:
    exercise = make(4, 11)
    linked = solution_html(exercise, base="../book/")
    assert 'href="../book/rules.html#r-carry"' in linked
    assert "href=" not in solution_html(exercise)
    assert "<table" in position_html(make(5, 11))


def test_the_sheet_prints_the_site_link_that_opens_its_assignment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from loo_tutor.teaching.assignment import from_link_query, read_assignment

    assert main(["worksheet", "--kinds", "settle,dealer", "--count", "2", "--seed", "3",
                 "--out", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    link = lines[-1].strip()
    assert link.startswith("notebooks/exercises.html?assignment=")
    assert from_link_query(link.partition("?")[2]) == read_assignment(tmp_path / "key.yaml")
    big = tmp_path / "big"
    assert main(["worksheet", "--kinds", "settle,dealer", "--count", "200", "--out",
                 str(big)]) == 0
    assert "no link for the site: it would be" in capsys.readouterr().out


def test_classroom_assignment_is_kept_in_the_class_folder_for_mark_class(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from loo_tutor.teaching.assignment import class_assignment, read_assignment

    assert main(["worksheet", "--kinds", "trick", "--count", "2", "--out", str(tmp_path)]) == 0
    key = tmp_path / "key.yaml"
    room = tmp_path / "class"
    capsys.readouterr()
    # a book that is not one stops the server after the assignment is kept, before it serves
    assert main(["classroom", "--assignment", str(key), "--data", str(room), "--book",
                 str(tmp_path / "no-book")]) == 2
    said = capsys.readouterr()
    assert f"the class's assignment is {read_assignment(key).id}" in said.out
    assert "not a built book" in said.err
    assert class_assignment(room) == read_assignment(key)
    broken = tmp_path / "broken.yaml"
    broken.write_text("title: x\n", encoding="utf-8")
    assert main(["classroom", "--assignment", str(broken), "--data", str(room)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert class_assignment(room) == read_assignment(key)  # left as it was
