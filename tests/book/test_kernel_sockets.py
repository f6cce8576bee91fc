"""The tests' Python kernels talk over local sockets (tests/kernel_sockets.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from jupyter_client.manager import KernelManager

from loo_tutor.apps.classroom.kernels import provisioner_installed

from kernel_sockets import JUPYTER_DATA, NAME


def test_the_tests_kernel_spec_names_the_registered_provisioner() -> None:
    spec = json.loads((JUPYTER_DATA / "kernels" / "python3" / "kernel.json").read_text())
    assert spec["metadata"]["kernel_provisioner"]["provisioner_name"] == NAME
    assert provisioner_installed(NAME)
    assert os.environ["JUPYTER_PATH"].split(os.pathsep)[0] == str(JUPYTER_DATA)


def test_a_kernel_started_under_the_tests_answers_over_local_sockets_and_leaves_none() -> None:
    said: list[dict[str, Any]] = []
    manager = KernelManager(kernel_name="python3")
    manager.start_kernel()
    try:
        info = manager.get_connection_info()
        folder = Path(str(info["ip"])).parent
        assert info["transport"] == "ipc" and folder.name.startswith("loo-kernel-"), info
        client = manager.client()
        client.start_channels()
        try:
            client.wait_for_ready(timeout=60)
            reply = client.execute_interactive("print(6 * 7)", timeout=60,
                                               output_hook=said.append)
        finally:
            client.stop_channels()
    finally:
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok"
    assert any(m["msg_type"] == "stream" and m["content"]["text"] == "42\n" for m in said), said
    assert not folder.exists(), f"{folder} was left behind"
