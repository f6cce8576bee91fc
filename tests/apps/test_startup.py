"""``loo-tutor check`` starts with the rules engine alone (the subcommands import what they run)."""

from __future__ import annotations

import subprocess
import sys

from conftest import OWN_EXAMPLES

TEACHING_AND_WEB = {
    # loo-tutor's own layers that simulate, teach, draw or serve, and the
    # engine's modules that only they use
    "loo_tutor.analysis", "loo_tutor.teaching", "loo_tutor.render", "loo_tutor.widgets",
    "loo_tutor.apps.classroom", "loo_tutor.engine.observe", "loo_tutor.engine.sim",
    # the libraries behind them
    "IPython", "ipywidgets", "jinja2", "matplotlib", "tornado", "tqdm", "traitlets", "voila",
}


def imported_by(*argv: str) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``python -m loo_tutor ARGV`` and list every module it imported (``-X importtime``)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "loo_tutor", *argv],
                          capture_output=True, text=True, timeout=120, check=False)
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and line.count("|") == 2}
    return done, modules - {"imported package"}


def test_check_imports_the_engine_alone() -> None:
    done, modules = imported_by("check", str(OWN_EXAMPLES / "01_seed000_forced_ace.yaml"))
    assert done.returncode == 0 and "payouts: A 8, B 4" in done.stdout
    assert {"loo_tutor.apps.cli", "loo_tutor.records.reading", "loo_tutor.records.record",
            "loo_tutor.engine.state"} <= modules
    loaded = [m for m in sorted(modules)
              if any(m == name or m.startswith(name + ".") for name in TEACHING_AND_WEB)]
    assert loaded == []


def test_the_list_of_imports_would_show_a_teaching_module() -> None:
    done, modules = imported_by("demo", "--seed", "1")
    assert done.returncode == 0
    assert "loo_tutor.engine.sim" in modules
