"""A ``loo-tutor classroom`` server for the tests and benchmarks, and what can be measured of it.

:func:`start` runs the command in a process of its own on a free port and
returns once it prints its address; :func:`stop` ends it. :func:`kernels`
lists the kernel processes it has started, which is where a class's memory
goes: one kernel per open page, plus the kernels kept ready.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import queue
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import psutil

from loo_tutor.apps.classroom.adapter import READY
from loo_tutor.apps.classroom.admission import PAGE_COOKIE

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
START_TIMEOUT = 120.0
_ADDRESS = re.compile(r"Open (http://\S+) in a browser")
KERNEL_MARK = re.compile(r"ipykernel|loo_tutor\.apps\.classroom\.kernel")
"""What a kernel's command line holds: Jupyter's launcher, or the classroom's."""


@dataclass
class Server:
    """A running classroom: its process, the address it printed and its output."""

    process: subprocess.Popen[str]
    url: str = ""
    log: list[str] = field(default_factory=list)
    folder: Path | None = None

    @property
    def port(self) -> int:
        found = re.search(r":(\d+)/", self.url)
        return int(found.group(1)) if found else 0


CLASS_FOLDERS = tempfile.TemporaryDirectory(prefix="loo-classes-")
"""Where each server started without a data folder of its own keeps its class; removed with
everything in it when the test process ends, so a run leaves no class behind in /tmp."""

FREE_PORTS = range(20000, 32768)
"""Where :func:`free_port` looks: below Linux's range for the local ports of outgoing
connections (32768 and up), which the many connections of a run beside this one take
from without asking, and where the system's own choice of a free port falls."""


def free_port() -> int:
    """A port of 127.0.0.1 nothing listens on now, drawn at random from :data:`FREE_PORTS`."""
    draw = random.SystemRandom()
    while True:
        with socket.socket() as probe:
            port = draw.choice(FREE_PORTS)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def start(*args: str, notebooks: Path = NOTEBOOKS, data: Path | str | None = None,
          same_port: bool = False, clock_step: float | None = None) -> Server:
    """Start the classroom (``args`` after the notebooks folder); returns once it is listening.

    The class is kept in ``data``, or in a new temporary folder; ``data`` may
    also be a ``postgresql://`` address, and the server then runs in a new
    temporary folder (:attr:`Server.folder`), where it keeps the class's files. When another
    program took the ``--port`` given between :func:`free_port` and the start
    (a run beside this one), it starts again on another free port, unless
    ``same_port`` (a server started again where its pages look for it).
    With ``clock_step``, the clock by which the server culls idle kernels
    moves on that many seconds at each :func:`move_clock_on`
    (tests/clocked_classroom.py).

    Raises:
        RuntimeError: it stopped, or printed no address in time; the message
            ends with its output.
    """
    for _ in range(3):
        try:
            return _start(args, notebooks, data, clock_step)
        except PortTaken:
            if same_port or "--port" not in args:
                raise
            at = args.index("--port") + 1
            args = (*args[:at], str(free_port()), *args[at + 1:])
    return _start(args, notebooks, data, clock_step)


class PortTaken(RuntimeError):
    """The classroom could not listen on its port: something else listens there."""


def _start(args: tuple[str, ...], notebooks: Path, data: Path | str | None,
           clock_step: float | None = None) -> Server:
    env = dict(os.environ, PYTHONUNBUFFERED="1",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    address = isinstance(data, str)
    folder = Path(tempfile.mkdtemp(prefix="loo-class-", dir=CLASS_FOLDERS.name)) \
        if address or data is None else Path(data)
    command = [sys.executable, "-m", "loo_tutor"] if clock_step is None else [
        sys.executable, str(Path(__file__).with_name("clocked_classroom.py")), str(clock_step)]
    process = subprocess.Popen([*command, "classroom", str(notebooks),
                                "--data", str(data if address else folder), *args],
                               cwd=folder if address else ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    server = Server(process, folder=folder)
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            server.log.append(line)
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if process.poll() is not None:
                break
            continue
        found = _ADDRESS.search(line)
        if found:
            server.url = found.group(1)
            return server
    stop(server)
    failure = PortTaken if any("Address already in use" in line for line in server.log) \
        else RuntimeError
    raise failure("the classroom server did not start:\n" + "".join(server.log[-40:]))


@contextmanager
def serving(*args: str, data: Path | str | None = None) -> Iterator[Server]:
    """The classroom started with ``args`` on a free port of 127.0.0.1 (see :func:`start`),
    stopped when the block ends."""
    running = start("--port", str(free_port()), *args, data=data)
    try:
        yield running
    finally:
        stop(running)


def move_clock_on(server: Server) -> None:
    """Move on the clock of a server started with ``clock_step`` (see :func:`start`)."""
    server.process.send_signal(signal.SIGUSR1)


TAKEN = re.compile(r"Using pre-heated kernel: ([0-9a-f-]{36}) for")
"""Voila's line when a page takes a kernel kept ready (the kernel's id)."""
RAN = re.compile(re.escape(READY).replace("%s", r"(\S+?)") + "$")
"""The classroom's line when a kernel kept ready has run its notebook (notebook, kernel)."""
CULLED = re.compile(r"Culling '(\w+)' kernel \S+ \(([0-9a-f-]{36})\) with (\d+) connections "
                    r"due to (\d+) seconds of inactivity")
"""Jupyter Server's line when it culls a kernel (state, kernel, connections, idle seconds)."""
_ROUND = re.compile(r"clocked classroom: cull round (\d+) (begins|ends)$")


def logged_ids(server: Server, pattern: re.Pattern[str], group: int) -> set[str]:
    """The ``group`` of each line of the server's log that ``pattern`` finds."""
    return {found.group(group) for line in list(server.log)
            if (found := pattern.search(line.rstrip()))}


def kept_ready(server: Server) -> set[str]:
    """The kernels the server keeps ready: those that have run their notebook, and no page took.

    A page that finds no kernel ready has one started for it, which is not logged as either.
    """
    return logged_ids(server, RAN, 2) - logged_ids(server, TAKEN, 1)


def a_cull_round_after(server: Server, line: str, timeout: float = 120) -> None:
    """Wait until a server started with ``clock_step`` has logged ``line`` and then a whole
    cull round, begun after it (tests/clocked_classroom.py)."""
    deadline = time.monotonic() + timeout
    begun: str | None = None
    while True:
        log = list(server.log)
        after = [i for i, said in enumerate(log) if line in said]
        for said in log[after[-1] + 1:] if after else []:
            found = _ROUND.search(said.rstrip())
            if found and begun is None and found.group(2) == "begins":
                begun = found.group(1)
            elif found and found.group(1) == begun:
                return
        begun = None
        assert time.monotonic() < deadline, "".join(server.log[-30:])
        time.sleep(0.2)


def page_cookie(base: str) -> str:
    """A ``Cookie`` header with the page's cookie of the server at ``base``, as a browser holds it.

    The server gives a kernel only to a joined student or a browser holding
    that cookie; a request without either gets the cookie and a short page.
    """
    with urllib.request.urlopen(base + "voila/render/forced-ace.ipynb", timeout=60) as reply:
        for header in reply.headers.get_all("Set-Cookie") or []:
            if header.startswith(f"{PAGE_COOKIE}="):
                return str(header.split(";")[0])
    raise RuntimeError("the classroom server gave no page cookie")


def wait_for_lines(server: Server, line: str, count: int = 1) -> None:
    """Wait until the server has logged ``count`` lines holding ``line``.

    What the server logs reaches ``server.log`` through a pipe and a thread of
    this process, after the reply to the request that made it may have come.
    """
    deadline = time.monotonic() + 120
    while sum(line in said for said in list(server.log)) < count:
        assert time.monotonic() < deadline, "".join(server.log[-30:])
        time.sleep(0.2)


_TEACHER = re.compile(r"Teacher's page \(keep this address to yourself\): (http://\S+)")


def teacher_url(server: Server) -> str:
    """The address of the teacher's page, with its token, as the server printed it."""
    for line in server.log:
        found = _TEACHER.search(line)
        if found:
            return found.group(1)
    raise RuntimeError("the classroom server printed no teacher's page")


def issue_key(folder: Path) -> bytes:
    """The key a class kept in ``folder`` gives its kernels to sign the exercises they issue."""
    import sqlite3

    db = sqlite3.connect(folder / "class.sqlite3")
    try:
        return bytes.fromhex(db.execute(
            "SELECT value FROM class_settings WHERE key = 'issue_key'").fetchone()[0])
    finally:
        db.close()


def issued(report: dict[str, Any], key: bytes, variant: str = "test-variant",
           shown: bool = False) -> dict[str, Any]:
    """``report`` as a page of the class sends it: with the variant and the kernel's ticket."""
    from loo_tutor.teaching.issued import ticket

    return {**report, "variant": variant, "shown": shown,
            "issued": ticket(key, variant, report["kind"], report["seed"], shown)}


def stop(server: Server) -> int | None:
    """Stop the server (SIGTERM, then SIGKILL after 30 s); returns its exit status."""
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)
    return server.process.returncode


def _kernel_processes(server: Server) -> list[psutil.Process]:
    try:
        children = psutil.Process(server.process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    found = []
    for child in children:
        try:
            if KERNEL_MARK.search(" ".join(child.cmdline())):
                found.append(child)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def _is_warm_parent(process: psutil.Process, server: Server) -> bool:
    return process.ppid() == server.process.pid and "--warm" in process.cmdline()


def kernels(server: Server) -> list[psutil.Process]:
    """The kernel processes the server has started and that are still running.

    The kernels forked from the classroom's warm parent have its command
    line; the warm parent itself, the server's child, is not a kernel.
    """
    found = []
    for process in _kernel_processes(server):
        try:
            if not _is_warm_parent(process, server):
                found.append(process)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


def warm_parent(server: Server) -> psutil.Process | None:
    """The classroom's warm parent, which forks the kernels, when it runs."""
    for process in _kernel_processes(server):
        try:
            if _is_warm_parent(process, server):
                return process
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return None


_KERNEL_FILE = re.compile(r"kernel-([0-9a-f-]{36})(?:\.json$|-ipc)")


def ids_of(kernel: psutil.Process) -> set[str]:
    """The id of a kernel process, read from its connection file's name (a kernel started
    with its own command line) or from its sockets' names (a kernel forked); empty while
    it starts, or once it has ended."""
    try:
        names = [*kernel.cmdline(), *(str(c.laddr) for c in kernel.net_connections(kind="unix"))]
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return set()
    return {named.group(1) for name in names if (named := _KERNEL_FILE.search(name))}


def kernel_ids(server: Server) -> set[str]:
    """The ids of the kernels still running."""
    return {kernel_id for kernel in kernels(server) for kernel_id in ids_of(kernel)}


def listening_addresses(server: Server) -> set[str]:
    """The addresses the server's own process listens on."""
    try:
        connections = psutil.Process(server.process.pid).net_connections(kind="inet")
    except psutil.NoSuchProcess:
        return set()
    return {c.laddr.ip for c in connections if c.status == psutil.CONN_LISTEN}


def wait_for_kernels(server: Server, count: int, timeout: float, at_most: bool = False) -> float:
    """Wait until the server runs ``count`` kernels (or at most ``count``); returns the seconds."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        running = len(kernels(server))
        if running == count or (at_most and running <= count):
            return time.monotonic() - started
        time.sleep(0.5)
    raise TimeoutError(f"{len(kernels(server))} kernels running after {timeout:.0f} s, "
                       f"not {'at most ' if at_most else ''}{count}")


# -- a class at work -------------------------------------------------------------------


def check_cards(page: Any, cards: list[str]) -> None:
    """On a joined student's exercises page: tick ``cards`` in Exercise 1, check, and wait
    until the page's bar says every answer checked is kept."""
    widget = page.locator(".loo-exercise").filter(has_text="Exercise 1:")
    for card in cards:
        widget.locator(".widget-checkbox", has_text=card).locator(
            'input[type="checkbox"]').check()
    widget.locator("button", has_text="Check").first.click()
    widget.locator(".loo-summary").wait_for(timeout=30_000)
    page.locator('.loo-class-bar[data-loo-kept="all"]').wait_for(timeout=30_000)


PAGE = "voila/render/forced-ace.ipynb"
TRAINER = "You are A."
MB = 1024 * 1024
THINK_MS = 400

# Click ``button`` and resolve with the milliseconds until the server's answer
# changes the widget: only the kernel writes into the widget's HTML parts, so
# the first change there is the reply (the button's own focus and press
# styling are attributes of the button, which are not watched).
_CLICK = """(button) => new Promise((resolve) => {
  const widget = button.isConnected && button.closest(".loo-widget");
  if (!widget) { resolve(-2); return; }
  const parts = widget.querySelectorAll(".widget-html, .widget-hbox");
  const started = performance.now();
  const observer = new MutationObserver(() => {
    observer.disconnect();
    resolve(performance.now() - started);
  });
  for (const part of parts) {
    observer.observe(part, {subtree: true, childList: true, characterData: true});
  }
  setTimeout(() => { observer.disconnect(); resolve(-1); }, 20000);
  button.click();
})"""


@dataclass
class Load:
    """What a class of simulated students did and what it cost.

    ``click_at`` holds the moment (``time.monotonic``) of each click timed in
    ``click_ms``, and ``open_spans`` when each page was opened and went live,
    so that slow clicks can be matched with pages opening.
    """

    sessions: int = 0
    live: int = 0
    finished: int = 0
    open_s: list[float] = field(default_factory=list)
    click_ms: list[float] = field(default_factory=list)
    click_at: list[float] = field(default_factory=list)
    open_spans: list[tuple[float, float]] = field(default_factory=list)
    unanswered: int = 0
    errors: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    kernel_rss_mb: list[float] = field(default_factory=list)
    kernel_uss_mb: list[float] = field(default_factory=list)
    peak_kernels: int = 0
    peak_kernel_mb: float = 0.0
    peak_total_mb: float = 0.0
    ready_kernels: int = 0
    before_total_mb: float = 0.0
    culled_s: float | None = None
    kernels_left: int = 0
    cpu_s: dict[str, float] = field(default_factory=dict)


def total_mb(server: Server) -> float:
    """The resident memory of the server and all its kernels."""
    total = 0.0
    for process in [psutil.Process(server.process.pid), *kernels(server)]:
        try:
            total += process.memory_info().rss / MB
        except psutil.NoSuchProcess:
            continue
    return total


def wait_until_quiet(server: Server, timeout: float) -> None:
    """Wait until the server and its kernels use under a tenth of a core (the pool is ready)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        processes = [psutil.Process(server.process.pid), *kernels(server)]
        for process in processes:
            process.cpu_percent(None)
        time.sleep(1.0)  # the second over which their use of the processor is measured
        busy = 0.0
        for process in processes:
            try:
                busy += process.cpu_percent(None)
            except psutil.NoSuchProcess:
                continue
        if busy < 10:
            return


class Sampler:
    """Samples the server, its kernels and the browser twice a second.

    Keeps the memory peaks, and the processor time each group used while it
    ran (``load.cpu_s``: "server", "kernels" and "browser", the last counting
    Playwright's driver; a process's last half second before it ends can be
    missed).
    """

    def __init__(self, server: Server, load: Load) -> None:
        self.server, self.load = server, load
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start_cpu: dict[int, float] = {}
        self._cpu: dict[int, tuple[str, float]] = {}

    def __enter__(self) -> Sampler:
        for _, process in self._groups():
            self._start_cpu[process.pid] = _cpu_s(process)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._note_cpu()
        used: dict[str, float] = {"server": 0.0, "kernels": 0.0, "browser": 0.0}
        for pid, (group, seconds) in self._cpu.items():
            used[group] += max(0.0, seconds - self._start_cpu.get(pid, 0.0))
        self.load.cpu_s = used

    def _groups(self) -> list[tuple[str, psutil.Process]]:
        """Every process sampled, with its group."""
        try:
            main = psutil.Process(self.server.process.pid)
            server_tree = {main.pid, *(c.pid for c in main.children(recursive=True))}
            found = [("server", main)] + [("kernels", k) for k in kernels(self.server)]
        except psutil.NoSuchProcess:
            return []
        for child in psutil.Process().children(recursive=True):
            if child.pid not in server_tree:
                found.append(("browser", child))
        return found

    def _note_cpu(self) -> None:
        for group, process in self._groups():
            seconds = _cpu_s(process)
            if seconds >= 0:
                self._cpu[process.pid] = (group, seconds)

    def _run(self) -> None:
        while not self._stop.wait(0.5):
            self._note_cpu()
            running = kernels(self.server)
            total = 0.0
            try:
                total = psutil.Process(self.server.process.pid).memory_info().rss / MB
            except psutil.NoSuchProcess:
                return
            for kernel in running:
                try:
                    rss = kernel.memory_info().rss / MB
                except psutil.NoSuchProcess:
                    continue
                total += rss
                self.load.peak_kernel_mb = max(self.load.peak_kernel_mb, rss)
            self.load.peak_kernels = max(self.load.peak_kernels, len(running))
            self.load.peak_total_mb = max(self.load.peak_total_mb, total)


def _cpu_s(process: psutil.Process) -> float:
    """The processor time ``process`` has used so far, or -1 once it has ended."""
    try:
        times = process.cpu_times()
    except psutil.NoSuchProcess:
        return -1.0
    return float(times.user + times.system)


def measure_kernels(server: Server, load: Load) -> None:
    """Note each kernel's resident and unique memory (what stopping it would free)."""
    for kernel in kernels(server):
        try:
            info = kernel.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        load.kernel_rss_mb.append(info.rss / MB)
        load.kernel_uss_mb.append(info.uss / MB)


async def student(browser: object, base: str, load: Load, rounds: int, arrive: float) -> object:
    """One student: opens the forced-ace app and plays A's cards, ``rounds`` times over.

    Each round tries A's 7♥ first (refused under R-LEAD-ACE), then plays a
    card the trainer outlines as legal until the deal is over, then resets.
    Returns the browser context, still open, so that the page stays
    connected until the caller closes it. The student arrives ``arrive``
    seconds after the start.
    """
    import asyncio
    from urllib.parse import urlsplit

    await asyncio.sleep(arrive)  # the class arrives over a while, as the simulation asks
    context = await browser.new_context(viewport={"width": 1280, "height": 1000})  # type: ignore[attr-defined]
    here = urlsplit(base).netloc
    context.on("request", lambda r: load.outside.append(r.url)
               if urlsplit(r.url).netloc not in (here, "") else None)
    page = await context.new_page()
    page.on("console", lambda m: load.errors.append(f"console: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: load.errors.append(f"page error: {e}"))
    started = time.monotonic()
    await page.goto(base + PAGE, timeout=300_000)
    trainer = page.locator(".loo-widget").filter(has_text=TRAINER)
    await trainer.locator("button", has_text="7♥").wait_for(timeout=180_000)
    load.open_s.append(time.monotonic() - started)
    load.open_spans.append((started, time.monotonic()))
    load.live += 1

    async def click(button: object) -> None:
        clicked_at = time.monotonic()
        waited = await button.evaluate(_CLICK)  # type: ignore[attr-defined]
        if waited == -1:
            load.unanswered += 1
        elif waited >= 0:
            load.click_ms.append(waited)
            load.click_at.append(clicked_at)
        await page.wait_for_timeout(THINK_MS)  # a student reads: the class's simulated pace

    await click(await trainer.locator("input[type=checkbox]").element_handle())  # outline legal
    for number in range(rounds):
        await click(await trainer.locator("button", has_text="7♥").element_handle())
        for _ in range(3):
            legal = trainer.locator("button.loo-lit:not([disabled])")
            if await legal.count() == 0:
                break
            await click(await legal.first.element_handle())
        if number + 1 < rounds:
            await click(await trainer.locator("button", has_text="Reset").element_handle())
    if "The deal is over." in await trainer.inner_text():
        load.finished += 1
    return context


async def run_class(base: str, server: Server, sessions: int, rounds: int, stagger: float,
                    load: Load, executable: str, flags: list[str]) -> None:
    """Open ``sessions`` pages at once, play, measure the kernels, then leave without a word."""
    import asyncio

    from playwright.async_api import async_playwright

    load.sessions = sessions
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, args=flags)
        try:
            results = await asyncio.gather(
                *(student(browser, base, load, rounds, n * stagger) for n in range(sessions)),
                return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException):
                    load.errors.append(f"a session failed: {type(result).__name__}: "
                                       + str(result).splitlines()[0])
            measure_kernels(server, load)
            contexts = [r for r in results if not isinstance(r, BaseException)]
            # Closing a context skips the page's beforeunload handler, so Voila is
            # not told the page went: as when a laptop lid is shut. Only culling
            # can stop those kernels.
            for context in contexts:
                await context.close()  # type: ignore[attr-defined]
        finally:
            await browser.close()


def class_at_work(server: Server, sessions: int, rounds: int, cull_wait: float,
                  executable: str, flags: list[str], stagger: float = 0.0,
                  after_class: Callable[[], None] | None = None) -> Load:
    """Run a class against ``server`` and then wait for its idle kernels to be culled.

    The students arrive ``stagger`` seconds apart; all stay until the last is
    done. ``after_class`` is called once they have gone, before the wait.
    """
    import asyncio

    load = Load()
    load.ready_kernels = len(kernels(server))
    load.before_total_mb = total_mb(server)
    failure: list[BaseException] = []

    def students() -> None:
        # A loop of its own, in a thread of its own: an earlier test in the same
        # process (Playwright's sync API) may still own this thread's loop.
        try:
            asyncio.run(run_class(server.url, server, sessions, rounds, stagger, load,
                                  executable, flags))
        except BaseException as exc:  # handed back to the caller below
            failure.append(exc)

    with Sampler(server, load):
        worker = threading.Thread(target=students, name="classroom-students")
        worker.start()
        worker.join()
    if failure:
        raise failure[0]
    if after_class is not None:
        after_class()
    left_at = time.monotonic()
    try:
        wait_for_kernels(server, load.ready_kernels, cull_wait, at_most=True)
        load.culled_s = time.monotonic() - left_at
    except TimeoutError:
        load.culled_s = None
    load.kernels_left = len(kernels(server))
    return load


_T = TypeVar("_T")


def in_a_loop_of_its_own(work: Coroutine[Any, Any, _T]) -> _T:
    """``asyncio.run(work)`` in another thread: a browser kept for the session runs a loop in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, work).result()
