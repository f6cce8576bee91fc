"""The classroom's kernel: ipykernel without the parts a student's page can never use.

Started by the classroom server for each page (see :mod:`loo_tutor.apps.classroom.kernels`)
as ``python -m loo_tutor.apps.classroom.kernel -f CONNECTION_FILE``, in place
of ``python -m ipykernel_launcher``. It is the same kernel, less

* the debugger: ipykernel imports debugpy at start when it is installed,
  about a third of an idle kernel's memory and of its start-up time, and
  the classroom's websocket never lets a debug request through;
* the history file: IPython would write every cell each kernel runs into
  one SQLite file in the user's home folder, shared by all the kernels of
  a class; the cells are the notebook's own, and nothing reads them back.

Started as ``python -m loo_tutor.apps.classroom.kernel --warm FD`` instead,
it is the classroom's *warm parent* (:func:`warm`): one process that has
imported ipykernel and loo-tutor's widgets once, and forks a kernel for each
request on the listening socket ``FD``. A kernel forked so skips the half
second of processor time each kernel otherwise spends importing, and shares
the memory of what was imported with the warm parent until it writes to it
(:class:`loo_tutor.apps.classroom.kernels.ForkedProvisioner` asks for the kernels).
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import json
import os
import selectors
import signal
import socket
import sys
import traceback
from typing import Any

LEFT_OUT = ("debugpy",)
"""The modules the kernel cannot import, so that ipykernel starts without them."""
KERNEL_ARGS = ("--HistoryManager.enabled=False",)
"""The kernel's own options, after the server's."""
WARM = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.comm", "ipywidgets",
        "loo_tutor.widgets", "loo_tutor.records.data")
"""What the warm parent imports once for all the kernels it forks: the kernel, and what the
classroom's notebooks import."""
PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process is sent when its parent ends."""


def _leave_out() -> None:
    for name in LEFT_OUT:
        sys.modules[name] = None  # type: ignore[assignment]  # Python's way to refuse an import


def main(argv: list[str] | None = None) -> None:
    """Start the kernel with the server's arguments ``argv`` (those of the command by default)."""
    _leave_out()
    kernelapp = importlib.import_module("ipykernel.kernelapp")
    kernelapp.launch_new_instance(argv=[*(sys.argv[1:] if argv is None else argv), *KERNEL_ARGS])


def _kernel(request: dict[str, Any], parent: int) -> None:
    """In a child just forked by ``parent``: become the kernel ``request`` asks for (never returns)."""
    status = 1
    try:
        end_with(parent)
        os.setsid()  # a process group of its own, as the server's signals expect
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        quiet = os.open(os.devnull, os.O_RDONLY)
        os.dup2(quiet, 0)
        os.close(quiet)
        os.chdir(request["cwd"])
        sys.path[0] = os.getcwd()  # as ``python -m`` started there would have it
        os.environ.clear()
        os.environ.update(request["env"])
        # ipykernel read JPY_PARENT_PID, the parent it would watch, at import.
        # ipywidgets, imported before there was a kernel, has not yet registered its
        # comm targets with it: its IPython extension does.
        argv = [*request["argv"], f"--IPKernelApp.parent_handle={parent}",
                "--IPKernelApp.extensions=ipywidgets"]
        sys.argv = [sys.argv[0], *argv]
        main(argv)
        status = 0
    except SystemExit as ended:
        status = ended.code if isinstance(ended.code, int) else 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def end_with(parent: int) -> None:
    """End this process when ``parent``, which forked it, ends; at once if it already has.

    The kernel is told of its parent's end by a signal (Linux's parent-death
    signal, asked for with ``prctl``), not by ipykernel's watch of its parent,
    which a kernel forked just as the warm parent ended would not have kept:
    it would outlive the server, holding the server's output open.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(0)


def warm(listening: socket.socket) -> None:
    """Import :data:`WARM`, then fork a kernel for each request on ``listening``.

    A request is one line of JSON, ``{"argv": [...], "env": {...}, "cwd": "..."}``
    (the kernel's arguments after the module's name, its environment and its
    folder); the answer is ``{"pid": N}``, the kernel's process id. Returns
    when the standard input closes: the server that started it has ended.
    """
    _leave_out()
    for name in WARM:
        importlib.import_module(name)
    gc.freeze()  # what was imported stays put: the kernels' collections leave its memory shared
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernels that end are reaped at once
    with selectors.DefaultSelector() as waiting:
        waiting.register(listening, selectors.EVENT_READ)
        waiting.register(sys.stdin, selectors.EVENT_READ)
        while True:
            for key, _ in waiting.select():
                if key.fileobj is not listening:
                    _remove_socket(listening)
                    return
                asked, _ = listening.accept()
                try:
                    with asked, asked.makefile("rwb") as line:
                        asking = line.readline()
                        if not asking:  # the server stopped (Ctrl-C) before it asked
                            continue
                        request = json.loads(asking)
                        sys.stdout.flush()
                        sys.stderr.flush()
                        parent = os.getpid()
                        pid = os.fork()
                        if pid == 0:
                            line.close()
                            asked.close()
                            listening.close()
                            _kernel(request, parent)
                        line.write(json.dumps({"pid": pid}).encode() + b"\n")
                        line.flush()
                except BrokenPipeError:  # the server stopped (Ctrl-C) before reading the answer
                    continue


def _remove_socket(listening: socket.socket) -> None:
    """Remove the file of ``listening`` and the folder the server made for it alone."""
    path = listening.getsockname()
    with contextlib.suppress(OSError):
        os.unlink(path)
        os.rmdir(os.path.dirname(path))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--warm"]:
        warm(socket.socket(fileno=int(sys.argv[2])))
    else:
        main()
