"""The widgets on a deal of five-card Loo with Pam, driven headlessly.

The Pam chapter steps through a Pam deal and a flush and lets the reader
lead as A, with or without "Pam, be civil". Every verdict comes from the
engine; the tests compare with its own ``check`` and replay.
"""

from __future__ import annotations

from loo_tutor.engine.actions import CivilLead, Play
from loo_tutor.engine.cards import parse_card
from loo_tutor.engine.rules import RuleId, VariantRuleId
from loo_tutor.records.data import example
from loo_tutor.records.record import replay_pam
from loo_tutor.widgets import DealStepper, PlayTrainer


def test_a_pam_deal_is_stepped_through_to_its_settlement() -> None:
    stepper = DealStepper(example("pam-civil"))
    assert stepper.error is None
    assert len(stepper.steps) == len(replay_pam(example("pam-civil")).states)
    assert "Pam" in stepper.html and "V-PAM" in stepper.html
    stepper.last()
    assert stepper.state.is_terminal()
    assert "fifth of the pool" in stepper.narration.text
    assert "Settlement" not in stepper.steps[0].narration.text


def test_a_flush_takes_the_pool_at_the_last_step_of_its_deal() -> None:
    stepper = DealStepper(example("pam-flush"))
    stepper.last()
    assert stepper.state.flush is not None
    assert stepper.narration.rules[-2:] == (VariantRuleId.FLUSH, RuleId.LOO)
    assert "takes the whole pool" in stepper.narration.text


def test_the_stepper_is_finished_once_its_last_step_is_shown() -> None:
    stepper = DealStepper(example("pam-civil"))
    assert not stepper.finished
    stepper.forward()
    assert not stepper.finished
    stepper.last()
    assert stepper.finished and "loo-done" in stepper._dom_classes


def test_a_lead_the_forced_ace_forbids_is_refused_under_its_rule() -> None:
    trainer = PlayTrainer(example("pam-civil"), seat="A", from_trick=1)
    expected = trainer.state.check(Play(trainer.seat, parse_card("7H")))
    verdict = trainer.play("7H")
    assert not verdict and verdict.rule is RuleId.LEAD_ACE == expected.rule
    assert "the forced ace" in trainer.feedback.value and "R-LEAD-ACE" in trainer.feedback.value


def test_the_civil_call_goes_with_the_ace_and_is_refused_with_any_other_lead() -> None:
    trainer = PlayTrainer(example("pam-civil"), seat="A", from_trick=1)
    trainer.civil.value = True
    assert trainer.play("AH")
    assert trainer.state.civil == [1]
    told = " ".join(n.text for n in trainer.told)
    assert "keeps Pam back" in told
    before = trainer.state
    verdict = trainer.play("7H")
    assert verdict.rule is VariantRuleId.PAM_CIVIL
    assert before.check(CivilLead(trainer.seat, parse_card("7H"))).rule is VariantRuleId.PAM_CIVIL
    assert trainer.state is before, "a refused lead changes nothing"
    assert 'href="https://' not in trainer.feedback.value
    assert "Pam, be civil" in trainer.feedback.value and "variants.html#v-pam-civil" in \
        trainer.feedback.value


def test_the_civil_box_is_offered_only_in_a_pam_deal() -> None:
    pam = PlayTrainer(example("pam-civil"), seat="A", from_trick=1)
    limited = PlayTrainer(example("forced-ace"), seat="A", from_trick=1)
    assert any(pam.civil in box.children for box in pam.children if hasattr(box, "children"))
    assert all(limited.civil not in box.children for box in limited.children
               if hasattr(box, "children"))


def test_a_trainer_is_finished_when_its_deal_is_played_out() -> None:
    trainer = PlayTrainer(example("pam-civil"), seat="A", from_trick=1)
    while not trainer.state.is_terminal():
        assert not trainer.finished
        trainer.play(trainer.state.legal_cards()[0])
    assert trainer.finished
    assert "The deal is over." in trainer.header.value
    trainer.reset()
    assert trainer.finished, "a try-it done stays done"
