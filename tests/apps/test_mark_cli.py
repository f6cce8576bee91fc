"""``loo-tutor mark``: a worksheet's key marks all right, one spoiled answer is exactly one
wrong item under its rule, and bad files never stop a batch."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
import yaml

from loo_tutor.apps.classroom.store import ClassBook
from loo_tutor.apps.cli import main
from loo_tutor.engine.rules import RuleId
from loo_tutor.render.worksheet import MAX_COUNT
from loo_tutor.teaching.assignment import class_assignment, parse_assignment, save_for_class
from loo_tutor.teaching.exercises import Kind, make
from loo_tutor.teaching.follow_up import turns_on
from loo_tutor.teaching.marking import GRADE_BOOK_COLUMNS, LIMITS, judge, key_answer

from conftest import OWN_EXAMPLES
from marking_support import spoiled


def grade_book(capsys: pytest.CaptureFixture[str], *files: Path) -> tuple[int, list[list[str]]]:
    """The exit status and the grade book's rows (without the heading) of marking ``files``."""
    capsys.readouterr()
    code = main(["mark", "--csv", "-", *map(str, files)])
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert tuple(rows[0]) == GRADE_BOOK_COLUMNS
    return code, rows[1:]


@pytest.fixture(scope="module")
def worksheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sheet") / "w"
    assert main(["worksheet", "--seed", "7", "--out", str(folder)]) == 0
    return folder


def test_the_key_of_a_worksheet_marks_every_item_right(
        worksheet: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["mark", str(worksheet / "key.yaml")]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "30 of 30 right" in out and "legal-cards 5/5" in out
    code, rows = grade_book(capsys, worksheet / "key.yaml")
    assert code == 0 and len(rows) == 30 and {row[4] for row in rows} == {"right"}


def test_one_changed_answer_is_exactly_that_item_wrong_with_its_rule(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = yaml.safe_load((worksheet / "key.yaml").read_text(encoding="utf-8"))
    rules = {r.value for r in RuleId}
    tried = 0
    for index, item in enumerate(key["answers"]):
        exercise = make(item["kind"], item["seed"])
        for part, answer in spoiled(exercise):
            copy = {**key, "answers": [*key["answers"]]}
            copy["answers"][index] = {**item, "answer": answer}
            path = tmp_path / "copy.yaml"
            path.write_text(yaml.safe_dump(copy, sort_keys=False), encoding="utf-8")
            code, rows = grade_book(capsys, path)
            verdicts = [row[4] for row in rows]
            assert code == 0 and verdicts.count("wrong") == 1, (index, part)
            assert verdicts.index("wrong") == index and rows[index][5] in rules, (index, part)
            tried += 1
    assert tried > 30  # every part of every item, not one per item


def test_the_largest_worksheet_can_be_marked_against_its_own_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # worksheet's largest sheet (every kind, MAX_COUNT of each) and mark's limits agree
    assert main(["worksheet", "--count", str(MAX_COUNT), "--seed", "1", "--out",
                 str(tmp_path)]) == 0
    key = tmp_path / "key.yaml"
    assert len(key.read_text(encoding="utf-8")) * 5 // 4 < LIMITS.characters  # room to spare
    capsys.readouterr()
    assert main(["mark", "--key", str(key), str(key)]) == 0
    total = MAX_COUNT * len(Kind)
    assert f"{total} of {total} right" in capsys.readouterr().out


def test_the_key_of_an_exercise_made_from_a_record_marks_right(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = OWN_EXAMPLES / "01_seed000_forced_ace.yaml"
    assert main(["exercise", str(record), "--kinds", "settle,2", "--out",
                 str(tmp_path / "e")]) == 0
    assert (tmp_path / "e" / "record.yaml").exists()
    code, rows = grade_book(capsys, tmp_path / "e" / "key.yaml")
    assert code == 0 and [row[4] for row in rows] == ["right", "right"]


def test_json_is_read_and_the_time_goes_to_the_grade_book(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = yaml.safe_load((worksheet / "key.yaml").read_text(encoding="utf-8"))
    first = {**key["answers"][0], "time": "2026-12-04T10:15:00Z"}
    path = tmp_path / "ann.json"
    path.write_text(json.dumps({"student": "Ann Smith", "answers": [first]}), encoding="utf-8")
    code, rows = grade_book(capsys, path)
    assert code == 0 and rows[0][0] == "Ann Smith" and rows[0][4] == "right"
    assert rows[0][6] == "2026-12-04T10:15:00+00:00"


def test_bad_files_are_one_line_each_and_the_rest_is_marked(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = {
        "binary.yaml": b"\xff\xfe\x00garbage",
        "list.yaml": b"- 1\n- 2\n",
        "bomb.yaml": ("a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                      + "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]\n"
                                for p, c in zip("abcd", "bcde", strict=True))).encode(),
        "deep.yaml": ("answers: " + "[" * 200 + "]" * 200).encode(),
        "long.yaml": ("student: " + "x" * 100_000).encode(),
        "card.yaml": b"student: Bo\nanswers:\n- {kind: legal-cards, seed: 3, answer: [1Z]}\n"
                     b"- {kind: chess, seed: 3, answer: e4}\n"
                     b"- {kind: dealer, seed: 99999999999, answer: [stand]}\n",
    }
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
    files = [tmp_path / name for name in bad]
    capsys.readouterr()
    code = main(["mark", str(worksheet / "key.yaml"), *map(str, files),
                 str(tmp_path / "missing.yaml")])
    out, err = capsys.readouterr()
    assert code == 2
    assert "30 of 30 right" in out and "Bo (" in out
    assert "0 of 1 right: legal-cards 0/1; 1 unreadable, 2 not an exercise" in out
    lines = err.splitlines()
    assert len(lines) == len(bad) - 1 + 2 + 1  # card.yaml has two items that are no exercise
    assert main(["mark", "--key", "no\x00such", "a\x00b"]) == 2
    assert main(["mark", "a\x00b"]) == 2
    assert "a b: cannot read the file: embedded null byte" in capsys.readouterr().err
    for name in [*bad, "missing.yaml"]:
        assert any(line.startswith(str(tmp_path / name) + ": ") for line in lines), name
    assert any("card.yaml: answers[1] (chess, seed 3)" in line for line in lines)
    assert any("card.yaml: answers[2]" in line and "a seed is a whole number" in line
               for line in lines)


def test_the_grade_book_is_written_to_a_file(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "grades.csv"
    assert main(["mark", "--detail", "--csv", str(target), str(worksheet / "key.yaml")]) == 0
    out = capsys.readouterr().out
    assert f"wrote the grade book {target}" in out and "(answers[29]): right" in out
    written = target.read_bytes()
    assert written.startswith(b"\xef\xbb\xbfstudent,") and len(written.splitlines()) == 31
    assert main(["mark", "--csv", str(tmp_path / "no" / "such" / "dir.csv"),
                 str(worksheet / "key.yaml")]) == 2
    assert "cannot write the grade book" in capsys.readouterr().err


def test_a_seed_of_other_digits_is_one_item_unreadable_and_the_batch_goes_on(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = tmp_path / "odd.yaml"
    odd.write_text("student: Od\nanswers:\n- {kind: legal-cards, seed: '\u00b2', answer: [3S]}\n"
                   "- {kind: legal-cards, seed: '\u0663', answer: [3S]}\n", encoding="utf-8")
    key = str(worksheet / "key.yaml")
    target = tmp_path / "grades.csv"
    capsys.readouterr()
    assert main(["mark", key, str(odd), key, "--csv", str(target)]) == 2
    out, err = capsys.readouterr()
    assert out.count("30 of 30 right") == 2 and "Od (" in out and "unexpected" not in err
    assert err.count("a seed is a whole number") == 2
    assert len(target.read_text(encoding="utf-8-sig").splitlines()) == 1 + 30 + 2 + 30


def test_a_record_is_read_only_from_the_answers_files_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sheet = tmp_path / "sheet"
    sheet.mkdir()
    outside = tmp_path / "secret.yaml"
    outside.write_text((OWN_EXAMPLES / "01_seed000_forced_ace.yaml").read_text(encoding="utf-8"),
                       encoding="utf-8")
    answers = sheet / "answers.yaml"
    for name in ("../secret.yaml", str(outside), "/etc/passwd"):
        answers.write_text(yaml.safe_dump({"student": "Ed", "answers": [
            {"kind": "legal-cards", "seed": 1, "record": name, "answer": ["3S"]}]}),
            encoding="utf-8")
        capsys.readouterr()
        assert main(["mark", str(answers)]) == 2
        err = capsys.readouterr().err
        assert "is not in the answers file's folder" in err and "Traceback" not in err, name


def test_pipes_and_devices_are_refused_not_waited_on(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    answers = tmp_path / "a.yaml"
    answers.write_text("student: Al\nanswers: []\n", encoding="utf-8")
    for command in (["check", str(pipe)], ["mark", str(pipe)], ["mark", "/dev/zero"],
                    ["check", "/dev/zero"], ["mark", str(answers), "--csv", str(pipe)]):
        done = subprocess.run([sys.executable, "-m", "loo_tutor", *command], capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert done.returncode == 2, command
        assert "regular file" in done.stderr and "Traceback" not in done.stderr, command


def test_the_grade_book_never_overwrites_an_input_or_a_database_and_asks_before_others(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key.yaml"
    key.write_bytes((worksheet / "key.yaml").read_bytes())
    before = key.read_bytes()
    ClassBook(tmp_path / "class").close()
    database = tmp_path / "class" / "class.sqlite3"
    kept = database.read_bytes()
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes(kept)
    capsys.readouterr()
    for target, extra in ((key, ["--force"]), (database, ["--force", "--class", str(database.parent)]),
                          (copy, ["--force"])):
        assert main(["mark", str(key), "--csv", str(target), *extra]) == 2
        assert "write the grade book" in capsys.readouterr().err
    assert key.read_bytes() == before and database.read_bytes() == kept == copy.read_bytes()
    old = tmp_path / "grades.csv"
    old.write_text("last week\n", encoding="utf-8")
    assert main(["mark", str(key), "--csv", str(old)]) == 2
    assert "give --force" in capsys.readouterr().err and old.read_text() == "last week\n"
    assert main(["mark", str(key), "--csv", str(old), "--force"]) == 0
    assert old.read_text(encoding="utf-8-sig").startswith("student,")


# -- against an assignment ----------------------------------------------------------------------


def test_against_the_key_every_item_appears_for_every_student_and_typos_are_set_apart(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = yaml.safe_load((worksheet / "key.yaml").read_text(encoding="utf-8"))
    items = key["answers"]
    assert key["title"] and key["assignment"]
    ann = {"student": "Ann", "assignment": key["assignment"], "answers": [
        items[0],                                                   # right
        {**items[1], "answer": ["4X"]},                             # unreadable
        {**items[2], "seed": items[2]["seed"] + 1},                 # a mistyped seed
        items[3], items[3],                                         # the same exercise twice
        {**items[4], "solution_shown": True},                       # copied from the solution
    ]}
    (tmp_path / "ann.yaml").write_text(yaml.safe_dump(ann, allow_unicode=True), encoding="utf-8")
    (tmp_path / "bo.yaml").write_text("student: [", encoding="utf-8")
    capsys.readouterr()
    code = main(["mark", "--key", str(worksheet / "key.yaml"), "--detail",
                 str(tmp_path / "ann.yaml"), str(tmp_path / "bo.yaml")])
    out, err = capsys.readouterr()
    assert code == 2 and "bo.yaml" in err and "ann.yaml" not in err
    assert ("Ann (" in out and "2 of 30 right" in out and "26 not answered, 1 unreadable, "
            "1 solution shown, 1 not on the assignment, not marked" in out)
    assert "bo (" in out and "0 of 30 right: the file could not be read" in out
    assert "without --key" not in out
    detail = [line for line in out.splitlines() if line.startswith("  ")]
    assert len(detail) == 31 and "unreadable, counted as wrong" in detail[1]
    assert "cannot read '4X' as a card" in detail[1] and "not answered" in detail[2]
    assert "not on the assignment, not marked" in detail[-1]
    capsys.readouterr()
    main(["mark", "--key", str(worksheet / "key.yaml"), "--csv", "-",
          str(tmp_path / "ann.yaml"), str(tmp_path / "bo.yaml")])
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))[1:]
    ann_rows = [row for row in rows if row[0] == "Ann"]
    assert [row[7] for row in ann_rows[:6]] == [
        "right at the first check", "wrong", "not answered", "right at the first check",
        "solution shown", "not answered"]
    assert ann_rows[-1][7] == "not on the assignment" and ann_rows[-1][4] == ""
    assert [row[0] for row in rows if row[0] == "bo"] == ["bo"]
    assert next(row for row in rows if row[0] == "bo")[7] == "unreadable file"


def test_without_the_key_the_totals_are_said_to_count_only_what_was_read(
        worksheet: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["mark", str(worksheet / "key.yaml")]) == 0
    assert "without --key, the totals count only the items that could be read" in (
        capsys.readouterr().out)


def test_a_short_assignment_file_is_printed_and_marked_in_its_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "week.yaml").write_text(
        "title: Week 3\nid: week-3\nexercises:\n  - {kind: settle, seed: 4}\n"
        "  - {kind: legal-cards, seeds: [8, 2]}\n  - {kind: 4, seed: 1}\n", encoding="utf-8")
    assert main(["worksheet", "--assignment", str(tmp_path / "week.yaml"),
                 "--out", str(tmp_path / "out")]) == 0
    sheet = (tmp_path / "out" / "worksheet.html").read_text(encoding="utf-8")
    assert "Week 3" in sheet and "Assignment week-3" in sheet
    names = re.findall(r"\((exercise \d, seed \d+)\)", sheet)
    assert names == ["exercise 4, seed 4", "exercise 1, seed 8", "exercise 1, seed 2",
                     "exercise 4, seed 1"]
    key = yaml.safe_load((tmp_path / "out" / "key.yaml").read_text(encoding="utf-8"))
    assert key["assignment"] == "week-3" and key["title"] == "Week 3"
    capsys.readouterr()
    assert main(["mark", "--key", str(tmp_path / "week.yaml"),
                 str(tmp_path / "out" / "key.yaml")]) == 0
    assert "4 of 4 right: legal-cards 2/2, settle 2/2" in capsys.readouterr().out


def test_a_key_that_is_no_assignment_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.yaml").write_text("title: x\nexercises: [{kind: chess, seed: 1}]\n",
                                       encoding="utf-8")
    capsys.readouterr()
    assert main(["mark", "--key", str(tmp_path / "bad.yaml"), str(tmp_path / "bad.yaml")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "exercises[0].kind" in err


def test_the_assignment_the_teachers_page_shows_is_one() -> None:
    page = (Path(__file__).resolve().parents[2] / "book" / "teachers.md").read_text(
        encoding="utf-8")
    text = re.search(r"```text\n(title: .*?)```", page, re.S)
    assert text is not None
    shown = parse_assignment(yaml.safe_load(text.group(1)))
    assert shown.id == "week-3" and len(shown.items) == 5 and shown.items[-1].record


def test_a_follow_up_sheet_turns_each_exercise_on_a_rule_the_student_missed(
        worksheet: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = yaml.safe_load((worksheet / "key.yaml").read_text(encoding="utf-8"))
    item = next(i for i in key["answers"] if i["kind"] == "find-illegal")
    exercise = make(item["kind"], item["seed"])
    wrong = {**item["answer"], "rule": next(o for o in exercise.field("rule").options
                                            if o != exercise.rule.value)}
    ann = {"student": "Ann Smith", "answers": [*key["answers"][:3], {**item, "answer": wrong}]}
    (tmp_path / "ann.yaml").write_text(yaml.safe_dump(ann, allow_unicode=True), encoding="utf-8")
    capsys.readouterr()
    assert main(["mark", "--key", str(worksheet / "key.yaml"), "--follow-up",
                 str(tmp_path / "more"), str(tmp_path / "ann.yaml"),
                 str(worksheet / "key.yaml")]) == 0
    out = capsys.readouterr().out
    assert f"Ann Smith: wrote {tmp_path / 'more' / 'ann-smith' / 'worksheet.html'}" in out
    assert "no rule missed, so no follow-up sheet" in out  # the key itself
    follow = yaml.safe_load((tmp_path / "more" / "ann-smith" / "key.yaml").read_text(
        encoding="utf-8"))
    assert follow["title"] == f"Follow-up for Ann Smith: {exercise.rule}"
    made = [make(i["kind"], i["seed"]) for i in follow["answers"]]
    assert len(made) == 2 and all(turns_on(e, exercise.rule) for e in made)
    assert {(e.kind.word, e.seed) for e in made}.isdisjoint(
        (i["kind"], i["seed"]) for i in key["answers"])
    capsys.readouterr()
    assert main(["mark", "--key", str(tmp_path / "more" / "ann-smith" / "key.yaml"),
                 str(tmp_path / "more" / "ann-smith" / "key.yaml")]) == 0
    assert "2 of 2 right" in capsys.readouterr().out


def test_a_follow_up_needs_an_assignment(worksheet: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["mark", "--follow-up", str(tmp_path), str(worksheet / "key.yaml")]) == 2
    assert "--follow-up needs the assignment" in capsys.readouterr().err


def test_mark_class_uses_the_classs_assignment(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    first, second = make(1, 2024), make(3, 7)
    save_for_class(tmp_path, parse_assignment(
        {"title": "Today", "id": "today", "exercises": [{"kind": 1, "seed": 2024},
                                                        {"kind": 3, "seed": 7}]}))
    assert class_assignment(tmp_path) is not None
    book = ClassBook(tmp_path)
    ann = book.student_of(book.join("Ann")[0])
    assert ann
    book.record(ann[0], "a1", judge("legal-cards", 2024, ["AS"]), "2026-12-06T09:00:00+00:00")
    book.record(ann[0], "a2", judge("legal-cards", 2024, key_answer(first)),
                "2026-12-06T09:01:00+00:00")
    book.record(ann[0], "a3", judge("trick", 5, "Anna"), "2026-12-06T09:02:00+00:00")
    book.close()
    capsys.readouterr()
    assert main(["mark", "--class", str(tmp_path), "--detail"]) == 0
    out = capsys.readouterr().out
    assert (f"Ann ({tmp_path}): 1 of 2 right: legal-cards 1/1, dealer 0/1; 1 not answered, "
            "1 not on the assignment, not marked") in out
    assert "right after several checks (2 checks)" in out and "without --key" not in out
    assert second.kind.word in out
