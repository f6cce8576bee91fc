"""The Python side of a live book page, run by Pyodide in the page's Web Worker.

``loo_live_worker.js`` starts Pyodide, calls :func:`start` with the function
that posts a message to the page, then :func:`run_cell` with each code cell
of the page. The widgets the cells make reach the page's widget manager
through the comms made here (``comm.create_comm`` is replaced, as the comm
package intends), in Jupyter's message format; the page's messages to the
widgets come back through :func:`receive`. Each widget a cell shows (the
value of its last line, or ``display(widget)``) is announced to the page
with a ``display_data`` message, in the order the cells show them: the page
draws it where the book's page has the saved copy of that output.

Neither IPython nor ipykernel runs here: ipywidgets only asks IPython
whether a shell is running (no) and for ``display``, which a small
stand-in package beside this module provides.
"""

from __future__ import annotations

import ast
import json
import logging
import traceback
import uuid
from collections.abc import Callable
from typing import Any

import comm
import IPython.display
from comm.base_comm import BaseComm

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
Post = Callable[[str, list[memoryview]], None]

_post: Post | None = None
_parent: dict[str, Any] = {}
namespace: dict[str, Any] = {"__name__": "__main__"}
"""The globals of the page's cells, as a notebook's are shared by its cells."""
_showing = True


def _message(msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None,
             buffers: list[Any] | None = None) -> None:
    """Post one iopub message to the page, answering the page's message being handled."""
    if _post is None:
        raise RuntimeError("loo_live_worker.start() was not called")
    message = {"channel": "iopub",
               "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type},
               "parent_header": _parent, "metadata": metadata or {}, "content": content}
    _post(json.dumps(message, default=str), [memoryview(b) for b in buffers or []])


class PageComm(BaseComm):
    """A widget's comm whose messages go to the page's widget manager."""

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
        _message("error", {"ename": record.levelname, "evalue": record.getMessage(),
                           "traceback": self.format(record).splitlines()})


def show(value: Any) -> None:
    """Announce ``value`` to the page if it is a widget shown by a cell whose output the page has."""
    represent = getattr(value, "_repr_mimebundle_", None)
    bundle = represent() if callable(represent) else None
    if _showing and isinstance(bundle, dict) and WIDGET_VIEW in bundle:
        _message("display_data", {"data": {WIDGET_VIEW: bundle[WIDGET_VIEW]}, "metadata": {}})


def start(post: Post) -> None:
    """Send every message to the page through ``post(message_json, buffers)``."""
    global _post
    _post = post
    logging.getLogger().addHandler(PageLog(logging.WARNING))
    comm.create_comm = PageComm
    IPython.display.show = show


def run_cell(source: str, name: str, shown: bool = True) -> None:
    """Run a code cell as Jupyter does: its statements, then show its last expression's value.

    ``shown`` is false for a cell whose outputs the book's page leaves out:
    the widgets it shows have no place on the page.
    """
    global _showing
    tree = ast.parse(source, filename=name)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    _showing = shown
    try:
        exec(compile(tree, name, "exec"), namespace)  # noqa: S102 (the page's own cells, built with the book)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), name, "eval"), namespace)
            if value is not None:
                show(value)
    finally:
        _showing = True


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
    except Exception:  # noqa: BLE001 (a widget's own error: shown on the page's console, the page goes on)
        _message("error", {"ename": "WidgetError", "evalue": "",
                           "traceback": traceback.format_exc().splitlines()})
    finally:
        _message("status", {"execution_state": "idle"})
        _parent = {}
