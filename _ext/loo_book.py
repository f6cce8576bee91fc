"""The book's deals, drawn by the engine when the book is built.

Two pieces of markup for the pages of ``book/``:

* the ``{card}`` role writes cards in running text: ``{card}`7H``` or several
  at once, ``{card}`AH 7H KC```. Each card is written as the engine writes
  it (:func:`loo_tutor.render.markup.card_text_html`: its suit's colour, its spoken
  name for screen readers), on a small white chip;
* the ``loo-deal`` directive replays a deal record with the engine and draws
  what it is asked for: the hands and announcements (``hands``), the table at
  one moment as the widgets draw it (``picture``, from
  :func:`loo_tutor.render.markup.table_html`; ``:at:`` names the moment, ``:view:``
  a player whose view it is), the tricks with their winners
  (``tricks``), the settlement (``settlement``, from
  :func:`loo_tutor.render.markup.ledger_html`) and, for a record that ends in an
  illegal action, the engine's refusal of it (``refusal``). The directive's content, a numbered
  list, gives the reason for each trick, in the author's words, and becomes
  the table's *Why* column.

The argument names a record shipped with the package (``forced-ace``, see
:mod:`loo_tutor.records.data`) or a record file, relative to the page as for
``literalinclude``::

    ```{loo-deal} ../tests/data/examples/05_simple_reveal_trick3.yaml
    :show: hands, tricks
    1. Everyone follows, and each player beats the card before.
    ```

Nothing here decides a rule: every card, winner and amount is the engine's.
A record that is no deal, a moment the deal never reaches, or a card the
role cannot read is reported as a build warning naming the page and line.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective, SphinxRole

from loo_tutor.engine.cards import CARDS, Card, parse_card
from loo_tutor.engine.errors import LooError
from loo_tutor.engine.legality import Announcement
from loo_tutor.engine.state import DealKind, DealState, Phase, Seat
from loo_tutor.records.data import example
from loo_tutor.records.record import load_record, replay
from loo_tutor.render.markup import (
    CARD_TEXT_CSS,
    card_text_html,
    ledger_html,
    narration_html,
    stylesheet,
    table_html,
)
from loo_tutor.teaching.narrate import Narration, narrate_refusal

SHOWN = ("hands", "picture", "tricks", "settlement", "refusal")
_SAID = {Announcement.STAND: "stand", Announcement.PASS: "pass",
         Announcement.MISS: "takes the miss", Announcement.DEFEND: "defends the pool"}


# -- what is drawn (pure functions of a record) ---------------------------------------


def cards_html(cards: Sequence[Card]) -> str:
    """Cards in running text, a space apart, each as the engine writes it
    (:func:`loo_tutor.render.markup.card_text_html`)."""
    inner = " ".join(card_text_html(card) for card in cards)
    return f'<span class="loo-cards">{inner}</span>'


INKS = stylesheet(cards_html(CARDS))
"""The engine's rules for the inks of cards in text."""


def read_record(source: str, page_folder: Path) -> dict[str, Any]:
    """The record named by a directive's argument: a shipped example's name, or a
    file relative to the page's folder.

    Raises:
        MalformedRecord: no such example, or the file is no deal record.
    """
    if "/" in source or source.endswith((".yaml", ".yml", ".json")):
        return load_record(page_folder / source)
    return example(source)


def states_of(record: Mapping[str, Any]) -> tuple[list[DealState], Narration | None]:
    """Every state the engine passes through replaying ``record``, and its
    refusal of the record's illegal action, if it has one.

    Raises:
        MalformedRecord: the record does not describe a deal.
    """
    played = replay(record)
    refusal = None
    if played.refused is not None:
        action, verdict = played.refused
        refusal = narrate_refusal(played.states[-1], action, verdict)
    return played.states, refusal


def moment(states: Sequence[DealState], at: str) -> DealState:
    """The state a picture shows: ``dealt``, ``play`` (the first lead), ``end``,
    or ``trick N`` (just after trick N is won).

    Raises:
        LooError: the deal never reaches that moment, or ``at`` is not one of these.
    """
    words = at.split()
    if words == ["dealt"]:
        return states[0]
    if words == ["end"]:
        return states[-1]
    if words == ["play"]:
        found = next((s for s in states if s.phase is Phase.PLAY), None)
    elif len(words) == 2 and words[0] == "trick" and words[1].isdigit():
        found = next((s for s in states if len(s.tricks) == int(words[1])), None)
    else:
        raise LooError(f"at: {at!r} is not dealt, play, end or trick N")
    if found is None:
        raise LooError(f"at: the deal never reaches {at!r}")
    return found


def indicator_text(states: Sequence[DealState]) -> str:
    """The trump indicator and whether it lies face up, as HTML."""
    first, last = states[0], states[-1]
    chip = cards_html([first.indicator])
    noun = f"{first.indicator.suit.noun}s"
    if first.kind is DealKind.DOUBLE:
        return f"Indicator {chip}, turned face up: {noun} are trumps."
    if last.revealed_after is not None:
        return (f"Indicator {chip}, face down until it is turned after trick "
                f"{last.revealed_after}: {noun} are trumps from then on.")
    return f"Indicator {chip}, face down and never turned: no trumps in this deal."


def _unbroken(markup: str) -> str:
    """``markup`` kept on one line: a hand, or a player and their card."""
    return f'<span class="loo-unbroken">{markup}</span>'


def hands_rows(states: Sequence[DealState]) -> list[tuple[str, str, str]]:
    """One row per hand: who holds it, its cards (HTML) and what was announced.

    The announcement is empty in a simple deal, where nobody announces.
    """
    first, last = states[0], states[-1]
    said = dict(last.announcements)
    rows = []
    for seat, name in enumerate(first.players):
        who = f"{name} (dealer)" if seat == first.dealer else name
        if seat not in said and last.collected_by == seat:
            words = "collects the pool"
        elif seat in said:
            words = _SAID[said[seat]]
        else:
            words = ""
        rows.append((who, _unbroken(cards_html(first.hands[seat])), words))
    if first.miss is not None:
        if last.miss_taker is not None:
            words = f"taken by {last.players[last.miss_taker]}"
        elif last.defender is not None:
            words = f"played for the pool by {last.players[last.defender]}"
        else:
            words = "not taken"
        rows.append(("miss", _unbroken(cards_html(first.miss)), words))
    return rows


def trick_rows(states: Sequence[DealState]) -> list[tuple[str, str]]:
    """One row per trick played: its cards with their players (HTML, leader first)
    and its winner, or "in play" for a trick left unfinished."""
    last = states[-1]
    rows = []
    for trick in last.all_tricks():
        cards = "<br>".join(_unbroken(f"{html.escape(last.players[seat])}: {cards_html([card])}")
                            for seat, card in trick.plays)
        winner = "in play" if trick.winner is None else last.players[trick.winner]
        rows.append((cards, winner))
    return rows


def seat_of(state: DealState, name: str) -> Seat:
    """The seat of the player called ``name``.

    Raises:
        LooError: no such player.
    """
    if name not in state.players:
        raise LooError(f"view: {name!r} is not one of the players ({', '.join(state.players)})")
    return state.players.index(name)


def rules_base(docname: str) -> str:
    """Where ``book/rules.html`` is, from the page ``docname``."""
    return "../" * docname.count("/") + "book/"


# -- Sphinx ---------------------------------------------------------------------------


def _raw(markup: str) -> nodes.raw:
    return nodes.raw("", markup, format="html")


def _table(head: Sequence[str], rows: Sequence[Sequence[nodes.Node]], classes: str
           ) -> nodes.table:
    table = nodes.table(classes=["loo-book-table", classes])
    group = nodes.tgroup(cols=len(head))
    table += group
    for _ in head:
        group += nodes.colspec(colwidth=1)
    thead = nodes.thead()
    group += thead
    row = nodes.row()
    for title in head:
        row += nodes.entry("", nodes.paragraph(text=title))
    thead += row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += cell
            row += entry
        body += row
    return table


class CardRole(SphinxRole):
    """``{card}`7H``` or ``{card}`AH 7H KC```: cards in running text."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        try:
            cards = [parse_card(word) for word in self.text.split()]
        except LooError as exc:
            message = self.inliner.reporter.warning(f"card: {exc}", line=self.lineno)
            return [nodes.literal(self.rawtext, self.text)], [message]
        if not cards:
            message = self.inliner.reporter.warning("card: no card given", line=self.lineno)
            return [], [message]
        return [_raw(cards_html(cards))], []


def _show(argument: str) -> list[str]:
    parts = [part.strip() for part in argument.split(",") if part.strip()]
    unknown = [part for part in parts if part not in SHOWN]
    if unknown or not parts:
        raise ValueError(f"show: {', '.join(unknown) or 'nothing'}; choose from {', '.join(SHOWN)}")
    return parts


class DealDirective(SphinxDirective):
    """``loo-deal RECORD``: the hands, a picture, the tricks and the settlement of a deal."""

    required_arguments = 1
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        "show": _show, "at": directives.unchanged, "view": directives.unchanged,
        "caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        source = self.arguments[0]
        page = Path(self.env.doc2path(self.env.docname)).parent
        shown = self.options.get("show", ["hands", "tricks", "settlement"])
        try:
            if "/" in source:
                self.env.note_dependency(str((page / source).resolve()))
            states, refusal = states_of(read_record(source, page))
            picture = moment(states, self.options.get("at", "dealt"))
            view = self.options.get("view")
            seat = None if view is None else seat_of(states[0], view)
        except LooError as exc:
            return [self.state.document.reporter.warning(
                f"loo-deal {source}: {exc}", line=self.lineno)]
        base = rules_base(self.env.docname)
        container = nodes.container(classes=["loo-deal"])
        for part in shown:
            if part == "hands":
                container += self._hands(states)
            elif part == "picture":
                container += self._picture(picture, seat, base)
            elif part == "tricks":
                container += self._tricks(states)
            elif part == "refusal":
                container += self._refusal(refusal, base)
            else:
                container += self._settlement(states[-1], base)
        return [container]

    def _hands(self, states: Sequence[DealState]) -> list[nodes.Node]:
        double = states[0].kind is DealKind.DOUBLE
        head = ["Player", "Hand", "Announcement"] if double else ["Player", "Hand"]
        rows = [[nodes.paragraph(text=who), _raw(cards), _raw(said)][:len(head)]
                for who, cards, said in hands_rows(states)]
        note = nodes.paragraph()
        note += _raw(indicator_text(states))
        return [_table(head, rows, "loo-hands"), note]

    def _picture(self, state: DealState, seat: Seat | None, base: str) -> list[nodes.Node]:
        drawing = table_html(state, seat, ledger=False, base=base)
        figure = nodes.container(classes=["loo-picture"])
        figure += _raw(f'<div class="loo-picture-scroll">{drawing}</div>')
        caption = self.options.get("caption")
        if caption:
            words, messages = self.state.inline_text(caption, self.lineno)
            figure += nodes.paragraph("", "", *words, classes=["loo-picture-caption"])
            figure += messages
        return [figure]

    def _tricks(self, states: Sequence[DealState]) -> list[nodes.Node]:
        rows = trick_rows(states)
        reasons = self._reasons()
        if reasons is not None and len(reasons) != len(rows):
            return [self.state.document.reporter.warning(
                f"loo-deal {self.arguments[0]}: {len(reasons)} reasons for {len(rows)} tricks",
                line=self.lineno)]
        head = ["Trick", "Cards", "Winner"] + (["Why"] if reasons is not None else [])
        cells = []
        for number, (cards, winner) in enumerate(rows, 1):
            row: list[Any] = [nodes.paragraph(text=str(number)), _raw(cards),
                              nodes.paragraph(text=winner)]
            if reasons is not None:
                row.append(reasons[number - 1])
            cells.append(row)
        return [_table(head, cells, "loo-tricks")]

    def _reasons(self) -> list[list[nodes.Node]] | None:
        """The content's numbered list, one item per trick, or ``None`` without content."""
        if not self.content:
            return None
        holder = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, holder)
        lists = [child for child in holder.children if isinstance(child, nodes.enumerated_list)]
        if len(lists) != 1:
            return []
        return [list(item.children) for item in lists[0].children]

    def _refusal(self, refusal: Narration | None, base: str) -> list[nodes.Node]:
        if refusal is None:
            return [self.state.document.reporter.warning(
                f"loo-deal {self.arguments[0]}: the record has no illegal action to show",
                line=self.lineno)]
        return [_raw(narration_html(refusal, base))]

    def _settlement(self, state: DealState, base: str) -> list[nodes.Node]:
        if not state.is_terminal():
            return [self.state.document.reporter.warning(
                f"loo-deal {self.arguments[0]}: the deal is not over, so it has no settlement",
                line=self.lineno)]
        return [_raw(f'<div class="loo-picture-scroll">{ledger_html(state, base)}</div>')]


def _style(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
           doctree: Any) -> None:
    # Cards in the book's text are the chips the widgets write in theirs.
    style = (f"{CARD_TEXT_CSS}.loo-picture-scroll{{overflow-x:auto;max-width:100%}}"
             ".loo-picture-caption{font-size:0.95em;opacity:0.85}"
             # The theme's "Back to top" button writes white on orange in the light
             # theme (contrast 2.45); dark text, as in its dark theme, reads on both.
             "html #pst-back-to-top,html #pst-back-to-top:hover{color:#14181e}"
             ".loo-unbroken{white-space:nowrap}")
    context["metatags"] = (context.get("metatags", "") + f"\n    <style>{style}</style>"
                           + INKS)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("card", CardRole())
    app.add_directive("loo-deal", DealDirective)
    app.connect("html-page-context", _style)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
