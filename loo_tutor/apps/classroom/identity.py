"""Who is asking the classroom: a joined student, the teacher, or a browser with a page open.

The one place that reads and gives the classroom's own marks of who a
request comes from (the server's door, ``--token`` or the Hub's login, comes
first, in Jupyter Server):

* a joined student: the join cookie (:data:`COOKIE`, HttpOnly, same-site,
  :data:`COOKIE_DAYS` days) holds a secret whose student the class store
  keeps (:meth:`~loo_tutor.apps.classroom.store.SQLBook.student_of`);
* the teacher: the teacher's token, in the address the server prints or in
  the cookie (:data:`TEACHER_COOKIE`) the teacher's page gives for the
  teacher's routes alone;
* for the admission, which counts places by person, a joined student, or a
  browser holding the page's cookie
  (:data:`~loo_tutor.apps.classroom.admission.PAGE_COOKIE`), or nobody.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING, Any

from .admission import PAGE_COOKIE
from .doors import under
from .store import ClassBookError

if TYPE_CHECKING:
    from .admission import Admission
    from .store import ClassStore

COOKIE = "loo-student"
"""The cookie holding a joined browser's secret."""
COOKIE_DAYS = 30
TEACHER_COOKIE = "loo-teacher"
"""The cookie holding the teacher's token on the teacher's pages."""


def student(handler: Any, book: ClassStore) -> tuple[int, str] | None:
    """The student of ``book`` whose browser sends ``handler``'s request, or ``None``."""
    return book.student_of(handler.get_cookie(COOKIE))


def give_student_cookie(handler: Any, secret: str) -> None:
    """Have the browser of ``handler``'s request keep the secret of the student it joined as."""
    handler.set_cookie(COOKIE, secret, path=handler.base_url, httponly=True, samesite="Strict",
                       expires_days=COOKIE_DAYS)


def is_teacher(handler: Any, book: ClassStore) -> bool:
    """Whether ``handler``'s request carries the teacher's token (in the address or its cookie)."""
    token = book.teacher_token().encode()
    given = handler.get_argument("token", None) or handler.get_cookie(TEACHER_COOKIE) or ""
    return hmac.compare_digest(given.encode("utf-8", "replace"), token)


def give_teacher_cookie(handler: Any, book: ClassStore) -> None:
    """Have the teacher's browser keep the teacher's token, for the teacher's routes alone."""
    handler.set_cookie(TEACHER_COOKIE, book.teacher_token(),
                       path=under(handler.base_url, "loo/teacher"), httponly=True,
                       samesite="Strict")


def asking(handler: Any, places: Admission) -> str | None:
    """Who sends ``handler``'s request, as ``places`` counts students (``None``: a bare request)."""
    return places.who(handler.get_cookie(COOKIE), handler.get_cookie(PAGE_COOKIE))


def student_named(book: ClassStore, secret: str | None) -> str | None:
    """The student of ``book`` whose join cookie holds ``secret``, as the admission names them."""
    try:
        found = book.student_of(secret)
    except ClassBookError:
        return None
    return f"student {found[0]}" if found else None
