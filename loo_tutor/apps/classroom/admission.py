"""How many students the classroom server takes at once, and what the next one sees.

Each student's page holds a kernel of its own, so the most students a
server can hold is set by its cores and memory (``benchmarks/README.md``
has the figures). The server always has a maximum: ``--max-students``, or
one worked out from the machine when it starts (:func:`default_most`).

A student who arrives when the class is full is never left on a page that
does not come: the server answers at once with a short page that says, in
words, that it is waiting for a place (``waiting.html``, drawn by :mod:`.handlers`). That page asks
the server for a place (``/loo/place``, :class:`~.handlers.PlaceHandler`), which
answers once one is free, keeping it a moment for that page alone, and the
page then opens the app. Students wait in the order they came. A student
still waiting after ``--wait-for-place`` gets a page that says plainly
that the class is full (``full.html``), with a link to try again.

A place is a student's, not a page's. The kernels pages have taken from
Voila's pools of kernels kept ready, and that have not ended, are read in
the pools (:func:`loo_tutor.apps.classroom.adapter.says_when_ready`); each is
tied to whoever its page's connections come from (:meth:`Admission.opened`):
a joined student, or a browser holding the page's cookie
(:data:`PAGE_COOKIE`). One student with two apps open holds one place, and
gets a second app at once. A kernel holds no place once its page has had
no connection to it for ``--free-place-after`` (:data:`LEFT_S` by default: a
tab closed without a goodbye, a computer gone to sleep, which the server's
pings find out), or when its page never connected within :data:`OPENING_S`.
Without pools, every kernel running is a student's.

A request for an app from a browser that is neither a joined student nor
holding the page's cookie (such as a bare ``curl``) takes no kernel: it gets
a short page that sets the cookie and opens the app again
(``opening.html``), which a browser does at once.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import importlib
import itertools
import os
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

RETRY_S = 15
"""The ``Retry-After`` of the waiting and full pages, in seconds, for a browser without scripts."""
WAIT_S = 300.0
"""How long a student waits for a place before being told the class is full, by default."""
HOLD_S = 20.0
"""How long a place freed for a waiting page is kept for it."""
ASK_S = 20.0
"""The longest the server holds one request for a place before answering "wait"."""
GONE_S = ASK_S + 20.0
"""A waiting page that has not asked for this long has closed, and leaves the queue."""
CHECK_S = 0.5
"""How often a request for a place looks again whether one is free."""
LEFT_S = 20.0
"""A kernel whose page has had no connection to it this long holds no place, by default."""
OPENING_S = 60.0
"""A kernel whose page has not connected to it this long after it was taken holds no place."""
PAGE_COOKIE = "loo-page"
"""The cookie the server gives a browser before it gives its pages a kernel."""

KERNEL_MB = 50
"""The resident memory of one student's kernel, as measured (``benchmarks/README.md``)."""
MEMORY_SHARE = 0.8
"""The share of the memory available at start that the students' kernels may take."""
PER_CORE = 60
"""The most students per core: 120 students arriving a second apart all went live on 2 cores."""
MB = 1024 * 1024


def machine() -> tuple[int, int]:
    """This machine's cores (those this process may use) and its memory available, in bytes."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    psutil = importlib.import_module("psutil")  # ipykernel needs it, so the classroom has it
    return cores, int(psutil.virtual_memory().available)


def default_most(cores: int, available: int, kept_ready: int = 0) -> int:
    """The most students a machine with ``cores`` and ``available`` bytes free takes at once.

    Each student's kernel takes :data:`KERNEL_MB`, out of :data:`MEMORY_SHARE`
    of the memory, less the ``kept_ready`` kernels; and each core takes at
    most :data:`PER_CORE` students. Never less than one.

    >>> default_most(2, 16 * 1024 * MB)
    120
    >>> default_most(4, 2 * 1024 * MB, kept_ready=8)
    24
    """
    by_memory = int(available * MEMORY_SHARE) // (KERNEL_MB * MB) - kept_ready
    return max(1, min(by_memory, cores * PER_CORE))


def students(most: int) -> str:
    """``most`` students in words, such as "one student" or "30 students"."""
    return "one student" if most == 1 else f"{most} students"


def minutes(seconds: float) -> str:
    """``seconds`` in words, as the admission's pages say a wait."""
    if seconds < 60:
        return f"{round(seconds)} seconds"
    minutes = round(seconds / 60)
    return "a minute" if minutes == 1 else f"{minutes} minutes"


class Verdict(enum.Enum):
    """What the server does with a student asking for a page."""

    IN = "in"
    """The page opens."""
    WAIT = "wait"
    """The class is full: the student waits for a place."""
    FULL = "full"
    """The student has waited long enough: the page says the class is full."""


_ARRIVALS = itertools.count()


@dataclass
class _Waiting:
    since: float
    asked: float
    held_until: float = 0.0
    order: int = field(default_factory=lambda: next(_ARRIVALS))


@dataclass
class _Kernel:
    """A kernel a page took: since when it is known, who connects to it, and when they left."""

    seen: float
    who: str | None = None
    connections: int = 0
    left: float | None = None


@dataclass
class Admission:
    """At most ``most`` students at once on the notebooks ``notebooks`` (paths as Voila names them).

    ``wait_s`` is how long a student waits for a place before being told the
    class is full; ``left_s`` how long a kernel whose page has had no connection
    to it keeps its place; ``clock`` gives the time in seconds (for the tests).
    ``taken`` gives the ids of the kernels pages have taken and how many are
    being taken still (:func:`loo_tutor.apps.classroom.adapter.says_when_ready`).
    """

    most: int
    notebooks: tuple[str, ...]
    wait_s: float = WAIT_S
    left_s: float = LEFT_S
    clock: Callable[[], float] = time.monotonic
    taken: Callable[[], tuple[set[str], int]] | None = None
    waiting: dict[str, _Waiting] = field(default_factory=dict)
    kernels: dict[str, _Kernel] = field(default_factory=dict)
    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    """Signs the page cookies this server gives (:meth:`page_cookie`)."""

    student: Callable[[str | None], str | None] | None = None
    """The student whose joining cookie holds this value (``"student 3"``), or ``None``."""

    def who(self, student_cookie: str | None, page_cookie: str | None) -> str | None:
        """Who asks, from their cookies: a joined student, a browser this server knows, or ``None``."""
        found = self.student(student_cookie) if self.student is not None else None
        return found or self.browser(page_cookie)

    def page_cookie(self) -> str:
        """A new value of the page's cookie, signed with :attr:`key`."""
        made = secrets.token_urlsafe(16)
        return f"{made}.{self._signed(made)}"

    def browser(self, cookie: str | None) -> str | None:
        """Who holds the page's cookie ``cookie``, when this server gave it; else ``None``."""
        made, _, signature = (cookie or "").partition(".")
        if made and hmac.compare_digest(signature, self._signed(made)):
            return f"browser {made}"
        return None

    def _signed(self, made: str) -> str:
        return hmac.new(self.key, made.encode(), hashlib.sha256).hexdigest()[:32]

    @classmethod
    def of(cls, most: int, notebooks: Iterable[str], wait_s: float = WAIT_S,
           left_s: float = LEFT_S) -> Admission:
        return cls(most, tuple(notebooks), wait_s, left_s)

    def opened(self, kernel_id: str, who: str | None) -> None:
        """A page of ``who`` (a student, a browser; ``None`` when unknown) connected to ``kernel_id``."""
        kernel = self.kernels.setdefault(kernel_id, _Kernel(self.clock()))
        kernel.connections += 1
        kernel.left = None
        kernel.who = who or kernel.who

    def closed(self, kernel_id: str) -> None:
        """A connection to ``kernel_id`` closed."""
        kernel = self.kernels.get(kernel_id)
        if kernel is not None:
            kernel.connections = max(0, kernel.connections - 1)
            if not kernel.connections:
                kernel.left = self.clock()

    def holders(self, kernel_manager: Any) -> tuple[set[str], int]:
        """Who holds the places: the students and browsers known, and how many places others hold.

        Without ``taken`` (no kernels kept ready), every kernel running is a page's.
        """
        ready = 0
        if self.taken is None:
            ids, unknown = set(kernel_manager.list_kernel_ids()), 0
            ready = sum(kernel_manager.get_pool_size(name) for name in self.notebooks)
        else:
            ids, unknown = self.taken()
        for ended in set(self.kernels) - ids:
            del self.kernels[ended]
        now = self.clock()
        known: set[str] = set()
        for kernel_id in ids:
            kernel = self.kernels.setdefault(kernel_id, _Kernel(now))
            if not kernel.connections and (
                    now - kernel.left > self.left_s if kernel.left is not None
                    else now - kernel.seen > OPENING_S):
                continue
            if kernel.who:
                known.add(kernel.who)
            else:
                unknown += 1
        return known, max(0, unknown - ready)

    def students(self, kernel_manager: Any) -> int:
        """How many students hold places now."""
        known, unknown = self.holders(kernel_manager)
        return len(known) + unknown

    def _tidy(self, now: float) -> None:
        for ticket, one in list(self.waiting.items()):
            if now - one.asked > GONE_S and one.held_until <= now:
                del self.waiting[ticket]

    def _asking(self, ticket: str | None, now: float) -> _Waiting | None:
        """The place in the queue of ``ticket``, whose page is asking now; the closed pages leave."""
        mine = self.waiting.get(ticket) if ticket else None
        if mine is not None:
            mine.asked = now
        self._tidy(now)
        return mine

    def _free(self, kernel_manager: Any, now: float, ticket: str | None) -> int:
        """The places free for ``ticket`` (a newcomer without one): those not held, less the queue ahead."""
        held = sum(1 for one in self.waiting.values() if one.held_until > now)
        mine = self.waiting.get(ticket) if ticket else None
        ahead = sum(1 for key, one in self.waiting.items()
                    if one.held_until <= now and key != ticket
                    and (mine is None or one.order < mine.order))
        return self.most - self.students(kernel_manager) - held - ahead

    def admit(self, kernel_manager: Any, ticket: str | None = None,
              who: str | None = None) -> Verdict:
        """Whether the student with ``ticket`` (from their waiting page) or without one gets in now.

        ``who`` (a student, a browser), when it holds a place already, gets
        in at once: another app of theirs takes no other place.
        """
        now = self.clock()
        mine = self._asking(ticket, now)
        if who is not None and who in self.holders(kernel_manager)[0]:
            if mine is not None:
                del self.waiting[str(ticket)]
            return Verdict.IN
        if mine is not None and mine.held_until > now:
            del self.waiting[str(ticket)]
            return Verdict.IN
        if self._free(kernel_manager, now, ticket if mine else None) > 0:
            if mine is not None:
                del self.waiting[str(ticket)]
            return Verdict.IN
        if mine is not None and now - mine.since >= self.wait_s:
            del self.waiting[str(ticket)]
            return Verdict.FULL
        return Verdict.WAIT

    def queue(self) -> str:
        """A new place in the queue; returns its ticket."""
        ticket = secrets.token_urlsafe(16)
        now = self.clock()
        self.waiting[ticket] = _Waiting(now, now)
        return ticket

    def ready(self, kernel_manager: Any, ticket: str) -> bool:
        """Whether the waiting page of ``ticket`` should open its app now.

        True once a place is free for it (the place is then kept for it
        :data:`HOLD_S`), once its wait is over, or for a ticket the server no
        longer knows: the page then asks again, and the server decides.
        """
        now = self.clock()
        mine = self._asking(ticket, now)
        if mine is None:
            return True
        if mine.held_until > now or now - mine.since >= self.wait_s:
            return True
        if self._free(kernel_manager, now, ticket) > 0:
            mine.held_until = now + HOLD_S
            return True
        return False


TICKET = "loo-place"
"""The query argument carrying a waiting page's ticket."""


def with_ticket(url: str, ticket: str) -> str:
    """``url`` (a path and maybe a query) asking for the place of ``ticket``."""
    return f"{url}{'&' if '?' in url else '?'}{TICKET}={ticket}"
