"""One assignment, the same work on the site and in the classroom, one score in every place.

Two students do the same work on an assignment of four exercises: the first
right at the first check, the second right after a wrong check, the third's
solution shown and then copied and checked, the fourth not answered. Ida
does it on the site's exercises page opened from the assignment's link, Cy
on the classroom's exercises page (``loo-tutor classroom --assignment``).
Each does the first part of the work (the first exercise, and the wrong
check of the second), then Ida reloads the site page and the classroom
server is stopped and started again with the same ``--data`` (Cy's page
opens again by itself), and each does the rest. The score model
(:mod:`loo_tutor.teaching.score`) says what the work is worth, half-way and
at the end; every place must say the same:

* the site page's score line after the reload, half-way, then at the end,
  and again after a second reload with its panel "Solved in this browser";
* the site's download, through ``loo-tutor mark --key`` and its grade book
  (``--csv``);
* the classroom page's score line after the restart, half-way, then at the
  end, and again after a reload with its bar (the progress the server keeps
  for the student);
* the teacher's page, its row for Cy;
* ``loo-tutor mark --class`` and its grade book;
* the teacher's page's CSV download.

Every wait is on what a page shows, never on a time; ``-s`` prints the score
each place showed.
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from loo_tutor.engine.cards import card_text
from loo_tutor.teaching.assignment import link_query, parse_assignment
from loo_tutor.teaching.exercises import DealerChoice, Kind, LegalCards, make
from loo_tutor.teaching.marking import GRADE_BOOK_COLUMNS
from loo_tutor.teaching.score import RIGHT, SOLUTION, WRONG, Outcome, score

from browser_support import LIVE_TIMEOUT_MS, in_browser, new_page, open_live
from classroom_server import free_port, start, stop, teacher_url

CODE = "owl-lamp-42"
EXERCISES_PAGE = "notebooks/exercises.html"
CLASS_PAGE = "voila/render/exercises.ipynb"
FIRST, AFTER, SOLUTION_COPIED, UNANSWERED = "first", "after", "solution", "none"
PLAN = (FIRST, AFTER, SOLUTION_COPIED, UNANSWERED)
"""What the students do with each exercise of the assignment, in order."""
BEFORE, REST = "before", "rest"
"""The work's two parts: the first exercise and the wrong check of the second, then the rest."""


def _cards(start_at: int) -> int:
    """The first seed from ``start_at`` whose hand holds a card that may not be played."""
    seed = start_at
    while True:
        made = make(Kind.LEGAL_CARDS, seed)
        assert isinstance(made, LegalCards)
        if set(made.hand) - set(made.legal()):
            return seed
        seed += 1


def _labels(kind: str, seed: int, right: bool = True) -> list[str]:
    """The check boxes to tick for the right answer (or, ``right=False``, a wrong one)."""
    made = make(next(k for k in Kind if k.word == kind), seed)
    if isinstance(made, LegalCards):
        legal = made.legal()
        chosen = legal if right else [c for c in made.hand if c not in legal][:1]
        return [card_text(c) for c in chosen]
    assert isinstance(made, DealerChoice)
    return [made.LABELS[made.CALLS.index(a)] for a in made.allowed()]


def _do_the_work(page: Any, sheet: Any, items: list[tuple[str, int]], in_class: bool,
                 part: str) -> None:
    """Do ``part`` of the plan on the assignment's exercises shown in ``sheet``, waiting on each
    verdict (and in the classroom on the server keeping it)."""
    exercises = sheet.locator(".loo-exercise")
    exercises.nth(len(items) - 1).wait_for(timeout=LIVE_TIMEOUT_MS)
    assert exercises.count() == len(items)

    def kept() -> None:
        if in_class:
            page.locator('.loo-class-bar[data-loo-kept="all"]').wait_for(timeout=60_000)

    def tick(widget: Any, labels: list[str], on: bool = True) -> None:
        for label in labels:
            box = widget.locator(".widget-checkbox", has_text=label).locator(
                'input[type="checkbox"]')
            box.check() if on else box.uncheck()

    def check(widget: Any, outcome: str) -> None:
        widget.locator("button", has_text=re.compile(r"^\s*Check\s*$")).click()
        widget.locator(f".loo-field-{outcome}").first.wait_for(timeout=60_000)
        kept()

    for (kind, seed), plan in zip(items, PLAN, strict=True):
        widget = exercises.nth(items.index((kind, seed)))
        if plan == UNANSWERED or (plan, part) in ((FIRST, REST), (SOLUTION_COPIED, BEFORE)):
            continue
        if plan == AFTER and part == BEFORE:
            wrong = _labels(kind, seed, right=False)
            tick(widget, wrong)
            check(widget, "wrong")
            tick(widget, wrong, on=False)
            continue
        if plan == SOLUTION_COPIED:
            widget.locator("button", has_text="Show solution").click()
            widget.locator(".loo-solution-title").wait_for(timeout=60_000)
        tick(widget, _labels(kind, seed))
        check(widget, "right")


def _cells(row: str) -> tuple[int, int]:
    """Right and tried, summed over the kinds, from a line of ``R / T`` figures."""
    pairs = [(int(r), int(t)) for r, t in re.findall(r"(\d+) / (\d+)", row)]
    return sum(r for r, _ in pairs), sum(t for _, t in pairs)


def _grade_book(text: str, student: str) -> dict[tuple[str, int], str]:
    """Each exercise's outcome in a grade book, for ``student``."""
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows and tuple(rows[0]) == GRADE_BOOK_COLUMNS, text[:300]
    return {(row["kind"], int(row["seed"])): row["outcome"]
            for row in rows if row["student"] == student and row["seed"]}


def _mark(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "loo_tutor", "mark", *args],
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_same_work_scores_the_same_on_the_site_and_in_the_classroom(
        site: str, tmp_path: Path) -> None:
    first = _cards(300)
    after = _cards(first + 1)
    items = [("legal-cards", first), ("legal-cards", after), ("dealer", 41), ("dealer", 42)]
    week = parse_assignment({"title": "Week 5", "id": "week-5", "exercises": [
        {"kind": kind, "seed": seed} for kind, seed in items]})
    key = tmp_path / "week-5.yaml"
    key.write_text(week.dumps(), encoding="utf-8")

    class Check:  # the checks the plan makes, as the score model reads them
        def __init__(self, kind: str, seed: int, verdict: str) -> None:
            self.kind, self.seed, self.verdict = kind, seed, verdict

    planned = {FIRST: [RIGHT], AFTER: [WRONG, RIGHT], SOLUTION_COPIED: [SOLUTION, RIGHT],
               UNANSWERED: []}
    before = {FIRST: [RIGHT], AFTER: [WRONG]}  # the first part of the work
    work = [Check(kind, seed, verdict) for (kind, seed), plan in zip(items, PLAN, strict=True)
            for verdict in planned[plan]]
    expected = score(work, week.keys())
    assert [i.outcome for i in expected.items] == [
        Outcome.RIGHT_FIRST, Outcome.RIGHT_AFTER, Outcome.SOLUTION_SHOWN, Outcome.NOT_ANSWERED]
    line, tally = expected.line(), expected.tally()
    outcomes = {(i.kind, i.seed): i.outcome.value for i in expected.items}
    assert line == "2 of 4 right"
    half = score([Check(kind, seed, verdict) for (kind, seed), plan in zip(items, PLAN, strict=True)
                  for verdict in before.get(plan, [])], week.keys())
    half_line = f"Score: {half.line()}: {half.tally()}."
    assert half_line == "Score: 1 of 4 right: 1 right at the first check, 1 wrong, 2 not answered."
    full_line = f"Score: {line}: {tally}."

    room = tmp_path / "class"
    servers = [start("--port", str(free_port()), "--pool-size", "0", "--class-code", CODE,
                     "--assignment", str(key), data=room)]
    saved = tmp_path / "ida.json"
    seen: dict[str, str] = {}
    requests: list[str] = []
    errors: list[str] = []

    def shown(place: Any, text: str) -> str:
        """What ``place`` says once it contains ``text`` (or in a minute, if it never does)."""
        from playwright.sync_api import expect

        with contextlib.suppress(AssertionError):  # said below, with what the place says
            expect(place).to_contain_text(text, timeout=60_000)
        return str(place.inner_text())

    def on_the_site(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            app = open_live(page, site, f"{EXERCISES_PAGE}?{link_query(week)}",
                            "Exercise 1:", "Check")
            sheet = page.locator(".loo-live-widget .loo-assignment")
            score_line = page.locator(".loo-live-widget .loo-score-line")
            _do_the_work(page, sheet, items, False, BEFORE)
            seen["site line, half-way"] = shown(score_line, half_line)

            def reload() -> None:
                page.reload(wait_until="domcontentloaded")
                page.wait_for_function(  # live again, the assignment open
                    "() => document.querySelector('.loo-live-widget .loo-assignment-title')",
                    timeout=LIVE_TIMEOUT_MS)

            reload()
            seen["site line after a reload, half-way"] = shown(score_line, half_line)
            _do_the_work(page, sheet, items, False, REST)
            seen["site line"] = shown(score_line, full_line)
            reload()
            seen["site line after a reload"] = shown(score_line, full_line)
            panel = app.locator(".loo-progress-panel")
            seen["site panel"] = shown(panel.locator(".loo-progress-score"), f": {line}: {tally}.")
            hand_in = panel.locator(".loo-progress-hand-in")
            hand_in.get_by_label("Your name, as your teacher will see it").fill("Ida")
            with page.expect_download() as taken:
                hand_in.locator("button", has_text="Download my answers").click()
            taken.value.save_as(saved)

    def in_the_classroom(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.goto(f"{servers[0].url}loo/join?next=/{CLASS_PAGE}")
        page.fill("#loo-name", "Cy")
        page.fill("#loo-code", CODE)
        page.locator("button", has_text="Join").click()
        live = "document.documentElement?.dataset.looClassroom === 'live'"
        page.wait_for_function(live, timeout=LIVE_TIMEOUT_MS)
        page.locator(".loo-class-bar", has_text="Joined as Cy").wait_for(timeout=60_000)
        score_line = page.locator(".loo-score-line").first
        _do_the_work(page, page.locator(".loo-assignment"), items, True, BEFORE)
        seen["class line, half-way"] = shown(score_line, half_line)

        def opened_again(act: Any) -> None:
            """Do ``act()``, then wait until a new page is live, every answer kept."""
            page.evaluate("window.looOldPage = true")
            act()
            page.wait_for_function(f"!window.looOldPage && {live}", timeout=LIVE_TIMEOUT_MS)
            page.locator('.loo-class-bar[data-loo-kept="all"]', has_text="Joined as Cy"
                         ).wait_for(timeout=60_000)

        def restart() -> None:  # the same class folder and port: the page opens again itself
            stop(servers[-1])
            servers.append(start("--port", str(servers[0].port), "--pool-size", "0",
                                 "--class-code", CODE, "--assignment", str(key), data=room,
                                 same_port=True))

        opened_again(restart)
        seen["class line after the restart, half-way"] = shown(score_line, half_line)
        _do_the_work(page, page.locator(".loo-assignment"), items, True, REST)
        seen["class line"] = shown(score_line, full_line)
        opened_again(page.reload)
        seen["class line after a reload"] = shown(score_line, full_line)
        bar = page.locator('.loo-class-bar[data-loo-kept="all"]', has_text="Right / tried")
        bar.wait_for(timeout=60_000)
        seen["class bar"] = bar.inner_text()
        teacher = browser.new_context().new_page()
        teacher.goto(teacher_url(servers[-1]))
        row = teacher.locator('tr[data-loo-student="Cy"]')
        row.wait_for(timeout=60_000)
        seen["teacher"] = " ".join(row.locator("td").all_inner_texts())
        with teacher.expect_download() as download:
            teacher.locator("a.loo-export").click()
        seen["teacher csv"] = Path(download.value.path()).read_bytes().decode("utf-8")
        context.close()

    try:
        in_browser(on_the_site)
        in_browser(in_the_classroom)
    finally:
        for server in servers:
            stop(server)
    for place, said in seen.items():
        if "csv" not in place:
            print(f"{place}: {said}")
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)
    assert len(servers) == 2

    # The site: its score line half-way (before and after a reload), at the end (before
    # and after a reload), its panel, and its download marked against the key.
    for place in ("site line, half-way", "site line after a reload, half-way"):
        assert half_line in seen[place], (place, seen[place])
    for place in ("site line", "site line after a reload"):
        assert full_line in seen[place], (place, seen[place])
    assert f"{line}: {tally}" in seen["site panel"], seen["site panel"]
    site_mark = _mark("--key", str(key), str(saved))
    assert site_mark.returncode == 0, site_mark.stderr
    print("mark --key, the site's download:", site_mark.stdout.strip().splitlines()[:2])
    assert f"Ida ({saved}): {line}" in site_mark.stdout, site_mark.stdout
    site_book = _mark("--key", str(key), "--csv", "-", str(saved))
    assert _grade_book(site_book.stdout, "Ida") == outcomes

    # The classroom: the page's line half-way (before and after the restart), at the end
    # (before and after a reload), its bar, the teacher's row and CSV, mark --class.
    for place in ("class line, half-way", "class line after the restart, half-way"):
        assert half_line in seen[place], (place, seen[place])
    for place in ("class line", "class line after a reload"):
        assert full_line in seen[place], (place, seen[place])
    assert _cells(seen["class bar"]) == (expected.right, expected.total), seen["class bar"]
    assert _cells(seen["teacher"]) == (expected.right, expected.total), seen["teacher"]
    class_mark = _mark("--class", str(room))
    assert class_mark.returncode == 0, class_mark.stderr
    print("mark --class:", [one for one in class_mark.stdout.splitlines() if "Cy" in one][:2])
    assert re.search(rf"^Cy \(.*\): {line}\b", class_mark.stdout, re.M), class_mark.stdout
    assert _grade_book(_mark("--class", str(room), "--csv", "-").stdout, "Cy") == outcomes
    assert _grade_book(seen["teacher csv"], "Cy") == outcomes
