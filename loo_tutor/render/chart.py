"""The balances of a session as a line chart, as an HTML string.

:func:`balance_chart` draws every player's balance after each deal as SVG,
written here without any plotting library, so that the chart is the same in
the book, in the reader's browser (where Python runs without matplotlib) and
in the classroom. It scales to the width of its column, draws its axes and
words in the page's text colour (so it reads in the dark theme too), and
carries a text alternative giving the final balances.

>>> from fractions import Fraction as F
>>> html = balance_chart(["A", "B"], [(F(-3), F(0)), (F(1), F(-4))])
>>> "<svg" in html, "A +1" in html
(True, True)
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence
from fractions import Fraction

from ..engine.state import signed_text
from .markup import HtmlStr

# Eight colours that stay apart for the common kinds of colour blindness
# (Okabe and Ito's palette, with greys for the last two instead of black,
# which a dark page would hide).
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7F7F7F",
           "#B0B0B0")


def _summary(players: Sequence[str], rows: Sequence[Sequence[Fraction]]) -> str:
    if not rows:
        return "No deal has been played yet."
    last = rows[-1]
    parts = ", ".join(f"{name} {signed_text(last[i])}" for i, name in enumerate(players))
    deals = "one deal" if len(rows) == 1 else f"{len(rows)} deals"
    return f"Balances after {deals}: {parts}."


def balance_chart(players: Sequence[str], rows: Sequence[Sequence[Fraction]],
                  highlight: int | None = None) -> HtmlStr:
    """Every player's balance after each deal, as a chart in HTML.

    Args:
        players: the names, in seating order.
        rows: the balances after each deal, by seat (the start, all 0, is added).
        highlight: a seat drawn with a thicker line (the reader's).
    """
    summary = _summary(players, rows)
    return HtmlStr(f'<figure class="loo-chart" role="group" aria-label="{_html.escape(summary)}" '
                   f'style="margin:0.5em 0;max-width:28em">'
                   f'<div aria-hidden="true">{_svg(players, rows, highlight)}'
                   f'{_key(players, highlight)}</div>'
                   f'<figcaption>{_html.escape(summary)}</figcaption></figure>')


def _key(players: Sequence[str], highlight: int | None) -> str:
    """The key to the lines, in HTML below the chart: at the text's own size on any
    screen, where words inside the drawing shrink with it."""
    items = "".join(
        f'<li style="white-space:nowrap"><span style="display:inline-block;width:1.6em;'
        f'vertical-align:middle;border-top:{3 if seat == highlight else 2}px solid '
        f'{COLOURS[seat % len(COLOURS)]}"></span> {_html.escape(name)}</li>'
        for seat, name in enumerate(players))
    return (f'<ul class="loo-chart-key" style="display:flex;flex-wrap:wrap;gap:0.2em 1em;'
            f'list-style:none;margin:0.3em 0 0;padding:0">{items}</ul>')


def _series(players: Sequence[str], rows: Sequence[Sequence[Fraction]]) -> list[list[float]]:
    return [[0.0] + [float(row[seat]) for row in rows] for seat in range(len(players))]


def _svg(players: Sequence[str], rows: Sequence[Sequence[Fraction]],
         highlight: int | None) -> str:
    """Axes, a zero line, one polyline a player and a key, in a box that scales."""
    width, height, left, right, top, bottom = 450, 240, 52, 14, 12, 44
    series = _series(players, rows)
    values = [v for line in series for v in line]
    low, high = min([*values, 0.0]), max([*values, 0.0])
    if high - low < 1:
        low, high = low - 1, high + 1
    steps = max(len(rows), 1)

    def x(deal: int) -> float:
        return left + (width - left - right) * deal / steps

    def y(value: float) -> float:
        return top + (height - top - bottom) * (high - value) / (high - low)

    opening = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
               'width="100%" font-family="system-ui,sans-serif" font-size="18" '
               'fill="currentColor" style="display:block;max-width:100%;height:auto">')
    parts = [opening]
    parts.append(f'<line x1="{left}" y1="{y(0):.1f}" x2="{width - right}" y2="{y(0):.1f}" '
                 'stroke="currentColor" stroke-opacity="0.6" stroke-width="0.8"/>')
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" '
                 'stroke="currentColor"/>')
    for value in (low, 0.0, high):
        parts.append(f'<text x="{left - 4}" y="{y(value) + 6:.1f}" text-anchor="end">'
                     f'{value:+.0f}</text>')
    for deal in range(steps + 1):
        parts.append(f'<text x="{x(deal):.1f}" y="{height - bottom + 20}" '
                     f'text-anchor="middle">{deal}</text>')
    parts.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 2}" '
                 'text-anchor="middle">deal</text>')
    for seat, line in enumerate(series):
        colour = COLOURS[seat % len(COLOURS)]
        points = " ".join(f"{x(d):.1f},{y(v):.1f}" for d, v in enumerate(line))
        thick = 3 if seat == highlight else 1.5
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="{thick}"/>')
    parts.append("</svg>")
    return "".join(parts)
