"""The docs' commands and examples, collected and run as a reader would run them.

The helpers of tests/book/test_docs_commands.py (what needs the built book, a
server or the whole checkout: with the browser and server tests) and
tests/book/test_docs_sentences.py (the commands the docs name in sentences, asked
for their help, and the collection itself: on both cores with the other tests).

The commands are collected from the sources, so a new one is covered without
being listed here: README.md, ARCHITECTURE.md, benchmarks/README.md and the
book's pages. Each document is read as a reader follows it, in a terminal of
its own, its code blocks in order:

* a block captioned with a file name, or a ``cat > FILE`` here document,
  writes that file; ``source .venv/bin/activate`` stays in force for the
  rest of the document;
* every other line of a shell block (``bash``, ``sh``, ``console``,
  ``shell``) runs in bash as written and must exit 0;
* a ``python`` block runs as a script pasted into ``python -``, and must exit
  0 without a word on standard error; one written as a session (``>>>``) is
  run by doctest, and must print what the block shows.

The terminal is a copy of the checkout's files (the ``.venv`` and the built
book beside them are the checkout's own), since the docs have the reader
work in the top folder of the checkout; ``./dev`` lines run in the checkout
itself, as ``./dev`` works on the folder it sits in. Other tests serve the
built book meanwhile, so ``./dev site`` must find it up to date (the tests
build it first) and serve it without writing a file of it again, which is
checked each time it runs. The ``loo-tutor``
lines and files run a second time in an empty folder, as the command works
from any folder once on the PATH. ``~`` is a temporary folder.

The shell lines of the docs' prose (``python benchmarks/browser.py`` in a
sentence) are run with ``--help`` after the arguments shown: each script
starts from the top folder and takes the arguments the docs give it.

What runs in a bounded form, and why (:data:`BOUNDED`): servers are started
on a free port of 127.0.0.1, where the docs say 8866, 8000 or ``0.0.0.0``,
and stopped once their address answers; ``./dev test`` runs one test file,
as the whole suite holds this test; the full engine benchmark and strategy
lab run with fewer repetitions.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from loo_tutor.apps.classroom.doors import normal_base

from book_built import HTML, book_build_needed
from classroom_server import free_port

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", ROOT / "benchmarks" / "README.md",
             *sorted((ROOT / "book").glob("*.md"))]
ACTIVATE = "source .venv/bin/activate"
FENCE = re.compile(r"^(\s*)(`{3,})\s*(.*?)\s*$")
LANGUAGE = re.compile(r"^(?:\{code-block\}|\{code\})?\s*([\w-]*)$")
HEREDOC = re.compile(r"<<\s*'?(\w+)'?")
INLINE = re.compile(r"(?<!`)`((?:python|loo-tutor|pytest) [^`]+)`(?!`)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z.]*$")
"""A word that stands for what the reader fills in: ``FILE...``, ``DIR``, ``S``."""
SHELLS = {"bash", "sh", "console", "shell"}
SHARED = (".venv", "_build/html")
"""What the checkout's copy shares with the checkout: installed, built, never in git."""
SERVER_START = 600.0
OUTPUT_ENDS = 60.0
"""Seconds a stopped server's output may stay open: every process it started ends with it."""
COMMAND_TIME = 900.0


@dataclass
class Block:
    language: str
    caption: str | None
    lines: list[str]


@dataclass
class Step:
    """One thing the reader does: write a file, type a command or run Python."""

    command: str = ""
    file: tuple[str, str] | None = None
    python: str | None = None


@dataclass
class Terminal:
    folder: Path
    activated: bool = False
    ran: list[tuple[str, int]] = field(default_factory=list)
    session: list[str] = field(default_factory=list)
    """The document's Python sessions (``>>>``) so far: one session, as at one prompt."""


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
    """What a reader of the document writes, types and pastes, in order."""
    found: list[Step] = []
    for block in blocks(document.read_text(encoding="utf-8")):
        if block.caption:
            found.append(Step(file=(block.caption, "\n".join(block.lines) + "\n")))
        elif block.language == "python":
            found.append(Step(python="\n".join(block.lines) + "\n"))
        elif block.language in SHELLS:
            lines = iter(block.lines)
            for line in lines:
                command = line.strip()
                if not command or command.startswith("#"):
                    continue
                here = HEREDOC.search(command)
                if here:
                    body = [command]
                    for more in lines:
                        body.append(more)
                        if more.strip() == here.group(1):
                            break
                    command = "\n".join(body)
                found.append(Step(command))
    return found


def prose_commands() -> list[str]:
    """The commands the docs name in their sentences, each once, in order of first mention."""
    found: dict[str, None] = {}
    for document in DOCUMENTS:
        for line in _prose(document.read_text(encoding="utf-8")):
            for command in INLINE.findall(line):
                found[re.sub(r"\s+", " ", command).strip()] = None
    return list(found)


def _prose(text: str) -> list[str]:
    """The lines of ``text`` outside its fenced blocks, each paragraph joined into one line."""
    lines: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        opening = FENCE.match(line)
        if opening and (fence is None or opening.group(2) == fence):
            fence = opening.group(2) if fence is None else None
        elif fence is None:
            lines.append(line)
    return [" ".join(p.split("\n")) for p in "\n".join(lines).split("\n\n")]


def without_comment(command: str) -> str:
    return re.sub(r"\s+#.*$", "", command)


def reader_environment(home: Path) -> dict[str, str]:
    """A terminal that has not activated the checkout's .venv, whose ``~`` is ``home``."""
    venv_bin = str(ROOT / ".venv" / "bin")
    env = {k: v for k, v in os.environ.items()
           if k not in {"VIRTUAL_ENV", "PYTHONPATH", "PORT", "LOO_TUTOR_BOOK_BUILT"}}
    env["HOME"] = str(home)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(p) != Path(venv_bin))
    return env


def script(terminal: Terminal, command: str) -> str:
    activate = f"source {ROOT / '.venv' / 'bin' / 'activate'}\n"
    return (activate if terminal.activated else "") + command


def run(terminal: Terminal, command: str, folder: Path | None = None, stdin: str | None = None,
        python: bool = False) -> subprocess.CompletedProcess[str]:
    """Run ``command`` in the terminal; ``python``: with the checkout's Python, as a notebook would."""
    text = f"source {ROOT / '.venv' / 'bin' / 'activate'}\n{command}" if python else script(
        terminal, command)
    done = subprocess.run(["bash", "-c", text], cwd=folder or terminal.folder,
                          env=reader_environment(terminal.folder), input=stdin,
                          capture_output=True, text=True, timeout=COMMAND_TIME)
    terminal.ran.append((command, done.returncode))
    return done


def _ctrl_c_as_in_a_terminal() -> None:
    """In the server's process, before it starts: Ctrl-C (SIGINT) stops it, as in a terminal.

    A program started in the background (``./dev test &``, or under a CI
    runner) inherits SIGINT ignored, and so would the server this test stops
    with SIGINT: it would never stop, whatever the command does.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def serve_until_it_answers(terminal: Terminal, command: str, folder: Path, url: str,
                           env: dict[str, str] | None = None) -> str:
    """Start ``command``, wait until ``url`` answers, stop it with Ctrl-C; returns its output.

    Stopped so, the server must end at once with exit code 0 and no traceback.
    """
    server = subprocess.Popen(["bash", "-c", script(terminal, "exec " + command)], cwd=folder,
                              env={**reader_environment(terminal.folder), **(env or {})},
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal)
    assert server.stdout is not None
    printed: list[str] = []
    answered = False
    deadline = time.monotonic() + SERVER_START
    try:
        for line in server.stdout:
            printed.append(line)
            if url in line or time.monotonic() > deadline:
                break
        while not answered and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(url, timeout=30) as reply:
                    answered = reply.status == 200
            except OSError:
                time.sleep(0.5)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    # Read through the same file as above: communicate() would skip what it holds. The
    # output ends when every process that holds it has: one that outlived the server
    # fails the test rather than holding it for ever.
    rest: list[str] = []
    stdout = server.stdout
    reading = threading.Thread(target=lambda: rest.append(stdout.read()), daemon=True)
    reading.start()
    reading.join(timeout=OUTPUT_ENDS)
    assert not reading.is_alive(), (f"{command!r} ended, but a process it started still holds "
                                    f"its output open:\n{''.join(printed)}")
    output = "".join(printed) + rest[0]
    server.stdout.close()
    terminal.ran.append((command, server.returncode))
    assert answered, f"{command!r} never answered on {url}:\n{output}"
    assert server.returncode == 0, f"{command!r} exited {server.returncode} at Ctrl-C:\n{output}"
    assert "Traceback" not in output, output
    return output


def run_classroom(terminal: Terminal, command: str) -> str:
    port = free_port()
    command = without_comment(command).replace("--host 0.0.0.0", "--host 127.0.0.1")
    prefix = re.search(r"--base-url[= ](\S+)", command)
    base = normal_base(prefix.group(1)) if prefix else "/"  # the server answers there alone
    output = serve_until_it_answers(terminal, f"{command} --port {port}", terminal.folder,
                                    f"http://127.0.0.1:{port}{base}")
    shown = {m for m in re.findall(r"http://\S+", output) if "/loo/teacher" not in m}
    assert len(shown) == 1, f"{command!r} printed other addresses than one:\n{output}"
    return output


def built_files(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every file and folder under ``folder``: its inode, time of change and size."""
    found = {}
    for path in [folder, *folder.rglob("*")]:
        status = path.lstat()
        found[str(path.relative_to(folder))] = (status.st_ino, status.st_mtime_ns, status.st_size)
    return found


def run_dev_site(terminal: Terminal, command: str) -> str:
    """``./dev site``, which must serve the built book as it is: other tests serve it too."""
    needed = book_build_needed()
    assert needed is None, f"the built book should be up to date before {command!r}: {needed}"
    before = built_files(HTML)
    port = free_port()
    output = serve_until_it_answers(terminal, command, ROOT, f"http://127.0.0.1:{port}/",
                                    env={"PORT": str(port)})
    after = built_files(HTML)
    written = sorted(name for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))
    assert not written, f"{command!r} wrote into the built book it found up to date: {written}"
    return output


LAB_SCALE = 0.02
"""The share of the lab's deals the docs' lab commands play at most."""


def _lab(command: str) -> str:
    words = command.split()
    if "--redraw" in words:
        return command
    if "--scale" not in words:
        return f"{command} --scale {LAB_SCALE}"
    at = words.index("--scale") + 1
    if at < len(words) and float(words[at]) > LAB_SCALE:
        words[at] = str(LAB_SCALE)
    return " ".join(words)


BOUNDED: dict[str, tuple[Callable[[str], str], str]] = {
    "./dev test": (lambda c: "./dev test tests/engine/test_cards.py",
                   "the whole suite holds this test; one file goes through every stage but "
                   "the full book build and the compiled engine"),
    "python benchmarks/engine.py": (lambda c: c + " --quick --engine pure",
                                    "a full run compiles the engine and times both builds "
                                    "for minutes"),
    "python -m loo_tutor.analysis.lab": (_lab, "the full lab plays for about 3 minutes, and "
                                         "a larger share than LAB_SCALE for seconds"),
}
"""Commands run in a shorter form: the form, and the reason. Servers: see :func:`run_step`."""


def bounded(command: str) -> str:
    command = without_comment(command)
    for start, (form, _) in BOUNDED.items():
        if command == start or command.startswith(start + " "):
            return form(command)
    return command


def run_step(terminal: Terminal, step: Step, name: str, only_loo_tutor: bool = False) -> None:
    if step.file:
        file, text = step.file
        (terminal.folder / file).parent.mkdir(parents=True, exist_ok=True)
        (terminal.folder / file).write_text(text, encoding="utf-8")
        return
    if step.python is not None:
        if not only_loo_tutor:
            run_python(terminal, step.python, name)
        return
    command = step.command
    if command.startswith(ACTIVATE):
        terminal.activated = True
        return
    if only_loo_tutor and not (command.startswith("loo-tutor") or command.startswith("cat >")):
        return
    if command.startswith("loo-tutor classroom"):
        run_classroom(terminal, command)
    elif without_comment(command) == "./dev site":
        run_dev_site(terminal, command)
    else:
        done = run(terminal, bounded(command), ROOT if command.startswith("./dev") else None)
        assert done.returncode == 0, (
            f"{name}: {command!r} exited {done.returncode}:\n{done.stdout}{done.stderr}")
        if command.startswith("loo-tutor"):
            out = re.search(r"--out (\S+)", command)
            if out:
                assert (terminal.folder / out.group(1) / "worksheet.html").is_file(), command
            elif command.startswith("loo-tutor check"):
                assert done.stdout.strip(), f"{command!r} printed nothing"


def run_python(terminal: Terminal, source: str, name: str) -> None:
    """Run a Python example with the checkout's Python, in the terminal's folder.

    A page's sessions (``>>>``) follow on from each other, so each is run
    after the ones before it on the same page.
    """
    if source.lstrip().startswith(">>>"):
        terminal.session.append(source)
        example = terminal.folder / "example.txt"
        example.write_text("\n".join(terminal.session), encoding="utf-8")
        done = run(terminal, "python -m doctest -o NORMALIZE_WHITESPACE example.txt", python=True)
        example.unlink()
    else:
        done = run(terminal, "python -", stdin=source, python=True)
    assert done.returncode == 0 and not done.stderr.strip(), (
        f"{name}: the Python example\n{source}exited {done.returncode}:\n{done.stdout}{done.stderr}")


def checkout_copy(folder: Path) -> Path:
    """The checkout's files as git knows them, with the installed and built folders beside them."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    for name in listed.stdout.decode().split("\0"):
        source = ROOT / name
        if not name or not (source.exists() or source.is_symlink()):
            continue
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            target.symlink_to(os.readlink(source))
        else:
            shutil.copy2(source, target)
    for shared in SHARED:
        if (ROOT / shared).exists():
            (folder / shared).parent.mkdir(parents=True, exist_ok=True)
            (folder / shared).symlink_to(ROOT / shared)
    return folder


def documents_with(kind: Callable[[Step], bool]) -> list[Path]:
    return [d for d in DOCUMENTS if any(kind(s) for s in steps(d))]


def is_run(step: Step) -> bool:
    return step.python is not None or (bool(step.command) and not step.command.startswith(ACTIVATE))


def is_loo_tutor(step: Step) -> bool:
    return step.command.startswith("loo-tutor")


def asked_for_help(command: str) -> tuple[str, list[str]]:
    """``command --help``, and the options the help must list.

    A command written with a placeholder (``FILE``), or ending in an option
    a sentence names (``loo-tutor mark --class``), asks its program for help,
    which must list the options the sentence names.

    ``scripts/build_compiled.py --run SCRIPT`` is asked for SCRIPT's help
    without compiling the engine first (minutes; ``./dev test`` builds and
    tests the compiled engine).
    """
    words = command.split()
    if words[:3] == ["python", "scripts/build_compiled.py", "--run"]:
        words = ["python", *words[3:]]
    named: list[str] = []
    if words[-1].startswith("-") or any(PLACEHOLDER.match(word) for word in words):
        named = [word for word in words if word.startswith("--")]
        words = list(itertools.takewhile(
            lambda word: not word.startswith("-") and not PLACEHOLDER.match(word), words))
    return " ".join([*words, "--help"]), named
