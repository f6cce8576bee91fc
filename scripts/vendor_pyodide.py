"""Prepare the Python that runs in the reader's browser, in ``_vendor_pyodide/site/pyodide``.

The live pages of the book run their code cells in the reader's browser, on
Pyodide served by the site itself (never from another host):

* Pyodide's core (``pyodide.js``, the WebAssembly module, the standard
  library) comes from the ``pyodide`` package on npm, release ``PYODIDE``;
* the pure-Python packages the widgets need (ipywidgets, comm, traitlets
  and PyYAML's modules, without its C extension, which PyYAML does without)
  are taken from their installs here, which ``requirements.txt`` pins: the
  browser runs the very code the book is built with, and nothing more is
  downloaded;
* loo-tutor comes from this checkout, and the pages' own Python from
  ``_ext/browser``: the worker's side of the widgets' messages and a small
  stand-in for IPython, which the pages do not run.

Everything is compiled to bytecode by Pyodide itself, running in Node (the
exact Python the browser runs), and added to the standard library's zip,
which Python imports from without unpacking it. So Pyodide loads no package
while a page starts, and the lock file written beside it lists none. Sphinx
copies the folder into the site as ``_static/pyodide`` (``_ext/loo_live.py``).

Each step prints what it does; Pyodide's download and the compiled archives
are cached in ``_vendor_pyodide/`` by content, so after an edit of
``loo_tutor/`` only its archive is compiled again.

When the book is built, :func:`prepare_pages` runs the cells of every live
page in that Python, in Node, and saves its memory (a memory snapshot,
``snapshot.bin.gz``), and writes the standard library's zip the site serves,
cut to the modules the pages import, with the pages' cells. A reader's first
and second visits start Python afresh and run the page's cells; the second
visit's worker then keeps the saved memory, and later visits start Python
from it, with every page's widgets already made (see ``_ext/browser/loo_live_worker.py`` and
``classroom_page/src/live-worker.js``).

Usage::

    python scripts/vendor_pyodide.py            # fetch what is missing, rebuild what changed
    python scripts/vendor_pyodide.py --check    # exit 1 if the folder is out of date
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import gzip
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_vendor_pyodide"
SITE = CACHE / "site"
"""What Sphinx copies into the built site's ``_static``."""
OUT = SITE / "pyodide"
STAMP = CACHE / "state.json"
BROWSER = ROOT / "_ext" / "browser"
PYODIDE = "0.29.5"
"""The Pyodide release (npm); its Python is the one the browser runs."""
PACKAGES = {"traitlets": ("traitlets",), "comm": ("comm",), "ipywidgets": ("ipywidgets",),
            "pyyaml": ("yaml",)}
"""The installed distributions shipped, each with the packages of it that are."""
# The files of Pyodide's npm package that a page loads (pyodide.js from its
# worker, which loads the rest).
CORE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
ARCHIVE_DATE = (2020, 1, 1, 0, 0, 0)
PREPARED = CACHE / "pages"
"""The live pages' widgets made at build time, and the memory snapshot holding them."""
SNAPSHOT = "snapshot.bin.gz"
STDLIB = "python_stdlib.zip"
SERVED_STDLIB = "python_stdlib.zip.gz"
"""The standard library's zip as the site serves it (``_serve_zip``): what a page's start imports."""
SERVED_LATER = "python_later.zip.gz"
"""The rest of what the pages may import (on a click), served apart and fetched once a page is
live (``_serve_zip``, ``loo_live_worker.later``)."""
LATER_MODULE = "loo_live_later"
"""The module of the first zip that names the modules of ``SERVED_LATER`` (``MODULES``)."""
STDLIB_IN_PYODIDE = "/lib/python313.zip"
"""Where Pyodide's Python has the standard library's zip (Python 3.13)."""
KEEP_PREPARED = 3
"""How many sets of prepared pages stay cached (the book's, and the test books')."""


def say(message: str) -> None:
    print(f"in-browser Python: {message}", flush=True)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digest(paths: Iterable[Path], extra: str = "") -> str:
    """One hash over the names and contents of ``paths``."""
    h = hashlib.sha256(extra.encode())
    for path in sorted(paths):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def run(*command: str, cwd: Path | None = None, show: bool = False) -> None:
    """Run a command; on failure show its output and stop. ``show`` passes its output through."""
    done = subprocess.run(command, cwd=cwd, capture_output=not show, text=True, check=False)
    if done.returncode:
        if not show:
            sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"in-browser Python: failed (exit {done.returncode}): {' '.join(command)}")


# -- what is wanted --------------------------------------------------------------

CLASSROOM_PAGES = ROOT / "loo_tutor" / "apps" / "classroom" / "templates"
"""The classroom server's pages, which the browser does not need."""


def package_sources() -> list[Path]:
    """loo-tutor's files (modules and data) as the browser gets them."""
    return sorted(p for p in (ROOT / "loo_tutor").rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
                  and not p.is_relative_to(CLASSROOM_PAGES))


def browser_sources() -> list[Path]:
    return sorted(p for p in BROWSER.rglob("*.py") if "__pycache__" not in p.parts)


def wanted_state() -> dict[str, Any]:
    """Everything the contents of ``OUT`` depend on."""
    return {
        "pyodide": PYODIDE,
        "packages": {name: metadata.version(name) for name in PACKAGES},
        "package": digest(package_sources()),
        "browser": digest(browser_sources()),
        "script": sha256_of(Path(__file__)),
    }


def up_to_date() -> bool:
    if not (STAMP.exists() and (OUT / "pyodide-lock.json").exists()):
        return False
    return bool(json.loads(STAMP.read_text()) == wanted_state())


# -- fetching ----------------------------------------------------------------------

def fetch_core(version: str) -> Path:
    """Pyodide's npm package, unpacked in the cache; returns its folder."""
    folder = CACHE / f"pyodide-{version}"
    if (folder / "pyodide-lock.json").exists():
        return folder
    if shutil.which("npm") is None:
        raise SystemExit("in-browser Python: npm not found; "
                         "it is needed to fetch Pyodide (Node.js 18+)")
    say(f"fetching Pyodide {version} from npm (about 13 MB)")
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        run("npm", "pack", "--silent", f"pyodide@{version}", cwd=Path(tmp))
        (tarball,) = Path(tmp).glob("pyodide-*.tgz")
        with tarfile.open(tarball) as archive:
            archive.extractall(tmp, filter="data")
        shutil.rmtree(folder, ignore_errors=True)
        (Path(tmp) / "package").rename(folder)
    return folder


def installed_archive(name: str, packages: tuple[str, ...]) -> Path:
    """The files of ``packages`` of the installed distribution ``name`` as a zip, cached."""
    dist = metadata.distribution(name)
    files = sorted(Path(str(dist.locate_file(f))) for f in dist.files or []
                   if f.parts[0] in packages and "__pycache__" not in f.parts
                   and f.suffix not in (".pyc", ".so"))
    if not files:
        raise SystemExit(f"in-browser Python: {name} has no files of "
                         f"{', '.join(packages)} installed")
    return folder_archive(name, files, Path(str(dist.locate_file(""))))


def folder_archive(name: str, files: list[Path], base: Path) -> Path:
    """``files`` (paths under ``base``) as a zip in the cache, named by their content."""
    key = hashlib.sha256(b"".join(p.relative_to(base).as_posix().encode() + b"\0" + p.read_bytes()
                                  for p in files)).hexdigest()[:16]
    target = CACHE / "own" / f"{name}-{key}.zip"
    if target.exists():
        return target
    target.parent.mkdir(exist_ok=True)
    for old in target.parent.glob(f"{name}-*.zip"):
        old.unlink()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for path in files:
            out.writestr(zipfile.ZipInfo(path.relative_to(base).as_posix(), ARCHIVE_DATE),
                         path.read_bytes())
    return target


# -- compiling to bytecode ----------------------------------------------------------------

# Python in the browser would compile every module it imports from source,
# on every visit; Pyodide's own package builds ship bytecode, but its npm
# core and PyPI's wheels do not. So each archive is compiled here once, by
# Pyodide running in Node, each .py replaced by its .pyc (unchecked
# hash-based, as the sources are not shipped). Test folders are left out.
_COMPILE_PY = """
import ast
import importlib._bootstrap_external as external
import importlib.util
import json
import zipfile

# Drops the docstrings of modules and functions, which nothing reads at run
# time. A class keeps its own: dataclasses makes a class without one a
# docstring from its signature as the class is made, which costs more than
# it saves.
class _NoDocstrings(ast.NodeTransformer):

    def _drop(self, node):
        body = node.body
        if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
        return node

    def visit_Module(self, node):
        self.generic_visit(node)
        return self._drop(node)

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        return self._drop(node)

    visit_AsyncFunctionDef = visit_FunctionDef


def compiled(data, name, strip):
    source = data
    if strip:
        source = _NoDocstrings().visit(ast.parse(data, name))
    code = compile(source, name, "exec", dont_inherit=True)
    return external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)

jobs = json.load(open("/work/compile-jobs.json"))
for number, (source, target, label, strip) in enumerate(jobs, 1):
    print(f"in-browser Python: compiling {label} to bytecode ({number} of {len(jobs)})", flush=True)
    with zipfile.ZipFile("/work/" + source) as zin, \\
         zipfile.ZipFile("/work/" + target + ".part", "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name = info.filename
            if "/tests/" in "/" + name or info.is_dir():
                continue
            data = zin.read(info)
            if name.endswith(".py") and ".dist-info/" not in name:
                data, name = compiled(data, name, strip), name[:-3] + ".pyc"
            entry = zipfile.ZipInfo(name, info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(entry, data)
"""

_COMPILE_JS = """
const path = require("path");
const [core, work, code] = process.argv.slice(2);
(async () => {
  const { loadPyodide } = require(path.join(core, "pyodide.js"));
  const py = await loadPyodide({ indexURL: core + path.sep });
  py.FS.mkdirTree("/work");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/work");
  await py.runPythonAsync(require("fs").readFileSync(code, "utf8"));
})().catch((error) => { console.error(error); process.exit(1); });
"""


def compile_archives(core: Path, sources: dict[str, Path],
                     strip: Iterable[str] = ()) -> dict[str, Path]:
    """Each archive of ``sources`` (label -> zip) with its modules compiled; cached by content.

    The modules of the archives named in ``strip`` lose the docstrings of
    modules and functions (``_NoDocstrings``): only the archives whose code
    reads none (the standard library runs without any under ``python -OO``).
    """
    strip = set(strip)
    out = CACHE / "compiled"
    out.mkdir(exist_ok=True)

    def key(label: str, src: Path) -> str:
        how = f"{_COMPILE_PY}\0{label in strip}".encode()
        return hashlib.sha256(src.read_bytes() + how).hexdigest()[:16]

    targets = {label: out / f"{key(label, src)}-{src.stem}.zip" for label, src in sources.items()}
    for old in out.glob("*.zip"):  # earlier builds of changed archives
        if old not in targets.values():
            old.unlink()
    jobs = [label for label, target in targets.items() if not target.exists()]
    if jobs:
        if shutil.which("node") is None:
            raise SystemExit("in-browser Python: node not found; it is needed to compile "
                             "the browser's Python to bytecode (Node.js 18+)")
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            staged = []
            for index, label in enumerate(jobs):
                copy = Path(tmp) / f"{index}.zip"
                shutil.copy2(sources[label], copy)
                staged.append([copy.relative_to(CACHE).as_posix(),
                               targets[label].relative_to(CACHE).as_posix(), label,
                               label in strip])
            (CACHE / "compile-jobs.json").write_text(json.dumps(staged))
            (Path(tmp) / "compile.py").write_text(_COMPILE_PY)
            (Path(tmp) / "compile.js").write_text(_COMPILE_JS)
            run("node", str(Path(tmp) / "compile.js"), str(core), str(CACHE),
                str(Path(tmp) / "compile.py"), show=True)
            for label in jobs:
                targets[label].with_name(targets[label].name + ".part").rename(targets[label])
            (CACHE / "compile-jobs.json").unlink()
    return targets


def bundle(stdlib: Path, archives: list[Path]) -> Path:
    """The standard library's zip with the contents of ``archives`` added; cached by content.

    Pyodide imports the standard library straight from its zip, while each
    package it loads is first unpacked, file by file, into its file system;
    Python imports the bundled packages from the zip, reading only the
    modules it needs.
    """
    hashes = b"".join(sha256_of(p).encode() for p in [stdlib, *archives])
    key = hashlib.sha256(hashes).hexdigest()[:16]
    folder = CACHE / "bundle"
    folder.mkdir(exist_ok=True)
    target = folder / f"{key}-python_stdlib.zip"
    if target.exists():
        return target
    for old in folder.iterdir():
        old.unlink()
    part = target.with_name(target.name + ".part")
    seen: set[str] = set()
    with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as zout:
        for source in [stdlib, *archives]:
            with zipfile.ZipFile(source) as zin:
                for info in zin.infolist():
                    if info.filename in seen:
                        raise SystemExit(f"in-browser Python: {info.filename} of {source.name} "
                                         "is already in the standard library's zip")
                    seen.add(info.filename)
                    zout.writestr(info, zin.read(info))
    part.rename(target)
    return target


def write_site(core: Path, stdlib: Path) -> None:
    """Write ``OUT``: Pyodide's core files, the bundled standard library, an empty lock file."""
    tmp = OUT.with_name(OUT.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copy2(stdlib if name == "python_stdlib.zip" else core / name, tmp / name)
    # The release's own lock file, with no package: Pyodide reads it as it
    # starts. In 0.29.5 its "info" has no version, which Pyodide does without.
    info = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    (tmp / "pyodide-lock.json").write_text(json.dumps({"info": info, "packages": {}}),
                                           encoding="utf-8")
    shutil.rmtree(OUT, ignore_errors=True)
    tmp.rename(OUT)
    size = sum(p.stat().st_size for p in OUT.iterdir()) / 1e6
    say(f"ready in {OUT.relative_to(ROOT)}: Pyodide {PYODIDE}, {size:.1f} MB")


def vendor() -> None:
    """Bring ``OUT`` up to date, fetching and compiling only what is missing."""
    if up_to_date():
        return
    CACHE.mkdir(exist_ok=True)
    want = wanted_state()
    core = fetch_core(PYODIDE)
    archives: dict[str, Path] = {"the standard library": core / "python_stdlib.zip"}
    for name, packages in PACKAGES.items():
        archives[f"{name} {want['packages'][name]}"] = installed_archive(name, packages)
    archives["loo-tutor"] = folder_archive("loo_tutor", package_sources(), ROOT)
    archives["the live pages' own modules"] = folder_archive("browser", browser_sources(), BROWSER)
    # ipywidgets fills in class docstrings as it imports (doc_subst): its
    # packages and the other PyPI ones keep theirs.
    compiled = compile_archives(core, archives, strip=("the standard library", "loo-tutor",
                                                       "the live pages' own modules"))
    stdlib = compiled.pop("the standard library")
    write_site(core, bundle(stdlib, list(compiled.values())))
    STAMP.write_text(json.dumps(want, indent=1) + "\n")


# -- the live pages' widgets, made at build time ----------------------------------------

# Runs the live pages' cells in Pyodide (loo_live_worker.prepare), then saves
# Pyodide's memory, compressed: the browser's worker keeps it after a first
# visit and gives it to loadPyodide on the next (Pyodide's private memory
# snapshot options, which the 0.29 releases have; live-worker.js uses them in
# one function and starts Python afresh if they fail). The zip served with it
# holds only what the pages import (_serve_zip); the zip's directory, cached
# in Python's memory, is forgotten first, so that the browser's Python reads
# the directory of the zip it is given.
_PREPARE_JS = """
const path = require("path");
const fs = require("fs");
const zlib = require("zlib");
const [core, work, snapshot] = process.argv.slice(2);
(async () => {
  const { loadPyodide } = require(path.join(core, "pyodide.js"));
  const py = await loadPyodide({ indexURL: core + path.sep, _makeSnapshot: true });
  py.FS.mkdirTree("/prepare");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: work }, "/prepare");
  py.runPython(`
import gc, importlib, loo_live_worker
with open("/prepare/pages.json", encoding="utf-8") as given:
    with open("/prepare/prepared.json", "w", encoding="utf-8") as answer:
        loo_live_worker.prepare(given.read(), answer)
del given, answer
importlib.invalidate_caches()  # the zip's directory is read again from the zip the browser gets
gc.collect()
`);
  py.FS.unmount("/prepare");
  fs.writeFileSync(snapshot, zlib.gzipSync(py.makeMemorySnapshot(), { level: 9 }));
})().catch((error) => { console.error(error); process.exit(1); });
"""


@dataclasses.dataclass(frozen=True)
class Prepared:
    """The live pages' widgets as the build made them in the in-browser Python."""

    key: str
    """Names this set: the snapshot's address carries it, so browsers never mix two builds."""
    snapshot: Path
    """Pyodide's memory with every page's widgets made (gzip)."""
    stdlib: Path
    """The standard library's zip to serve, cut to what the pages' starts import, with their cells
    (gzip)."""
    later: Path
    """The rest of what the pages may import, served apart, fetched once a page is live (gzip)."""
    pages: dict[str, Any]
    """Page name -> ``{"state": widget state, "views": [model id shown by each output]}``."""
    failed: dict[str, str]
    """Page name -> why its cells cannot run in the in-browser Python (the cell, the exception)."""


def prepare_pages(pages: list[dict[str, Any]]) -> Prepared:
    """Run the cells of ``pages`` (``[{"page", "cells"}]``) in the in-browser Python; cached.

    ``vendor()`` must have run. The answer is cached by the pages' cells and
    the in-browser Python they run on.
    """
    given = json.dumps(pages, sort_keys=True)
    key = hashlib.sha256("\0".join([given, STAMP.read_text(), sha256_of(Path(__file__))])
                         .encode()).hexdigest()[:16]
    folder = PREPARED / key
    if not (folder / SNAPSHOT).exists():
        if shutil.which("node") is None:
            raise SystemExit("in-browser Python: node not found; it is needed to make the "
                             "live pages' widgets (Node.js 18+)")
        say(f"making the widgets of {len(pages)} live pages and saving the memory that holds them")
        PREPARED.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=PREPARED, prefix="making-"))
        try:
            (work / "pages.json").write_text(given, encoding="utf-8")
            (work / "prepare.js").write_text(_PREPARE_JS, encoding="utf-8")
            run("node", str(work / "prepare.js"), str(OUT), str(work), str(work / SNAPSHOT))
            made = json.loads((work / "prepared.json").read_text(encoding="utf-8"))
            _serve_zip(OUT / STDLIB, work / SERVED_STDLIB, work / SERVED_LATER, made["imported"],
                       pages, made["tried"])
            (work / "pages.json").unlink()
            (work / "prepare.js").unlink()
            shutil.rmtree(folder, ignore_errors=True)
            work.rename(folder)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        kept = sorted((p for p in PREPARED.iterdir() if p.is_dir() and not p.name.startswith("making-")),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP_PREPARED:]:
            shutil.rmtree(old, ignore_errors=True)
    os.utime(folder)
    prepared = json.loads((folder / "prepared.json").read_text(encoding="utf-8"))
    return Prepared(key, folder / SNAPSHOT, folder / SERVED_STDLIB, folder / SERVED_LATER,
                    prepared["pages"], prepared["failed"])


CELLS_MODULE = "loo_live_cells"
"""The module of the served zip that holds the live pages' cells, for a Python started afresh
(``loo_live_worker.CELLS_MODULE``)."""
# Modules that may be imported after the pages' widgets are made (a click,
# an error shown), besides the modules of the packages shipped, which import_closure finds.
LATER_IMPORTS = ("traceback", "linecache", "tokenize", "token", "textwrap", "difflib",
                 "pprint", "string", "decimal", "_pydecimal", "statistics", "bisect", "heapq")


def shipped_sources() -> dict[str, Path]:
    """Module name -> its source, for every module of the packages shipped (``PACKAGES``,
    loo-tutor, the live pages' own modules), as the compiled archives hold them."""
    found: dict[str, Path] = {}

    def add(path: Path, base: Path) -> None:
        parts = path.relative_to(base).with_suffix("").parts
        if "tests" in parts[:-1]:  # left out when compiled
            return
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    for path in package_sources():
        if path.suffix == ".py":
            add(path, ROOT)
    for path in browser_sources():
        add(path, BROWSER)
    for name, packages in PACKAGES.items():
        dist = metadata.distribution(name)
        base = Path(str(dist.locate_file("")))
        for file in dist.files or []:
            if file.parts[0] in packages and file.suffix == ".py":
                add(Path(str(dist.locate_file(file))), base)
    return found


def _type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``), never run."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imports_of(name: str, path: Path) -> set[str]:
    """The modules the module ``name`` (source ``path``) may import, anywhere in its code.

    Module level or inside a function, absolute or relative; ``from P import N``
    gives both ``P`` and ``P.N``; ``importlib.import_module`` with a constant
    name too. The body of ``if TYPE_CHECKING:`` is left out (it never runs).
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def resolve(module: str | None, level: int) -> str:
        if not level:
            return module or ""
        parts = package.split(".")
        base = parts[:len(parts) - level + 1]
        return ".".join([*base, *([module] if module else [])])

    def walk(node: ast.AST) -> None:
        if _type_checking(node):
            for child in getattr(node, "orelse", []):
                walk(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(node.module, node.level)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and ((isinstance(node.func, ast.Attribute) and node.func.attr == "import_module")
                   or (isinstance(node.func, ast.Name) and node.func.id == "import_module"))):
            given = node.args[0].value
            level = len(given) - len(given.lstrip("."))
            found.add(resolve(given[level:] or None, level) if level else given)
        for child in ast.iter_child_nodes(node):
            walk(child)

    walk(ast.parse(path.read_bytes(), str(path)))
    return found


def import_closure(start: Iterable[str], sources: dict[str, Path]) -> set[str]:
    """The modules of ``sources`` that ``start`` may import, directly or not, ``start`` included.

    A module brings its parent packages. ``from P import N``, where ``N`` is
    no module and ``P`` hands out names from its modules as they are asked
    for (a module ``__getattr__``), brings every module of ``P``.
    """
    lazy = {name for name, path in sources.items() if path.name == "__init__.py"
            and any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
                    for node in ast.parse(path.read_bytes()).body)}
    def with_parents(name: str) -> list[str]:
        parts = name.split(".")
        return [p for p in (".".join(parts[:n]) for n in range(1, len(parts) + 1)) if p in sources]

    wanted: set[str] = set()
    todo = [module for name in start for module in with_parents(name)]
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        wanted.add(name)
        for imported in imports_of(name, sources[name]):
            todo.extend(with_parents(imported))
            parent = imported.rpartition(".")[0]
            if imported not in sources and parent in lazy:
                todo.extend(m for m in sources if m.rpartition(".")[0] == parent)
    return wanted


def _module_of(member: str) -> str:
    """The module a zip member ``a/b.pyc`` or ``a/b/__init__.pyc`` holds (``a.b``)."""
    parts = member.removesuffix(".pyc").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _serve_zip(archive: Path, target: Path, later: Path, imported: list[str],
               pages: list[dict[str, Any]], tried: Iterable[str] = ()) -> None:
    """Write to ``target`` and ``later`` the zips the browser's Python imports from, made from ``archive``.

    Together they hold what the pages need and no more: the modules of the
    standard library Python imported while it made the pages' widgets
    (``imported``: the files imported from zips, as ``archive/member``) and
    those of ``LATER_IMPORTS``; of the packages shipped (``PACKAGES``,
    loo-tutor, the live pages' own modules), the modules imported and every
    module they may import later, on a click (``import_closure``), with the
    data files of their packages; and the module ``CELLS_MODULE``, the cells
    of ``pages``, which a Python started without the saved memory runs.

    ``target`` holds what a page's start needs: the modules imported while
    every page's widgets were made, and those looked for then but not
    imported (``tried``: PyYAML tries its C extension's module, which fails
    in the browser, where a start would otherwise fetch ``later`` to find
    it), the data files of the packages they are in, ``CELLS_MODULE``, and
    ``LATER_MODULE``, which names the modules of ``later``: all the rest,
    which the worker fetches once the page is live (and Python fetches at
    once if it imports one of them before that).

    The zip's members are stored, not compressed, and the zip is written
    gzipped (``target``, a ``.gz``), which the worker unpacks as it arrives:
    compressed whole, the modules share their names and words and the zip is
    smaller, and Python reads each module without inflating it.
    """
    prefix = STDLIB_IN_PYODIDE + "/"
    used = {name[len(prefix):] for name in imported if name.startswith(prefix)}
    if not used:
        raise SystemExit(f"in-browser Python: no module was imported from {STDLIB_IN_PYODIDE}")
    sources = shipped_sources()
    wanted = import_closure((_module_of(name) for name in used if name.endswith(".pyc")), sources)
    whole = {package for packages in PACKAGES.values() for package in packages}
    whole |= {"loo_tutor", *(p.relative_to(BROWSER).parts[0].removesuffix(".py")
                             for p in browser_sources())}
    later_files = {f"{name}.pyc" for name in LATER_IMPORTS}
    cells = {page["page"]: page["cells"] for page in pages}

    def shipped(member: str) -> bool:
        if member.endswith(".pyc"):
            return _module_of(member) in wanted
        folder = member.split("/")[:-1]  # a data file: kept with the package that holds it
        while folder and ".".join(folder) not in sources:
            folder.pop()
        return ".".join(folder) in wanted

    started = {_module_of(name) for name in used if name.endswith(".pyc")}
    looked_for = set(tried)

    def at_start(member: str) -> bool:
        if member.endswith(".pyc"):
            return member in used or _module_of(member) in looked_for
        folder = member.split("/")[:-1]  # a data file: with the package that holds it
        while folder and ".".join(folder) not in sources:
            folder.pop()
        return ".".join(folder) in started

    first, rest = io.BytesIO(), io.BytesIO()
    modules: list[str] = []
    with (zipfile.ZipFile(archive) as zin, zipfile.ZipFile(first, "w", zipfile.ZIP_STORED) as zfirst,
          zipfile.ZipFile(rest, "w", zipfile.ZIP_STORED) as zrest):
        for info in zin.infolist():
            top = info.filename.split("/")[0].removesuffix(".pyc")
            if (info.filename in used or info.filename in later_files
                    or (top in whole and shipped(info.filename))):
                start = at_start(info.filename)
                if not start and info.filename.endswith(".pyc"):
                    modules.append(_module_of(info.filename))
                (zfirst if start else zrest).writestr(zipfile.ZipInfo(info.filename, info.date_time),
                                                      zin.read(info))
        zfirst.writestr(zipfile.ZipInfo(f"{CELLS_MODULE}.py", ARCHIVE_DATE), f"PAGES = {cells!r}\n")
        zfirst.writestr(zipfile.ZipInfo(f"{LATER_MODULE}.py", ARCHIVE_DATE),
                        f"MODULES = frozenset({sorted(modules)!r})\n")
    target.write_bytes(gzip.compress(first.getvalue(), compresslevel=9, mtime=0))
    later.write_bytes(gzip.compress(rest.getvalue(), compresslevel=9, mtime=0))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only say whether the in-browser Python is up to date "
                             "(exit 1 if not)")
    args = parser.parse_args(argv)
    if args.check:
        return 0 if up_to_date() else 1
    vendor()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
