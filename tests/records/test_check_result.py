"""The typed result of check(): its keys are the contract's, and to_json is what the command prints."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from loo_tutor import MalformedRecord, check, load_record
from loo_tutor.apps.cli import main
from loo_tutor.records.record import CheckResult, to_json

from conftest import HERE

# CONTRACT.md §2.4: "All keys are always present, in this order".
CONTRACT_KEYS = ["status", "kind", "pool", "trump", "revealed_after_trick", "active", "defender",
                 "collected_by", "tricks", "payouts", "looed", "carried_next", "net", "next",
                 "error"]
RECORDS = sorted(p for p in (HERE / "data").rglob("*")
                 if p.suffix in (".yaml", ".json") and "expected" not in p.parts
                 and "live" not in p.parts)


def test_the_typed_result_lists_the_contracts_keys_in_order_then_the_variants() -> None:
    keys = list(CheckResult.__annotations__)
    assert keys[:len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert CheckResult.__required_keys__ == frozenset(CONTRACT_KEYS)
    assert CheckResult.__optional_keys__ == frozenset(keys[len(CONTRACT_KEYS):])


def test_records_of_every_game_are_checked() -> None:
    folders = {path.parent.name for path in RECORDS}
    assert {"examples", "variants", "pam"} <= folders and len(RECORDS) > 100


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_result_has_the_typed_keys_and_prints_as_to_json_writes_it(path: Path) -> None:
    try:
        result = check(load_record(path))
    except MalformedRecord:
        return
    assert type(result) is dict  # the plain dict CONTRACT.md §3 promises
    assert list(result)[:len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert set(result) - set(CONTRACT_KEYS) <= CheckResult.__optional_keys__
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(io.StringIO()):
        main(["check", "--json", str(path)])
    assert out.getvalue() == to_json(result) + "\n"
