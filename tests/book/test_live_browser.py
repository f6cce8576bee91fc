"""The book's own pages run their widgets in the browser, in place.

These tests serve ``_build/html`` (built first when out of date: the ``book`` fixture)
on 127.0.0.1 and drive Debian's Chromium through Playwright:

* the forced-ace page turns live: while Python starts in the page's worker
  (Pyodide, served by the site, once) the page shows its saved widgets and
  says it is starting; then each saved widget gives way to the live one in
  its place, and the trainer refuses A's 7♥ under R-LEAD-ACE, with the
  book's own link to the rule, and plays A♥; every request stays on the
  site and nothing is logged as an error;
* the exercises page turns live too, and the first exercise is answered in
  the browser: a wrong card is explained under the rule the engine names,
  the engine's own answer is accepted, and the running score counts it;
* what the reader solves there is kept in the browser: after a reload,
  with Python held back so that the page stays a saved copy, the panel
  "Solved in this browser" still lists it under its kind; the panel's
  button forgets it (after a question answered with the keyboard), and it
  stays forgotten after another reload; junk in the browser's store is
  left aside; axe-core finds nothing serious in the panel;
* two exercises solved there are handed in: after a reload the panel's
  score and the answers are still there; the student's name is asked for
  (and kept), "Download my answers" saves the answers file, and ``loo-tutor
  mark`` finds both answers right;
* an assignment's link opens the page with the assignment's exercises in
  order; one is solved, the other's solution is shown first: the page's
  score, the panel's and ``loo-tutor mark --key`` on the download agree;
* a MyST markdown notebook (``{code-cell}`` page, tests/data/live) goes live
  with no more than the build extension does for every page.

Every page's walk for the no-other-host rule is tests/book/test_offline_site.py.
A missing Chromium is a failure, never a skip: ``./dev test`` installs it.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_support import (
    HTML,
    LIVE_PAGE,
    LIVE_TIMEOUT_MS,
    ROOT,
    axe_findings,
    in_browser,
    new_page,
    open_live,
    outside_site,
    serve_directory,
    wait_live,
)

EXERCISES_PAGE = "notebooks/exercises.html"
EXERCISES_SEED = 2024  # the seed of the notebook's cell ExerciseWidget(1, seed=2024, ...)


def test_forced_ace_page_goes_live_and_the_engine_judges_clicks(site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    in_browser(lambda browser: _play_forced_ace(browser, site, requests, errors))

    # loo-tutor's code, like every package the page needs, is in the
    # standard library's zip (scripts/vendor_pyodide.py): no wheel is loaded.
    assert not [u for u in requests if u.endswith(".whl")], requests
    # The saved widgets are HTML in the page (_ext/loo_snapshot.py): a page
    # that goes live never loads the widget manager that would draw them.
    assert not [u for u in requests if "/html-manager/" in u or "/require.js" in u], requests
    # The standard library's zip is sent gzipped, once; the worker unpacks it.
    stdlib = "/_static/pyodide/python_stdlib.zip"
    assert sum(u.split("?")[0].endswith(f"{stdlib}.gz") for u in requests) == 1, requests
    assert not [u for u in requests if u.split("?")[0].endswith(stdlib)], requests
    assert sum(u.endswith("/pyodide.asm.wasm") for u in requests) == 1, requests
    # Python starts from the top of the page, before the page's own script loads.
    worker = next(i for i, u in enumerate(requests) if "/_static/live/worker.js" in u)
    script = next(i for i, u in enumerate(requests) if "/_static/live/live.js" in u)
    assert worker < script, "the worker should start before the page's script is requested"
    assert not [u for u in requests if "/lite/" in u], "no second application is loaded"
    assert not outside_site(requests, site), f"requests left: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _play_forced_ace(browser: Any, site: str, requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    with new_page(browser, requests, errors) as page:
        asked: list[float] = []  # when the saved memory was asked for (ms since the epoch)
        page.context.on("request", lambda request: asked.append(time.time() * 1000)
                        if SNAPSHOT in request.url else None)
        # Python's worker is held back until the loading state is looked at.
        held: list[Any] = []
        page.route("**/_static/live/worker.js*", lambda route: held.append(route))
        # And Pyodide's script, until the worker has asked for the rest of Pyodide.
        script: list[Any] = []
        released: list[bool] = []
        page.context.route("**/_static/pyodide/pyodide.asm.js*", lambda route: route.continue_()
                           if released else script.append(route))
        # And the zip served apart, until the page is live: a start that
        # needed a module of it would wait for it, and the page never go live.
        later: list[Any] = []
        live: list[bool] = []
        page.context.route(f"**{LATER}*", lambda route: route.continue_()
                           if live else later.append(route))
        page.goto(f"{site}/{LIVE_PAGE}", wait_until="domcontentloaded")
        status = page.locator(".loo-live-status")
        expect(status).to_contain_text("Starting Python in your browser")
        assert page.evaluate("document.documentElement?.dataset.looLive") == "starting"
        saved = page.locator(".loo-snapshot .loo-widget").filter(has_text="You are A.")
        assert saved.locator("button", has_text="7♥").is_disabled()
        assert page.locator(".loo-live-status progress").count() == 1
        assert held, "the page should have asked for its worker at once"

        # While Python starts, the widgets are drawn from the page's saved
        # state in place of their copies, and a press is kept until Python
        # is ready to answer it.
        trainer = page.locator(".loo-live-widget .loo-widget").filter(has_text="You are A.")
        trainer.locator("button", has_text="7♥").click()
        expect(status).to_contain_text("answered as soon as Python is ready")
        # The page counts the requests Python has not answered yet (data-loo-waiting).
        assert page.evaluate("document.documentElement?.dataset.looWaiting") not in (None, "0")
        assert saved.is_hidden()
        assert trainer.locator(".loo-refused").count() == 0
        # The worker asks for Pyodide's WebAssembly and standard library at
        # once, without waiting for Pyodide's script, which is held meanwhile.
        with page.expect_request(lambda r: r.url.split("?")[0].endswith("/pyodide.asm.wasm"),
                                 timeout=LIVE_TIMEOUT_MS), \
                page.expect_request(lambda r: "/_static/pyodide/python_stdlib.zip.gz" in r.url,
                                    timeout=LIVE_TIMEOUT_MS):
            held[0].continue_()
        released.append(True)
        for route in script:
            route.continue_()

        wait_live(page, "You are A.", "7♥")
        assert page.evaluate("document.documentElement?.dataset.looLiveStart") == "fresh"
        live.append(True)
        for route in later:
            route.continue_()
        article = page.locator("article")
        assert ")=" not in article.inner_text()  # no MyST target written out
        assert "import" not in article.inner_text(), "no Python source is shown"
        refused = trainer.locator(".loo-refused")
        refused.wait_for(timeout=30_000)
        assert "R-LEAD-ACE" in refused.inner_text()
        assert "7H" in refused.inner_text() or "7♥" in refused.inner_text()
        rule = refused.locator("a.loo-rule", has_text="R-LEAD-ACE")
        assert rule.get_attribute("href") == "../book/rules.html#r-lead-ace"
        # The book's own link: it opens the rules page of this site.
        assert rule.evaluate("a => a.href") == f"{site}/book/rules.html#r-lead-ace"

        trainer.locator("button", has_text="A♥").click()
        trainer.locator(".loo-ok").wait_for(timeout=30_000)
        assert trainer.locator(".loo-refused").count() == 0
        assert trainer.locator("button", has_text="A♥").count() == 0, "A♥ should have left A's hand"
        page.wait_for_function("() => document.documentElement?.dataset.looWaiting === '0'",
                               timeout=30_000)

        # A first visit never fetches the saved memory (a reader's second does).
        page.wait_for_function("() => document.documentElement?.dataset.looLiveSettled === ''",
                               timeout=LIVE_TIMEOUT_MS)
        assert not asked, asked
        # Pyodide's script is imported once more, by a second worker, so that
        # the browser keeps its compiled code for the next visit.
        script = [url for url in requests if url.split("?")[0].endswith("/pyodide/pyodide.asm.js")]
        assert len(script) == 2, script
        # The rest of Python's modules came once, after the page was live.
        assert sum(url.split("?")[0].endswith(LATER) for url in requests) == 1, requests


LATER = "/_static/pyodide/python_later.zip.gz"
# Runs in a page of the site that is not live: a worker that starts Pyodide
# from the site's files, with the first zip as the site serves it (unpacked
# here), and imports modules of the zip served apart before anything
# fetched that zip; answers where they came from.
SOONER_JS = r"""async (origin) => {
  const code = `
importScripts('${origin}/_static/pyodide/pyodide.js');
(async () => {
  const sent = await fetch('${origin}/_static/pyodide/python_stdlib.zip.gz');
  const zip = await new Response(sent.body.pipeThrough(new DecompressionStream('gzip'))).blob();
  const py = await loadPyodide({ indexURL: '${origin}/_static/pyodide/',
                                 stdLibURL: URL.createObjectURL(zip) });
  postMessage(py.runPython(\`
import loo_live_worker
loo_live_worker.expect_later('${origin}/_static/pyodide/python_later.zip.gz')
import difflib
import traitlets.utils.text
loo_live_worker.add_later(b'')  # the worker's fetch, come after: the zip is kept already
' '.join([loo_live_worker.imported_early(), difflib.__spec__.origin,
          traitlets.utils.text.__spec__.origin])
\`));
})().catch((error) => postMessage('failed: ' + error));`;
  const worker = new Worker(URL.createObjectURL(new Blob([code])));
  const answer = await new Promise((resolve) => { worker.onmessage = (event) => resolve(event.data); });
  worker.terminate();
  return answer;
}"""


def test_a_module_left_for_later_and_needed_sooner_is_fetched_at_once(site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    answer: list[str] = []

    def run(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            page.goto(f"{site}/book/rules.html", wait_until="domcontentloaded")
            answer.append(page.evaluate(SOONER_JS, site))

    in_browser(run)
    assert not answer[0].startswith("failed"), answer[0]
    early, difflib, text = answer[0].split(" ")
    # The first module of that zip imported fetched it, synchronously, once.
    assert early == "difflib"
    assert difflib == "/lib/python_later.zip/difflib.pyc"
    # A module of it in a package of the first zip is found in it too.
    assert text == "/lib/python_later.zip/traitlets/utils/text.pyc"
    assert sum(url.split("?")[0].endswith(LATER) for url in requests) == 1, requests
    assert not errors, errors




SNAPSHOT = "/_static/pyodide/snapshot.bin.gz"
# Runs in the page: the saved memory kept by the worker (decompressed, in
# the origin's private file system, beside the note of a first visit) replaced by as many bytes that are no
# memory Python can start from.
SPOIL_KEPT_MEMORY = """async () => {
  const root = await navigator.storage.getDirectory();
  const folder = await root.getDirectoryHandle('loo-live-saved-memory');
  const names = [];
  for await (const name of folder.keys()) if (!name.endsWith('.visited')) names.push(name);
  const file = await folder.getFileHandle(names[0]);
  const size = (await file.getFile()).size;
  const writable = await file.createWritable();
  await writable.write(new Uint8Array(size).fill(7));
  await writable.close();
  return decodeURIComponent(names[0]);
}"""


def test_a_third_visit_starts_from_the_saved_memory_and_a_spoilt_one_starts_python_afresh(
        site: str) -> None:
    errors: list[str] = []
    in_browser(lambda browser: _visit_again(browser, site, errors))
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _visit_again(browser: Any, site: str, errors: list[str]) -> None:
    requests: list[str] = []
    with new_page(browser, requests, errors) as page:
        warnings: list[str] = []
        page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        settled = "() => document.documentElement?.dataset.looLiveSettled === ''"
        asked: list[float] = []  # when the saved memory was asked for (ms since the epoch)
        page.context.on("request", lambda request: asked.append(time.time() * 1000)
                        if SNAPSHOT in request.url else None)
        open_live(page, site, LIVE_PAGE, "You are A.", "7♥")
        page.wait_for_function(settled, timeout=LIVE_TIMEOUT_MS)
        assert page.evaluate("document.documentElement?.dataset.looLiveStart") == "fresh"
        assert not asked, "a first visit should not fetch the saved memory"

        # The second visit starts afresh too, and fetches the saved memory
        # once, after the page is live.
        page.reload(wait_until="domcontentloaded")
        wait_live(page, "You are A.", "7♥")
        live_at = page.evaluate("performance.timeOrigin + Number("
                                "document.documentElement?.dataset.looLiveMs)")
        assert page.evaluate("document.documentElement?.dataset.looLiveStart") == "fresh"
        page.wait_for_function(settled, timeout=LIVE_TIMEOUT_MS)
        assert len(asked) == 1, asked
        assert asked[0] >= live_at, "the saved memory should wait until the page is live"

        # The next visit: Python starts from the memory kept, with no request for it.
        requests.clear()
        page.reload(wait_until="domcontentloaded")
        wait_live(page, "You are A.", "7♥")
        assert page.evaluate("document.documentElement?.dataset.looLiveStart") == "saved"
        _refuses_seven_of_hearts(page)
        assert not [u for u in requests if SNAPSHOT in u], requests

        # A kept memory Python cannot start from: it starts afresh, the page
        # goes live all the same, and the worker keeps a good memory again.
        assert SNAPSHOT in page.evaluate(SPOIL_KEPT_MEMORY)
        requests.clear()
        page.reload(wait_until="domcontentloaded")
        wait_live(page, "You are A.", "7♥")
        assert page.evaluate("document.documentElement?.dataset.looLiveStart") == "fresh"
        _refuses_seven_of_hearts(page)
        assert [w for w in warnings if "could not start from the saved memory" in w], warnings
        page.wait_for_function(settled, timeout=LIVE_TIMEOUT_MS)
        assert len([u for u in requests if SNAPSHOT in u]) == 1, requests
        requests.clear()
        page.reload(wait_until="domcontentloaded")
        wait_live(page, "You are A.", "7♥")
        assert page.evaluate("document.documentElement?.dataset.looLiveStart") == "saved"


def _refuses_seven_of_hearts(page: Any) -> None:
    trainer = page.locator(".loo-live-widget .loo-widget").filter(has_text="You are A.")
    trainer.locator("button", has_text="7♥").click()
    refused = trainer.locator(".loo-refused")
    refused.wait_for(timeout=30_000)
    assert "R-LEAD-ACE" in refused.inner_text()


def test_exercises_page_goes_live_and_the_engine_grades_answers(site: str) -> None:
    from loo_tutor.teaching.exercises import Kind, LegalCards, make

    if not (HTML / EXERCISES_PAGE).exists():
        pytest.fail(f"{EXERCISES_PAGE} is missing from {HTML.relative_to(ROOT)}: "
                    "build the site first")
    # What the engine says of the notebook's first exercise: its legal cards,
    # and a wrong answer (the first card of the hand it refuses) with its rule.
    exercise = make(Kind.LEGAL_CARDS, EXERCISES_SEED)
    assert isinstance(exercise, LegalCards)
    legal = exercise.legal()
    wrong = next(card for card in exercise.hand if card not in legal)
    verdict = exercise.grade({"cards": [str(wrong)]})["cards"]
    assert verdict.status == "wrong" and verdict.rule is not None
    assert exercise.grade(exercise.answers())["cards"].status == "right"

    requests: list[str] = []
    errors: list[str] = []
    in_browser(lambda browser: _answer_exercise(browser, site, exercise, wrong, verdict.rule,
                                                requests, errors))

    assert not outside_site(requests, site), f"requests left: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _answer_exercise(browser: Any, site: str, exercise: Any, wrong: Any, rule: Any,
                     requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    from loo_tutor.engine.cards import card_text

    title = f"Exercise 1: {exercise.title}"
    with new_page(browser, requests, errors) as page:
        app = open_live(page, site, EXERCISES_PAGE, title, "Check")
        widget = app.locator(".loo-live-widget .loo-exercise").filter(has_text=title)
        expect(widget.locator(".loo-question")).to_have_text(exercise.question)
        score = app.locator(".loo-live-widget .loo-score-line")
        expect(score).to_contain_text("no exercise checked yet")

        def box(card: Any) -> Any:
            return widget.locator(".widget-checkbox", has_text=card_text(card)).locator(
                'input[type="checkbox"]')

        check = widget.locator("button", has_text=re.compile(r"^\s*Check\s*$"))

        # A wrong answer: the first card of the hand the engine refuses, alone.
        box(wrong).check()
        check.click()
        mistake = widget.locator(".loo-field-wrong")
        mistake.wait_for(timeout=30_000)
        said = mistake.inner_text()
        assert rule.value in said, said
        assert card_text(wrong) in said or str(wrong) in said, said
        link = mistake.locator("a.loo-rule", has_text=rule.value)
        assert link.count() == 1, said  # the rule is named once
        assert link.get_attribute("href").endswith(f"rules.html#{rule.label}")
        expect(widget.locator(".loo-summary")).to_contain_text("0 of 1 answers right")
        expect(score).to_contain_text("Score: 0 of 1 right: 1 wrong.")

        # The right answer: exactly the cards the engine says are legal.
        box(wrong).uncheck()
        for card in exercise.legal():
            box(card).check()
        check.click()
        widget.locator(".loo-field-right").wait_for(timeout=30_000)
        assert widget.locator(".loo-field-wrong").count() == 0
        expect(widget.locator(".loo-summary")).to_contain_text("1 of 1 answers right")
        expect(score).to_contain_text("Score: 1 of 1 right: 1 right after several checks.")


# -- progress kept in the browser --------------------------------------------------------

PROGRESS_KEY = "loo-tutor-progress"  # where classroom_page/src/progress.js keeps it
NO_PYTHON = "self.postMessage({failed: 'held back by the test'});"
"""A worker that says at once that Python cannot start: the page stays a saved copy."""


def test_solved_exercises_are_kept_in_the_browser_until_forgotten(site: str) -> None:
    from loo_tutor.teaching.exercises import Kind, LegalCards, make

    exercise = make(Kind.LEGAL_CARDS, EXERCISES_SEED)
    assert isinstance(exercise, LegalCards)
    requests: list[str] = []
    errors: list[str] = []
    in_browser(lambda browser: _keep_progress(browser, site, exercise, requests, errors))
    assert not outside_site(requests, site), f"requests left: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def test_an_assignment_link_opens_its_exercises_and_mark_scores_the_download_as_the_page(
        site: str, tmp_path: Path) -> None:
    from loo_tutor.teaching.assignment import link_query, parse_assignment
    from loo_tutor.teaching.exercises import DealerChoice, Kind, LegalCards, make

    seed = 77  # not the page's own exercises' seed
    cards, dealer = make(Kind.LEGAL_CARDS, seed), make(Kind.DEALER, seed)
    assert isinstance(cards, LegalCards) and isinstance(dealer, DealerChoice)
    week = parse_assignment({"title": "Week 3", "id": "week-3", "exercises": [
        {"kind": "legal-cards", "seed": seed}, {"kind": "dealer", "seed": seed}]})
    key = tmp_path / "week-3.yaml"
    key.write_text(week.dumps(), encoding="utf-8")
    saved = tmp_path / "answers.json"
    line = "1 of 2 right: 1 right at the first check, 1 solution shown."
    requests: list[str] = []
    errors: list[str] = []

    def work(browser: Any) -> None:
        from playwright.sync_api import expect

        from loo_tutor.engine.cards import card_text

        with new_page(browser, requests, errors) as page:
            app = open_live(page, site, f"{EXERCISES_PAGE}?{link_query(week)}",
                            f"Exercise 1: {cards.title}", "Check")
            sheet = app.locator(".loo-live-widget .loo-assignment")
            shown = sheet.locator(".loo-exercise")
            expect(shown).to_have_count(2)
            expect(shown.nth(0)).to_contain_text(f"Exercise 1: {cards.title}")
            expect(shown.nth(1)).to_contain_text(f"Exercise 3: {dealer.title}")
            score = app.locator(".loo-live-widget .loo-score-line")
            expect(score).to_contain_text("Score: 0 of 2 right")
            for number, (labels, solution_first) in enumerate((
                    ([card_text(c) for c in cards.legal()], False),
                    ([dealer.LABELS[dealer.CALLS.index(a)] for a in dealer.allowed()], True))):
                widget = shown.nth(number)
                if solution_first:
                    widget.locator("button", has_text="Show solution").click()
                    widget.locator(".loo-solution-title").wait_for(timeout=30_000)
                for label in labels:
                    widget.locator(".widget-checkbox", has_text=label).locator(
                        'input[type="checkbox"]').check()
                widget.locator("button", has_text=re.compile(r"^\s*Check\s*$")).click()
                widget.locator(".loo-field-right").first.wait_for(timeout=30_000)
            expect(score).to_contain_text(f"Score: {line}")
            panel = app.locator(".loo-progress-panel")
            expect(panel.locator(".loo-progress-score")).to_contain_text(
                f"Score kept in this browser: {line}")
            hand_in = panel.locator(".loo-progress-hand-in")
            hand_in.get_by_label("Your name, as your teacher will see it").fill("Bo Lind")
            with page.expect_download() as taken:
                hand_in.locator("button", has_text="Download my answers").click()
            taken.value.save_as(saved)

    in_browser(work)
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)
    done = subprocess.run([sys.executable, "-m", "loo_tutor", "mark", "--key", str(key),
                           str(saved)], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "1 of 2 right" in done.stdout and "1 solution shown" in done.stdout, done.stdout
    assert "not answers assignment" not in done.stdout and "says it answers" not in done.stdout
    downloaded = json.loads(saved.read_text(encoding="utf-8"))
    assert downloaded["assignment"] == "week-3"
    assert [i.get("solution_shown") for i in downloaded["answers"]] == [None, "yes"]


def _keep_progress(browser: Any, site: str, exercise: Any, requests: list[str],
                   errors: list[str]) -> None:
    from playwright.sync_api import expect

    from loo_tutor.engine.cards import card_text

    title = f"Exercise 1: {exercise.title}"
    kind_line = f"Exercise 1, {exercise.title}: 1 variant (seed {EXERCISES_SEED})"
    with new_page(browser, requests, errors) as page:
        app = open_live(page, site, EXERCISES_PAGE, title, "Check")
        panel = app.locator(".loo-progress-panel")
        expect(panel.locator("h2")).to_have_text("Solved in this browser")
        expect(panel).to_contain_text("No exercise solved in this browser yet")
        expect(panel.locator(".loo-progress-reset")).to_be_hidden()

        # A wrong answer is not kept; the engine's right answer is.
        widget = app.locator(".loo-live-widget .loo-exercise").filter(has_text=title)
        check = widget.locator("button", has_text=re.compile(r"^\s*Check\s*$"))
        check.click()
        widget.locator(".loo-summary").wait_for(timeout=30_000)
        assert page.evaluate(f"localStorage.getItem('{PROGRESS_KEY}')") is None
        for card in exercise.legal():
            widget.locator(".widget-checkbox", has_text=card_text(card)).locator(
                'input[type="checkbox"]').check()
        check.click()
        expect(app.locator(".loo-score-line")).to_contain_text(
            "Score: 1 of 1 right: 1 right at the first check.")
        expect(panel.locator(".loo-progress-kind")).to_have_text(kind_line)
        expect(panel).to_contain_text("You have solved 1 variant of 1 kind of exercise here.")

        # Kept: a reload shows it, on a saved page whose Python never starts.
        page.route("**/_static/live/worker.js*", lambda route: route.fulfill(
            content_type="text/javascript", body=NO_PYTHON))
        page.reload(wait_until="domcontentloaded")
        page.wait_for_function("() => document.documentElement?.dataset.looLive === 'failed'")
        assert page.locator(".loo-snapshot").count() > 0, "the page stays a saved copy"
        expect(panel.locator(".loo-progress-kind")).to_have_text(kind_line)
        expect(panel).to_contain_text("kept in this browser only")

        # Forgetting asks first; Escape keeps it, the keyboard alone forgets it.
        reset = panel.locator(".loo-progress-reset")
        reset.focus()
        page.keyboard.press("Enter")
        expect(panel.locator(".loo-progress-ask")).to_contain_text("Forget every exercise")
        assert page.evaluate("document.activeElement.textContent") == "No, keep it"
        assert not axe_findings(page, ".loo-progress-panel")
        page.keyboard.press("Escape")
        expect(panel.locator(".loo-progress-ask")).to_be_hidden()
        expect(panel.locator(".loo-progress-kind")).to_have_count(1)
        assert page.evaluate("document.activeElement.textContent") == "Forget my progress…"
        page.keyboard.press("Enter")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.textContent") == "Yes, forget it"
        page.keyboard.press("Enter")
        status = panel.locator(".loo-progress-status")
        expect(status).to_contain_text("Your progress is forgotten")
        assert status.get_attribute("aria-live") == "polite"
        expect(panel.locator(".loo-progress-kind")).to_have_count(0)
        assert page.evaluate(f"localStorage.getItem('{PROGRESS_KEY}')") is None
        assert not axe_findings(page, ".loo-progress-panel")

        # Forgotten for good, and junk in the store is left aside.
        page.reload(wait_until="domcontentloaded")
        expect(panel).to_contain_text("No exercise solved in this browser yet")
        page.evaluate(f"localStorage.setItem('{PROGRESS_KEY}', '{{\"version\": 1, \"kinds\": ')")
        page.reload(wait_until="domcontentloaded")
        expect(panel).to_contain_text("No exercise solved in this browser yet")
        page.evaluate(f"""localStorage.setItem('{PROGRESS_KEY}', JSON.stringify({{version: 1,
            kinds: {{1: {{title: 'Which cards may be played?', seeds: [7, 'x', -1]}},
                     x: {{title: 3, seeds: [1]}}}}}}))""")
        page.reload(wait_until="domcontentloaded")
        expect(panel.locator(".loo-progress-kind")).to_have_text(
            "Exercise 1, Which cards may be played?: 1 variant (seed 7)")


# -- handing in from the browser -----------------------------------------------------------


def test_answers_are_kept_over_a_reload_and_downloaded_for_loo_tutor_mark(
        site: str, tmp_path: Path) -> None:
    from loo_tutor.teaching.exercises import DealerChoice, Kind, LegalCards, make

    cards, dealer = make(Kind.LEGAL_CARDS, EXERCISES_SEED), make(Kind.DEALER, EXERCISES_SEED)
    assert isinstance(cards, LegalCards) and isinstance(dealer, DealerChoice)
    requests: list[str] = []
    errors: list[str] = []
    saved = tmp_path / "downloaded.json"
    in_browser(lambda browser: _hand_in(browser, site, cards, dealer, saved, requests, errors))
    assert not outside_site(requests, site), f"requests left: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)

    # The teacher marks the file: the engine judges every answer again.
    done = subprocess.run([sys.executable, "-m", "loo_tutor", "mark", "--csv", "-", str(saved)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert [row[:3] + row[4:5] for row in rows[1:]] == [
        ["Ann Smith", "legal-cards", str(EXERCISES_SEED), "right"],
        ["Ann Smith", "dealer", str(EXERCISES_SEED), "right"]], done.stdout
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", row[6]) for row in rows[1:])


def _hand_in(browser: Any, site: str, cards: Any, dealer: Any, saved: Path,
             requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    from loo_tutor.engine.cards import card_text

    with new_page(browser, requests, errors) as page:
        app = open_live(page, site, EXERCISES_PAGE, f"Exercise 1: {cards.title}", "Check")
        panel = app.locator(".loo-progress-panel")
        expect(panel.locator(".loo-progress-hand-in")).to_be_hidden()

        # Two exercises solved: each one's cards or announcements ticked, then checked.
        for exercise, labels in (
                (cards, [card_text(c) for c in cards.legal()]),
                (dealer, [dealer.LABELS[dealer.CALLS.index(a)] for a in dealer.allowed()])):
            title = f"Exercise {int(exercise.kind)}: {exercise.title}"
            widget = app.locator(".loo-live-widget .loo-exercise").filter(has_text=title)
            for label in labels:  # no label is part of another of the same exercise
                widget.locator(".widget-checkbox", has_text=label).locator(
                    'input[type="checkbox"]').check()
            widget.locator("button", has_text=re.compile(r"^\s*Check\s*$")).click()
            widget.locator(".loo-field-right").wait_for(timeout=30_000)
        score = panel.locator(".loo-progress-score")
        expect(score).to_contain_text(
            "Score kept in this browser: 2 of 2 right: 2 right at the first check.")

        # A reload keeps the score and the answers, even while Python has not started.
        page.route("**/_static/live/worker.js*", lambda route: route.fulfill(
            content_type="text/javascript", body=NO_PYTHON))
        page.reload(wait_until="domcontentloaded")
        page.wait_for_function("() => document.documentElement?.dataset.looLive === 'failed'")
        expect(score).to_contain_text(
            "Score kept in this browser: 2 of 2 right: 2 right at the first check.")
        hand_in = panel.locator(".loo-progress-hand-in")
        expect(hand_in).to_be_visible()
        assert not axe_findings(page, ".loo-progress-panel")

        # The name is asked for first; then the keyboard alone downloads the file.
        download = hand_in.locator("button", has_text="Download my answers")
        download.click()
        status = panel.locator(".loo-progress-status")
        expect(status).to_contain_text("Write your name first")
        name = hand_in.get_by_label("Your name, as your teacher will see it")
        assert page.evaluate("document.activeElement.className") == name.get_attribute("class")
        page.keyboard.type("Ann Smith")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Download my answers"
        with page.expect_download() as taken:
            page.keyboard.press("Enter")
        taken.value.save_as(saved)
        assert taken.value.suggested_filename == "answers-ann-smith.json"
        expect(status).to_contain_text("answers-ann-smith.json")
        assert not axe_findings(page, ".loo-progress-panel")

        # The name is kept for the next download.
        page.reload(wait_until="domcontentloaded")
        expect(name).to_have_value("Ann Smith")


# -- a MyST markdown notebook -----------------------------------------------------------

MYST_BOOK = ROOT / "tests" / "data" / "live"


@pytest.fixture(scope="module")
def myst_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """tests/data/live built as a book of its own (with the book's extension), served."""
    book = tmp_path_factory.mktemp("myst-book")
    for source in MYST_BOOK.iterdir():
        text = source.read_text(encoding="utf-8")
        text = text.replace("@EXT@", str(ROOT / "_ext"))
        text = text.replace("@VENDOR_JS@", str(ROOT / "_vendor_js"))
        (book / source.name).write_text(text, encoding="utf-8")
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = dict(os.environ, PATH=path)
    done = subprocess.run([str(jupyter_book), "build", str(book), "-W", "-n", "--keep-going"],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    with serve_directory(book / "_build" / "html") as url:
        yield url


def test_a_myst_notebook_page_goes_live_in_place(myst_site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []

    def work(browser: Any) -> None:
        with new_page(browser, requests, errors) as page:
            open_live(page, myst_site, "deal.html", "You are A.", "7♥")
            live = page.locator(".loo-live-widget")
            assert live.count() == 2, "one live widget for each output the page shows"
            assert "Step" in live.first.inner_text() or live.first.locator(".loo-table").count()
            assert "from loo_tutor" not in page.locator("article").inner_text()
            trainer = live.nth(1)
            trainer.locator("button", has_text="7♥").click()
            trainer.locator(".loo-refused").wait_for(timeout=30_000)
            assert "R-LEAD-ACE" in trainer.locator(".loo-refused").inner_text()

    in_browser(work)
    assert not outside_site(requests, myst_site), outside_site(requests, myst_site)
    assert not errors, "\n".join(errors)
