"""The teacher's page of the classroom: the class live, and its answers as a grade book.

Routes of the classroom server, each answered only for the teacher's token
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
* ``/loo/teacher/class.csv``: every answer kept, as the grade book of
  ``loo-tutor mark --csv`` (:func:`~loo_tutor.teaching.marking.write_csv`).

Anything else, a student's cookie included, gets 403.
"""

from __future__ import annotations

import html
import io
from pathlib import Path
from typing import Any

from ..render.markup import link_rules
from ..teaching.marking import write_csv
from .classbook import STUCK_AFTER, ClassBook, ClassSummary
from .classroom_doors import Doors
from .classroom_students import TEACHER_COOKIE as COOKIE
from .classroom_students import ClassroomHandler, PlainHandler

SCRIPT = Path(__file__).resolve().parent / "classroom_templates" / "teacher" / "teacher.js"
REFUSED = ("This page is the teacher's. Open the teacher's address the classroom server "
           "printed when it started.")


def class_html(summary: ClassSummary, rules_base: str) -> str:
    """The class at a glance, as the teacher's page shows it."""
    kinds = sorted({kind for one in summary.students for kind in one.kinds})
    parts = [f'<p class="loo-count" data-loo-answers="{summary.answers}">'
             f"{len(summary.students)} student{'s' if len(summary.students) != 1 else ''}, "
             f"{summary.answers} answer{'s' if summary.answers != 1 else ''} checked.</p>"]
    parts.append('<h2 id="loo-students">Students</h2>')
    if summary.students:
        head = "".join(f'<th scope="col">{html.escape(kind)}<br><small>right / tried</small></th>'
                       for kind in kinds)
        rows = []
        for one in summary.students:
            cells = "".join(
                f"<td>{one.kinds[kind].right} / {one.kinds[kind].tried}</td>"
                if kind in one.kinds else "<td>—</td>" for kind in kinds)
            missed = ", ".join(f"{link_rules(rule, rules_base)} ×{count}"
                               for rule, count in sorted(one.missed.items()))
            rows.append(f'<tr data-loo-student="{html.escape(one.name)}">'
                        f'<th scope="row">{html.escape(one.name)}</th>{cells}'
                        f"<td>{html.escape(one.last.replace('T', ' ').rstrip('Z')) or '—'}</td>"
                        f"<td>{missed or '—'}</td></tr>")
        parts.append('<table class="loo-class"><thead><tr><th scope="col">Student</th>'
                     f'{head}<th scope="col">Last activity (UTC)</th>'
                     f'<th scope="col">Rules missed</th></tr></thead>'
                     f"<tbody>{''.join(rows)}</tbody></table>")
    else:
        parts.append("<p>Nobody has joined yet.</p>")
    parts.append('<h2 id="loo-stuck">Stuck</h2>'
                 f"<p>A student is stuck on a kind when their last {STUCK_AFTER} checks of it "
                 "were wrong.</p>")
    if summary.stuck:
        parts.append("<ul>" + "".join(
            f"<li><strong>{html.escape(kind)}</strong>: "
            f"{html.escape(', '.join(names))}</li>" for kind, names in sorted(summary.stuck.items()))
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

    async def prepare(self) -> None:  # type: ignore[override]
        await super().prepare()
        if not self._finished and not self.is_teacher():
            self.set_status(403)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(REFUSED)


class TeacherPageHandler(TeacherHandler):
    """``/loo/teacher``: the page; a token in the address is moved into a cookie."""

    def get(self) -> None:
        if self.get_argument("token", None):
            self.set_cookie(COOKIE, self.book.teacher_token(), path="/loo/teacher",
                            httponly=True, samesite="Strict")
            self.redirect("/loo/teacher")
            return
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(TEACHER_PAGE.format(
            code=(f"<p>Class code: <strong>{html.escape(self.code)}</strong></p>"
                  if self.code else ""),
            folder=html.escape(str(self.book.folder)),
            summary=class_html(self.book.summary(), self.rules_base)))


class ClassHandler(TeacherHandler):
    """``/loo/teacher/class``: the class as HTML, for the page to draw."""

    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(class_html(self.book.summary(), self.rules_base))


class CsvHandler(TeacherHandler):
    """``/loo/teacher/class.csv``: every answer kept, as the grade book."""

    def get(self) -> None:
        out = io.StringIO()
        write_csv(self.book.rows(), out)
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
</style>
<script defer src="/loo/teacher.js"></script>
</head>
<body>
<main>
<h1>The class</h1>
{code}
<p>Kept in {folder}. <a class="loo-export" href="/loo/teacher/class.csv" download>Export the
answers as CSV</a></p>
<p class="loo-state" role="status" aria-live="polite">Updated every second.</p>
<div id="loo-class">{summary}</div>
</main>
</body>
</html>
"""


def routes(book: ClassBook, code: str, rules_base: str,
           doors: Doors | None = None) -> list[tuple[str, type, dict[str, Any]]]:
    """The teacher's routes, for the classroom server."""
    given = {"book": book, "code": code, "rules_base": rules_base, "doors": doors or Doors()}
    return [(r"/loo/teacher", TeacherPageHandler, given),
            (r"/loo/teacher/class", ClassHandler, given),
            (r"/loo/teacher/class\.csv", CsvHandler, given),
            (r"/loo/teacher\.js", ScriptHandler, {})]
