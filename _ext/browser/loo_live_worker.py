"""The Python side of the live book pages, run by Pyodide.

It runs twice, in two places:

* **When the book is built**, Pyodide runs in Node (``scripts/vendor_pyodide.py``)
  and :func:`prepare` runs the code cells of every live page, each page in a
  namespace of its own, and returns the state of the widgets they make and
  which widget each cell shows. Pyodide's memory is then saved (a memory
  snapshot): it holds every page's widgets, made and waiting.
* **In the reader's browser**, the page's Web Worker starts Pyodide, afresh
  on a reader's first two visits and from that snapshot on later ones, calls
  :func:`start`, which runs the page's cells unless the snapshot holds its
  widgets, then :func:`connect` with the function that posts a message to
  the page. The page has already made its widget models from the state the
  build wrote into it, with the same ids: the page's messages to the
  widgets come to :func:`receive`, and the widgets' answers go back through
  their comms.

The widgets reach the page through the comms made here (``comm.create_comm``
is replaced, as the comm package intends), in Jupyter's message format. The
ids of the widgets a page's cells make are drawn from the page's name and
their order, so the same cells give the same ids in every build. Neither
IPython nor ipykernel runs here: ipywidgets only asks IPython whether a shell
is running (no) and for ``display``, which a small stand-in package beside
this module provides.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import json
import logging
import os
import random
import sys
import traceback
import uuid
import zipimport
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

import comm
import IPython.display
import ipywidgets
from comm.base_comm import BaseComm

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
Post = Callable[[str, list[memoryview]], None]

_post: Post | None = None
_parent: dict[str, Any] = {}
namespaces: dict[str, dict[str, Any]] = {}
"""The globals of each page's cells (by page name), as a notebook's are shared by its cells."""
_ids: Iterator[str] | None = None
"""While :func:`prepare` runs a page's cells: the ids its new widgets take."""
_shown: list[str] | None = None
"""While :func:`prepare` runs a page's cells: the ids of the widgets they show, in order."""


def _message(msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None,
             buffers: list[Any] | None = None) -> None:
    """Post one iopub message to the page, answering the page's message being handled."""
    if _post is None:
        raise RuntimeError("loo_live_worker.connect() was not called")
    message = {"channel": "iopub",
               "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type},
               "parent_header": _parent, "metadata": metadata or {}, "content": content}
    _post(json.dumps(message, default=str), [memoryview(b) for b in buffers or []])


class PageComm(BaseComm):
    """A widget's comm whose messages go to the page's widget manager."""

    def __init__(self, *args: Any, comm_id: str | None = None, **keys: Any) -> None:
        if comm_id is None and _ids is not None:
            comm_id = next(_ids)
        super().__init__(*args, comm_id=comm_id, **keys)

    def publish_msg(self, msg_type: str, data: dict[str, Any] | None = None,
                    metadata: dict[str, Any] | None = None, buffers: list[Any] | None = None,
                    **keys: Any) -> None:
        content = {"data": {} if data is None else data, "comm_id": self.comm_id, **keys}
        _message(msg_type, content, metadata, buffers)


class PageLog(logging.Handler):
    """Warnings and errors logged in Python, sent to the page as errors.

    ipywidgets catches an exception in a widget's callback or message
    handler and, with no IPython shell to show it, logs it; the page's
    console shows it as an error.
    """

    def emit(self, record: logging.LogRecord) -> None:
        if _post is not None:
            _message("error", {"ename": record.levelname, "evalue": record.getMessage(),
                               "traceback": self.format(record).splitlines()})


def show(value: Any) -> None:
    """Note ``value`` as shown by the cell running, if it is a widget and the cell's output is on the page."""
    represent = getattr(value, "_repr_mimebundle_", None)
    bundle = represent() if callable(represent) else None
    if _shown is not None and isinstance(bundle, dict) and WIDGET_VIEW in bundle:
        _shown.append(bundle[WIDGET_VIEW]["model_id"])


def _install() -> None:
    """Route the widgets' comms, ``display`` and logged errors through this module."""
    comm.create_comm = PageComm
    IPython.display.show = show
    root = logging.getLogger()
    if not any(isinstance(handler, PageLog) for handler in root.handlers):
        root.addHandler(PageLog(logging.WARNING))


def _page_ids(page: str) -> Iterator[str]:
    """The widget ids of ``page``, in the order its cells make widgets."""
    number = 0
    while True:
        number += 1
        yield hashlib.sha256(f"{page}\0{number}".encode()).hexdigest()[:32]


def run_cell(source: str, name: str, namespace: dict[str, Any]) -> Any:
    """Run a code cell as Jupyter does: its statements, then the value of its last expression.

    Returns that value (``None`` if the cell ends with a statement).
    """
    tree = ast.parse(source, filename=name)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, name, "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), name, "eval"), namespace)


def prepare(pages_json: str, answer: TextIO) -> None:
    """Run every page's cells; writes, for each page, its widgets' state and the widgets shown.

    ``pages_json`` is a JSON list of ``{"page": name, "cells": [{"code",
    "name", "shown"}, ...]}``; ``shown`` is false for a cell whose outputs
    the book's page leaves out. Written to ``answer``, a JSON object:
    ``{"pages": {name: {"state": {...}, "views": [model_id, ...]}},
    "failed": {name: reason}, "imported": [...]}``: each page's widget
    state, in the format of the widget state a notebook saves, and the
    widgets its cells show, in order; the pages whose cells raised an
    exception here (the cell and the exception), left out of ``pages``;
    the files of the standard library's zip that Python has imported, which
    the reader's browser needs no more (the memory holds them); and
    (``"tried"``) every module Python looked for while the cells ran,
    found or not: a browser's start looks for them too (PyYAML tries its C
    extension's module, for one), so the zip a start is given has them.

    The state is written one widget at a time, so that the memory saved
    afterwards holds as little as can be of what was made only to write it.
    """
    made: dict[str, tuple[list[ipywidgets.Widget], list[str]]] = {}
    failed: dict[str, str] = {}
    tried = _Tried()
    sys.meta_path.insert(0, tried)
    try:
        with _unconnected():
            for page in json.loads(pages_json):
                try:
                    made[page["page"]] = _run_page(page["page"], page["cells"])
                except CellFailed as exc:  # the page stays a saved copy; the build says why
                    failed[page["page"]] = str(exc)
    finally:
        sys.meta_path.remove(tried)
    answer.write('{"pages": {')
    for number, (name, (widgets, views)) in enumerate(made.items()):
        answer.write(f'{", " if number else ""}{json.dumps(name)}: {{"state": ')
        _write_state(answer, widgets)
        answer.write(f', "views": {json.dumps(views)}}}')
    answer.write(f'}}, "failed": {json.dumps(failed)}, '
                 f'"imported": {json.dumps(_imported_from_zips())}, '
                 f'"tried": {json.dumps(sorted(tried.names))}}}')


class _Tried:
    """A finder that finds nothing and notes the name of every module looked for."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        self.names.add(name)


@contextmanager
def _unconnected() -> Iterator[None]:
    """While widgets are made with no page to tell: their messages go nowhere."""
    global _post
    _install()
    _post = lambda message, buffers: None  # noqa: E731
    try:
        yield
    finally:
        _post = None


CELLS_MODULE = "loo_live_cells"
"""The module, in the zip the browser's Python imports from, that holds every live page's cells
(``PAGES``: page name -> its cells, as :func:`prepare` takes them); the build writes it."""


def start(page: str) -> None:
    """In the reader's browser, before :func:`connect`: make the widgets of ``page`` unless memory holds them.

    Python started from the saved memory holds every page's widgets; a
    Python started afresh runs the page's cells (from ``CELLS_MODULE``),
    which make the same widgets with the same ids and state as the build's,
    as the page has them. Either way the directory of the zip Python
    imports from is read again first: memory saved by the build holds the
    directory of the build's zip, which the site's zip is cut from.

    Raises:
        CellFailed: a cell raised, or the build made no widgets for ``page``.
    """
    _read_zips_again()
    if page in namespaces:
        return
    cells = getattr(importlib.import_module(CELLS_MODULE), "PAGES", {})
    if page not in cells:
        raise CellFailed(f"the book has no live cells for the page {page}")
    with _unconnected():
        _run_page(page, cells[page])


_zips_read = False
"""Whether the directories of the zips Python imports from were read again in this Python."""


def _read_zips_again() -> None:
    """Forget the directories of the zips read before, once (the build's, in the saved memory)."""
    global _zips_read
    if not _zips_read:
        for finder in list(sys.path_importer_cache.values()):
            if isinstance(finder, zipimport.zipimporter):
                finder.invalidate_caches()
        _zips_read = True


class CellFailed(Exception):
    """A page's cell raised an exception (the cell's name and the exception, in words)."""


def _run_page(name: str, cells: list[dict[str, Any]]) -> tuple[list[ipywidgets.Widget], list[str]]:
    """Run one page's cells in its namespace; returns the widgets they made and the ids of those shown.

    Raises:
        CellFailed: a cell raised; the page's widgets and namespace are let go.
    """
    global _ids, _shown
    namespace = namespaces.setdefault(name, {"__name__": "__main__"})
    widgets: list[ipywidgets.Widget] = []
    views: list[str] = []
    ipywidgets.Widget.on_widget_constructed(widgets.append)
    _ids = _page_ids(name)
    try:
        for cell in cells:
            # display() in the cell notes the widgets it shows; then its value
            _shown = views if cell["shown"] else None
            try:
                value = run_cell(cell["code"], cell["name"], namespace)
            except Exception as exc:
                del namespaces[name]
                for widget in widgets:
                    widget.close()
                raise CellFailed(f"{cell['name']}: {type(exc).__name__}: {exc}") from exc
            if value is not None:
                show(value)
    finally:
        ipywidgets.Widget.on_widget_constructed(None)
        _ids, _shown = None, None
    return widgets, views


def _write_state(answer: TextIO, widgets: list[ipywidgets.Widget]) -> None:
    """Write the state of ``widgets`` still open, as a notebook saves it, one widget at a time."""
    answer.write('{"version_major": 2, "version_minor": 0, "state": {')
    for index, widget in enumerate(w for w in widgets if w.comm is not None):
        state = ipywidgets.Widget.get_manager_state(widgets=[widget])["state"][widget.model_id]
        answer.write(f'{", " if index else ""}{json.dumps(widget.model_id)}: ')
        json.dump(state, answer)
    answer.write("}}")


def _imported_from_zips() -> list[str]:
    """The members of zip archives on the path that Python has imported, as ``archive/member``."""
    return sorted(origin for module in list(sys.modules.values())
                  if ".zip/" in (origin := getattr(getattr(module, "__spec__", None),
                                                   "origin", None) or ""))


LATER_MODULE = "loo_live_later"
"""The module, in the zip the browser's Python starts with, that names the modules of the zip
served apart (``MODULES``); the build writes it (``scripts/vendor_pyodide.py``)."""
LATER_PATH = "/lib/python_later.zip"
"""Where the browser's Python keeps the zip served apart, once it has come."""


class LaterFinder:
    """Finds the modules of the zip served apart, which the worker fetches once the page is live.

    A page's start imports only what the zip Python starts with holds; the
    rest of what the pages may import (on a click) comes in a second zip
    (``add_later``). A module of it imported before that zip came is fetched
    at once, with the whole zip (``fetch``); its name is noted in ``early``.
    The modules of that zip may belong to packages of the first one, so
    each is found in it by its own name, not on its package's path.
    """

    def __init__(self, modules: frozenset[str], fetch: Callable[[], bytes]) -> None:
        self.modules = modules
        self.fetch = fetch
        self.early: list[str] = []

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name not in self.modules:
            return None
        if not os.path.exists(LATER_PATH):
            self.early.append(name)
            add_later(self.fetch())
        return zipimport.zipimporter("/".join([LATER_PATH, *name.split(".")[:-1]])).find_spec(name)


_later: LaterFinder | None = None


def expect_later(url: str, fetch: Callable[[str], bytes] | None = None) -> None:
    """Find the modules of the zip served apart at ``url`` (gzipped) from now on (``LaterFinder``).

    ``fetch(url)`` gets its bytes; in the browser, a synchronous request,
    which a worker may make. Nothing is done if the zip Python started with
    names no such modules.
    """
    global _later
    _read_zips_again()
    try:
        modules: frozenset[str] = getattr(importlib.import_module(LATER_MODULE), "MODULES",
                                          frozenset())
    except ImportError:
        return
    if _later is not None:
        sys.meta_path.remove(_later)
    _later = LaterFinder(frozenset(modules), lambda: (fetch or _fetch_now)(url))
    sys.meta_path.insert(0, _later)


def add_later(data: Any) -> None:
    """Keep the zip served apart (gzipped ``data``: bytes, or a JavaScript array) unless it is kept."""
    if os.path.exists(LATER_PATH):
        return
    raw = data if isinstance(data, bytes | bytearray | memoryview) else data.to_bytes()
    part = LATER_PATH + ".part"
    with open(part, "wb") as kept:
        kept.write(zlib.decompress(raw, 31))
    os.replace(part, LATER_PATH)


def imported_early() -> str:
    """The modules of the zip served apart imported before it came (fetched at once), in words."""
    return ", ".join(_later.early) if _later is not None else ""


def _fetch_now(url: str) -> bytes:
    """The bytes at ``url``, fetched synchronously (a worker may), gzipped as they are served."""
    from js import XMLHttpRequest  # type: ignore[import-not-found]  # Pyodide's, the worker's globals

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send(None)
    if request.status != 200:
        raise ImportError(f"{url}: {request.status} {request.statusText}")
    return bytes(request.response.to_py())


def connect(post: Post) -> None:
    """In the reader's browser: send every message to the page through ``post(message_json, buffers)``.

    The random numbers drawn from now on are the reader's own: the memory
    snapshot would otherwise give every reader the same draws.
    """
    global _post
    _install()
    _post = post
    random.seed()


def receive(message_json: str, buffers: list[Any]) -> None:
    """Handle a message of the page's widget manager (a comm message to a widget).

    ``buffers`` are its binary parts, as the worker hands them over (objects
    with ``to_bytes()``, such as Pyodide's proxies of JavaScript arrays).
    """
    global _parent
    message = json.loads(message_json)
    message["buffers"] = [memoryview(b.to_bytes()) for b in buffers]
    _parent = message["header"]
    manager = comm.get_comm_manager()
    kind = _parent.get("msg_type")
    target = manager.comms.get(message["content"].get("comm_id"))
    try:
        if kind == "comm_open":
            manager.comm_open(None, None, message)
        elif target is not None and kind == "comm_msg":
            target.handle_msg(message)
        elif target is not None and kind == "comm_close":
            target.handle_close(message)
            manager.unregister_comm(target)
    except Exception:
        _message("error", {"ename": "WidgetError", "evalue": "",
                           "traceback": traceback.format_exc().splitlines()})
    finally:
        _message("status", {"execution_state": "idle"})
        _parent = {}
