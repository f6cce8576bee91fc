"""What every widget shares: reading a deal, naming a seat, showing an error."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, Union

import ipywidgets as widgets

from ..errors import LooError, MalformedRecord
from ..record import load_record, record_from_state
from ..render import HtmlStr, error_html
from ..state import DealState, Seat

Source = Union[str, "os.PathLike[str]", Mapping[str, Any], DealState]
"""Anything a widget accepts as its deal."""

_RECORD_SUFFIXES = (".yaml", ".yml", ".json")


def read_record(source: Source) -> dict[str, Any]:
    """The deal record behind ``source``: a file path, record text, a dict or a state.

    Raises:
        MalformedRecord: the file is missing or unreadable, or the text is
            not a record.
    """
    if isinstance(source, DealState):
        return record_from_state(source)
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, str):
        text = source.strip()
        if "\n" not in text and text.lower().endswith(_RECORD_SUFFIXES) and not os.path.isfile(text):
            raise MalformedRecord(f"cannot find the record file {text!r}")
        return load_record(source)
    if isinstance(source, os.PathLike):
        return load_record(source)
    raise MalformedRecord(
        f"expected a deal record (a file path, its text or a dict), not {type(source).__name__}"
    )


def seat_of(state: DealState, seat: Seat | str) -> Seat:
    """A seat given by index or by player name.

    Raises:
        LooError: no such player.
    """
    if isinstance(seat, str) and seat in state.players:
        return state.players.index(seat)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.players):
        return seat
    raise LooError(f"{seat!r} is not one of the players ({', '.join(state.players)})")


def record_script(state: DealState, seat: Seat | None = None) -> str:
    """The deal a widget shows, as a hidden machine-readable record.

    An inert ``<script type="application/json" class="loo-record">`` holding
    ``{"record": ..., "seat": ...}``: the deal written back as a record
    (:func:`~loo_tutor.record.record_from_state`) and the reader's seat, if
    any. Nothing reads it in the page; the browser tests parse it and check
    the record with the engine, to compare with what the widget draws.
    """
    shown = {"record": record_from_state(state),
             "seat": None if seat is None else state.players[seat]}
    text = json.dumps(shown, ensure_ascii=False)
    for char, escape in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(char, escape)
    return f'<script type="application/json" class="loo-record">{text}</script>'


def one_line(exc: Exception) -> str:
    """An error's message on a single line."""
    return " ".join(str(exc).split()) or type(exc).__name__


Part = TypeVar("Part", bound=widgets.DOMWidget)


class LooWidget(widgets.VBox):  # type: ignore[misc]
    """A vertical box that can show a one-line error in place of its content.

    Its parts are made with :meth:`part`, which lets parts that look alike
    share their layout and style objects.

    Attributes:
        error: the error message when the deal could not be used, else ``None``.
    """

    children: tuple[Any, ...]

    def __init__(self) -> None:
        super().__init__()
        self.error: str | None = None
        self._layouts: dict[tuple[tuple[str, str], ...], widgets.Layout] = {}
        self._styles: dict[type, widgets.Widget] = {}
        self.add_class("loo-widget")

    def part(self, kind: type[Part], *args: Any, layout: Mapping[str, str] | None = None,
             **traits: Any) -> Part:
        """A ``kind`` widget, made with ``args`` and ``traits``, that shares its looks.

        Every ipywidget otherwise comes with a layout object and most with a
        style object of their own: widget models the kernel makes and sends,
        and the page draws, one by one. The parts of this widget share one
        layout object per set of ``layout`` properties (CSS, such as
        ``{"width": "4em"}``), and one style object per kind of style unless
        ``traits`` gives a ``style``. So a part's layout and style must not be
        changed: that would change every part that shares them.
        """
        key = tuple(sorted((layout or {}).items()))
        if key not in self._layouts:
            self._layouts[key] = widgets.Layout(**dict(key))
        style = kind.class_traits().get("style")
        if style is not None and "style" not in traits:
            if style.klass not in self._styles:
                self._styles[style.klass] = style.klass()
            traits["style"] = self._styles[style.klass]
        made: Part = kind(*args, layout=self._layouts[key], **traits)
        return made

    def button(self, words: str, tip: str, act: Callable[[], object], **traits: Any) -> Any:
        """A button part showing ``words``, with ``tip`` as its tooltip, that calls ``act()``."""
        made = self.part(widgets.Button, description=words, tooltip=tip, **traits)
        made.on_click(lambda _: act())
        return made

    _FAILED = "This deal cannot be used"
    """What the error line says before the reason."""

    def _fail(self, exc: Exception) -> None:
        self.error = f"{self._FAILED}: {one_line(exc)}"
        self.children = (self.part(widgets.HTML, error_html(self.error)),)

    def _render(self) -> str:
        raise NotImplementedError

    @property
    def html(self) -> HtmlStr:
        """The widget's current content as static HTML (the error, if any)."""
        if self.error is not None:
            return error_html(self.error)
        return HtmlStr(self._render())
