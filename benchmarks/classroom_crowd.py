"""The classroom server under a large class: students without a browser, speaking its protocol.

``python benchmarks/classroom_load.py`` puts a Chromium page per student on
the machine, and the browsers then take most of its processor time. Here
each student is a few coroutines of this process (``tests/classroom_protocol.py``)
that exchange with the server the very messages the light page does: the
app's page over HTTP, its kernel's websocket, the widgets' state, a click
per card and the Reset. So the server's cores measure the server.

For each class size in ``--students`` (30,60,120 by default), on a server
started afresh, the students arrive STAGGER seconds apart, each plays A's
cards through two deals (the highlight ticked, 7♥ refused, the legal cards,
Reset), stays until the whole class has played, and closes the page (the
server is asked to stop its kernel, as the page does when it goes). It
prints, per class:

* the time from asking for the page to holding every widget's state (live);
* the click latency (sent to the kernel's answer complete), p50, p95, p99;
* the resident memory of each kernel with the whole class in, and the part
  of it unique to the kernel (what is shared with the warm parent the
  kernels are forked from is counted once);
* the processor time of the server, its kernels and this process;
* errors (a page that did not come alive, a click unanswered in 20 s, a
  page the server turned away as the class was full);

and at the end the largest class whose clicks had a p95 of at most 100 ms.

``--server-cpus`` pins the server and its kernels to those cores and this
process to the others (``taskset``'s work, done with
``os.sched_setaffinity``), when the machine has more than one.

    python benchmarks/classroom_crowd.py --students 30,60,120 --server-cpus 0

``--school`` measures a school instead: a real PostgreSQL (tests/postgres_server.py),
two classroom servers keeping the classes 9a and 9b in it (``--data
postgresql://... --class-name 9a --base-url /services/9a/``), and a real
JupyterHub whose proxy (configurable-http-proxy) serves them as external
services at ``/services/9a/`` and ``/services/9b/`` (tests/hub_server.py).
``--school-students`` students per class (60 by default) arrive STAGGER
seconds apart, both classes at once, through the proxy. Each joins by name,
opens the exercises (``exercises.ipynb``) and, ROUNDS times, ticks a card of
Exercise 1 and presses Check twice, then New variant; each check the
exercise marks on its page (its ``data-loo-checked``, signed by the kernel) is
sent to ``/loo/answer`` as the page's outbox sends it. Each class's teacher's
page is played as its script does: ``loo/teacher/class`` asked for through the
proxy, the next request a second after the last reply. Before the school, one
class of the same size on one server with SQLite, students straight to it,
gives the figures to set it beside. Per class it prints pages live, errors,
page to live, click p50/p95/p99 (a tick, Check, New variant: each to the
kernel's answer complete), the time from sending a check to its being kept,
the teacher's page lag (for each check, from the reply saying it was kept to
the first reply of the teacher's summary counting it), the kernels' unique
memory, the server's and kernels' processor time per student, and for the
school the Hub's and proxy's processor time and what PostgreSQL counted
(pg_stat_database, pg_stat_user_tables) while the classes played.

    python benchmarks/classroom_crowd.py --school --school-students 60

``--one-server`` with ``--school`` runs the one class on one server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psutil

from loo_tutor.apps.classroom.identity import COOKIE as JOIN_COOKIE
from loo_tutor.apps.classroom.identity import TEACHER_COOKIE

from classroom_load import percentile
from classroom_protocol import ANSWER_S, Crowd, PageError, Student, run_crowd
from classroom_server import (
    MB,
    Server,
    free_port,
    kernels,
    start,
    stop,
    teacher_url,
    wait_for_kernels,
    wait_until_quiet,
    warm_parent,
)

ROOT = Path(__file__).resolve().parent.parent


NOTEBOOKS = len(list((ROOT / "notebooks").glob("*.ipynb")))
TARGET_MS = 100.0


def used(process: psutil.Process) -> float:
    """The processor time ``process`` has used so far (none once it has ended)."""
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return 0.0
    return float(times.user + times.system)


def cpu_s(server: Server) -> tuple[float, float]:
    """The processor time used so far by the server, and by its kernels still running
    and the warm parent they are forked from."""
    warm = warm_parent(server)
    return (used(psutil.Process(server.process.pid)),
            sum(used(k) for k in kernels(server)) + (used(warm) if warm else 0.0))


def print_times(crowd: Crowd, indent: str) -> None:
    """A class's errors (the first five kinds), its pages' times to live and its clicks'."""
    for line in sorted(set(crowd.errors))[:5]:
        print(f"{indent}  {crowd.errors.count(line)} x {line}")
    if crowd.open_s:
        print(f"{indent}page to live: p50 {statistics.median(crowd.open_s):.2f} s, "
              f"p95 {percentile(crowd.open_s, 0.95):.2f} s, slowest {max(crowd.open_s):.2f} s")
    clicks = crowd.click_ms
    if clicks:
        print(f"{indent}click to answer ({len(clicks)} clicks): p50 "
              f"{statistics.median(clicks):.0f} ms, p95 {percentile(clicks, 0.95):.0f} ms, "
              f"p99 {percentile(clicks, 0.99):.0f} ms, max {max(clicks):.0f} ms")


def one_class(args: argparse.Namespace, students: int, server_cpus: set[int],
              other_cpus: set[int]) -> tuple[Crowd, float]:
    """Run one class on a fresh server; prints its figures and returns them with the p95."""
    if server_cpus:
        os.sched_setaffinity(0, server_cpus)  # the server and its kernels inherit it
    extra = ["--max-students", str(args.max_students)] if args.max_students else []
    server = start("--port", str(free_port()), "--pool-size", str(args.pool_size), *extra)
    if server_cpus:
        os.sched_setaffinity(0, other_cpus)
    crowd = Crowd()
    rss: list[float] = []
    uss: list[float] = []  # unique to each kernel: what one more student costs
    try:
        wait_for_kernels(server, NOTEBOOKS * args.pool_size, 180)
        wait_until_quiet(server, 180)
        load_before = os.getloadavg()
        server_cpu0, kernels_cpu0 = cpu_s(server)
        own0 = time.process_time()
        kernels_at_full: list[float] = []

        def when_full() -> None:
            kernels_at_full.extend(cpu_s(server))
            for kernel in kernels(server):
                try:
                    memory = kernel.memory_full_info()
                    rss.append(memory.rss / MB)
                    uss.append(memory.uss / MB)
                except Exception:  # a kernel that has just stopped
                    continue

        t0 = time.monotonic()
        asyncio.run(run_crowd(server.url, students, args.rounds, args.stagger, args.think,
                              args.timeout, crowd, when_full))
        took = time.monotonic() - t0
        own = time.process_time() - own0
    finally:
        code = stop(server)
    clicks = crowd.click_ms
    p95 = percentile(clicks, 0.95) if clicks else float("inf")
    print(f"\n{students} students, {args.stagger:g} s apart (load average before "
          f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; class took "
          f"{took:.0f} s; server exit status {code})")
    print(f"  live: {crowd.live} of {students}; deals played to the end: {crowd.finished}; "
          f"errors: {len(crowd.errors)}")
    print_times(crowd, "  ")
    if rss:
        print(f"  memory: {len(rss)} kernels with the class in, resident median "
              f"{statistics.median(rss):.0f} MB (max {max(rss):.0f}), "
              f"{sum(rss):.0f} MB in all; unique to each: median "
              f"{statistics.median(uss):.0f} MB, {sum(uss):.0f} MB in all")
    if kernels_at_full:
        server_cpu, kernels_cpu = kernels_at_full
        print(f"  processor time until the class had played: server "
              f"{server_cpu - server_cpu0:.1f} s, kernels {kernels_cpu - kernels_cpu0:.1f} s "
              f"(per student {(server_cpu - server_cpu0) / students:.2f} and "
              f"{(kernels_cpu - kernels_cpu0) / students:.2f} s); these students {own:.1f} s")
    return crowd, p95


# -- a school: two classes behind JupyterHub's proxy, one PostgreSQL ---------------------

EXERCISES = "voila/render/exercises.ipynb"
EXERCISE = "Exercise 1:"
CHECKS_PER_VARIANT = 2
TEACHER_EVERY_S = 1.0
"""How often the teacher's page asks for the class (``EVERY_MS`` of its script, teacher.js)."""
CATCH_UP_S = 30.0
"""How long the teacher's page is watched, once the class has played, to count its last checks."""
_CHECKED = re.compile(r'data-loo-checked="([^"]*)"')
_COUNTED = re.compile(r'data-loo-answers="(\d+)"')


@dataclass
class Pupils(Crowd):
    """A class of joined students checking exercises, and its teacher's page watching them.

    ``kept_at`` holds the moment (``time.monotonic``) each check's reply said it
    was kept; ``shown`` the moment each reply of the teacher's summary came,
    with the answers it counted.
    """

    kept_at: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    shown: list[tuple[float, int]] = field(default_factory=list)


def _take_cookies(reply: Any, cookies: dict[str, str]) -> None:
    for header in reply.headers.get_list("Set-Cookie"):
        name, _, value = header.split(";")[0].partition("=")
        cookies[name.strip()] = value


def _cookie(cookies: dict[str, str]) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items())}


async def join(base: str, name: str, timeout: float) -> dict[str, str]:
    """Join the class at ``base`` by name, as the join form does; the browser's cookies."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    client = AsyncHTTPClient()
    cookies: dict[str, str] = {}
    reply = await client.fetch(HTTPRequest(base + "loo/join", request_timeout=timeout,
                                           connect_timeout=timeout), raise_error=False)
    _take_cookies(reply, cookies)
    if reply.code != 200 or "_xsrf" not in cookies:
        raise PageError(f"the join form answered {reply.code}")
    form = urlencode({"_xsrf": cookies["_xsrf"], "name": name, "code": ""})
    reply = await client.fetch(HTTPRequest(base + "loo/join", method="POST", body=form,
                                           headers=_cookie(cookies), follow_redirects=False,
                                           request_timeout=timeout, connect_timeout=timeout),
                               raise_error=False)
    _take_cookies(reply, cookies)
    if reply.code not in (200, 302) or JOIN_COOKIE not in cookies:
        raise PageError(f"joining answered {reply.code}")
    return cookies


def _new_report(student: Student, root: str, seen: set[str]) -> dict[str, Any]:
    """The check the exercise has just marked on its summary line (its ``data-loo-checked``)."""
    for found in _CHECKED.finditer(student.text(root)):
        report: dict[str, Any] = json.loads(html.unescape(found.group(1)))
        if report.get("id") not in seen:
            seen.add(report["id"])
            return report
    raise PageError("the exercise marked no new check")


async def keep(student: Student, report: dict[str, Any], timeout: float) -> float:
    """Send the check to the server as the page's outbox does; the milliseconds until it is kept."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    started = time.perf_counter()
    reply = await AsyncHTTPClient().fetch(HTTPRequest(
        student.base + "loo/answer", method="POST", body=json.dumps(report),
        headers={**_cookie(student.cookies), "Content-Type": "application/json",
                 "X-XSRFToken": student.xsrf},
        request_timeout=timeout, connect_timeout=timeout), raise_error=False)
    if reply.code != 200 or not json.loads(reply.body).get("kept"):
        raise PageError(f"a check was answered {reply.code}")
    return (time.perf_counter() - started) * 1000


async def check_exercises(student: Student, pupils: Pupils, rounds: int, think_s: float,
                          timeout: float) -> None:
    """``rounds`` variants of Exercise 1: tick a card, Check, send the check, twice; then
    New variant. Every press is a click timed."""
    root = student.widget_with(EXERCISE)
    if root is None:
        raise PageError("the page has no Exercise 1")

    def button(label: str) -> str:
        found = next((part for part, state in student.controls(root, "ButtonModel")
                      if state.get("description") == label and not state.get("disabled")), None)
        if found is None:
            raise PageError(f"Exercise 1 shows no {label} button")
        return found

    seen: set[str] = set()
    for number in range(rounds):
        boxes = [part for part, _ in student.controls(root, "CheckboxModel")]
        if not boxes:
            raise PageError("Exercise 1 shows no card to tick")
        for tick in range(CHECKS_PER_VARIANT):
            pupils.click_ms.append(await student.set_value(boxes[tick % len(boxes)], True,
                                                           ANSWER_S))
            await asyncio.sleep(think_s)  # the student thinks: the pace of the class simulated
            pupils.click_ms.append(await student.click(button("Check"), ANSWER_S))
            pupils.answer_ms.append(await keep(student, _new_report(student, root, seen),
                                               timeout))
            pupils.kept_at.append(time.monotonic())
            await asyncio.sleep(think_s)  # the student reads the verdict
        if number + 1 < rounds:
            pupils.click_ms.append(await student.click(button("New variant"), ANSWER_S))
            await asyncio.sleep(think_s)  # the student reads the new variant
    pupils.finished += 1


async def pupil(base: str, name: str, pupils: Pupils, args: argparse.Namespace, arrive_s: float,
                settled: Callable[[], None], leave: asyncio.Event) -> None:
    """One student: arrives after ``arrive_s``, joins by name, opens the exercises, checks them,
    stays until ``leave``."""
    await asyncio.sleep(arrive_s)  # the class arrives over a while, as the simulation asks
    doing = "joining"
    student: Student | None = None
    try:
        cookies = await join(base, name, args.timeout)
        student = Student(base, EXERCISES, cookies=cookies)
        doing = "opening the page"
        started = time.monotonic()
        await student.open(args.timeout)
        pupils.open_s.append(time.monotonic() - started)
        pupils.live += 1
        doing = "checking"
        await check_exercises(student, pupils, args.rounds, args.think, args.timeout)
        settled()
        await leave.wait()
    except (PageError, OSError, asyncio.TimeoutError, ValueError) as exc:
        settled()
        why = str(exc).splitlines()[0] if str(exc) else "no answer in time"
        pupils.errors.append(f"{doing}: {why}")
    finally:
        if student is not None:
            await student.leave()


async def teachers_page(base: str, link: str, pupils: Pupils, done: asyncio.Event) -> None:
    """The teacher's page: asks for the class's summary as its script does (the next request
    a second after the last reply) and notes when each reply came and what it counted."""
    from tornado.httpclient import AsyncHTTPClient, HTTPRequest

    client = AsyncHTTPClient()
    cookies: dict[str, str] = {}
    reply = await client.fetch(HTTPRequest(link, follow_redirects=False), raise_error=False)
    _take_cookies(reply, cookies)
    if TEACHER_COOKIE not in cookies:
        pupils.errors.append(f"the teacher's page answered {reply.code} with no teacher's cookie")
        return
    while not done.is_set():
        reply = await client.fetch(HTTPRequest(base + "loo/teacher/class",
                                               headers=_cookie(cookies), request_timeout=60),
                                   raise_error=False)
        counted = _COUNTED.search(reply.body.decode("utf-8", "replace")) if reply.body else None
        if reply.code == 200 and counted:
            pupils.shown.append((time.monotonic(), int(counted.group(1))))
        else:
            pupils.errors.append(f"the teacher's summary answered {reply.code}")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(done.wait(), TEACHER_EVERY_S)  # the page's pace


async def school_class(base: str, link: str, name: str, students: int, args: argparse.Namespace,
                       pupils: Pupils, when_full: Callable[[], None]) -> None:
    """A class of ``students`` joining ``stagger`` apart at ``base`` while its teacher's page
    (``link``, with the token) watches; all leave once every one has played or failed, and the
    teacher's page is watched until it counts every check kept (at most :data:`CATCH_UP_S`)."""
    pupils.students = students
    leave, everyone, done = asyncio.Event(), asyncio.Event(), asyncio.Event()
    if not students:
        everyone.set()

    def one_settled() -> None:
        pupils.settled += 1
        if pupils.settled == students:
            everyone.set()

    teacher = asyncio.create_task(teachers_page(base, link, pupils, done))
    tasks = [asyncio.create_task(pupil(base, f"{name} student {n + 1}", pupils, args,
                                       n * args.stagger, one_settled, leave))
             for n in range(students)]
    waiting = asyncio.create_task(everyone.wait())
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    when_full()
    leave.set()
    await asyncio.gather(*tasks)
    deadline = time.monotonic() + CATCH_UP_S
    while time.monotonic() < deadline and not (
            pupils.shown and pupils.shown[-1][1] >= len(pupils.kept_at)):
        await asyncio.sleep(0.2)  # a look at what the teacher's page has counted so far
    done.set()
    await teacher


def lags(pupils: Pupils) -> tuple[list[float], int]:
    """For each check kept (in the order kept), the seconds until a reply of the teacher's
    summary counted as many answers; and how many checks it never counted."""
    found: list[float] = []
    missing = 0
    for number, kept in enumerate(sorted(pupils.kept_at), start=1):
        shown = next((at for at, counted in pupils.shown if counted >= number), None)
        if shown is None:
            missing += 1
        else:
            found.append(max(0.0, shown - kept))
    return found, missing


@dataclass
class Machine:
    """A classroom server of the run and what it used while its class played."""

    label: str
    server: Server
    base: str
    link: str
    pupils: Pupils = field(default_factory=Pupils)
    cpu: tuple[float, float] = (0.0, 0.0)
    used: tuple[float, float] = (0.0, 0.0)
    uss: list[float] = field(default_factory=list)
    rss: list[float] = field(default_factory=list)

    def measure(self) -> None:
        """The processor time used since :attr:`cpu`, and the kernels' memory, now."""
        server, kernels_cpu = cpu_s(self.server)
        self.used = (server - self.cpu[0], kernels_cpu - self.cpu[1])
        for kernel in kernels(self.server):
            with contextlib.suppress(Exception):  # a kernel that has just stopped
                memory = kernel.memory_full_info()
                self.rss.append(memory.rss / MB)
                self.uss.append(memory.uss / MB)


def print_class(machine: Machine) -> None:
    """One class's figures, as :func:`one_class` prints a class's, with its checks and its
    teacher's page."""
    pupils = machine.pupils
    print(f"  {machine.label}: live {pupils.live} of {pupils.students}; played to the end "
          f"{pupils.finished}; errors {len(pupils.errors)}")
    print_times(pupils, "    ")
    if pupils.answer_ms:
        print(f"    check sent to kept ({len(pupils.answer_ms)} checks): p50 "
              f"{statistics.median(pupils.answer_ms):.0f} ms, "
              f"p95 {percentile(pupils.answer_ms, 0.95):.0f} ms")
    behind, missing = lags(pupils)
    if behind:
        print(f"    teacher's page behind a check kept ({len(pupils.shown)} looks, one a "
              f"second after the last reply): p50 {statistics.median(behind):.2f} s, "
              f"p95 {percentile(behind, 0.95):.2f} s, max {max(behind):.2f} s; "
              f"never shown: {missing}")
    if machine.uss:
        print(f"    memory: {len(machine.rss)} kernels with the class in, resident median "
              f"{statistics.median(machine.rss):.0f} MB, unique to each: median "
              f"{statistics.median(machine.uss):.1f} MB")
    students = max(1, pupils.students)
    print(f"    processor time until the class had played: server {machine.used[0]:.1f} s, "
          f"kernels {machine.used[1]:.1f} s (per student {machine.used[0] / students:.2f} and "
          f"{machine.used[1] / students:.2f} s, {sum(machine.used) / students:.2f} s in all)")


def start_class(args: argparse.Namespace, data: str | None, *extra: str) -> Server:
    """A classroom server for one class, its kernels ready and the machine quiet again."""
    server = start("--port", str(free_port()), "--pool-size", str(args.pool_size), *extra,
                   data=data)
    try:
        wait_for_kernels(server, NOTEBOOKS * args.pool_size, 180)
        wait_until_quiet(server, 180)
    except BaseException:
        stop(server)
        raise
    return server


async def _classes(machines: list[Machine], students: int, args: argparse.Namespace) -> None:
    from tornado.httpclient import AsyncHTTPClient

    AsyncHTTPClient.configure(None, max_clients=max(10, 2 * students * len(machines)))
    for machine in machines:
        machine.cpu = cpu_s(machine.server)
    await asyncio.gather(*(school_class(m.base, m.link, m.label, students, args, m.pupils,
                                        m.measure) for m in machines))


def database_counts(address: str) -> dict[str, int]:
    """What PostgreSQL has counted for the database at ``address``: its transactions
    committed, and the rows inserted and updated, in all and per table of the class store;
    and the write-ahead log written by the whole server (this run's alone)."""
    import psycopg

    with psycopg.connect(address, autocommit=True) as db:
        db.execute("SELECT pg_stat_force_next_flush()")
        commits, inserted, updated = db.execute(
            "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database "
            "WHERE datname = current_database()").fetchone() or (0, 0, 0)
        records, wal = db.execute("SELECT wal_records, wal_bytes FROM pg_stat_wal").fetchone() \
            or (0, 0)
        counts = {"commits": int(commits), "inserted": int(inserted), "updated": int(updated),
                  "WAL records": int(records), "WAL bytes": int(wal)}
        for table, rows in db.execute("SELECT relname, n_tup_ins + n_tup_upd "
                                      "FROM pg_stat_user_tables"):
            counts[f"rows of {table}"] = int(rows)
    return counts


def school(args: argparse.Namespace) -> bool:
    """The school run: one class on one server with SQLite (no Hub), then two classes on two
    servers behind JupyterHub's proxy sharing one PostgreSQL; returns whether all was clean."""
    from hub_server import start_hub, stop_hub, wait_for_class
    from postgres_server import new_database, start_postgres, stop_postgres

    students = args.school_students
    clean = True
    # One server, SQLite, students straight to it: the figures to set the school beside
    alone = start_class(args, None)
    try:
        one = Machine("one server, SQLite, no Hub", alone, alone.url, teacher_url(alone))
        load = os.getloadavg()
        asyncio.run(_classes([one], students, args))
    finally:
        stop(alone)
    print(f"\nOne class of {students}, {args.stagger:g} s apart, on one server keeping it in "
          f"SQLite, students straight to it (load average before {load[0]:.2f} "
          f"{load[1]:.2f} {load[2]:.2f})")
    print_class(one)
    clean = clean and not one.pupils.errors and one.pupils.live == students
    if args.one_server:
        return clean

    # The school: PostgreSQL, two classroom servers, the Hub's proxy in front
    postgres = start_postgres()
    machines: list[Machine] = []
    hub = None
    try:
        address = new_database(postgres)
        for name in ("9a", "9b"):
            server = start_class(args, address, "--base-url", f"/services/{name}/",
                                 "--class-name", name)
            machines.append(Machine(name, server, "", ""))
        hub = start_hub({m.label: {"teachers": [f"teacher-{m.label}"],
                                   "url": f"http://127.0.0.1:{m.server.port}"}
                         for m in machines}, database=address)
        hub_processes = [psutil.Process(hub.process.pid),
                         *psutil.Process(hub.process.pid).children(recursive=True)]
        for machine in machines:
            machine.base = wait_for_class(hub, machine.label)
            # the teacher's address the server printed, through the Hub's proxy
            machine.link = hub.url + teacher_url(machine.server).split("/", 3)[3]
        hub_cpu = sum(used(p) for p in hub_processes)
        before = database_counts(address)
        load = os.getloadavg()
        asyncio.run(_classes(machines, students, args))
        hub_used = sum(used(p) for p in hub_processes) - hub_cpu
    finally:
        if hub is not None:
            stop_hub(hub)
        for machine in machines:
            stop(machine.server)
    try:
        after = database_counts(address)
    finally:
        stop_postgres(postgres)
    print(f"\nTwo classes of {students} at once, {args.stagger:g} s apart, on two servers "
          f"sharing one PostgreSQL, through JupyterHub's proxy (/services/9a/, /services/9b/; "
          f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    for machine in machines:
        print_class(machine)
        clean = clean and not machine.pupils.errors and machine.pupils.live == students
    checks = sum(len(m.pupils.kept_at) for m in machines)
    joined = sum(m.pupils.live for m in machines)
    print(f"  the Hub and its proxy: {hub_used:.1f} s of processor time "
          f"({hub_used / max(1, 2 * students):.3f} s per student)")
    grown = {key: after.get(key, 0) - before.get(key, 0) for key in after}
    print(f"  PostgreSQL, while the classes played ({checks} checks kept, {joined} students "
          f"joined): {grown['commits']} transactions committed "
          f"({grown['commits'] / max(1, checks):.1f} per check, the teachers' pages' "
          f"reads included); in the whole database, PostgreSQL's own catalogs included: "
          f"{grown['inserted']} rows inserted, {grown['updated']} updated")
    print(f"    write-ahead log: {grown['WAL records']} records, "
          f"{grown['WAL bytes'] / 1024:.0f} kB ({grown['WAL bytes'] / max(1, checks):.0f} bytes "
          f"per check, the joins included; the tests' PostgreSQL runs with fsync off)")
    print("    rows written per table: " + ", ".join(
        f"{key.removeprefix('rows of ')} {value}" for key, value in sorted(grown.items())
        if key.startswith("rows of ") and value))
    return clean


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", default="30,60,120",
                        help="class sizes, one fresh server each (default 30,60,120)")
    parser.add_argument("--stagger", type=float, default=1.0,
                        help="seconds between two students arriving (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="deals each plays (default 2)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a student waits between two clicks (default 1)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds a page may take to come alive (default 120)")
    parser.add_argument("--pool-size", type=int, default=1,
                        help="kernels kept ready per notebook (default 1, as the classroom)")
    parser.add_argument("--max-students", type=int, default=0,
                        help="the server's --max-students (default: its own)")
    parser.add_argument("--server-cpus", default="",
                        help="cores for the server and its kernels, e.g. 0 or 0-1; the "
                             "students get the others (default: no pinning)")
    parser.add_argument("--school", action="store_true",
                        help="two classes behind JupyterHub's proxy on two servers sharing one "
                             "PostgreSQL, beside one class on one server with SQLite: students "
                             "join by name and check exercises; the teacher's page is watched")
    parser.add_argument("--school-students", type=int, default=60,
                        help="students per class with --school (default 60)")
    parser.add_argument("--one-server", action="store_true",
                        help="with --school: the one class on one server with SQLite alone")
    args = parser.parse_args()
    if args.school:
        print(f"python benchmarks/classroom_crowd.py {' '.join(sys.argv[1:])}")
        print(f"{os.cpu_count()} cores; uptime: {os.popen('uptime').read().strip()}")
        clean = school(args)
        print(f"\nuptime: {os.popen('uptime').read().strip()}")
        return 0 if clean else 1
    sizes = [int(part) for part in args.students.split(",") if part.strip()]
    server_cpus: set[int] = set()
    other_cpus: set[int] = set()
    if args.server_cpus:
        for part in args.server_cpus.split(","):
            low, _, high = part.partition("-")
            server_cpus.update(range(int(low), int(high or low) + 1))
        other_cpus = os.sched_getaffinity(0) - server_cpus or server_cpus
    print(f"python benchmarks/classroom_crowd.py {' '.join(sys.argv[1:])}")
    print(f"{os.cpu_count()} cores; server on {sorted(server_cpus) or 'any'}, students on "
          f"{sorted(other_cpus) or 'any'}; uptime: {os.popen('uptime').read().strip()}")
    best = 0
    failed = False
    for size in sizes:
        crowd, p95 = one_class(args, size, server_cpus, other_cpus)
        clean = not crowd.errors and crowd.live == size
        failed = failed or not clean
        if clean and p95 <= TARGET_MS:
            best = max(best, size)
    print(f"\nlargest class with p95 <= {TARGET_MS:.0f} ms and no error: "
          f"{best or 'none of those tried'}; uptime: {os.popen('uptime').read().strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
