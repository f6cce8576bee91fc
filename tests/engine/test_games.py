"""The registry of games: each game's options, deal start and record keys are the ones used."""

from __future__ import annotations

import random
from typing import Any

import pytest

from loo_tutor import MalformedRecord, Session, check
from loo_tutor.engine import pam, three_card
from loo_tutor.engine.games import GameSpec, game_of, games, option_owner
from loo_tutor.engine.machine import DealMachine
from loo_tutor.engine.profiles import BUNDLES, PAM, RULES_OPTIONS, profile_from_rules
from loo_tutor.engine.rules import LIMITED, Profile
from loo_tutor.records.record import record_from_state

PLAYERS = ["A", "B", "C", "D", "E"]
GAMES = {spec.name: spec for spec in games()}
TABLE_OPTIONS = {"seats", "first_dealer", "stakes", "ante", "stake", "loo", "session_end"}

# A value each game's own option accepts, to show the option is read under its own game.
VALUES: dict[str, object] = {
    "single_pot": "miss", "reveal": "immediate", "miss_position": "first",
    "trump_lead": "opening", "duties": "004",
}


def played(profile: Profile, carried: int, seed: int) -> DealMachine:
    """A deal of ``profile``'s game, started by its registered start and played at random."""
    rng = random.Random(seed)
    state = game_of(profile).start(PLAYERS, 4, carried, rng, profile)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def test_the_registry_holds_three_card_loo_and_pam_loo_each_from_its_own_module() -> None:
    assert GAMES == {"three-card": three_card.GAME, "pam": pam.GAME}
    assert all(type(spec) is GameSpec for spec in GAMES.values())
    assert game_of(LIMITED) is three_card.GAME and game_of(PAM) is pam.GAME
    for profile in BUNDLES.values():
        assert game_of(profile).name == profile.game


def test_every_option_is_the_tables_or_belongs_to_exactly_one_game() -> None:
    owned = [spec.options for spec in GAMES.values()]
    assert not owned[0] & owned[1]
    assert set(RULES_OPTIONS) == TABLE_OPTIONS | owned[0] | owned[1]
    for option in TABLE_OPTIONS:
        assert option_owner(option) is None


@pytest.mark.parametrize("option", sorted(three_card.OPTIONS | pam.OPTIONS))
def test_a_games_own_option_is_read_under_its_game_and_refused_under_the_other(option: str
                                                                                ) -> None:
    owner = option_owner(option)
    assert owner is not None
    own = "limited" if owner is three_card.GAME else "pam"
    other = "pam" if owner is three_card.GAME else "limited"
    value = VALUES.get(option, True)
    profile = profile_from_rules({"base": own, option: value})
    assert (option, value) in profile.options and game_of(profile) is owner
    with pytest.raises(MalformedRecord) as refused:
        profile_from_rules({"base": other, option: value})
    assert str(refused.value) == f"rules.{option}: not an option of {other}"


@pytest.mark.parametrize("profile", [LIMITED, BUNDLES["blenheim"], PAM,
                                     profile_from_rules({"base": "limited", "irish": True})],
                         ids=lambda p: p.name + (" irish" if ("irish", True) in p.options else ""))
def test_a_deal_starts_as_its_game_deals_and_its_record_uses_the_games_keys(profile: Profile
                                                                            ) -> None:
    spec = game_of(profile)
    kinds = set()
    for seed in range(12):
        state = played(profile, seed % 3, seed)
        record = record_from_state(state)
        assert set(record) <= set(spec.record_keys(profile))
        result = check(record)
        assert result["status"] == "complete"
        assert result["kind"] == spec.kind_name(state)
        kinds.add(result["kind"])
    if spec is pam.GAME:
        assert kinds == {"pam"}
    else:
        params = three_card.params_of(profile)
        assert kinds == ({"double"} if not params.simple_pool or params.irish
                         else {"simple", "double"})


@pytest.mark.parametrize("profile", [LIMITED, PAM], ids=lambda p: p.name)
def test_a_session_deals_through_its_games_registered_start(profile: Profile) -> None:
    session = Session(PLAYERS, deals=5, seed=3, profile=profile)
    dealt = session.start_deal()
    by_spec = game_of(profile).start(PLAYERS, session.dealer, 0, random.Random(1), profile)
    assert type(dealt) is type(by_spec)
    assert len(dealt.hands[0]) == len(by_spec.hands[0]) == (5 if profile is PAM else 3)


def _record(profile: Profile) -> dict[str, Any]:
    return record_from_state(played(profile, 3, 7))


@pytest.mark.parametrize(("profile", "key", "value"), [
    (PAM, "miss", ["2S", "3S", "4S"]),
    (LIMITED, "stock", ["2S"]),
    (LIMITED, "exchange", {}),
    (LIMITED, "civil", [1]),
], ids=["miss under pam", "stock under limited", "exchange under limited",
        "civil under limited"])
def test_a_key_of_the_other_game_is_refused_in_one_line_naming_it(profile: Profile, key: str,
                                                                   value: object) -> None:
    spec = game_of(profile)
    assert key not in spec.record_keys(profile)
    assert any(key in other.record_keys(other_profile) for other, other_profile
               in ((three_card.GAME, LIMITED), (pam.GAME, PAM)) if other is not spec)
    record = _record(profile)
    check(record)  # the record as written is a deal of its game
    record[key] = value
    with pytest.raises(MalformedRecord) as refused:
        check(record)
    allowed = ", ".join(spec.record_keys(profile))
    assert str(refused.value) == f"{key}: unknown field (allowed: {allowed})"
    assert "\n" not in str(refused.value)


def test_irish_loo_records_have_the_stock_and_exchanges_three_card_records_lack() -> None:
    irish = profile_from_rules({"base": "limited", "irish": True})
    extra = set(three_card.record_keys(irish)) - set(three_card.record_keys(LIMITED))
    assert extra == {"stock", "exchange"}
    assert pam.record_keys(PAM) == pam.RECORD_KEYS and "miss" not in pam.RECORD_KEYS
