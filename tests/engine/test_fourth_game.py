"""A fourth game, made up here, plays through the engine with no edit elsewhere.

"Blind Loo" is a tiny variant of three-card Loo: three cards each, the trump
indicator turned at once, and no announcements: everybody plays every deal,
following suit when they can, each trick earning a third of the pool. The
whole game is the module's worth of code below: its parameters (a params
dataclass and a profile of its own), its machine, how a deal starts, and how a record of it is read
and what its result adds. Registered, it is dealt by a session, checked as a
record, written back as one, and seen through a player's view, all through
the engine's public API; nothing in ``loo_tutor`` names it. The compiled
build allows a Python subclass of its ``DealMachine``, so this runs against
that build too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from loo_tutor import MalformedRecord, Session, check
from loo_tutor.engine.actions import Play
from loo_tutor.engine.cards import Card
from loo_tutor.engine.games import GameSpec, RecordDeal, game_of, games, register, unregister
from loo_tutor.engine.legality import Announcement, legal_follows
from loo_tutor.engine.machine import DealMachine, check_seats, shuffle_and_cut
from loo_tutor.engine.observe import hidden_cards, observation
from loo_tutor.engine.profiles import describe, profile_from_rules
from loo_tutor.engine.record_fields import (
    NO_CIVIL,
    all_distinct,
    is_mapping,
    read_card,
    read_cards,
    read_tricks,
    refuse_hand_names,
)
from loo_tutor.engine.rules import GameParams, Profile, RuleId, RuleKey
from loo_tutor.records.record import record_from_state

# -- the game: one module's worth ------------------------------------------------

@dataclass(frozen=True)
class BlindParams(GameParams):
    """Blind Loo's own options: whether a follower must follow suit."""

    follow_suit: bool = True


BLIND = Profile(name="blind", game="blind", min_players=3, max_players=8, params=BlindParams())
"""Blind Loo's one profile: limited Loo's stakes and loo, for 3 to 8 players."""


class BlindState(DealMachine):
    """A deal of Blind Loo: play starts at once, with trumps turned."""

    __slots__ = ()

    def __init__(self, players: Sequence[str], dealer: int, carried: Fraction,
                 dealt: Sequence[tuple[Card, ...]], indicator: Card,
                 profile: Profile = BLIND) -> None:
        self._seat(profile, players, dealer, carried, dealt, indicator, (), 3 * len(players) + 1)
        self.trump = indicator.suit
        self.active = self.order  # no announcements: everybody plays
        self._start_play()

    def _fresh(self) -> BlindState:
        return BlindState(self.players, self.dealer, self.carried, self.hands, self.indicator,
                          self.profile)

    def legal_announcements(self) -> list[Announcement]:
        return []

    def _open_cards(self, hand: tuple[Card, ...]) -> list[Card]:
        params = self.profile.params
        assert isinstance(params, BlindParams)  # the game's own params
        if self.trick and params.follow_suit:
            return legal_follows(hand, self.trick, self.trump)
        return list(hand)

    def _take_flush(self) -> bool:
        return False

    def _not_paid(self) -> tuple[int, ...]:
        return ()

    def _flush_spared(self) -> tuple[int, ...] | None:
        return None

    def _card_refusal(self, name: str, seat: int, card: Card) -> tuple[RuleKey, str]:
        if card not in self.held[seat]:
            return RuleId.PLAY_HAND, f"{name} does not hold {card.shown}"
        led = self.trick[0].suit.noun
        return RuleId.FOLLOW, f"{name} plays blind but must still follow {led}s, not {card.shown}"


def new_blind_deal(players: Sequence[str], dealer: int, carried: Fraction | int,
                   rng: random.Random, profile: Profile) -> DealMachine:
    """Shuffle, cut, deal three cards each from the dealer's left, and turn the next."""
    fraction = check_seats(players, dealer, carried, profile)
    deck, _ = shuffle_and_cut(rng)
    count = len(players)
    hands = [tuple(deck[(seat - dealer - 1) % count::count][:3]) for seat in range(count)]
    return BlindState(players, dealer, fraction, hands, deck[3 * count], profile)


RECORD_KEYS = ("rules", "players", "dealer", "carried", "hands", "trump", "tricks")


def read_blind_deal(record: dict[str, Any], players: list[str], seat: dict[str, int],
                    dealer: int, carried: Fraction, profile: Profile) -> RecordDeal:
    hands: Any = record.get("hands")
    if not is_mapping(hands):
        raise MalformedRecord("hands: expected a mapping player -> cards")
    refuse_hand_names(hands, players, seat)
    dealt = [read_cards(hands[name], "hands", name, 3) for name in players]
    indicator = read_card(record.get("trump"), "trump")
    if not all_distinct([*dealt, (indicator,)]):
        raise MalformedRecord("hands/trump: a card appears twice (R-PACK-CARDS)")
    start = BlindState(players, dealer, carried, dealt, indicator, profile)
    return start, [], read_tricks(record.get("tricks"), 3), NO_CIVIL


def add_blind_result(state: DealMachine, result: dict[str, Any]) -> None:
    result["rules"] = describe(state.profile)


BLIND_LOO = GameSpec("blind", "Blind Loo", frozenset(), new_blind_deal,
                     lambda profile: RECORD_KEYS, lambda state: "blind", read_blind_deal,
                     add_blind_result, bundles=(BLIND,), params=BlindParams)

# -- the tests -------------------------------------------------------------------

PLAYERS = ["A", "B", "C", "D"]


@pytest.fixture
def blind() -> Iterator[GameSpec]:
    """Blind Loo registered for one test."""
    spec = register(BLIND_LOO)
    yield spec
    unregister(spec.name)


def _record(hands: dict[str, list[str]], tricks: list[list[str]]) -> dict[str, Any]:
    return {"rules": "blind", "players": PLAYERS[:3], "dealer": "C", "carried": 0,
            "hands": hands, "trump": "9C", "tricks": tricks}


HANDS = {"A": ["AH", "2S", "3S"], "B": ["KH", "4C", "5C"], "C": ["QD", "6D", "7D"]}


def test_the_fourth_game_is_registered_beside_the_others_and_named_by_its_profile(
        blind: GameSpec) -> None:
    assert [spec.name for spec in games()][-1] == "blind"
    assert profile_from_rules("blind") is BLIND
    assert game_of(BLIND) is blind and blind.params is BlindParams


def test_a_session_of_the_fourth_game_deals_plays_and_settles_through_the_engine(
        blind: GameSpec) -> None:
    session = Session(PLAYERS, deals=6, seed=5, profile=BLIND)
    rng = random.Random(5)
    finished: list[DealMachine] = []
    while not session.is_over():
        state: DealMachine = session.start_deal()
        assert isinstance(state, BlindState) and not state.legal_announcements()
        assert state.trump is not None and state.active == state.order  # trumps turned, all play
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
        session.finish_deal(state)
        finished.append(state)
        # a record written of the deal is read back by the game's own reader
        record = record_from_state(state)
        assert set(record) <= set(RECORD_KEYS) and record["rules"] == "blind"
        result = check(record)
        assert result["status"] == "complete" and result["kind"] == "blind"
        assert result["rules"] == "blind"
        assert result["carried_next"] == str(state.settlement().carried_next)
    assert sum(session.end().values()) == 0  # R-CONSERVE over the whole session
    assert any(s.settlement().looed for s in finished)  # a player without a trick pays


def test_the_fourth_games_record_is_judged_by_its_duties_and_its_own_words(
        blind: GameSpec) -> None:
    complete = check(_record(HANDS, [["AH", "KH", "QD"], ["2S", "4C", "6D"], ["5C", "7D", "3S"]]))
    assert complete["status"] == "complete"
    assert complete["active"] == ["A", "B", "C"]  # nobody announced, everybody played
    assert [t["winner"] for t in complete["tricks"]] == ["A", "B", "B"]
    assert complete["looed"] == ["C"]
    revoke = check(_record(HANDS, [["AH", "4C"]]))  # B holds KH
    assert revoke["status"] == "illegal"
    assert revoke["error"] is not None and revoke["error"]["rule"] == "R-FOLLOW"
    assert revoke["error"]["message"] == \
        "B plays blind but must still follow hearts, not 4♣"
    to_play = check(_record(HANDS, [["AH"]]))
    assert to_play["next"] == {"player": "B", "phase": "play", "options": ["KH"]}


def test_the_fourth_games_record_keys_are_its_own(blind: GameSpec) -> None:
    with pytest.raises(MalformedRecord) as refused:
        check({**_record(HANDS, []), "announce": {"A": "stand"}})
    assert str(refused.value) == f"announce: unknown field (allowed: {', '.join(RECORD_KEYS)})"
    with pytest.raises(MalformedRecord) as twice:
        check(_record({**HANDS, "C": ["QD", "6D", "9C"]}, []))
    assert str(twice.value) == "hands/trump: a card appears twice (R-PACK-CARDS)"


def test_a_player_of_the_fourth_game_sees_only_their_hand_and_the_turned_card(
        blind: GameSpec) -> None:
    state = new_blind_deal(PLAYERS, 3, 0, random.Random(2), BLIND)
    view = observation(state, 0)
    assert view.hand == state.hands[0] and view.indicator == state.indicator
    assert view.kind is None and view.legal == tuple(Play(0, card) for card in state.hands[0])
    assert len(hidden_cards(state, 0)) == 52 - 3 - 1
    assert hidden_cards(state, None) == frozenset()  # the tutor sees every hand


def test_once_unregistered_the_fourth_game_is_unknown() -> None:
    register(BLIND_LOO)
    unregister("blind")
    with pytest.raises(MalformedRecord) as refused:
        profile_from_rules("blind")
    assert "unknown profile 'blind'" in str(refused.value)
    assert "blind" not in [spec.name for spec in games()]
