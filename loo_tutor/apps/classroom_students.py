"""The classroom's students: joining by name, and every answer they check kept and judged.

Routes of the classroom server (:mod:`loo_tutor.apps.classroom`), all under
``/loo/``:

* ``/loo/join``: a form asking a name once (and the class code when the
  teacher set one). Joining gives the browser a secret in an HttpOnly,
  same-site cookie; the server keeps which student it belongs to
  (:mod:`loo_tutor.apps.classbook`). A name another student has is refused.
* ``/loo/me``: the student's name, their rejoin code (which joins them
  again under their name from another browser) and their own progress, for
  their page; nobody else's.
* ``/loo/answer``: the page reports an exercise checked: its own id for the
  check, and the kind, the seed and the answer as an answers file gives them
  (:mod:`loo_tutor.teaching.marking`). The server has the engine make the
  exercise again and judge the answer (:func:`~loo_tutor.teaching.marking.judge`),
  keeps the mark, and replies once it is on disk. Nothing the page says
  about being right is read.

Each form and request is checked with the server's XSRF token, as every
POST to it is.
"""

from __future__ import annotations

import hmac
import html
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlsplit

from tornado import web
from tornado.log import app_log

from ..teaching.marking import judge
from .classbook import ClassBook, ClassBookError, ClassSummary, now

COOKIE = "loo-student"
"""The cookie holding a joined browser's secret."""
COOKIE_DAYS = 30
LARGEST_ANSWER = 20_000
"""The most bytes an answer report may have."""
LARGEST_CHECK_ID = 64


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


class ClassroomHandler(web.RequestHandler):
    """What the classroom's own routes share: the class book, and who is asking.

    A class book that cannot read or keep what a request needs
    (:class:`~loo_tutor.apps.classbook.ClassBookError`) is answered 503 with
    one plain line (JSON for the routes a page asks, ``answers_json``), and
    logged as one line.
    """

    answers_json = False

    def initialize(self, book: ClassBook, code: str = "") -> None:
        self.book = book
        self.code = code

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
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")

    def student(self) -> tuple[int, str] | None:
        """The student whose browser sends this request, or ``None``."""
        return self.book.student_of(self.get_cookie(COOKIE))

    def reply(self, status: int, data: Mapping[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, ensure_ascii=False))


def _local(target: str) -> str:
    """``target`` when it is a path of this server, else the list of notebooks."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


class JoinHandler(ClassroomHandler):
    """``/loo/join``: the form asking a student's name, and joining."""

    def get(self) -> None:
        who = self.student()
        self.page(_local(self.get_argument("next", "/")), joined=who[1] if who else None)

    def post(self) -> None:
        target = _local(self.get_argument("next", "/"))
        typed = self.get_argument("name", "")
        if self.code and not hmac.compare_digest(
                self.get_argument("code", "").strip().casefold().encode(),
                self.code.casefold().encode()):
            self.set_status(403)
            self.page(target, problem="That is not the class code: ask your teacher for it.",
                      name=typed)
            return
        secret, said = self.book.join(typed, self.get_argument("rejoin", ""))
        if secret is None:
            self.set_status(409 if "already" in said else 400)
            self.page(target, problem=said, name=typed)
            return
        self.set_cookie(COOKIE, secret, path="/", httponly=True, samesite="Strict",
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
            action=f"/loo/join?next={quote(target)}"))


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
            self.reply(200, {"name": None, "join": "/loo/join"})
            return
        self.reply(200, {"name": who[1], "rejoin": self.book.rejoin_code(who[0]),
                         **own_progress(self.book.summary(who[0]))})


class AnswerHandler(ClassroomHandler):
    """``/loo/answer``: an exercise checked on a student's page, judged again and kept."""

    answers_json = True

    def post(self) -> None:
        who = self.student()
        if who is None:
            self.reply(403, {"error": "join the class first", "join": "/loo/join"})
            return
        if len(self.request.body) > LARGEST_ANSWER:
            self.reply(413, {"error": "the answer is too long"})
            return
        try:
            sent = json.loads(self.request.body)
        except ValueError:
            sent = None
        check_id = sent.get("id") if isinstance(sent, dict) else None
        if not isinstance(check_id, str) or not 0 < len(check_id) <= LARGEST_CHECK_ID:
            self.reply(400, {"error": "the report names no check"})
            return
        mark = judge(sent.get("kind"), sent.get("seed"), sent.get("answer"))
        new = self.book.record(who[0], check_id, mark, now())
        self.reply(200, {"kept": True, "new": new, "verdict": mark.verdict})


def routes(book: ClassBook, code: str) -> list[tuple[str, type, dict[str, Any]]]:
    """The students' routes, for the classroom server."""
    given = {"book": book, "code": code}
    return [(r"/loo/join", JoinHandler, given), (r"/loo/me", MeHandler, given),
            (r"/loo/answer", AnswerHandler, given)]
