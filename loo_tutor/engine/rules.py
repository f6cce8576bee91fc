"""Rule identifiers and the game profile.

Every rule of the limited profile has a stable ID (``R-FOLLOW``, ``R-HEAD``,
…). The engine names the ID when it refuses an action, and the book has one
section per ID whose label is the ID in lower case (``r-follow``).

>>> RuleId.FOLLOW.value, RuleId.FOLLOW.label, RuleId.FOLLOW.heading
('R-FOLLOW', 'r-follow', 'Follow suit')
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal


class RuleKey(str, enum.Enum):
    """What every rule ID has: its book label and a short heading.

    The members live in two enums: :class:`RuleId` for the limited profile and
    :class:`VariantRuleId` for rules that only variant profiles add.
    """

    @property
    def label(self) -> str:
        """The book's target for this rule, e.g. ``r-follow``."""
        return str(self.value).lower()

    @property
    def heading(self) -> str:
        """A few words naming the rule, e.g. ``"Follow suit"``."""
        return _HEADINGS[self]

    @property
    def name_in_text(self) -> str:
        """The heading as words inside a sentence, e.g. ``"the forced ace"``.

        >>> RuleId.LEAD_ACE.name_in_text, VariantRuleId.PAM_CIVIL.name_in_text
        ('the forced ace', 'Pam, be civil')
        """
        heading = self.heading
        return heading if heading.split()[0].strip(",") in _PROPER_NAMES else \
            heading[0].lower() + heading[1:]

    @property
    def cited(self) -> str:
        """How a message cites the rule, by its name and then its ID.

        >>> RuleId.LEAD_ACE.cited
        'the forced ace (R-LEAD-ACE)'
        """
        return f"{self.name_in_text} ({self.value})"

    def __str__(self) -> str:
        return str(self.value)


_PROPER_NAMES = frozenset({"Pam"})
"""First words of headings that keep their capital inside a sentence."""


class RuleId(RuleKey):
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


class VariantRuleId(RuleKey):
    """The ID of a rule that exists only in a variant profile (SPEC §11).

    A variant that changes a rule of the limited profile keeps that rule's
    :class:`RuleId`; these IDs name the rules variants add.
    """

    LOW_CUT = "V-LOW-CUT"
    """Everyone cuts and the lowest card deals first, ace low."""
    SINGLE_POT = "V-SINGLE-POT"
    """In a single pot everyone plays; only the dealer's left may take the miss."""
    CLUB_LAW = "V-CLUB-LAW"
    """Nobody may pass when a club is turned for trumps."""
    TWO_TOP_TRUMP = "V-TWO-TOP-TRUMP"
    """With two players left the leader must lead their highest trump."""
    EXCHANGE = "V-EXCHANGE"
    """Players who stay in may swap cards for cards from the stock."""
    FLUSH = "V-FLUSH"
    """A flush takes the whole pool without play and loos the others who stood."""
    UNDIVIDED = "V-UNDIVIDED"
    """The pool goes only to a player who wins every trick."""
    SESSION_CLEAN = "V-SESSION-CLEAN"
    """After the agreed deals play on until a deal ends with nobody looed."""
    PAM = "V-PAM"
    """Pam, the jack of clubs, is the highest trump."""
    PAM_CIVIL = "V-PAM-CIVIL"
    """Leading the ace of trumps, the leader may tell Pam to be civil."""


_HEADINGS: dict[RuleKey, str] = {
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
    VariantRuleId.LOW_CUT: "Cutting for the first deal",
    VariantRuleId.SINGLE_POT: "The single pot with a miss",
    VariantRuleId.CLUB_LAW: "Club law",
    VariantRuleId.TWO_TOP_TRUMP: "Two players: lead the top trump",
    VariantRuleId.EXCHANGE: "Exchanging from the stock",
    VariantRuleId.FLUSH: "Flushes",
    VariantRuleId.UNDIVIDED: "Undivided Loo",
    VariantRuleId.SESSION_CLEAN: "Ending on a clean deal",
    VariantRuleId.PAM: "Pam",
    VariantRuleId.PAM_CIVIL: "Pam, be civil",
}


Game = str
"""Which game a profile plays: the name of a game registered in
:mod:`loo_tutor.engine.games` (``"three-card"``, or ``"pam"`` for five-card Loo
with Pam), whose module owns what differs from game to game."""

LooRule = Literal["fixed", "unlimited", "mixed"]
"""What a looed player pays (R-LOO): a fixed amount, the pool, or the pool up to a limit."""

Stakes = Literal["dealer", "everyone"]
"""Who stakes a new pool (R-DEAL-ANTE): the dealer alone, or everyone (``stakes: everyone``)."""

_BY_ID: dict[str, RuleKey] = {rule.value: rule for rule in (*RuleId, *VariantRuleId)}


def rule_by_id(text: str) -> RuleKey | None:
    """The rule whose ID is ``text`` (``"R-FOLLOW"``), or ``None`` for no rule of the game.

    >>> rule_by_id("R-FOLLOW") is RuleId.FOLLOW, rule_by_id("R-NONE")
    (True, None)
    """
    return _BY_ID.get(text)


FirstDealer = Literal["random", "low-cut"]
"""How the first dealer is chosen (R-SEAT-FIRST-DEALER, V-LOW-CUT)."""

SessionEnd = Literal["share", "clean"]
"""How a session ends (R-SESSION-END, V-SESSION-CLEAN)."""

PamDuties = Literal["three-card", "first-lead"]
"""The playing duties of Pam Loo (SPEC §11.2): ``three-card`` keeps the duties of the
three-card game (seed 002, written ``duties: "002"``); ``first-lead`` binds only the
first lead to a trump, with no duty to head and Pam free to follow anything (seed 004,
written ``duties: "004"``)."""


@dataclass(frozen=True)
class GameParams:
    """The options of one game, which only that game's module reads (SPEC §11).

    Each game has a frozen dataclass of its own deriving from this one
    (:class:`ThreeCardParams`, :class:`PamParams`, or a game registered from
    outside the engine) and names it as its ``GameSpec.params``; a
    :class:`Profile` holds the options of the table and one game's params.
    """

    @property
    def limited_duties(self) -> bool:
        """Whether no option of these params changes a duty of announcing or play
        from limited Loo's (only three-card Loo's machine asks)."""
        return True


@dataclass(frozen=True)
class ThreeCardParams(GameParams):
    """The options of three-card Loo and its variants (SPEC §11.1).

    The defaults are limited Loo's.

    Attributes:
        simple_pool: whether a deal with nothing carried is a simple deal
            (R-DEAL-KIND); without it every deal is dealt and announced like a
            double deal (``blenheim``).
        single_pot_miss: a simple deal also deals a miss and turns trumps
            (V-SINGLE-POT).
        reveal_immediate: a simple deal's trump is turned the moment somebody
            fails to follow (R-REVEAL).
        simple_ace_duty: R-LEAD-ACE applies in simple deals once trumps are known.
        miss_first: the miss gets the first card of each circuit (R-DEAL-MISS).
        two_player_top_trump: with two players in, lead the highest trump
            (V-TWO-TOP-TRUMP).
        trump_leads: how many leads the trump duties bind: ``None`` every lead,
            else the first so many tricks (R-LEAD-TRUMP, R-LEAD-ACE).
        heading: whether R-HEAD and R-TRUMP-WIN apply.
        club_law: nobody may pass when the indicator is a club (V-CLUB-LAW).
        irish: no miss, trumps turned every deal, exchanges from the stock
            (V-EXCHANGE).
        three_card_flush: three trumps take the pool without play (V-FLUSH).
        undivided: only a player winning every trick is paid (V-UNDIVIDED).
        dealer_defends_sole: against a single stander the dealer must defend
            (the Blenheim reading of R-ANN-DEALER-SOLE-STAND).
    """

    simple_pool: bool = True
    single_pot_miss: bool = False
    reveal_immediate: bool = False
    simple_ace_duty: bool = False
    miss_first: bool = False
    two_player_top_trump: bool = False
    trump_leads: int | None = None
    heading: bool = True
    club_law: bool = False
    irish: bool = False
    three_card_flush: bool = False
    undivided: bool = False
    dealer_defends_sole: bool = False

    @property
    def limited_duties(self) -> bool:
        """Whether every duty of announcing and play is limited Loo's, whatever the stakes.

        True when no option changes what a player may announce or play (the
        heading and lead options, club law, Irish Loo, the single pot, the
        dealer's duty to defend). Three-card Loo's machine then asks
        :mod:`loo_tutor.engine.legality`'s fast path;
        ``tests/engine/test_variants.py`` holds it to the general path.
        """
        return (self.heading and self.trump_leads is None
                and not (self.two_player_top_trump or self.club_law or self.irish
                         or self.single_pot_miss or self.dealer_defends_sole))


@dataclass(frozen=True)
class PamParams(GameParams):
    """The options of five-card Loo with Pam (SPEC §11.2).

    Attributes:
        running_pam: Pam is the jack of trumps, not of clubs.
        flush_exempt: holders of Pam or a weaker flush are not looed by a
            flush (seed 002; seed 004 exempts nobody).
        pam_duties: the playing duties (``PamDuties``: ``"three-card"`` or
            ``"first-lead"``).
        dealer_takes_trump: the dealer may take the turned trump card and
            discard another.
    """

    running_pam: bool = False
    flush_exempt: bool = True
    pam_duties: PamDuties = "three-card"
    dealer_takes_trump: bool = False


@dataclass(frozen=True)
class Profile:
    """The numbers and options of one way of playing: the table's, and one game's.

    The defaults are limited three-card Loo (SPEC §1–7). The options of the
    table (seats, stakes, ante, loo, first dealer, session end) are fields
    here, as every game reads them; the options only one game reads are that
    game's ``params`` (:class:`ThreeCardParams`, :class:`PamParams`).
    :mod:`loo_tutor.engine.profiles` reads them from a record's ``rules`` key
    and names the bundles (``blenheim``, ``pam``). Every field has a closed
    type: a number, a flag or one of a few words.

    Attributes:
        name: the profile's name as written in a record's ``rules`` key.
        game: ``"three-card"``, or ``"pam"`` for five-card Loo with Pam.
        ante: what the dealer pays into a new pool (R-DEAL-ANTE).
        stake: under ``stakes="everyone"``, what every other player pays into a
            fresh pool, and what the dealer alone pays when something is carried.
        stakes: who stakes (``Stakes``: ``"dealer"`` or ``"everyone"``; see :meth:`stakes_by_seat`).
        loo: what a looed player pays (R-LOO): a fixed amount, or the limit
            under ``loo_rule="mixed"``.
        loo_rule: ``"fixed"``, ``"unlimited"`` (the pool at start of play) or
            ``"mixed"`` (the pool, at most ``loo``).
        min_players: fewest seats (R-SEAT-COUNT).
        max_players: most seats (R-SEAT-COUNT).
        first_dealer: ``"random"`` or ``"low-cut"`` (V-LOW-CUT).
        session_end: ``"share"`` (R-SESSION-END) or ``"clean"`` (V-SESSION-CLEAN).
        params: the options of the game played, of the params dataclass that
            game registers (``GameSpec.params``).
        options: the options as written, for display and records.
    """

    name: str = "limited"
    game: Game = "three-card"
    ante: int = 3
    stake: int = 0
    stakes: Stakes = "dealer"
    loo: int = 3
    loo_rule: LooRule = "fixed"
    min_players: int = 5
    max_players: int = 8
    first_dealer: FirstDealer = "random"
    session_end: SessionEnd = "share"
    params: GameParams = ThreeCardParams()
    options: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    @classmethod
    def limited(cls) -> Profile:
        """Limited three-card Loo as taught by this tutor."""
        return cls()

    @cached_property
    def is_limited(self) -> bool:
        """Whether this is the default profile, whose output CONTRACT.md fixes.

        The deal machine takes a shorter path for these rules: the same
        answers with fewer questions (``tests/engine/test_variants.py`` holds it to
        the general path).
        """
        return self == LIMITED

    @cached_property
    def limited_duties(self) -> bool:
        """Whether every duty of announcing and play is limited Loo's, whatever the
        stakes: the game's params say (:attr:`ThreeCardParams.limited_duties`)."""
        return self.params.limited_duties

    def stakes_by_seat(self, seats: int, dealer: int, carried_anything: bool) -> tuple[int, ...]:
        """What each seat pays into the pool before a deal (R-DEAL-ANTE).

        The dealer pays the ante. Under ``stakes="everyone"`` a fresh pool is
        staked by everyone (the others ``stake`` each), but when anything is
        carried only the dealer stakes, ``stake`` and no more (seed 003).

        >>> LIMITED.stakes_by_seat(5, 4, False)
        (0, 0, 0, 0, 3)
        """
        stakes = [0] * seats
        if self.stakes == "everyone":
            if carried_anything:
                stakes[dealer] = self.stake
                return tuple(stakes)
            stakes = [self.stake] * seats
        stakes[dealer] = self.ante
        return tuple(stakes)


LIMITED = Profile.limited()
"""The default profile."""
