"""The build's part in the live pages (``_ext/loo_live.py``, ``scripts/vendor_pyodide.py``).

The book build makes every live page's widgets in the in-browser Python and
saves its memory; a page then carries the state of those widgets, and each
widget output names its widget. Here a page is rewritten as the build does
it, the built site (``_build/html``, built first when out of date: the
``book`` fixture) is read for what the browser is given, and a one-page book whose cells
run in the build's kernel but not in the in-browser Python is built.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from sphinx.errors import ExtensionError

import loo_live
import loo_snapshot
import vendor_pyodide

ROOT = Path(__file__).resolve().parents[2]


HTML = ROOT / "_build" / "html"
PYODIDE = HTML / "_static" / "pyodide"

STATE = '<script type="application/vnd.jupyter.widget-state+json">{}</script>'
VIEW = ('<script type="application/vnd.jupyter.widget-view+json">'
        '{{"version_major": 2, "version_minor": 0, "model_id": "{}"}}</script>')


def _page(state: bool = True) -> str:
    saved = STATE.format(json.dumps({"version_major": 2, "version_minor": 0, "state": {
        "kernel-1": {"model_name": "LabelModel", "state": {"value": "from the kernel"}}}}))
    return (f"<html><head>{saved if state else ''}</head><body>"
            f"<div>{VIEW.format('kernel-1')}</div><div>{VIEW.format('kernel-2')}</div>"
            "</body></html>")


PREPARED = {"state": {"version_major": 2, "version_minor": 0, "state": {
    "made-1": {"model_name": "LabelModel", "model_module": "@jupyter-widgets/controls",
               "model_module_version": "2.0.0", "state": {"value": "made </script> here"}},
    "made-2": {"model_name": "LabelModel", "model_module": "@jupyter-widgets/controls",
               "model_module_version": "2.0.0", "state": {"value": "second"}}}},
    "views": ["made-1", "made-2"]}


def _views(page: str) -> list[str]:
    return [json.loads(m.group("view"))["model_id"] for m in loo_snapshot.VIEW.finditer(page)]


def _state(page: str) -> dict[str, object]:
    found = loo_snapshot.STATE.search(page)
    assert found is not None
    state: dict[str, object] = json.loads(found.group("state"))
    return state


def test_a_page_takes_the_widgets_made_for_it_in_order() -> None:
    page = loo_live.use_prepared(_page(), PREPARED, "a page")
    assert _views(page) == ["made-1", "made-2"]
    assert _state(page) == PREPARED["state"]
    assert "made </script> here" not in page, "the state must not end its script tag"
    assert "from the kernel" not in page
    assert loo_live.use_prepared(page, PREPARED, "a page") == page


def test_a_page_whose_kernel_saved_no_state_gets_the_state_made_for_it() -> None:
    page = loo_live.use_prepared(_page(state=False), PREPARED, "a page")
    assert _state(page) == PREPARED["state"]
    assert page.index("widget-state") < page.index("</head>")


def test_a_page_whose_outputs_do_not_match_its_cells_stops_the_build() -> None:
    one_view = dict(PREPARED, views=["made-1"])
    with pytest.raises(ExtensionError, match=r"a page: the page has 2 widget outputs, but in the "
                                             r"in-browser Python its cells show another number "
                                             r"of widgets \(1\)"):
        loo_live.use_prepared(_page(), one_view, "a page")


def test_the_site_serves_the_saved_memory_and_a_standard_library_cut_to_what_the_pages_use(
        book: Path) -> None:
    with gzip.open(PYODIDE / "snapshot.bin.gz") as saved:
        assert len(saved.read(1 << 20)) == 1 << 20
    assert not (PYODIDE / "python_stdlib.zip").exists(), "the zip is served gzipped only"
    with _served_zip() as served, _later_zip() as later:
        names = set(served.namelist()) | set(later.namelist())
        cells = served.read("loo_live_cells.py").decode()
        # stored, for the gzip of the whole to compress
        assert {info.compress_type for info in served.infolist()} == {zipfile.ZIP_STORED}
        widgets = served.read("loo_tutor/widgets/__init__.pyc")
    # the packages shipped: what the pages import or may import on a click,
    # with the data they read at run time
    assert "loo_tutor/widgets/play.pyc" in names
    assert "loo_tutor/widgets/practice.pyc" in names
    assert "loo_tutor/analysis/solver.pyc" in names
    assert "loo_tutor/records/data/forced-ace.yaml" in names
    assert "loo_tutor/render/styles/widgets.css" in names
    assert "ipywidgets/widgets/widget.pyc" in names
    # and not what only the command line and the classroom server import
    assert "loo_tutor/apps/cli.pyc" not in names
    assert not [name for name in names if name.startswith("loo_tutor/apps/classroom/")]
    # loo-tutor's modules and functions have no docstrings in the browser
    assert b"Each widget's module is imported when the widget is first asked for" not in widgets
    assert b"__getattr__" in widgets
    # the standard library: what the pages imported, not what they never do
    assert "fractions.pyc" in names
    assert "json/__init__.pyc" in names
    assert "json/tool.pyc" not in names
    assert not [name for name in names if name.startswith(("unittest/", "email/", "xml/"))]
    # the pages' cells, for a Python started without the saved memory
    assert "'notebooks/forced-ace': [" in cells
    assert "PlayTrainer(example(\"forced-ace\"), seat=\"A\", from_trick=1)" in cells


def _served_zip(name: str = "python_stdlib.zip.gz") -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(gzip.decompress((PYODIDE / name).read_bytes())))


def _later_zip() -> zipfile.ZipFile:
    return _served_zip(vendor_pyodide.SERVED_LATER)


def test_what_no_page_imports_as_it_starts_is_served_apart(book: Path) -> None:
    with _served_zip() as first, _later_zip() as later:
        starts, rest = set(first.namelist()), set(later.namelist())
        named = first.read(f"{vendor_pyodide.LATER_MODULE}.py").decode()
        assert {info.compress_type for info in later.infolist()} == {zipfile.ZIP_STORED}
    assert not starts & rest, "no file is in both"
    # what a click may import, and no page imports as it starts
    assert "difflib.pyc" in rest
    assert "traitlets/config/application.pyc" in rest
    # what every page imports as it starts
    assert "loo_tutor/widgets/_base.pyc" in starts
    assert "ipywidgets/widgets/widget.pyc" in starts
    # the first zip names every module of the second, for Python to find them before it comes
    modules: dict[str, object] = {}
    exec(named, modules)
    assert modules["MODULES"] == {vendor_pyodide._module_of(name) for name in rest
                                  if name.endswith(".pyc")}


# Starts each live page's Python as a first visit does, in Node, with
# Pyodide and the first zip as the site serves them, the second zip refused:
# prints, per page, why its start failed ("" if it did not).
_STARTS_JS = """
const path = require("path");
const [core, stdlib, pages] = process.argv.slice(2);
(async () => {
  const { loadPyodide } = require(path.join(core, "pyodide.js"));
  const failed = {};
  for (const page of JSON.parse(pages)) {
    const py = await loadPyodide({ indexURL: core + path.sep, stdLibURL: stdlib });
    py.globals.set("page", page);
    failed[page] = py.runPython(`
import loo_live_worker

def refuse(url):
    raise ImportError("it is in the zip served apart")

loo_live_worker.expect_later("later", refuse)
try:
    loo_live_worker.start(page)
    failed = loo_live_worker.imported_early()
except Exception as exc:
    failed = f"{type(exc).__name__}: {exc}"
failed
`);
  }
  console.log(JSON.stringify(failed));
})().catch((error) => { console.error(error); process.exit(1); });
"""


def test_every_live_page_starts_with_the_first_zip_alone(book: Path, tmp_path: Path) -> None:
    # A module a page's start imports that the build left for the zip served
    # apart, or left out, fails that page's start here.
    with _served_zip() as first:
        cells: dict[str, object] = {}
        exec(first.read(f"{vendor_pyodide.CELLS_MODULE}.py").decode(), cells)
    pages = sorted(cells["PAGES"])  # type: ignore[call-overload]
    assert "notebooks/forced-ace" in pages
    stdlib = tmp_path / "python_stdlib.zip"
    stdlib.write_bytes(gzip.decompress((PYODIDE / "python_stdlib.zip.gz").read_bytes()))
    (tmp_path / "starts.js").write_text(_STARTS_JS, encoding="utf-8")
    done = subprocess.run(["node", str(tmp_path / "starts.js"), str(PYODIDE), str(stdlib),
                           json.dumps(pages)], capture_output=True, text=True, check=False,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    failed = json.loads(done.stdout.splitlines()[-1])
    assert set(failed) == set(pages)
    assert not {page: why for page, why in failed.items() if why}


def test_every_module_a_shipped_module_may_import_is_shipped(book: Path) -> None:
    # The zip holds, of loo-tutor and the packages shipped, only the modules
    # the pages' cells imported and those these may import later (a click):
    # a module of theirs left out of the zip that shipped code imports
    # anywhere, even in a function that only a click runs, fails here.
    with _served_zip() as served, _later_zip() as later:
        shipped = {vendor_pyodide._module_of(name) for name in served.namelist() + later.namelist()
                   if name.endswith(".pyc")}
    sources = vendor_pyodide.shipped_sources()
    assert "loo_tutor.widgets" in shipped
    missing = sorted(f"{name} imports {imported}" for name in shipped & set(sources)
                     for imported in vendor_pyodide.imports_of(name, sources[name])
                     if imported in sources and imported not in shipped)
    assert not missing, missing


def test_the_imports_a_module_may_make_are_followed_wherever_they_are(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "from .a import A\n",
        "pkg/a.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.typed\n"
                     "A = 1\ndef on_click():\n    from . import later\n"
                     "    import importlib\n    importlib.import_module('pkg.named')\n"
                     "    from pkg.lazy import Thing\n"),
        "pkg/later.py": "from .sub.deep import X\n", "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "X = 1\n", "pkg/named.py": "", "pkg/typed.py": "", "pkg/unused.py": "",
        "pkg/lazy/__init__.py": "def __getattr__(name):\n    return name\n",
        "pkg/lazy/one.py": "", "pkg/lazy/two.py": "",
    }
    sources = {}
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        parts = name.removesuffix(".py").split("/")
        sources[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    assert vendor_pyodide.import_closure(["pkg"], sources) == {
        "pkg", "pkg.a", "pkg.later", "pkg.sub", "pkg.sub.deep", "pkg.named",
        "pkg.lazy", "pkg.lazy.one", "pkg.lazy.two"}


def test_every_live_page_names_the_saved_memory_of_this_build(book: Path) -> None:
    keys = set()
    for page in HTML.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        if 'data-loo-live="page"' not in text:
            continue
        found = re.search(r'data-worker="[^"]*/_static/live/worker\.js\?v=(\w+)"', text)
        assert found, f"{page.relative_to(HTML)} starts no worker"
        keys.add(found.group(1))
        state = _state(text)["state"]
        assert isinstance(state, dict)
        assert set(_views(text)) <= set(state), f"{page.relative_to(HTML)} shows a widget it lacks"
        assert "from loo_tutor.widgets import" not in text, "the cells' code is not in the page"
    assert len(keys) == 1, keys


def test_the_live_scripts_reach_the_site_even_when_no_page_is_out_of_date(tmp_path: Path) -> None:
    """A build with no page to write skips Sphinx's copy of the static folders; the
    extension still brings the live pages' scripts, rebuilt by ./dev, into the site."""
    live = tmp_path / "book" / "scripts" / loo_live.LIVE_FOLDER
    live.mkdir(parents=True)
    (live / "worker.js").write_text("rebuilt", encoding="utf-8")
    (tmp_path / "book" / "other").mkdir()
    out = tmp_path / "html"
    (out / "_static" / loo_live.LIVE_FOLDER).mkdir(parents=True)
    (out / "_static" / loo_live.LIVE_FOLDER / "worker.js").write_text("stale", encoding="utf-8")
    loo_live.copy_own_assets(tmp_path / "book", ["other", "scripts"], out)
    assert (out / loo_live.WORKER_SCRIPT).read_text(encoding="utf-8") == "rebuilt"
    own = sorted(p.name for p in (ROOT / "_ext" / "static").iterdir())
    assert own and all((out / "_static" / name).is_file() for name in own)


def test_the_worker_is_fetched_again_when_it_or_the_saved_memory_changes() -> None:
    """The version in the worker's address follows both its script and the saved memory:
    a browser that kept the worker of an earlier build fetches this build's."""
    version = loo_live.worker_version("key", b"worker")
    assert re.fullmatch(r"\w+", version) and version == loo_live.worker_version("key", b"worker")
    assert version != loo_live.worker_version("key", b"worker, rebuilt")
    assert version != loo_live.worker_version("another key", b"worker")


BROKEN_PAGE = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# A page for the build's kernel only

```{code-cell}
import ipykernel  # there in the build's kernel, not in the browser's Python
from loo_tutor.records.data import example
from loo_tutor.widgets import DealStepper

DealStepper(example("forced-ace"))
```
"""


def test_a_page_whose_cells_cannot_run_in_the_browser_stays_a_saved_copy_and_the_build_says_why(
        tmp_path: Path) -> None:
    for source in (ROOT / "tests" / "data" / "live").iterdir():
        text = source.read_text(encoding="utf-8")
        text = text.replace("@EXT@", str(ROOT / "_ext")).replace("@VENDOR_JS@", str(ROOT / "_vendor_js"))
        (tmp_path / source.name).write_text(BROKEN_PAGE if source.name == "deal.md" else text,
                                            encoding="utf-8")
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run([str(jupyter_book), "build", str(tmp_path), "-n"], capture_output=True,
                          text=True, env=env, timeout=600, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    assert ("deal: its widgets cannot run in the in-browser Python, so the page stays a saved copy "
            "(<deal.md, code cell 1>: ModuleNotFoundError: No module named 'ipykernel')") in output
    page = (tmp_path / "_build" / "html" / "deal.html").read_text(encoding="utf-8")
    assert "data-worker=" not in page and 'data-loo-live="page"' not in page
    assert "html-manager/embed-amd.js" in page, "the saved page's widget manager draws its widgets"
