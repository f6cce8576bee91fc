"""The classroom's students: joining by name, and every answer they check kept and judged.

Routes of the classroom server (:mod:`loo_tutor.apps.classroom`), all under
``/loo/`` below the server's prefix (``--base-url``, ``/`` unless it says
otherwise; the paths here are written for ``/``):

* ``/loo/join``: a form asking a name once (and the class code when the
  teacher set one). Joining gives the browser a secret in an HttpOnly,
  same-site cookie; the server keeps which student it belongs to
  (:mod:`loo_tutor.apps.classroom.store`). A name another student has is refused.
* ``/loo/me``: the student's name, their rejoin code (which joins them
  again under their name from another browser) and their own progress, for
  their page; nobody else's. Its ``work`` lists their checks as the class
  book keeps them, oldest first (id, kind, seed, verdict), which the page
  hands to its score line (``Scoreboard.from_book`` in
  :mod:`loo_tutor.widgets.exercise`), so that the page scores them as the
  teacher's page does, also after a reload or a restart.
* ``/loo/answer``: the page reports an exercise checked: its own id for the
  check, and the kind, the seed and the answer as an answers file gives them
  (:mod:`loo_tutor.teaching.marking`). The server has the engine make the
  exercise again and judge the answer (:func:`~loo_tutor.teaching.marking.judge`),
  keeps the mark, and replies once it is on disk. Nothing the page says
  about being right is read.

Every route is a Jupyter Server handler (``JupyterHandler``), so the
server's own door comes first: with ``--token``, nothing answers without the
token (or the login cookie it gives); every POST needs the server's XSRF
token, in the form or the ``X-XSRFToken`` header, matching its ``_xsrf``
cookie, and a POST from a page of another origin is refused whatever it
carries. :class:`ClassroomHandler` is the one place that says who is asking:
a student (by the join cookie), the teacher (by the teacher's token) or
nobody. The limits on joining and answering, and the checks of a report, are
in :mod:`.doors`.
"""

from __future__ import annotations

import contextlib
import hmac
import html
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote, urlsplit

from jupyter_server.base.handlers import JupyterHandler
from tornado import web
from tornado.log import app_log

from ...teaching.issued import is_issued
from ...teaching.marking import Mark, judge
from .adapter import knows_who_is_asking, reason, tornado_xsrf_check
from .doors import (
    LONGEST_ID,
    TOO_FAST,
    WAIT_A_MINUTE,
    Doors,
    local_path,
    read_report,
    route,
    under,
)
from .store import SHOWN, ClassBook, ClassBookError, ClassSummary, now

COOKIE = "loo-student"
"""The cookie holding a joined browser's secret."""
COOKIE_DAYS = 30
TEACHER_COOKIE = "loo-teacher"
"""The cookie holding the teacher's token on the teacher's pages."""
log = logging.getLogger(__name__)


def own_progress(summary: ClassSummary) -> dict[str, Any]:
    """A student's own part of the class, as their page shows it."""
    if not summary.students:
        return {"kinds": {}, "checks": 0}
    one = summary.students[0]
    return {"kinds": {kind: {"tried": t.tried, "right": t.right} for kind, t in one.kinds.items()},
            "checks": one.checks, "missed": sorted(one.missed)}


UNKEPT = ("The server cannot keep the class just now, so nothing is taken; "
          "your teacher's page says why.")
"""What a student is told when the class book cannot keep what they send."""


class PlainHandler(JupyterHandler):
    """A Jupyter Server handler whose refusals and faults are one plain line."""

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A refusal or a fault as one plain line, never a page of Jupyter's or a traceback."""
        said = {403: "Refused: open this classroom's own page, and join the class first.",
                404: "Refused: this request did not come from this classroom's own pages."}
        self.clear_header("Content-Disposition")
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(said.get(status_code, f"{status_code} {reason(self)}") + "\n")

    def check_xsrf_cookie(self) -> None:
        """Refuse a POST from a page of another origin, or without the ``_xsrf`` token.

        Jupyter Server skips both checks for a request that carries the
        server's ``--token`` in its address; but every student of the class
        knows that token, so a page of another origin could send one and join
        or answer in a student's browser. Here the token changes nothing: the
        request's ``Origin``, when it has one, must be this server, and the
        form or the ``X-XSRFToken`` header must carry the ``_xsrf`` cookie's
        token.
        """
        if not knows_who_is_asking(self):
            return  # too early: Jupyter Server calls this again once it knows who is asking
        origin = self.request.headers.get("Origin")
        host = self.request.headers.get("Host")
        if origin is not None and (host is None
                                   or urlsplit(origin.lower()).netloc != host.lower()):
            self.log.warning("Refused a %s of %s from another origin", self.request.method,
                             self.request.path)
            raise web.HTTPError(404)
        tornado_xsrf_check(self)


class ClassroomHandler(PlainHandler):
    """What the classroom's own routes share: the class book, its doors, and who is asking.

    A class book that cannot read or keep what a request needs
    (:class:`~loo_tutor.apps.classroom.store.ClassBookError`) is answered 503 with
    one plain line (JSON for the routes a page asks, ``answers_json``), and
    logged as one line.
    """

    answers_json = False

    def initialize(self, book: ClassBook, code: str = "", doors: Doors | None = None) -> None:
        self.book = book
        self.code = code
        self.doors = doors if doors is not None else Doors()

    def unkept(self, problem: ClassBookError) -> str:
        """The line answering a request the class book could not serve."""
        return UNKEPT

    def log_exception(self, typ: Any, value: Any, tb: Any) -> None:
        if isinstance(value, ClassBookError):
            app_log.warning("%s %s not served: %s", self.request.method, self.request.path,
                            value)
            return
        super().log_exception(typ, value, tb)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        problem = kwargs.get("exc_info", (None, None, None))[1]
        if not isinstance(problem, ClassBookError):
            super().write_error(status_code, **kwargs)
            return
        self.set_status(503)
        self.set_header("Retry-After", "30")
        if self.answers_json:
            self.reply(503, {"error": self.unkept(problem), "kept": False})
            return
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(self.unkept(problem))

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")
        # Not no-referrer: under it a browser sends its own page's form with Origin "null",
        # which the XSRF check takes for another site.
        self.set_header("Referrer-Policy", "same-origin")

    def student(self) -> tuple[int, str] | None:
        """The student whose browser sends this request, or ``None``."""
        return self.book.student_of(self.get_cookie(COOKIE))

    def is_teacher(self) -> bool:
        """Whether the request carries the teacher's token (in the address or its cookie)."""
        token = self.book.teacher_token().encode()
        given = self.get_argument("token", None) or self.get_cookie(TEACHER_COOKIE) or ""
        return hmac.compare_digest(given.encode("utf-8", "replace"), token)

    def reply(self, status: int, data: Mapping[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, ensure_ascii=False))


class JoinHandler(ClassroomHandler):
    """``/loo/join``: the form asking a student's name, and joining."""

    def get(self) -> None:
        who = self.student()
        self.page(local_path(self.get_argument("next", self.base_url), self.base_url),
                  joined=who[1] if who else None)

    def post(self) -> None:
        target = local_path(self.get_argument("next", self.base_url), self.base_url)
        typed = self.get_argument("name", "")
        address = self.request.remote_ip or ""
        if self.doors.by_address.full(address) or self.doors.by_class.full("class"):
            self.set_status(429)
            self.set_header("Retry-After", "60")
            self.page(target, problem=WAIT_A_MINUTE, name=typed)
            return
        if self.code and not hmac.compare_digest(
                self.get_argument("code", "").strip().casefold().encode(),
                self.code.casefold().encode()):
            self.doors.by_address.note(address)
            self.doors.by_class.note("class")
            self.set_status(403)
            self.page(target, problem="That is not the class code: ask your teacher for it.",
                      name=typed)
            return
        secret, said = self.book.join(typed, self.get_argument("rejoin", ""))
        if secret is None:
            self.doors.by_address.note(address)
            self.set_status(400)
            self.page(target, problem=said, name=typed)
            return
        self.set_cookie(COOKIE, secret, path=self.base_url, httponly=True, samesite="Strict",
                        expires_days=COOKIE_DAYS)
        self.redirect(target)

    def page(self, target: str, *, problem: str = "", name: str = "",
             joined: str | None = None) -> None:
        code = ('<label for="loo-code">Class code</label>'
                '<input id="loo-code" name="code" autocomplete="off" required>'
                if self.code else "")
        already = (f"<p>This browser has joined as <strong>{html.escape(joined)}</strong>. "
                   f'<a href="{html.escape(target)}">Go on</a>.</p>' if joined else "")
        said = f'<p class="loo-problem" role="alert">{html.escape(problem)}</p>' if problem else ""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(JOIN_PAGE.format(
            already=already, problem=said, xsrf=self.xsrf_form_html(),
            next=html.escape(target), name=html.escape(name), code=code,
            action=f"{under(self.base_url, 'loo/join')}?next={quote(target)}"))


JOIN_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Join the class — Loo Tutor classroom</title>
<link rel="icon" href="data:,">
<style>
  body {{ margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #fafaf7; }}
  main {{ max-width: 30em; margin: 3em auto; padding: 0 1em; }}
  label {{ display: block; margin-top: 1em; font-weight: 600; }}
  input {{ font: inherit; padding: 0.4em 0.6em; min-height: 2em; width: 100%;
    box-sizing: border-box; }}
  button {{ font: inherit; margin-top: 1.2em; padding: 0.5em 1.4em; min-height: 2.5em;
    background: #0b57d0; color: #fff; border: 0; border-radius: 0.3em; cursor: pointer; }}
  .loo-problem {{ color: #a4000f; font-weight: 600; }}
</style>
</head>
<body>
<main>
<h1>Join the class</h1>
{already}
<p>Your teacher sees the exercises you check under this name. No email, no password:
your name stays with this browser.</p>
{problem}
<form method="post" action="{action}">
{xsrf}
<input type="hidden" name="next" value="{next}">
<label for="loo-name">Your name</label>
<input id="loo-name" name="name" value="{name}" maxlength="40" autocomplete="name" required
 autofocus>
{code}
<label for="loo-rejoin">Rejoin code <small>(only if you joined before, on another
computer)</small></label>
<input id="loo-rejoin" name="rejoin" autocomplete="off" maxlength="12">
<button type="submit">Join</button>
</form>
</main>
</body>
</html>
"""


class MeHandler(ClassroomHandler):
    """``/loo/me``: who this browser joined as, and their own progress."""

    answers_json = True

    def get(self) -> None:
        who = self.student()
        if who is None:
            self.reply(200, {"name": None, "join": under(self.base_url, "loo/join")})
            return
        self.reply(200, {"name": who[1], "rejoin": self.book.rejoin_code(who[0]),
                         **own_progress(self.book.summary(who[0])),
                         "work": [list(check) for check in self.book.checks(who[0])]})


class AnswerHandler(ClassroomHandler):
    """``/loo/answer``: an exercise checked on a student's page, judged again and kept.

    Only a check of a variant this server's kernels issued is judged, and
    only for the student it was issued to; a variant whose solution was
    shown to the student is kept as :data:`~loo_tutor.apps.classroom.store.SHOWN`,
    and so is every later check of that exercise by that student.
    """

    answers_json = True

    def post(self) -> None:
        who = self.student()
        if who is None:
            self.reply(403, {"error": "join the class first",
                             "join": under(self.base_url, "loo/join")})
            return
        if self.book.problem:
            raise ClassBookError(self.book.problem)
        if not self.doors.answers.take(str(who[0])):
            self.set_header("Retry-After", "1")
            self.reply(429, {"error": TOO_FAST})
            return
        sent = read_report(self.request.body)
        if isinstance(sent, str):
            self.reply(400, {"error": sent})
            return
        kind, seed, shown = sent["kind"], sent["seed"], sent.get("shown", False)
        variant = sent.get("variant", "")
        if not is_issued(self.doors.key, variant, kind, seed, shown, sent.get("issued")):
            log.warning("Refused a check of %s seed %d from student %d: no page of this class "
                        "issued it", kind[:40], seed, who[0])
            self.reply(400, {"error": "this exercise was not given on this class's pages"})
            return
        if self.doors.owner(variant, who[0]) != who[0]:
            log.warning("Refused a check of %s seed %d from student %d: issued to another "
                        "student", kind[:40], seed, who[0])
            self.reply(400, {"error": "this exercise was given to another student"})
            return
        mark = judge(kind, seed, sent.get("answer"))
        if shown or self.book.was_shown(who[0], mark.kind, mark.seed):
            mark = _after_solution(mark)
        new = self.book.record(who[0], sent["id"], mark, now())
        self.reply(200, {"kept": True, "new": new, "verdict": mark.verdict})


def _after_solution(mark: Mark) -> Mark:
    return replace(mark, verdict=SHOWN, rule="", rule_name="", expected="",
                   message="The solution was shown before this check.")


_SHOWN = "&quot;shown&quot;: true"
_SHOWN_BYTES = _SHOWN.encode()
_REPORT = re.compile(r'data-loo-checked=\\"([^"\\]*)\\"')


def solution_watcher(book: ClassBook, doors: Doors) -> Callable[[Any, str | bytes], None]:
    """What watches the kernels' messages on their way to a page, for a solution shown.

    *Show solution* in a classroom's exercise writes a report of the showing
    (``shown`` true, no answer, the kernel's ticket) into the page. The page
    sends it to ``/loo/answer``; this keeps it even if the page never does:
    the kernel's message passes through the server, which reads the report
    there and keeps "solution shown" for the student whose cookie opened the
    page's websocket. Returns ``seen(handler, message)``, for
    :func:`loo_tutor.apps.classroom.adapter.classroom_socket`.
    """

    def seen(handler: Any, message: str | bytes) -> None:
        # A class book that cannot keep the showing now must not stop the message: the
        # page's own report of it waits in its outbox and is sent again.
        with contextlib.suppress(ClassBookError):
            keep_showing(handler, message)

    def keep_showing(handler: Any, message: str | bytes) -> None:
        if isinstance(message, bytes):
            if _SHOWN_BYTES not in message:
                return  # the common case, checked without decoding the message
            text = message.decode("utf-8", "replace")
        elif _SHOWN in message:
            text = message
        else:
            return
        who = book.student_of(handler.get_cookie(COOKIE))
        if who is None:
            return
        for raw in _REPORT.findall(text):
            try:
                report = json.loads(html.unescape(raw))
            except ValueError:
                continue
            if (not isinstance(report, dict) or report.get("answer") is not None
                    or not isinstance(report.get("id"), str)
                    or not is_issued(doors.key, report.get("variant"), report.get("kind"),
                                     report.get("seed"), True, report.get("issued"))):
                continue
            if doors.owner(report["variant"], who[0]) == who[0]:
                mark = _after_solution(judge(report["kind"], report["seed"], None))
                book.record(who[0], report["id"][:LONGEST_ID], mark, now())

    return seen


def routes(book: ClassBook, code: str, doors: Doors | None = None,
           base: str = "/") -> list[tuple[str, type, dict[str, Any]]]:
    """The students' routes, for the classroom server under the prefix ``base``."""
    given = {"book": book, "code": code, "doors": doors or Doors()}
    return [(route(base, "loo/join"), JoinHandler, given),
            (route(base, "loo/me"), MeHandler, given),
            (route(base, "loo/answer"), AnswerHandler, given)]
