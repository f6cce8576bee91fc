"""A small class at once on ``loo-tutor classroom``: every student plays, idle kernels are culled.

The short version of ``benchmarks/classroom_load.py`` (30 students, with the
latency and memory figures): three pages of the forced-ace app are opened at
the same moment in Debian's Chromium, each plays A's cards through two deals,
and the pages are then dropped without a goodbye (as when a laptop is shut).
The server is started with a cull time of 20 seconds, and must stop the
three kernels left behind while keeping the ones it holds ready. Nothing is
timed here; the figures are the benchmark's.
"""

from __future__ import annotations

from browser_support import CHROMIUM, FLAGS, require_chromium
from classroom_server import (
    NOTEBOOKS,
    class_at_work,
    free_port,
    kernels,
    start,
    stop,
    wait_for_kernels,
)

STUDENTS = 3
CULL_SECONDS = 20  # shorter, and a page still loading on a busy machine could lose its kernel


def test_a_class_plays_at_once_and_idle_kernels_are_culled() -> None:
    require_chromium()
    ready = len(list(NOTEBOOKS.glob("*.ipynb")))
    server = start("--port", str(free_port()), "--cull-after", f"{CULL_SECONDS}s")
    try:
        assert f"idle kernels stopped after {CULL_SECONDS} s" in "".join(server.log)
        wait_for_kernels(server, ready, 180)
        load = class_at_work(server, STUDENTS, rounds=2, cull_wait=CULL_SECONDS * 4 + 60,
                             executable=str(CHROMIUM), flags=FLAGS)
        still = len(kernels(server))
    finally:
        code = stop(server)
    assert not load.errors, "\n".join(load.errors)
    assert not load.outside, load.outside
    assert load.live == load.finished == STUDENTS
    # Per student: the highlight box, then per deal the refused 7♥ and A's
    # three cards, and one Reset between the deals.
    assert len(load.click_ms) == STUDENTS * (1 + 2 * 4 + 1) and load.unanswered == 0
    assert load.peak_kernels >= ready + STUDENTS - 1  # one page may take the kernel kept ready
    assert len(load.kernel_rss_mb) >= STUDENTS and min(load.kernel_uss_mb) > 0
    assert load.culled_s is not None, f"{load.kernels_left} kernels left of {load.ready_kernels}"
    assert still == ready, "the kernels kept ready should not be culled"
    assert code == 0, "".join(server.log[-20:])
