"""Pam Loo's own refusals, in the reader's words (its announcements, Pam's duties).

The sentences :class:`~loo_tutor.engine.pam.PamState` gives for what only
five-card Loo with Pam refuses; the refusals every game shares are
:mod:`loo_tutor.engine.explain`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card, Suit
from .explain import cards_shown, explain_card
from .legality import Announcement, civil_hand, trumps_held
from .rules import PamParams, RuleId, RuleKey, VariantRuleId


def explain_pam_announcement(name: str, call: Announcement) -> tuple[RuleKey, str]:
    """Why a player of Pam Loo, whose turn it is, may not announce ``call``."""
    return RuleId.ANN_CHOICES, (
        f"{name} cannot announce {call.value}: Pam Loo has no miss, so a player may "
        "only stand or pass."
    )


def explain_pam_card(params: PamParams, name: str, card: Card, hand: Sequence[Card],
                     trick: Sequence[Card], trump: Suit, pam: Card, duty_indicator: Card,
                     civil: bool) -> tuple[RuleKey, str]:
    """The rule a card of Pam Loo breaks and a sentence saying what it requires.

    Call only for a card that ``legality.pam_cards`` rules out.
    """
    playable = civil_hand(hand, trump, pam, civil)
    if trick and card is pam and card in hand and pam not in playable:
        return VariantRuleId.PAM_CIVIL, (
            f"{name} may not play Pam ({card.shown}): the ace of trumps was led with \"Pam, "
            f"be civil\", and {name} holds another trump to play instead."
        )
    rule, message = explain_card(name, card, playable, trick, trump,
                                 params.pam_duties == "three-card", duty_indicator, pam)
    if trick and trick[0] is pam and rule is RuleId.FOLLOW:
        trumps = cards_shown(trumps_held(hand, trump, pam))
        return VariantRuleId.PAM, (
            f"{name} may not play {card.shown}: Pam was led, and Pam is a trump, so "
            f"{name} must play one of their trumps ({trumps})."
        )
    return rule, message
