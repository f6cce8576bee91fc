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
from typing import Any

from ..engine.cards import Card, Suit, parse_card
from ..engine.errors import LooError
from ..engine.legality import Announcement
from ..engine.observe import PlayerView, observation
from ..engine.rules import RuleId, RuleKey, VariantRuleId
from ..engine.state import DealKind, DealState, Phase, Play, Seat, Trick, signed_text
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
# widget and on a static page, with or without the book's own CSS. Each rule
# is emitted when the class that names it (the first item) appears.

_BADGE = (".loo-dealer,.loo-you{display:inline-block;margin-left:0.3em;padding:0 0.35em;"
          "border-radius:0.6em;background:#6b4a2b;color:#fff;font-size:0.8em}")
_BESIDE = ".loo-indicator,.loo-miss{display:inline-block;margin:0.2em 0.6em}"

COLOURS = (
    "--loo-ink:var(--pst-color-text-base,#1b1b1b);"
    "--loo-muted:var(--pst-color-text-muted,#4a4a4a);"
    "--loo-paper:var(--pst-color-background,#fff);"
    "--loo-seat-bg:var(--pst-color-surface,#fafaf7);"
    "--loo-line:var(--pst-color-border,#8a8a8a);"
    "--loo-link:var(--pst-color-link,#0b57d0);"
    "--loo-link-hover:var(--pst-color-link-hover,#083f99);"
    "--loo-focus:var(--pst-color-accent,#0b57d0);"
    "--loo-ok:#17692f;--loo-bad:#b00020;--loo-legal:#a34700;--loo-mark-bg:#fff3cd;"
    "--loo-button-bg:#e6e6e6;--loo-button-ink:#1b1b1b;--loo-primary:#0b57d0"
)
"""The colours of every drawing, as CSS custom properties of the book's theme.

On the book's pages they take pydata-sphinx-theme's colours, light or
dark; elsewhere (Jupyter, the classroom) the fallbacks, which are light.
Card faces stay white with dark ink in both themes, as real cards are.
"""

DARK_COLOURS = ("--loo-ok:#6fdc8c;--loo-bad:#ff8a80;--loo-legal:#ffb74d;--loo-mark-bg:#4a3b12;"
                "--loo-button-bg:#3a424d;--loo-button-ink:#f0f0f0;--loo-primary:#8ab4f8;"
                "--loo-red-ink:#ff8a8a;--loo-black-ink:#f0f0f0;--loo-blue-ink:#8ab4f8;"
                "--loo-green-ink:#7ee2a0")
"""The colours that the dark theme (``html[data-theme=dark]``) changes beyond the theme's own."""

_THEMED = ".loo-view,.loo-widget,.loo-figure"
_VARIABLES = (f"{_THEMED}{{{COLOURS}}}"
              + ",".join(f"html[data-theme=dark] {s}" for s in _THEMED.split(","))
              + f"{{{DARK_COLOURS}}}")

_CARD_INKS = "".join(f"--{name}-ink:{colour};" for colour, name in _COLOUR_CLASSES.items())

_RULES: tuple[tuple[str, str], ...] = (
    ("loo-view", _VARIABLES),
    ("loo-card", f".loo-card{{{_CARD_INKS}}}"),
    ("loo-card", (".loo-card{display:inline-flex;flex-direction:column;align-items:center;"
                  "justify-content:center;width:2.6em;height:3.6em;margin:0.15em;"
                  "border:1px solid #888;border-radius:0.35em;background:#fff;"
                  "font:600 1em/1.1 system-ui,sans-serif;box-shadow:0 1px 2px #0003}")),
    ("loo-pip", ".loo-pip{font-size:1.3em}"),
    *((name, f".{name}{{color:var(--{name}-ink,{colour})}}")
      for colour, name in _COLOUR_CLASSES.items()),
    ("loo-lit", ".loo-lit{outline:3px solid var(--loo-legal,#a34700);outline-offset:1px}"),
    ("loo-faded", (".loo-faded{background:#e4e4e4;border-style:dashed;box-shadow:none}"
                   ".loo-faded.loo-red{color:#b0001e}")),
    ("loo-card-back", (".loo-card-back{display:inline-block;width:2.6em;height:3.6em;"
                       "margin:0.15em;border:1px solid #555;border-radius:0.35em;"
                       "vertical-align:middle;background:repeating-linear-gradient("
                       "45deg,#37598a 0 4px,#4a6fa5 4px 8px)}")),
    ("loo-view", ".loo-view{container-type:inline-size;width:100%;max-width:100%}"),
    ("loo-table", (".loo-table{position:relative;width:100%;max-width:50em;"
                   "height:36em;margin:0.5em 0 1.5em;font:0.85em/1.3 system-ui,sans-serif;"
                   "color:var(--loo-ink,#1b1b1b)}")),
    ("loo-felt", (".loo-felt{position:absolute;left:13%;right:13%;top:15%;bottom:15%;"
                  "border-radius:50%;background:radial-gradient(#2f7d4f,#1e5a37);"
                  "border:0.5em solid #6b4a2b}")),
    ("loo-seat", (".loo-seat{position:absolute;transform:translate(-50%,-50%);width:10.5em;"
                  "padding:0.3em;background:var(--loo-seat-bg,#fafaf7);"
                  "border:1px solid var(--loo-line,#8a8a8a);"
                  "border-radius:0.5em;text-align:center}")),
    ("loo-seat", ".loo-seat[data-to-act]{border:2px solid #e09b00;box-shadow:0 0 0.4em #e09b00}"),
    ("loo-seat", ".loo-seat .loo-hand{display:block;min-height:3.9em}"),
    ("loo-mine", (".loo-seat.loo-mine{transform:translateX(-50%);width:auto;min-width:10.5em;"
                  "display:flex;flex-direction:column}"
                  ".loo-seat.loo-mine .loo-own-hand{order:9;min-height:64px;min-width:152px}")),
    ("loo-status", ".loo-status{font-size:0.85em}"),
    ("loo-centre", (".loo-centre{position:absolute;left:50%;top:50%;"
                    "transform:translate(-50%,-50%);width:22em;max-width:52%;"
                    "text-align:center;color:#fff}")),
    ("loo-indicator", _BESIDE),
    ("loo-miss", _BESIDE),
    ("loo-play", ".loo-play{display:inline-block;margin:0 0.1em}"),
    ("loo-who", ".loo-who{display:block}"),
    ("loo-won-by", ".loo-won-by{font-weight:700}"),
    ("loo-dealer", _BADGE),
    ("loo-you", _BADGE),
    ("loo-you", ".loo-you{background:#0b57d0}"),
    # Narrow columns (a phone): the seats line up in rows under the pool
    # instead of round an oval, the reader's own seat last.
    ("loo-table", ("@container (max-width:480px){"
                   ".loo-table{height:auto;display:flex;flex-wrap:wrap;gap:0.4em;"
                   "justify-content:center;margin-bottom:0.5em}"
                   ".loo-felt{display:none}"
                   ".loo-centre,.loo-seat,.loo-seat.loo-mine{position:static;transform:none}"
                   ".loo-centre{order:-1;width:100%;max-width:none;padding:0.4em;"
                   "border-radius:0.8em;background:radial-gradient(#2f7d4f,#1e5a37)}"
                   ".loo-seat{flex:1 1 9em;width:auto;max-width:14em}"
                   ".loo-seat.loo-mine{order:99;flex-basis:100%;max-width:none}}")),
    ("loo-ledger", (".loo-ledger{border-collapse:collapse;margin:0.5em 0;"
                    "font:0.9em system-ui,sans-serif}")),
    ("loo-ledger", ".loo-ledger caption{text-align:left}"),
    ("loo-ledger", (".loo-ledger th,.loo-ledger td{padding:0.15em 0.6em;"
                    "border-bottom:1px solid var(--loo-line,#8a8a8a)}")),
    ("loo-ledger", ".loo-ledger th[scope=row]{text-align:left}"),
    ("loo-session", ".loo-session td,.loo-session th[scope=col]{text-align:center}"),
    ("loo-session", ".loo-session th,.loo-session td{padding:0.15em 0.35em}"),
    # A narrow column: each deal of the session becomes a small card of
    # labelled lines instead of a row too wide for the screen.
    ("loo-session", ".loo-session-view{container-type:inline-size;width:100%}"),
    ("loo-session", ("@container (max-width:700px){"
                     ".loo-session thead{position:absolute;width:1px;height:1px;"
                     "overflow:hidden;clip-path:inset(50%)}"
                     ".loo-session,.loo-session caption,.loo-session tbody,.loo-session tr,"
                     ".loo-session tbody th,.loo-session td{display:block;width:auto}"
                     ".loo-session tr{margin:0.4em 0;padding:0.2em 0.5em;"
                     "border:1px solid var(--loo-line,#8a8a8a);border-radius:0.4em}"
                     ".loo-session tbody th,.loo-session td{display:flex;gap:1em;"
                     "justify-content:space-between;text-align:right;border:0}"
                     ".loo-session [data-label]::before{content:attr(data-label);"
                     "font-weight:600;text-align:left}}")),
    ("loo-ok", ".loo-ok{color:var(--loo-ok,#17692f)}"),
    ("loo-end", ".loo-end td{font-weight:700}.loo-end td[colspan]{text-align:left}"),
    ("loo-replay", ".loo-replay{list-style:none;padding:0}"),
    ("loo-step-title", ".loo-step-title{margin:0.8em 0 0}"),
)
"""Each rule of the style sheet, after the class whose presence calls for it."""

_CLASS_ATTR = re.compile(r'class="([^"]*)"')


def stylesheet(page: str) -> str:
    """The ``<style>`` block for the classes that ``page`` uses ('' for none).

    >>> stylesheet('<span class="loo-card loo-red"></span>').count("{")  # inks, card, red
    3
    >>> stylesheet("<p>plain</p>")
    ''
    """
    used = {name for attr in _CLASS_ATTR.findall(page) for name in attr.split()}
    rules = dict.fromkeys(rule for name, rule in _RULES if name in used)  # once each, in order
    return f"<style>{''.join(rules)}</style>" if rules else ""


_TOUCH = "@media (max-width:600px),(pointer:coarse)"

CARD_TEXT_CSS = (f".loo-card-text{{{_CARD_INKS}display:inline-block;padding:0 0.2em;"
                 "border:1px solid #8886;border-radius:0.25em;background:#fff;font-weight:600;"
                 "line-height:1.3;white-space:nowrap}")
"""A card in running text or in a message (:func:`card_text_html`): a small white
chip, as card faces are white, with the card's ink, in either theme."""

WIDGET_CSS = (
    _VARIABLES
    + "".join(rule for name, rule in _RULES if name in ("loo-black", "loo-red", "loo-blue",
                                                        "loo-green", "loo-ok"))
    + ".loo-widget{max-width:100%;color:var(--loo-ink);"
    # ipywidgets' own colours, from the theme's (dark on a dark page)
    "--jp-widgets-color:var(--loo-ink);--jp-widgets-label-color:var(--loo-ink);"
    "--jp-widgets-readout-color:var(--loo-ink);--jp-widgets-input-color:var(--loo-ink);"
    "--jp-widgets-input-background-color:var(--loo-paper);"
    "--jp-widgets-input-border-color:var(--loo-line);"
    "--jp-widgets-input-focus-border-color:var(--loo-focus)}"
    # links look like the book's links
    + ".loo-widget a{color:var(--loo-link);text-decoration:underline}"
    ".loo-widget a:hover{color:var(--loo-link-hover)}"
    # a focus ring that shows: 3 px, in the theme's accent colour
    # (ipywidgets' own fields and menus take theirs away with !important)
    ".loo-widget :focus-visible,.loo-widget .jupyter-button:focus-visible:enabled,"
    ".loo-widget input:focus-visible,.loo-widget select:focus-visible{"
    "outline:3px solid var(--loo-focus)!important;outline-offset:2px}"
    # buttons keep their whole label: they grow, and their rows wrap
    ".loo-widget .widget-hbox{flex-wrap:wrap;max-width:100%}"
    ".loo-widget .jupyter-button,.loo-widget .loo-snap-button{width:auto;min-width:2.6em;"
    "height:auto;min-height:28px;padding:0.2em 0.8em;overflow:visible;white-space:normal;"
    "text-overflow:clip;flex:0 0 auto;background:var(--loo-button-bg);"
    "color:var(--loo-button-ink)}"
    ".loo-widget .jupyter-button.mod-primary,.loo-widget .loo-snap-primary{"
    "background:var(--loo-primary);color:var(--loo-paper)}"
    ".loo-widget .jupyter-button:disabled{opacity:0.65}"
    # descriptions are read in full, never cut to an ellipsis
    ".loo-widget .widget-label,.loo-widget .widget-label-basic span,"
    ".loo-widget .loo-snap-column{width:auto;max-width:none;overflow:visible;"
    "text-overflow:clip;white-space:normal}"
    ".loo-widget .widget-inline-hbox{max-width:100%}"
    ".loo-widget .widget-dropdown,.loo-widget .widget-text{width:auto;max-width:100%}"
    ".loo-widget .widget-dropdown>select,.loo-widget select{max-width:100%;min-width:0;"
    "color:var(--loo-ink);background-color:var(--loo-paper);border-color:var(--loo-line)}"
    ".loo-widget input.widget-input,.loo-widget input[type=text],"
    ".loo-widget input[type=number]{color:var(--loo-ink);background:var(--loo-paper);"
    "border-color:var(--loo-line)}"
    ".loo-widget .widget-html-content{max-width:100%}"
    + CARD_TEXT_CSS +
    ".loo-verdict.loo-refused,.loo-error,.loo-bad{color:var(--loo-bad)}"
    ".loo-verdict.loo-ok{color:var(--loo-ok)}"
    ".loo-field-right{color:var(--loo-ok)}"
    ".loo-field-wrong,.loo-field-unreadable{color:var(--loo-bad)}"
    ".loo-field-empty{color:var(--loo-muted)}"
    ".loo-field-note{margin:0 0 0.4em}"
    # the reader's cards: buttons drawn as cards, at the reader's seat
    # (the table fills the box, so that the row and the seat share a centre)
    ".loo-table-box{position:relative;flex-direction:column;width:100%;max-width:552px}"
    ".loo-table-box>.widget-html{width:100%;margin:0}"
    ".loo-table-box .loo-table{margin-bottom:0;max-width:none}"
    ".loo-table-box>.loo-hand-row{position:absolute;left:50%;bottom:6px;"
    "transform:translateX(-50%);flex-wrap:nowrap;justify-content:center;margin:0}"
    ".loo-widget .jupyter-button.loo-card-button,.loo-widget .loo-snap-button.loo-card-button{"
    f"{_CARD_INKS}width:44px;min-width:44px;height:58px;margin:2px;padding:0;"
    "border:1px solid #888;border-radius:6px;background:#fff;box-shadow:0 1px 2px #0003;"
    "font:600 17px/1.1 system-ui,sans-serif;white-space:nowrap}"
    ".loo-widget .loo-card-button.loo-red{color:var(--loo-red-ink)}"
    ".loo-widget .loo-card-button.loo-black{color:var(--loo-black-ink)}"
    ".loo-widget .loo-card-button.loo-blue{color:var(--loo-blue-ink)}"
    ".loo-widget .loo-card-button.loo-green{color:var(--loo-green-ink)}"
    ".loo-widget .jupyter-button.loo-card-button:disabled{opacity:1;background:#f1f1f1}"
    ".loo-widget .loo-card-button.loo-lit{outline:3px solid #a34700;outline-offset:1px;"
    "background:#fff3cd}"
    # the step field and its words
    ".loo-widget .loo-step-field input{width:4.5em}"
    # touch screens and phones: targets of 44 px at least
    + _TOUCH + "{.loo-widget .jupyter-button,.loo-widget .loo-snap-button{min-height:44px;"
    "min-width:44px}"
    ".loo-widget .widget-checkbox,.loo-widget .widget-dropdown,.loo-widget .widget-text,"
    ".loo-widget .widget-inline-hbox{min-height:44px;height:auto}"
    ".loo-widget .widget-dropdown>select,.loo-widget input.widget-input{min-height:44px}"
    ".loo-widget input[type=checkbox]{width:22px;height:22px}}"
)
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

_RULE_ID = re.compile(r"\b[RV]-[A-Z]+(?:-[A-Z]+)*\b")
_KNOWN_RULES: dict[str, RuleKey] = {rule.value: rule for rule in (*RuleId, *VariantRuleId)}

_ANNOUNCED = {
    Announcement.STAND: "stood",
    Announcement.PASS: "passed",
    Announcement.MISS: "took the miss",
    Announcement.DEFEND: "defends the pool",
}


def rule_link(rule: RuleKey, base: str = RULES_BASE) -> HtmlStr:
    """A link to the book's section on ``rule``, showing its ID.

    Rules of the limited profile are explained on the rules page, rules that
    only variants add on the variants page.

    >>> rule_link(RuleId.LEAD_ACE)
    '<a class="loo-rule" href="../book/rules.html#r-lead-ace" title="The forced ace">R-LEAD-ACE</a>'
    """
    page = "rules" if isinstance(rule, RuleId) else "variants"
    return HtmlStr(f'<a class="loo-rule" href="{html.escape(base)}{page}.html#{rule.label}" '
                   f'title="{html.escape(rule.heading)}">{rule.value}</a>')


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

    >>> link_rules("Follow suit (R-FOLLOW) & more").count('href="../book/rules.html#r-follow"')
    1
    >>> 'aria-label="queen of spades">Q♠<' in link_rules("A plays Q♠.")
    True
    """
    def link(match: re.Match[str]) -> str:
        rule = _KNOWN_RULES.get(match.group(0))
        return match.group(0) if rule is None else rule_link(rule, base)

    def card(match: re.Match[str]) -> str:
        return card_text_html(parse_card(match.group(0)))

    return HtmlStr(_CARD_WRITTEN.sub(card, _RULE_ID.sub(link, html.escape(text))))


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


def _seat_cards(state: DealState, seat: Seat, view: PlayerView | None, four_colour: bool,
                highlight: Collection[Card], note: str) -> tuple[str, str]:
    """The cards drawn at a seat and a few words about them."""
    said = dict(state.announcements).get(seat)
    double = state.kind is DealKind.DOUBLE
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
        return backs(3, f"a card dealt to {state.players[seat]}"), ""
    if said is Announcement.PASS:
        return "", "hand thrown in"
    return "", ""


def _seat_status(state: DealState, seat: Seat) -> str:
    said = dict(state.announcements).get(seat)
    if state.collected_by == seat:
        return "collects the pool"
    if said is not None:
        return _ANNOUNCED[said]
    if state.kind is DealKind.DOUBLE and state.phase is Phase.ANNOUNCE:
        return "to announce" if state.current_player() == seat else "waiting to announce"
    if state.kind is DealKind.SIMPLE:
        return "plays"
    return ""


def _shown_trick(tricks: Sequence[Trick]) -> tuple[int, Trick] | None:
    """The trick in play, or else the last finished one, with its number."""
    if not tricks:
        return None
    return len(tricks), tricks[-1]


def _centre(state: DealState, view: PlayerView | None, four_colour: bool) -> str:
    parts = []
    kind = "double deal" if state.kind is DealKind.DOUBLE else "simple deal"
    parts.append(f'<div class="loo-pool"><strong>Pool {state.pool}</strong> · {kind} '
                 f'· carried {state.carried}</div>')
    indicator = state.indicator if state.trump is not None else None
    if view is not None:
        indicator = view.indicator
    if indicator is not None:
        shown = _card(indicator, four_colour, note="trump indicator")
        words = f"trumps: {indicator.suit.noun}s"
    else:
        shown = _back("hidden trump indicator")
        words = "trumps hidden"
    parts.append(f'<div class="loo-indicator">{shown}<div>{words}</div></div>')
    if state.miss is not None:
        taker = state.miss_taker if state.miss_taker is not None else state.defender
        if taker is None:
            miss = "".join(_back("a card of the miss, face down") for _ in state.miss)
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


def ledger_html(state: DealState, base: str = RULES_BASE, *, style: bool = True) -> HtmlStr:
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
            tricks = str(wins[seat]) + (" (defender)" if seat == state.defender else "")
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


def table_html(state: DealState, view_seat: Seat | None = None, four_colour: bool = False,
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
        x, y = 50 + 41 * math.cos(angle), 50 + 38 * math.sin(angle)
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
        place = f"left:{x:.1f}%;bottom:0" if mine else f"left:{x:.1f}%;top:{y:.1f}%"
        hand = ('<div class="loo-hand loo-own-hand"></div>' if mine
                else f'<div class="loo-hand">{cards}</div>')
        seats.append(
            f'<div class="loo-seat{" loo-mine" if mine else ""}" role="group" '
            f'aria-label="{html.escape(label)}" '
            f'{"data-to-act " if acting else ""}style="{place}">'
            f'<div><strong>{html.escape(name)}</strong>{badges}</div>'
            f'{hand}<div class="loo-status">{line}</div>{won}</div>'
        )
    body = (f'<div class="loo-table"><div class="loo-felt"></div>'
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
