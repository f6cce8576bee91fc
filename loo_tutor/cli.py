"""The ``loo-tutor`` command.

``loo-tutor check FILE`` replays a deal record and prints its settlement or
its first illegal action (CONTRACT.md §3); ``loo-tutor demo`` plays a seeded
deal and prints it move by move.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, NoReturn, Sequence

from .errors import MalformedRecord
from .record import check, dumps, loads, record_from_state
from .sim import random_deal
from . import classroom
from .worksheet import add_commands as add_exercise_commands

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_BAD = 0, 1, 2
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", None: "not yet known"}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        # An argument may hold a line break; the message stays on one line.
        message = message.replace("\r", "\\r").replace("\n", "\\n")
        print(f"error: {message} (see 'loo-tutor --help')", file=sys.stderr)
        raise SystemExit(EXIT_BAD)


def _read(path: str) -> str:
    """The text of FILE, or of standard input for ``-``."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _check_file(path: str) -> tuple[int, dict[str, Any] | None, str | None, str | None]:
    """Check one file: exit code, result, malformed message, and the stderr line."""
    try:
        text = _read(path)
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        problem = f"cannot read {path!r}: {reason}"
        return EXIT_BAD, None, problem, f"error: {problem}"
    try:
        result = check(loads(text))
    except MalformedRecord as exc:
        return EXIT_BAD, None, str(exc), f"malformed record: {exc}"
    return (EXIT_ILLEGAL if result["status"] == "illegal" else EXIT_LEGAL), result, None, None


def summary(result: dict[str, Any]) -> str:
    """A human-readable account of a check result."""
    trump = _SUIT_NAMES[result["trump"]]
    lines = [f"{result['status']}: {result['kind']} deal, pool {result['pool']}, trumps {trump}"]
    if result.get("rules"):
        lines.append(f"rules: {result['rules']}")
    if result["revealed_after_trick"]:
        lines.append(f"trumps revealed after trick {result['revealed_after_trick']}")
    for player, cards in (result.get("exchanges") or {}).items():
        lines.append(f"{player} exchanges {' '.join(cards) or 'nothing'}")
    if result.get("flush"):
        lines.append(f"{result['flush']}'s flush takes the pool without play")
    elif result["collected_by"]:
        lines.append(f"{result['collected_by']} collects the pool without play")
    elif result["active"]:
        defender = f" ({result['defender']} defends the pool)" if result["defender"] else ""
        lines.append(f"playing: {', '.join(result['active'])}{defender}")
    for number, trick in enumerate(result["tricks"], 1):
        cards = ", ".join(f"{player} {card}" for player, card in trick["cards"])
        outcome = f" -> {trick['winner']} wins" if trick["winner"] else " (unfinished)"
        lines.append(f"trick {number}, {trick['leader']} leads: {cards}{outcome}")
    if result["status"] == "complete":
        paid = ", ".join(f"{p} {a}" for p, a in result["payouts"].items()) or "nobody"
        lines.append(f"payouts: {paid}")
        lines.append(f"looed: {', '.join(result['looed']) or 'nobody'}")
        lines.append(f"carried to the next deal: {result['carried_next']}")
    lines.append("net: " + ", ".join(f"{p} {_signed(v)}" for p, v in result["net"].items()))
    if result["next"]:
        step = result["next"]
        lines.append(f"next: {step['player']} to {step['phase']}; legal: "
                     + ", ".join(step["options"]))
    if result["error"]:
        err = result["error"]
        lines.append(f"illegal {err['phase']} by {err['player']}: {err['action']} "
                     f"breaks {err['rule']}: {err['message']}")
    return "\n".join(lines)


def _signed(amount: str) -> str:
    return amount if amount.startswith("-") or amount == "0" else "+" + amount


def _run_check(args: argparse.Namespace) -> int:
    if args.jsonl:
        worst = EXIT_LEGAL
        for path in args.files:
            code, result, malformed, _ = _check_file(path)
            worst = max(worst, code)
            line = {"file": path, "exit": code, "result": result, "malformed": malformed}
            print(json.dumps(line, ensure_ascii=False))
        return worst
    if len(args.files) != 1:
        print("error: check takes one FILE (use --jsonl for several)", file=sys.stderr)
        return EXIT_BAD
    code, result, _, complaint = _check_file(args.files[0])
    if result is None:
        print(complaint, file=sys.stderr)
        return code
    print(json.dumps(result, ensure_ascii=False, indent=2) if args.json else summary(result))
    return code


def _run_demo(args: argparse.Namespace) -> int:
    players = [chr(ord("A") + i) for i in range(args.players)]
    rng = random.Random(args.seed)
    state = random_deal(players, dealer=len(players) - 1, carried=args.carried, rng=rng)
    record = record_from_state(state)
    print(f"# seed {args.seed}: a random legal deal, written as a deal record")
    print(dumps(record))
    print(summary(check(record)))
    return EXIT_LEGAL


def _units(text: str) -> int:
    """A whole number of units, 0 or more."""
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of units, 0 or more")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser (exposed for the documentation)."""
    parser = _Parser(prog="loo-tutor", description="Rules tutor for limited three-card Loo.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    checker = commands.add_parser("check", help="replay a deal record and report the result")
    form = checker.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the result as one JSON object")
    form.add_argument("--jsonl", action="store_true", help="one JSON line per FILE")
    checker.add_argument("files", nargs="+", metavar="FILE", help="a record file, or - for stdin")
    checker.set_defaults(run=_run_check)
    demo = commands.add_parser("demo", help="play a seeded random deal and print it")
    demo.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    demo.add_argument("--players", type=int, default=5, choices=range(5, 9),
                      metavar="N", help="number of players, 5 to 8 (default 5)")
    demo.add_argument("--carried", type=_units, default=9,
                      help="carried balance; 0 gives a simple deal (default 9)")
    demo.set_defaults(run=_run_demo)
    room = commands.add_parser("classroom", help="serve the notebooks as apps for a class (Voila)",
                               description=classroom.DESCRIPTION)
    classroom.add_arguments(room)
    room.set_defaults(run=classroom.run)
    add_exercise_commands(commands)  # worksheet, exercise
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_LEGAL
    return code


if __name__ == "__main__":
    raise SystemExit(main())
