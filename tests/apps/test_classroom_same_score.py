"""One assignment, the same work on the site and in the classroom, one score in every place.

Two students do the same work on an assignment of four exercises: the first
right at the first check, the second right after a wrong check, the third's
solution shown and then copied and checked, the fourth not answered. Ida
does it on the site's exercises page opened from the assignment's link, Cy
on the classroom's exercises page (``loo-tutor classroom --assignment``).
The score model (:mod:`loo_tutor.teaching.score`) says what the work is
worth; every place must say the same:

* the site page's score line, and its panel "Solved in this browser" after
  a reload;
* the site's download, through ``loo-tutor mark --key`` and its grade book
  (``--csv``);
* the classroom page's score line, and its bar (the progress the server
  keeps for the student) after a reload;
* the teacher's page, its row for Cy;
* ``loo-tutor mark --class`` and its grade book;
* the teacher's page's CSV download.
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


def _do_the_work(page: Any, sheet: Any, items: list[tuple[str, int]], in_class: bool) -> None:
    """Do the plan on the assignment's exercises shown in ``sheet``, waiting on each verdict."""
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
        if plan == UNANSWERED:
            continue
        if plan == AFTER:
            wrong = _labels(kind, seed, right=False)
            tick(widget, wrong)
            check(widget, "wrong")
            tick(widget, wrong, on=False)
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
    expected = score([Check(kind, seed, verdict) for (kind, seed), plan in zip(items, PLAN, strict=True)
                      for verdict in planned[plan]], week.keys())
    assert [i.outcome for i in expected.items] == [
        Outcome.RIGHT_FIRST, Outcome.RIGHT_AFTER, Outcome.SOLUTION_SHOWN, Outcome.NOT_ANSWERED]
    line, tally = expected.line(), expected.tally()
    outcomes = {(i.kind, i.seed): i.outcome.value for i in expected.items}
    assert line == "2 of 4 right"

    room = tmp_path / "class"
    server = start("--port", str(free_port()), "--pool-size", "0", "--class-code", CODE,
                   "--assignment", str(key), data=room)
    saved = tmp_path / "ida.json"
    seen: dict[str, str] = {}
    requests: list[str] = []
    errors: list[str] = []

    def on_the_site(browser: Any) -> None:
        from playwright.sync_api import expect

        with new_page(browser, requests, errors) as page:
            app = open_live(page, site, f"{EXERCISES_PAGE}?{link_query(week)}",
                            "Exercise 1:", "Check")
            _do_the_work(page, app.locator(".loo-live-widget .loo-assignment"), items, False)
            expect(app.locator(".loo-live-widget .loo-score-line")).to_contain_text(
                f"Score: {line}: {tally}.")
            page.reload(wait_until="domcontentloaded")
            panel = page.locator(".loo-progress-panel")
            score_kept = panel.locator(".loo-progress-score")
            page.wait_for_function(  # live again, the assignment open
                "() => document.querySelector('.loo-live-widget .loo-assignment-title')",
                timeout=LIVE_TIMEOUT_MS)
            expect(score_kept).to_contain_text("Score kept in this browser: ")
            with contextlib.suppress(AssertionError):  # said below, with what the panel says
                expect(score_kept).to_contain_text(f": {line}: {tally}.")
            seen["site panel"] = score_kept.inner_text()
            hand_in = panel.locator(".loo-progress-hand-in")
            hand_in.get_by_label("Your name, as your teacher will see it").fill("Ida")
            with page.expect_download() as taken:
                hand_in.locator("button", has_text="Download my answers").click()
            taken.value.save_as(saved)

    def in_the_classroom(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.goto(f"{server.url}loo/join?next=/{CLASS_PAGE}")
        page.fill("#loo-name", "Cy")
        page.fill("#loo-code", CODE)
        page.locator("button", has_text="Join").click()
        live = "document.documentElement?.dataset.looClassroom === 'live'"
        page.wait_for_function(live, timeout=LIVE_TIMEOUT_MS)
        page.locator(".loo-class-bar", has_text="Joined as Cy").wait_for(timeout=60_000)
        _do_the_work(page, page.locator(".loo-assignment"), items, True)
        seen["class line"] = page.locator(".loo-score-line").first.inner_text()
        page.reload()
        page.wait_for_function(live, timeout=LIVE_TIMEOUT_MS)
        bar = page.locator('.loo-class-bar[data-loo-kept="all"]', has_text="Right / tried")
        bar.wait_for(timeout=60_000)
        seen["class bar"] = bar.inner_text()
        teacher = browser.new_context().new_page()
        teacher.goto(teacher_url(server))
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
        stop(server)
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)

    # The site: its panel after a reload, and its download marked against the key.
    assert f"{line}: {tally}" in seen["site panel"], seen["site panel"]
    site_mark = _mark("--key", str(key), str(saved))
    assert site_mark.returncode == 0, site_mark.stderr
    assert f"Ida ({saved}): {line}" in site_mark.stdout, site_mark.stdout
    site_book = _mark("--key", str(key), "--csv", "-", str(saved))
    assert _grade_book(site_book.stdout, "Ida") == outcomes

    # The classroom: the page's line, its bar after a reload, the teacher's row and CSV.
    assert f"Score: {line}: {tally}." in seen["class line"], seen["class line"]
    assert _cells(seen["class bar"]) == (expected.right, expected.total), seen["class bar"]
    assert _cells(seen["teacher"]) == (expected.right, expected.total), seen["teacher"]
    class_mark = _mark("--class", str(room))
    assert class_mark.returncode == 0, class_mark.stderr
    assert re.search(rf"^Cy \(.*\): {line}\b", class_mark.stdout, re.M), class_mark.stdout
    assert _grade_book(_mark("--class", str(room), "--csv", "-").stdout, "Cy") == outcomes
    assert _grade_book(seen["teacher csv"], "Cy") == outcomes
