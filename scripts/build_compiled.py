"""Build the compiled engine into ``_build/compiled/lib``.

The package is pure Python wherever it is installed from this checkout (the
editable install, the wheel the browser loads). ``setup.py`` can also compile
the engine's hot modules with mypyc from the very same source; this script
makes that build once per change of their source and keeps only the compiled
modules, in a folder of their own whose ``loo_tutor`` package reads every
other module from this checkout. Put that folder first on ``sys.path`` to use
the compiled engine::

    python scripts/build_compiled.py          # prints the folder
    PYTHONPATH=_build/compiled/lib loo-tutor check record.yaml
    python scripts/build_compiled.py --run benchmarks/solver.py   # any script
    python scripts/build_compiled.py --layers # the layers compiled: engine records ...

The wheel it was made from stays in ``_build/compiled/wheel``, for installing
the compiled package (for this Python and machine) elsewhere.

``./dev test`` runs the engine's tests against this build as well, and
``benchmarks/engine.py`` measures both builds.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "compiled"
LIB = OUT / "lib"
WHEELS = OUT / "wheel"
STAMP = OUT / "source.sha256"


# The modules setup.py compiles import these; a change to them rebuilds too.
IMPORTED = ["loo_tutor/engine/errors.py", "loo_tutor/engine/rules.py",
            "loo_tutor/engine/profiles.py"]

SHIM = """\
# Made by scripts/build_compiled.py. The compiled modules in this folder come
# first; every other module of the package is read from the checkout.
__path__.append({source!r})
__file__ = {init!r}
exec(compile(open(__file__, encoding="utf-8").read(), __file__, "exec"))
"""


def compiled_sources() -> list[Path]:
    """The modules setup.py compiles, as its ``COMPILED`` lists them."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED":
            return [ROOT / name for name in ast.literal_eval(node.value)]
    raise SystemExit("build_compiled: setup.py lists no COMPILED modules")


def compiled_modules() -> list[str]:
    """The dotted names of the modules setup.py compiles, e.g. ``loo_tutor.engine.machine``."""
    return [".".join(path.relative_to(ROOT).with_suffix("").parts) for path in compiled_sources()]


def compiled_layers() -> list[str]:
    """The package's layers the compiled modules belong to, in setup.py's order, e.g. ``engine``.

    Each is also the marker of its test folder (tests/conftest.py), so that
    ``./dev test`` runs those layers' tests against the compiled build.
    """
    layers = [path.relative_to(ROOT / "loo_tutor").parts[0] for path in compiled_sources()]
    return list(dict.fromkeys(layers))


def source_digest() -> str:
    """A digest of everything the compiled modules are made from."""
    digest = hashlib.sha256()
    for path in sorted([ROOT / "setup.py", ROOT / "pyproject.toml", *compiled_sources(),
                        *(ROOT / name for name in IMPORTED)]):
        digest.update(path.relative_to(ROOT).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def is_compiled(lib: Path = LIB) -> bool:
    """Whether ``lib`` holds every module setup.py compiles as an extension module."""
    def built(name: str) -> bool:
        *package, module = name.split(".")
        return any(lib.joinpath(*package).glob(f"{module}.*.so"))

    return all(built(name) for name in compiled_modules())


def build() -> Path:
    """The folder holding the compiled engine, built first if the source changed."""
    digest = source_digest()
    if is_compiled() and STAMP.is_file() and STAMP.read_text().strip() == digest:
        return LIB
    print("building the compiled engine with mypyc (about a minute) ...", file=sys.stderr,
          flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        # mypyc writes its C files into ./build; a copy keeps the checkout clean.
        src = work / "src"
        shutil.copytree(ROOT / "loo_tutor", src / "loo_tutor",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        for name in ("setup.py", "pyproject.toml", "README.md"):
            shutil.copy2(ROOT / name, src / name)
        env = dict(os.environ, LOO_TUTOR_COMPILE="1")
        pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
        shutil.rmtree(WHEELS, ignore_errors=True)
        subprocess.run([*pip, "wheel", "--no-build-isolation", "--no-deps",
                        "--wheel-dir", str(WHEELS), "."], cwd=src, env=env, check=True)
        (wheel,) = WHEELS.glob("loo_tutor-*.whl")
        installed = work / "installed"
        subprocess.run([*pip, "install", "--no-deps", "--no-compile", "--target",
                        str(installed), str(wheel)], check=True)
        shutil.rmtree(LIB, ignore_errors=True)
        (LIB / "loo_tutor").mkdir(parents=True)
        for module in installed.rglob("*.so"):
            target = LIB / module.relative_to(installed)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(module, target)
    # Each package folder of the build reads the rest of its package from the checkout.
    for folder in [LIB / "loo_tutor", *(p for p in (LIB / "loo_tutor").rglob("*") if p.is_dir())]:
        package = ROOT / folder.relative_to(LIB)
        (folder / "__init__.py").write_text(
            SHIM.format(source=str(package), init=str(package / "__init__.py")))
    if not is_compiled():
        raise SystemExit(f"build_compiled: no compiled modules in {LIB}")
    STAMP.write_text(digest + "\n")
    return LIB


def run_compiled(script: str, args: list[str]) -> None:
    """Run a Python script with the compiled engine first on ``sys.path``."""
    sys.path.insert(0, str(build()))
    for name in compiled_modules():
        module = importlib.import_module(name)
        if not str(module.__file__).endswith(".so"):
            raise SystemExit(f"build_compiled: {module.__file__} is not the compiled engine")
    sys.argv = [script, *args]
    runpy.run_path(script, run_name="__main__")


def main() -> int:
    if sys.argv[1:2] == ["--run"] and len(sys.argv) > 2:
        if not Path(sys.argv[2]).is_file():
            print(f"build_compiled: no script {sys.argv[2]!r} to run", file=sys.stderr)
            return 2
        run_compiled(sys.argv[2], sys.argv[3:])
        return 0
    if sys.argv[1:] == ["--layers"]:
        print(" ".join(compiled_layers()))
        return 0
    if sys.argv[1:]:
        print("usage: build_compiled.py [--layers | --run SCRIPT [ARGS...]]", file=sys.stderr)
        return 2
    try:
        print(build().relative_to(ROOT))
    except subprocess.CalledProcessError as exc:
        print(f"build_compiled: {' '.join(exc.cmd[:6])} … failed (exit {exc.returncode})",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
