"""The classroom server's security settings, checked against a running server.

``loo-tutor classroom`` serves notebooks with Voila 0.5. Voila runs each
notebook on the server when its page is opened and hides the code; the page
then talks to its kernel over a websocket (``/api/kernels/<id>/channels``),
which anyone who can reach the port and read a kernel id from a page could
use too. Voila 0.5.13 gives its kernel manager a list of the messages that
websocket may carry (comm messages, kernel and comm info, shutdown) and
drops the rest. These tests speak the kernel protocol over that websocket
as a browser would, so that a Voila release that loosened this would fail
them, and check that

* an ``execute_request`` (and ``inspect``/``complete`` requests) get no answer
  and run nothing, while the widgets' own messages are answered on the same
  socket;
* no notebook source reaches the browser: not in the page, not from the
  files or contents routes, and Voila's route that runs cells sent by the
  page does not exist;
* the server listens on 127.0.0.1 only, unless told otherwise (and then a
  token is required: ``test_classroom.py``).
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from loo_tutor.apps.classroom import server as classroom

from classroom_server import (
    Server,
    kernel_ids,
    listening_addresses,
    page_cookie,
    serving,
)

ANSWER_TIMEOUT = 20.0
SILENCE = 4.0


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serving("--pool-size", "0") as running:
        yield running


def _open_page(base: str, notebook: str = "forced-ace.ipynb") -> tuple[str, str]:
    """Open a notebook's page as a browser would; returns its HTML and its kernel's id."""
    with urllib.request.urlopen(urllib.request.Request(
            f"{base}voila/render/{notebook}", headers={"Cookie": page_cookie(base)}),
            timeout=120) as reply:
        page = reply.read().decode("utf-8")
    found = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page) or \
        re.search(r"kernel[_-]?[iI]d[\"']?\s*[:=]\s*[\"']([0-9a-f-]{36})", page)
    assert found, "the page names no kernel"
    return page, found.group(1)


def _message(msg_type: str, content: dict[str, Any], channel: str = "shell") -> dict[str, Any]:
    return {"channel": channel, "header": {
        "msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
        "session": uuid.uuid4().hex, "date": "2026-01-01T00:00:00Z", "version": "5.3"},
        "parent_header": {}, "metadata": {}, "content": content, "buffers": []}


def _replies(socket: Any, wanted: set[str], seconds: float) -> list[dict[str, Any]]:
    """The messages answering ``wanted`` ids that arrive within ``seconds``."""
    found = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            raw = socket.recv(timeout=max(0.05, deadline - time.monotonic()))
        except TimeoutError:
            break
        if isinstance(raw, bytes):
            continue  # binary frames carry widget buffers
        message = json.loads(raw)
        if message.get("parent_header", {}).get("msg_id") in wanted:
            found.append(message)
    return found


def _try_to_execute(base: str, kernel: str, marker: Path) -> tuple[list[str], list[str]]:
    """Send the kernel code to run and a widget query; returns the types answered to each."""
    url = base.replace("http://", "ws://") + f"api/kernels/{kernel}/channels?session_id=" \
        + uuid.uuid4().hex
    code = f"open({str(marker)!r}, 'w').write('ran')"
    with connect(url, open_timeout=30, max_size=None) as socket:
        asks = [_message("execute_request", {"code": code, "silent": False,
                                             "store_history": False, "user_expressions": {},
                                             "allow_stdin": False, "stop_on_error": True}),
                _message("inspect_request", {"code": "open", "cursor_pos": 4,
                                             "detail_level": 1}),
                _message("complete_request", {"code": "import o", "cursor_pos": 8})]
        widget = _message("comm_info_request", {"target_name": "jupyter.widget"})
        for ask in asks:
            socket.send(json.dumps(ask))
        socket.send(json.dumps(widget))
        ids = {a["header"]["msg_id"] for a in asks}
        wanted = ids | {widget["header"]["msg_id"]}
        seen = _replies(socket, wanted, SILENCE)
        if not any(m["parent_header"]["msg_id"] == widget["header"]["msg_id"] for m in seen):
            seen += _replies(socket, wanted, ANSWER_TIMEOUT)
    to_code = [m["msg_type"] for m in seen if m["parent_header"]["msg_id"] in ids]
    to_widget = [m["msg_type"] for m in seen if m["parent_header"]["msg_id"] not in ids]
    return to_code, to_widget


def test_code_sent_over_the_kernel_websocket_is_not_run(server: Server, tmp_path: Path) -> None:
    _, kernel = _open_page(server.url)
    marker = tmp_path / "ran.txt"
    to_code, to_widget = _try_to_execute(server.url, kernel, marker)
    assert "comm_info_reply" in to_widget, "the widgets' own request should be answered"
    assert to_code == [], f"the kernel answered requests it should never get: {to_code}"
    # Nothing to wait for: code that did run would write the file within this second.
    time.sleep(1)
    assert not marker.exists(), "code sent by the browser ran on the server"


def test_no_source_reaches_the_browser(server: Server) -> None:
    page, kernel = _open_page(server.url)
    source = Path(__file__).resolve().parents[2] / "notebooks" / "forced-ace.ipynb"
    cells = [("".join(c["source"])) for c in json.loads(source.read_text())["cells"]
             if c["cell_type"] == "code"]
    assert cells and all(line.strip() not in page for cell in cells for line in cell.splitlines()
                         if line.strip()), "a line of the notebook's code is in the page"
    # Markdown cells are shown; no code cell's input area or prompt is.
    assert not re.search(r'class="[^"]*\b(jp-InputPrompt|jp-CodeMirrorEditor|hl-ipython3)', page)
    refused = []
    for path in ("voila/files/forced-ace.ipynb", "voila/api/contents/forced-ace.ipynb?content=1",
                 f"voila/execution/{kernel}", "api/contents/forced-ace.ipynb",
                 "voila/files/../notebooks/forced-ace.ipynb"):
        try:
            with urllib.request.urlopen(server.url + path, timeout=30) as reply:
                body = reply.read().decode("utf-8", "replace")
            if "PlayTrainer" in body or '"source"' in body:
                refused.append(f"{path} shows the source")
            if path.startswith("voila/api/contents"):
                assert json.loads(body)["content"] is None
        except urllib.error.HTTPError as exc:
            assert exc.code in (403, 404, 405), (path, exc.code)
    assert not refused, refused


def test_a_kernel_is_stopped_only_with_the_pages_xsrf_token(server: Server) -> None:
    """Another site's page cannot stop a student's kernel: the request needs the token
    of the ``_xsrf`` cookie that the server gave the page, in the cookie and in the form."""
    cookies = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    browser.open(f"{server.url}voila/render/forced-ace.ipynb", timeout=120).close()  # a cookie
    with browser.open(f"{server.url}voila/render/forced-ace.ipynb", timeout=120) as reply:
        page = reply.read().decode("utf-8")
    kernel = re.search(r'"kernelId":\s*"([0-9a-f-]{36})"', page)
    assert kernel, "the page names no kernel"
    xsrf = [c.value for c in cookies if c.name == "_xsrf"]
    assert xsrf, "the page came without its XSRF cookie"
    shutdown = f"{server.url}voila/api/shutdown/{kernel.group(1)}"
    stranger = urllib.request.build_opener()  # no cookie
    for opener, form in ((browser, b""), (stranger, b"_xsrf=" + xsrf[0].encode()),
                         (browser, b"_xsrf=2|00000000|" + b"0" * 32 + b"|1")):
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(urllib.request.Request(shutdown, data=form, method="POST"), timeout=30)
        assert refused.value.code == 403
    assert kernel.group(1) in kernel_ids(server)
    with browser.open(urllib.request.Request(shutdown, data=b"_xsrf=" + xsrf[0].encode(),
                                             method="POST"), timeout=30) as reply:
        assert reply.status == 204
    deadline = time.monotonic() + 30
    while kernel.group(1) in kernel_ids(server) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert kernel.group(1) not in kernel_ids(server)


def test_listens_on_this_machine_only_by_default(server: Server) -> None:
    assert listening_addresses(server) == {"127.0.0.1"}
    assert "token" not in server.url


def test_the_settings_hide_sources_and_run_no_cells_from_the_page() -> None:
    config = classroom.voila_config(classroom.Path("notebooks"), "127.0.0.1", 8866, None, 1, 20)
    assert config["VoilaConfiguration"]["strip_sources"] is True
    assert config["VoilaConfiguration"]["progressive_rendering"] is False
