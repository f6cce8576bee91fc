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
  working across a restart with the same folder;
* ``rejoin``: each student's rejoin code, which lets them join again under
  their name from another browser; a code emptied by the teacher
  (:meth:`ClassBook.release`) lets the next browser that joins under the
  name take it, with no code. The table is made when a book is opened, so
  a book of version 1 made before it gets it too.

The database file alone is the class: the server has SQLite copy its
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

from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

from ...engine.errors import LooError
from ...teaching.assignment import class_assignment
from ...teaching.marking import NOT_AN_EXERCISE, RIGHT, WRONG, Mark, Marked
from ...teaching.score import SOLUTION, score

SCHEMA_VERSION = 1
"""The version of the schema below; a database of another version is not opened."""
DATABASE = "class.sqlite3"
"""The database's file name in the class folder."""
LONGEST_NAME = 40
"""The most characters a student's name may have."""
STUCK_AFTER = 2
"""A student is stuck on a kind when this many of their last checks of it were all wrong."""
CHECK_S = 30
"""How often the server copies the write-ahead log into the database file and looks it over."""
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
_REJOIN = """CREATE TABLE IF NOT EXISTS rejoin (
    student INTEGER PRIMARY KEY REFERENCES students(id),
    code TEXT NOT NULL
)"""
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


def _trouble(folder: Path, exc: BaseException) -> str:
    """What ``exc``, raised reading or writing the class book in ``folder``, means, in one line."""
    name = str(getattr(exc, "sqlite_errorname", ""))
    detail = (exc.strerror or str(exc)) if isinstance(exc, OSError) else str(exc)
    detail = " ".join(detail.replace("*** in database main ***", "").lower().split())
    path = folder / DATABASE
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

    @classmethod
    def of(cls, db: sqlite3.Connection) -> _Tally:
        """The tally of every answer kept in ``db``, read once."""
        tally = cls()
        names = dict(db.execute("SELECT id, name FROM students").fetchall())
        db.execute("BEGIN")  # one snapshot for every query
        try:
            for student, count, last in db.execute(
                    "SELECT student, count(*), max(time) FROM answers GROUP BY student"):
                one = tally.students.setdefault(student, _Student(names[student]))
                one.checks += count
                one.last = max(one.last, last)
                tally.total += count
            for student, rule, count in db.execute(
                    "SELECT student, rule, count(*) FROM answers WHERE verdict = ? "
                    "AND rule IS NOT NULL AND rule != '' GROUP BY student, rule", (WRONG,)):
                tally.students[student].missed[rule] = count
                tally.rule_count[rule] = tally.rule_count.get(rule, 0) + count
                tally.rule_students.setdefault(rule, set()).add(student)
            for student, kind, seed, verdict in db.execute(
                    "SELECT student, kind, seed, verdict FROM answers WHERE verdict != ? "
                    "ORDER BY id", (NOT_AN_EXERCISE,)):
                _keep(tally.students[student].exercises.setdefault((kind, seed), []), verdict)
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


class ClassBook:
    """The class kept in ``folder``: open it, then join, record and read.

    The folder and its database are made if need be, unless ``create`` is
    False (reading a class after the lesson, which opens it read-only, and
    then ``folder`` may also be a class book's file, such as a backup).

    Raises:
        ClassBookError: ``folder`` is not a class's folder (a file, another
            program's database, another version's); with ``create`` False,
            also when no class is kept there or its database is damaged.
            With ``create``, a folder that cannot be written or a damaged
            database is not raised but kept in :attr:`problem`.
    """

    def __init__(self, folder: Path, create: bool = True) -> None:
        if not create and folder.is_file():  # a class book's file itself, such as a backup
            folder, self.path = folder.parent, folder
        else:
            self.path = folder / DATABASE
        self.folder = folder
        self.problem: str | None = None
        """Why answers cannot be kept now, in one line; ``None`` while they can."""
        self.read_only = not create
        self._run_token: str | None = None
        self._log_seen: tuple[int, int] | None = None
        self._db: sqlite3.Connection | None = None
        if folder.exists() and not folder.is_dir():
            raise ClassBookError(f"cannot keep the class in {folder}: it is a file, not a folder")
        self._tally: _Tally | None = None
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
            self.problem = _trouble(folder, exc)
            self.close()
            if not create:
                raise ClassBookError(self.problem) from exc
            if "damaged" not in self.problem:
                self._open_to_read_if_can()

    def _open(self) -> None:
        db = self._connected()
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        version = self._version(db)
        if version == 0:
            db.executescript("BEGIN;" + _SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION};"
                             "COMMIT;")
        db.execute(_REJOIN)
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
        """Open the database read-only; a folder SQLite may not write is opened as it stands."""
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
        if self._version(db) == 0:
            raise ClassBookError(f"no class is kept in {self.folder} ({DATABASE} is empty)")
        self._look_over(db)

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
        elif version != SCHEMA_VERSION:
            raise ClassBookError(f"{self.path} was written by another version of loo-tutor "
                                 f"(class book version {version}, this one reads "
                                 f"{SCHEMA_VERSION})")
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
            self.problem = _trouble(self.folder, exc)
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
            self.problem = _trouble(self.folder, exc)
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
                raise ClassBookError(_trouble(self.folder, exc)) from exc
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

    # -- settings ----------------------------------------------------------------------

    def setting(self, key: str, make: str) -> str:
        """The setting ``key``; set to ``make`` first when it has none."""
        with self._using() as db:
            found = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        if found:
            return str(found[0])
        with self._using(writing=True) as db:
            db.execute("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)", (key, make))
            value: str = db.execute("SELECT value FROM settings WHERE key = ?",
                                    (key,)).fetchone()[0]
        return value

    def teacher_token(self) -> str:
        """The teacher's token: made once for the folder, then the same at every start.

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
            db.execute("INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                       ("teacher_token", secrets.token_urlsafe(24)))
        return self.teacher_token()

    # -- students ----------------------------------------------------------------------

    def join(self, name: str, code: str = "") -> tuple[str | None, str]:
        """Join ``name`` to the class: ``(secret, name kept)``, or ``(None, why not)``.

        The secret is the new browser session's, to be kept in its cookie.
        A name taken by another student, as :func:`folded_name` compares
        them, is refused with :data:`NAME_TAKEN` alone, unless ``code`` is
        that student's rejoin code or the teacher has released the name: the
        browser then joins as that student (:meth:`rejoin_code`).

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
                db.execute("BEGIN IMMEDIATE")
                cursor = db.execute(
                    "INSERT INTO students (name, folded, joined) VALUES (?, ?, ?)",
                    (kept, folded_name(kept), now()))
                db.execute("INSERT INTO sessions (secret, student) VALUES (?, ?)",
                           (secret, cursor.lastrowid))
                db.execute("COMMIT")
            except sqlite3.IntegrityError:
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
                "SELECT students.id, students.name, rejoin.code FROM students LEFT JOIN rejoin "
                "ON rejoin.student = students.id WHERE students.folded = ?",
                (folded_name(name),)).fetchone()
            if found is None or found[2] is None:
                return None
            typed = "".join(code.split()).upper()
            if found[2] and not (typed and hmac.compare_digest(typed, found[2])):
                return None
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO sessions (secret, student) VALUES (?, ?)", (secret, found[0]))
            if not found[2]:  # released: a new code for the new browser
                db.execute("UPDATE rejoin SET code = ? WHERE student = ?",
                           (_new_code(), found[0]))
            db.execute("COMMIT")
        return str(found[1])

    def rejoin_code(self, student: int) -> str:
        """The code that lets ``student`` join again from another browser (made if need be)."""
        with self._using() as db:
            found = db.execute("SELECT code FROM rejoin WHERE student = ?", (student,)).fetchone()
        if found and found[0]:
            return str(found[0])
        with self._using(writing=True) as db:
            made = _new_code()
            db.execute("INSERT OR REPLACE INTO rejoin (student, code) VALUES (?, ?)",
                       (student, made))
        return made

    def release(self, name: str) -> str | None:
        """Let the next browser that joins as ``name`` take it, with no code; the name kept.

        Every browser that joined as the student leaves the class (its
        session ends); their answers stay theirs. ``None`` when no student
        goes by ``name``.
        """
        with self._using(writing=True) as db:
            found = db.execute("SELECT id, name FROM students WHERE folded = ?",
                               (folded_name(name),)).fetchone()
            if found is None:
                return None
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM sessions WHERE student = ?", (found[0],))
            db.execute("INSERT OR REPLACE INTO rejoin (student, code) VALUES (?, '')",
                       (found[0],))
            db.execute("COMMIT")
        return str(found[1])

    def student_of(self, secret: str | None) -> tuple[int, str] | None:
        """The student (id, name) whose browser holds ``secret``, or ``None``."""
        if not secret:
            return None
        with self._using() as db:
            found = db.execute(
                "SELECT students.id, students.name FROM sessions JOIN students "
                "ON students.id = sessions.student WHERE sessions.secret = ?",
                (secret,)).fetchone()
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
                "INSERT OR IGNORE INTO answers (student, check_id, kind, seed, answer, verdict, "
                "rule, message, rule_name, expected, time) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (student, check_id, mark.kind, mark.seed, mark.answer, mark.verdict, mark.rule,
                 mark.message, mark.rule_name, mark.expected, time))
            kept = cursor.rowcount == 1
            if kept and self._tally is not None:
                found = db.execute("SELECT name FROM students WHERE id = ?",
                                   (student,)).fetchone()
                self._tally.add(student, str(found[0]), mark, time)
        return kept

    def was_shown(self, student: int, kind: str, seed: int) -> bool:
        """Whether ``student`` was shown the solution of the exercise ``kind`` ``seed``."""
        with self._using() as db:
            return db.execute(
                "SELECT 1 FROM answers WHERE student = ? AND kind = ? AND seed = ? "
                "AND verdict = ? LIMIT 1", (student, kind, seed, SHOWN)).fetchone() is not None

    def rows(self, student: int | None = None) -> Iterator[Entry]:
        """Every answer kept, in the order checked (only ``student``'s when given)."""
        query = ("SELECT students.name, kind, seed, answer, verdict, rule, message, rule_name, "
                 "expected, time FROM answers JOIN students ON students.id = answers.student")
        with self._using() as db:
            if student is None:
                found = db.execute(query + " ORDER BY answers.id").fetchall()
            else:
                found = db.execute(query + " WHERE answers.student = ? ORDER BY answers.id",
                                   (student,)).fetchall()
        for name, kind, seed, answer, verdict, rule, message, rule_name, expected, time in found:
            yield name, Mark(kind, int(seed), answer, verdict, rule, message, rule_name,
                             expected), time

    def checks(self, student: int) -> list[tuple[str, str, int, str]]:
        """``student``'s checks in the order kept: each one's id, kind, seed and verdict."""
        with self._using() as db:
            found = db.execute("SELECT check_id, kind, seed, verdict FROM answers "
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
        """How many answers are kept."""
        with self._using() as db:
            return int(db.execute("SELECT count(*) FROM answers").fetchone()[0])

    def _assignment_keys(self) -> list[tuple[str, int]] | None:
        """The exercises of the class's assignment, or ``None`` without one (or unreadable)."""
        try:
            found = class_assignment(self.folder)
        except (LooError, OSError):
            return None
        return None if found is None else list(found.keys())

    def summary(self, student: int | None = None) -> ClassSummary:
        """The class at a glance (or one student's part of it, for their own page).

        Each student's exercises of each kind are scored with the one score
        model (:func:`loo_tutor.teaching.score.score`), against the class's
        assignment when it has one: ``right`` counts the exercises right,
        ``tried`` the exercises scored. The rows are read once, the first
        time; after that the summary is kept up to date as answers are
        recorded.
        """
        with self._using() as db:
            if self._tally is None:
                self._tally = _Tally.of(db)
            names = db.execute(
                "SELECT id, name FROM students" + (" WHERE id = ?" if student is not None else "")
                + " ORDER BY folded", (() if student is None else (student,))).fetchall()
        return self._tally.summary([(int(one), str(name)) for one, name in names],
                                   self._assignment_keys())
