"""A full class: the next student is told so at once, and gets in when a place is free.

The students here speak the light page's protocol from Python
(``classroom_protocol.py``): no browser is needed to take a place.
"""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from loo_tutor.apps.admission import RETRY_S

from classroom_protocol import PAGE, TRAINER, PageError, Student
from classroom_server import NOTEBOOKS, free_port, in_a_loop_of_its_own, start, stop, wait_for_kernels


def fetch(url: str) -> tuple[int, str, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=120) as reply:
            return reply.status, reply.read().decode(), dict(reply.headers)
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode(), dict(refused.headers)


def test_the_student_after_the_maximum_waits_and_gets_in_when_one_leaves() -> None:
    server = start("--port", str(free_port()), "--max-students", "1")
    try:
        assert "at most 1 student(s) at once" in "".join(server.log)
        wait_for_kernels(server, len(list(NOTEBOOKS.glob("*.ipynb"))), 180)

        async def class_of_one() -> tuple[int, str, dict[str, str], bool, int]:
            first = Student(server.url, PAGE)
            await first.open(120)
            live = first.widget_with(TRAINER) is not None
            code, page, headers = await asyncio.to_thread(fetch, server.url + PAGE)
            await first.leave()
            tries = 0
            while True:  # the kernel stops within a moment of the page leaving
                tries += 1
                later = Student(server.url, PAGE)
                try:
                    await later.open(120)
                    break
                except PageError:
                    if tries == 60:
                        raise
                    await asyncio.sleep(1)
            again = later.widget_with(TRAINER) is not None
            await later.leave()
            return code, page, headers, live and again, tries

        code, page, headers, both_live, tries = in_a_loop_of_its_own(class_of_one())
    finally:
        stop(server)
    assert both_live
    assert code == 503 and headers["Retry-After"] == str(RETRY_S)
    assert "The class is full" in page and "takes one student at once" in page
    assert f'http-equiv="refresh" content="{RETRY_S}"' in page
    assert "Traceback" not in page and "kernel" not in page.lower()
    assert tries < 60
