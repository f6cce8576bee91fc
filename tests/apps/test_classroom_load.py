"""A small class at once on ``loo-tutor classroom``: every student plays, idle kernels are culled.

The short version of ``benchmarks/classroom_load.py`` (30 students, with the
latency and memory figures): three pages of the forced-ace app are opened at
the same moment in Debian's Chromium, each plays A's cards through two deals,
and the pages are then dropped without a goodbye (as when a laptop is shut).

The server culls kernels left idle for 20 minutes, its default: no page's
load, however busy the machine, comes near that, so no student loses a
kernel while the page opens. Its kernel manager's clock is the test's
(tests/clocked_classroom.py): once the students have gone and the kernels
kept ready have run their notebook, the test moves that clock on by the cull
time, and the server must then stop, by its own rule, the three kernels
left behind, each idle the cull time by its clock as it logs, while keeping
the ones it holds ready. Nothing is timed here; the figures are the
benchmark's.
"""

from __future__ import annotations

import time

from browser_support import CHROMIUM, FLAGS, require_chromium
from classroom_server import (
    CULLED,
    NOTEBOOKS,
    class_at_work,
    free_port,
    kept_ready,
    kernel_ids,
    move_clock_on,
    start,
    stop,
    wait_for_kernels,
)

STUDENTS = 3
CULL_MINUTES = 20
"""The cull time: the server's default, which no page's load comes near."""
WAIT = 600.0
"""How long the test waits for what the server must do before it fails: no figure."""


def test_a_class_plays_at_once_and_idle_kernels_are_culled() -> None:
    require_chromium()
    ready = len(list(NOTEBOOKS.glob("*.ipynb")))
    server = start("--port", str(free_port()), "--cull-after", str(CULL_MINUTES),
                   clock_step=CULL_MINUTES * 60)
    kept: set[str] = set()
    left: set[str] = set()

    def when_they_have_gone() -> None:
        # The kernels started to replace the ones the pages took are counted as idle from
        # their start: the clock moves on once they have run their notebook and wait.
        deadline = time.monotonic() + WAIT
        while len(kept_ready(server)) < ready:
            assert time.monotonic() < deadline, "".join(server.log[-30:])
            time.sleep(0.5)
        kept.update(kept_ready(server))
        left.update(kernel_ids(server) - kept)
        move_clock_on(server)

    try:
        assert f"idle kernels stopped after {CULL_MINUTES} min" in "".join(server.log)
        wait_for_kernels(server, ready, 180)
        load = class_at_work(server, STUDENTS, rounds=2, cull_wait=WAIT,
                             executable=str(CHROMIUM), flags=FLAGS,
                             after_class=when_they_have_gone)
        still = kernel_ids(server)
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
    # The server's own record: each page's kernel culled once, with no page connected,
    # after the cull time of inactivity by its clock; the kernels kept ready all kept.
    culled = [found.groups() for line in server.log if (found := CULLED.search(line))]
    assert len(culled) == len(left) == STUDENTS, culled
    assert {kernel for _, kernel, _, _ in culled} == left, (culled, left)
    assert all(connections == "0" and int(idle) >= CULL_MINUTES * 60
               for _, _, connections, idle in culled), culled
    assert still == kept and len(kept) == ready, "the kernels kept ready should not be culled"
    assert code == 0, "".join(server.log[-20:])
