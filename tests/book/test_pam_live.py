"""The Pam chapter's live deals, and the try-its the progress panel keeps.

Served and driven like tests/book/test_live_browser.py: the chapter turns
live (Python in the browser); its stepper steps a Pam deal; its trainer
refuses a lead the forced ace forbids and a civil call with any card but the
ace of trumps, each with the rule named and linked; and playing the deal to
its end marks the chapter's try-it done in the panel "Solved in this
browser", which a reload (and the exercises page) still shows; another
chapter's stepper taken to its last step marks that chapter done too.
axe-core finds nothing serious on the page after the presses, and nothing
leaves the site.
"""

from __future__ import annotations

import re
from typing import Any

from browser_support import axe_findings, drive_clean, new_page, open_live

PAM_PAGE = "book/pam.html"
EXERCISES_PAGE = "notebooks/exercises.html"
CHAPTERS_KEY = "loo-tutor-chapters"  # where classroom_page/src/progress.js keeps the try-its
CHAPTER = "Five-card Loo with Pam"
WAIT = 30_000


def test_the_pam_chapter_steps_a_deal_and_refuses_leads_with_the_rule_named(site: str) -> None:
    drive_clean(site, lambda browser, requests, errors: _step_and_refuse(
        browser, site, requests, errors))


def _widgets(page: Any) -> Any:
    return page.locator(".loo-live-widget .loo-widget")


def _step_and_refuse(browser: Any, site: str, requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    with new_page(browser, requests, errors) as page:
        open_live(page, site, PAM_PAGE, "You are A.", "7♥")
        assert _widgets(page).count() == 3
        flush, deal = _widgets(page).nth(0), _widgets(page).nth(1)

        # The flush: one step on, then the last step, where the Pam flush takes the pool.
        flush.locator("button", has_text=re.compile(r"^\s*Next ▶\s*$")).click()
        expect(flush).to_contain_text("A stands and will play", timeout=WAIT)
        flush.locator("button", has_text="▶|").click()
        expect(flush).to_contain_text("holds a Pam flush", timeout=WAIT)
        expect(flush.locator("a.loo-rule[href$='variants.html#v-flush']").first).to_be_visible()

        # The civil deal, stepped to its settlement in fifths.
        # (Each press waits for the step before: the menu lists "1. A stands" throughout.)
        deal.locator("button", has_text=re.compile(r"^\s*Next ▶\s*$")).click()
        expect(deal.get_by_role("spinbutton", name="Step")).to_have_value("1", timeout=WAIT)
        expect(deal).to_contain_text("A stands", timeout=WAIT)
        deal.locator("button", has_text="▶|").click()
        expect(deal).to_contain_text("Each trick earns a fifth of the pool of 15", timeout=WAIT)

        # The trainer: the forced ace first, then a civil call with the wrong card.
        trainer = _widgets(page).filter(has_text="You are A.")
        refused = trainer.locator(".loo-verdict.loo-refused")
        trainer.locator("button", has_text="7♥").click()
        expect(refused).to_contain_text("must lead A♥", timeout=WAIT)
        link = refused.locator("a.loo-rule")
        expect(link).to_have_text("the forced ace (R-LEAD-ACE)")
        assert link.get_attribute("href").endswith("rules.html#r-lead-ace")

        trainer.locator(".widget-checkbox", has_text="Pam, be civil").locator("input").check()
        trainer.locator("button", has_text="A♥").click()
        expect(trainer.locator(".loo-header")).to_contain_text("lead to trick 2", timeout=WAIT)
        expect(trainer).to_contain_text("keeps Pam back")
        trainer.locator("button", has_text="7♥").click()
        expect(refused).to_contain_text("the call goes only with the lead of the ace of trumps",
                                        timeout=WAIT)
        link = refused.locator("a.loo-rule")
        expect(link).to_have_text("Pam, be civil (V-PAM-CIVIL)")
        assert link.get_attribute("href").endswith("variants.html#v-pam-civil")
        assert not axe_findings(page)


def test_a_finished_try_it_is_marked_in_the_panel_and_kept_over_a_reload(site: str) -> None:
    drive_clean(site, lambda browser, requests, errors: _finish_try_it(
        browser, site, requests, errors))


def _finish_try_it(browser: Any, site: str, requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    with new_page(browser, requests, errors) as page:
        open_live(page, site, PAM_PAGE, "You are A.", "7♥")
        panel = page.locator(".loo-progress-panel")
        expect(panel).to_contain_text("No try-it finished in this browser yet")
        trainer = _widgets(page).filter(has_text="You are A.")
        header = trainer.locator(".loo-header")

        # A refusal is not a finished try-it; the deal played to its end is.
        trainer.locator("button", has_text="7♥").click()
        expect(trainer.locator(".loo-verdict.loo-refused")).to_be_visible(timeout=WAIT)
        assert page.evaluate(f"localStorage.getItem('{CHAPTERS_KEY}')") is None
        trainer.locator(".widget-checkbox", has_text="Highlight legal cards").locator(
            "input").check()
        for _ in range(5):
            if "The deal is over" in header.inner_text():
                break
            before = header.inner_text()
            trainer.locator(".loo-card-button.loo-lit").first.click()
            expect(header).not_to_have_text(before, timeout=WAIT)
        expect(header).to_contain_text("The deal is over")
        chapter = panel.locator(".loo-progress-chapter")
        expect(chapter).to_have_text(f"{CHAPTER}: try-it done ✓", timeout=WAIT)
        assert chapter.locator("a").get_attribute("href") == f"/{PAM_PAGE}"
        assert not axe_findings(page, ".loo-progress-panel")

        # Kept: a reload shows it before Python is back, and so does the exercises page.
        page.reload(wait_until="domcontentloaded")
        expect(panel.locator(".loo-progress-chapter")).to_have_text(
            f"{CHAPTER}: try-it done ✓", timeout=WAIT)
        page.goto(f"{site}/{EXERCISES_PAGE}", wait_until="domcontentloaded")
        expect(page.locator(".loo-progress-chapter")).to_have_text(
            f"{CHAPTER}: try-it done ✓", timeout=WAIT)
        expect(page.locator(".loo-progress-panel")).to_contain_text(
            "Try-its finished here: 1 chapter.")

        # Forgetting the progress forgets the try-its too.
        page.locator(".loo-progress-reset").click()
        page.locator(".loo-progress-yes").click()
        expect(page.locator(".loo-progress-chapter")).to_have_count(0)
        assert page.evaluate(f"localStorage.getItem('{CHAPTERS_KEY}')") is None


def test_any_chapters_try_it_is_marked_done_once_its_deal_is_stepped_to_the_end(
        site: str) -> None:
    drive_clean(site, lambda browser, requests, errors: _step_forced_ace(
        browser, site, requests, errors))


def _step_forced_ace(browser: Any, site: str, requests: list[str], errors: list[str]) -> None:
    from playwright.sync_api import expect

    with new_page(browser, requests, errors) as page:
        open_live(page, site, "notebooks/forced-ace.html", "Jump to", "▶|")
        stepper = _widgets(page).filter(has_text="Jump to")
        stepper.locator("button", has_text=re.compile(r"^\s*Next ▶\s*$")).click()
        page.wait_for_timeout(500)
        assert page.evaluate(f"localStorage.getItem('{CHAPTERS_KEY}')") is None, \
            "one step is not the whole deal"
        stepper.locator("button", has_text="▶|").click()
        page.wait_for_function(f"() => localStorage.getItem('{CHAPTERS_KEY}') !== null",
                               timeout=WAIT)
        page.goto(f"{site}/{EXERCISES_PAGE}", wait_until="domcontentloaded")
        expect(page.locator(".loo-progress-chapter")).to_have_text(
            "The forced ace: try-it done ✓", timeout=WAIT)
