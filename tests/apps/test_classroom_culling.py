"""A kernel kept ready is the page's from the moment a page takes it: idle from then, not before.

The classroom keeps a kernel ready per notebook, which has run the notebook,
for as long as no student comes: the culler passes over it. Taken by a page,
it must count as idle from its taking, so that the page has the whole cull
time to connect to it, however long the kernel waited in the pool; and a page
that takes a kernel and is then left idle must still lose it once the cull
time has passed from its taking.

The server's kernel manager runs on the test's clock (tests/clocked_classroom.py),
with a cull round every second that the server logs: the test moves that
clock on by the cull time and waits for whole cull rounds, never on timings.
A student is a page spoken from Python (tests/classroom_protocol.py) that
takes its kernel, lets a cull round pass, and only then connects.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from loo_tutor.apps.classroom.adapter import READY

from classroom_protocol import PAGE, TRAINER, Student
from classroom_server import (
    CULLED,
    NOTEBOOKS,
    Server,
    a_cull_round_after,
    free_port,
    in_a_loop_of_its_own,
    kept_ready,
    kernel_ids,
    move_clock_on,
    start,
    stop,
    wait_for_lines,
)

CULL_MINUTES = 20
"""The cull time: the server's default, which no page's load comes near."""
NOTEBOOK = Path(PAGE).name
MOVED = "clock moved on {} s"


def _ready(server: Server, count: int) -> str:
    """The one kernel kept ready once ``count`` kernels have run the notebook."""
    wait_for_lines(server, READY.split("%s")[0], count)
    (kernel,) = kept_ready(server)
    return kernel


def test_a_kernel_kept_ready_past_the_cull_time_is_idle_from_its_taking(tmp_path: Path) -> None:
    shutil.copy(NOTEBOOKS / NOTEBOOK, tmp_path / NOTEBOOK)
    server = start("--port", str(free_port()), "--cull-after", str(CULL_MINUTES),
                   notebooks=tmp_path, clock_step=CULL_MINUTES * 60)
    seen: dict[str, object] = {}
    try:
        first = _ready(server, 1)
        # Kept ready past the cull time: the culler passes over it.
        move_clock_on(server)
        a_cull_round_after(server, MOVED.format(CULL_MINUTES * 60))
        seen["kept while ready"] = first in kernel_ids(server)

        async def students() -> None:
            late = Student(server.url, PAGE)
            await late.take(120)
            seen["taken"] = late.kernel_id
            # The page connects only after a whole cull round, as a slow page would.
            await asyncio.to_thread(a_cull_round_after, server, f"pre-heated kernel: {first}")
            seen["kept once taken"] = first in kernel_ids(server)
            if not seen["kept once taken"]:
                return
            await late.connect(120)
            seen["answers"] = late.widget_with(TRAINER) is not None
            # A page that takes a kernel and is left idle loses it the cull time after.
            second = await asyncio.to_thread(_ready, server, 2)
            idle = Student(server.url, PAGE)
            await idle.take(120)
            seen["idle taken"], seen["second"] = idle.kernel_id, second
            await asyncio.to_thread(a_cull_round_after, server, f"pre-heated kernel: {second}")
            seen["idle kept a while"] = second in kernel_ids(server)
            third = await asyncio.to_thread(_ready, server, 3)
            move_clock_on(server)
            await asyncio.to_thread(wait_for_lines, server, f"({second}) with 0 connections")
            await asyncio.to_thread(a_cull_round_after, server, MOVED.format(CULL_MINUTES * 120))
            seen["third"], seen["running"] = third, kernel_ids(server)
            late.close()

        in_a_loop_of_its_own(students())
    finally:
        code = stop(server)
    assert seen["kept while ready"], "the kernel kept ready was culled while it waited"
    assert seen["taken"] == first, seen
    assert seen["kept once taken"], ("the kernel kept ready was culled once a page took it:\n"
                                     + "".join(line for line in server.log if "Culling" in line))
    assert seen["answers"], "the page's kernel did not answer"
    assert seen["idle taken"] == seen["second"], seen
    assert seen["idle kept a while"], "the page's kernel was culled as soon as the page took it"
    culled = [found.groups() for line in server.log if (found := CULLED.search(line))]
    # Only the idle page's kernel, with no page connected, idle the cull time by the clock.
    assert [kernel for _, kernel, _, _ in culled] == [seen["second"]], culled
    assert all(int(idle) >= CULL_MINUTES * 60 for _, _, _, idle in culled), culled
    assert seen["running"] == {first, seen["third"]}, seen
    assert code == 0, "".join(server.log[-20:])
