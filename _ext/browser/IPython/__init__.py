# ruff: noqa: N999 (the stand-in is imported under the name of the package it stands in for)
"""A stand-in for IPython on the live book pages, where no IPython shell runs.

ipywidgets imports IPython only to ask for the running shell (there is
none: the page's Python runs its cells itself, see ``loo_live_worker``) and
for ``display``; importing the real IPython would add most of a second to
every page's start. This package is added to the in-browser Python only
(``scripts/vendor_pyodide.py``); the book's build runs the real IPython.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.0+loo-tutor"


def get_ipython() -> Any:
    """No shell runs on the live pages."""
    return None
