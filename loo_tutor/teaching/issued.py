"""Exercises a classroom issued: a ticket that only the classroom's own kernels can sign.

The classroom server (``loo-tutor classroom``) gives its kernels a key in
their environment (:data:`KEY_VARIABLE`); a page cannot read it, since the
kernels run no code a browser sends. Each variant an exercise widget makes
there gets a random name of its own, and each check the page reports
carries a ticket: the key's HMAC of that name, the kind, the seed and
whether the solution was shown. The server judges only what carries a
ticket it can check (:func:`is_issued`), so an answer worked out elsewhere,
for a seed no page of the class made, is refused.

Outside the classroom (the book's pages, a notebook) there is no key and no
ticket.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os

KEY_VARIABLE = "LOO_CLASSROOM_KEY"
"""The environment variable holding the classroom's key, in hex, for its kernels."""


def classroom_key() -> bytes | None:
    """The key this process was given by a classroom server, or ``None`` outside one."""
    given = os.environ.get(KEY_VARIABLE, "")
    try:
        return bytes.fromhex(given) or None
    except ValueError:
        return None


def ticket(key: bytes, variant: str, kind: str, seed: int, shown: bool) -> str:
    """The ticket of one variant: ``key``'s HMAC of its name, kind, seed and ``shown``.

    >>> ticket(b"k", "v1", "legal-cards", 2024, False) == ticket(b"k", "v1", "legal-cards", 2024, False)
    True
    >>> ticket(b"k", "v1", "legal-cards", 2024, False) == ticket(b"k", "v1", "legal-cards", 2024, True)
    False
    """
    said = json.dumps([variant, kind, seed, shown], separators=(",", ":"))
    return hmac.new(key, said.encode(), hashlib.sha256).hexdigest()


def is_issued(key: bytes, variant: object, kind: object, seed: object, shown: object,
              given: object) -> bool:
    """Whether ``given`` is the ticket ``key`` signs for this variant (never raises)."""
    if not (isinstance(variant, str) and isinstance(kind, str) and isinstance(given, str)
            and isinstance(shown, bool) and isinstance(seed, int) and not isinstance(seed, bool)):
        return False
    return hmac.compare_digest(ticket(key, variant, kind, seed, shown).encode(),
                               given.encode("utf-8", "replace"))
