"""Best play when every hand is known: an exact solver for the tricks.

From any moment of the play phase, :func:`solve` tells what each legal card
of the player to move leads to when everybody plays their best from then on:
the tricks each active player ends with, the payouts, who is looed and every
seat's net change for the deal. The hidden trump of a simple deal counts as
known to the solver ("all hands known"), but it still only turns face up when
R-REVEAL says so, and every card the solver considers is one the engine's
duties allow at that moment. The solver works on card numbers and masks of
them, so it has the duties of :mod:`loo_tutor.engine.legality` written out for
those (:func:`leads_mask` and :func:`follows_mask`, and for hands of two
cards ``leads_of_two`` and ``_follows2``); the tests check that they allow
exactly the cards the engine's functions allow, on arbitrary tricks and, through
:func:`search_allows`, at random positions under every profile.

What "best" means (the book states the same, see :doc:`/book/practice`):

1. Every player plays for their own result for the deal. A player's payout
   grows with their tricks (none is a loo of 3, one trick a third of the
   pool, …), so this is the same as playing for the most tricks of their own.
   The defender plays for the pool, that is for the most tricks of its own.
2. Among lines equally good for themselves, a player plays *for the good of
   the loo*: the line that loos the most players (each loo adds 3 to the next
   pool).
3. If that is still equal, the line in which the tricks go to players nearer
   the dealer's left (a fixed rule, so that the answer is always the same).

Among cards that lead to exactly the same result the lowest card is named
(lowest rank; for equal ranks spades, hearts, diamonds, clubs).

>>> from loo_tutor.records.data import example
>>> from loo_tutor.records.record import replay
>>> start = next(s for s in replay(example("forced-ace")).states if s.phase.value == "play")
>>> [str(card) for card in solve(start)]
['AH']
>>> best_card(start).tricks
{0: 2, 1: 1, 2: 0}

Speed: positions are remembered trick by trick under a key that keeps only
what matters for the rest of the play (who holds the cards of each suit in
rank order, with the three suits other than the indicator's interchangeable),
so lines that differ only in which exact low card was thrown share their
answers; two cards of one hand with nothing in play between them are tried
as one. The search runs over card numbers and masks of them, never over
card objects; a player's hand is the mask of their dealt cards still in
play. In the second trick, once none of the players left with a choice may
win it or change what a later player may play, they only choose which card
to keep for the last trick, and that small choice is worked out directly. A
player who has found a line giving them every trick they can still win
stops looking.

The module is also compiled with mypyc (``setup.py``), so its hot code keeps
to what compiles well: plain ``int`` locals and lists of them, no tuples made
in the inner loops (a follower's duty is one number, the card allowed or -1;
the cards a player may keep are two lists), results compared by a function
rather than looked up, no products of numbers above 2**30 (mypyc hands those
to the slow general multiplication), and positions remembered under a tuple
of four numbers in one table per leader. See ``benchmarks/solver.py`` for the
figures of both builds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from ..engine.cards import ACE, KING, Card
from ..engine.errors import LooError
from ..engine.rules import LIMITED
from ..engine.state import DealKind, DealState, Phase, Seat, Settlement, Trick


@dataclass(frozen=True)
class Outcome:
    """What one card leads to with best play by everyone afterwards.

    Attributes:
        card: the card played now.
        tricks: the tricks each active seat ends the deal with (tricks
            already won included).
        settlement: the payouts, loos, carried balance and net changes the
            deal then ends with (R-PAY-THIRD, R-LOO, R-CARRY).
    """

    card: Card
    tricks: dict[Seat, int]
    settlement: Settlement

    @property
    def looed(self) -> tuple[Seat, ...]:
        """The seats looed at the end (R-LOO)."""
        return self.settlement.looed

    @property
    def payouts(self) -> dict[Seat, Fraction]:
        """Pool money received, for the seats that receive some (R-PAY-THIRD)."""
        return self.settlement.payouts

    @property
    def net(self) -> dict[Seat, Fraction]:
        """Every seat's net change for the deal (the dealer's ante included)."""
        return self.settlement.net


_TABLES: dict[int, tuple[list[int], list[list[int]]]] = {}


def _tables(reveal: int) -> tuple[list[int], list[list[int]]]:
    """Two tables for deals whose indicator is of suit ``reveal``, made once each.

    For each card (by index), the mask of the cards that beat it in a trick
    in which both are played: higher cards of its suit, and every card of
    the trump suit when it is not a trump itself. And for each suit, the
    worth of every card in a trick that suit is led to, judged with the
    trump: trumps above the led suit, the led suit above the rest (worth 0),
    higher ranks above lower ones.
    """
    tables = _TABLES.get(reveal)
    if tables is None:
        trumps = 0x1FFF << 13 * reveal
        beaten_by = []
        for index in range(52):
            higher = (0x1FFF << 13 * (index // 13)) & ~((2 << index) - 1)
            beaten_by.append(higher if index // 13 == reveal else higher | trumps)
        worths = [[32 + index % 13 if index // 13 == reveal else
                   16 + index % 13 if index // 13 == led else 0 for index in range(52)]
                  for led in range(4)]
        tables = _TABLES[reveal] = (beaten_by, worths)
    return tables


# How many bits are set in each byte (for counting the players looed).
_BITS: Final = [byte.bit_count() for byte in range(256)]


def _count(mask: int) -> int:
    """How many bits of ``mask`` are set."""
    if mask < 0x10000:  # up to eight players: two bytes
        return _BITS[mask & 255] + _BITS[mask >> 8]
    count = 0
    while mask:
        count += _BITS[mask & 255]
        mask >>= 8
    return count


def _better2(new: int, old: int, shift: int, open_bits: int) -> bool:
    """Whether result ``new`` of the last two tricks is better than ``old`` for a player.

    The player's tricks are at bit ``shift`` of a result; rules 1 to 3 of
    the module doc decide (own tricks, then the players looed, then the
    smaller number). ``open_bits`` marks (bit ``2i``) the players who are
    looed if they win neither trick.
    """
    mine_new = new >> shift & 3
    mine_old = old >> shift & 3
    if mine_new != mine_old:
        return mine_new > mine_old
    return _tie_better(new, old, open_bits)


def _tie_better(new: int, old: int, open_bits: int) -> bool:
    """Rules 2 and 3 of the module doc between results equally good for the chooser.

    ``open_bits`` marks (bit ``2i``) the players who are looed if they win
    nothing more: more of them looed is better, then the smaller number.
    """
    looed_new = open_bits & ~(new | new >> 1)
    looed_old = open_bits & ~(old | old >> 1)
    if looed_new != looed_old:
        count_new, count_old = _count(looed_new), _count(looed_old)
        if count_new != count_old:
            return count_new > count_old
    return new < old


class _Search:
    """The game tree of the remaining tricks, over compact positions.

    Players are numbered by their place among the active seats (0 is the
    first active seat from the dealer's left), and ``hands`` holds the cards
    each was dealt, sorted. A result is one integer with two bits of tricks
    per player: player ``i``'s tricks from the current trick on are
    ``(value >> 2 * i) & 3``.
    """

    __slots__ = (
        "beaten_by",
        "dealt",
        "dealt_mask",
        "duty_card",
        "halves",
        "hand_a",
        "hand_b",
        "holder_of",
        "keep_a",
        "keep_b",
        "kept",
        "led2",
        "live2",
        "loo_bits",
        "memo",
        "n",
        "open2",
        "order",
        "orders",
        "others",
        "powers",
        "reveal_suit",
        "trick",
        "trump2",
        "worths",
    )

    def __init__(self, indicator: Card, ace_duty: bool, defender: int,
                 hands: Sequence[Sequence[Card]]) -> None:
        n = self.n = len(hands)
        # The player holding each card (by index) of the deal's active hands,
        # and each player's cards by index from low to high.
        self.holder_of = [-1] * 52
        self.dealt: list[list[int]] = []
        self.dealt_mask: list[int] = []
        for player, hand in enumerate(hands):
            cards = [card.index for card in hand]  # the hands come sorted
            for index in cards:
                self.holder_of[index] = player
            self.dealt.append(cards)
            self.dealt_mask.append(sum([1 << index for index in cards]))
        self.reveal_suit = int(indicator.suit)
        self.others = [(self.reveal_suit + k) % 4 for k in (1, 2, 3)]
        self.beaten_by, self.worths = _tables(self.reveal_suit)
        self.duty_card = _duty_card(indicator, ace_duty)
        # Even bit 2i set for every player who can be looed (not the defender).
        self.loo_bits = sum(1 << 2 * i for i in range(n) if i != defender)
        # The results of the last two tricks by the second trick's leader,
        # whether the R-LEAD-ACE card is still held and whether trumps are
        # still hidden, then by key; made by the first start().
        self.memo: list[dict[tuple[int, int, int, int], int]] = []
        # For each suit, :meth:`half_code` of its seven lowest cards and of
        # its six highest, by the mask of those that are live (filled in as
        # they are met).
        self.halves: list[list[int]] = []
        # The powers of the base of a suit's code (see code).
        self.powers: list[int] = []
        # The cards of the trick being searched, by index.
        self.trick: list[int] = []
        # The state of a search of the last two tricks (see last_two).
        self.order: list[int] = []
        self.orders = [[(leader + i) % n for i in range(n)] for leader in range(n)]
        # The hands by place in the second trick, as card indexes (the second
        # one -1 for a player who has played to it already).
        self.hand_a: list[int] = [-1] * n
        self.hand_b: list[int] = [-1] * n
        self.kept: list[int] = [-1] * n
        self.trump2 = -1
        self.open2 = 0
        self.live2 = 0
        self.led2 = -1
        # The cards each place in the second trick may keep (see keep).
        self.keep_a: list[int] = [-1] * n
        self.keep_b: list[int] = [-1] * n

    # -- comparing results ---------------------------------------------------

    def prefers_tie(self, new: int, old: int, have: int) -> bool:
        """Between two results equally good for the chooser: rules 2 and 3 of the module doc.

        ``have`` marks the players who had already won a trick before the
        current one; the others are looed if they win nothing more.
        """
        return _tie_better(new, old, self.loo_bits & ~have)

    # -- positions -------------------------------------------------------------

    def key(self, live: int) -> tuple[int, int, int, int]:
        """The cards still held at a trick's start, as :attr:`memo` remembers them.

        ``live`` masks those cards. For each suit, the players holding its
        cards from low to high (see :meth:`code`); the three suits other
        than the indicator's are sorted, because they play alike. Which
        exact cards are held no longer matters, only their order.
        """
        special = self.code(self.reveal_suit, live)
        x = self.code(self.others[0], live)
        y = self.code(self.others[1], live)
        z = self.code(self.others[2], live)
        if x > y:
            x, y = y, x
        if y > z:
            y, z = z, y
            if x > y:
                x, y = y, x
        return special, x, y, z

    def code(self, suit: int, live: int) -> int:
        """Who holds the live cards of ``suit`` from low to high, as one number (see :meth:`key`).

        A digit in base ``n + 1`` per card (its holder's number plus one),
        times 16, plus the number of digits. It is put together from the
        codes of the suit's seven lowest cards and of its six highest.
        """
        bits = live >> 13 * suit & 0x1FFF
        low = self.half_code(suit, bits & 0x7F, 0)
        high = self.half_code(suit, bits >> 7, 7)
        # (shifts rather than products: mypyc multiplies large numbers slowly)
        return ((low >> 4) * self.powers[high & 15] << 4) + high + (low & 15)

    def half_code(self, suit: int, bits: int, first: int) -> int:
        """:meth:`code` for the cards of ``suit`` from rank ``first`` on that ``bits`` marks."""
        table = self.halves[2 * suit + (first > 0)]
        code = table[bits]
        if code < 0:
            code = count = 0
            base = self.n + 1
            index = 13 * suit + first
            rest = bits
            while rest:  # the cards from low to high
                if rest & 1:
                    code = code * base + self.holder_of[index] + 1
                    count += 1
                rest >>= 1
                index += 1
            code = table[bits] = (code << 4) + count
        return code

    def start(self, leader: int, trump: int, live: int) -> int:
        """The result of the last two tricks from the start of the second.

        ``leader`` won the first trick, the only trick won so far.
        """
        if not self.memo:
            n = self.n
            self.memo = [{} for _ in range(4 * n)]
            self.halves = [[-1] * (128 >> (k & 1)) for k in range(8)]
            self.powers = [(n + 1) ** k for k in range(7)]
        duty = self.duty_card
        held_duty = live >> duty & 1 if duty >= 0 else 0
        known = self.memo[(leader * 2 + held_duty) * 2 + int(trump < 0)]
        key = self.key(live)
        value = known.get(key, -1)
        if value < 0:
            value = known[key] = self.last_two(leader, 0, trump, 1 << 2 * leader, -1, live)
        return value

    def distinct(self, legal: int, player: int, live: int) -> list[int]:
        """The cards of ``legal`` (a mask) less those that play exactly like a card kept.

        Two cards of a suit in one hand are alike when no card in play lies
        between them (and neither carries the R-LEAD-ACE duty). The cards
        are the player's, by index from low to high.
        """
        kept: list[int] = []
        duty = self.duty_card
        for card in self.dealt[player]:
            if not legal >> card & 1:
                continue
            alike = False
            for other in kept:  # each lower than card
                if other // 13 == card // 13 and card != duty and other != duty \
                        and not live & ((1 << card) - (2 << other)):
                    alike = True
                    break
            if not alike:
                kept.append(card)
        return kept

    def certain(self, leader: int, pos: int, trump: int, best: int, high_led: int,
                live: int) -> int:
        """``best``, the place in the trick of the best card so far, if it is sure to win; else -1.

        It is sure when the players from ``pos`` on cannot beat it: none may
        play a card that beats it (R-FOLLOW limits a player holding the led
        suit to that suit), and before the reveal none holds a card of the
        led suit above the highest one down (of rank ``high_led``). ``live``
        holds the cards in play.
        """
        trick = self.trick
        block = self.beaten_by[trick[best]]
        led = trick[0] // 13
        suit = 0x1FFF << 13 * led
        if trump < 0:
            block |= suit & -(2 << 13 * led + high_led)
        n = self.n
        dealt_mask = self.dealt_mask
        for step in range(pos, n):
            held = live & dealt_mask[(leader + step) % n]
            if held & suit:
                held &= suit  # R-FOLLOW: only a card of the led suit may be played
            if held & block:
                return -1  # a card this player may play could beat the best one
        return best

    # -- the last two tricks ---------------------------------------------------

    def last_two(self, leader: int, pos: int, trump: int, have: int, parent_best: int,
                 held: int) -> int:
        """The result of the last two tricks from place ``pos`` of the second trick.

        The second trick is searched card by card over plain integers (card
        indexes; a card's suit is ``index // 13``, its rank ``index % 13``),
        each player choosing which of their two cards to play and so which
        one to keep; the third trick is then decided by the cards kept, with
        no choice left. The duties are those of :mod:`loo_tutor.engine.legality`
        for hands of two cards (``tests/analysis/test_solver.py`` checks that they
        allow the same cards). ``held`` masks the cards in the players'
        hands; the cards of the trick so far are in :attr:`trick`.
        """
        n = self.n
        order = self.order = self.orders[leader]
        hand_a, hand_b = self.hand_a, self.hand_b
        dealt = self.dealt
        live = held
        for i in range(n):
            a = b = -1
            for card in dealt[order[i]]:
                if held >> card & 1:
                    if a < 0:
                        a = card
                    else:
                        b = card
            hand_a[i], hand_b[i] = a, b
        kept = self.kept
        for i in range(pos):
            kept[i] = hand_a[i]
        self.trump2 = trump
        self.open2 = self.loo_bits & ~have
        if pos == 0:
            self.live2 = live
            return self.lead2()
        trick = self.trick
        for card in trick:
            live |= 1 << card
        self.live2 = live
        self.led2 = led = trick[0] // 13
        high_led, high_trump, best_worth, best = _summary(trick, trump, self.worths[led])
        return self.follow2(pos, high_led, high_trump, best_worth, best, parent_best)

    def lead2(self) -> int:
        """The result chosen by the leader of the second trick."""
        a, b = self.hand_a[0], self.hand_b[0]
        trump = self.trump2
        reveal = self.reveal_suit
        options = self.alike2(leads_of_two(a, b, trump, self.duty_card))
        shift = 2 * self.order[0]
        open_bits = self.open2
        found = mine = -1
        for card in options:
            self.kept[0] = b if card == a else a
            suit, rank = card // 13, card % 13
            self.led2 = suit
            value = self.follow2(1, rank, rank if suit == trump else -1,
                                 32 + rank if suit == reveal else 16 + rank, 0, mine)
            if found < 0 or _better2(value, found, shift, open_bits):
                found, mine = value, value >> shift & 3
                if mine == 2:
                    break  # both tricks: nothing can be better for this player
        return found

    def alike2(self, options: tuple[int, ...]) -> tuple[int, ...]:
        """``options`` less a card that plays exactly like the other.

        Two cards of a suit are alike when no card in play lies between
        them: each compares with every other card the same way. (The lead
        duty of R-LEAD-ACE no longer tells them apart: the last trick's lead
        has no choice.)
        """
        if len(options) == 2:
            a, b = options
            if a // 13 == b // 13:
                low, high = (a, b) if a < b else (b, a)
                if not self.live2 & ((1 << high) - (2 << low)):
                    return (a,)
        return options

    def follow2(self, i: int, high_led: int, high_trump: int, best_worth: int, best: int,
                parent_best: int) -> int:
        """The result from place ``i`` (not the lead) of the second trick.

        ``high_led`` and ``high_trump`` are the highest ranks down of the led
        suit and of known trumps (-1 if none); ``best_worth`` and ``best`` say
        which card down wins the trick so far, judged with the hidden trump
        too (see :meth:`trick_over`). ``parent_best`` is as for :meth:`node`.
        Players with one card to play play it in this call; at the first
        player with a choice, :meth:`ahead2` tries to settle the rest of the
        trick without searching it.
        """
        n = self.n
        trump = self.trump2
        led = self.led2
        worths = self.worths[led]
        kept = self.kept
        hand_a, hand_b = self.hand_a, self.hand_b
        live = self.live2
        while True:
            if i == n:
                return self.third(best)
            a, b = hand_a[i], hand_b[i]
            only = _follows2(a, b, led, high_led, high_trump, trump)
            if only < 0:
                low, high = (a, b) if a < b else (b, a)
                if a // 13 != b // 13 or live & ((1 << high) - (2 << low)):
                    if worths[a] > best_worth or worths[b] > best_worth:
                        break
                    value = self.ahead2(i, high_led, high_trump, best_worth, best)
                    if value >= 0:
                        return value
                    break
                only = a  # alike (see alike2)
            card = only
            kept[i] = b if card == a else a
            suit, rank = card // 13, card % 13
            worth = worths[card]
            if suit == led and rank > high_led:
                high_led = rank
            if suit == trump and rank > high_trump:
                high_trump = rank
            if worth > best_worth:
                best_worth, best = worth, i
            i += 1
        shift = 2 * self.order[i]
        open_bits = self.open2
        found = mine = -1
        for k in range(2):
            card = a if k == 0 else b
            kept[i] = b if card == a else a
            suit, rank = card // 13, card % 13
            if worths[card] > best_worth:
                value = self.follow2(
                    i + 1, rank if suit == led and rank > high_led else high_led,
                    rank if suit == trump and rank > high_trump else high_trump,
                    worths[card], i, mine)
            else:
                value = self.follow2(
                    i + 1, rank if suit == led and rank > high_led else high_led,
                    rank if suit == trump and rank > high_trump else high_trump,
                    best_worth, best, mine)
            if found < 0 or _better2(value, found, shift, open_bits):
                found, mine = value, value >> shift & 3
                if mine == 2:
                    break  # both tricks: nothing can be better for this player
                if 2 - mine < parent_best:
                    break  # the parent already has better than it could get here
        return found

    def third(self, best: int) -> int:
        """The result once the second trick is down: its winner, and the last trick's.

        The winner of the second trick (place ``best``) leads the card it
        kept; the last trick goes to the highest trump kept if any (one
        player off the led suit is enough to reveal the hidden trump,
        R-REVEAL), else to the highest card kept of the suit led.
        """
        kept = self.kept
        worth = self.worths[kept[best] // 13]
        top = holder = -1
        for i, card in enumerate(kept):
            if worth[card] > top:
                top, holder = worth[card], i
        order = self.order
        return (1 << 2 * order[best]) + (1 << 2 * order[holder])

    def ahead2(self, i: int, high_led: int, high_trump: int, best_worth: int, best: int) -> int:
        """The result from place ``i`` of the second trick if no choice left can change its winner; else -1.

        The players from place ``i`` are taken in turn, each with the trick
        as it stands when they play. One with a single card to play (or two
        that play alike, see :meth:`alike2`) plays it. One with two cards to
        choose from, both worth less than the best card down, loses the
        trick with either (later cards only add rivals) and changes nothing
        for the players after them:

        * R-HEAD looks at the best card of the led suit down. Once trumps
          are known such a card does not beat it (it would be the best card
          down), or the trick holds a trump and R-HEAD asks nothing; before
          the reveal the cards must not beat it, which is checked;
        * R-TRUMP-WIN looks at the best trump down, which such a card does
          not beat (with no trump down, any trump would be the best card);
        * both cards are of the led suit or neither is (R-FOLLOW), so they
          reveal the hidden trump alike (R-REVEAL).

        So whichever card they play, the trick goes on the same way, and
        they only choose which card to keep. If every player with a choice is
        of that kind, the trick goes to the best card once all have played,
        and the last trick to whoever :meth:`keep` says. If a player with a
        choice holds a card that could win the trick or change a later
        player's duty, both cards must be searched, and -1 is returned.
        """
        n = self.n
        trump = self.trump2
        led = self.led2
        worths = self.worths[led]
        hand_a, hand_b = self.hand_a, self.hand_b
        kept = self.kept
        keep_a, keep_b = self.keep_a, self.keep_b
        live = self.live2
        for step in range(i, n):
            a, b = hand_a[step], hand_b[step]
            card = _follows2(a, b, led, high_led, high_trump, trump)
            if card < 0:
                low, high = (a, b) if a < b else (b, a)
                if a // 13 != b // 13 or live & ((1 << high) - (2 << low)):
                    if worths[a] > best_worth or worths[b] > best_worth or (
                            trump < 0 and a // 13 == led and high % 13 > high_led):
                        return -1
                    keep_a[step], keep_b[step] = a, b
                    continue
                card = a  # alike (see alike2)
            kept[step] = keep_a[step] = b if card == a else a
            keep_b[step] = -1
            high_led, high_trump, best_worth, best = _noted(
                card, step, led, trump, worths, high_led, high_trump, best_worth, best)
        worth = self.worths[kept[best] // 13]
        top = holder = -1
        for step in range(i):
            if worth[kept[step]] > top:
                top, holder = worth[kept[step]], step
        order = self.order
        base = 1 << 2 * order[best]
        won = self.keep(i, top, holder, worth, base)
        return base + (1 << 2 * order[won])

    def keep(self, i: int, top: int, holder: int, worth: list[int], base: int) -> int:
        """Who wins the last trick (a place in it) when the players from place ``i`` keep a card in turn.

        ``keep_a[j]`` and ``keep_b[j]`` are the cards the player at place
        ``j`` may keep (``keep_b[j]`` is -1 if they have no choice);
        ``worth`` gives each card's worth in the last trick, which the second
        trick's winner leads; ``top`` is the best worth kept so far, at place
        ``holder``; ``base`` is the second trick's result. The last trick
        goes to the best card kept.
        """
        n = self.n
        keep_a, keep_b = self.keep_a, self.keep_b
        a = b = -1
        while i < n:
            a, b = keep_a[i], keep_b[i]
            if worth[a] > top or (b >= 0 and worth[b] > top):
                break
            i += 1  # this player cannot change the last trick
        else:
            return holder
        order = self.order
        shift = 2 * order[i]
        open_bits = self.open2
        found = -1
        for k in range(2):  # (a loop over numbers: no tuple is made)
            card = a if k == 0 else b
            if card < 0:
                break
            if worth[card] > top:
                won = self.keep(i + 1, worth[card], i, worth, base)
            else:
                won = self.keep(i + 1, top, holder, worth, base)
            if won == i:
                return i  # the last trick: all this player can still win
            if found < 0 or (won != found and _better2(base + (1 << 2 * order[won]),
                                                       base + (1 << 2 * order[found]),
                                                       shift, open_bits)):
                found = won
        return found

    def trick_over(self, leader: int, trump: int, left: int, live: int, top: int) -> int:
        """The result once the last card of a trick is down: its winner, then the rest.

        ``top`` is the place in the trick of its best card judged with the
        hidden trump, which is the winner even before the reveal (a trick of
        one suit is judged alike either way).
        """
        trick = self.trick
        if trump < 0:
            led = trick[0] // 13
            for card in trick:
                if card // 13 != led:
                    trump = self.reveal_suit  # R-REVEAL: this trick is judged with it
                    break
        winner = (leader + top) % self.n
        value = 1 << 2 * winner
        if left == 3:
            for card in trick:
                live ^= 1 << card
            value += self.start(winner, trump, live)
        return value

    def node(self, leader: int, pos: int, trump: int, left: int, have: int, live: int,
             parent_best: int, top: int, high_led: int, high_trump: int) -> int:
        """The result chosen by the player at ``pos`` of the trick.

        ``trick`` is changed while searching and restored.
        ``live`` holds the cards in play (hands and trick). ``parent_best`` is
        what the player who played just before in this trick can already get
        for themselves elsewhere (-1 if nothing): once this player is sure of
        so many tricks that the parent would get fewer, the parent will not
        choose this line and the search stops early (all players together
        take exactly ``left`` tricks from here). ``top`` is the place in the
        trick of its best card so far, judged with the hidden trump (see
        :meth:`trick_over`); ``high_led`` and ``high_trump`` are the highest
        ranks down of the led suit and of known trumps (-1 if none).
        """
        n = self.n
        player = (leader + pos) % n
        held = live & self.dealt_mask[player]  # none of it is in the trick yet
        trick = self.trick
        led = trick[0] // 13 if pos else -1
        if pos:
            legal = follows_mask(held, led, high_led, high_trump, trump)
        else:
            legal = leads_mask(held, trump, self.duty_card)
        cards = self.distinct(legal, player, live)
        shift = 2 * player
        # The most this player can win: every trick left, or all but this one
        # when it is already certain to go to an earlier player; either way
        # only one result gives them that many.
        most = left
        if pos and len(cards) > 1 and self.certain(leader, pos, trump, top, high_led, live) >= 0:
            most = left - 1
        beaten_by = self.beaten_by
        best = best_mine = -1
        ends = pos + 1 == n
        for card in cards:
            suit, rank = card // 13, card % 13
            if pos:
                now = pos if beaten_by[trick[top]] >> card & 1 else top
                led_now = rank if suit == led and rank > high_led else high_led
            else:
                now, led_now = 0, rank
            trump_now = rank if suit == trump and rank > high_trump else high_trump
            trick.append(card)
            if ends:
                value = self.trick_over(leader, trump, left, live, now)
            else:
                value = self.node(leader, pos + 1, trump, left, have, live, best_mine, now,
                                  led_now, trump_now)
            trick.pop()
            mine = (value >> shift) & 3
            if mine > best_mine or (mine == best_mine and self.prefers_tie(value, best, have)):
                best, best_mine = value, mine
                if mine == most:
                    break  # nothing can be better for this player
                if left - mine < parent_best:
                    break  # the parent already has better than it could get here
        return best

    def after(self, hands: Sequence[Sequence[Card]], leader: int, played: Sequence[Card],
              trump: int, left: int, have: int, card: Card) -> int:
        """The exact result of playing ``card`` now (the root of a question)."""
        n = self.n
        pos = len(played)
        held = sum([1 << other.index for cards in hands for other in cards]) ^ 1 << card.index
        trick = self.trick = [other.index for other in played]
        trick.append(card.index)
        live = held + sum([1 << index for index in trick])
        if left == 2:
            return self.last_two(leader, pos + 1, trump, have, -1, held)
        high_led, high_trump, _, top = _summary(trick, trump, self.worths[trick[0] // 13])
        if pos + 1 < n:
            return self.node(leader, pos + 1, trump, left, have, live, -1, top, high_led,
                             high_trump)
        return self.trick_over(leader, trump, left, live, top)



def _summary(trick: list[int], trump: int, worths: list[int]) -> tuple[int, int, int, int]:
    """What the cards of ``trick`` (by index) leave for the players after them.

    The highest ranks down of the led suit and of the known ``trump`` (-1
    if none), and the worth and place of the best card (``worths`` judges
    the cards as the search does, with the hidden trump).
    """
    led = trick[0] // 13
    high_led = high_trump = best_worth = -1
    best = 0
    for place, card in enumerate(trick):
        high_led, high_trump, best_worth, best = _noted(
            card, place, led, trump, worths, high_led, high_trump, best_worth, best)
    return high_led, high_trump, best_worth, best


def _noted(card: int, place: int, led: int, trump: int, worths: list[int], high_led: int,
           high_trump: int, best_worth: int, best: int) -> tuple[int, int, int, int]:
    """The summary of :func:`_summary` once ``card`` is played at ``place`` of the trick."""
    suit, rank = card // 13, card % 13
    if suit == led and rank > high_led:
        high_led = rank
    if suit == trump and rank > high_trump:
        high_trump = rank
    if worths[card] > best_worth:
        best_worth, best = worths[card], place
    return high_led, high_trump, best_worth, best


def _duty_card(indicator: Card, ace_duty: bool) -> int:
    """The one card (by index) whose holder has a lead duty of its own (R-LEAD-ACE), or -1."""
    top = KING if indicator.rank == ACE else ACE
    return 13 * indicator.suit + top if ace_duty else -1


def search_allows(state: DealState) -> list[tuple[Card, ...]]:
    """The cards the search's duties allow the player to move, once for each way it works them out.

    The search reads the position as it does in its own loops (the known
    trump, the R-LEAD-ACE card, the highest led card and trump down) and asks
    :func:`leads_mask` or :func:`follows_mask`, and for a hand of two cards
    also ``leads_of_two`` or ``_follows2``. The tests hold every answer
    to the engine's ``legal_cards()`` over random positions of every profile
    the solver accepts.

    Raises:
        LooError: as :meth:`Solver.solve`, for a profile or a moment the solver refuses.
    """
    _check(state)
    seat: Seat = state.current_player()  # type: ignore[assignment]
    hand = [card.index for card in state.held[seat]]
    held = sum([1 << index for index in hand])
    trump = -1 if state.trump is None else int(state.trump)
    trick = [card.index for card in state.trick]
    if trick:
        led = trick[0] // 13
        worths = _tables(int(state.indicator.suit))[1][led]
        high_led, high_trump, _, _ = _summary(trick, trump, worths)
        masks = [follows_mask(held, led, high_led, high_trump, trump)]
        if len(hand) == 2:
            only = _follows2(hand[0], hand[1], led, high_led, high_trump, trump)
            masks.append(held if only < 0 else 1 << only)
    else:
        duty = _duty_card(state.indicator, state.kind is DealKind.DOUBLE)
        masks = [leads_mask(held, trump, duty)]
        if len(hand) == 2:
            masks.append(sum([1 << index for index in leads_of_two(hand[0], hand[1], trump,
                                                                    duty)]))
    return [tuple(card for card in state.held[seat] if mask >> card.index & 1) for mask in masks]


def leads_mask(held: int, trump: int, duty: int) -> int:
    """The cards a leader holding ``held`` (a mask of card indexes) may lead, as a mask.

    :func:`loo_tutor.engine.legality.legal_leads` over masks: ``trump`` is the trump
    suit's number (-1 while unknown), ``duty`` the card carrying the
    R-LEAD-ACE duty (-1 if none).
    """
    if trump >= 0:
        trumps = held & 0x1FFF << 13 * trump
        if trumps:
            if duty >= 0 and trumps >> duty & 1:
                return 1 << duty  # R-LEAD-ACE
            return trumps  # R-LEAD-TRUMP
    return held


def follows_mask(held: int, led: int, high_led: int, high_trump: int, trump: int) -> int:
    """The cards a follower holding ``held`` (a mask of card indexes) may play, as a mask.

    :func:`loo_tutor.engine.legality.legal_follows` over masks and a summary of the
    trick: the suit ``led``, the highest rank down of the led suit
    (``high_led``) and of the known trump suit (``high_trump``, -1 if none);
    ``trump`` is -1 while trumps are unknown.
    """
    same = held & 0x1FFF << 13 * led
    if same:  # R-FOLLOW
        if trump >= 0 and led != trump and high_trump >= 0:
            return same  # trumped: no card of the led suit can win (R-HEAD)
        heads = same & -(2 << 13 * led + high_led)  # R-HEAD, if any card can
        return heads if heads else same
    if trump >= 0:
        # R-TRUMP-WIN: a trump above every trump down, if held; else R-DISCARD
        trumps = held & 0x1FFF << 13 * trump
        wins = trumps & -(2 << 13 * trump + high_trump) if high_trump >= 0 else trumps
        return wins if wins else held
    return held  # R-DISCARD before the reveal


def leads_of_two(a: int, b: int, trump: int, duty: int) -> tuple[int, ...]:
    """The cards (by index) a leader holding ``a`` and ``b`` may lead.

    :func:`leads_mask` for a hand of two cards, written out for the hot code.
    """
    sa, sb = a // 13, b // 13
    if trump >= 0 and (sa == trump or sb == trump):
        if a == duty or b == duty:
            return (duty,)  # R-LEAD-ACE
        if sa != sb:
            return (a,) if sa == trump else (b,)  # R-LEAD-TRUMP
    return (a, b)


def _follows2(a: int, b: int, led: int, high_led: int, high_trump: int, trump: int) -> int:
    """The one card (by index) a follower holding ``a`` and ``b`` may play, or -1 if both.

    :func:`follows_mask` for a hand of two cards, written out for the hot code.
    """
    sa, sb = a // 13, b // 13
    if sa == led or sb == led:
        if sa != sb:
            return a if sa == led else b  # R-FOLLOW
        if trump >= 0 and led != trump and high_trump >= 0:
            return -1  # trumped: no card of the led suit can win (R-HEAD)
        # R-HEAD: a card that beats the highest of the led suit, if held
        heads_a, heads_b = a % 13 > high_led, b % 13 > high_led
        return -1 if heads_a == heads_b else (a if heads_a else b)
    if trump >= 0:
        # R-TRUMP-WIN: a trump above every trump down, if held; else R-DISCARD
        wins_a = sa == trump and a % 13 > high_trump
        wins_b = sb == trump and b % 13 > high_trump
        return -1 if wins_a == wins_b else (a if wins_a else b)
    return -1  # R-DISCARD before the reveal


def _check(state: DealState) -> None:
    if state.profile != LIMITED:
        raise LooError("best play is worked out for the limited profile only, "
                       f"not {state.profile.name!r}")
    if state.phase is not Phase.PLAY:
        raise LooError("best play needs a deal in its play phase: "
                       + ("the announcements are not over" if state.phase is Phase.ANNOUNCE
                          else "the deal is over"))


def _settled(state: DealState, tricks: dict[Seat, int]) -> Settlement:
    """The engine's settlement of ``state`` if the tricks end as ``tricks`` says."""
    end = state.copy()
    end.tricks = [Trick(seat, (), seat) for seat, won in tricks.items() for _ in range(won)]
    end.trick = []
    end.phase = Phase.OVER
    return end.settlement()


class Solver:
    """Best play, remembering what it has worked out for each deal it is asked about.

    Questions about positions of the same deal share their answers, so the
    second question about a deal is much faster than the first. Keep one
    solver for a deal (or a session); a new one starts with nothing.
    """

    def __init__(self) -> None:
        self._searches: dict[object, _Search] = {}

    def positions_known(self) -> int:
        """How many positions this solver has worked out and remembers, over all its deals."""
        return sum(len(memo) for search in self._searches.values() for memo in search.memo)

    def _search(self, state: DealState) -> _Search:
        """The search for this deal: the same seats in play with the same cards."""
        active = state.active
        dealt = {seat: list(state.held[seat]) for seat in active}
        for trick in state.all_tricks():
            for seat, card in trick.plays:
                dealt[seat].append(card)
        hands = tuple(tuple(sorted(dealt[seat])) for seat in active)
        defender = active.index(state.defender) if state.defender is not None else -1
        spec = (state.indicator, state.kind is DealKind.DOUBLE, defender, hands)
        search = self._searches.get(spec)
        if search is None:
            search = self._searches[spec] = _Search(*spec)
        return search

    def solve(self, state: DealState) -> dict[Card, Outcome]:
        """For every legal card of the player to move, what it leads to.

        Raises:
            LooError: the deal is not in its play phase.
        """
        _check(state)
        search = self._search(state)
        active = state.active
        n = len(active)
        hands = [state.held[seat] for seat in active]
        lead: Seat | None = state.leader
        assert lead is not None
        leader = active.index(lead)
        trick = list(state.trick)
        left = 3 - len(state.tricks)
        past = [0] * n
        for done in state.tricks:
            winner: Seat | None = done.winner
            assert winner is not None
            past[active.index(winner)] += 1
        have = sum(1 << 2 * i for i in range(n) if past[i])
        trump = -1 if state.trump is None else int(state.trump)
        out: dict[Card, Outcome] = {}
        settlements: dict[int, Settlement] = {}  # cards that end alike settle alike
        for card in state.legal_cards():
            value = search.after(hands, leader, trick, trump, left, have, card)
            tricks = {seat: past[i] + (value >> 2 * i & 3) for i, seat in enumerate(active)}
            settlement = settlements.get(value)
            if settlement is None:
                settlement = settlements[value] = _settled(state, tricks)
            out[card] = Outcome(card, tricks, settlement)
        return out

    def best(self, state: DealState, outcomes: dict[Card, Outcome] | None = None) -> Outcome:
        """The best card for the player to move and what it leads to.

        ``outcomes`` may be the answer :meth:`solve` already gave for ``state``.

        Raises:
            LooError: the deal is not in its play phase.
        """
        if outcomes is None:
            outcomes = self.solve(state)
        seat: Seat = state.current_player()  # type: ignore[assignment]
        return _pick(seat, list(outcomes.values()))


def _pick(seat: Seat, outcomes: list[Outcome]) -> Outcome:
    """The outcome ``seat`` prefers; the lowest card among equal results."""
    chosen = outcomes[0]
    for outcome in outcomes[1:]:
        if _better(seat, outcome, chosen) or (
                _same(outcome, chosen) and _lower(outcome.card, chosen.card)):
            chosen = outcome
    return chosen


def _better(seat: Seat, new: Outcome, old: Outcome) -> bool:
    if new.tricks[seat] != old.tricks[seat]:
        return new.tricks[seat] > old.tricks[seat]
    if len(new.looed) != len(old.looed):
        return len(new.looed) > len(old.looed)
    order = list(new.tricks)
    return [new.tricks[s] for s in reversed(order)] < [old.tricks[s] for s in reversed(order)]


def _same(a: Outcome, b: Outcome) -> bool:
    return a.tricks == b.tricks


def _lower(a: Card, b: Card) -> bool:
    return (a.rank, a.suit) < (b.rank, b.suit)


def solve(state: DealState) -> dict[Card, Outcome]:
    """For every legal card of the player to move, the outcome with best play.

    A fresh :class:`Solver` is used; keep one to ask several questions about
    the same deal.

    Raises:
        LooError: the deal is not in its play phase.
    """
    return Solver().solve(state)


def best_card(state: DealState) -> Outcome:
    """The best card for the player to move (see the module doc for "best").

    Raises:
        LooError: the deal is not in its play phase.
    """
    return Solver().best(state)
