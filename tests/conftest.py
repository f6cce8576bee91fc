"""Shared helpers for the test suite."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loo_tutor import check, loads

from browser_support import CHROMIUM, FLAGS, HTML, build_book, built_site, require_chromium
from leaks import open_widgets

# A real PostgreSQL server for the class store's tests (tests/postgres_server.py)
from postgres_server import postgres_database, postgres_server  # noqa: F401

if os.environ.get("LOO_TUTOR_EXPECT_COMPILED"):
    from build_compiled import compiled_modules

    for module in map(importlib.import_module, compiled_modules()):
        if not str(module.__file__).endswith(".so"):
            raise pytest.UsageError(f"LOO_TUTOR_EXPECT_COMPILED is set, but the engine comes "
                                    f"from {module.__file__}, not the compiled build")

HERE = Path(__file__).parent

# The test folders, one per layer of the package (ARCHITECTURE.md) and one for
# the book; each test is marked with its folder's name, so that
# ``pytest -m engine`` runs one layer's tests alone.
TEST_FOLDERS = ("engine", "records", "analysis", "teaching", "render", "widgets", "apps", "book")


# The tests that drive Chromium, serve the built book or start a classroom
# server are marked ``serial``, so that ``pytest -m "not serial"`` runs the
# quick ones. A whole ``./dev test`` runs every test on three workers
# (pytest-xdist), the tests of a module (or of a test class) in one worker
# (each server on a free port, each class in a folder of its own). A new test
# of the book or the classroom is serial unless its file is named in BOOK_READERS.
SERIAL = ("book/", "apps/test_classroom")
BOOK_READERS = {"test_book_chapters.py", "test_book_code.py", "test_book_links.py",
                "test_book_tables.py", "test_book_trainers.py", "test_book_worksheet.py",
                "test_docs_sentences.py", "test_hidden_cards_site.py", "test_live_build.py",
                "test_live_worker.py", "test_snapshot.py", "test_variant_book.py"}
"""The book's tests that only read its sources or the built book (which a whole run builds
first), or build a small book of their own in a temporary folder: no browser, no server."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(HERE).parts if item.path.is_relative_to(HERE) else ()
        if len(parts) > 1 and parts[0] in TEST_FOLDERS:
            item.add_marker(parts[0])
            if "/".join(parts).startswith(SERIAL) and parts[-1] not in BOOK_READERS:
                item.add_marker("serial")


@pytest.fixture(autouse=True)
def widgets_closed_after_the_test() -> Iterator[None]:
    """Close every widget a test made once it has ended.

    ipywidgets keeps each widget in its process's registry until it is closed,
    and a check of what a widget sends to a page reads every widget there
    (``ipywidgets.Widget.get_manager_state``): without this a worker carried
    the widgets of every test it had run (7,000 after the widget inputs'
    module), and such checks slowed down with them. Widgets of a module's
    fixtures, made before the test, stay open.
    """
    before = set(open_widgets())
    yield
    for model_id, widget in open_widgets().items():
        if model_id not in before:
            widget.close()


OWN_EXAMPLES = HERE / "data" / "examples"


def example_files() -> list[Path]:
    """Every example record of the project's copy (``.ci/run`` holds it to ``../shared``)."""
    return sorted(OWN_EXAMPLES.glob("*.yaml")) + sorted(OWN_EXAMPLES.glob("*.json"))


def expected_for(record: Path) -> dict[str, Any]:
    return json.loads((record.parent / "expected" / (record.stem + ".json")).read_text())


def without_message(result: dict[str, Any]) -> dict[str, Any]:
    """A result with ``error.message`` removed (its wording is free)."""
    result = dict(result)
    if result.get("error"):
        result["error"] = {k: v for k, v in result["error"].items() if k != "message"}
    return result


def run(text: str) -> dict[str, Any]:
    """Check a record given as YAML text."""
    return check(loads(text))


FORCED_ACE = """
players: [A, B, C, D, E]
dealer: E
carried: 9
hands: {A: [AH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}
miss: [2S, 2D, 2C]
trump: 4H
"""
"""The seed-000 deal without announcements or tricks (examples/01)."""


@pytest.fixture
def forced_ace() -> str:
    return FORCED_ACE


@pytest.fixture(scope="session")
def book(pytestconfig: pytest.Config) -> Path:
    """``_build/html``, built first when a test asks for it and it is missing or out of date.

    The build's progress is shown as it goes, past pytest's capture.
    """
    capture = pytestconfig.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        build_book()
    return HTML


@pytest.fixture(scope="module")
def site(book: Path) -> Iterator[str]:
    """The built site, served on a free port of 127.0.0.1 for a module's browser tests."""
    with built_site() as url:
        yield url


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one browser for every module that asks.

    Playwright's sync API runs one event loop per thread, so modules must share
    this browser rather than start their own.
    """
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
