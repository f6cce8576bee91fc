"""Every code example of the book runs: its ``>>>`` examples as doctests and its
Python blocks as scripts (its ``loo-tutor`` commands: tests/book/test_docs_commands.py).

The examples run in a fresh folder holding the files they name (a deal record
called ``my_deal.yaml`` or ``my-deal.yaml``), as a reader would have them; the
commands of one block run in order in the same folder, as a reader types
them. A YAML block is a deal record, or an answers file when it names a
``student``.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
BOOK = ROOT / "book"
# A fenced block, plain (```yaml) or a code-block directive with its options
# (```{code-block} yaml, then lines such as :caption: and a blank line).
FENCE = re.compile(r"^```(?:\{code-block\}\s+)?(\w+)\n(?::\w+:[^\n]*\n)*\n?(.*?)^```\s*$",
                   re.MULTILINE | re.DOTALL)
RECORD = ROOT / "loo_tutor" / "records" / "data" / "forced-ace.yaml"

def blocks(language: str) -> list[tuple[str, str]]:
    """Every fenced block of ``language`` in the book: page and text."""
    return [(page.name, body) for page in sorted(BOOK.glob("*.md"))
            for lang, body in FENCE.findall(page.read_text(encoding="utf-8")) if lang == language]


def ids(found: list[tuple[str, str]]) -> list[str]:
    return [f"{page}:{n}" for n, (page, _) in enumerate(found)]


@contextlib.contextmanager
def reader_folder(tmp_path: Path) -> Iterator[Path]:
    """A fresh working folder with the record files the examples name."""
    for name in ("my_deal.yaml", "my-deal.yaml"):
        shutil.copy(RECORD, tmp_path / name)
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


PYTHON = blocks("python")
DOCTESTS = [(page, body) for page, body in PYTHON if body.lstrip().startswith(">>>")]
SCRIPTS = [(page, body) for page, body in PYTHON if not body.lstrip().startswith(">>>")]


def test_the_book_has_code_of_every_kind() -> None:
    assert {page for page, _ in DOCTESTS} >= {"practice.md"}
    assert {page for page, _ in SCRIPTS} >= {"engine.md", "teachers.md"}
    assert {page for page, _ in RECORDS} and {page for page, _ in ANSWERS} >= {"exercises.md"}


def page_doctests(page: Path) -> list[doctest.DocTest]:
    """The page's ``>>>`` examples, each code block a test of its own, sharing names
    from one block to the next as a reader's session does."""
    parser = doctest.DocTestParser()
    found = []
    for n, (lang, body) in enumerate(FENCE.findall(page.read_text(encoding="utf-8"))):
        if lang == "python" and body.lstrip().startswith(">>>"):
            found.append(parser.get_doctest(body, {}, f"{page.name}[{n}]", str(page), 0))
    return found


@pytest.mark.parametrize("page", sorted({BOOK / page for page, _ in DOCTESTS}),
                         ids=lambda p: p.name)
def test_doctests_of_the_page(page: Path, tmp_path: Path) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    shared: dict[str, object] = {}
    out = io.StringIO()
    with reader_folder(tmp_path):
        for test in page_doctests(page):
            test.globs = shared
            runner.run(test, out=out.write, clear_globs=False)
    assert runner.summarize(verbose=False).failed == 0, out.getvalue()
    assert runner.summarize(verbose=False).attempted >= 1


@pytest.mark.parametrize(("page", "code"), SCRIPTS, ids=ids(SCRIPTS))
def test_python_block_runs(page: str, code: str, tmp_path: Path) -> None:
    with reader_folder(tmp_path), contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(compile(code, f"{page} block", "exec"), {"__name__": "__book__"})
    assert "Traceback" not in printed.getvalue()


RECORDS = [(page, text) for page, text in blocks("yaml") if not text.startswith("student:")]
ANSWERS = [(page, text) for page, text in blocks("yaml") if text.startswith("student:")]


@pytest.mark.parametrize(("page", "text"), RECORDS, ids=ids(RECORDS))
def test_a_record_shown_in_the_book_is_a_deal(page: str, text: str) -> None:
    from loo_tutor import check
    from loo_tutor.records.record import loads

    assert check(loads(text))["status"] in ("complete", "in_progress", "illegal")


@pytest.mark.parametrize(("page", "text"), ANSWERS, ids=ids(ANSWERS))
def test_an_answers_file_shown_in_the_book_is_marked_right(page: str, text: str) -> None:
    from loo_tutor.teaching.marking import mark_text

    marked = mark_text(text, page)
    assert marked.read and not marked.problems, marked.problems
    assert marked.marks and all(mark.is_right for _, mark, _ in marked.marks), marked.marks
