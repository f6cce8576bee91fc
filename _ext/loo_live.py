"""Sphinx glue for the live widget pages: the book's notebooks run in the reader's browser.

jupyterlite-sphinx builds a JupyterLite site into ``_build/html/lite`` with
the Voici app, which renders every notebook of ``notebooks/`` as an app
(code hidden, cells run on load) on JupyterLite's Pyodide kernel. This
extension

* brings ``lite/static/pyodide`` up to date before the build
  (``scripts/vendor_pyodide.py``: Pyodide from npm, wheels from PyPI, the
  loo-tutor wheel rebuilt when the package changed);
* adds ``loo_live.js`` to the pages named by ``loo_live_pages``: the page
  shows its saved (static) widgets at once, starts the Voici app of the same
  notebook in a hidden frame (from ``loo_live_early.js``, written inline at
  the top of the page) with a visible loading state, and swaps the live app
  in when its widgets are ready. The saved widgets are written into those
  pages as HTML after the build (``loo_snapshot.py``); the widget manager,
  which draws them from their saved state and lets their sliders and menus
  work without Python, is loaded by ``loo_live.js`` only if the app cannot
  start;
* removes the Google Fonts stylesheet that jupyterlite-sphinx adds to every
  page, so that no page loads anything from another host;
* trims the built site after the JupyterLite build (source maps, the
  JupyterLite apps and extensions the app view never loads, CDN links in
  Voila's templates), which keeps it under 40 MB, and takes out the
  service worker that the app pages do not need.
"""

from __future__ import annotations

import fnmatch
import html
import importlib
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))
sys.path.insert(0, str(HERE))

import loo_snapshot
import vendor_pyodide

logger = logging.getLogger(__name__)
REMOTE = ("http://", "https://", "//")


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


def _drop_duplicate_scripts(files: list[Any]) -> None:
    """Keep one copy of each inline script.

    Jupyter Book sets sphinx-thebe up so that every page declared
    ``const THEBE_JS_URL`` twice, and the browser reported the second as an
    error on every page.
    """
    seen: set[tuple[str, str]] = set()
    kept = []
    for script in files:
        body = getattr(script, "attributes", {}).get("body", "")
        key = (getattr(script, "filename", None) or "", body)
        if body and key in seen:
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
        raise ExtensionError(f"{exc} (the live pages need lite/static/pyodide; "
                             "run 'python scripts/vendor_pyodide.py')") from None


def _app_url(app: Sphinx, pagename: str) -> str | None:
    """The Voici app of the notebook behind ``pagename``, relative to that page."""
    if not any(fnmatch.fnmatch(pagename, pattern) for pattern in app.config.loo_live_pages):
        return None
    source = Path(app.env.doc2path(pagename))
    if source.suffix != ".ipynb":
        return None
    notebook = source.relative_to(app.srcdir).with_suffix(".html").as_posix()
    up = "../" * pagename.count("/")
    return f"{up}lite/voici/render/{notebook}"


def _page(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
          doctree: Any) -> None:
    _drop_duplicate_scripts(context.get("script_files", []))
    if _has_widgets(app, pagename):
        # The widget manager loads its icon font relative to where require.js
        # thinks its modules live, by default the page's own folder (where
        # the fonts are not: they are in _static/html-manager). Tell
        # require.js before it loads.
        where = context["pathto"]("_static/html-manager", 1)
        paths = {"@jupyter-widgets/html-manager/dist": where, "@jupyter-widgets": where}
        app.add_js_file(None, body=f"var require = {{paths: {json.dumps(paths)}}};", priority=100)
    url = _app_url(app, pagename)
    if url is None:
        return
    app.add_css_file("loo_live.css")
    # The app starts from an inline script at the top of <head>, before the
    # stylesheets that a script file would wait for (see loo_live_early.js).
    early = (HERE / "loo_live_early.js").read_text(encoding="utf-8")
    context["metatags"] = (context.get("metatags", "") +
                           f'\n    <script data-app="{html.escape(url)}">\n{early}</script>')
    # Early in <head> and not deferred: the script shows the loading state
    # and swaps in the app, whatever the rest of the page is doing.
    attributes: dict[str, Any] = {"data-app": url}
    app.add_js_file("loo_live.js", priority=100, **attributes)


def _has_widgets(app: Sphinx, pagename: str) -> bool:
    """Whether the page carries saved widget state (myst-nb adds the widget manager then)."""
    try:
        collector: Any = importlib.import_module("myst_nb.sphinx_").NbMetadataCollector
    except (ImportError, AttributeError):
        return False
    return "ipywidgets_state" in collector.get_js_files(app.env, pagename)


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


def _trim(app: Sphinx, error: Exception | None) -> None:
    if error is not None or app.builder.format != "html":
        return
    # A build with no page out of date skips Sphinx's copy of static files;
    # keep this extension's own script and style current anyway.
    for asset in (HERE / "static").iterdir():
        shutil.copy2(asset, Path(app.outdir) / "_static" / asset.name)
    vendor_pyodide.trim_site(Path(app.outdir))
    for docname in app.env.found_docs:
        url = _app_url(app, docname)
        if url is None:
            continue
        target = (Path(app.outdir) / docname).parent / url
        if not target.resolve().exists():
            logger.warning("the live app of %s is missing: %s", docname, url)
        page = Path(app.outdir) / f"{docname}.html"
        text = page.read_text(encoding="utf-8")
        ready = loo_snapshot.defer_widget_manager(loo_snapshot.add_snapshots(text))
        if ready != text:
            page.write_text(ready, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("loo_live_pages", [], "html", [list])
    app.connect("config-inited", lambda app, config: config.html_static_path.append(
        str(HERE / "static")))
    app.connect("config-inited", _quiet_pages)
    app.connect("builder-inited", _vendor)
    app.connect("html-page-context", _page)
    # After jupyterlite-sphinx's own build-finished handler (priority 500),
    # which runs `jupyter lite build`.
    app.connect("build-finished", _trim, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
