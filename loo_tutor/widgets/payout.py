"""Work out a deal's settlement yourself, then have each answer checked."""

from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as widgets

from ..engine.cards import Card
from ..engine.errors import LooError
from ..engine.observe import hidden_cards
from ..engine.rules import RuleId
from ..engine.state import DealState
from ..records.record import CheckResult, check, replay
from ..render.markup import RULES_BASE, ledger_html, link_rules, table_html
from ..teaching.answers import (
    FORMS,
    AnswerError,
    FieldResult,
    judge_amount,
    parse_amount,
    parse_names,
)
from ..teaching.narrate import Narration, carry_hint, loo_hint, payout_hint
from ._base import LooWidget, Source, nothing, read_record, unless_failed

__all__ = ["FORMS", "FieldResult", "PayoutChecker", "parse_amount"]


class PayoutChecker(LooWidget):
    """A finished deal: the reader fills in the settlement and checks it.

    One field per player for what they receive from the pool, a tick box per
    player for who is looed (and one for "nobody", as in the exercises), and
    a field for the balance carried to the next deal. A field left empty is
    not answered yet, and is not counted. *Check* judges every field against
    the engine's settlement of the record and names the rule behind each
    wrong answer (R-PAY-THIRD, R-LOO, R-CARRY, or R-COLLECT / R-DEFEND /
    R-ANN-PASS where those decide).

    Args:
        record: a complete deal record (path, text or dict).
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        results: the verdict on each field after *Check*: keys ``"payout:NAME"``,
            ``"looed"`` and ``"carried"``.
        payout_fields: the payout text fields, by player name.
        looed_boxes: the looed tick boxes, by player name.
        nobody_box: the tick box saying that nobody is looed.
        carried_field: the carried balance field.
    """

    def __init__(self, record: Source, four_colour: bool = False,
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.results: dict[str, FieldResult] = {}
        self.payout_fields: dict[str, widgets.Text] = {}
        self.looed_boxes: dict[str, widgets.Checkbox] = {}
        finished = self.attempt(lambda: self._finished(record))
        if finished is None:
            return
        self.final: DealState = finished[0]
        result = finished[1]
        self._base = rules_base
        names = self.final.players
        self._payouts = {n: Fraction(result["payouts"].get(n, "0")) for n in names}
        self._looed = set(result["looed"])
        carried = result["carried_next"]
        assert carried is not None  # a complete deal has settled what it carries
        self._carried = Fraction(carried)
        self._notes: dict[str, widgets.HTML] = {}
        rows = []
        for name in names:
            field = self.part(widgets.Text, description=name, placeholder="e.g. 4 or 10/3",
                              tooltip=f"What {name} receives from the pool, in units")
            self.payout_fields[name] = field
            self._notes[f"payout:{name}"] = note = self.part(widgets.HTML)
            rows.append(self.part(widgets.HBox, [field, note]))
        for name in names:
            self.looed_boxes[name] = self.part(widgets.Checkbox, value=False, description=name,
                                               indent=False, tooltip=f"Tick if {name} is looed",
                                               layout={"width": "auto"})
        self.nobody_box = self.part(widgets.Checkbox, value=False, description="nobody",
                                    indent=False, tooltip="Tick if nobody is looed",
                                    layout={"width": "auto"})
        self._notes["looed"] = self.part(widgets.HTML)
        self.carried_field = self.part(widgets.Text, description="Carried", placeholder="e.g. 3",
                                       tooltip="The balance carried to the next deal")
        self._notes["carried"] = self.part(widgets.HTML)
        self.check_button = self.button("Check", "Check every answer", self.check,
                                        button_style="primary")
        for field in (*self.payout_fields.values(), self.carried_field):
            self.on_enter(field, self.check)
        self.answer_button = self.button("Show the answer", "Show the engine's settlement",
                                         self.show_answer)
        self.summary = self.said()
        self.answer = self.part(widgets.HTML)
        table = table_html(self.final, None, four_colour, ledger=False, base=rules_base)
        self.table = self.part(widgets.HTML, table)
        self.show(
            self.table,
            self.part(widgets.HTML, f"<p>Amounts are in units; write {FORMS}. An empty field "
                      "counts as not answered yet.</p>"
                      "<p><strong>Received from the pool</strong></p>"),
            *rows,
            self.part(widgets.HTML, "<p><strong>Who is looed?</strong></p>"),
            self.part(widgets.HBox, [*self.looed_boxes.values(), self.nobody_box,
                                     self._notes["looed"]]),
            self.part(widgets.HBox, [self.carried_field, self._notes["carried"]]),
            self.part(widgets.HBox, [self.check_button, self.answer_button]),
            self.summary,
            self.answer,
        )

    @unless_failed(frozenset)
    def hidden_cards(self) -> frozenset[Card]:
        return hidden_cards(self.final, None)

    @classmethod
    def _finished(cls, record: Source) -> tuple[DealState, CheckResult]:
        """The last state of ``record``'s deal, and the engine's check of it.

        Raises:
            LooError: the record is not a complete deal.
        """
        data = read_record(record)
        result = check(data)
        if result["status"] != "complete":
            raise LooError(cls._unfinished(result))
        return replay(data).states[-1], result

    @staticmethod
    def _unfinished(result: CheckResult) -> str:
        error = result["error"]
        if error is not None:
            return (f"the deal stops at an illegal action ({error['rule']}: {error['message']}) "
                    "so it cannot be settled")
        return "the deal is not finished, so there is nothing to settle yet"

    # -- checking -------------------------------------------------------------

    def _amount_result(self, text: str, right: Fraction, hint: Narration) -> FieldResult:
        rule = hint.rules[0] if hint.rules else None
        return judge_amount(text, right, rule, hint.text)

    def _looed_result(self) -> FieldResult:
        """The verdict on who is looed: names ticked, or "nobody", as the exercises read them."""
        ticked = [n for n, box in self.looed_boxes.items() if box.value]
        given: list[str] | str = [*ticked, "nobody"] if self.nobody_box.value else ticked
        if given == ["nobody"]:
            given = "nobody"
        try:
            chosen = parse_names(given, self.final.players)
        except AnswerError:
            return FieldResult("unreadable", None, "tick the players who are looed, or nobody, "
                                                   "not both")
        if chosen is None:
            return FieldResult("empty", None, "not answered yet")
        if set(chosen) == self._looed:
            return FieldResult("right", None, "right")
        return FieldResult("wrong", RuleId.LOO, f"not right. {loo_hint(self.final).text}")

    @unless_failed(dict)
    def check(self) -> dict[str, FieldResult]:
        """Judge every answer, show the verdicts and return them."""
        final = self.final
        results: dict[str, FieldResult] = {}
        for seat, name in enumerate(final.players):
            results[f"payout:{name}"] = self._amount_result(
                self.payout_fields[name].value, self._payouts[name], payout_hint(final, seat))
        results["looed"] = self._looed_result()
        results["carried"] = self._amount_result(self.carried_field.value, self._carried,
                                                 carry_hint(final))
        self.results = results
        right = sum(r.status == "right" for r in results.values())
        answered = sum(r.status != "empty" for r in results.values())
        if not answered:
            self.ask_for_an_answer(self._notes.values(), self.summary)
            return results
        for key, outcome in results.items():
            self._notes[key].value = self._note(outcome)
        waiting = (f" {len(results) - answered} not answered yet." if answered < len(results)
                   else "")
        self.summary.value = (f'<p class="loo-summary">{right} of {answered} '
                              f"answers right.{waiting}</p>")
        if right == len(results):
            self.finish()
        return results

    def _note(self, outcome: FieldResult) -> str:
        mark = {"right": "✓ ", "wrong": "✗ ", "unreadable": "? "}.get(outcome.status, "")
        return (f'<span class="loo-field-{outcome.status}">'
                f'{mark}{link_rules(outcome.message, self._base)}</span>')

    @unless_failed(nothing)
    def show_answer(self) -> None:
        """Show the engine's settlement of the deal."""
        self.answer.value = ledger_html(self.final, self._base)

    def _render(self) -> str:
        notes = "".join(f"<p>{html.escape(k)}: {n.value}</p>" for k, n in self._notes.items()
                        if n.value)
        return f"{self.table.value}{notes}{self.summary.value}{self.answer.value}"
