"""A real JupyterHub, with its proxy, serving a school's classes, for the tests and benchmarks.

:func:`start_hub` runs ``jupyterhub`` with the configuration the project ships
(``deploy/jupyterhub/jupyterhub_config.py``, which reads the classes from a
``classes.toml``) and a few settings of the test's own on top: everything in
a new temporary folder (the Hub's SQLite database, its cookie secret, the
classes' table), the Hub, its proxy (configurable-http-proxy, which
``./dev test`` installs from npm into ``_vendor_test``) and the proxy's API on
free ports of 127.0.0.1 only, and a test authenticator (JupyterHub's
``SharedPasswordAuthenticator``: any user name, one password,
:data:`PASSWORD`; admins log in with :data:`ADMIN_PASSWORD`).

The classes are given as a table like ``classes.toml``'s: each class's
``teachers`` (and ``students``, who then log in with the Hub), and either
nothing else (the Hub starts the classroom itself, a managed service, on a
free port) or a ``url`` (an external classroom the
test starts, see :func:`service_environment`). It returns once the Hub's API
answers (on its own address: the Hub then waits for its classes, an external
one for 10 s, before it adds their routes to the proxy);
:func:`wait_for_class` waits until a class's route is in the proxy and its
classroom answers there. :func:`stop_hub` stops
the Hub, which stops the classrooms it started and its proxy, and then ends
whatever of them is left, so that no process outlives the test.

A machine without JupyterHub or its proxy fails the test with one line saying
how to install them (``./dev test`` does); it never skips.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import pytest

from classroom_server import free_port

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
"""The configuration the project ships for a school, which the test starts the Hub with."""
PROXY = ROOT / "_vendor_test" / "configurable-http-proxy" / "node_modules" / ".bin" / \
    "configurable-http-proxy"
"""JupyterHub's proxy, installed by ``./dev test`` from npm."""
INSTALL = "(./dev test installs it)"
PASSWORD = "a-class-of-loo-1"
"""Every user's password with the test authenticator."""
ADMIN_PASSWORD = "the-head-of-school-password-for-tests"
"""The password of the Hub's admins (``admins`` of :func:`start_hub`)."""
START_TIMEOUT = 120.0
CLASS_TIMEOUT = 300.0
"""How long :func:`wait_for_class` waits: the Hub starts its classes one after another, and
adds their routes once all have started."""
STOP_TIMEOUT = 30.0
CLASSROOM = [sys.executable, "-m", "loo_tutor", "classroom"]
"""The classroom's command the Hub runs for a class: this Python's loo-tutor."""


@dataclass
class Hub:
    """A running JupyterHub: its process, its addresses and its output."""

    process: subprocess.Popen[str]
    folder: Path
    url: str
    """The proxy's address, where the school is served: ``http://127.0.0.1:PORT/``."""
    api_url: str
    """The Hub's API, as the classrooms reach it (not through the proxy)."""
    proxy_api: str
    proxy_token: str
    classes: dict[str, dict[str, Any]]
    log: list[str] = field(default_factory=list)

    def class_url(self, name: str) -> str:
        """The address of class ``name`` through the proxy."""
        return f"{self.url}services/{name}/"

    def routes(self) -> dict[str, Any]:
        """The proxy's routing table, from its API."""
        request = urllib.request.Request(f"{self.proxy_api}/api/routes",
                                         headers={"Authorization": f"token {self.proxy_token}"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            found: dict[str, Any] = json.load(reply)
        return found


def require_hub() -> None:
    """Fail, never skip, when JupyterHub or its proxy is missing."""
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        pytest.fail(f"JupyterHub is not installed: it is in requirements.txt {INSTALL}",
                    pytrace=False)
    if not os.access(PROXY, os.X_OK):
        pytest.fail(f"JupyterHub's proxy is missing ({PROXY.relative_to(ROOT)}): "
                    f"./dev test installs configurable-http-proxy from npm", pytrace=False)


def _toml(value: Any) -> str:
    """``value`` (a string, a number or a list of strings) written as TOML."""
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml, value)) + "]"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))


def classes_toml(classes: Mapping[str, Mapping[str, Any]], command: Sequence[str],
                 tokens: Mapping[str, Path]) -> str:
    """A ``classes.toml`` for ``classes``: the managed ones on free ports of 127.0.0.1."""
    lines = ["[school]", f"command = {_toml(list(command))}", "", ]
    for name, table in classes.items():
        lines.append(f'[classes."{name}"]')
        lines.append(f"teachers = {_toml(list(table.get('teachers', [])))}")
        if "students" in table:
            lines.append(f"students = {_toml(list(table['students']))}")
        if "url" in table:
            lines.append(f"url = {_toml(table['url'])}")
            lines.append(f"api_token_file = {_toml(str(tokens[name]))}")
        else:
            lines.append(f"port = {table.get('port') or free_port()}")
        lines.append("")
    return "\n".join(lines)


def _test_config(folder: Path, port: int, hub_port: int, proxy_api: str, proxy_token: str,
                 admins: Sequence[str]) -> str:
    """The test's settings, on top of the shipped configuration (loaded first)."""
    settings = {
        "JupyterHub.bind_url": f"http://127.0.0.1:{port}",
        "JupyterHub.hub_bind_url": f"http://127.0.0.1:{hub_port}",
        "JupyterHub.db_url": f"sqlite:///{folder / 'jupyterhub.sqlite'}",
        "JupyterHub.cookie_secret_file": str(folder / "jupyterhub_cookie_secret"),
        "JupyterHub.authenticator_class": "shared-password",
        "SharedPasswordAuthenticator.user_password": PASSWORD,
        "ConfigurableHTTPProxy.api_url": proxy_api,
        "ConfigurableHTTPProxy.auth_token": proxy_token,
        "ConfigurableHTTPProxy.command": [str(PROXY)],
        "ConfigurableHTTPProxy.pid_file": str(folder / "proxy.pid"),
        "Authenticator.allow_all": True,
    }
    if admins:
        settings["Authenticator.admin_users"] = list(admins)
        settings["SharedPasswordAuthenticator.admin_password"] = ADMIN_PASSWORD
    lines = ["c = get_config()  # noqa: F821", f"load_subconfig({str(SHIPPED_CONFIG)!r})"]
    for key, value in settings.items():
        section, name = key.split(".")
        shown = f"set({value!r})" if name == "admin_users" else repr(value)
        lines.append(f"c.{section}.{name} = {shown}")
    return "\n".join(lines) + "\n"


def start_hub(classes: Mapping[str, Mapping[str, Any]], *, database: str = "",
              command: Sequence[str] = CLASSROOM, admins: Sequence[str] = ()) -> Hub:
    """Start a JupyterHub serving ``classes`` (see the module); returns once its API answers.

    ``database`` is the classes' store (``LOO_TUTOR_DATA`` in the Hub's
    environment, as a school gives it), ``command`` the classroom's command
    (the shipped configuration adds ``--hub --class-name NAME``).

    Raises:
        RuntimeError: the Hub stopped, or did not answer in time; the message
            ends with its output.
    """
    require_hub()
    folder = Path(tempfile.mkdtemp(prefix="loo-hub-"))
    tokens = {}
    for name, table in classes.items():
        if "url" in table:
            tokens[name] = folder / f"class-{name}.token"
            tokens[name].write_text(str(table.get("api_token") or secrets.token_hex(32)))
            tokens[name].chmod(0o600)
    (folder / "classes.toml").write_text(classes_toml(classes, command, tokens))
    port, hub_port, proxy_port = free_port(), free_port(), free_port()
    proxy_api, proxy_token = f"http://127.0.0.1:{proxy_port}", secrets.token_hex(32)
    config = folder / "jupyterhub_config.py"
    config.write_text(_test_config(folder, port, hub_port, proxy_api, proxy_token, admins))
    env = dict(os.environ, LOO_TUTOR_CLASSES=str(folder / "classes.toml"), PYTHONUNBUFFERED="1",
               PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                     os.environ.get("PATH", "")]))
    env.pop("LOO_TUTOR_DATA", None)
    if database:
        env["LOO_TUTOR_DATA"] = database
    process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)],
                               cwd=folder, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    hub = Hub(process, folder, f"http://127.0.0.1:{port}/",
              f"http://127.0.0.1:{hub_port}/hub/api", proxy_api, proxy_token,
              {name: dict(table) for name, table in classes.items()})

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            hub.log.append(line)

    threading.Thread(target=pump, daemon=True).start()
    try:
        # The Hub's own address: it answers before the Hub waits for its classes (an
        # external one may be started only now) and adds their routes to the proxy.
        _wait(lambda: _answers(hub.api_url), hub, "the Hub's API to answer")
    except BaseException:
        stop_hub(hub)
        raise
    return hub


def _answers(url: str) -> bool:
    """Whether ``url`` answers 200."""
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return int(reply.status) == 200
    except (urllib.error.URLError, OSError):
        return False


def _wait(ready: Any, hub: Hub, what: str, timeout: float = START_TIMEOUT) -> None:
    """Wait until ``ready()``, at most ``timeout`` seconds and while the Hub runs."""
    deadline = time.monotonic() + timeout
    while not ready():
        if hub.process.poll() is not None:
            raise RuntimeError(f"the Hub stopped (exit {hub.process.returncode}) while waiting "
                               f"for {what}:\n" + "".join(hub.log[-60:]))
        if time.monotonic() > deadline:
            raise RuntimeError(f"waited {timeout:.0f} s for {what}:\n" + "".join(hub.log[-60:]))
        time.sleep(0.2)  # the interval between two looks, not a guess at how long it takes


def wait_for_class(hub: Hub, name: str, timeout: float = CLASS_TIMEOUT) -> str:
    """Wait until class ``name``'s route is in the proxy and its classroom answers there;
    returns the class's address."""
    route = f"/services/{name}"  # the proxy lists its routes without their last slash
    _wait(lambda: route in _routes_or_none(hub), hub, f"the proxy's route {route}/", timeout)
    _wait(lambda: _answers(hub.class_url(name) + "loo/me"), hub,
          f"class {name} to answer through the proxy", timeout)
    return hub.class_url(name)


def _routes_or_none(hub: Hub) -> dict[str, Any]:
    try:
        return hub.routes()
    except (urllib.error.URLError, OSError, ValueError):
        return {}


def service_environment(hub: Hub, name: str, listen: str) -> dict[str, str]:
    """The environment an external class ``name`` is started with (as an administrator
    exports it on the class's machine), listening on ``listen`` (``http://HOST:PORT``)."""
    token = (hub.folder / f"class-{name}.token").read_text()
    return {"JUPYTERHUB_SERVICE_NAME": name, "JUPYTERHUB_SERVICE_URL": listen,
            "JUPYTERHUB_SERVICE_PREFIX": f"/services/{name}/",
            "JUPYTERHUB_API_URL": hub.api_url, "JUPYTERHUB_API_TOKEN": token}


def stop_hub(hub: Hub) -> int | None:
    """Stop the Hub (SIGTERM): it stops the classrooms it started and its proxy; whatever of
    them is still running after that is ended too. Removes the Hub's folder; returns its
    exit status."""
    try:
        started = psutil.Process(hub.process.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        started = []
    proxy = _proxy_process(hub)  # gone from the Hub's children if the Hub stopped on its own
    if proxy is not None and proxy.pid not in {each.pid for each in started}:
        started.append(proxy)
    if hub.process.poll() is None:
        hub.process.send_signal(signal.SIGTERM)
        try:
            hub.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            hub.process.kill()
            hub.process.wait(timeout=10)
    _, left = psutil.wait_procs(started, timeout=STOP_TIMEOUT)
    for process in left:
        with suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(left, timeout=10)
    shutil.rmtree(hub.folder, ignore_errors=True)
    return hub.process.returncode


def _proxy_process(hub: Hub) -> psutil.Process | None:
    """The proxy the Hub started, by the process id it noted, while it runs."""
    try:
        process = psutil.Process(int((hub.folder / "proxy.pid").read_text()))
        return process if str(PROXY.name) in " ".join(process.cmdline()) else None
    except (OSError, ValueError, psutil.NoSuchProcess, psutil.AccessDenied):
        return None


@contextmanager
def hub_serving(classes: Mapping[str, Mapping[str, Any]], **options: Any) -> Iterator[Hub]:
    """:func:`start_hub`, stopped when the block ends."""
    hub = start_hub(classes, **options)
    try:
        yield hub
    finally:
        stop_hub(hub)


def log_in(page: Any, hub: Hub, user: str, next_url: str, password: str = PASSWORD) -> None:
    """Open ``next_url`` in Playwright's ``page`` and log in as ``user`` on the Hub's login
    page it is sent to; returns once the browser is back at ``next_url``'s page."""
    page.goto(next_url)
    page.locator("input#username_input").fill(user)
    page.locator("input#password_input").fill(password)
    page.locator("#login_submit").click()
    page.wait_for_load_state()
