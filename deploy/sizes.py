"""A school's sizes, worked out from what one student costs: ``python deploy/sizes.py``.

Reads ``deploy/costs.toml`` (the costs measured by ``benchmarks/school_costs.py``
and the school planned for) and prints each figure of ``deploy/kubernetes/``
and ``deploy/postgresql/`` with its working. ``tests/apps/test_deploy_sizes.py``
holds the files to these figures (:func:`settings`), so a new measurement is
written once, in ``costs.toml``, and the test names every line of the files it
changes. ``--check`` does the same from the command line: it prints each
setting that differs and exits 1.

Units: MB is 2^20 bytes, as Kubernetes' ``Mi`` and PostgreSQL's ``MB``.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the project's Python is 3.11
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
COSTS = HERE / "costs.toml"
VALUES = HERE / "kubernetes" / "values.yaml"
CLASSROOM = HERE / "kubernetes" / "classroom.yaml"
POSTGRESQL = HERE / "postgresql" / "postgresql.conf"
MB = 1024 * 1024


def up_to(value: float, step: int) -> int:
    """``value`` rounded up to a whole number of ``step``."""
    return math.ceil(value / step) * step


def power_of_two(value: float, least: int = 1) -> int:
    """The smallest power of two at least ``value`` and ``least``."""
    found = 1
    while found < value or found < least:
        found *= 2
    return found


@dataclass
class Sizes:
    """The figures, and the lines of working that led to each."""

    working: list[str] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)

    def say(self, line: str) -> None:
        self.working.append(line)

    def keep(self, name: str, value: Any, why: str) -> Any:
        self.figures[name] = value
        self.say(f"  {name} = {value}: {why}")
        return value


def read_costs(path: Path = COSTS) -> dict[str, dict[str, Any]]:
    with path.open("rb") as file:
        read: dict[str, dict[str, Any]] = tomllib.load(file)
    return read


def work_out(costs: dict[str, dict[str, Any]]) -> Sizes:
    """Every figure of the deploy files, from ``costs`` (as ``costs.toml`` holds them)."""
    m, s = costs["measured"], costs["school"]
    out = Sizes()
    out.say(f"Costs measured with `{m['command']}` on {m['date']} (load average "
            f"{m['load_arrivals']} as the class arrived, {m['load_checks']} as it checked).")

    out.say("\nThe school")
    students, class_size = s["students"], s["class_size"]
    classes = out.keep("classes", math.ceil(students / class_size),
                       f"{students} students at once / {class_size} a class, rounded up")
    most = out.keep("max_students", math.ceil(class_size * s["class_room"]),
                    f"{class_size} a class x {s['class_room']} room, rounded up: each classroom "
                    "server's --max-students (in a container the server sees the machine's "
                    "memory, not its own limit, so it is given)")

    out.say("\nOne class's server (deploy/kubernetes/classroom.yaml)")
    kernels = most + s["kernels_kept_ready"]
    server = m["server_empty_mb"] + most * m["server_per_student_mb"]
    memory = server + m["warm_parent_resident_mb"] + kernels * m["kernel_unique_mb"]
    out.say(f"  memory in use with the class full: server {m['server_empty_mb']} MB + {most} "
            f"students x {m['server_per_student_mb']} MB + warm parent "
            f"{m['warm_parent_resident_mb']} MB + ({most} students + "
            f"{s['kernels_kept_ready']} kernels kept ready) x {m['kernel_unique_mb']} MB unique "
            f"= {memory:.0f} MB")
    out.keep("class_memory_request", f"{up_to(memory, 64)}Mi",
             f"{memory:.0f} MB rounded up to 64 MB")
    out.keep("class_memory_limit", f"{up_to(memory * s['memory_room'], 64)}Mi",
             f"{memory:.0f} MB x {s['memory_room']} (students with two apps open, a kernel "
             "stopping as another starts), rounded up to 64 MB")
    arrival_cpu = m["arrival_server_cpu_s"] + m["arrival_kernels_cpu_s"]
    check_cpu = m["check_server_cpu_s"] + m["check_kernels_cpu_s"]
    class_cpu = most * arrival_cpu / s["arrival_s"] + most / s["check_every_s"] * check_cpu
    out.say(f"  processor at the bell: {most} students x {arrival_cpu:.3f} s each (server "
            f"{m['arrival_server_cpu_s']} + kernels {m['arrival_kernels_cpu_s']}) over "
            f"{s['arrival_s']} s, + {most} students checking every {s['check_every_s']} s x "
            f"{check_cpu:.4f} s = {class_cpu:.3f} cores")
    out.keep("class_cpu_request", f"{up_to(class_cpu * 1000, 50)}m",
             f"{class_cpu:.3f} cores rounded up to 50 millicores; no limit, so that a class "
             "arriving faster borrows what the node has spare")

    out.say("\nThe whole school")
    bell = students * arrival_cpu / s["arrival_s"]
    checks_per_s = students / s["check_every_s"]
    steady = checks_per_s * check_cpu
    out.keep("school_cores_at_the_bell", round(bell + steady, 1),
             f"{students} x {arrival_cpu:.3f} s over {s['arrival_s']} s + {checks_per_s:.1f} "
             f"checks/s x {check_cpu:.4f} s")
    out.keep("school_cores_in_the_lesson", round(steady, 2),
             f"{checks_per_s:.1f} checks/s x {check_cpu:.4f} s")
    request_mb = up_to(memory, 64)
    out.keep("school_memory_gb", round(classes * request_mb / 1024, 1),
             f"{classes} classes x {request_mb} MB")

    out.say("\nPostgreSQL (deploy/postgresql/postgresql.conf)")
    servers = classes * m["connections_per_server"]
    needed = servers + s["admin_connections"] + s["superuser_reserved_connections"]
    out.keep("max_connections", up_to(needed, 10),
             f"{classes} classroom servers x {m['connections_per_server']} connection + "
             f"{s['admin_connections']} for the administrator's tools + "
             f"{s['superuser_reserved_connections']} reserved = {needed}, rounded up to 10")
    out.keep("superuser_reserved_connections", s["superuser_reserved_connections"],
             "kept for the administrator when every other connection is taken")
    commits = students * m["arrival_commits"] / s["arrival_s"] + checks_per_s * m["check_commits"]
    out.keep("commits_per_s_at_the_bell", round(commits),
             f"{students} x {m['arrival_commits']} commits over {s['arrival_s']} s + "
             f"{checks_per_s:.1f} checks/s x {m['check_commits']}; each one flushed to disk "
             "(synchronous_commit on: an answer is kept before the page is told so)")
    out.keep("rows_inserted_per_s", round(checks_per_s * m["check_rows"], 1),
             f"{checks_per_s:.1f} checks/s x {m['check_rows']} row; none updated or deleted")
    timeout_s = s["checkpoint_timeout_min"] * 60
    out.keep("checkpoint_timeout", f"{s['checkpoint_timeout_min']}min", "the school's choice")
    wal = checks_per_s * m["check_wal_bytes"] * timeout_s + students * m["arrival_wal_bytes"]
    out.say(f"  WAL of one checkpoint at the busiest: {checks_per_s:.1f} checks/s x "
            f"{m['check_wal_bytes']} bytes x {timeout_s} s + {students} arrivals x "
            f"{m['arrival_wal_bytes']} bytes = {wal / MB:.1f} MB")
    max_wal = power_of_two(s["wal_checkpoints_kept"] * wal / MB, 64)
    out.keep("max_wal_size", f"{max_wal}MB",
             f"{s['wal_checkpoints_kept']} checkpoints' WAL, {s['wal_checkpoints_kept'] * wal / MB:.1f}"
             " MB, up to a power of two (at least 64 MB), so that checkpoints come by time, "
             "not by WAL, even with the pages written whole after each checkpoint")
    out.keep("min_wal_size", f"{max_wal // 2}MB", "half of max_wal_size: WAL files kept to reuse")
    per_day = students * s["lessons_per_day"] * s["lesson_s"] / s["check_every_s"]
    day_mb = per_day * m["answer_bytes"] / MB
    out.say(f"  a day's answers: {students} students x {s['lessons_per_day']} lessons x "
            f"{s['lesson_s'] // s['check_every_s']} checks = {per_day:,.0f} rows x "
            f"{m['answer_bytes']} bytes = {day_mb:.0f} MB")
    buffers = power_of_two(day_mb, 128)
    out.keep("shared_buffers", f"{buffers}MB",
             f"a day's answers ({day_mb:.0f} MB) in memory, up to a power of two (at least "
             "128 MB): a class's server reads all its answers when it starts")
    machine = buffers / s["shared_buffers_share"]
    out.keep("database_memory_mb", int(machine),
             f"shared_buffers / {s['shared_buffers_share']}: the database machine's memory")
    out.keep("effective_cache_size", f"{int(machine - buffers)}MB",
             "the database machine's memory less shared_buffers: the system's file cache")
    out.keep("wal_per_day_mb", round(per_day * m["check_wal_bytes"] / MB),
             f"{per_day:,.0f} checks x {m['check_wal_bytes']} bytes: what archiving keeps a day")
    return out


def settings(sizes: Sizes) -> dict[Path, dict[str, str]]:
    """What each deploy file must say, by setting, for ``sizes``."""
    f = sizes.figures
    return {
        CLASSROOM: {"memory request": f["class_memory_request"],
                    "memory limit": f["class_memory_limit"],
                    "cpu request": f["class_cpu_request"],
                    "--max-students": str(f["max_students"])},
        POSTGRESQL: {name: str(f[name]) for name in (
            "max_connections", "superuser_reserved_connections", "shared_buffers",
            "effective_cache_size", "checkpoint_timeout", "max_wal_size", "min_wal_size")},
    }


def found_in(path: Path) -> dict[str, str]:
    """The settings :func:`settings` names, as ``path`` has them now."""
    text = path.read_text(encoding="utf-8")
    if path == POSTGRESQL:
        return {key: value.strip("'") for key, value in re.findall(
            r"^(\w+)\s*=\s*(\S+)", text, re.M)}
    import yaml

    found: dict[str, str] = {}
    for document in yaml.safe_load_all(text):
        if not document or document.get("kind") != "Deployment":
            continue
        container = document["spec"]["template"]["spec"]["containers"][0]
        resources = container["resources"]
        found["memory request"] = str(resources["requests"]["memory"])
        found["memory limit"] = str(resources["limits"]["memory"])
        found["cpu request"] = str(resources["requests"]["cpu"])
        command = [str(word) for word in container["command"]]
        if "--max-students" in command:
            found["--max-students"] = command[command.index("--max-students") + 1]
    return found


def differences(sizes: Sizes) -> list[str]:
    """Each setting of the deploy files that is not what ``sizes`` works out, in one line."""
    lines = []
    for path, wanted in settings(sizes).items():
        have = found_in(path)
        for name, value in wanted.items():
            if have.get(name) != value:
                lines.append(f"{path.relative_to(HERE.parent)}: {name} is "
                             f"{have.get(name, 'missing')}, the costs give {value}")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--costs", type=Path, default=COSTS,
                        help="the costs and the school (default deploy/costs.toml)")
    parser.add_argument("--check", action="store_true",
                        help="say which settings of the deploy files differ; exit 1 if any")
    args = parser.parse_args()
    try:
        sizes = work_out(read_costs(args.costs))
    except OSError as exc:
        print(f"cannot read the costs in {args.costs}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except tomllib.TOMLDecodeError as exc:
        print(f"cannot read the costs in {args.costs}: {exc}", file=sys.stderr)
        return 2
    except KeyError as exc:
        print(f"cannot read the costs in {args.costs}: {exc} is missing", file=sys.stderr)
        return 2
    if args.check:
        wrong = differences(sizes)
        print("\n".join(wrong) if wrong else "every setting is as the costs give it")
        return 1 if wrong else 0
    print("\n".join(sizes.working))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
