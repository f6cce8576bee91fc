"""The notebooks a classroom serves: read once at start, signed, and listed by their titles.

The list page names each notebook by the first heading of its first markdown
cell, in the order of the book's table of contents (``_toc.yml`` beside the
notebooks folder, when there is one), then any others by title. The pages
leave out the MyST targets such as ``(try-lead-as-a)=`` that head some cells
for the book's cross-references (:func:`without_myst_targets`, an nbconvert
preprocessor named in :func:`~.server.voila_config`).
"""

from __future__ import annotations

import contextlib
import importlib
import re
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

_MYST_TARGET = re.compile(r"\([^()\s]+\)=")


def without_myst_targets(nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """Drop the MyST target lines, such as ``(try-lead-as-a)=``, from ``nb``'s markdown cells.

    An nbconvert preprocessor (a plain function): the book uses the targets
    for its cross-references, and a page would show them as text.
    """
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            lines = cell.source.split("\n")
            cell.source = "\n".join(line for line in lines
                                     if not _MYST_TARGET.fullmatch(line.rstrip()))
    return nb, resources


def notebook_title(nb: Any) -> str | None:
    """The first heading of ``nb``'s first markdown cell, or ``None``."""
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.split("\n"):
            if line.startswith("# "):
                return str(line[2:].strip()) or None
        return None
    return None


def book_order(toc: Path, notebooks: Path) -> list[str]:
    """The notebooks of ``notebooks`` that the table of contents ``toc`` names, in its order.

    Each is given by its path inside ``notebooks``, as Voila's list names it.
    Raises ``ValueError`` with a one-line reason when ``toc`` cannot be read.
    """
    yaml = importlib.import_module("yaml")
    try:
        tree = yaml.safe_load(toc.read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as exc:
        where = f" at line {exc.problem_mark.line + 1}" if exc.problem_mark else ""
        raise ValueError(f"{exc.problem or 'not YAML'}{where}") from exc
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ValueError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            name = node.get("file", node.get("root"))
            if isinstance(name, str):
                path = toc.parent / (name if name.endswith(".ipynb") else name + ".ipynb")
                with contextlib.suppress(ValueError):  # a page of the book, not a notebook here
                    found.append(path.resolve().relative_to(notebooks.resolve()).as_posix())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(tree)
    return found


def listing(items: Iterable[dict[str, Any]], titles: dict[str, str],
            order: list[str]) -> list[tuple[dict[str, Any], str]]:
    """The list page's entries with their titles: notebooks in ``order``, then the rest by title.

    ``items`` are Voila's entries for a folder (each a contents model with
    ``type``, ``name`` and ``path``); ``titles`` maps a notebook's path to its
    title, and a notebook without one is named by its file name.
    """
    entries = []
    for item in items:
        name = str(item["name"])
        if item["type"] == "notebook":
            title = titles.get(str(item["path"])) or name.removesuffix(".ipynb").replace("-", " ")
        else:
            title = name
        place = order.index(item["path"]) if item["path"] in order else len(order)
        entries.append(((item["type"] != "notebook", place, title.casefold()), item, title))
    return [(item, title) for _, item, title in sorted(entries, key=lambda entry: entry[0])]


def read_notebooks(notebooks: Path) -> dict[str, Any]:
    """Every notebook under ``notebooks`` that nbformat can read, by its path inside the folder.

    A notebook that cannot be read is left out here; Voila says what is wrong
    with it when it is opened.
    """
    nbformat = importlib.import_module("nbformat")
    found: dict[str, Any] = {}
    for path in sorted(notebooks.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        try:
            found[path.relative_to(notebooks).as_posix()] = nbformat.read(path, as_version=4)
        except (OSError, ValueError):
            continue
    return found


def sign_notebooks(notary: Any, notebooks: dict[str, Any]) -> None:
    """Sign ``notebooks`` with ``notary``, so that the server counts them as trusted.

    Serving a folder runs its notebooks, so the teacher who serves it has
    chosen to trust them; with :func:`voila_config` the signatures last as
    long as the server.
    """
    for nb in notebooks.values():
        notary.sign(nb)


def listing_of(notebooks: Path, served: dict[str, Any]) -> tuple[Any, str | None]:
    """The list page's ``loo_listing`` for ``served``, and a note when ``_toc.yml`` is unreadable.

    The table of contents is looked for beside the notebooks folder, where
    the book keeps it; without one the notebooks are listed by title.
    """
    titles = {path: title for path, nb in served.items() if (title := notebook_title(nb))}
    order: list[str] = []
    toc = notebooks.parent / "_toc.yml"
    problem = None
    if toc.is_file():
        try:
            order = book_order(toc, notebooks)
        except ValueError as exc:
            problem = f"note: {toc} could not be read ({exc}); the notebooks are listed by title"
    return partial(listing, titles=titles, order=order), problem
