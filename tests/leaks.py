"""Looking for hidden cards in what a page carries: its HTML and its widgets' state.

A card can be written in three ways on a page: as the engine's text (``AH``,
in a record), as a reader writes it (``A♥``) and by its spoken name (``ace
of hearts``, in a card's ``aria-label``). :func:`leaks` finds any of them in
a text; :func:`model_strings` gathers every string of a widget and of the
widgets inside it from a widget state in the format a notebook saves
(``{"state": {model_id: {"state": {...}}}}``), where a widget names the
widgets inside it as ``"IPY_MODEL_<id>"``.
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import ipywidgets

from loo_tutor.engine.cards import Card

_REFERENCE = "IPY_MODEL_"


def _pattern(card: Card) -> re.Pattern[str]:
    # The engine's text in capitals only: "as" and "Ah" are words.
    forms = f"{re.escape(card.text)}|{re.escape(card.shown)}|(?i:{re.escape(card.label)})"
    return re.compile(rf"(?<![0-9A-Za-z])(?:{forms})(?![0-9A-Za-z])")


def leaks(text: str, hidden: Iterable[Card]) -> list[str]:
    """The cards of ``hidden`` that ``text`` names, each with the words around it."""
    plain = html.unescape(text)
    found = []
    for card in sorted(hidden):
        match = _pattern(card).search(plain)
        if match is not None:
            start = max(0, match.start() - 60)
            found.append(f"{card.shown} in …{plain[start:match.end() + 60]}…")
    return found


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def model_strings(state: Mapping[str, Any], root: str) -> tuple[list[str], set[str]]:
    """Every string of the model ``root`` and the models inside it, and their ids.

    Raises:
        KeyError: ``root`` (or a model it names) is not in ``state``.
    """
    models = state["state"]
    texts: list[str] = []
    seen: set[str] = set()
    waiting = [root]
    while waiting:
        model_id = waiting.pop()
        if model_id in seen:
            continue
        seen.add(model_id)
        for text in _strings(models[model_id]["state"]):
            if text.startswith(_REFERENCE):
                waiting.append(text.removeprefix(_REFERENCE))
            else:
                texts.append(text)
    return texts, seen


def open_widgets() -> dict[str, ipywidgets.Widget]:
    """Every widget of this process that is not closed, by model id (ipywidgets' registry)."""
    with warnings.catch_warnings():  # ipywidgets 8 deprecates reading its registry
        warnings.simplefilter("ignore", DeprecationWarning)
        return dict(ipywidgets.Widget.widgets)


def widget_leaks(widget: Any, state: Mapping[str, Any] | None = None) -> list[str]:
    """The cards ``widget`` hides (its ``hidden_cards()``) that its HTML or its state holds.

    The state is ``state`` (a page's saved widget state, say) or else the
    widgets' state in this process, as it would be sent to a page.
    """
    hidden = widget.hidden_cards()
    saved = state if state is not None else ipywidgets.Widget.get_manager_state()
    texts, _ = model_strings(saved, widget.model_id)
    found = leaks("\n".join(texts), hidden)
    if state is None:
        found += [f"in its HTML: {leak}" for leak in leaks(widget.html, hidden)]
    return found
