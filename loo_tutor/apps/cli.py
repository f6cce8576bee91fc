"""The ``loo-tutor`` command and every one of its subcommands.

``loo-tutor check FILE`` replays a deal record and prints its settlement or
its first illegal action (CONTRACT.md §3); ``loo-tutor demo`` plays a seeded
deal and prints it move by move; ``worksheet`` and ``exercise`` write
exercise sheets (:mod:`loo_tutor.render.worksheet`); ``mark`` marks students' answers
files (:mod:`loo_tutor.teaching.marking`); ``classroom`` serves the
notebooks as apps (:mod:`loo_tutor.apps.classroom`).

Each subcommand imports what it runs only when it runs: ``loo-tutor check``
loads the rules engine and nothing of the teaching or web modules.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NoReturn

from ..engine.cards import parse_card
from ..engine.errors import LooError, MalformedRecord, NotationError
from ..engine.rules import rule_by_id
from ..engine.state import signed_text
from ..records import reading
from ..records.record import CheckResult, check, to_json

if TYPE_CHECKING:
    from tqdm import tqdm

    from ..teaching.assignment import Assignment
    from ..teaching.marking import Marked

EXIT_LEGAL, EXIT_ILLEGAL, EXIT_BAD = 0, 1, 2
_SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", None: "not yet known"}


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2.

    Args:
        epilog_from: makes the closing text of the help when the help is
            shown, so that building the parser imports nothing it needs.
    """

    def __init__(self, *args: Any, epilog_from: Callable[[], str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._epilog_from = epilog_from

    def format_help(self) -> str:
        if self._epilog_from is not None:
            self.epilog = self._epilog_from()
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        print(f"error: {_one_line(message)} (see 'loo-tutor --help')", file=sys.stderr)
        raise SystemExit(EXIT_BAD)


_LINE_BREAKS = {ord(c): repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"}
_JSON_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\x85\u2028\u2029"}


def _one_line(text: str) -> str:
    """``text`` with every character that could break a line written out."""
    return text.translate(_LINE_BREAKS)


def _unexpected(exc: Exception, doing: str) -> str:
    """The one line that reports an error loo-tutor did not foresee."""
    detail = str(exc).strip().splitlines()
    said = f": {_one_line(detail[0])}" if detail else ""
    return (f"unexpected {type(exc).__name__} while {doing}{said} "
            "(a fault in loo-tutor; please report it)")


# -- check ---------------------------------------------------------------------------------


def _check_file(path: str) -> tuple[int, CheckResult | None, str | None, str | None]:
    """Check one file: exit code, result, the reason it was refused, and the stderr line.

    Whatever the file holds, the answer is one of these, never an exception.
    """
    try:
        text = reading.read_text(path)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name, or not UTF-8
        problem = f"cannot read {path!r}: {_one_line(reading.reason(exc))}"
        return EXIT_BAD, None, problem, f"error: {problem}"
    try:
        result = check(reading.loads(text))
    except MalformedRecord as exc:
        problem = _one_line(str(exc))
        return EXIT_BAD, None, problem, f"malformed record: {problem}"
    except Exception as exc:  # the file gets its line; the batch goes on
        problem = _unexpected(exc, f"checking {path!r}")
        return EXIT_BAD, None, problem, f"error: {problem}"
    return (EXIT_ILLEGAL if result["status"] == "illegal" else EXIT_LEGAL), result, None, None


def summary(result: CheckResult) -> str:
    """A human-readable account of a check result."""
    trump = _SUIT_NAMES[result["trump"]]
    lines = [f"{result['status']}: {result['kind']} deal, pool {result['pool']}, trumps {trump}"]
    if result.get("rules"):
        lines.append(f"rules: {result['rules']}")
    if result["revealed_after_trick"]:
        lines.append(f"trumps revealed after trick {result['revealed_after_trick']}")
    for player, cards in (result.get("exchanges") or {}).items():
        lines.append(f"{player} exchanges {' '.join(map(_shown, cards)) or 'nothing'}")
    if result.get("flush"):
        lines.append(f"{result['flush']}'s flush takes the pool without play")
    elif result["collected_by"]:
        lines.append(f"{result['collected_by']} collects the pool without play")
    elif result["active"]:
        defender = f" ({result['defender']} defends the pool)" if result["defender"] else ""
        lines.append(f"playing: {', '.join(result['active'])}{defender}")
    for number, trick in enumerate(result["tricks"], 1):
        played = ", ".join(f"{player} {_shown(card)}" for player, card in trick["cards"])
        outcome = f" -> {trick['winner']} wins" if trick["winner"] else " (unfinished)"
        lines.append(f"trick {number}, {trick['leader']} leads: {played}{outcome}")
    if result["status"] == "complete":
        paid = ", ".join(f"{p} {a}" for p, a in result["payouts"].items()) or "nobody"
        lines.append(f"payouts: {paid}")
        lines.append(f"looed: {', '.join(result['looed']) or 'nobody'}")
        lines.append(f"carried to the next deal: {result['carried_next']}")
    lines.append("net: " + ", ".join(f"{p} {signed_text(Fraction(v))}" for p, v in result["net"].items()))
    if result["next"]:
        step = result["next"]
        lines.append(f"next: {step['player']} to {step['phase']}; legal: "
                     + ", ".join(map(_shown, step["options"])))
    if result["error"]:
        err = result["error"]
        lines.append(f"illegal {err['phase']} by {err['player']}: {_shown(err['action'])} "
                     f"breaks {_cited(err['rule'])}: {err['message']}")
    return "\n".join(lines)


def _shown(text: str) -> str:
    """A card of the result (``7H``) as the reader writes it (``7♥``); other words as they are."""
    try:
        return parse_card(text).shown
    except NotationError:
        return text


def _cited(rule_id: str) -> str:
    """A rule ID of the result cited by name: ``the forced ace (R-LEAD-ACE)``."""
    rule = rule_by_id(rule_id)
    return rule_id if rule is None else rule.cited


def _print_line(line: dict[str, Any]) -> None:
    """One JSON line, which no reader can split: the line breaks JSON leaves in text are
    escaped, and everything is escaped to ASCII if standard output cannot write a character."""
    try:
        print(json.dumps(line, ensure_ascii=False).translate(_JSON_LINE_BREAKS))
    except UnicodeEncodeError:
        print(json.dumps(line))


def _run_check(args: argparse.Namespace) -> int:
    if args.jsonl:
        worst = EXIT_LEGAL
        for path in args.files:
            code, result, refused, _ = _check_file(path)
            worst = max(worst, code)
            _print_line({"file": path, "exit": code, "result": result, "malformed": refused})
        return worst
    if len(args.files) != 1:
        print("error: check takes one FILE (use --jsonl for several)", file=sys.stderr)
        return EXIT_BAD
    code, result, _, complaint = _check_file(args.files[0])
    if result is None:
        print(complaint, file=sys.stderr)
        return code
    print(to_json(result) if args.json else summary(result))
    return code


# -- demo ----------------------------------------------------------------------------------


def _run_demo(args: argparse.Namespace) -> int:
    import random

    from ..engine.sim import random_deal
    from ..records.record import dumps, record_from_state

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
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of units, 0 or more")
    return int(text)


# -- worksheet and exercise ----------------------------------------------------------------


def _kinds(text: str) -> tuple[Any, ...]:
    from ..teaching.exercises import parse_kinds

    try:
        return parse_kinds(text)
    except LooError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _whole(text: str, low: int, high: int | None) -> int:
    digits = text.strip()
    if (not (digits.isascii() and digits.isdigit())
            or not (low <= int(digits) and (high is None or int(digits) <= high))):
        wanted = f" from {low} to {high}" if high is not None else f", {low} or more"
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number{wanted}")
    return int(text)


def _seed(text: str) -> int:
    return _whole(text, 0, None)


def _exercise_count(text: str) -> int:
    from ..render.worksheet import MAX_COUNT

    return _whole(text, 1, MAX_COUNT)


class _Progress:
    """A worksheet's progress on standard error (a tqdm bar), drawn only when ``show``."""

    def __init__(self, show: bool) -> None:
        self.show = show
        self.bar: tqdm[Any] | None = None

    def __call__(self, done: int, total: int) -> None:
        if not self.show:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc="exercises", unit="exercise", file=sys.stderr,
                            ascii=True)
        self.bar.update(done - self.bar.n)
        if done == total:
            self.bar.close()


def _run_worksheet(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..render.worksheet import write_assignment_sheet, write_worksheet
    from ..teaching.assignment import read_assignment

    progress = _Progress(args.progress or sys.stderr.isatty())
    try:
        if args.assignment is not None:
            assignment = read_assignment(args.assignment)
            written = write_assignment_sheet(assignment, Path(args.assignment).parent, args.out,
                                             progress)
        else:
            written = write_worksheet(args.kinds, args.count, args.seed, args.out, progress)
    except MalformedRecord as exc:
        print(f"malformed record: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    except LooError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    _wrote(written)
    _print_site_link(written[2])
    return EXIT_LEGAL


LONGEST_LINK = 2_000
"""The longest link ``worksheet`` prints: one every browser and mail program carries whole."""


def _print_site_link(key: Any) -> None:
    """Print the path of the site's exercises page opened for the sheet's assignment."""
    from ..teaching.assignment import LINK_PAGE, AssignmentError, link_query, read_assignment

    try:
        link = f"notebooks/{LINK_PAGE}?{link_query(read_assignment(key))}"
    except AssignmentError as exc:
        print(f"no link for the site: {_one_line(str(exc))}")
        return
    if len(link) > LONGEST_LINK:
        print(f"no link for the site: it would be {len(link):,} characters, more than the "
              f"{LONGEST_LINK:,} a link can safely be; set fewer exercises")
        return
    print("on the site, after the book's own address (e.g. https://example.org/loo/):")
    print(f"  {link}")


def _run_exercise(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..render.worksheet import write_record_sheet

    if args.record != "-" and not Path(args.record).is_file():
        print(f"error: cannot read {args.record!r}: no such file", file=sys.stderr)
        return EXIT_BAD
    try:
        written = write_record_sheet(args.record, args.kinds, args.out, args.seed)
    except MalformedRecord as exc:
        print(f"malformed record: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    except LooError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    _wrote(written)
    return EXIT_LEGAL


def _wrote(paths: Sequence[Any]) -> None:
    sheet, page, key = (str(p) for p in paths)
    print(f"wrote {sheet}, its answer key {page} and the key to mark with, {key}")


def _add_exercise_commands(commands: Any) -> None:
    sheet = commands.add_parser(
        "worksheet", help="write a printable worksheet of seeded exercises and its answer key",
        description="Write DIR/worksheet.html, DIR/answers.html and DIR/key.yaml: COUNT "
                    "exercises of each chosen type, generated from SEED (the same seed writes "
                    "the same files). key.yaml holds every right answer as an answers file, "
                    "with the sheet's title and id: it is the assignment that "
                    "'loo-tutor mark --key DIR/key.yaml FILE...' marks students' answers "
                    "against, and 'loo-tutor mark DIR/key.yaml' marks it all right.")
    sheet.add_argument("--kinds", type=_kinds, default="1,2,3,4,5,6", metavar="K,K",
                       help="exercise types from 1 to 6 or their names, e.g. 1,4 or "
                            "legal-cards,settle (default: all)")
    sheet.add_argument("--count", type=_exercise_count, default=5, metavar="N",
                       help="exercises of each type (default 5)")
    sheet.add_argument("--seed", type=_seed, default=0, metavar="S",
                       help="the worksheet's seed (default 0)")
    sheet.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    sheet.add_argument("--assignment", metavar="FILE",
                       help="print this assignment instead: a key.yaml written by worksheet or "
                            "exercise, or a file listing title, id and exercises (kind and seed "
                            "or seeds, and optionally record); --kinds, --count and --seed are "
                            "then not used")
    sheet.add_argument("--progress", action="store_true",
                       help="show the progress bar even when standard error is not a terminal")
    sheet.set_defaults(run=_run_worksheet)
    one = commands.add_parser(
        "exercise", help="turn a deal record into an exercise sheet and its answer key",
        description="Write DIR/worksheet.html, DIR/answers.html and DIR/key.yaml with exercises "
                    "of the chosen types made from the deal record RECORD, and a copy of it as "
                    "DIR/record.yaml, which the key's items name.")
    one.add_argument("record", metavar="RECORD", help="a deal record file, or - for stdin")
    one.add_argument("--kind", "--kinds", dest="kinds", type=_kinds, required=True, metavar="K",
                     help="exercise types from 1 to 6 or their names, e.g. 4, 1,4 or settle")
    one.add_argument("--seed", type=_seed, default=0, metavar="S",
                     help="for type 5 on a legal record: which card is made illegal (default 0)")
    one.add_argument("--out", required=True, metavar="DIR", help="folder to write into")
    one.set_defaults(run=_run_exercise)


# -- mark ----------------------------------------------------------------------------------


def _mark_help() -> str:
    """The answers file and each kind's answer, as ``loo-tutor mark --help`` ends."""
    import textwrap

    from ..teaching.marking import AMOUNTS, MAX_SEED, SHAPES

    shapes = "\n".join(textwrap.fill(f"{int(kind)} {kind.word:<13} {shape}", 88,
                                      initial_indent="  ", subsequent_indent=" " * 18)
                       for kind, shape in SHAPES.items())
    text = (
        "An answers file (YAML, or JSON with the same keys), one per student:\n\n"
        "  student: Ann Smith\n"
        "  assignment: a-1f3e9c0b2d   # optional: the id of the assignment answered\n"
        "  answers:\n"
        "    - kind: legal-cards      # the kind's name or number\n"
        f"      seed: 2024             # the exercise's seed, 0 to {MAX_SEED:,}\n"
        "      answer: [10D, 3S]\n"
        "      time: 2026-12-04T10:15:00Z   # optional, copied to the grade book\n"
        "      solution_shown: yes    # optional: the solution was shown before this answer\n\n"
        "What answer holds, by kind (cards as records write them, 10D or QH, or as the sheet "
        "shows them, 10♦; players by name; "
        f"{AMOUNTS}, a gain with or without +):\n{shapes}\n\n"
        "The answers are read as the worksheet, answers.html and the site write them: "
        "'stand, take the miss, defend' or [stand, miss, defend]; 'no announcement: the "
        "dealer collects' or none; +7/3; looed: [] or nobody for nobody. "
        "An item made from a deal record (the key of 'loo-tutor exercise') also has record: "
        "FILE, read from the answers file's folder.\n\n"
        "Each exercise is made again from its kind and seed and the answer judged: right; "
        "wrong (with the rule behind the right answer; a part left empty is wrong); "
        "unreadable (it cannot be read, or has another shape than its kind's, such as a card "
        "where a player is asked: it counts as wrong, and the line says what was written and "
        "why); or not an exercise (an unknown kind, a bad seed: never counted). An exercise "
        "answered twice counts once: right at the first check, right after several, or wrong; "
        "after solution_shown it is never right.\n\n"
        "With --key KEY (a key.yaml written by worksheet or exercise, or a file listing title, "
        "id and exercises), every exercise of that assignment appears in every student's "
        "result, right, wrong, unreadable or not answered, in the assignment's order; an "
        "answer to an exercise not on it (a mistyped seed, say) is reported and never marked "
        "against another deal; a file that cannot be read is still the student's row in the "
        "grade book. Without --key, each file is marked for what it answers, and the totals "
        "count only the items that could be read. --class DIR marks against the class's "
        "assignment when it has one (DIR/assignment.yaml). --detail shows every mistaken part "
        "of each answer with the engine's answer to it.\n\n"
        "--follow-up DIR writes each student marked against an assignment a short new "
        "sheet (worksheet.html, answers.html and key.yaml in DIR/NAME/) of exercises the "
        "engine made until each turns on a rule the student missed, two for each of the "
        "rules missed most.\n\n"
        "The grade book (--csv) is UTF-8 with a byte-order mark, so that spreadsheets keep "
        "♦ and ë: one row per student and exercise, with the check that decided it, its "
        "outcome and what was amiss.\n\n"
        "Exit status: 0 when every file and every item was read; 2 when some file or item "
        "could not be read (one line each on standard error, naming the file and the place; "
        "the other files are still marked).")
    return "\n".join(line if line.startswith(" ") else textwrap.fill(line, 88)
                     for line in text.split("\n"))


def _run_mark(args: argparse.Namespace) -> int:
    from ..teaching.assignment import read_assignment
    from ..teaching.marking import read_answers, write_grade_book

    if not args.files and not args.class_folder:
        print("error: give answers files to mark, or --class DIR", file=sys.stderr)
        return EXIT_BAD
    if args.follow_up is not None and args.key is None and not args.class_folder:
        print("error: --follow-up needs the assignment: give --key KEY", file=sys.stderr)
        return EXIT_BAD
    if args.csv is not None and (refused := _csv_refused(args)):
        print(f"error: {refused}", file=sys.stderr)
        return EXIT_BAD
    key = None
    if args.key is not None:
        try:
            key = read_assignment(args.key)
        except LooError as exc:
            print(f"error: {_one_line(str(exc))}", file=sys.stderr)
            return EXIT_BAD
    worst = EXIT_LEGAL
    rows: list[Any] = []
    quiet = args.csv == "-"
    every: list[tuple[Marked, Assignment | None]] = [(read_answers(path), key)
                                                     for path in args.files]
    if args.class_folder:
        try:
            students, kept = _class_marked(args.class_folder, args.class_name)
        except (ValueError, LooError) as exc:
            print(f"error: {_one_line(str(exc))}", file=sys.stderr)
            worst = EXIT_BAD
        else:
            if not students and not quiet:
                print(f"no answer is kept in {args.class_folder} yet")
            every += [(one, key or kept) for one in students]
    for marked, assignment in every:
        for problem in marked.problems:
            print(_one_line(problem), file=sys.stderr)
        if marked.problems:
            worst = EXIT_BAD
        rows += marked.grade_rows(assignment)
        if quiet or (not marked.read and assignment is None):
            continue
        print(_one_line(_score_line(marked, assignment)))
        if args.detail and marked.read:
            for line in _detail_lines(marked, assignment):
                print(_one_line(line))
    if not quiet and any(assignment is None for _, assignment in every):
        print("(without --key, the totals count only the items that could be read; "
              "--key KEY marks every exercise of the assignment)")
    if args.csv is not None:
        worst = max(worst, _write_csv(args.csv, rows, write_grade_book))
    if args.follow_up is not None:
        worst = max(worst, _follow_up(args.follow_up, every))
    return worst


def _follow_up(folder: str, every: Sequence[tuple[Marked, Assignment | None]]) -> int:
    """Write each student marked against an assignment a short sheet aimed at what they missed."""
    import re
    from pathlib import Path

    from ..render.worksheet import write_exercise_sheet
    from ..teaching.follow_up import aimed_at, missed_rules

    used: set[str] = set()
    for marked, assignment in every:
        if not marked.read or assignment is None:
            continue
        rules = missed_rules(marked.score(assignment))
        if not rules:
            print(_one_line(f"{marked.student}: no rule missed, so no follow-up sheet"))
            continue
        exercises, lost = aimed_at(rules, f"{marked.student}, {assignment.id}",
                                   assignment.keys())
        slug = "-".join(re.findall(r"[a-z0-9]+", marked.student.lower()))[:40] or "student"
        name, n = slug, 1
        while name in used:
            n += 1
            name = f"{slug}-{n}"
        used.add(name)
        aimed = ", ".join(str(rule) for rule in rules if rule not in lost)
        title = f"Follow-up for {marked.student}: {aimed}"
        try:
            sheet, _, key = write_exercise_sheet(exercises, title, Path(folder) / name)
        except LooError as exc:
            print(f"error: {_one_line(str(exc))}", file=sys.stderr)
            return EXIT_BAD
        line = (f"{marked.student}: wrote {sheet} and its key {key}, {len(exercises)} "
                f"exercises on {aimed}")
        if lost:
            line += f"; no exercise found on {', '.join(str(rule) for rule in lost)}"
        print(_one_line(line))
    return EXIT_LEGAL


def _score_line(marked: Marked, assignment: Assignment | None) -> str:
    """A student's line: the score, by kind, and what is not right or not marked."""
    from ..teaching.score import Outcome

    line = f"{marked.student} ({marked.path}): "
    if not marked.read:
        total = len(assignment.items) if assignment is not None else 0
        return line + f"0 of {total} right: the file could not be read"
    score = marked.score(assignment)
    kinds = ", ".join(f"{kind} {r}/{t}" for kind, (r, t) in score.by_kind().items())
    line += score.line() + (f": {kinds}" if kinds else "")
    unreadable = sum(i.outcome is Outcome.WRONG and i.last is not None
                     and i.last.verdict == "unreadable" for i in score.items)
    counts = [(score.count(Outcome.NOT_ANSWERED), "not answered"),
              (unreadable, "unreadable"), (score.count(Outcome.SOLUTION_SHOWN), "solution shown"),
              (len(score.off), "not on the assignment, not marked"),
              (len(score.unjudged), "not an exercise")]
    said = ", ".join(f"{n} {what}" for n, what in counts if n)
    if said:
        line += f"; {said}"
    if assignment is not None and marked.assignment and marked.assignment != assignment.id:
        line += f"; the file says it answers assignment {marked.assignment}, not {assignment.id}"
    return line


def _class_marked(folder: str, class_name: str = "class") -> tuple[list[Marked],
                                                                  Assignment | None]:
    """Each student of the class ``class_name`` kept in ``folder`` (``loo-tutor classroom
    --data``: a folder or a ``postgresql://`` address), marked, and the class's assignment
    (``None`` when it has none).

    Raises:
        ValueError: no class is kept there, or it cannot be read.
        LooError: the class's assignment cannot be read.
    """
    from pathlib import Path

    from ..teaching.assignment import class_assignment
    from .classroom.engines import is_address, open_store
    from .classroom.store import ClassBookError

    address = is_address(folder)
    try:
        book = open_store(folder if address else Path(folder), create=False,
                          class_name=class_name)
        try:
            students = book.marked(book.where if address else folder)
        finally:
            book.close()
    except ClassBookError as exc:
        raise ValueError(str(exc)) from exc
    return students, class_assignment(book.folder if address else folder)


def _detail_lines(marked: Marked, assignment: Assignment | None) -> list[str]:
    """The items of ``loo-tutor mark --detail``: every exercise scored, every answer set apart."""
    places = {id(mark): place for place, mark, _ in marked.marks}
    score = marked.score(assignment)
    lines = []
    for number, item in enumerate(score.items, 1):
        mark = item.last
        head = f"  {number}. {item.kind} seed {item.seed}"
        if mark is None:
            lines.append(f"{head}: {item.outcome.value}")
            continue
        head += f" ({places.get(id(mark), '')})"
        told = item.outcome.value
        if mark.verdict == "unreadable":
            told = "unreadable, counted as wrong"
        if item.checks > 1 and item.outcome.value != "solution shown":
            told += f" ({item.checks} checks)"
        line = f"{head}: {told}; answered {mark.answer or '—'}"
        if mark.verdict == "wrong":
            line += f"; {mark.rule} ({mark.rule_name}): " + " ".join(mark.parts)
        elif mark.verdict == "unreadable":
            line += "; " + " ".join(mark.parts or (mark.message,))
        lines.append(line)
    for mark in score.off:
        lines.append(f"  {places.get(id(mark), '')} {mark.kind} seed {mark.seed}: not on the "
                     f"assignment, not marked; answered {mark.answer or '—'}")
    for mark in score.unjudged:
        seed = f"seed {mark.seed}" if mark.seed >= 0 else "no seed"
        lines.append(f"  {places.get(id(mark), '')} {mark.kind or '?'} {seed}: not an exercise; "
                     f"{mark.message}")
    return lines


_SQLITE = b"SQLite format 3\x00"


def _csv_refused(args: argparse.Namespace) -> str | None:
    """Why ``mark --csv`` must not write where it was told, or ``None``.

    Never over a file being marked (an answers file, the key, the class's
    database) nor over any SQLite database; over any other file only with
    ``--force``.
    """
    import os
    from pathlib import Path

    target = Path(args.csv)
    if args.csv == "-" or not target.exists():
        return None
    inputs = [Path(p) for p in [*args.files, args.key] if p not in (None, "-")]
    if args.class_folder:
        folder = Path(args.class_folder)
        inputs += [folder, folder / "class.sqlite3"]
    for one in inputs:
        try:
            if one.exists() and os.path.samefile(target, one):
                return (f"--csv {args.csv} is a file being marked; "
                        "write the grade book under another name")
        except OSError:
            continue
    if not target.is_file():  # a pipe, a device or a folder
        return f"--csv {args.csv} is not a regular file; write the grade book elsewhere"
    try:
        with open(target, "rb") as start:
            database = start.read(len(_SQLITE)) == _SQLITE
    except OSError:
        database = False
    if database:
        return f"--csv {args.csv} is a database (a class's?); write the grade book elsewhere"
    if not args.force:
        return f"{args.csv} exists; give --force to write the grade book over it"
    return None


def _write_csv(target: str, rows: list[Any], write: Any) -> int:
    if target == "-":
        write(rows, sys.stdout)
        return EXIT_LEGAL
    try:  # with a byte-order mark, so that spreadsheets read the file as UTF-8
        with open(target, "w", encoding="utf-8-sig", newline="") as out:
            write(rows, out)
    except OSError as exc:
        reason = exc.strerror.lower() if exc.strerror else str(exc)
        print(f"error: cannot write the grade book {target!r}: {_one_line(reason)}",
              file=sys.stderr)
        return EXIT_BAD
    print(f"wrote the grade book {target}")
    return EXIT_LEGAL


def _add_mark_command(commands: Any) -> None:
    mark = commands.add_parser(
        "mark", help="mark students' answers files: every exercise made again and judged",
        description="Mark answers files (one per student, typed from a worksheet or downloaded "
                    "from the book's exercises page), or with --class the answers a classroom "
                    "kept: one line per student with the score by kind of exercise.",
        epilog_from=_mark_help, formatter_class=argparse.RawDescriptionHelpFormatter)
    mark.add_argument("files", nargs="*", metavar="FILE", help="an answers file, or - for stdin")
    mark.add_argument("--class", dest="class_folder", metavar="DIR",
                      help="also mark every answer a classroom kept in DIR (the folder of "
                           "'loo-tutor classroom --data DIR', or a copy of its class.sqlite3, "
                           "or the postgresql://... address it was given), one line per "
                           "student")
    mark.add_argument("--class-name", default="class", metavar="NAME",
                      help="with --class: the class of the store to mark, as 'loo-tutor "
                           "classroom --class-name' named it (default: class)")
    mark.add_argument("--key", metavar="KEY",
                      help="the assignment to mark against (a key.yaml written by worksheet or "
                           "exercise, or a file listing title, id and exercises): every "
                           "exercise of it in every student's result")
    mark.add_argument("--detail", action="store_true",
                      help="also one line per exercise: its outcome, what was answered and, "
                           "for each mistaken part, the rule and the right answer")
    mark.add_argument("--follow-up", dest="follow_up", metavar="DIR",
                      help="with --key: write each student a short new sheet with its key, "
                           "in DIR/NAME/, of exercises that each turn on a rule they missed")
    mark.add_argument("--csv", metavar="CSV",
                      help="write a grade book, UTF-8 with a byte-order mark, one row per "
                           "student and exercise (- for standard output, without the mark, "
                           "instead of the score lines); an existing file is written over "
                           "only with --force, and never a file being marked or a database")
    mark.add_argument("--force", action="store_true",
                      help="let --csv write over an existing grade book")
    mark.set_defaults(run=_run_mark)


# -- classroom -----------------------------------------------------------------------------

CLASSROOM_PORT = 8866
"""The port ``loo-tutor classroom`` listens on unless ``--port`` says otherwise."""


def _run_classroom(args: argparse.Namespace) -> int:
    from .classroom import server

    if args.assignment is not None and _keep_class_assignment(args) != EXIT_LEGAL:
        return EXIT_BAD
    return server.run(args)


def _keep_class_assignment(args: argparse.Namespace) -> int:
    """Keep ``--assignment`` in the class's folder (``--data``, or the folder the class
    would get by default, which ``args.data`` then names), for ``mark --class`` and the
    classroom's exercises page."""
    from pathlib import Path

    from ..teaching.assignment import class_assignment, read_assignment, save_for_class
    from .classroom.engines import files_folder
    from .classroom.server import new_class_folder

    try:
        assignment = read_assignment(args.assignment)
        if args.data is None:
            args.data = str(new_class_folder(Path.cwd()))
        folder = files_folder(args.data, args.class_name)
        folder.mkdir(parents=True, exist_ok=True)
        earlier = class_assignment(folder)
        save_for_class(folder, assignment)
    except (LooError, OSError) as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    was = f" (it was {earlier.id})" if earlier is not None and earlier.id != assignment.id else ""
    print(f"the class's assignment is {assignment.id}, {assignment.title!r}: "
          f"{len(assignment.items)} exercises{was}")
    return EXIT_LEGAL


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 65536:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1 to 65535)")
    return int(text)


def _minutes(text: str) -> float:
    """Minutes, or seconds written with an ``s`` (``90s``); 0 or more."""
    seconds = text.endswith("s")
    digits = text[:-1] if seconds else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number of minutes, or of seconds like 30s")
    return int(digits) / 60 if seconds else int(digits)


def _some_minutes(text: str) -> float:
    """Minutes, or seconds written with an ``s`` (``90s``); more than 0."""
    minutes = _minutes(text)
    if not minutes:
        raise argparse.ArgumentTypeError(f"{text!r} is no time: give 1 or more")
    return minutes


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number, 0 or more")
    return int(text)


def _base_url(text: str) -> str:
    from .classroom.doors import normal_base

    try:
        return normal_base(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_classroom_command(commands: Any) -> None:
    room = commands.add_parser(
        "classroom", help="serve the notebooks as apps for a class (Voila)",
        description="Serve the notebooks as apps for a class with Voila: code hidden, kernels "
                    "kept ready, idle kernels stopped, nothing loaded from other hosts.")
    room.add_argument("notebooks", nargs="?", default=None, metavar="NOTEBOOKS",
                      help="the folder of notebooks to serve (default: the book's notebooks, "
                           "which come with loo-tutor)")
    room.add_argument("--host", default="127.0.0.1",
                      help="address to listen on (default 127.0.0.1, this machine only; "
                           "0.0.0.0 for every network interface, which requires a token)")
    room.add_argument("--port", type=_port, default=CLASSROOM_PORT,
                      help=f"port to listen on (default {CLASSROOM_PORT})")
    room.add_argument("--base-url", type=_base_url, default="/", metavar="PATH",
                      help="serve everything under this path, such as /user/ann/ or "
                           "/services/loo/ behind JupyterHub's proxy (default /)")
    room.add_argument("--hub", action="store_true",
                      help="serve the class as a JupyterHub service: the address, the "
                           "prefix and the class's name come from the environment the Hub "
                           "gives (and the class store from LOO_TUTOR_DATA unless --data "
                           "gives it); the teacher logs in with the Hub, as a member of "
                           "its group teachers-NAME, instead of a token")
    room.add_argument("--students", choices=("name", "hub"), default="name",
                      help="how students join: 'name', typing their name (default), or "
                           "'hub', logging in with the Hub (with --hub), under their Hub "
                           "name")
    room.add_argument("--token", default=None,
                      help="the token readers must give (default: none on 127.0.0.1, "
                           "a generated one on any other address)")
    room.add_argument("--pool-size", type=_count, default=1, metavar="N",
                      help="kernels kept started and run ahead per notebook (default 1)")
    room.add_argument("--cull-after", type=_minutes, default=20, metavar="MINUTES",
                      help="stop a kernel idle this many minutes with no page connected, "
                           "or seconds written like 30s; 0 never (default 20)")
    room.add_argument("--max-students", type=_count, default=0, metavar="N",
                      help="at most N students at once (a student with several apps open "
                           "counts once); the next waits on a page that says "
                           "so and opens when a place is free (default 0: as many as the "
                           "machine's cores and memory take, printed at start)")
    room.add_argument("--wait-for-place", type=_minutes, default=5, metavar="MINUTES",
                      help="how long a student waits for a place before the page says the "
                           "class is full, or seconds written like 30s (default 5)")
    room.add_argument("--free-place-after", type=_minutes, default=20 / 60, metavar="MINUTES",
                      help="free the place of a student whose page has had no connection to "
                           "the server this long (a tab closed without a goodbye, a computer "
                           "gone to sleep), in minutes or seconds written like 30s "
                           "(default 20s)")
    room.add_argument("--check-class-every", type=_some_minutes, default=0.5, metavar="MINUTES",
                      help="how often the server copies the answers kept into the class's "
                           "database file (class.sqlite3) and looks the file over, in minutes "
                           "or seconds written like 30s (default 30s)")
    room.add_argument("--book", default=None, metavar="DIR",
                      help="built book to serve for the rule links "
                           "(default: _build/html beside NOTEBOOKS, when it exists)")
    room.add_argument("--page", choices=("light", "voila"), default="light",
                      help="the notebook pages: 'light', the project's own page, which "
                           "draws the widgets of ipywidgets (default; Voila's page when "
                           "./dev has not built it), or 'voila', Voila's JupyterLab front "
                           "end, which also draws other widget libraries installed for it")
    room.add_argument("--data", default=None, metavar="DIR",
                      help="the folder that keeps the class: the students' names and every "
                           "answer checked, in an SQLite database (default: a new folder "
                           "loo-class-DATE-TIME in the current folder, named at start); give "
                           "the same folder again to carry on with the same class. Or a "
                           "PostgreSQL database's address, postgresql://USER@HOST/DB, which "
                           "several classroom servers can share, each serving one class")
    room.add_argument("--class-name", default="class", metavar="NAME",
                      help="the class of the store this server serves, letters, digits, "
                           "'-', '_' or '.' (default: class); a store holds several")
    room.add_argument("--class-code", default=None, metavar="CODE",
                      help="what students type when they join, at least 8 letters or "
                           "digits (default: none on this machine only; with --host, one "
                           "is made and printed, such as k7mq-2xpr)")
    room.add_argument("--new-teacher-token", action="store_true",
                      help="replace the teacher's token kept in the class folder with a new "
                           "one (the old teacher's address stops working)")
    room.add_argument("--assignment", default=None, metavar="FILE",
                      help="set the class this assignment (a key.yaml written by worksheet, or "
                           "a short file of title, id and exercises): it is kept in the class's "
                           "folder as assignment.yaml, and 'loo-tutor mark --class DIR' marks "
                           "every student against it")
    room.set_defaults(run=_run_classroom)


# -- class -------------------------------------------------------------------------------


def _run_class_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .classroom.store import ClassBook, ClassBookError

    try:
        book = ClassBook(Path(args.folder), create=False)
        try:
            book.backup(Path(args.file))
        finally:
            book.close()
    except ClassBookError as exc:
        print(f"error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD
    print(f"copied the class kept in {args.folder} into {args.file}")
    return EXIT_LEGAL


def _add_class_command(commands: Any) -> None:
    room = commands.add_parser(
        "class", help="look after a classroom's class folder",
        description="Look after the class a classroom server keeps (its --data folder).")
    actions = room.add_subparsers(dest="action", required=True, parser_class=_Parser)
    backup = actions.add_parser(
        "backup", help="copy the class into one file, even while the server runs",
        description="Copy the class kept in DIR (every name and answer) into the new file "
                    "FILE, with SQLite's online backup: safe while the server runs, and the "
                    "copy is one file, which 'loo-tutor mark --class FILE' reads.")
    backup.add_argument("folder", metavar="DIR", help="the class folder (classroom --data DIR)")
    backup.add_argument("file", metavar="FILE", help="the copy to write (a new file)")
    backup.set_defaults(run=_run_class_backup)


# -- the command ---------------------------------------------------------------------------


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
    _add_classroom_command(commands)
    _add_class_command(commands)
    _add_exercise_commands(commands)
    _add_mark_command(commands)
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
    except Exception as exc:  # one line, never a traceback
        print(f"error: {_unexpected(exc, f'running loo-tutor {args.command}')}", file=sys.stderr)
        return EXIT_BAD
    return code


if __name__ == "__main__":
    raise SystemExit(main())
