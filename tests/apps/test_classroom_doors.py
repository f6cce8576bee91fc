"""The classroom's doors, tried as an attacker on 127.0.0.1 would try them.

Each test is one attack of the classroom's security review (issue 36, items
1, 2, 5 and 6): the students' routes behind the server's token and its XSRF
check, forms and fetches from a page of another origin (another port of
127.0.0.1, in Chromium), guessing the class code, a ``next`` that leads to
another host, exercises no page of the class issued, a solution shown and
then checked, answers sent as fast as a script can, hostile bodies, the
token in the log, look-alike names.
"""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_classroom_class import Browser

from loo_tutor.apps.classroom.doors import (
    CODE_LETTERS,
    Bucket,
    Tries,
    code_problem,
    local_path,
    make_class_code,
)
from loo_tutor.apps.classroom.store import SHOWN, ClassBook
from loo_tutor.engine.cards import card_text
from loo_tutor.records.data import example
from loo_tutor.teaching.exercises import Kind, LegalCards, make
from loo_tutor.teaching.marking import Mark, key_answer
from loo_tutor.widgets import PayoutChecker

from browser_support import in_browser, serve_directory
from classroom_server import (
    Server,
    free_port,
    issue_key,
    issued,
    serving,
    start,
    stop,
    teacher_url,
    wait_for_lines,
)

CODE = "owl-lamp-42"
EXERCISE = make(Kind.LEGAL_CARDS, 2024)
WHEN = "2026-12-04T10:00:00Z"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("--pool-size", "0", "--class-code", CODE,
                 data=tmp_path_factory.mktemp("class")) as running:
        yield running


def _key(server: Server) -> bytes:
    assert server.folder is not None
    return issue_key(server.folder)


def _rows(server: Server, name: str) -> list[tuple[str, int, str]]:
    assert server.folder is not None
    db = sqlite3.connect(server.folder / "class.sqlite3")
    try:
        return [(str(kind), int(seed), str(verdict)) for kind, seed, verdict in db.execute(
            "SELECT kind, seed, verdict FROM class_answers JOIN class_students ON "
            "class_students.id = class_answers.student WHERE class_students.name = ? "
            "ORDER BY class_answers.id", (name,))]
    finally:
        db.close()


def _joined(page: Any, server: Server, name: str, then: str) -> Any:
    """``page``, having joined the class as ``name`` on the join form, on its way to ``then``."""
    page.goto(f"{server.url}loo/join?next={then}")
    page.fill("#loo-name", name)
    page.fill("#loo-code", CODE)
    page.locator("button", has_text="Join").click()
    return page


def _right(check_id: str) -> dict[str, Any]:
    return {"id": check_id, "kind": "legal-cards", "seed": 2024, "answer": key_answer(EXERCISE)}


# -- 1. one door for every route -----------------------------------------------------------


def test_with_the_servers_token_no_student_route_answers_without_it(tmp_path: Path) -> None:
    running = start("--port", str(free_port()), "--pool-size", "0", "--token", "T0ken-for-test",
                    data=tmp_path)
    try:
        base = running.url.split("?")[0]
        eve = Browser(base)
        assert "Join the class" not in eve.get("loo/join")[1]  # sent to the login page
        form = urllib.parse.urlencode({"name": "Eve"}).encode()
        assert eve.post("loo/join", form)[0] == 403
        assert eve.post("loo/answer", json.dumps(_right("e1")).encode(),
                        **{"Content-Type": "application/json"})[0] == 403
        assert '"name"' not in eve.get("loo/me")[1]
        script = (Path(__file__).resolve().parents[2] / "loo_tutor" / "apps"
                  / "classroom" / "templates" / "teacher" / "teacher.js").read_text()
        assert eve.get("loo/teacher.js")[1] != script
        assert ClassBook(tmp_path).summary().students == []
        # With the token (once in the address, then the login cookie it gives), a browser
        # gets in.
        eve = Browser(base)
        assert "Join the class" in eve.get("loo/join?token=T0ken-for-test")[1]
        form = urllib.parse.urlencode({"_xsrf": eve.xsrf(), "name": "Eve"}).encode()
        assert eve.post("loo/join?token=T0ken-for-test", form)[0] == 200
        assert json.loads(eve.get("loo/me?token=T0ken-for-test")[1])["name"] == "Eve"
        # Every student knows the server's token, so a page of another origin can put it in
        # the address: it must not stand for the XSRF token, nor hide where the POST came from.
        key = issue_key(tmp_path)
        for path, body, headers in [
                ("loo/join?token=T0ken-for-test", urllib.parse.urlencode({"name": "Mallory"}),
                 {}),
                ("loo/join?token=T0ken-for-test",
                 urllib.parse.urlencode({"_xsrf": eve.xsrf(), "name": "Mallory"}),
                 {"Origin": "http://127.0.0.1:9"}),
                ("loo/answer?token=T0ken-for-test", json.dumps(issued(_right("m1"), key)),
                 {"Content-Type": "text/plain"}),
                ("loo/answer?token=T0ken-for-test", json.dumps(issued(_right("m2"), key)),
                 {"Content-Type": "text/plain", "X-XSRFToken": eve.xsrf(),
                  "Origin": "http://evil.example"})]:
            status, said = eve.post(path, body.encode(), **headers)
            assert status in (403, 404), (path, headers, status, said)
        assert json.loads(eve.get("loo/me?token=T0ken-for-test")[1])["name"] == "Eve"
        assert [s.name for s in ClassBook(tmp_path).summary().students] == ["Eve"]
        assert ClassBook(tmp_path).count() == 0
        # The teacher's address, as the server printed it, opens the teacher's page alone;
        # a wrong teacher's token opens nothing.
        teacher = teacher_url(running)
        stranger = Browser(base)
        status, page = stranger.get(teacher.replace(base, "")[:-4] + "xxxx")
        assert status == 403 and "Eve" not in page
        assert "Join the class" not in stranger.get("loo/join")[1]
        ada = Browser(base)
        status, page = ada.get(teacher.replace(base, ""))
        assert status == 200 and "Eve" in page, page[:300]
        assert ada.get("loo/teacher.js")[1] == script
    finally:
        stop(running)


def test_a_post_without_the_xsrf_token_is_refused(server: Server) -> None:
    mallory = Browser(server.url)
    mallory.get("loo/join")
    form = urllib.parse.urlencode({"name": "Mallory", "code": CODE}).encode()
    assert mallory.post("loo/join", form)[0] == 403
    ann = Browser(server.url, _key(server))
    assert ann.join("Ann X")[0] == 200
    bare = json.dumps(issued(_right("x1"), _key(server))).encode()
    assert ann.post("loo/answer", bare, **{"Content-Type": "text/plain"})[0] == 403
    assert ann.post("loo/answer", bare, **{"Content-Type": "application/json",
                                           "X-XSRFToken": "2|0|" + "0" * 32 + "|1"})[0] == 403
    assert _rows(server, "Ann X") == [] and _rows(server, "Mallory") == []


def test_joining_waits_a_minute_after_a_few_wrong_codes(tmp_path: Path) -> None:
    running = start("--port", str(free_port()), "--pool-size", "0", "--class-code", CODE,
                    data=tmp_path)
    try:
        guesser = Browser(running.url)
        said = [guesser.join("Guess", code=f"guess-{n:04d}") for n in range(5)]
        assert all(status == 403 for status, _ in said)
        status, page = guesser.join("Guess", code=CODE)  # right, but too late
        assert status == 429 and "wait a minute" in page
        assert ClassBook(tmp_path).summary().students == []
    finally:
        stop(running)


def test_the_class_limit_counts_wrong_codes_from_every_address() -> None:
    now = [0.0]
    tries = Tries(3, 60, clock=lambda: now[0])
    for _ in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        assert not tries.full("class")
        tries.note("class")
    assert tries.full("class")
    now[0] = 61.0
    assert not tries.full("class")


def test_class_codes_resist_guessing() -> None:
    made = {make_class_code() for _ in range(200)}
    assert len(made) == 200
    assert all(re.fullmatch(f"[{CODE_LETTERS}]{{4}}-[{CODE_LETTERS}]{{4}}", code)
               for code in made)
    assert code_problem("owl") and code_problem("owl-cat") and not code_problem(CODE)


def test_a_short_class_code_is_refused_at_start(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="at least 8 letters"):
        start("--port", str(free_port()), "--pool-size", "0", "--class-code", "owl",
              data=tmp_path)


def test_next_leads_only_to_a_path_of_this_server(server: Server) -> None:
    for target in ("/\\evil.example/phish", "//evil.example/", "http://evil.example/",
                   "/%5Cevil", "javascript:alert(1)", "/\t/evil.example", "evil"):
        assert local_path(urllib.parse.unquote(target)) == "/", target
    assert local_path("/voila/render/exercises.ipynb?x=1") == "/voila/render/exercises.ipynb?x=1"
    zed = Browser(server.url)
    zed.get("loo/join")
    form = urllib.parse.urlencode({"_xsrf": zed.xsrf(), "name": "Zed", "code": CODE})
    request = urllib.request.Request(server.url + "loo/join?next=/%5Cevil.example/phish",
                                     data=form.encode())

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(zed.cookies), Stay)
    with pytest.raises(urllib.error.HTTPError) as sent:
        opener.open(request, timeout=30)
    assert sent.value.code == 302 and sent.value.headers["Location"] == "/"


ATTACKER = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Prizes</title>
</head><body>
<form id="join" method="post" action="{base}loo/join">
<input name="name" value="Mallory"><input name="code" value="{code}">
<input name="_xsrf" value="2|00000000|00000000000000000000000000000000|1"></form>
<script>
// Cookies do not keep ports apart: the page sets the classroom's XSRF cookie to the value
// its own form carries, so only the check of the request's origin stands in its way.
document.cookie = "_xsrf=2|00000000|00000000000000000000000000000000|1; path=/";
window.forged = fetch("{base}loo/answer", {{method: "POST", mode: "no-cors",
  credentials: "include", headers: {{"Content-Type": "text/plain"}},
  body: JSON.stringify({report})}}).then(() => "sent", () => "failed");
</script></body></html>"""


def test_a_page_of_another_origin_can_neither_join_nor_answer(server: Server,
                                                              tmp_path: Path) -> None:
    """Login CSRF and a forged answer, from a page on another port of 127.0.0.1."""
    report = issued(_right("forged-1"), _key(server), variant="forged")
    (tmp_path / "index.html").write_text(ATTACKER.format(
        base=server.url, code=CODE, report=json.dumps(report)), encoding="utf-8")
    seen: dict[str, Any] = {}

    def attack(browser: Any) -> None:
        context = browser.new_context()
        victim = _joined(context.new_page(), server, "Vic", "/")
        victim.wait_for_url(re.compile(r"/$"))
        with serve_directory(tmp_path) as other:
            page = context.new_page()
            page.goto(other + "/index.html")
            seen["fetch"] = page.evaluate("window.forged")
            with page.expect_navigation():
                page.evaluate("document.getElementById('join').submit()")
            seen["form"] = page.content()
        victim.goto(server.url + "loo/me")
        seen["me"] = victim.locator("body").inner_text()

    in_browser(attack)
    assert json.loads(seen["me"])["name"] == "Vic"
    assert _rows(server, "Vic") == [] and _rows(server, "Mallory") == []
    names = [s.name for s in ClassBook(server.folder or Path()).summary().students]
    assert "Mallory" not in names


# -- 2. only issued work counts ------------------------------------------------------------


def test_only_exercises_the_class_issued_are_judged(server: Server) -> None:
    key = _key(server)
    ivy = Browser(server.url)
    assert ivy.join("Ivy")[0] == 200
    never = {"id": "i1", "kind": "legal-cards", "seed": 999_999_999, "answer": ["AS"]}
    assert ivy.answer(never)[0] == 400
    assert ivy.answer(issued(never, b"another key"))[0] == 400
    assert ivy.answer({**issued(_right("i2"), key), "seed": 2025})[0] == 400
    assert _rows(server, "Ivy") == []
    wait_for_lines(server, "no page of this class issued it", 3)
    # A variant belongs to the first student who sends a check of it.
    ivy.key = key
    assert ivy.answer(issued(_right("i3"), key, variant="ivys"))[0] == 200
    jon = Browser(server.url, key)
    assert jon.join("Jon")[0] == 200
    assert jon.answer(issued(_right("j1"), key, variant="ivys"))[0] == 400
    assert _rows(server, "Jon") == [] and _rows(server, "Ivy") == [("legal-cards", 2024, "right")]


def test_a_solution_shown_is_never_counted_right_after(server: Server) -> None:
    key = _key(server)
    kim = Browser(server.url, key)
    assert kim.join("Kim")[0] == 200
    shown = {"id": "k1", "kind": "legal-cards", "seed": 2024, "answer": None}
    status, reply = kim.answer(issued(shown, key, variant="kims", shown=True))
    assert status == 200 and json.loads(reply)["verdict"] == SHOWN
    # A new page, a new variant of the same exercise: still not right.
    status, reply = kim.answer(issued(_right("k2"), key, variant="kims-again"))
    assert status == 200 and json.loads(reply)["verdict"] == SHOWN
    assert json.loads(kim.get("loo/me")[1])["kinds"]["legal-cards"]["right"] == 0


def test_show_solution_then_check_in_the_classs_page_is_not_counted(server: Server) -> None:
    assert isinstance(EXERCISE, LegalCards)
    seen: dict[str, str] = {}

    def lesson(browser: Any) -> None:
        page = browser.new_context().new_page()
        page.goto(server.url + "voila/render/exercises.ipynb")
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        page.locator(".loo-class-bar a.loo-join").click()
        page.fill("#loo-name", "Lou")
        page.fill("#loo-code", CODE)
        page.locator("button", has_text="Join").click()
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        widget = page.locator(".loo-exercise").filter(has_text="Exercise 1:")
        widget.locator("button", has_text="Show solution").click()
        widget.locator(".loo-solution-title").wait_for(timeout=30_000)
        for card in EXERCISE.legal():
            widget.locator(".widget-checkbox", has_text=card_text(card)).locator(
                'input[type="checkbox"]').check()
        widget.locator("button", has_text="Check").first.click()
        widget.locator(".loo-summary").wait_for(timeout=30_000)
        page.locator('.loo-class-bar[data-loo-kept="all"]').wait_for(timeout=30_000)
        teacher = browser.new_context().new_page()
        teacher.goto(teacher_url(server))
        seen["row"] = teacher.locator('tr[data-loo-student="Lou"]').inner_text()

    in_browser(lesson)
    rows = _rows(server, "Lou")
    assert rows and all(verdict == SHOWN for _, _, verdict in rows), rows
    assert "0 / 1" in seen["row"]


def test_answers_are_limited_per_student(server: Server) -> None:
    key = _key(server)
    max_ = Browser(server.url, key)
    assert max_.join("Max")[0] == 200
    started = time.monotonic()
    said = [max_.answer(_right(f"m{n}"))[0] for n in range(60)]
    elapsed = time.monotonic() - started
    assert said.count(429) > 0
    assert said.count(200) <= 20 + 2 * elapsed + 1
    assert len(_rows(server, "Max")) == said.count(200)


def test_a_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = Bucket(2, 3, clock=lambda: now[0])
    assert [bucket.take("s") for _ in range(4)] == [True, True, True, False]
    now[0] = 0.5
    assert bucket.take("s") and not bucket.take("s")


def test_the_summary_reads_the_rows_once(tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    ann = book.student_of(book.join("Ann")[0])
    assert ann
    for n in range(300):
        book.record(ann[0], f"a{n}", Mark("legal-cards", n, "[3S]", "wrong", "R-FOLLOW",
                                          "x"), WHEN)
    first = book.summary()
    statements: list[str] = []
    db = book._db
    assert db is not None
    db.set_trace_callback(statements.append)
    book.record(ann[0], "last", Mark("legal-cards", 7, "[3S]", "right", "", "ok"), WHEN)
    again = book.summary()
    db.set_trace_callback(None)
    # the answers kept since the last summary only: those past its cursor
    read = [s for s in statements if "FROM class_answers" in s]
    assert read and all("class_answers.id >" in s or "LIMIT" in s for s in read), statements
    assert again.answers == first.answers + 1
    fresh = ClassBook(tmp_path).summary()
    assert fresh == again


# -- 5. no traceback for any input ---------------------------------------------------------


def test_hostile_reports_get_one_line_and_no_traceback(server: Server) -> None:
    key = _key(server)
    nia = Browser(server.url, key)
    assert nia.join("Nia")[0] == 200
    headers = {"Content-Type": "application/json", "X-XSRFToken": nia.xsrf()}
    bodies = [b"[" * 600 + b"]" * 600,
              json.dumps({"id": "n1", "kind": "legal-cards", "seed": "\u00b2",
                          "answer": []}).encode(),
              json.dumps(issued({"id": "n2", "kind": "payout", "seed": 1,
                                 "answer": {"A": "9" * 4400}}, key)).encode(),
              b'{"id": "n3", "kind": "legal-cards", "seed": ' + b"9" * 5000 + b"}",
              json.dumps({"id": "n4", "kind": "legal-cards", "seed": 1,
                          "answer": [[[[[[[[["AS"]]]]]]]]]}).encode(),
              b"\xff\xfe not json", b"null", b"[]"]
    for body in bodies:
        status, said = nia.post("loo/answer", body, **headers)
        assert status == 400 and "\n" not in said.strip(), (body[:40], status, said)
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as raw:
        raw.sendall(b"POST /loo/answer HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b"Content-Length: 95000000\r\n\r\n" + b"x" * 1000)
        assert raw.recv(200).startswith(b"HTTP/1.1 400")  # before the body is read
    assert not any("Traceback" in line for line in server.log)


def test_a_huge_amount_in_a_widget_gets_a_plain_message() -> None:
    checker = PayoutChecker(example("forced-ace"))
    name = next(iter(checker.payout_fields))
    checker.payout_fields[name].value = "9" * 5000
    checker.check_button.click()
    said = checker.results[f"payout:{name}"]
    assert said.status == "unreadable" and "too long" in said.message
    assert "too long" in checker._notes[f"payout:{name}"].value  # shown beside the field


# -- 6. smaller leaks ----------------------------------------------------------------------


def test_the_teachers_token_is_never_written_to_the_log(server: Server) -> None:
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(teacher_url(server)).query)["token"][0]
    guess = "wrong" + token[5:]
    assert Browser(server.url).get(f"loo/teacher?token={guess}")[0] == 403
    assert Browser(server.url).get(f"loo/teacher/class.csv?token={guess}")[0] == 403
    wait_for_lines(server, "403 GET /loo/teacher/class.csv")  # the two refusals logged
    log = "".join(server.log)
    assert guess not in log
    assert log.count(token) == 1  # the address printed for the teacher at start


def test_a_new_teacher_token_replaces_the_old(tmp_path: Path) -> None:
    first = start("--port", str(free_port()), "--pool-size", "0", data=tmp_path)
    old = teacher_url(first)
    stop(first)
    second = start("--port", str(free_port()), "--pool-size", "0", "--new-teacher-token",
                   data=tmp_path)
    try:
        new = teacher_url(second)
        token = urllib.parse.parse_qs(urllib.parse.urlsplit(old).query)["token"][0]
        assert new.split("token=")[1] != token
        assert Browser(second.url).get(f"loo/teacher?token={token}")[0] == 403
        assert Browser(second.url).get(new.removeprefix(second.url))[0] == 200
    finally:
        stop(second)


def test_look_alike_names_are_one_name_and_a_taken_name_names_nobody(
        server: Server, tmp_path: Path) -> None:
    book = ClassBook(tmp_path)
    assert book.join("Bob")[0]
    for alike in ("\u0392ob", "\uff22ob", "BOB", "b\u043eb"):
        secret, said = book.join(alike)
        assert secret is None and said == "Choose another name.", alike
    assert book.join("Bo")[0]
    assert Browser(server.url).join("Olga")[0] == 200
    status, page = Browser(server.url).join("\u041elga")  # a Cyrillic capital O
    assert status == 400 and "Choose another name." in page
    assert "already" not in page and "goes by" not in page


def test_hypothesis_drawn_requests_get_no_500_and_no_traceback(server: Server) -> None:
    """The short run of ``python benchmarks/fuzz.py --http``."""
    from http_fuzzing import fuzz_classroom

    pia = Browser(server.url)
    assert pia.join("Pia")[0] == 200
    cookie = "; ".join(f"{c.name}={c.value}" for c in pia.cookies)
    tally = fuzz_classroom(server, cookie, pia.xsrf(), _key(server), examples=150)
    assert tally.requests == 150 and not tally.errors
    assert tally.server_errors == 0 and tally.tracebacks == 0, tally.first_traceback


def test_a_solution_shown_is_kept_even_when_the_page_never_reports_it(server: Server) -> None:
    """A page that blocks its own reports: the server reads the showing on its way out."""
    key = _key(server)
    seen: dict[str, Any] = {}

    def lesson(browser: Any) -> None:
        context = browser.new_context()
        page = _joined(context.new_page(), server, "Ned", "/voila/render/exercises.ipynb")
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        context.route("**/loo/answer", lambda route: route.abort())
        widget = page.locator(".loo-exercise").filter(has_text="Exercise 1:")
        widget.locator("button", has_text="Show solution").click()
        widget.locator(".loo-solution-title").wait_for(timeout=30_000)
        deadline = time.monotonic() + 30
        while not _rows(server, "Ned") and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        seen["rows"] = _rows(server, "Ned")
        xsrf = next(c["value"] for c in context.cookies() if c["name"] == "_xsrf")
        reply = context.request.post(
            server.url + "loo/answer", data=json.dumps(issued(_right("n2"), key, "neds-new")),
            headers={"Content-Type": "application/json", "X-XSRFToken": xsrf})
        seen["then"] = reply.json()

    in_browser(lesson)
    assert seen["rows"] == [("legal-cards", 2024, SHOWN)]
    assert seen["then"]["verdict"] == SHOWN
