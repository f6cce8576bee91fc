"""``loo-tutor classroom``: Voila serving the notebooks as apps, checked in a real browser.

The command's settings are checked directly; then the server is started on a
free port as a separate process, the forced-ace app is opened in Debian's
Chromium through Playwright and the same clicks as in the book are made, an
exercise solved there is kept by the browser, and the server is stopped. A
missing Chromium is a failure, never a skip.
"""

from __future__ import annotations

import asyncio
import base64
import gc
import gzip
import importlib
import json
import os
import queue
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

import nbformat
import pytest

from loo_tutor.apps.classroom import adapter
from loo_tutor.apps.classroom import notebooks as served
from loo_tutor.apps.classroom import server as classroom
from loo_tutor.apps.cli import build_parser, main

from browser_support import in_browser, new_page
from classroom_server import in_a_loop_of_its_own, kernel_ids, page_cookie, stop

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
START_TIMEOUT = 90.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


# -- the command's settings, without a server ------------------------------------------

def test_only_loopback_addresses_count_as_this_machine() -> None:
    assert classroom.is_loopback("127.0.0.1")
    assert classroom.is_loopback("localhost")
    assert classroom.is_loopback("::1")
    assert not classroom.is_loopback("0.0.0.0")
    assert not classroom.is_loopback("192.168.1.20")
    assert not classroom.is_loopback("classroom.example")


def test_voila_settings_preheat_cull_and_hide_sources() -> None:
    config = classroom.voila_config(NOTEBOOKS, "127.0.0.1", 9000, None, pool_size=2, cull_after=15)
    assert config["Voila"]["ip"] == "127.0.0.1" and config["Voila"]["port"] == 9000
    assert config["Voila"]["token"] == ""
    assert config["Voila"]["port_retries"] == 0
    assert config["VoilaConfiguration"]["preheat_kernel"] is True
    assert config["VoilaConfiguration"]["default_pool_size"] == 2
    assert config["VoilaConfiguration"]["strip_sources"] is True
    assert config["VoilaConfiguration"]["template"] == classroom.TEMPLATE
    assert config["MappingKernelManager"]["cull_idle_timeout"] == 15 * 60
    never = classroom.voila_config(NOTEBOOKS, "0.0.0.0", 9000, "s3cret", pool_size=0, cull_after=0)
    assert never["Voila"]["token"] == "s3cret"
    assert never["VoilaConfiguration"]["preheat_kernel"] is False
    assert never["MappingKernelManager"] == {}
    quick = classroom.voila_config(NOTEBOOKS, "127.0.0.1", 9000, None, pool_size=1,
                                   cull_after=10 / 60)
    assert quick["MappingKernelManager"]["cull_idle_timeout"] == 10
    assert quick["MappingKernelManager"]["cull_interval"] == 5


def test_address_carries_the_token() -> None:
    assert classroom.address("127.0.0.1", 8866, None) == "http://127.0.0.1:8866/"
    assert classroom.address("127.0.0.1", 8866, "abc") == "http://127.0.0.1:8866/?token=abc"
    assert classroom.address("::1", 8866, None) == "http://[::1]:8866/"


def test_each_start_makes_a_class_folder_of_its_own(tmp_path: Path) -> None:
    first, second = classroom.new_class_folder(tmp_path), classroom.new_class_folder(tmp_path)
    assert first != second and first.is_dir() and second.is_dir()
    assert first.name.startswith("loo-class-") and second.name.startswith(first.name)


def test_the_book_notebooks_come_with_the_package() -> None:
    shipped = sorted(p.name for p in classroom.NOTEBOOKS.glob("*.ipynb"))
    assert shipped == sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) and shipped
    # In the checkout they are the book's own, through a link: nbval runs them once, there.
    assert classroom.NOTEBOOKS.resolve() == NOTEBOOKS.resolve()


TEMPLATE_FOLDER = classroom.TEMPLATES / "voila" / "templates"


def test_the_templates_ship_in_the_package_and_link_to_no_other_host() -> None:
    names = {classroom.TEMPLATE, classroom.VOILA_TEMPLATE, "loo-classroom-base"}
    assert {p.name for p in TEMPLATE_FOLDER.iterdir()} == names
    base = {p.name for p in (TEMPLATE_FOLDER / "loo-classroom-base").iterdir()}
    assert base == {"conf.json", "page.html", "tree.html", "tree-lab.html"}
    for name in (classroom.TEMPLATE, classroom.VOILA_TEMPLATE):
        assert json.loads((TEMPLATE_FOLDER / name / "conf.json").read_text()) == {
            "base_template": "loo-classroom-base"}
    pages = [p for p in TEMPLATE_FOLDER.rglob("*") if p.suffix in (".html", ".j2")]
    assert len(pages) == 5
    for page in pages:
        assert not re.search(r"(src|href)=\"(https?:)?//", page.read_text()), page.name
    package_data = re.search(r"^loo_tutor = \[(.*?)\]$", (ROOT / "pyproject.toml").read_text(),
                             re.MULTILINE | re.DOTALL)
    assert package_data and '"apps/classroom/templates/**/*"' in package_data.group(1)


_INSTALLED_CHECK = """
import importlib.util, json, sys, sysconfig
from pathlib import Path
site = Path(sysconfig.get_paths()["purelib"])
spec = importlib.util.spec_from_file_location(
    "classroom", site / "loo_tutor" / "apps" / "classroom" / "server.py")
classroom = importlib.util.module_from_spec(spec)
spec.loader.exec_module(classroom)
print(json.dumps({"script": str(classroom.PAGE_SCRIPT), "site": str(site),
                  "ready": classroom.light_page_ready(),
                  "template": classroom.page_template("light"),
                  "templates": sorted(str(p.relative_to(classroom.TEMPLATES))
                                      for p in classroom.TEMPLATES.rglob("*") if p.is_file())}))
"""


def _run(*command: str, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=300, check=False, **options)


def test_a_package_installed_from_a_wheel_finds_the_page_script(tmp_path: Path) -> None:
    """pip install of a wheel built after ./dev carries the templates and the light page's
    script, and the installed module finds them (here in a fresh venv, outside the checkout;
    the module is loaded from its file, as the venv has none of the package's dependencies)."""
    if not classroom.light_page_ready():
        pytest.fail(f"the light page's script is missing from {classroom.PAGE_SCRIPT}: "
                    "./dev builds it (./dev test does before running pytest)")
    source = tmp_path / "src"
    for path in [ROOT / "pyproject.toml", ROOT / "README.md",
                 *(p for p in (ROOT / "loo_tutor").rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)]:
        target = source / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "--wheel-dir", str(tmp_path / "dist"), str(source), cwd=tmp_path)
    assert built.returncode == 0, built.stdout
    (wheel,) = (tmp_path / "dist").glob("loo_tutor-*.whl")
    with zipfile.ZipFile(wheel) as contents:  # the drawings' style sheets are package data
        sheets = sorted(n for n in contents.namelist() if n.startswith("loo_tutor/render/styles/"))
    assert sheets == sorted(f"loo_tutor/render/styles/{p.name}"
                            for p in (ROOT / "loo_tutor" / "render" / "styles").glob("*.css"))
    venv = tmp_path / "venv"
    made = _run(sys.executable, "-m", "venv", str(venv))
    assert made.returncode == 0, made.stdout
    python = venv / "bin" / "python"
    installed = _run(str(python), "-m", "pip", "install", "--no-deps", "--no-index", str(wheel),
                     cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    checked = _run(str(python), "-c", _INSTALLED_CHECK, cwd=tmp_path, env=env)
    assert checked.returncode == 0, checked.stdout
    found = json.loads(checked.stdout)
    assert found["script"].startswith(found["site"]) and found["ready"], found
    assert found["template"] == classroom.TEMPLATE
    shipped = sorted(str(p.relative_to(classroom.TEMPLATES)) for p in classroom.TEMPLATES.rglob("*")
                     if p.is_file() and not p.name.startswith("."))  # not ./dev's stamp
    assert found["templates"] == shipped


def _notebook(*cells: Any) -> Any:
    return nbformat.v4.new_notebook(cells=list(cells))


def test_myst_targets_are_dropped_from_markdown_cells() -> None:
    heading = nbformat.v4.new_markdown_cell("(try-lead-as-a)=\n## Your turn\n\n(not a target)")
    nb = _notebook(heading, nbformat.v4.new_code_cell("(x)="))
    cleaned, resources = served.without_myst_targets(nb, {"kept": 1})
    assert cleaned.cells[0].source == "## Your turn\n\n(not a target)"
    assert cleaned.cells[1].source == "(x)="  # code is left alone
    assert resources == {"kept": 1}


def test_a_notebook_title_is_its_first_heading() -> None:
    heading = nbformat.v4.new_markdown_cell("(a-target)=\n# The forced ace\n\nText.")
    assert served.notebook_title(_notebook(nbformat.v4.new_code_cell("1"), heading)) == \
        "The forced ace"
    assert served.notebook_title(_notebook(nbformat.v4.new_markdown_cell("No heading"))) is None
    assert served.notebook_title(_notebook()) is None


def test_the_list_follows_the_book_and_shows_titles() -> None:
    order = served.book_order(ROOT / "_toc.yml", NOTEBOOKS)
    # Every notebook the project ships is in the book, each once.
    assert sorted(order) == sorted(p.name for p in NOTEBOOKS.glob("*.ipynb"))
    toc = (ROOT / "_toc.yml").read_text()
    assert order == sorted(order, key=lambda name: toc.index(f"notebooks/{name[:-6]}\n"))
    items = [{"type": "notebook", "name": name, "path": name} for name in sorted(order)]
    items.append({"type": "directory", "name": "more", "path": "more"})
    titles = {"forced-ace.ipynb": "The forced ace"}
    listed = served.listing(items, titles, order)
    assert [item["path"] for item, _ in listed] == [*order, "more"]
    shown = {item["path"]: title for item, title in listed}
    assert shown["forced-ace.ipynb"] == "The forced ace"
    assert shown["practice.ipynb"] == "practice"  # no title known: the file's name
    # Notebooks the book does not name come after, by title.
    extra = [{"type": "notebook", "name": n, "path": n} for n in ("b.ipynb", "a.ipynb")]
    assert [i["path"] for i, _ in served.listing(extra + items[:1], {"b.ipynb": "A"}, order)] \
        == [items[0]["path"], "b.ipynb", "a.ipynb"]


def test_a_table_of_contents_that_cannot_be_read_is_one_line(tmp_path: Path) -> None:
    toc = tmp_path / "_toc.yml"
    toc.write_text("parts: [unclosed\n", encoding="utf-8")
    with pytest.raises(ValueError) as problem:
        served.book_order(toc, tmp_path)
    assert "\n" not in str(problem.value) and str(problem.value)


def test_the_pages_leave_out_what_speaks_of_the_books_own_pages() -> None:
    """The classroom shows every markdown cell not tagged book-only; none speaks of the
    in-browser Python's status line."""
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown" and classroom.BOOK_ONLY_TAG not in cell.metadata.get(
                    "tags", []):
                assert "line above" not in cell.source, path.name
                assert "in your browser" not in cell.source, path.name


def test_without_voila_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    real = importlib.import_module

    def no_voila(name: str, *args: Any) -> Any:
        if name.split(".")[0] == "voila":
            raise ImportError(f"No module named {name!r}")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_voila)
    assert main(["classroom", str(NOTEBOOKS)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs Voila" in err and "pip install" in err
    assert "Traceback" not in err


def test_a_folder_without_notebooks_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classroom", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no notebooks" in err


def test_a_port_in_use_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["classroom", str(NOTEBOOKS), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"port {port}" in err


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["classroom", "--port", "http"])
    assert stop.value.code == 2
    with pytest.raises(SystemExit) as stop:
        main(["classroom", "--cull-after", "-5"])
    assert stop.value.code == 2


def test_cull_time_in_minutes_or_seconds() -> None:
    parser = build_parser()
    assert parser.parse_args(["classroom", "--cull-after", "15"]).cull_after == 15
    assert parser.parse_args(["classroom", "--cull-after", "30s"]).cull_after == 0.5
    for bad in ("30x", "s", "-1", "1.5"):
        with pytest.raises(SystemExit):
            parser.parse_args(["classroom", "--cull-after", bad])


def test_options_are_documented(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["classroom", "--help"])
    text = capsys.readouterr().out
    for option in ("--host", "--port", "--token", "--pool-size", "--cull-after", "--book",
                   "--page"):
        assert option in text


class _Log:
    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    def debug(self, message: str, *args: Any) -> None:
        self.lines.append(("debug", message % args))

    def error(self, message: str, *args: Any, **kwargs: Any) -> None:
        self.lines.append(("error", message % args))


def _socket_to_a_closed_page(raise_at_once: bool) -> type:
    """A websocket handler whose page has gone, failing a write as Tornado does."""
    websocket = importlib.import_module("tornado.websocket")

    def write_message(self: Any, message: Any, binary: bool = False) -> Any:
        if raise_at_once:
            raise websocket.WebSocketClosedError()

        async def wrapper() -> None:  # Tornado's write, not awaited by its caller
            raise websocket.WebSocketClosedError()

        return asyncio.ensure_future(wrapper())

    return type("Gone", (websocket.WebSocketHandler,), {"write_message": write_message})


def _unretrieved_failures(handler: type, log: _Log) -> list[str]:
    """What asyncio would print for a write to ``handler``'s closed page."""
    async def write() -> list[str]:
        loop = asyncio.get_running_loop()
        reported: list[str] = []
        loop.set_exception_handler(lambda _, context: reported.append(context["message"]))
        page = type("Page", (), {"log": log})()
        handler.write_message(page, "{}")  # type: ignore[attr-defined]
        for _ in range(3):
            await asyncio.sleep(0)
        gc.collect()
        return reported

    return in_a_loop_of_its_own(write())


def test_a_message_for_a_closed_page_is_dropped_quietly() -> None:
    log = _Log()
    plain = _socket_to_a_closed_page(raise_at_once=False)
    assert _unretrieved_failures(plain, log) == ["Task exception was never retrieved"]
    route = adapter.classroom_socket((r"/api/kernels/(.*)/channels", plain))
    assert _unretrieved_failures(route[1], log) == []
    assert log.lines == [("debug", "Message not sent, the page has closed")]
    at_once = adapter.classroom_socket((r"/k", _socket_to_a_closed_page(raise_at_once=True)))
    _unretrieved_failures(at_once[1], log)  # does not raise
    assert log.lines[1:] == [("debug", "Message not sent, the page has closed")]



def test_the_admission_hears_of_a_closed_connection_only_once_it_has_opened() -> None:
    """A page gone during its websocket's handshake had no connection to count."""
    websocket = importlib.import_module("tornado.websocket")
    told: list[str] = []
    quiet = type("Quiet", (websocket.WebSocketHandler,), {
        "open": lambda self: None, "on_close": lambda self: None,
        "set_nodelay": lambda self, on: None})
    route = adapter.classroom_socket(
        (r"/k", quiet), opened=lambda handler, kernel: told.append(f"opened {kernel}"),
        closed=lambda kernel: told.append(f"closed {kernel}"))
    gone_early, page = object.__new__(route[1]), object.__new__(route[1])
    gone_early.kernel_id, page.kernel_id = "k1", "k2"
    gone_early.on_close()
    page.open()
    page.on_close()
    assert told == ["opened k2", "closed k2"]

def test_only_websocket_routes_are_changed() -> None:
    web = importlib.import_module("tornado.web")
    route = (r"/x", web.RequestHandler, {})
    assert adapter.classroom_socket(route) is route


class _Renderer:
    stop_generator = False


class _Pools:
    """A stand-in for Voila's kernel manager with preheated kernels: its pools and its log."""

    def __init__(self) -> None:
        self._pools: dict[str, list[Any]] = {}
        self.renders: list[asyncio.Future[Any]] = []
        self.renderers: list[_Renderer] = []
        self.said: list[str] = []
        self.running: list[str] = []
        self.log = self

    def list_kernel_ids(self) -> list[str]:
        return list(self.running)

    def info(self, message: str, *args: Any) -> None:
        self.said.append(message % args)

    def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                       **kwargs: Any) -> None:
        render: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        renderer = _Renderer()
        number = len(self.renders)
        self.renders.append(render)
        self.renderers.append(renderer)

        async def start() -> dict[str, Any]:
            self.running.append(f"k{number}")
            return {"renderer": renderer, "kernel_id": f"k{number}", "task": render}

        self._pools.setdefault(str(notebook_name), []).append(asyncio.ensure_future(start()))


def test_a_kernel_kept_ready_is_announced_once_its_notebook_has_run() -> None:
    async def play() -> list[list[str]]:
        kernels = _Pools()
        kernels.fill_if_needed(delay=0, notebook_name="a.ipynb")  # at start, before the hook
        adapter.says_when_ready(kernels)
        seen = []
        await asyncio.sleep(0)  # the kernel has started: nothing said yet
        await asyncio.sleep(0)
        seen.append(list(kernels.said))
        kernels.renders[0].set_result(([], None))  # its notebook has run
        await asyncio.sleep(0)
        seen.append(list(kernels.said))
        kernels._pools["a.ipynb"].pop(0)  # a page takes it; the pool is filled again
        kernels.fill_if_needed(delay=None, notebook_name="a.ipynb")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        kernels.renderers[1].stop_generator = True  # a page takes k1 while its notebook runs
        kernels.renders[1].set_result(([], None))
        kernels.fill_if_needed(None, "a.ipynb")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        kernels.renders[2].set_result(([], None))
        await asyncio.sleep(0)
        seen.append(list(kernels.said))
        return seen

    before_run, after_run, at_end = in_a_loop_of_its_own(play())
    assert before_run == []
    assert after_run == ["Kernel ready for a.ipynb: k0 has run the notebook"]
    assert at_end == [*after_run, "Kernel ready for a.ipynb: k2 has run the notebook"]


def _students(taken: Any) -> int:
    """How many kernels pages hold, from what :func:`classroom._says_when_ready` returned."""
    ids, starting = taken()
    return len(ids) + int(starting)


def test_the_students_are_the_kernels_taken_from_the_pools_and_still_running() -> None:
    async def play() -> list[int]:
        kernels = _Pools()
        kernels.fill_if_needed(delay=0, notebook_name="a.ipynb")
        taken = adapter.says_when_ready(kernels)
        assert taken is not None
        students = partial(_students, taken)
        counted = [students()]
        kernels._pools["a.ipynb"].pop(0)  # a page takes a kernel still starting
        kernels.fill_if_needed(delay=None, notebook_name="a.ipynb")
        counted.append(students())
        await asyncio.sleep(0)  # both kernels have started
        await asyncio.sleep(0)
        counted.append(students())
        kernels.running.remove("k0")  # its page has left
        counted.append(students())
        return counted

    assert in_a_loop_of_its_own(play()) == [0, 1, 1, 0]


def test_a_kernel_started_outside_the_pools_is_a_student_s() -> None:
    async def play() -> int:
        kernels = _Pools()
        kernels.fill_if_needed(delay=0, notebook_name="a.ipynb")
        taken = adapter.says_when_ready(kernels)
        assert taken is not None
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        kernels.running.append("started for a page")  # Voila's own way, before a pool is ready
        return _students(taken)

    assert in_a_loop_of_its_own(play()) == 1


def test_without_preheated_kernels_nothing_is_watched() -> None:
    kernels = type("Plain", (), {"fill_if_needed": print})()
    students = adapter.says_when_ready(kernels)
    assert kernels.fill_if_needed is print and students is None


# -- a real server ---------------------------------------------------------------------

class Server(NamedTuple):
    process: subprocess.Popen[str]
    url: str
    lines: queue.Queue[str]
    log: list[str]


def _start(*args: str) -> Server:
    """Start ``loo-tutor classroom`` in its own process; returns once it prints its address."""
    env = dict(os.environ, PYTHONUNBUFFERED="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    process = subprocess.Popen(
        [sys.executable, "-m", "loo_tutor", "classroom", str(NOTEBOOKS),
         "--data", tempfile.mkdtemp(prefix="loo-class-"), *args],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            log.append(line)
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    server = Server(process, "", lines, log)
    url = _wait_for(server, re.compile(r"Open (http://\S+) in a browser"))
    return server._replace(url=url.group(1))


def _wait_for(server: Server, pattern: re.Pattern[str],
              timeout: float = START_TIMEOUT) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            line = server.lines.get(timeout=0.5)
        except queue.Empty:
            if server.process.poll() is not None:
                break
            continue
        found = pattern.search(line)
        if found:
            return found
    stop(server)
    pytest.fail(f"loo-tutor classroom never printed {pattern.pattern!r}:\n" + "".join(server.log))


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The classroom on a free port of 127.0.0.1, stopped after these tests."""
    running = _start("--port", str(_free_port()))
    try:
        yield running
    finally:
        stop(running)
    assert running.process.returncode == 0, "".join(running.log[-30:])




def _watch(context: Any, page: Any, requests: list[str], errors: list[str]) -> None:
    context.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))


def _outside(urls: list[str], base: str) -> list[str]:
    here = urlsplit(base).netloc
    return [u for u in urls if urlsplit(u).scheme not in {"data", "blob", "about"}
            and urlsplit(u).netloc != here]


def test_classroom_forced_ace_refuses_7h_and_plays_ah(server: Server) -> None:
    assert server.url.startswith("http://127.0.0.1:") and "token" not in server.url
    requests: list[str] = []
    errors: list[str] = []
    rule_link: list[str] = []

    def play(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        _watch(context, page, requests, errors)
        try:
            page.goto(server.url + "voila/render/forced-ace.ipynb")
            trainer = page.locator(".loo-widget").filter(has_text="You are A.")
            trainer.locator("button", has_text="7♥").click(timeout=60_000)
            refused = trainer.locator(".loo-refused")
            refused.wait_for(timeout=30_000)
            assert "R-LEAD-ACE" in refused.inner_text()
            rule = refused.locator("a.loo-rule", has_text="R-LEAD-ACE")
            rule_link.append(rule.evaluate("link => link.href"))
            # A page of its own: titled by its heading, a way back, the book's reading width,
            # and a rule that opens in a new tab, so the deal stays where it is.
            assert page.title() == "The forced ace · Loo Tutor classroom", page.title()
            back = page.locator("nav.loo-back a")
            assert back.evaluate("a => new URL(a.href).pathname") == "/"
            width = page.locator("#rendered_cells").evaluate("e => e.getBoundingClientRect().width")
            assert width <= 50 * 16 + 1, width
            with context.expect_page() as opened:
                rule.click()
            opened.value.close()
            assert trainer.locator(".loo-refused").count() == 1  # the deal is still there

            trainer.locator("button", has_text="A♥").click()
            trainer.locator(".loo-ok").wait_for(timeout=30_000)
            assert trainer.locator("button", has_text="A♥").count() == 0

            assert page.locator(".jp-InputArea-editor, .jp-InputPrompt").count() == 0, \
                "notebook sources should not be shown"
            # The loading sign (gone once the app is live) stands still.
            page.evaluate("""document.body.insertAdjacentHTML('beforeend',
                '<div id="loading"><svg class="spinner"></svg></div>')""")
            assert page.locator("#loading .spinner").evaluate(
                "sign => getComputedStyle(sign).animationName") == "none"
        finally:
            context.close()

    in_browser(play)
    assert not _outside(requests, server.url), _outside(requests, server.url)
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)
    if (ROOT / "_build" / "html" / "book" / "rules.html").exists():
        # The built book is served too, so the rule links lead somewhere.
        with urllib.request.urlopen(rule_link[0].split("#")[0]) as reply:
            assert reply.status == 200


def test_classroom_keeps_the_exercises_solved_in_the_browser(server: Server) -> None:
    from loo_tutor.engine.cards import card_text
    from loo_tutor.teaching.exercises import Kind, LegalCards, make

    exercise = make(Kind.LEGAL_CARDS, 2024)  # the notebook's ExerciseWidget(1, seed=2024)
    assert isinstance(exercise, LegalCards)
    kind_line = f"Exercise 1, {exercise.title}: 1 variant (seed 2024)"
    errors: list[str] = []
    seen: list[str] = []

    def solve(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        _watch(context, page, [], errors)
        try:
            page.goto(server.url + "voila/render/exercises.ipynb")
            page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                                   timeout=120_000)
            panel = page.locator(".loo-progress-panel")
            seen.append(panel.inner_text())
            widget = page.locator(".loo-exercise").filter(has_text="Exercise 1:")
            for card in exercise.legal():
                widget.locator(".widget-checkbox", has_text=card_text(card)).locator(
                    'input[type="checkbox"]').check()
            widget.locator("button", has_text="Check").first.click()
            panel.locator(".loo-progress-kind").wait_for(timeout=30_000)
            seen.append(panel.inner_text())
            page.reload()  # kept by the browser: listed again on a new page
            seen.append(page.locator(".loo-progress-kind").inner_text())
        finally:
            context.close()

    in_browser(solve)
    assert "No exercise solved in this browser yet" in seen[0]
    assert kind_line in seen[1] and seen[2] == kind_line
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def _get(url: str, **headers: str) -> tuple[bytes, Any]:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as reply:
        return reply.read(), reply.headers


def test_classroom_sends_voila_files_compressed_and_cacheable(server: Server) -> None:
    script = server.url + "voila/static/voila.js"
    plain, headers = _get(script)
    assert headers["Content-Encoding"] is None and plain.startswith(b"var _JUPYTERLAB")
    packed, headers = _get(script, **{"Accept-Encoding": "gzip, deflate"})
    assert headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in headers["Vary"]
    assert gzip.decompress(packed) == plain and len(packed) < len(plain) / 2
    assert int(headers["Content-Length"]) == len(packed)
    assert headers["Cache-Control"] == f"max-age={adapter.CACHE_SECONDS}"
    part, headers = _get(script, **{"Accept-Encoding": "gzip", "Range": "bytes=0-9"})
    assert part == plain[:10] and headers["Content-Encoding"] is None
    page, headers = _get(server.url + "voila/render/forced-ace.ipynb",
                         **{"Accept-Encoding": "gzip", "Cookie": page_cookie(server.url)})
    assert "no-store" in headers["Cache-Control"] and b"jupyter-config-data" in page
    config = re.search(rb'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                       page, re.DOTALL)
    assert config is not None
    # The widget extensions' files are named by their content: kept for good.
    extension = json.loads(config.group(1))["federated_extensions"][0]
    entry, _ = _get(f"{server.url}voila/labextensions/{extension['name']}/{extension['load']}")
    chunk = re.search(rb'[{,](\d+):"([0-9a-f]{16,})"', entry)
    assert chunk is not None
    url = (f"{server.url}voila/labextensions/{extension['name']}/static/"
           f"{chunk.group(1).decode()}.{chunk.group(2).decode()}.js?v={chunk.group(2).decode()}")
    _, headers = _get(url)
    assert "max-age=315360000" in headers["Cache-Control"]


def test_classroom_list_of_notebooks(server: Server) -> None:
    requests: list[str] = []
    errors: list[str] = []
    order = served.book_order(ROOT / "_toc.yml", NOTEBOOKS)
    titles = [served.notebook_title(nbformat.read(NOTEBOOKS / name, as_version=4))
              for name in order]
    assert None not in titles

    def look(browser: Any) -> None:
        context = browser.new_context()
        page = context.new_page()
        _watch(context, page, requests, errors)
        try:
            page.goto(server.url, wait_until="load")
            links = page.locator("ul.loo-notebooks a")
            # By title, in the order of the book.
            assert links.all_inner_texts() == titles
            href = links.filter(has_text="The forced ace").get_attribute("href")
            assert href.endswith("/voila/render/forced-ace.ipynb")
        finally:
            context.close()

    in_browser(look)
    assert not _outside(requests, server.url), _outside(requests, server.url)
    assert not errors, "\n".join(errors)


_WARNING = re.compile(r"\b(WARNING|ERROR|CRITICAL) \||Traceback|not trusted|\b4\d\d (GET|POST)\b")


def test_a_page_closed_stops_its_kernel_and_the_log_stays_clean(server: Server) -> None:
    """A normal class logs no warning: opening and closing a page, the kernel goes with it."""
    errors: list[str] = []
    seen: dict[str, Any] = {}

    def visit(browser: Any) -> None:
        with new_page(browser, [], errors) as page:
            page.goto(server.url + "voila/render/trainers.ipynb")
            page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                                   timeout=60_000)
            kernel = json.loads(page.locator("#jupyter-config-data").text_content())["kernelId"]
            seen["running"] = kernel in kernel_ids(server)
            page.close(run_before_unload=True)
            # Waited for here: closing the browser at once could drop the page's last request.
            deadline = time.monotonic() + 30
            while kernel in kernel_ids(server) and time.monotonic() < deadline:
                time.sleep(0.2)
            seen["stopped"] = kernel not in kernel_ids(server)
            seen["kernel"] = kernel

    in_browser(visit)
    assert seen["running"], "the page's kernel should run while the page is open"
    assert seen["stopped"], "the page's kernel still runs 30 s after the page was closed"
    _wait_for(server, re.compile(f"Kernel shutdown: {seen['kernel']}"), timeout=10)
    assert not errors, "\n".join(errors)
    warned = [i for i, line in enumerate(server.log) if _WARNING.search(line)]
    assert not warned, "".join("".join(server.log[max(0, i - 8):i + 12]) for i in warned)



def _handshake(url: str, kernel: str, cookie: str) -> socket.socket:
    """A socket that has asked to open the websocket of ``kernel``, as a page does."""
    host = urlsplit(url).netloc
    address, port = host.rsplit(":", 1)
    connection = socket.create_connection((address, int(port)), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall("\r\n".join([
        f"GET /api/kernels/{kernel}/channels?session_id={uuid.uuid4().hex} HTTP/1.1",
        f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Protocol: v1.kernel.websocket.jupyter.org",
        f"Origin: http://{host}", f"Cookie: {cookie}", "", ""]).encode())
    return connection


def test_a_page_closed_while_its_websocket_opens_leaves_the_log_clean(server: Server) -> None:
    """A tab closed as it loads: its websocket's handshake ends quietly, and the kernel serves on.

    The pages close at moments spread over the few milliseconds the server
    takes to set a kernel's websocket up.
    """
    cookie = page_cookie(server.url)
    with urllib.request.urlopen(urllib.request.Request(
            server.url + "voila/render/forced-ace.ipynb", headers={"Cookie": cookie}),
            timeout=60) as reply:
        kernel = re.search(r'"kernelId": "([0-9a-f-]+)"', reply.read().decode())
    assert kernel, "the page names no kernel"
    before = len(server.log)
    for wait_ms in [0, 1, 2, 5, 10, 20] * 4:
        with _handshake(server.url, kernel.group(1), cookie):
            time.sleep(wait_ms / 1000)
    with _handshake(server.url, kernel.group(1), cookie) as connection:
        answer = connection.recv(4096).decode(errors="replace")
    assert answer.startswith("HTTP/1.1 101 "), answer
    log = server.log[before:]
    warned = [i for i, line in enumerate(log) if _WARNING.search(line)]
    assert not warned, "".join("".join(log[max(0, i - 8):i + 12]) for i in warned)


def test_the_server_says_when_the_kernel_kept_ready_has_run_its_notebook(server: Server) -> None:
    """Voila says a pool is filled as its kernel starts; the classroom says when it can serve."""
    def ready(exclude: str = "") -> tuple[int, str]:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            for i, line in enumerate(list(server.log)):
                found = re.search(r"Kernel ready for payout\.ipynb: (\S+) has run the notebook",
                                  line)
                if found and found.group(1) != exclude:
                    return i, found.group(1)
            time.sleep(0.2)
        pytest.fail("the server never said the kernel of payout.ipynb was ready:\n"
                    + "".join(server.log[-30:]))

    at, kernel = ready()
    filled = [i for i, line in enumerate(server.log)
              if "Kernel pool of payout.ipynb is filled" in line]
    assert filled and filled[0] < at, "".join(server.log[-30:])
    with urllib.request.urlopen(urllib.request.Request(
            server.url + "voila/render/payout.ipynb",
            headers={"Cookie": page_cookie(server.url)}), timeout=60) as reply:
        page = reply.read().decode()
    config = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                       page, re.S)
    assert config and json.loads(config.group(1))["kernelId"] == kernel
    assert ready(exclude=kernel)[1] != kernel  # the kernel that replaced it has run it too


def test_classroom_on_the_network_requires_its_token() -> None:
    running = _start("--host", "0.0.0.0", "--port", str(_free_port()), "--pool-size", "0")
    try:
        token = re.search(r"\?token=(\S+)$", running.url)
        assert token, running.url
        port = urlsplit(running.url).port
        local = f"http://127.0.0.1:{port}/"
        opener = urllib.request.build_opener(_NoRedirect())
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(local + "voila/render/forced-ace.ipynb")
        assert refused.value.code in (302, 401, 403)
        with opener.open(f"{local}?token={token.group(1)}") as reply:
            assert reply.status == 200
    finally:
        stop(running)
    assert running.process.returncode == 0
    shown = [line for line in running.log if "http://" in line and "Teacher's page" not in line]
    assert len(shown) == 1 and running.url in shown[0], "".join(running.log)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def test_tornado_is_given_a_ping_timeout_no_longer_than_its_interval() -> None:
    """Jupyter's own pings keep their 90 s timeout; Tornado no longer warns at each page."""
    websocket = importlib.import_module("tornado.websocket")

    class JupyterLike(websocket.WebSocketHandler):  # type: ignore[misc]
        ping_interval = property(lambda self: 30_000)
        ping_timeout = property(lambda self: 90_000)

        def get_websocket_protocol(self) -> tuple[int, int]:
            return self.ping_interval, self.ping_timeout

    handler = adapter.classroom_socket((r"/api/kernels/(.*)/channels", JupyterLike))[1]
    socket = object.__new__(handler)
    assert socket.get_websocket_protocol() == (30_000, 30_000)
    assert socket.ping_timeout == 90_000
