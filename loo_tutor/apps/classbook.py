"""The class book: who joined a classroom and every answer they checked, in SQLite.

One database file, ``class.sqlite3``, in the folder the teacher chose
(``loo-tutor classroom --data DIR``). This module alone reads and writes it
and owns its schema, whose version is the database's ``user_version``
(:data:`SCHEMA_VERSION`). The database runs in WAL mode and each answer is
committed before the server replies to the page that sent it, so a server
killed at any moment keeps every answer it acknowledged.

What is kept:

* ``students``: each name that joined, unique whatever its capitals,
  spacing, width and look-alike letters (:func:`folded_name`), and when it
  joined;
* ``sessions``: the secret of each browser that joined (the value of its
  cookie), tied to one student;
* ``answers``: one row per exercise checked: the student, the engine's
  :class:`~loo_tutor.teaching.marking.Mark` (kind, seed, the answer as text,
  verdict, the rule behind the right answer, message, the rule's name and
  the right answer) and the time; a page's own id for the check makes a
  check sent twice (after a lost reply) one row;
* ``settings``: the teacher's token, so that the teacher's page keeps
  working across a restart with the same folder.

Nothing here judges an answer: the rows hold the verdicts the server had the
engine give.
"""

from __future__ import annotations

import secrets
import sqlite3
import unicodedata
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from ..teaching.marking import NOT_AN_EXERCISE, RIGHT, WRONG, Mark
from ..teaching.score import SOLUTION

SCHEMA_VERSION = 1
"""The version of the schema below; a database of another version is not opened."""
DATABASE = "class.sqlite3"
"""The database's file name in the class folder."""
LONGEST_NAME = 40
"""The most characters a student's name may have."""
STUCK_AFTER = 2
"""A student is stuck on a kind when this many of their last checks of it were all wrong."""
SHOWN = SOLUTION
"""The verdict kept for an exercise whose solution the student was shown, and for every check
of it after that: never counted right (the score model's "solution shown")."""
NAME_TAKEN = "Choose another name."
"""All a student is told when the name they typed cannot be theirs: it says nothing of who
is in the class."""

_SCHEMA = """
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE students (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    folded TEXT NOT NULL UNIQUE,
    joined TEXT NOT NULL
);
CREATE TABLE sessions (
    secret TEXT PRIMARY KEY,
    student INTEGER NOT NULL REFERENCES students(id)
);
CREATE TABLE answers (
    id INTEGER PRIMARY KEY,
    student INTEGER NOT NULL REFERENCES students(id),
    check_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    seed INTEGER NOT NULL,
    answer TEXT NOT NULL,
    verdict TEXT NOT NULL,
    rule TEXT NOT NULL,
    message TEXT NOT NULL,
    rule_name TEXT NOT NULL,
    expected TEXT NOT NULL,
    time TEXT NOT NULL,
    UNIQUE (student, check_id)
);
CREATE INDEX answers_by_student ON answers (student, kind, id);
"""


class ClassBookError(Exception):
    """The class folder or its database cannot be used; the message says why, in one line."""


def now() -> str:
    """The time now, as the rows keep it: UTC to the second, ``2026-12-04T17:20:03Z``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def name_problem(name: str) -> str | None:
    """Why ``name`` (already tidied by :func:`tidy_name`) cannot be a student's name, or ``None``."""
    if not name:
        return "Type your name."
    if len(name) > LONGEST_NAME:
        return f"A name has at most {LONGEST_NAME} characters."
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        return "A name is letters, digits, spaces and punctuation only."
    return None


def tidy_name(name: str) -> str:
    """``name`` as it is kept: NFC, its spaces collapsed and trimmed."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def folded_name(name: str) -> str:
    """``name`` as names are compared: NFKC, capitals folded, and letters of other scripts
    that look like Latin ones read as those (a Greek capital beta as ``B``; a full-width
    ``B`` is ``B`` after NFKC), so that ``"Bob"``, ``"\u0392ob"`` and ``"\uff22ob"`` are one
    name.
    """
    plain = unicodedata.normalize("NFKC", tidy_name(name))
    alike = confusables.is_confusable(plain, greedy=True, preferred_aliases=["latin"]) or []
    for found in alike:
        latin = [glyph["c"] for glyph in found["homoglyphs"] if glyph["n"].startswith("LATIN")]
        if latin:
            plain = plain.replace(found["character"], latin[0])
    return unicodedata.normalize("NFKC", plain.casefold())


Entry = tuple[str, Mark, str]
"""One answer kept: the student, the engine's mark, the time; a row of the grade book."""


@dataclass
class KindTally:
    """One student's exercises of one kind: variants tried, variants answered right."""

    tried: int = 0
    right: int = 0


@dataclass
class StudentSummary:
    """What the teacher's page shows of one student."""

    name: str
    kinds: dict[str, KindTally] = field(default_factory=dict)
    last: str = ""
    missed: dict[str, int] = field(default_factory=dict)
    checks: int = 0


@dataclass
class ClassSummary:
    """The class at a glance: every student, who is stuck on what, the rules most missed."""

    students: list[StudentSummary]
    stuck: dict[str, list[str]]
    missed: list[tuple[str, int, int]]
    """Each rule missed: its ID, how many wrong answers, how many students."""
    answers: int


@dataclass
class _Student:
    """One student's running tally, kept up to date as answers are recorded."""

    name: str
    checks: int = 0
    last: str = ""
    missed: dict[str, int] = field(default_factory=dict)
    tried: dict[str, set[int]] = field(default_factory=dict)
    solved: dict[str, set[int]] = field(default_factory=dict)
    recent: dict[str, deque[str]] = field(default_factory=dict)


class _Tally:
    """The class's summary kept as answers come, so that reading it costs as much for the
    thousandth answer as for the first: per student, per kind, per rule, never per row."""

    def __init__(self) -> None:
        self.students: dict[int, _Student] = {}
        self.rule_count: dict[str, int] = {}
        self.rule_students: dict[str, set[int]] = {}
        self.total = 0

    def add(self, student: int, name: str, mark: Mark, time: str) -> None:
        one = self.students.setdefault(student, _Student(name))
        self.total += 1
        one.checks += 1
        one.last = max(one.last, time)
        if mark.verdict == NOT_AN_EXERCISE:
            return
        one.tried.setdefault(mark.kind, set()).add(mark.seed)
        if mark.is_right:
            one.solved.setdefault(mark.kind, set()).add(mark.seed)
        one.recent.setdefault(mark.kind, deque(maxlen=STUCK_AFTER)).append(mark.verdict)
        if mark.verdict == WRONG and mark.rule:
            one.missed[mark.rule] = one.missed.get(mark.rule, 0) + 1
            self.rule_count[mark.rule] = self.rule_count.get(mark.rule, 0) + 1
            self.rule_students.setdefault(mark.rule, set()).add(student)

    @classmethod
    def of(cls, db: sqlite3.Connection) -> _Tally:
        """The tally of every answer kept in ``db``, added up by SQLite in two queries."""
        tally = cls()
        names = dict(db.execute("SELECT id, name FROM students").fetchall())
        db.execute("BEGIN")  # one snapshot for both queries
        try:
            for student, kind, seed, verdict, rule, count, last in db.execute(
                    "SELECT student, kind, seed, verdict, rule, count(*), max(time) FROM answers "
                    "GROUP BY student, kind, seed, verdict, rule"):
                one = tally.students.setdefault(student, _Student(names[student]))
                one.checks += count
                one.last = max(one.last, last)
                tally.total += count
                if verdict == NOT_AN_EXERCISE:
                    continue
                one.tried.setdefault(kind, set()).add(seed)
                if verdict == RIGHT:
                    one.solved.setdefault(kind, set()).add(seed)
                if verdict == WRONG and rule:
                    one.missed[rule] = one.missed.get(rule, 0) + count
                    tally.rule_count[rule] = tally.rule_count.get(rule, 0) + count
                    tally.rule_students.setdefault(rule, set()).add(student)
            for student, kind, verdict in db.execute(
                    "SELECT student, kind, verdict FROM (SELECT student, kind, verdict, "
                    "row_number() OVER (PARTITION BY student, kind ORDER BY id DESC) AS back "
                    f"FROM answers WHERE verdict != ?) WHERE back <= {STUCK_AFTER} "
                    "ORDER BY student, kind, back DESC", (NOT_AN_EXERCISE,)):
                tally.students[student].recent.setdefault(
                    kind, deque(maxlen=STUCK_AFTER)).append(verdict)
        finally:
            db.execute("COMMIT")
        return tally

    def summary(self, names: list[tuple[int, str]]) -> ClassSummary:
        """The summary of the students ``names`` (id, name), in that order."""
        shown: list[StudentSummary] = []
        stuck: dict[str, list[str]] = {}
        total = 0
        for student, name in names:
            one = self.students.get(student)
            if one is None:
                shown.append(StudentSummary(name))
                continue
            total += one.checks
            summary = StudentSummary(name, last=one.last, missed=dict(one.missed),
                                     checks=one.checks)
            for kind in sorted(one.tried):
                summary.kinds[kind] = KindTally(len(one.tried[kind]),
                                                len(one.solved.get(kind, ())))
                last = list(one.recent.get(kind, ()))
                if len(last) == STUCK_AFTER and all(verdict == WRONG for verdict in last):
                    stuck.setdefault(kind, []).append(name)
            shown.append(summary)
        wanted = {student for student, _ in names}
        missed = []
        for rule, students in self.rule_students.items():
            among = students & wanted
            if among:
                count = sum(self.students[s].missed.get(rule, 0) for s in among)
                missed.append((rule, count, len(among)))
        missed.sort(key=lambda item: (-item[1], -item[2], item[0]))
        for names_stuck in stuck.values():
            names_stuck.sort()
        return ClassSummary(shown, stuck, missed, total)


class ClassBook:
    """The class kept in ``folder``: open it, then join, record and read.

    The folder and its database are made if need be, unless ``create`` is
    False (reading a class after the lesson).
    """

    def __init__(self, folder: Path, create: bool = True) -> None:
        self.folder = folder
        self.path = folder / DATABASE
        self._tally: _Tally | None = None
        if not create and not self.path.is_file():
            raise ClassBookError(f"no class is kept in {folder} (it has no {DATABASE})")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise ClassBookError(f"cannot keep the class in {folder}: {exc}") from exc
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise ClassBookError(f"{self.path} is not a class book ({exc})") from exc

    def _open(self) -> None:
        db = self._db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables:
                raise ClassBookError(f"{self.path} holds another program's tables, "
                                     "not a class; choose another folder")
            db.executescript("BEGIN;" + _SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION};"
                             "COMMIT;")
        elif version != SCHEMA_VERSION:
            raise ClassBookError(f"{self.path} was written by another version of loo-tutor "
                                 f"(class book version {version}, this one reads "
                                 f"{SCHEMA_VERSION})")

    def close(self) -> None:
        """Close the database."""
        self._db.close()

    # -- settings ----------------------------------------------------------------------

    def setting(self, key: str, make: str) -> str:
        """The setting ``key``; set to ``make`` first when it has none."""
        self._db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, make))
        value: str = self._db.execute("SELECT value FROM settings WHERE key = ?",
                                      (key,)).fetchone()[0]
        return value

    def teacher_token(self) -> str:
        """The teacher's token: made once for the folder, then the same at every start."""
        return self.setting("teacher_token", secrets.token_urlsafe(24))

    def new_teacher_token(self) -> str:
        """Replace the teacher's token with a new one (the old address stops working)."""
        self._db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                         ("teacher_token", secrets.token_urlsafe(24)))
        return self.teacher_token()

    # -- students ----------------------------------------------------------------------

    def join(self, name: str) -> tuple[str | None, str]:
        """Join ``name`` to the class: ``(secret, name kept)``, or ``(None, why not)``.

        The secret is the new browser session's, to be kept in its cookie.
        A name taken by another student, as :func:`folded_name` compares
        them, is refused with :data:`NAME_TAKEN` alone.
        """
        kept = tidy_name(name)
        problem = name_problem(kept)
        if problem:
            return None, problem
        secret = secrets.token_urlsafe(32)
        try:
            self._db.execute("BEGIN IMMEDIATE")
            cursor = self._db.execute(
                "INSERT INTO students (name, folded, joined) VALUES (?, ?, ?)",
                (kept, folded_name(kept), now()))
            self._db.execute("INSERT INTO sessions (secret, student) VALUES (?, ?)",
                             (secret, cursor.lastrowid))
            self._db.execute("COMMIT")
        except sqlite3.IntegrityError:
            self._db.execute("ROLLBACK")
            return None, NAME_TAKEN
        return secret, kept

    def student_of(self, secret: str | None) -> tuple[int, str] | None:
        """The student (id, name) whose browser holds ``secret``, or ``None``."""
        if not secret:
            return None
        found = self._db.execute(
            "SELECT students.id, students.name FROM sessions JOIN students "
            "ON students.id = sessions.student WHERE sessions.secret = ?", (secret,)).fetchone()
        return (int(found[0]), str(found[1])) if found else None

    # -- answers -----------------------------------------------------------------------

    def record(self, student: int, check_id: str, mark: Mark, time: str) -> bool:
        """Keep ``mark`` as ``student``'s check ``check_id``; False when it was kept already.

        The row is committed (to disk) before this returns.
        """
        cursor = self._db.execute(
            "INSERT OR IGNORE INTO answers (student, check_id, kind, seed, answer, verdict, "
            "rule, message, rule_name, expected, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (student, check_id, mark.kind, mark.seed, mark.answer, mark.verdict, mark.rule,
             mark.message, mark.rule_name, mark.expected, time))
        kept = cursor.rowcount == 1
        if kept and self._tally is not None:
            found = self._db.execute("SELECT name FROM students WHERE id = ?",
                                     (student,)).fetchone()
            self._tally.add(student, str(found[0]), mark, time)
        return kept

    def was_shown(self, student: int, kind: str, seed: int) -> bool:
        """Whether ``student`` was shown the solution of the exercise ``kind`` ``seed``."""
        return self._db.execute(
            "SELECT 1 FROM answers WHERE student = ? AND kind = ? AND seed = ? AND verdict = ? "
            "LIMIT 1", (student, kind, seed, SHOWN)).fetchone() is not None

    def rows(self, student: int | None = None) -> Iterator[Entry]:
        """Every answer kept, in the order checked (only ``student``'s when given)."""
        query = ("SELECT students.name, kind, seed, answer, verdict, rule, message, rule_name, "
                 "expected, time FROM answers JOIN students ON students.id = answers.student")
        if student is None:
            found = self._db.execute(query + " ORDER BY answers.id")
        else:
            found = self._db.execute(query + " WHERE answers.student = ? ORDER BY answers.id",
                                     (student,))
        for name, kind, seed, answer, verdict, rule, message, rule_name, expected, time in found:
            yield name, Mark(kind, int(seed), answer, verdict, rule, message, rule_name,
                             expected), time

    def count(self) -> int:
        """How many answers are kept."""
        return int(self._db.execute("SELECT count(*) FROM answers").fetchone()[0])

    def summary(self, student: int | None = None) -> ClassSummary:
        """The class at a glance (or one student's part of it, for their own page).

        The rows are read once, the first time; after that the summary is kept
        up to date as answers are recorded.
        """
        if self._tally is None:
            self._tally = _Tally.of(self._db)
        names = self._db.execute(
            "SELECT id, name FROM students" + (" WHERE id = ?" if student is not None else "")
            + " ORDER BY folded", (() if student is None else (student,))).fetchall()
        return self._tally.summary([(int(one), str(name)) for one, name in names])
