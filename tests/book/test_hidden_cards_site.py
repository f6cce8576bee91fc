"""No built page of the book carries a card that one of its widgets hides.

A page with widgets carries their saved state (JSON, in the page) and, for
a live page, a copy of each widget written as HTML; the reader can read
both in the page's source. For every page of ``_build/html`` this test
finds each widget the build made for it, asks that widget which cards it
keeps face down and looks for them, in every form a card is written, in
the state of the widget and its parts and in the widget's saved copy.

The widgets are made again here, in CPython, as the build made them in the
in-browser Python: the same cells (``_ext/loo_live.py``'s
:func:`page_cells`), run by the same code (``_ext/browser/loo_live_worker.py``),
which draws each widget's id from the page's name and the widget's order,
so the ids here are the ids in the built page. A page whose widgets cannot be
matched so fails the test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from myst_nb.core.config import NbParserConfig
from myst_parser.config.main import MdParserConfig

from loo_tutor.engine.cards import parse_card

import loo_live
import loo_snapshot
from leaks import leaks, model_strings

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"


MAKE = r"""
import io, json, sys, warnings
sys.path.insert(0, sys.argv[1])
import ipywidgets
import loo_live_worker

written = io.StringIO()
loo_live_worker.prepare(sys.stdin.read(), written)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    every = dict(ipywidgets.Widget.widgets)
hidden = {model_id: {"kind": type(widget).__name__,
                     "hidden": sorted(card.text for card in widget.hidden_cards())}
          for model_id, widget in every.items()
          if callable(getattr(widget, "hidden_cards", None)) and widget.error is None}
print(json.dumps({"hidden": hidden, "failed": json.loads(written.getvalue())["failed"]}))
"""


def _source(name: str) -> str:
    for suffix in (".md", ".ipynb"):
        if (ROOT / f"{name}{suffix}").exists():
            return str(ROOT / f"{name}{suffix}")
    raise FileNotFoundError(name)


def _built_pages() -> dict[str, str]:
    """Every built page with saved widget state, by its page name."""
    if not (HTML / "index.html").exists():
        pytest.fail("_build/html is missing: build the book first (./dev build)")
    pages = {}
    for path in sorted(HTML.rglob("*.html")):
        name = path.relative_to(HTML).with_suffix("").as_posix()
        if name.startswith(("_static/", "_sources/")):
            continue
        text = path.read_text(encoding="utf-8")
        if loo_snapshot.STATE.search(text):
            pages[name] = text
    return pages


def _made_again(names: list[str]) -> dict[str, Any]:
    """The widgets of these pages, made here as the build made them: their hidden cards."""
    env = SimpleNamespace(doc2path=_source, myst_config=MdParserConfig(),
                          mystnb_config=NbParserConfig())
    app = SimpleNamespace(env=env)
    pages = [{"page": name, "cells": loo_live.page_cells(app, name)} for name in names]
    done = subprocess.run([sys.executable, "-c", MAKE, str(ROOT / "_ext" / "browser")],
                          input=json.dumps(pages), capture_output=True, text=True, cwd=ROOT,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    made: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return made


def _saved_copies(page: str) -> dict[str, str]:
    """Each shown widget's saved HTML copy in ``page``, by the widget's model id."""
    copies = {}
    start = 0
    for view in loo_snapshot.VIEW.finditer(page):
        before = page[start:view.start()]
        at = before.rfind(f'<div class="{loo_snapshot.MARK}"')
        copies[json.loads(view.group("view"))["model_id"]] = before[at:] if at >= 0 else ""
        start = view.end()
    return copies


def _page_leaks(name: str, page: str, made: dict[str, Any],
                checked: dict[str, int]) -> list[str]:
    """The hidden cards in ``page``, widget by widget; counts the cards looked for in ``checked``."""
    found = loo_snapshot.STATE.search(page)
    assert found is not None
    state = json.loads(found.group("state"))
    copies = _saved_copies(page)
    ours = {model_id: made["hidden"][model_id] for model_id in state["state"]
            if model_id in made["hidden"]}
    shows_deals = '<div class="loo-table"' in page or "loo-exercise" in page
    assert ours or not shows_deals, f"{name}: its widgets are not the ones made here"
    leaked = []
    for model_id, widget in ours.items():
        hidden = [parse_card(text) for text in widget["hidden"]]
        texts, _ = model_strings(state, model_id)
        leaked += [f"{name}, {widget['kind']} (state): {leak}"
                   for leak in leaks("\n".join(texts), hidden)]
        leaked += [f"{name}, {widget['kind']} (saved copy): {leak}"
                   for leak in leaks(copies.get(model_id, ""), hidden)]
        checked[widget["kind"]] = checked.get(widget["kind"], 0) + len(hidden)
    return leaked


def test_no_built_page_holds_a_card_that_one_of_its_widgets_hides(book: Path) -> None:
    pages = _built_pages()
    assert "notebooks/practice" in pages and "book/play" in pages and "book/pam" in pages
    made = _made_again(sorted(pages))
    assert not made["failed"], made["failed"]
    checked: dict[str, int] = {}
    found = [leak for name, page in pages.items()
             for leak in _page_leaks(name, page, made, checked)]
    assert not found, "\n".join(found[:30])
    # Each kind of widget that hides cards was looked at, with its hidden cards.
    for kind in ("PlayTrainer", "PracticeSession", "AnnouncementTrainer", "DealStepper",
                 "PayoutChecker"):
        assert checked.get(kind, 0) > 0, checked

    # A hidden card put in the practice page's table, as a record or a drawing would, is found.
    page = pages["notebooks/practice"]
    practice = next(w for model_id, w in made["hidden"].items()
                    if w["kind"] == "PracticeSession" and model_id in page)
    card = parse_card(practice["hidden"][0])
    for planted in (card.text, card.label, card.shown):
        spoiled = page.replace("Deal 1 of 5.", f"Deal 1 of 5. {planted}")
        assert spoiled != page
        assert len(_page_leaks("spoiled", spoiled, made, {})) == 2, planted
