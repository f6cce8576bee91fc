"""The ``loo-tutor`` command line (CONTRACT.md §3)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from loo_tutor import check, loads
from loo_tutor.apps.cli import main

from conftest import FORCED_ACE, OWN_EXAMPLES

COMPLETE = OWN_EXAMPLES / "01_seed000_forced_ace.yaml"
ILLEGAL = OWN_EXAMPLES / "31_follow_suit.yaml"
MALFORMED = OWN_EXAMPLES / "40_malformed_four_players.yaml"


def test_summary_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(COMPLETE)]) == 0
    out = capsys.readouterr().out
    assert "payouts: A 8, B 4" in out and "looed: C" in out
    assert main(["check", str(ILLEGAL)]) == 1
    assert "R-FOLLOW" in capsys.readouterr().out


def test_malformed_and_unreadable_files_exit_2_with_one_line(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    assert main(["check", str(MALFORMED)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("malformed record: ")
    assert captured.err.count("\n") == 1
    assert main(["check", str(tmp_path / "missing.yaml")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error: ")


def test_jsonl_checks_every_file_and_exits_with_the_worst_code(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["check", "--jsonl", str(MALFORMED), str(COMPLETE), str(ILLEGAL)])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 2
    assert [line["exit"] for line in lines] == [2, 0, 1]
    assert [line["file"] for line in lines] == [str(MALFORMED), str(COMPLETE), str(ILLEGAL)]
    assert lines[0]["result"] is None and lines[0]["malformed"]
    assert lines[1]["result"]["status"] == "complete" and lines[1]["malformed"] is None


def test_bad_command_lines_exit_2_without_traceback() -> None:
    for argv in (["check"], ["frobnicate"], ["check", "--json", "--jsonl", "x"],
                 ["check", "a.yaml", "b.yaml"], ["demo", "--players", "12"]):
        done = subprocess.run([sys.executable, "-m", "loo_tutor", *argv],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, argv
        assert done.stdout == "" and "Traceback" not in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_standard_input_and_module_entry_point() -> None:
    done = subprocess.run([sys.executable, "-m", "loo_tutor", "check", "--json", "-"],
                          input=FORCED_ACE, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert json.loads(done.stdout)["next"] == {"player": "A", "phase": "announce",
                                               "options": ["miss", "pass", "stand"]}


def test_demo_prints_a_record_that_checks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "4", "--players", "6", "--carried", "0"]) == 0
    record_text, summary = capsys.readouterr().out.split("\n\n", 1)
    record = loads(record_text)
    assert len(record["players"]) == 6 and record["carried"] == 0
    assert check(record)["status"] == "complete"
    assert summary.startswith("complete: simple deal")


def test_the_plain_report_writes_cards_as_the_reader_does_and_cites_rules_by_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The summary speaks the book's words (7♥, the forced ace); --json keeps the record's 7H."""
    assert main(["check", str(ILLEGAL)]) == 1
    plain = capsys.readouterr().out
    assert "A K♠, B 3♥" in plain
    assert "illegal play by C: 9♣ breaks follow suit (R-FOLLOW): C may not play 9♣" in plain
    assert not re.search(r"\b(10|[2-9JQKA])[SHDC]\b", plain), plain
    assert main(["check", "--json", str(ILLEGAL)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["error"]["action"] == "9C" and result["error"]["rule"] == "R-FOLLOW"


def test_a_file_that_is_not_utf8_is_named_without_the_codec_s_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "latin.yaml"
    record.write_bytes(b"players: [\xe9]\n")
    assert main(["check", str(record)]) == 2
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and "codec" not in said and "utf-8" not in said
    assert "is not UTF-8 text: its byte 11 (0xe9)" in said
