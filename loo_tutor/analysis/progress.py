"""Progress bars for long runs on the console, drawn by tqdm on standard error.

>>> import io
>>> out = io.StringIO()
>>> bar = ProgressBar(4, "demo", stream=out)
>>> bar.update(2); bar.update(4); bar.close()
>>> out.getvalue().split("\\r")[-1].split(" [")[0]
'demo: 100%|##########| 4/4'
"""

from __future__ import annotations

import sys
from typing import TextIO

from tqdm import tqdm


class ProgressBar:
    """A bar such as ``label:  40%|####      | 120/300 [00:03<00:05]``, told how far the work is.

    Args:
        total: the count that means done.
        label: text before the bar.
        stream: where to draw (standard error by default).
    """

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self._bar = tqdm(total=total, desc=label, ascii=True,
                         file=stream if stream is not None else sys.stderr)

    def update(self, done: int) -> None:
        """Show ``done`` out of the total (tqdm redraws at most ten times a second)."""
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        """Draw the bar as it ends and end its line."""
        self._bar.close()
