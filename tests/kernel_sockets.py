"""The tests' Python kernels talk to their clients over local sockets, not TCP ports.

jupyter_client picks a kernel's five TCP ports by opening and closing each
(``LocalPortCache``) and the kernel binds them a moment later, with no
second try: any other program's connection may take one of them in between
(jupyter_client's issue 487), and the kernel dies as it starts. The more the
machine does at once, the likelier that is: with three pytest workers, a
notebook's kernel died under nbval in one run of six.

So every Python kernel a test starts (nbval's, a small book's build's)
uses ``tests/data/jupyter/kernels/python3`` (``JUPYTER_PATH``, set by
:func:`pytest_configure`, for the tests and every program they start: this
module is a pytest plugin, named in pyproject.toml's ``addopts``, so that it
serves every run, ``pytest notebooks`` included), whose spec names
:class:`UnixSocketProvisioner`:
jupyter_client's local provisioner with the kernel's sockets moved to
ZeroMQ's ``ipc`` transport, files in a short folder of their own that no
other program can take. ``./dev`` registers the provisioner under
:data:`NAME` (a ``jupyter_client.kernel_provisioners`` entry point of the
``loo-tutor-dev`` folders it puts on the venv's path). The classroom's
kernels already use the ``ipc`` transport (``loo_tutor/apps/classroom/server.py``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.provisioning.local_provisioner import LocalProvisioner

from loo_tutor.apps.classroom.kernels import provisioner_installed

NAME = "loo-tests-unix-sockets"
"""The provisioner's name among Jupyter's kernel provisioners (``./dev`` registers it)."""
JUPYTER_DATA = Path(__file__).parent / "data" / "jupyter"
"""The Jupyter data folder holding the tests' Python kernel spec."""


def pytest_configure(config: pytest.Config) -> None:
    """Put the tests' kernel spec first on ``JUPYTER_PATH``, for this process and its children;
    stops pytest with a usage error when ``./dev`` has not registered the provisioner."""
    if not provisioner_installed(NAME):
        raise pytest.UsageError("the tests' kernel provisioner is not installed: run the tests "
                                "with ./dev test, or ./dev build once first")
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep)
             if p and p != str(JUPYTER_DATA)]  # pytest-xdist's workers inherit it
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(JUPYTER_DATA), *paths])


class UnixSocketProvisioner(LocalProvisioner):
    """Jupyter's local provisioner, with the kernel on ``ipc`` sockets in a folder of its own.

    The folder is short (a Unix socket's path has at most 107 bytes, and a
    test's temporary folder can be longer) and is removed with the kernel;
    a restarted kernel keeps it.
    """

    folder: str | None = None

    async def pre_launch(self, **kwargs: Any) -> dict[str, Any]:
        manager = self.parent
        if manager is not None and self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="loo-kernel-")
            manager.transport = "ipc"
            manager.cache_ports = False
            manager.ip = os.path.join(self.folder, "socket")
        launch: dict[str, Any] = await super().pre_launch(**kwargs)
        return launch

    async def cleanup(self, restart: bool = False) -> None:
        await super().cleanup(restart=restart)
        if not restart and self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
