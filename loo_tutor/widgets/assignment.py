"""An assignment on the exercises page: the teacher's exercises in order, opened from a link.

The link is the exercises page's address with the assignment in its query
(:func:`~loo_tutor.teaching.assignment.link_query`). On the site the page's
script (``classroom_page/src/progress.js``) hands the address's query to
this widget's field, as a reader pasting the link would; the widget then
shows each exercise of the assignment and scores the page's work against
it, so the download is tagged with the assignment's id. In a classroom the
class's assignment (``loo-tutor classroom --assignment``) opens by itself
when the kernel's environment names the class's folder in ``LOO_TUTOR_CLASS_DATA``.
"""

from __future__ import annotations

import html
import os
from typing import Any

import ipywidgets as widgets

from ..engine.errors import LooError
from ..render.markup import RULES_BASE
from ..teaching.assignment import Assignment, class_assignment, from_link_query
from ._base import LooWidget
from .exercise import ExerciseWidget, Scoreboard

CLASS_FOLDER = "LOO_TUTOR_CLASS_DATA"
"""The environment variable that names a classroom's folder (``--data``) to its kernels."""


class AssignmentSheet(LooWidget):
    """The exercises of an assignment, in order, sharing the page's score.

    Args:
        scoreboard: the page's score; it scores the page against the
            assignment once one is open.
        link: an address (or its query) carrying an assignment, to open at once;
            without one, the class's assignment when ``LOO_TUTOR_CLASS_DATA`` names
            a class folder that has one.
        rules_base: where the book's ``rules.html`` is, for the links.

    Attributes:
        assignment: the assignment open, or ``None``.
        exercises: its exercises' widgets, in order.

    >>> sheet = AssignmentSheet(link="?assignment=w3&items=settle:4.5")
    >>> [(w.kind.word, w.seed) for w in sheet.exercises], sheet.scoreboard.assignment.id
    ([('settle', 4), ('settle', 5)], 'w3')
    """

    def __init__(self, scoreboard: Scoreboard | None = None, *, link: str = "",
                 rules_base: str = RULES_BASE) -> None:
        super().__init__()
        self.add_class("loo-assignment")
        self.assignment: Assignment | None = None
        self.exercises: list[ExerciseWidget] = []
        self._base = rules_base
        self.scoreboard = scoreboard if scoreboard is not None else Scoreboard()
        self.link_field = self.part(
            widgets.Text, placeholder="the link your teacher gave you",
            description="Assignment link", continuous_update=False,
            tooltip="Paste the link of an assignment and press Enter or Open",
            style={"description_width": "initial"}, layout={"width": "32em"})
        self.link_field.add_class("loo-assignment-link")
        self.open_button = self.button("Open", "Show the assignment's exercises",
                                       self._open_typed)
        self.status = self.part(widgets.HTML)
        self.sheet = self.part(widgets.VBox)
        self.link_field.observe(self._open_typed, names="value")
        self.show(self.part(widgets.HBox, [self.link_field, self.open_button]), self.status,
                  self.sheet)
        if link:
            self.open_link(link)
        elif os.environ.get(CLASS_FOLDER):
            try:
                kept = class_assignment(os.environ[CLASS_FOLDER])
            except LooError as exc:
                self._say(f"The class's assignment cannot be read: {exc}.")
            else:
                if kept is not None:
                    self.open_assignment(kept)

    def _open_typed(self, change: Any = None) -> None:
        if self.link_field.value.strip():
            self.open_link(self.link_field.value)

    def open_link(self, link: str) -> None:
        """Show the assignment ``link`` carries; a link that carries none is said in one line."""
        query = link.partition("?")[2] if "?" in link else link
        try:
            assignment = from_link_query(query.partition("#")[0])
        except LooError as exc:
            self._say(f"This link opens no assignment: {exc}.")
            return
        self.open_assignment(assignment)

    def _say(self, line: str) -> None:
        self.status.value = (f'<p class="loo-assignment-status" role="status">'
                             f"{html.escape(line)}</p>")

    def open_assignment(self, assignment: Assignment) -> None:
        """Show the exercises of ``assignment`` and score the page against it."""
        if assignment == self.assignment:
            return
        self.assignment = assignment
        self.exercises = [ExerciseWidget(item.kind, item.seed, scoreboard=self.scoreboard,
                                         rules_base=self._base) for item in assignment.items]
        self.scoreboard.set_assignment(assignment)
        count = len(assignment.items)
        self.status.value = (
            f'<h3 class="loo-assignment-title" data-loo-assignment-open='
            f'"{html.escape(assignment.id, quote=True)}">{html.escape(assignment.title)}</h3>'
            f'<p class="loo-assignment-status" role="status">Assignment {html.escape(assignment.id)}: '
            f"{count} exercise{'s' if count != 1 else ''}, in your teacher's order. Your "
            "download is marked against it.</p>")
        self.sheet.children = tuple(self.exercises)

    def _render(self) -> str:
        return str(self.status.value) + "".join(w.html for w in self.exercises)
