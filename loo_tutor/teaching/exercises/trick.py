"""Exercise 2: who wins the trick, and (simple deal) are trumps revealed after it?"""

from __future__ import annotations

from typing import Any

from ...engine.cards import Card, card_text
from ...engine.legality import trick_winner_index
from ...engine.rules import RuleId
from ...engine.state import (
    DealKind,
    DealState,
)
from ...records.record import record_from_state
from ..answers import (
    EMPTY,
    FieldResult,
    parse_choice,
    parse_yes_no,
)
from .base import Answer, Exercise, Field, Kind, join_names, right_answer, wrong_answer

# -- 2. who wins the trick -----------------------------------------------------------


class TrickWinner(Exercise):
    """Exercise 2: who wins a finished trick, and is the hidden trump revealed after it?

    Attributes:
        before: the deal as the trick is about to be led.
        after: the deal once the trick is complete.
        number: the trick's number, 1 to 3.
    """

    kind = Kind.TRICK

    def __init__(self, before: DealState, after: DealState, number: int,
                 seed: int | None) -> None:
        self.before, self.after, self.number = before, after, number
        self.trick = after.tricks[number - 1]
        names = after.players
        self.plays = tuple((names[seat], card) for seat, card in self.trick.plays)
        self.asks_reveal = before.kind is DealKind.SIMPLE and before.trump is None
        question = f"Here is trick {number}, card by card. Who wins it?"
        fields = [Field("winner", "Winner of the trick", "choice",
                        tuple(name for name, _ in self.plays),
                        tuple(f"{name} ({card_text(card)})" for name, card in self.plays),
                        "one player")]
        if self.asks_reveal:
            question += " Are trumps revealed after it?"
            fields.append(Field("revealed", "Trumps revealed after this trick?", "yesno",
                                ("yes", "no"), ("yes", "no"), "yes or no"))
        super().__init__(seed, question, fields, [record_from_state(after)])

    @property
    def cards(self) -> list[Card]:
        """The trick's cards in the order played."""
        return [card for _, card in self.plays]

    def _winner_index(self) -> int:
        return trick_winner_index(self.cards, self.after.trump)

    def revealed(self) -> bool:
        """Whether trumps were revealed after this trick (R-REVEAL)."""
        return self.before.trump is None and self.after.trump is not None

    def _why_winner(self) -> str:
        name, card = self.plays[self._winner_index()]
        led = self.cards[0].suit
        trump = self.after.trump
        if trump is not None and card.suit is trump:
            how = f"{card_text(card)}, the highest trump in the trick"
        elif trump is None:
            how = f"{card_text(card)}, the highest {led.noun}: trumps are still hidden"
        else:
            how = f"{card_text(card)}, the highest {led.noun}: no trump was played"
        return f"{name} wins with {how} (R-WIN)."

    def _why_reveal(self) -> str:
        led = self.cards[0].suit
        if self.revealed():
            void = join_names([n for n, c in self.plays if c.suit is not led])
            trump = self.after.trump
            assert trump is not None
            return (f"{void} could not follow {led.noun}s, so after the trick the indicator "
                    f"{card_text(self.after.indicator)} is turned: {trump.noun}s are trumps and "
                    f"this trick is judged with them (R-REVEAL).")
        return f"Everyone followed {led.noun}s, so trumps stay hidden (R-REVEAL)."

    def solution(self) -> tuple[Answer, ...]:
        name = self.plays[self._winner_index()][0]
        rule = RuleId.REVEAL if self.revealed() else RuleId.WIN
        found = [Answer("winner", name, name, self._why_winner(), rule)]
        if self.asks_reveal:
            yes = self.revealed()
            found.append(Answer("revealed", "yes" if yes else "no", "yes" if yes else "no",
                                self._why_reveal(), RuleId.REVEAL))
        return tuple(found)

    def walkthrough(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        return ((f"The deal up to the end of trick {self.number}", record_from_state(self.after)),)

    def _judge(self, field: Field, value: object) -> FieldResult:
        if field.key == "revealed":
            said = parse_yes_no(value)
            if said is None:
                return EMPTY
            if said == self.revealed():
                return right_answer(RuleId.REVEAL)
            return wrong_answer(RuleId.REVEAL, self._why_reveal())
        name = parse_choice(value, field.options, "player of this trick")
        assert name is not None
        right = self._winner_index()
        if name == self.plays[right][0]:
            return right_answer(RuleId.REVEAL if self.revealed() else RuleId.WIN)
        return self._wrong_winner(field.options.index(name))

    def _wrong_winner(self, chosen: int) -> FieldResult:
        cards = self.cards
        led = cards[0].suit
        trump = self.after.trump
        name, card = self.plays[chosen]
        shown = card_text(card)
        if self.revealed() and trick_winner_index(cards, None) == chosen:
            return wrong_answer(RuleId.REVEAL,
                          f"{shown} is the highest {led.noun}, but somebody could not follow, so "
                          "trumps are revealed after this trick and it is judged with them "
                          "(R-REVEAL).")
        if card.suit is not led and trump is None:
            return wrong_answer(RuleId.WIN, f"{name}'s {shown} is not a {led.noun}, the suit led, and "
                                      "trumps are not known, so it cannot win (R-WIN).")
        if card.suit is not led and card.suit is not trump:
            return wrong_answer(RuleId.WIN, f"{name}'s {shown} is neither a {led.noun}, the suit led, "
                                      "nor a trump, so it cannot win (R-WIN).")
        best = cards[self._winner_index()]
        if card.suit is led and best.suit is trump and led is not trump:
            return wrong_answer(RuleId.WIN, f"A trump was played to this trick, and any trump beats "
                                      f"every {led.noun} (R-WIN).")
        what = "trump" if card.suit is trump else led.noun
        return wrong_answer(RuleId.WIN, f"{name}'s {shown} is beaten by a higher {what} in the trick "
                                  "(R-WIN).")
