"""Variant profiles: reading a record's ``rules`` key (SPEC §11).

A record names its rules in one of two ways:

* a bundle name: ``limited`` (the default), ``blenheim`` or ``pam``;
* a mapping of a base bundle plus options, e.g.
  ``{base: limited, loo: "mixed(30)", club_law: true}``.

Options keep the names SPEC §11 gives them. An option that one game registers
as its own (:mod:`loo_tutor.engine.games`) is refused under another game's
profile, as an option is never accepted and then ignored. An unknown option, a
value of the wrong kind or two options that cannot go together make the record
malformed, with a message naming ``rules.OPTION``.

>>> profile_from_rules(None) is LIMITED
True
>>> p = profile_from_rules({"base": "limited", "loo": "mixed(30)", "seats": "3-10"})
>>> p.loo_rule, p.loo, p.min_players, p.max_players
('mixed', 30, 3, 10)
>>> describe(p)
'limited + loo mixed(30), seats 3-10'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from .errors import MalformedRecord
from .games import bundle, games, option_owner
from .rules import LIMITED, PamParams, Profile, ThreeCardParams

BLENHEIM = replace(
    LIMITED, name="blenheim", ante=2, stake=1, stakes="everyone", loo=30, loo_rule="mixed",
    params=ThreeCardParams(simple_pool=False, two_player_top_trump=True, trump_leads=2,
                           dealer_defends_sole=True),
)
"""The rules of seed 003 as one bundle. Every deal has a miss, trumps turned at
once and declarations (seed 003 has no simple pool). A fresh pool is staked by
everyone (the dealer double); after a loo the new dealer alone stakes one. A
loo costs the pool up to 30, two players in lead their top trump, trump leads
bind the first two tricks only, and a dealer must defend against a single
stander."""

PAM = replace(LIMITED, name="pam", game="pam", ante=5, loo=5, min_players=4, max_players=7,
              params=PamParams())
"""Five-card Loo with Pam as seed 002 gives it (see :mod:`loo_tutor.engine.pam`)."""

BUNDLES: dict[str, Profile] = {"limited": LIMITED, "blenheim": BLENHEIM, "pam": PAM}
"""The profiles a record may name with a single word."""

_RANGE = re.compile(r"\s*(\d+)\s*-\s*(\d+)\s*")
_MIXED = re.compile(r"\s*mixed\s*\(\s*(\d+)\s*\)\s*")


def _words(*allowed: str) -> Callable[[str, Any], str]:
    def read(option: str, value: Any) -> str:
        if not isinstance(value, str) or value.strip().lower() not in allowed:
            raise MalformedRecord(
                f"rules.{option}: {value!r} is not one of {', '.join(allowed)}"
            )
        return value.strip().lower()
    return read


def _flag(option: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise MalformedRecord(f"rules.{option}: expected true or false, got {value!r}")
    return value


def _units(option: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedRecord(f"rules.{option}: expected a whole number ≥ 0, got {value!r}")
    return value


def _seats(option: str, value: Any) -> tuple[int, int]:
    match = _RANGE.fullmatch(value) if isinstance(value, str) else None
    low, high = (int(match[1]), int(match[2])) if match else (0, 0)
    if not 3 <= low <= high <= 10:
        raise MalformedRecord(
            f"rules.{option}: {value!r} is not a range of seats like \"3-10\" within 3 to 10"
        )
    return low, high


def _loo(option: str, value: Any) -> tuple[str, int]:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return "fixed", value
    if isinstance(value, str):
        word = value.strip().lower()
        if word == "unlimited":
            return "unlimited", 0
        match = _MIXED.fullmatch(word)
        if match:
            return "mixed", int(match[1])
    raise MalformedRecord(
        f"rules.{option}: {value!r} is not a number of units, unlimited or mixed(L)"
    )


# option -> (reader, how the value sets fields: the Profile's for an option of the
# table, the game's params' for an option a game owns)
_OPTIONS: dict[str, tuple[Callable[[str, Any], Any], Callable[[Any], dict[str, Any]]]] = {
    "seats": (_seats, lambda v: {"min_players": v[0], "max_players": v[1]}),
    "first_dealer": (_words("random", "low-cut"), lambda v: {"first_dealer": v}),
    "stakes": (_words("dealer", "everyone"),
               lambda v: ({"ante": 2, "stake": 1, "stakes": "everyone"} if v == "everyone"
                          else {"stake": 0, "stakes": "dealer"})),
    "ante": (_units, lambda v: {"ante": v}),
    "stake": (_units, lambda v: {"stake": v, "stakes": "everyone" if v else "dealer"}),
    "loo": (_loo, lambda v: {"loo_rule": v[0], "loo": v[1]}),
    "single_pot": (_words("hidden", "miss"), lambda v: {"single_pot_miss": v == "miss"}),
    "reveal": (_words("after-trick", "immediate"),
               lambda v: {"reveal_immediate": v == "immediate"}),
    "simple_ace_duty": (_flag, lambda v: {"simple_ace_duty": v}),
    "miss_position": (_words("second-to-last", "first"), lambda v: {"miss_first": v == "first"}),
    "two_player_top_trump": (_flag, lambda v: {"two_player_top_trump": v}),
    "trump_lead": (_words("every", "opening", "opening-and-next"),
                   lambda v: {"trump_leads": {"every": None, "opening": 1}.get(v, 2)}),
    "no_heading": (_flag, lambda v: {"heading": not v}),
    "club_law": (_flag, lambda v: {"club_law": v}),
    "irish": (_flag, lambda v: {"irish": v}),
    "three_card_flush": (_flag, lambda v: {"three_card_flush": v}),
    "undivided": (_flag, lambda v: {"undivided": v}),
    "session_end": (_words("share", "clean"), lambda v: {"session_end": v}),
    "dealer_defends_sole": (_flag, lambda v: {"dealer_defends_sole": v}),
    "running_pam": (_flag, lambda v: {"running_pam": v}),
    "flush_exempt": (_flag, lambda v: {"flush_exempt": v}),
    "duties": (_words("002", "004"),
               lambda v: {"pam_duties": "three-card" if v == "002" else "first-lead"}),
    "dealer_takes_trump": (_flag, lambda v: {"dealer_takes_trump": v}),
}

RULES_OPTIONS = tuple(_OPTIONS)
"""Every option name a ``rules`` mapping may use, besides ``base``."""

_NOT_IRISH = {"single_pot", "reveal", "simple_ace_duty", "miss_position"}


def profile_from_rules(value: Any) -> Profile:
    """The profile a record's ``rules`` value names.

    Raises:
        MalformedRecord: an unknown bundle or option, a bad value, or options
            that exclude each other; the message starts with ``rules``.
    """
    if value is None:
        return LIMITED
    if isinstance(value, str):
        return _bundle(value, "rules")
    if not isinstance(value, Mapping):
        raise MalformedRecord(f"rules: expected a profile name or a mapping, got {value!r}")
    if "base" not in value:
        raise MalformedRecord("rules.base: missing (name the profile the options change)")
    base = _bundle(value["base"], "rules.base")
    changes: dict[str, Any] = {}
    params: dict[str, Any] = {}
    written: list[tuple[str, object]] = []
    for option, given in value.items():
        if option == "base":
            continue
        if option not in _OPTIONS:
            raise MalformedRecord(
                f"rules.{option}: unknown option (allowed: base, {', '.join(RULES_OPTIONS)})"
            )
        owner = option_owner(option)  # a game's own option means nothing in another
        if owner is not None and owner.name != base.game:
            raise MalformedRecord(f"rules.{option}: not an option of {base.name}")
        read, fields = _OPTIONS[option]
        (changes if owner is None else params).update(fields(read(option, given)))
        written.append((option, given))
    if params:
        changes["params"] = replace(base.params, **params)
    profile = replace(base, options=base.options + tuple(written), **changes)
    if isinstance(profile.params, ThreeCardParams) and profile.params.irish:
        clash = sorted(_NOT_IRISH.intersection(dict(written)))
        if clash:
            raise MalformedRecord(f"rules.{clash[0]}: Irish Loo has no miss and no simple deal")
    return profile


def _bundle(value: Any, where: str) -> Profile:
    name = value.strip().lower() if isinstance(value, str) else None
    if name in BUNDLES:
        return BUNDLES[name]
    offered = None if name is None else bundle(name)  # a profile of a game registered later
    if offered is None:
        known = [*BUNDLES, *(p.name for spec in games() for p in spec.bundles)]
        raise MalformedRecord(f"{where}: unknown profile {value!r} (known: {', '.join(known)})")
    return offered


def describe(profile: Profile) -> str:
    """A short text naming the profile and its options, e.g. ``limited + club_law``."""
    if not profile.options:
        return profile.name
    parts = []
    for option, value in profile.options:
        parts.append(option if value is True else f"{option} {value}")
    return f"{profile.name} + {', '.join(parts)}"


def rules_value(profile: Profile) -> str | dict[str, Any] | None:
    """What a record's ``rules`` key holds for ``profile`` (``None`` for limited)."""
    if profile.is_limited:
        return None
    if not profile.options:
        return profile.name
    return {"base": profile.name, **dict(profile.options)}
