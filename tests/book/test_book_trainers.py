"""The trainers the chapters put on the very position a rule decides."""

from __future__ import annotations

from loo_tutor.engine.rules import RuleId
from loo_tutor.records.data import example
from loo_tutor.widgets.play import PlayTrainer


def test_a_trainer_at_a_turn_starts_where_the_record_reaches_it() -> None:
    trainer = PlayTrainer.at_turn(example("nine-unit-pool"), "Emil", trick=2)
    assert trainer.error is None
    assert [card.text for card in trainer.state.trick_cards()] == ["AD"]
    refused = trainer.play("8C")
    assert not refused and refused.rule is RuleId.TRUMP_WIN
    assert trainer.play("AS")
    trainer.reset()
    assert [card.text for card in trainer.state.trick_cards()] == ["AD"]


def test_a_turn_the_record_never_reaches_is_reported_on_one_line() -> None:
    trainer = PlayTrainer.at_turn(example("nine-unit-pool"), "Anna", trick=2)
    assert trainer.error == ("This deal cannot be used: the record never gives Anna "
                             "a turn in trick 2")
    assert trainer.html.count("\n") == 0
