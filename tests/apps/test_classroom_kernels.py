"""The classroom's kernels: started as the classroom's own module, without debugger or history."""

from __future__ import annotations

import sys

from jupyter_client.manager import KernelManager

from loo_tutor.apps import classroom, kernels


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


def test_a_classroom_kernel_runs_cells_without_debugger_or_history() -> None:
    manager = KernelManager(kernel_name="python3", kernel_spec_manager=kernels.ClassroomKernelSpecs())
    manager.start_kernel()
    client = manager.client()
    try:
        client.start_channels()
        client.wait_for_ready(timeout=120)
        said: list[str] = []
        client.execute_interactive(
            "import sys; print(sorted(m for m in ('debugpy', 'pydevd') if sys.modules.get(m)),"
            " get_ipython().history_manager.enabled)",
            output_hook=lambda msg: said.append(msg["content"].get("text", "")), timeout=120)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert "".join(said).strip() == "[] False"
