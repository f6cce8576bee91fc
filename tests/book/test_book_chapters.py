"""Each chapter of *Learning the game* shows its rules on deals: pictures drawn by
the engine, and widgets built in thin cells that the book's build runs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).parents[2] / "book"
CHAPTERS = ["table", "simple-deal", "double-deal", "dealer", "play", "payout", "examples"]
CELL = re.compile(r"^```\{code-cell\} ipython3\n(.*?)^```$", re.MULTILINE | re.DOTALL)
FRONT_MATTER = re.compile(r"\A---\njupytext:\n.*?format_name: myst\n.*?kernelspec:\n.*?---\n",
                          re.DOTALL)


def cells(name: str) -> list[str]:
    return CELL.findall((BOOK / f"{name}.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", CHAPTERS)
def test_the_chapter_is_a_notebook_with_widgets_and_engine_drawings(name: str) -> None:
    text = (BOOK / f"{name}.md").read_text(encoding="utf-8")
    assert FRONT_MATTER.match(text), "jupytext front matter"
    assert len(cells(name)) >= 1
    assert "```{loo-deal}" in text


@pytest.mark.parametrize("name", CHAPTERS)
def test_each_cell_only_builds_one_widget_from_the_package(name: str) -> None:
    for cell in cells(name):
        options, _, code = cell.partition("\n\n")
        assert options == ":tags: [remove-input]"
        body = ast.parse(code).body
        *imports, last = body
        assert all(isinstance(node, ast.ImportFrom) and node.module is not None
                   and node.module.startswith("loo_tutor") for node in imports), code
        assert isinstance(last, ast.Expr) and isinstance(last.value, ast.Call), code
