"""The class store: who joined a class and every answer they checked.

One interface (:class:`ClassStore`) and two engines, which run the same
queries (:class:`SQLBook`) on the same schema, built and versioned by the
numbered SQL files of ``migrations/`` (:func:`migrations`):

* SQLite (:class:`ClassBook`, the default): one database file,
  ``class.sqlite3``, in the folder the teacher chose (``loo-tutor classroom
  --data DIR``), for one machine and no set-up. Its schema's version is the
  database's ``user_version``; a book of an earlier version is migrated when
  the server opens it;
* PostgreSQL (:class:`~loo_tutor.apps.classroom.postgres.PostgresBook`,
  ``--data postgresql://...``), which several servers share.

A store holds several classes, each named (``--class-name``, by default
:data:`DEFAULT_CLASS`); a server serves one. On SQLite the database runs in
WAL mode and each answer is committed before the server replies to the page
that sent it, so a server killed at any moment keeps every answer it
acknowledged.

What is kept (in tables named ``class_...``):

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
  working across a restart with the same folder;
* ``rejoin``: each student's rejoin code, which lets them join again under
  their name from another browser; a code emptied by the teacher
  (:meth:`SQLBook.release`) lets the next browser that joins under the
  name take it, with no code.

On SQLite, the database file alone is the class: the server has SQLite copy its
write-ahead log into the file every :data:`CHECK_S` seconds
(:meth:`ClassBook.check`) and when it stops (:meth:`ClassBook.close`), so a
teacher who copies ``class.sqlite3`` copies every answer kept until then;
:meth:`ClassBook.backup` copies it whole while the server runs (``loo-tutor
class backup``). A folder that cannot be written, or a database that is
damaged, does not stop the server: the book says what is wrong
(:attr:`ClassBook.problem`), reads what it can, and refuses every write
with a :class:`ClassBookError` that says why, so that no answer is
acknowledged that cannot be kept.

Nothing here judges an answer: the rows hold the verdicts the server had the
engine give.
"""

from __future__ import annotations

import contextlib
import errno
import hmac
import os
import secrets
import sqlite3
import unicodedata
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Protocol

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from ...engine.errors import LooError
from ...teaching.assignment import class_assignment
from ...teaching.marking import NOT_AN_EXERCISE, RIGHT, WRONG, Mark, Marked
from ...teaching.score import SOLUTION, score

DATABASE = "class.sqlite3"
"""The database's file name in the class folder."""
LONGEST_NAME = 40
"""The most characters a student's name may have."""
STUCK_AFTER = 2
"""A student is stuck on a kind when this many of their last checks of it were all wrong."""
CHECK_S = 30
"""How often the server copies the write-ahead log into the database file and looks it over,
by default (``--check-class-every``)."""
SHOWN = SOLUTION
"""The verdict kept for an exercise whose solution the student was shown, and for every check
of it after that: never counted right (the score model's "solution shown")."""
NAME_TAKEN = "Choose another name."
"""All a student is told when the name they typed cannot be theirs: it says nothing of who
is in the class."""

REJOIN_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The letters of a rejoin code: no 0 and O, no 1, I and L, which read alike."""
REJOIN_LENGTH = 6


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


def _new_code() -> str:
    return "".join(secrets.choice(REJOIN_LETTERS) for _ in range(REJOIN_LENGTH))


Entry = tuple[str, Mark, str]
"""One answer kept: the student, the engine's mark, the time; a row of the grade book."""


@dataclass
class KindTally:
    """One student's exercises of one kind: those scored (tried, or set by the class's
    assignment when it has one), and those right, as the one score model counts them."""

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


def _damage(detail: str) -> bool:
    return any(word in detail for word in ("malformed", "not a database", "corrupt"))


def _trouble(path: Path, exc: BaseException) -> str:
    """What ``exc``, raised reading or writing the class book ``path``, means, in one line."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    detail = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
    detail = " ".join(detail.replace("*** in database main ***", "").lower().split())
    folder = path.parent
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) or _damage(detail):
        return f"the class book {path} is damaged ({detail})"
    if name.startswith("SQLITE_FULL") or getattr(exc, "errno", None) == errno.ENOSPC:
        return f"the disk that holds {folder} is full"
    if (name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM"))
            or getattr(exc, "errno", None) in (errno.EACCES, errno.EPERM, errno.EROFS)):
        return f"the class folder {folder} cannot be written ({detail})"
    return f"the class book {path} cannot be written ({detail})"


@dataclass(frozen=True)
class _Check:
    """A check as the score model reads it (:class:`~loo_tutor.teaching.score.Checked`)."""

    kind: str
    seed: int
    verdict: str


def _decided(verdicts: list[str]) -> bool:
    return bool(verdicts) and verdicts[-1] in (RIGHT, SHOWN)


def _keep(verdicts: list[str], verdict: str) -> None:
    """Add ``verdict`` to an exercise's checks as far as they can change its outcome.

    The score model reads an exercise's checks up to the first right one or
    the first showing of its solution, and tells "right at the first check"
    from "right after several" by whether one came before: so the first
    check, and the one that decides, are all it needs.
    """
    if _decided(verdicts):
        return
    if not verdicts or verdict in (RIGHT, SHOWN):
        verdicts.append(verdict)


@dataclass
class _Student:
    """One student's running tally, kept up to date as answers are recorded."""

    name: str
    checks: int = 0
    last: str = ""
    missed: dict[str, int] = field(default_factory=dict)
    exercises: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    recent: dict[str, deque[str]] = field(default_factory=dict)

    def kinds(self, assignment: list[tuple[str, int]] | None) -> dict[str, KindTally]:
        """Right exercises and exercises scored by kind, as the one score model scores them."""
        checks = [_Check(kind, seed, verdict)
                  for (kind, seed), verdicts in self.exercises.items() for verdict in verdicts]
        return {kind: KindTally(exercises, right)
                for kind, (right, exercises) in score(checks, assignment).by_kind().items()}


class _Tally:
    """The class's summary kept as answers come, so that reading it costs as much for the
    thousandth answer as for the first: per student, per exercise, per rule, never per row."""

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
        _keep(one.exercises.setdefault((mark.kind, mark.seed), []), mark.verdict)
        one.recent.setdefault(mark.kind, deque(maxlen=STUCK_AFTER)).append(mark.verdict)
        if mark.verdict == WRONG and mark.rule:
            one.missed[mark.rule] = one.missed.get(mark.rule, 0) + 1
            self.rule_count[mark.rule] = self.rule_count.get(mark.rule, 0) + 1
            self.rule_students.setdefault(mark.rule, set()).add(student)

    def summary(self, names: list[tuple[int, str]],
                assignment: list[tuple[str, int]] | None) -> ClassSummary:
        """The summary of the students ``names`` (id, name), in that order, each scored
        against ``assignment`` (``None``: the exercises they checked)."""
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
            summary.kinds.update(one.kinds(assignment))
            for kind in sorted(one.recent):
                last = list(one.recent[kind])
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


DEFAULT_CLASS = "class"
"""The class a server keeps when it is given no name for it (``--class-name``); a class
book of version 1, which held one class, holds it under this name once migrated."""
MIGRATIONS = Path(__file__).with_name("migrations")
"""The schema's migrations: ``NNNN_what.sql``, applied in order, each once."""


def migrations() -> list[tuple[int, str]]:
    """Every migration of the schema, in order: its number and its SQL.

    Plain numbered SQL files, shipped with the package, and no migration
    tool or ORM: the store is a handful of tables, the same files build it
    on SQLite and on PostgreSQL, and the SQL in them is the SQL both speak
    (``INSERT ... SELECT``, ``CREATE TABLE IF NOT EXISTS``, ``UNIQUE``
    constraints). The one word an engine reads for itself is ``AUTO_ID``,
    the integer key the database numbers (:meth:`SQLBook._auto_id`). Each
    engine keeps the number of the last one applied in its own way
    (SQLite's ``user_version``; a one-row table on PostgreSQL).
    """
    found = []
    for path in sorted(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        found.append((int(path.name[:4]), path.read_text(encoding="utf-8")))
    numbers = [number for number, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise ClassBookError(f"the class store's migrations in {MIGRATIONS} are not numbered "
                             f"1, 2, 3...: {numbers}")
    return found


SCHEMA_VERSION = len(list(MIGRATIONS.glob("[0-9][0-9][0-9][0-9]_*.sql")))
"""The version of the schema (its last migration); a store of a later version is not opened."""


class ClassStore(Protocol):
    """What the classroom server, the teacher's page and ``loo-tutor mark --class`` need of
    a class store, whichever engine keeps it (:class:`ClassBook` on SQLite,
    :class:`~loo_tutor.apps.classroom.postgres.PostgresBook`): one class of a store that
    may hold several, named :attr:`class_name`."""

    folder: Path
    """The local folder of the class's files (its assignment)."""
    where: str
    """Where the class is kept, as the teacher is told (no password)."""
    class_name: str
    problem: str | None
    read_only: bool

    def check(self) -> str | None: ...
    def backup(self, target: Path) -> None: ...
    def close(self) -> None: ...
    def setting(self, key: str, make: str) -> str: ...
    def teacher_token(self) -> str: ...
    def new_teacher_token(self) -> str: ...
    def join(self, name: str, code: str = "") -> tuple[str | None, str]: ...
    def join_as(self, name: str) -> tuple[str | None, str]: ...
    def rejoin_code(self, student: int) -> str: ...
    def release(self, name: str) -> str | None: ...
    def student_of(self, secret: str | None) -> tuple[int, str] | None: ...
    def record(self, student: int, check_id: str, mark: Mark, time: str) -> bool: ...
    def was_shown(self, student: int, kind: str, seed: int) -> bool: ...
    def rows(self, student: int | None = None) -> Iterator[Entry]: ...
    def checks(self, student: int) -> list[tuple[str, str, int, str]]: ...
    def marked(self, path: str) -> list[Marked]: ...
    def count(self) -> int: ...
    def summary(self, student: int | None = None) -> ClassSummary: ...


class SQLBook:
    """One class of a store, as SQL reads and writes it on either engine.

    Every query is written once, with ``?`` for its parameters; an engine
    gives :meth:`_using` a connection that takes them (SQLite's own, or
    PostgreSQL's through :class:`~loo_tutor.apps.classroom.postgres.Paramstyle`).
    What an engine does for itself (connecting, its transactions, telling
    what a failure means, keeping its schema's version) is in its subclass.
    """

    folder: Path
    where: str
    class_name: str
    problem: str | None
    read_only: bool
    _tally: _Tally | None
    _seen: int
    _run_token: str | None

    def _start(self, class_name: str) -> None:
        self.class_name = class_name
        self.problem = None
        self._tally = None
        self._seen = 0
        self._run_token = None

    # -- what each engine does for itself -----------------------------------------------

    def _using(self, writing: bool = False) -> contextlib.AbstractContextManager[Any]:
        raise NotImplementedError

    def check(self) -> str | None:
        """Look the store over; :attr:`problem` as it is now (the server calls it every
        :data:`CHECK_S` seconds)."""
        raise NotImplementedError

    def backup(self, target: Path) -> None:
        """Copy the store into the new file ``target``, where the engine can."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _begin(self, db: Any) -> None:
        db.execute("BEGIN")

    def _taken(self) -> tuple[type[BaseException], ...]:
        """The exceptions that say a row broke a ``UNIQUE`` constraint."""
        raise NotImplementedError

    @staticmethod
    def _auto_id() -> str:
        raise NotImplementedError

    def _migrate(self, db: Any, version: int) -> None:
        """Apply every migration after ``version``, each in a transaction of its own."""
        raise NotImplementedError

    def _schema(self, version: int) -> list[tuple[int, str]]:
        """The migrations after ``version``, with ``AUTO_ID`` in this engine's words.

        Raises:
            ClassBookError: the store is of a later version than this loo-tutor reads.
        """
        if version > SCHEMA_VERSION:
            raise ClassBookError(f"{self.where} was written by another version of loo-tutor "
                                 f"(class book version {version}, this one reads "
                                 f"{SCHEMA_VERSION})")
        return [(number, sql.replace("AUTO_ID", self._auto_id()))
                for number, sql in migrations() if number > version]

    # -- settings ----------------------------------------------------------------------

    def setting(self, key: str, make: str) -> str:
        """The setting ``key``; set to ``make`` first when it has none."""
        query = "SELECT value FROM class_settings WHERE class = ? AND key = ?"
        with self._using() as db:
            found = db.execute(query, (self.class_name, key)).fetchone()
        if found:
            return str(found[0])
        with self._using(writing=True) as db:
            db.execute("INSERT INTO class_settings (class, key, value) VALUES (?, ?, ?) "
                       "ON CONFLICT DO NOTHING", (self.class_name, key, make))
            value: str = db.execute(query, (self.class_name, key)).fetchone()[0]
        return value

    def teacher_token(self) -> str:
        """The teacher's token: made once for the class, then the same at every start.

        A book that can neither read nor keep one gives a token made for
        this run of the server.
        """
        try:
            return self.setting("teacher_token", secrets.token_urlsafe(24))
        except ClassBookError:
            if self._run_token is None:
                self._run_token = secrets.token_urlsafe(24)
            return self._run_token

    def new_teacher_token(self) -> str:
        """Replace the teacher's token with a new one (the old address stops working)."""
        with self._using(writing=True) as db:
            db.execute("INSERT INTO class_settings (class, key, value) VALUES (?, ?, ?) "
                       "ON CONFLICT (class, key) DO UPDATE SET value = excluded.value",
                       (self.class_name, "teacher_token", secrets.token_urlsafe(24)))
        return self.teacher_token()

    # -- students ----------------------------------------------------------------------

    def join(self, name: str, code: str = "") -> tuple[str | None, str]:
        """Join ``name`` to the class: ``(secret, name kept)``, or ``(None, why not)``.

        The secret is the new browser session's, to be kept in its cookie.
        A name taken by another student of the class, as :func:`folded_name`
        compares them, is refused with :data:`NAME_TAKEN` alone, unless
        ``code`` is that student's rejoin code or the teacher has released
        the name: the browser then joins as that student (:meth:`rejoin_code`).

        Raises:
            ClassBookError: the book cannot keep the student now.
        """
        kept = tidy_name(name)
        problem = name_problem(kept)
        if problem:
            return None, problem
        secret = secrets.token_urlsafe(32)
        with self._using(writing=True) as db:
            try:
                self._begin(db)
                made = db.execute(
                    "INSERT INTO class_students (class, name, folded, joined) "
                    "VALUES (?, ?, ?, ?) RETURNING id",
                    (self.class_name, kept, folded_name(kept), now())).fetchone()
                db.execute("INSERT INTO class_sessions (secret, student) VALUES (?, ?)",
                           (secret, made[0]))
                db.execute("COMMIT")
            except self._taken():
                db.execute("ROLLBACK")
                again = self._rejoin(kept, code, secret)
                if again is None:
                    return None, NAME_TAKEN
                return secret, again
        return secret, kept

    def _rejoin(self, name: str, code: str, secret: str) -> str | None:
        """Give the student ``name`` the new session ``secret`` when ``code`` lets them in."""
        with self._using(writing=True) as db:
            found = db.execute(
                "SELECT class_students.id, class_students.name, class_rejoin.code "
                "FROM class_students LEFT JOIN class_rejoin "
                "ON class_rejoin.student = class_students.id "
                "WHERE class_students.class = ? AND class_students.folded = ?",
                (self.class_name, folded_name(name))).fetchone()
            if found is None or found[2] is None:
                return None
            typed = "".join(code.split()).upper()
            if found[2] and not (typed and hmac.compare_digest(typed, found[2])):
                return None
            self._begin(db)
            db.execute("INSERT INTO class_sessions (secret, student) VALUES (?, ?)",
                       (secret, found[0]))
            if not found[2]:  # released: a new code for the new browser
                db.execute("UPDATE class_rejoin SET code = ? WHERE student = ?",
                           (_new_code(), found[0]))
            db.execute("COMMIT")
        return str(found[1])

    def join_as(self, name: str) -> tuple[str | None, str]:
        """Join the student ``name`` as someone else vouches for it (the school's Hub,
        ``--students hub``): a new browser session for the student of that name, made if
        new; ``(secret, name kept)``, or ``(None, why not)`` for a name the class cannot
        keep or one that only looks like another student's.

        Raises:
            ClassBookError: the book cannot keep the student now.
        """
        kept = tidy_name(name)
        for _ in range(2):  # a second time when another browser of theirs joined meanwhile
            with self._using(writing=True) as db:
                found = db.execute("SELECT id, name FROM class_students WHERE class = ? "
                                   "AND folded = ?",
                                   (self.class_name, folded_name(kept))).fetchone()
                if found is not None:
                    if found[1] != kept:
                        return None, (f"Another student of this class has a name that looks "
                                      f"like {kept}: ask your teacher.")
                    secret = secrets.token_urlsafe(32)
                    db.execute("INSERT INTO class_sessions (secret, student) VALUES (?, ?)",
                               (secret, found[0]))
                    return secret, kept
            made, said = self.join(kept)  # new: checked and kept as any name joining
            if made is not None or said != NAME_TAKEN:
                return made, said
        return None, NAME_TAKEN

    def rejoin_code(self, student: int) -> str:
        """The code that lets ``student`` join again from another browser (made if need be)."""
        with self._using() as db:
            found = db.execute("SELECT code FROM class_rejoin WHERE student = ?",
                               (student,)).fetchone()
        if found and found[0]:
            return str(found[0])
        with self._using(writing=True) as db:
            made = _new_code()
            db.execute("INSERT INTO class_rejoin (student, code) VALUES (?, ?) "
                       "ON CONFLICT (student) DO UPDATE SET code = excluded.code",
                       (student, made))
        return made

    def release(self, name: str) -> str | None:
        """Let the next browser that joins as ``name`` take it, with no code; the name kept.

        Every browser that joined as the student leaves the class (its
        session ends); their answers stay theirs. ``None`` when no student
        of the class goes by ``name``.
        """
        with self._using(writing=True) as db:
            found = db.execute("SELECT id, name FROM class_students WHERE class = ? "
                               "AND folded = ?", (self.class_name, folded_name(name))).fetchone()
            if found is None:
                return None
            self._begin(db)
            db.execute("DELETE FROM class_sessions WHERE student = ?", (found[0],))
            db.execute("INSERT INTO class_rejoin (student, code) VALUES (?, '') "
                       "ON CONFLICT (student) DO UPDATE SET code = excluded.code", (found[0],))
            db.execute("COMMIT")
        return str(found[1])

    def student_of(self, secret: str | None) -> tuple[int, str] | None:
        """The student (id, name) of this class whose browser holds ``secret``, or ``None``."""
        if not secret:
            return None
        with self._using() as db:
            found = db.execute(
                "SELECT class_students.id, class_students.name FROM class_sessions "
                "JOIN class_students ON class_students.id = class_sessions.student "
                "WHERE class_sessions.secret = ? AND class_students.class = ?",
                (secret, self.class_name)).fetchone()
        return (int(found[0]), str(found[1])) if found else None

    # -- answers -----------------------------------------------------------------------

    def record(self, student: int, check_id: str, mark: Mark, time: str) -> bool:
        """Keep ``mark`` as ``student``'s check ``check_id``; False when it was kept already.

        The row is committed (to disk) before this returns.

        Raises:
            ClassBookError: the book cannot keep it now (nothing is kept).
        """
        with self._using(writing=True) as db:
            cursor = db.execute(
                "INSERT INTO class_answers (student, check_id, kind, seed, answer, verdict, "
                "rule, message, rule_name, expected, time) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (student, check_id, mark.kind, mark.seed, mark.answer, mark.verdict, mark.rule,
                 mark.message, mark.rule_name, mark.expected, time))
            return bool(cursor.rowcount == 1)

    def was_shown(self, student: int, kind: str, seed: int) -> bool:
        """Whether ``student`` was shown the solution of the exercise ``kind`` ``seed``."""
        with self._using() as db:
            return db.execute(
                "SELECT 1 FROM class_answers WHERE student = ? AND kind = ? AND seed = ? "
                "AND verdict = ? LIMIT 1", (student, kind, seed, SHOWN)).fetchone() is not None

    def rows(self, student: int | None = None) -> Iterator[Entry]:
        """Every answer of the class kept, in the order checked (only ``student``'s when
        given)."""
        query = ("SELECT class_students.name, kind, seed, answer, verdict, rule, message, "
                 "rule_name, expected, time FROM class_answers JOIN class_students "
                 "ON class_students.id = class_answers.student WHERE class_students.class = ?")
        with self._using() as db:
            if student is None:
                found = db.execute(query + " ORDER BY class_answers.id",
                                   (self.class_name,)).fetchall()
            else:
                found = db.execute(query + " AND class_answers.student = ? "
                                   "ORDER BY class_answers.id",
                                   (self.class_name, student)).fetchall()
        for name, kind, seed, answer, verdict, rule, message, rule_name, expected, time in found:
            yield name, Mark(kind, int(seed), answer, verdict, rule, message, rule_name,
                             expected), time

    def checks(self, student: int) -> list[tuple[str, str, int, str]]:
        """``student``'s checks in the order kept: each one's id, kind, seed and verdict."""
        with self._using() as db:
            found = db.execute("SELECT check_id, kind, seed, verdict FROM class_answers "
                               "WHERE student = ? ORDER BY id", (student,)).fetchall()
        return [(str(one), str(kind), int(seed), str(verdict)) for one, kind, seed, verdict in found]

    def marked(self, path: str) -> list[Marked]:
        """Each student's answers, as ``loo-tutor mark`` marks an answers file named ``path``:
        in the order checked, the place of each being ``check 1``, ``check 2``…"""
        marks: dict[str, list[tuple[str, Mark, str]]] = {}
        for student, mark, when in self.rows():
            kept = marks.setdefault(student, [])
            kept.append((f"check {len(kept) + 1}", mark, when))
        return [Marked(path, student, tuple(kept)) for student, kept in marks.items()]

    def count(self) -> int:
        """How many answers of the class are kept."""
        with self._using() as db:
            return int(db.execute(
                "SELECT count(*) FROM class_answers JOIN class_students "
                "ON class_students.id = class_answers.student WHERE class_students.class = ?",
                (self.class_name,)).fetchone()[0])

    def _assignment_keys(self) -> list[tuple[str, int]] | None:
        """The exercises of the class's assignment, or ``None`` without one (or unreadable)."""
        try:
            found = class_assignment(self.folder)
        except (LooError, OSError):
            return None
        return None if found is None else list(found.keys())

    def _catch_up(self, db: Any) -> int:
        """Add to the summary the answers kept since it last looked; how many there were.

        The summary's cursor is the id of the last answer it read: ids only
        grow (SQLite numbers a row one past the largest; PostgreSQL's identity
        counts up), and a class's answers are written by its one server, one
        at a time, so none is committed behind the cursor.
        """
        if self._tally is None:
            self._tally, self._seen = _Tally(), 0
        new = db.execute(
            "SELECT class_answers.id, class_answers.student, class_students.name, kind, seed, "
            "answer, verdict, rule, message, rule_name, expected, time FROM class_answers "
            "JOIN class_students ON class_students.id = class_answers.student "
            "WHERE class_students.class = ? AND class_answers.id > ? ORDER BY class_answers.id",
            (self.class_name, self._seen)).fetchall()
        for row in new:
            answer, student, name, kind, seed, *rest, time = row
            self._tally.add(int(student), str(name), Mark(kind, int(seed), *rest), time)
            self._seen = int(answer)
        return len(new)

    def summary(self, student: int | None = None) -> ClassSummary:
        """The class at a glance (or one student's part of it, for their own page).

        Each student's exercises of each kind are scored with the one score
        model (:func:`loo_tutor.teaching.score.score`), against the class's
        assignment when it has one: ``right`` counts the exercises right,
        ``tried`` the exercises scored. Each call reads only the answers kept
        since the last (:meth:`_catch_up`), and adds them to what it read before.
        """
        with self._using() as db:
            self._catch_up(db)
            names = db.execute(
                "SELECT id, name FROM class_students WHERE class = ?"
                + (" AND id = ?" if student is not None else "") + " ORDER BY folded",
                (self.class_name,) if student is None else (self.class_name, student)).fetchall()
        assert self._tally is not None
        return self._tally.summary([(int(one), str(name)) for one, name in names],
                                   self._assignment_keys())


class ClassBook(SQLBook):
    """The class kept in ``folder``, on SQLite: open it, then join, record and read.

    The folder and its database are made if need be, unless ``create`` is
    False (reading a class after the lesson, which opens it read-only, and
    then ``folder`` may also be a class book's file, such as a backup). A
    book of an earlier version is migrated when it is opened to write; read
    only, it is migrated in a copy in memory, the file untouched.

    Raises:
        ClassBookError: ``folder`` is not a class's folder (a file, another
            program's database, another version's); with ``create`` False,
            also when no class is kept there or its database is damaged.
            With ``create``, a folder that cannot be written or a damaged
            database is not raised but kept in :attr:`problem`.
    """

    def __init__(self, folder: Path, create: bool = True,
                 class_name: str = DEFAULT_CLASS) -> None:
        self._start(class_name)
        self.where = str(folder)
        if not create and folder.is_file():  # a class book's file itself, such as a backup
            folder, self.path = folder.parent, folder
        else:
            self.path = folder / DATABASE
        self.folder = folder
        self.read_only = not create
        self._log_seen: tuple[int, int] | None = None
        self._db: sqlite3.Connection | None = None
        if folder.exists() and not folder.is_dir():
            raise ClassBookError(f"cannot keep the class in {folder}: it is a file, not a folder")
        if not create and not self.path.is_file():
            raise ClassBookError(f"no class is kept in {folder} (it has no {DATABASE})")
        try:
            if create:
                folder.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, isolation_level=None)
                self._open()
            else:
                self._open_to_read()
        except ClassBookError:
            self.close()
            raise
        except (OSError, sqlite3.Error) as exc:
            self.problem = _trouble(self.path, exc)
            self.close()
            if not create:
                raise ClassBookError(self.problem) from exc
            if "damaged" not in self.problem:
                self._open_to_read_if_can()

    def _begin(self, db: Any) -> None:
        db.execute("BEGIN IMMEDIATE")

    def _taken(self) -> tuple[type[BaseException], ...]:
        return (sqlite3.IntegrityError,)

    @staticmethod
    def _auto_id() -> str:
        return "INTEGER PRIMARY KEY"

    def _migrate(self, db: Any, version: int) -> None:
        """Apply the migrations after ``version``; SQLite keeps the version in ``user_version``.

        Foreign keys are off while they run, as SQLite asks of a migration
        that copies tables, and are looked over before each one commits.
        """
        steps = self._schema(version)
        if not steps:
            return
        db.execute("PRAGMA foreign_keys=OFF")
        try:
            for number, sql in steps:
                try:
                    db.executescript(f"BEGIN IMMEDIATE;{sql};PRAGMA user_version={number};")
                    if db.execute("PRAGMA foreign_key_check").fetchone() is not None:
                        raise ClassBookError(f"the class book {self.path} cannot be migrated "
                                             f"to version {number}: its rows do not hold "
                                             "together")
                    db.execute("COMMIT")
                finally:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
        finally:
            db.execute("PRAGMA foreign_keys=ON")

    def _open(self) -> None:
        db = self._connected()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        self._migrate(db, self._version(db))
        self._look_over(db)
        self._log_seen = self._log_now()

    def _log_now(self) -> tuple[int, int] | None:
        """The write-ahead log beside the database file now (its device and inode), if any."""
        try:
            found = os.stat(self.path.with_name(self.path.name + "-wal"))
        except OSError:
            return None
        return found.st_dev, found.st_ino

    def _keep_log_in_file(self) -> None:
        """Make sure what was just written is in a file of the folder, before it is acknowledged.

        SQLite writes into the write-ahead log it opened. When that file was
        deleted or replaced while the book is open (a teacher tidying the
        folder), what it holds is in no file of the folder, and would be lost
        if the server stopped now: it is copied into the database file at
        once, and the database opened again with a log of its own.
        """
        if self._db is None or self._log_seen is None or self._log_now() == self._log_seen:
            return
        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        self._db.close()
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._open()

    def _open_to_read(self) -> None:
        """Open the database read-only; a folder SQLite may not write is opened as it stands.

        A book of an earlier version is copied into memory and migrated there.
        """
        for mode in ("mode=ro", "immutable=1"):
            with contextlib.suppress(sqlite3.OperationalError):
                self.close()
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?{mode}",
                                           uri=True, isolation_level=None)
                self._db.execute("PRAGMA busy_timeout=5000")
                self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()
                break
        db = self._connected()
        self.read_only = True
        version = self._version(db)
        if version == 0:
            raise ClassBookError(f"no class is kept in {self.folder} ({DATABASE} is empty)")
        self._look_over(db)
        if version < SCHEMA_VERSION:
            copy = sqlite3.connect(":memory:", isolation_level=None)
            db.backup(copy)
            db.close()
            self._db = copy
            self._migrate(copy, version)

    def _open_to_read_if_can(self) -> None:
        """After a failure to open for writing, read what the class book holds, when it can."""
        if not self.path.is_file():
            return
        try:
            self._open_to_read()
        except (OSError, sqlite3.Error, ClassBookError):
            self.close()

    def _version(self, db: sqlite3.Connection) -> int:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        if version == 0:
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if tables:
                raise ClassBookError(f"{self.path} holds another program's tables, "
                                     "not a class; choose another folder")
        elif version > SCHEMA_VERSION:
            self._schema(version)  # says which
        return version

    def _look_over(self, db: sqlite3.Connection) -> None:
        found = db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if found != "ok":
            raise sqlite3.DatabaseError(f"database disk image is malformed: {found}")

    def _connected(self) -> sqlite3.Connection:
        if self._db is None:
            raise ClassBookError(self.problem or f"the class book {self.path} is closed")
        return self._db

    @contextlib.contextmanager
    def _using(self, writing: bool = False) -> Iterator[sqlite3.Connection]:
        """The database, for one read or write; any failure becomes a :class:`ClassBookError`.

        A write is refused while :attr:`problem` says the book cannot keep it.
        """
        db = self._connected()
        if writing and (self.problem or self.read_only):
            raise ClassBookError(self.problem or f"the class book {self.path} is open to read")
        try:
            yield db
            if writing:
                self._keep_log_in_file()
        except (OSError, sqlite3.Error) as exc:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            self.problem = _trouble(self.path, exc)
            raise ClassBookError(self.problem) from exc

    def check(self) -> str | None:
        """Copy the write-ahead log into the database file and look the file over.

        The server calls it every :data:`CHECK_S` seconds. Returns
        :attr:`problem`, which this sets when the file cannot be written or
        is damaged, and clears when both are well again.
        """
        if self._db is None or self.read_only:
            return self.problem
        try:
            self._keep_log_in_file()
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            self._look_over(self._db)
        except (OSError, sqlite3.Error) as exc:
            self.problem = _trouble(self.path, exc)
        else:
            self.problem = None
        return self.problem

    def backup(self, target: Path) -> None:
        """Copy the whole class book into the new file ``target``, with SQLite's online backup.

        The copy is one file (no write-ahead log beside it), which ``loo-tutor
        mark --class`` and the server read as they read the original.

        Raises:
            ClassBookError: ``target`` exists, or cannot be written; the
                database cannot be read.
        """
        if target.exists() or target.is_symlink():
            raise ClassBookError(f"{target} exists already; give the name of a new file")
        db = self._connected()
        try:
            copy = sqlite3.connect(target, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise ClassBookError(f"cannot write {target}: {str(exc).lower()}") from exc
        try:
            db.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        except (OSError, sqlite3.Error) as exc:
            copy.close()
            target.unlink(missing_ok=True)
            if isinstance(exc, sqlite3.Error) and _damage(str(exc).lower()):
                raise ClassBookError(_trouble(self.path, exc)) from exc
            raise ClassBookError(f"cannot write {target}: {str(exc).lower()}") from exc
        copy.close()

    def close(self) -> None:
        """Copy the write-ahead log into the database file, then close the database."""
        if self._db is None:
            return
        if not self.read_only and not self.problem:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        self._db.close()
        self._db = None
