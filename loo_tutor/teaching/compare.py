"""One deal played under two profiles side by side (the book's Variants part).

Both sides get the same players, dealer, carried balance and shuffled pack;
each deals it by its own rules. Then, step by step, the left side's player
chooses an action and the right side repeats it when its rules allow it. When
they do not, the right side's player chooses for themselves and the step is
marked as diverging, with the rule that refused the left side's action. Steps
where the two sides offer different legal options are marked as well, even
when the action could be repeated. At the end both deals are settled.

All the deciding is done by the engine
(:meth:`~loo_tutor.engine.state.DealState.check` and
:meth:`~loo_tutor.engine.state.DealState.legal_actions`); this module only keeps the
two deals in step.

>>> duel = compare_deals("limited", "club_law", seed=8)
>>> duel.play_to_end()
>>> [str(step.rule) for step in duel.diverging][:1]
['V-CLUB-LAW']
>>> left, right = duel.settlements()
>>> sum(right.net.values()) == duel.right.start.carried - right.carried_next
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..analysis.bots import Bot
from ..analysis.computer_players import bot_named, play_on
from ..engine import three_card
from ..engine.cards import Card, full_deck
from ..engine.errors import LooError
from ..engine.profiles import describe, profile_from_rules
from ..engine.rules import Profile, RuleId, RuleKey, VariantRuleId
from ..engine.state import (
    Action,
    Announce,
    DealKind,
    DealState,
    Exchange,
    Phase,
    Play,
    deal_from_deck,
    deals_miss,
    shuffle_and_cut,
)
from ..records.record import action_text, replay
from .narrate import Narration, narrate_action

PRESETS: dict[str, Any] = {
    "limited": "limited",
    "blenheim": "blenheim",
    "stakes: everyone": {"base": "limited", "stakes": "everyone"},
    "loo: unlimited": {"base": "limited", "loo": "unlimited"},
    "loo: mixed(10)": {"base": "limited", "loo": "mixed(10)"},
    "single_pot: miss": {"base": "limited", "single_pot": "miss"},
    "reveal: immediate": {"base": "limited", "reveal": "immediate"},
    "simple_ace_duty": {"base": "limited", "simple_ace_duty": True},
    "miss_position: first": {"base": "limited", "miss_position": "first"},
    "two_player_top_trump": {"base": "limited", "two_player_top_trump": True},
    "trump_lead: opening": {"base": "limited", "trump_lead": "opening"},
    "no_heading": {"base": "limited", "no_heading": True},
    "club_law": {"base": "limited", "club_law": True},
    "irish": {"base": "limited", "irish": True},
    "three_card_flush": {"base": "limited", "three_card_flush": True},
    "irish + three_card_flush": {"base": "limited", "irish": True, "three_card_flush": True},
    "undivided": {"base": "limited", "undivided": True},
}
"""The profiles offered for a comparison, by name.

They are the three-card bundles and, each on its own, every option of SPEC
§11.1 that can change a single deal. The session options (``seats``,
``first_dealer`` and ``session_end``) change nothing inside one deal of five
to eight players.
"""

PLAYERS = ("Anna", "Ben", "Carla", "Dan", "Emil")
"""The table used when no record is given."""


def profile_named(value: Any) -> Profile:
    """A profile from a preset name, a record's ``rules`` value, or a Profile.

    Raises:
        MalformedRecord: the name or value is not a profile.
    """
    if isinstance(value, Profile):
        return value
    if isinstance(value, str) and value in PRESETS:
        value = PRESETS[value]
    profile = profile_from_rules(value)
    if not three_card.plays(profile):
        raise LooError(f"rules: {describe(profile)} is not three-card Loo and cannot be "
                       "compared deal by deal here (see the Pam Loo page)")
    return profile


def pack_of(state: DealState) -> list[Card]:
    """A 52-card pack that ``state``'s own rules deal into exactly its cards.

    The inverse of :func:`~loo_tutor.engine.state.split_deck`: the hands (and miss)
    go back into their circuits, then the indicator, then the stock, then the
    remaining cards in the order of :func:`~loo_tutor.engine.cards.full_deck`. A
    deal given by its hands can then be dealt again under another profile.
    """
    profile = state.profile
    count = len(state.players)
    piles = [state.hands[seat] for seat in state.order]
    if state.miss is not None and deals_miss(state.kind, profile):
        piles.insert(0 if three_card.params_of(profile).miss_first else count - 1, state.miss)
    width = len(piles)
    pack: list[Card | None] = [None] * (3 * width)
    for k, pile in enumerate(piles):
        for i, card in enumerate(pile):
            pack[k + i * width] = card
    dealt = [card for card in pack if card is not None]
    dealt += [state.indicator, *state.stock]
    used = set(dealt)
    return dealt + [card for card in full_deck() if card not in used]


@dataclass(frozen=True)
class Side:
    """One side of a comparison: its profile and the deal as it started."""

    profile: Profile
    start: DealState

    @property
    def name(self) -> str:
        """The profile and its options in a few words."""
        return describe(self.profile)


@dataclass(frozen=True)
class CompareStep:
    """One step of the two deals.

    Attributes:
        number: 1 for the first step.
        left_action: what the left side did, or ``None`` if it waited.
        right_action: what the right side did, or ``None`` if it waited.
        left: the left deal after the step.
        right: the right deal after the step.
        repeated: whether the right side repeated the left side's action.
        rule: the rule that made the sides part at this step: the rule that
            refused the left side's action on the right; or, when only one
            side acts because the other has no such phase, the rule that
            gives it that phase (V-EXCHANGE, V-SINGLE-POT, R-ANN-SIMPLE);
            ``None`` otherwise.
        refusal: the engine's sentence for that refusal, if any.
        options_differ: whether the player to act had different legal
            options on the two sides.
        left_words: what happened on the left, in words.
        right_words: what happened on the right, in words.
        left_before_options: the legal options on the left before the step,
            as :func:`option_text` writes them.
        right_before_options: the legal options on the right before the step.
        note: why only one side acted, when that is so.
    """

    number: int
    left_action: Action | None
    right_action: Action | None
    left: DealState
    right: DealState
    repeated: bool
    rule: RuleKey | None
    refusal: str | None
    options_differ: bool
    left_words: Narration
    right_words: Narration
    left_before_options: tuple[str, ...] = ()
    right_before_options: tuple[str, ...] = ()
    note: str = ""

    @property
    def diverges(self) -> bool:
        """Whether the two sides did different things at this step."""
        return not self.repeated

    @property
    def explanation(self) -> str:
        """One or two sentences saying why the step is marked, or '' if it is not."""
        if self.repeated:
            if self.options_differ:
                return ("Both sides did the same, but the rules offered different choices: "
                        f"left {_options(self.left_before_options)}; "
                        f"right {_options(self.right_before_options)}.")
            return ""
        if self.refusal is not None:
            rule = f" ({self.rule})" if self.rule is not None else ""
            return f"The right side could not repeat this: {self.refusal.rstrip('.')}{rule}."
        if self.note:
            return self.note
        players = self.left.players
        left_seat = self.left_action.seat if self.left_action is not None else 0
        right_seat = self.right_action.seat if self.right_action is not None else 0
        return (f"The deals have gone apart: {players[left_seat]} acts on the left and "
                f"{players[right_seat]} on the right, so each side chooses for itself.")


def _options(options: Sequence[str]) -> str:
    return ", ".join(options) if options else "nothing"


_PHASE_ORDER = {Phase.ANNOUNCE: 0, Phase.EXCHANGE: 1, Phase.PLAY: 2, Phase.OVER: 3}


def _alone(action: Action, acting: DealState, other: DealState, side: str
           ) -> tuple[RuleKey | None, str]:
    """The rule and sentence for a step that only one side takes."""
    others = "right" if side == "left" else "left"
    if other.is_terminal():
        return None, f"The {others} deal is already over; the {side} side plays on alone."
    if isinstance(action, Exchange):
        return VariantRuleId.EXCHANGE, (
            f"Only the {side} side's rules have exchanges from the stock (V-EXCHANGE); "
            f"the {others} side waits.")
    if isinstance(action, Announce) and other.kind is DealKind.SIMPLE:
        if acting.kind is DealKind.SIMPLE:  # a single pot with a miss
            return VariantRuleId.SINGLE_POT, (
                f"In the {side} side's single pot the dealer's left may swap for the miss "
                f"(V-SINGLE-POT); the {others} side's simple deal has no announcements.")
        return RuleId.ANN_SIMPLE, (
            f"The {others} side's deal is simple, with no announcements (R-ANN-SIMPLE); "
            f"the {side} side's rules announce in every deal.")
    return None, f"The {side} side is still announcing; the {others} side waits."


def option_text(action: Action) -> str:
    """An action as an option in a few of the reader's words: ``stand``, ``pass``,
    ``7♥``, ``discard 2♣ 3♦``, ``keep``.

    >>> from loo_tutor.engine.cards import parse_card
    >>> from loo_tutor.engine.state import Play
    >>> option_text(Play(0, parse_card("7H")))
    '7♥'
    """
    if isinstance(action, Play):
        return action.card.shown
    if isinstance(action, Exchange):
        return ("discard " + " ".join(c.shown for c in action.cards)) if action.cards else "keep"
    return action_text(action)


_DOES = {"stand": "stands", "pass": "passes", "miss": "takes the miss",
         "defend": "defends the pool", "keep": "keeps the hand"}


def action_words(state: DealState, action: Action) -> str:
    """Who did what, in a short sentence without its full stop: ``Ann plays 7♥``.

    >>> from loo_tutor.engine.cards import parse_card
    >>> from loo_tutor.engine.state import Play, new_deal
    >>> deal = new_deal(["A", "B", "C", "D", "E"], 0, 0, random.Random(1))
    >>> action_words(deal, Play(1, parse_card("7H")))
    'B plays 7♥'
    """
    name = state.players[action.seat]
    text = option_text(action)
    if isinstance(action, Play):
        return f"{name} plays {text}"
    if isinstance(action, Exchange) and action.cards:
        return f"{name} exchanges {text.removeprefix('discard ')}"
    return f"{name} {_DOES.get(text, text)}"


@dataclass
class Comparison:
    """The same deal under two profiles, stepped together.

    Build one with :func:`compare_deals`. :meth:`step` advances both deals by
    one step, :meth:`play_to_end` until both are over.

    Attributes:
        left: the left side (its actions are repeated on the right).
        right: the right side.
        steps: the steps taken so far.
    """

    left: Side
    right: Side
    chooser: Bot
    seed: int
    steps: list[CompareStep] = field(default_factory=list)
    _rngs: tuple[random.Random, random.Random] = field(init=False, repr=False)
    _saved: list[tuple[Any, Any]] = field(init=False, repr=False, default_factory=list)

    def __post_init__(self) -> None:
        self._rngs = (random.Random(self.seed), random.Random(self.seed + 1))

    # -- where the two deals stand ------------------------------------------------------

    @property
    def left_state(self) -> DealState:
        """The left deal now."""
        return self.steps[-1].left if self.steps else self.left.start

    @property
    def right_state(self) -> DealState:
        """The right deal now."""
        return self.steps[-1].right if self.steps else self.right.start

    def is_over(self) -> bool:
        """Whether both deals are over."""
        return self.left_state.is_terminal() and self.right_state.is_terminal()

    @property
    def diverging(self) -> list[CompareStep]:
        """The steps at which the two sides did different things."""
        return [step for step in self.steps if step.diverges]

    @property
    def marked(self) -> list[CompareStep]:
        """The steps that diverge or whose legal options differ."""
        return [step for step in self.steps if step.diverges or step.options_differ]

    def settlements(self) -> tuple[Any, Any]:
        """Both settlements, left then right.

        Raises:
            LooError: a deal is not over yet.
        """
        return self.left_state.settlement(), self.right_state.settlement()

    # -- stepping ----------------------------------------------------------------------------

    def step(self) -> CompareStep | None:
        """Advance by one step; ``None`` once both deals are over.

        When the two deals are in different phases (one still announcing or
        exchanging, the other already playing or over) only the side that is
        behind acts, and the step says which rule gives it that phase.
        """
        left, right = self.left_state, self.right_state
        if left.is_terminal() and right.is_terminal():
            return None
        self._saved.append((self._rngs[0].getstate(), self._rngs[1].getstate()))
        number = len(self.steps) + 1
        behind = _PHASE_ORDER[left.phase] - _PHASE_ORDER[right.phase]
        if behind == 0:
            made = self._both(number, left, right)
        elif behind < 0:  # only the left side acts
            action = play_on(left, self.chooser, self._rngs[0])
            after = left.apply(action)
            rule, note = _alone(action, left, right, "left")
            made = CompareStep(number, action, None, after, right, False, rule, None, False,
                               narrate_action(left, action, after), Narration(""), note=note)
        else:
            action = play_on(right, self.chooser, self._rngs[1])
            after = right.apply(action)
            rule, note = _alone(action, right, left, "right")
            made = CompareStep(number, None, action, left, after, False, rule, None, False,
                               Narration(""), narrate_action(right, action, after), note=note)
        self.steps.append(made)
        return made

    def _both(self, number: int, left: DealState, right: DealState) -> CompareStep:
        left_rng, right_rng = self._rngs
        left_options = tuple(sorted(option_text(a) for a in left.legal_actions()))
        right_options = tuple(sorted(option_text(a) for a in right.legal_actions()))
        differ = (left.current_player() != right.current_player()
                  or left_options != right_options)
        action = play_on(left, self.chooser, left_rng)
        left_after = left.apply(action)
        rule: RuleKey | None = None
        refusal: str | None = None
        repeated = False
        if left.current_player() != right.current_player():
            right_action = play_on(right, self.chooser, right_rng)  # already apart: no rule to blame
        else:
            verdict = right.check(action)
            repeated = verdict.ok
            if repeated:
                right_action = action
            else:
                right_action = play_on(right, self.chooser, right_rng)
                rule, refusal = verdict.rule, verdict.message
        right_after = right.apply(right_action)
        return CompareStep(number, action, right_action, left_after, right_after,
                           repeated, rule, refusal, differ,
                           narrate_action(left, action, left_after),
                           narrate_action(right, right_action, right_after),
                           left_options, right_options)

    def play_to_end(self) -> None:
        """Step until both deals are over."""
        while self.step() is not None:
            pass

    def back(self) -> None:
        """Take the last step back (the same step is taken again by :meth:`step`)."""
        if self.steps:
            self.steps.pop()
            left_state, right_state = self._saved.pop()
            self._rngs[0].setstate(left_state)
            self._rngs[1].setstate(right_state)


def deal_pack(source: Mapping[str, Any] | None, seed: int, players: Sequence[str] = PLAYERS,
              dealer: int | None = None, carried: Fraction | int = 3
              ) -> tuple[tuple[str, ...], int, Fraction, list[Card]]:
    """The deal both sides play: players, dealer seat, carried balance and pack.

    From a record: its players, dealer and carried balance, and a pack that its
    own rules deal into its cards (its announcements and tricks are not used).
    Otherwise a pack shuffled and cut with ``seed``; the dealer is the last
    player unless given.

    Raises:
        MalformedRecord: the record does not describe a deal.
    """
    if source is not None:
        start = replay(source).states[0]
        return start.players, start.dealer, start.carried, pack_of(start)
    deck, _ = shuffle_and_cut(random.Random(seed))
    seat = len(players) - 1 if dealer is None else dealer
    return tuple(players), seat, Fraction(carried), deck


def compare_deals(left: Any = "limited", right: Any = "club_law", seed: int = 0, *,
                  record: Mapping[str, Any] | None = None, players: Sequence[str] = PLAYERS,
                  dealer: int | None = None, carried: Fraction | int = 3,
                  chooser: str | Bot = "thumb") -> Comparison:
    """Deal one pack under two profiles, ready to be stepped together.

    Args:
        left: the left profile: a preset name of :data:`PRESETS`, a record's
            ``rules`` value, or a :class:`~loo_tutor.engine.rules.Profile`.
        right: the right profile, likewise.
        seed: shuffles the pack (without a record) and seeds the choosers.
        record: a deal record to take the table and the cards from.
        players: the names, clockwise, when no record is given.
        dealer: the dealer's seat when no record is given (default: the last).
        carried: the carried balance when no record is given; 0 makes a
            simple deal under most profiles.
        chooser: the computer player who chooses for every seat: a name of
            :data:`~loo_tutor.analysis.computer_players.BOTS` (``"thumb"``, the
            beginner's rules of thumb, or ``"random"``), or a bot.

    Raises:
        LooError: a profile cannot seat these players, or is not three-card Loo.
        MalformedRecord: the record or a profile's ``rules`` value is malformed.
    """
    sides = profile_named(left), profile_named(right)
    names, seat, balance, pack = deal_pack(record, seed, players, dealer, carried)
    starts = [deal_from_deck(names, seat, balance, pack, profile) for profile in sides]
    pick = bot_named(chooser, "chooser")
    return Comparison(Side(sides[0], starts[0]), Side(sides[1], starts[1]), pick, seed)


__all__ = [
    "PLAYERS",
    "PRESETS",
    "CompareStep",
    "Comparison",
    "Side",
    "action_words",
    "compare_deals",
    "deal_pack",
    "option_text",
    "pack_of",
    "profile_named",
]
