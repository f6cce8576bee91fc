"""Exercise 3: what may the dealer announce here?"""

from __future__ import annotations

from typing import Any

from ...engine.errors import LooError
from ...engine.legality import Announcement
from ...engine.rules import RuleId, RuleKey
from ...engine.state import (
    Announce,
    DealKind,
    DealState,
    Phase,
)
from ...records.record import record_from_state
from ..answers import (
    AnswerError,
    FieldResult,
    parse_choices,
)
from ..narrate import (
    dealer_rule,
)
from .base import (
    CALL_WORDS,
    CALLED,
    NONE,
    PASS,
    Answer,
    Exercise,
    Field,
    Kind,
    cite,
    join_names,
    refused,
    right_answer,
    show_amount,
    summed,
    wrong_answer,
)

# -- 3. what may the dealer announce ----------------------------------------------------


class DealerChoice(Exercise):
    """Exercise 3: the announcements the dealer may make once the others have announced.

    Attributes:
        state: a double deal in which the dealer is to announce, or in which
            everybody else passed so that the dealer collects (R-COLLECT).
    """

    kind = Kind.DEALER
    CALLS = ("stand", "pass", "miss", "defend", NONE)
    LABELS = ("stand", "pass", "take the miss", "defend", "no announcement: the dealer collects")

    def __init__(self, state: DealState, seed: int | None) -> None:
        collects = state.collected_by == state.dealer and state.collected_by is not None
        turn = state.phase is Phase.ANNOUNCE and state.current_player() == state.dealer
        if state.kind is not DealKind.DOUBLE or not (collects or turn):
            raise LooError("exercise 3 needs a double deal in which every player but the dealer "
                           "has announced")
        self.state = state
        dealer = state.players[state.dealer]
        said = "; ".join(f"{state.players[s]} {CALLED[a]}" for s, a in state.announcements)
        question = (f"Every other player has announced ({said}). What may {dealer}, the dealer, "
                    "announce now? Select every announcement the rules allow, or \"no "
                    "announcement\" if the dealer makes none.")
        fields = [Field("announcements", f"{dealer} may", "choices", self.CALLS, self.LABELS,
                        "every allowed announcement (stand, pass, miss, defend), or none")]
        super().__init__(seed, question, fields, [record_from_state(state)])

    @property
    def dealer(self) -> str:
        """The dealer's name."""
        return self.state.players[self.state.dealer]

    def collects(self) -> bool:
        """Whether every other player passed, so the dealer collects without announcing."""
        return self.state.collected_by is not None

    def allowed(self) -> tuple[str, ...]:
        """The right answer: the legal announcements, or ``("none",)``."""
        if self.collects():
            return (NONE,)
        return tuple(a.value for a in self.state.legal_announcements())

    def _rule(self) -> RuleKey:
        return RuleId.COLLECT if self.collects() else (dealer_rule(self.state)
                                                      or RuleId.ANN_DEALER_OTHER)

    def _why(self) -> str:
        state = self.state
        if self.collects():
            return (f"Every other player passed, so {self.dealer} collects the pool of "
                    f"{show_amount(state.pool)} without announcing at all (R-COLLECT).")
        allowed = [CALL_WORDS[a] for a in state.legal_announcements()]
        why = f"{self.dealer} may {join_names(allowed).replace(' and ', ' or ')} ({self._rule()})."
        for call in Announcement:
            verdict = state.check(Announce(state.dealer, call))
            if not verdict:
                why += " " + cite(verdict.message, verdict.rule)
        return why

    def solution(self) -> tuple[Answer, ...]:
        allowed = self.allowed()
        text = ("no announcement: the dealer collects" if allowed == (NONE,)
                else ", ".join(self.LABELS[self.CALLS.index(a)] for a in allowed))
        return (Answer("announcements", list(allowed), text, self._why(), self._rule()),)

    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        state = self.state
        if self.collects():
            return (("The deal: everybody but the dealer passes", record_from_state(state)),)
        call = state.legal_announcements()[0]
        after = state.apply(Announce(state.dealer, call))
        return ((f"The announcements, with the dealer's {CALL_WORDS[call]}",
                 record_from_state(after)),)

    def _judge(self, field: Field, value: object) -> FieldResult:
        chosen = parse_choices(value, self.CALLS, "announcement") or ()
        if NONE in chosen and len(chosen) > 1:
            raise AnswerError("\"none\" means the dealer makes no announcement, so it cannot go "
                              "with stand, pass, miss or defend")
        allowed = self.allowed()
        state = self.state
        details = []
        for word in chosen:
            if word in allowed:
                continue
            if word == NONE:
                players_in = join_names([state.players[s] for s, a in state.announcements
                                     if a is not PASS])
                details.append(wrong_answer(RuleId.COLLECT,
                                      f"{self.dealer} must announce: the dealer collects without "
                                      f"announcing only when everybody else passed, and "
                                      f"{players_in} did not (R-COLLECT)."))
                continue
            verdict = state.check(Announce(state.dealer, Announcement(word)))
            details.append(refused(verdict))
        if not self.collects():
            rule = self._rule()
            missed = [word for word in allowed if word not in chosen]
            if missed:  # which ones is left to the solution
                some = ("one announcement" if len(missed) == 1
                        else f"{len(missed)} announcements")
                details.append(wrong_answer(rule, f"{self.dealer} may also make {some} "
                                            f"you did not tick ({rule})."))
        if details:
            return summed(details)
        return right_answer(self._rule())
