"""The classroom's kernels: started as the classroom's own module, without debugger or history."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import psutil
import pytest
import zmq
import zmq.asyncio
from jupyter_client.ioloop import AsyncIOLoopKernelManager
from jupyter_client.manager import KernelManager
from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from jupyter_client.session import Session
from traitlets.config import Config

from loo_tutor.apps.classroom import kernels
from loo_tutor.apps.classroom import server as classroom


def test_only_the_python_kernel_is_started_as_the_classroom_s() -> None:
    python = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    assert kernels.classroom_argv(python) == [sys.executable, "-m", kernels.KERNEL_MODULE,
                                              "-f", "{connection_file}"]
    other = ["R", "--slave", "-e", "IRkernel::main()", "--args", "{connection_file}"]
    assert kernels.classroom_argv(other) == other
    spec = kernels.ClassroomKernelSpecs().get_kernel_spec("python3")
    assert spec.argv[1:3] == ["-m", kernels.KERNEL_MODULE]
    config = classroom.voila_config(classroom.Path("notebooks"), "127.0.0.1", 8866, None, 1, 20)
    assert config["VoilaConfiguration"]["kernel_spec_manager_class"] == (
        f"{kernels.__name__}.{kernels.ClassroomKernelSpecs.__name__}")


def run_in_classroom_kernel(code: str, now: bool = True) -> tuple[str, KernelManager, int]:
    """What a classroom kernel prints running ``code``, its manager, and its process id."""
    manager = KernelManager(kernel_name="python3", kernel_spec_manager=kernels.ClassroomKernelSpecs())
    manager.start_kernel()
    pid = manager.provisioner.pid if isinstance(manager.provisioner, LocalProvisioner) else 0
    client = manager.client()
    said: list[str] = []
    try:
        client.start_channels()
        client.wait_for_ready(timeout=120)
        client.execute_interactive(
            code, output_hook=lambda msg: said.append(msg["content"].get("text", "")), timeout=120)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=now)
    return "".join(said).strip(), manager, pid


def test_a_classroom_kernel_runs_cells_without_debugger_or_history() -> None:
    said, _, _ = run_in_classroom_kernel(
        "import sys; print(sorted(m for m in ('debugpy', 'pydevd') if sys.modules.get(m)),"
        " get_ipython().history_manager.enabled)")
    assert said == "[] False"


@pytest.mark.skipif(not kernels.can_fork(), reason="kernels are forked only on Linux (pidfd)")
def test_a_classroom_kernel_is_forked_from_the_warm_parent_with_the_widgets_ready() -> None:
    said, manager, pid = run_in_classroom_kernel(
        "import os, psutil; me = psutil.Process(); parent = psutil.Process(me.ppid());"
        " print(os.getpgid(0) == me.pid, parent.cmdline()[-3:-1], parent.ppid(),"
        " sorted(t for t in get_ipython().kernel.comm_manager.targets if 'widget' in t))",
        now=False)
    # forked by the warm parent, this process's child; a process group of its own, so that
    # signals reach it alone; ipywidgets' comm targets registered though imported before
    assert said == (f"True ['{kernels.KERNEL_MODULE}', '--warm'] {os.getpid()} "
                     "['jupyter.widget', 'jupyter.widget.control']")
    assert not psutil.pid_exists(pid) and not manager.is_alive()


def test_the_warm_parent_ends_with_the_server_and_leaves_no_folder_behind() -> None:
    parent = kernels.WarmParent()
    folder = os.path.dirname(parent.path)
    assert os.path.exists(parent.path)
    assert parent.process.stdin is not None
    parent.process.stdin.close()  # as when the server that started it ends, however it ends
    assert parent.process.wait(timeout=120) == 0
    assert not os.path.exists(folder)


def test_the_servers_kernel_client_reads_a_message_whose_signal_another_took(tmp_path: Path) -> None:
    """A ZeroMQ socket signals that messages came once: when something else asks the socket
    for its state first, a wait that only listens for the signal would miss the message."""

    async def wait_for_a_message_after_its_signal_is_taken() -> dict[str, Any]:
        address = f"ipc://{tmp_path}/socket"
        session = Session()
        with zmq.Context() as plain, zmq.asyncio.Context() as waiting:
            sender, receiver = plain.socket(zmq.PAIR), waiting.socket(zmq.PAIR)
            sender.bind(address)
            receiver.connect(address)
            try:
                channel = kernels.WakefulChannel(receiver, session)
                message = asyncio.ensure_future(channel.get_msg(timeout=None))
                await asyncio.sleep(0)  # the wait has begun
                session.send(sender, "status", {"execution_state": "idle"})
                # Asking the socket for its state, as a sender on it does, takes the
                # signal; the wait cannot look meanwhile (the event loop is held here).
                asking: zmq.Socket[Any] = zmq.Socket.shadow(receiver.underlying)
                arrived = time.monotonic() + 30
                while not cast(int, asking.get(zmq.EVENTS)) & zmq.POLLIN:
                    assert time.monotonic() < arrived, "the message never reached the socket"
                    time.sleep(0.01)
                return await asyncio.wait_for(message, timeout=30)
            finally:
                sender.close(linger=0)
                receiver.close(linger=0)

    # In a thread of its own: a test before this one may have left an event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        message = thread.submit(asyncio.run, wait_for_a_message_after_its_signal_is_taken()).result()
    assert message["msg_type"] == "status" and message["content"] == {"execution_state": "idle"}


def test_the_classroom_runs_notebooks_through_its_wakeful_kernel_client() -> None:
    config = Config(classroom.voila_config(classroom.Path("notebooks"), "127.0.0.1", 8866,
                                           None, 1, 20))
    client = AsyncIOLoopKernelManager(config=config).client()
    assert isinstance(client, kernels.WakefulKernelClient)
    assert {client.shell_channel_class, client.iopub_channel_class, client.stdin_channel_class,
            client.control_channel_class} == {kernels.WakefulChannel}


_FORKED_CHILD = """
import os, sys, time
from loo_tutor.apps.classroom.kernel import end_with
parent = os.getpid()
gone, ready = os.pipe(), os.pipe()
if os.fork() == 0:
    os.close(gone[1])
    os.close(ready[0])
    if sys.argv[1] == "late":
        os.read(gone[0], 1)  # returns once the parent is ending
        while os.getppid() == parent:  # until it has ended, and another process adopted this one
            time.sleep(0.01)
        end_with(parent)
    else:
        end_with(parent)
        os.write(ready[1], b"ready")
        time.sleep(120)
    print("the child outlived its parent", flush=True)
    os._exit(0)
os.close(ready[1])
if sys.argv[1] == "early":
    os.read(ready[0], 5)  # the child has asked to end with the parent
"""
"""A parent that forks a child as the warm parent forks a kernel, and ends: either with the
child already set to end with it (``early``), or before the child gets that far (``late``)."""


@pytest.mark.skipif(not kernels.can_fork(), reason="kernels are forked only on Linux (pidfd)")
@pytest.mark.parametrize("when", ["early", "late"])
def test_a_forked_kernel_ends_with_its_warm_parent_even_when_that_ends_first(when: str) -> None:
    # The child holds the parent's output open: reading it to the end waits for the child too.
    ended = subprocess.run([sys.executable, "-c", _FORKED_CHILD, when], capture_output=True,
                           text=True, timeout=60)
    assert ended.stdout == "" and ended.returncode == 0, (ended.stdout, ended.stderr)
