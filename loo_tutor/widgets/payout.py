"""Work out a deal's settlement yourself, then have each answer checked."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from fractions import Fraction

import ipywidgets as widgets

from ..errors import LooError
from ..narrate import Narration, carry_hint, loo_hint, payout_hint
from ..record import check, replay
from ..render import RULES_BASE, ledger_html, link_rules, table_html
from ..rules import RuleId
from ..state import DealState
from ._base import LooWidget, Source, read_record

FORMS = "a whole number (4), a fraction (10/3) or a mixed number (3 1/3)"
"""How an amount may be written, as the checker tells the reader."""

_WHOLE = re.compile(r"\d+")
_FRACTION = re.compile(r"(\d+)\s*/\s*(\d+)")
_MIXED = re.compile(r"(\d+)\s+(\d+)\s*/\s*(\d+)")
_DECIMAL = re.compile(r"\d*\.\d+(?:\.\.\.|…)?|\d+\.")


def parse_amount(text: str) -> Fraction | None:
    """Read an amount typed by the reader; ``None`` when the field is empty.

    Whole numbers, fractions and mixed numbers are exact. A decimal is read
    as the exact value it names (so ``3.33`` is not ten thirds); a trailing
    ``...`` or ``…`` is ignored.

    Raises:
        ValueError: the text is none of the accepted forms, or divides by 0.

    >>> parse_amount("10/3"), parse_amount(" 3 1/3 "), parse_amount("8"), parse_amount("")
    (Fraction(10, 3), Fraction(10, 3), Fraction(8, 1), None)
    >>> parse_amount("2.5")
    Fraction(5, 2)
    """
    cleaned = text.strip()
    if not cleaned:
        return None
    if _WHOLE.fullmatch(cleaned):
        return Fraction(int(cleaned))
    match = _FRACTION.fullmatch(cleaned) or _MIXED.fullmatch(cleaned)
    if match is not None:
        *whole, top, bottom = (int(g) for g in match.groups())
        if bottom == 0:
            raise ValueError(f"{cleaned!r} divides by zero; write {FORMS}")
        return sum(whole, Fraction(0)) + Fraction(top, bottom)
    if _DECIMAL.fullmatch(cleaned):
        return Fraction(cleaned.rstrip(".…") if not cleaned.endswith(".") else cleaned[:-1])
    raise ValueError(f"cannot read {cleaned!r}: write {FORMS}")


@dataclass(frozen=True)
class FieldResult:
    """The verdict on one answer.

    Attributes:
        status: ``"right"``, ``"wrong"``, ``"empty"`` (not answered yet) or
            ``"unreadable"``.
        rule: the rule the answer is about, when it is wrong.
        message: what the reader is told.
    """

    status: str
    rule: RuleId | None
    message: str


class PayoutChecker(LooWidget):
    """A finished deal: the reader fills in the settlement and checks it.

    One field per player for what they receive from the pool, a tick box per
    player for who is looed, and a field for the balance carried to the next
    deal. *Check* judges every field against the engine's settlement of the
    record and names the rule behind each wrong answer (R-PAY-THIRD, R-LOO,
    R-CARRY, or R-COLLECT / R-DEFEND / R-ANN-PASS where those decide).

    Args:
        record: a complete deal record (path, text or dict).
        four_colour: draw diamonds blue and clubs green.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        results: the verdict on each field after *Check*: keys ``"payout:NAME"``,
            ``"looed"`` and ``"carried"``.
        payout_fields: the payout text fields, by player name.
        looed_boxes: the looed tick boxes, by player name.
        carried_field: the carried balance field.
    """

    def __init__(self, record: Source, four_colour: bool = False,
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.results: dict[str, FieldResult] = {}
        self.payout_fields: dict[str, widgets.Text] = {}
        self.looed_boxes: dict[str, widgets.Checkbox] = {}
        try:
            data = read_record(record)
            result = check(data)
            if result["status"] != "complete":
                raise LooError(self._unfinished(result))
            self.final: DealState = replay(data).states[-1]
        except LooError as exc:
            self._fail(exc)
            return
        self._base = rules_base
        names = self.final.players
        self._payouts = {n: Fraction(result["payouts"].get(n, "0")) for n in names}
        self._looed = set(result["looed"])
        self._carried = Fraction(result["carried_next"])
        self._notes: dict[str, widgets.HTML] = {}
        rows = []
        for name in names:
            field = widgets.Text(description=name, placeholder="e.g. 4 or 10/3",
                                 tooltip=f"What {name} receives from the pool, in units")
            self.payout_fields[name] = field
            self._notes[f"payout:{name}"] = note = widgets.HTML()
            rows.append(widgets.HBox([field, note]))
        for name in names:
            self.looed_boxes[name] = widgets.Checkbox(value=False, description=name, indent=False,
                                                      tooltip=f"Tick if {name} is looed",
                                                      layout=widgets.Layout(width="auto"))
        self._notes["looed"] = widgets.HTML()
        self.carried_field = widgets.Text(description="Carried", placeholder="e.g. 3",
                                          tooltip="The balance carried to the next deal")
        self._notes["carried"] = widgets.HTML()
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           tooltip="Check every answer")
        self.answer_button = widgets.Button(description="Show the answer",
                                            tooltip="Show the engine's settlement")
        self.check_button.on_click(lambda _: self.check())
        self.answer_button.on_click(lambda _: self.show_answer())
        self.summary = widgets.HTML()
        self.answer = widgets.HTML()
        self.table = widgets.HTML(table_html(self.final, None, four_colour, ledger=False,
                                             base=rules_base))
        self.children = (
            self.table,
            widgets.HTML(f"<p>Amounts are in units; write {FORMS}. An empty field counts as "
                         "not answered yet.</p><p><strong>Received from the pool</strong></p>"),
            *rows,
            widgets.HTML("<p><strong>Who is looed?</strong></p>"),
            widgets.HBox([*self.looed_boxes.values(), self._notes["looed"]],
                         layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.carried_field, self._notes["carried"]]),
            widgets.HBox([self.check_button, self.answer_button]),
            self.summary,
            self.answer,
        )

    @staticmethod
    def _unfinished(result: dict[str, object]) -> str:
        error = result.get("error")
        if isinstance(error, dict):
            return (f"the deal stops at an illegal action ({error['rule']}: {error['message']}) "
                    "so it cannot be settled")
        return "the deal is not finished, so there is nothing to settle yet"

    # -- checking -------------------------------------------------------------

    def _amount_result(self, text: str, right: Fraction, hint: Narration) -> FieldResult:
        try:
            given = parse_amount(text)
        except ValueError as exc:
            return FieldResult("unreadable", None, str(exc))
        if given is None:
            return FieldResult("empty", None, "not answered yet")
        if given == right:
            return FieldResult("right", None, "right")
        rule = hint.rules[0] if hint.rules else None
        if "." in text and abs(given - right) < Fraction(1, 100):
            return FieldResult("wrong", RuleId.LEDGER,
                               "close, but the ledger is exact: write the amount as a fraction "
                               "(R-LEDGER).")
        return FieldResult("wrong", rule, f"not right. {hint.text}")

    def check(self) -> dict[str, FieldResult]:
        """Judge every answer, show the verdicts and return them."""
        if self.error is not None:
            return {}
        final = self.final
        results: dict[str, FieldResult] = {}
        for seat, name in enumerate(final.players):
            results[f"payout:{name}"] = self._amount_result(
                self.payout_fields[name].value, self._payouts[name], payout_hint(final, seat))
        ticked = {n for n, box in self.looed_boxes.items() if box.value}
        if ticked == self._looed:
            results["looed"] = FieldResult("right", None, "right")
        else:
            hint = loo_hint(final)
            results["looed"] = FieldResult("wrong", RuleId.LOO, f"not right. {hint.text}")
        results["carried"] = self._amount_result(self.carried_field.value, self._carried,
                                                 carry_hint(final))
        self.results = results
        for key, outcome in results.items():
            self._notes[key].value = self._note(outcome)
        right = sum(r.status == "right" for r in results.values())
        self.summary.value = f"<p>{right} of {len(results)} answers right.</p>"
        return results

    def _note(self, outcome: FieldResult) -> str:
        colour = {"right": "#1a7f37", "wrong": "#b00020", "unreadable": "#b00020"}.get(
            outcome.status, "#555")
        mark = {"right": "✓ ", "wrong": "✗ ", "unreadable": "? "}.get(outcome.status, "")
        return (f'<span class="loo-field-{outcome.status}" style="color:{colour}">'
                f'{mark}{link_rules(outcome.message, self._base)}</span>')

    def show_answer(self) -> None:
        """Show the engine's settlement of the deal."""
        if self.error is None:
            self.answer.value = ledger_html(self.final, self._base)

    def _render(self) -> str:
        notes = "".join(f"<p>{html.escape(k)}: {n.value}</p>" for k, n in self._notes.items()
                        if n.value)
        return f"{self.table.value}{notes}{self.summary.value}{self.answer.value}"
