"""Computer players: a common interface and two bots.

A bot is anything with a ``name`` and a ``choose(view, rng)`` method
(:class:`Bot`). It receives one seat's :class:`~loo_tutor.engine.observe.PlayerView`,
never the :class:`~loo_tutor.engine.state.DealState`, so it cannot look at cards the
player has not seen, and it must return one of ``view.legal``. All randomness
comes from the ``rng`` passed in, so a seeded generator gives the same choices
every time.

* :class:`FirstBot` takes the first legal action the engine lists.
* :class:`RandomBot` picks uniformly among the legal actions.
* :class:`ThumbBot` follows the usual advice for beginners, tip by tip
  (:class:`Tip` lists them; :meth:`ThumbBot.explain` says which one it used).
* :class:`~loo_tutor.analysis.estimate.SamplingBot`, beside the estimator it
  relies on, tries every legal action in sampled deals and takes the one with
  the best average result.

:func:`play_with_bots` plays a deal to its end with one bot per seat.

>>> import random
>>> from loo_tutor.engine.state import new_deal
>>> state = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=6, rng=random.Random(5))
>>> bots = {seat: ThumbBot() for seat in range(5)}
>>> final = play_with_bots(state, bots, random.Random(5))
>>> final.is_terminal()
True
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from ..engine.cards import ACE, Card, Suit
from ..engine.errors import LooError
from ..engine.legality import Announcement, trick_winner_index
from ..engine.observe import PlayerView, observation
from ..engine.state import Action, Announce, DealState, Play, Seat

__all__ = [
    "Bot",
    "FirstBot",
    "RandomBot",
    "ThumbBot",
    "Tip",
    "play_with_bots",
    "require_turn",
    "thumb_announcement",
    "thumb_card",
]


class Bot(Protocol):
    """What every computer player offers.

    Attributes:
        name: a short label for tables and charts.
    """

    name: str

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """One of ``view.legal``, chosen from what ``view`` shows."""
        ...  # pragma: no cover


def _pick(options: Sequence[Action], rng: random.Random) -> Action:
    """A uniform choice; a forced choice uses no random number."""
    if len(options) == 1:
        return options[0]
    return options[int(rng.random() * len(options))]


@dataclass
class FirstBot:
    """Takes the first legal action the engine lists: the same choice every time."""

    name: str = "first"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The first member of ``view.legal`` (``rng`` is not used)."""
        require_turn(view)
        return view.legal[0]


@dataclass
class RandomBot:
    """Plays any legal action, each with the same chance."""

    name: str = "random"

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """A uniformly random member of ``view.legal``."""
        require_turn(view)
        return _pick(view.legal, rng)


class Tip(str, enum.Enum):
    """The beginner tips :class:`ThumbBot` follows, one per kind of decision."""

    HIGH_TRUMP = "stand with a high trump"
    """A trump of queen or better usually wins a trick, and one trick is enough."""
    STRONG_HAND = "stand with two trumps, or a trump and an ace"
    """Two chances of a trick make a stand safe enough."""
    RICH_MISS = "take the miss when the hand is hopeless and the pool is rich"
    """A weak hand has little to lose by swapping, and a rich pool pays for the risk."""
    PASS_WEAK = "pass a weak hand"
    """A hand with no trump and no ace is likely to be looed."""
    DEFEND_WEAK = "as dealer against one stander, defend rather than risk a loo"
    """The defender can never be looed, and the tricks it wins stay in the pool."""
    LET_MISS_COLLECT = "as dealer against one miss-taker, pass a weak hand"
    """Passing costs nothing more than the ante already paid."""
    STAND_STRONG_DEALER = "as dealer, stand with any trump when only one player is in"
    """Against a single opponent a trump is very likely to take a trick."""
    FORCED = "only one choice is legal"
    """Nothing to decide."""
    LEAD_HIGH = "lead your strongest card while you still need a trick"
    """The strongest card is the likeliest to win the trick it leads to."""
    WIN_CHEAPLY = "win the trick with the cheapest card that does it"
    """When last to play, the lowest winning card keeps the strong ones for later;
    earlier in the trick the strongest winner is safer against those still to play."""
    THROW_LOWEST = "if you cannot win, throw your lowest card"
    """Keep the cards that may still take a trick."""
    GOOD_OF_THE_LOO = "once you have your trick, keep taking tricks from those without one"
    """Every looed player pays into the next pool. So lead strongly, and win with
    the strongest card while a player without a trick is still to play."""
    COAST = "once you have your trick, play your lowest card"
    """The opposite of playing for the good of the loo, kept for comparison."""
    NO_PASS = "stand when passing is not allowed"
    """Only under variant rules (club law), which leave some hands no pass."""
    KEEP_HAND = "keep the hand as dealt"
    """Only for variant rules with exchanges, which the tips do not cover."""


def _strength(card: Card, trump: Suit | None) -> int:
    """How hard a card is to beat: trumps above every plain card."""
    return card.rank + 13 if card.suit is trump else card.rank


def thumb_announcement(hand: Sequence[Card], calls: Sequence[Announcement], trump: Suit | None,
                       pool: Fraction, *, is_dealer: bool, others_in: int,
                       high_trump: int, rich_pool: Fraction) -> tuple[Announcement, Tip]:
    """The announcement the beginner tips give, and the tip behind it.

    Args:
        hand: the dealt hand being announced on.
        calls: the legal announcements (stand is always among them).
        trump: the trump suit (always known in a double deal of the limited rules).
        pool: the pool at start of play.
        is_dealer: whether the announcer is the dealer.
        others_in: how many players are in so far (stood or took the miss).
        high_trump: the lowest rank counted as a high trump (10 = queen).
        rich_pool: the smallest pool counted as rich.
    """
    # Plain loops: this runs for every announcement of every sampled play-out.
    trumps = 0
    high = outside_ace = False
    for card in hand:
        if card.suit is trump:
            trumps += 1
            high = high or card.rank >= high_trump
        elif card.rank == ACE:
            outside_ace = True
    if len(calls) == 1:
        return calls[0], Tip.FORCED
    if high:
        return Announcement.STAND, Tip.HIGH_TRUMP
    if trumps >= 2 or (trumps and outside_ace):
        return Announcement.STAND, Tip.STRONG_HAND
    if is_dealer and others_in == 1 and trumps:
        return Announcement.STAND, Tip.STAND_STRONG_DEALER
    if Announcement.DEFEND in calls:
        return Announcement.DEFEND, Tip.DEFEND_WEAK
    if Announcement.MISS in calls and pool >= rich_pool:
        return Announcement.MISS, Tip.RICH_MISS
    if Announcement.PASS in calls:
        if is_dealer and others_in == 1:
            return Announcement.PASS, Tip.LET_MISS_COLLECT
        return Announcement.PASS, Tip.PASS_WEAK
    return Announcement.STAND, Tip.NO_PASS


def thumb_card(cards: Sequence[Card], trick: Sequence[tuple[Seat, Card]], trump: Suit | None,
               *, need_trick: bool, still_to_play: frozenset[Seat],
               without_trick: frozenset[Seat], good_of_the_loo: bool) -> tuple[Card, Tip]:
    """The card the beginner tips give, and the tip behind it.

    Args:
        cards: the legal cards (from the engine).
        trick: the trick in progress as (seat, card) pairs; empty for a lead.
        trump: the trump suit if known.
        need_trick: whether the player has yet to win a trick.
        still_to_play: the seats that play to this trick after this card.
        without_trick: the opponents still without a trick who can be looed.
        good_of_the_loo: once the player has a trick, keep fighting for tricks
            (otherwise play the lowest card from then on).
    """
    if len(cards) == 1:
        return cards[0], Tip.FORCED
    by_strength = sorted(cards, key=lambda c: (_strength(c, trump), c.suit))
    lowest, strongest = by_strength[0], by_strength[-1]
    if not need_trick and not good_of_the_loo:
        return lowest, Tip.COAST
    tip = Tip.LEAD_HIGH if need_trick else Tip.GOOD_OF_THE_LOO
    if not trick:
        return strongest, tip
    played = [c for _, c in trick]
    winners = [c for c in by_strength
                if trick_winner_index([*played, c], trump) == len(played)]
    if not winners:
        return lowest, Tip.THROW_LOWEST
    if need_trick:
        return (winners[-1] if still_to_play else winners[0]), Tip.WIN_CHEAPLY
    # Safe already: strength matters only against those who could still be looed.
    if still_to_play & without_trick:
        return winners[-1], Tip.GOOD_OF_THE_LOO
    return winners[0], Tip.WIN_CHEAPLY


@dataclass
class ThumbBot:
    """Plays by the rules of thumb given to beginners (see :class:`Tip`).

    Announcing (double deals): stand with a high trump (``high_trump`` or
    better), or with two trumps, or a trump and an outside ace; the dealer
    facing one stander defends a weaker hand, facing one miss-taker passes
    it, and stands with any trump against a single opponent; otherwise take
    the miss if it is free and the pool is at least ``rich_pool``, else pass.

    Playing, until the bot has a trick: lead the strongest legal card; when
    following, win with the cheapest winning card when last to play (the
    strongest one earlier), and throw the lowest card when the trick cannot be
    won. Once it has a trick, with ``good_of_the_loo`` (the default) it plays
    on the same way, keeping its strongest winner for tricks that a player
    without a trick could still take; without it, it plays its lowest card.

    Attributes:
        name: label for tables and charts.
        high_trump: lowest rank of a "high" trump (0 = two … 12 = ace; 10 = queen).
        rich_pool: smallest pool counted as rich.
        good_of_the_loo: play for the good of the loo once safe.
    """

    name: str = "thumb"
    high_trump: int = 10
    rich_pool: Fraction = field(default_factory=lambda: Fraction(9))
    good_of_the_loo: bool = True

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action the tips give for ``view`` (``rng`` is not used)."""
        return self.explain(view)[0]

    def explain(self, view: PlayerView) -> tuple[Action, Tip]:
        """The action the tips give for ``view`` and the tip that gave it."""
        require_turn(view)
        seat = view.seat
        first = view.legal[0]
        if not isinstance(first, (Announce, Play)):
            return first, Tip.KEEP_HAND  # a variant's exchange: the first option keeps all
        if isinstance(first, Announce):
            assert view.hand is not None
            calls = [a.announcement for a in view.legal if isinstance(a, Announce)]
            others_in = sum(1 for s, a in view.announcements if a is not Announcement.PASS)
            call, tip = thumb_announcement(
                view.hand, calls, view.trump, view.pool, is_dealer=seat == view.dealer,
                others_in=others_in, high_trump=self.high_trump, rich_pool=self.rich_pool)
            return Announce(seat, call), tip
        cards = [a.card for a in view.legal if isinstance(a, Play)]
        trick: tuple[tuple[Seat, Card], ...] = ()
        if view.tricks and view.tricks[-1].winner is None:
            trick = view.tricks[-1].plays
        winners = {t.winner for t in view.tricks if t.winner is not None}
        defenders = {s for s, a in view.announcements if a is Announcement.DEFEND}
        without = frozenset(s for s in view.active
                            if s not in winners and s not in defenders and s != seat)
        played = {s for s, _ in trick}
        still = frozenset(s for s in view.active if s not in played and s != seat)
        card, tip = thumb_card(
            cards, trick, view.trump, need_trick=seat not in winners, still_to_play=still,
            without_trick=without, good_of_the_loo=self.good_of_the_loo)
        return Play(seat, card), tip


def require_turn(view: PlayerView) -> None:
    """Refuse a view in which it is not the viewer's turn."""
    if not view.legal:
        raise LooError(f"seat {view.seat} has nothing to choose: it is not that seat's turn")


def play_with_bots(state: DealState, bots: Mapping[Seat, Bot], rng: random.Random) -> DealState:
    """Play ``state`` to the end, each seat to act asking its bot.

    Each bot sees only its own seat's view. ``state`` is left unchanged.

    Returns:
        the finished deal (call :meth:`~loo_tutor.engine.state.DealState.settlement`).

    Raises:
        LooError: a seat that must act has no bot.
        loo_tutor.engine.state.IllegalActionError: a bot chose an action that is not legal.
    """
    while not state.is_terminal():
        seat = state.current_player()
        assert seat is not None
        bot = bots.get(seat)
        if bot is None:
            raise LooError(f"seat {seat} ({state.players[seat]}) must act but has no bot")
        state = state.apply(bot.choose(observation(state, seat), rng))
    return state
