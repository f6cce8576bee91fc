"""The class's record is one file a teacher can copy, and a class that cannot be kept says so.

* The write-ahead log is copied into ``class.sqlite3`` by the book's check
  (which the server runs every half minute, or as often as
  ``--check-class-every`` says) and when it closes, so that
  file alone holds every answer; ``loo-tutor class backup`` copies it whole.
* A folder that cannot be written, or a damaged database, is said in one
  plain line at start and on the teacher's page; joins and answers are
  refused with 503 and a plain line, never a 500 or a traceback, and
  ``mark --class`` names the damage.

A read-only folder is made with ``chmod`` or, for root (whom ``chmod`` does
not stop), with the immutable attribute of ``chattr``.
"""

from __future__ import annotations

import contextlib
import datetime
import html
import json
import os
import re
import shutil
import sqlite3
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_classroom_class import Browser

from loo_tutor.apps.classroom.handlers import UNKEPT, class_html, initials
from loo_tutor.apps.classroom.store import CHECK_S, DATABASE, ClassBook, ClassBookError
from loo_tutor.apps.cli import build_parser, main
from loo_tutor.teaching.exercises import Kind, make
from loo_tutor.teaching.marking import Mark, judge, key_answer
from loo_tutor.teaching.score import SOLUTION

from browser_support import axe_findings, in_browser
from classroom_server import free_port, issue_key, start, stop, teacher_url

WHEN = "2026-12-05T09:00:00Z"
RIGHT = Mark("legal-cards", 1, "[3S]", "right", "", "right")
EXERCISE = make(Kind.LEGAL_CARDS, 2024)


def _alone(database: Path, into: Path) -> list[str]:
    """The check ids a copy of ``database`` alone holds (no write-ahead log beside it)."""
    into.mkdir(exist_ok=True)
    copy = into / DATABASE
    copy.unlink(missing_ok=True)
    shutil.copyfile(database, copy)
    db = sqlite3.connect(copy)
    try:
        if not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            return []  # not even the tables yet
        return [row[0] for row in db.execute("SELECT check_id FROM class_answers ORDER BY id")]
    finally:
        db.close()


def _book_with(folder: Path, checks: int) -> tuple[ClassBook, str]:
    """A class book in ``folder`` where Ann checked ``checks`` times; and Ann's secret."""
    book = ClassBook(folder)
    secret = book.join("Ann")[0]
    student = book.student_of(secret)
    assert secret and student
    for n in range(checks):
        assert book.record(student[0], f"c{n}", RIGHT, WHEN)
    return book, secret


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a folder or a file) read-only for the server, even one run by root."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    if shutil.which("chattr") is None:
        pytest.skip("root ignores chmod, and chattr is not installed to make a folder read-only")
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"root ignores chmod, and chattr cannot make {path} read-only here: "
                    f"{made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def _damage(database: Path) -> None:
    data = bytearray(database.read_bytes())
    for at in range(4096, len(data), 7):  # every page but the first, header and schema
        data[at] = 0xAB
    database.write_bytes(bytes(data))


# -- the class book ----------------------------------------------------------------------


def test_the_database_file_alone_holds_every_answer_once_checked_and_once_closed(
        tmp_path: Path) -> None:
    book, _ = _book_with(tmp_path / "class", 3)
    database = tmp_path / "class" / DATABASE
    assert _alone(database, tmp_path / "before") == []  # the answers are in the log only
    assert book.check() is None
    assert _alone(database, tmp_path / "checked") == ["c0", "c1", "c2"]
    student = book.student_of(book.join("Bob")[0])
    assert student and book.record(student[0], "c3", RIGHT, WHEN)
    book.close()
    assert sorted(p.name for p in (tmp_path / "class").iterdir()) == [DATABASE]
    assert _alone(database, tmp_path / "closed") == ["c0", "c1", "c2", "c3"]


def test_a_log_deleted_while_the_class_is_open_loses_no_answer_acknowledged(
        tmp_path: Path) -> None:
    book, secret = _book_with(tmp_path / "class", 2)
    database = tmp_path / "class" / DATABASE
    log = database.with_name(DATABASE + "-wal")
    log.unlink()  # a teacher tidying the folder while the server runs
    student = book.student_of(secret)
    assert student and book.record(student[0], "c2", RIGHT, WHEN)
    # A server killed now leaves only the folder's files: the file alone holds every answer.
    assert _alone(database, tmp_path / "killed") == ["c0", "c1", "c2"]
    log.unlink()
    log.write_bytes(b"")  # replaced by another file, as another program opening it would
    assert book.record(student[0], "c3", RIGHT, WHEN)
    assert _alone(database, tmp_path / "killed again") == ["c0", "c1", "c2", "c3"]
    assert book.record(student[0], "c4", RIGHT, WHEN)
    assert book.check() is None
    assert _alone(database, tmp_path / "checked") == ["c0", "c1", "c2", "c3", "c4"]
    book.close()
    assert ClassBook(database, create=False).count() == 5


def test_class_backup_copies_the_class_into_one_file_that_mark_reads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    book, _ = _book_with(folder, 2)  # open, as under a running server: the answers in its log
    copy = tmp_path / "copy.sqlite3"
    assert main(["class", "backup", str(folder), str(copy)]) == 0
    assert f"into {copy}" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class", "copy.sqlite3"]
    assert sqlite3.connect(copy).execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert main(["mark", "--class", str(copy)]) == 0
    assert capsys.readouterr().out.startswith("Ann (")
    assert main(["class", "backup", str(folder), str(copy)]) == 2
    assert "exists already" in capsys.readouterr().err
    assert main(["class", "backup", str(tmp_path / "none"), str(tmp_path / "other")]) == 2
    assert "no class is kept in" in capsys.readouterr().err
    book.close()


def test_a_folder_that_cannot_be_written_is_read_and_every_write_refused(
        tmp_path: Path) -> None:
    folder = tmp_path / "class"
    book, _ = _book_with(folder, 2)
    token = book.teacher_token()
    book.close()
    with read_only(folder):
        book = ClassBook(folder)
        assert book.problem and f"the class folder {folder} cannot be written" in book.problem
        assert book.count() == 2 and book.teacher_token() == token
        with pytest.raises(ClassBookError, match="cannot be written"):
            book.join("Bob")
        with pytest.raises(ClassBookError, match="cannot be written"):
            book.record(1, "c9", RIGHT, WHEN)
        book.close()
        assert [s.name for s in ClassBook(folder, create=False).summary().students] == ["Ann"]
    nowhere = tmp_path / "locked"
    nowhere.mkdir()
    with read_only(nowhere):
        book = ClassBook(nowhere / "class")
        assert book.problem and "cannot be written" in book.problem
        with pytest.raises(ClassBookError):
            book.summary()
        assert book.teacher_token() == book.teacher_token()  # one for this run


def test_a_damaged_database_is_named_by_the_book_and_by_mark(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    _book_with(folder, 50)[0].close()
    _damage(folder / DATABASE)
    book = ClassBook(folder)
    assert book.problem and f"the class book {folder / DATABASE} is damaged" in book.problem
    assert "\n" not in book.problem
    with pytest.raises(ClassBookError, match="damaged"):
        book.record(1, "c99", RIGHT, WHEN)
    assert main(["mark", "--class", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: the class book {folder / DATABASE} is damaged (")
    assert "fault in loo-tutor" not in err and len(err.splitlines()) == 1

    # A damaged copy of the book's file, given itself, is named as given.
    copy = tmp_path / "copy.sqlite3"
    copy.write_bytes((folder / DATABASE).read_bytes())
    assert main(["mark", "--class", str(copy)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: the class book {copy} is damaged (")


def test_a_log_that_cannot_be_copied_into_the_file_stops_the_answers(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    book, _ = _book_with(folder, 1)
    with read_only(folder / DATABASE):
        problem = book.check()
        assert problem and "cannot be written" in problem
        with pytest.raises(ClassBookError):
            book.record(1, "c1", RIGHT, WHEN)
    assert book.check() is None  # well again: answers are taken
    assert book.record(1, "c1", RIGHT, WHEN)
    book.close()


# -- a running server --------------------------------------------------------------------


def _wait_until(condition: object, what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.5)


CHECK_EVERY_S = 2
"""The ``--check-class-every`` of the test below, in seconds; the default (30 s) is held by
the test before it."""


def test_the_class_is_checked_every_half_minute_unless_told_otherwise() -> None:
    assert build_parser().parse_args(["classroom"]).check_class_every * 60 == CHECK_S == 30
    assert build_parser().parse_args(
        ["classroom", "--check-class-every", "2s"]).check_class_every * 60 == 2
    with pytest.raises(SystemExit):
        build_parser().parse_args(["classroom", "--check-class-every", "0s"])


def test_the_server_copies_its_log_into_the_file_while_it_runs_and_when_it_stops(
        tmp_path: Path) -> None:
    folder = tmp_path / "class"
    server = start("--port", str(free_port()), "--pool-size", "0",
                   "--check-class-every", f"{CHECK_EVERY_S}s", data=folder)
    try:
        ann = Browser(server.url, issue_key(folder))
        assert ann.join("Ann", code="")[0] == 200
        right = {"id": "first", "kind": "legal-cards", "seed": 2024,
                 "answer": key_answer(EXERCISE)}
        assert ann.answer(right)[0] == 200
        _wait_until(lambda: _alone(folder / DATABASE, tmp_path / "copy") == ["first"],
                    "the answer never reached class.sqlite3 while the server ran")
        assert ann.answer({**right, "id": "second"})[0] == 200
        answered = time.monotonic()
        _wait_until(lambda: _alone(folder / DATABASE, tmp_path / "copy 2") == ["first", "second"],
                    "the second answer never reached class.sqlite3 while the server ran")
        # copied as often as the option says, well before the default's half minute
        assert time.monotonic() - answered < CHECK_S / 2
        assert ann.answer({**right, "id": "third"})[0] == 200
    finally:
        assert stop(server) == 0
    assert sorted(p.name for p in folder.iterdir()) == [DATABASE]
    assert _alone(folder / DATABASE, tmp_path / "after") == ["first", "second", "third"]


def _refuses(base: str, log: list[str], teacher: str, ann: str) -> dict[str, Any]:
    """What a server that cannot keep its class says: at start, to students, to the teacher.

    Ann joined before, and her browser holds the secret ``ann``.
    """
    joined = Browser(base).join("Bob", code="")
    student = Browser(base)
    student.get("loo/join")
    answered = student.post(
        "loo/answer", json.dumps({"id": "x", "kind": "legal-cards", "seed": 2024,
                                  "answer": key_answer(EXERCISE)}).encode(),
        **{"Content-Type": "application/json", "X-XSRFToken": student.xsrf(),
           "Cookie": f"_xsrf={student.xsrf()}; loo-student={ann}"})
    teachers = Browser(base)
    page = teachers.get(teacher.removeprefix(base))
    fragment = teachers.get("loo/teacher/class")
    return {"log": "".join(log), "joined": joined, "answered": answered, "page": page,
            "fragment": fragment}


def _assert_refused(seen: dict[str, Any], problem: str) -> None:
    log = str(seen["log"])
    assert f"warning: {problem}" in log and "Traceback" not in log
    joined: tuple[int, str] = seen["joined"]
    assert joined == (503, UNKEPT)
    answered: tuple[int, str] = seen["answered"]
    assert answered[0] == 503 and json.loads(answered[1]) == {"error": UNKEPT, "kept": False}
    for status, page in (seen["page"], seen["fragment"]):
        assert status == 200 and "The class cannot be kept:" in page and problem in page


def test_a_server_on_a_read_only_folder_says_so_and_refuses_joins_and_answers(
        tmp_path: Path) -> None:
    folder = tmp_path / "class"
    book, ann = _book_with(folder, 2)
    book.close()
    with read_only(folder):
        server = start("--port", str(free_port()), "--pool-size", "0", data=folder)
        try:
            seen = _refuses(server.url, server.log, teacher_url(server), ann)
            seen["count"] = Browser(server.url).get(
                teacher_url(server).removeprefix(server.url))[1]
        finally:
            stop(server)
    _assert_refused(seen, f"the class folder {folder} cannot be written")
    assert "2 answers checked" in str(seen["count"])  # the class kept before is still shown


def test_a_server_on_a_damaged_database_says_so_and_refuses_joins_and_answers(
        tmp_path: Path) -> None:
    folder = tmp_path / "class"
    book, ann = _book_with(folder, 50)
    book.close()
    _damage(folder / DATABASE)
    server = start("--port", str(free_port()), "--pool-size", "0", data=folder)
    try:
        seen = _refuses(server.url, server.log, teacher_url(server), ann)
        token = urllib.parse.parse_qs(urllib.parse.urlsplit(teacher_url(server)).query)
    finally:
        stop(server)
    _assert_refused(seen, f"the class book {folder / DATABASE} is damaged")
    assert token["token"][0]  # a token for this run, the book's own being unreadable
    assert judge("legal-cards", 2024, key_answer(EXERCISE)).is_right


# -- coming back from another computer -----------------------------------------------------


def test_a_student_rejoins_with_their_code_or_once_the_teacher_releases_the_name(
        tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    first, _ = book.join("Ann Smith")
    ann = book.student_of(first)
    assert first and ann
    code = book.rejoin_code(ann[0])
    assert len(code) == 6 and book.rejoin_code(ann[0]) == code
    assert book.join("ann smith")[0] is None
    assert book.join("ann smith", "XXXXXX")[0] is None
    second, name = book.join("ann  smith", code.lower())
    assert second and name == "Ann Smith" and book.student_of(second) == ann
    assert book.student_of(first) == ann  # both computers stay joined
    assert book.release("ANN SMITH") == "Ann Smith" and book.release("Nobody") is None
    assert book.student_of(first) is None and book.student_of(second) is None
    third, _ = book.join("Ann Smith")  # released: no code asked
    assert third and book.student_of(third) == ann
    assert book.rejoin_code(ann[0]) != code and book.join("Ann Smith")[0] is None


def test_in_the_classroom_a_student_comes_back_from_another_browser(tmp_path: Path) -> None:
    server = start("--port", str(free_port()), "--pool-size", "0", data=tmp_path / "class")
    try:
        first = Browser(server.url)
        assert first.join("Bea", code="")[0] == 200
        me = json.loads(first.get("loo/me")[1])
        elsewhere = Browser(server.url)
        elsewhere.get("loo/join")
        form = {"_xsrf": elsewhere.xsrf(), "name": "bea", "rejoin": me["rejoin"]}
        joined = elsewhere.post("loo/join", urllib.parse.urlencode(form).encode())
        again = json.loads(elsewhere.get("loo/me")[1])
        teacher = Browser(server.url)
        page = teacher.get(teacher_url(server).removeprefix(server.url))[1]
        released = teacher.post("loo/teacher/release", urllib.parse.urlencode(
            {"_xsrf": teacher.xsrf(), "name": "Bea"}).encode())
        student_release = first.post("loo/teacher/release", urllib.parse.urlencode(
            {"_xsrf": first.xsrf(), "name": "Bea"}).encode())
        third = Browser(server.url)
        third_join = third.join("Bea", code="")
        after = [json.loads(b.get("loo/me")[1])["name"] for b in (first, elsewhere, third)]
    finally:
        stop(server)
    assert me["name"] == "Bea" and len(me["rejoin"]) == 6
    assert joined[0] == 200 and again["name"] == "Bea" and again["rejoin"] == me["rejoin"]
    assert "Release the name" in page
    assert released[0] == 200 and "Bea can join again from another computer" in released[1]
    assert student_release[0] == 403
    assert third_join[0] == 200 and after == [None, None, "Bea"]


# -- the teacher's page ------------------------------------------------------------------


def test_the_teachers_page_lists_kinds_one_to_six_with_their_names(tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    student = book.student_of(book.join("Zoë Ng")[0])
    assert student
    for n, kind in enumerate((Kind.SESSION, Kind.SETTLE, Kind.LEGAL_CARDS, Kind.DEALER)):
        book.record(student[0], f"k{n}", judge(kind.word, 5, "nothing"), WHEN)
    page = class_html(book.summary(), "")
    headings = re.findall(r'<th scope="col">(\d)\. ([^<]+)<br>', page)
    assert headings == [(str(int(kind)), html.escape(kind.title)) for kind in sorted(
        (Kind.SESSION, Kind.SETTLE, Kind.LEGAL_CARDS, Kind.DEALER), key=int)]
    assert initials("Zoë  van Ng") == "Z. v. N." and '<time datetime="' + WHEN in page


_SMALL_CONTROLS = """() => [...document.querySelectorAll('button, input, select, a.loo-export')]
  .filter((el) => el.getClientRects().length)
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, box]) => box.width < 24 || box.height < 24)
  .map(([el, box]) => `${el.tagName} ${el.name || el.innerText} ${box.width}x${box.height}`)"""
"""The controls of a page (links in a sentence aside) smaller than 24 x 24 px (WCAG 2.2's smallest target)."""


def test_the_teachers_page_in_the_teachers_time_zone_and_on_a_projector(
        tmp_path: Path) -> None:
    server = start("--port", str(free_port()), "--pool-size", "0", data=tmp_path / "class")
    seen: dict[str, Any] = {}
    findings: list[str] = []
    try:
        zoe = Browser(server.url, issue_key(tmp_path / "class"))
        assert zoe.join("Zoë Ng", code="")[0] == 200
        assert zoe.answer({"id": "z1", "kind": "legal-cards", "seed": 2024,
                           "answer": ["AD"]})[0] == 200
        kept = ClassBook(tmp_path / "class", create=False)
        when = next(kept.rows())[2]
        kept.close()
        teacher = Browser(server.url)
        teacher.get(teacher_url(server).removeprefix(server.url))
        status, csv = teacher.get("loo/teacher/class.csv")
        seen["csv"] = (status, csv)

        def look(browser: Any) -> None:
            context = browser.new_context(timezone_id="Asia/Tokyo",
                                          viewport={"width": 1920, "height": 1080})
            page = context.new_page()
            page.goto(teacher_url(server))
            row = page.locator('tr[data-loo-student="Zoë Ng"]')
            row.locator("time").wait_for()
            seen["zone"] = page.locator(".loo-zone").inner_text()
            seen["time"] = row.locator("time").inner_text()
            seen["font"] = page.evaluate("getComputedStyle(document.body).fontSize")
            seen["small controls"] = page.evaluate(_SMALL_CONTROLS)
            page.get_by_role("button", name="Projector view").click()
            seen["projector font"] = page.evaluate("getComputedStyle(document.body).fontSize")
            seen["initials"] = row.locator("th").inner_text()
            findings.extend(axe_findings(page))
            page.get_by_label("Names in the projector view").select_option("hidden")
            seen["hidden"] = row.locator("th").inner_text()
            page.reload()
            page.locator('tr[data-loo-student="Zoë Ng"] time').wait_for()
            seen["kept"] = page.evaluate("document.body.className")
            context.close()

        in_browser(look)
    finally:
        stop(server)
    status, csv = seen["csv"]
    assert seen["small controls"] == []
    assert status == 200 and csv.startswith("\ufeffstudent,") and "Zoë Ng" in csv
    utc = datetime.datetime.fromisoformat(when.replace("Z", "+00:00"))
    local = utc.astimezone(datetime.timezone(datetime.timedelta(hours=9)))
    assert seen["zone"] == "Asia/Tokyo" and seen["time"] == local.strftime("%Y-%m-%d %H:%M:%S")
    assert seen["font"] == "16px" and seen["projector font"] == "28px"
    assert seen["initials"].strip() == "Z. N." and seen["hidden"].strip() == ""
    assert not findings, "\n".join(findings)
    assert "loo-projector" in str(seen["kept"])


def test_the_teachers_page_scores_as_mark_class_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = ClassBook(tmp_path)
    student = book.student_of(book.join("Ann")[0])
    assert student
    checks = [(1, "wrong"), (1, "wrong"), (1, "right"),  # right after three checks
              (2, SOLUTION), (2, "right"),  # the solution seen first: never right
              (3, "wrong"), (4, "right")]
    for n, (seed, verdict) in enumerate(checks):
        book.record(student[0], f"c{n}", Mark("legal-cards", seed, "[3S]", verdict, "", ""), WHEN)
    tally = book.summary().students[0].kinds["legal-cards"]
    assert (tally.right, tally.tried) == (2, 4)
    book.close()
    assert main(["mark", "--class", str(tmp_path)]) == 0
    assert "2 of 4 right" in capsys.readouterr().out
