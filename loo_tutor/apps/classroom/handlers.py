"""The classroom's HTTP handlers: the students' routes, the teacher's, and the admission's.

Every route is a Jupyter Server handler (``JupyterHandler``) or a Tornado one
made here, below the server's prefix (``--base-url``, ``/`` unless it says
otherwise; the paths here are written for ``/``). Who is asking is read by
:mod:`.identity`; what a request may do first (limits, class codes, the
reports' shape) by :mod:`.doors`; what is kept, by the class store
(:mod:`.store`); the pages are templates drawn by :mod:`.pages`.

The students
------------

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

The teacher
-----------

The teacher's page of the classroom: the class live, and its answers as a grade book.

Routes of the classroom server (below its prefix, ``--base-url``; the paths
here are written for ``/``), each answered only for the teacher's token
(printed by the server at start, kept in the class folder so that it stays
the same across restarts; never written into a student's page), or, served as
a JupyterHub service (``--hub``, :mod:`.hub`), only for a member of the Hub's
group ``teachers-NAME``, logged in with the Hub's OAuth, which ends at
``/oauth_callback``:

* ``/loo/teacher?token=T``: keeps the token in an HttpOnly cookie for the
  teacher's pages and sends the browser on to ``/loo/teacher``, so that the
  token leaves the address bar;
* ``/loo/teacher``: the page, which asks for ``/loo/teacher/class`` every
  second and draws what it gets, without a reload;
* ``/loo/teacher/class``: the class as HTML: per student, the exercises tried
  and right by kind, the last activity and the rules missed; per kind, who
  is stuck; the rules the class missed most, each linked to the book;
* ``/loo/teacher/release``: a form's POST that lets the next browser joining
  under a student's name take it with no rejoin code (a student on another
  computer who lost their code), the browsers that had joined as them
  leaving the class;
* ``/loo/teacher/class.csv``: the class's grade book, as ``loo-tutor mark
  --class DIR --csv`` writes it (:func:`~loo_tutor.teaching.marking.write_grade_book`):
  one row per student and exercise, scored against the class's assignment when it
  has one.

Anything else, a student's cookie included, gets 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import html
import io
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.base.handlers import JupyterHandler
from markupsafe import Markup
from tornado import web
from tornado.log import app_log

from ...engine.errors import LooError
from ...render.markup import link_rules
from ...teaching.assignment import class_assignment
from ...teaching.exercises import Kind
from ...teaching.issued import is_issued
from ...teaching.marking import Mark, judge, write_grade_book
from . import admission, identity, pages
from .adapter import HubLoginError, finished, knows_who_is_asking, reason, tornado_xsrf_check
from .admission import Admission, Verdict
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
from .hub import CALLBACK, Teachers
from .store import SHOWN, STUCK_AFTER, ClassBookError, ClassStore, ClassSummary, now

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

    def initialize(self, book: ClassStore, code: str = "", doors: Doors | None = None) -> None:
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
        return identity.student(self, self.book)

    def is_teacher(self) -> bool:
        """Whether the request carries the teacher's token (in the address or its cookie)."""
        return identity.is_teacher(self, self.book)

    def reply(self, status: int, data: Mapping[str, Any]) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(data, ensure_ascii=False))


class JoinHandler(ClassroomHandler):
    """``/loo/join``: the form asking a student's name, and joining.

    With ``--students hub`` (``hub`` given) there is no form: a student not
    logged in with the Hub is sent to log in, and one who is joins under their
    Hub name (:meth:`~.store.SQLBook.join_as`) and goes on to the page asked.
    """

    def initialize(self, book: ClassStore, code: str = "", doors: Doors | None = None,
                   hub: Teachers | None = None) -> None:
        super().initialize(book, code, doors)
        self.hub = hub

    async def get(self) -> None:
        if self.hub is not None:
            await self.join_with_hub()
            return
        who = self.student()
        self.page(local_path(self.get_argument("next", self.base_url), self.base_url),
                  joined=who[1] if who else None)

    async def join_with_hub(self) -> None:
        assert self.hub is not None
        target = local_path(self.get_argument("next", self.base_url), self.base_url)
        name = await self.hub.student(self)
        if name is None:
            self.redirect(self.hub.login.login_url(self, self.request.uri))
            return
        who = self.student()
        if who is not None and who[1] == name:
            self.redirect(target)
            return
        if self.doors.by_class.full("class"):
            self.set_status(429)
            self.set_header("Retry-After", "60")
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(WAIT_A_MINUTE)
            return
        self.doors.by_class.note("class")
        secret, said = self.book.join_as(name)
        if secret is None:
            self.set_status(400)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(said)
            return
        identity.give_student_cookie(self, secret)
        self.redirect(target)

    def post(self) -> None:
        if self.hub is not None:
            self.set_status(403)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(HUB_STUDENTS)
            return
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
        identity.give_student_cookie(self, secret)
        self.redirect(target)

    def page(self, target: str, *, problem: str = "", name: str = "",
             joined: str | None = None) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(pages.render(
            "join.html", joined=joined, target=target, problem=problem, name=name,
            code=bool(self.code), xsrf=Markup(self.xsrf_form_html()),
            action=f"{under(self.base_url, 'loo/join')}?next={quote(target)}"))


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


def solution_watcher(book: ClassStore, doors: Doors) -> Callable[[Any, str | bytes], None]:
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
        who = identity.student(handler, book)
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



# -- the teacher --------------------------------------------------------------------------

SCRIPT = Path(__file__).resolve().parent / "templates" / "teacher" / "teacher.js"
REFUSED = ("This page is the teacher's. Open the teacher's address the classroom server "
           "printed when it started.")
HUB_STUDENTS = ("In this class you join as the school's JupyterHub knows you: open the "
                "class's page and log in with the Hub.")
HUB_LOGIN = ("This page is the teacher's: open the teacher's page, and log in with the "
             "school's JupyterHub.")


def _kind_order(word: str) -> tuple[int, str]:
    try:
        return int(Kind.parse(word)), word
    except LooError:
        return len(Kind) + 1, word


def _kind_heading(word: str) -> str:
    """A kind of exercise as the teacher's page names it: its number, then its title."""
    try:
        kind = Kind.parse(word)
    except LooError:
        return html.escape(word)
    return f"{int(kind)}. {html.escape(kind.title)}"


def initials(name: str) -> str:
    """``name`` as its initials, for a page shown to the room: ``"Ann Smith"`` is ``"A. S."``."""
    return " ".join(f"{word[0]}." for word in name.split() if word) or "?"


def name_html(name: str) -> str:
    """A student's name, with its initials beside it for the projector view (only one shows)."""
    return (f'<span class="loo-name-full">{html.escape(name)}</span>'
            f'<span class="loo-name-initials">{html.escape(initials(name))}</span>')


def time_html(kept: str) -> str:
    """A time as the rows keep it (UTC), which the page's script shows in the teacher's zone."""
    if not kept:
        return "—"
    return (f'<time datetime="{html.escape(kept)}">'
            f"{html.escape(kept.replace('T', ' ').rstrip('Z'))}</time>")


def unkept_html(problem: str) -> str:
    """The teacher's warning that the class cannot be kept, and what to do."""
    return ('<p class="loo-unkept" role="alert"><strong>The class cannot be kept:</strong> '
            f"{html.escape(problem)}. No answer is taken and nobody can join until it is put "
            "right: stop the server and start it again with a class folder it can write "
            "(<code>--data DIR</code>). The students' pages keep what they check meanwhile, "
            "and send it once the server can keep it.</p>")


def class_html(summary: ClassSummary | None, rules_base: str, problem: str | None = None) -> str:
    """The class at a glance, as the teacher's page shows it, below ``problem`` when there is one.

    ``summary`` is ``None`` when the class cannot be read.
    """
    warning = unkept_html(problem) if problem else ""
    if summary is None:
        return warning + "<p>The class cannot be read.</p>"
    kinds = sorted({kind for one in summary.students for kind in one.kinds}, key=_kind_order)
    parts = [warning, f'<p class="loo-count" data-loo-answers="{summary.answers}">'
             f"{len(summary.students)} student{'s' if len(summary.students) != 1 else ''}, "
             f"{summary.answers} answer{'s' if summary.answers != 1 else ''} checked.</p>"]
    parts.append('<h2 id="loo-students">Students</h2>')
    if summary.students:
        head = "".join(f'<th scope="col">{_kind_heading(kind)}<br><small>right / tried</small></th>'
                       for kind in kinds)
        rows = []
        for one in summary.students:
            cells = "".join(
                f"<td>{one.kinds[kind].right} / {one.kinds[kind].tried}</td>"
                if kind in one.kinds else "<td>—</td>" for kind in kinds)
            missed = ", ".join(f"{link_rules(rule, rules_base)} ×{count}"
                               for rule, count in sorted(one.missed.items()))
            rows.append(f'<tr data-loo-student="{html.escape(one.name)}">'
                        f'<th scope="row">{name_html(one.name)}</th>{cells}'
                        f"<td>{time_html(one.last)}</td>"
                        f"<td>{missed or '—'}</td></tr>")
        parts.append('<table class="loo-class"><thead><tr><th scope="col">Student</th>'
                     f'{head}<th scope="col">Last activity '
                     '(<span class="loo-zone">UTC</span>)</th>'
                     f'<th scope="col">Rules missed</th></tr></thead>'
                     f"<tbody>{''.join(rows)}</tbody></table>")
    else:
        parts.append("<p>Nobody has joined yet.</p>")
    parts.append('<h2 id="loo-stuck">Stuck</h2>'
                 f"<p>A student is stuck on a kind when their last {STUCK_AFTER} checks of it "
                 "were wrong.</p>")
    if summary.stuck:
        parts.append("<ul>" + "".join(
            f"<li><strong>{_kind_heading(kind)}</strong>: "
            f"{', '.join(map(name_html, names))}</li>"
            for kind, names in sorted(summary.stuck.items(), key=lambda item: _kind_order(item[0])))
            + "</ul>")
    else:
        parts.append("<p>Nobody is stuck.</p>")
    parts.append('<h2 id="loo-missed">Rules missed most</h2>')
    if summary.missed:
        parts.append('<table class="loo-missed"><thead><tr><th scope="col">Rule</th>'
                     '<th scope="col">Wrong answers</th><th scope="col">Students</th></tr>'
                     "</thead><tbody>" + "".join(
                         f"<tr><td>{link_rules(rule, rules_base)}</td><td>{count}</td>"
                         f"<td>{students}</td></tr>" for rule, count, students in summary.missed)
                     + "</tbody></table>")
    else:
        parts.append("<p>No rule missed yet.</p>")
    return "".join(parts)


class TeacherHandler(ClassroomHandler):
    """What the teacher's routes share: the token, checked before anything is said.

    Served as a Hub service (``--hub``, ``teachers`` given), the teacher's
    token is not asked: the teacher is a member of the class's teachers'
    group, as the Hub says of the user it logged in (:mod:`.hub`).
    """

    login_page = False
    """Whether a browser not logged in with the Hub is sent to log in (the page), rather
    than refused (what the page asks for)."""
    hub_user = ""
    """The Hub's name of the teacher asking, under ``--hub``."""

    def initialize(self, book: ClassStore, code: str = "", doors: Doors | None = None,
                   rules_base: str = "", teachers: Teachers | None = None) -> None:
        super().initialize(book, code, doors)
        self.rules_base = rules_base
        self.teachers = teachers

    def unkept(self, problem: ClassBookError) -> str:
        return f"The class cannot be read just now: {problem}."

    def class_now(self) -> str:
        """The class as :func:`class_html` draws it, with what keeps it from being kept."""
        try:
            summary: ClassSummary | None = self.book.summary()
        except ClassBookError:
            summary = None
        return class_html(summary, self.rules_base, self.book.problem)

    async def prepare(self) -> None:  # type: ignore[override]
        await super().prepare()
        if finished(self):
            return
        if self.teachers is not None:
            await self.hub_teacher()
        elif not self.is_teacher():
            self.refuse(REFUSED)

    def refuse(self, text: str) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(text)

    async def hub_teacher(self) -> None:
        """Let in a teacher of the class logged in with the Hub (``--hub``), or answer: the
        Hub's login for a page opened by a browser not logged in, 403 for anyone else."""
        assert self.teachers is not None
        user = await self.teachers.user(self)
        if user is None:
            if self.request.method == "GET" and self.login_page:
                self.redirect(self.teachers.login.login_url(self, self.request.uri))
            else:
                self.refuse(HUB_LOGIN)
        elif not self.teachers.teaches(user):
            app_log.warning("Refused the teacher's routes to the Hub's user %s, not in %s",
                            user.get("name"), self.teachers.service.group())
            self.refuse(self.teachers.refusal(user))
        else:
            self.hub_user = str(user.get("name", ""))


class TeacherPageHandler(TeacherHandler):
    """``/loo/teacher``: the page; a token in the address is moved into a cookie.

    The teacher's token is enough to open it, even on a server started with
    ``--token``: the address the server prints for the teacher works alone,
    and the browser that opens it is let into the class's pages too, as the
    server's token would let it in (the teacher's token is the longer secret).
    """

    login_page = True

    @allow_unauthenticated
    def get(self) -> None:
        if self.teachers is None and self.get_argument("token", None):
            if self.current_user is None:
                self.identity_provider.set_login_cookie(
                    self, self.identity_provider.generate_anonymous_user(self))
            identity.give_teacher_cookie(self, self.book)
            self.redirect(under(self.base_url, "loo/teacher"))
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(pages.render(
            "teacher.html", base=self.base_url, code=self.code, xsrf=Markup(self.xsrf_form_html()),
            said=self.get_argument("said", ""), folder=str(self.book.folder),
            summary=Markup(self.class_now()), hub_user=self.hub_user,
            class_name=self.book.class_name))


class ClassHandler(TeacherHandler):
    """``/loo/teacher/class``: the class as HTML, for the page to draw."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(self.class_now())


class ReleaseHandler(TeacherHandler):
    """``/loo/teacher/release``: a name released, so that its student can join from elsewhere."""

    def post(self) -> None:
        released = self.book.release(self.get_argument("name", ""))
        said = (f"{released} can join again from another computer: with this name and no code."
                if released else "No student goes by that name.")
        self.redirect(f"{under(self.base_url, 'loo/teacher')}?{urlencode({'said': said})}")


class CsvHandler(TeacherHandler):
    """``/loo/teacher/class.csv``: the grade book, as ``loo-tutor mark --class DIR --csv``."""

    def get(self) -> None:
        try:
            assignment = class_assignment(self.book.folder)
        except (LooError, OSError):  # as the page's summary: each exercise checked is scored
            assignment = None
        out = io.StringIO()
        out.write("\ufeff")  # a byte-order mark: spreadsheets then read UTF-8, ♦ and ë intact
        write_grade_book([row for one in self.book.marked(str(self.book.folder))
                          for row in one.grade_rows(assignment)], out)
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", 'attachment; filename="class.csv"')
        self.finish(out.getvalue())


class HubCallbackHandler(PlainHandler):
    """``/oauth_callback`` under ``--hub``: the end of the Hub's login of a teacher.

    The Hub's token is kept in the teacher's cookie, or a student's
    (:meth:`~.hub.Teachers.keep_token`), and the browser is sent back to the
    page it set out from.
    """

    def initialize(self, teachers: Teachers) -> None:
        self.teachers = teachers

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Cache-Control", "no-store")

    @allow_unauthenticated
    async def get(self) -> None:
        try:
            token, next_url = await self.teachers.login.finish(self)
        except HubLoginError as exc:
            self.set_status(400)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(f"{exc}: open the teacher's page again.\n")
            return
        self.teachers.keep_token(self, token, next_url)
        self.redirect(local_path(next_url, self.base_url))


class ScriptHandler(PlainHandler):
    """The teacher page's script (the page is the teacher's; the script holds no secret)."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.finish(SCRIPT.read_bytes())


def teacher_routes(book: ClassStore, code: str, rules_base: str, doors: Doors | None = None,
                   base: str = "/", teachers: Teachers | None = None,
                   ) -> list[tuple[str, type, dict[str, Any]]]:
    """The teacher's routes, for the classroom server under the prefix ``base``; with
    ``teachers`` (``--hub``), for the teachers the Hub logs in, and the end of its login."""
    given = {"book": book, "code": code, "rules_base": rules_base, "doors": doors or Doors(),
             "teachers": teachers}
    found: list[tuple[str, type, dict[str, Any]]] = [
        (route(base, r"loo/teacher"), TeacherPageHandler, given),
        (route(base, r"loo/teacher/class"), ClassHandler, given),
        (route(base, r"loo/teacher/class\.csv"), CsvHandler, given),
        (route(base, r"loo/teacher/release"), ReleaseHandler, given),
        (route(base, r"loo/teacher\.js"), ScriptHandler, {})]
    if teachers is not None:
        found.append((route(base, CALLBACK), HubCallbackHandler, {"teachers": teachers}))
    return found


def student_routes(book: ClassStore, code: str, doors: Doors | None = None,
                   base: str = "/", hub: Teachers | None = None,
                   ) -> list[tuple[str, type, dict[str, Any]]]:
    """The students' routes, for the classroom server under the prefix ``base``; with
    ``hub`` (``--students hub``), the students join as the Hub logs them in."""
    given = {"book": book, "code": code, "doors": doors or Doors()}
    return [(route(base, "loo/join"), JoinHandler, {**given, "hub": hub}),
            (route(base, "loo/me"), MeHandler, given),
            (route(base, "loo/answer"), AnswerHandler, given)]


# -- the admission ---------------------------------------------------------------------------

def waiting_page(most: int, wait_s: float, open_url: str, place_url: str, home_url: str) -> str:
    """The page of a student who waits for a place; it opens ``open_url`` once ``place_url`` says so.

    ``home_url`` is the list of the classroom's pages.

    The page asks ``place_url`` again and again; each answer comes when a
    place is free, when the wait is over, or after
    :data:`~loo_tutor.apps.classroom.admission.ASK_S`.
    """
    return pages.render("waiting.html", title="Waiting for a place", refresh_url=open_url,
                        refresh_s=admission.RETRY_S, students=admission.students(most),
                        wait=admission.minutes(wait_s), open_url=open_url,
                        place_url=place_url, home_url=home_url)


def opening_page(open_url: str) -> str:
    """The page of a request for an app without the page's cookie: it opens ``open_url`` again."""
    return pages.render("opening.html", title="Opening the page", refresh_url=open_url,
                        refresh_s=0, open_url=open_url)


def full_page(most: int, wait_s: float, again_url: str) -> str:
    """The page of a student who waited ``wait_s`` and found no place; ``again_url`` waits again."""
    return pages.render("full.html", title="The class is full", refresh_url=None,
                        students=admission.students(most), wait=admission.minutes(wait_s),
                        again_url=again_url)


def not_yet_page(handler: Any, places: Admission, verdict: Verdict, ticket: str | None) -> str:
    """The page of a student the class has no place for yet: waiting, or full after the wait."""
    query = [(key, value) for key, value in parse_qsl(handler.request.query)
             if key != admission.TICKET]
    here = handler.request.path + (f"?{urlencode(query)}" if query else "")
    if verdict is Verdict.FULL:
        return full_page(places.most, places.wait_s, here)
    if ticket is None or ticket not in places.waiting:
        ticket = places.queue()
    base_url = str(handler.base_url)
    return waiting_page(places.most, places.wait_s, admission.with_ticket(here, ticket),
                        f"{base_url}loo/place?ticket={ticket}", base_url)


def admit_page(places: Admission, handler: Any) -> bool:
    """Whether the notebook page of ``handler`` may be drawn, or the admission has answered.

    A browser that is neither a joined student nor holding the page's cookie
    gets the cookie and a page that opens the app again, and no kernel
    (:func:`opening_page`). When the class is full (see
    :mod:`loo_tutor.apps.classroom.admission`), the page of a student waiting
    for a place is the answer, at once and without a kernel, or the one that
    says the class is full once the student has waited long enough.
    """
    who = identity.asking(handler, places)
    if who is None:  # no page of this browser yet: a cookie first, then the app
        handler.set_cookie(admission.PAGE_COOKIE, places.page_cookie(), path=handler.base_url,
                           httponly=True, samesite="Lax")
        handler.set_header("Cache-Control", "no-store")
        handler.finish(opening_page(handler.request.uri))
        return False
    ticket = handler.get_argument(admission.TICKET, None)
    verdict = places.admit(handler.kernel_manager, ticket, who)
    if verdict is not Verdict.IN:
        handler.set_status(503)
        handler.set_header("Retry-After", str(admission.RETRY_S))
        handler.set_header("Cache-Control", "no-store")
        handler.finish(not_yet_page(handler, places, verdict, ticket))
        return False
    return True


class PlaceHandler(web.RequestHandler):
    """``/loo/place?ticket=T``: answers ``{"go": true}`` once the page of ``T`` should open."""

    def initialize(self, admission: Admission, kernel_manager: Any) -> None:
        self.admission = admission
        self.kernels = kernel_manager

    async def get(self) -> None:
        ticket = self.get_argument("ticket", "")
        self.set_header("Cache-Control", "no-store")
        asked = self.admission.clock()
        while not self.admission.ready(self.kernels, ticket):
            if self.admission.clock() - asked >= admission.ASK_S:
                self.finish({"go": False})
                return
            await asyncio.sleep(admission.CHECK_S)
        self.finish({"go": True})


def place_routes(places: Admission, kernel_manager: Any,
                 base: str = "/") -> list[tuple[str, type, dict[str, Any]]]:
    """The route a waiting page asks for a place, for the classroom server under ``base``."""
    return [(route(base, "loo/place"), PlaceHandler,
             {"admission": places, "kernel_manager": kernel_manager})]
