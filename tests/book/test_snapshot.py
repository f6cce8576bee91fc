"""The saved widgets written into a live page as HTML (``_ext/loo_snapshot.py``).

The widget state is the one the book build saves, made here with
ipywidgets' own ``embed_data`` from the project's widgets.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import ipywidgets as widgets
from ipywidgets.embed import dependency_state, embed_data

from loo_tutor.records.data import example
from loo_tutor.widgets import DealStepper, PlayTrainer

import loo_snapshot


def _saved(widget: Any) -> tuple[dict[str, Any], str]:
    data = embed_data(views=[widget], state=dependency_state(widget))
    return data["manager_state"]["state"], data["view_specs"][0]["model_id"]


def test_a_stepper_is_written_as_its_first_step_with_its_controls_disabled() -> None:
    stepper = DealStepper(example("forced-ace"))
    shown = loo_snapshot.snapshot(*_saved(stepper))
    assert shown.startswith('<div class="loo-snapshot"><div class="loo-snap-vbox loo-widget">')
    pages = [page.value for page in stepper.stack.children]
    assert pages[0] in shown and not any(page in shown for page in pages[1:])
    buttons = re.findall(r"<button[^>]*>([^<]*)</button>", shown)
    assert buttons == ["|◀ First", "◀ Back", "Next ▶", "Last ▶|"]
    assert len(re.findall(r"<button[^>]* disabled>", shown)) == 4
    assert 'title="Previous step"' in shown
    # The step field: disabled, at the first step of the last, its number a
    # default the saved state leaves out.
    assert f'<input type="number" disabled value="0" max="{len(pages) - 1}"' in shown
    assert f"<option>{html.escape(stepper.steps[0].title)}</option>" in shown
    assert '<select disabled>' in shown and f"of {len(pages) - 1}" in shown
    assert '<span class="loo-snap-words loo-snap-column">Step</span>' in shown


def test_a_trainer_is_written_with_its_cards_and_check_box() -> None:
    trainer = PlayTrainer(example("forced-ace"), seat="A", from_trick=1, highlight_legal=True)
    shown = loo_snapshot.snapshot(*_saved(trainer))
    assert trainer.table.value in shown and trainer.header.value in shown
    buttons = re.findall(r'<button class="loo-snap-button[^"]*"[^>]*>([^<]*)</button>', shown)
    hand = [b.description for b in trainer.hand.children]
    assert [b for b in buttons if b in hand] == hand
    # The legal card is lit, as in the widget: it keeps its own classes.
    assert re.search(r'<button class="loo-snap-button [^"]*loo-lit[^"]*"[^>]*>A♥</button>', shown)
    # A check box comes before its words, as in the widget.
    assert ('<input type="checkbox" disabled checked>'
            '<span class="loo-snap-words">Highlight legal cards</span>') in shown


def test_descriptions_take_the_width_their_style_gives() -> None:
    box = widgets.VBox([widgets.Dropdown(options=["a"], description="Plain"),
                        widgets.Dropdown(options=["a"], description="Natural",
                                         style={"description_width": "initial"}),
                        widgets.Dropdown(options=["a"], description="Wide",
                                         style={"description_width": "150px"})])
    shown = loo_snapshot.snapshot(*_saved(box))
    assert '<span class="loo-snap-words loo-snap-column">Plain</span>' in shown
    assert '<span class="loo-snap-words">Natural</span>' in shown
    assert '<span class="loo-snap-words loo-snap-column" style="width:150px">Wide</span>' in shown


def test_unknown_widget_kinds_are_left_out() -> None:
    box = widgets.VBox([widgets.HTML("<p>kept</p>"), widgets.ColorPicker()])
    shown = loo_snapshot.snapshot(*_saved(box))
    assert "<p>kept</p>" in shown and "input" not in shown


def _page(widget: Any) -> str:
    data = embed_data(views=[widget], state=dependency_state(widget))
    state = json.dumps(data["manager_state"]).replace("</", "<\\/")  # as in a built page
    view = json.dumps(data["view_specs"][0])
    return ('<html><head><script src="../_static/require.js?v=1"></script>\n'
            '<script src="../_static/html-manager/embed-amd.js?v=2"></script>\n'
            f'<script type="application/vnd.jupyter.widget-state+json">{state}</script>\n'
            '<script data-loo-live="page" defer="defer" src="../_static/live/live.js?v=3"></script>'
            f'</head><body><p>text</p><script type="application/vnd.jupyter.widget-view+json">'
            f"{view}</script></body></html>")


def test_a_live_page_gets_its_snapshots_and_leaves_the_widget_manager_to_its_script() -> None:
    page = _page(widgets.HTML("<p>the deal</p><script>const record = 1;</script>"))
    ready = loo_snapshot.defer_widget_manager(loo_snapshot.add_snapshots(page))
    copy = ready.index('<div class="loo-snapshot">')
    assert ready.index("<p>text</p>") < copy < ready.index("widget-view+json")
    assert "<p>the deal</p>" in ready[copy:]
    assert '<script src="' not in ready
    assert ('<script data-loo-live="page" defer="defer" src="../_static/live/live.js?v=3" '
            'data-saved-widgets="../_static/require.js?v=1 '
            '../_static/html-manager/embed-amd.js?v=2">') in ready
    # A page done already, or a page without widgets, is left as it is.
    assert loo_snapshot.defer_widget_manager(loo_snapshot.add_snapshots(ready)) == ready
    plain = "<html><body><p>no widgets</p></body></html>"
    assert loo_snapshot.defer_widget_manager(loo_snapshot.add_snapshots(plain)) == plain
