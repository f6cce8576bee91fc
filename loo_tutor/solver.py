"""Best play when every hand is known: an exact solver for the tricks.

From any moment of the play phase, :func:`solve` tells what each legal card
of the player to move leads to when everybody plays their best from then on:
the tricks each active player ends with, the payouts, who is looed and every
seat's net change for the deal. The hidden trump of a simple deal counts as
known to the solver ("all hands known"), but it still only turns face up when
R-REVEAL says so, and every card the solver considers is one the engine's
duties allow at that moment (:mod:`loo_tutor.legality` decides, as it does for
:class:`~loo_tutor.state.DealState`).

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

>>> from loo_tutor.data import example
>>> from loo_tutor.record import replay
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
as one; and in the second trick a player whose choice provably changes
nothing is not asked to choose. Once nobody still to play in the second
trick may beat the best card down, the players left only choose which card
to keep for the last trick, and that small choice is worked out directly
instead of trick by trick. A player who has found a line giving them every
trick they can still win stops looking. See ``benchmarks/solver.py`` for the
figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .cards import ACE, KING, Card, Suit
from .errors import LooError
from .legality import legal_follows, legal_leads, trick_winner_index
from .rules import LIMITED
from .state import DealKind, DealState, Phase, Seat, Settlement, Trick


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


class _Search:
    """The game tree of the remaining tricks, over compact positions.

    Players are numbered by their place among the active seats (0 is the
    first active seat from the dealer's left). A result is one integer with
    two bits of tricks per player: player ``i``'s tricks from the current
    trick on are ``(value >> 2 * i) & 3``.
    """

    __slots__ = (
        "ace_duty",
        "beaten_by",
        "duty_card",
        "indicator",
        "last_memo",
        "loo_bits",
        "masks",
        "memo",
        "n",
        "nodes",
        "reveal",
        "suit_lists",
    )

    def __init__(self, indicator: Card, ace_duty: bool, defender: int,
                 hands: Sequence[Sequence[Card]]) -> None:
        n = self.n = len(hands)
        # For each suit, the cards of the deal's active hands from low to high,
        # as (bit of the card's index, player holding it).
        self.suit_lists: list[list[tuple[int, int]]] = [[], [], [], []]
        for index, player in sorted((c.index, p) for p, hand in enumerate(hands) for c in hand):
            self.suit_lists[index // 13].append((1 << index, player))
        self.reveal = reveal = indicator.suit
        # For each card, the mask of the cards that beat it in a last trick
        # in which both are played: higher cards of its suit, and every card
        # of the trump suit when it is not a trump itself.
        trumps = 0x1FFF << 13 * reveal
        self.beaten_by = []
        for index in range(52):
            higher = (0x1FFF << 13 * (index // 13)) & ~((2 << index) - 1)
            self.beaten_by.append(higher if index // 13 == reveal else higher | trumps)
        self.indicator = indicator
        self.ace_duty = ace_duty
        top = KING if indicator.rank == ACE else ACE
        # The one card whose holder has a lead duty of its own (R-LEAD-ACE).
        self.duty_card = 13 * indicator.suit + top if ace_duty else -1
        # Even bit 2i set for every player who can be looed (not the defender).
        self.loo_bits = sum(1 << 2 * i for i in range(n) if i != defender)
        self.memo: dict[object, int] = {}
        self.last_memo: dict[object, int] = {}
        # The cards each player holds as a mask, kept alongside the hands in the search.
        self.masks: list[int] = [0] * n
        self.nodes = 0

    # -- comparing results ---------------------------------------------------

    def prefers_tie(self, new: int, old: int, have: int) -> bool:
        """Between two results equally good for the chooser: rules 2 and 3 of the module doc.

        ``have`` marks the players who had already won a trick before the
        current one; the others are looed if they win nothing more.
        """
        open_bits = self.loo_bits & ~have
        looed_new = (open_bits & ~(new | new >> 1)).bit_count()
        looed_old = (open_bits & ~(old | old >> 1)).bit_count()
        if looed_new != looed_old:
            return looed_new > looed_old
        return new < old

    # -- positions -------------------------------------------------------------

    def key(self, live: int, leader: int, trump: Suit | None, have: int) -> object:
        """What a trick's start is remembered by; ``live`` masks the cards still held.

        For each suit, the players holding its cards from low to high; the
        three suits other than the indicator's are sorted, because they play
        alike. Which exact cards are held no longer matters, only their order.
        """
        suits = [tuple([player for bit, player in cards if live & bit])
                 for cards in self.suit_lists]
        reveal = self.reveal
        special = suits[reveal]
        del suits[reveal]
        suits.sort()
        duty = self.duty_card
        held_duty = duty >= 0 and live >> duty & 1
        return special, tuple(suits), leader, trump is None, have, held_duty

    def start(self, hands: list[tuple[Card, ...]], leader: int, trump: Suit | None, left: int,
              have: int, live: int) -> int:
        """The result of the remaining ``left`` tricks from a trick's start."""
        if left == 1:
            return self.last_trick(hands, leader, trump, live)
        key = self.key(live, leader, trump, have)
        value = self.memo.get(key)
        if value is None:
            value = self.node(hands, leader, 0, [], trump, left, have, live, -1, 0)
            self.memo[key] = value
        return value

    def last_trick(self, hands: list[tuple[Card, ...]], leader: int, trump: Suit | None,
                   live: int) -> int:
        """The last trick: one card each, so nothing is left to choose."""
        key = (live, leader, trump)
        value = self.last_memo.get(key)
        if value is None:
            n = self.n
            cards = [hands[(leader + i) % n][0] for i in range(n)]
            if trump is None:
                led = cards[0].suit
                for card in cards:
                    if card.suit is not led:
                        trump = self.reveal  # R-REVEAL
                        break
            value = 1 << 2 * ((leader + trick_winner_index(cards, trump)) % n)
            self.last_memo[key] = value
        return value

    def distinct(self, legal: list[Card], live: int) -> list[Card]:
        """The legal cards less those that play exactly like a card kept.

        Two cards of a suit in one hand are alike when no card in play lies
        between them (and neither carries the R-LEAD-ACE duty).
        """
        kept: list[Card] = []
        duty = self.duty_card
        for card in legal:
            index = card.index
            for other in kept:
                if other.suit is not card.suit or index == duty or other.index == duty:
                    continue
                low, high = (other.index, index) if other.index < index else (index, other.index)
                if not live & ((1 << high) - (2 << low)):
                    break
            else:
                kept.append(card)
        return kept

    def idle(self, hands: list[tuple[Card, ...]], leader: int, pos: int, trick: list[Card],
             trump: Suit | None, legal: list[Card]) -> bool:
        """Whether a choice between both cards of a hand in the second trick changes nothing.

        A card that cannot win the trick when it is played never wins it
        (later cards only add rivals); before the reveal it must lose both as
        things stand and if the trick turns out to be judged with the hidden
        trump (R-REVEAL). Such a card changes no later player's duties either
        (R-HEAD and R-TRUMP-WIN look only at the best led-suit card and the
        best trump), and two such cards of one hand are either both of the
        led suit or both not, so the reveal comes or not alike. If neither
        card can win, the choice only decides which card is kept for the last
        trick, and it changes nothing if neither kept card can win there:

        * a card not of the indicator's suit wins the last trick only if its
          suit is led there with a lower card; the leader is whoever wins this
          trick, that is the player winning it now or a later player holding
          a card that beats it, keeping their other card;
        * any card loses if another player keeps a card that beats it: an
          earlier player's last card, or both cards of a later player.
        """
        reveal = self.reveal
        n = self.n
        led = trick[0].suit
        for card in legal:
            if card.suit is not led and card.suit is not reveal:
                continue  # neither led suit nor trump: it cannot win (R-WIN)
            trick.append(card)
            winning = trick_winner_index(trick, trump) == pos or (
                trump is None and trick_winner_index(trick, reveal) == pos)
            trick.pop()
            if winning:
                return False
        leads: list[Card] | None = None
        for kept in legal:
            beaten = self.beaten_by[kept.index]
            for step in range(n):
                if step == pos:
                    continue
                for card in hands[(leader + step) % n]:
                    if not beaten >> card.index & 1:
                        break  # this card would not beat the kept one
                else:
                    break  # every card this player may keep beats it
            else:
                if kept.suit is reveal:
                    return False
                if leads is None:
                    leads = self.leads(hands, leader, pos, trick, trump)
                if any(lead.suit is kept.suit and lead.rank < kept.rank for lead in leads):
                    return False
        return True

    def certain(self, hands: list[tuple[Card, ...]], leader: int, pos: int, trick: list[Card],
                trump: Suit | None, best: int) -> int:
        """``best``, the place in the trick of the best card so far, if it is sure to win; else -1.

        It is sure when the players from ``pos`` on cannot beat it; see
        :meth:`settled` for the conditions and what follows from them.
        """
        block = self.beaten_by[trick[best].index]
        led = trick[0].suit
        if trump is None:
            high = max(card.index for card in trick if card.suit is led)
            block |= (0x1FFF << 13 * led) & ~((2 << high) - 1)
        n = self.n
        masks = self.masks
        suit = 0x1FFF << 13 * led
        for step in range(pos, n):
            held = masks[(leader + step) % n]
            if held & suit:
                held &= suit  # R-FOLLOW: only a card of the led suit may be played
            if held & block:
                return -1  # a card this player may play could beat the best one
        return best

    def settled(self, hands: list[tuple[Card, ...]], leader: int, pos: int, trick: list[Card],
                trump: Suit | None, have: int, top: int) -> int:
        """The result from ``pos`` of the second trick if its winner is already certain, else -1.

        The winner is certain when nobody still to play may play a card that beats
        the best card down (judged with the hidden trump too: a trick is judged
        with it as soon as anyone fails to follow, R-REVEAL). Before the
        reveal, nobody still to play may hold a led-suit card above the highest
        one down either, so that R-HEAD asks the same of every later player
        whatever the earlier ones play. Then what each later player may play
        does not depend on the others, and whether the trick reveals the trump
        does not depend on any choice (a player without the led suit must throw
        another suit). The players still to play then only choose which card
        they keep for the last trick, which the winner leads with its one card
        left; that trick goes to the highest trump kept, else the highest card
        of the suit led (also before the reveal: a trick of one suit is judged
        alike either way).
        """
        best = self.certain(hands, leader, pos, trick, trump, top)
        if best < 0:
            return -1
        n = self.n
        reveal = self.reveal
        winner = (leader + best) % n
        lead = hands[winner][0].suit
        led = trick[0].suit
        # What a card is worth in the last trick: trumps, then the suit led there.
        worth = [0] * 4
        worth[lead] = 16
        worth[reveal] = 32
        top = holder = -1
        for step in range(pos):
            player = (leader + step) % n
            card = hands[player][0]
            kept = worth[card.suit] and worth[card.suit] + card.rank
            if kept > top:
                top, holder = kept, player
        keeps: list[tuple[int, list[int]]] = []
        for step in range(pos, n):
            player = (leader + step) % n
            first, second = hands[player]
            if (first.suit is led) is not (second.suit is led):
                # R-FOLLOW: the card of the led suit is played, the other kept
                first = second = second if first.suit is led else first
            keeps.append((player, [worth[first.suit] and worth[first.suit] + first.rank,
                                   worth[second.suit] and worth[second.suit] + second.rank]))
        base = 1 << 2 * winner
        return base + (1 << 2 * self.keep(keeps, 0, top, holder, base, have))

    def keep(self, keeps: list[tuple[int, list[int]]], i: int, top: int, holder: int, base: int,
             have: int) -> int:
        """Who wins the last trick when the players of ``keeps[i:]`` choose in turn.

        Each is listed with the worth of the cards they may keep (see
        :meth:`settled`); ``top`` is the best worth kept so far, by ``holder``.
        """
        while i < len(keeps):
            player, options = keeps[i]
            if options[0] > top or options[1] > top:
                break
            i += 1  # this player cannot change the last trick
        else:
            return holder
        found = -1
        for kept in options:
            if kept > top:
                won = self.keep(keeps, i + 1, kept, player, base, have)
            else:
                won = self.keep(keeps, i + 1, top, holder, base, have)
            if won == player:
                return player
            if found < 0 or (won != found and self.prefers_tie(
                    base + (1 << 2 * won), base + (1 << 2 * found), have)):
                found = won
        return found

    def leads(self, hands: list[tuple[Card, ...]], leader: int, pos: int, trick: list[Card],
              trump: Suit | None) -> list[Card]:
        """The cards the last trick may be led with, seen from ``pos`` in the second trick.

        The winner of this trick leads its other card: the player winning it
        now (as things stand, or with the hidden trump if it is revealed), or
        a later player with a card that beats the trick so far.
        """
        n = self.n
        reveal = self.reveal
        led = trick[0].suit
        found = [hands[(leader + trick_winner_index(trick, trump)) % n][0]]
        if trump is None:
            found.append(hands[(leader + trick_winner_index(trick, reveal)) % n][0])
        for step in range(pos + 1, n):
            hand = hands[(leader + step) % n]
            for i, card in enumerate(hand):
                if card.suit is not led and card.suit is not reveal:
                    continue  # cannot win (R-WIN)
                trick.append(card)
                beats = trick_winner_index(trick, trump) == pos or (
                    trump is None and trick_winner_index(trick, reveal) == pos)
                trick.pop()
                if beats:
                    found.extend(hand[:i] + hand[i + 1:])
        return found

    def trick_over(self, hands: list[tuple[Card, ...]], leader: int, trick: list[Card],
                   trump: Suit | None, left: int, have: int, live: int, top: int) -> int:
        """The result once the last card of a trick is down: its winner, then the rest.

        ``top`` is the place in the trick of its best card judged with the
        hidden trump, which is the winner even before the reveal (a trick of
        one suit is judged alike either way).
        """
        if trump is None:
            led = trick[0].suit
            for other in trick:
                if other.suit is not led:
                    trump = self.reveal  # R-REVEAL: this trick is judged with it
                    break
        winner = (leader + top) % self.n
        value = 1 << 2 * winner
        if left > 1:
            for card in trick:
                live ^= 1 << card.index
            value += self.start(hands, winner, trump, left - 1, have | value, live)
        return value

    def node(self, hands: list[tuple[Card, ...]], leader: int, pos: int, trick: list[Card],
             trump: Suit | None, left: int, have: int, live: int, parent_best: int,
             top: int) -> int:
        """The result chosen by the player at ``pos`` of the trick.

        ``hands`` and ``trick`` are changed while searching and restored.
        ``live`` holds the cards in play (hands and trick). ``parent_best`` is
        what the player who played just before in this trick can already get
        for themselves elsewhere (-1 if nothing): once this player is sure of
        so many tricks that the parent would get fewer, the parent will not
        choose this line and the search stops early (all players together
        take exactly ``left`` tricks from here). ``top`` is the place in the
        trick of its best card so far, judged with the hidden trump (see
        :meth:`trick_over`).
        """
        self.nodes += 1
        if left == 2 and pos:
            value = self.settled(hands, leader, pos, trick, trump, have, top)
            if value >= 0:
                return value
        n = self.n
        player = (leader + pos) % n
        hand = hands[player]
        if pos:
            legal = legal_follows(hand, trick, trump)
        else:
            legal = legal_leads(hand, trump, self.ace_duty, self.indicator)
        if len(legal) > 1:
            legal = self.distinct(legal, live)
            if left == 2 and pos and len(legal) == 2 \
                    and self.idle(hands, leader, pos, trick, trump, legal):
                legal = legal[:1]
        shift = 2 * player
        # The most this player can win: every trick left, or all but this one
        # when it is already certain to go to an earlier player; either way
        # only one result gives them that many.
        most = left
        if pos and len(legal) > 1 and left == 3 \
                and self.certain(hands, leader, pos, trick, trump, top) >= 0:
            most = left - 1
        masks = self.masks
        held = masks[player]
        beaten_by = self.beaten_by
        best = best_mine = -1
        ends = pos + 1 == n
        for card in legal:
            i = hand.index(card)
            hands[player] = hand[:i] + hand[i + 1:]
            masks[player] = held ^ 1 << card.index
            trick.append(card)
            now = pos if pos and beaten_by[trick[top].index] >> card.index & 1 else top
            if ends:
                value = self.trick_over(hands, leader, trick, trump, left, have, live, now)
            else:
                value = self.node(hands, leader, pos + 1, trick, trump, left, have, live,
                                  best_mine, now)
            trick.pop()
            mine = (value >> shift) & 3
            if mine > best_mine or (mine == best_mine and self.prefers_tie(value, best, have)):
                best, best_mine = value, mine
                if mine == most:
                    break  # nothing can be better for this player
                if left - mine < parent_best:
                    break  # the parent already has better than it could get here
        hands[player] = hand
        masks[player] = held
        return best

    def after(self, hands: list[tuple[Card, ...]], leader: int, trick: list[Card],
              trump: Suit | None, left: int, have: int, card: Card) -> int:
        """The exact result of playing ``card`` now (the root of a question)."""
        n = self.n
        pos = len(trick)
        player = (leader + pos) % n
        live = 0
        for cards in (*hands, trick):
            for other in cards:
                live |= 1 << other.index
        self.masks = [sum(1 << other.index for other in cards) for cards in hands]
        self.masks[player] ^= 1 << card.index
        hand = hands[player]
        i = hand.index(card)
        hands[player] = hand[:i] + hand[i + 1:]
        trick.append(card)
        try:
            top = trick_winner_index(trick, self.reveal)
            if pos + 1 < n:
                return self.node(hands, leader, pos + 1, trick, trump, left, have, live, -1, top)
            return self.trick_over(hands, leader, trick, trump, left, have, live, top)
        finally:
            trick.pop()
            hands[player] = hand


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
        out: dict[Card, Outcome] = {}
        for card in state.legal_cards():
            value = search.after(hands, leader, trick, state.trump, left, have, card)
            tricks = {seat: past[i] + (value >> 2 * i & 3) for i, seat in enumerate(active)}
            out[card] = Outcome(card, tricks, _settled(state, tricks))
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
