"""Put Pyodide and every wheel the in-browser Python needs into ``lite/static/pyodide``.

The built site must not load anything from another host, so the Python that
runs in the reader's browser is served by the site itself:

* Pyodide's core (``pyodide.js``, the WebAssembly module, the standard
  library) comes from the ``pyodide`` package on npm, in the version that the
  installed ``jupyterlite-pyodide-kernel`` expects;
* the pure-Python wheels that the kernel boots with (IPython, jedi and their
  dependencies) come from PyPI, in the versions Pyodide's lock file names;
* the kernel's own wheels (pyodide-kernel and its ipykernel shim) come from
  the installed kernel extension; piplite and micropip, which an app page
  never uses, are replaced by small stand-ins, and IPython imports its
  terminal front end only when asked for it (see ``PATCHES``);
* ipywidgets and comm come from PyPI in the versions installed here, PyYAML
  is built from its source release without the C extension, and loo-tutor is
  ``pip wheel``-ed from this checkout.

Everything, loo-tutor included, is compiled to bytecode and added to the
standard library's zip, which Python imports from without unpacking it (see
``bundle``). Pyodide's lock file is then rewritten to list a metadata-only
entry for each package the kernel asks for by name, with their own sha256:
Pyodide loads no wheel at all. Every package that ``lite/jupyter-lite.json``
lists under ``loadPyodideOptions.packages`` is loaded while Pyodide starts,
so the notebooks need no install cell: ``import loo_tutor`` just works.

``jupyter lite build`` (run by jupyterlite-sphinx during the book build)
copies ``lite/static/pyodide`` into the site. Everything here is generated
and git-ignored; downloads are cached in ``_vendor_lite/``.

Usage::

    python scripts/vendor_pyodide.py            # fetch what is missing, rebuild what changed
    python scripts/vendor_pyodide.py --check    # exit 1 if lite/static/pyodide is out of date

``trim_site`` is used by the book build (``_ext/loo_live.py``) to drop what
the app view never loads from the built site.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable, Iterator
from functools import partial
from importlib import metadata
from pathlib import Path
from typing import Any

import early_kernel

ROOT = Path(__file__).resolve().parent.parent
LITE = ROOT / "lite"
LITE_JSON = LITE / "jupyter-lite.json"
OUT = LITE / "static" / "pyodide"
CACHE = ROOT / "_vendor_lite"
STAMP = CACHE / "state.json"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

# The files of Pyodide's npm package that the browser loads.
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
              "python_stdlib.zip", "package.json")
# Packages the kernel insists on installing while it starts but that an app
# never uses; an empty stand-in (metadata only) is shipped for each, so
# ``import`` of them fails as IPython expects when they are absent:
# sqlite3 is built for WebAssembly and on neither npm nor PyPI (IPython then
# keeps no history), and jedi (1.7 MB with parso) only completes code.
# micropip (with its copy of packaging, about 0.3 s to import in the
# browser) is only imported by piplite, which is replaced below; and
# prompt_toolkit with wcwidth (0.75 MB) only by IPython's terminal front end,
# which the kernel never starts (see PATCHES).
# Other WebAssembly-only dependencies (matplotlib for matplotlib-inline) are
# dropped from the lock file.
STUBS = {"sqlite3", "jedi", "micropip", "prompt-toolkit", "wcwidth"}
# The kernel imports piplite (the %pip shim over micropip) as it starts, only
# to store two settings in it. An app page never installs anything, and with
# PyPI switched off there would be nothing to install that is not already
# loaded, so a stand-in that keeps the settings and refuses to install is
# shipped instead.
PIPLITE = "piplite"
PIPLITE_STANDIN = {
    "piplite/__init__.py": '''"""Stand-in for piplite on the loo-tutor site: every package is loaded at start."""

from .piplite import install

__all__ = ["install"]
''',
    "piplite/piplite.py": '''"""Stand-in for piplite: keeps the kernel's settings, installs nothing."""

_PIPLITE_URLS: list[str] = []
_PIPLITE_DISABLE_PYPI = True


async def install(*args: object, **kwargs: object) -> None:
    """Refuse: this site ships no package installer."""
    raise RuntimeError("packages cannot be installed here: loo-tutor and everything it "
                       "needs are already loaded")
''',
}
# Source edits to third-party wheels, made before they are compiled.
# IPython's package imports its terminal front end (prompt_toolkit and the
# debugger, about half of the time the kernel takes to import) only to offer
# IPython.embed(); the kernel never calls it, so it is imported on first use.
LAZY_EMBED = '''def embed(*args, **kwargs):  # loo-tutor: the terminal front end is imported on first use
    from .terminal.embed import embed as _embed
    return _embed(*args, **kwargs)
'''
PATCHES = {
    "ipython": [("IPython/__init__.py", "from .terminal.embed import embed\n", LAZY_EMBED)],
}
# loo-tutor and PyYAML: the package names used in the lock file.
OWN = "loo-tutor"
PYYAML = "pyyaml"


def say(message: str) -> None:
    print(f"vendor_pyodide: {message}", flush=True)


def canonical(name: str) -> str:
    """A package name as Pyodide's lock file keys it (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digest(paths: Iterable[Path], extra: str = "") -> str:
    """One hash over the names and contents of ``paths``."""
    h = hashlib.sha256(extra.encode())
    for path in sorted(paths):
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def run(*command: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    """Run a command quietly; on failure show its output and stop."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"vendor_pyodide: failed (exit {done.returncode}): {' '.join(command)}")


def pip(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    run(sys.executable, "-m", "pip", "--disable-pip-version-check", *args, cwd=cwd, env=env)


# -- what is wanted --------------------------------------------------------------

def kernel_settings() -> dict[str, Any]:
    """The Pyodide kernel's settings in ``lite/jupyter-lite.json``."""
    config = json.loads(LITE_JSON.read_text(encoding="utf-8"))
    settings: dict[str, Any] = config["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    return settings


def preloaded() -> list[str]:
    """The packages Pyodide loads while it starts (``loadPyodideOptions.packages``)."""
    return list(kernel_settings()["loadPyodideOptions"]["packages"])


def pyodide_version() -> str:
    """The Pyodide release the installed kernel was made for."""
    constants = importlib.import_module("jupyterlite_pyodide_kernel.constants")
    return str(constants.PYODIDE_VERSION)


def kernel_wheels() -> list[Path]:
    """piplite, pyodide-kernel and the ipykernel shim, from the installed kernel extension."""
    share = Path(sys.prefix) / "share" / "jupyter" / "labextensions"
    pypi = share / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    wheels = [w for w in sorted(pypi.glob("*.whl")) if not w.name.startswith("widgetsnbextension")]
    if not wheels:
        raise SystemExit(f"vendor_pyodide: no kernel wheels in {pypi}; is jupyterlite-pyodide-kernel installed?")
    return wheels


def installed(name: str) -> str:
    """The version of ``name`` installed here (its browser copy matches it)."""
    return metadata.version(name)


def package_sources() -> list[Path]:
    """The files that make up the loo-tutor wheel."""
    files = [ROOT / "pyproject.toml", ROOT / "README.md"]
    files += [p for p in (ROOT / "loo_tutor").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
              and "classroom_templates" not in p.parts]  # the classroom server's pages
    return files


def wanted_state() -> dict[str, Any]:
    """Everything the contents of ``lite/static/pyodide`` depend on."""
    return {
        "pyodide": pyodide_version(),
        "preloaded": preloaded(),
        "ipywidgets": installed("ipywidgets"),
        "comm": installed("comm"),
        "pyyaml": installed("pyyaml"),
        "kernel_wheels": [w.name for w in kernel_wheels()],
        "package": digest(package_sources()),
        "script": sha256_of(Path(__file__)),
    }


# -- fetching ----------------------------------------------------------------------

def fetch_core(version: str) -> Path:
    """Pyodide's npm package, unpacked in the cache; returns its folder."""
    folder = CACHE / f"pyodide-{version}"
    if (folder / "pyodide-lock.json").exists():
        return folder
    if shutil.which("npm") is None:
        raise SystemExit("vendor_pyodide: npm not found; it is needed to fetch Pyodide (Node.js 18+)")
    say(f"fetching pyodide@{version} from npm")
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        run("npm", "pack", "--silent", f"pyodide@{version}", cwd=Path(tmp))
        (tarball,) = Path(tmp).glob("pyodide-*.tgz")
        with tarfile.open(tarball) as archive:
            archive.extractall(tmp, filter="data")
        shutil.rmtree(folder, ignore_errors=True)
        (Path(tmp) / "package").rename(folder)
    return folder


def closure(lock: dict[str, Any], names: Iterable[str]) -> list[str]:
    """``names`` and what they depend on in the lock file, as far as it can be shipped.

    A dependency built for WebAssembly (matplotlib for matplotlib-inline) is
    left out, with everything only it needs, unless it is one of ``STUBS``.
    """
    seen: list[str] = []
    todo = [canonical(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen or name not in lock:
            continue
        entry = lock[name]
        if "file_name" in entry and not is_pure(entry["file_name"]) and name not in STUBS:
            continue
        seen.append(name)
        if name not in STUBS:
            todo.extend(canonical(d) for d in entry["depends"])
    return sorted(seen)


def is_pure(file_name: str) -> bool:
    return file_name.endswith("-none-any.whl")


def fetch_pypi(requirements: list[str], folder: Path) -> None:
    """Download pure-Python wheels, exactly pinned, for the browser's Python."""
    have = {w.name for w in folder.glob("*.whl")}
    missing = [r for r in requirements if not any(_wheel_matches(w, r) for w in have)]
    if not missing:
        return
    say(f"fetching {len(missing)} wheels from PyPI")
    pip("download", "--no-deps", "--only-binary=:all:", "--platform", "any",
        "--python-version", "3.13", "--implementation", "py", "--abi", "none",
        "--dest", str(folder), *missing)


def _wheel_matches(wheel: str, requirement: str) -> bool:
    name, version = requirement.split("==")
    parts = wheel.split("-")
    return canonical(parts[0]) == canonical(name) and parts[1] == version


def build_pyyaml(version: str, folder: Path) -> Path:
    """PyYAML as a pure-Python wheel, built from its source release."""
    done = [w for w in folder.glob("*.whl") if _wheel_matches(w.name, f"pyyaml=={version}")]
    if done:
        return done[0]
    say(f"building a pure-Python wheel of PyYAML {version}")
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        pip("download", "--no-deps", "--no-binary=:all:", f"pyyaml=={version}", "--dest", tmp)
        (sdist,) = Path(tmp).glob("*.tar.gz")
        # Without libyaml the build has no C extension and the wheel is py3-none-any.
        env = dict(os.environ, PYYAML_FORCE_LIBYAML="0")
        pip("wheel", "--no-deps", str(sdist), "--wheel-dir", str(folder), env=env)
    (wheel,) = [w for w in folder.glob("*.whl") if _wheel_matches(w.name, f"pyyaml=={version}")]
    if not is_pure(wheel.name):
        raise SystemExit(f"vendor_pyodide: expected a pure-Python PyYAML wheel, got {wheel.name}")
    return wheel


def build_own_wheel(folder: Path) -> Path:
    """``pip wheel --no-deps`` of this checkout, built from a copy so no build/ is left here."""
    for old in folder.glob("loo_tutor-*.whl"):
        old.unlink()
    say("building the loo-tutor wheel")
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for path in package_sources():
            target = src / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
        # Without setup.py in the copy the build is pure Python even when
        # LOO_TUTOR_COMPILE is set: the browser cannot load compiled modules.
        pip("wheel", "--no-deps", ".", "--wheel-dir", str(folder), cwd=src)
    (wheel,) = folder.glob("loo_tutor-*.whl")
    if not is_pure(wheel.name):
        raise SystemExit(f"vendor_pyodide: expected a pure-Python loo-tutor wheel, got {wheel.name}")
    return wheel


def stub_wheel(name: str, version: str, folder: Path, modules: dict[str, str] | None = None) -> Path:
    """A wheel standing in for a package: metadata only, or the given ``modules``."""
    dist = canonical(name).replace("-", "_")  # as wheel and .dist-info names spell it
    path = folder / f"{dist}-{version}-py3-none-any.whl"
    info = f"{dist}-{version}.dist-info"
    summary = "stand-in made by loo-tutor" if modules else "empty stand-in; this module is not available here"
    files = {
        **(modules or {}),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
                            f"Summary: {summary}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: loo-tutor\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n",
    }
    record = []
    for file_name, text in files.items():
        data = text.encode()
        hashed = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{file_name},sha256={hashed},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file_name, text in files.items():
            archive.writestr(zipfile.ZipInfo(file_name, (2020, 1, 1, 0, 0, 0)), text,
                             zipfile.ZIP_DEFLATED)
    return path


def patched_wheel(wheel: Path, edits: list[tuple[str, str, str]]) -> Path:
    """A copy of ``wheel`` (same file name, in the cache) with each (file, old, new) edit made.

    Stops if a file does not hold its ``old`` text exactly once, so a new
    release of the package cannot silently go unpatched.
    """
    folder = CACHE / "patched"
    folder.mkdir(exist_ok=True)
    target = folder / wheel.name
    by_file = {name: (old, new) for name, old, new in edits}
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename in by_file:
                old, new = by_file.pop(info.filename)
                text = data.decode("utf-8")
                if text.count(old) != 1:
                    raise SystemExit(f"vendor_pyodide: cannot patch {info.filename} in {wheel.name}: "
                                     f"expected {old.strip()!r} once")
                data = text.replace(old, new).encode("utf-8")
            zout.writestr(info, data)
    if by_file:
        raise SystemExit(f"vendor_pyodide: {wheel.name} has no {', '.join(by_file)} to patch")
    return target


# -- compiling to bytecode ----------------------------------------------------------------

# Python in the browser compiles every module it imports from source, which
# on a two-core machine makes starting the kernel take several seconds longer
# (importing IPython alone: about 4 s from source, under 1 s from bytecode).
# Pyodide's own builds ship bytecode; the npm core and PyPI's wheels do not.
# So the standard library and the boot wheels are compiled here once, by
# Pyodide itself running in Node (the exact Python the browser runs), and
# each .py is replaced by its .pyc. Test folders are left out. loo-tutor is
# compiled too (its engine modules took about 0.4 s to compile in the
# browser on every visit); after an edit only its wheel is compiled again.

_COMPILE_PY = """
import importlib._bootstrap_external as external
import importlib.util
import json
import zipfile

def compiled(data, name):
    code = compile(data, name, "exec", dont_inherit=True)
    return external._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)

for source, target in json.load(open("/work/compile-jobs.json")):
    with zipfile.ZipFile("/work/" + source) as zin, \\
         zipfile.ZipFile("/work/" + target + ".part", "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            name = info.filename
            if "/tests/" in "/" + name:
                continue
            data = zin.read(info)
            if name.endswith(".py") and ".dist-info/" not in name:
                data, name = compiled(data, name), name[:-3] + ".pyc"
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


# Added to Pyodide's standard library as sitecustomize.py, which Python runs
# as it starts. JupyterLite's kernel makes its shared drive (/drive) Python's
# working directory before it imports IPython, and the working directory is
# first on sys.path: every top-level import would first ask the drive whether
# the module is there, each time a round trip through the browser page
# (about a hundred while the kernel starts, doubling its start-up time). On
# the drive, a folder is listed once, and again after
# importlib.invalidate_caches(); a module it does not hold is passed over
# without asking. (The built site's app pages now start the kernel without
# the drive, see SERVICE_WORKER_PLUGIN; this stays for a site that keeps it.)
SITECUSTOMIZE = '''"""Start-up settings for loo-tutor's in-browser Python (see scripts/vendor_pyodide.py)."""

import sys
from importlib import _bootstrap_external
from importlib.machinery import FileFinder

_DRIVE = "/drive"


class _ListedOnceFinder(FileFinder):
    """A FileFinder that trusts its folder listing until importlib.invalidate_caches()."""

    def find_spec(self, fullname, target=None):
        if self._path_mtime == -1:
            self._fill_cache()
            self._path_mtime = None
        tail = fullname.rpartition(".")[2]
        listed = self._path_cache
        if tail not in listed and not any(tail + suffix in listed for suffix, _ in self._loaders):
            return None
        return super().find_spec(fullname, target)


def _drive_finder(path):
    if path != _DRIVE and not path.startswith(_DRIVE + "/"):
        raise ImportError("not on the shared drive", path=path)
    return _ListedOnceFinder(path, *_bootstrap_external._get_supported_file_loaders())


sys.path_hooks.insert(0, _drive_finder)
'''


def with_sitecustomize(stdlib: Path) -> Path:
    """A copy of Pyodide's standard library zip with ``SITECUSTOMIZE`` added."""
    target = CACHE / f"python_stdlib-{hashlib.sha256(SITECUSTOMIZE.encode()).hexdigest()[:12]}.zip"
    if not target.exists():
        part = target.with_name(target.name + ".part")
        shutil.copy2(stdlib, part)
        with zipfile.ZipFile(part, "a", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(zipfile.ZipInfo("sitecustomize.py", (2020, 1, 1, 0, 0, 0)), SITECUSTOMIZE)
        part.rename(target)
    return target


def compile_zips(core: Path, sources: list[Path]) -> dict[Path, Path]:
    """Each zip in ``sources`` with its modules compiled; cached by content."""
    out = CACHE / "compiled"
    out.mkdir(exist_ok=True)
    targets = {src: out / f"{sha256_of(src)[:16]}-{src.name}" for src in sources}
    for old in set(out.glob("*.zip")) | set(out.glob("*.whl")):  # earlier builds of the wheels
        if old not in targets.values():
            old.unlink()
    jobs = [(src, dst) for src, dst in targets.items() if not dst.exists()]
    if jobs:
        if shutil.which("node") is None:
            raise SystemExit("vendor_pyodide: node not found; it is needed to compile "
                             "the browser's Python to bytecode (Node.js 18+)")
        say(f"compiling {len(jobs)} archives to Python {kernel_python(core)} bytecode with Pyodide in Node")
        with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
            staged = []
            for index, (src, dst) in enumerate(jobs):
                copy = Path(tmp) / f"{index}.zip"
                shutil.copy2(src, copy)
                staged.append([copy.relative_to(CACHE).as_posix(), dst.relative_to(CACHE).as_posix()])
            (CACHE / "compile-jobs.json").write_text(json.dumps(staged))
            (Path(tmp) / "compile.py").write_text(_COMPILE_PY)
            (Path(tmp) / "compile.js").write_text(_COMPILE_JS)
            run("node", str(Path(tmp) / "compile.js"), str(core), str(CACHE), str(Path(tmp) / "compile.py"))
            for _, dst in jobs:
                dst.with_name(dst.name + ".part").rename(dst)
            (CACHE / "compile-jobs.json").unlink()
    return targets


def kernel_python(core: Path) -> str:
    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    return str(lock["info"]["python"])


# -- the lock file -----------------------------------------------------------------

def wheel_entry(wheel: Path, name: str, imports: list[str], depends: list[str]) -> dict[str, Any]:
    version = wheel.name.split("-")[1]
    return {"name": name, "version": version, "file_name": wheel.name, "install_dir": "site",
            "sha256": sha256_of(wheel), "package_type": "package", "imports": imports,
            "depends": sorted(canonical(d) for d in depends), "unvendored_tests": False}


def top_level(wheel: Path) -> list[str]:
    """The importable top-level names in a wheel."""
    with zipfile.ZipFile(wheel) as archive:
        names = {n.split("/")[0] for n in archive.namelist() if not n.split("/")[0].endswith(".dist-info")}
    return sorted(n.removesuffix(".py") for n in names if not n.endswith((".pth", ".data")))


def assemble(core: Path, wheels: Path, own: Path, pyyaml: Path, kernel: list[Path]) -> None:
    """Write ``lite/static/pyodide``: the core files, the wheels and the rewritten lock."""
    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))
    original: dict[str, Any] = lock["packages"]
    extra: dict[str, dict[str, Any]] = {}
    source: dict[str, Path] = {}

    def add(name: str, wheel: Path, imports: list[str], depends: list[str]) -> None:
        extra[name] = wheel_entry(wheel, name, imports, depends)
        source[name] = wheel

    for wheel in kernel:
        add(canonical(wheel.name.split("-")[0]), wheel, top_level(wheel), [])
    for name, deps in (("comm", ["traitlets"]), ("ipywidgets", ["comm", "ipython", "traitlets"])):
        (wheel,) = [w for w in wheels.glob("*.whl") if _wheel_matches(w.name, f"{name}=={installed(name)}")]
        add(name, wheel, top_level(wheel), deps)
    add(PYYAML, pyyaml, ["yaml"], [])
    add(OWN, own, ["loo_tutor"], [PYYAML, "ipywidgets"])

    known = {**original, **extra}
    names = closure(known, preloaded())
    shipped: dict[str, Any] = {}
    files: dict[str, Path] = {}  # lock name -> the wheel to ship
    for name in names:
        entry = dict(known[name])
        if name == PIPLITE:
            stub = stub_wheel(name, entry["version"], wheels, PIPLITE_STANDIN)
            entry.update(file_name=stub.name, sha256=sha256_of(stub))
            files[name] = stub
        elif name in source:
            files[name] = source[name]
        elif name in STUBS:
            stub = stub_wheel(name, entry["version"], wheels)
            entry.update(file_name=stub.name, package_type="package", imports=[], depends=[])
            files[name] = stub
        elif is_pure(entry["file_name"]):
            requirement = f"{entry['name']}=={entry['version']}"
            (wheel,) = [w for w in wheels.glob("*.whl") if _wheel_matches(w.name, requirement)]
            entry.update(file_name=wheel.name)
            files[name] = patched_wheel(wheel, PATCHES[name]) if name in PATCHES else wheel
        else:
            raise SystemExit(f"vendor_pyodide: {name} is built for WebAssembly and is not vendored")
        shipped[name] = entry
    for entry in shipped.values():  # drop dependencies that are not shipped (e.g. matplotlib)
        entry["depends"] = sorted({canonical(d) for d in entry["depends"]} & shipped.keys())

    stdlib = with_sitecustomize(core / "python_stdlib.zip")
    to_compile = [stdlib] + [w for n, w in files.items() if n not in STUBS]
    compiled = compile_zips(core, to_compile)
    bundled = sorted(n for n in files if n not in STUBS)
    compiled[core / "python_stdlib.zip"] = bundle(compiled[stdlib], [compiled[files[n]] for n in bundled])
    # What is bundled is imported from the standard library's zip; the lock
    # keeps a metadata-only entry for the packages the kernel asks for by
    # name, and nothing for the rest.
    stubs = CACHE / "bundled"
    stubs.mkdir(exist_ok=True)
    wanted = {canonical(n) for n in preloaded()}
    for name in bundled:
        if name in wanted:
            files[name] = stub_wheel(name, shipped[name]["version"], stubs)
            shipped[name].update(file_name=files[name].name, imports=[], depends=[])
        else:
            del files[name], shipped[name]
    for entry in shipped.values():
        entry["depends"] = sorted(set(entry["depends"]) & shipped.keys() - set(bundled))
    for name in set(shipped) - set(closure(shipped, wanted)):  # stand-ins only bundled code needed
        del files[name], shipped[name]

    tmp = OUT.with_name(OUT.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name in CORE_FILES:
        shutil.copy2(compiled.get(core / name, core / name), tmp / name)
    for name, wheel in files.items():
        target = tmp / wheel.name
        shutil.copy2(compiled.get(wheel, wheel), target)
        shipped[name]["sha256"] = sha256_of(target)
    lock["packages"] = shipped
    (tmp / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n",
                                           encoding="utf-8")
    shutil.rmtree(OUT, ignore_errors=True)
    tmp.rename(OUT)
    size = sum(p.stat().st_size for p in OUT.iterdir()) / 1e6
    say(f"wrote {OUT.relative_to(ROOT)}: Pyodide {pyodide_version()}, "
        f"{len(files)} wheels, {size:.1f} MB, compiled to bytecode")


def bundle(stdlib: Path, wheels: list[Path]) -> Path:
    """The standard library's zip with the contents of ``wheels`` added; cached by content.

    Pyodide imports the standard library straight from its zip, while each
    package it loads is first unpacked, file by file, into its file system:
    for the 8 MB of compiled boot wheels that took about a second of every
    start on a busy two-core machine. Python imports the bundled packages
    from the zip, reading only the modules it needs.
    """
    key = hashlib.sha256(b"".join(sha256_of(p).encode() for p in [stdlib, *wheels])).hexdigest()[:16]
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
        for source in [stdlib, *wheels]:
            with zipfile.ZipFile(source) as zin:
                for info in zin.infolist():
                    if info.filename in seen:
                        if info.is_dir():
                            continue
                        raise SystemExit(f"vendor_pyodide: {info.filename} of {source.name} "
                                         "is already in the standard library's zip")
                    seen.add(info.filename)
                    zout.writestr(info, zin.read(info))
    part.rename(target)
    return target


def pinned_closure_requirements(core: Path) -> list[str]:
    """``name==version`` for every pure wheel of the lock that the preload needs."""
    lock = json.loads((core / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]
    placeholders: dict[str, Any] = {canonical(w.name.split("-")[0]): {"depends": []}
                                    for w in kernel_wheels()}
    placeholders.update({"comm": {"depends": ["traitlets"]},
                         "ipywidgets": {"depends": ["comm", "ipython", "traitlets"]},
                         PYYAML: {"depends": []}, OWN: {"depends": [PYYAML, "ipywidgets"]}})
    names = closure({**lock, **placeholders}, preloaded())
    return [f"{lock[n]['name']}=={lock[n]['version']}" for n in names
            if n in lock and n not in placeholders and n not in STUBS and is_pure(lock[n]["file_name"])]


def vendor() -> None:
    """Bring ``lite/static/pyodide`` up to date, fetching only what is missing."""
    CACHE.mkdir(exist_ok=True)
    want = wanted_state()
    have = json.loads(STAMP.read_text()) if STAMP.exists() else {}
    if have == want and (OUT / "pyodide-lock.json").exists():
        return
    core = fetch_core(want["pyodide"])
    wheels = CACHE / "wheels"
    wheels.mkdir(exist_ok=True)
    fetch_pypi(pinned_closure_requirements(core)
               + [f"ipywidgets=={want['ipywidgets']}", f"comm=={want['comm']}"], wheels)
    pyyaml = build_pyyaml(want["pyyaml"], CACHE / "built")
    own_dir = CACHE / "own"
    own_dir.mkdir(exist_ok=True)
    owns = list(own_dir.glob("loo_tutor-*.whl"))
    own = owns[0] if owns and have.get("package") == want["package"] else build_own_wheel(own_dir)
    assemble(core, wheels, own, pyyaml, kernel_wheels())
    STAMP.write_text(json.dumps(want, indent=1) + "\n")


def up_to_date() -> bool:
    if not (STAMP.exists() and (OUT / "pyodide-lock.json").exists()):
        return False
    return bool(json.loads(STAMP.read_text()) == wanted_state())


# -- trimming the built site ----------------------------------------------------------

# What the app view never loads (measured: every request of every live page).
# JupyterLite's own applications and the JupyterLab build they share: the
# app view is Voici, which brings its own build.
UNUSED_LITE = ("lab", "notebooks", "edit", "repl", "tree", "consoles", "doc", "build",
               "voici/tree")
# Federated extensions the Voici pages load; the others are never requested.
USED_EXTENSIONS = ("@jupyterlite/pyodide-kernel-extension", "jupyterlab_pygments")
# Font formats only browsers without WOFF2 use (Internet Explorer, browsers
# before 2018). The widget manager's and the theme's icon fonts all come as
# WOFF2 too, listed first in their stylesheets.
LEGACY_FONTS = (".eot", ".ttf", ".svg", ".woff")
# Folders of icon fonts that hold a WOFF2 copy of every font.
ICON_FONTS = ("_static/html-manager", "_static/vendor/fontawesome/webfonts")
# The theme's interface translations: the book is written in English only.
# And the classroom server's light page, which ./dev builds into _vendor_js
# (copied whole into _static with the widget manager): the server reads it
# from _vendor_js/classroom, and no page of the book loads it.
UNUSED_STATIC = ("_static/locales", "_static/classroom")
CDN_LINK = re.compile(r'<link[^>]*href="https?://[^"]*"[^>]*>\s*')
# Voici's start-up code lists JupyterLite's service-worker manager among its
# plugins. The service worker only lets the kernel reach the browser's file
# storage (the Jupyter drive) and answer input(); app pages use neither. Yet
# it costs every visit: each request of the app goes through it, it is
# unregistered and registered again on the second visit, and the app waits
# for it before it runs a cell. Without the plugin the kernel starts without
# the drive (Voici asks for the manager as an optional service).
SERVICE_WORKER_PLUGIN = re.compile(
    r'[A-Za-z_$][\w$]*\(\d+\)\.default\.filter\(\([\w$]+=>"@jupyterlite/application-extension:'
    r'service-worker-manager"===[\w$]+\.id\)\)')
NO_SERVICE_WORKER = "[]/* loo-tutor: no service worker (scripts/vendor_pyodide.py) */"
# Voici writes the JupyterLab theme (about 240 kB) into every app page; above
# this size an inline stylesheet is moved to one shared file beside the pages.
INLINE_STYLE = re.compile(r'<style type="text/css">(.*?)</style>', re.DOTALL)
SHARED_STYLE_MIN = 50_000
# A MyST target such as "(try-lead-as-a)=" heads some markdown cells of the
# notebooks, for the book's cross-references; Voici writes it out as a
# paragraph of its own, which the app pages drop.
MYST_TARGET = re.compile(r'<p>\([\w-]+\)=</p>\n?')


def _files(folder: Path, pattern: str) -> Iterator[Path]:
    return (p for p in folder.rglob(pattern) if p.is_file())


def _remove(path: Path) -> None:
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def trim_site(html: Path) -> None:
    """Drop from the built site ``html`` what no page ever loads.

    Removes every source map; the JupyterLite applications other than the
    Voici app pages, and the JupyterLab build only they use; the federated
    extensions Voici does not load; the legacy-format copies of the widget
    manager's and the theme's icon fonts; the theme's translations; the
    stylesheet links to a CDN that Voila's templates hard-code (icon fonts
    the app pages do not use); the MyST targets the app pages would show as
    text; and Voici's service worker. Then the kernel of each app page is
    started while the app loads (``early_kernel``).
    """
    for path in _files(html, "*.map"):
        path.unlink()
    for folder in ICON_FONTS:
        for path in (html / folder).glob("*"):
            if path.suffix in LEGACY_FONTS:
                path.unlink()
    for name in UNUSED_STATIC:
        _remove(html / name)
    lite = html / "lite"
    if not lite.is_dir():
        return
    for name in UNUSED_LITE:
        _remove(lite / name)
    extensions = lite / "extensions"
    if extensions.is_dir():
        for path in list(extensions.rglob("package.json")):
            name = path.parent.relative_to(extensions).as_posix()
            if name not in USED_EXTENSIONS:
                shutil.rmtree(path.parent)
        for scope in list(extensions.iterdir()):
            if scope.is_dir() and not any(scope.iterdir()):
                scope.rmdir()
    _drop_service_worker(lite / "voici" / "build")
    early_kernel.apply(lite)
    for page in _files(lite / "voici", "*.html"):
        text = page.read_text(encoding="utf-8")
        cleaned = INLINE_STYLE.sub(partial(_shared_style, page.parent),
                                   MYST_TARGET.sub("", CDN_LINK.sub("", text)))
        if cleaned != text:
            page.write_text(cleaned, encoding="utf-8")


def _drop_service_worker(build: Path) -> None:
    """Take the service-worker manager out of Voici's plugin list (see ``SERVICE_WORKER_PLUGIN``)."""
    found = done = 0
    for script in _files(build, "*.js"):
        text = script.read_text(encoding="utf-8")
        if "service-worker-manager" not in text and NO_SERVICE_WORKER not in text:
            continue
        cleaned, count = SERVICE_WORKER_PLUGIN.subn(NO_SERVICE_WORKER, text)
        if count:
            script.write_text(cleaned, encoding="utf-8")
        found += count
        done += text.count(NO_SERVICE_WORKER)
    if found + done != 1 and any(build.glob("*.js")):
        raise SystemExit(f"vendor_pyodide: expected Voici to list the service-worker manager once "
                         f"in {build}, found it {found + done} times; has Voici changed?")


def _shared_style(folder: Path, match: re.Match[str]) -> str:
    """A large inline stylesheet written once to ``folder`` and linked instead."""
    css = match.group(1)
    if len(css) < SHARED_STYLE_MIN:
        return match.group(0)
    name = f"style-{hashlib.sha256(css.encode()).hexdigest()[:16]}.css"
    if not (folder / name).exists():
        (folder / name).write_text(css, encoding="utf-8")
    return f'<link rel="stylesheet" type="text/css" href="{name}">'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="only report whether lite/static/pyodide is up to date (exit 1 if not)")
    parser.add_argument("--trim", metavar="HTML", type=Path,
                        help="trim a built site instead (what the book build does)")
    args = parser.parse_args(argv)
    if args.trim:
        trim_site(args.trim)
        return 0
    if args.check:
        return 0 if up_to_date() else 1
    vendor()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
