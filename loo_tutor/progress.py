"""A plain text progress bar for long simulations (no extra package needed).

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(4, "demo", stream=out, width=8)
>>> bar.update(2); bar.update(4); bar.close()
>>> out.getvalue().splitlines()[-1].strip()
'demo [########] 4/4'
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """Redraws one line such as ``label [####    ] 120/300`` on a stream.

    Args:
        total: the count that means done.
        label: text before the bar.
        stream: where to draw (standard error by default).
        width: the bar's width in characters.
    """

    def __init__(self, total: int, label: str, stream: TextIO | None = None,
                 width: int = 30) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = -1.0

    def update(self, done: int) -> None:
        """Show ``done`` out of the total (at most ten redraws a second)."""
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        filled = self.width * min(done, self.total) // self.total
        bar = "#" * filled + " " * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total}")
        self.stream.flush()

    def close(self) -> None:
        """End the line."""
        self.stream.write("\n")
        self.stream.flush()
