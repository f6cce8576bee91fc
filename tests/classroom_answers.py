"""A class answering exercises on ``loo-tutor classroom``, with the teacher's page open.

For the load benchmark (``benchmarks/classroom_load.py --answers``): each
simulated student joins under a name of their own, opens the exercises app
and checks exercise 1 again and again, ticking one more card each time.
Meanwhile the teacher's page is open, and the class book is read straight
from its SQLite file twice a second, so that the run can say

* how long each check took to show its verdict on the student's page (the
  click latency), and to be kept by the server (the page's bar says so);
* how long after the class book held an answer the teacher's page counted it;
* whether the rows of the class book are exactly the checks the pages showed:
  none lost, none kept twice.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from classroom_server import Server, teacher_url

PAGE = "voila/render/exercises.ipynb"
CATCH_UP_S = 2.5
"""How long the teacher's page may take, once the class is over, to count the last answers
(it has 2 s; benchmarks/classroom_load.py fails a longer lag)."""

# Click the widget's Check button and resolve with [ms until its verdict shows,
# the check's id]: the kernel writes a new data-loo-checked mark with it.
_CHECK = """(button) => new Promise((resolve) => {
  const widget = button.closest('.loo-exercise');
  const before = (widget.querySelector('[data-loo-checked]') || {dataset: {}}).dataset.looChecked;
  const started = performance.now();
  const look = () => {
    const mark = widget.querySelector('[data-loo-checked]');
    if (mark && mark.dataset.looChecked !== before) {
      observer.disconnect();
      resolve([performance.now() - started, JSON.parse(mark.dataset.looChecked).id]);
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(widget, {subtree: true, childList: true, attributes: true});
  setTimeout(() => { observer.disconnect(); resolve([-1, '']); }, 20000);
  button.click();
})"""

# Resolve with the ms until the page's bar says every check is kept, or -1
# after ``limit`` ms.
_KEPT = """(limit) => new Promise((resolve) => {
  const started = performance.now();
  const look = () => {
    if (document.querySelector('.loo-class-bar[data-loo-kept="all"]')) {
      resolve(performance.now() - started);
    } else if (performance.now() - started > limit) {
      resolve(-1);
    } else {
      setTimeout(look, 20);
    }
  };
  look();
})"""


@dataclass
class Answers:
    """What the class did and what the server kept."""

    students: int = 0
    joined: int = 0
    check_ms: list[float] = field(default_factory=list)
    kept_ms: list[float] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    unanswered: int = 0
    rows: int = 0
    distinct: int = 0
    missing: int = 0
    extra: int = 0
    teacher_lag_s: list[float] = field(default_factory=list)
    teacher_lag_at: list[float] = field(default_factory=list)
    """When (``time.monotonic``) the class book held each answer counted in ``teacher_lag_s``."""
    last_joined: float = 0.0
    teacher_final: int = -1
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)


def _db_count(database: Path) -> int:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT count(*) FROM class_answers").fetchone()[0])


async def _student(browser: Any, base: str, name: str, rounds: int, arrive: float,
                   out: Answers) -> Any:
    await asyncio.sleep(arrive)  # the class arrives over a while, as the simulation asks
    context = await browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(300_000)  # a busy server opens a page in minutes, not seconds
    here = urlsplit(base).netloc
    context.on("request", lambda r: out.outside.append(r.url)
               if urlsplit(r.url).netloc not in (here, "") else None)
    page = await context.new_page()
    page.on("console", lambda m: out.errors.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: out.errors.append(f"page error: {e}"))
    await page.goto(f"{base}loo/join?next=/{PAGE}", timeout=300_000)
    await page.fill("#loo-name", name)
    await page.click("button[type=submit]")
    await page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                                 timeout=300_000)
    out.joined += 1
    out.last_joined = max(out.last_joined, time.monotonic())
    widget = page.locator(".loo-exercise").filter(has_text="Exercise 1:")
    boxes = widget.locator('.widget-checkbox input[type="checkbox"]')
    check = await widget.locator("button", has_text="Check").first.element_handle()
    count = await boxes.count()
    mine = 0
    try:
        for n in range(rounds):
            await boxes.nth(n % count).click()
            waited, check_id = await check.evaluate(_CHECK)
            if waited < 0:
                out.unanswered += 1
                continue
            out.check_ms.append(waited)
            out.shown.append(check_id)
            mine += 1
            kept = await page.evaluate(_KEPT, 20_000)
            if kept >= 0:
                out.kept_ms.append(waited + kept)
            await page.wait_for_timeout(400)  # a student reads the verdict: the class's pace
    finally:
        # The class ends once each page has sent what it showed (the browser
        # closing would take a page's unsent checks with it).
        if mine and await page.evaluate(_KEPT, 180_000) < 0:
            out.errors.append(f"{name}'s page still had checks to send after 3 minutes")
    return context


async def _watch_teacher(teacher: Any, database: Path, done: asyncio.Event,
                         out: Answers) -> None:
    """Note when each answer reached the class book and when the teacher's page counted it.

    Once ``done`` is set (the students have left), it watches on until the
    teacher's page counts every answer the class book holds, for at most
    ``CATCH_UP_S``.
    """
    kept_at: dict[int, float] = {}
    shown_at: dict[int, float] = {}
    give_up = float("inf")
    while True:
        now = time.monotonic()
        rows = await asyncio.to_thread(_db_count, database)
        for n in range(1, rows + 1):
            kept_at.setdefault(n, now)
        shown = int(await teacher.evaluate(
            "Number((document.querySelector('[data-loo-answers]') || {dataset: {}})"
            ".dataset.looAnswers || 0)"))
        for n in range(1, shown + 1):
            shown_at.setdefault(n, now)
        if done.is_set():
            give_up = min(give_up, now + CATCH_UP_S)
            if shown >= rows or now > give_up:
                break
        await asyncio.sleep(0.25)  # how often the lags are read: to a quarter of a second
    counted = [n for n in sorted(kept_at) if n in shown_at]
    out.teacher_lag_s = [shown_at[n] - kept_at[n] for n in counted]
    out.teacher_lag_at = [kept_at[n] for n in counted]


async def _run(server: Server, database: Path, students: int, rounds: int, stagger: float,
               executable: str, flags: list[str], out: Answers) -> None:
    from playwright.async_api import async_playwright

    out.students = students
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, args=flags)
        try:
            teacher = await (await browser.new_context()).new_page()
            await teacher.goto(teacher_url(server))
            done = asyncio.Event()
            watcher = asyncio.create_task(_watch_teacher(teacher, database, done, out))
            results = await asyncio.gather(
                *(_student(browser, server.url, f"Student {n + 1}", rounds, n * stagger, out)
                  for n in range(students)), return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException):
                    out.errors.append(f"a student failed: {type(result).__name__}: "
                                      + str(result).splitlines()[0])
            done.set()
            await watcher  # until the teacher's page has caught up (at most CATCH_UP_S)
            out.teacher_final = int(await teacher.evaluate(
                "Number(document.querySelector('[data-loo-answers]').dataset.looAnswers)"))
        finally:
            await browser.close()


def class_answers(server: Server, database: Path, students: int, rounds: int, stagger: float,
                  executable: str, flags: list[str]) -> Answers:
    """Run the class against ``server``, whose class book is ``database``; see the module."""
    out = Answers()
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(_run(server, database, students, rounds, stagger, executable, flags,
                             out))
        except BaseException as exc:  # handed back to the caller below
            failure.append(exc)

    worker = threading.Thread(target=run, name="classroom-answers")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        ids = [row[0] for row in db.execute("SELECT check_id FROM class_answers")]
    out.rows, out.distinct = len(ids), len(set(ids))
    out.missing = len(set(out.shown) - set(ids))
    out.extra = len(set(ids) - set(out.shown))
    return out
