"""The classroom's one adapter to Voila, Jupyter Server and Tornado: every reach past their
public configuration lives here, and ``tests/apps/test_classroom_adapter.py`` checks each
one against the pinned versions, so that an upgrade that changes any of them fails there,
by name.

Public configuration does most of the work (:func:`.app.voila_config`: the
template, the kept-ready kernels, the kernel spec manager that starts the
classroom's kernels, culling, the notary; ``JUPYTER_PATH`` for the
templates; Jupyter Server's ``log_request`` as Tornado's ``log_function``).
What stays outside it, each with the reason:

1. ``Voila.init_handlers`` (overridden by :class:`AdaptedVoila`): the one place
   where the server's routes are made, after the Tornado application
   (``Voila.app``) and the kernel manager exist; the classroom adds its own
   routes there and wraps Voila's.
2. ``Voila.listen`` (overridden): passes ``max_body_size`` to
   ``Voila.app.listen``, so that a body past the limit is refused before it
   is read.
3. ``Voila.stop`` (overridden): a kept-ready kernel still starting at Ctrl-C
   is gone when Voila shuts it down, and Voila raises ``HTTPError(404)``.
4. ``voila_jinja2_env`` in the Tornado settings (:func:`template_globals`):
   the list page's template finds ``loo_listing`` there.
5. The kernel manager's ``_pools`` (:func:`says_when_ready`): per notebook, a
   list of tasks resolving to ``{"task", "renderer", "kernel_id"}``; its
   ``fill_if_needed(delay, notebook_name, ...)`` wrapped on the instance;
   the renderer's ``stop_generator``, set when a page takes the kernel.
   Voila says nothing when a kept-ready kernel has run its notebook, and the
   admission counts the kernels pages have taken from them.
6. ``VoilaHandler.get`` (:func:`gated_page`): the notebook page handler,
   wrapped so that the admission may answer first, and so that the page gets
   its XSRF cookie (Voila's page never reads the token).
7. The ``no_cache_paths`` argument of Voila's labextensions route
   (:func:`packed_route`): emptied, as the extensions' files carry hashes.
8. Tornado's ``StaticFileHandler`` (:func:`packed_route`):
   ``get_cache_time`` and ``set_headers`` overridden, and the instance's
   ``get_content_size`` and ``get_content`` replaced for one response, to
   send a file compressed once and kept.
9. Tornado's ``WebSocketHandler`` and Jupyter Server's kernel websocket
   (:func:`classroom_socket`): ``open``, ``on_close``, ``write_message`` (a
   future), ``get_websocket_protocol`` and the ``ping_timeout`` property, and
   the handler's ``kernel_id`` and ``connection`` (set before Tornado's
   handshake, ``None`` once the page has closed).
10. Tornado's ``RequestHandler._reason`` (:func:`reason`): the reason phrase of
    the status being sent, for a refusal in one line.
11. Jupyter Server's ``JupyterHandler._jupyter_current_user``
    (:func:`knows_who_is_asking`): Jupyter Server calls ``check_xsrf_cookie``
    once before it knows who is asking and again after; the classroom checks
    on the second call.
12. Tornado's own ``RequestHandler.check_xsrf_cookie`` (:func:`tornado_xsrf_check`),
    called past ``JupyterHandler``'s, which lets a request with the server's
    token in its address through: every student knows that token.
13. Tornado's ``RequestHandler._finished`` (:func:`finished`): whether Jupyter
    Server's ``prepare`` has already answered (a refusal), before the teacher's
    routes check the teacher's token.
14. JupyterHub's ``HubOAuth`` (:class:`HubLogin`, ``loo-tutor classroom --hub``),
    driven step by step through its public methods by the classroom's own
    handlers, rather than through ``HubOAuthenticated`` and
    ``HubOAuthCallbackHandler``: ``HubOAuth.get_user`` on a Jupyter Server
    handler replaces ``check_xsrf_cookie`` and ``xsrf_token`` on Jupyter
    Server's handler class (``_patch_xsrf``), which would change the XSRF
    check of every route of the server, the students' included, and its
    callback handler writes an ``_xsrf`` cookie of the Hub's own over the
    server's. The steps are the callback handler's: the state cookie
    (``set_state_cookie``, ``get_state_cookie_name``,
    ``clear_oauth_state_cookies``), PKCE (``generate_pkce_code_challenge``),
    the code for a token (``token_for_code``), and the user for a token
    (``user_for_token``); the token is kept in the classroom's own signed
    cookie.
15. Voila's kept-ready kernel manager's ``get_rendered_notebook`` (:func:`idle_from_taking`),
    which hands a page a kernel from a pool, returning ``(task, cells, kernel_id)``:
    wrapped on the instance. The kernel's ``last_activity``, by which Jupyter
    Server's culler measures idleness, is then set to the time by the kernel
    manager's own clock (``utcnow`` of its module, which its culler reads).
    Voila's culler passes over the kernels kept ready, but a kernel taken from
    the pool still has the ``last_activity`` of when it ran its notebook: one
    kept ready past the cull time would be culled at the next cull round,
    before its page could connect.

Nothing else in the classroom names a private part of these packages.
Voila is pinned to 0.5 in requirements.txt and in the install hint; JupyterHub to 6.1.1
in requirements.txt, and imported only by ``--hub``.
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import os
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from functools import partial
from typing import Any

from jupyter_server.services.kernels import kernelmanager
from tornado import web, websocket
from voila.app import Voila
from voila.handler import VoilaHandler

CACHE_SECONDS = 3600
"""How long a browser may keep Voila's own files without asking again."""
_CACHED_ROUTES = ("/voila/static/", "/voila/templates/", "/voila/labextensions/")
_COMPRESSED = (".js", ".css", ".svg", ".json", ".html", ".txt", ".ttf", ".eot", ".otf")
_packed: dict[tuple[str, int], bytes] = {}

READY = "Kernel ready for %s: %s has run the notebook"
"""The line logged when a kernel kept ready has run its notebook (notebook, kernel)."""


class AdaptedVoila(Voila):  # type: ignore[misc]
    """Voila with the classroom's three overrides (1 to 3 above).

    A subclass gives :meth:`classroom_routes`, which gets Voila's routes
    and returns the server's.
    """

    largest_body = 64 * 1024
    """The most bytes a request's body may have; set by the subclass."""

    def classroom_routes(self, voila_routes: list[Any]) -> list[Any]:
        """The server's routes, given Voila's (by default Voila's alone)."""
        return voila_routes

    def init_handlers(self) -> list[Any]:
        return self.classroom_routes(list(Voila.init_handlers(self)))

    def listen(self) -> Any:
        # Bodies past largest_body get 400 before they are read, on every route.
        self.app.listen = partial(self.app.listen, max_body_size=self.largest_body)
        return Voila.listen(self)

    def stop(self) -> None:
        # A kernel kept ready that was still starting at Ctrl-C is gone by the
        # time Voila shuts it down: not a fault, the server stops all the same.
        try:
            Voila.stop(self)
        except web.HTTPError as exc:
            if exc.status_code != 404:
                raise


def template_globals(app: Any) -> dict[str, Any]:
    """The globals of the Jinja environment Voila renders its pages with (4)."""
    found: dict[str, Any] = app.app.settings["voila_jinja2_env"].globals
    return found


def handled_by(route: Any, kind: type) -> bool:
    """Whether ``route`` is a Tornado route whose handler is a ``kind``."""
    return (isinstance(route, tuple) and len(route) >= 2 and isinstance(route[1], type)
            and issubclass(route[1], kind))


def _gzipped(path: str) -> bytes:
    """The file at ``path`` compressed with gzip, compressed once per version of the file."""
    key = (path, os.stat(path).st_mtime_ns)
    if key not in _packed:
        with open(path, "rb") as source:
            _packed[key] = gzip.compress(source.read(), compresslevel=6, mtime=0)
    return _packed[key]


def packed_route(route: Any) -> Any:
    """``route`` with its static files sent compressed, and Voila's own cached an hour (7, 8).

    Voila's files keep their names from one version of Voila to the next, so
    the hour is a bound on how long a browser could mix files of two
    versions after an upgrade. The widget extensions' files carry a hash of
    their content and may be kept for good, as Voila would if it did not turn
    caching off for them.
    """
    if not handled_by(route, web.StaticFileHandler):
        return route
    base: Any = route[1]
    cached = any(part in str(route[0]) for part in _CACHED_ROUTES)

    def get_cache_time(self: Any, path: str, modified: Any, mime_type: str) -> int:
        seconds: int = base.get_cache_time(self, path, modified, mime_type)
        return seconds or (CACHE_SECONDS if cached else 0)

    def set_headers(self: Any) -> None:
        base.set_headers(self)
        path = str(self.absolute_path)
        if (not path.endswith(_COMPRESSED) or self.request.headers.get("Range")
                or "gzip" not in self.request.headers.get("Accept-Encoding", "")):
            return
        body = _gzipped(path)
        self.set_header("Content-Encoding", "gzip")
        self.set_header("Vary", "Accept-Encoding")
        # Read by StaticFileHandler.get for this response only.
        self.get_content_size = lambda: len(body)
        self.get_content = lambda *_: body

    handler = type(base.__name__, (base,), {"get_cache_time": get_cache_time,
                                            "set_headers": set_headers})
    extra = list(route[2:])
    if extra and isinstance(extra[0], dict) and "no_cache_paths" in extra[0]:
        extra[0] = {**extra[0], "no_cache_paths": []}
    return (route[0], handler, *extra)


def static_route(pattern: str, folder: str) -> Any:
    """A route serving the files of ``folder`` (``index.html`` for a folder), compressed."""
    return packed_route((pattern, web.StaticFileHandler,
                         {"path": folder, "default_filename": "index.html"}))


def redirect_route(pattern: str, url: str) -> Any:
    """A route sending the browser on to ``url``."""
    return (pattern, web.RedirectHandler, {"url": url})


def classroom_socket(route: Any, watch: Callable[[Any, Any], None] | None = None,
                     opened: Callable[[Any, str], None] | None = None,
                     closed: Callable[[str], None] | None = None) -> Any:
    """``route``, with a websocket handler suited to a class of pages (9).

    ``watch(handler, message)`` is shown each message before it goes (the
    class book's watch for a solution shown,
    :func:`~loo_tutor.apps.classroom.handlers.solution_watcher`).

    * ``opened(handler, kernel_id)`` and ``closed(kernel_id)`` are told each
      page's connections (for the admission, so that a place is a student's
      and a page gone frees it).
    * Each message goes out at once. Tornado leaves Nagle's algorithm on for
      websockets, so a widget's small reply to a click would wait for the
      browser's delayed acknowledgement of the last packet.
    * A message for a page that has just closed is dropped with a debug line.
      The server writes the kernel's messages without waiting for them to go,
      so a write that finds the page gone would otherwise end up, much later,
      as asyncio's "Task exception was never retrieved" traceback on the
      teacher's screen: a student closing a tab is not an error.
    * Tornado is given a ping timeout no longer than its ping interval.
      Jupyter Server's handlers keep their own pings in milliseconds (every
      30,000 ms, closing after 90,000 ms without an answer), and Tornado 6.5
      reads the same two numbers as its own, in seconds, and warns on every
      start that 90000 cannot be longer than 30000. Those pings of Tornado's
      (every 30,000 s) never matter; Jupyter's, which do, are left as they are.
    * A refusal (a page asking for a kernel the server does not have, as
      after a restart) is one plain line: Jupyter Server's error page needs
      a setting Voila's server lacks, and drawing it would log a traceback.
    * A page that closes while its websocket is being set up (a tab closed
      as it loads) ends that request with a debug line. Tornado calls
      ``on_close`` as soon as the page has gone, and Jupyter Server's drops
      the handler's ``connection``, which the handshake would go on to read,
      logging a traceback. ``closed`` is told only of a connection
      ``opened`` was told of.
    """
    if not handled_by(route, websocket.WebSocketHandler):
        return route
    base: Any = route[1]

    def open_at_once(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        self.loo_opened = True
        if opened is not None:
            opened(self, self.kernel_id)
        return base.open(self, *args, **kwargs)

    def on_close(self: Any) -> Any:
        if closed is not None and getattr(self, "loo_opened", False):
            closed(self.kernel_id)
        return base.on_close(self)

    def write_message(self: Any, message: Any, binary: bool = False) -> Any:
        def page_gone(sent: asyncio.Future[None]) -> None:
            problem = None if sent.cancelled() else sent.exception()
            if isinstance(problem, websocket.WebSocketClosedError):
                self.log.debug("Message not sent, the page has closed")
            elif problem is not None:
                self.log.error("Message not sent", exc_info=problem)

        if watch is not None:
            watch(self, message)
        try:
            sent = base.write_message(self, message, binary)
        except websocket.WebSocketClosedError:
            self.log.debug("Message not sent, the page has closed")
            return None
        if isinstance(sent, asyncio.Future):
            sent.add_done_callback(page_gone)
        return sent

    def get_websocket_protocol(self: Any) -> Any:
        if hasattr(self, "connection") and self.connection is None:
            self.log.debug("The page closed before its websocket opened")
            raise web.Finish()
        self.loo_for_tornado = True
        try:
            return base.get_websocket_protocol(self)
        finally:
            self.loo_for_tornado = False

    def ping_timeout(self: Any) -> Any:
        own = base.ping_timeout.__get__(self)
        return min(own, self.ping_interval) if getattr(self, "loo_for_tornado", False) else own

    def write_error(self: Any, status_code: int, **kwargs: Any) -> None:
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code} {http.client.responses.get(status_code, 'Error')}")

    handler = type(base.__name__, (base,), {
        "open": open_at_once, "on_close": on_close, "write_message": write_message,
        "write_error": write_error,
        "get_websocket_protocol": get_websocket_protocol,
        "ping_timeout": property(ping_timeout)})
    return (route[0], handler, *route[2:])


def gated_page(route: Any, gate: Callable[[Any], Awaitable[bool] | bool] | None = None) -> Any:
    """``route``, with a notebook page handler that gives the page its XSRF token in a cookie,
    and asks ``gate(handler)`` first (6).

    A page leaving asks the server to stop its kernel with a POST, which the
    server accepts only with the token of the ``_xsrf`` cookie in its form
    (the same check as for any form of the server). Voila's notebook page
    does not read the token, so the cookie would never be set and the
    request would be refused. ``gate`` returns ``False`` when it has answered
    the request itself (the admission's pages), and Voila's page is then not
    drawn.
    """
    if not handled_by(route, VoilaHandler):
        return route
    base: Any = route[1]

    @web.authenticated
    async def get(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.xsrf_token  # noqa: B018 - reading it sets the cookie
        if gate is not None:
            going = gate(self)
            if not isinstance(going, bool):
                going = await going
            if not going:
                return None
        return await base.get(self, *args, **kwargs)

    handler = type(base.__name__, (base,), {"get": get})
    return (route[0], handler, *route[2:])


def says_when_ready(kernels: Any) -> Callable[[], tuple[set[str], int]] | None:
    """Have Voila's kernel manager ``kernels`` log :data:`READY` for each kernel it keeps ready (5).

    Each notebook's pool (Voila's ``_pools``) holds tasks that start a kernel
    and resolve to its ``renderer``, ``kernel_id`` and the ``task`` running
    the notebook in it; that task ends early when a page takes the kernel
    (the renderer's ``stop_generator`` is then set) and nothing is logged.
    The kernels of the pools filled at start are watched here, the later
    ones as ``fill_if_needed`` adds them. Does nothing without preheated
    kernels.

    Returns what pages have taken, or ``None`` without preheated kernels:
    the ids of the kernels running but those ready in the pools, and how
    many a page took from a pool while they were still starting, which the
    kernel manager does not list yet. A kernel of a pool that is starting
    may be counted for a moment: a student then waits a moment more, never
    the other way round.
    """
    pools = getattr(kernels, "_pools", None)
    watched: list[Any] = []
    if not isinstance(pools, dict):
        return None

    def ran(notebook: str | None, content: dict[str, Any], render: Any) -> None:
        if (not render.cancelled() and render.exception() is None
                and not content["renderer"].stop_generator):
            kernels.log.info(READY, notebook, content["kernel_id"])

    def started(notebook: str | None, task: Any) -> None:
        if not task.cancelled() and task.exception() is None:
            content = task.result()
            content["task"].add_done_callback(partial(ran, notebook, content))

    def watch(notebook: str | None, tasks: Iterable[Any]) -> None:
        for task in tasks:
            watched.append(task)
            task.add_done_callback(partial(started, notebook))

    fill = kernels.fill_if_needed

    def fill_and_watch(*args: Any, **kwargs: Any) -> None:
        notebook = kwargs.get("notebook_name", args[1] if len(args) > 1 else None)
        before = list(pools.get(notebook, []))
        fill(*args, **kwargs)
        watch(notebook, [task for task in pools.get(notebook, [])
                         if not any(task is old for old in before)])

    kernels.fill_if_needed = fill_and_watch
    for notebook, tasks in pools.items():
        watch(notebook, tasks)

    def taken() -> tuple[set[str], int]:
        running = set(kernels.list_kernel_ids())
        kept = [task for tasks in pools.values() for task in tasks]
        ready = {task.result()["kernel_id"] for task in kept
                 if task.done() and not task.cancelled() and task.exception() is None}
        watched[:] = [task for task in watched if not task.done()]
        starting = sum(1 for task in watched if not any(task is k for k in kept))
        return running - ready, starting

    return taken


def _culler_now() -> datetime:
    """Now, by the clock of Jupyter Server's kernel manager: its module's ``utcnow``, which
    its culler reads (15)."""
    now: datetime = vars(kernelmanager)["utcnow"]()
    return now


def idle_from_taking(kernels: Any) -> None:
    """Have a kernel that a page takes from Voila's pools count as idle from then on (15).

    A kernel kept ready waits in its pool, where no cull round stops it, for as
    long as no page comes: its ``last_activity`` is of when it ran its notebook.
    Taken by a page, it is the page's from that moment, and the page has the
    whole cull time to connect to it (connected, it is not culled). Does
    nothing without preheated kernels.
    """
    take = getattr(kernels, "get_rendered_notebook", None)
    if take is None or not isinstance(getattr(kernels, "_pools", None), dict):
        return

    async def take_from_now(*args: Any, **kwargs: Any) -> Any:
        taken = await take(*args, **kwargs)
        kernel_id = taken[2]
        if kernel_id in kernels:
            kernels.get_kernel(kernel_id).last_activity = _culler_now()
        return taken

    kernels.get_rendered_notebook = take_from_now


def reason(handler: web.RequestHandler) -> str:
    """The reason phrase of the status ``handler`` is sending (10)."""
    return str(handler._reason)


def knows_who_is_asking(handler: Any) -> bool:
    """Whether Jupyter Server has yet found who sends ``handler``'s request (11)."""
    return hasattr(handler, "_jupyter_current_user")


def tornado_xsrf_check(handler: web.RequestHandler) -> None:
    """Tornado's own XSRF check of ``handler``'s request, without Jupyter Server's exemptions (12)."""
    web.RequestHandler.check_xsrf_cookie(handler)


def finished(handler: web.RequestHandler) -> bool:
    """Whether ``handler`` has already sent its whole answer (13)."""
    return bool(handler._finished)


class HubLoginError(Exception):
    """The Hub's login could not be finished; the message says why, in one line."""


class HubLogin:
    """The Hub's OAuth for the teacher's routes of a classroom served as a Hub service (14).

    ``service`` is the service's environment as :mod:`.hub` reads it: the
    Hub's API address and the service's token, its OAuth client id and
    callback address, and its prefix (where the login's state cookie lives).
    """

    def __init__(self, api_url: str, api_token: str, client_id: str, callback: str,
                 prefix: str) -> None:
        from jupyterhub.services.auth import HubOAuth

        self.auth = HubOAuth(api_url=api_url, api_token=api_token, oauth_client_id=client_id,
                             oauth_redirect_uri=callback, base_url=prefix,
                             # a teacher taken out of the class's group loses it within a minute
                             cache_max_age=60)

    def login_url(self, handler: web.RequestHandler, next_url: str) -> str:
        """The Hub's address that logs the browser of ``handler`` in and sends it back to
        ``next_url`` (through the callback); the login's state goes into a cookie."""
        from tornado.httputil import url_concat

        params: dict[str, str] = {}
        verifier = None
        if self.auth.pkce_enabled:
            verifier, challenge, method = self.auth.generate_pkce_code_challenge()
            params.update(code_challenge=challenge, code_challenge_method=method)
        params["state"] = self.auth.set_state_cookie(handler, next_url=next_url,
                                                     code_verifier=verifier)
        return str(url_concat(self.auth.login_url, params))

    async def finish(self, handler: web.RequestHandler) -> tuple[str, str]:
        """The callback's work: the Hub's token for the code it sent, and the address the
        login set out from.

        Raises:
            HubLoginError: the Hub said no, or the state is not this browser's.
        """
        error = handler.get_argument("error", "")
        if error:
            raise HubLoginError(f"the Hub did not log you in: "
                                f"{handler.get_argument('error_description', error)}")
        code = handler.get_argument("code", "")
        state = handler.get_argument("state", "")
        if not code or not state:
            raise HubLoginError("this address is the end of the Hub's login, opened without it")
        kept = handler.get_secure_cookie(self.auth.get_state_cookie_name(state))
        self.auth.clear_oauth_state_cookies(handler)
        if kept is None or kept.decode("ascii", "replace") != state:
            raise HubLoginError("the Hub's login did not start in this browser, or took "
                                "too long")
        next_url = str(self.auth.get_next_url(state))
        verifier = self.auth.get_code_verifier(state)
        self.auth.clear_oauth_state(state)
        token = await self.auth.token_for_code(code, sync=False, code_verifier=verifier)
        return str(token), next_url

    async def user(self, token: str) -> dict[str, Any] | None:
        """The Hub's model of the user whose token this is (with their ``groups``), or ``None``
        for a token the Hub does not know (any more)."""
        found = await self.auth.user_for_token(token, sync=False)
        return found if isinstance(found, dict) else None
