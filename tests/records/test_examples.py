"""Every example record gives exactly its expected result (CONTRACT.md §2.5)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from loo_tutor import MalformedRecord, check, load_record
from loo_tutor.apps.cli import main

from conftest import OWN_EXAMPLES, example_files, expected_for, without_message

EXAMPLES = example_files()


def test_the_examples_are_present() -> None:
    assert len(list(OWN_EXAMPLES.glob("*.yaml"))) >= 31


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_example_gives_expected_result(path: Path) -> None:
    expected = expected_for(path)
    if "malformed" in expected:
        with pytest.raises(MalformedRecord):
            check(load_record(path))
        return
    result = check(load_record(path))
    assert without_message(result) == without_message(expected)
    assert list(result) == list(expected), "keys in contract order"
    if result["error"]:
        assert result["error"]["message"].strip()


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_command_line_agrees_with_check(path: Path) -> None:
    expected = expected_for(path)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["check", "--json", str(path)])
    if "malformed" in expected:
        assert code == 2
        assert out.getvalue() == ""
        assert err.getvalue().startswith("malformed record: ")
        assert err.getvalue().count("\n") == 1
        return
    assert code == (1 if expected["status"] == "illegal" else 0)
    assert without_message(json.loads(out.getvalue())) == without_message(expected)
