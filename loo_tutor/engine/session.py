"""A session: several deals at one table, the ledger and the end-of-session split.

The ledger holds every player's balance and the pool in exact fractions; the
sum of all balances plus the pool is zero at every moment (R-CONSERVE).

>>> import random
>>> from loo_tutor.engine.sim import play_out
>>> session = Session(["A", "B", "C", "D", "E"], deals=5, seed=11)
>>> while not session.is_over():
...     session.finish_deal(play_out(session.start_deal(), session.rng))
>>> final = session.end()
>>> sum(final.values())
Fraction(0, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import cast

from .cards import ACE, Card, full_deck
from .errors import LooError, RuleError
from .games import game_of
from .pam import PamState
from .rules import LIMITED, Profile, RuleId
from .state import DealMachine, DealState, Phase, Seat

AnyDealState = DealState | PamState
"""The state of a deal of either game: three-card Loo, or five-card Loo with Pam."""


@dataclass
class Ledger:
    """Balances by seat and the pool, as exact fractions (R-LEDGER).

    Units only move between a balance and the pool, so
    ``sum(balances) + pool`` never changes from 0 (R-CONSERVE).
    """

    balances: dict[Seat, Fraction]
    pool: Fraction = Fraction(0)

    @classmethod
    def empty(cls, players: int) -> Ledger:
        """Every balance and the pool at 0."""
        return cls({seat: Fraction(0) for seat in range(players)})

    def pay_in(self, seat: Seat, amount: Fraction | int) -> None:
        """Move ``amount`` from a player's balance into the pool."""
        self.balances[seat] -= amount
        self.pool += amount

    def pay_out(self, seat: Seat, amount: Fraction | int) -> None:
        """Move ``amount`` from the pool to a player's balance."""
        self.pool -= amount
        self.balances[seat] += amount

    def total(self) -> Fraction:
        """Sum of all balances plus the pool: always 0."""
        return sum(self.balances.values(), self.pool)


@dataclass
class Session:
    """A table of players dealing an agreed number of deals (R-SESSION-LENGTH).

    Args:
        players: names in clockwise seating order (5–8, R-SEAT-COUNT).
        deals: the agreed number of deals; a multiple of the number of
            players lets everyone deal equally often.
        seed: seeds the shuffles and the choice of the first dealer.
        first_dealer: the first dealer's seat; when ``None`` it is drawn at
            random (R-SEAT-FIRST-DEALER), or cut for under the profile option
            ``first_dealer: low-cut`` (V-LOW-CUT).
        profile: the rules played.

    Attributes:
        cuts: the cards cut for the first deal, round by round, when the
            dealer was cut for (V-LOW-CUT).

    Raises:
        LooError: wrong number of players, or a nonsensical deal count or seat.
    """

    players: Sequence[str]
    deals: int
    seed: int | None = None
    first_dealer: Seat | None = None
    profile: Profile = LIMITED
    rng: random.Random = field(init=False)
    dealer: Seat = field(init=False)
    carried: Fraction = field(init=False, default=Fraction(0))
    ledger: Ledger = field(init=False)
    history: list[AnyDealState] = field(init=False, default_factory=list)
    current: AnyDealState | None = field(init=False, default=None)
    cuts: list[dict[Seat, Card]] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        count = len(self.players)
        if not self.profile.min_players <= count <= self.profile.max_players:
            raise RuleError(f"{count} players: this game needs {self.profile.min_players} "
                            f"to {self.profile.max_players}", RuleId.SEAT_COUNT)
        if len(set(self.players)) != count:
            raise LooError("every player needs a different name")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise LooError(f"deals: {self.deals!r} is not a whole number of deals, 1 or more")
        self.players = tuple(self.players)
        self.rng = random.Random(self.seed)
        if self.first_dealer is None and self.profile.first_dealer == "low-cut":
            self.first_dealer = self._cut_for_deal()
        elif self.first_dealer is None:
            self.first_dealer = self.rng.randrange(count)
        elif not 0 <= self.first_dealer < count:
            raise LooError(f"first dealer seat {self.first_dealer} is not one of the {count} seats")
        self.dealer = self.first_dealer
        self.ledger = Ledger.empty(count)

    def _cut_for_deal(self) -> Seat:
        """Everyone cuts; the lowest card deals, ace low, and a tie cuts again (V-LOW-CUT)."""
        seats = list(range(len(self.players)))
        while True:
            pack = full_deck()
            self.rng.shuffle(pack)
            cut = dict(zip(seats, pack, strict=False))
            self.cuts.append(cut)
            low = min(_cut_value(card) for card in cut.values())
            seats = [seat for seat, card in cut.items() if _cut_value(card) == low]
            if len(seats) == 1:
                return seats[0]

    def is_over(self) -> bool:
        """Whether the session has ended.

        That is after the agreed number of deals (R-SESSION-LENGTH), or under
        ``session_end: clean`` at the first deal from then on that leaves
        nobody looed (V-SESSION-CLEAN).
        """
        if len(self.history) < self.deals:
            return False
        if self.profile.session_end == "clean" and self.current is None:
            return not self.history[-1].settlement().looed
        return True

    def start_deal(self) -> AnyDealState:
        """Book the stakes, then shuffle, cut and deal as the profile's game deals (R-DEAL-ANTE).

        Returns:
            The new deal, a :class:`~loo_tutor.engine.state.DealState` (under the
            ``pam`` profile a :class:`~loo_tutor.engine.pam.PamState`).

        Raises:
            LooError: a deal is already under way, or the session is over.
        """
        if self.current is not None:
            raise LooError("the current deal must be finished before the next is dealt")
        if self.is_over():
            raise LooError(f"the session's {self.deals} deals have all been played")
        start = game_of(self.profile).start
        dealt = cast(AnyDealState,
                     start(self.players, self.dealer, self.carried, self.rng, self.profile))
        for seat, stake in enumerate(dealt.stakes):  # booked only once the deal exists
            if stake:
                self.ledger.pay_in(seat, stake)
        self.current = dealt
        return dealt

    def finish_deal(self, state: DealMachine) -> None:
        """Book a finished deal: payouts, loos and the carried balance (R-CARRY).

        The deal passes to the dealer's left (R-SEAT-ROTATE).

        Raises:
            LooError: ``state`` is not the current deal played to its end.
        """
        if self.current is None:
            raise LooError("no deal is under way")
        if state.phase is not Phase.OVER or state.hands != self.current.hands:
            raise LooError("finish_deal needs the current deal played to its end")
        settled = state.settlement()
        for seat, amount in settled.payouts.items():
            self.ledger.pay_out(seat, amount)
        for seat in settled.looed:
            self.ledger.pay_in(seat, settled.loo)
        assert self.ledger.pool == settled.carried_next, "ledger and settlement disagree"
        self.carried = settled.carried_next
        self.history.append(cast(AnyDealState, state))  # a deal of the game start_deal dealt
        self.current = None
        self.dealer = (self.dealer + 1) % len(self.players)

    def end(self) -> dict[str, Fraction]:
        """Share what is left in the pool equally and return the final balances.

        After this the balances sum to exactly 0 (R-SESSION-END, R-SESSION-RESULT).

        Raises:
            LooError: deals remain to be played, or a deal is under way.
        """
        if not self.is_over() or self.current is not None:
            clean = " and a deal with nobody looed" if self.profile.session_end == "clean" else ""
            raise LooError(f"the session ends after {self.deals} deals{clean}; "
                           f"{len(self.history)} have been played")
        share = self.final_share()
        for seat in range(len(self.players)):
            self.ledger.pay_out(seat, share)
        self.carried = Fraction(0)
        return self.balances()

    def final_share(self) -> Fraction:
        """What each player receives when the pool is shared at the end (R-SESSION-END).

        """
        return end_share(self.ledger.pool, len(self.players))

    def balances(self) -> dict[str, Fraction]:
        """Every player's net balance so far, by name."""
        return {self.players[s]: v for s, v in self.ledger.balances.items()}

    def leaders(self) -> list[str]:
        """The players with the highest balance (R-SESSION-RESULT)."""
        best = max(self.ledger.balances.values())
        return [self.players[s] for s, v in self.ledger.balances.items() if v == best]


def end_share(pool: Fraction, players: int) -> Fraction:
    """Each player's share of what is left in the pool when a session ends (R-SESSION-END).

    >>> end_share(Fraction(10), 6)
    Fraction(5, 3)
    """
    return pool / players


def _cut_value(card: Card) -> int:
    """A card's value when cutting for the deal: ace lowest, then 2 up to king."""
    return -1 if card.rank == ACE else card.rank
