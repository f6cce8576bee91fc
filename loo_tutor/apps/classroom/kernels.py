"""The classroom's kernels: how each is started, and how many students the server takes.

Voila finds the kernel a notebook asks for (``python3``) through its kernel
spec manager, which it lets a configuration replace
(``VoilaConfiguration.kernel_spec_manager_class``): :class:`ClassroomKernelSpecs`
starts the Python kernels as :mod:`loo_tutor.apps.classroom.kernel`, the same
ipykernel with less to load.

Each such kernel is forked from one *warm parent* (:class:`WarmParent`), a
process that has imported ipykernel and the widgets once, rather than
started afresh: the kernel spec names :class:`ForkedProvisioner`, a Jupyter
kernel provisioner (jupyter_client's public ``KernelProvisionerBase``, here
its local one with the launch changed), registered in the package's entry
points. A new kernel then costs about a tenth of a second of processor time
instead of half a second or more, and shares the imported modules' memory.

The server talks to a kernel through :class:`WakefulKernelClient`, whose
waits for a kernel's message look at the socket again at least every
:data:`WAKE_S` seconds (see :class:`WakefulChannel`).
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from importlib.metadata import entry_points
from queue import Empty
from typing import Any, cast

from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from traitlets import Type

KERNEL_MODULE = "loo_tutor.apps.classroom.kernel"
"""The module each Python kernel of the classroom runs."""
PROVISIONER = "loo-classroom-forked"
"""The name of :class:`ForkedProvisioner` among Jupyter's kernel provisioners."""
WAKE_S = 0.5
"""The longest a wait for a kernel's message goes without looking at the socket itself."""


def classroom_argv(argv: list[str]) -> list[str]:
    """A Python kernel's command line ``argv`` made to run :data:`KERNEL_MODULE` instead.

    Only ``python -m ipykernel_launcher ...`` is changed; any other kernel is
    started as its kernel spec says.
    """
    if len(argv) >= 3 and argv[1] == "-m" and argv[2] == "ipykernel_launcher":
        return [argv[0], "-m", KERNEL_MODULE, *argv[3:]]
    return argv


class ClassroomKernelSpecs(KernelSpecManager):
    """Jupyter's kernel specs, with the Python kernel started as the classroom's."""

    def get_kernel_spec(self, kernel_name: str, *args: Any, **kwargs: Any) -> KernelSpec:
        spec: KernelSpec = super().get_kernel_spec(kernel_name, *args, **kwargs)
        argv = classroom_argv(list(spec.argv))
        if argv != spec.argv:
            spec.argv = argv
            if can_fork() and provisioner_installed():
                spec.metadata = {**spec.metadata,
                                 "kernel_provisioner": {"provisioner_name": PROVISIONER}}
        return spec


def provisioner_installed(name: str = PROVISIONER) -> bool:
    """Whether Jupyter finds the kernel provisioner ``name``, by default :class:`ForkedProvisioner`
    (whose entry point the package installs)."""
    found = entry_points(group="jupyter_client.kernel_provisioners")
    return any(point.name == name for point in found)



class _Forked:
    """A kernel forked by the warm parent, with what the provisioner asks of a ``Popen``.

    The kernel is not this process's child, so it is watched through a pidfd
    (Linux): readable once the process has ended, and a safe way to signal
    it however long it has been gone. Its exit status stays the warm
    parent's to collect, so an ended kernel reports 0.
    """

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._fd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:
            self._fd, self.returncode = None, 0

    def _ended(self, timeout: float | None) -> None:
        if self._fd is None:
            return
        waiting = select.poll()  # not select.select, which takes no descriptor above 1023
        waiting.register(self._fd, select.POLLIN)
        if waiting.poll(None if timeout is None else timeout * 1000):
            os.close(self._fd)
            self._fd, self.returncode = None, 0

    def poll(self) -> int | None:
        self._ended(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        self._ended(timeout)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self._fd is None:
            raise ProcessLookupError(errno.ESRCH, "the kernel has ended")
        signal.pidfd_send_signal(self._fd, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class WarmParent:
    """The process the classroom's kernels are forked from (:func:`.kernel.warm`).

    Started with a listening Unix socket of its own, in a folder made for it;
    requests wait on the socket while it imports. It ends when this process
    does (its standard input, a pipe from here, then closes), removing the
    socket and its folder, and its kernels then end too.
    """

    def __init__(self) -> None:
        folder = tempfile.mkdtemp(prefix="loo-warm-")
        self.path = os.path.join(folder, "socket")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listening:
            listening.bind(self.path)
            listening.listen(128)
            self.process = subprocess.Popen(
                [sys.executable, "-m", KERNEL_MODULE, "--warm", str(listening.fileno())],
                stdin=subprocess.PIPE, pass_fds=[listening.fileno()],
                start_new_session=True)  # Ctrl-C in the teacher's terminal is the server's

    async def fork(self, argv: list[str], env: dict[str, str], cwd: str) -> int:
        """A kernel forked with ``argv`` (after the module's name), ``env`` and ``cwd``; its pid."""
        reader, writer = await asyncio.open_unix_connection(self.path)
        try:
            writer.write(json.dumps({"argv": argv, "env": env, "cwd": cwd}).encode() + b"\n")
            await writer.drain()
            answer = await reader.readline()
        finally:
            writer.close()
        if not answer:
            raise RuntimeError("the classroom's warm parent did not start the kernel")
        return int(json.loads(answer)["pid"])

    _one: WarmParent | None = None

    @classmethod
    def running(cls) -> WarmParent:
        """This process's warm parent, started now if it is not running."""
        if cls._one is None or cls._one.process.poll() is not None:
            cls._one = cls()
        return cls._one


def can_fork() -> bool:
    """Whether kernels can be forked here (a pidfd is needed to watch them: Linux)."""
    return hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")


class ForkedProvisioner(LocalProvisioner):
    """Jupyter's local provisioner, with the classroom's kernels forked by the :class:`WarmParent`.

    Named in the kernel spec (``kernel_provisioner``) by
    :class:`ClassroomKernelSpecs`, and registered under :data:`PROVISIONER`
    in the package's entry points. Any command but the classroom kernel's,
    or a system without pidfds, is started as Jupyter starts it.
    """

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        if not (can_fork() and cmd[1:3] == ["-m", KERNEL_MODULE]):
            return await super().launch_kernel(cmd, **kwargs)
        env = dict(kwargs.get("env") or os.environ)
        cwd = str(kwargs.get("cwd") or os.getcwd())
        pid = await WarmParent.running().fork(cmd[3:], env, cwd)
        self.process = cast(Any, _Forked(pid))  # what the provisioner uses of a Popen
        self.pid = self.pgid = pid  # the kernel leads a process group of its own
        self.cwd = cwd
        connection: KernelConnectionInfo = self.connection_info
        return connection


class WakefulChannel(AsyncZMQSocketChannel):
    """A channel to a kernel whose wait for a message looks at the socket every :data:`WAKE_S` s.

    A ZeroMQ socket tells the event loop that messages came through a file
    descriptor that is signalled once, not while messages wait; whatever else
    asks the socket for its state takes that signal. A wait that only
    listens for the signal can then miss a message that has arrived, and,
    with no time limit, wait for ever: a page of the class that never
    finishes loading. This wait asks the socket itself at least every
    :data:`WAKE_S` seconds, so a message already there is read at the latest
    then.
    """

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:  # type: ignore[override]
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            wait = WAKE_S if deadline is None else min(WAKE_S, max(0.0, deadline - time.monotonic()))
            try:
                message: dict[str, Any] = await super().get_msg(timeout=wait)
                return message
            except Empty:
                if deadline is not None and time.monotonic() >= deadline:
                    raise


class WakefulKernelClient(AsyncKernelClient):
    """Jupyter's asynchronous kernel client with :class:`WakefulChannel` for each socket it reads.

    Named as the kernel managers' ``client_class`` in the classroom's settings
    (:func:`~.server.voila_config`): Voila runs a page's notebook through it.
    """

    shell_channel_class = Type(WakefulChannel)
    iopub_channel_class = Type(WakefulChannel)
    stdin_channel_class = Type(WakefulChannel)
    control_channel_class = Type(WakefulChannel)
