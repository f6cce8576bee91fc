"""The Python side of a live page (_ext/browser/loo_live_worker.py), run here in CPython.

In the browser it runs in Pyodide, in the page's Web Worker; here it runs in a
fresh Python process with ``_ext/browser`` first on the path, as the
in-browser Python has it, so that ipywidgets gets the pages' stand-in for
IPython, not the real one. The process runs a cell that shows the
forced-ace trainer, clicks A's 7♥ through the comm message the page's
widget manager would send, and prints every message it posted, which the
tests read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BROWSER = ROOT / "_ext" / "browser"

SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import loo_live_worker

posted = []
loo_live_worker.start(lambda message, buffers: posted.append(json.loads(message)))
loo_live_worker.run_cell(
    "from loo_tutor.data import example\nfrom loo_tutor.widgets import PlayTrainer\n"
    "trainer = PlayTrainer(example('forced-ace'), seat='A', from_trick=1)\ntrainer",
    "<cell 1>")
loo_live_worker.run_cell("PlayTrainer(example('forced-ace'), seat='B')", "<cell 2>", shown=False)
loo_live_worker.run_cell("x = 1", "<cell 3>")
trainer = loo_live_worker.namespace["trainer"]
button = next(b for b in trainer.buttons.values() if b.description == "7♥")


class Bytes(bytes):
    def to_bytes(self):
        return bytes(self)


click = {"header": {"msg_id": "click-1", "msg_type": "comm_msg"}, "parent_header": {},
         "metadata": {}, "content": {"comm_id": button.comm.comm_id,
                                     "data": {"method": "custom", "content": {"event": "click"}}}}
before = len(posted)
loo_live_worker.receive(json.dumps(click), [])
broken = dict(click, header={"msg_id": "click-2", "msg_type": "comm_msg"},
              content={"comm_id": button.comm.comm_id, "data": {"method": "update",
                       "state": {"disabled": "not a boolean"}, "buffer_paths": []}})
loo_live_worker.receive(json.dumps(broken), [Bytes(b"")])
print(json.dumps({"posted": posted, "before": before, "button": button.comm.comm_id,
                  "trainer": trainer.model_id,
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


def test_a_shown_widget_is_announced_once_with_its_model_and_hidden_cells_are_not() -> None:
    posted = result()["posted"]
    shown = [m for m in posted if m["header"]["msg_type"] == "display_data"]
    assert [m["content"]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
            for m in shown] == [result()["trainer"]]
    opened = {m["content"]["comm_id"]: m for m in posted if m["header"]["msg_type"] == "comm_open"}
    assert result()["trainer"] in opened and result()["button"] in opened
    assert opened[result()["trainer"]]["content"]["target_name"] == "jupyter.widget"
    assert all(m["channel"] == "iopub" for m in posted)


def test_no_ipython_or_kernel_is_imported() -> None:
    assert result()["modules"] == ["IPython", "IPython.core", "IPython.core.interactiveshell",
                                   "IPython.display"]


def test_a_click_from_the_page_reaches_the_engine_and_its_answer_goes_back() -> None:
    after = result()["posted"][result()["before"]:]
    first = after[:next(i for i, m in enumerate(after) if m["header"]["msg_type"] == "status") + 1]
    assert first[-1]["content"] == {"execution_state": "idle"}
    assert all(m["parent_header"]["msg_id"] == "click-1" for m in first)
    updates = " ".join(json.dumps(m["content"]["data"]) for m in first
                       if m["header"]["msg_type"] == "comm_msg")
    assert "R-LEAD-ACE" in updates, "the refusal should be sent to the page"


def test_a_widget_error_is_reported_and_the_page_gets_its_idle_status() -> None:
    after = result()["posted"][result()["before"]:]
    second = [m for m in after if m["parent_header"].get("msg_id") == "click-2"]
    kinds = [m["header"]["msg_type"] for m in second]
    assert "error" in kinds and kinds[-1] == "status", kinds
    error = next(m for m in second if m["header"]["msg_type"] == "error")
    assert any("TraitError" in line for line in error["content"]["traceback"])
