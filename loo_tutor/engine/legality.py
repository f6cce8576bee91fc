"""The playing and announcing duties, one function per rule.

These functions see only plain values (a hand, the cards of the trick, the
trump suit, and in five-card Loo the card that is Pam), so the same logic
serves the deal state, the checker and the trainers. :mod:`loo_tutor.engine.state`
and :mod:`loo_tutor.engine.pam` call them; nothing else decides legality.

Pam (``pam``, ``None`` in three-card Loo) is a trump whatever its own suit,
ranked above the ace of trumps (V-PAM): it follows a trump lead, is not a card
of its own suit, and wins any trick it is played to.

A wrong card is attributed to the first duty of the chain it breaks
(R-PLAY-HAND, then R-LEAD-TRUMP and R-LEAD-ACE for a lead, R-FOLLOW and
R-HEAD or R-TRUMP-WIN for a follower); see :ref:`r-play-hand`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

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


PAM_RANK = ACE + 1
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
    best_is_trump = led == trump
    for i in range(1, len(cards)):
        card = cards[i]
        if card is pam:
            return i  # nothing beats Pam
        if card.suit == trump:
            if not best_is_trump or card.rank > best_rank:
                best, best_rank, best_is_trump = i, card.rank, True
        elif card.suit == led and not best_is_trump and card.rank > best_rank:
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


def explain_card(name: str, card: Card, hand: Sequence[Card], trick: Sequence[Card],
                 trump: Suit | None, ace_duty: bool, indicator: Card,
                 pam: Card | None = None) -> tuple[RuleId, str]:
    """The rule a card breaks and a sentence saying what it requires.

    Call only for a card that is not legal here; the first broken link of the
    duty chain is reported. Cards are named as the reader sees them (7♥).
    """
    if card not in hand:
        held = _list(hand)
        return RuleId.PLAY_HAND, (
            f"{name} cannot play {card.shown}: it is not in the hand {name} is playing ({held})."
        )
    if not trick:
        assert trump is not None
        trumps = _of_suit(hand, trump, trump, pam)
        if card not in trumps:
            return RuleId.LEAD_TRUMP, (
                f"{name} may not lead {card.shown}: {trump.noun}s are trumps and {name} holds "
                f"{_list(trumps)}, so {name} must lead a trump."
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
                f"{name} may not play {card.shown}: {name} holds {_list(same)} and must "
                f"follow the {noun} lead."
            )
        high = max((c for c in trick if c in _of_suit(trick, led, trump, pam)),
                   key=lambda c: PAM_RANK if c is pam else c.rank)
        beaters = legal_follows(hand, trick, trump, pam)
        return RuleId.HEAD, (
            f"{name} may not play {card.shown}: it does not beat {high.shown}, and {name} "
            f"must head the trick with {_list(beaters)}."
        )
    assert trump is not None
    winners = legal_follows(hand, trick, trump, pam)
    return RuleId.TRUMP_WIN, (
        f"{name} may not play {card.shown}: {name} has no {noun}s and must win the trick "
        f"with a trump ({_list(winners)})."
    )


def cards_shown(cards: Sequence[Card]) -> str:
    """Cards as the reader sees them, joined by commas (``7♥, 10♦``), or ``no cards``."""
    return ", ".join(card.shown for card in cards) or "no cards"


_list = cards_shown
