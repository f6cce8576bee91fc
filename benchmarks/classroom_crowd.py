"""The classroom server under a large class: students without a browser, speaking its protocol.

``python benchmarks/classroom_load.py`` puts a Chromium page per student on
the machine, and the browsers then take most of its processor time. Here
each student is a few coroutines of this process (``tests/classroom_protocol.py``)
that exchange with the server the very messages the light page does: the
app's page over HTTP, its kernel's websocket, the widgets' state, a click
per card and the Reset. So the server's cores measure the server.

For each class size in ``--students`` (30,60,120 by default), on a server
started afresh, the students arrive STAGGER seconds apart, each plays A's
cards through two deals (the highlight ticked, 7♥ refused, the legal cards,
Reset), stays until the whole class has played, and closes the page (the
server is asked to stop its kernel, as the page does when it goes). It
prints, per class:

* the time from asking for the page to holding every widget's state (live);
* the click latency (sent to the kernel's answer complete), p50, p95, p99;
* the resident memory of each kernel with the whole class in, and the part
  of it unique to the kernel (what is shared with the warm parent the
  kernels are forked from is counted once);
* the processor time of the server, its kernels and this process;
* errors (a page that did not come alive, a click unanswered in 20 s, a
  page the server turned away as the class was full);

and at the end the largest class whose clicks had a p95 of at most 100 ms.

``--server-cpus`` pins the server and its kernels to those cores and this
process to the others (``taskset``'s work, done with
``os.sched_setaffinity``), when the machine has more than one.

    python benchmarks/classroom_crowd.py --students 30,60,120 --server-cpus 0
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from classroom_load import percentile
from classroom_protocol import Crowd, run_crowd
from classroom_server import (
    MB,
    Server,
    free_port,
    kernels,
    start,
    stop,
    wait_for_kernels,
    wait_until_quiet,
    warm_parent,
)

ROOT = Path(__file__).resolve().parent.parent


NOTEBOOKS = len(list((ROOT / "notebooks").glob("*.ipynb")))
TARGET_MS = 100.0


def cpu_s(server: Server) -> tuple[float, float]:
    """The processor time used so far by the server, and by its kernels still running
    and the warm parent they are forked from."""
    import psutil

    def used(process: psutil.Process) -> float:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            return 0.0
        return float(times.user + times.system)

    warm = warm_parent(server)
    return (used(psutil.Process(server.process.pid)),
            sum(used(k) for k in kernels(server)) + (used(warm) if warm else 0.0))


def one_class(args: argparse.Namespace, students: int, server_cpus: set[int],
              other_cpus: set[int]) -> tuple[Crowd, float]:
    """Run one class on a fresh server; prints its figures and returns them with the p95."""
    if server_cpus:
        os.sched_setaffinity(0, server_cpus)  # the server and its kernels inherit it
    extra = ["--max-students", str(args.max_students)] if args.max_students else []
    server = start("--port", str(free_port()), "--pool-size", str(args.pool_size), *extra)
    if server_cpus:
        os.sched_setaffinity(0, other_cpus)
    crowd = Crowd()
    rss: list[float] = []
    uss: list[float] = []  # unique to each kernel: what one more student costs
    try:
        wait_for_kernels(server, NOTEBOOKS * args.pool_size, 180)
        wait_until_quiet(server, 180)
        load_before = os.getloadavg()
        server_cpu0, kernels_cpu0 = cpu_s(server)
        own0 = time.process_time()
        kernels_at_full: list[float] = []

        def when_full() -> None:
            kernels_at_full.extend(cpu_s(server))
            for kernel in kernels(server):
                try:
                    memory = kernel.memory_full_info()
                    rss.append(memory.rss / MB)
                    uss.append(memory.uss / MB)
                except Exception:  # a kernel that has just stopped
                    continue

        t0 = time.monotonic()
        asyncio.run(run_crowd(server.url, students, args.rounds, args.stagger, args.think,
                              args.timeout, crowd, when_full))
        took = time.monotonic() - t0
        own = time.process_time() - own0
    finally:
        code = stop(server)
    clicks = crowd.click_ms
    p95 = percentile(clicks, 0.95) if clicks else float("inf")
    print(f"\n{students} students, {args.stagger:g} s apart (load average before "
          f"{load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; class took "
          f"{took:.0f} s; server exit status {code})")
    print(f"  live: {crowd.live} of {students}; deals played to the end: {crowd.finished}; "
          f"errors: {len(crowd.errors)}")
    for line in sorted(set(crowd.errors))[:5]:
        print(f"    {crowd.errors.count(line)} x {line}")
    if crowd.open_s:
        print(f"  page to live: p50 {statistics.median(crowd.open_s):.2f} s, "
              f"p95 {percentile(crowd.open_s, 0.95):.2f} s, slowest {max(crowd.open_s):.2f} s")
    if clicks:
        print(f"  click to answer ({len(clicks)} clicks): p50 {statistics.median(clicks):.0f} ms, "
              f"p95 {p95:.0f} ms, p99 {percentile(clicks, 0.99):.0f} ms, "
              f"max {max(clicks):.0f} ms")
    if rss:
        print(f"  memory: {len(rss)} kernels with the class in, resident median "
              f"{statistics.median(rss):.0f} MB (max {max(rss):.0f}), "
              f"{sum(rss):.0f} MB in all; unique to each: median "
              f"{statistics.median(uss):.0f} MB, {sum(uss):.0f} MB in all")
    if kernels_at_full:
        server_cpu, kernels_cpu = kernels_at_full
        print(f"  processor time until the class had played: server "
              f"{server_cpu - server_cpu0:.1f} s, kernels {kernels_cpu - kernels_cpu0:.1f} s "
              f"(per student {(server_cpu - server_cpu0) / students:.2f} and "
              f"{(kernels_cpu - kernels_cpu0) / students:.2f} s); these students {own:.1f} s")
    return crowd, p95


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--students", default="30,60,120",
                        help="class sizes, one fresh server each (default 30,60,120)")
    parser.add_argument("--stagger", type=float, default=1.0,
                        help="seconds between two students arriving (default 1)")
    parser.add_argument("--rounds", type=int, default=2, help="deals each plays (default 2)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="seconds a student waits between two clicks (default 1)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds a page may take to come alive (default 120)")
    parser.add_argument("--pool-size", type=int, default=1,
                        help="kernels kept ready per notebook (default 1, as the classroom)")
    parser.add_argument("--max-students", type=int, default=0,
                        help="the server's --max-students (default: its own)")
    parser.add_argument("--server-cpus", default="",
                        help="cores for the server and its kernels, e.g. 0 or 0-1; the "
                             "students get the others (default: no pinning)")
    args = parser.parse_args()
    sizes = [int(part) for part in args.students.split(",") if part.strip()]
    server_cpus: set[int] = set()
    other_cpus: set[int] = set()
    if args.server_cpus:
        for part in args.server_cpus.split(","):
            low, _, high = part.partition("-")
            server_cpus.update(range(int(low), int(high or low) + 1))
        other_cpus = os.sched_getaffinity(0) - server_cpus or server_cpus
    print(f"python benchmarks/classroom_crowd.py {' '.join(sys.argv[1:])}")
    print(f"{os.cpu_count()} cores; server on {sorted(server_cpus) or 'any'}, students on "
          f"{sorted(other_cpus) or 'any'}; uptime: {os.popen('uptime').read().strip()}")
    best = 0
    failed = False
    for size in sizes:
        crowd, p95 = one_class(args, size, server_cpus, other_cpus)
        clean = not crowd.errors and crowd.live == size
        failed = failed or not clean
        if clean and p95 <= TARGET_MS:
            best = max(best, size)
    print(f"\nlargest class with p95 <= {TARGET_MS:.0f} ms and no error: "
          f"{best or 'none of those tried'}; uptime: {os.popen('uptime').read().strip()}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
