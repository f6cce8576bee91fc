"""The commands the docs name in their sentences start, and the docs' commands are all found.

Each command a sentence of the docs names (``python benchmarks/browser.py``)
is run with ``--help`` in a copy of the checkout (tests/docs_commands.py
tells how). None starts a server or opens the built book, so these run on
both cores with the other tests that need neither; the docs' code blocks are
run in tests/book/test_docs_commands.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from docs_commands import (
    ACTIVATE,
    DOCUMENTS,
    ROOT,
    Terminal,
    asked_for_help,
    checkout_copy,
    documents_with,
    is_loo_tutor,
    prose_commands,
    reader_environment,
    run,
    steps,
)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return checkout_copy(tmp_path_factory.mktemp("checkout"))


@pytest.mark.parametrize("command", prose_commands())
def test_every_command_named_in_a_sentence_starts(command: str, checkout: Path) -> None:
    terminal = Terminal(checkout, activated=True)
    help_command, named = asked_for_help(command)
    done = run(terminal, help_command)
    assert done.returncode == 0 and "usage:" in done.stdout, (
        f"{help_command!r} exited {done.returncode}:\n{done.stdout}{done.stderr}")
    assert all(option in done.stdout for option in named), (command, done.stdout)


def test_a_reader_who_skips_the_set_up_is_told_the_command_is_missing(tmp_path: Path) -> None:
    """The activation line is what puts the command on the PATH: without it, bash cannot find it."""
    done = subprocess.run(["bash", "-c", "loo-tutor --help"], cwd=tmp_path,
                          env=reader_environment(tmp_path), capture_output=True, text=True)
    assert done.returncode == 127, done.stdout
    (tmp_path / ".venv").symlink_to(ROOT / ".venv")
    done = subprocess.run(["bash", "-c", f"{ACTIVATE}\nloo-tutor --help"], cwd=tmp_path,
                          env=reader_environment(tmp_path), capture_output=True, text=True)
    assert done.returncode == 0 and "classroom" in done.stdout, done.stderr


def test_the_docs_show_the_activation_before_the_first_command() -> None:
    for document in documents_with(is_loo_tutor):
        shown = [s.command for s in steps(document) if s.command]
        first = next(i for i, c in enumerate(shown) if c.startswith("loo-tutor"))
        assert any(c.startswith(ACTIVATE) for c in shown[:first]), document.name


def test_the_collection_finds_what_the_docs_show() -> None:
    """The collector sees the kinds of step the docs hold, so none is silently dropped."""
    everything = [s for d in DOCUMENTS for s in steps(d)]
    commands = [s.command for s in everything if s.command]
    assert "./dev site" in commands and "./dev test" in commands
    assert any(c.startswith("cat > my-deal.yaml") for c in commands)
    assert any(s.python and ">>>" in s.python for s in everything)
    assert any(s.python and ">>>" not in s.python for s in everything)
    assert any(s.file for s in everything)
    assert any(c.startswith("python benchmarks/") for c in prose_commands())
