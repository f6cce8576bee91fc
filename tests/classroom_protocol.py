"""Students without a browser: the classroom page's own protocol, spoken from Python.

A :class:`Student` does what the light page (``classroom_page/src``) does,
message for message: it fetches the app's page over HTTP, reads the
kernel's id from the page's ``jupyter-config-data``, opens the kernel's
websocket in the ``v1.kernel.websocket.jupyter.org`` form, asks the
widgets' control comm for every widget's state (``request_states``), and
then presses the trainer's cards as the widgets' buttons do (a comm
message ``{"method": "custom", "content": {"event": "click"}}``) and ticks
its check box (``{"method": "update", "state": {"value": true}}``). It keeps
each widget's state up to date from the kernel's ``update`` messages, so it
sees the cards the trainer outlines as legal, as a student would.

A click is timed from the message sent to the kernel saying it is idle
again after it (the whole answer has arrived). Hundreds of students fit in
one process on one core, so the machine's cores go to the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import struct
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

from loo_tutor.apps.classroom.admission import PAGE_COOKIE

SUBPROTOCOL = "v1.kernel.websocket.jupyter.org"
CONTROL_TARGET = "jupyter.widget.control"
PROTOCOL = "5.3"
_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">\s*(.*?)\s*</script>',
                     re.S)
_REF = "IPY_MODEL_"


def pack(msg: dict[str, Any]) -> bytes:
    """``msg`` as one binary frame: the count of parts, their offsets, then the parts."""
    parts = [msg["channel"].encode()] + [json.dumps(msg[key]).encode() for key in
                                          ("header", "parent_header", "metadata", "content")]
    count = len(parts) + 1
    offsets = [8 * (1 + count)]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return struct.pack(f"<{count + 1}Q", count, *offsets) + b"".join(parts)


def unpack(frame: bytes) -> dict[str, Any]:
    """The message in ``frame`` (buffers are left out: the trainer sends none)."""
    (count,) = struct.unpack_from("<Q", frame)
    offsets = struct.unpack_from(f"<{count}Q", frame, 8)

    def part(i: int) -> bytes:
        return frame[offsets[i]:offsets[i + 1]]

    msg: dict[str, Any] = {"channel": part(0).decode()}
    for i, key in enumerate(("header", "parent_header", "metadata", "content"), start=1):
        msg[key] = json.loads(part(i))
    return msg


class PageError(Exception):
    """The page did not come alive, or a message could not be sent; the text says why."""


@dataclass
class Student:
    """One student's page: its kernel connection and the widgets' state it holds."""

    base: str
    page: str
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    kernel_id: str = ""
    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    socket: WebSocketClientConnection | None = None
    _waiting: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    _reader: asyncio.Task[None] | None = None
    closed: str | None = None
    xsrf: str = ""
    cookies: dict[str, str] = field(default_factory=dict)
    """The browser's cookies (a joined student's ``loo-student`` among them)."""
    _config: dict[str, Any] = field(default_factory=dict)
    """The page's ``jupyter-config-data``."""

    def _cookie_header(self) -> dict[str, str]:
        return ({"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
                if self.cookies else {})

    async def _fetch_page(self, timeout: float) -> str:
        try:
            reply = await AsyncHTTPClient().fetch(HTTPRequest(
                self.base + self.page, request_timeout=timeout, connect_timeout=timeout,
                headers=self._cookie_header()))
        except HTTPClientError as exc:
            if exc.code == 599:  # Tornado's own code: no answer, or none in time
                raise PageError(f"no page within {timeout:g} s") from exc
            raise PageError(f"the page answered {exc.code}") from exc
        for cookie in reply.headers.get_list("Set-Cookie"):
            name, _, value = cookie.split(";")[0].partition("=")
            self.cookies[name] = value
        self.xsrf = self.cookies.get("_xsrf", "")
        return str(reply.body.decode())

    async def open(self, timeout: float) -> str:
        """Fetch the page, connect to its kernel and load every widget; returns the page's HTML."""
        html = await self.take(timeout)
        await self.connect(timeout)
        return html

    async def take(self, timeout: float) -> str:
        """Fetch the page, which takes a kernel for it, without connecting; returns the page's HTML.

        As a browser does, the page is asked for again once the server has given the
        page's cookie (the first time, it sends no kernel).
        """
        html = await self._fetch_page(timeout)
        found = _CONFIG.search(html)
        if not found and PAGE_COOKIE in self.cookies:
            html = await self._fetch_page(timeout)
            found = _CONFIG.search(html)
        if not found:
            raise PageError("the page holds no kernel")
        self._config = json.loads(found.group(1))
        self.kernel_id = self._config["kernelId"]
        return html

    async def connect(self, timeout: float) -> None:
        """Connect to the kernel of the page :meth:`take` fetched, and load every widget."""
        if not self._config:
            raise PageError("no page was taken to connect to")
        config = self._config
        where = urlsplit(self.base)
        query = urlencode({"session_id": self.session})
        url = (f"ws://{where.netloc}{config['baseUrl']}api/kernels/{self.kernel_id}/channels?"
               f"{query}")
        self.socket = await asyncio.wait_for(
            websocket_connect(HTTPRequest(url, headers=self._cookie_header()),
                              subprotocols=[SUBPROTOCOL]), timeout)
        self._reader = asyncio.create_task(self._read())
        control = uuid.uuid4().hex
        answer = self._expect(("comm", control))
        self._send("comm_open", {"comm_id": control, "target_name": CONTROL_TARGET, "data": {}},
                   metadata={"version": "1.0.0"})
        self._send("comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
        states = await asyncio.wait_for(answer, timeout)
        self._send("comm_close", {"comm_id": control, "data": {}})
        for model_id, model in states["content"]["data"]["states"].items():
            self.models[model_id] = dict(model["state"])

    async def leave(self) -> None:
        """Close the page as a browser does: the server is asked to stop its kernel."""
        if self.kernel_id and self.xsrf:
            with contextlib.suppress(HTTPClientError, OSError):
                await AsyncHTTPClient().fetch(HTTPRequest(
                    f"{self.base}voila/api/shutdown/{self.kernel_id}", method="POST",
                    body=urlencode({"_xsrf": self.xsrf}),
                    headers={"Cookie": f"_xsrf={self.xsrf}"}))
        self.close()

    def close(self) -> None:
        """Drop the connection without a word, as a laptop shut."""
        if self.socket is not None:
            self.socket.close()
        if self._reader is not None:
            self._reader.cancel()

    # -- the widgets -------------------------------------------------------------------

    def descendants(self, model_id: str) -> Iterator[str]:
        """``model_id`` and every widget inside it (through ``children`` and single references)."""
        seen: set[str] = set()
        todo = [model_id]
        while todo:
            current = todo.pop()
            if current in seen or current not in self.models:
                continue
            seen.add(current)
            yield current
            for value in self.models[current].values():
                refs = value if isinstance(value, list) else [value]
                todo.extend(ref[len(_REF):] for ref in refs
                            if isinstance(ref, str) and ref.startswith(_REF))

    def widget_with(self, text: str) -> str | None:
        """The outermost loo-tutor widget that holds an HTML part containing ``text``."""
        for model_id, state in self.models.items():
            if "loo-widget" not in state.get("_dom_classes", ()):
                continue
            if any(text in str(self.models[part].get("value", ""))
                   for part in self.descendants(model_id)):
                return model_id
        return None

    def controls(self, root: str, model: str) -> list[tuple[str, dict[str, Any]]]:
        """The widgets of kind ``model`` (e.g. ``ButtonModel``) inside ``root``."""
        return [(part, self.models[part]) for part in self.descendants(root)
                if self.models[part].get("_model_name") == model]

    def text(self, root: str) -> str:
        """Every HTML value inside ``root``, joined."""
        return "\n".join(str(self.models[part].get("value", "")) for part in self.descendants(root)
                         if self.models[part].get("_model_name") == "HTMLModel")

    async def click(self, model_id: str, timeout: float) -> float:
        """Press the button ``model_id``; returns the milliseconds until the kernel has answered."""
        return await self._ask(model_id, {"method": "custom", "content": {"event": "click"}},
                               timeout)

    async def set_value(self, model_id: str, value: Any, timeout: float) -> float:
        """Set the control ``model_id`` to ``value``, as the page does; returns the milliseconds."""
        self.models[model_id]["value"] = value
        return await self._ask(model_id, {"method": "update", "state": {"value": value},
                                          "buffer_paths": []}, timeout)

    # -- messages ----------------------------------------------------------------------

    async def _ask(self, model_id: str, data: dict[str, Any], timeout: float) -> float:
        started = time.perf_counter()
        msg_id = self._send("comm_msg", {"comm_id": model_id, "data": data})
        await asyncio.wait_for(self._expect(("idle", msg_id)), timeout)
        return (time.perf_counter() - started) * 1000

    def _expect(self, key: tuple[str, str]) -> asyncio.Future[dict[str, Any]]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[f"{key[0]}:{key[1]}"] = future
        return future

    def _send(self, msg_type: str, content: dict[str, Any],
              metadata: dict[str, Any] | None = None) -> str:
        if self.socket is None or self.closed:
            raise PageError(f"the connection is closed ({self.closed})")
        msg_id = uuid.uuid4().hex
        header = {"msg_id": msg_id, "msg_type": msg_type, "session": self.session,
                  "username": "", "date": "", "version": PROTOCOL}
        self.socket.write_message(pack({"channel": "shell", "header": header, "parent_header": {},
                                        "metadata": metadata or {}, "content": content}),
                                  binary=True)
        return msg_id

    def _resolve(self, key: str, msg: dict[str, Any]) -> None:
        future = self._waiting.pop(key, None)
        if future is not None and not future.done():
            future.set_result(msg)

    async def _read(self) -> None:
        assert self.socket is not None
        while True:
            frame = await self.socket.read_message()
            if frame is None:
                self.closed = f"closed by the server ({self.socket.close_code})"
                for future in self._waiting.values():
                    if not future.done():
                        future.set_exception(PageError(self.closed))
                self._waiting.clear()
                return
            if isinstance(frame, str):
                continue
            msg = unpack(frame)
            if msg["channel"] != "iopub":
                continue
            kind = msg["header"]["msg_type"]
            content = msg["content"]
            parent = msg["parent_header"].get("msg_id", "")
            if kind == "status" and content.get("execution_state") == "idle":
                self._resolve(f"idle:{parent}", msg)
            elif kind == "comm_msg":
                data = content.get("data", {})
                if data.get("method") == "update" and content["comm_id"] in self.models:
                    self.models[content["comm_id"]].update(data.get("state", {}))
                self._resolve(f"comm:{content['comm_id']}", msg)
            elif kind == "comm_open":
                self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
            elif kind == "comm_close":
                self.models.pop(content["comm_id"], None)


# -- a class of them -------------------------------------------------------------------

PAGE = "voila/render/forced-ace.ipynb"
TRAINER = "You are A."
ANSWER_S = 20.0


@dataclass
class Crowd:
    """What a class of protocol students did: per student and per click."""

    students: int = 0
    live: int = 0
    finished: int = 0
    open_s: list[float] = field(default_factory=list)
    click_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    settled: int = 0


async def play(student: Student, crowd: Crowd, rounds: int, think_s: float) -> None:
    """Tick the trainer's highlight, then ``rounds`` deals: 7♥ (refused), the lit cards, Reset."""
    root = student.widget_with(TRAINER)
    if root is None:
        raise PageError("the page has no trainer")

    async def press(model_id: str) -> None:
        crowd.click_ms.append(await student.click(model_id, ANSWER_S))
        await asyncio.sleep(think_s)  # the student thinks: the pace of the class simulated

    def button(label: str) -> str | None:
        return next((part for part, state in student.controls(root, "ButtonModel")
                     if state.get("description") == label and not state.get("disabled")), None)

    (box, _), = student.controls(root, "CheckboxModel")
    crowd.click_ms.append(await student.set_value(box, True, ANSWER_S))
    await asyncio.sleep(think_s)  # the student thinks
    for number in range(rounds):
        seven = button("7♥")
        if seven is None:
            raise PageError("the trainer shows no 7♥")
        await press(seven)
        for _ in range(3):
            lit = [part for part, state in student.controls(root, "ButtonModel")
                   if "loo-lit" in state.get("_dom_classes", ()) and not state.get("disabled")]
            if not lit:
                break
            await press(lit[0])
        if number + 1 < rounds:
            reset = button("Reset")
            if reset is None:
                raise PageError("the trainer shows no Reset")
            await press(reset)
    if "The deal is over." in student.text(root):
        crowd.finished += 1


async def attend(base: str, crowd: Crowd, rounds: int, arrive_s: float, think_s: float,
                 timeout: float, settled: Callable[[], None], leave: asyncio.Event) -> None:
    """One student: arrives after ``arrive_s``, opens the app, plays, stays until ``leave``.

    ``settled`` is called once the student has played or failed.
    """
    await asyncio.sleep(arrive_s)  # the class arrives over a while, as the simulation asks
    student = Student(base, PAGE)
    started = time.monotonic()
    doing = "opening the page"
    try:
        await student.open(timeout)
        crowd.open_s.append(time.monotonic() - started)
        crowd.live += 1
        doing = "playing"
        await play(student, crowd, rounds, think_s)
        settled()
        await leave.wait()
    except (PageError, OSError, asyncio.TimeoutError) as exc:
        settled()
        why = str(exc).splitlines()[0] if str(exc) else "no answer in time"
        crowd.errors.append(f"{doing}: {why}")
    except Exception as exc:  # anything else is counted too, so that the class ends
        crowd.settled += 1
        crowd.errors.append(f"{doing}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await student.leave()


async def run_crowd(base: str, students: int, rounds: int, stagger_s: float, think_s: float,
                    timeout: float, crowd: Crowd,
                    when_full: Callable[[], None] | None = None) -> None:
    """``students`` students arriving ``stagger_s`` apart; all leave once every one is done.

    ``when_full``, when given, is called once every student has played or
    failed (before they leave), so that the caller can measure the kernels
    of a full class.
    """
    AsyncHTTPClient.configure(None, max_clients=max(10, students))
    crowd.students = students
    leave = asyncio.Event()
    everyone = asyncio.Event()
    if not students:
        everyone.set()

    def one_settled() -> None:
        crowd.settled += 1
        if crowd.settled == students:
            everyone.set()

    tasks = [asyncio.create_task(attend(base, crowd, rounds, n * stagger_s, think_s, timeout,
                                        one_settled, leave))
             for n in range(students)]
    # Every student's steps have their own time limits; a task that ends
    # before ``leave`` failed in a way not foreseen, which gather raises below.
    waiting = asyncio.create_task(everyone.wait())
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    waiting.cancel()
    if when_full is not None:
        when_full()
    leave.set()
    await asyncio.gather(*tasks)
