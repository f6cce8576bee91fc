"""A classroom's practice app sends the student no card the widget hides.

In the classroom the widgets live in a kernel on the server and their
state crosses the network to the student's page. This test opens the
practice app (``notebooks/practice.ipynb``) in Debian's Chromium against a
running ``loo-tutor classroom``, keeps every frame the page receives on its
websockets, plays a card and asks for a hint, and then looks in those
frames and in the page for the cards the widget hides.

Which cards those are is worked out here: the notebook's session is seeded,
so the same widget made in this process, with the same clicks, deals the
same cards and its ``hidden_cards()`` are the kernel's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from loo_tutor.engine.state import Phase
from loo_tutor.widgets import PracticeSession

from browser_support import in_browser
from classroom_server import Server, serving
from leaks import leaks

PLAYERS = ["Anna", "Ben", "Carla", "Dan", "Emil"]


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serving() as running:
        yield running


def test_the_practice_app_sends_no_hidden_card_to_the_student(server: Server) -> None:
    twin = PracticeSession(players=PLAYERS, seat="Anna", deals=5, seed=7)
    assert twin.state.phase is Phase.PLAY and twin.state.current_player() == twin.seat
    frames: list[str] = []
    seen: dict[str, Any] = {}

    def keep(socket: Any) -> None:
        socket.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8", "replace")))

    def look(browser: Any) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        page = context.new_page()
        page.on("websocket", keep)
        try:
            page.goto(server.url + "voila/render/practice.ipynb")
            page.wait_for_function("document.documentElement?.dataset.looClassroom === 'live'",
                                   timeout=120_000)
            widget = page.locator(".loo-widget").filter(has_text="You are Anna.")
            hand = widget.locator("button.loo-card-button")
            hand.first.wait_for(timeout=60_000)
            seen["cards"] = sorted(hand.all_inner_texts())
            seen["played"] = hand.first.inner_text()
            seen["before"] = len(frames)
            hand.first.click()
            widget.locator(".loo-verdict").wait_for(timeout=60_000)
            widget.get_by_role("button", name="Best card and why").click()
            widget.locator(".loo-hint").wait_for(timeout=120_000)
            seen["page"] = page.content()
        finally:
            context.close()

    in_browser(look)
    assert seen["cards"] == sorted(b.description for b in twin.buttons.values()), \
        "the kernel's deal is the one made here"
    twin.play(seen["played"])
    if not twin.hint_button.disabled:
        twin.ask_hint()
    hidden = twin.hidden_cards()
    assert len(hidden) > 30
    assert seen["before"] > 0 and len(frames) > seen["before"], "the widgets' state came as frames"
    assert any(seen["played"] in frame for frame in frames[:seen["before"]]), \
        "the frames kept are those that carry the widgets' drawing"
    found = [f"frame {number}: {leak}" for number, frame in enumerate(frames)
             for leak in leaks(frame, hidden)]
    found += [f"the page: {leak}" for leak in leaks(seen["page"], hidden)]
    assert not found, "\n".join(found[:20])
    # The scan would see a hidden card in a frame.
    card = sorted(hidden)[0]
    assert leaks(frames[-1] + f'"value": "{card.shown}"', hidden)
