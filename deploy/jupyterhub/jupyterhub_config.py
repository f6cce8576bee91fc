"""JupyterHub's configuration for a school's classes of loo-tutor.

Each class of the school is a JupyterHub *service* named after the class
(``9a``), served by the Hub's proxy at ``/services/9a/``: one
``loo-tutor classroom --hub --class-name 9a`` server per class, all keeping
their classes in one PostgreSQL database. Students open
``https://HUB/services/9a/`` and join by name, with no Hub account; the
class's teachers open ``https://HUB/services/9a/loo/teacher``, log in with the
Hub, and see their class. The classes and their teachers are listed in
``classes.toml`` beside this file.

Start the Hub with it (JupyterHub 6 and its proxy, configurable-http-proxy,
installed; loo-tutor installed where the Hub runs)::

    LOO_TUTOR_DATA=postgresql://loo:PASSWORD@127.0.0.1/school \\
        jupyterhub -f /path/to/deploy/jupyterhub/jupyterhub_config.py

What it sets up, per class ``NAME`` of ``classes.toml``:

* the service ``NAME``. Without ``url`` in its table, the Hub starts it on
  this machine (a *managed* service: ``command`` of ``[school]``, then
  ``--hub --class-name NAME``), listening on ``127.0.0.1`` on its own port
  (``first_port`` up, or the class's ``port``), and starts it again if it
  stops. With ``url``, it runs on another machine (an *external* service),
  started there by the administrator (see *A class on another machine*);
* the database's address, given to the classroom in its environment as
  ``LOO_TUTOR_DATA`` (from the Hub's own environment, or ``database`` in
  ``[school]``), never on its command line, where every user of the
  machine could read the password;
* the group ``teachers-NAME``, with the class's ``teachers`` as members;
* the role ``teachers-NAME``, given to that group, with the one scope
  ``access:services!service=NAME``: the Hub lets those users (and admins)
  log in to the class's teacher's page, and refuses anyone else on its own
  page. The classroom checks the group again: a Hub user who is let through
  but is not in ``teachers-NAME`` (an admin) gets a page saying that the
  class is not theirs. Students need no scope: they join by name, and the
  class's student pages do not ask the Hub who they are;
* for a class whose table lists ``students`` (Hub users), the students log
  in with the Hub instead and join under their Hub names (the classroom's
  ``--students hub``): the group ``students-NAME`` with those members, and
  its role ``students-NAME`` with the same one scope.

The Hub's own settings (the authenticator, the address it listens on, TLS,
its database) are the school's: add them below, or in a second file that
loads this one (``load_subconfig``). Groups and roles listed here are set
again at each start, so a teacher removed from ``classes.toml`` loses the
class at the next restart.

A class on another machine
--------------------------

Give the class a ``url`` (where the Hub's proxy reaches it) and an
``api_token_file`` (a secret of 32 or more random characters, such as
``openssl rand -hex 32`` makes, readable by the Hub's user only). The Hub's
API must be reachable from that machine (``c.JupyterHub.hub_bind_url =
"http://0.0.0.0:8081"`` and a firewall that lets only the class machines
in). On the class's machine, start the classroom with the environment the
Hub gives a managed class::

    export JUPYTERHUB_SERVICE_NAME=10c
    export JUPYTERHUB_SERVICE_URL=http://0.0.0.0:8101
    export JUPYTERHUB_SERVICE_PREFIX=/services/10c/
    export JUPYTERHUB_API_URL=http://HUB-MACHINE:8081/hub/api
    export JUPYTERHUB_API_TOKEN=$(cat /etc/loo-tutor/class-10c.token)
    export LOO_TUTOR_DATA=postgresql://loo:PASSWORD@DB-MACHINE/school
    loo-tutor classroom --hub --class-name 10c

Listening on another address than 127.0.0.1, the classroom makes and prints
a class code for the students to type when they join.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # JupyterHub on Python 3.10 brings no TOML reader of its own
    import tomli as tomllib

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - given by JupyterHub

HERE = Path(__file__).resolve().parent
CLASSES = Path(os.environ.get("LOO_TUTOR_CLASSES") or HERE / "classes.toml")
"""The school's classes: ``classes.toml`` beside this file, or the file LOO_TUTOR_CLASSES names."""
DATA_VARIABLE = "LOO_TUTOR_DATA"
"""The environment variable that gives the classroom its database (loo-tutor classroom --hub)."""
CLASS_NAME = re.compile(r"[a-z0-9]([a-z0-9_.-]{0,61}[a-z0-9])?")
"""A class's name, which names its service, group and role (JupyterHub's roles take no capitals)."""


def school_classes(path: Path) -> tuple[dict, dict]:
    """The ``[school]`` table and the classes of ``path``, each class's table checked."""
    with path.open("rb") as file:
        read = tomllib.load(file)
    school, classes = read.get("school", {}), read.get("classes", {})
    if not classes:
        raise SystemExit(f"{path}: no class: add a table [classes.NAME] for each class")
    for name, table in classes.items():
        if not CLASS_NAME.fullmatch(name):
            raise SystemExit(f"{path}: {name!r} is not a class name: small letters, "
                             "digits, '-', '_' or '.', starting and ending with a letter or digit")
        unknown = set(table) - {"teachers", "students", "url", "port", "api_token_file"}
        for key in ("teachers", "students"):
            if not isinstance(table.get(key, []), list):
                raise SystemExit(f"{path}: class {name}: {key} is a list of Hub user names")
        if unknown:
            raise SystemExit(f"{path}: class {name}: unknown setting {sorted(unknown)[0]!r}")
        if "url" in table and "api_token_file" not in table:
            raise SystemExit(f"{path}: class {name} has a url (another machine) "
                             "but no api_token_file")
    return school, classes


def class_services(school: dict, classes: dict, database: str) -> list[dict]:
    """JupyterHub's ``services``: one per class, started here or served from elsewhere."""
    command = list(school.get("command", ["loo-tutor", "classroom"]))
    port = int(school.get("first_port", 8101))
    services = []
    for name, table in classes.items():
        service = {"name": name, "display": True,
                   # The teacher's page is the school's own: no "authorize" page to confirm.
                   "oauth_no_confirm": True}
        if "url" in table:
            token = Path(table["api_token_file"]).read_text().strip()
            # At its start the Hub waits this many seconds for each class on another
            # machine, one after another, and then carries on without it.
            service.update(url=table["url"], api_token=token, timeout=10)
        else:
            students = ["--students", "hub"] if "students" in table else []
            # The Hub stops if a class it starts does not answer within this many seconds;
            # a busy machine starting every class at once needs a while.
            service.update(timeout=120, url=f"http://127.0.0.1:{table.get('port', port)}",
                           command=[*command, "--hub", "--class-name", name, *students],
                           environment={DATA_VARIABLE: database} if database else {})
            if school.get("folder"):
                service["cwd"] = school["folder"]
            port = int(table.get("port", port)) + 1
        services.append(service)
    return services


def class_groups(classes: dict) -> dict[str, dict]:
    """JupyterHub's ``load_groups``: the group ``teachers-NAME`` of each class, and
    ``students-NAME`` of each class whose students log in with the Hub."""
    groups = {}
    for name, table in classes.items():
        groups[f"teachers-{name}"] = {"users": list(table.get("teachers", []))}
        if "students" in table:
            groups[f"students-{name}"] = {"users": list(table["students"])}
    return groups


def class_roles(classes: dict) -> list[dict]:
    """JupyterHub's ``load_roles``: each class's groups may log in to that class alone."""
    roles = []
    for group in class_groups(classes):
        who, _, name = group.partition("-")
        roles.append({"name": group,
                      "description": f"The {who} of class {name}: they may log in to it",
                      "scopes": [f"access:services!service={name}"],
                      "groups": [group]})
    return roles


school, classes = school_classes(CLASSES)
database = os.environ.get(DATA_VARIABLE) or school.get("database", "")

c.JupyterHub.services = class_services(school, classes, database)
c.JupyterHub.load_groups = class_groups(classes)
c.JupyterHub.load_roles = class_roles(classes)
