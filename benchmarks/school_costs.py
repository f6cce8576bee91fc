"""What one student costs a school: memory, processor time and database work, measured.

The figures ``deploy/sizes.py`` works a school's sizes out from. A real
PostgreSQL (Debian's, started in a temporary folder as the tests start it,
``tests/postgres_server.py``; or the one at ``--data postgresql://...``,
where the script makes a database of its own and leaves it there) keeps a
class served by one ``loo-tutor classroom --data postgresql://... --class-name
9a``. STUDENTS students (protocol students, ``tests/classroom_protocol.py``:
no browser) arrive STAGGER seconds apart: each joins under a name of their
own (``/loo/join``) and opens the exercises app. Then each checks Exercise 1
CHECKS times, as the page does: a card ticked or unticked, *Check* pressed
(the kernel judges it and writes the check's report into the page), and the
report sent to ``/loo/answer`` (the server has the engine judge it again and
keeps it). The script prints:

* the memory unique to each student's kernel (USS: what is shared with the
  warm parent the kernels are forked from is not counted), with the class in,
  and what the server's own process grew by per student;
* the processor time of the server and of its kernels (and of the database
  server's process serving the class) per arrival and per check;
* the database's work per arrival and per check, from PostgreSQL's own
  counters of the class's database: transactions committed
  (``pg_stat_database``) and rows inserted, updated and deleted in each
  table (``pg_stat_user_tables``), read before and after each phase once the
  counters have settled (a backend reports them when it has been idle a
  moment). The PostgreSQL the script starts runs without autovacuum, whose
  own transactions would be counted with the class's;
* the write-ahead log written per check (``pg_current_wal_lsn``) and the
  bytes each kept answer takes (``class_answers``'s table and indexes over
  its rows);
* the connections the classroom server holds to the database
  (``pg_stat_activity``);

each with the load average (``uptime``) when it was taken.

    python benchmarks/school_costs.py --students 20 --checks 10
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import re
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import psutil
from tornado.httpclient import AsyncHTTPClient, HTTPRequest

from classroom_protocol import PageError, Student
from classroom_server import (
    MB,
    Server,
    free_port,
    kernels,
    start,
    stop,
    wait_for_kernels,
    wait_until_quiet,
    warm_parent,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = len(list((ROOT / "notebooks").glob("*.ipynb")))
"""The kernels the classroom keeps ready: one per notebook (its --pool-size 1)."""
CLASS = "9a"
PAGE = "voila/render/exercises.ipynb"
ANSWER_S = 30.0
SETTLED_S = 11.0
"""How long PostgreSQL's counters must stay still to be read as settled: a backend idle
for a moment reports its counts within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL)."""
_REPORT = re.compile(r'data-loo-checked="([^"]*)"')


def uptime() -> str:
    return os.popen("uptime").read().strip()


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


# -- the database's counters ---------------------------------------------------------


@dataclass
class Counters:
    """PostgreSQL's counters of the class's database at one moment."""

    commits: int
    wal: int

    def minus(self, before: Counters) -> dict[str, int]:
        return {"commits": self.commits - before.commits, "wal": self.wal - before.wal}


def one(cursor: Any) -> tuple[Any, ...]:
    """The one row a query of the counters returns."""
    row = cursor.fetchone()
    if row is None:
        raise RuntimeError("PostgreSQL returned no row")
    return tuple(row)


class Database:
    """A connection to the server's ``postgres`` database, which reads the class database's
    counters (and so adds nothing to them)."""

    def __init__(self, admin_url: str, name: str) -> None:
        import psycopg

        self.name = name
        self.admin = psycopg.connect(admin_url, autocommit=True)

    def read(self) -> Counters:
        row = one(self.admin.execute(
            "SELECT xact_commit, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint "
            "FROM pg_stat_database WHERE datname = %s", (self.name,)))
        return Counters(int(row[0]), int(row[1]))

    def settled(self) -> Counters:
        """The counters once they have stayed the same for :data:`SETTLED_S` seconds."""
        last = self.read()
        since = time.monotonic()
        while time.monotonic() - since < SETTLED_S:
            time.sleep(1.0)
            now = self.read()
            if now.commits != last.commits:
                last, since = now, time.monotonic()
        return last

    def connections(self) -> int:
        return int(one(self.admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (self.name,)))[0])

    def backends(self) -> list[psutil.Process]:
        found = []
        for (pid,) in self.admin.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s",
                                         (self.name,)).fetchall():
            try:
                found.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                continue
        return found


def cpu(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def warm_rss(server: Server) -> float:
    """The resident memory of the warm parent the kernels are forked from (0 without one)."""
    warm = warm_parent(server)
    try:
        return float(warm.memory_info().rss) if warm else 0.0
    except psutil.NoSuchProcess:
        return 0.0


def class_processes(server: Server) -> tuple[list[psutil.Process], list[psutil.Process]]:
    """The server's own process, and its kernels with the warm parent they are forked from."""
    warm = warm_parent(server)
    return [psutil.Process(server.process.pid)], kernels(server) + ([warm] if warm else [])


# -- the students ----------------------------------------------------------------------


@dataclass
class Class:
    students: list[Student] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    checks: int = 0
    kept: int = 0
    check_ms: list[float] = field(default_factory=list)


def cookies_of(reply: Any, into: dict[str, str]) -> None:
    for cookie in reply.headers.get_list("Set-Cookie"):
        name, _, value = cookie.split(";")[0].partition("=")
        into[name] = value


async def arrive(base: str, name: str, after_s: float, timeout: float, school: Class) -> None:
    """One student: joins under ``name`` and opens the exercises app."""
    await asyncio.sleep(after_s)  # the class arrives over a while
    student = Student(base, PAGE)
    client = AsyncHTTPClient()
    try:
        first = await client.fetch(HTTPRequest(base + "loo/join", request_timeout=timeout))
        cookies_of(first, student.cookies)
        form = urlencode({"_xsrf": student.cookies["_xsrf"], "name": name})
        joined = await client.fetch(HTTPRequest(
            base + "loo/join", method="POST", body=form, follow_redirects=False,
            headers={"Cookie": "; ".join(f"{k}={v}" for k, v in student.cookies.items())},
            request_timeout=timeout), raise_error=False)
        cookies_of(joined, student.cookies)
        if "loo-student" not in student.cookies:
            raise PageError(f"joining answered {joined.code}")
        await student.open(timeout)
        school.students.append(student)
    except (PageError, OSError, asyncio.TimeoutError, KeyError) as exc:
        school.errors.append(f"arriving: {str(exc).splitlines()[0] if str(exc) else exc!r}")
        student.close()


def report_in(student: Student, root: str, before: str) -> dict[str, Any] | None:
    """The newest check's report the exercise ``root`` shows, when it is not ``before``."""
    for found in _REPORT.finditer(student.text(root)):
        report = json.loads(html.unescape(found.group(1)))
        if report.get("id") != before:
            return dict(report)
    return None


async def check(student: Student, count: int, think_s: float, school: Class) -> None:
    """``count`` checks of Exercise 1, each with one more card ticked or unticked."""
    client = AsyncHTTPClient()
    try:
        root = next(model for model, state in student.models.items()
                    if "loo-exercise" in state.get("_dom_classes", ()))
        boxes = [model for model, _ in student.controls(root, "CheckboxModel")]
        button = next(model for model, state in student.controls(root, "ButtonModel")
                      if state.get("description") == "Check")
        last = ""
        for n in range(count):
            # The first card stays ticked (an empty answer is no check); the others turn by turn.
            box = boxes[0] if n == 0 or len(boxes) == 1 else boxes[1 + (n - 1) % (len(boxes) - 1)]
            value = True if box == boxes[0] else not student.models[box].get("value", False)
            await student.set_value(box, value, ANSWER_S)
            started = time.perf_counter()
            await student.click(button, ANSWER_S)
            report = report_in(student, root, last)
            if report is None:
                raise PageError("the exercise wrote no report of its check")
            last = str(report["id"])
            school.checks += 1
            reply = await client.fetch(HTTPRequest(
                student.base + "loo/answer", method="POST", body=json.dumps(report),
                headers={"Content-Type": "application/json", "X-XSRFToken": student.xsrf,
                         "Cookie": "; ".join(f"{k}={v}" for k, v in student.cookies.items())},
                request_timeout=ANSWER_S), raise_error=False)
            if reply.code != 200 or not json.loads(reply.body).get("new"):
                raise PageError(f"the check was not kept ({reply.code} {reply.body[:80]!r})")
            school.kept += 1
            school.check_ms.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(think_s)  # the student reads the verdict
    except (PageError, OSError, asyncio.TimeoutError, StopIteration) as exc:
        school.errors.append(f"checking: {str(exc).splitlines()[0] if str(exc) else exc!r}")


async def arrivals(base: str, students: int, stagger_s: float, timeout: float,
                   school: Class) -> None:
    AsyncHTTPClient.configure(None, max_clients=max(10, students))
    await asyncio.gather(*(arrive(base, f"Student {n + 1}", n * stagger_s, timeout, school)
                           for n in range(students)))


async def checks(count: int, think_s: float, school: Class) -> None:
    await asyncio.gather(*(check(student, count, think_s, school) for student in school.students))


async def leave(school: Class) -> None:
    await asyncio.gather(*(student.leave() for student in school.students))


# -- the run ---------------------------------------------------------------------------


def database_url(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", type=int, default=20, help="students (default 20)")
    parser.add_argument("--checks", type=int, default=10,
                        help="checks each student sends (default 10)")
    parser.add_argument("--stagger", type=float, default=1.0,
                        help="seconds between two students arriving (default 1)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a student waits between two checks (default 1)")
    parser.add_argument("--timeout", type=float, default=180.0,
                        help="seconds a page may take to come alive (default 180)")
    parser.add_argument("--data", default="",
                        help="a PostgreSQL server's address, postgresql://USER@HOST:PORT/DB, "
                             "to make the class's database in (default: a PostgreSQL of its "
                             "own in a temporary folder)")
    args = parser.parse_args()
    if args.students < 1 or args.checks < 1:
        print("--students and --checks must be at least 1", file=sys.stderr)
        return 2
    print(f"python benchmarks/school_costs.py {' '.join(sys.argv[1:])}")
    print(f"{os.cpu_count()} cores; uptime: {uptime()}")
    postgres = None
    if args.data:
        admin_url = args.data
    else:
        from postgres_server import start_postgres

        postgres = start_postgres()
        admin_url = postgres.url()
        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as admin:
            # Autovacuum's own transactions in the class's database would be counted with
            # the classroom's; a school's server keeps it on.
            admin.execute("ALTER SYSTEM SET autovacuum = off")
            admin.execute("SELECT pg_reload_conf()")
    name = f"school_costs_{os.getpid()}"
    import psycopg

    try:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as exc:
        print(f"cannot make a database at {admin_url}: {str(exc).strip().splitlines()[-1]}",
              file=sys.stderr)
        if postgres is not None:
            from postgres_server import stop_postgres

            stop_postgres(postgres)
        return 1
    url = database_url(admin_url, name)
    db = Database(admin_url, name)
    server = start("--port", str(free_port()), "--pool-size", "1", "--class-name", CLASS, data=url)
    school = Class()
    try:
        wait_for_kernels(server, NOTEBOOKS, 300)
        wait_until_quiet(server, 300)
        figures = asyncio.run(run(server, db, url, args, school))
    finally:
        code = stop(server)
        db.admin.close()
        if postgres is not None:
            from postgres_server import stop_postgres

            stop_postgres(postgres)
    figures["server exit status"] = code
    print(f"\nuptime at the end: {uptime()}")
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    return 0 if not school.errors and school.kept == args.students * args.checks else 1


async def run(server: Server, db: Database, url: str, args: argparse.Namespace,
              school: Class) -> dict[str, Any]:
    """Both phases, in one event loop (the students' connections live in it); the class
    leaves at the end."""
    try:
        return await phases(server, db, url, args, school)
    finally:
        await leave(school)


async def phases(server: Server, db: Database, url: str, args: argparse.Namespace,
                 school: Class) -> dict[str, Any]:
    figures: dict[str, Any] = {"students": args.students, "checks per student": args.checks}
    # Arrivals: join, page, kernel.
    print(f"\nthe class arrives ({load()})", flush=True)
    await asyncio.to_thread(db.settled)  # the server's start (migrations, settings) counted
    tables_before = await asyncio.to_thread(table_counts, url)
    before = await asyncio.to_thread(db.settled)  # and the reading's own transaction
    own, kernel_list = class_processes(server)
    base_cpu = (cpu(own), cpu(kernel_list), cpu(db.backends()))
    empty_rss = psutil.Process(server.process.pid).memory_info().rss / MB
    await arrivals(server.url, args.students, args.stagger, args.timeout, school)
    own, kernel_list = class_processes(server)
    arrived_cpu = (cpu(own), cpu(kernel_list), cpu(db.backends()))
    memory = []
    for kernel in kernels(server):
        try:
            memory.append(kernel.memory_full_info())
        except psutil.NoSuchProcess:
            continue
    connections = db.connections()
    arrived_load = load()
    after = await asyncio.to_thread(db.settled)
    tables_after = await asyncio.to_thread(table_counts, url)
    live = len(school.students)
    per = max(live, 1)
    step = after.minus(before)
    rows = rows_minus(tables_after, tables_before)
    uss = [m.uss / MB for m in memory]
    rss = [m.rss / MB for m in memory]
    figures["arrival"] = {
        "live": live, "errors": list(school.errors), "load": arrived_load,
        "kernels running": len(memory),
        "kernel memory unique (USS) MB, median": round(statistics.median(uss), 1),
        "kernel memory unique (USS) MB, max": round(max(uss), 1),
        "kernel memory resident (RSS) MB, median": round(statistics.median(rss), 1),
        "server memory resident (RSS) MB, before the class": round(empty_rss, 1),
        "server memory resident (RSS) MB": round(
            psutil.Process(server.process.pid).memory_info().rss / MB, 1),
        "server memory MB per student": round(
            (psutil.Process(server.process.pid).memory_info().rss / MB - empty_rss) / per, 2),
        "warm parent memory resident (RSS) MB": round(warm_rss(server) / MB, 1),
        **each("arrival", per, base_cpu, arrived_cpu, step, rows),
        "database connections of the classroom server": connections,
    }
    print(json.dumps(figures["arrival"], indent=1, ensure_ascii=False), flush=True)
    # Checks: a card ticked, Check pressed in the kernel, the report sent and kept.
    print(f"\nthe class checks ({load()})", flush=True)
    tables_before = tables_after
    before = await asyncio.to_thread(db.settled)
    own, kernel_list = class_processes(server)
    base_cpu = (cpu(own), cpu(kernel_list), cpu(db.backends()))
    started = time.monotonic()
    await checks(args.checks, args.think, school)
    took = time.monotonic() - started
    own, kernel_list = class_processes(server)
    checked_cpu = (cpu(own), cpu(kernel_list), cpu(db.backends()))
    checked_load = load()
    connections = max(connections, db.connections())
    after = await asyncio.to_thread(db.settled)
    tables_after = await asyncio.to_thread(table_counts, url)
    kept = max(school.kept, 1)
    step = after.minus(before)
    rows = rows_minus(tables_after, tables_before)
    size = await asyncio.to_thread(answers_size, url)
    figures["check"] = {
        "checks kept": school.kept, "errors": list(school.errors), "load": checked_load,
        "seconds": round(took, 1),
        "tick, check and keep ms, median": round(statistics.median(school.check_ms), 1)
        if school.check_ms else None,
        **each("check", kept, base_cpu, checked_cpu, step, rows),
        "answers table and indexes, bytes per row": size[0],
        "a row's values, bytes": size[1],
        "database connections of the classroom server": connections,
    }
    print(json.dumps(figures["check"], indent=1, ensure_ascii=False), flush=True)
    return figures


def each(what: str, count: int, cpu_before: tuple[float, float, float],
         cpu_after: tuple[float, float, float], step: dict[str, int],
         rows: dict[str, tuple[int, int, int]]) -> dict[str, Any]:
    """A phase's processor time and database work, per arrival or per check (``what``)."""
    server, kernel, database = (after - before for after, before in zip(cpu_after, cpu_before, strict=True))
    return {f"server cpu s per {what}": round(server / count, 4),
            f"kernels cpu s per {what}": round(kernel / count, 4),
            f"database backend cpu s per {what}": round(database / count, 5),
            f"commits per {what}": round(step["commits"] / count, 3),
            f"rows written per {what}, by table (inserted, updated, deleted)": {
                table: [round(n / count, 3) for n in counts] for table, counts in rows.items()},
            f"wal bytes per {what}": round(step["wal"] / count)}


def rows_minus(after: dict[str, tuple[int, int, int]],
               before: dict[str, tuple[int, int, int]]) -> dict[str, tuple[int, int, int]]:
    """The rows inserted, updated and deleted in each table between two readings."""
    changed = {}
    for table, now in sorted(after.items()):
        then = before.get(table, (0, 0, 0))
        step = (now[0] - then[0], now[1] - then[1], now[2] - then[2])
        if any(step):
            changed[table] = step
    return changed


def table_counts(url: str) -> dict[str, tuple[int, int, int]]:
    """Rows inserted, updated and deleted so far in each of the class's tables, read from its
    own database in one transaction that writes nothing (its commit is counted in the phase
    it comes before)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return {name: (int(ins), int(upd), int(dele)) for name, ins, upd, dele in conn.execute(
            "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables"
        ).fetchall()}


def answers_size(url: str) -> tuple[int, int]:
    """The bytes of ``class_answers`` (table, its TOAST and indexes) over its rows, and the
    bytes of a row's values alone (``pg_column_size``), on average."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE class_answers")
        size, rows, values = one(conn.execute(
            "SELECT pg_total_relation_size('class_answers'), count(*), "
            "avg(pg_column_size(class_answers.*)) FROM class_answers"))
    return (round(size / rows), round(float(values))) if rows else (0, 0)

if __name__ == "__main__":
    raise SystemExit(main())
