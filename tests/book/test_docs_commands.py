"""Every command and Python example the docs show works as written.

How the docs are read and each step run is told in tests/docs_commands.py.
These are the tests that need the built book, start servers or work in a copy
of the whole checkout, so they run with the browser and server tests; the
commands the docs name in their sentences are asked for their help in
tests/book/test_docs_sentences.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from docs_commands import (
    LAB_SCALE,
    ROOT,
    Terminal,
    bounded,
    checkout_copy,
    documents_with,
    is_loo_tutor,
    is_run,
    run_step,
    serve_until_it_answers,
    steps,
)

from classroom_server import free_port


@pytest.mark.parametrize("document", documents_with(is_run), ids=lambda d: d.name)
def test_every_command_and_example_works_as_written(document: Path, tmp_path: Path,
                                                    book: Path) -> None:
    terminal = Terminal(checkout_copy(tmp_path / "checkout"))
    for step in steps(document):
        run_step(terminal, step, document.name)
    print(*(f"exit {code}: {command}" for command, code in terminal.ran), sep="\n")
    assert terminal.ran, f"{document.name} shows commands, none of which ran"


@pytest.mark.parametrize("document", documents_with(is_loo_tutor), ids=lambda d: d.name)
def test_every_loo_tutor_command_works_in_any_folder(document: Path, tmp_path: Path) -> None:
    terminal = Terminal(tmp_path, activated=True)
    for step in steps(document):
        run_step(terminal, step, document.name, only_loo_tutor=True)
    assert any(c.startswith("loo-tutor") for c, _ in terminal.ran), document.name


def test_dev_serve_starts_again_at_once_on_the_same_port(book: Path, tmp_path: Path) -> None:
    """A browser's closed connections (TIME_WAIT) do not keep ./dev from serving again."""
    terminal = Terminal(tmp_path)
    port = free_port()
    for _ in range(2):
        serve_until_it_answers(terminal, "./dev serve", ROOT, f"http://127.0.0.1:{port}/",
                               env={"PORT": str(port)})


def test_the_book_built_script_says_a_wrong_argument_in_one_line() -> None:
    """``./dev site`` asks ``scripts/book_built.py`` whether the book is up to date; by hand,
    an argument it does not take is said, with its usage, and nothing is judged."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "book_built.py"), "banana"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.strip().splitlines()[-1].endswith("error: unrecognized arguments: banana")
    assert "Traceback" not in done.stderr


def test_the_labs_longer_runs_play_a_small_share_of_the_deals() -> None:
    lab = "python -m loo_tutor.analysis.lab"
    assert bounded(lab) == f"{lab} --scale {LAB_SCALE}"
    assert bounded(f"{lab} --scale 0.1  # a tenth of the deals") == f"{lab} --scale {LAB_SCALE}"
    assert bounded(f"{lab} --scale 0.01") == f"{lab} --scale 0.01"
    assert bounded(f"{lab} --redraw") == f"{lab} --redraw"
