"""How many students the classroom server takes at once (``--max-students``).

Each student's page holds a kernel of its own, so the most students a
server can hold is set by its cores and memory (``benchmarks/README.md``
has the figures). With a maximum set, a student who arrives when the
class is full is not left waiting on a page that never comes alive: the
server answers at once with a short page that says the class is full, and
that page asks again every :data:`RETRY_S` seconds, opening the app as soon
as a place is free (a student leaving, or an idle kernel stopped).

The students in are counted with Voila's public calls: the kernels running
(``list_kernel_ids``) less those kept ready for the next pages
(``get_pool_size`` of each notebook).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

RETRY_S = 15
"""How often a student turned away asks again, in seconds."""


def full_page(most: int, retry_s: int = RETRY_S) -> str:
    """The page a student gets when ``most`` students are in already."""
    students = "one student" if most == 1 else f"{most} students"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta http-equiv=\"refresh\" content=\"{retry_s}\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<title>The class is full</title></head>\n"
        "<body style=\"font-family: sans-serif; max-width: 40em; margin: 3em auto; padding: 0 1em\">"
        "<main><h1>The class is full</h1>"
        f"<p role=\"status\">This server takes {html.escape(students)} at once, as your teacher "
        "set it, and they are all in. This page asks again every "
        f"{retry_s} seconds and opens your app as soon as a place is free; you can leave it "
        "open.</p></main></body></html>\n")


@dataclass
class Admission:
    """At most ``most`` students at once on the notebooks ``notebooks`` (paths as Voila names them)."""

    most: int
    notebooks: tuple[str, ...]
    retry_s: int = RETRY_S

    @classmethod
    def of(cls, most: int, notebooks: Iterable[str]) -> Admission:
        return cls(most, tuple(notebooks))

    def students(self, kernel_manager: Any) -> int:
        """The students in: the kernels running, less those kept ready."""
        running = len(kernel_manager.list_kernel_ids())
        ready: int = sum(kernel_manager.get_pool_size(name) for name in self.notebooks)
        return max(0, running - ready)

    def full_page(self) -> str:
        """The page for a student who must wait."""
        return full_page(self.most, self.retry_s)

    def full(self, kernel_manager: Any) -> bool:
        """Whether the next student must wait (never, without a maximum)."""
        return self.most > 0 and self.students(kernel_manager) >= self.most
