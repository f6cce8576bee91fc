"""Making exercises: from a kind and a seed (:func:`make`), or from a deal record
(:func:`from_record`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ...engine.cards import Card, parse_card
from ...engine.errors import LooError, MalformedRecord
from ...engine.legality import Announcement
from ...engine.observe import observation
from ...engine.profiles import describe, profile_from_rules
from ...engine.rules import RuleId, RuleKey
from ...engine.session import Session
from ...engine.state import Action, Announce, DealKind, DealState, Phase, Play, new_deal
from ...engine.three_card import three_card_deal
from ...records.record import action_text, check, record_from_state, replay
from .base import DEFEND, MISS, NAMES, PASS, REPORTED_RULES, STAND, Exercise, Kind
from .dealer import DealerChoice
from .find_illegal import FindIllegal
from .legal_cards import LegalCards
from .session_net import SessionNet
from .settle import Settle
from .trick import TrickWinner

_CARRIED = (Fraction(3), Fraction(6), Fraction(9), Fraction(12), Fraction(4), Fraction(7),
            Fraction(10, 3), Fraction(13, 3))
_TRIES = 500


# -- generating -------------------------------------------------------------------------------


def _rng(kind: Kind, seed: int) -> random.Random:
    """The random generator of one exercise; seeded from the kind and the seed."""
    return random.Random(f"loo-tutor exercise {int(kind)} seed {seed}")


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise LooError(f"seed {seed!r} is not a whole number, 0 or more")
    return seed


def _table(rng: random.Random, simple: bool | None = None
           ) -> tuple[tuple[str, ...], int, Fraction]:
    """Players, dealer and carried balance of a generated deal."""
    count = rng.choice((5, 5, 5, 6, 6, 7))
    dealer = rng.randrange(count)
    if simple is None:
        simple = rng.random() < 0.4
    carried = Fraction(0) if simple else rng.choice(_CARRIED)
    return NAMES[:count], dealer, carried


def _play_on(state: DealState, rng: random.Random) -> list[DealState]:
    """Every state from ``state`` to the end of the deal, each choice drawn from the legal ones.

    The exercises draw their own choices with ``rng.choice`` rather than use
    :mod:`loo_tutor.engine.sim`, whose draws may change for speed: a teacher's
    seed must keep giving the same exercise.
    """
    states = [state]
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


_CASES = ("sole-stand", "sole-miss", "several", "several-miss", "all-pass")


def _announce(state: DealState, rng: random.Random, case: str) -> list[DealState]:
    """Let the non-dealers of a double deal announce so as to reach one row of the dealer's table.

    Returns every state on the way, ``state`` first.
    """
    count = len(state.order) - 1
    calls = [PASS] * count
    if case == "sole-stand":
        calls[rng.randrange(count)] = STAND
    elif case == "sole-miss":
        calls[rng.randrange(count)] = MISS
    elif case in ("several", "several-miss"):
        players_in = sorted(rng.sample(range(count), rng.randint(2, count)))
        for i in players_in:
            calls[i] = STAND
        if case == "several-miss":
            calls[rng.choice(players_in)] = MISS
    states = [state]
    for call in calls:
        seat = state.current_player()
        assert seat is not None
        state = state.apply(Announce(seat, call))
        states.append(state)
    return states


def _double_deal(rng: random.Random, case: str, dealer_call: Announcement | None = None
                 ) -> DealState:
    """A double deal announced up to the dealer (or collected), with an optional dealer's call."""
    players, dealer, carried = _table(rng, simple=False)
    state = _announce(new_deal(players, dealer, carried, rng), rng, case)[-1]
    if dealer_call is not None and dealer_call in state.legal_announcements():
        state = state.apply(Announce(state.dealer, dealer_call))
    return state


def _hand_to_play(state: DealState) -> tuple[Card, ...]:
    """The hand of the player who is to play a card, or ``()`` outside play."""
    seat = state.current_player()
    if state.phase is not Phase.PLAY or seat is None:
        return ()
    return observation(state, seat).hand or ()


def _refuses_some(state: DealState) -> bool:
    """Whether some card of the hand to play is not legal."""
    return len(state.legal_cards()) < len(_hand_to_play(state))


def _make_legal_cards(rng: random.Random, seed: int) -> Exercise:
    want_refusal = rng.random() < 0.85
    fallback: DealState | None = None
    for _ in range(_TRIES):
        players, dealer, carried = _table(rng)
        states = _play_on(new_deal(players, dealer, carried, rng), rng)
        candidates = []
        for state in states:
            if len(_hand_to_play(state)) < 2:
                continue
            fallback = fallback or state
            if not want_refusal or _refuses_some(state):
                candidates.append(state)
        if candidates:
            return LegalCards(rng.choice(candidates), seed)
    assert fallback is not None
    return LegalCards(fallback, seed)


def _tricks_of(states: Sequence[DealState]) -> list[tuple[DealState, DealState, int]]:
    """Each finished trick of a play-out: the state as it was led, the state after it, its number."""
    found = []
    led: DealState | None = None
    for state in states:
        if led is not None and len(state.tricks) > len(led.tricks):
            found.append((led, state, len(state.tricks)))
            led = None
        if state.phase is Phase.PLAY and not state.trick_cards():
            led = state
    return found


def _make_trick(rng: random.Random, seed: int) -> Exercise:
    simple = rng.random() < 0.5
    want_reveal = simple and rng.random() < 0.6
    want_mixed = rng.random() < 0.7
    fallback: tuple[DealState, DealState, int] | None = None
    for _ in range(_TRIES):
        players, dealer, carried = _table(rng, simple)
        states = _play_on(new_deal(players, dealer, carried, rng), rng)
        tricks = _tricks_of(states)
        if not tricks:
            continue
        fallback = fallback or tricks[0]
        if want_reveal:
            chosen = [t for t in tricks if t[0].trump is None and t[1].trump is not None]
        elif want_mixed:
            chosen = [t for t in tricks
                      if len({c.suit for _, c in t[1].tricks[t[2] - 1].plays}) > 1]
        else:
            chosen = tricks
        if chosen:
            return TrickWinner(*rng.choice(chosen), seed=seed)
    assert fallback is not None
    return TrickWinner(*fallback, seed=seed)


def _make_dealer(rng: random.Random, seed: int) -> Exercise:
    case = rng.choices(_CASES, weights=(3, 2, 2, 2, 1))[0]
    return DealerChoice(_double_deal(rng, case), seed)


def _make_settle(rng: random.Random, seed: int) -> Exercise:
    flavour = rng.choices(("simple", "double", "defend", "collect"), weights=(2, 4, 1, 1))[0]
    if flavour == "simple":
        players, dealer, carried = _table(rng, simple=True)
        state = new_deal(players, dealer, carried, rng)
    elif flavour == "defend":
        state = _double_deal(rng, "sole-stand", DEFEND)
    elif flavour == "collect":
        case = rng.choice(("all-pass", "sole-miss"))
        state = _double_deal(rng, case, PASS)
    else:
        state = _double_deal(rng, rng.choice(_CASES[:4]))
    return Settle(_play_on(state, rng)[-1], seed)


_CARD_MISTAKES = (RuleId.PLAY_HAND, RuleId.LEAD_TRUMP, RuleId.LEAD_ACE, RuleId.FOLLOW,
                  RuleId.HEAD, RuleId.TRUMP_WIN)
_CALL_MISTAKES = (RuleId.ANN_ORDER, RuleId.ANN_MISS_ONCE, RuleId.ANN_DEALER_SOLE_STAND,
                  RuleId.ANN_DEALER_SOLE_MISS, RuleId.DEFEND)


def _make_find_illegal(rng: random.Random, seed: int) -> Exercise:
    announce_error = rng.random() < 0.25
    want = rng.choice(_CALL_MISTAKES if announce_error else _CARD_MISTAKES)
    for attempt in range(_TRIES):
        players, dealer, carried = _table(
            rng, simple=False if announce_error or want is RuleId.LEAD_ACE else None)
        states = [new_deal(players, dealer, carried, rng)]
        if announce_error:
            states = _announce(states[0], rng, rng.choice(_CASES[:4]))
        states += _play_on(states.pop(), rng)
        # Look for the rule wanted in a deal with play (a record of announcements alone would
        # show that an announcement is wrong); after many deals without it, take any mistake.
        choosy = attempt < _TRIES - 50
        if choosy and not states[-1].all_tricks():
            continue
        record = _break(states, rng, announce_error, want if choosy else None)
        if record is not None:
            return FindIllegal(record, seed)
    raise LooError("no deal with a possible mistake was found")  # pragma: no cover


def _break(states: Sequence[DealState], rng: random.Random, announce_error: bool,
           want: RuleKey | None = None) -> dict[str, Any] | None:
    """A record of the deal with one action replaced by an illegal one, or ``None``.

    As the engine's property tests do, one step of a legal deal is replaced
    by an action that is not among the legal options there; the deal then
    goes on with legal choices, so the illegal action is not simply the last
    one. A wrong card is a card of the player's own hand. When an illegal
    announcement leaves the deal unplayable (the miss in two hands, say) the
    record stops with the announcements. With ``want``, only a mistake the
    engine refuses under that rule will do.
    """
    choices: list[tuple[int, Action]] = []
    said = dict(states[-1].announcements)
    dealt = record_from_state(states[-1])
    for i, state in enumerate(states[:-1]):
        seat = state.current_player()
        if seat is None:
            continue
        if announce_error and state.phase is Phase.ANNOUNCE:
            legal = state.legal_announcements()
            choices += [(i, Announce(seat, a)) for a in Announcement if a not in legal]
            # a later player's own announcement, said out of turn (R-ANN-ORDER)
            choices += [(i, Announce(later, said[later])) for later in said
                        if later != seat and later not in dict(state.announcements)]
        elif not announce_error and state.phase is Phase.PLAY:
            legal_cards = state.legal_cards()
            hand = observation(state, seat).hand or ()
            choices += [(i, Play(seat, c)) for c in hand if c not in legal_cards]
            # a card of another hand, of a thrown-in hand or of the unclaimed miss (R-PLAY-HAND)
            choices += [(i, Play(seat, c)) for c in _not_held(dealt, hand, state)]
    # Pick the rule first, so that rarer mistakes (R-HEAD, R-LEAD-ACE) come up
    # as often as the common ones; prefer a mistake that is not the last action.
    by_rule: dict[RuleKey | None, list[tuple[int, Action]]] = {}
    for i, action in choices:
        by_rule.setdefault(states[i].check(action).rule, []).append((i, action))
    rules = sorted(by_rule, key=str) if want is None else [r for r in by_rule if r is want]
    for rule in rng.sample(rules, len(rules)):
        fallback = None
        group = by_rule[rule]
        for i, action in rng.sample(group, len(group)):
            record = _forced_record(states[i], action, states[-1])
            if record is None:
                continue
            before = states[i]
            done = len(before.announcements) + sum(len(t.plays) for t in before.all_tricks())
            total = len(record.get("announce") or ()) + sum(map(len, record.get("tricks") or ()))
            # a record that lost its tricks would show by its layout that an announcement is wrong
            whole = bool(record.get("tricks")) or not states[-1].all_tricks()
            if total > done + 1 and whole:
                return record
            fallback = fallback or record
        if fallback is not None:
            return fallback
    return None


def _not_held(dealt: Mapping[str, Any], hand: Sequence[Card], state: DealState) -> list[Card]:
    """A few cards of the deal that are not in ``hand`` and not yet played: one of each
    other hand and of the miss, so that R-PLAY-HAND comes up no more than the other rules."""
    played = {card for trick in state.all_tricks() for _, card in trick.plays}
    groups = [*dict(dealt["hands"]).values(), dealt.get("miss") or []]
    found = []
    for group in groups:
        cards = [c for c in map(parse_card, group) if c not in hand and c not in played]
        found += cards[:1]
    return found


def _forced_record(before: DealState, action: Action, end: DealState
                   ) -> dict[str, Any] | None:
    """The record of the legal deal ``end`` with ``action`` put in at ``before``, if usable.

    The record is edited, not the deal: an illegal announcement replaces the
    word said there, and one said out of turn is moved there; an illegal card
    swaps places with the card played there, which its player plays later
    instead, so the record stays whole, and a card nobody plays (of a
    thrown-in hand, say) simply replaces it.
    """
    record = record_from_state(end)
    name = before.players[action.seat]
    if isinstance(action, Announce) and action.seat != before.current_player():
        calls = list(record["announce"].items())
        calls.remove((name, action.announcement.value))
        calls.insert(len(before.announcements), (name, action.announcement.value))
        record["announce"] = dict(calls)
    elif isinstance(action, Announce):
        record["announce"][name] = action.announcement.value
    elif isinstance(action, Play):
        tricks: list[list[str]] = record["tricks"]
        here = len(before.tricks), len(before.trick)
        wanted = action.card.text
        spot = next(((t, k) for t, trick in enumerate(tricks) for k, text in enumerate(trick)
                     if text == wanted), None)
        played = tricks[here[0]][here[1]]
        tricks[here[0]][here[1]] = wanted
        if spot is not None:  # a card played later changes places; one never played is put in
            tricks[spot[0]][spot[1]] = played
    else:  # an exchange: exercises are set in the limited profile, which has none
        return None
    try:
        result = check(record)
    except MalformedRecord:  # e.g. the miss played from two hands after a second "miss"
        record.pop("tricks", None)
        result = check(record)
    error = result["error"]
    if error is None or error["action"] != action_text(action) or error["player"] != name:
        return None
    return record


def _make_session(rng: random.Random, seed: int) -> Exercise:
    count = rng.choice((5, 5, 6))
    session = Session(NAMES[:count], deals=rng.choice((3, 3, 4)), seed=rng.randrange(2**32),
                      first_dealer=rng.randrange(count))
    deals = []
    while not session.is_over():
        dealt = three_card_deal(session.start_deal())  # the exercises are set in limited Loo
        final = _play_on(dealt, rng)[-1]
        session.finish_deal(final)
        deals.append(final)
    exercise = SessionNet(deals, seed)
    assert exercise.final() == session.end(), "the session and the exercise disagree"
    return exercise


_MAKERS = {
    Kind.LEGAL_CARDS: _make_legal_cards,
    Kind.TRICK: _make_trick,
    Kind.DEALER: _make_dealer,
    Kind.SETTLE: _make_settle,
    Kind.FIND_ILLEGAL: _make_find_illegal,
    Kind.SESSION: _make_session,
}


def make(kind: int | str | Kind, seed: int) -> Exercise:
    """The exercise of ``kind`` (1 to 6) generated from ``seed``.

    The same kind and seed always give the same exercise, so a teacher can
    assign "exercise 4, seed 1234". The position is a deal the engine played
    with seeded random legal choices; the answers are computed by the engine
    when asked for.

    Raises:
        LooError: the kind is not 1 to 6, or the seed is not a whole number ≥ 0.

    >>> make(4, 7).name
    'exercise 4, seed 7'
    """
    chosen = Kind.parse(kind)
    number = _check_seed(seed)
    return _MAKERS[chosen](_rng(chosen, number), number)


# -- from a record ----------------------------------------------------------------------------


def from_record(record: Mapping[str, Any] | Sequence[Mapping[str, Any]],
                kind: int | str | Kind, seed: int = 0) -> Exercise:
    """An exercise of ``kind`` made from a teacher's deal record.

    1. The record's position if a card is to be played there, else the
       first position of the deal in which some card of the hand is refused.
    2. The last finished trick of the record.
    3. The dealer's turn to announce (a double deal whose other players have
       all announced).
    4. The record must be a finished deal.
    5. A record with an illegal action is used as it is; in a legal one, one
       card (chosen with ``seed``) is replaced by an illegal card of the same
       hand and the deal is played on with legal cards.
    6. A list of records: the deals of a session, in order; one record is a
       session of one deal.

    Raises:
        MalformedRecord: a record does not describe a deal.
        LooError: the record does not suit this kind of exercise; the message
            says why.
    """
    chosen = Kind.parse(kind)
    for one in [record] if isinstance(record, Mapping) else record:
        if isinstance(one, Mapping) and not profile_from_rules(one.get("rules")).is_limited:
            raise LooError("exercises are set in limited Loo; this record names other rules "
                           f"({describe(profile_from_rules(one.get('rules')))})")
    if chosen is Kind.SESSION:
        many = [record] if isinstance(record, Mapping) else list(record)
        deals = []
        for number, one in enumerate(many, 1):
            states = replay(one).states
            if not states[-1].is_terminal() or check(one)["status"] != "complete":
                raise LooError(f"deal {number} of the session is not a finished legal deal")
            deals.append(states[-1])
        return SessionNet(deals, None)
    if not isinstance(record, Mapping):
        raise LooError(f"exercise {int(chosen)} is made from one deal record, not a list")
    played = replay(record)
    states = played.states
    if chosen is Kind.FIND_ILLEGAL:
        if played.refused is not None:
            return FindIllegal(record, None, REPORTED_RULES)
        rng = _rng(chosen, _check_seed(seed))
        broken = _break(states, rng, False) or _break(states, rng, True)
        if broken is None:
            raise LooError("no card or announcement of this deal could have been played wrongly")
        exercise = FindIllegal(broken, None)
        exercise.origin = f"a deal record, seed {seed}"
        return exercise
    if played.refused is not None:
        verdict = played.refused[1]
        raise LooError(f"the record has an illegal action ({verdict.rule}: {verdict.message}); "
                       "use it for exercise 5, or correct it")
    last = states[-1]
    if chosen is Kind.LEGAL_CARDS:
        if last.phase is Phase.PLAY:
            return LegalCards(last, None)
        playing = [s for s in states if _hand_to_play(s)]
        refusing = [s for s in playing if _refuses_some(s)]
        if not playing:
            raise LooError("no card is played in this deal, so there is nothing to choose")
        return LegalCards((refusing or playing)[0], None)
    if chosen is Kind.TRICK:
        tricks = _tricks_of(states)
        if not tricks:
            raise LooError("the record has no finished trick")
        return TrickWinner(*tricks[-1], seed=None)
    if chosen is Kind.DEALER:
        if last.kind is not DealKind.DOUBLE:
            raise LooError("a simple deal has no announcements (R-ANN-SIMPLE); exercise 3 needs "
                           "a double deal")
        for state in states:
            if (state.phase is Phase.ANNOUNCE and state.current_player() == state.dealer) or (
                    state.collected_by == state.dealer and state.collected_by is not None):
                return DealerChoice(state, None)
        raise LooError("the record stops before every player but the dealer has announced")
    if not last.is_terminal():
        raise LooError("the deal is not finished, so there is nothing to settle yet")
    return Settle(last, None)
