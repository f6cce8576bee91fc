"""Two classroom servers, one PostgreSQL: killing one leaves the other's class untouched, and
the killed one, started again, carries its class on with nothing lost.

A real PostgreSQL (tests/postgres_server.py) keeps two classes, 9a and 9b,
each served by a classroom server of its own (``--data postgresql://…
--class-name``), as two machines of a school would. Students join each class
by name and check exercises as the class's pages do (``/loo/answer``, the
report signed as the class's kernels sign it); a student of each class is
called Ann. The students of 9b check exercises all along, before, while and
after the server of 9a is killed with SIGKILL mid-class: none of their checks
fails, and 9b's teacher's summary keeps up with every one. Started again on
the same class and database, 9a's server shows the class as it was before
the kill (on the teacher's summary and in ``loo-tutor mark --class``), takes
the students' join cookies and the teacher's link as before, keeps a check
that waited while it was down, and keeps new ones. Each server reads only its
own class: 9a's Ann and 9b's Ann are two students with two scores.

Every wait is for a condition, within a bound (:data:`WAIT_S`).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import threading
import time
import urllib.error
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from typing import Any

import psutil
import psycopg
from test_classroom_class import Browser

from loo_tutor.apps.classroom.engines import open_store
from loo_tutor.apps.cli import main
from loo_tutor.engine.cards import Card
from loo_tutor.teaching.exercises import Kind, LegalCards, make
from loo_tutor.teaching.marking import key_answer

from classroom_server import PortTaken, Server, free_port, issued, start, stop, teacher_url

WAIT_S = 60.0
"""The longest any condition of the test is waited for (a busy 2-core machine)."""
PACE_S = 0.6
"""Between two checks of a student of 9b: under the server's limit of answers a second."""


def issue_key(address: str, class_name: str) -> bytes:
    """The key the class's kernels sign the exercises they issue with, as its server keeps it."""
    book = open_store(address, create=False, class_name=class_name)
    try:
        return bytes.fromhex(book.setting("issue_key", ""))
    finally:
        book.close()


def _illegal(seed: int) -> list[Card]:
    """The cards of the legal-cards exercise of ``seed`` that may not be played."""
    exercise = make(Kind.LEGAL_CARDS, seed)
    assert isinstance(exercise, LegalCards)
    return [card for card in exercise.hand if card not in exercise.legal()]


def exercise_answer(seed: int, right: bool) -> list[str]:
    """An answer to the legal-cards exercise of ``seed``: its key, or the key with a card
    that may not be played added (the seeds used have one)."""
    answer = list(key_answer(make(Kind.LEGAL_CARDS, seed)))
    return answer if right else [*answer, str(_illegal(seed)[0])]


SEEDS = [seed for seed in range(1, 1000) if _illegal(seed)]
"""Exercises with a card that may not be played, so that each can be answered wrong: one
per check of a student, so that each check is an exercise of its own."""


@dataclass
class Pupil:
    """A student of one class, with the checks the server acknowledged (id → verdict)."""

    name: str
    browser: Browser
    variant: str
    kept: dict[str, str] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    sent: int = 0

    def report(self, number: int) -> dict[str, Any]:
        """The student's check ``number``: a new exercise each, right and wrong by turns
        (the pattern differs per student, so that two students' scores differ)."""
        assert number < len(SEEDS), "a student checks each exercise once"
        salt = sum(map(ord, self.variant))
        seed = SEEDS[number]
        right = (number + salt) % 3 != 0
        return {"id": f"{self.variant}-{number}", "kind": "legal-cards", "seed": seed,
                "answer": exercise_answer(seed, right)}

    def check(self, report: dict[str, Any]) -> dict[str, Any]:
        """Send ``report`` signed as the class's page signs it; the server's reply.

        Raises:
            OSError: the server cannot be reached (urllib's URLError among them).
        """
        assert self.browser.key is not None
        signed = issued(report, self.browser.key, variant=self.variant)
        while True:
            status, body = self.browser.post(
                "loo/answer", json.dumps(signed).encode(),
                **{"Content-Type": "application/json", "X-XSRFToken": self.browser.xsrf()})
            if status != 429:  # too many at once: the page waits and sends it again
                break
            time.sleep(1.0)  # the server's Retry-After
        if status != 200:
            raise AssertionError(f"{self.name}'s check {report['id']} answered {status}: {body}")
        reply: dict[str, Any] = json.loads(body)
        self.kept[report["id"]] = reply["verdict"]
        return reply

    def score(self) -> tuple[int, int]:
        """(right, tried) over the checks acknowledged: each is an exercise of its own."""
        return sum(v == "right" for v in self.kept.values()), len(self.kept)


def join(base: str, key: bytes, name: str, class_name: str) -> Pupil:
    browser = Browser(base, key)
    status, page = browser.join(name, code="")
    assert status == 200, page
    return Pupil(name, browser, variant=f"{class_name}-{name}")


class Teacher:
    """A teacher's browser on the class's summary (``loo/teacher/class``, which the page polls)."""

    def __init__(self, server: Server) -> None:
        self.link = teacher_url(server)
        self.browser = Browser(server.url)
        status, _ = self.browser.get(self.link.removeprefix(server.url))
        assert status == 200

    def summary(self) -> tuple[int, dict[str, tuple[int, int]]]:
        """The answers counted, and each student's (right, tried) on legal-cards."""
        status, fragment = self.browser.get("loo/teacher/class")
        assert status == 200, fragment
        counted = re.search(r'data-loo-answers="(\d+)"', fragment)
        assert counted, fragment
        rows = re.findall(r'<tr data-loo-student="([^"]+)">.*?<td>(\d+) / (\d+)</td>', fragment)
        return int(counted.group(1)), {name: (int(r), int(t)) for name, r, t in rows}


def wait_for(what: str, condition: Callable[[], Any]) -> Any:
    """``condition()`` once it is true, within :data:`WAIT_S`; raises saying ``what`` otherwise."""
    deadline = time.monotonic() + WAIT_S
    last: Any = None
    while time.monotonic() < deadline:
        last = condition()
        if last:
            return last
        time.sleep(0.2)  # the pace of asking again, not a wait for anything in particular
    raise AssertionError(f"not within {WAIT_S:.0f} s: {what} (last seen: {last!r})")


class Checking:
    """Students checking exercises one after another in a thread each, until stopped."""

    def __init__(self, pupils: list[Pupil]) -> None:
        self.pupils = pupils
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self._work, args=(pupil,), daemon=True)
                        for pupil in pupils]

    def _work(self, pupil: Pupil) -> None:
        while not self.stopping.is_set():
            report = pupil.report(pupil.sent)
            pupil.sent += 1
            try:
                pupil.check(report)
            except (OSError, AssertionError) as exc:
                pupil.failures.append(f"{report['id']}: {exc}")
            self.stopping.wait(PACE_S)  # a student's pace between two checks

    def kept(self) -> int:
        return sum(len(pupil.kept) for pupil in self.pupils)

    @contextlib.contextmanager
    def running(self) -> Iterator[Checking]:
        for thread in self.threads:
            thread.start()
        try:
            yield self
        finally:
            self.stopping.set()
            for thread in self.threads:
                thread.join(timeout=WAIT_S)


def restart(server: Server, address: str, class_name: str) -> Server:
    """The class's server started again where its pages look for it (on another free port
    when a program beside the test took that one meanwhile)."""
    args = ("--pool-size", "0", "--class-name", class_name)
    try:
        return start("--port", str(server.port), *args, data=address, same_port=True)
    except PortTaken:
        return start("--port", str(free_port()), *args, data=address)


def token(link: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["token"][0]


def marked(address: str, class_name: str) -> str:
    """What ``loo-tutor mark --class ADDRESS --class-name NAME`` prints."""
    said = io.StringIO()
    with redirect_stdout(said):
        assert main(["mark", "--class", address, "--class-name", class_name]) == 0
    return said.getvalue()


def kept_checks(address: str, class_name: str) -> dict[str, list[str]]:
    """Every check kept in the database for the class, per student, read by a connection of
    its own."""
    with psycopg.connect(address) as db:
        rows = db.execute(
            "SELECT class_students.name, check_id FROM class_answers JOIN class_students "
            "ON class_students.id = class_answers.student WHERE class_students.class = %s "
            "ORDER BY class_answers.id", (class_name,)).fetchall()
    found: dict[str, list[str]] = {}
    for name, check_id in rows:
        found.setdefault(name, []).append(check_id)
    return found


def test_a_class_carries_on_when_another_classs_server_is_killed_and_then_its_own(
        postgres_database: str) -> None:
    address = postgres_database
    a = start("--port", str(free_port()), "--pool-size", "0", "--class-name", "9a", data=address)
    servers = [a]
    orphans: list[psutil.Process] = []
    try:
        b = start("--port", str(free_port()), "--pool-size", "0", "--class-name", "9b",
                  data=address)
        servers.append(b)
        key_a, key_b = issue_key(address, "9a"), issue_key(address, "9b")
        assert key_a != key_b
        teacher_a, teacher_b = Teacher(a), Teacher(b)
        ann_a, ben = join(a.url, key_a, "Ann", "9a"), join(a.url, key_a, "Ben", "9a")
        ann_b, cat = join(b.url, key_b, "Ann", "9b"), join(b.url, key_b, "Cat", "9b")
        for pupil, checks in ((ann_a, 5), (ben, 4)):
            for number in range(checks):
                pupil.check(pupil.report(number))
            pupil.sent = checks
        class_b = Checking([ann_b, cat])
        with class_b.running():
            wait_for("9b's students have each had 3 checks kept",
                     lambda: all(len(p.kept) >= 3 for p in class_b.pupils))
            # 9a as it is before the kill: every check acknowledged, so committed
            before = wait_for("9a's teacher's summary counts every check of 9a",
                              lambda: (s := teacher_a.summary())[0] == 9 and s)
            assert before[1] == {"Ann": ann_a.score(), "Ben": ben.score()}
            marked_before = marked(address, "9a")

            children = psutil.Process(a.process.pid).children(recursive=True)
            orphans.extend(children)  # a killed server cannot stop its kernels
            a.process.kill()  # SIGKILL, mid-class: 9b's students are checking
            a.process.wait(timeout=WAIT_S)
            waiting = ann_a.report(ann_a.sent)  # checked while 9a's server is down
            ann_a.sent += 1
            try:
                ann_a.check(waiting)
            except urllib.error.URLError:
                pass  # refused: the page keeps it and sends it again
            else:
                raise AssertionError("9a's server answered after it was killed")

            at_kill = class_b.kept()
            wait_for("9b's students have had 6 more checks kept since the kill",
                     lambda: class_b.kept() >= at_kill + 6)
            after_kill = class_b.kept()
            wait_for("9b's teacher's summary counts the checks kept since the kill",
                     lambda: teacher_b.summary()[0] >= after_kill)
            assert b.process.poll() is None

            a = restart(a, address, "9a")
            servers.append(a)
            for browser in (ann_a.browser, ben.browser, teacher_a.browser):
                browser.base = a.url  # the same, unless another program took the port
            assert token(teacher_url(a)) == token(teacher_a.link)  # the class's teacher's link
            again = teacher_a.summary()  # the teacher's cookie of before the kill
            assert again == before
            assert marked(address, "9a") == marked_before
            status, me = ann_a.browser.get("loo/me")  # the join cookie of before the kill
            assert status == 200 and json.loads(me)["name"] == "Ann"
            assert ann_a.check(waiting)["new"] is True  # the check that waited is kept
            assert ann_a.check(ann_a.report(0))["new"] is False  # kept before: not again
            for pupil in (ann_a, ben):
                pupil.check(pupil.report(pupil.sent))
                pupil.sent += 1
            wait_for("9b's students have had 3 more checks kept since 9a is back",
                     lambda: class_b.kept() >= after_kill + 3)
        # 9b's students have stopped: everything they were told was kept is counted
        assert ann_b.failures == [] and cat.failures == []
        total_b = class_b.kept()
        summary_b = wait_for("9b's teacher's summary counts every check of 9b",
                             lambda: (s := teacher_b.summary())[0] == total_b and s)
        assert summary_b[1] == {"Ann": ann_b.score(), "Cat": cat.score()}
        summary_a = wait_for("9a's teacher's summary counts every check of 9a",
                             lambda: (s := teacher_a.summary())[0] == 12 and s)
        assert summary_a[1] == {"Ann": ann_a.score(), "Ben": ben.score()}
        assert ann_a.score() != ann_b.score()  # two Anns, two classes, two scores
    finally:
        for orphan in orphans:  # the killed server's kernels and warm parent, if it had any
            with contextlib.suppress(psutil.NoSuchProcess):
                orphan.kill()
        for running in servers:
            stop(running)
    # In the database: each check acknowledged once, in its own class, and nothing else
    for class_name, pupils in (("9a", [ann_a, ben]), ("9b", [ann_b, cat])):
        kept = kept_checks(address, class_name)
        assert {name: sorted(ids) for name, ids in kept.items()} == {
            p.name: sorted(p.kept) for p in pupils}, class_name
    mark_a, mark_b = marked(address, "9a"), marked(address, "9b")
    assert "Ben" in mark_a and "Cat" not in mark_a
    assert "Cat" in mark_b and "Ben" not in mark_b
    for pupil, said in ((ann_a, mark_a), (ben, mark_a), (ann_b, mark_b), (cat, mark_b)):
        right, tried = pupil.score()
        assert f"{pupil.name} (" in said and f"{right} of {tried} right" in said, said


class Reading:
    """Every row the class store's queries hand back, with the query: PostgreSQL's
    connection (:class:`~loo_tutor.apps.classroom.postgres.Paramstyle`) watched."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, list[tuple[Any, ...]]]] = []

    def watch(self, monkeypatch: Any) -> None:
        from loo_tutor.apps.classroom import postgres

        reading = self
        plain = postgres.Paramstyle.execute

        class Watched:
            def __init__(self, query: str, cursor: Any) -> None:
                self.query, self.cursor = query, cursor

            def fetchall(self) -> list[tuple[Any, ...]]:
                rows = list(self.cursor.fetchall())
                reading.rows.append((self.query, rows))
                return rows

            def fetchone(self) -> tuple[Any, ...] | None:
                row = self.cursor.fetchone()
                reading.rows.append((self.query, [] if row is None else [row]))
                return row  # type: ignore[no-any-return]

            def __getattr__(self, name: str) -> Any:
                return getattr(self.cursor, name)

        def execute(self: Any, query: str, params: Any = ()) -> Any:
            return Watched(query, plain(self, query, params))

        monkeypatch.setattr(postgres.Paramstyle, "execute", execute)

    def answers(self) -> list[tuple[Any, ...]]:
        """The rows of answers read since the last call (the summary's query of new answers)."""
        found = [row for query, rows in self.rows
                 if query.startswith("SELECT class_answers.id") for row in rows]
        self.rows.clear()
        return found


def test_each_classs_summary_reads_its_own_class_and_only_what_is_new(
        postgres_database: str, monkeypatch: Any) -> None:
    """Two classes of one database, as two servers keep them: each summary reads the answers
    of its own class alone, and, once it has read them, only those kept since."""
    from loo_tutor.teaching.marking import judge

    books = {name: open_store(postgres_database, class_name=name) for name in ("9a", "9b")}
    try:
        students: dict[str, set[int]] = {}
        for name, book in books.items():
            for who in ("Ann", "Ben"):
                found = book.student_of(book.join(who)[0])
                assert found is not None
                students.setdefault(name, set()).add(found[0])
                for number in range(3):
                    seed = SEEDS[number]
                    book.record(found[0], f"{who}-{number}",
                                judge("legal-cards", seed, exercise_answer(seed, number != 1)),
                                "2026-12-07T00:00:00Z")
        assert students["9a"].isdisjoint(students["9b"])
        reading = Reading()
        reading.watch(monkeypatch)
        for name, book in books.items():
            assert book.summary().answers == 6
            read = reading.answers()
            assert len(read) == 6 and {row[1] for row in read} == students[name], name
        ann = min(students["9a"])
        books["9a"].record(ann, "Ann-new", judge("legal-cards", SEEDS[5],
                                                 exercise_answer(SEEDS[5], True)),
                           "2026-12-07T00:01:00Z")
        books["9b"].record(min(students["9b"]), "Ann-new-b", judge(
            "legal-cards", SEEDS[5], exercise_answer(SEEDS[5], False)), "2026-12-07T00:01:00Z")
        assert books["9a"].summary().answers == 7
        read = reading.answers()
        assert [(row[1], row[6]) for row in read] == [(ann, "right")]  # the new one alone
        assert books["9a"].summary().answers == 7
        assert reading.answers() == []  # nothing new: nothing read
    finally:
        for book in books.values():
            book.close()
