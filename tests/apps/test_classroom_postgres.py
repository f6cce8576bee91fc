"""The classroom with its class kept in PostgreSQL: ``loo-tutor classroom --data
postgresql://...`` keeps a student's answer there, and ``loo-tutor mark --class`` reads it
back from the same address (a real server, tests/postgres_server.py)."""

from __future__ import annotations

import io
from contextlib import redirect_stdout
from pathlib import Path

import psycopg
import pytest
from test_classroom_class import Browser

from loo_tutor.apps.classroom.engines import open_store
from loo_tutor.apps.cli import main
from loo_tutor.teaching.exercises import Kind, make
from loo_tutor.teaching.marking import key_answer

from classroom_server import free_port, start, stop

EXERCISE = make(Kind.LEGAL_CARDS, 2024)


def test_a_students_answer_lands_in_postgresql_and_mark_reads_it_from_there(
        postgres_database: str, tmp_path: Path) -> None:
    server = start("--port", str(free_port()), "--pool-size", "0", "--class-name", "7b",
                   data=postgres_database)
    try:
        assert "The class (names and answers) is kept in postgresql://" in "".join(server.log)
        ann = Browser(server.url, issue_key_of(postgres_database))
        assert ann.join("Ann", code="")[0] == 200
        right = {"id": "first", "kind": "legal-cards", "seed": 2024,
                 "answer": key_answer(EXERCISE)}
        assert ann.answer(right)[0] == 200
        # acknowledged, so committed: in the database, read by a connection of its own
        with psycopg.connect(postgres_database) as db:
            kept = db.execute(
                "SELECT class_students.class, class_students.name, check_id, verdict "
                "FROM class_answers JOIN class_students "
                "ON class_students.id = class_answers.student").fetchall()
        assert kept == [("7b", "Ann", "first", "right")]
    finally:
        assert stop(server) == 0
    said = io.StringIO()
    with redirect_stdout(said):
        assert main(["mark", "--class", postgres_database, "--class-name", "7b"]) == 0
    assert "Ann" in said.getvalue()
    empty = io.StringIO()
    with redirect_stdout(empty):
        assert main(["mark", "--class", postgres_database]) == 0  # the class 'class': no one
    assert "Ann" not in empty.getvalue() and "no answer is kept" in empty.getvalue()


def issue_key_of(address: str) -> bytes:
    """The class 7b's key, as its server keeps it in the store."""
    book = open_store(address, create=False, class_name="7b")
    try:
        return bytes.fromhex(book.setting("issue_key", ""))
    finally:
        book.close()


def test_mark_says_in_one_line_when_no_class_store_is_at_an_address(
        postgres_database: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mark", "--class", postgres_database]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: no class is kept at postgresql://") and "\n" not in err
