"""Every variant example record gives exactly its expected result (book: Variants).

The records in tests/data/variants/ extend CONTRACT.md with the ``rules`` key;
each was worked out by hand before its expected result was written down.
The check and the command line must agree with them as for the limited
examples (tests/records/test_examples.py).
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from pathlib import Path

import pytest
from test_examples import test_command_line_agrees_with_check as check_command_line
from test_examples import test_example_gives_expected_result as check_example

from loo_tutor import check, load_record
from loo_tutor.apps.cli import main
from loo_tutor.engine.profiles import RULES_OPTIONS

from conftest import HERE, expected_for

VARIANTS = HERE / "data" / "variants"
RECORDS = sorted(VARIANTS.glob("*.yaml"))
LIMITED_KEYS = ["status", "kind", "pool", "trump", "revealed_after_trick", "active", "defender",
                "collected_by", "tricks", "payouts", "looed", "carried_next", "net", "next",
                "error"]


def test_every_record_has_an_expected_result_and_the_malformed_ones_are_there() -> None:
    assert len(RECORDS) >= 30
    expected = {path.stem for path in (VARIANTS / "expected").glob("*.json")}
    assert expected == {path.stem for path in RECORDS}
    malformed = [p for p in RECORDS if "malformed" in expected_for(p)]
    assert len(malformed) >= 6


def test_every_option_that_changes_a_deal_has_an_example() -> None:
    written = "\n".join(path.read_text(encoding="utf-8") for path in RECORDS)
    session_only = {"first_dealer", "session_end", "ante", "stake", "dealer_defends_sole"}
    pam_only = {"running_pam", "flush_exempt", "duties", "dealer_takes_trump"}
    for option in set(RULES_OPTIONS) - session_only - pam_only:
        assert f"{option}:" in written, option
    assert "rules: blenheim" in written


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_variant_example_gives_expected_result(path: Path) -> None:
    check_example(path)  # the same comparison as for the limited examples
    expected = expected_for(path)
    if "malformed" in expected:
        return
    result = check(load_record(path))
    assert list(result)[:len(LIMITED_KEYS)] == LIMITED_KEYS  # variant keys come last
    assert result["rules"] and "flush" in result
    if result["status"] == "complete":
        net = sum(_amount(v) for v in result["net"].values())
        pool_before = _amount(load_record(path)["carried"])
        assert net == pool_before - _amount(result["carried_next"])  # R-CONSERVE


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_command_line_agrees_with_check(path: Path) -> None:
    check_command_line(path)


def test_jsonl_checks_every_variant_record_in_order() -> None:
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        code = main(["check", "--jsonl", *map(str, RECORDS)])
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["file"] for line in lines] == list(map(str, RECORDS))
    assert code == 2 and {line["exit"] for line in lines} == {0, 1, 2}


def _amount(value: object) -> Fraction:
    return Fraction(str(value))


def test_the_summary_names_the_rules_the_exchanges_and_a_flush() -> None:
    irish, flush = io.StringIO(), io.StringIO()
    with redirect_stdout(irish):
        main(["check", str(VARIANTS / "09_irish_exchange.yaml")])
    with redirect_stdout(flush):
        main(["check", str(VARIANTS / "07_three_card_flush.yaml")])
    assert "rules: limited + irish" in irish.getvalue()
    assert "A exchanges 7♥ K♣" in irish.getvalue() and "B exchanges 3♠" in irish.getvalue()
    assert "A's flush takes the pool without play" in flush.getvalue()
