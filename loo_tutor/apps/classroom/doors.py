"""What the classroom's routes check before they do anything: limits, class codes, reports.

The routes of :mod:`.handlers` share one
:class:`Doors` per server:

* joining is limited: :data:`JOIN_TRIES` failed tries a minute from one
  address, :data:`CLASS_TRIES` wrong class codes a minute for the whole
  class; past that every try (even a right one) gets "wait a minute";
* answers are limited per student: :data:`ANSWERS_PER_S` a second on
  average, bursts of :data:`ANSWER_BURST`;
* a report of a check is read only if it is small and plain
  (:func:`read_report`), and judged only if a kernel of this server issued
  it (:mod:`loo_tutor.teaching.issued`), to the student who first sends it.

The server's prefix (``--base-url``, as behind JupyterHub's proxy) is read
and joined to paths here too (:func:`normal_base`, :func:`under`), so that
every route, cookie and address of the classroom is made the same way.

Nothing here is kept on disk: a restart forgets the counts.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

JOIN_TRIES = 5
"""Failed tries to join a minute from one address."""
CLASS_TRIES = 20
"""Wrong class codes a minute, from any address, before joining waits a minute."""
ANSWERS_PER_S = 2.0
"""Answers a second a student may send, on average."""
ANSWER_BURST = 20
"""Answers a student may send at once (a page sending what it kept while the server was away)."""
WAIT_A_MINUTE = "Too many tries: wait a minute, then try again."
TOO_FAST = "too many answers at once: wait a moment"
KEYS_KEPT = 10_000
"""The most addresses or students a limit remembers; the oldest are forgotten first."""

CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
"""The letters of a class code the server makes: none that looks like another (no o/0, l/1, i)."""
CODE_LENGTH = 8
SHORTEST_CODE = 8
"""The fewest characters a class code may have."""

LONGEST_REPORT = 20_000
"""The most bytes a report of a check may have."""
LONGEST_TEXT = 400
DEEPEST = 6
MOST_VALUES = 500
LARGEST_NUMBER = 10**15
LONGEST_ID = 64
SEED_RANGE = range(0, 1_000_000_001)


def make_class_code() -> str:
    """A new class code: :data:`CODE_LENGTH` letters of :data:`CODE_LETTERS`, as ``abcd-efgh``.

    31 letters to the power 8 is about 8.5 × 10¹¹ codes (39 bits): at
    :data:`CLASS_TRIES` guesses a minute, finding one takes about 40,000 years
    on average.
    """
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))
    return f"{letters[:4]}-{letters[4:]}"


def code_problem(code: str) -> str | None:
    """Why ``code`` cannot be a class code, or ``None``."""
    if len(code.replace("-", "").replace(" ", "")) < SHORTEST_CODE:
        return (f"a class code needs at least {SHORTEST_CODE} letters or digits, so that it "
                f"cannot be guessed; leave --class-code out and one is made, such as "
                f"{make_class_code()}")
    return None


_SEGMENT = re.compile(r"(?:[A-Za-z0-9._~@-]|%[0-9A-Fa-f]{2})+")
"""A segment of a prefix: the letters a path may hold unescaped, and escapes such as
``%40`` (JupyterHub escapes a user's name so in ``/user/NAME/``)."""


def normal_base(text: str) -> str:
    """The server's prefix ``text`` (``--base-url``) with one slash at each end.

    ``user/ann``, ``/user/ann`` and ``/user/ann/`` are all ``/user/ann/``;
    ``/`` is the root. Raises ``ValueError`` with a one-line reason for a
    value that is not a plain path: an address with a host, a query or a
    fragment, an empty, ``.`` or ``..`` segment, a space, a backslash, or
    a letter that would need escaping.
    """
    if not text:
        return "/"
    if "://" in text or text.startswith("//"):
        raise ValueError(f"{text!r} is an address; --base-url is only its path, such as "
                         "/user/ann/")
    inner = text.strip("/")
    if not inner:  # "/" (more slashes are caught above)
        return "/"
    for segment in inner.split("/"):
        if segment in ("", ".", ".."):
            what = f"a {segment!r} segment" if segment else "an empty segment (two slashes in a row)"
            raise ValueError(f"{text!r} has {what}; give a plain path such as /user/ann/")
        if not _SEGMENT.fullmatch(segment):
            raise ValueError(f"{text!r} is not a plain path: letters, digits, - . _ ~ @ and "
                             "%-escapes only, such as /user/ann/")
    return f"/{inner}/"


def under(base: str, path: str = "") -> str:
    """``path`` (with or without its leading slash) under the prefix ``base`` (from
    :func:`normal_base`): ``under("/user/ann/", "/loo/join")`` is ``/user/ann/loo/join``."""
    return base + path.lstrip("/")


def route(base: str, pattern: str) -> str:
    """The Tornado route of ``pattern`` (a regular expression of a path without its leading
    slash, such as ``loo/teacher\\.js``) under the prefix ``base``."""
    return re.escape(base) + pattern.lstrip("/")


def local_path(target: str, base: str = "/") -> str:
    """``target`` when it is a path of this server under ``base``, else ``base`` (the list
    of notebooks).

    A backslash, a control character or a second slash at the start would
    let a browser read it as another host.
    """
    if (not target.startswith(base) or target[1:2] in ("/", "\\") or "\\" in target
            or any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in target)):
        return base
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return base
    return target


class Tries:
    """How many times each key did something in the last ``window`` seconds, up to ``most``."""

    def __init__(self, most: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.most, self.window, self.clock = most, window, clock
        self._seen: OrderedDict[str, deque[float]] = OrderedDict()

    def _recent(self, key: str) -> deque[float]:
        times = self._seen.setdefault(key, deque())
        self._seen.move_to_end(key)
        while times and times[0] <= self.clock() - self.window:
            times.popleft()
        while len(self._seen) > KEYS_KEPT:
            self._seen.popitem(last=False)
        return times

    def full(self, key: str) -> bool:
        """Whether ``key`` has used all its tries for now."""
        return len(self._recent(key)) >= self.most

    def note(self, key: str) -> None:
        """Count one try of ``key``."""
        self._recent(key).append(self.clock())


class Bucket:
    """A token bucket per key: ``rate`` a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._level: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> bool:
        """Take one token for ``key``; False (and nothing taken) when there is none."""
        now = self.clock()
        level, then = self._level.pop(key, (float(self.burst), now))
        level = min(float(self.burst), level + (now - then) * self.rate)
        allowed = level >= 1
        self._level[key] = (level - 1 if allowed else level, now)
        while len(self._level) > KEYS_KEPT:
            self._level.popitem(last=False)
        return allowed


@dataclass
class Doors:
    """The limits and the key of one classroom server."""

    key: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    by_address: Tries = field(default_factory=lambda: Tries(JOIN_TRIES, 60))
    by_class: Tries = field(default_factory=lambda: Tries(CLASS_TRIES, 60))
    answers: Bucket = field(default_factory=lambda: Bucket(ANSWERS_PER_S, ANSWER_BURST))
    variants: OrderedDict[str, int] = field(default_factory=OrderedDict)

    def owner(self, variant: str, student: int) -> int:
        """The student a variant was issued to: the first who sent a check of it."""
        found = self.variants.setdefault(variant, student)
        while len(self.variants) > KEYS_KEPT * 10:
            self.variants.popitem(last=False)
        return found


def _plain(value: Any, depth: int, count: list[int]) -> str | None:
    """Why ``value`` is not a plain answer (see :func:`read_report`), or ``None``."""
    count[0] += 1
    if count[0] > MOST_VALUES:
        return "the answer has too many parts"
    if depth > DEEPEST:
        return "the answer is nested too deeply"
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if abs(value) < LARGEST_NUMBER else "a number in the answer is too large"
    if isinstance(value, float):
        return (None if math.isfinite(value) and abs(value) < LARGEST_NUMBER
                else "a number in the answer is too large")
    if isinstance(value, str):
        return None if len(value) <= LONGEST_TEXT else "a part of the answer is too long"
    if isinstance(value, list):
        for item in value:
            problem = _plain(item, depth + 1, count)
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            problem = _plain(key, depth + 1, count) or _plain(item, depth + 1, count)
            if problem:
                return problem
        return None
    return "the answer is not in an exercise's shape"


def read_report(body: bytes) -> dict[str, Any] | str:
    """The report of a check a page sent, or why it cannot be read (one line).

    A report is a JSON object, at most :data:`LONGEST_REPORT` bytes: ``id``
    (text, at most :data:`LONGEST_ID` characters), ``kind`` (text),
    ``seed`` (a whole number from 0 to 1,000,000,000), ``answer`` (text,
    numbers and lists or mappings of them, nested at most :data:`DEEPEST`
    deep, :data:`MOST_VALUES` values in all, texts of at most
    :data:`LONGEST_TEXT` characters, numbers under 10¹⁵), and from a
    classroom's page ``variant``, ``shown`` and ``issued``.
    """
    if len(body) > LONGEST_REPORT:
        return "the report is too long"
    try:
        sent = json.loads(body)
    except (ValueError, RecursionError):
        return "the report is not JSON, or is nested too deeply"
    if not isinstance(sent, dict):
        return "the report is not a JSON object"
    check_id = sent.get("id")
    if not isinstance(check_id, str) or not 0 < len(check_id) <= LONGEST_ID:
        return "the report names no check"
    if not isinstance(sent.get("kind"), str) or len(sent["kind"]) > LONGEST_ID:
        return "the report names no kind of exercise"
    seed = sent.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed not in SEED_RANGE:
        return "the seed is not a whole number from 0 to 1,000,000,000"
    for name in ("variant", "issued"):
        if not isinstance(sent.get(name, ""), str) or len(sent.get(name, "")) > LONGEST_ID * 2:
            return f"the report's {name} is not a short text"
    if not isinstance(sent.get("shown", False), bool):
        return "the report's shown is not true or false"
    problem = _plain(sent.get("answer"), 0, [0])
    return problem or sent
