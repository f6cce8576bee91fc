"""The money of a deal: exact amounts and the settlement of a finished deal.

Every amount is a :class:`~fractions.Fraction`; :func:`settle` pays the tricks,
the loos and the carried balance of any game (R-PAY-THIRD, R-LOO, R-CARRY).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final, NamedTuple

from .actions import Seat
from .rules import Profile

# Builds a named tuple without running its Python __new__. Held here, the compiled
# build calls it without looking up tuple and then __new__ in every settlement.
_NEW_TUPLE: Final = tuple.__new__

_FRACTIONS: Final[dict[int, Fraction]] = {}
_DENOMINATORS: Final = 1 << 20  # a key numerator * _DENOMINATORS + denominator names one pair


def exact(numerator: int, denominator: int) -> Fraction:
    """``Fraction(numerator, denominator)``, reusing objects for common values.

    Ledger amounts repeat a great deal (thirds of small pools), and building a
    Fraction costs far more than looking one up.
    """
    if not 0 < denominator < _DENOMINATORS:
        return Fraction(numerator, denominator)
    key = numerator * _DENOMINATORS + denominator
    value = _FRACTIONS.get(key)
    if value is None:
        value = Fraction(numerator, denominator)
        if len(_FRACTIONS) < 4096:
            _FRACTIONS[key] = value
            _TEXTS[id(value)] = str(value)
    return value


# Texts of the Fractions kept in _FRACTIONS, by id. Those objects live for
# good, so no other object can ever share one of these ids.
_TEXTS: Final[dict[int, str]] = {}


def amount_text(value: Fraction) -> str:
    """``str(value)``, looked up for the amounts :func:`exact` keeps.

    >>> amount_text(exact(10, 3)), amount_text(Fraction(7, 9))
    ('10/3', '7/9')
    """
    text = _TEXTS.get(id(value))
    return str(value) if text is None else text


def amount_texts(amounts: dict[Seat, Fraction], names: tuple[str, ...]) -> dict[str, str]:
    """:func:`amount_text` of each seat's amount, keyed by the seat's name, in one call.

    >>> amount_texts({0: exact(10, 3), 2: exact(-3, 1)}, ("A", "B", "C"))
    {'A': '10/3', 'C': '-3'}
    """
    texts = _TEXTS
    named = {}
    for seat, value in amounts.items():
        text = texts.get(id(value))
        named[names[seat]] = str(value) if text is None else text
    return named


_HALF: Final = 128  # a row of amounts holds the parts -_HALF to _HALF - 1
_ROWS: Final[dict[int, list[Fraction | None]]] = {}


def _row(per_unit: int) -> list[Fraction | None]:
    """The amounts already made in parts ``1/per_unit``, by number of parts plus ``_HALF``.

    Looking an amount up by position costs less than hashing a key for it.
    """
    row = _ROWS.get(per_unit)
    if row is None:
        row = [None] * (2 * _HALF)
        if len(_ROWS) < 64:
            _ROWS[per_unit] = row
    return row


def _part(row: list[Fraction | None], amount: int, per_unit: int) -> Fraction:
    """:func:`exact` of ``amount`` parts ``1/per_unit``, kept in ``row`` (:func:`_row`)."""
    if not -_HALF <= amount < _HALF:
        return exact(amount, per_unit)
    value = row[amount + _HALF]
    if value is None:
        value = row[amount + _HALF] = exact(amount, per_unit)
    return value


def signed_text(amount: Fraction) -> str:
    """A change of balance as the reader sees it: ``+8``, ``0``, ``−3``, ``+10/3``.

    A gain carries a plus sign and a loss the minus sign (U+2212); nothing
    gained or lost is plain ``0``.

    >>> signed_text(exact(10, 3)), signed_text(exact(0, 1)), signed_text(exact(-3, 1))
    ('+10/3', '0', '−3')
    """
    if amount > 0:
        return f"+{amount}"
    return f"\u2212{-amount}" if amount < 0 else "0"


class Settlement(NamedTuple):
    """Who receives and who pays when a deal ends (R-PAY-THIRD, R-LOO, R-CARRY)."""

    payouts: dict[Seat, Fraction]
    """Pool money received, only for seats that received some."""
    looed: tuple[Seat, ...]
    """Looed seats in announcement order."""
    carried_next: Fraction
    """The carried balance of the next deal, before its ante."""
    net: dict[Seat, Fraction]
    """Every seat's change, which is its payout less its stake and any loo it pays."""
    loo: Fraction
    """What each looed seat pays (3 in the limited profile)."""


def settle(profile: Profile, pool: Fraction, stakes: Sequence[int], tricks_per_deal: int,
           active: Sequence[Seat], winners: Sequence[Seat], collected_by: Seat | None,
           not_paid: Sequence[Seat] = (), flush_spared: Sequence[Seat] | None = None,
           undivided: bool = False) -> Settlement:
    """Settle a finished deal of any game (R-PAY-THIRD, R-LOO, R-CARRY, R-LEDGER).

    Args:
        profile: the rules played (the loo).
        pool: the pool at start of play.
        stakes: what each seat paid in before the deal.
        tricks_per_deal: 3, or 5 in Pam Loo; each trick earns that share of the pool.
        active: the players in the deal, in order.
        winners: the winner of each trick played.
        collected_by: who took the whole pool without play (R-COLLECT or a flush).
        not_paid: players in the deal who play for the pool (the defender).
        flush_spared: when a flush took the pool, the players in it who are not
            looed (the flush's holder, the defender, those a rule exempts).
        undivided: only a player winning every trick is paid (V-UNDIVIDED, an
            option of three-card Loo).
    """
    # Count in parts of 1/(T*q) of a unit for a pool p/q and T tricks: a trick then
    # earns exactly p parts and every amount stays a whole number.
    p, q = pool.as_integer_ratio()  # one call, not two properties
    per_unit = tricks_per_deal * q
    whole = tricks_per_deal * p
    rule = profile.loo_rule
    if rule == "fixed":
        loo = profile.loo * per_unit
    else:  # unlimited: the pool at start of play; mixed: at most the limit
        loo = whole if rule == "unlimited" else min(whole, profile.loo * per_unit)
    gains = [0] * len(stakes)  # parts received from the pool, less any loo paid
    paid_to: list[Seat] = []
    looed: tuple[Seat, ...] = ()
    if collected_by is not None:
        gains[collected_by] = whole
        paid_to.append(collected_by)
        if flush_spared is not None:  # every other player in is looed (V-FLUSH)
            looed = tuple(s for s in active if s not in flush_spared)
    else:
        wins = [0] * len(stakes)
        for winner in winners:
            wins[winner] += 1
        for seat in active:
            if seat in not_paid:
                continue
            won = wins[seat]
            if not won:
                looed += (seat,)
            elif won == tricks_per_deal or not undivided:  # V-UNDIVIDED: a clean sweep
                gains[seat] = won * p
                paid_to.append(seat)
    left = whole + loo * len(looed)
    row = _row(per_unit)
    payouts = {}
    for seat in paid_to:
        left -= gains[seat]
        payouts[seat] = _part(row, gains[seat], per_unit)
    for seat in looed:
        gains[seat] = -loo
    net = {}
    for seat, stake in enumerate(stakes):
        amount = gains[seat] - stake * per_unit
        # _part inline, for the amount of every seat: a call only for an amount not yet made.
        value = row[amount + _HALF] if -_HALF <= amount < _HALF else None
        net[seat] = _part(row, amount, per_unit) if value is None else value
    return _NEW_TUPLE(Settlement, (payouts, looed, _part(row, left, per_unit), net,
                                   _part(row, loo, per_unit)))
