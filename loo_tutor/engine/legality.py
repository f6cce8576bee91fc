"""The playing and announcing duties, one function per rule: every duty is decided here.

These functions see only plain values (a hand, the cards of the trick, the
trump suit, the profile's options, and in five-card Loo the card that is Pam),
so the same logic serves the deal state, the checker and the trainers. The
deal machines (:class:`~loo_tutor.engine.state.DealState`,
:class:`~loo_tutor.engine.pam.PamState`) only ask them; nothing else decides
legality. Why a duty refuses a card or an announcement is said by the
games' explain modules (:mod:`loo_tutor.engine.explain` and the one beside
each game), which ask these functions.

Limited Loo's duties have a fast path of their own (:func:`legal_leads`,
:func:`legal_follows`, ``limited_announcements``), taken when the profile says
its duties are limited Loo's (``Profile.limited_duties``); the general
functions (``variant_cards``, ``variant_announcements`` and, for Pam Loo,
``pam_cards``) decide the same duties under any profile's options, and the
tests hold the two paths to the same answers.

Pam (``pam``, ``None`` in three-card Loo) is a trump whatever its own suit,
ranked above the ace of trumps (V-PAM): it follows a trump lead, is not a card
of its own suit, and wins any trick it is played to.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

from .cards import ACE, KING, Card, Suit
from .rules import PamParams, RuleId, ThreeCardParams


class Announcement(str, enum.Enum):
    """What a player says in the announcements of a double deal."""

    STAND = "stand"
    """Play the hand you were dealt."""
    PASS = "pass"
    """Throw the hand in and sit out this deal."""
    MISS = "miss"
    """Throw the hand in and play the miss instead, unseen."""
    DEFEND = "defend"
    """(Dealer only) play the miss on behalf of the pool."""

    def __str__(self) -> str:
        return self.value


_STAND: Final = Announcement.STAND
_PASS: Final = Announcement.PASS
_MISS: Final = Announcement.MISS
_DEFEND: Final = Announcement.DEFEND


class DealerCase(str, enum.Enum):
    """Which row of the dealer's decision table applies when the dealer announces (SPEC §4)."""

    SOLE_STAND = "sole-stand"
    """Exactly one other player stood, so the dealer may not pass."""
    SOLE_MISS = "sole-miss"
    """Exactly one other player is in, playing the miss, so the dealer stands or passes."""
    SEVERAL = "several"
    """Two or more others are in, so the dealer stands, passes or takes the miss."""

    @property
    def rule(self) -> RuleId:
        """The rule that governs the dealer's announcement in this case."""
        return _DEALER_RULES[self]


_DEALER_RULES = {
    DealerCase.SOLE_STAND: RuleId.ANN_DEALER_SOLE_STAND,
    DealerCase.SOLE_MISS: RuleId.ANN_DEALER_SOLE_MISS,
    DealerCase.SEVERAL: RuleId.ANN_DEALER_OTHER,
}
_SOLE_STAND: Final = DealerCase.SOLE_STAND
_SOLE_MISS: Final = DealerCase.SOLE_MISS
_SEVERAL: Final = DealerCase.SEVERAL


def dealer_case_of(players_in: Sequence[int], miss_taker: int | None) -> DealerCase:
    """The dealer's row of the table (SPEC §4), from the other players who are in."""
    if len(players_in) == 1:
        return _SOLE_MISS if players_in[0] == miss_taker else _SOLE_STAND
    return _SEVERAL


def limited_announcements(case: DealerCase | None, miss_free: bool) -> list[Announcement]:
    """The announcements of limited Loo (R-ANN-CHOICES, R-ANN-MISS-ONCE and SPEC §4's table).

    The fast path of :func:`variant_announcements`, for a profile whose
    duties are limited Loo's.

    Args:
        case: the dealer's row of the table, or ``None`` for any other player.
        miss_free: whether nobody has taken the miss yet.
    """
    if case is _SOLE_STAND:
        return [_STAND, _MISS, _DEFEND]
    if case is _SOLE_MISS:
        return [_STAND, _PASS]
    return [_STAND, _PASS, _MISS] if miss_free else [_STAND, _PASS]


def variant_announcements(params: ThreeCardParams, case: DealerCase | None, has_miss: bool,
                          miss_free: bool, single_pot: bool, turned: Suit) -> list[Announcement]:
    """The announcements open to a player under any profile's options (SPEC §4, §11.1).

    Args:
        params: the options of three-card Loo played.
        case: the dealer's row of the table, or ``None`` for any other player.
        has_miss: whether the deal has a miss (Irish Loo has none).
        miss_free: whether nobody has taken the miss yet.
        single_pot: the one announcement of a single pot with a miss (V-SINGLE-POT).
        turned: the suit of the turned indicator (V-CLUB-LAW).
    """
    if single_pot:  # only the dealer's left speaks, and may not pass
        return [_STAND, _MISS]
    no_pass = params.club_law and turned is Suit.CLUBS
    calls = [_STAND] if no_pass else [_STAND, _PASS]
    if has_miss and miss_free:
        calls.append(_MISS)
    if case is _SOLE_STAND:
        if not has_miss:  # Irish Loo: no miss to defend with, so the dealer stands
            return [_STAND]
        return [_DEFEND] if params.dealer_defends_sole else [_STAND, _MISS, _DEFEND]
    if case is _SOLE_MISS:
        return [_STAND] if no_pass else [_STAND, _PASS]
    return calls


PAM_RANK: Final = ACE + 1
"""The rank Pam compares with: above the ace of trumps (V-PAM)."""


def trick_winner_index(cards: Sequence[Card], trump: Suit | None, pam: Card | None = None
                       ) -> int:
    """Position in ``cards`` of the card that wins the trick (R-WIN).

    The highest trump wins if there is a known trump in the trick (Pam above
    all); otherwise the highest card of the suit led. ``cards`` are in the
    order played.

    >>> from loo_tutor.engine.cards import parse_card as c
    >>> trick_winner_index([c("KC"), c("AC"), c("2H")], None)
    1
    >>> trick_winner_index([c("KC"), c("AC"), c("2H")], Suit.HEARTS)
    2
    >>> trick_winner_index([c("AH"), c("JC"), c("2H")], Suit.HEARTS, pam=c("JC"))
    1
    """
    first = cards[0]
    led = trump if first is pam else first.suit
    best = 0
    best_rank = PAM_RANK if first is pam else first.rank
    best_is_trump = led is trump
    for i in range(1, len(cards)):
        card = cards[i]
        if card is pam:
            return i  # nothing beats Pam
        if card.suit is trump:
            if not best_is_trump or card.rank > best_rank:
                best, best_rank, best_is_trump = i, card.rank, True
        elif card.suit is led and not best_is_trump and card.rank > best_rank:
            best, best_rank = i, card.rank
    return best


# The hot functions below use plain loops: on the Pythons we support a list
# comprehension costs an extra frame, which is most of the work for a hand of
# three cards. Pam is tested for by identity, which costs next to nothing
# when there is none.


def _of_suit(cards: Sequence[Card], suit: Suit | None, trump: Suit | None = None,
             pam: Card | None = None) -> list[Card]:
    """The cards of ``suit``: Pam is none of its own suit's, and one of the trumps."""
    found = []
    for card in cards:
        if card is pam:
            if suit is trump:
                found.append(card)
        elif card.suit is suit:
            found.append(card)
    return found


def legal_leads(hand: Sequence[Card], trump: Suit | None, ace_duty: bool,
                indicator: Card, pam: Card | None = None) -> list[Card]:
    """The cards a leader may lead (R-LEAD-FREE, R-LEAD-TRUMP, R-LEAD-ACE).

    Args:
        hand: the cards the leader holds.
        trump: the trump suit if known, else ``None``.
        ace_duty: whether R-LEAD-ACE applies (double deals only).
        indicator: the trump indicator card.
        pam: (Pam Loo) the card that is Pam, a trump like any other here.
    """
    if trump is None:
        return list(hand)
    trumps = _of_suit(hand, trump, trump, pam)
    if not trumps:
        return list(hand)
    if ace_duty:
        forced = _forced_trump(trumps, indicator)
        if forced is not None:
            return [forced]
    return trumps


def _forced_trump(trumps: Sequence[Card], indicator: Card) -> Card | None:
    """The ace of trumps if held, or the king when the indicator is the ace."""
    top = ACE if indicator.rank != ACE else KING
    for card in trumps:
        if card.rank == top:  # never Pam, which is a jack
            return card
    return None


def legal_follows(hand: Sequence[Card], trick: Sequence[Card],
                  trump: Suit | None, pam: Card | None = None) -> list[Card]:
    """The cards a follower may play to a trick already begun.

    Applies R-FOLLOW and R-HEAD when the follower holds the led suit, else
    R-TRUMP-WIN and R-DISCARD. Pam counts as the highest trump.
    """
    first = trick[0]
    led = trump if first is pam else first.suit
    same = _of_suit(hand, led, trump, pam)
    if same:
        if len(same) == 1:
            return same  # the one card of the suit led is played, whether or not it heads
        high = -1
        for card in trick:
            if card is pam:
                return same  # Pam cannot be beaten (R-HEAD)
            if card.suit is led:
                if card.rank > high:
                    high = card.rank
            elif card.suit is trump:
                return same  # trumped: no card of the led suit can win (R-HEAD)
        beaters = []
        for card in same:
            if card is pam or card.rank > high:
                beaters.append(card)
        return beaters or same
    if trump is None:
        return list(hand)
    for card in hand:
        if card is pam or card.suit is trump:
            break
    else:
        return list(hand)  # no trump to win with (R-DISCARD)
    top = -1
    for card in trick:
        if card is pam:
            return list(hand)  # Pam is in the trick: no trump can win it
        if card.suit is trump and card.rank > top:
            top = card.rank
    winners = []
    for card in hand:
        if card is pam or (card.suit is trump and card.rank > top):
            winners.append(card)
    return winners or list(hand)


def follow_suit(hand: Sequence[Card], trick: Sequence[Card], trump: Suit | None = None,
                pam: Card | None = None) -> list[Card]:
    """The cards a follower may play without the heading duties (option ``no_heading``).

    R-FOLLOW alone: a card of the led suit if the hand holds one, else any card.
    """
    first = trick[0]
    same = _of_suit(hand, trump if first is pam else first.suit, trump, pam)
    return same or list(hand)


def trumps_held(hand: Sequence[Card], trump: Suit, pam: Card | None = None) -> list[Card]:
    """The trumps in ``hand``, Pam among them."""
    return _of_suit(hand, trump, trump, pam)


def highest_trump(hand: Sequence[Card], trump: Suit, pam: Card | None = None) -> Card | None:
    """The highest trump in ``hand``, or ``None`` (option ``two_player_top_trump``)."""
    trumps = _of_suit(hand, trump, trump, pam)
    if pam in trumps:
        return pam
    return max(trumps, key=lambda card: card.rank) if trumps else None


def variant_cards(params: ThreeCardParams, hand: Sequence[Card], trick: Sequence[Card],
                  trump: Suit | None, ace_duty: bool, indicator: Card, leads_done: int,
                  players_in: int) -> list[Card]:
    """The cards a player may play under any three-card profile's options (SPEC §11.1).

    Without ``no_heading`` a follower heads the trick (:func:`legal_follows`),
    with it only follows suit (:func:`follow_suit`). A leader's trump duties
    bind only the first ``trump_leads`` tricks, if so limited; with two
    players in under ``two_player_top_trump`` the leader leads the highest
    trump (V-TWO-TOP-TRUMP); else :func:`legal_leads`.

    Args:
        params: the options of three-card Loo played.
        hand: the cards the player holds (two or more).
        trick: the cards of the trick so far, empty for a lead.
        trump: the trump suit if known, else ``None``.
        ace_duty: whether R-LEAD-ACE applies.
        indicator: the trump indicator card.
        leads_done: how many tricks have been finished.
        players_in: how many players are in the deal.
    """
    if trick:
        if params.heading:
            return legal_follows(hand, trick, trump)
        return follow_suit(hand, trick)
    if params.trump_leads is not None and leads_done >= params.trump_leads:
        return list(hand)
    if params.two_player_top_trump and trump is not None and players_in == 2:
        top = highest_trump(hand, trump)
        if top is not None:
            return [top]
    return legal_leads(hand, trump, ace_duty, indicator)


# -- five-card Loo with Pam (SPEC §11.2) -------------------------------------


def pam_announcements() -> list[Announcement]:
    """The announcements of Pam Loo, which has no miss: stand or pass (R-ANN-CHOICES)."""
    return [_STAND, _PASS]


def civil_hand(hand: Sequence[Card], trump: Suit | None, pam: Card, civil: bool) -> list[Card]:
    """The cards of ``hand`` Pam's manners leave playable (V-PAM-CIVIL).

    In a trick led with "Pam, be civil" (``civil``) the holder of Pam who
    holds another trump keeps Pam back.
    """
    if not civil or pam not in hand:
        return list(hand)
    for card in hand:
        if card is not pam and card.suit is trump:
            return [c for c in hand if c is not pam]
    return list(hand)


def pam_cards(params: PamParams, hand: Sequence[Card], trick: Sequence[Card], trump: Suit,
              pam: Card, duty_indicator: Card, leads_done: int, civil: bool) -> list[Card]:
    """The cards a player of Pam Loo may play, as the profile's duty set has them.

    ``three-card`` duties are the three-card game's (R-LEAD-TRUMP, R-LEAD-ACE,
    R-FOLLOW, R-HEAD, R-TRUMP-WIN) with Pam the highest trump; ``first-lead``
    binds only the first lead to a trump, with no duty to head, and Pam may be
    played to any trick. In a civil trick Pam is kept back (:func:`civil_hand`).

    Args:
        params: the options of Pam Loo played.
        hand: the cards the player holds (two or more).
        trick: the cards of the trick so far, empty for a lead.
        trump: the trump suit.
        pam: the card that is Pam.
        duty_indicator: the card R-LEAD-ACE reads: the turned card, or Pam once
            the dealer took the turned card into hand.
        leads_done: how many tricks have been finished.
        civil: whether this trick was led with "Pam, be civil".
    """
    three_card = params.pam_duties == "three-card"
    if not trick:
        if three_card:
            return legal_leads(hand, trump, True, duty_indicator, pam)
        if leads_done:  # only the first lead must be a trump
            return list(hand)
        return legal_leads(hand, trump, False, duty_indicator, pam)
    playable = civil_hand(hand, trump, pam, civil)
    if three_card:
        return legal_follows(playable, trick, trump, pam)
    same = follow_suit(playable, trick, trump, pam)  # Pam follows a trump lead
    if pam in playable and pam not in same:
        same.append(pam)  # and may be played to any trick
    return same
