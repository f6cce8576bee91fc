"""The built site runs its widgets in the browser, and loads nothing from other hosts.

These tests serve ``_build/html`` (built by ``./dev test`` before pytest runs)
on 127.0.0.1 and drive Debian's Chromium through Playwright:

* the forced-ace page turns live: Python starts in the browser (Pyodide,
  served by the site) once, while the app itself still loads; the page
  swaps its saved widgets for the live app,
  and the trainer refuses A's 7♥ under R-LEAD-ACE and plays A♥; every
  request stays on the site and nothing is logged as an error;
* the exercises page turns live too, and the first exercise is answered in
  the browser: a wrong card is explained under the rule the engine names,
  the engine's own answer is accepted, and the running score counts it;
* every page of the site loads without a request to another host, and no
  page links a script, stylesheet or image from one.

A missing Chromium is a failure, never a skip: ``./dev test`` installs it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import (
    HTML,
    LIVE_PAGE,
    ROOT,
    in_browser,
    new_page,
    open_live,
    outside_site,
)

EXERCISES_PAGE = "notebooks/exercises.html"
EXERCISES_SEED = 2024  # the seed of the notebook's cell ExerciseWidget(1, seed=2024, ...)
# A tag that makes the browser fetch something: script, stylesheet, image, frame...
_FETCHING_TAG = re.compile(
    r"<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\bsrc\s*=\s*[\"']?(?P<src>[^\"'\s>]+)"
    r"|<link\b(?=[^>]*\brel\s*=\s*[\"']?(?:stylesheet|icon|preload|modulepreload|manifest))"
    r"[^>]*\bhref\s*=\s*[\"']?(?P<href>[^\"'\s>]+)", re.IGNORECASE)


def test_forced_ace_page_goes_live_and_the_engine_judges_clicks(site: str) -> None:
    requests: list[str] = []
    errors: list[str] = []
    in_browser(lambda browser: _play_forced_ace(browser, site, requests, errors))

    # loo-tutor's code, like every package the kernel needs, is in the
    # standard library's zip (scripts/vendor_pyodide.py): no wheel is loaded.
    assert not [u for u in requests if u.endswith(".whl")], requests
    # The saved widgets are HTML in the page (_ext/loo_snapshot.py): a page
    # that goes live never loads the widget manager that would draw them.
    assert not [u for u in requests if "/html-manager/" in u or "/require.js" in u], requests
    assert sum(u.split("?")[0].endswith("/static/pyodide/python_stdlib.zip") for u in requests) == 1
    # Python starts once, from the app page as it begins to load, before the
    # app asks for its kernel (scripts/early_kernel.py): the kernel takes
    # over that start instead of making its own.
    assert sum(u.endswith("/pyodide.asm.wasm") for u in requests) == 1, requests
    pyodide = next(i for i, u in enumerate(requests) if u.endswith("/static/pyodide/pyodide.js"))
    kernel = next(i for i, u in enumerate(requests)
                  if "/pyodide-kernel-extension/static/remoteEntry." in u)
    assert pyodide < kernel, "Python should start before the app loads its kernel"
    assert not outside_site(requests, site), f"requests left the site: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _play_forced_ace(browser: Any, site: str, requests: list[str], errors: list[str]) -> None:
    with new_page(browser, requests, errors) as page:
        app = open_live(page, site, LIVE_PAGE, "You are A.", "7♥")
        assert ")=" not in app.locator("body").inner_text()  # no MyST target written out
        trainer = app.locator(".loo-widget").filter(has_text="You are A.")
        trainer.locator("button", has_text="7♥").click()
        refused = trainer.locator(".loo-refused")
        refused.wait_for(timeout=30_000)
        assert "R-LEAD-ACE" in refused.inner_text()
        assert "7H" in refused.inner_text() or "7♥" in refused.inner_text()
        rule = refused.locator("a.loo-rule", has_text="R-LEAD-ACE")
        assert rule.get_attribute("href").endswith("rules.html#r-lead-ace")

        trainer.locator("button", has_text="A♥").click()
        trainer.locator(".loo-ok").wait_for(timeout=30_000)
        assert trainer.locator(".loo-refused").count() == 0
        assert trainer.locator("button", has_text="A♥").count() == 0, "A♥ should have left A's hand"


def test_exercises_page_goes_live_and_the_engine_grades_answers(site: str) -> None:
    from loo_tutor.exercises import Kind, LegalCards, make

    app = HTML / "lite" / "voici" / "render" / EXERCISES_PAGE
    if not app.exists():
        pytest.fail(f"{app.relative_to(ROOT)} is missing: build the site first")
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

    assert not outside_site(requests, site), f"requests left the site: {outside_site(requests, site)}"
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _answer_exercise(browser: Any, site: str, exercise: Any, wrong: Any, rule: Any,
                     requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    from loo_tutor.narrate import card_text

    title = f"Exercise 1: {exercise.title}"
    with new_page(browser, requests, errors) as page:
        app = open_live(page, site, EXERCISES_PAGE, title, "Check")
        widget = app.locator(".loo-exercise").filter(has_text=title)
        expect(widget.locator(".loo-question")).to_have_text(exercise.question)
        score = app.locator(".loo-score-line")
        expect(score).to_have_text("Score: no exercise checked yet.")

        def box(card: Any) -> Any:
            return widget.locator(f'.widget-checkbox:has([aria-label="{card.label}"]) '
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
        link = mistake.locator(".loo-note-rule a.loo-rule", has_text=rule.value)
        assert link.get_attribute("href").endswith(f"rules.html#{rule.label}")
        expect(widget.locator(".loo-summary")).to_contain_text("0 of 1 answers right")
        expect(score).to_contain_text("0 of 1 exercise solved; 0 of 1 answers right")

        # The right answer: exactly the cards the engine says are legal.
        box(wrong).uncheck()
        for card in exercise.legal():
            box(card).check()
        check.click()
        widget.locator(".loo-field-right").wait_for(timeout=30_000)
        assert widget.locator(".loo-field-wrong").count() == 0
        expect(widget.locator(".loo-summary")).to_contain_text("1 of 1 answers right")
        expect(score).to_contain_text("1 of 1 exercise solved; 1 of 1 answers right")


def _pages() -> list[str]:
    """Every HTML page of the built book, and every app page of the lite site."""
    pages = []
    for path in sorted(HTML.rglob("*.html")):
        relative = path.relative_to(HTML).as_posix()
        if relative.startswith(("lite/", "_static/", "_sources/")) and \
                not relative.startswith("lite/voici/render/"):
            continue
        pages.append(relative)
    return pages


def test_no_page_links_anything_on_another_host(site: str) -> None:
    offenders = []
    for path in sorted(HTML.rglob("*.html")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in _FETCHING_TAG.finditer(text):
            url = match.group("src") or match.group("href")
            if re.match(r"(?i)(https?:)?//", url):
                offenders.append(f"{path.relative_to(HTML)}: {url}")
    assert not offenders, "pages that load from other hosts:\n" + "\n".join(offenders[:40])


def test_every_page_loads_without_leaving_the_site(site: str) -> None:
    pages = _pages()
    assert LIVE_PAGE in pages and "index.html" in pages
    requests: dict[str, list[str]] = {}

    def visit(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        current = [""]
        context.on("request", lambda r: requests.setdefault(current[0], []).append(r.url))
        page = context.new_page()
        try:
            for relative in pages:
                current[0] = relative
                page.goto(f"{site}/{relative}", wait_until="load")
                page.wait_for_timeout(300)  # late requests: fonts, lazy chunks
        finally:
            context.close()

    in_browser(visit)
    leaving = {p: outside_site(urls, site) for p, urls in requests.items() if outside_site(urls, site)}
    assert not leaving, f"pages whose requests left the site: {leaving}"
    assert all(requests.get(p) for p in pages), "some page made no request at all"
