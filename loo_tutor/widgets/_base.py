"""What every widget shares: reading a deal, naming a seat, showing an error,
and the one loop of a widget where the reader acts for a seat."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, Union, cast

import ipywidgets as widgets

from ..engine.cards import Card
from ..engine.errors import LooError, MalformedRecord
from ..engine.observe import hidden_cards
from ..engine.pam import PamState
from ..engine.state import Action, DealMachine, DealState, Seat, Verdict
from ..records.record import load_record, record_from_state
from ..render.markup import HtmlStr, error_html, widget_stylesheet
from ..teaching.narrate import Narration, narrate_action

Source = Union[str, "os.PathLike[str]", Mapping[str, Any], DealState]
"""Anything a widget accepts as its deal."""

_RECORD_SUFFIXES = (".yaml", ".yml", ".json")


def read_record(source: Source) -> dict[str, Any]:
    """The deal record behind ``source``: a file path, record text, a dict or a state.

    Raises:
        MalformedRecord: the file is missing or unreadable, or the text is
            not a record.
    """
    if isinstance(source, DealMachine):
        return record_from_state(source)
    if isinstance(source, Mapping):
        return dict(source)
    if isinstance(source, str):
        text = source.strip()
        looks_like_a_path = "\n" not in text and text.lower().endswith(_RECORD_SUFFIXES)
        if looks_like_a_path and not os.path.isfile(text):
            raise MalformedRecord(f"cannot find the record file {text!r}")
        return load_record(source)
    if isinstance(source, os.PathLike):
        return load_record(source)
    raise MalformedRecord(
        f"expected a deal record (a file path, its text or a dict), not {type(source).__name__}"
    )


def seat_of(players: DealMachine | Sequence[str], seat: Seat | str) -> Seat:
    """A seat given by index or by player name, at a deal or a table of ``players``.

    Raises:
        LooError: no such player.
    """
    names = list(players.players if isinstance(players, DealMachine) else players)
    if isinstance(seat, str) and seat in names:
        return names.index(seat)
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(names):
        return seat
    raise LooError(f"{seat!r} is not one of the players ({', '.join(names)})")


def one_line(exc: Exception) -> str:
    """An error's message on a single line."""
    return " ".join(str(exc).split()) or type(exc).__name__


Part = TypeVar("Part", bound=widgets.DOMWidget)
Made = TypeVar("Made")
Args = ParamSpec("Args")
Result = TypeVar("Result")
Widget = TypeVar("Widget", bound="LooWidget")


def unless_failed(empty: Callable[[], object]
                  ) -> Callable[[Callable[Concatenate[Widget, Args], Result]],
                                Callable[Concatenate[Widget, Args], Result]]:
    """Make a widget's method do nothing, and give ``empty()``, while the widget
    shows an error in place of its content (see :meth:`LooWidget.attempt`).

    >>> class Counter(LooWidget):
    ...     @unless_failed(lambda: 0)
    ...     def one(self) -> int:
    ...         return 1
    >>> counter = Counter()
    >>> counter.one(), counter.attempt(lambda: counter.one())
    (1, 1)
    >>> from loo_tutor.engine.errors import LooError
    >>> def refuse() -> int:
    ...     raise LooError("no deal")
    >>> counter.attempt(refuse) is None, counter.one(), counter.error
    (True, 0, 'This deal cannot be used: no deal')
    """
    def guard(method: Callable[Concatenate[Widget, Args], Result]
              ) -> Callable[Concatenate[Widget, Args], Result]:
        @functools.wraps(method)
        def guarded(self: Widget, /, *args: Args.args, **kwargs: Args.kwargs) -> Result:
            if self.error is not None:
                return cast(Result, empty())  # what the method gives when it has nothing
            return method(self, *args, **kwargs)

        return guarded

    return guard


def nothing() -> None:
    """What a guarded method that gives nothing gives while the widget shows an error."""
    return None


class LooWidget(widgets.VBox):  # type: ignore[misc]
    """A vertical box that can show a one-line error in place of its content.

    Its parts are made with :meth:`part`, which lets parts that look alike
    share their layout and style objects, and shown with :meth:`show`,
    which puts the widgets' style sheet in front of them.

    Attributes:
        error: the error message when the deal could not be used, else ``None``.
    """

    children: tuple[Any, ...]

    def __init__(self) -> None:
        super().__init__()
        self.error: str | None = None
        self._layouts: dict[tuple[tuple[str, str], ...], widgets.Layout] = {}
        self._styles: dict[type, widgets.Widget] = {}
        self._sheet = self.part(widgets.HTML, widget_stylesheet(), layout={"display": "none"})
        self.add_class("loo-widget")

    def show(self, *parts: widgets.Widget) -> None:
        """Make ``parts`` the widget's content, after its style sheet."""
        self.children = (self._sheet, *parts)

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

    SAID = "loo-said"
    """The class of a part whose words a screen reader reads out when they change:
    the page's script makes it an ARIA live region (``classroom_page/src/manager.js``)."""

    def said(self) -> widgets.HTML:
        """An HTML part for verdicts and hints, read out by a screen reader when it changes."""
        box = self.part(widgets.HTML)
        box.add_class(self.SAID)
        return box

    def ask_for_an_answer(self, notes: Iterable[widgets.HTML], summary: widgets.HTML) -> None:
        """What a Check with every answer left empty shows: no verdict beside the
        answers, and a line asking for one."""
        for note in notes:
            note.value = ""
        summary.value = ('<p class="loo-summary">Nothing to check yet: answer a question '
                         "above, then press Check.</p>")

    def on_enter(self, field: widgets.Text, act: Callable[[], object]) -> None:
        """Call ``act()`` when Enter is pressed in ``field`` (the browser's ``submit`` event)."""
        def submitted(_: object, content: Mapping[str, Any], buffers: object) -> None:
            if content.get("event") == "submit":
                act()

        field.on_msg(submitted)

    FINISHED = "loo-done"
    """The class a widget takes once its reader has finished it: the page's script
    (``classroom_page/src/progress.js``) notes the chapter's try-it as done."""

    def finish(self) -> None:
        """Mark the widget finished: its reader has done what it asks."""
        self.add_class(self.FINISHED)

    @property
    def finished(self) -> bool:
        """Whether the reader has finished this widget (see :meth:`finish`)."""
        return self.FINISHED in self._dom_classes

    _FAILED = "This deal cannot be used"
    """What the error line says before the reason."""

    def _fail(self, exc: Exception) -> None:
        self.error = f"{self._FAILED}: {one_line(exc)}"
        self.show(self.part(widgets.HTML, error_html(self.error)))

    def attempt(self, make: Callable[[], Made]) -> Made | None:
        """What ``make()`` gives, or ``None`` when the engine refuses it with a
        :class:`~loo_tutor.engine.errors.LooError`: the widget then shows why on
        one line in place of its content, and its methods guarded by
        :func:`unless_failed` do nothing.

        The one way a widget sets itself up from what its reader gave it
        (a record, a seat, a kind of exercise); ``make`` never gives ``None``.
        """
        try:
            return make()
        except LooError as exc:
            self._fail(exc)
            return None

    def _render(self) -> str:
        raise NotImplementedError

    def hidden_cards(self) -> frozenset[Card]:
        """The cards this widget keeps face down: none may be in its HTML or its state.

        The engine decides (:func:`~loo_tutor.engine.observe.hidden_cards`);
        a widget that shows deals overrides this with the cards hidden in
        every view it has shown since it was last reset.
        """
        return frozenset()

    @property
    def html(self) -> HtmlStr:
        """The widget's current content as static HTML (the error, if any)."""
        if self.error is not None:
            return error_html(self.error)
        return HtmlStr(self._render())


SeatState = TypeVar("SeatState", bound="DealState | PamState")
"""The state of the deals a seat widget plays: three-card Loo, or Pam Loo as well."""


class SeatWidget(LooWidget, Generic[SeatState]):
    """A widget where the reader acts for one seat of a deal.

    Every action of the reader goes the same way: the engine checks it
    (:meth:`~loo_tutor.engine.state.DealState.check`); a legal one is applied and
    narrated, then the automatic players act (:meth:`_automatic`) until the
    reader must act again or the deal is over; and the widget is drawn again
    (:meth:`_refresh`). A refused action changes nothing but the verdict.

    Attributes:
        seat: the reader's seat.
        states: every state of the deal so far, the first being the start.
        verdict: the engine's verdict on the reader's last action, or ``None``.
        told: the narration of what happened since the reader's last action.
    """

    seat: Seat

    def __init__(self) -> None:
        super().__init__()
        self.states: list[SeatState] = []
        self.verdict: Verdict | None = None
        self.told: list[Narration] = []

    @property
    def state(self) -> SeatState:
        """The deal as it stands now."""
        return self.states[-1]

    def _open(self, find: Callable[[], tuple[SeatState, Seat]], four_colour: bool,
              rules_base: str) -> bool:
        """Find the starting state and the reader's seat, and make the header.

        Returns:
            whether there is a deal to show; if not, the widget says why on one line.
        """
        found = self.attempt(find)
        if found is None:
            return False
        self._start, self.seat = found
        self._four = four_colour
        self._base = rules_base
        self.header = self.part(widgets.HTML)
        return True

    @unless_failed(frozenset)
    def hidden_cards(self) -> frozenset[Card]:
        if not self.states:
            return frozenset()
        return frozenset.intersection(*(hidden_cards(s, self.seat) for s in self.states))

    def _begin(self, start: SeatState) -> None:
        """Start from ``start``: the automatic players act first if it is their turn."""
        self.states = [start]
        self.verdict = None
        self.told = []
        self._advance()
        self._refresh()

    def take(self, action: Action) -> Verdict:
        """Put the reader's ``action`` to the engine; play it only if it is legal."""
        before = self.state
        verdict = before.check(action)
        self.verdict = verdict
        if verdict:
            after = cast(SeatState, before.apply(action))  # the same game as before
            self.states.append(after)
            self.told = [narrate_action(before, action, after)]
            self._advance()
            if self._done():
                self.finish()
        self._refresh()
        return verdict

    def _done(self) -> bool:
        """Whether the reader has done what the widget asks, after a legal action:
        by default, played the deal to its end."""
        return self.state.is_terminal()

    def _advance(self) -> None:
        """Let the automatic players act while :meth:`_automatic` gives an action."""
        state = self.state
        while not state.is_terminal():
            action = self._automatic(state)
            if action is None:
                break
            after = cast(SeatState, state.apply(action))
            self.told.append(narrate_action(state, action, after))
            self.states.append(after)
            state = after

    def _automatic(self, state: SeatState) -> Action | None:
        """What an automatic player does in ``state``; ``None`` when the reader acts."""
        return None

    def _refresh(self) -> None:
        raise NotImplementedError
