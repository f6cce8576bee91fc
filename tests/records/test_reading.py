"""Reading a record's text: every hostile text is refused in one line naming where (reading.py).

The fuzzed counterpart is the ``yaml`` target of tests/fuzzing.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from loo_tutor import MalformedRecord, check, load_record
from loo_tutor.apps.cli import main
from loo_tutor.records.reading import MAX_CHARACTERS, MAX_DEPTH, MAX_VALUE_CHARACTERS, MAX_VALUES, loads

from conftest import FORCED_ACE, OWN_EXAMPLES

HANDS = "{A: [AH, 7H, KC], B: [9H, 3S, AC], C: [2H, 5D, 6D], D: [QS, QD, QC], E: [JS, JD, JC]}"


def refusal(text: str) -> str:
    with pytest.raises(MalformedRecord) as refused:
        loads(text)
    message = str(refused.value)
    assert message.strip() and len(message.splitlines()) == 1, message
    return message


@pytest.mark.parametrize(("text", "message"), [
    ("hands: {A: [AS, 5D, 6D], [QS, 2D, 3D]: x}",
     "hands: a key must be a player's name, not a list"),
    ("hands:\n  ? {A: 1}\n  : [AS, 5D, 6D]", "hands: a key must be a player's name, not a mapping"),
    (FORCED_ACE + "announce: {A: stand, [B]: pass}",
     "announce: a key must be a player's name, not a list"),
    ("[players]: [A, B, C, D, E]", "record: a key must be a field name, not a list"),
    ("? {a: 1}\n: 2", "record: a key must be a field name, not a mapping"),
    ("? !!set {a, b}\n: 2", "record: a key must be a field name, not a mapping"),
    ("rules: {base: limited, options: {[x]: 1}}",
     "rules.options: a key must be text or a number, not a list"),
    ("tricks: [[AH], {[AH]: 1}]", "tricks[1]: a key must be text or a number, not a list"),
    ("k: &k [a]\n*k : 1", "record: a key must be a field name, not a list"),
])
def test_a_key_that_is_a_list_or_a_mapping_is_refused_where_it_is(text: str, message: str) -> None:
    assert refusal(text) == message


def test_keys_that_are_numbers_or_words_are_read_and_left_to_the_checker() -> None:
    record = loads(FORCED_ACE.replace("players: [A, B, C, D, E]", "players: [A, B, C, D, 5]")
                   .replace("E: [JS, JD, JC]", "5: [JS, JD, JC]").replace("dealer: E", "dealer: 5"))
    assert 5 in record["hands"]
    with pytest.raises(MalformedRecord, match="players: the fifth"):
        check(record)


def laughs(width: int, depth: int) -> str:
    lines = ['l0: &l0 "lol"']
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]" for i in range(1, depth + 1)]
    return "\n".join(lines)


@pytest.mark.parametrize(("text", "found"), [
    (laughs(9, 9), f"more than {MAX_VALUES:,} values once its aliases are written out"),
    (laughs(1, 40), f"nested more than {MAX_DEPTH} deep once its aliases are written out"),
    ("a: &a [*a]", "an alias stands for the list that holds it"),
    ("a: &a {b: *a}", "an alias stands for the mapping that holds it"),
    ("players: *nobody", "found undefined alias 'nobody'"),
    ("a: " + "[" * 40_000, f"nested more than {MAX_DEPTH} deep"),
    ("a:\n" + "".join("  " * i + "- \n" for i in range(1, 40)),
     f"nested more than {MAX_DEPTH} deep"),
    ("[" * 40_000 + "]" * 40_000, "longer than"),
    ("[" * 900 + "]" * 900, f"record: nested more than {MAX_DEPTH} deep"),
    ("{" + ", ".join(f"k{i}: v" for i in range(MAX_VALUES)) + "}", "values, far more than"),
    (json.dumps({"a": list(range(MAX_VALUES))}), f"record: more than {MAX_VALUES:,} values"),
    ("carried: " + "9" * 5000, f"a value of 5,000 characters (at most {MAX_VALUE_CHARACTERS})"),
    ('{"carried": ' + "9" * 5000 + "}", "record: a number of 5,000 digits"),
    ('{"players": ["' + "A" * 600 + '"]}', "record: a value of 600 characters"),
    ("? " + "k" * 600 + "\n: 1", "a value of 600 characters"),
    ("a: " + "x" * (MAX_CHARACTERS + 1), f"record: longer than {MAX_CHARACTERS:,} characters"),
    ("players: [A\x00B]", "invalid YAML: unacceptable character #x0000"),
    ("carried: 2026-13-45", "line 1: '2026-13-45' cannot be read as !!timestamp"),
    ("carried: !!bool maybe", "line 1: 'maybe' cannot be read as !!bool"),
    ("carried: !!int nine", "line 1: 'nine' cannot be read as !!int"),
    ("carried: !!python/object:os.system x", "could not determine a constructor"),
    ("carried: !mine 3", "could not determine a constructor for the tag '!mine'"),
    ("a: 1\n---\nb: 2", "but found another document"),
    ("dealer: A\ndealer: B", "line 2: the key 'dealer' appears twice"),
])
def test_text_that_costs_out_of_proportion_or_cannot_be_read_is_refused(text: str,
                                                                      found: str) -> None:
    assert found in refusal(text)


def test_what_yaml_allows_within_the_limits_is_read() -> None:
    assert loads("\ufeffplayers: [A]") == {"players": ["A"]}
    assert loads('\ufeff{"players": ["A"]}') == {"players": ["A"]}
    assert loads(laughs(3, 3))["l3"][2][1] == ["lol", "lol", "lol"]
    assert loads("x: &x {dealer: E}\ny: {<<: *x, carried: 9}")["y"] == {"dealer": "E",
                                                                      "carried": 9}
    assert loads("a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))["a"]
    assert loads("carried: " + "9" * MAX_VALUE_CHARACTERS)["carried"] == 10**500 - 1


@pytest.mark.parametrize("path", sorted(OWN_EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_every_example_reads_as_before(path: Path) -> None:
    import yaml

    text = path.read_text(encoding="utf-8")
    assert load_record(path) == yaml.safe_load(text)


def run(argv: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "loo_tutor", *argv], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_command_refuses_a_list_key_in_one_line_on_standard_input_and_from_a_file(
        tmp_path: Path) -> None:
    text = FORCED_ACE.replace("hands: {", "hands: {[QS, 2D]: x, ")
    path = tmp_path / "deal.yaml"
    path.write_text(text, encoding="utf-8")
    for argv in (["check", str(path)], ["check", "--json", "-"]):
        done = run(argv, text)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr == "malformed record: hands: a key must be a player's name, not a list\n"


def test_jsonl_gives_every_file_its_line_even_after_an_unforeseen_error(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import loo_tutor.apps.cli as cli

    good = tmp_path / "good.yaml"
    good.write_text(FORCED_ACE, encoding="utf-8")
    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(laughs(9, 9), encoding="utf-8")
    broken = tmp_path / "broken.yaml"
    broken.write_text(FORCED_ACE.replace("carried: 9", "carried: 3"), encoding="utf-8")
    real_check = cli.check

    def check_or_fail(record: dict[str, Any]) -> dict[str, Any]:
        if record["carried"] == 3:
            raise RuntimeError("a fault\nover two lines")
        return real_check(record)

    monkeypatch.setattr(cli, "check", check_or_fail)
    files = [str(good), str(bomb), str(broken), str(good)]
    assert main(["check", "--jsonl", *files]) == 2
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["file"] for line in lines] == files and captured.err == ""
    assert [line["exit"] for line in lines] == [0, 2, 2, 0]
    assert "values once its aliases are written out" in lines[1]["malformed"]
    assert lines[2]["malformed"] == (
        f"unexpected RuntimeError while checking {str(broken)!r}: a fault "
        "(a fault in loo-tutor; please report it)")
    assert main(["check", str(broken)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_jsonl_lines_hold_no_character_that_another_reader_splits_at(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd_name = tmp_path / "name.yaml"
    odd_name.write_text(FORCED_ACE.replace("E", '"E\\x85\\u2028"'), encoding="utf-8")
    odd_field = tmp_path / "field.yaml"
    odd_field.write_text(FORCED_ACE + '"odd\\x85\\u2028field": 1', encoding="utf-8")
    assert main(["check", "--jsonl", str(odd_name), str(odd_field)]) == 2
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 2
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["result"]["net"]["E\x85\u2028"] == "-3"
    assert second["malformed"].startswith("odd\\x85\\u2028field: unknown field")


def test_exercise_refuses_a_list_key_in_one_line(tmp_path: Path) -> None:
    done = run(["exercise", "-", "--kind", "1", "--out", str(tmp_path)],
               FORCED_ACE + "announce: {A: stand, {B: 1}: pass}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("malformed record: announce: a key must be a player's name, "
                           "not a mapping\n")


def test_every_widget_that_reads_a_record_shows_the_refusal(forced_ace: str) -> None:
    from loo_tutor import widgets

    text = forced_ace.replace("hands: {", "hands: {[QS, 2D]: x, ")
    made = [widgets.DealStepper(text), widgets.PayoutChecker(text),
            widgets.DealerDecisionTable(text), widgets.AnnouncementTrainer(text, "A"),
            widgets.PlayTrainer(text, "A"), widgets.ExerciseWidget(1, record=text),
            widgets.VariantCompare(record=text)]
    for widget in made:
        error = str(widget.error)
        assert "hands: a key must be a player's name, not a list" in error, (widget, error)
