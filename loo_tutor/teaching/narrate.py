"""Plain-English sentences for each step of a deal, naming the rules involved.

Nothing here decides a rule. Each sentence is built from what the engine
reports: the state before and after an action, the verdicts
:meth:`~loo_tutor.engine.state.DealState.check` gives for the cards a player did
*not* play, :func:`~loo_tutor.engine.legality.trick_winner_index` for who is
winning a trick, and :meth:`~loo_tutor.engine.state.DealState.settlement` for the
money. So when the engine refuses the other cards of a hand under
R-LEAD-ACE, the sentence for the card played says the ace was forced.

>>> from loo_tutor.records.data import example
>>> story = steps(example("forced-ace"))
>>> story[6].narration.text
'A leads A♥: A holds the ace of trumps and must lead it (R-LEAD-ACE).'
>>> [rule.value for rule in story[7].narration.rules]
['R-FOLLOW']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..engine import pam, three_card
from ..engine.cards import ACE, Card, card_text
from ..engine.errors import LooError
from ..engine.games import game_of
from ..engine.legality import Announcement, trick_winner_index
from ..engine.pam import PamState
from ..engine.rules import RuleId, RuleKey, VariantRuleId
from ..engine.state import (
    Action,
    Announce,
    CivilLead,
    DealKind,
    DealMachine,
    DealState,
    Exchange,
    Phase,
    Play,
    Seat,
    Verdict,
)
from ..records.record import Replay, replay_deal

__all__ = [
    "CITED",
    "VARIANT_CITED",
    "Narration",
    "Step",
    "carry_hint",
    "dealer_rule",
    "loo_hint",
    "narrate_action",
    "narrate_play",
    "narrate_refusal",
    "narrate_settlement",
    "narrate_start",
    "payout_hint",
    "steps",
]

CITED: frozenset[RuleKey] = frozenset({
    RuleId.DEAL_KIND, RuleId.POOL, RuleId.DEAL_TRUMP, RuleId.ANN_ORDER, RuleId.ANN_SIMPLE,
    RuleId.ANN_CHOICES, RuleId.ANN_PASS, RuleId.ANN_MISS_ONCE, RuleId.COLLECT,
    RuleId.ANN_DEALER_SOLE_STAND, RuleId.ANN_DEALER_SOLE_MISS, RuleId.ANN_DEALER_OTHER,
    RuleId.DEFEND, RuleId.LEAD_FIRST, RuleId.LEAD_FREE, RuleId.LEAD_TRUMP, RuleId.LEAD_ACE,
    RuleId.FOLLOW, RuleId.HEAD, RuleId.TRUMP_WIN, RuleId.DISCARD, RuleId.REVEAL, RuleId.WIN,
    RuleId.LEAD_NEXT, RuleId.PAY_THIRD, RuleId.LOO, RuleId.CARRY, RuleId.LEDGER,
    RuleId.PLAY_HAND, RuleId.PLAY_ORDER, RuleId.DEAL_ANTE,
})
"""Every rule of the limited game a narration may cite (refusals cite whatever the
engine names)."""

VARIANT_CITED: frozenset[RuleKey] = frozenset({
    VariantRuleId.EXCHANGE, VariantRuleId.FLUSH, VariantRuleId.UNDIVIDED, VariantRuleId.PAM,
    VariantRuleId.PAM_CIVIL,
})
"""Every rule only variants have that a narration may cite (Irish Loo, Pam Loo ...)."""

_COUNT_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True)
class Narration:
    """What happened, in words, and the rules the words cite.

    Attributes:
        text: one or more sentences; every cited rule appears in it as
            ``(R-XXX)`` so that a renderer can turn it into a link.
        rules: the cited rules, in order of first mention, without repeats.
    """

    text: str
    rules: tuple[RuleKey, ...] = ()

    def __add__(self, other: Narration) -> Narration:
        text = f"{self.text} {other.text}".strip()
        return Narration(text, _unique((*self.rules, *other.rules)))


@dataclass(frozen=True)
class Step:
    """One position of a replayed deal, ready to be shown.

    Attributes:
        state: the state to draw.
        action: the action that led here (``None`` for the start); for a
            refusal, the refused action (``state`` is then the state it was
            refused in).
        narration: what happened.
        title: a few words naming the step, for menus.
        refused: the engine's verdict when this step is a refusal.
    """

    state: DealState | PamState
    action: Action | None
    narration: Narration
    title: str
    refused: Verdict | None = None


def _unique(rules: Iterable[RuleKey]) -> tuple[RuleKey, ...]:
    return tuple(dict.fromkeys(rules))


def _say(sentence: str, *rules: RuleKey) -> Narration:
    """One sentence citing ``rules``: their IDs are written once, here, at its end."""
    cited = f" ({', '.join(rule.value for rule in rules)})" if rules else ""
    return Narration(f"{sentence.rstrip()}{cited}.", _unique(rules))


def _amount(value: Fraction) -> str:
    return str(value)


def _units(value: Fraction) -> str:
    """An amount of money with its noun: ``1 unit``, ``4/3 units``, ``0 units``."""
    return f"{value} unit" if value == 1 else f"{value} units"


def _names(state: DealMachine, seats: Sequence[Seat]) -> str:
    names = [state.players[s] for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _tricks(count: int) -> str:
    word = _COUNT_WORDS.get(count, str(count))
    return f"{word} trick" if count == 1 else f"{word} tricks"


def _call_words(calls: Sequence[Announcement]) -> str:
    words = {Announcement.STAND: "stand", Announcement.PASS: "pass",
             Announcement.MISS: "take the miss", Announcement.DEFEND: "defend"}
    said = [words[c] for c in calls]
    if len(said) <= 1:
        return "".join(said)
    return ", ".join(said[:-1]) + " or " + said[-1]


# -- the start ----------------------------------------------------------------


def narrate_start(state: DealState) -> Narration:
    """The deal as it is dealt: its kind, the pool, trumps and who acts first."""
    dealer = state.players[state.dealer]
    ante = state.profile.ante
    first = state.current_player()
    first_name = "" if first is None else state.players[first]
    if state.kind is DealKind.DOUBLE:
        return (
            _say(f"{dealer} deals a double deal: {_amount(state.carried)} carried plus the "
                 f"dealer's ante of {ante} make a pool of {_amount(state.pool)} ",
                 RuleId.DEAL_KIND, RuleId.POOL)
            + _say(f"The indicator {card_text(state.indicator)} is turned face up, so "
                   f"{state.indicator.suit.noun}s are trumps", RuleId.DEAL_TRUMP)
            + _say(f"{first_name} announces first", RuleId.ANN_ORDER)
        )
    return (
        _say(f"{dealer} deals a simple deal: nothing is carried, so the pool is the ante "
             f"of {ante}", RuleId.DEAL_KIND, RuleId.POOL)
        + _say("There is no miss and nobody announces: everyone plays",
               RuleId.ANN_SIMPLE)
        + _say("The indicator stays face down, so trumps are not known yet",
               RuleId.DEAL_TRUMP)
        + _say(f"{first_name}, first from the dealer's left, leads",
               RuleId.LEAD_FIRST)
    )


# -- announcements --------------------------------------------------------------


def dealer_rule(state: DealState) -> RuleKey | None:
    """Which of the dealer's special cases governs the dealer's announcement.

    The engine's :meth:`~loo_tutor.engine.state.DealState.dealer_case` is asked.

    Returns:
        R-ANN-DEALER-SOLE-STAND, R-ANN-DEALER-SOLE-MISS or
        R-ANN-DEALER-OTHER, or ``None`` when the dealer is not the one to
        announce.

    >>> from loo_tutor.records.data import example
    >>> from loo_tutor.records.record import replay
    >>> dealer_rule(replay(example("sole-stander")).states[-1]).value
    'R-ANN-DEALER-SOLE-STAND'
    """
    case = state.dealer_case()
    return None if case is None else case.rule


def _players_in(state: DealState) -> list[Seat]:
    return [s for s, call in state.announcements if call is not Announcement.PASS]


def _announce_sentence(before: DealState, action: Announce, after: DealState) -> Narration:
    seat, call = action.seat, action.announcement
    name = before.players[seat]
    if seat != before.dealer:
        if call is Announcement.STAND:
            told = _say(f"{name} stands and will play the hand dealt",
                        RuleId.ANN_CHOICES)
        elif call is Announcement.PASS:
            told = _say(f"{name} passes, throws the hand in and sits out this deal ", RuleId.ANN_PASS)
        else:
            told = _say(f"{name} throws the hand in and takes the miss unseen; nobody else "
                        "may take it now", RuleId.ANN_MISS_ONCE)
        if after.collected_by is not None and after.flush is None:
            told += _say(f"Everybody but the dealer has passed, so "
                         f"{after.players[after.collected_by]} collects the pool of "
                         f"{_units(after.pool)} without announcing",
                         RuleId.COLLECT)
        return told
    rule = dealer_rule(before)
    options = _call_words(before.legal_announcements())
    players_in = _names(before, _players_in(before))
    if rule is RuleId.ANN_DEALER_SOLE_STAND:
        why = (f"Only {players_in} stood, so {name}, dealing, may not pass but may "
               f"{options}")
    elif rule is RuleId.ANN_DEALER_SOLE_MISS:
        why = (f"Only {players_in} is in, playing the miss, so {name}, dealing, may "
               f"{options} but not defend")
    else:
        why = f"With {players_in} in, {name}, dealing, may {options}"
    told = _say(why, rule or RuleId.ANN_DEALER_OTHER)
    if call is Announcement.STAND:
        told += _say(f"{name} stands")
    elif call is Announcement.MISS:
        told += _say(f"{name} takes the miss", RuleId.ANN_MISS_ONCE)
    elif call is Announcement.DEFEND:
        told += _say(f"{name} defends: the dealer plays the miss for the pool, wins nothing "
                     "and cannot be looed", RuleId.DEFEND)
    else:
        told += _say(f"{name} passes")
    if after.collected_by is not None and after.flush is None:
        taker = after.players[after.collected_by]
        told += _say(f"{taker}, the only player left in, collects the pool of "
                     f"{_units(after.pool)} without play", RuleId.COLLECT)
    return told


# -- cards --------------------------------------------------------------------


def _refused_rules(state: DealMachine, seat: Seat) -> set[RuleKey]:
    """The rules the engine names for the cards of the hand it would refuse."""
    legal = state.legal_cards()
    rules = set()
    for card in state.held[seat]:
        if card not in legal:
            verdict = state.check(Play(seat, card))
            if verdict.rule is not None:
                rules.add(verdict.rule)
    return rules


def _lead_sentence(before: DealState, play: Play) -> Narration:
    name, card = before.players[play.seat], play.card
    shown = card_text(card)
    refused = _refused_rules(before, play.seat)
    trump = before.trump
    if trump is None:
        return _say(f"{name} leads {shown}: trumps are not known yet, so any card may be led ",
                    RuleId.LEAD_FREE)
    if RuleId.LEAD_ACE in refused:
        if card.rank == ACE:
            why = "holds the ace of trumps and must lead it"
        else:
            why = (f"holds the king of trumps and, the turned indicator "
                   f"{card_text(before.indicator)} being the ace, must lead it")
        return _say(f"{name} leads {shown}: {name} {why}", RuleId.LEAD_ACE)
    if RuleId.LEAD_TRUMP in refused:
        return _say(f"{name} leads {shown}: {name} holds a trump and must lead one ", RuleId.LEAD_TRUMP)
    if card.suit is trump:
        return _say(f"{name} leads {shown}, a trump", RuleId.LEAD_TRUMP)
    return _say(f"{name} leads {shown}: {name} holds no trump, so any card may be led ", RuleId.LEAD_TRUMP)


def _follow_sentence(before: DealState, play: Play) -> Narration:
    name, card = before.players[play.seat], play.card
    shown = card_text(card)
    trick = before.trick_cards()
    led = trick[0].suit
    suit = f"{led.noun}s"
    trump = before.trump
    refused = _refused_rules(before, play.seat)
    if card.suit is led:
        if RuleId.HEAD in refused:
            best = trick[trick_winner_index(trick, trump)]
            return _say(f"{name} plays {shown}: {name} can beat {card_text(best)} and must "
                        "head the trick", RuleId.HEAD)
        if RuleId.FOLLOW in refused:
            told = _say(f"{name} plays {shown}: {name} holds {suit} and must follow suit ", RuleId.FOLLOW)
        else:
            told = _say(f"{name} follows suit with {shown}", RuleId.FOLLOW)
        if trick_winner_index([*trick, card], trump) == len(trick):
            told += _say(f"It beats every {led.noun} played so far, so it heads the trick ", RuleId.HEAD)
        return told
    void = f"{name} is void in {suit}"
    if trump is None:
        return _say(f"{void} and trumps are not known yet, so may play any card: {shown} ", RuleId.DISCARD)
    if card.suit is trump:
        if trick_winner_index([*trick, card], trump) == len(trick):
            return _say(f"{void} and holds a trump that wins, so must trump: {shown} ", RuleId.TRUMP_WIN)
        return _say(f"{void} and cannot beat the trump already played, so may play any "
                    f"card: {shown}", RuleId.DISCARD)
    if any(c.suit is trump for c in before.held[play.seat]):
        return _say(f"{void} and holds no trump that would win, so may discard {shown} ", RuleId.DISCARD)
    return _say(f"{void} and holds no trump, so may discard {shown}",
                RuleId.DISCARD)


def _trick_end(before: DealState, after: DealState) -> Narration:
    number = len(after.tricks)
    trick = after.tricks[-1]
    led = trick.plays[0][1].suit
    told = Narration("")
    if before.trump is None and after.trump is not None:
        void = [seat for seat, card in trick.plays if card.suit is not led]
        told += _say(
            f"{_names(after, void)} could not follow {led.noun}s, so with the trick complete "
            f"the indicator {card_text(after.indicator)} is turned: {after.trump.noun}s are "
            f"trumps, and trick {number} is judged with them", RuleId.REVEAL)
    winner = trick.winner
    assert winner is not None
    won_with = dict(trick.plays)[winner]
    if after.trump is not None and won_with.suit is after.trump:
        how = f"{card_text(won_with)}, the highest trump"
    else:
        how = f"{card_text(won_with)}, the highest {led.noun}"
    told += _say(f"Trick {number} goes to {after.players[winner]} with {how}",
                 RuleId.WIN)
    if not after.is_terminal():
        told += _say(f"{after.players[winner]} leads next", RuleId.LEAD_NEXT)
    return told


# -- settlement -----------------------------------------------------------------


def narrate_settlement(state: DealState) -> Narration:
    """Who receives what, who is looed and what carries over, for a finished deal.

    Raises:
        LooError: the deal is not over.
    """
    settled = state.settlement()
    names = state.players
    if state.flush is not None:
        return _flush(state) + _carry(state)
    if state.collected_by is not None:
        return _say(f"{names[state.collected_by]} receives the whole pool of "
                    f"{_units(state.pool)}", RuleId.COLLECT) + _carry(state)
    wins = Counter(t.winner for t in state.tricks)
    parts: list[tuple[str, RuleKey]] = []
    for seat in state.active:
        name = names[seat]
        if seat == state.defender:
            kept = "whose thirds stay in the pool" if wins[seat] else "so nothing stays back"
            parts.append((f"{name} defended and won {_tricks(wins[seat])}, {kept}",
                          RuleId.DEFEND))
        elif seat in settled.payouts:
            parts.append((f"{name} wins {_tricks(wins[seat])}: "
                          f"{_units(settled.payouts[seat])}", RuleId.PAY_THIRD))
        elif seat in settled.looed:
            parts.append((f"{name} is looed and pays {_units(settled.loo)}", RuleId.LOO))
        elif wins[seat]:  # tricks won but not paid: the pool is undivided
            parts.append((f"{name} wins {_tricks(wins[seat])} but is paid nothing, as only "
                          "a player who takes all three is paid", VariantRuleId.UNDIVIDED))
    text = "; ".join(f"{part} ({rule.value})" for part, rule in parts) + "."
    rules = [rule for _, rule in parts]
    return Narration(text[0].upper() + text[1:], _unique(rules)) + _carry(state)


def _flush(state: DealState) -> Narration:
    """A pool taken by a three-card flush, and the players it loos (V-FLUSH)."""
    settled = state.settlement()
    name = state.players[state.flush]  # type: ignore[index]
    told = _say(f"{name} holds three trumps, a flush, and takes the whole pool of "
                f"{_units(state.pool)} without play", VariantRuleId.FLUSH)
    others = _names(state, settled.looed)
    loo = _units(settled.loo)
    if len(settled.looed) == 1:
        told += _say(f"{others}, also in, is looed and pays {loo}", RuleId.LOO)
    elif settled.looed:
        told += _say(f"{others}, also in, are looed and pay {loo} each",
                     RuleId.LOO)
    return told


def _carry(state: DealState) -> Narration:
    carried = state.settlement().carried_next
    if carried == 0 and three_card.params_of(state.profile).irish:  # Irish Loo: no simple deal
        return _say("Nothing carries over", RuleId.CARRY)
    if carried == 0:
        return _say("Nothing carries over, so the next deal is a simple one",
                    RuleId.CARRY)
    carry = "carries" if carried == 1 else "carry"
    return _say(f"{_units(carried)} {carry} to the next deal, which is a double one ", RuleId.CARRY)


def payout_hint(state: DealState, seat: Seat) -> Narration:
    """The rule that fixes what ``seat`` receives from the pool in a finished deal."""
    name = state.players[seat]
    if state.collected_by is not None:
        return _say("Without play the whole pool goes to the one player who collects it ", RuleId.COLLECT)
    if seat == state.defender:
        return _say(f"{name} defended the pool: a defender receives nothing",
                    RuleId.DEFEND)
    if seat not in state.active:
        return _say(f"{name} passed and receives nothing", RuleId.ANN_PASS)
    return _say(f"Each trick {name} won earns a third of the pool of {_amount(state.pool)}, "
                "exactly", RuleId.PAY_THIRD)


def loo_hint(state: DealState) -> Narration:
    """The rule that decides who is looed."""
    return _say("A player who took part and won no trick is looed; players who passed and "
                "the defender never are", RuleId.LOO)


def carry_hint(state: DealState) -> Narration:
    """The rule that fixes the next carried balance."""
    each = (f"{state.profile.loo} for each looed player" if state.profile.loo_rule == "fixed"
            else "what each looed player pays")
    return _say(f"The next carried balance is the pool of {_amount(state.pool)}, less what "
                f"was paid out, plus {each}", RuleId.CARRY)


# -- one action ---------------------------------------------------------------


def narrate_action(before: DealState | PamState, action: Action,
                   after: DealState | PamState) -> Narration:
    """What ``action`` did, taken in ``before`` and leading to ``after``.

    Covers the consequences too: the start of play, the end of a trick (with
    the reveal of a simple deal's trumps), a pool collected without play,
    and the settlement when the deal is over. A Pam Loo deal is told by
    ``narrate_pam_action``; each game's narration is found by its name
    (``_TELLERS``), never by asking which game is played.
    """
    return _teller(before)[1](before, action, after)


def _three_card_action(before: DealState, action: Action, after: DealState) -> Narration:
    """What ``action`` did in a deal of three-card Loo (see :func:`narrate_action`)."""
    if isinstance(action, Announce):
        told = _announce_sentence(before, action, after)
        if before.phase is Phase.ANNOUNCE and after.phase is Phase.PLAY:
            leader = after.current_player()
            assert leader is not None
            told += _say(f"Play begins: {after.players[leader]}, the first player in from the "
                         "dealer's left, leads", RuleId.LEAD_FIRST)
    elif isinstance(action, Exchange):
        told = _exchange_sentence(before, action)
    else:
        assert isinstance(action, Play)  # three-card Loo has no civil lead
        told = narrate_play(before, action)
    if len(after.tricks) > len(before.tricks):
        told += _trick_end(before, after)
    if after.flush is not None:
        told += _flush(after) + _carry(after)
    elif after.collected_by is not None:
        told += _carry(after)
    elif after.is_terminal():
        told += narrate_settlement(after)
    return told


def narrate_play(before: DealState, play: Play) -> Narration:
    """Why ``play`` is made as it is: the sentence for the card alone.

    Unlike :func:`narrate_action` this says nothing about the end of the
    trick or the settlement, so it also explains a legal card that was not
    played.

    >>> from loo_tutor.records.data import example
    >>> from loo_tutor.records.record import replay
    >>> lead = replay(example("hearts")).states[5]
    >>> narrate_play(lead, lead.legal_actions()[0]).text
    'Anna leads 6♥: Anna holds a trump and must lead one (R-LEAD-TRUMP).'
    """
    if before.trick_cards():
        return _follow_sentence(before, play)
    return _lead_sentence(before, play)


def narrate_refusal(state: DealState | PamState, action: Action, verdict: Verdict
                    ) -> Narration:
    """A refused action: the engine's own explanation and the rule it names."""
    if verdict.rule is None:
        return Narration(verdict.message)
    message = verdict.message.rstrip().rstrip(".")
    return _say(f"Refused: {message}", verdict.rule)


def _exchange_sentence(state: DealState, action: Exchange) -> Narration:
    name = state.players[action.seat]
    if not action.cards:
        return _say(f"{name} keeps the hand and draws nothing",
                    VariantRuleId.EXCHANGE)
    count = len(action.cards)
    return _say(f"{name} discards {count} card{'s' if count > 1 else ''} and draws as many "
                "from the stock", VariantRuleId.EXCHANGE)


def _title(state: DealState | PamState, action: Action) -> str:
    name = state.players[action.seat]
    if isinstance(action, Announce):
        return {Announcement.STAND: f"{name} stands", Announcement.PASS: f"{name} passes",
                Announcement.MISS: f"{name} takes the miss",
                Announcement.DEFEND: f"{name} defends"}[action.announcement]
    if isinstance(action, Exchange):
        return f"{name} exchanges {len(action.cards)}"
    verb = "plays" if state.trick_cards() else "leads"
    civil = ", \"Pam, be civil\"" if isinstance(action, CivilLead) else ""
    return f"{name} {verb} {card_text(action.card)}{civil}"


def steps(source: Mapping[str, Any] | Replay[DealState] | Replay[DealState | PamState]
          ) -> list[Step]:
    """Every step of a deal record, narrated: the start, each action, a refusal.

    Args:
        source: a deal record (as :func:`~loo_tutor.records.record.load_record`
            returns it) or an existing :class:`~loo_tutor.records.record.Replay`.

    Raises:
        MalformedRecord: the record does not describe a deal.
    """
    played = source if isinstance(source, Replay) else replay_deal(source)
    states = played.states
    start = states[0]
    told = _teller(start)[0](start)
    result = [Step(start, None, told, "Start of the deal")]
    for i, action in enumerate(played.actions):
        before, after = states[i], states[i + 1]
        title = f"{i + 1}. {_title(before, action)}"
        result.append(Step(after, action, narrate_action(before, action, after), title))
    if played.refused is not None:
        action, verdict = played.refused
        last = states[-1]
        title = f"Refused: {_title(last, action)}"
        result.append(Step(last, action, narrate_refusal(last, action, verdict), title, verdict))
    return result


# -- five-card Loo with Pam ------------------------------------------------------


def narrate_pam_start(state: PamState) -> Narration:
    """A Pam deal as it is dealt: the pool, trumps, Pam and who speaks first."""
    dealer = state.players[state.dealer]
    first = state.current_player()
    first_name = "" if first is None else state.players[first]
    staked = sum(state.stakes)
    if state.carried:
        pool = (f"{_amount(state.carried)} carried and {staked} staked make a pool of "
                f"{_amount(state.pool)}")
    else:
        pool = f"the pool is the {staked} staked"
    return (
        _say(f"{dealer} deals five cards to each player, three and then two at a time; "
             f"{pool}", RuleId.DEAL_ANTE, RuleId.POOL)
        + _say(f"The next card, {card_text(state.indicator)}, is turned: "
               f"{state.indicator.suit.noun}s are trumps, and Pam is the highest trump of "
               "all", VariantRuleId.PAM)
        + _say(f"{first_name} speaks first: stand or pass", RuleId.ANN_ORDER)
    )


def _pam_announce(before: PamState, action: Announce, after: PamState) -> Narration:
    name = before.players[action.seat]
    if action.announcement is Announcement.STAND:
        told = _say(f"{name} stands and will play", RuleId.ANN_CHOICES)
    else:
        told = _say(f"{name} passes and sits out this deal", RuleId.ANN_PASS)
    if after.collected_by is not None:
        taker = after.players[after.collected_by]
        why = ("everybody before the dealer passed" if after.collected_by == after.dealer
               else f"{taker} is the only player who stood")
        told += _say(f"As {why}, {taker} takes the pool of {_amount(after.pool)} "
                     "without play", RuleId.COLLECT)
    elif after.phase is Phase.EXCHANGE and before.phase is Phase.ANNOUNCE:
        told += _say(f"{_names(after, after.standers)} stood; in that order each may now "
                     "swap up to five cards with the stock", VariantRuleId.EXCHANGE)
    return told


def _pam_exchange(before: PamState, action: Exchange, after: PamState) -> Narration:
    name = before.players[action.seat]
    count = len(action.cards)
    if not count:
        return _say(f"{name} keeps all five cards", VariantRuleId.EXCHANGE)
    turned = (f", the turned {card_text(before.indicator)} first" if action.take_turned
              else "")
    return _say(f"{name} throws away {count} card{'s' if count > 1 else ''} and draws as "
                f"many{turned}", VariantRuleId.EXCHANGE)


def _pam_flush(state: PamState) -> Narration:
    flush = state.flush
    assert flush is not None
    name = state.players[flush.seat]
    kind = {"pam": "a Pam flush, four of a suit with Pam",
            "trump": "a trump flush, five trumps",
            "plain": f"a flush of five {flush.cards[0].suit.noun}s"}[flush.kind]
    told = _say(f"{name} holds {kind}, and takes the whole pool of {_amount(state.pool)} "
                "without play", VariantRuleId.FLUSH)
    settled = state.settlement()
    for seat in flush.exempt:  # the engine spared them: say which of its two reasons
        why = "Pam" if state.pam in state.held[seat] else "a weaker flush"
        told += _say(f"{state.players[seat]} stood too but is spared, holding {why}",
                     VariantRuleId.FLUSH)
    if settled.looed:
        verb = "is" if len(settled.looed) == 1 else "are"
        told += _say(f"{_names(state, settled.looed)} {verb} looed and "
                     f"pay{'s' if len(settled.looed) == 1 else ''} {_amount(settled.loo)}",
                     RuleId.LOO)
    return told


def _pam_card(state: PamState, card: Card) -> str:
    return f"Pam ({card_text(card)})" if card is state.pam else card_text(card)


def _pam_play(before: PamState, action: Play | CivilLead) -> Narration:
    name, card = before.players[action.seat], action.card
    shown = _pam_card(before, card)
    refused = _refused_rules(before, action.seat)
    if not before.trick_cards():
        if isinstance(action, CivilLead):
            return _say(f"{name} leads {shown} and says \"Pam, be civil\": whoever holds Pam "
                        "and another trump may not play Pam to this trick",
                        VariantRuleId.PAM_CIVIL)
        if RuleId.LEAD_ACE in refused:
            return _say(f"{name} leads {shown}: the ace of trumps must be led when held",
                        RuleId.LEAD_ACE)
        if RuleId.LEAD_TRUMP in refused:
            return _say(f"{name} leads {shown}: holding a trump, {name} must lead one",
                        RuleId.LEAD_TRUMP)
        return _say(f"{name} leads {shown}")
    if VariantRuleId.PAM_CIVIL in refused:
        return _say(f"{name} plays {shown} and keeps Pam back: the ace was led civilly",
                    VariantRuleId.PAM_CIVIL)
    if VariantRuleId.PAM in refused:
        return _say(f"{name} plays {shown}: Pam was led, and Pam is a trump, so a trump "
                    "must be played", VariantRuleId.PAM)
    for rule, why in ((RuleId.HEAD, "must beat the trick when able"),
                      (RuleId.TRUMP_WIN, "cannot follow suit and must trump to win"),
                      (RuleId.FOLLOW, "must follow suit")):
        if rule in refused:
            return _say(f"{name} plays {shown}: {name} {why}", rule)
    return _say(f"{name} plays {shown}")


def _pam_trick_end(after: PamState) -> Narration:
    trick = after.tricks[-1]
    winner = trick.winner
    assert winner is not None
    won_with = dict(trick.plays)[winner]
    told = _say(f"Trick {len(after.tricks)} goes to {after.players[winner]} with "
                f"{_pam_card(after, won_with)}", RuleId.WIN)
    if not after.is_terminal():
        told += _say(f"{after.players[winner]} leads next", RuleId.LEAD_NEXT)
    return told


def _pam_settlement(state: PamState) -> Narration:
    settled = state.settlement()
    wins = Counter(t.winner for t in state.tricks)
    share = _amount(state.pool / len(state.tricks)) if state.tricks else "0"
    parts = [_say(f"Each trick earns a fifth of the pool of {_amount(state.pool)}, "
                  f"{share}", RuleId.PAY_THIRD)]
    for seat in state.active:
        name = state.players[seat]
        if seat in settled.payouts:
            parts.append(_say(f"{name} wins {_tricks(wins[seat])} and receives "
                              f"{_amount(settled.payouts[seat])}"))
        elif seat in settled.looed:
            parts.append(_say(f"{name} wins nothing, is looed and pays "
                              f"{_amount(settled.loo)}", RuleId.LOO))
    carried = settled.carried_next
    parts.append(_say("Nothing carries over" if carried == 0
                      else f"{_amount(carried)} carries to the next deal", RuleId.CARRY))
    told = Narration("")
    for part in parts:
        told += part
    return told


def narrate_pam_action(before: PamState, action: Action, after: PamState) -> Narration:
    """What ``action`` did in a Pam Loo deal, with what follows from it: the end of
    the announcements or of the exchanges, a flush, a trick won, the settlement."""
    if isinstance(action, Announce):
        told = _pam_announce(before, action, after)
    elif isinstance(action, Exchange):
        told = _pam_exchange(before, action, after)
    else:
        told = _pam_play(before, action)
    if after.flush is not None:
        return told + _pam_flush(after)
    if before.phase is Phase.EXCHANGE and after.phase is Phase.PLAY:
        leader = after.current_player()
        assert leader is not None
        told += _say(f"The exchanges are over and nobody holds a flush. "
                     f"{after.players[leader]}, the first player in from the dealer's left, "
                     "leads", RuleId.LEAD_FIRST)
    if len(after.tricks) > len(before.tricks):
        told += _pam_trick_end(after)
    if after.is_terminal() and after.collected_by is None:
        told += _pam_settlement(after)
    return told


_Tellers = tuple[Callable[[Any], Narration], Callable[[Any, Action, Any], Narration]]

_TELLERS: dict[str, _Tellers] = {
    three_card.GAME.name: (narrate_start, _three_card_action),
    pam.GAME.name: (narrate_pam_start, narrate_pam_action),
}
"""The narration hooks of each game, by its name in :mod:`loo_tutor.engine.games`:
how a deal of it starts, and what an action did."""


def _teller(state: DealMachine) -> _Tellers:
    """The narration hooks of the game ``state`` is a deal of.

    Raises:
        LooError: the game has no narration.
    """
    game = game_of(state.profile)
    tellers = _TELLERS.get(game.name)
    if tellers is None:
        raise LooError(f"the tutor cannot narrate a deal of {game.title} yet")
    return tellers
