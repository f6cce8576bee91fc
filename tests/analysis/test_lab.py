"""The strategy lab: small runs give sound, reproducible results and files."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from loo_tutor.analysis import lab

TINY = lab.Sizes(one_trump=300, miss=12, table_size=40, loo_deals=40, loo_sessions=2,
                 sampling_deals=2, sampling_samples=3)


@pytest.fixture(scope="module")
def results() -> dict[str, Any]:
    return lab.run(TINY, progress=False)


def test_the_ace_of_trumps_is_never_looed(results: dict[str, Any]) -> None:
    # Seat 0 leads first and must lead the ace (R-LEAD-ACE), which wins the trick.
    aces = [row for row in results["one_trump"]["by_rank"] if row["rank"] == "A"]
    assert aces and all(row["rate"] == 0 for row in aces)
    assert all(0 <= row["rate"] <= 1 for row in results["one_trump"]["by_rank"])


def test_a_simple_deal_loos_all_but_three_at_least(results: dict[str, Any]) -> None:
    for row in results["table_size"]["rows"]:
        if row["kind"] == "simple":
            assert row["active"]["mean"] == row["players"]
            assert row["looed"]["mean"] >= row["players"] - 3


def test_every_experiment_states_its_sizes(results: dict[str, Any]) -> None:
    assert results["seed"] == lab.SEED
    assert results["one_trump"]["deals_per_count"] == TINY.one_trump
    assert results["miss"]["hands_per_point"] == TINY.miss
    assert all(row["stand"]["n"] == TINY.miss for row in results["miss"]["rows"])
    assert results["good_of_the_loo"]["sessions"] == TINY.loo_sessions
    assert results["sampling"]["samples_per_decision"] == TINY.sampling_samples


def test_the_same_sizes_give_the_same_results(results: dict[str, Any]) -> None:
    assert lab.run(TINY, progress=False) == results


def test_written_files_are_tables_figures_and_data(tmp_path: Path,
                                                   results: dict[str, Any]) -> None:
    written = lab.write(results, tmp_path)
    names = {p.name for p in written}
    assert {"strategy-lab.json", "strategy-one-trump.md", "strategy-one-trump.svg",
            "strategy-miss.svg", "strategy-company.svg"} <= names
    assert json.loads((tmp_path / "_data" / "strategy-lab.json").read_text()) == results
    table = (tmp_path / "_data" / "strategy-one-trump.md").read_text()
    assert table.startswith("| trump |") and "| A |" in table
    svg = (tmp_path / "figures" / "strategy-miss.svg").read_text()
    assert "<svg" in svg and f"seed {lab.SEED}" in svg
    again = tmp_path / "again"
    lab.write(results, again)
    assert (again / "figures" / "strategy-miss.svg").read_text() == svg


def test_tally_means_and_rates() -> None:
    tally = lab.Tally()
    for value, hit in ((Fraction(1), True), (Fraction(2), False), (Fraction(3), True)):
        tally.add(value, hit)
    assert tally.mean() == 2
    assert tally.rate() == pytest.approx(2 / 3)
    low, high = tally.rate_interval()
    assert 0 < low < 2 / 3 < high < 1
    assert tally.half_width() == pytest.approx(1.96 * 1 / 3 ** 0.5, rel=1e-3)


def test_redraw_uses_the_saved_results(tmp_path: Path, results: dict[str, Any]) -> None:
    lab.write(results, tmp_path)
    table = tmp_path / "_data" / "strategy-miss.md"
    table.write_text("stale")
    assert lab.main(["--book", str(tmp_path), "--redraw"]) == 0
    assert table.read_text().startswith("| pool |")


def test_only_plays_the_named_experiments_again(tmp_path: Path,
                                                results: dict[str, Any]) -> None:
    again = lab.run(TINY, progress=False, only=["table_size"], previous={"miss": "kept"})
    assert again["miss"] == "kept"
    assert again["table_size"] == results["table_size"]
    assert "one_trump" not in again


def test_bad_arguments_give_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lab.main(["--scale", "0"]) == 2
    assert lab.main(["--book", str(tmp_path / "missing"), "--quiet"]) == 2
    assert lab.main(["--book", str(tmp_path), "--redraw"]) == 2  # nothing saved there yet
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(line.startswith("error: ") for line in errors)
