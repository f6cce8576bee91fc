"""The deploy files hold the figures ``deploy/sizes.py`` works out from the measured costs.

A new measurement is written once, in ``deploy/costs.toml``; these tests then
name each setting of ``deploy/kubernetes/`` and ``deploy/postgresql/`` that
has to follow it.
"""

from __future__ import annotations

import copy
import importlib.util
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "sizes.py"


def load_sizes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deploy_sizes", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


sizes = load_sizes()


def costs() -> dict[str, dict[str, Any]]:
    return copy.deepcopy(sizes.read_costs())


def test_every_setting_of_the_deploy_files_is_what_the_costs_give() -> None:
    worked = sizes.work_out(costs())
    assert sizes.differences(worked) == []
    files = sizes.settings(worked)
    assert {path.name for path in files} == {"classroom.yaml", "postgresql.conf"}
    assert all(values for values in files.values())


def test_a_new_measurement_changes_the_settings_it_should() -> None:
    more = costs()
    more["measured"]["kernel_unique_mb"] *= 2  # kernels twice the size
    worked = sizes.work_out(more)
    before = sizes.work_out(costs())
    assert int(worked.figures["class_memory_request"][:-2]) > int(
        before.figures["class_memory_request"][:-2])
    wrong = sizes.differences(worked)
    assert any("classroom.yaml: memory request" in line for line in wrong), wrong
    assert not any("postgresql.conf" in line for line in wrong), wrong


def test_the_database_follows_the_school_and_its_answers() -> None:
    bigger = costs()
    bigger["school"]["students"] *= 4
    bigger["measured"]["answer_bytes"] *= 4
    worked = sizes.work_out(bigger)
    before = sizes.work_out(costs())
    school = bigger["school"]
    assert worked.figures["classes"] == math.ceil(school["students"] / school["class_size"])
    assert worked.figures["max_connections"] > before.figures["max_connections"]
    assert int(worked.figures["shared_buffers"][:-2]) > int(before.figures["shared_buffers"][:-2])
    wrong = sizes.differences(worked)
    for setting in ("max_connections", "shared_buffers", "effective_cache_size"):
        assert any(f"postgresql.conf: {setting} is" in line for line in wrong), (setting, wrong)


def test_max_connections_leaves_room_for_every_class_and_the_administrator() -> None:
    given = costs()
    worked = sizes.work_out(given)
    school, measured = given["school"], given["measured"]
    servers = worked.figures["classes"] * measured["connections_per_server"]
    assert worked.figures["max_connections"] >= (
        servers + school["admin_connections"] + school["superuser_reserved_connections"])


def test_the_script_prints_its_working_and_checks_the_files() -> None:
    shown = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                           check=False)
    assert shown.returncode == 0 and not shown.stderr
    worked = sizes.work_out(costs())
    for name, value in worked.figures.items():
        assert f"{name} = {value}:" in shown.stdout, name
    assert "python benchmarks/school_costs.py" in shown.stdout  # the command behind the costs
    checked = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                             text=True, check=False)
    assert checked.returncode == 0, checked.stdout


@pytest.mark.parametrize(("text", "said"), [
    ("[measured]\nkernel_unique_mb = \n", "Invalid value"),
    ("[measured]\nkernel_unique_mb = 25\n", "'school' is missing"),
    (None, "No such file or directory"),
])
def test_costs_that_cannot_be_read_are_said_in_one_line(tmp_path: Path, text: str | None,
                                                        said: str) -> None:
    broken = tmp_path / "costs.toml"
    if text is not None:
        broken.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), "--costs", str(broken)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "Errno" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cannot read the costs in {broken}: ")
    assert said in done.stderr


def test_the_administrators_page_shows_the_figures_the_costs_give() -> None:
    page = (ROOT / "book" / "school.md").read_text(encoding="utf-8")
    given = costs()
    f = sizes.work_out(given).figures
    measured = given["measured"]
    shown = [f"| classes | {f['classes']} |", f"`--max-students` | {f['max_students']} |",
             f"`{f['class_memory_request']}` requested, `{f['class_memory_limit']}` at most",
             f"`{f['class_cpu_request']}` requested",
             f"`max_connections` | {f['max_connections']} |",
             f"`shared_buffers` | {f['shared_buffers']} |",
             f"`max_wal_size` | {f['max_wal_size']} |",
             f"| {measured['kernel_unique_mb']} MB |",
             f"| {measured['server_per_student_mb']} MB |",
             f"| {measured['check_wal_bytes']} bytes |",
             f"| {measured['answer_bytes']} bytes |",
             f"| {measured['connections_per_server']} |",
             f"| {measured['arrival_server_cpu_s'] + measured['arrival_kernels_cpu_s']:.2f} s |",
             f"| {measured['check_server_cpu_s'] + measured['check_kernels_cpu_s']:.3f} s |",
             f"| {round(f['school_cores_at_the_bell'])} cores |"]
    missing = [text for text in shown if text not in page]
    assert not missing, f"book/school.md does not show: {missing}"
