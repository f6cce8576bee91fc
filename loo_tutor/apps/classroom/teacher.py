"""The teacher's page of the classroom: the class live, and its answers as a grade book.

Routes of the classroom server (below its prefix, ``--base-url``; the paths
here are written for ``/``), each answered only for the teacher's token
(printed by the server at start, kept in the class folder so that it stays
the same across restarts; never written into a student's page):

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

import html
import io
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jupyter_server.auth.decorator import allow_unauthenticated

from ...engine.errors import LooError
from ...render.markup import link_rules
from ...teaching.assignment import class_assignment
from ...teaching.exercises import Kind
from ...teaching.marking import write_grade_book
from .doors import Doors, route, under
from .store import STUCK_AFTER, ClassBook, ClassBookError, ClassSummary
from .students import TEACHER_COOKIE as COOKIE
from .students import ClassroomHandler, PlainHandler

SCRIPT = Path(__file__).resolve().parent / "templates" / "teacher" / "teacher.js"
REFUSED = ("This page is the teacher's. Open the teacher's address the classroom server "
           "printed when it started.")


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
    """What the teacher's routes share: the token, checked before anything is said."""

    def initialize(self, book: ClassBook, code: str = "", doors: Doors | None = None,
                   rules_base: str = "") -> None:
        super().initialize(book, code, doors)
        self.rules_base = rules_base

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
        if not self._finished and not self.is_teacher():
            self.set_status(403)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(REFUSED)


class TeacherPageHandler(TeacherHandler):
    """``/loo/teacher``: the page; a token in the address is moved into a cookie.

    The teacher's token is enough to open it, even on a server started with
    ``--token``: the address the server prints for the teacher works alone,
    and the browser that opens it is let into the class's pages too, as the
    server's token would let it in (the teacher's token is the longer secret).
    """

    @allow_unauthenticated
    def get(self) -> None:
        if self.get_argument("token", None):
            if self.current_user is None:
                self.identity_provider.set_login_cookie(
                    self, self.identity_provider.generate_anonymous_user(self))
            self.set_cookie(COOKIE, self.book.teacher_token(),
                            path=under(self.base_url, "loo/teacher"),
                            httponly=True, samesite="Strict")
            self.redirect(under(self.base_url, "loo/teacher"))
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        said = self.get_argument("said", "")
        self.finish(TEACHER_PAGE.format(
            base=html.escape(self.base_url),
            code=(f"<p>Class code: <strong>{html.escape(self.code)}</strong></p>"
                  if self.code else ""),
            xsrf=self.xsrf_form_html(),
            said=f'<p class="loo-said" role="status">{html.escape(said)}</p>' if said else "",
            folder=html.escape(str(self.book.folder)), summary=self.class_now()))


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


class ScriptHandler(PlainHandler):
    """The teacher page's script (the page is the teacher's; the script holds no secret)."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/javascript; charset=utf-8")
        self.finish(SCRIPT.read_bytes())


TEACHER_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>The class — Loo Tutor classroom</title>
<link rel="icon" href="data:,">
<style>
  body {{ margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1b1b1b; background: #fafaf7; }}
  main {{ max-width: 70em; margin: 2em auto; padding: 0 1em; }}
  table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; background: #fff; }}
  th, td {{ border: 1px solid #c9c9c0; padding: 0.3em 0.6em; text-align: left;
    vertical-align: top; }}
  a {{ color: #0b57d0; }}
  .loo-export {{ display: inline-block; padding: 0.5em 1.2em; min-height: 1.5em;
    border: 1px solid #0b57d0; border-radius: 0.3em; text-decoration: none; }}
  .loo-state {{ color: #5b5b55; }}
  .loo-state[data-loo-offline] {{ color: #a4000f; font-weight: 600; }}
  .loo-unkept {{ color: #a4000f; border: 2px solid #a4000f; padding: 0.5em 0.8em;
    background: #fff; }}
  .loo-view {{ display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; align-items: center; }}
  .loo-view button, .loo-view select {{ font: inherit; min-height: 2em; }}
  .loo-name-initials {{ display: none; }}
  body.loo-projector {{ font-size: 28px; }}
  body.loo-projector main {{ max-width: none; margin: 0.5em 1em; }}
  body.loo-projector .loo-teacher-only {{ display: none; }}
  body.loo-projector[data-loo-names="initials"] .loo-name-full {{ display: none; }}
  body.loo-projector[data-loo-names="initials"] .loo-name-initials {{ display: inline; }}
  body.loo-projector[data-loo-names="hidden"] .loo-name-full {{ display: none; }}
  body.loo-projector[data-loo-names="hidden"] #loo-stuck + p + ul {{ display: none; }}
</style>
<script defer src="{base}loo/teacher.js"></script>
</head>
<body data-loo-base="{base}">
<main>
<h1>The class</h1>
{code}
<div class="loo-view" role="group" aria-label="How the page shows the class">
<button type="button" class="loo-projector-button" aria-pressed="false">Projector view</button>
<label>Names in the projector view
<select class="loo-names">
<option value="initials">as initials</option>
<option value="hidden">hidden</option>
<option value="full">in full</option>
</select></label>
</div>
<p class="loo-teacher-only">Kept in {folder}. <a class="loo-export" href="{base}loo/teacher/class.csv"
download>Export the answers as CSV</a></p>
<p class="loo-state" role="status" aria-live="polite">Updated every second.</p>
<div id="loo-class">{summary}</div>
<section class="loo-teacher-only" aria-labelledby="loo-release">
<h2 id="loo-release">A student on another computer</h2>
<p>Each student sees a rejoin code on their page, which joins them again under their name from
another browser. For one who lost it, release the name: the next browser that joins under it
takes it, with no code, and keeps the student's answers.</p>
{said}
<form class="loo-release" method="post" action="{base}loo/teacher/release">
{xsrf}
<label for="loo-release-name">Student's name</label>
<input id="loo-release-name" name="name" maxlength="40" required>
<button type="submit">Release the name</button>
</form>
</section>
</main>
</body>
</html>
"""


def routes(book: ClassBook, code: str, rules_base: str, doors: Doors | None = None,
           base: str = "/") -> list[tuple[str, type, dict[str, Any]]]:
    """The teacher's routes, for the classroom server under the prefix ``base``."""
    given = {"book": book, "code": code, "rules_base": rules_base, "doors": doors or Doors()}
    return [(route(base, r"loo/teacher"), TeacherPageHandler, given),
            (route(base, r"loo/teacher/class"), ClassHandler, given),
            (route(base, r"loo/teacher/class\.csv"), CsvHandler, given),
            (route(base, r"loo/teacher/release"), ReleaseHandler, given),
            (route(base, r"loo/teacher\.js"), ScriptHandler, {})]
