"""Sphinx glue for the live widget pages: a book page's widget outputs come alive in place.

Every page with widget outputs, a notebook (``.ipynb``) or a MyST markdown
notebook (``{code-cell}`` pages with jupytext front matter) alike, gets:

* its widgets made by the build in the in-browser Python: once every page
  is read, the cells of every live page run in Pyodide (in Node), and the
  memory that holds their widgets is saved beside Pyodide, with the
  standard library's zip cut to what the pages import and holding their
  cells (``scripts/vendor_pyodide.py``, ``_ext/browser/loo_live_worker.py``).
  The page's saved widget state is that state, and each widget output names
  the widget made for it;
* at the top of ``<head>`` an inline script (``loo_live_early.js``) that
  starts the page's Web Worker at once: Python (Pyodide, served by the site
  from ``_static/pyodide``) starts there while the page loads and makes the
  page's widgets, the same as the build's: on a reader's first two visits by
  running the page's cells, on later ones from the saved memory, which the
  worker keeps after the second (``classroom_page/src/live-worker.js``);
* the page's script and style sheet (``_static/live/``, bundled by ``./dev``
  from ``classroom_page/src``: the widget manager the classroom pages use
  too), which make the widgets' models from the page's saved state and draw
  each in place of its saved copy, connected to the worker's Python, and
  ``loo_live.css`` (the status line and the saved copies);
* after the build, its saved widgets written as HTML (``loo_snapshot.py``),
  shown at once, and the saved page's widget manager left for the page's
  script to load only if Python cannot start.

The code of a page's cells is hidden on the page itself
(``nb_remove_code_source``) and never sent to the browser. Before the build
this extension brings the in-browser Python up to date
(``scripts/vendor_pyodide.py``); on every page it removes what would load
from another host (stylesheets and scripts that other extensions add from a
CDN, and sphinx-thebe's scripts, which name one and are never used with the
launch buttons off); after the build it trims the site of files no page
loads, and of the theme's icons drawn by script, which its icon font draws
as well.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging as std_logging
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

import loo_snapshot  # beside this file
import vendor_pyodide  # in scripts/

HERE = Path(__file__).resolve().parent


logger = logging.getLogger(__name__)
REMOTE = ("http://", "https://", "//")
REMOTE_URL = re.compile(r"(?:https?:)?//[\w-]+(?:\.[\w-]+)+")
"""An address on another host, in a script's text."""
UNUSED_SCRIPTS = ("sphinx-thebe.js",)
"""Scripts of extensions the book keeps off (Thebe, with the launch buttons off)."""
LIVE_FOLDER = "live"
"""The live pages' scripts and style, which ./dev builds into a static folder of the book."""
LIVE_SCRIPT = f"{LIVE_FOLDER}/live.js"
WORKER_SCRIPT = f"_static/{LIVE_FOLDER}/worker.js"
PYODIDE = "_static/pyodide"
"""Where the site has Pyodide; the worker finds the saved memory there, with its own query."""
# Cells whose outputs the page leaves out: a widget they show has no place on it.
HIDDEN_OUTPUT_TAGS = {"remove-output", "remove-cell"}
NOT_RUN_TAGS = {"skip-execution"}


def _is_remote(name: str) -> bool:
    return name.startswith(REMOTE)


def _drop_remote_assets(app: Sphinx) -> None:
    """Remove stylesheets and scripts that other extensions load from other hosts."""
    app.registry.css_files = [(f, a) for f, a in app.registry.css_files if not _is_remote(f)]
    app.registry.js_files = [(f, a) for f, a in app.registry.js_files
                             if f is None or not _is_remote(f)]
    builder: Any = getattr(app, "builder", None)
    for attribute in ("css_files", "script_files"):
        files = getattr(builder, attribute, None)
        if files is not None:
            files[:] = [f for f in files if not _is_remote(getattr(f, "filename", None) or "")]


def _keep_scripts_local(files: list[Any]) -> None:
    """Keep one copy of each inline script, none naming another host, none of ``UNUSED_SCRIPTS``.

    Jupyter Book sets sphinx-thebe up so that every page declared
    ``const THEBE_JS_URL = "https://unpkg.com/..."`` twice (the browser
    reported the second as an error on every page); with Thebe off, neither
    that address nor sphinx-thebe's script is used.
    """
    seen: set[tuple[str, str]] = set()
    kept = []
    for script in files:
        body = getattr(script, "attributes", {}).get("body", "")
        name = getattr(script, "filename", None) or ""
        key = (name, body)
        if (body and (key in seen or REMOTE_URL.search(body))) or name.endswith(UNUSED_SCRIPTS):
            continue
        seen.add(key)
        kept.append(script)
    files[:] = kept


def _vendor(app: Sphinx) -> None:
    _drop_remote_assets(app)
    if app.builder.format != "html":
        return
    try:
        vendor_pyodide.vendor()
    except SystemExit as exc:
        raise ExtensionError(f"{exc} (the live pages need the in-browser Python; "
                             "run 'python scripts/vendor_pyodide.py')") from None


def _has_widgets(app: Sphinx, pagename: str) -> bool:
    """Whether the page carries saved widget state (myst-nb adds the widget manager then)."""
    from myst_nb.sphinx_ import NbMetadataCollector

    return "ipywidgets_state" in NbMetadataCollector.get_js_files(app.env, pagename)


def page_cells(app: Sphinx, pagename: str) -> list[dict[str, Any]]:
    """The code cells of the notebook behind ``pagename``, in order, as the build runs them.

    Each is ``{"code", "name", "shown"}``; ``shown`` is false for a cell
    whose outputs the page leaves out. Cells the build does not run are left
    out too.
    """
    from myst_nb.core.read import create_nb_reader

    path = Path(app.env.doc2path(pagename))
    text = path.read_text(encoding="utf-8")
    env: Any = app.env  # MyST-NB keeps its settings on it, which Sphinx's types do not declare
    reader = create_nb_reader(str(path), env.myst_config, env.mystnb_config, text)
    if reader is None:
        return []
    cells = []
    code_cells = [cell for cell in reader.read(text).cells if cell.cell_type == "code"]
    for number, cell in enumerate(code_cells, 1):
        tags = set(cell.get("metadata", {}).get("tags", []))
        if tags & NOT_RUN_TAGS:
            continue
        cells.append({"code": cell.source, "name": f"<{path.name}, code cell {number}>",
                      "shown": not tags & HIDDEN_OUTPUT_TAGS})
    return cells


def _script_json(value: Any) -> str:
    """``value`` as JSON that cannot end the script tag it is written in."""
    return json.dumps(value).replace("</", "<\\/")


def _page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
          doctree: Any) -> None:
    _keep_scripts_local(context.get("script_files", []))
    if not _has_widgets(app, pagename):
        return
    # The widget manager of the saved page (drawing the saved widgets if
    # Python cannot start) loads its icon font relative to where require.js
    # thinks its modules live, by default the page's own folder (where the
    # fonts are not: they are in _static/html-manager). Tell require.js
    # before it loads.
    where = context["pathto"]("_static/html-manager", 1)
    paths = {"@jupyter-widgets/html-manager/dist": where, "@jupyter-widgets": where}
    app.add_js_file(None, body=f"var require = {{paths: {json.dumps(paths)}}};", priority=100)
    if _prepared is None or pagename not in _prepared.pages:
        return
    app.add_css_file("live/live.css")
    app.add_css_file("loo_live.css")
    # The worker starts from an inline script at the top of <head>, before
    # the stylesheets that a script file would wait for. Its address names
    # the saved memory it starts from and its own version (worker_version).
    early = (HERE / "loo_live_early.js").read_text(encoding="utf-8")
    worker = html.escape(f'{context["pathto"](WORKER_SCRIPT, 1)}?v={_worker_version}')
    context["metatags"] = (context.get("metatags", "") +
                           f'\n    <script data-worker="{worker}" data-page="{html.escape(pagename)}">'
                           f'\n{early}</script>')
    app.add_js_file(LIVE_SCRIPT, priority=100, loading_method="defer", **{"data-loo-live": "page"})


# -- the live pages' widgets, made at build time ----------------------------------------

_prepared: vendor_pyodide.Prepared | None = None
"""The widgets of this build's live pages, made once every page is read (``_prepare``)."""
_worker_version = ""
"""The version in the worker's address on this build's pages (``worker_version``)."""


def worker_version(key: str, worker: bytes) -> str:
    """The version in the worker's address: a digest of the saved memory's key and of the
    worker's own script, so that a browser fetches the worker again when either changes
    (the worker passes it on to the saved memory and the zips it fetches)."""
    return hashlib.sha256(key.encode() + b"\0" + worker).hexdigest()[:32]


def _prepare(app: Sphinx, env: Any) -> list[str]:
    """Make every live page's widgets in the in-browser Python; returns the pages to write again.

    A page whose widgets were made anew (another id, another state), or whose
    worker changed, is written again, even if its source did not change.
    """
    global _prepared, _worker_version
    if app.builder.format != "html":
        return []
    pages = [{"page": name, "cells": cells} for name in sorted(env.found_docs)
             if _has_widgets(app, name) and (cells := page_cells(app, name))]
    try:
        _prepared = vendor_pyodide.prepare_pages(pages)
    except SystemExit as exc:
        raise ExtensionError(f"{exc} (making the live pages' widgets in the in-browser Python)") from None
    for name, reason in _prepared.failed.items():
        logger.warning(f"{name}: its widgets cannot run in the in-browser Python, so the page "
                       f"stays a saved copy ({reason})", type="loo-live", location=name)
    live = live_folder(Path(app.confdir), app.config.html_static_path)
    worker = (live / Path(WORKER_SCRIPT).name).read_bytes() if live is not None else b""
    _worker_version = worker_version(_prepared.key, worker)
    changed = getattr(env, "loo_live_worker_version", None) != _worker_version
    env.loo_live_worker_version = _worker_version
    return [page["page"] for page in pages] if changed else []


def use_prepared(page: str, prepared: dict[str, Any], name: str) -> str:
    """``page`` (a built page's HTML) with the widgets the build made for it in the in-browser Python.

    The saved widget state becomes theirs, and the n-th widget output of the
    page names the n-th widget its cells show. A page already carrying them
    is left as it is.
    """
    views = [json.loads(found.group("view")) for found in loo_snapshot.VIEW.finditer(page)]
    if [view.get("model_id") for view in views] == prepared["views"]:
        return page
    if len(views) != len(prepared["views"]):
        raise ExtensionError(f"{name}: the page has {len(views)} widget outputs, but in the "
                             "in-browser Python its cells show another number of widgets "
                             f"({len(prepared['views'])})")
    if f'<div class="{loo_snapshot.MARK}">' in page:
        raise ExtensionError(f"{name}: the page was written by an earlier build; "
                             "run a full build (./dev build)")
    ids = iter(prepared["views"])

    def view(found: re.Match[str]) -> str:
        spec = dict(json.loads(found.group("view")), model_id=next(ids))
        return (f'<script type="application/vnd.jupyter.widget-view+json">'
                f"{_script_json(spec)}</script>")

    def state(found: re.Match[str] | None) -> str:
        return (f'<script type="application/vnd.jupyter.widget-state+json">'
                f'{_script_json(prepared["state"])}</script>')

    page, states = loo_snapshot.STATE.subn(state, page, count=1)
    if not states:  # the build's kernel saved none: the page gets the state made here
        page = page.replace("</head>", f"{state(None)}\n</head>", 1)
    return loo_snapshot.VIEW.sub(view, page)


def _quiet_pages(app: Sphinx, config: Any) -> None:
    """Settings without which every page logs an error in the browser's console.

    The theme's colour mode, left empty, is reported as invalid; and a page
    that names no icon makes the browser ask the server for /favicon.ico,
    which the site does not have.
    """
    context = dict(config.html_context or {})
    context.setdefault("default_mode", "auto")
    config.html_context = context
    if not config.html_favicon:
        config.html_favicon = str(HERE / "static" / "loo_favicon.svg")


# The settings that myst-parser and myst-nb log in full at every build.
CONFIG_DUMP = re.compile(r"^(?:\x1b\[[\d;]*m)*myst(?:-nb)? v[\w.]+:")


class _NoConfigDumps(std_logging.Filter):
    def filter(self, record: std_logging.LogRecord) -> bool:
        return not (record.levelno == std_logging.INFO and CONFIG_DUMP.match(record.getMessage()))


def _quiet_build(app: Sphinx, config: Any) -> None:
    """Leave out of the build's output myst-parser's and myst-nb's settings, logged in full."""
    for handler in std_logging.getLogger("sphinx").handlers:
        handler.addFilter(_NoConfigDumps())


def _static_folders(app: Sphinx, config: Any) -> None:
    """This extension's own files, and the in-browser Python (copied to ``_static/pyodide``)."""
    config.html_static_path.extend([str(HERE / "static"), str(vendor_pyodide.SITE)])


# -- trimming the built site ------------------------------------------------------------

# Font formats only browsers without WOFF2 use (Internet Explorer, browsers
# before 2018). The widget managers' and the theme's icon fonts all come as
# WOFF2 too, listed first in their stylesheets.
LEGACY_FONTS = (".eot", ".ttf", ".svg", ".woff")
# Folders of icon fonts that hold a WOFF2 copy of every font.
ICON_FONTS = ("_static/html-manager", "_static/live", "_static/vendor/fontawesome/webfonts")
# The theme's interface translations: the book is written in English only.
# And the classroom server's light page, which ./dev builds into _vendor_js
# (copied whole into _static with the widget manager): the server reads it
# from _vendor_js/classroom, and no page of the book loads it.
UNUSED_STATIC = ("_static/locales", "_static/classroom")


# The theme's icons drawn by script (1.5 MB): the theme's style sheet draws
# the same icons with its icon font, which the site has.
ICON_SCRIPT = "_static/scripts/fontawesome.js"
ICON_SCRIPT_TAG = re.compile(r'\s*<script\b[^>]*\bsrc="[^"]*' + re.escape(ICON_SCRIPT) +
                             r'[^"]*"[^>]*></script>')


def _files(folder: Path, pattern: str) -> Iterator[Path]:
    return (p for p in folder.rglob(pattern) if p.is_file())


def trim_site(html_dir: Path) -> None:
    """Drop from the built site ``html_dir`` what no page ever loads.

    Every source map; the legacy-format copies of the icon fonts; the
    theme's translations, its icons drawn by script and the classroom's page
    script.
    """
    for path in _files(html_dir, "*.map"):
        path.unlink()
    for folder in ICON_FONTS:
        for path in (html_dir / folder).glob("*"):
            if path.suffix in LEGACY_FONTS:
                path.unlink()
    for name in UNUSED_STATIC:
        shutil.rmtree(html_dir / name, ignore_errors=True)
    for path in (html_dir / ICON_SCRIPT).parent.glob(Path(ICON_SCRIPT).name + "*"):
        path.unlink()
    for page in _files(html_dir, "*.html"):
        text = page.read_text(encoding="utf-8")
        if ICON_SCRIPT in text:
            page.write_text(ICON_SCRIPT_TAG.sub("", text), encoding="utf-8")


def live_folder(confdir: Path, static_path: list[str]) -> Path | None:
    """The live pages' scripts (the ``live`` folder of one of the book's static folders)."""
    for folder in static_path:
        live = confdir / folder / LIVE_FOLDER
        if live.is_dir():
            return live
    return None


def copy_own_assets(confdir: Path, static_path: list[str], out: Path) -> None:
    """Copy this extension's own script and style, and the live pages' scripts (the
    ``live`` folder of a static folder), into the site ``out``.

    A build with no page out of date skips Sphinx's copy of static files, so
    without this a live page script rebuilt since the last build would not reach the site.
    """
    for asset in (HERE / "static").iterdir():
        shutil.copy2(asset, out / "_static" / asset.name)
    live = live_folder(confdir, static_path)
    if live is not None:
        shutil.copytree(live, out / "_static" / LIVE_FOLDER, dirs_exist_ok=True)


def _finish(app: Sphinx, error: Exception | None) -> None:
    if error is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    copy_own_assets(Path(app.confdir), app.config.html_static_path, out)
    trim_site(out)
    prepared = _prepared.pages if _prepared is not None else {}
    if _prepared is not None:  # beside Pyodide, in place of the whole standard library
        shutil.copy2(_prepared.snapshot, out / PYODIDE / vendor_pyodide.SNAPSHOT)
        shutil.copy2(_prepared.stdlib, out / PYODIDE / vendor_pyodide.SERVED_STDLIB)
        shutil.copy2(_prepared.later, out / PYODIDE / vendor_pyodide.SERVED_LATER)
        (out / PYODIDE / vendor_pyodide.STDLIB).unlink(missing_ok=True)
    for docname in app.env.found_docs:
        page = out / f"{docname}.html"
        if not page.exists():
            continue
        text = page.read_text(encoding="utf-8")
        ready = text
        if docname in prepared:
            ready = use_prepared(ready, prepared[docname], docname)
        ready = loo_snapshot.defer_widget_manager(loo_snapshot.add_snapshots(ready))
        if ready != text:
            page.write_text(ready, encoding="utf-8")


START_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Refresh" content="0; url={first}">
<link rel="icon" href="_static/{icon}">
<title>loo-tutor</title>
</head>
<body><p><a href="{first}">The book starts here.</a></p></body>
</html>
"""
"""The site's start page: it forwards to the book's first page, and names the book's icon."""


def _start_page(app: Sphinx, error: Exception | None) -> None:
    """Write the site's ``index.html``, which forwards to the book's first page.

    Run before sphinx-external-toc writes its own, a bare forward that names no
    icon, so that it writes none: a browser that stays on such a page a moment
    asks the server for /favicon.ico, which the site does not have.
    """
    if error is not None or app.builder.format != "html" or app.config.root_doc == "index":
        return
    icon = Path(app.config.html_favicon).name
    (Path(app.outdir) / "index.html").write_text(
        START_PAGE.format(first=f"{app.config.root_doc}.html", icon=icon), encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", _quiet_build)
    app.connect("config-inited", _static_folders)
    app.connect("config-inited", _quiet_pages)
    app.connect("builder-inited", _vendor)
    app.connect("env-updated", _prepare)
    app.connect("html-page-context", _page)
    app.connect("build-finished", _start_page, priority=400)
    app.connect("build-finished", _finish, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
