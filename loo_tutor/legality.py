"""The playing and announcing duties, one function per rule.

These functions see only plain values (a hand, the cards of the trick, the
trump suit), so the same logic serves the deal state, the checker and the
trainers. :mod:`loo_tutor.state` calls them; nothing else decides legality.

A wrong card is attributed to the first duty of the chain it breaks
(R-PLAY-HAND, then R-LEAD-TRUMP and R-LEAD-ACE for a lead, R-FOLLOW and
R-HEAD or R-TRUMP-WIN for a follower); see :ref:`r-play-hand`.
"""

from __future__ import annotations

import enum
from typing import Sequence

from .cards import ACE, KING, Card, Suit
from .rules import RuleId


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


def trick_winner_index(cards: Sequence[Card], trump: Suit | None) -> int:
    """Position in ``cards`` of the card that wins the trick (R-WIN).

    The highest trump wins if there is a known trump in the trick; otherwise
    the highest card of the suit led. ``cards`` are in the order played.

    >>> from loo_tutor.cards import parse_card as c
    >>> trick_winner_index([c("KC"), c("AC"), c("2H")], None)
    1
    >>> trick_winner_index([c("KC"), c("AC"), c("2H")], Suit.HEARTS)
    2
    """
    led = cards[0].suit
    best = 0
    best_card = cards[0]
    best_is_trump = led == trump
    for i in range(1, len(cards)):
        card = cards[i]
        if card.suit == trump:
            if not best_is_trump or card.rank > best_card.rank:
                best, best_card, best_is_trump = i, card, True
        elif card.suit == led and not best_is_trump and card.rank > best_card.rank:
            best, best_card = i, card
    return best


# The hot functions below use plain loops: on the Pythons we support a list
# comprehension costs an extra frame, which is most of the work for a hand of
# three cards.


def _of_suit(cards: Sequence[Card], suit: Suit | None) -> list[Card]:
    found = []
    for card in cards:
        if card.suit is suit:
            found.append(card)
    return found


def legal_leads(hand: Sequence[Card], trump: Suit | None, ace_duty: bool,
                indicator: Card) -> list[Card]:
    """The cards a leader may lead (R-LEAD-FREE, R-LEAD-TRUMP, R-LEAD-ACE).

    Args:
        hand: the cards the leader holds.
        trump: the trump suit if known, else ``None``.
        ace_duty: whether R-LEAD-ACE applies (double deals only).
        indicator: the trump indicator card.
    """
    if trump is None:
        return list(hand)
    trumps = _of_suit(hand, trump)
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
        if card.rank == top:
            return card
    return None


def legal_follows(hand: Sequence[Card], trick: Sequence[Card],
                  trump: Suit | None) -> list[Card]:
    """The cards a follower may play to a trick already begun.

    Applies R-FOLLOW and R-HEAD when the follower holds the led suit, else
    R-TRUMP-WIN and R-DISCARD.
    """
    led = trick[0].suit
    same = []
    for card in hand:
        if card.suit is led:
            same.append(card)
    if same:
        high = -1
        for card in trick:
            if card.suit is led:
                if card.rank > high:
                    high = card.rank
            elif card.suit is trump:
                return same  # trumped: no card of the led suit can win (R-HEAD)
        beaters = []
        for card in same:
            if card.rank > high:
                beaters.append(card)
        return beaters or same
    if trump is None:
        return list(hand)
    top = -1
    for card in trick:
        if card.suit is trump and card.rank > top:
            top = card.rank
    winners = []
    for card in hand:
        if card.suit is trump and card.rank > top:
            winners.append(card)
    return winners or list(hand)


def follow_suit(hand: Sequence[Card], trick: Sequence[Card]) -> list[Card]:
    """The cards a follower may play without the heading duties (option ``no_heading``).

    R-FOLLOW alone: a card of the led suit if the hand holds one, else any card.
    """
    same = _of_suit(hand, trick[0].suit)
    return same or list(hand)


def highest_trump(hand: Sequence[Card], trump: Suit) -> Card | None:
    """The highest trump in ``hand``, or ``None`` (option ``two_player_top_trump``)."""
    trumps = _of_suit(hand, trump)
    return max(trumps, key=lambda card: card.rank) if trumps else None


def explain_card(name: str, card: Card, hand: Sequence[Card], trick: Sequence[Card],
                 trump: Suit | None, ace_duty: bool, indicator: Card) -> tuple[RuleId, str]:
    """The rule a card breaks and a sentence saying what it requires.

    Call only for a card that is not legal here; the first broken link of the
    duty chain is reported.
    """
    if card not in hand:
        held = _list(hand)
        return RuleId.PLAY_HAND, (
            f"{name} cannot play {card}: it is not in the hand {name} is playing ({held})."
        )
    if not trick:
        assert trump is not None
        trumps = [c for c in hand if c.suit == trump]
        if card.suit != trump:
            return RuleId.LEAD_TRUMP, (
                f"{name} may not lead {card}: {trump.noun}s are trumps and {name} holds "
                f"{_list(trumps)}, so {name} must lead a trump."
            )
        forced = _forced_trump(trumps, indicator)
        assert forced is not None
        if forced.rank == ACE:
            why = "holds the ace of trumps"
        else:
            why = f"holds the king of trumps and the turned indicator {indicator} is the ace"
        return RuleId.LEAD_ACE, (
            f"{name} may not lead {card}: {name} {why}, so {name} must lead {forced}."
        )
    led = trick[0].suit
    same = [c for c in hand if c.suit == led]
    if same:
        if card.suit != led:
            return RuleId.FOLLOW, (
                f"{name} may not play {card}: {name} holds {_list(same)} and must follow "
                f"the {led.noun} lead."
            )
        high = max((c for c in trick if c.suit == led), key=lambda c: c.rank)
        beaters = [c for c in same if c.rank > high.rank]
        return RuleId.HEAD, (
            f"{name} may not play {card}: it does not beat {high}, and {name} must head "
            f"the trick with {_list(beaters)}."
        )
    assert trump is not None
    winners = legal_follows(hand, trick, trump)
    return RuleId.TRUMP_WIN, (
        f"{name} may not play {card}: {name} has no {led.noun}s and must win the trick "
        f"with a trump ({_list(winners)})."
    )


def _list(cards: Sequence[Card]) -> str:
    return ", ".join(str(c) for c in cards) or "no cards"
