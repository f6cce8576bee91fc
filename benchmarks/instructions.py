"""Machine instructions per ``check()`` of a record, counted with valgrind's callgrind.

Run ``python benchmarks/instructions.py``. Timings move with the load of a
shared machine; instruction counts do not. Each build of the engine (the
checkout's pure-Python package, and the compiled one of
``scripts/build_compiled.py``) is run twice under ``valgrind --tool=callgrind``,
with the same hash seed and the garbage collector off (as ``timeit`` has it):
once checking each record of the varied corpus of ``benchmarks/engine.py``
(200 records, made once by this process and handed over as JSON) ``--times``
times after a first check of each, and once with the first check alone. The
difference, divided by the number of extra checks, is the count of one
``check()`` with everything loaded and warm.

Needs ``valgrind`` on the PATH; a run takes about a minute.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_COLLECTED = re.compile(r"Collected : (\d+)")


def run_checks(corpus_file: str, times: int) -> None:
    """Check each record of ``corpus_file`` once, then ``times`` times more (the part counted)."""
    from loo_tutor import check

    corpus = json.loads(Path(corpus_file).read_text(encoding="utf-8"))
    gc.disable()  # as timeit, and so benchmarks/engine.py, measures
    for record in corpus:
        check(record)
    for _ in range(times):
        for record in corpus:
            check(record)


def instructions(engine: str, corpus_file: str, times: int) -> int:
    """The instructions a process checking the corpus ``times`` extra times executes."""
    script = [__file__, "--child", corpus_file, str(times)]
    start = ([sys.executable] if engine == "pure"
             else [sys.executable, str(ROOT / "scripts" / "build_compiled.py"), "--run"])
    with tempfile.TemporaryDirectory() as tmp:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out",
                   *start, *script]
        done = subprocess.run(command, capture_output=True, text=True, check=True,
                              env=dict(os.environ, PYTHONHASHSEED="0"))
    match = _COLLECTED.search(done.stderr)
    if match is None:
        raise SystemExit(f"instructions.py: no count in valgrind's output:\n{done.stderr}")
    return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("pure", "compiled", "both"), default="both",
                        help="which build to count (default both)")
    parser.add_argument("--times", type=int, default=5,
                        help="extra checks of each record counted (default 5)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        run_checks(args.child[0], int(args.child[1]))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("instructions.py: valgrind is not installed")
    from engine import varied_corpus  # beside this script

    if args.engine != "pure":
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build_compiled.py")],
                       check=True, stdout=subprocess.DEVNULL)
    corpus = varied_corpus()
    with tempfile.TemporaryDirectory() as tmp:
        corpus_file = str(Path(tmp) / "corpus.json")
        Path(corpus_file).write_text(json.dumps(corpus), encoding="utf-8")
        if json.loads(Path(corpus_file).read_text(encoding="utf-8")) != corpus:
            raise SystemExit("instructions.py: the corpus does not survive JSON unchanged")
        for engine in ("pure", "compiled") if args.engine == "both" else (args.engine,):
            counted = (instructions(engine, corpus_file, args.times)
                       - instructions(engine, corpus_file, 0))
            per_check = counted / (args.times * len(corpus))
            print(f"{engine:<10}instructions per check() of a corpus record: {per_check:,.0f}",
                  flush=True)


if __name__ == "__main__":
    main()
