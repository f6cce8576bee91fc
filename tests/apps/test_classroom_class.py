"""The classroom knows its class: students join by name, every answer is kept, the teacher sees it.

The class book (``loo_tutor/apps/classroom/store.py``) is checked on its own; then
against a running server: a student's answers are judged by the server and
kept under the name their cookie belongs to, the teacher's routes refuse
anyone without the teacher's token (a student's cookie or a forged name
included), and in Debian's Chromium two students join, answer right and
wrong, and the teacher's page shows both within 2 seconds of the server
keeping them. A server killed with SIGKILL keeps every answer its pages
showed as checked.
"""

from __future__ import annotations

import contextlib
import csv
import http.cookiejar
import io
import json
import re
import sqlite3
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from loo_tutor.apps.classroom.store import SCHEMA_VERSION, ClassBook, ClassBookError
from loo_tutor.apps.cli import main
from loo_tutor.engine.cards import card_text
from loo_tutor.teaching.exercises import Kind, LegalCards, make
from loo_tutor.teaching.marking import GRADE_BOOK_COLUMNS, Mark, judge, key_answer

from browser_support import axe_findings, in_browser
from classroom_server import (
    Server,
    check_cards,
    free_port,
    issue_key,
    issued,
    kernels,
    serving,
    start,
    stop,
    teacher_url,
)

CODE = "owl-lamp-42"
EXERCISE = make(Kind.LEGAL_CARDS, 2024)  # the notebook's ExerciseWidget(1, seed=2024)


def _mark(verdict: str, rule: str = "", seed: int = 1) -> Mark:
    return Mark("legal-cards", seed, "[3S]", verdict, rule, verdict)


WHEN = "2026-12-04T10:00:00Z"


# -- the class book --------------------------------------------------------------------


def test_names_are_unique_whatever_their_capitals_and_spaces(tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    secret, name = book.join("  Ann   Smith ")
    assert secret and name == "Ann Smith"
    again, said = book.join("ann smith")
    assert again is None and said == "Choose another name."
    assert book.join("")[0] is None and book.join("x" * 41)[0] is None
    assert book.join("Bob\x00")[0] is None
    assert book.student_of(secret) == (1, "Ann Smith")
    assert book.student_of("forged") is None and book.student_of(None) is None


def test_a_check_sent_twice_is_one_row_and_rows_survive_reopening(tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    secret, _ = book.join("Ann")
    student = book.student_of(secret)
    assert student is not None
    assert book.record(student[0], "c1", _mark("wrong", "R-FOLLOW"), WHEN)
    assert not book.record(student[0], "c1", _mark("right"), WHEN)
    assert book.record(student[0], "c2", _mark("right"), WHEN)
    book.close()
    again = ClassBook(tmp_path)
    assert list(again.rows()) == [("Ann", _mark("wrong", "R-FOLLOW"), WHEN),
                                  ("Ann", _mark("right"), WHEN)]
    db = sqlite3.connect(tmp_path / "class.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_database_of_another_version_or_program_is_not_opened(tmp_path: Path) -> None:
    sqlite3.connect(tmp_path / "class.sqlite3").execute("PRAGMA user_version=99")
    with pytest.raises(ClassBookError, match="version 99"):
        ClassBook(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    db = sqlite3.connect(other / "class.sqlite3")
    db.execute("CREATE TABLE t (x)")
    db.commit()
    with pytest.raises(ClassBookError, match="another program"):
        ClassBook(other)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ClassBookError, match="cannot keep the class"):
        ClassBook(tmp_path / "file")


def test_the_summary_counts_variants_stuck_students_and_missed_rules(tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    ann = book.student_of(book.join("Ann")[0])
    bob = book.student_of(book.join("Bob")[0])
    assert ann and bob
    for n, mark in enumerate([_mark("wrong", "R-FOLLOW", 1), _mark("right", seed=1),
                              _mark("right", seed=2), _mark("not an exercise", seed=7)]):
        book.record(ann[0], f"a{n}", mark, WHEN)
    for n, mark in enumerate([_mark("wrong", "R-FOLLOW", 3), _mark("wrong", "R-HEAD", 3)]):
        book.record(bob[0], f"b{n}", mark, WHEN)
    summary = book.summary()
    assert [s.name for s in summary.students] == ["Ann", "Bob"]
    assert (summary.students[0].kinds["legal-cards"].tried,
            summary.students[0].kinds["legal-cards"].right) == (2, 2)
    assert summary.stuck == {"legal-cards": ["Bob"]}
    assert summary.missed == [("R-FOLLOW", 2, 2), ("R-HEAD", 1, 1)]
    own = book.summary(bob[0])
    assert [s.name for s in own.students] == ["Bob"] and own.answers == 2


def test_mark_class_prints_the_class_and_its_grade_book_after_the_lesson(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = ClassBook(tmp_path)
    ann = book.student_of(book.join("Ann")[0])
    bob = book.student_of(book.join("=Bob")[0])
    assert ann and bob
    book.record(ann[0], "a1", judge("legal-cards", 2024, key_answer(EXERCISE)), WHEN)
    book.record(ann[0], "a2", judge("legal-cards", 2024, ["AS", "2C"]), WHEN)
    book.record(bob[0], "b1", judge("legal-cards", 2024, "not a card"), WHEN)
    book.close()
    # One exercise each, scored as everywhere else: right at the first check, however
    # often it was checked again; an answer that cannot be read is wrong.
    assert main(["mark", "--class", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Ann ({tmp_path}): 1 of 1 right: legal-cards 1/1"
    assert lines[1].startswith("=Bob") and "0 of 1 right" in lines[1] and "1 unreadable" in lines[1]
    assert main(["mark", "--class", str(tmp_path), "--csv", "-"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert tuple(rows[0]) == GRADE_BOOK_COLUMNS
    assert [(row[0], row[4], row[7]) for row in rows[1:]] == [
        ("Ann", "right", "right at the first check"), ("'=Bob", "unreadable", "wrong")]
    empty = tmp_path / "empty"
    ClassBook(empty).close()
    assert main(["mark", "--class", str(empty)]) == 0
    assert capsys.readouterr().out == f"no answer is kept in {empty} yet\n"
    assert main(["mark", "--class", str(tmp_path / "none")]) == 2
    assert "no class is kept in" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


# -- a running server --------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("--pool-size", "0", "--class-code", CODE,
                 data=tmp_path_factory.mktemp("class")) as running:
        yield running


class Browser:
    """A browser of its own for plain HTTP: its cookies, its XSRF token."""

    def __init__(self, base: str, key: bytes | None = None) -> None:
        self.base = base
        self.key = key
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, path: str, **headers: str) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as reply:
                return reply.status, reply.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")

    def post(self, path: str, data: bytes, **headers: str) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as reply:
                return reply.status, reply.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")

    def xsrf(self) -> str:
        return next(c.value for c in self.cookies if c.name == "_xsrf")

    def join(self, name: str, code: str = CODE) -> tuple[int, str]:
        self.get("loo/join")
        form = urllib.parse.urlencode({"_xsrf": self.xsrf(), "name": name, "code": code})
        return self.post("loo/join", form.encode())

    def answer(self, report: dict[str, Any]) -> tuple[int, str]:
        """Send ``report``; signed as the class's pages sign it when the browser has the key."""
        if self.key is not None and "issued" not in report and isinstance(report.get("seed"), int):
            report = issued(report, self.key)
        return self.post("loo/answer", json.dumps(report).encode(),
                         **{"Content-Type": "application/json", "X-XSRFToken": self.xsrf()})


def test_students_join_once_with_the_code_and_a_name_of_their_own(server: Server) -> None:
    base = server.url
    assert f"Class code for students to type when they join: {CODE}" in "".join(server.log)
    status, page = Browser(base).join("Cleo", code="cat")
    assert status == 403 and "not the class code" in page
    assert Browser(base).join("Cleo")[0] == 200  # sent on to the list of notebooks
    status, page = Browser(base).join("cleo")
    assert status == 400 and "Choose another name." in page and "Cleo" not in page
    stranger = Browser(base)
    stranger.get("loo/join")
    assert stranger.answer({"id": "x", "kind": 1, "seed": 1, "answer": {}})[0] == 403


def test_answers_are_judged_by_the_server_under_the_cookies_name(server: Server) -> None:
    ann = Browser(server.url, issue_key(server.folder or Path()))
    assert ann.join("Ann")[0] == 200
    assert isinstance(EXERCISE, LegalCards)
    illegal = next(str(c) for c in EXERCISE.hand if c not in EXERCISE.legal())
    report = {"id": "ann-1", "kind": "legal-cards", "seed": 2024, "answer": [illegal],
              "verdict": "right", "rule": "", "student": "Bob"}
    status, reply = ann.answer(report)
    assert status == 200 and json.loads(reply)["verdict"] == "wrong"
    assert json.loads(ann.answer(report)[1])["new"] is False  # sent again: one row
    right = {"id": "ann-2", "kind": "legal-cards", "seed": 2024,
             "answer": key_answer(EXERCISE), "verdict": "wrong"}
    assert json.loads(ann.answer(right)[1])["verdict"] == "right"
    odd = {"id": "ann-3", "kind": "no-such-kind", "seed": 2024, "answer": ["AS"]}
    assert json.loads(ann.answer(odd)[1])["verdict"] == "not an exercise"
    assert ann.answer({"kind": 1, "seed": 1, "answer": []})[0] == 400  # no check id
    status, me = ann.get("loo/me")
    mine = json.loads(me)
    assert mine["name"] == "Ann" and mine["kinds"] == {"legal-cards": {"tried": 1, "right": 1}}
    assert "Bob" not in me and "Cleo" not in me


def test_the_teachers_routes_need_the_teachers_token(server: Server) -> None:
    teacher = teacher_url(server)
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(teacher).query)["token"][0]
    student = Browser(server.url)
    assert student.join("Dee")[0] == 200
    forged = Browser(server.url)
    for cookie in ("loo-student=Dee", "loo-teacher=Dee", "loo-teacher=" + "x" * len(token)):
        for path in ("loo/teacher", "loo/teacher/class", "loo/teacher/class.csv"):
            assert forged.get(path, Cookie=cookie)[0] == 403, (path, cookie)
    for path in ("loo/teacher", "loo/teacher/class", "loo/teacher/class.csv",
                 "loo/teacher?name=Dee", "loo/teacher/class?student=Dee"):
        assert Browser(server.url).get(path)[0] == 403, path
        assert student.get(path)[0] == 403, path
    status, page = student.get("voila/render/exercises.ipynb")
    assert status == 200 and token not in page
    teachers = Browser(server.url)
    status, page = teachers.get(teacher.removeprefix(server.url))
    assert status == 200 and "The class" in page and token not in page
    status, fragment = teachers.get("loo/teacher/class")
    assert status == 200 and 'data-loo-student="Ann"' in fragment


# -- in the browser ------------------------------------------------------------------------


def _join(context: Any, base: str, name: str, findings: list[str]) -> Any:
    page = context.new_page()
    page.goto(base + "voila/render/exercises.ipynb")
    page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                           timeout=120_000)
    page.locator(".loo-class-bar a.loo-join").click()
    page.locator("#loo-name").wait_for()
    findings.extend(axe_findings(page))
    page.fill("#loo-name", name)
    page.fill("#loo-code", CODE)
    page.locator("button", has_text="Join").click()
    page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                           timeout=120_000)
    page.locator(".loo-class-bar", has_text=f"Joined as {name}").wait_for(timeout=30_000)
    return page


def _shown(teacher: Any, name: str, score: str, within_ms: int) -> str:
    """The teacher's row for ``name`` once it shows ``score`` (right / tried), within the time."""
    row = teacher.locator(f'tr[data-loo-student="{name}"]').filter(has_text=score)
    row.wait_for(timeout=within_ms)
    return str(row.inner_text())


def test_two_students_answer_and_the_teacher_sees_both_at_once(server: Server) -> None:
    assert isinstance(EXERCISE, LegalCards)
    legal = [card_text(c) for c in EXERCISE.legal()]
    hand = [card_text(c) for c in EXERCISE.hand]
    illegal = [c for c in hand if c not in legal]
    assert illegal, "the exercise of seed 2024 should have a card that may not be played"
    seen: dict[str, str] = {}
    findings: list[str] = []

    def lesson(browser: Any) -> None:
        teacher = browser.new_context().new_page()
        teacher.goto(teacher_url(server))
        assert "token=" not in teacher.url
        eve = _join(browser.new_context(), server.url, "Eve", findings)
        fay = _join(browser.new_context(), server.url, "Fay", findings)
        findings.extend(axe_findings(eve, ".loo-class-bar"))
        check_cards(eve, legal)
        seen["Eve"] = _shown(teacher, "Eve", "1 / 1", 2_000)
        check_cards(fay, illegal)
        seen["Fay"] = _shown(teacher, "Fay", "0 / 1", 2_000)
        seen["missed"] = teacher.locator("table.loo-missed").inner_text()
        findings.extend(axe_findings(teacher))
        seen["Eve's own"] = eve.locator(".loo-class-bar").inner_text()
        with teacher.expect_download() as download:
            teacher.locator("a.loo-export").click()
        seen["csv"] = Path(download.value.path()).read_bytes().decode("utf-8")

    in_browser(lesson)
    assert not findings, "\n".join(findings)
    assert "1 / 1" in seen["Eve"] and "0 / 1" in seen["Fay"]
    assert re.search(r"R-[A-Z-]+", seen["Fay"]) and "R-" in seen["missed"]
    assert "legal-cards 1 / 1" in seen["Eve's own"] and "Fay" not in seen["Eve's own"]
    assert seen["csv"].startswith("\ufeff")  # a byte-order mark, for spreadsheets
    lines = seen["csv"].removeprefix("\ufeff").splitlines()
    assert lines[0] == ",".join(GRADE_BOOK_COLUMNS)  # the grade book of mark --class --csv
    assert any(line.startswith("Eve,legal-cards,2024,") and ",right," in line for line in lines)
    assert any(line.startswith("Fay,legal-cards,2024,") and ",wrong,R-" in line for line in lines)


_BACK = """({ticks, seen}) => {
  const root = document.documentElement?.dataset;  // none for a moment while the page reloads
  const bar = document.querySelector('.loo-class-bar[data-loo-kept="all"]');
  const exercise = [...document.querySelectorAll('.loo-exercise')]
    .find((one) => one.textContent.includes('Exercise 1:'));
  const mark = exercise && exercise.querySelector('[data-loo-checked]');
  if (root?.looClassroom !== 'live' || !bar || !mark || exercise.querySelector('.loo-pending')) {
    return false;
  }
  const now = [...exercise.querySelectorAll('.loo-form input[type="checkbox"]')]
    .map((box) => box.checked);
  const {id, answer} = JSON.parse(mark.dataset.looChecked);
  if (JSON.stringify(now) !== JSON.stringify(ticks) || seen.includes(id)) return false;
  return {bar: bar.innerText, id, verdict: mark.innerText, answer};
}"""
"""Once the page is back after a restart: its bar, and the check that waited, judged on the
ticks the student had (false until then)."""


def test_a_server_killed_mid_class_loses_no_answer_its_pages_showed(tmp_path: Path) -> None:
    """Checks kept across a SIGKILL; one made while the server is down waits, then is kept.

    The page opens again by itself once the server is back, with the student's
    ticks, and judges the check that waited; the time from the new server's
    address to that is printed (``-s`` shows it).
    """
    orphans: list[psutil.Process] = []
    first = start("--port", str(free_port()), "--pool-size", "0", data=tmp_path)
    servers = [first]
    checks: list[str] = []
    seen: dict[str, Any] = {}

    def lesson(browser: Any) -> None:
        context = browser.new_context()
        page = context.new_page()
        page.goto(first.url + "voila/render/exercises.ipynb")
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        page.locator(".loo-class-bar a.loo-join").click()
        page.fill("#loo-name", "Gus")
        page.locator("button", has_text="Join").click()
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        widget = page.locator(".loo-exercise").filter(has_text="Exercise 1:")
        boxes = widget.locator('.loo-form input[type="checkbox"]')
        for n in range(4):
            boxes.nth(n % boxes.count()).click()
            widget.locator("button", has_text="Check").first.click()
            page.wait_for_function(
                "(seen) => { const m = document.querySelector('.loo-exercise [data-loo-checked]');"
                " return m && !seen.includes(JSON.parse(m.dataset.looChecked).id); }",
                arg=checks, timeout=30_000)
            checks.append(json.loads(widget.locator("[data-loo-checked]").get_attribute(
                "data-loo-checked") or "{}")["id"])
        orphans.extend(kernels(first))  # a killed server cannot stop its kernels
        first.process.kill()  # SIGKILL, the last check shown perhaps not yet sent
        first.process.wait(timeout=30)
        bar = page.locator(".loo-class-bar[data-loo-offline]")
        bar.wait_for(timeout=30_000)
        seen["down"] = bar.inner_text()
        boxes.nth(boxes.count() - 1).click()  # work done while the server is down
        ticks = [boxes.nth(n).is_checked() for n in range(boxes.count())]
        seen["ticked"] = any(ticks)
        widget.locator("button", has_text="Check").first.click()
        waiting = widget.locator(".loo-pending")
        waiting.wait_for(timeout=30_000)
        seen["waiting"] = waiting.inner_text()
        seen["stale verdict shown"] = widget.locator(".loo-summary").is_visible()
        servers.append(start("--port", str(first.port), "--pool-size", "0", data=tmp_path,
                             same_port=True))
        back_at = time.monotonic()
        seen["back"] = page.wait_for_function(_BACK, arg={"ticks": ticks, "seen": checks},
                                              timeout=180_000).json_value()
        seen["usable after s"] = time.monotonic() - back_at
        context.close()

    try:
        in_browser(lesson)
    finally:
        for running in servers:
            stop(running)
        for orphan in orphans:
            with contextlib.suppress(psutil.NoSuchProcess):
                orphan.kill()
    print(f"the page was usable again {seen['usable after s']:.1f} s after the server was back")
    assert "The classroom server is not answering" in seen["down"]
    assert seen["ticked"] and "Your check waits for the server" in seen["waiting"]
    assert seen["stale verdict shown"] is False
    back = seen["back"]
    assert "Joined as Gus" in back["bar"] and "answers right" in back["verdict"]
    db = sqlite3.connect(tmp_path / "class.sqlite3")
    kept = [(row[0], row[1]) for row in db.execute(
        "SELECT check_id, answer FROM class_answers JOIN class_students ON class_students.id = "
        "class_answers.student WHERE class_students.name = 'Gus' ORDER BY class_answers.id")]
    assert sorted(check for check, _ in kept) == sorted([*checks, back["id"]])
    assert len(checks) == 4
    assert dict(kept)[back["id"]] == judge("legal-cards", 2024, back["answer"]).answer
