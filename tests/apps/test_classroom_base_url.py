"""The classroom under a prefix (``--base-url``), as behind JupyterHub's ``/user/NAME/``.

The prefix is read once (:func:`~loo_tutor.apps.classroom.doors.normal_base`):
a bad one is one line and exit status 2. Then a real server started with
``--base-url /user/ann/`` is asked over HTTP: it prints its addresses under
the prefix, a student joins and answers there, the teacher's page, its
script, its form and the CSV live there, every cookie is kept for the
prefix, and nothing answers at the same paths without it. Last, in Debian's
Chromium, a student's page joins and has a check kept, every request the
student's and the teacher's pages make stays under the prefix, and the
page's outbox is the prefix's own.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loo_tutor.apps.classroom.doors import local_path, normal_base, route, under
from loo_tutor.apps.classroom.server import address
from loo_tutor.apps.cli import main
from loo_tutor.engine.cards import card_text
from loo_tutor.teaching.exercises import Kind, LegalCards, make
from loo_tutor.teaching.marking import GRADE_BOOK_COLUMNS, key_answer

from browser_support import in_browser
from classroom_server import (
    Server,
    check_cards,
    free_port,
    issue_key,
    issued,
    serving,
    teacher_url,
)

PREFIX = "/user/ann/"
EXERCISE = make(Kind.LEGAL_CARDS, 2024)  # the exercises notebook's ExerciseWidget(1, seed=2024)


# -- the prefix as given -------------------------------------------------------------------


@pytest.mark.parametrize(("given", "normal"), [
    ("/user/ann/", "/user/ann/"), ("/user/ann", "/user/ann/"), ("user/ann", "/user/ann/"),
    ("services/loo-tutor/", "/services/loo-tutor/"), ("/", "/"), ("", "/"),
    ("/user/ann%40school.org/", "/user/ann%40school.org/"), ("/user/a.b~c_d/", "/user/a.b~c_d/"),
])
def test_a_prefix_gets_one_slash_at_each_end(given: str, normal: str) -> None:
    assert normal_base(given) == normal


@pytest.mark.parametrize(("given", "said"), [
    ("http://school.example/user/ann/", "is an address"),
    ("//school.example/user/ann/", "is an address"),
    ("/user//ann/", "empty segment"),
    ("//", "is an address"),
    ("/user/../etc/", "'..' segment"),
    ("/user/./ann/", "'.' segment"),
    ("/user/ann smith/", "not a plain path"),
    ("/user/ann?next=/", "not a plain path"),
    ("/user/ann#top", "not a plain path"),
    ("\\user\\ann", "not a plain path"),
    ("/user/änn/", "not a plain path"),
    ("/user/ann%4/", "not a plain path"),
    ("/user/<script>/", "not a plain path"),
    ("/user/ann\n/", "not a plain path"),
])
def test_a_bad_prefix_is_one_line_and_exit_status_2(
        given: str, said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        normal_base(given)
    with pytest.raises(SystemExit) as stopped:
        main(["classroom", "--base-url", given, "--port", str(free_port())])
    assert stopped.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: argument --base-url: ") and said in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_paths_routes_and_addresses_are_made_under_the_prefix() -> None:
    assert under(PREFIX, "/loo/join") == under(PREFIX, "loo/join") == "/user/ann/loo/join"
    assert under("/", "loo/me") == "/loo/me" and under(PREFIX) == PREFIX
    assert re.fullmatch(route("/a.b/", r"loo/teacher\.js"), "/a.b/loo/teacher.js")
    assert not re.fullmatch(route("/a.b/", r"loo/teacher\.js"), "/axb/loo/teacher.js")
    assert address("127.0.0.1", 8866, None, PREFIX) == "http://127.0.0.1:8866/user/ann/"
    assert address("127.0.0.1", 8866, "t", PREFIX) == "http://127.0.0.1:8866/user/ann/?token=t"
    # A student is sent on only to a page of this server under its prefix.
    assert local_path("/user/ann/voila/render/exercises.ipynb", PREFIX) == (
        "/user/ann/voila/render/exercises.ipynb")
    for elsewhere in ("/", "/user/bob/", "/user/annie/", "//evil.example/user/ann/",
                      "https://evil.example/user/ann/", "/user/ann/\\evil"):
        assert local_path(elsewhere, PREFIX) == PREFIX, elsewhere


# -- a running server under a prefix ---------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("--pool-size", "0", "--base-url", "user/ann",
                 data=tmp_path_factory.mktemp("class")) as running:
        yield running


def _root(server: Server) -> str:
    """The server's address without its prefix: ``http://127.0.0.1:PORT``."""
    parts = urllib.parse.urlsplit(server.url)
    return f"{parts.scheme}://{parts.netloc}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Browser:
    """Plain HTTP with cookies of its own; paths are asked from the server's root."""

    def __init__(self, root: str, follow: bool = True) -> None:
        self.root = root
        self.cookies = http.cookiejar.CookieJar()
        handlers: list[Any] = [urllib.request.HTTPCookieProcessor(self.cookies)]
        if not follow:
            handlers.append(_NoRedirect())
        self.opener = urllib.request.build_opener(*handlers)

    def ask(self, path: str, data: bytes | None = None,
            **headers: str) -> tuple[int, str, str, dict[str, str]]:
        """Status, body, the address finally answered and the headers."""
        request = urllib.request.Request(self.root + path, data=data, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as reply:
                return (reply.status, reply.read().decode("utf-8"), reply.url,
                        dict(reply.headers))
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8"), exc.url, dict(exc.headers)

    def xsrf(self) -> str:
        return next(c.value or "" for c in self.cookies if c.name == "_xsrf")

    def join(self, name: str, next_page: str | None = None) -> tuple[int, str, str]:
        self.ask(PREFIX + "loo/join")
        form = {"_xsrf": self.xsrf(), "name": name}
        if next_page is not None:
            form["next"] = next_page
        status, page, where, _ = self.ask(PREFIX + "loo/join",
                                          urllib.parse.urlencode(form).encode())
        return status, page, where


def test_the_server_prints_its_addresses_under_the_prefix(server: Server) -> None:
    assert server.url == f"{_root(server)}{PREFIX}"
    assert teacher_url(server).startswith(f"{_root(server)}{PREFIX}loo/teacher?token=")
    printed = re.findall(r"http://\S+", "".join(server.log))
    assert printed and all(url.startswith(_root(server) + PREFIX) for url in printed), printed
    # The prefix typed without its last slash is sent on to the list of apps.
    status, page, where, _ = Browser(_root(server)).ask(PREFIX.rstrip("/"))
    assert status == 200 and where == server.url and "voila/render/exercises.ipynb" in page


def test_nothing_is_served_at_the_paths_without_the_prefix(server: Server) -> None:
    student = Browser(_root(server))
    assert student.join("Una")[0] == 200
    teacher = Browser(_root(server))
    assert teacher.ask(teacher_url(server).removeprefix(_root(server)))[0] == 200
    for path in ("/", "/loo/join", "/loo/me", "/loo/place?ticket=x", "/loo/teacher",
                 "/loo/teacher/class", "/loo/teacher/class.csv", "/loo/teacher.js",
                 "/voila/render/exercises.ipynb", "/voila/tree", "/voila/static/voila.js",
                 "/api/kernels", "/user/", "/user/bob/loo/join"):
        for who in (student, teacher):
            status, page, _, _ = who.ask(path)
            assert status == 404, (path, status, page[:200])
            assert "Una" not in page
    status, _, _, _ = student.ask("/loo/answer", b"{}", **{
        "Content-Type": "application/json", "X-XSRFToken": student.xsrf()})
    assert status == 404


def test_a_student_joins_and_answers_under_the_prefix(server: Server) -> None:
    ann = Browser(_root(server))
    status, form, _, _ = ann.ask(PREFIX + "loo/join")
    assert status == 200
    assert f'action="{PREFIX}loo/join?next={PREFIX}"' in form
    status, page, where = ann.join("Ann")
    assert status == 200 and where == server.url  # sent on to the list of apps
    assert "voila/render/exercises.ipynb" in page
    cookies = {c.name: c.path for c in ann.cookies}
    assert "loo-student" in cookies and "_xsrf" in cookies
    assert set(cookies.values()) == {PREFIX}, cookies
    # A page to go back to outside the prefix is not followed.
    other = Browser(_root(server))
    status, _, where = other.join("Abe", next_page="/user/bob/voila/render/exercises.ipynb")
    assert status == 200 and where == server.url
    aimed = Browser(_root(server))
    status, _, where = aimed.join("Ada", next_page=PREFIX + "voila/render/exercises.ipynb")
    assert status == 200 and where == server.url + "voila/render/exercises.ipynb"
    assert {c.path for c in aimed.cookies} == {PREFIX}  # the page's cookie too

    assert isinstance(EXERCISE, LegalCards)
    report = issued({"id": "ann-1", "kind": "legal-cards", "seed": 2024,
                     "answer": key_answer(EXERCISE)}, issue_key(server.folder or Path()))
    status, reply, _, _ = ann.ask(PREFIX + "loo/answer", json.dumps(report).encode(), **{
        "Content-Type": "application/json", "X-XSRFToken": ann.xsrf()})
    assert status == 200 and json.loads(reply)["verdict"] == "right"
    status, me, _, _ = ann.ask(PREFIX + "loo/me")
    assert status == 200 and json.loads(me)["kinds"] == {"legal-cards": {"tried": 1, "right": 1}}
    stranger = Browser(_root(server))
    assert json.loads(stranger.ask(PREFIX + "loo/me")[1])["join"] == PREFIX + "loo/join"
    stranger.ask(PREFIX + "loo/join")
    status, reply, _, _ = stranger.ask(PREFIX + "loo/answer", json.dumps(report).encode(), **{
        "Content-Type": "application/json", "X-XSRFToken": stranger.xsrf()})
    assert status == 403 and json.loads(reply)["join"] == PREFIX + "loo/join"


def test_the_teachers_page_and_csv_live_under_the_prefix(server: Server) -> None:
    student = Browser(_root(server))
    assert student.join("Bea")[0] == 200
    teacher = Browser(_root(server), follow=False)
    status, _, _, headers = teacher.ask(teacher_url(server).removeprefix(_root(server)))
    assert status == 302 and headers["Location"] == PREFIX + "loo/teacher"
    assert {c.name: c.path for c in teacher.cookies}["loo-teacher"] == PREFIX + "loo/teacher"
    status, page, _, _ = teacher.ask(PREFIX + "loo/teacher")
    assert status == 200 and 'data-loo-student="Bea"' in page
    assert f'<body data-loo-base="{PREFIX}">' in page
    assert f'src="{PREFIX}loo/teacher.js"' in page
    assert f'href="{PREFIX}loo/teacher/class.csv"' in page
    assert f'action="{PREFIX}loo/teacher/release"' in page
    assert not re.findall(r'(?:src|href|action)="/(?!user/ann/)', page)
    status, script, _, _ = teacher.ask(PREFIX + "loo/teacher.js")
    assert status == 200 and "BASE + 'loo/teacher/class'" in script
    assert "fetch('/loo" not in script
    status, fragment, _, _ = teacher.ask(PREFIX + "loo/teacher/class")
    assert status == 200 and 'data-loo-student="Bea"' in fragment
    status, table, _, _ = teacher.ask(PREFIX + "loo/teacher/class.csv")
    assert status == 200 and table.startswith("\ufeff" + ",".join(GRADE_BOOK_COLUMNS))
    assert any(line.startswith("Ann,legal-cards,2024,") and ",right," in line
               for line in table.splitlines())
    form = urllib.parse.urlencode({"_xsrf": teacher.xsrf(), "name": "Bea"}).encode()
    status, _, _, headers = teacher.ask(PREFIX + "loo/teacher/release", form)
    assert status == 302 and headers["Location"].startswith(PREFIX + "loo/teacher?said=")
    assert Browser(_root(server)).ask(PREFIX + "loo/teacher/class.csv")[0] == 403


# -- in the browser ----------------------------------------------------------------------------


def test_a_students_page_works_under_the_prefix_and_asks_nothing_outside_it(
        server: Server) -> None:
    assert isinstance(EXERCISE, LegalCards)
    legal = [card_text(c) for c in EXERCISE.legal()]
    asked: list[str] = []
    seen: dict[str, Any] = {}

    def lesson(browser: Any) -> None:
        context = browser.new_context()
        context.on("request", lambda request: asked.append(request.url))
        page = context.new_page()
        page.goto(server.url + "voila/render/exercises.ipynb")
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        join = page.locator(".loo-class-bar a.loo-join")
        seen["join link"] = join.get_attribute("href")
        join.click()
        page.fill("#loo-name", "Cal")
        page.locator("button", has_text="Join").click()
        page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                               timeout=120_000)
        page.locator(".loo-class-bar", has_text="Joined as Cal").wait_for(timeout=30_000)
        check_cards(page, legal)
        seen["bar"] = page.locator(".loo-class-bar").inner_text()
        seen["outboxes"] = page.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.startsWith('loo-classroom-outbox'))"
            ".map((k) => [k, localStorage.getItem(k)])")
        teacher = browser.new_context()
        teacher.on("request", lambda request: asked.append(request.url))
        desk = teacher.new_page()
        desk.goto(teacher_url(server))
        row = desk.locator('tr[data-loo-student="Cal"]').filter(has_text="1 / 1")
        row.wait_for(timeout=10_000)
        seen["row"] = row.inner_text()
        # The page redraws itself from the prefix's class route: a student joining now shows.
        assert Browser(_root(server)).join("Cid")[0] == 200
        desk.locator('tr[data-loo-student="Cid"]').wait_for(timeout=10_000)
        seen["teacher state"] = desk.locator(".loo-state").inner_text()

    in_browser(lesson)
    assert seen["join link"].startswith(PREFIX + "loo/join?next=")
    assert "Joined as Cal" in seen["bar"] and "legal-cards 1 / 1" in seen["bar"]
    assert seen["outboxes"] == [[f"loo-classroom-outbox:{PREFIX}", "{}"]]
    assert "1 / 1" in seen["row"]
    assert "offline" not in seen["teacher state"].casefold()
    outside = [url for url in asked if not url.startswith(server.url)
               and not url.startswith(("data:", "blob:"))]
    assert not outside, outside
    assert any(url.startswith(server.url + "loo/answer") for url in asked)
    assert any(url.startswith(server.url + "loo/teacher/class") for url in asked)
