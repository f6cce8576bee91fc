"""Hostile requests for a live classroom server: what hypothesis sends, and what came back.

:func:`fuzz_classroom` sends a running ``loo-tutor classroom`` (on 127.0.0.1)
requests drawn by hypothesis: its own routes and a few of Voila's, every
method, bodies of random bytes, deep or huge JSON, reports of checks with
hostile fields (signed with the class's key or not), forms, with and
without the student's cookie and the XSRF token. A reply of 500 or more is
counted, and so is every traceback the server wrote to its log meanwhile.
Used by ``benchmarks/fuzz.py --http`` (long) and ``tests/apps/test_classroom_doors.py``
(short).
"""

from __future__ import annotations

import collections
import http.client
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from classroom_server import Server, issued

PATHS = ["/loo/join", "/loo/answer", "/loo/me", "/loo/teacher", "/loo/teacher/class",
         "/loo/teacher/class.csv", "/loo/teacher.js", "/loo/place", "/voila/api/shutdown/x",
         "/loo/join?next=", "/loo/teacher?token="]
METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
TYPES = ["application/json", "text/plain", "application/x-www-form-urlencoded",
         "multipart/form-data; boundary=x", ""]
TIMEOUT_S = 30.0

_json: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats()
    | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=5),
    max_leaves=20)
_hostile_text = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["\u00b2", "²³", "9" * 4400, "-0", "1e309", "NaN", "/\\evil.example",
                     "//evil.example", "\u0392ob", "\uff22ob", "\x00", "../../etc/passwd"]))


@st.composite
def _report(draw: st.DrawFn, key: bytes) -> bytes:
    report: dict[str, Any] = {
        "id": draw(st.one_of(_hostile_text, st.integers(), st.none())),
        "kind": draw(st.one_of(st.sampled_from(["legal-cards", "payout", "winner", "1"]),
                               _hostile_text, st.integers())),
        "seed": draw(st.one_of(st.integers(-10**20, 10**20), _hostile_text, st.floats(),
                               st.booleans())),
        "answer": draw(st.one_of(_json, _hostile_text,
                                 st.dictionaries(_hostile_text, _hostile_text, max_size=4))),
    }
    if draw(st.booleans()) and isinstance(report["kind"], str) and isinstance(report["seed"],
                                                                              int):
        report = issued({**report, "id": str(report["id"])[:64] or "x"}, key,
                        variant=draw(st.text(max_size=10)) or "v", shown=draw(st.booleans()))
    return json.dumps(report).encode()


@st.composite
def _body(draw: st.DrawFn, key: bytes) -> bytes:
    depth = draw(st.integers(1, 3000))
    body: bytes = draw(st.one_of(
        st.binary(max_size=300),
        _report(key),
        _json.map(lambda value: json.dumps(value).encode()),
        st.just(b"[" * depth + b"]" * depth),
        st.just(b'{"a":' * depth + b"1" + b"}" * depth),
        st.builds(lambda name, code, nxt: urlencode(
            {"name": name, "code": code, "next": nxt}).encode(),
            _hostile_text, _hostile_text, _hostile_text),
    ))
    return body


@dataclass
class HttpTally:
    """What the requests came to."""

    requests: int = 0
    statuses: collections.Counter[int] = field(default_factory=collections.Counter)
    errors: list[str] = field(default_factory=list)
    tracebacks: int = 0
    first_traceback: str = ""

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def fuzz_classroom(server: Server, cookie: str, xsrf: str, key: bytes, examples: int,
                   base_seed: int = 0) -> HttpTally:
    """Send ``examples`` hypothesis-drawn requests to ``server``; returns what came back.

    ``cookie`` is a joined student's ``Cookie`` header (with the ``_xsrf``
    cookie), ``xsrf`` the token to send with it.
    """
    tally = HttpTally()
    before = len(server.log)

    @settings(max_examples=examples, deadline=None, database=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @seed(base_seed)
    @given(method=st.sampled_from(METHODS), path=st.sampled_from(PATHS),
           tail=_hostile_text, body=_body(key), kind=st.sampled_from(TYPES),
           joined=st.booleans(), with_xsrf=st.booleans())
    def one(method: str, path: str, tail: str, body: bytes, kind: str, joined: bool,
            with_xsrf: bool) -> None:
        target = path + (quote(tail) if path.endswith("=") else "")
        headers = {"Host": f"127.0.0.1:{server.port}"}
        if kind:
            headers["Content-Type"] = kind
        if joined:
            headers["Cookie"] = cookie
        if with_xsrf:
            headers["X-XSRFToken"] = xsrf
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=TIMEOUT_S)
        try:
            connection.request(method, target, body=body if method not in ("GET", "HEAD")
                               else None, headers=headers)
            reply = connection.getresponse()
            reply.read()
            tally.statuses[reply.status] += 1
        except (OSError, http.client.HTTPException) as exc:
            tally.errors.append(f"{method} {target}: {type(exc).__name__}")
        finally:
            connection.close()
            tally.requests += 1

    one()
    logged = server.log[before:]
    tally.tracebacks = sum("Traceback" in line for line in logged)
    at = next((n for n, line in enumerate(logged) if "Traceback" in line), None)
    if at is not None:
        tally.first_traceback = "".join(logged[max(0, at - 2):at + 40])
    return tally
