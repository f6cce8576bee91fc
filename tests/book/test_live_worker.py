"""The Python side of the live pages (_ext/browser/loo_live_worker.py), run here in CPython.

In the book's build it runs in Pyodide (in Node), and in the reader's
browser in the page's Web Worker; here it runs in a fresh Python process
with ``_ext/browser`` first on the path, as the in-browser Python has it, so
that ipywidgets gets the pages' stand-in for IPython, not the real one. The
process prepares two pages as the build does (a page whose cells show the
forced-ace trainer, and a second page), then connects as the worker does,
clicks A's 7♥ through the comm message the page's widget manager would send,
and prints what it wrote and every message it posted, which the tests read.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BROWSER = ROOT / "_ext" / "browser"

SCRIPT = r"""
import io, json, os, shutil, sys, tempfile, zipfile
sys.path.insert(0, sys.argv[1])
import loo_live_worker

# A module imported from a zip, as the browser's Python imports the standard library.
folder = tempfile.mkdtemp()
archive = os.path.join(folder, "modules.zip")
with zipfile.ZipFile(archive, "w") as made:
    made.writestr("zipped_module.py", "VALUE = 1\n")
    made.writestr("not_imported.py", "VALUE = 2\n")
sys.path.insert(0, archive)
import zipped_module
shutil.rmtree(folder)

TRAINER = ("from loo_tutor.records.data import example\nfrom loo_tutor.widgets import PlayTrainer\n"
           "trainer = PlayTrainer(example('forced-ace'), seat='A', from_trick=1)\ntrainer")
pages = [
    {"page": "trainer", "cells": [
        {"code": TRAINER, "name": "<cell 1>", "shown": True},
        {"code": "PlayTrainer(example('forced-ace'), seat='B')", "name": "<cell 2>",
         "shown": False},
        {"code": "x = 1", "name": "<cell 3>", "shown": True}]},
    {"page": "broken", "cells": [
        {"code": "from loo_tutor.widgets import DealStepper\nDealStepper('nowhere.yaml')",
         "name": "<cell 1>", "shown": True},
        {"code": "import not_in_the_browser", "name": "<cell 2>", "shown": True}]},
    {"page": "stepper", "cells": [
        {"code": "from loo_tutor.records.data import example\nfrom loo_tutor.widgets import DealStepper\n"
                 "from IPython.display import display\ndisplay(DealStepper(example('hearts')))",
         "name": "<cell 1>", "shown": True}]},
]
written = io.StringIO()
loo_live_worker.prepare(json.dumps(pages), written)
trainer = loo_live_worker.namespaces["trainer"]["trainer"]
button = next(b for b in trainer.buttons.values() if b.description == "7♥")

posted = []
loo_live_worker.connect(lambda message, buffers: posted.append(json.loads(message)))


class Bytes(bytes):
    def to_bytes(self):
        return bytes(self)


click = {"header": {"msg_id": "click-1", "msg_type": "comm_msg"}, "parent_header": {},
         "metadata": {}, "content": {"comm_id": button.comm.comm_id,
                                     "data": {"method": "custom", "content": {"event": "click"}}}}
loo_live_worker.receive(json.dumps(click), [])
broken = dict(click, header={"msg_id": "click-2", "msg_type": "comm_msg"},
              content={"comm_id": button.comm.comm_id, "data": {"method": "update",
                       "state": {"disabled": "not a boolean"}, "buffer_paths": []}})
loo_live_worker.receive(json.dumps(broken), [Bytes(b"")])
print(json.dumps({"written": json.loads(written.getvalue()), "posted": posted, "archive": archive,
                  "button": button.comm.comm_id, "trainer": trainer.model_id,
                  "modules": sorted(m for m in sys.modules if m.split(".")[0] in
                                    ("IPython", "ipykernel", "jedi", "pygments"))}))
"""


def _run() -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(BROWSER)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


RESULT: dict[str, Any] = {}


def result() -> dict[str, Any]:
    if not RESULT:
        RESULT.update(_run())
    return RESULT


def test_each_page_gets_the_state_of_its_own_widgets_and_the_widgets_its_cells_show() -> None:
    pages = result()["written"]["pages"]
    trainer = pages["trainer"]
    # the trainer cell's widget is shown; the hidden cell's trainer is made but not shown
    assert trainer["views"] == [result()["trainer"]]
    assert result()["trainer"] in trainer["state"]["state"]
    assert result()["button"] in trainer["state"]["state"]
    shown_models = {trainer["state"]["state"][v]["model_name"] for v in trainer["views"]}
    assert shown_models == {"VBoxModel"}
    stepper = pages["stepper"]
    assert len(stepper["views"]) == 1, "display() in a cell shows its widget too"
    assert not set(stepper["state"]["state"]) & set(trainer["state"]["state"])
    # every reference between widgets stays within the page's own state
    for page in pages.values():
        text = json.dumps(page["state"])
        for model_id in re.findall(r"IPY_MODEL_(\w+)", text):
            assert model_id in page["state"]["state"]


def test_a_page_whose_cells_raise_is_left_out_and_named_with_its_cell() -> None:
    written = result()["written"]
    assert "broken" not in written["pages"]
    assert written["failed"] == {
        "broken": "<cell 2>: ModuleNotFoundError: No module named 'not_in_the_browser'"}
    assert set(written["pages"]) == {"trainer", "stepper"}


def test_the_ids_of_a_pages_widgets_come_from_its_name_and_their_order() -> None:
    again = _run()["written"]["pages"]
    first = result()["written"]["pages"]
    assert again["trainer"]["views"] == first["trainer"]["views"]
    assert list(again["stepper"]["state"]["state"]) == list(first["stepper"]["state"]["state"])
    assert again["stepper"]["state"] == first["stepper"]["state"]


def test_the_modules_python_imported_from_a_zip_are_listed_for_the_browsers_zip() -> None:
    archive = result()["archive"]
    assert result()["written"]["imported"] == [f"{archive}/zipped_module.py"]


def test_nothing_is_posted_before_the_page_connects() -> None:
    assert all(m["parent_header"].get("msg_id") in ("click-1", "click-2")
               for m in result()["posted"])


def test_no_ipython_or_kernel_is_imported() -> None:
    assert result()["modules"] == ["IPython", "IPython.core", "IPython.core.interactiveshell",
                                   "IPython.display"]


def test_a_click_from_the_page_reaches_the_engine_and_its_answer_goes_back() -> None:
    after = result()["posted"]
    first = after[:next(i for i, m in enumerate(after) if m["header"]["msg_type"] == "status") + 1]
    assert first[-1]["content"] == {"execution_state": "idle"}
    assert all(m["parent_header"]["msg_id"] == "click-1" for m in first)
    updates = " ".join(json.dumps(m["content"]["data"]) for m in first
                       if m["header"]["msg_type"] == "comm_msg")
    assert "R-LEAD-ACE" in updates, "the refusal should be sent to the page"


def test_a_widget_error_is_reported_and_the_page_gets_its_idle_status() -> None:
    after = result()["posted"]
    second = [m for m in after if m["parent_header"].get("msg_id") == "click-2"]
    kinds = [m["header"]["msg_type"] for m in second]
    assert "error" in kinds and kinds[-1] == "status", kinds
    error = next(m for m in second if m["header"]["msg_type"] == "error")
    assert any("TraitError" in line for line in error["content"]["traceback"])


# A Python started afresh in the reader's browser: the build's module of the
# pages' cells is in its zip; start() runs the page's cells there.
START_SCRIPT = r"""
import json, sys, types
sys.path.insert(0, sys.argv[1])
import ipywidgets
import loo_live_worker

cells = types.ModuleType(loo_live_worker.CELLS_MODULE)
cells.PAGES = json.loads(sys.argv[2])
sys.modules[loo_live_worker.CELLS_MODULE] = cells
loo_live_worker.start("trainer")
made = ipywidgets.Widget.get_manager_state()["state"]
loo_live_worker.start("trainer")  # already made: nothing more
again = len(ipywidgets.Widget.get_manager_state()["state"])
try:
    loo_live_worker.start("no such page")
    unknown = ""
except loo_live_worker.CellFailed as exc:
    unknown = str(exc)
print(json.dumps({"state": made, "again": again, "unknown": unknown}))
"""


def test_a_python_started_afresh_makes_the_widgets_the_build_made_for_the_page() -> None:
    pages = {"trainer": [
        {"code": "from loo_tutor.records.data import example\nfrom loo_tutor.widgets import "
                 "PlayTrainer\ntrainer = PlayTrainer(example('forced-ace'), seat='A', "
                 "from_trick=1)\ntrainer", "name": "<cell 1>", "shown": True},
        {"code": "PlayTrainer(example('forced-ace'), seat='B')", "name": "<cell 2>",
         "shown": False},
        {"code": "x = 1", "name": "<cell 3>", "shown": True}]}
    done = subprocess.run([sys.executable, "-c", START_SCRIPT, str(BROWSER), json.dumps(pages)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    started = json.loads(done.stdout.splitlines()[-1])
    built = result()["written"]["pages"]["trainer"]["state"]["state"]
    assert started["state"] == built, "the same ids and the same state as the build's"
    assert started["again"] == len(built)
    assert started["unknown"] == "the book has no live cells for the page no such page"


# Python starts with a zip that names the modules of a second one, served
# apart (loo_live_later.MODULES); the second comes gzipped, by the worker's
# fetch once the page is live (add_later), or at once by Python (``fetch``)
# if a module of it is imported before.
LATER_SCRIPT = r"""
import gzip, io, json, os, sys, tempfile, zipfile
sys.path.insert(0, sys.argv[1])
import loo_live_worker

folder = tempfile.mkdtemp()
first = os.path.join(folder, "first.zip")
with zipfile.ZipFile(first, "w") as made:
    made.writestr("pkg/__init__.py", "")
    made.writestr("loo_live_later.py",
                  "MODULES = frozenset(['pkg.later', 'pkg.sub', 'pkg.sub.inner', 'alone'])\n")
sys.path.insert(0, first)
rest = io.BytesIO()
with zipfile.ZipFile(rest, "w") as made:
    made.writestr("pkg/later.py", "VALUE = 'later'\n")
    made.writestr("pkg/sub/__init__.py", "")
    made.writestr("pkg/sub/inner.py", "from pkg.later import VALUE\n")
    made.writestr("alone.py", "VALUE = 'alone'\n")
served = gzip.compress(rest.getvalue())
fetched = []


def fetch(url):
    fetched.append(url)
    return served


loo_live_worker.LATER_PATH = os.path.join(folder, "later.zip")
loo_live_worker.expect_later("later.zip.gz", fetch)
import pkg
try:
    import pkg.nowhere
except ModuleNotFoundError:
    missing = "missing"
before = list(fetched)
import pkg.sub.inner
import alone
loo_live_worker.add_later(served)  # the worker's fetch, come after
print(json.dumps({"before": before, "fetched": fetched, "missing": missing,
                  "values": [pkg.sub.inner.VALUE, alone.VALUE],
                  "early": loo_live_worker.imported_early()}))
"""


def test_a_module_left_for_later_is_fetched_at_once_if_imported_before_its_zip_comes() -> None:
    done = subprocess.run([sys.executable, "-c", LATER_SCRIPT, str(BROWSER)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    later = json.loads(done.stdout.splitlines()[-1])
    # a module named in neither zip is missing, and fetches nothing
    assert later["missing"] == "missing"
    assert later["before"] == []
    # a module of the later zip, in a package of the first, fetches the zip once
    assert later["values"] == ["later", "alone"]
    assert later["fetched"] == ["later.zip.gz"]
    assert later["early"] == "pkg.sub", "the module whose import fetched it is noted"
