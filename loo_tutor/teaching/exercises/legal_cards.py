"""Exercise 1: which cards may the player to act play?"""

from __future__ import annotations

from typing import Any

from ...engine.cards import Card, card_text
from ...engine.errors import LooError
from ...engine.observe import observation
from ...engine.state import DealState, Phase, Play
from ...records.record import record_from_state
from ..answers import FieldResult, parse_cards
from ..narrate import Narration, narrate_play
from .base import (
    Answer,
    Exercise,
    Field,
    Kind,
    first_rule,
    join_names,
    refused,
    right_answer,
    summed,
    wrong_answer,
)

# -- 1. which cards may be played -----------------------------------------------


class LegalCards(Exercise):
    """Exercise 1: select every card the player to act may play.

    Attributes:
        state: the position; the player to act is in the play phase.
        seat: the player to act.
        hand: the cards that player holds.
    """

    kind = Kind.LEGAL_CARDS

    def __init__(self, state: DealState, seed: int | None) -> None:
        seat = state.current_player()
        if state.phase is not Phase.PLAY or seat is None:
            raise LooError("exercise 1 needs a position in which a card is to be played")
        self.state, self.seat = state, seat
        self.hand: tuple[Card, ...] = tuple(observation(state, seat).hand or ())
        name = state.players[seat]
        number = len(state.tricks) + 1
        verb = f"play to trick {number}" if state.trick_cards() else f"lead to trick {number}"
        held = join_names([card_text(c) for c in self.hand])
        question = (f"It is {name}'s turn to {verb}, holding {held}. Which of these cards may "
                    f"{name} play? Select every legal card.")
        fields = [Field("cards", f"Cards {name} may play", "cards",
                        tuple(str(c) for c in self.hand),
                        tuple(card_text(c) for c in self.hand),
                        "select every legal card (or write them, e.g. 9H, QH)")]
        super().__init__(seed, question, fields, [record_from_state(state)])

    def legal(self) -> list[Card]:
        """The legal cards, as the engine says."""
        return self.state.legal_cards()

    def _refusal(self, card: Card) -> FieldResult:
        """The engine's refusal of ``card``, under the rule it names."""
        verdict = self.state.check(Play(self.seat, card))
        return refused(verdict)

    def _why_legal(self, card: Card) -> Narration:
        """Why ``card`` may be played, as the narration of the deal would say it."""
        return narrate_play(self.state, Play(self.seat, card))

    def _reasons(self) -> list[FieldResult]:
        """Why each card of the hand is legal or not, in the hand's order."""
        legal = self.legal()
        reasons = []
        for card in self.hand:
            if card in legal:
                told = self._why_legal(card)
                reasons.append(right_answer(first_rule(told), told.text))
            else:
                reasons.append(self._refusal(card))
        return reasons

    def solution(self) -> tuple[Answer, ...]:
        legal = self.legal()
        reasons = self._reasons()
        refused = [r for r in reasons if not r.is_right]
        rule = (refused or reasons)[0].rule
        why = " ".join(r.message for r in reasons)
        return (Answer("cards", [str(c) for c in legal], ", ".join(card_text(c) for c in legal),
                       why, rule),)

    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        card = self.legal()[0]
        after = self.state.apply(Play(self.seat, card))
        return ((f"The deal up to the question, then {card_text(card)} played",
                 record_from_state(after)),)

    def _judge(self, field: Field, value: object) -> FieldResult:
        chosen = parse_cards(value) or ()
        legal = self.legal()
        details = [self._refusal(card) for card in chosen if card not in legal]
        missed = [card for card in legal if card not in chosen]
        if missed:  # which ones is left to the solution
            rule = first_rule(self._why_legal(missed[0]))
            some = "One card" if len(missed) == 1 else f"{len(missed)} cards"
            details.append(wrong_answer(rule, f"{some} you did not tick may be played as well."))
        if details:
            return summed(details)
        return right_answer(self.solution()[0].rule)
