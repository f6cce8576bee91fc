"""Start the Pyodide kernel of each Voici app page while the app is still loading.

Measured on a warm visit to a live page (benchmarks/browser.py), the app's
own JavaScript keeps the page's thread busy for about 1.3 s before it creates
the kernel; the kernel's worker then starts Python and imports the kernel
(about 1.2 s more), while the page's thread waits. The two do not depend on
each other, and a worker runs on another processor core, so the built site
is changed after ``jupyter lite build`` to run them side by side:

* every app page gets ``_ext/loo_kernel_early.js`` inline at the top of its
  ``<head>``, which creates the kernel's worker at once, with the options the
  kernel would give it and the modules the notebook imports;
* the worker (``WORKER_WRAP``) starts Python as soon as it is created with
  those options, imports the notebook's modules, and answers the kernel's
  own start request by waiting for that start instead of starting again;
* the kernel (``ADOPT``) takes the waiting worker instead of creating one,
  when its settings are the ones the worker was started with.

The kernel's code is minified JavaScript from jupyterlite-pyodide-kernel;
each edit is found by a pattern that must match exactly once, so a release
that changes the code stops the build with a clear message instead of
shipping a site that silently starts Python twice.
"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from jupyter_core.paths import jupyter_path

ROOT = Path(__file__).resolve().parent.parent
EARLY_JS = ROOT / "_ext" / "loo_kernel_early.js"
KERNEL_EXTENSION = Path("extensions") / "@jupyterlite" / "pyodide-kernel-extension" / "static"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
MARK = "loo-tutor: early kernel"

# The kernel class creates its worker in initWorker: one script when the page
# is cross-origin isolated, another (the one the site uses) when it is not.
INIT_WORKER = re.compile(r"initWorker\((?P<arg>[\w$]+)\)\{return crossOriginIsolated\?")
WORKER_CHUNK = re.compile(
    r"crossOriginIsolated\?new Worker\(new URL\([\w$]+\.p\+[\w$]+\.u\(\d+\),[\w$]+\.b\),\{type:void 0\}\)"
    r":new Worker\(new URL\([\w$]+\.p\+[\w$]+\.u\((?P<chunk>\d+)\),[\w$]+\.b\)")
ADOPT = ("initWorker({arg}){{/*@STAMP@ (scripts/early_kernel.py)*/"
         "const looWorker=self.__looAdoptWorker&&self.__looAdoptWorker({arg});"
         "if(looWorker)return looWorker;return crossOriginIsolated?")
# The worker script ends by making its kernel object and exposing it to the
# page (Comlink's expose): ``X=new Kernel;expose(X)}``.
EXPOSE = re.compile(r"(?P<obj>[\w$]+)=new (?P<cls>[\w$]+);(?P<expose>[\w$]+)\((?P=obj)\)\}")
# Wrapped around that kernel object: its initialize (load Pyodide, start the
# kernel) runs once, at once when the page named the worker "loo-prestart
# {options}", and then imports the notebook's modules (looImports); the
# kernel's own call later waits for that start, keeping the kernel's options.
# Pyodide then loads only the packages of looLoad: the others the kernel
# names are metadata-only entries of the lock file, whose code is in the
# standard library's zip (scripts/vendor_pyodide.py), and unpacking them took
# a fifth of Pyodide's start.
WORKER_WRAP = """((kernel)=>{/*@STAMP@ (scripts/early_kernel.py)*/
const runtime=kernel.initRuntime.bind(kernel);
kernel.initRuntime=function(options){const load=options.looLoad;return runtime(load?
{...options,loadPyodideOptions:{...options.loadPyodideOptions,packages:load}}:options)};
const start=kernel.initialize.bind(kernel);let started=null;
kernel.initialize=function(options){
if(started){kernel._options=options;return started}
started=start(options).then(()=>{for(const name of options.looImports||[]){
try{kernel._pyodide.pyimport(name).destroy()}catch(err){}}});
return started};
const tag="loo-prestart ";
if(self.name.startsWith(tag))kernel.initialize(JSON.parse(self.name.slice(tag.length))).catch(()=>{});
return kernel})""".replace("\n", "")
# Which version of these edits a script carries: a script edited by an older
# build is edited again from the kernel extension's own copy.
STAMP = f"{MARK} {hashlib.sha256((ADOPT + WORKER_WRAP).encode()).hexdigest()[:12]}"
ADOPT = ADOPT.replace("@STAMP@", STAMP)
WORKER_WRAP = WORKER_WRAP.replace("@STAMP@", STAMP)
EARLY_TAG = re.compile(r'<script data-loo-kernel-early[^>]*>.*?</script>\n?', re.DOTALL)
CHARSET = '<meta charset="utf-8" />\n'
CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                    re.DOTALL)


def _fail(message: str) -> SystemExit:
    return SystemExit(f"early_kernel: {message}; has jupyterlite-pyodide-kernel changed?")


def _unedited(script: Path) -> Path:
    """The kernel extension's own copy of ``script``, from which ``jupyter lite build`` copied it."""
    for root in jupyter_path("labextensions"):
        copy = Path(root) / KERNEL_EXTENSION.relative_to("extensions") / script.name
        if copy.is_file():
            return copy
    raise _fail(f"{script.name} carries an older edit and the kernel extension's own copy of it "
                "is not installed")


def _edit_once(script: Path, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str],
               what: str) -> str:
    """Make one edit in ``script`` unless this version of it is made; returns the script's text."""
    text = script.read_text(encoding="utf-8")
    if STAMP in text:
        return text
    if MARK in text:
        text = _unedited(script).read_text(encoding="utf-8")
    found = len(pattern.findall(text))
    if found != 1:
        raise _fail(f"expected {what} once in {script.name}, found it {found} times")
    text = pattern.sub(replace, text)
    script.write_text(text, encoding="utf-8")
    return text


def patch_kernel(static: Path) -> Path:
    """Make the kernel adopt an early worker and the worker start early; returns the worker script."""
    kernels = [p for p in static.glob("*.js") if "initWorker(" in p.read_text(encoding="utf-8")]
    if len(kernels) != 1:
        raise _fail(f"expected the kernel class in one script of {static}, found {len(kernels)}")
    text = _edit_once(kernels[0], INIT_WORKER, lambda m: ADOPT.format(arg=m["arg"]),
                      "the kernel's initWorker")
    chunk = WORKER_CHUNK.search(text)
    workers = list(static.glob(f"{chunk['chunk']}.*.js")) if chunk else []
    if len(workers) != 1:
        raise _fail(f"cannot tell which script of {static} is the kernel's worker")
    _edit_once(workers[0], EXPOSE,
               lambda m: f"{m['obj']}=new {m['cls']};{m['expose']}({WORKER_WRAP}({m['obj']}))}}",
               "the kernel object exposed")
    return workers[0]


def notebook_imports(notebook: dict[str, Any]) -> list[str]:
    """The modules a notebook's code cells import at their top level, in order."""
    names: list[str] = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        try:
            tree = ast.parse("".join(source) if isinstance(source, list) else source)
        except SyntaxError:  # IPython syntax (magics): nothing to import early
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):
                names += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.append(node.module)
    return list(dict.fromkeys(names))


def packages_with_code(packages: list[str], lock_file: Path) -> list[str] | None:
    """Those of ``packages`` that the lock file gives modules to import; None without a lock file."""
    if not lock_file.exists():
        return None
    lock = json.loads(lock_file.read_text(encoding="utf-8"))["packages"]
    return [name for name in packages
            if lock.get(re.sub(r"[-_.]+", "-", name).lower(), {}).get("imports")]


def _options(config: dict[str, Any], page: Path, lite: Path) -> dict[str, Any]:
    """The worker's start options for one app page, addresses relative to the page."""
    settings = config["litePluginSettings"][KERNEL_PLUGIN]
    load = settings.get("loadPyodideOptions", {})
    lock_file = (page.parent / settings["pyodideUrl"]).parent / "pyodide-lock.json"
    all_json = os.path.relpath(lite / KERNEL_EXTENSION / "pypi" / "all.json", page.parent)
    folder = Path(config.get("notebookPath", "")).parent.as_posix()
    notebook = config.get("notebookSrc") or {}
    options: dict[str, Any] = {
        "pyodideUrl": settings["pyodideUrl"],
        "baseUrl": config["baseUrl"],
        "pipliteUrls": [*settings.get("pipliteUrls", []), Path(all_json).as_posix()],
        "disablePyPIFallback": bool(settings.get("disablePyPIFallback", False)),
        "loadPyodideOptions": load,
        "location": "" if folder == "." else folder,
        "mountDrive": False,
        "looImports": notebook_imports(json.loads(notebook) if isinstance(notebook, str) else notebook),
    }
    with_code = packages_with_code(load.get("packages", []), lock_file)
    if with_code is not None:
        options["looLoad"] = with_code
    return options


def add_early_start(page: Path, lite: Path, worker: Path) -> None:
    """Write the early start script (again) at the top of an app page's ``<head>``."""
    text = EARLY_TAG.sub("", page.read_text(encoding="utf-8"))
    found = CONFIG.search(text)
    if found is None or text.count(CHARSET) != 1:
        raise _fail(f"{page} has no page config or charset tag where expected")
    config = json.loads(found.group(1))
    options = _options(config, page, lite)
    hash_ = worker.name.split(".")[1]
    url = f"{Path(os.path.relpath(worker, page.parent)).as_posix()}?v={hash_}"
    tag = (f'<script data-loo-kernel-early data-worker="{html.escape(url)}" '
           f'data-options="{html.escape(json.dumps(options))}">\n'
           f'{EARLY_JS.read_text(encoding="utf-8")}</script>\n')
    page.write_text(text.replace(CHARSET, CHARSET + tag, 1), encoding="utf-8")


def apply(lite: Path) -> None:
    """Patch the kernel and every Voici app page of the JupyterLite site ``lite``."""
    static = lite / KERNEL_EXTENSION
    pages = [p for p in (lite / "voici" / "render").rglob("*.html")] if (lite / "voici").is_dir() else []
    if not pages or not static.is_dir():
        return
    worker = patch_kernel(static)
    for page in pages:
        add_early_start(page, lite, worker)
