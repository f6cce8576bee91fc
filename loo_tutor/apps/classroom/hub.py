"""The classroom as a JupyterHub service: ``loo-tutor classroom --hub``.

A school serves each class as a service of its JupyterHub, named after the
class (``deploy/jupyterhub/jupyterhub_config.py``). The Hub starts the
classroom (or the administrator does, on another machine) with the service's
environment, which :func:`service_from` reads:

* ``JUPYTERHUB_SERVICE_NAME``: the service, and so the class (``--class-name``
  unless given);
* ``JUPYTERHUB_SERVICE_URL``: the address and port the server listens on;
* ``JUPYTERHUB_SERVICE_PREFIX``: the prefix of every route (``/services/9a/``),
  where the Hub's proxy sends the class's requests;
* ``JUPYTERHUB_API_URL`` and ``JUPYTERHUB_API_TOKEN``: the Hub's API and the
  service's secret with it, for the teachers' login;
* ``JUPYTERHUB_CLIENT_ID`` and ``JUPYTERHUB_OAUTH_CALLBACK_URL``: the service's
  OAuth client (``service-NAME`` and ``PREFIX/oauth_callback`` unless given, as
  the Hub makes them);
* ``LOO_TUTOR_DATA``: the class store (a ``postgresql://`` address), unless
  ``--data`` gives it: a password stays off the command line, where any user
  of the machine could read it.

The teacher's routes (``loo/teacher…``) take no teacher's token: the teacher
logs in with the Hub (its OAuth, :class:`~.adapter.HubLogin`, ending at
``PREFIX/oauth_callback``), and is the class's teacher when the Hub says they
are a member of the group ``teachers-NAME`` (:class:`Teachers`). The Hub's
token for them is kept in a signed, HttpOnly cookie for the teacher's routes
alone. Everything else (the students joining by name, the class code, the
XSRF checks, the limits) is as without ``--hub``.

With ``--students hub`` the students log in with the Hub too, and join under
their Hub name, with no form to fill (:meth:`Teachers.student`); the Hub lets
in the members of the class's group ``students-NAME`` (the shipped
configuration gives them ``access:services!service=NAME``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from .doors import normal_base, under

DATA_VARIABLE = "LOO_TUTOR_DATA"
"""Where the Hub gives the classroom its class store (the shipped configuration sets it)."""
COOKIE = "loo-hub-teacher"
"""The cookie holding the Hub's token for the teacher, on the teacher's routes."""
STUDENT_COOKIE = "loo-hub-student"
"""The cookie holding the Hub's token for a student (``--students hub``), under the prefix."""
CALLBACK = "oauth_callback"
"""The route, under the prefix, where the Hub's login ends."""


@dataclass(frozen=True)
class HubService:
    """The service's environment, as the Hub gives it."""

    name: str
    host: str
    port: int
    prefix: str
    api_url: str
    api_token: str
    client_id: str
    callback: str
    data: str
    public_url: str

    def group(self) -> str:
        """The Hub group of the class's teachers."""
        return f"teachers-{self.name}"


def service_from(environ: Mapping[str, str]) -> HubService | str:
    """The service ``environ`` describes, or a one-line reason it cannot serve as one."""
    missing = [name for name in ("JUPYTERHUB_SERVICE_NAME", "JUPYTERHUB_SERVICE_URL",
                                 "JUPYTERHUB_API_URL", "JUPYTERHUB_API_TOKEN")
               if not environ.get(name)]
    if missing:
        return (f"--hub needs the environment JupyterHub gives a service, and "
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not set: "
                "list the class as a service in the Hub's configuration "
                "(deploy/jupyterhub/jupyterhub_config.py)")
    name = environ["JUPYTERHUB_SERVICE_NAME"]
    address = urlsplit(environ["JUPYTERHUB_SERVICE_URL"])
    try:
        port = address.port or (443 if address.scheme == "https" else 80)
    except ValueError:
        port = 0
    if address.scheme not in ("http", "https") or not address.hostname or not port:
        return (f"JUPYTERHUB_SERVICE_URL is {environ['JUPYTERHUB_SERVICE_URL']!r}, not an "
                "address such as http://127.0.0.1:8101")
    try:
        prefix = normal_base(environ.get("JUPYTERHUB_SERVICE_PREFIX") or f"/services/{name}/")
    except ValueError as exc:
        return f"JUPYTERHUB_SERVICE_PREFIX: {exc}"
    return HubService(
        name=name, host=address.hostname, port=port, prefix=prefix,
        api_url=environ["JUPYTERHUB_API_URL"], api_token=environ["JUPYTERHUB_API_TOKEN"],
        client_id=environ.get("JUPYTERHUB_CLIENT_ID") or f"service-{name}",
        callback=environ.get("JUPYTERHUB_OAUTH_CALLBACK_URL") or under(prefix, CALLBACK),
        data=environ.get(DATA_VARIABLE, ""),
        public_url=environ.get("JUPYTERHUB_PUBLIC_URL", ""))


def environment() -> Mapping[str, str]:
    """This process's environment (the one place the classroom reads the Hub's)."""
    return os.environ


def not_the_teacher(user: str, class_name: str, group: str) -> str:
    """The refusal of a Hub user who is not a teacher of this class."""
    return (f"{user} is logged in to the school's JupyterHub but is not a teacher of class "
            f"{class_name}: its teachers are the Hub's group {group}. Ask the Hub's "
            "administrator to add you to it, or open your own class's teacher's page.")


class Teachers:
    """Who may open the teacher's routes of a class served as a Hub service.

    ``login`` is the Hub's OAuth (:class:`~.adapter.HubLogin`, or a stand-in
    with its three methods in the tests).
    """

    def __init__(self, service: HubService, login: Any, students: bool = False) -> None:
        self.service = service
        self.login = login
        self.students = students
        """Whether the students log in with the Hub too (``--students hub``)."""

    @classmethod
    def of(cls, service: HubService, students: bool = False) -> Teachers:
        from .adapter import HubLogin

        return cls(service, HubLogin(service.api_url, service.api_token, service.client_id,
                                     service.callback, service.prefix), students)

    def cookie_path(self) -> str:
        return under(self.service.prefix, "loo/teacher")

    async def user(self, handler: Any, cookie: str = COOKIE) -> dict[str, Any] | None:
        """The Hub's model of the user whose browser sends ``handler``'s request (by the
        teacher's ``cookie``, or the student's), or ``None``."""
        kept = handler.get_secure_cookie(cookie)
        if not kept:
            return None
        found: dict[str, Any] | None = await self.login.user(kept.decode("ascii", "replace"))
        return found

    async def student(self, handler: Any) -> str | None:
        """The Hub name of the student whose browser sends ``handler``'s request, or ``None``."""
        found = await self.user(handler, STUDENT_COOKIE)
        name = found.get("name") if found else None
        return name if isinstance(name, str) and name else None

    def teaches(self, user: Mapping[str, Any]) -> bool:
        """Whether the Hub's ``user`` model is of a member of the class's teachers' group."""
        groups = user.get("groups")
        return isinstance(groups, list) and self.service.group() in groups

    def refusal(self, user: Mapping[str, Any]) -> str:
        return not_the_teacher(str(user.get("name", "?")), self.service.name,
                               self.service.group())

    def keep_token(self, handler: Any, token: str, next_url: str) -> None:
        """Have the browser keep the Hub's token, signed: a teacher's for the teacher's
        routes, where ``next_url`` goes; a student's (``--students hub``) under the prefix."""
        secure = handler.request.protocol == "https" or \
            self.service.public_url.startswith("https:")
        teacher = next_url.startswith(self.cookie_path()) or not self.students
        handler.set_secure_cookie(COOKIE if teacher else STUDENT_COOKIE, token,
                                  path=self.cookie_path() if teacher else self.service.prefix,
                                  httponly=True, samesite="Lax", secure=secure, expires_days=1)

