"""``loo-tutor classroom`` with a clock the test moves on, to see idle kernels culled at once.

Run as ``python tests/clocked_classroom.py SECONDS classroom ARGS...`` (what
:func:`classroom_server.start` does when given ``clock_step``): the classroom
server as ``python -m loo_tutor classroom ARGS...`` runs it, but for two
things of Jupyter Server's kernel manager, which culls the idle kernels:

* its clock (``utcnow`` of its module: by it the manager notes each
  kernel's last activity and measures how long the kernel has been idle)
  moves on ``SECONDS`` each time the process gets SIGUSR1;
* it looks for idle kernels every second, whatever the cull time, and
  prints when each of these cull rounds begins and when it ends
  (:data:`ROUND`), so that a test can wait for a whole round run after
  something the server logged.

A test can so give the class a cull time that no page's load comes near,
however busy the machine, and still see the idle kernels culled as soon as
it moves the clock past that time: the kernel manager then culls by its own
rule (no page connected, idle past the cull time, not kept ready) and logs
each kernel it culls with how long that kernel was idle by its clock.
"""

from __future__ import annotations

import itertools
import os
import signal
import sys
from datetime import datetime, timedelta
from types import FrameType
from typing import Any

from jupyter_server import _tz
from jupyter_server.services.kernels import kernelmanager

from loo_tutor.apps.classroom import server
from loo_tutor.apps.cli import main

MOVED = "clocked classroom: the kernel manager's clock moved on {} s\n"
"""What the server prints each time its clock moves on."""
ROUND = "clocked classroom: cull round {} {}\n"
"""What the server prints as each cull round begins and ends (its number, then the word)."""


def clocked(step: float) -> None:
    """Give the kernel manager a clock that SIGUSR1 moves on ``step`` seconds, and a 1 s cull round."""
    ahead = [timedelta(0)]
    real = _tz.utcnow

    def utcnow() -> datetime:
        return real() + ahead[0]

    def move_on(signum: int, frame: FrameType | None) -> None:
        ahead[0] += timedelta(seconds=step)
        # os.write: the server may be writing to its output when the signal comes
        os.write(1, MOVED.format(round(ahead[0].total_seconds())).encode())

    if vars(kernelmanager).get("utcnow") is not real:  # Jupyter Server's culler changed
        raise SystemExit("clocked classroom: jupyter_server's kernel manager no longer reads "
                         "the time from jupyter_server._tz.utcnow")
    vars(kernelmanager)["utcnow"] = utcnow
    signal.signal(signal.SIGUSR1, move_on)
    cull = vars(kernelmanager.MappingKernelManager).get("cull_kernels")
    if cull is None or "cull_kernels" in vars(kernelmanager.AsyncMappingKernelManager):
        raise SystemExit("clocked classroom: jupyter_server's kernel manager no longer culls "
                         "in MappingKernelManager.cull_kernels")
    rounds = itertools.count(1)

    async def cull_and_say(self: kernelmanager.MappingKernelManager) -> None:
        number = next(rounds)
        os.write(1, ROUND.format(number, "begins").encode())
        await cull(self)
        os.write(1, ROUND.format(number, "ends").encode())

    kernelmanager.MappingKernelManager.cull_kernels = cull_and_say  # type: ignore[method-assign]
    config = server.voila_config

    def every_second(*args: Any, **kwargs: Any) -> dict[str, dict[str, Any]]:
        settings = config(*args, **kwargs)
        if settings["MappingKernelManager"].get("cull_idle_timeout"):
            settings["MappingKernelManager"]["cull_interval"] = 1
        return settings

    server.voila_config = every_second


if __name__ == "__main__":
    clocked(float(sys.argv[1]))
    raise SystemExit(main(sys.argv[2:]))
