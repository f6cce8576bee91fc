"""The classroom's kernel: ipykernel without the parts a student's page can never use.

Started by the classroom server for each page (see :mod:`loo_tutor.apps.kernels`)
as ``python -m loo_tutor.apps.classroom_kernel -f CONNECTION_FILE``, in place
of ``python -m ipykernel_launcher``. It is the same kernel, less

* the debugger: ipykernel imports debugpy at start when it is installed,
  about a third of an idle kernel's memory and of its start-up time, and
  the classroom's websocket never lets a debug request through;
* the history file: IPython would write every cell each kernel runs into
  one SQLite file in the user's home folder, shared by all the kernels of
  a class; the cells are the notebook's own, and nothing reads them back.
"""

from __future__ import annotations

import importlib
import sys

LEFT_OUT = ("debugpy",)
"""The modules the kernel cannot import, so that ipykernel starts without them."""
OPTIONS = ("--HistoryManager.enabled=False",)
"""The kernel's own options, after the server's."""


def main(argv: list[str] | None = None) -> None:
    """Start the kernel with the server's arguments ``argv`` (those of the command by default)."""
    for name in LEFT_OUT:
        sys.modules[name] = None  # type: ignore[assignment]  # Python's way to refuse an import
    kernelapp = importlib.import_module("ipykernel.kernelapp")
    kernelapp.launch_new_instance(argv=[*(sys.argv[1:] if argv is None else argv), *OPTIONS])


if __name__ == "__main__":
    main()
