"""The class store's tests, the same functions on both engines: SQLite in a folder and a
real PostgreSQL server (tests/postgres_server.py)."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from loo_tutor.apps.classroom.engines import open_store
from loo_tutor.apps.classroom.store import (
    DATABASE,
    DEFAULT_CLASS,
    NAME_TAKEN,
    SCHEMA_VERSION,
    ClassBook,
    ClassBookError,
    ClassStore,
    SQLBook,
    migrations,
)
from loo_tutor.teaching.exercises import Kind, make
from loo_tutor.teaching.marking import RIGHT, WRONG, Mark, judge, key_answer

Opener = Callable[..., ClassStore]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a class of one store (``store(class_name=..., create=...)``), on each engine."""
    where: str | Path = (tmp_path / "class" if request.param == "sqlite"
                         else request.getfixturevalue("postgres_database"))
    opened: list[ClassStore] = []

    def opening(class_name: str = DEFAULT_CLASS, create: bool = True) -> ClassStore:
        book = open_store(where, create, class_name)
        opened.append(book)
        return book

    yield opening
    for book in opened:
        book.close()


def _marks(kind: Kind, seeds: range) -> list[tuple[int, Mark, Mark]]:
    """For each seed, the engine's mark of the right answer and of a wrong one."""
    return [(seed, _kept(judge(kind.word, seed, key_answer(make(kind, seed)))),
             _kept(judge(kind.word, seed, ["AS", "2C"]))) for seed in seeds]


def _kept(mark: Mark) -> Mark:
    """``mark`` as a store keeps it: without the parts of its message."""
    return dataclasses.replace(mark, parts=())


def test_a_student_joins_once_by_any_spelling_and_rejoins_with_their_code(store: Opener) -> None:
    book = store()
    secret, kept = book.join("  Ann   Lee ")
    assert secret is not None and kept == "Ann Lee"
    assert book.join("ANN lee") == (None, NAME_TAKEN)
    who = book.student_of(secret)
    assert who is not None and who[1] == "Ann Lee"
    code = book.rejoin_code(who[0])
    assert book.rejoin_code(who[0]) == code
    again, name = book.join("ann lee", code.lower())
    assert again is not None and again != secret and name == "Ann Lee"
    assert book.student_of(again) == who
    assert book.release("ANN LEE") == "Ann Lee"
    assert book.student_of(secret) is None and book.student_of(again) is None
    third, _ = book.join("Ann Lee")
    assert third is not None and book.student_of(third) == who
    assert book.release("Nobody") is None


def test_an_answer_sent_twice_is_kept_once_and_read_back_as_the_engine_marked_it(
        store: Opener) -> None:
    book = store()
    secret, _ = book.join("Bo")
    who = book.student_of(secret)
    assert who is not None
    (seed, right, wrong), = _marks(Kind.LEGAL_CARDS, range(3, 4))
    assert book.record(who[0], "c1", wrong, "2026-12-06T10:00:00Z")
    assert not book.record(who[0], "c1", right, "2026-12-06T10:00:01Z")
    assert book.record(who[0], "c2", right, "2026-12-06T10:00:02Z")
    assert book.count() == 2
    assert [mark for _, mark, _ in book.rows()] == [wrong, right]
    assert book.checks(who[0]) == [("c1", Kind.LEGAL_CARDS.word, seed, wrong.verdict),
                                   ("c2", Kind.LEGAL_CARDS.word, seed, RIGHT)]
    marked, = book.marked("the class")
    assert marked.student == "Bo" and [place for place, _, _ in marked.marks] == \
        ["check 1", "check 2"]
    assert not book.was_shown(who[0], Kind.LEGAL_CARDS.word, seed)


def test_the_summary_reads_only_the_answers_kept_since_it_last_looked(store: Opener) -> None:
    book = store()
    secret, _ = book.join("Cy")
    who = book.student_of(secret)
    assert who is not None
    marks = _marks(Kind.LEGAL_CARDS, range(1, 4))
    for number, (_, _, wrong) in enumerate(marks):
        book.record(who[0], f"w{number}", wrong, "2026-12-06T10:00:00Z")
    first = book.summary()
    assert first.answers == 3 and first.stuck == {Kind.LEGAL_CARDS.word: ["Cy"]}
    assert isinstance(book, SQLBook)
    cursor = book._seen
    with book._using() as db:
        assert book._catch_up(db) == 0  # nothing new since the summary looked
    book.record(who[0], "r0", marks[0][1], "2026-12-06T10:01:00Z")
    with book._using() as db:
        assert book._catch_up(db) == 1  # the one answer kept since
    assert book._seen > cursor
    summary = book.summary()
    assert summary.answers == 4
    one, = summary.students
    assert one.name == "Cy" and one.checks == 4
    assert sum(tally.right for tally in one.kinds.values()) == 1
    assert summary.stuck == {}  # right at the last check
    missed: dict[str, int] = {}
    for _, _, wrong in marks:
        assert wrong.verdict == WRONG and wrong.rule
        missed[wrong.rule] = missed.get(wrong.rule, 0) + 1
    assert one.missed == missed


def test_a_store_holds_several_classes_each_with_its_own_names_answers_and_token(
        store: Opener) -> None:
    first, second = store("maths-7a"), store("maths-7b")
    one, _ = first.join("Dee")
    other, _ = second.join("Dee")  # the same name, in another class
    assert one is not None and other is not None
    assert first.student_of(other) is None and second.student_of(one) is None
    who = first.student_of(one)
    assert who is not None
    _, right, _ = _marks(Kind.LEGAL_CARDS, range(5, 6))[0]
    first.record(who[0], "c1", right, "2026-12-06T10:00:00Z")
    assert (first.count(), second.count()) == (1, 0)
    assert [s.name for s in second.summary().students] == ["Dee"]
    assert second.summary().answers == 0 and first.summary().answers == 1
    assert first.teacher_token() != second.teacher_token()
    assert first.setting("k", "a") == "a" and second.setting("k", "b") == "b"
    assert first.setting("k", "c") == "a"
    token = first.teacher_token()
    assert first.new_teacher_token() != token and first.teacher_token() != token


def test_a_class_is_read_again_after_it_was_closed_and_read_only_refuses_writes(
        store: Opener) -> None:
    book = store("late")
    secret, _ = book.join("Eve")
    who = book.student_of(secret)
    assert who is not None
    token = book.teacher_token()
    _, right, _ = _marks(Kind.LEGAL_CARDS, range(7, 8))[0]
    book.record(who[0], "c1", right, "2026-12-06T10:00:00Z")
    book.close()
    again = store("late", create=False)
    assert again.teacher_token() == token and again.count() == 1
    assert [s.name for s in again.summary().students] == ["Eve"]
    with pytest.raises(ClassBookError):
        again.join("Fay")


def test_a_class_name_that_cannot_name_a_class_is_refused_in_one_line(store: Opener) -> None:
    with pytest.raises(ClassBookError, match="a class's name is"):
        store("two words")


def test_the_migrations_are_numbered_from_one_and_the_schema_is_their_last() -> None:
    numbers = [number for number, _ in migrations()]
    assert numbers == list(range(1, SCHEMA_VERSION + 1)) and SCHEMA_VERSION >= 2
    for _, sql in migrations():
        assert "INSERT OR" not in sql.upper() and "AUTOINCREMENT" not in sql.upper()


def test_a_class_book_of_version_one_is_migrated_and_read_with_its_answers(
        tmp_path: Path) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    db = sqlite3.connect(folder / DATABASE)
    db.executescript(migrations()[0][1].replace("AUTO_ID", "INTEGER PRIMARY KEY"))
    db.execute("INSERT INTO students (id, name, folded, joined) VALUES (1, 'Gus', 'gus', 't')")
    db.execute("INSERT INTO sessions (secret, student) VALUES ('s3cret', 1)")
    _, right, _ = _marks(Kind.LEGAL_CARDS, range(9, 10))[0]
    db.execute("INSERT INTO answers (student, check_id, kind, seed, answer, verdict, rule, "
               "message, rule_name, expected, time) VALUES (1, 'c1', ?, ?, ?, ?, ?, ?, ?, ?, 't')",
               (right.kind, right.seed, right.answer, right.verdict, right.rule, right.message,
                right.rule_name, right.expected))
    db.execute("PRAGMA user_version=1")
    db.commit()
    db.close()
    read = ClassBook(folder, create=False)  # read-only: migrated in memory, the file untouched
    assert read.count() == 1 and [m for _, m, _ in read.rows()] == [right]
    read.close()
    assert sqlite3.connect(folder / DATABASE).execute("PRAGMA user_version").fetchone()[0] == 1
    book = ClassBook(folder)
    assert book.student_of("s3cret") == (1, "Gus") and book.count() == 1
    secret, _ = book.join("Hal")
    assert secret is not None and book.student_of(secret) is not None
    book.close()
    assert sqlite3.connect(folder / DATABASE).execute(
        "PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
