"""Three-card Loo's own refusals, in the reader's words (its announcements, its variants).

The sentences :class:`~loo_tutor.engine.three_card.DealState` gives for what
only three-card Loo and its variants refuse; the refusals every game shares
are :mod:`loo_tutor.engine.explain`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import Card, Suit
from .explain import explain_card
from .legality import Announcement, DealerCase, highest_trump, legal_leads
from .rules import RuleId, RuleKey, ThreeCardParams, VariantRuleId

_PASS: Final = Announcement.PASS
_MISS: Final = Announcement.MISS
_DEFEND: Final = Announcement.DEFEND
_SOLE_STAND: Final = DealerCase.SOLE_STAND
_SOLE_MISS: Final = DealerCase.SOLE_MISS


def explain_announcement(params: ThreeCardParams, name: str, call: Announcement,
                         case: DealerCase | None, has_miss: bool, miss_taker: str | None,
                         turned: Suit) -> tuple[RuleKey, str]:
    """The rule an announcement breaks and a sentence saying what it requires.

    Call only for the player whose turn it is to announce, with an
    announcement that is not open to them; ``case`` is ``None`` unless that
    player is the dealer, and ``miss_taker`` names who took the miss, if anybody.
    """
    if not has_miss and (call is _MISS or call is _DEFEND):
        return RuleId.ANN_CHOICES, f"{name} may only stand or pass: this deal has no miss."
    if call is _PASS and params.club_law and turned is Suit.CLUBS:
        return VariantRuleId.CLUB_LAW, (
            f"{name} may not pass: a club was turned for trumps, and under club law "
            "everyone plays."
        )
    if case is _SOLE_STAND:  # only passing is refused, unless the dealer must defend
        if not has_miss:
            must = ("may not pass: there is no miss to defend with, so the dealer stands "
                    "and plays")
        elif params.dealer_defends_sole:
            must = "must defend the pool with the miss"
        else:
            must = "may not pass: the dealer must stand, take the miss or defend the pool"
        return RuleId.ANN_DEALER_SOLE_STAND, (
            f"{name}, dealing against a single player who stood, {must}."
        )
    if call is _MISS:
        return RuleId.ANN_MISS_ONCE, (
            f"{name} cannot take the miss: {miss_taker} has already taken it, and it "
            "goes only to the first player who asks."
        )
    if case is _SOLE_MISS:
        return RuleId.ANN_DEALER_SOLE_MISS, (
            f"{name}, dealing against a single player who took the miss, may not "
            "defend: the dealer may only stand or pass."
        )
    why = ("only the dealer may, and only against a single player who stood" if case is None
           else "two or more players are in, and the dealer may defend only against a single "
           "player who stood")
    return RuleId.DEFEND, f"{name} may not defend: {why}."


def explain_simple_announcement(params: ThreeCardParams, name: str, speaks: bool, left: str
                                ) -> tuple[RuleKey, str]:
    """Why a player may not announce so in a simple deal (R-ANN-SIMPLE, V-SINGLE-POT).

    Args:
        params: the options of three-card Loo played.
        name: who announced.
        speaks: whether it is this player's turn to make the single pot's one
            announcement.
        left: the name of the player on the dealer's left.
    """
    if not params.single_pot_miss:
        return RuleId.ANN_SIMPLE, (
            f"{name} cannot announce: a simple deal has no announcements and everyone plays."
        )
    if speaks:
        return VariantRuleId.SINGLE_POT, (
            f"{name} may only stand or take the miss: in a single pot nobody passes."
        )
    return VariantRuleId.SINGLE_POT, (
        f"{name} cannot announce: in a single pot everyone plays, and only {left}, on the "
        "dealer's left, may first swap for the miss."
    )


def explain_variant_card(params: ThreeCardParams, name: str, card: Card, hand: Sequence[Card],
                         trick: Sequence[Card], trump: Suit | None, ace_duty: bool,
                         indicator: Card) -> tuple[RuleKey, str]:
    """:func:`~loo_tutor.engine.explain.explain_card` under a three-card profile's options.

    Call only for a card that ``legality.variant_cards`` (or the fast path) rules
    out. A lead that limited Loo would allow is refused only by
    V-TWO-TOP-TRUMP.
    """
    if (params.two_player_top_trump and not trick and card in hand and trump is not None
            and card in legal_leads(hand, trump, ace_duty, indicator)):
        top = highest_trump(hand, trump)
        assert top is not None
        return VariantRuleId.TWO_TOP_TRUMP, (
            f"{name} may not lead {card.shown}: only two players are in, so {name} must "
            f"lead the highest trump, {top.shown}."
        )
    return explain_card(name, card, hand, trick, trump, ace_duty, indicator)


def turned_stays(name: str) -> tuple[RuleKey, str]:
    """The turned card taken in an exchange: three-card Loo never lets it (V-EXCHANGE)."""
    return VariantRuleId.EXCHANGE, (
        f"{name} cannot take the turned card: in three-card Loo it stays on the table."
    )


def no_exchanges(name: str) -> tuple[RuleKey, str]:
    """An exchange under a profile without them (V-EXCHANGE: Irish Loo's alone)."""
    return VariantRuleId.EXCHANGE, f"{name} cannot exchange: this game has no exchanges."
