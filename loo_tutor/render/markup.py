"""Pure functions that draw cards, hands and deals as HTML strings.

Nothing here decides a rule: the functions only draw what the engine
reports. Every card carries a text alternative (``role="img"`` and an
``aria-label`` such as "queen of hearts") for screen readers.

>>> from loo_tutor.engine.cards import parse_card
>>> 'aria-label="10 of hearts"' in card_html(parse_card("10H"))
True
"""

from __future__ import annotations

import html
import math
import os
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any

from ..engine.cards import Card, Suit, parse_card
from ..engine.errors import LooError
from ..engine.legality import Announcement
from ..engine.observe import PlayerView, kind_of, observation
from ..engine.rules import RuleId, RuleKey, rule_by_id
from ..engine.state import DealKind, DealMachine, DealState, Phase, Play, Seat, Trick, signed_text
from ..records.record import load_record
from ..teaching.narrate import Narration, Step, steps

_TWO_COLOURS = {Suit.SPADES: "#1b1b1b", Suit.HEARTS: "#c8102e",
                Suit.DIAMONDS: "#c8102e", Suit.CLUBS: "#1b1b1b"}
_FOUR_COLOURS = {Suit.SPADES: "#1b1b1b", Suit.HEARTS: "#c8102e",
                 Suit.DIAMONDS: "#0b57d0", Suit.CLUBS: "#1a7f37"}
_COLOUR_CLASSES = {"#1b1b1b": "loo-black", "#c8102e": "loo-red", "#0b57d0": "loo-blue",
                   "#1a7f37": "loo-green"}

# -- the style sheet --------------------------------------------------------------
#
# Every look is a CSS class; a rendering carries one <style> block with the
# rules for the classes it uses, so it looks the same in a notebook, in a
# widget and on a static page, with or without the book's own CSS. The rules
# are the package's style sheets in ``styles/``.

_STYLES = resources.files(__package__) / "styles"
_SECTION = re.compile(r"/\*\s*for:\s*([\w\s-]+?)\s*\*/")
_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)


def _compact(css: str) -> str:
    """CSS without its comments and with its white space squeezed."""
    css = re.sub(r"\s+", " ", _COMMENT.sub("", css))
    return re.sub(r"\s*([{};,>])\s*", r"\1", css).replace(";}", "}").strip()


def _sheet(name: str) -> str:
    return (_STYLES / name).read_text(encoding="utf-8")


def _sections(css: str) -> tuple[tuple[frozenset[str], str], ...]:
    """The "for:" sections of a style sheet: the classes that call for each, and its rules."""
    parts = _SECTION.split(css)[1:]
    return tuple((frozenset(names.split()), _compact(rules))
                 for names, rules in zip(parts[0::2], parts[1::2], strict=True))


_VARIABLES = _compact(_sheet("colours.css"))
_RULES = ((frozenset({"loo-view"}), _VARIABLES), *_sections(_sheet("drawings.css")))
"""Each rule of the drawings' style sheet, after the classes whose presence calls for it."""

_CLASS_ATTR = re.compile(r'class="([^"]*)"')


def stylesheet(page: str) -> str:
    """The ``<style>`` block for the classes that ``page`` uses ('' for none).

    >>> stylesheet('<span class="loo-card loo-red"></span>').count("{")  # inks, card, red
    3
    >>> stylesheet("<p>plain</p>")
    ''
    """
    used = {name for attr in _CLASS_ATTR.findall(page) for name in attr.split()}
    rules = "".join(rule for names, rule in _RULES if names & used)
    return f"<style>{rules}</style>" if rules else ""


def _rules_for(*names: str) -> str:
    return "".join(rule for wanted, rule in _RULES if wanted & set(names))


CARD_TEXT_CSS = _rules_for("loo-card-text")
"""A card in running text or in a message (:func:`card_text_html`): a small white
chip, as card faces are white, with the card's ink, in either theme."""

WIDGET_CSS = (_VARIABLES + _rules_for("loo-black", "loo-red", "loo-blue", "loo-green", "loo-ok",
                                      "loo-card-text")
              + _compact(_sheet("widgets.css")))
"""The style sheet of the widgets' own controls (see :func:`widget_stylesheet`)."""


def widget_stylesheet() -> str:
    """The ``<style>`` block that every widget carries, once, for its controls.

    It fits the controls of ipywidgets to the book: the theme's colours,
    light or dark; links that look like the book's links; a focus ring that
    shows; buttons that keep their whole label and rows that wrap on a
    narrow screen; 44 px touch targets on phones; and the reader's card
    buttons drawn as cards at the reader's seat of the table.
    """
    return f"<style>{WIDGET_CSS}</style>"


def _styled(page: str, style: bool) -> str:
    """``page`` with its style sheet in front of it, when ``style`` is true."""
    return stylesheet(page) + page if style else page


def suit_colour(suit: Suit, four_colour: bool = False) -> str:
    """The CSS colour a suit is drawn in."""
    return (_FOUR_COLOURS if four_colour else _TWO_COLOURS)[suit]


def colour_class(card: Card, four_colour: bool = False) -> str:
    """The class that colours ``card``'s ink: ``loo-red``, ``loo-black`` (or blue, green)."""
    return _COLOUR_CLASSES[suit_colour(card.suit, four_colour)]


def _card(card: Card, four_colour: bool, classes: str = "", note: str = "", mark: str = "") -> str:
    """A card face without a style sheet: the building block of every drawing."""
    colour = colour_class(card, four_colour)
    label = f"{card.label}, {html.escape(note)}" if note else card.label
    extra = f' style="{html.escape(mark)}"' if mark else ""
    return (
        f'<span class="loo-card {colour}{classes}" role="img" aria-label="{label}" '
        f'title="{label}"{extra}><span aria-hidden="true">{card.rank_text}</span>'
        f'<span aria-hidden="true" class="loo-pip">{card.suit.symbol}</span></span>'
    )


def card_html(card: Card, four_colour: bool = False, mark: str = "", note: str = "",
              *, style: bool = True) -> str:
    """One card face up, with its rank above its suit symbol.

    Args:
        card: the card to draw.
        four_colour: draw diamonds blue and clubs green.
        mark: an extra CSS declaration, e.g. an outline to highlight the card.
        note: words added to the text alternative, e.g. ``"legal"`` for a
            highlighted card, so the highlight is not only visual.
        style: put the card's style sheet in front of it; ``False`` when the
            card goes into a drawing that carries its own.
    """
    return _styled(_card(card, four_colour, note=note, mark=mark), style)


def card_back_html(label: str = "a face-down card", *, style: bool = True) -> str:
    """A face-down card."""
    return _styled(f'<span class="loo-card-back" role="img" '
                   f'aria-label="{html.escape(label)}"></span>', style)


def hand_html(cards: Iterable[Card], four_colour: bool = False, *, style: bool = True) -> str:
    """A row of face-up cards."""
    return _styled('<span class="loo-hand">' + "".join(_card(c, four_colour) for c in cards)
                   + "</span>", style)


class HtmlStr(str):
    """A string of HTML that Jupyter displays as HTML."""

    def _repr_html_(self) -> str:
        return str(self)


# -- whole tables ----------------------------------------------------------------
#
# Everything below draws what the engine reports: the state's public fields,
# or, for a player's view, only what observe.observation lets that seat see.

RULES_BASE = "../book/"
"""Where ``rules.html`` lives, relative to the pages that show the widgets.

The notebooks are built into ``notebooks/`` beside ``book/``, hence
``"../book/"``. Every function that writes links takes a ``base`` argument to
point elsewhere.
"""

_RULE_ID = re.compile(r"(\()?\b([RV]-[A-Z]+(?:-[A-Z]+)*)\b(?(1)\))")

_ANNOUNCED = {
    Announcement.STAND: "stood",
    Announcement.PASS: "passed",
    Announcement.MISS: "took the miss",
    Announcement.DEFEND: "defends the pool",
}


def rule_link(rule: RuleKey, base: str = RULES_BASE, in_brackets: bool = False) -> HtmlStr:
    """A link to the book's section on ``rule``, citing it by name and ID.

    Rules of the limited profile are explained on the rules page, rules that
    only variants add on the variants page. ``in_brackets`` writes it for a
    place already in brackets: name, comma, ID. The ID never breaks at its hyphens.

    >>> rule_link(RuleId.LEAD_ACE)[-60:]
    '>the forced ace (<span class="loo-id">R-LEAD-ACE</span>)</a>'
    """
    page = "rules" if isinstance(rule, RuleId) else "variants"
    rule_id = f'<span class="loo-id">{rule.value}</span>'
    name = html.escape(rule.name_in_text)
    words = f"{name}, {rule_id}" if in_brackets else f"{name} ({rule_id})"
    return HtmlStr(f'<a class="loo-rule" href="{html.escape(base)}{page}.html#{rule.label}">'
                   f'{words}</a>')


def card_text_html(card: Card) -> str:
    """A card written as the reader sees it (7♥) in its suit's colour, read out by name.

    >>> from loo_tutor.engine.cards import parse_card
    >>> card_text_html(parse_card("7H"))
    '<span class="loo-card-text loo-red" role="img" aria-label="7 of hearts">7♥</span>'
    """
    return (f'<span class="loo-card-text {colour_class(card)}" role="img" '
            f'aria-label="{card.label}">{card.rank_text}{card.suit.symbol}</span>')


_CARD_WRITTEN = re.compile(r"(?<![\w♠♥♦♣])(10|[2-9AKQJ])([♠♥♦♣])")


def link_rules(text: str, base: str = RULES_BASE) -> HtmlStr:
    """Escape ``text`` for HTML, turn every rule ID in it into a link and every
    card written as the reader sees it (7♥) into one read out by name.

    A rule ID in brackets, as messages write it, is cited by name inside them.

    >>> link_rules("A must follow (R-FOLLOW) & more")[-66:]
    '>follow suit, <span class="loo-id">R-FOLLOW</span></a>) &amp; more'
    >>> 'aria-label="queen of spades">Q♠<' in link_rules("A plays Q♠.")
    True
    """
    def link(match: re.Match[str]) -> str:
        rule = rule_by_id(match.group(2))
        if rule is None:
            return match.group(0)
        if match.group(1):
            return f"({rule_link(rule, base, in_brackets=True)})"
        return rule_link(rule, base)

    def card(match: re.Match[str]) -> str:
        return card_text_html(parse_card(match.group(0)))

    return HtmlStr(_CARD_WRITTEN.sub(card, _RULE_ID.sub(link, html.escape(text))))


_CITED = re.compile(r"\s*\(([RV]-[A-Z]+(?:-[A-Z]+)*)\)")
"""A rule ID cited in brackets, with the space before it."""


def cite_once(lines: Iterable[str]) -> list[str]:
    """``lines`` with each rule ID in brackets kept only where it is first cited,
    so that a message of several sentences names each rule once.

    >>> cite_once(["A must trump (R-TRUMP-WIN).", "So must B (R-TRUMP-WIN)."])
    ['A must trump (R-TRUMP-WIN).', 'So must B.']
    """
    cited: set[str] = set()

    def once(match: re.Match[str]) -> str:
        if match.group(1) in cited:
            return ""
        cited.add(match.group(1))
        return match.group(0)

    return [_CITED.sub(once, line) for line in lines]


def narration_html(narration: Narration, base: str = RULES_BASE) -> HtmlStr:
    """A narration as a paragraph, its rule IDs linked to the book."""
    return HtmlStr(f'<p class="loo-narration">{link_rules(narration.text, base)}</p>')


def _back(label: str) -> str:
    return card_back_html(label, style=False)


def _face(card: Card, four_colour: bool, highlight: Collection[Card], note: str,
          faded: bool = False) -> str:
    lit = card in highlight
    classes = (" loo-lit" if lit else "") + (" loo-faded" if faded else "")
    words = ", ".join(w for w in (note if lit else "", "thrown in" if faded else "") if w)
    return _card(card, four_colour, classes, words)


def _seat_cards(state: DealMachine, seat: Seat, view: PlayerView | None, four_colour: bool,
                highlight: Collection[Card], note: str) -> tuple[str, str]:
    """The cards drawn at a seat and a few words about them."""
    said = dict(state.announcements).get(seat)
    double = kind_of(state) is not DealKind.SIMPLE  # a Pam deal is dealt like a double one
    in_play = state.phase is Phase.PLAY or bool(state.tricks)

    def faces(cards: Iterable[Card], faded: bool = False) -> str:
        return "".join(_face(c, four_colour, highlight, note, faded) for c in cards)

    def backs(count: int, label: str) -> str:
        return "".join(_back(label) for _ in range(count))

    if view is None:  # the tutor sees every card
        if not double or said is Announcement.STAND:
            return faces(state.held[seat]), ""
        if said is None:
            if state.collected_by is not None:
                return "", ""
            return faces(state.hands[seat]), ""
        if said is Announcement.PASS:
            return faces(state.hands[seat], faded=True), "hand thrown in"
        if in_play:
            return faces(state.held[seat]), "playing the miss"
        return backs(len(state.held[seat]), "a card of the miss, taken unseen"), "the miss"
    # a player's view: only what observation() lets this seat see
    if seat in view.active:
        count = view.cards_left[seat]
        if seat == view.seat and view.hand is not None:
            return faces(view.hand), ""
        return backs(count, f"a card held by {state.players[seat]}"), ""
    if seat == view.seat and view.hand is not None:
        return faces(view.hand), ""
    if double and said is None and state.phase is Phase.ANNOUNCE:
        return backs(state.HAND_SIZE, f"a card dealt to {state.players[seat]}"), ""
    if said is Announcement.PASS:
        return "", "hand thrown in"
    return "", ""


def _seat_status(state: DealMachine, seat: Seat) -> str:
    said = dict(state.announcements).get(seat)
    if state.collected_by == seat:
        return "collects the pool"
    if said is not None:
        return _ANNOUNCED[said]
    kind = kind_of(state)
    if kind is not DealKind.SIMPLE and state.phase is Phase.ANNOUNCE:
        return "to announce" if state.current_player() == seat else "waiting to announce"
    if kind is DealKind.SIMPLE:
        return "plays"
    return ""


def _shown_trick(tricks: Sequence[Trick]) -> tuple[int, Trick] | None:
    """The trick in play, or else the last finished one, with its number."""
    if not tricks:
        return None
    return len(tricks), tricks[-1]


def _centre(state: DealMachine, view: PlayerView | None, four_colour: bool) -> str:
    parts = []
    kind = {DealKind.DOUBLE: "double deal", DealKind.SIMPLE: "simple deal",
            None: "Loo with Pam"}[kind_of(state)]
    parts.append(f'<div class="loo-pool"><strong>Pool {state.pool}</strong> · {kind} '
                 f'· carried {state.carried}</div>')
    indicator = state.indicator if state.trump is not None else None
    if view is not None:
        indicator = view.indicator
    if indicator is not None:
        shown = _card(indicator, four_colour, note="trump indicator")
        words = f"trumps: {indicator.suit.noun}s"
        if state.pam is not None:  # named, not shown: its holder may be hidden
            words += "<br>and Pam above them"  # a line of its own: the centre stays narrow
    else:
        shown = _back("hidden trump indicator")
        words = "trumps hidden"
    parts.append(f'<div class="loo-indicator">{shown}<div>{words}</div></div>')
    spare = state.miss_cards()
    if spare is not None:
        taker = state.miss_holder()
        if taker is None:
            miss = "".join(_back("a card of the miss, face down") for _ in spare)
            words = "the miss"
        else:
            miss = ""
            words = f"miss taken by {html.escape(state.players[taker])}"
        parts.append(f'<div class="loo-miss">{miss}<div>{words}</div></div>')
    tricks = view.tricks if view is not None else tuple(state.all_tricks())
    shown_trick = _shown_trick(tricks)
    if shown_trick is not None:
        number, trick = shown_trick
        plays = []
        for seat, card in trick.plays:
            won = trick.winner == seat
            name = html.escape(state.players[seat])
            plays.append(f'<span class="loo-play">'
                         f'{_card(card, four_colour, note=f"played by {name}")}'
                         f'<span class="loo-who{" loo-won-by" if won else ""}">'
                         f'{name}{" ✔" if won else ""}</span></span>')
        if trick.winner is None:
            head = f"Trick {number}, in play"
        else:
            head = f"Trick {number}, won by {html.escape(state.players[trick.winner])}"
        parts.append(f'<div class="loo-trick" role="group" aria-label="{head}">'
                     f'<div>{head}</div>{"".join(plays)}</div>')
    return f'<div class="loo-centre">{"".join(parts)}</div>'


def ledger_html(state: DealMachine, base: str = RULES_BASE, *, style: bool = True) -> HtmlStr:
    """The settlement of a finished deal as a table, one row per player.

    Args:
        state: a finished deal.
        base: where the book's ``rules.html`` is, for the rule links.
        style: put the table's style sheet in front of it.

    Raises:
        LooError: the deal is not over.
    """
    settled = state.settlement()
    wins = Counter(t.winner for t in state.tricks)
    links = ", ".join(rule_link(r, base) for r in (RuleId.PAY_THIRD, RuleId.LOO, RuleId.CARRY))
    rows = []
    for seat, name in enumerate(state.players):
        if state.collected_by is not None:
            tricks = "collected" if seat == state.collected_by else "—"
        elif seat in state.active:
            defender = seat == state.defending()
            tricks = str(wins[seat]) + (" (defender)" if defender else "")
        else:
            tricks = "passed"
        received = settled.payouts.get(seat)
        looed = f"yes, pays {settled.loo}" if seat in settled.looed else ""
        net = settled.net[seat]
        rows.append(
            f'<tr><th scope="row">{html.escape(name)}'
            f'{" (dealer)" if seat == state.dealer else ""}</th>'
            f'<td>{tricks}</td><td>{"" if received is None else received}</td>'
            f'<td>{looed}</td><td>{signed_text(net)}</td></tr>'
        )
    head = "".join(f'<th scope="col">{h}</th>'
                   for h in ("Player", "Tricks", "Receives", "Looed", "Net"))
    return HtmlStr(_styled(
        f'<table class="loo-ledger"><caption>Settlement of a '
        f'pool of {state.pool} ({links})</caption><thead><tr>{head}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><th scope="row" colspan="4">'
        f'Carried to the next deal</th><td>{settled.carried_next}</td></tr></tfoot></table>',
        style))


def table_html(state: DealMachine, view_seat: Seat | None = None, four_colour: bool = False,
               highlight: Collection[Card] = (), *, highlight_note: str = "legal",
               ledger: bool = True, base: str = RULES_BASE, style: bool = True,
               own_hand: bool = False) -> HtmlStr:
    """The whole table: seats round an oval, the pool, indicator, miss and trick.

    Args:
        state: the deal to draw.
        view_seat: ``None`` for the tutor's view, every hand face up; a seat
            to draw only what that player may see (its own cards, backs for
            the others), as :func:`~loo_tutor.engine.observe.observation` reports it.
        four_colour: draw diamonds blue and clubs green.
        highlight: cards to outline, e.g. the legal cards.
        highlight_note: words read out for a highlighted card.
        ledger: add the settlement table once the deal is over.
        base: where the book's ``rules.html`` is, for the rule links.
        style: put the drawing's style sheet in front of it; ``False`` when
            it goes into a page that carries one already.
        own_hand: leave the place of ``view_seat``'s cards empty, at the
            bottom of its seat, for a widget to put the reader's card buttons
            there (the widgets' ``table_box``).

    >>> from loo_tutor.records.data import example
    >>> from loo_tutor.records.record import replay
    >>> start = replay(example("forced-ace")).states[0]
    >>> 'aria-label="hidden trump indicator"' in table_html(start)
    False
    >>> table_html(start, view_seat=0).count('aria-label="a card dealt to B"')
    3
    """
    view = None if view_seat is None else observation(state, view_seat)
    count = len(state.players)
    bottom = view_seat if view_seat is not None else state.dealer
    seats = []
    to_act = state.current_player()
    wins = Counter(t.winner for t in state.tricks)
    for seat, name in enumerate(state.players):
        angle = math.radians(90 + 360 * ((seat - bottom) % count) / count)
        x, y = 50 + 37 * math.cos(angle), 50 + 38 * math.sin(angle)
        cards, words = _seat_cards(state, seat, view, four_colour, highlight, highlight_note)
        mine = own_hand and seat == view_seat
        if mine:
            cards = ""
        status = _seat_status(state, seat)
        badges = ""
        if seat == state.dealer:
            badges += '<span class="loo-dealer">dealer</span>'
        if seat == view_seat:
            badges += '<span class="loo-you">you</span>'
        acting = seat == to_act
        line = ", ".join(w for w in (status, words) if w)
        if acting:
            line = f"<strong>▶ to act</strong> · {line}" if line else "<strong>▶ to act</strong>"
        won = ""
        if state.tricks and (seat in state.active or wins[seat]):
            won = f'<div class="loo-won">tricks won: {wins[seat]}</div>'
        label = f"{name}{', dealer' if seat == state.dealer else ''}{', to act' if acting else ''}"
        # The seat nearest the reader stands on the table's edge, so that a
        # tall seat grows upwards instead of out of the drawing.
        near = seat == bottom
        place = f"left:{x:.1f}%;bottom:0" if near else f"left:{x:.1f}%;top:{y:.1f}%"
        hand = ('<div class="loo-hand loo-own-hand"></div>' if mine
                else f'<div class="loo-hand">{cards}</div>')
        seats.append(
            f'<div class="loo-seat{" loo-near" if near else ""}{" loo-mine" if mine else ""}" '
            f'role="group" '
            f'aria-label="{html.escape(label)}" '
            f'{"data-to-act " if acting else ""}style="{place}">'
            f'<div><strong>{html.escape(name)}</strong>{badges}</div>'
            f'{hand}<div class="loo-status">{line}</div>{won}</div>'
        )
    five = " loo-five" if state.HAND_SIZE == 5 else ""
    body = (f'<div class="loo-table{five}"><div class="loo-felt"></div>'
            f'{_centre(state, view, four_colour)}{"".join(seats)}</div>')
    if ledger and state.is_terminal():
        body += ledger_html(state, base, style=False)
    return HtmlStr(_styled(f'<div class="loo-view">{body}</div>', style))


def step_html(step: Step, four_colour: bool = False, view_seat: Seat | None = None,
              base: str = RULES_BASE, *, style: bool = True) -> HtmlStr:
    """One narrated step: its narration above the table it leads to.

    A refusal is drawn with the legal alternatives highlighted. With
    ``style`` the step's style sheet goes in front of it.
    """
    highlight: tuple[Card, ...] = ()
    if step.refused is not None:
        highlight = tuple(a.card for a in step.refused.allowed if isinstance(a, Play))
    table = table_html(step.state, view_seat, four_colour, highlight, base=base, style=False)
    return HtmlStr(_styled(
        f'<div class="loo-step">{narration_html(step.narration, base)}{table}</div>', style))


def error_html(message: str) -> HtmlStr:
    """A one-line error, for a record that cannot be shown."""
    return HtmlStr(f'<p class="loo-error" role="alert" style="color:#b00020">'
                   f'{html.escape(message)}</p>')


def replay_html(record: Mapping[str, Any] | str | os.PathLike[str], four_colour: bool = False,
                view_seat: Seat | None = None, base: str = RULES_BASE) -> HtmlStr:
    """A whole deal as a static sequence of narrated tables, for pages without a kernel.

    Args:
        record: a deal record, as a dict, as its text or as a file path.

    A record that cannot be read gives a one-line error instead of a table.

    >>> from loo_tutor.records.data import example
    >>> page = replay_html(example("forced-ace"))
    >>> page.count('class="loo-step"'), 'href="../book/rules.html#r-lead-ace"' in page
    (15, True)
    >>> 'cannot show this deal: players: 1 players' in replay_html("players: [A]")
    True
    """
    try:
        loaded = record if isinstance(record, Mapping) else load_record(record)
        story = steps(loaded)
    except LooError as exc:
        return error_html(f"cannot show this deal: {exc}")
    items = []
    for step in story:
        items.append(f'<li><h4 class="loo-step-title">{html.escape(step.title)}</h4>'
                     f'{step_html(step, four_colour, view_seat, base, style=False)}</li>')
    return HtmlStr(_styled(f'<ol class="loo-replay">{"".join(items)}</ol>', True))


# -- a whole session ----------------------------------------------------------------


@dataclass(frozen=True)
class SessionRow:
    """One line of a session's ledger: a settled deal, or the closing split.

    Every figure is the engine's: the finished deal and its settlement, and
    the session's ledger (:class:`~loo_tutor.engine.session.Ledger`) read right after.

    Attributes:
        state: the finished deal; ``None`` for the closing split.
        balances: every player's balance afterwards, by seat.
        pool: the pool afterwards: what carries to the next deal.
        total: the balances plus the pool, as the ledger adds them up.
        shares: for the closing split, what each seat received from the
            last pool; empty for a deal.
    """

    state: DealState | None
    balances: tuple[Fraction, ...]
    pool: Fraction
    total: Fraction
    shares: tuple[Fraction, ...] = ()


def _names(players: Sequence[str], seats: Iterable[Seat]) -> str:
    return "<br>".join(html.escape(players[s]) for s in seats) or "—"


def _deal_cells(row: SessionRow, number: int) -> str:
    state = row.state
    assert state is not None
    settled = state.settlement()
    players = state.players
    if state.collected_by is not None:
        paid = (f"{html.escape(players[state.collected_by])} collects "
                f"{settled.payouts[state.collected_by]}")
    else:
        paid = "<br>".join(f"{html.escape(players[s])} {a}" for s, a in settled.payouts.items())
    return (f'<th scope="row" data-label="Deal">{number}</th>'
            f'<td data-label="Dealer">{html.escape(players[state.dealer])}</td>'
            f'<td data-label="Kind">{state.kind.value}</td>'
            f'<td data-label="Pool">{state.pool}</td><td data-label="Paid">{paid or "—"}</td>'
            f'<td data-label="Looed">{_names(players, settled.looed)}</td>')


def session_html(players: Sequence[str], rows: Sequence[SessionRow], deals: int,
                 first_dealer: Seat, winners: Sequence[str] = (), base: str = RULES_BASE,
                 *, style: bool = True) -> HtmlStr:
    """A session's ledger: one row per settled deal, then the closing split.

    Each deal's row gives its dealer, its kind, the pool, who was paid what
    and who was looed, then the pool carried on, every player's balance and
    the sum of the balances and the pool, which must be 0 (R-CONSERVE).

    Args:
        players: the names in seating order.
        rows: the deals settled so far, then the closing split if the
            session is over.
        deals: the number of deals agreed on.
        first_dealer: the seat that dealt first.
        winners: the players with the highest balance once the session is over.
        base: where the book's ``rules.html`` is, for the rule links.
        style: put the table's style sheet in front of it.

    >>> session_html(["A", "B", "C", "D", "E"], [], 5, 4).count("<tr>")
    2
    """
    def link(rule: RuleId) -> str:
        return rule_link(rule, base)

    played = sum(row.state is not None for row in rows)
    intro = (f'<p>{len(players)} players agree on {deals} deals ({link(RuleId.SESSION_LENGTH)}). '
             f'{html.escape(players[first_dealer])} deals first, chosen at random '
             f'({link(RuleId.SEAT_FIRST_DEALER)}), and the deal passes to the left each time '
             f'({link(RuleId.SEAT_ROTATE)}). Every deal is shuffled and cut afresh '
             f'({link(RuleId.DEAL_SHUFFLE_CUT)}) and played with random legal choices.</p>')
    head = "".join(f'<th scope="col" rowspan="2">{h}</th>' for h in (
        "Deal", "Dealer", "Kind", "Pool", "Paid", "Looed", "Carried"))
    head += (f'<th scope="colgroup" colspan="{len(players)}">Balances</th>'
             f'<th scope="col" rowspan="2">Balances + pool</th></tr><tr>')
    head += "".join(f'<th scope="col">{html.escape(name)}</th>' for name in players)
    body = []
    for number, row in enumerate(rows, start=1):
        if row.state is not None:
            cells = _deal_cells(row, number)
            css = ""
        else:
            before = rows[number - 2].pool if number > 1 else Fraction(0)
            shares = zip(players, row.shares, strict=True)
            each = (f"{row.shares[0]} each" if len(set(row.shares)) == 1 else
                    ", ".join(f"{html.escape(n)} {s}" for n, s in shares))
            cells = (f'<th scope="row" data-label="Deal">End</th><td colspan="5">The last pool '
                     f'of {before} is shared equally: {each} ({link(RuleId.SESSION_END)})</td>')
            css = ' class="loo-end"'
        balances = "".join(f'<td data-label="{html.escape(name)}">{signed_text(b)}</td>'
                           for name, b in zip(players, row.balances, strict=True))
        check = (f'<span class="loo-ok">{row.total} ✓</span>' if row.total == 0
                 else f'<strong role="alert">{row.total} ✗</strong>')
        body.append(f'<tr{css}>{cells}<td data-label="Carried">{row.pool}</td>{balances}'
                    f'<td data-label="Balances + pool">{check}</td></tr>')
    links = ", ".join(link(r) for r in (RuleId.DEAL_ANTE, RuleId.POOL, RuleId.PAY_THIRD,
                                        RuleId.LOO, RuleId.CARRY, RuleId.CONSERVE))
    caption = (f"{played} of {deals} deals played" if played < deals else
               f"all {deals} deals played")
    table = (f'<table class="loo-ledger loo-session"><caption>Session ledger: {caption} '
             f'({links})</caption><thead><tr>{head}</tr></thead>'
             f'<tbody>{"".join(body)}</tbody></table>')
    result = ""
    if winners and rows and rows[-1].state is None:
        best = rows[-1].balances[list(players).index(winners[0])]
        who = " and ".join(html.escape(w) for w in winners)
        verb = "wins" if len(winners) == 1 else "share the win"
        result = (f'<p class="loo-winner"><strong>{who} {verb} the session with '
                  f'{signed_text(best)}</strong> ({link(RuleId.SESSION_RESULT)}).</p>')
    return HtmlStr(_styled(f'<div class="loo-session-view">{intro}{table}{result}</div>', style))
