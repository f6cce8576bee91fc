"""Hostile input in the widgets, without a browser: whatever a reader types, a one-line
message, nothing half-changed, and nothing in the widgets' HTML that could run.

Every field a reader can type into is here: the exercises' answers and seed,
the payout checker's amounts, the stepper's step number; and what a notebook
cell hands a widget (record text, player names, seeds). Each gets junk,
huge and hostile values (markup and script, a megabyte of text, control
characters, negative and huge numbers), set as the page would set it
(``.value``), then the widget's own buttons are pressed (``.click()``).
``tests/book/test_live_faults.py`` types such a value into a live page.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import ipywidgets
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from traitlets import TraitError

from loo_tutor.records.data import example
from loo_tutor.widgets import (
    AnnouncementTrainer,
    DealStepper,
    ExerciseWidget,
    PayoutChecker,
    PlayTrainer,
    PracticeSession,
    SessionLedger,
)

from leaks import model_strings

MEGABYTE = 1_000_000
HOSTILE = [
    "<img src=x onerror=window.pwned=1>",
    "<script>window.pwned=1</script>",
    '"><svg onload=alert(1)>',
    "javascript:alert(1)",
    "{{7*7}} ${7*7} %s %n",
    "\x00\x07\x1b[31mred\r\nline\u2028two\u202e",
    "' OR 1=1 --",
    "-3", "1e999", "10/0", "NaN", "∞", "٣", "   ",
    "9" * 400,
]
"""Hostile and junk text, each one short."""
RUNNING_TAGS = {"script", "img", "iframe", "object", "embed", "frame", "base", "link", "meta"}
"""Tags that load or run something: a reader's text must never become one."""


class _Runs(HTMLParser):
    """The tags of a piece of HTML that could load or run something: one of
    :data:`RUNNING_TAGS`, an event handler attribute or a ``javascript:`` address."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in RUNNING_TAGS or any(
                name.startswith("on") or (value or "").strip().lower().startswith("javascript:")
                for name, value in attrs):
            self.found.append(self.get_starttag_text() or tag)


def runs(text: str) -> list[str]:
    parser = _Runs()
    parser.feed(text)
    parser.close()
    return parser.found


texts = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=200),
                  st.builds(lambda s, n: s * n, st.sampled_from(["<b>", "x", "7H ", "\x1b"]),
                            st.integers(1, 2000)))
"""Hypothesis's text: the list above, any characters, and long repeats."""


def budget(examples: int) -> settings:
    """A CI-sized budget without a deadline (the machine is shared)."""
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


def _html_strings(widget: Any) -> Iterator[str]:
    """The text of the widget and its parts that a page draws as HTML."""
    saved = ipywidgets.Widget.get_manager_state()
    _, ids = model_strings(saved, widget.model_id)
    for model_id in ids:
        model = saved["state"][model_id]
        state = model["state"]
        if model["model_name"] in ("HTMLModel", "HTMLMathModel"):
            yield state["value"]
        if state.get("description_allow_html"):
            yield state["description"]


def assert_nothing_runs(widget: Any) -> None:
    """No HTML of the widget or its parts holds a tag or attribute that could run."""
    for text in _html_strings(widget):
        assert runs(text) == []


def test_the_check_sees_what_could_run() -> None:
    assert runs('<p>x</p><IMG SRC=x onerror=1>') and runs('<a href=" javascript:x">')
    assert runs('<svg><g onload="x"></g></svg>') and runs("<script>x</script>")
    assert not runs('<span aria-label="&lt;img src=x onerror=1&gt;">&lt;script&gt;</span>')


def one_line(message: str, limit: int = 400) -> None:
    assert message and "\n" not in message and "\r" not in message, repr(message)
    assert len(message) <= limit, f"a message of {len(message)} characters"


# -- the exercises ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def settle() -> ExerciseWidget:
    """Exercise 4 (settle a deal): amounts, and names as check boxes."""
    return ExerciseWidget(4, seed=2024)


@budget(60)
@given(typed=texts, which=st.integers(0, 6))
def test_an_answer_field_takes_anything_and_leaves_the_others_as_they_were(
        settle: ExerciseWidget, typed: str, which: int) -> None:
    exercise = settle.exercise
    assert exercise is not None
    right = exercise.answers()
    settle.fill(right)
    texts_fields = [f.key for f in exercise.fields if f.form in ("amount", "signed")]
    key = texts_fields[which % len(texts_fields)]
    settle.inputs[key].value = typed
    settle.check_button.click()
    results = settle.results
    assert results[key].status in ("right", "wrong", "unreadable", "empty")
    one_line(results[key].message)
    others = {k: r.status for k, r in results.items() if k != key}
    assert set(others.values()) == {"right"}, others
    assert_nothing_runs(settle)


def test_a_megabyte_answer_gets_a_short_message() -> None:
    widget = ExerciseWidget(4, seed=7)
    fields = [key for key, control in widget.inputs.items()
              if isinstance(control, ipywidgets.Text)][:2]
    for key in fields:
        widget.inputs[key].value = "<b>x</b>" * (MEGABYTE // 8)
    widget.check_button.click()
    for key in fields:
        assert widget.results[key].status == "unreadable"
        one_line(widget.results[key].message)
    # The summary and score lines carry the answers themselves, for the
    # reader's own answers file; every message is short.
    drawn = [t for t in _html_strings(widget)
             if "data-loo-checked=" not in t and "data-loo-answers=" not in t]
    assert max(len(t) for t in drawn) < 20_000
    assert_nothing_runs(widget)


@budget(40)
@given(seed=st.one_of(st.integers(), st.integers(-10**40, 10**40)))
def test_any_number_in_the_seed_field_gives_a_variant_of_that_seed_or_the_nearest(
        seed: int) -> None:
    widget = ExerciseWidget(1, seed=3)
    widget.seed_field.value = seed
    assert widget.error is None
    assert widget.seed == widget.seed_field.value == max(0, min(seed, 10**9))


def test_a_seed_field_refuses_what_is_not_a_number_and_keeps_its_variant() -> None:
    widget = ExerciseWidget(2, seed=11)
    before = (widget.seed, widget.position.value)
    for junk in ("abc", "<img src=x onerror=1>", "", None, [1]):
        with pytest.raises(TraitError):
            widget.seed_field.value = junk
        assert (widget.seed, widget.position.value) == before


# -- the payout checker, the stepper ----------------------------------------------------

@budget(60)
@given(typed=texts)
def test_a_payout_field_takes_anything_in_one_line(typed: str) -> None:
    checker = PayoutChecker(example("forced-ace"))
    names = list(checker.payout_fields)
    checker.payout_fields[names[0]].value = typed
    checker.carried_field.value = typed
    checker.check_button.click()
    for key in (f"payout:{names[0]}", "carried"):
        one_line(checker.results[key].message)
    assert all(checker.results[f"payout:{n}"].status == "empty" for n in names[1:])
    assert_nothing_runs(checker)


@budget(40)
@given(step=st.integers(-10**30, 10**30))
def test_any_step_number_shows_the_nearest_step(step: int) -> None:
    stepper = DealStepper(example("hearts"))
    last = len(stepper.steps) - 1
    stepper.field.value = step
    assert stepper.index == max(0, min(step, last))
    assert stepper.menu.value == stepper.index


# -- what a cell hands a widget ----------------------------------------------------------

MAKERS = {
    "trainer": lambda text: PlayTrainer(text, seat="A"),
    "announcing": lambda text: AnnouncementTrainer(text, seat="A"),
    "stepper": lambda text: DealStepper(text),
    "payout": lambda text: PayoutChecker(text),
    "exercise": lambda text: ExerciseWidget(4, record=text),
}


@pytest.mark.parametrize("maker", MAKERS)
@pytest.mark.parametrize("text", [*HOSTILE, "players: [<img src=x onerror=1>]\n",
                                  "a: " + "x" * MEGABYTE, "[" * 5000, "\ufeff\x00"])
def test_record_text_that_is_no_deal_is_refused_in_one_line(maker: str, text: str) -> None:
    widget = MAKERS[maker](text)
    assert widget.error is not None
    one_line(widget.error, limit=600)
    assert_nothing_runs(widget)


@pytest.mark.parametrize("names", [
    ["<img src=x onerror=window.pwned=1>", "B", "C", "D", "E"],
    ["<script>x</script>", "\x1b[31m", "a\nb", "D", "E"],
    ["x" * 10_000, "B", "C", "D", "E"],
])
def test_hostile_player_names_are_drawn_as_text(names: list[str]) -> None:
    for widget in (PracticeSession(names, seed=1, deals=1),
                   SessionLedger(names, deals=1, seed=1, played=1)):
        if widget.error is not None:
            one_line(widget.error, limit=600)
        assert_nothing_runs(widget)


@pytest.mark.parametrize("seed", [-1, -10**30, 10**30, 2**64])
def test_negative_and_huge_seeds_make_a_session_or_say_why_in_one_line(seed: int) -> None:
    for widget in (PracticeSession(seed=seed, deals=1), SessionLedger(deals=1, seed=seed),
                   ExerciseWidget(3, seed=seed)):
        if widget.error is not None:
            one_line(widget.error)
        assert_nothing_runs(widget)
