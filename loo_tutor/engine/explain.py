"""The refusals every game shares, in the reader's words: the engine's explain module.

A deal machine (:class:`~loo_tutor.engine.machine.DealMachine`) decides that an
action is refused and which rule refuses it; the sentence that says so comes
from here, or, for what only one game refuses, from the explain module beside
that game (``three_card_explain``, ``pam_explain``). Each function returns the
rule and the sentence, and sees only plain values: names, cards, counts.

A wrong card is attributed to the first duty of the chain it breaks
(R-PLAY-HAND, then R-LEAD-TRUMP and R-LEAD-ACE for a lead, R-FOLLOW and
R-HEAD or R-TRUMP-WIN for a follower); see :ref:`r-play-hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import Action, Announce, CivilLead, Exchange
from .cards import ACE, Card, Suit
from .legality import PAM_RANK, _forced_trump, _of_suit, legal_follows
from .rules import RuleId, RuleKey, VariantRuleId

_COUNTS: Final = {3: "three", 5: "five"}


def cards_shown(cards: Sequence[Card]) -> str:
    """Cards as the reader sees them, joined by commas (``7♥, 10♦``), or ``no cards``."""
    return ", ".join(card.shown for card in cards) or "no cards"


def legal_sentence(name: str, action: Action) -> str:
    """The sentence of a legal action: ``"B playing 7♥ is legal."``."""
    if isinstance(action, Announce):
        return f"{name} announcing {action.announcement.value} is legal."
    if isinstance(action, Exchange):
        cards = cards_shown(action.cards) if action.cards else "nothing"
        taking = " and taking the turned card" if action.take_turned else ""
        return f"{name} discarding {cards}{taking} is legal."
    if isinstance(action, CivilLead):
        return f"{name} leading {action.card.shown} with \"Pam, be civil\" is legal."
    return f"{name} playing {action.card.shown} is legal."


# -- the deal is over ------------------------------------------------------------


def over_by_flush(name: str, holder: str) -> tuple[RuleKey, str]:
    """Nothing more can be done: ``holder``'s flush took the pool (V-FLUSH)."""
    return VariantRuleId.FLUSH, (
        f"{name} cannot act: {holder}'s flush took the pool without play."
    )


def over_by_collect(name: str, collector: str) -> tuple[RuleKey, str]:
    """Nothing more can be done: ``collector`` took the pool without play (R-COLLECT)."""
    return RuleId.COLLECT, f"{name} cannot act: {collector} took the pool without play."


def over_all_played(name: str, tricks: int) -> tuple[RuleKey, str]:
    """Nothing more can be done: every one of the deal's ``tricks`` tricks is played."""
    return RuleId.PLAY_ORDER, (
        f"{name} cannot act: all {_COUNTS[tricks]} tricks have been played."
    )


# -- announcing ------------------------------------------------------------------


def announce_after_collect(name: str) -> tuple[RuleKey, str]:
    """An announcement after every other player passed and the dealer collected."""
    return RuleId.COLLECT, (
        f"{name} cannot announce: every other player passed, so the dealer "
        "collects the pool without play."
    )


def announce_after_all(name: str) -> tuple[RuleKey, str]:
    """An announcement once every player has announced (R-ANN-ORDER)."""
    return RuleId.ANN_ORDER, f"{name} cannot announce: every player has already announced once."


def announce_out_of_turn(name: str, turn: str) -> tuple[RuleKey, str]:
    """An announcement while it is ``turn``'s turn to announce (R-ANN-ORDER)."""
    return _out_of_turn(name, turn, RuleId.ANN_ORDER, "announced out of turn",
                        "announcements go clockwise from the dealer's left")


# -- exchanging ------------------------------------------------------------------


def exchange_after_pass(name: str) -> tuple[RuleKey, str]:
    """An exchange by a player who passed (V-EXCHANGE)."""
    return VariantRuleId.EXCHANGE, (
        f"{name} passed, so {name} is out of this deal and takes no part in the exchange."
    )


def _before_announced(name: str, doing: str, turn: str) -> str:
    return (f"{name} cannot {doing} yet: the announcements are not finished and it is "
            f"{turn}'s turn to announce.")


def exchange_before_announced(name: str, turn: str) -> tuple[RuleKey, str]:
    """An exchange while ``turn`` is still to announce (V-EXCHANGE)."""
    return VariantRuleId.EXCHANGE, _before_announced(name, "exchange", turn)


def exchange_not_in(name: str) -> tuple[RuleKey, str]:
    """An exchange by a player who is not in the deal (V-EXCHANGE)."""
    return VariantRuleId.EXCHANGE, (
        f"{name} is out of this deal, so {name} takes no part in the exchange."
    )


def exchange_too_late(name: str, play_begun: bool) -> tuple[RuleKey, str]:
    """An exchange after the exchanges are over (V-EXCHANGE)."""
    when = ("play has begun" if play_begun
            else "every player in the deal has had their one exchange")
    return VariantRuleId.EXCHANGE, f"{name} cannot exchange now: {when}."


def exchange_out_of_turn(name: str, turn: str) -> tuple[RuleKey, str]:
    """An exchange while it is ``turn``'s turn to exchange (V-EXCHANGE)."""
    return _out_of_turn(name, turn, VariantRuleId.EXCHANGE, "must wait",
                        "the players in the deal exchange in turn from the dealer's left")


def discard_not_held(name: str, hand: Sequence[Card], stray: Card | None
                     ) -> tuple[RuleKey, str]:
    """A discard of ``stray``, a card not in ``hand``, or (``None``) of a card twice."""
    what = f"{stray.shown} is not in the hand" if stray is not None else "a card is named twice"
    return VariantRuleId.EXCHANGE, (
        f"{name} can only discard cards of their own hand ({cards_shown(hand)}), "
        f"each once: {what}."
    )


def turned_not_open(name: str, dealer_takes_trump: bool) -> tuple[RuleKey, str]:
    """The turned card taken by a player who may not take it (V-EXCHANGE)."""
    why = ("only the dealer may" if dealer_takes_trump
           else "it stays out of play unless the table plays dealer_takes_trump")
    return VariantRuleId.EXCHANGE, f"{name} cannot take the turned card: {why}."


def turned_without_discard(name: str) -> tuple[RuleKey, str]:
    """The turned card taken with no card discarded for it (V-EXCHANGE)."""
    return VariantRuleId.EXCHANGE, (
        f"{name} must discard a card to take the turned card in its place."
    )


def too_many_discards(name: str, count: int, limit: int, hand_size: int
                      ) -> tuple[RuleKey, str]:
    """``count`` cards discarded where ``limit`` is the most (V-EXCHANGE)."""
    why = (f"{_COUNTS[limit]} cards" if limit == hand_size
           else f"{limit}, as many as the stock can still replace")
    return VariantRuleId.EXCHANGE, (
        f"{name} cannot discard {count} cards: the most {name} may exchange is {why}."
    )


# -- playing ---------------------------------------------------------------------


def play_before_announced(name: str, turn: str) -> tuple[RuleKey, str]:
    """A card played while ``turn`` is still to announce (R-PLAY-ORDER)."""
    return RuleId.PLAY_ORDER, _before_announced(name, "play", turn)


def play_before_exchanged(name: str) -> tuple[RuleKey, str]:
    """A card played before the exchanges are over (R-PLAY-ORDER)."""
    return RuleId.PLAY_ORDER, (
        f"{name} cannot play yet: the exchanges with the stock are not finished."
    )


def play_out_of_turn(name: str, turn: str, in_deal: bool) -> tuple[RuleKey, str]:
    """A card played while it is ``turn``'s turn, by a player in the deal or not."""
    why = "must wait" if in_deal else "is not playing this deal"
    return _out_of_turn(name, turn, RuleId.PLAY_ORDER, why,
                        "play goes clockwise among the players in the deal")


def civil_without_pam(name: str) -> tuple[RuleKey, str]:
    """\"Pam, be civil\" called in a game without Pam (V-PAM-CIVIL)."""
    return VariantRuleId.PAM_CIVIL, (
        f"{name} cannot call \"Pam, be civil\": three-card Loo has no Pam."
    )


def civil_not_leading(name: str) -> tuple[RuleKey, str]:
    """\"Pam, be civil\" called by a follower (V-PAM-CIVIL)."""
    return VariantRuleId.PAM_CIVIL, (
        f"{name} cannot call \"Pam, be civil\": only the leader may, with the lead."
    )


def civil_wrong_card(name: str, card: Card, trump: Suit) -> tuple[RuleKey, str]:
    """\"Pam, be civil\" called with a lead other than the ace of trumps (V-PAM-CIVIL)."""
    return VariantRuleId.PAM_CIVIL, (
        f"{name} cannot call \"Pam, be civil\" with {card.shown}: the call goes only with "
        f"the lead of the ace of trumps (A{trump.symbol})."
    )


def _out_of_turn(name: str, turn: str, rule: RuleKey, why: str, how: str
                 ) -> tuple[RuleKey, str]:
    return rule, f"{name} {why}: {how}, and it is {turn}'s turn."


# -- the duties of play ----------------------------------------------------------


def explain_card(name: str, card: Card, hand: Sequence[Card], trick: Sequence[Card],
                 trump: Suit | None, ace_duty: bool, indicator: Card,
                 pam: Card | None = None) -> tuple[RuleId, str]:
    """The rule a card breaks and a sentence saying what it requires.

    Call only for a card that is not legal here; the first broken link of the
    duty chain is reported. Cards are named as the reader sees them (7♥).
    """
    if card not in hand:
        held = cards_shown(hand)
        return RuleId.PLAY_HAND, (
            f"{name} cannot play {card.shown}: it is not in the hand {name} is playing ({held})."
        )
    if not trick:
        assert trump is not None
        trumps = _of_suit(hand, trump, trump, pam)
        if card not in trumps:
            return RuleId.LEAD_TRUMP, (
                f"{name} may not lead {card.shown}: {trump.noun}s are trumps and {name} holds "
                f"{cards_shown(trumps)}, so {name} must lead a trump."
            )
        forced = _forced_trump(trumps, indicator)
        assert forced is not None
        if forced.rank == ACE:
            why = "holds the ace of trumps"
        else:
            why = (f"holds the king of trumps and the turned indicator {indicator.shown} "
                   "is the ace")
        return RuleId.LEAD_ACE, (
            f"{name} may not lead {card.shown}: {name} {why}, so {name} must lead "
            f"{forced.shown}."
        )
    first = trick[0]
    led = trump if first is pam else first.suit
    same = _of_suit(hand, led, trump, pam)
    noun = "trump" if first is pam else led.noun  # type: ignore[union-attr]
    if same:
        if card not in same:
            return RuleId.FOLLOW, (
                f"{name} may not play {card.shown}: {name} holds {cards_shown(same)} and must "
                f"follow the {noun} lead."
            )
        high = max((c for c in trick if c in _of_suit(trick, led, trump, pam)),
                   key=lambda c: PAM_RANK if c is pam else c.rank)
        beaters = legal_follows(hand, trick, trump, pam)
        return RuleId.HEAD, (
            f"{name} may not play {card.shown}: it does not beat {high.shown}, and {name} "
            f"must head the trick with {cards_shown(beaters)}."
        )
    assert trump is not None
    winners = legal_follows(hand, trick, trump, pam)
    return RuleId.TRUMP_WIN, (
        f"{name} may not play {card.shown}: {name} has no {noun}s and must win the trick "
        f"with a trump ({cards_shown(winners)})."
    )
