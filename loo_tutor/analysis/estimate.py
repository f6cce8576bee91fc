"""Decisions under hidden cards: estimate an action's result by sampling.

A player to act sees only part of the deal (:mod:`loo_tutor.engine.observe`). To
judge an announcement or a card, :func:`estimate_actions` repeatedly

1. deals the cards the player has not seen at random, keeping everything the
   view shows: the player's own hand, the face-up indicator, every card played
   and by whom, and what those plays prove (a player who did not follow suit
   holds none of it, a leader who led a plain card while trumps were known
   holds no trump, and every other duty of the engine) — see
   :func:`sample_world`;
2. takes the action in that deal and lets a bot play every seat to the end
   (each seat sees only its own view of the sampled deal);
3. records the acting seat's net result for the deal, the dealer's ante and
   any loo payment included (:attr:`~loo_tutor.engine.state.Settlement.net`).

Every legal action is tried in the same sampled deals with the same random
numbers for the play-out, so the differences between actions are measured
more precisely than each value alone. The mean is exact (a ``Fraction``);
the confidence interval uses the normal approximation to the mean of the
samples.

Sampling is uniform over the deals consistent with the view: a proposed deal
is accepted only if replaying the deal's history through the engine finds
every earlier card legal, so the duties of play are the engine's own. By
default players' announcements are not read as hints about their hands (a
player who stood is not assumed to hold a trump); with ``beliefs`` the
sampler keeps only deals in which the others announced as a given
rule-of-thumb bot would have. A player who took the miss is not assumed to
remember the hand they threw in: the view does not keep it. The sampled deals
are deals of the limited rules, the default profile; variant profiles are not
sampled.

>>> import random
>>> from loo_tutor.engine.state import new_deal
>>> from loo_tutor.engine.observe import observation
>>> state = new_deal(["A", "B", "C", "D", "E"], dealer=4, carried=6, rng=random.Random(2))
>>> view = observation(state, 0)
>>> [str(e.action.announcement) for e in estimate_actions(
...     view, samples=50, rng=random.Random(1))]
['stand', 'pass', 'miss']
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import pairwise
from statistics import NormalDist

from ..engine.cards import ACE, CARDS, KING, Card, Suit
from ..engine.errors import LooError
from ..engine.legality import Announcement
from ..engine.observe import PlayerView, observation
from ..engine.rules import LIMITED
from ..engine.sim import finish_in_place as _finish_random
from ..engine.state import Action, Announce, DealKind, DealState, Phase, Play, Seat, start_deal
from .bots import Bot, RandomBot, ThumbBot, require_turn, thumb_announcement, thumb_card

__all__ = [
    "AnnouncementReview",
    "Estimate",
    "SamplingBot",
    "WorldSampler",
    "estimate_action",
    "estimate_actions",
    "finisher",
    "review_announcements",
    "sample_world",
]

_ANNOUNCE, _PLAY = Phase.ANNOUNCE, Phase.PLAY
_MISS_SLOT = -1
_INDICATOR_SLOT = -2
_REDRAWS = 200
"""How many times a hand is drawn again to match a believed announcement."""


@dataclass(frozen=True)
class Estimate:
    """The estimated result of one action for the seat taking it.

    Attributes:
        action: the action estimated.
        mean: the mean net result over the samples (exact).
        low: lower end of the confidence interval.
        high: upper end of the confidence interval.
        samples: how many sampled play-outs the mean is over.
        stdev: the sample standard deviation of the results.
        confidence: the confidence level of ``low`` … ``high``.
    """

    action: Action
    mean: Fraction
    low: float
    high: float
    samples: int
    stdev: float
    confidence: float = 0.95

    def __str__(self) -> str:
        action = self.action
        what = (action.announcement.value if isinstance(action, Announce)
                else str(action.card) if isinstance(action, Play) else str(action))
        return (f"{what}: {float(self.mean):+.3f} "
                f"({self.confidence:.0%} interval {self.low:+.3f} to {self.high:+.3f}, "
                f"{self.samples} samples)")


def _proofs(plays: Sequence[tuple[Seat, Card]], trump: Suit | None, double: bool,
            indicator: Card | None) -> list[tuple[Seat, list[Card]]]:
    """Cards each player of a trick cannot have kept, judging by what they played.

    A player who broke no duty by the card they played proves they held no card
    that the duty would have forced instead: no card of the led suit after not
    following (R-FOLLOW), none that heads the trick after not heading (R-HEAD),
    no winning trump after neither following nor trumping to win
    (R-TRUMP-WIN), no trump after leading a plain card (R-LEAD-TRUMP), and not
    the ace of trumps (or the king under an ace indicator) after leading
    another card (R-LEAD-ACE). ``trump`` is the trump suit as known when the
    trick was played. The replay in :meth:`WorldSampler.sample` checks every
    duty again; these proofs only let a bad proposal fail early.
    """
    proofs: list[tuple[Seat, list[Card]]] = []
    leader, led_card = plays[0]
    led = led_card.suit
    if trump is not None:
        if led is not trump:
            proofs.append((leader, [c for c in CARDS if c.suit is trump]))
        elif double and indicator is not None:
            top = KING if indicator.rank == ACE else ACE
            if led_card.rank != top:
                proofs.append((leader, [c for c in CARDS if c.suit is trump and c.rank == top]))
    high = led_card.rank
    top_trump = high if led is trump else -1
    for seat, card in plays[1:]:
        if card.suit is led:
            trumped = led is not trump and top_trump >= 0  # no led card can win (R-HEAD)
            if not trumped and card.rank < high:
                proofs.append((seat, [c for c in CARDS if c.suit is led and c.rank > high]))
        else:
            proofs.append((seat, [c for c in CARDS if c.suit is led]))
            if trump is not None and not (card.suit is trump and card.rank > top_trump):
                proofs.append((seat, [c for c in CARDS
                                      if c.suit is trump and c.rank > top_trump]))
        if card.suit is led and card.rank > high:
            high = card.rank
        if trump is not None and card.suit is trump and card.rank > top_trump:
            top_trump = card.rank
    return proofs


class WorldSampler:
    """Deals consistent with one player's view, drawn at random.

    Building the sampler reads the view once; :meth:`WorldSampler.sample` then draws as
    many deals as wanted. Each is a :class:`~loo_tutor.engine.state.DealState` at
    the same point of play as the view, whose :func:`~loo_tutor.engine.observe.observation` for the
    view's seat equals the view.

    Args:
        view: what the player sees.
        attempts: how many proposals :meth:`WorldSampler.sample` may reject before giving up.
        beliefs: if given, assume every other player announced as this
            rule-of-thumb bot would have with their hand, and keep only deals
            where they did. Each such hand is drawn again on its own until it
            matches, so the deals are close to, but not exactly, uniform among
            those matching the belief (a hand drawn first does not allow for
            the cards the later ones need). If the table's announcements
            contradict the belief (no such deal turns up in
            ``belief_attempts`` tries), the belief is dropped for the rest of
            this sampler's life and :attr:`WorldSampler.beliefs_dropped` is set.
        belief_attempts: see ``beliefs``.

    Raises:
        LooError: the view is not one that a deal could produce (two copies
            of a card, a seat playing the wrong number of cards, …).
    """

    def __init__(self, view: PlayerView, attempts: int = 20_000,
                 beliefs: ThumbBot | None = None, belief_attempts: int = 2_000) -> None:
        self.view = view
        self.attempts = attempts
        self.belief_attempts = belief_attempts
        self.beliefs_dropped = False
        """Whether the belief about the others' announcements had to be dropped."""
        count = len(view.players)
        said = dict(view.announcements)
        double = view.kind is DealKind.DOUBLE
        self._carried = view.pool - LIMITED.ante
        self._count = count
        self._double = double
        # A slot is a dealt hand (its seat), the miss, or the indicator.
        fixed: dict[int, list[Card]] = {s: [] for s in range(count)}
        sizes = dict.fromkeys(range(count), 3)
        if double:
            fixed[_MISS_SLOT] = []
            sizes[_MISS_SLOT] = 3
        fixed[_INDICATOR_SLOT] = []
        sizes[_INDICATOR_SLOT] = 1

        def source(seat: Seat) -> int:
            call = said.get(seat)
            if call is Announcement.MISS or call is Announcement.DEFEND:
                return _MISS_SLOT
            return seat

        # What the plays prove about the cards a seat still holds unseen.
        barred: dict[int, set[Card]] = {}
        trump = view.trump if double else None
        for trick in view.tricks:
            for seat, card in trick.plays:
                fixed[source(seat)].append(card)
            for bar in _proofs(trick.plays, trump, double, view.indicator):
                barred.setdefault(source(bar[0]), set()).update(bar[1])
            led = trick.plays[0][1].suit
            void_seen = any(card.suit is not led for _, card in trick.plays)
            if void_seen and trump is None:
                trump = view.trump  # revealed after this trick (R-REVEAL)
        if view.hand is not None:
            fixed[source(view.seat)].extend(view.hand)
        if view.indicator is not None:
            fixed[_INDICATOR_SLOT].append(view.indicator)
        seen = [c for cards in fixed.values() for c in cards]
        if len(set(seen)) != len(seen):
            raise LooError("the view shows the same card twice, so no deal matches it")
        for slot, cards in fixed.items():
            if len(cards) > sizes[slot]:
                raise LooError("the view shows more cards from one hand than it holds")
        self._fixed = fixed
        seen_set = set(seen)
        self._unknown = [c for c in CARDS if c not in seen_set]
        self._checks: dict[int, tuple[list[Announcement], Announcement, bool, int]] = {}
        if beliefs is not None and double:
            self._checks = _announcement_checks(view)
        self._beliefs = beliefs
        # Open places, the slots most likely to be refused first: those with a
        # believed announcement to match, then those with the most barred
        # cards (the order does not bias: proposals are uniform, the tests the same).
        self._open: list[tuple[int, int, frozenset[Card]]] = sorted(
            ((slot, sizes[slot] - len(cards), frozenset(barred.get(slot, set())))
             for slot, cards in fixed.items() if sizes[slot] > len(cards)),
            key=lambda entry: (entry[0] not in self._checks, -len(entry[2])))
        self._history: list[tuple[bool, Seat, object]] = [
            (False, seat, call) for seat, call in view.announcements]
        for trick in view.tricks:
            self._history.extend((True, seat, card) for seat, card in trick.plays)
        self.rejected = 0
        """How many proposals have been rejected so far."""

    def sample(self, rng: random.Random) -> DealState:
        """One deal consistent with the view, drawn uniformly among them.

        Raises:
            LooError: no consistent deal was found in ``attempts`` proposals.
        """
        for tries in range(self.attempts):
            world = self._propose(rng)
            if world is not None:
                return world
            self.rejected += 1
            if self._checks and tries + 1 >= self.belief_attempts:
                self._checks = {}
                self.beliefs_dropped = True
        raise LooError(f"no deal consistent with the view of seat {self.view.seat} was "
                       f"found in {self.attempts} tries")

    def _propose(self, rng: random.Random) -> DealState | None:
        # Draw the open places one card at a time (a partial Fisher-Yates
        # shuffle: pool[:at] is drawn, pool[at:] is not), the most constrained
        # first, so that a card a slot cannot hold rejects the proposal before
        # the rest is drawn. A hand that must match a believed announcement is
        # drawn again on its own until it does (up to _REDRAWS times).
        pool = self._unknown[:]
        size = len(pool)
        rand = rng.random
        slots = {slot: list(cards) for slot, cards in self._fixed.items()}
        at = 0
        for slot, need, barred in self._open:
            target = slots[slot]
            known = len(target)
            check = self._checks.get(slot)
            for _ in range(_REDRAWS):
                start = at
                fits = True
                for _ in range(need):
                    j = at + int(rand() * (size - at))
                    card = pool[j]
                    pool[j] = pool[at]
                    pool[at] = card
                    at += 1
                    if card in barred:
                        fits = False
                        break
                    target.append(card)
                if fits and (check is None or self._believed(target, check)):
                    break
                if check is None:
                    return None
                at = start  # put the cards back and draw this hand again
                del target[known:]
            else:
                return None
        view = self.view
        hands = [tuple(slots[s]) for s in range(self._count)]
        miss = tuple(slots[_MISS_SLOT]) if self._double else None
        state = start_deal(view.players, view.dealer, self._carried, hands, miss,
                           slots[_INDICATOR_SLOT][0])
        for is_play, seat, what in self._history:
            if is_play:
                play = Play(seat, what)  # type: ignore[arg-type]
                if not state.is_legal(play):
                    return None
                state.push(play)
            else:
                state.push(Announce(seat, what))  # type: ignore[arg-type]
        return state


    def _believed(self, hand: list[Card],
                  check: tuple[list[Announcement], Announcement, bool, int]) -> bool:
        """Whether the believed bot, dealt ``hand``, would have said what was said."""
        bot = self._beliefs
        assert bot is not None
        calls, said, is_dealer, others_in = check
        call, _ = thumb_announcement(hand, calls, self.view.trump, self.view.pool,
                                     is_dealer=is_dealer, others_in=others_in,
                                     high_trump=bot.high_trump, rich_pool=bot.rich_pool)
        return call is said


def _announcement_checks(view: PlayerView
                         ) -> dict[int, tuple[list[Announcement], Announcement, bool, int]]:
    """For each other seat that has announced: its options then, its call, whether
    it dealt, and how many players were in before it, keyed by its dealt hand's slot.

    Which announcements are open never depends on the cards, so any cards do
    for replaying them.
    """
    pack = CARDS
    count = len(view.players)
    hands = [tuple(pack[3 * s:3 * s + 3]) for s in range(count)]
    state = start_deal(view.players, view.dealer, view.pool - LIMITED.ante, hands,
                       tuple(pack[3 * count:3 * count + 3]), pack[3 * count + 3])
    checks = {}
    for seat, call in view.announcements:
        if seat != view.seat:
            checks[seat] = (state.legal_announcements(), call, seat == view.dealer,
                            len(state.active))
        state.push(Announce(seat, call))
    return checks


def sample_world(view: PlayerView, rng: random.Random) -> DealState:
    """One deal consistent with ``view``, drawn uniformly (see :class:`WorldSampler`)."""
    return WorldSampler(view).sample(rng)


Finisher = Callable[[DealState, random.Random], object]


def finisher(bot: Bot | Mapping[Seat, Bot]) -> Finisher:
    """A function that plays a deal to its end in place.

    Args:
        bot: the bot for every seat, or a bot for each seat that may act.

    Each seat decides from its own view of the deal. For
    :class:`~loo_tutor.analysis.bots.RandomBot` and :class:`~loo_tutor.analysis.bots.ThumbBot`
    the same decisions are made without building a
    :class:`~loo_tutor.engine.observe.PlayerView` at every step (the inputs are read
    straight from the seat's own cards and the table), which is several times
    faster; any other bot is asked through :func:`~loo_tutor.engine.observe.observation`.
    """
    if not isinstance(bot, Mapping):
        if type(bot) is RandomBot:
            return _finish_random  # the same uniform draws as RandomBot.choose
        if type(bot) is ThumbBot:
            return _thumb_finisher(defaultdict(lambda: bot))
        return _view_finisher(defaultdict(lambda: bot))
    if all(type(b) is ThumbBot for b in bot.values()):
        return _thumb_finisher(bot)  # type: ignore[arg-type]
    return _view_finisher(bot)


def _view_finisher(bots: Mapping[Seat, Bot]) -> Finisher:
    def finish(state: DealState, rng: random.Random) -> None:
        while state.phase is not Phase.OVER:
            seat = state.current_player()
            assert seat is not None
            view = observation(state, seat)
            bot = bots[seat]
            action = bot.choose(view, rng)
            if action not in view.legal:
                raise LooError(f"bot {bot.name!r} chose an illegal action: {action}")
            state.push(action)
    return finish


def _thumb_finisher(bots: Mapping[Seat, ThumbBot]) -> Finisher:
    def finish(state: DealState, rng: random.Random) -> None:
        while state.phase is _ANNOUNCE:
            seat: Seat = state.current_player()  # type: ignore[assignment]
            bot = bots[seat]
            call, _ = thumb_announcement(
                state.hands[seat], state.legal_announcements(), state.trump,
                state.pool, is_dealer=seat == state.dealer, others_in=len(state.active),
                high_trump=bot.high_trump, rich_pool=bot.rich_pool)
            state.push(Announce(seat, call))
        while state.phase is _PLAY:
            seat = state.current_player()  # type: ignore[assignment]
            cards = state.legal_cards()
            if len(cards) == 1:
                state.push(Play(seat, cards[0]))
                continue
            winners = {t.winner for t in state.tricks}
            active = state.active
            without = frozenset(s for s in active if s not in winners
                                and s != state.defender and s != seat)
            trick = state.trick_plays() if state.trick else ()
            played = {s for s, _ in trick}
            still = frozenset(s for s in active if s not in played and s != seat)
            card, _ = thumb_card(
                cards, trick, state.trump, need_trick=seat not in winners,
                still_to_play=still, without_trick=without,
                good_of_the_loo=bots[seat].good_of_the_loo)
            state.push(Play(seat, card))
    return finish


def _summary(counts: dict[Fraction, int], confidence: float
             ) -> tuple[Fraction, float, float, float]:
    """Exact mean, interval ends and standard deviation of counted results."""
    n = sum(counts.values())
    mean = sum((value * k for value, k in counts.items()), Fraction(0)) / n
    if n < 2:
        return mean, -math.inf, math.inf, 0.0
    spread = sum((value - mean) ** 2 * k for value, k in counts.items()) / (n - 1)
    stdev = math.sqrt(spread)
    half = NormalDist().inv_cdf(0.5 + confidence / 2) * stdev / math.sqrt(n)
    centre = float(mean)
    return mean, centre - half, centre + half, stdev


def _settled(seat: Seat) -> Callable[[DealState], Fraction]:
    """``seat``'s net result of a finished deal, remembering results already settled.

    Within one estimate the pool and the dealer never change, so the result
    depends only on who collected, who defended, who played and who won each
    trick; the engine's settlement is asked once for each such outcome.
    """
    known: dict[tuple[object, ...], Fraction] = {}

    def net(state: DealState) -> Fraction:
        key = (state.collected_by, state.defender, state.active,
               *[t.winner for t in state.tricks])
        value = known.get(key)
        if value is None:
            value = known[key] = state.settlement().net[seat]
        return value
    return net


def estimate_actions(view: PlayerView, *, samples: int, rng: random.Random,
                     rollout: Bot | None = None, actions: Sequence[Action] | None = None,
                     confidence: float = 0.95, beliefs: ThumbBot | None = None,
                     progress: Callable[[int], None] | None = None) -> list[Estimate]:
    """Estimate every legal action (or ``actions``) of the seat to act.

    Args:
        view: the acting seat's view; it must be that seat's turn.
        samples: how many sampled deals (each action is played out once in each).
        rng: the source of every random number; the same seed gives the same result.
        rollout: the bot that plays every seat after the action (default
            :class:`~loo_tutor.analysis.bots.RandomBot`).
        actions: the actions to estimate, all from ``view.legal`` (default: all).
        confidence: the level of the interval, e.g. 0.95.
        beliefs: assume the other players announced as this bot would have
            (see :class:`WorldSampler`); by default nothing is assumed.
        progress: called with the number of sampled deals done, now and then.

    Returns:
        one :class:`Estimate` per action, in the order of ``actions``.

    Raises:
        LooError: it is not the seat's turn, an action is not legal, ``samples``
            is below 1, or the view matches no deal.
    """
    if not view.legal:
        raise LooError(f"seat {view.seat} is not to act, so it has no decision to estimate")
    chosen = list(view.legal if actions is None else actions)
    for action in chosen:
        if action not in view.legal:
            raise LooError(f"{action} is not a legal action for seat {view.seat} here")
    if samples < 1:
        raise LooError(f"samples must be at least 1, not {samples}")
    finish = finisher(rollout if rollout is not None else RandomBot())
    sampler = WorldSampler(view, beliefs=beliefs)
    settle = _settled(view.seat)
    counts: list[dict[Fraction, int]] = [{} for _ in chosen]
    for done in range(samples):
        world = sampler.sample(rng)
        seed = rng.getrandbits(64)
        for action, tally in zip(chosen, counts, strict=True):
            trial = world.copy()
            trial.push(action)
            finish(trial, random.Random(seed))
            net = settle(trial)
            tally[net] = tally.get(net, 0) + 1
        if progress is not None and (done + 1) % 256 == 0:
            progress(done + 1)
    found = []
    for action, tally in zip(chosen, counts, strict=True):
        mean, low, high, stdev = _summary(tally, confidence)
        found.append(Estimate(action, mean, low, high, samples, stdev, confidence))
    return found


def estimate_action(view: PlayerView, action: Action, *, samples: int, rng: random.Random,
                    rollout: Bot | None = None, confidence: float = 0.95) -> Estimate:
    """Estimate one legal action (see :func:`estimate_actions`)."""
    return estimate_actions(view, samples=samples, rng=rng, rollout=rollout,
                            actions=[action], confidence=confidence)[0]


@dataclass
class SamplingBot:
    """Chooses the legal action with the best estimated result.

    Every legal action is tried in the same ``samples`` deals sampled
    consistently with the view and played out by ``rollout``
    (:func:`estimate_actions`); the highest mean wins,
    ties going to the earlier action in ``view.legal``. A forced action is
    returned without sampling.

    Attributes:
        name: label for tables and charts.
        samples: sampled deals per decision.
        rollout: the bot that plays every seat in the sampled deals.
        beliefs: if set, the sampled deals are only those in which the other
            players announced as this bot would have (see
            :class:`WorldSampler`).
    """

    name: str = "sampling"
    samples: int = 200
    rollout: Bot = field(default_factory=ThumbBot)
    beliefs: ThumbBot | None = None

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        """The action with the highest estimated mean result."""
        require_turn(view)
        if len(view.legal) == 1:
            return view.legal[0]
        found = estimate_actions(view, samples=self.samples, rng=rng, rollout=self.rollout,
                                 beliefs=self.beliefs)
        return max(found, key=lambda e: e.mean).action


@dataclass(frozen=True)
class AnnouncementReview:
    """One of a seat's announcements, judged after the deal by sampled estimates.

    Attributes:
        chosen: the announcement made.
        mine: the estimate of the announcement made.
        best: the estimate with the highest mean (``mine`` itself when it is the best).
        lost: whether the announcement made cost value: its interval lies wholly
            below the best one's, so the samples tell them apart.
    """

    chosen: Announcement
    mine: Estimate
    best: Estimate
    lost: bool


def review_announcements(states: Sequence[DealState], seat: Seat,
                         estimate: Callable[[PlayerView], list[Estimate]]
                         ) -> list[AnnouncementReview]:
    """Each announcement ``seat`` made in ``states`` (a deal's states in order),
    judged by ``estimate`` of every announcement it could have made, from the
    seat's own view at that moment (:func:`estimate_actions` with the caller's
    samples and seed)."""
    out = []
    for before, after in pairwise(states):
        if before.phase is Phase.ANNOUNCE and before.current_player() == seat:
            chosen = after.announcements[-1][1]
            found = estimate(observation(before, seat))
            best = max(found, key=lambda e: e.mean)
            mine = next(e for e in found if isinstance(e.action, Announce)
                        and e.action.announcement is chosen)
            lost = best is not mine and mine.high < best.low  # the intervals do not meet
            out.append(AnnouncementReview(chosen, mine, best, lost))
    return out
