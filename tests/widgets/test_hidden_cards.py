"""A widget carries only what its reader may see.

Each widget says which cards it keeps face down (``hidden_cards()``, the
engine's :func:`loo_tutor.engine.observe.hidden_cards` of what it shows);
none of them may be in its HTML or in the state of any of its parts, which
is what a page (static, live or the classroom's) receives. The widgets are
checked as the book and the classroom make them, and again after they have
been played with.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import ipywidgets
import pytest

from loo_tutor.engine.cards import parse_card
from loo_tutor.engine.observe import hidden_cards
from loo_tutor.engine.state import Phase, new_deal
from loo_tutor.records.data import example
from loo_tutor.widgets import (
    AnnouncementTrainer,
    DealStepper,
    PayoutChecker,
    PlayTrainer,
    PracticeSession,
)

from leaks import leaks, model_strings, widget_leaks

MADE: dict[str, Callable[[], Any]] = {
    "practice, seed 3": lambda: PracticeSession(seed=3),
    "practice, seed 7": lambda: PracticeSession(["Anna", "Ben", "Carla", "Dan", "Emil"],
                                                seat="Anna", deals=5, seed=7),
    "trainer, hearts": lambda: PlayTrainer(example("hearts"), seat="Ben", from_trick=1),
    "trainer, simple reveal": lambda: PlayTrainer(example("simple-reveal"), seat="C",
                                                  from_trick=1, seed=7),
    "trainer, nine-unit pool": lambda: PlayTrainer(example("nine-unit-pool"), seat="Ben",
                                                   from_trick=1),
    "trainer at a turn": lambda: PlayTrainer.at_turn(example("forced-ace"), "B", trick=2),
    "announcing, sole stander": lambda: AnnouncementTrainer(example("sole-stander"), seat="E"),
    "announcing, nine-unit pool": lambda: AnnouncementTrainer(example("nine-unit-pool"),
                                                              seat="Carla"),
    "stepper, a player's view": lambda: DealStepper(example("nine-unit-pool"), view_seat="Ben"),
    "stepper, the tutor's view": lambda: DealStepper(example("forced-ace")),
    "payout": lambda: PayoutChecker(example("forced-ace")),
    "Pam trainer, the civil lead": lambda: PlayTrainer(example("pam-civil"), seat="A",
                                                       from_trick=1),
    "Pam stepper, a player's view": lambda: DealStepper(example("pam-civil"), view_seat="C"),
    "Pam stepper, the flush": lambda: DealStepper(example("pam-flush"), view_seat="A"),
}


@pytest.mark.parametrize("name", MADE)
def test_a_new_widget_holds_no_card_it_hides(name: str) -> None:
    widget = MADE[name]()
    assert widget.error is None
    assert widget.hidden_cards(), "a widget of this kind hides some card"
    assert widget_leaks(widget) == []


def test_a_practice_session_hides_what_the_engine_hides_deal_after_deal() -> None:
    practice = PracticeSession(seed=3, deals=3)
    rng = random.Random(5)
    for _ in range(60):
        hidden = practice.hidden_cards()
        assert hidden and hidden <= hidden_cards(practice.state, practice.seat)
        assert widget_leaks(practice) == [], practice.state
        if practice.state.is_terminal():
            practice.next_button.click()
        elif practice.state.phase is Phase.PLAY:
            practice.buttons[rng.choice(sorted(practice.buttons))].click()
        else:
            rng.choice([practice.calls[c.value]
                        for c in practice.state.legal_announcements()]).click()
        if rng.random() < 0.3 and not practice.hint_button.disabled:
            practice.hint_button.click()


def test_a_trainer_played_to_the_end_still_hides_the_thrown_in_hands() -> None:
    trainer = PlayTrainer(example("nine-unit-pool"), seat="Ben", from_trick=1)
    while not trainer.state.is_terminal():
        trainer.play(trainer.state.legal_cards()[0])
    passed = {card for seat, hand in enumerate(trainer.state.hands)
              if seat not in trainer.state.active for card in hand}
    assert passed and passed <= trainer.hidden_cards()
    assert widget_leaks(trainer) == []


def test_a_pam_trainer_played_to_the_end_hides_the_passed_hands_and_the_stock() -> None:
    trainer = PlayTrainer(example("pam-civil"), seat="A", from_trick=1)
    while not trainer.state.is_terminal():
        trainer.play(trainer.state.legal_cards()[0])
    state = trainer.state
    passed = {card for seat, hand in enumerate(state.hands) if seat not in state.active
              for card in hand}
    assert passed and passed <= trainer.hidden_cards()
    assert set(state.stock) <= trainer.hidden_cards()
    assert widget_leaks(trainer) == []


def test_a_pam_stepper_shows_the_stock_only_once_it_is_drawn() -> None:
    stepper = DealStepper(example("pam-flush"))
    stock = frozenset(parse_card(c) for c in example("pam-flush")["stock"])
    drawn = next(i for i, step in enumerate(stepper.steps) if step.state.exchanges
                 and any(swap[2] for swap in step.state.exchanges))
    for index, step in enumerate(stepper.steps):
        assert (index < drawn) == (stock <= hidden_cards(step.state, None))
        stepper.go(index)
        assert bool(leaks(stepper.html, stock)) == (index >= drawn), index


def test_the_scan_finds_a_card_in_every_form_and_in_a_part() -> None:
    ace = parse_card("AH")
    for text in ("AH", "A♥", "the Ace of Hearts", "&lt;b&gt;A&#9829;", '{"trump": "AH"}'):
        assert leaks(text, {ace}), text
    for text in ("AHA", "KAH", "Ah, well", "10 of hearts", "ace of spades", "A♠", "10♥"):
        assert not leaks(text, {ace}), text
    assert leaks("10♥", {parse_card("10H")}) and not leaks("10♥", {parse_card("10S")})

    practice = PracticeSession(seed=3)
    hidden = sorted(practice.hidden_cards())[0]
    practice.story.value = f"<p>{hidden.label}</p>"
    assert widget_leaks(practice), "a hidden card in a part's state is found"
    _, ids = model_strings(ipywidgets.Widget.get_manager_state(), practice.model_id)
    assert practice.story.model_id in ids and practice.hint_button.model_id in ids


def test_the_tutor_hides_a_simple_deals_indicator_and_a_face_down_miss() -> None:
    simple = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=0, rng=random.Random(3))
    assert hidden_cards(simple, None) == {simple.indicator}
    double = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=6, rng=random.Random(3))
    assert double.miss is not None and hidden_cards(double, None) == set(double.miss)
    seen = {card for hand in double.hands for card in hand} | {double.indicator}
    assert hidden_cards(double, 0).isdisjoint(set(double.hands[0]) | {double.indicator})
    assert set(double.hands[1]) <= hidden_cards(double, 0) and len(seen) == 16
