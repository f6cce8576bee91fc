"""The classroom's own pages: Jinja templates in ``templates/pages``, each with its style
sheet in a file of its own there, which the page carries inline (so that a page is one
request, and no page of the classroom loads anything from another host).

The pages: joining the class (``join.html``), the teacher's (``teacher.html``), and the
admission's (``waiting.html``, ``opening.html``, ``full.html`` on ``place.html``). Values
are escaped by Jinja; the parts already HTML (the server's XSRF field, the class drawn
for the teacher) are passed as :class:`markupsafe.Markup`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import jinja2

PAGES = Path(__file__).resolve().parent / "templates" / "pages"
"""The folder of the pages' templates and style sheets."""


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(PAGES), autoescape=True,
                              undefined=jinja2.StrictUndefined, keep_trailing_newline=True)


def render(template: str, /, **values: Any) -> str:
    """The page of ``template`` drawn with ``values``."""
    return _environment().get_template(template).render(**values)
