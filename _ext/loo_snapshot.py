"""Saved widgets written into a notebook page as plain HTML.

A notebook page of the book carries the state of its widgets as they were
when the book was built, and a placeholder for each widget a cell shows.
The widget manager (``embed-amd.js``, 3.6 MB) can draw them in the reader's
browser, and its slider and menus even work there without Python; but on a
live page it would spend processor time drawing widgets that the live ones
replace moments later, while Python starts on the same processor. So a live
page gets, in front of each placeholder, the same widgets written as HTML
when the book is built: what each widget shows, its buttons, menus and
fields drawn but disabled. The reader sees
them at once, before any script has run. The live page's script loads the
widget manager only if Python cannot start, and then removes these copies.

Only the widget kinds the project's widgets are made of are written
(boxes, stacks, HTML, labels, buttons, check boxes, menus, sliders and text
fields); any other kind is left out of the copy.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

MARK = "loo-snapshot"
VIEW = re.compile(r'<script type="application/vnd\.jupyter\.widget-view\+json">'
                  r'(?P<view>.*?)</script>', re.DOTALL)
STATE = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">'
                   r'(?P<state>.*?)</script>', re.DOTALL)
# The widget manager's scripts, which myst-nb writes into every page with widgets.
MANAGER = re.compile(r'<script src="(?P<src>[^"]*/(?:require\.js|html-manager/embed-amd\.js)'
                     r'[^"]*)"></script>\n?')
# The live page's script (see _ext/loo_live.py), which loads the manager if Python cannot start.
LIVE_SCRIPT = re.compile(r'<script\b[^>]*\bdata-loo-live="page"[^>]*>')
_REFERENCE = "IPY_MODEL_"
_BOXES = {"VBoxModel": "loo-snap-vbox", "BoxModel": "loo-snap-vbox", "HBoxModel": "loo-snap-hbox"}


def _model(states: dict[str, Any], reference: str | None) -> dict[str, Any]:
    if not reference or not reference.startswith(_REFERENCE):
        return {}
    found: dict[str, Any] = states.get(reference[len(_REFERENCE):], {})
    return found


def _css(states: dict[str, Any], state: dict[str, Any]) -> str:
    """The inline style of a widget's layout: its CSS properties that are set."""
    layout = _model(states, state.get("layout")).get("state", {})
    return ";".join(f"{key.replace('_', '-')}:{value}" for key, value in sorted(layout.items())
                    if not key.startswith("_") and isinstance(value, str) and value)


def _attributes(kind: str, state: dict[str, Any], states: dict[str, Any],
                **extra: str | bool) -> str:
    """A widget's class (its kind and its own classes), style (its layout) and ``extra``."""
    named: dict[str, str | bool] = {"class": " ".join([kind, *state.get("_dom_classes", [])]),
                                    "style": _css(states, state), **extra}
    return "".join(f" {name}" if value is True else f' {name}="{html.escape(value)}"'
                   for name, value in named.items() if value)


def _labelled(state: dict[str, Any], states: dict[str, Any], control: str,
              words_after: bool = False) -> str:
    """A control with its description: before it in a column as wide as its style
    says (ipywidgets' own width when it says nothing), or after it (a check box)."""
    words = state.get("description") or ""
    label = words if state.get("description_allow_html") else html.escape(words)
    named = _attributes("loo-snap-field", state, states, title=state.get("tooltip") or "")
    if words_after:
        return f'<label{named}>{control}<span class="loo-snap-words">{label}</span></label>'
    width = _model(states, state.get("style")).get("state", {}).get("description_width") or ""
    if width == "initial":
        column = ""
    elif width:
        column = f' loo-snap-column" style="width:{html.escape(width)}'
    else:
        column = " loo-snap-column"
    shown = f'<span class="loo-snap-words{column}">{label}</span>' if label else ""
    return f"<label{named}>{shown}{control}</label>"


def _draw(states: dict[str, Any], reference: str | None) -> str:
    model = _model(states, reference)
    name = model.get("model_name", "")
    state: dict[str, Any] = model.get("state", {})
    if name in _BOXES:
        inner = "".join(_draw(states, child) for child in state.get("children", []))
        return f"<div{_attributes(_BOXES[name], state, states)}>{inner}</div>"
    if name == "StackModel":  # only the page chosen
        children = state.get("children", [])
        index = state.get("selected_index")
        shown = _draw(states, children[index]) if isinstance(index, int) else ""
        return f"<div{_attributes('loo-snap-vbox', state, states)}>{shown}</div>"
    if name == "HTMLModel":
        return f"<div{_attributes('loo-snap-html', state, states)}>{state.get('value', '')}</div>"
    if name == "LabelModel":
        text = html.escape(str(state.get("value", "")))
        return f"<div{_attributes('loo-snap-label', state, states)}>{text}</div>"
    if name == "ButtonModel":
        style = state.get("button_style")
        kind = f"loo-snap-button loo-snap-{style}" if style else "loo-snap-button"
        named = _attributes(kind, state, states, type="button",
                            title=state.get("tooltip") or "", disabled=True)
        return f"<button{named}>{html.escape(state.get('description', ''))}</button>"
    if name == "CheckboxModel":
        ticked = " checked" if state.get("value") else ""
        return _labelled(state, states, f'<input type="checkbox" disabled{ticked}>',
                         words_after=True)
    if name == "DropdownModel":
        labels = state.get("_options_labels", [])
        index = state.get("index")
        chosen = html.escape(labels[index]) if isinstance(index, int) else ""
        return _labelled(state, states, f"<select disabled><option>{chosen}</option></select>")
    if name == "IntSliderModel":
        value = state.get("value", 0)
        return _labelled(state, states,
                         f'<input type="range" disabled min="{state.get("min", 0)}" '
                         f'max="{state.get("max", 100)}" value="{value}">'
                         f'<span class="loo-snap-readout">{value}</span>')
    if name in ("TextModel", "BoundedIntTextModel", "IntTextModel"):
        # The saved state leaves out values that are the widget's default.
        kind, default = ("text", "") if name == "TextModel" else ("number", 0)
        value = html.escape(str(state.get("value", default)))
        hint = html.escape(state.get("placeholder") or "")
        limits = "".join(f' {key}="{state[key]}"' for key in ("min", "max") if key in state)
        return _labelled(state, states, f'<input type="{kind}" disabled value="{value}"'
                                        f'{limits} placeholder="{hint}">')
    return ""


def snapshot(states: dict[str, Any], model_id: str) -> str:
    """The widget ``model_id`` of the saved state ``states`` (model id -> model), as HTML."""
    return f'<div class="{MARK}">{_draw(states, _REFERENCE + model_id)}</div>'


def add_snapshots(page: str) -> str:
    """``page`` with a snapshot before each widget placeholder; unchanged if it has them."""
    found = STATE.search(page)
    if found is None or f'<div class="{MARK}">' in page:
        return page
    states = json.loads(found.group("state")).get("state", {})

    def before(view: re.Match[str]) -> str:
        model_id = json.loads(view.group("view")).get("model_id", "")
        return snapshot(states, model_id) + view.group(0)

    return VIEW.sub(before, page)


def defer_widget_manager(page: str) -> str:
    """``page`` with its widget manager's scripts left for the live page's script to load if needed.

    The script tags of RequireJS and the widget manager are taken out, and
    their addresses written, in the order they were, into the
    ``data-saved-widgets`` attribute of the live page's script tag.
    """
    sources = [found.group("src") for found in MANAGER.finditer(page)]
    if not sources or LIVE_SCRIPT.search(page) is None:
        return page
    addresses = html.escape(" ".join(sources))
    return LIVE_SCRIPT.sub(lambda tag: f'{tag.group(0)[:-1]} data-saved-widgets="{addresses}">',
                           MANAGER.sub("", page), count=1)
