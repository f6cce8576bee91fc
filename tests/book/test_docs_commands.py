"""Every ``loo-tutor`` command the README and the book show works as written.

Each document is read as a reader follows it, in a terminal of its own: the
code blocks in order, in an empty folder beside the checkout's ``.venv`` and
``notebooks``. A block captioned with a file name, or a ``cat > FILE`` here
document, writes that file; ``source .venv/bin/activate`` stays in force for
the rest of the document; each ``loo-tutor …`` line then runs in bash just as
it is written and must succeed. The terminal's home folder (``~``) is a
temporary one too. ``loo-tutor classroom`` is stopped with
Ctrl-C once it has printed its address. Two changes are made for this
machine, and only to the classroom: it is given a free port, so as not to
meet another server on 8866, and it listens on 127.0.0.1 where the docs say
``0.0.0.0``.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from classroom_server import free_port

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "book").glob("*.md"))]
ACTIVATE = "source .venv/bin/activate"
FENCE = re.compile(r"^(\s*)(`{3,})\s*(.*?)\s*$")
LANGUAGE = re.compile(r"^(?:\{code-block\}|\{code\})?\s*([\w-]*)$")
HEREDOC = re.compile(r"<<\s*'?(\w+)'?")
SHELLS = {"bash", "sh", "console", "shell", "text", ""}
CLASSROOM_START = 300.0


@dataclass
class Block:
    language: str
    caption: str | None
    lines: list[str]


@dataclass
class Step:
    """One thing the reader does: write a file, or type a command."""

    command: str
    file: tuple[str, str] | None = None


@dataclass
class Terminal:
    folder: Path
    activated: bool = False
    done: list[str] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown or MyST page, in order, dedented."""
    found: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, info = opening.groups()
        language = LANGUAGE.match(info)
        body: list[str] = []
        i += 1
        while i < len(lines) and lines[i].strip() != fence:
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1
        caption = None
        while body and body[0].startswith(":"):
            option, _, value = body.pop(0)[1:].partition(":")
            if option == "caption":
                caption = value.strip()
        if body and not body[0].strip() and info.startswith("{"):
            body.pop(0)
        if language:
            found.append(Block(language.group(1), caption, body))
    return found


def steps(document: Path) -> list[Step]:
    """What a reader of the document writes and types, in order."""
    found: list[Step] = []
    for block in blocks(document.read_text(encoding="utf-8")):
        if block.caption:
            found.append(Step("", (block.caption, "\n".join(block.lines) + "\n")))
            continue
        if block.language not in SHELLS:
            continue
        lines = iter(block.lines)
        for line in lines:
            command = line.strip()
            here = HEREDOC.search(command)
            if here and command.startswith("cat >"):
                body = [command]
                for more in lines:
                    body.append(more)
                    if more.strip() == here.group(1):
                        break
                found.append(Step("\n".join(body)))
            elif command.startswith((ACTIVATE, "loo-tutor ")):
                found.append(Step(command))
    return found


def documents_with_commands() -> list[Path]:
    return [d for d in DOCUMENTS if any(s.command.startswith("loo-tutor") for s in steps(d))]


def reader_environment(home: Path) -> dict[str, str]:
    """A terminal that has not activated the checkout's .venv, whose ``~`` is ``home``."""
    venv_bin = str(ROOT / ".venv" / "bin")
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    env["HOME"] = str(home)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(p) != Path(venv_bin))
    return env


def script(terminal: Terminal, command: str) -> str:
    return (f"{ACTIVATE}\n" if terminal.activated else "") + command


def run_classroom(terminal: Terminal, command: str) -> str:
    """Start the classroom as written, wait for its address, stop it with Ctrl-C."""
    port = free_port()
    command = command.replace("--host 0.0.0.0", "--host 127.0.0.1")
    command = re.sub(r"\s+#.*$", "", command) + f" --port {port}"
    server = subprocess.Popen(["bash", "-c", script(terminal, "exec " + command)],
                              cwd=terminal.folder, env=reader_environment(terminal.folder),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert server.stdout is not None
    printed: list[str] = []
    deadline = time.monotonic() + CLASSROOM_START
    try:
        for line in server.stdout:
            printed.append(line)
            if f"http://127.0.0.1:{port}/" in line or time.monotonic() > deadline:
                break
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    output = "".join(printed)
    assert f"http://127.0.0.1:{port}/" in output, f"{command!r} printed no address:\n{output}"
    return output


@pytest.mark.parametrize("document", documents_with_commands(), ids=lambda d: d.name)
def test_every_command_works_as_written(document: Path, tmp_path: Path) -> None:
    for shared in (".venv", "notebooks"):
        (tmp_path / shared).symlink_to(ROOT / shared)
    terminal = Terminal(tmp_path)
    commands = 0
    for step in steps(document):
        if step.file:
            name, text = step.file
            (tmp_path / name).write_text(text, encoding="utf-8")
        elif step.command == ACTIVATE or step.command.startswith(ACTIVATE + " "):
            terminal.activated = True
        elif step.command.startswith("loo-tutor classroom"):
            run_classroom(terminal, step.command)
            commands += 1
        else:
            done = subprocess.run(["bash", "-c", script(terminal, step.command)],
                                  cwd=tmp_path, env=reader_environment(terminal.folder),
                                  capture_output=True, text=True, timeout=300)
            assert done.returncode == 0, (
                f"{document.name}: {step.command!r} exited {done.returncode}:\n"
                f"{done.stdout}{done.stderr}")
            if step.command.startswith("loo-tutor"):
                out = re.search(r"--out (\S+)", step.command)
                if out:
                    assert (tmp_path / out.group(1) / "worksheet.html").is_file(), step.command
                elif step.command.startswith("loo-tutor check"):
                    assert done.stdout.strip(), f"{step.command!r} printed nothing"
                commands += 1
    assert commands, f"{document.name} shows loo-tutor commands, none of which ran"


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
    for document in documents_with_commands():
        shown = [s.command for s in steps(document) if s.command]
        first = next(i for i, c in enumerate(shown) if c.startswith("loo-tutor"))
        assert any(c.startswith(ACTIVATE) for c in shown[:first]), document.name
