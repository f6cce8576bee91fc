"""Card text, the command line, exercise answers and answers files, fuzzed (a short run; see
tests/fuzzing.py).

``benchmarks/fuzz.py`` runs the same properties with a large example budget.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from loo_tutor.teaching.exercises import make

from fuzzing import (
    Call,
    answers_are_graded,
    answers_file_is_marked_or_refused,
    card_text_reads_or_refuses,
    card_texts,
    cli_answers_in_one_line,
    cli_calls,
    graded_answers,
    hostile_answers_files,
    hostile_text_is_read_or_refused,
    hostile_texts,
)


def short(examples: int) -> settings:
    """A CI-sized budget; no deadline (the machine is shared), slow examples allowed."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@short(300)
@given(card_texts)
def test_card_text_is_a_card_or_one_line_refusal(text: str) -> None:
    card_text_reads_or_refuses(text)


@short(120)
@given(cli_calls())
def test_the_command_line_exits_0_1_or_2_and_refuses_in_one_line(call: Call) -> None:
    cli_answers_in_one_line(call)


@short(120)
@given(graded_answers())
def test_any_answer_is_graded_and_a_right_one_stays_right(
        drawn: tuple[int, int, dict[str, Any], str | None]) -> None:
    answers_are_graded(drawn)


@pytest.mark.parametrize("argv, code", [
    (("check", "{tmp}/missing.yaml"), 2),
    (("check", "-"), 2),
    (("demo", "--players", "4"), 2),
    (("worksheet", "--count", "0", "--out", "{tmp}/out"), 2),
    (("classroom", "--port", "0"), 2),
    (("exercise", "-", "--kind", "9", "--out", "{tmp}/out"), 2),
    (("demo", "a\nb"), 2),  # a line break in an argument stays inside the one line
])
def test_known_refusals_are_one_line(argv: tuple[str, ...], code: int) -> None:
    # The property itself must notice a refusal: these are refused for sure.
    assert cli_answers_in_one_line(Call(argv, "players: [A]", ())) == code


@pytest.mark.parametrize("form", [(), ("--json",), ("--jsonl",)])
def test_the_property_notices_an_unforeseen_error(monkeypatch: pytest.MonkeyPatch,
                                                  form: tuple[str, ...]) -> None:
    import loo_tutor.apps.cli as cli

    def broken(record: object) -> dict[str, Any]:
        raise RuntimeError("boom")

    monkeypatch.setattr(cli, "check", broken)
    with pytest.raises(AssertionError, match="boom"):
        cli_answers_in_one_line(Call(("check", *form, "-"), "players: [A]", ()))


@short(150)
@given(hostile_texts())
def test_hostile_yaml_is_read_or_refused_in_one_line_and_every_file_gets_its_line(
        text: str) -> None:
    hostile_text_is_read_or_refused(text)


@short(150)
@given(hostile_answers_files())
def test_any_answers_file_is_marked_or_refused_in_lines_naming_it(
        drawn: tuple[str, tuple[int, ...] | None]) -> None:
    answers_file_is_marked_or_refused(drawn)


def test_the_answers_file_property_notices_a_wrong_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    import loo_tutor.teaching.marking as marking

    right = marking.judge

    def harsh(kind: object, seed: object, answer: object, **given: Any) -> marking.Mark:
        mark = right(kind, seed, answer, **given)
        return marking.Mark(mark.kind, mark.seed, mark.answer, marking.WRONG, "R-FOLLOW", "no")

    text = marking.key_text([make(1, 1)])
    answers_file_is_marked_or_refused((text, (0,)))
    monkeypatch.setattr(marking, "judge", harsh)
    with pytest.raises(AssertionError):
        answers_file_is_marked_or_refused((text, (0,)))
