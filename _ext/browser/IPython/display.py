"""``display`` for the live book pages: each object shown goes to ``show``.

``loo_live_worker.start`` sets ``show`` to the function that draws a widget
in its place on the page; there is no output area to clear.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

show: Callable[[Any], None] = print


def display(*objects: Any, **options: Any) -> None:
    for shown in objects:
        show(shown)


def clear_output(wait: bool = False) -> None:
    """Nothing to clear: the live pages keep no output area of their own."""
