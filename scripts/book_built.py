"""Whether the built book (``_build/html``) is up to date with its sources, by its build stamp.

``./dev`` stamps each book build that passed (``_build/.book-built``, dated
when the build began); the book is up to date when no source is newer. The
tests that open the built book build it first when it is not
(tests/browser_support.py), and ``./dev site`` serves it as built when it is,
writing nothing into it::

    python scripts/book_built.py   # exit 0 when up to date; else 1, with the mode and the reason
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HTML = ROOT / "_build" / "html"
"""Where ./dev builds the site."""
BOOK_STAMP = ROOT / "_build" / ".book-built"
"""Made by each book build of ``./dev`` that passed, dated when the build began."""
PAGE_SOURCES = ("book", "notebooks")
"""Sources an incremental build brings up to date: Sphinx reads again the pages that changed."""
OTHER_SOURCES = ("_config.yml", "_toc.yml", "_ext", "_templates", "loo_tutor", "classroom_page",
                 "scripts/vendor_pyodide.py", "requirements.txt")
"""Sources every page may depend on (the engine draws the deals and makes the widgets): a
change in one calls for a full build."""
NOT_SOURCES = {"__pycache__", "node_modules", ".ipynb_checkpoints"}


def _files(path: Path) -> Iterator[Path]:
    if path.is_file():
        yield path
    elif path.is_dir():
        for folder, folders, files in os.walk(path):
            folders[:] = [name for name in folders if name not in NOT_SOURCES]
            yield from (Path(folder) / name for name in files)


def _changed_since(built: float, sources: tuple[str, ...]) -> list[str]:
    return sorted(str(file.relative_to(ROOT)) for name in sources for file in _files(ROOT / name)
                  if file.stat().st_mtime > built)


def book_build_needed() -> tuple[str, str] | None:
    """Whether ``_build/html`` is missing or older than its sources: the mode and the reason.

    The mode is ``incremental`` when only pages changed since the last build
    that passed, ``full`` otherwise; ``None`` when the build is up to date.
    """
    if not (HTML / "index.html").exists():
        return "full", f"{HTML.relative_to(ROOT)} is missing"
    if not BOOK_STAMP.exists():
        return "full", "the last book build failed or predates the build stamp"
    built = BOOK_STAMP.stat().st_mtime
    changed = _changed_since(built, OTHER_SOURCES)
    mode = "full"
    if not changed:
        changed, mode = _changed_since(built, PAGE_SOURCES), "incremental"
    if not changed:
        return None
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return mode, f"{', '.join(changed[:3])}{more} changed since the last build"


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args(argv)
    needed = book_build_needed()
    if needed is None:
        print(f"{HTML.relative_to(ROOT)} is up to date with its sources")
        return 0
    mode, why = needed
    print(f"{mode}: {why}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
