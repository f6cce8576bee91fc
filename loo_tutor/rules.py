"""Rule identifiers and the game profile.

Every rule of the limited profile has a stable ID (``R-FOLLOW``, ``R-HEAD``,
…). The engine names the ID when it refuses an action, and the book has one
section per ID whose label is the ID in lower case (``r-follow``).

>>> RuleId.FOLLOW.value, RuleId.FOLLOW.label, RuleId.FOLLOW.heading
('R-FOLLOW', 'r-follow', 'Follow suit')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class RuleId(str, enum.Enum):
    """The ID of one rule of the limited profile."""

    PACK_CARDS = "R-PACK-CARDS"
    """One 52-card pack, every card distinct."""
    PACK_RANK = "R-PACK-RANK"
    """A K Q J 10 … 2 in every suit; no permanent top card."""
    SEAT_COUNT = "R-SEAT-COUNT"
    """Five to eight players, each for themselves."""
    SEAT_FIRST_DEALER = "R-SEAT-FIRST-DEALER"
    """The first dealer is chosen at random."""
    SEAT_ROTATE = "R-SEAT-ROTATE"
    """Everything moves clockwise; the deal passes to the left."""
    DEAL_ANTE = "R-DEAL-ANTE"
    """The dealer pays 3 into the pool before every deal."""
    DEAL_KIND = "R-DEAL-KIND"
    """An empty carried balance makes a simple deal, anything else a double deal."""
    DEAL_SHUFFLE_CUT = "R-DEAL-SHUFFLE-CUT"
    """The dealer shuffles and the player on the right cuts."""
    DEAL_ORDER = "R-DEAL-ORDER"
    """Three circuits of one card each, from the dealer's left to the dealer."""
    DEAL_MISS = "R-DEAL-MISS"
    """In a double deal the miss gets the second-to-last card of each circuit."""
    DEAL_TRUMP = "R-DEAL-TRUMP"
    """The first card after the deal is the trump indicator."""
    DEAL_STOCK = "R-DEAL-STOCK"
    """The rest of the pack is not used."""
    ANN_SIMPLE = "R-ANN-SIMPLE"
    """A simple deal has no announcements; everyone plays."""
    ANN_ORDER = "R-ANN-ORDER"
    """One announcement each, from the dealer's left, the dealer last."""
    ANN_LOOK = "R-ANN-LOOK"
    """A hand is seen only at its owner's turn; thrown-in hands stay hidden."""
    ANN_CHOICES = "R-ANN-CHOICES"
    """A non-dealer stands, passes, or takes the unclaimed miss."""
    ANN_MISS_ONCE = "R-ANN-MISS-ONCE"
    """The miss goes to the first player who asks; it cannot be given back."""
    ANN_PASS = "R-ANN-PASS"
    """A player who passes is out of the deal and cannot be looed."""
    COLLECT = "R-COLLECT"
    """When nobody opposes, one player takes the whole pool without play."""
    ANN_DEALER_SOLE_STAND = "R-ANN-DEALER-SOLE-STAND"
    """Against a single stander the dealer may not pass."""
    ANN_DEALER_SOLE_MISS = "R-ANN-DEALER-SOLE-MISS"
    """Against a single miss-taker the dealer stands or passes."""
    ANN_DEALER_OTHER = "R-ANN-DEALER-OTHER"
    """With two or more others in, the dealer stands, passes or takes the miss."""
    DEFEND = "R-DEFEND"
    """Only the dealer facing a single stander may defend the pool."""
    PLAY_ORDER = "R-PLAY-ORDER"
    """Three tricks, one card from each active player, clockwise."""
    PLAY_HAND = "R-PLAY-HAND"
    """Only cards of the hand you are playing may be played."""
    LEAD_FIRST = "R-LEAD-FIRST"
    """The first active player from the dealer's left leads first."""
    LEAD_FREE = "R-LEAD-FREE"
    """Before trumps are known, any card may be led."""
    LEAD_TRUMP = "R-LEAD-TRUMP"
    """With trumps known, a leader holding a trump must lead one."""
    LEAD_ACE = "R-LEAD-ACE"
    """In a double deal the ace of trumps (or king, if the ace is turned) must be led."""
    FOLLOW = "R-FOLLOW"
    """Follow suit."""
    HEAD = "R-HEAD"
    """Beat the best card of the led suit when you can."""
    TRUMP_WIN = "R-TRUMP-WIN"
    """Void in the led suit, play a winning trump if you hold one."""
    DISCARD = "R-DISCARD"
    """Void with no winning trump, play anything."""
    REVEAL = "R-REVEAL"
    """A simple deal's trump is shown after the first trick somebody could not follow."""
    WIN = "R-WIN"
    """The highest trump wins, else the highest card of the led suit."""
    LEAD_NEXT = "R-LEAD-NEXT"
    """The winner of a trick leads the next."""
    POOL = "R-POOL"
    """The pool at start of play is the carried balance plus the ante."""
    PAY_THIRD = "R-PAY-THIRD"
    """Each trick won earns a third of the pool."""
    LOO = "R-LOO"
    """A player in the deal who wins no trick pays 3 into the next pool."""
    CARRY = "R-CARRY"
    """What is left in the pool carries to the next deal."""
    LEDGER = "R-LEDGER"
    """Amounts are exact fractions; nothing is rounded."""
    CONSERVE = "R-CONSERVE"
    """Units are moved and never made, so balances and pool sum to zero."""
    SESSION_LENGTH = "R-SESSION-LENGTH"
    """The number of deals is agreed before the session."""
    SESSION_END = "R-SESSION-END"
    """After the last deal the pool is shared equally."""
    SESSION_RESULT = "R-SESSION-RESULT"
    """The highest balance wins the session."""

    @property
    def label(self) -> str:
        """The book's target for this rule, e.g. ``r-follow``."""
        return self.value.lower()

    @property
    def heading(self) -> str:
        """A few words naming the rule, e.g. ``"Follow suit"``."""
        return _HEADINGS[self]

    def __str__(self) -> str:
        return self.value


_HEADINGS = {
    RuleId.PACK_CARDS: "The pack",
    RuleId.PACK_RANK: "Rank of cards",
    RuleId.SEAT_COUNT: "Number of players",
    RuleId.SEAT_FIRST_DEALER: "The first dealer",
    RuleId.SEAT_ROTATE: "Clockwise rotation",
    RuleId.DEAL_ANTE: "The dealer's ante",
    RuleId.DEAL_KIND: "Simple or double deal",
    RuleId.DEAL_SHUFFLE_CUT: "Shuffle and cut",
    RuleId.DEAL_ORDER: "Order of dealing",
    RuleId.DEAL_MISS: "Dealing the miss",
    RuleId.DEAL_TRUMP: "The trump indicator",
    RuleId.DEAL_STOCK: "The unused stock",
    RuleId.ANN_SIMPLE: "No announcements in a simple deal",
    RuleId.ANN_ORDER: "Order of announcements",
    RuleId.ANN_LOOK: "Looking at hands",
    RuleId.ANN_CHOICES: "Stand, pass or take the miss",
    RuleId.ANN_MISS_ONCE: "The miss is taken once",
    RuleId.ANN_PASS: "Passing",
    RuleId.COLLECT: "Collecting the pool without play",
    RuleId.ANN_DEALER_SOLE_STAND: "Dealer against a single stander",
    RuleId.ANN_DEALER_SOLE_MISS: "Dealer against a single miss-taker",
    RuleId.ANN_DEALER_OTHER: "Dealer against two or more",
    RuleId.DEFEND: "Defending the pool",
    RuleId.PLAY_ORDER: "Order of play",
    RuleId.PLAY_HAND: "Play from your own hand",
    RuleId.LEAD_FIRST: "The first lead",
    RuleId.LEAD_FREE: "Free lead before trumps are known",
    RuleId.LEAD_TRUMP: "Leading trumps",
    RuleId.LEAD_ACE: "The forced ace",
    RuleId.FOLLOW: "Follow suit",
    RuleId.HEAD: "Head the trick",
    RuleId.TRUMP_WIN: "Trump to win",
    RuleId.DISCARD: "Discarding",
    RuleId.REVEAL: "Revealing the hidden trump",
    RuleId.WIN: "Winning a trick",
    RuleId.LEAD_NEXT: "The winner leads",
    RuleId.POOL: "The pool at start of play",
    RuleId.PAY_THIRD: "A third of the pool per trick",
    RuleId.LOO: "Being looed",
    RuleId.CARRY: "The carried balance",
    RuleId.LEDGER: "Exact fractions",
    RuleId.CONSERVE: "Units are conserved",
    RuleId.SESSION_LENGTH: "Length of a session",
    RuleId.SESSION_END: "Sharing the last pool",
    RuleId.SESSION_RESULT: "Winning the session",
}


@dataclass(frozen=True)
class Profile:
    """The numbers and options of one way of playing.

    Only the limited profile exists for now; variants will be further named
    constructors with their own options.

    Attributes:
        name: the profile's name as written in a record's ``rules`` key.
        ante: what the dealer pays into the pool before each deal (R-DEAL-ANTE).
        loo: what a looed player pays (R-LOO).
        min_players: fewest seats (R-SEAT-COUNT).
        max_players: most seats (R-SEAT-COUNT).
    """

    name: str = "limited"
    ante: int = 3
    loo: int = 3
    min_players: int = 5
    max_players: int = 8

    @classmethod
    def limited(cls) -> Profile:
        """Limited three-card Loo as taught by this tutor."""
        return cls()


LIMITED = Profile.limited()
"""The default profile."""
