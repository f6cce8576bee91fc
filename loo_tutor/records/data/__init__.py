"""Example deal records shipped with the package, for notebooks and the book.

Each ``NAME.yaml`` here is a copy of one record of the test collection
(``tests/data/examples``), so the engine's tests vouch for it. Notebooks
load them by name, which works wherever the package is installed:

>>> record = example("forced-ace")
>>> record["dealer"], record["carried"]
('E', 9)
>>> "forced-ace" in names()
True
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from ...engine.errors import MalformedRecord
from ..record import loads

__all__ = ["example", "names"]


def names() -> list[str]:
    """The names of the shipped example records, sorted."""
    folder = resources.files(__name__)
    return sorted(entry.name[:-5] for entry in folder.iterdir() if entry.name.endswith(".yaml"))


def example(name: str) -> dict[str, Any]:
    """The shipped record called ``name`` (e.g. ``"forced-ace"``), as a dict.

    A fresh dict is returned on every call, so changing it is harmless.

    Raises:
        MalformedRecord: no example of that name exists.
    """
    entry = resources.files(__name__) / f"{name}.yaml"
    if not entry.is_file():
        known = ", ".join(names())
        raise MalformedRecord(f"no example record called {name!r}; known: {known}")
    return loads(entry.read_text(encoding="utf-8"))
