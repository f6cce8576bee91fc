"""A real PostgreSQL server for the tests of the class store, in a temporary folder.

The session's server (:func:`postgres_server`) is Debian's PostgreSQL, started
with its own ``initdb`` and ``pg_ctl`` in a new temporary folder, listening on
127.0.0.1 on a free port and on a socket in that folder, with trust
authentication (nothing else can reach it), and stopped when the session ends.
PostgreSQL refuses to run as root: run as root, as the machines do, the server
runs as the ``postgres`` user (``runuser``), which owns the folder.

Each test gets a database of its own (:func:`postgres_database`). A machine
without PostgreSQL fails the test with one line saying how to install it;
``./dev test`` installs it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import pytest

from classroom_server import free_port

INSTALL = "PostgreSQL is not installed: install it with 'apt-get install postgresql' (./dev test does)"
USER = "postgres"


@dataclass
class Postgres:
    """A running PostgreSQL server: its binaries, its folder and its port."""

    bin: Path
    folder: Path
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"


def binaries() -> Path | None:
    """The folder of the newest PostgreSQL's programs installed, or ``None``."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parts[-3]))
    return Path(found[-1]).parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    """``command`` run as the ``postgres`` user when the tests run as root."""
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", USER, "--", *command]


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(_as_owner(command), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")


def start_postgres() -> Postgres:
    """Make a new cluster in a temporary folder and start it; returns once it takes connections."""
    found = binaries()
    if found is None:
        pytest.fail(INSTALL, pytrace=False)
    folder = Path(tempfile.mkdtemp(prefix="loo-postgres-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam(USER)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data = folder / "data"
    _run([str(found / "initdb"), "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
          "--no-sync", "--no-instructions"], "initdb")
    port = free_port()
    options = f"-h 127.0.0.1 -p {port} -k {folder} -F -c max_connections=50"
    _run([str(found / "pg_ctl"), "start", "-w", "-t", "120", "-D", str(data),
          "-l", str(folder / "server.log"), "-o", options], "pg_ctl start")
    return Postgres(found, folder, port)


def stop_postgres(server: Postgres) -> None:
    """Stop ``server`` and remove its folder."""
    try:
        _run([str(server.bin / "pg_ctl"), "stop", "-w", "-m", "fast", "-D",
              str(server.folder / "data")], "pg_ctl stop")
    finally:
        shutil.rmtree(server.folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Postgres]:
    """The session's PostgreSQL server (one per pytest-xdist worker)."""
    server = start_postgres()
    try:
        yield server
    finally:
        stop_postgres(server)


_databases = count(1)


def new_database(server: Postgres) -> str:
    """The address of a new, empty database of ``server``."""
    import psycopg

    name = f"class_{os.getpid()}_{next(_databases)}"
    with psycopg.connect(server.url(), autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)


@pytest.fixture
def postgres_database(postgres_server: Postgres) -> str:
    """The address of a new, empty database for one test."""
    return new_database(postgres_server)
