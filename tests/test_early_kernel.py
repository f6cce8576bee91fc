"""The build starts each app page's Python while the app loads (scripts/early_kernel.py).

The edits to the kernel's minified JavaScript are checked on small stand-ins
(made once, made again without change, refused when the code is not as
expected) and on the kernel extension installed here, whose patched scripts
must still parse; the app pages get the early start script once, with the
modules their notebook imports.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))

import early_kernel

KERNEL_JS = ("class S{constructor(e){this._worker=this.initWorker(e)}"
             "initWorker(e){return crossOriginIsolated?new Worker(new URL(n.p+n.u(620),n.b),"
             "{type:void 0}):new Worker(new URL(n.p+n.u(352),n.b),{type:void 0})}}")
WORKER_JS = "(()=>{var m={352:()=>{class K{};Mu=new K;Nt(Mu)},476:e=>{}};})();"
INSTALLED = (Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyterlite"
             / "pyodide-kernel-extension" / "static")


def _static(static: Path, kernel: str = KERNEL_JS, worker: str = WORKER_JS) -> Path:
    static.mkdir(parents=True)
    (static / "872.aaaa.js").write_text(kernel, encoding="utf-8")
    (static / "352.bbbb.js").write_text(worker, encoding="utf-8")
    (static / "620.cccc.js").write_text("isolated worker", encoding="utf-8")
    return static


def test_the_kernel_adopts_the_early_worker_and_the_worker_starts_at_once(tmp_path: Path) -> None:
    static = _static(tmp_path / "static")
    worker = early_kernel.patch_kernel(static)
    assert worker == static / "352.bbbb.js"
    kernel = (static / "872.aaaa.js").read_text(encoding="utf-8")
    assert kernel.count("self.__looAdoptWorker(e)") == 1
    assert "if(looWorker)return looWorker;return crossOriginIsolated?new Worker" in kernel
    started = worker.read_text(encoding="utf-8")
    assert started.count('self.name.startsWith(tag)') == 1
    assert "packages:load" in started and "options.looImports" in started
    assert re.search(r"Mu=new K;Nt\(\(\(kernel\)=>\{.*\}\)\(Mu\)\)\}", started)

    before = {p.name: p.read_text(encoding="utf-8") for p in static.iterdir()}
    assert early_kernel.patch_kernel(static) == worker  # a second build changes nothing
    assert {p.name: p.read_text(encoding="utf-8") for p in static.iterdir()} == before


@pytest.mark.parametrize(("kernel", "worker"), [
    (KERNEL_JS.replace("crossOriginIsolated?", "isolated?"), WORKER_JS),
    (KERNEL_JS.replace("n.u(352)", "n.u(353)"), WORKER_JS),
    (KERNEL_JS, WORKER_JS.replace("Nt(Mu)}", "Nt(Mu)};Xa=new K;Nt(Xa)}")),
    (KERNEL_JS, WORKER_JS.replace("Nt(Mu)", "expose(other)")),
])
def test_kernel_code_not_as_expected_stops_the_build(tmp_path: Path, kernel: str,
                                                      worker: str) -> None:
    with pytest.raises(SystemExit, match="has jupyterlite-pyodide-kernel changed"):
        early_kernel.patch_kernel(_static(tmp_path / "static", kernel, worker))


def test_an_older_edit_without_the_extensions_own_copy_stops_the_build(tmp_path: Path) -> None:
    static = _static(tmp_path / "static", KERNEL_JS.replace(
        "initWorker(e){", "initWorker(e){/*" + early_kernel.MARK + " older*/"))
    with pytest.raises(SystemExit, match="older edit"):
        early_kernel.patch_kernel(static)


def test_the_installed_kernel_extension_is_patched_into_valid_scripts(tmp_path: Path) -> None:
    if not INSTALLED.is_dir():
        pytest.fail(f"{INSTALLED} is missing: install requirements.txt (./dev does)")
    static = tmp_path / "static"
    shutil.copytree(INSTALLED, static, ignore=shutil.ignore_patterns("*.map", "pypi", "schema"))
    worker = early_kernel.patch_kernel(static)
    patched = [p for p in static.glob("*.js") if early_kernel.MARK in p.read_text(encoding="utf-8")]
    assert len(patched) == 2 and worker in patched  # the kernel class and its worker
    # A site edited by an older version of the edits is edited again from the
    # extension's own copy, not edited twice.
    for script in patched:
        script.write_text(script.read_text(encoding="utf-8").replace(
            early_kernel.STAMP, early_kernel.MARK + " older"), encoding="utf-8")
    assert early_kernel.patch_kernel(static) == worker
    for script in patched:
        text = script.read_text(encoding="utf-8")
        assert text.count(early_kernel.STAMP) == 1 and early_kernel.MARK + " older" not in text
    if shutil.which("node") is None:
        pytest.fail("node is missing; the site's build needs it too (Node.js 18+)")
    for script in patched:
        checked = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True,
                                 check=False)
        assert checked.returncode == 0, f"{script.name}: {checked.stderr}"


def test_notebook_imports_are_the_top_level_imports_of_code_cells() -> None:
    notebook = {"cells": [
        {"cell_type": "markdown", "source": "import not_code"},
        {"cell_type": "code", "source": ["from loo_tutor.data import example\n",
                                         "from loo_tutor.widgets import PlayTrainer\n",
                                         "import json, os.path as p\n",
                                         "def f():\n", "    import inside_function\n"]},
        {"cell_type": "code", "source": "%pip install nothing\nimport after_magic"},
        {"cell_type": "code", "source": "from . import relative\nfrom loo_tutor.data import x"},
    ]}
    assert early_kernel.notebook_imports(notebook) == [
        "loo_tutor.data", "loo_tutor.widgets", "json", "os.path"]


def _app_page(lite: Path) -> Path:
    """A JupyterLite site with the kernel's two scripts and one app page; returns the page."""
    _static(lite / early_kernel.KERNEL_EXTENSION)
    config = {
        "baseUrl": "../../../",
        "notebookPath": "notebooks/demo.ipynb",
        "notebookSrc": {"cells": [{"cell_type": "code", "source": "import loo_tutor.widgets"}]},
        "litePluginSettings": {early_kernel.KERNEL_PLUGIN: {
            "pyodideUrl": "../../../static/pyodide/pyodide.js", "disablePyPIFallback": True,
            "loadPyodideOptions": {"packages": ["ipython", "loo-tutor"]}}},
    }
    lock = {"packages": {"ipython": {"imports": []}, "loo-tutor": {"imports": ["loo_tutor"]}}}
    (lite / "static" / "pyodide").mkdir(parents=True)
    (lite / "static" / "pyodide" / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    page = lite / "voici" / "render" / "notebooks" / "demo.html"
    page.parent.mkdir(parents=True)
    page.write_text('<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8" />\n'
                    '<title>demo</title></head><body>\n'
                    '<script id="jupyter-config-data" type="application/json">'
                    f"{json.dumps(config)}</script>\n</body></html>\n", encoding="utf-8")
    return page


def test_app_pages_start_the_kernel_first_thing_in_their_head(tmp_path: Path) -> None:
    lite = tmp_path / "lite"
    page = _app_page(lite)

    early_kernel.apply(lite)
    early_kernel.apply(lite)  # a second build leaves one script, not two
    text = page.read_text(encoding="utf-8")
    assert text.count("<script data-loo-kernel-early") == 1
    assert text.index("<script data-loo-kernel-early") < text.index("<title>")
    tag = re.search(r'<script data-loo-kernel-early data-worker="([^"]*)" data-options="([^"]*)">',
                    text)
    assert tag is not None
    assert tag.group(1) == ("../../../extensions/@jupyterlite/pyodide-kernel-extension/static/"
                            "352.bbbb.js?v=bbbb")
    options = json.loads(html.unescape(tag.group(2)))
    assert options["pyodideUrl"] == "../../../static/pyodide/pyodide.js"
    assert options["loadPyodideOptions"] == {"packages": ["ipython", "loo-tutor"]}
    assert options["disablePyPIFallback"] is True and options["mountDrive"] is False
    assert options["looImports"] == ["loo_tutor.widgets"]
    assert options["location"] == "notebooks"
    assert options["looLoad"] == ["loo-tutor"]  # ipython's code is in the standard library's zip
    assert early_kernel.EARLY_JS.read_text(encoding="utf-8") in text


def test_a_page_without_its_config_stops_the_build(tmp_path: Path) -> None:
    lite = tmp_path / "lite"
    page = _app_page(lite)
    page.write_text(page.read_text(encoding="utf-8").replace("jupyter-config-data", "other"),
                    encoding="utf-8")
    with pytest.raises(SystemExit, match="no page config"):
        early_kernel.apply(lite)


def test_without_a_lock_file_pyodide_loads_every_package_the_kernel_names(tmp_path: Path) -> None:
    lite = tmp_path / "lite"
    page = _app_page(lite)
    (lite / "static" / "pyodide" / "pyodide-lock.json").unlink()
    early_kernel.apply(lite)
    tag = re.search(r'data-options="([^"]*)"', page.read_text(encoding="utf-8"))
    assert tag is not None
    options = json.loads(html.unescape(tag.group(1)))
    assert "looLoad" not in options and options["loadPyodideOptions"]["packages"] == ["ipython", "loo-tutor"]
