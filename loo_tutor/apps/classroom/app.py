"""The classroom server as a Voila application of its own, configured like any other.

:class:`ClassroomVoila` is Voila (through :class:`~.adapter.AdaptedVoila`,
which holds every reach into Voila's own parts) with the class it serves:
the class store, the admission, the doors, the notebooks it signs and lists,
and, as configuration (``ClassroomVoila.class_code``,
``ClassroomVoila.book_site``), the class code and the built book served under
``voila/``. :func:`~.server.run` reads the command's arguments, makes these
and starts it; the routes are made here, once the server's Tornado
application and kernel manager exist.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from traitlets import Any as AnyTrait
from traitlets import Dict, Instance, Unicode

from . import adapter, handlers, identity
from .admission import Admission
from .doors import Doors, route, under
from .hub import Teachers
from .notebooks import sign_notebooks
from .store import SQLBook

LARGEST_BODY = 64 * 1024
"""The most bytes a request's body may have (the largest the pages send is a report of a
check, 20,000 bytes at most)."""


class ClassroomVoila(adapter.AdaptedVoila):
    """Voila serving a class: its own routes beside Voila's, and Voila's made fit for a class."""

    largest_body = LARGEST_BODY

    class_code = Unicode("", help="The code students type to join; empty for none.").tag(
        config=True)
    book_site = Unicode("", help="The folder of the built book, served under voila/; "
                        "empty for none.").tag(config=True)

    class_store = Instance(SQLBook, help="The class store: who joined, and what they checked.")
    class_admission = Instance(Admission, help="How many students at once, and who waits.")
    class_doors = Instance(Doors, args=(), help="The limits and checks of the class's routes.")
    served_notebooks = Dict(help="The notebooks served, by their path in the folder.")
    notebook_listing = AnyTrait(help="The list page's loo_listing (notebooks.listing_of).")
    class_teachers = Instance(Teachers, allow_none=True,
                              help="The teachers the Hub logs in (--hub), or None: the "
                                   "teacher's token.")

    def classroom_routes(self, voila_routes: list[Any]) -> list[Any]:
        """The class's routes, then Voila's wrapped for a class, then the book's."""
        sign_notebooks(self.contents_manager.notary, self.served_notebooks)
        places: Admission = self.class_admission
        places.taken = adapter.says_when_ready(self.kernel_manager)
        adapter.idle_from_taking(self.kernel_manager)
        adapter.template_globals(self)["loo_listing"] = self.notebook_listing
        base = str(self.base_url)
        book, code, doors = self.class_store, self.class_code, self.class_doors
        watch = handlers.solution_watcher(book, doors)

        def opened(handler: Any, kernel_id: str) -> None:
            places.opened(kernel_id, identity.asking(handler, places))

        found: list[Any] = [
            *handlers.place_routes(places, self.kernel_manager, base),
            *handlers.student_routes(
                book, code, doors, base,
                self.class_teachers if self.class_teachers and self.class_teachers.students
                else None),
            *handlers.teacher_routes(book, code,
                                     under(base, "voila/book/") if self.book_site else "",
                                     doors, base, self.class_teachers),
            *(adapter.packed_route(adapter.classroom_socket(
                adapter.gated_page(each, partial(handlers.admit_page, places)), watch,
                opened, places.closed))
              for each in voila_routes)]
        if self.book_site:
            # Last, so Voila's own /voila/... routes win.
            found.append(adapter.static_route(route(base, r"voila/(.*)"), self.book_site))
        if base != "/":  # the prefix without its last slash, as a person might type it
            found.append(adapter.redirect_route(re.escape(base.rstrip("/")), base))
        return found
