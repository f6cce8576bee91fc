"""Nonsense records never crash the checker, and its results agree with the engine.

The long run of the same properties is ``benchmarks/fuzz.py``.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from loo_tutor import CARDS, MalformedRecord, check, loads, new_deal, record_from_state
from loo_tutor.records.record import FIELDS

from fuzzing import agrees_with_engine, spoiled_records

CARD_TEXT = st.sampled_from([c.text for c in CARDS] + ["10h", "T♥", "A♠️", "1H", "ZZ", "", "AH "])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 60), st.floats(allow_nan=True),
                    st.text(max_size=6), CARD_TEXT)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=6),
    st.dictionaries(st.text(max_size=4) | CARD_TEXT, inner, max_size=6)), max_leaves=30)


def verdict(record: object) -> str:
    try:
        result = check(record)  # type: ignore[arg-type]
    except MalformedRecord as exc:
        message = str(exc)
        assert message and "\n" not in message
        return "malformed"
    assert result["status"] in ("complete", "in_progress", "illegal")
    return result["status"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from((*FIELDS, "colour")), VALUES, max_size=10))
def test_arbitrary_mappings_are_checked_or_refused(record: dict[str, object]) -> None:
    verdict(record)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(FIELDS), VALUES)
def test_a_real_record_with_one_field_spoiled_is_checked_or_refused(
        seed: int, field: str, value: object) -> None:
    rng = random.Random(seed)
    count = rng.randint(5, 8)
    players = [f"P{i}" for i in range(count)]
    state = new_deal(players, rng.randrange(count), rng.choice([0, 3, 9]), rng)
    while not state.is_terminal() and rng.random() < 0.9:
        state = state.apply(rng.choice(state.legal_actions()))
    record = record_from_state(state)
    record[field] = value
    verdict(record)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_arbitrary_text_is_read_or_refused_in_one_line(text: str) -> None:
    try:
        data = loads(text)
    except MalformedRecord as exc:
        assert "\n" not in str(exc)
        return
    verdict(data)


@settings(max_examples=150, deadline=None)
@given(spoiled_records())
def test_spoiled_real_records_get_results_the_engine_agrees_with(record: dict[str, object]) -> None:
    # Complete: the same settlement on replay; illegal at step k: a legal
    # prefix and a refused action that is not among the options; written
    # back from the state reached: the same result (tests/fuzzing.py).
    agrees_with_engine(record)
