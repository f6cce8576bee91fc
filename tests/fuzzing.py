"""Fuzz targets for everything that reads input, shared by the tests and ``benchmarks/fuzz.py``.

Each target is a hypothesis strategy and a property over what it draws:

``records``
    records made from real seeded deals, then spoiled: a card swapped, an
    announcement changed, a trick cut short or lengthened, a field dropped or
    given an odd value. :func:`agrees_with_engine` holds the checker to its
    own word: a record it calls complete replays in the engine to the same
    settlement; one it calls illegal at step k has a legal prefix of k steps
    and the refused action is not among the options there; an in-progress
    record offers the engine's options; a record written back from the state
    reached checks to the same result; and anything refused is refused on
    one line, by the checker and by the replayer alike.
``card_text``
    text for :func:`loo_tutor.engine.cards.parse_card`: a card, whose written form
    reads back as the same card, or a one-line :class:`NotationError`.
``cli``
    argument lists for ``loo-tutor`` (every command, real and nonsense
    options, files that exist or not, text on standard input): exit status
    0, 1 or 2, never an exception, at most one line on standard error and
    exactly one when the input is refused (status 2, except ``--jsonl``,
    which reports refusals in its output).
``answers``
    answers to seeded exercises of every kind, typed in every form and in
    nonsense: :meth:`Exercise.grade` never raises, gives each field a known
    status, says "unreadable" in one line, and a right answer stays right
    whatever is typed in the other fields.
``yaml``
    the text of a real record, written as YAML or JSON and then made hostile
    with keys that are lists or mappings, anchors and aliases (alias bombs,
    recursive and undefined aliases), tags, deep nesting, huge numbers, NUL
    and other characters YAML refuses, byte order marks, very long lines,
    several documents: the text is read as a mapping or refused in one line,
    the mapping is checked or refused in one line, ``loo-tutor check``
    gives one answer for it, alone and among other files in ``--jsonl``,
    where every file gets its line (:data:`JSONL`), and ``loo-tutor
    exercise`` makes an exercise of it or refuses it in one line.
``answers_files``
    answers files for ``loo-tutor mark``: a real key of seeded exercises of
    every kind, then spoiled item by item (odd kinds, seeds, answers, times,
    records, fields, and claims of being right) and made hostile as text
    (alias bombs, deep nesting, long lines, odd characters, cut short,
    several documents): :func:`~loo_tutor.teaching.marking.mark_text` never
    raises and gives every item a mark, an untouched item stays right, every
    problem is one line naming the file, and ``loo-tutor mark`` among other
    files gives each file its score line or its problem lines
    (:data:`MARKED`), a grade-book row per item and exit status 2 exactly
    when some problem was reported.
"""

from __future__ import annotations

import collections
import contextlib
import csv
import functools
import io
import json
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from loo_tutor.apps.classroom import server as classroom
from loo_tutor.apps.cli import main
from loo_tutor.engine.cards import CARDS, parse_card
from loo_tutor.engine.errors import LooError, MalformedRecord, NotationError
from loo_tutor.engine.state import DealState, Phase, new_deal
from loo_tutor.records.reading import loads as read_text_record
from loo_tutor.records.record import FIELDS, check, dumps, loads, record_from_state, replay
from loo_tutor.teaching.exercises import NAMES, Exercise, Kind, make
from loo_tutor.teaching.marking import (
    NOT_AN_EXERCISE,
    RIGHT,
    SOLUTION,
    UNREADABLE,
    WRONG,
    key_text,
    read_answers,
)

CARD_TEXTS = [c.text for c in CARDS]
ODD_CARDS = ["10h", "T♥", "A♠️", " qs ", "1H", "ZZ", "", "AH AH", "11S", "♥A", "A\n H", "aS\t"]
WORDS = ["stand", "pass", "miss", "defend", "Stand ", "PASS", "fold", "", "stand\n"]
ODD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=5),
                       st.floats(allow_nan=True), st.sampled_from(CARD_TEXTS + ODD_CARDS),
                       st.lists(st.sampled_from(CARD_TEXTS), max_size=4),
                       st.dictionaries(st.text(max_size=3), st.sampled_from(WORDS), max_size=3))
OPTIONS = ["stand", "pass", "miss", "defend"]


def one_line(text: str) -> bool:
    """Whether ``text`` is one non-empty line."""
    return bool(text.strip()) and "\n" not in text.strip("\n")


# -- records -------------------------------------------------------------------------------


def played_deal(seed: int) -> DealState:
    """A seeded random deal, played legally for a random number of actions."""
    rng = random.Random(seed)
    count = rng.randint(5, 8)
    carried = rng.choice([Fraction(0), Fraction(3), Fraction(9), Fraction(10, 3), Fraction(27)])
    state = new_deal([f"P{i}" for i in range(count)], rng.randrange(count), carried, rng)
    stop = rng.randint(0, 30)
    while not state.is_terminal() and stop:
        state = state.apply(rng.choice(state.legal_actions()))
        stop -= 1
    return state


@st.composite
def spoiled_records(draw: st.DrawFn) -> dict[str, Any]:
    """A real record, maybe spoiled by up to three edits."""
    record = record_from_state(played_deal(draw(st.integers(0, 2**32 - 1))))
    for _ in range(draw(st.integers(0, 3))):
        edit = draw(st.sampled_from(["card", "swap", "announce", "cut", "extend", "drop", "odd",
                                     "carried", "trump", "order"]))
        tricks = record.get("tricks")
        if not (isinstance(tricks, list) and all(isinstance(t, list) and t for t in tricks)):
            tricks = [] if edit == "extend" else None
        players = record.get("players")
        names = players if isinstance(players, list) and players else ["P0"]
        if edit == "card" and tricks:
            t = draw(st.integers(0, len(tricks) - 1))
            i = draw(st.integers(0, len(tricks[t]) - 1))
            tricks[t][i] = draw(st.sampled_from(CARD_TEXTS))
        elif edit == "swap" and tricks:
            t = draw(st.integers(0, len(tricks) - 1))
            last = len(tricks[t]) - 1
            a, b = draw(st.integers(0, last)), draw(st.integers(0, last))
            tricks[t][a], tricks[t][b] = tricks[t][b], tricks[t][a]
        elif edit == "announce" and isinstance(record.get("announce", {}), dict):
            calls = record.setdefault("announce", {})
            calls[draw(st.sampled_from(names))] = draw(st.sampled_from(OPTIONS + WORDS))
        elif edit == "cut" and tricks:
            t = draw(st.integers(0, len(tricks) - 1))
            tricks[t] = tricks[t][:draw(st.integers(0, len(tricks[t])))]
        elif edit == "extend" and tricks is not None:
            if not tricks or draw(st.booleans()):
                tricks.append([])
            tricks[-1].append(draw(st.sampled_from(CARD_TEXTS)))
            record["tricks"] = tricks
        elif edit == "drop" and len(record) > 1:
            del record[draw(st.sampled_from(sorted(record)))]
        elif edit == "odd":
            record[draw(st.sampled_from(FIELDS))] = draw(ODD_VALUES)
        elif edit == "carried":
            record["carried"] = draw(st.sampled_from([0, 3, 9, "10/3", "3/0", -1, "1/3", 1.5,
                                                      "9", "x"]))
        elif edit == "trump":
            record["trump"] = draw(st.sampled_from(CARD_TEXTS + ODD_CARDS))
        elif edit == "order" and isinstance(record.get("announce"), dict):
            items = list(record["announce"].items())
            record["announce"] = dict(draw(st.permutations(items)))
    return record


def _options(state: DealState) -> list[str]:
    if state.phase is Phase.ANNOUNCE:
        return sorted(a.value for a in state.legal_announcements())
    return sorted(c.text for c in state.legal_cards())


def agrees_with_engine(record: Any) -> str:
    """Check ``record`` and hold the result to what the engine itself says; returns the status."""
    try:
        result = check(record)
    except MalformedRecord as exc:
        assert one_line(str(exc)), repr(str(exc))
        try:
            replay(record)
        except MalformedRecord:
            return "malformed"
        raise AssertionError(f"check refused the record ({exc}) but replay accepted it") from None
    played = replay(record)
    states, last = played.states, played.states[-1]
    # Each step of the legal prefix is one the engine allows, from the deal as dealt.
    state = states[0]
    for action in played.actions:
        assert state.check(action), f"replay took {action}, which the engine refuses"
        state = state.apply(action)
    status = result["status"]
    if status == "complete":
        assert played.refused is None and last.is_terminal()
        settled = last.settlement()
        names = last.players
        assert result["payouts"] == {names[s]: str(a) for s, a in settled.payouts.items()}
        assert result["looed"] == [names[s] for s in settled.looed]
        assert result["carried_next"] == str(settled.carried_next)
        assert result["net"] == {names[s]: str(a) for s, a in settled.net.items()}
        assert sum(settled.net.values()) == last.carried - settled.carried_next
    elif status == "in_progress":
        assert played.refused is None and not last.is_terminal()
        assert result["next"]["options"] == _options(last)
        assert result["next"]["player"] == last.players[last.current_player()]
    else:
        assert status == "illegal", status
        assert played.refused is not None, "check found an illegal action that replay did not"
        action, verdict = played.refused
        assert not verdict and verdict.rule is not None
        error = result["error"]
        assert error["rule"] == verdict.rule.value, (error, verdict)
        # Refused: after the end, out of turn, or not among the options of the player to act.
        to_act = last.current_player()
        if to_act is None:
            assert last.is_terminal(), error
        elif error["player"] == last.players[to_act]:
            assert error["action"] not in _options(last), (error, _options(last))
        else:
            assert error["rule"] in ("R-ANN-ORDER", "R-PLAY-ORDER"), error
        assert one_line(error["message"])
    # The state reached, written back as a record, checks to the same result.
    again = check(record_from_state(last))
    if status == "illegal" and last.is_terminal():
        assert again["status"] == "complete"
    elif status == "illegal":
        assert again["status"] == "in_progress" and again["next"] == {
            "player": last.players[last.current_player()], "phase": last.phase.value,
            "options": _options(last)}
    else:
        assert again == result, (again, result)
    assert check(loads(dumps(record_from_state(last)))) == again
    return str(status)


# -- card text -----------------------------------------------------------------------------

card_texts = st.one_of(
    st.text(max_size=6),
    st.builds(lambda r, s, pad: f"{pad}{r}{s}{pad}",
              st.sampled_from([*"AKQJT98765432", "10", "1", "0", "11", "a", "k"]),
              st.sampled_from([*"SHDCshdc♠♥♦♣♤♡♢♧", "♥\ufe0f", "X", ""]),
              st.sampled_from(["", " ", "\t", "\n"])),
    st.sampled_from(ODD_CARDS))


def card_text_reads_or_refuses(text: str) -> str:
    """``parse_card(text)`` is a card that reads back as itself, or a one-line refusal."""
    try:
        card = parse_card(text)
    except NotationError as exc:
        assert one_line(str(exc)), repr(str(exc))
        return "refused"
    assert parse_card(str(card)) is card or parse_card(str(card)) == card
    assert parse_card(card.text) == card
    return "card"


# -- the command line ----------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One run of the command line: its arguments, standard input and files to create."""

    argv: tuple[str, ...]
    stdin: str
    files: tuple[tuple[str, str], ...]


_FILE_TEXTS = st.one_of(
    st.builds(lambda seed: dumps(record_from_state(played_deal(seed))), st.integers(0, 10**6)),
    st.builds(lambda r: dumps(r) if isinstance(r, dict) else str(r), spoiled_records()),
    st.text(max_size=80),
    st.sampled_from(["", "{", "- a\n- b", "players: [A, B]", "\x00\xff", "tricks: [[AH]]"]))
_VALUES = st.one_of(st.sampled_from(["0", "1", "5", "8", "9", "-1", "3/2", "x", "", "1e3",
                                     "99999999999999999999", "1,4", "7", "1 4", "4", "6",
                                     "65536", "127.0.0.1", "--"]),
                    st.text(max_size=6))


@st.composite
def cli_calls(draw: st.DrawFn) -> Call:
    """An argument list for ``loo-tutor``, its standard input and the files it names."""
    if draw(st.integers(0, 2)) == 0:  # a well-formed check of a real or spoiled record
        text = draw(st.builds(dumps, spoiled_records()))
        form = draw(st.sampled_from([(), ("--json",), ("--jsonl",)]))
        if draw(st.booleans()):
            return Call(("check", *form, "-"), text, ())
        return Call(("check", *form, "{tmp}/deal.yaml"), "", (("deal.yaml", text),))
    command = draw(st.sampled_from(["check", "demo", "worksheet", "exercise", "classroom",
                                    "help", "", "--help", "chek", "-x"]))
    argv: list[str] = [command] if command else []
    files: list[tuple[str, str]] = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["file", "missing", "stdin", "dir", "option", "word"]))
        if kind == "file":
            name = f"in{len(files)}.yaml"
            files.append((name, draw(_FILE_TEXTS)))
            argv.append("{tmp}/" + name)
        elif kind == "missing":
            argv.append("{tmp}/missing.yaml")
        elif kind == "stdin":
            argv.append("-")
        elif kind == "dir":
            argv.append("{tmp}")
        elif kind == "option":
            option = draw(st.sampled_from(
                ["--json", "--jsonl", "--seed", "--players", "--carried", "--kinds", "--kind",
                 "--count", "--out", "--host", "--port", "--token", "--pool-size",
                 "--cull-after", "--book", "--help", "--progress", "--nope"]))
            argv.append(option)
            if draw(st.booleans()):
                argv.append("{tmp}/out" if option in ("--out", "--book") else draw(_VALUES))
        else:
            argv.append(draw(_VALUES))
    return Call(tuple(argv), draw(_FILE_TEXTS), tuple(files))


def _pretend_to_serve(args: Any) -> int:
    """Stands in for the classroom server: the options are parsed, nothing is served."""
    return 0


FAULT = "a fault in loo-tutor"
"""What the command says of an error it did not foresee (instead of a traceback)."""


def cli_answers_in_one_line(call: Call) -> int:
    """Run ``loo-tutor`` in this process on ``call``; returns the exit status."""
    with tempfile.TemporaryDirectory(prefix="loo-fuzz-") as tmp:
        for name, text in call.files:
            Path(tmp, name).write_text(text, encoding="utf-8", errors="surrogatepass")
        argv = [a.replace("{tmp}", tmp) for a in call.argv]
        out, err = io.StringIO(), io.StringIO()
        real_stdin, real_run = sys.stdin, classroom.run
        sys.stdin = io.StringIO(call.stdin)
        classroom.run = _pretend_to_serve
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = main(argv)
                except SystemExit as stop:
                    code = stop.code if isinstance(stop.code, int) else 2
        finally:
            sys.stdin, classroom.run = real_stdin, real_run
    said = err.getvalue()
    assert code in (0, 1, 2), (argv, code, said)
    assert "Traceback" not in said, said
    assert FAULT not in said + out.getvalue(), (argv, said, out.getvalue()[:300])
    if "--progress" not in argv:
        assert said.count("\n") <= 1, (argv, said)
        if code == 2 and "--jsonl" not in argv:
            assert one_line(said), (argv, said, out.getvalue()[:200])
    return code


# -- exercise answers ----------------------------------------------------------------------

_ANSWER_TEXT = st.one_of(
    st.sampled_from(["9H", "9h, q♥", "AH AH", "10/3", "3 1/3", "3.33", "3.", "-2", "+4", "0",
                     "nobody", "none", "-", "A, B", "P0 P1", "R-FOLLOW", "r-head", "yes", "no",
                     "stand", "pass", "miss", "defend", "¼", "1/0", "9" * 40, "", "  "]),
    st.text(max_size=12))
_ANSWER = st.one_of(_ANSWER_TEXT, st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=True, allow_infinity=True),
                    st.fractions(max_denominator=12),
                    st.lists(_ANSWER_TEXT, max_size=4),
                    st.frozensets(st.sampled_from(CARD_TEXTS), max_size=4),
                    st.dictionaries(st.text(max_size=3), _ANSWER_TEXT, max_size=2))
STATUSES = {"right", "wrong", "empty", "unreadable"}


@st.composite
def graded_answers(draw: st.DrawFn) -> tuple[int, int, dict[str, Any], str | None]:
    """An exercise (kind, seed), answers to some fields, and one field answered right."""
    kind = draw(st.sampled_from([int(k) for k in Kind]))
    seed = draw(st.integers(0, 10**6))
    exercise = make(kind, seed)
    keys = [f.key for f in exercise.fields]
    answers = {key: draw(_ANSWER) for key in keys if draw(st.booleans())}
    if draw(st.booleans()):
        answers[draw(st.text(max_size=4))] = draw(_ANSWER)  # a field that does not exist
    kept = draw(st.sampled_from([*keys, None]))
    return kind, seed, answers, kept


def answers_are_graded(drawn: tuple[int, int, dict[str, Any], str | None]) -> str:
    """Grading never raises, every verdict is known, and a right answer stays right."""
    kind, seed, answers, kept = drawn
    exercise = make(kind, seed)
    if kept is not None:
        answers = dict(answers, **{kept: exercise.answers()[kept]})
    try:
        results = exercise.grade(answers)
    except LooError as exc:  # grade promises never to raise
        raise AssertionError(f"grade raised {exc!r}") from exc
    assert list(results) == [f.key for f in exercise.fields]
    for verdict in results.values():
        assert verdict.status in STATUSES, verdict
        assert verdict.message.strip(), verdict
        if verdict.status == "unreadable":
            assert one_line(verdict.message), verdict.message
    if kept is not None:
        assert results[kept].is_right, (kept, answers[kept], results[kept])
    return "graded"


# -- hostile YAML text --------------------------------------------------------------------

_FIELD_LINE = st.sampled_from(["players", "dealer", "carried", "hands", "miss", "trump",
                               "announce", "tricks"])
_TAGGED = ["!!timestamp 2026-13-45", "!!timestamp nope", "!!bool maybe", "!!int x", "!!float x",
           "!!binary aGVsbG8=", "!!binary ???", "!!null x", "!!str 9", "!!set {a, b}",
           "!!omap [a: 1, b: 2]", "!!pairs [a: 1, a: 2]", "!!python/object:os.system x",
           "!!python/name:os.system", "!custom x", "!<tag:example.com,2026:x> y", "!!map [a]",
           "!!seq {a: 1}", "2026-12-03", "2026-12-03T07:00:00Z", "0x1F", "0o17", "1_000",
           "190:20:30", ".inf", "-.nan", "~", "=", "<<"]
_ODD_CHARACTERS = ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\u2028", "\ufeff", "\ufffe",
                   "\ud800", "\t", "\r", "\r\n", "\\", '"', "'", "%", "@", "`", "|", ">", "&", "*",
                   "!", "?", ":", "-", "#", "{", "}", "[", "]", ","]
_SIZES = st.sampled_from([0, 1, 2, 31, 32, 33, 100, 499, 500, 501, 2000, 4300, 4301, 10_000,
                          49_000, 50_001, 120_000])


def _laughs(width: int, depth: int, field: str) -> str:
    """An alias bomb: each level a list of ``width`` aliases of the level before."""
    lines = [f"{field}0: &l0 [lol]"]
    for level in range(1, depth + 1):
        aliases = ", ".join([f"*l{level - 1}"] * width)
        lines.append(f"{field}{level}: &l{level} [{aliases}]")
    return "\n".join(lines)


@st.composite
def hostile_texts(draw: st.DrawFn) -> str:
    """The text of a real record, made hostile by up to three edits (or none)."""
    record = record_from_state(played_deal(draw(st.integers(0, 2**32 - 1))))
    as_json = draw(st.integers(0, 4)) == 0
    lines = (json.dumps(record, indent=1) if as_json else dumps(record)).splitlines()
    for _ in range(draw(st.integers(0, 3))):
        edit = draw(st.sampled_from(["key", "laughs", "alias", "tag", "deep", "char", "bom",
                                     "long", "number", "documents", "duplicate", "merge",
                                     "json_deep", "cut"]))
        where = draw(st.integers(0, len(lines)))
        field = draw(_FIELD_LINE)
        size = draw(_SIZES)
        if edit == "key":  # a list or a mapping as a key, top level or inside a field
            key = draw(st.sampled_from(["[QS, 2D, 3D]", "{a: 1}", "[]", "{}", "[[x]]", "*k",
                                        "!!set {a}", "? [a]\n: b"]))
            inside = draw(st.sampled_from(["", "  ", "hands", "announce", "rules"]))
            if inside in ("hands", "announce", "rules"):
                lines = [line for line in lines if not line.startswith(inside + ":")]
                lines.append(f"{inside}: {{A: stand, {key}: x}}" if "\n" not in key
                             else f"{inside}:\n  ? [a]\n  : b")
            else:
                anchor = "k: &k [a]\n" if key == "*k" else ""
                lines.insert(where, f"{anchor}{inside}{key}: x")
        elif edit == "laughs":
            width, depth = draw(st.integers(2, 12)), draw(st.integers(1, 12))
            lines.insert(where, _laughs(width, depth, draw(st.sampled_from(["l", "x", field]))))
            if draw(st.booleans()):
                lines.append(f"{field}: *l{depth}")
        elif edit == "alias":
            lines.append(draw(st.sampled_from([
                f"{field}: *nowhere", f"{field}: &r [*r]", f"{field}: &r {{a: *r}}",
                f"x: &a {field}\n*a : 1", f"{field}: &a [1]\ny: &a [2]", "? &k x\n: *k",
                f"x: &s {'y' * min(size, 600)}\n{field}: [*s, *s, *s]"])))
        elif edit == "tag":
            tagged = draw(st.sampled_from(_TAGGED))
            lines = [f"{field}: {tagged}" if line.startswith(field + ":") else line
                     for line in lines]
        elif edit == "deep":
            depth = draw(st.sampled_from([30, 31, 32, 33, 64, 1000, 20_000]))
            shape = draw(st.sampled_from(["flow list", "flow map", "block", "mixed"]))
            if shape == "flow list":
                value = "[" * depth + "AS" + "]" * depth
            elif shape == "flow map":
                value = "{a: " * depth + "1" + "}" * depth
            elif shape == "mixed":
                value = "[{a: " * (depth // 2) + "1" + "}]" * (depth // 2)
            else:
                value = "".join("\n" + "  " * (i + 1) + "- " for i in range(min(depth, 2000)))
            lines.insert(where, f"{field}: {value}")
        elif edit == "char":
            text = "\n".join(lines)
            at = draw(st.integers(0, len(text)))
            character = draw(st.sampled_from(_ODD_CHARACTERS))
            lines = (text[:at] + character * draw(st.integers(1, 3)) + text[at:]).split("\n")
        elif edit == "bom":
            lines.insert(0 if draw(st.booleans()) else where, "\ufeff")
        elif edit == "long":
            filler = draw(st.sampled_from(["x", "AS, ", " ", "# ", "é", "🂡"]))
            line = draw(st.sampled_from([f"# {filler * size}", f"{field}: {filler * size}",
                                         f"{field}: [{'AS, ' * size}AS]",
                                         f'{field}: "{filler * size}"', filler * size]))
            lines.insert(where, line)
        elif edit == "number":
            digits = "9" * max(size, 1)
            lines = [line for line in lines if not line.startswith("carried:")]
            lines.append(draw(st.sampled_from([
                f"carried: {digits}", f"carried: '{digits}/3'", f"carried: 0x{'f' * size}",
                f"carried: 1e{digits[:400]}", f"carried: -{digits}", f"carried: {digits}.5",
                f'"carried": {digits}', f"carried: {'1:' * min(size, 240)}1"])))
        elif edit == "documents":
            lines = [*lines, draw(st.sampled_from(["---", "...", "--- !!str x", "%YAML 1.1"])),
                     *lines]
        elif edit == "duplicate" and lines:
            lines.insert(where, lines[min(where, len(lines) - 1)])
        elif edit == "merge":
            lines.append(f"base: &b {{dealer: P0}}\n{field}: {{<<: [*b, *b], x: 1}}")
        elif edit == "json_deep":
            lines = [json.dumps({field: json.loads("[" * 40 + "]" * 40)})
                     if draw(st.booleans()) else "[" * size + "]" * size]
        elif edit == "cut" and lines:
            text = "\n".join(lines)
            lines = text[:draw(st.integers(0, len(text)))].split("\n")
    return "\n".join(lines)


JSONL: collections.Counter[str] = collections.Counter()
"""The files given to ``loo-tutor check --jsonl`` by the ``yaml`` target and the lines
they got back (``files`` and ``lines``): every file gets its line."""


def _verdict(text: str) -> tuple[int, str]:
    """The exit code and what reading and checking ``text`` come to."""
    try:
        data = read_text_record(text)
    except MalformedRecord as exc:
        assert one_line(str(exc)), repr(str(exc))
        return 2, "refused when read"
    try:
        result = check(data)
    except MalformedRecord as exc:
        assert one_line(str(exc)), repr(str(exc))
        return 2, "malformed"
    return (1 if result["status"] == "illegal" else 0), str(result["status"])


def _run(argv: list[str], stdin: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    real_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = real_stdin
    said = out.getvalue() + err.getvalue()
    assert "Traceback" not in said and FAULT not in said, (argv, said[:500])
    return code, out.getvalue(), err.getvalue()


def hostile_text_is_read_or_refused(text: str) -> str:
    """Read, check and ``loo-tutor check`` agree on ``text``, and every refusal is one line."""
    code, verdict = _verdict(text)
    alone, out, err = _run(["check", "--json", "-"], text)
    assert alone == code, (alone, code, err)
    if code == 2:
        assert out == "" and err.endswith("\n") and len(err.splitlines()) == 1, (out[:200], err)
    else:
        assert err == "" and json.loads(out)["status"] == verdict
    with tempfile.TemporaryDirectory(prefix="loo-fuzz-") as tmp:
        kind = str(1 + len(text) % 6)
        made, out, err = _run(["exercise", "-", "--kind", kind, "--out", tmp], text)
        assert made in (0, 2), (made, err)
        if made == 2:
            assert out == "" and err.endswith("\n") and len(err.splitlines()) == 1, err
        if verdict == "refused when read":
            assert made == 2 and err.startswith("malformed record: "), err
        hostile = Path(tmp, "hostile.yaml")
        hostile.write_text(text, encoding="utf-8", errors="surrogatepass")
        files = [FORCED_ACE_FILE, str(hostile), "-", str(Path(tmp, "missing.yaml"))]
        worst, out, err = _run(["check", "--jsonl", *files], text)
    lines = out.splitlines()  # at every line break Python knows, not only "\n"
    JSONL["files"] += len(files)
    JSONL["lines"] += len(lines)
    assert len(lines) == len(files), (len(lines), len(files), out[-500:])
    answers = [json.loads(line) for line in lines]
    assert [a["file"] for a in answers] == files
    assert answers[2]["exit"] == code, (answers[2], code)
    assert answers[3]["exit"] == 2 and answers[3]["malformed"].startswith("cannot read")
    assert worst == max(a["exit"] for a in answers) and err == "", err
    return verdict


FORCED_ACE_FILE = str(Path(__file__).parent / "data" / "examples" / "01_seed000_forced_ace.yaml")


# -- answers files for loo-tutor mark ---------------------------------------------------------

_ODD_KINDS = st.one_of(st.sampled_from(["legal-cards", "LEGAL_CARDS", " settle ", "7", "0", "-1",
                                        "chess", "", "1.0", "99999999999999999999"]),
                       st.integers(-3, 9), st.none(), st.booleans(), st.lists(st.integers(1, 6)))
_ODD_SEEDS = st.one_of(st.sampled_from([-1, 1_000_000_000, 1_000_000_001, 2**70, "12", " 3 ",
                                        "x", "", "1e3", "0x10", "9" * 480, 1.5]),
                       st.none(), st.booleans(), st.integers(0, 60), st.lists(st.integers(0, 3)))
_ODD_ITEMS = st.sampled_from(["12", "[1, 2]", "~", "'text'", "{}", "{kind: 1}",
                              "{seed: 1, answer: x}", "{kind: 1, seed: 1, verdict: right}",
                              "{kind: 1, seed: 1, answer: x, score: 100}"])
_ODD_FIELDS = st.sampled_from([("time", "2026-12-04T10:15:00Z"), ("time", "yesterday"),
                               ("time", "'2026-13-45'"), ("time", "[1]"), ("time", "'" + "9" * 50 + "'"),
                               ("record", "missing.yaml"), ("record", "/dev/null"),
                               ("record", "."), ("record", "[a]"), ("record", "'" + "x" * 450 + "'"),
                               ("verdict", "right"), ("right", "true"), ("rule", "R-FOLLOW")])
MARKED: collections.Counter[str] = collections.Counter()
"""The files given to ``loo-tutor mark`` by the ``answers_files`` target and those that got
their line (``files`` and ``lines``): a score line when read, a problem line naming it when
not."""


@functools.lru_cache(maxsize=512)
def _exercise(kind: Kind, seed: int) -> Exercise:
    return make(kind, seed)


def _as_read(value: Any) -> Any:
    """A drawn value as YAML or JSON can write it: fractions as text, sets as lists."""
    if isinstance(value, dict):
        return {k: _as_read(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_as_read(v) for v in value]
    return str(value) if isinstance(value, Fraction) else value


@functools.cache
def _key_of_two() -> str:
    """The key of the two exercises marked beside every hostile file."""
    return key_text([_exercise(Kind.SETTLE, 1), _exercise(Kind.TRICK, 2)])


@st.composite
def hostile_answers_files(draw: st.DrawFn) -> tuple[str, tuple[int, ...] | None]:
    """The text of an answers file, and the items left as the key wrote them (``None`` once
    the text itself was spoiled)."""
    exercises = [_exercise(draw(st.sampled_from(list(Kind))), draw(st.integers(0, 60)))
                 for _ in range(draw(st.integers(1, 4)))]
    data = yaml.safe_load(key_text(exercises, draw(st.sampled_from(["Ann", "=1+1", "Bo\x1b[2J"]))))
    items: list[Any] = data["answers"]
    touched: set[int] = set()
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(items) - 1))
        edit = draw(st.sampled_from(["answer", "kind", "seed", "item", "field", "drop", "student",
                                     "top"]))
        touched.add(at)
        item = items[at]
        if edit in ("student", "top"):
            touched.update(range(len(items)))
        elif not isinstance(item, dict):
            continue
        if edit == "answer":
            item["answer"] = draw(_ANSWER | st.dictionaries(st.sampled_from(
                ["winner", "revealed", "payouts", "looed", "carried", "next_pool", "action",
                 "rule", "left", "net", "x"]), _ANSWER | st.dictionaries(
                    st.sampled_from([*NAMES, "Zed", "anna", ""]), _ANSWER, max_size=3),
                max_size=4))
        elif edit == "kind":
            item["kind"] = draw(_ODD_KINDS)
        elif edit == "seed":
            item["seed"] = draw(_ODD_SEEDS)
        elif edit == "item":
            items[at] = yaml.safe_load(draw(_ODD_ITEMS))
        elif edit == "field":
            key, value = draw(_ODD_FIELDS)
            item[key] = yaml.safe_load(value)
        elif edit == "drop":
            item.pop(draw(st.sampled_from(["kind", "seed", "answer"])), None)
        elif edit == "student":
            data["student"] = draw(st.one_of(st.text(max_size=20), st.lists(st.text(max_size=3)),
                                             st.integers(), st.none()))
        else:
            data[draw(st.sampled_from(["answers", "student", "results", "score"]))] = draw(_ANSWER)
    for index, item in enumerate(items):
        if isinstance(item, dict) and (item.get("kind"), item.get("seed")) == (None, None):
            touched.add(index)
    data = _as_read(data)
    as_json = draw(st.integers(0, 4)) == 0
    text = json.dumps(data, default=str) if as_json else yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, default_flow_style=None)
    kept = tuple(i for i in range(len(items)) if i not in touched)
    if draw(st.integers(0, 2)):
        return text, kept
    lines = text.splitlines()
    edit = draw(st.sampled_from(["laughs", "deep", "long", "char", "cut", "documents", "bom"]))
    where = draw(st.integers(0, len(lines)))
    size = draw(_SIZES)
    if edit == "laughs":
        lines.insert(where, _laughs(draw(st.integers(2, 12)), draw(st.integers(1, 12)), "x"))
    elif edit == "deep":
        depth = draw(st.sampled_from([30, 31, 32, 33, 64, 1000, 20_000]))
        lines.append(f"answers: {'[' * depth}1{']' * depth}")
    elif edit == "long":
        lines.insert(where, draw(st.sampled_from([f"# {'x' * size}", f"student: {'x' * size}",
                                                  "x" * size, f"answers: [{'1, ' * size}1]"])))
    elif edit == "char":
        at = draw(st.integers(0, len(text)))
        lines = (text[:at] + draw(st.sampled_from(_ODD_CHARACTERS)) + text[at:]).split("\n")
    elif edit == "cut":
        lines = text[:draw(st.integers(0, len(text)))].split("\n")
    elif edit == "documents":
        lines = [*lines, "---", *lines]
    else:
        lines.insert(0, "\ufeff")
    return "\n".join(lines), None


def answers_file_is_marked_or_refused(drawn: tuple[str, tuple[int, ...] | None]) -> str:
    """Marking never raises; untouched items stay right; every file gets its line."""
    text, kept = drawn
    with tempfile.TemporaryDirectory(prefix="loo-fuzz-") as tmp:
        key = Path(tmp, "key.yaml")
        key.write_text(_key_of_two(), encoding="utf-8")
        hostile = Path(tmp, "hostile.yaml")
        hostile.write_text(text, encoding="utf-8", errors="surrogatepass")
        files = [str(key), str(hostile), str(Path(tmp, "missing.yaml"))]
        marked = read_answers(str(hostile))
        code, out, err = _run(["mark", "--csv", str(Path(tmp, "book.csv")), *files], "")
        with open(Path(tmp, "book.csv"), encoding="utf-8-sig", newline="") as book:
            rows = list(csv.reader(book))
    for problem in marked.problems:
        assert one_line(problem) and problem.isprintable(), problem
        assert problem.startswith(f"{hostile}: "), problem
    if not marked.read:
        assert len(marked.problems) == 1 and not marked.marks, marked.problems
    for place, mark, _ in marked.marks:
        assert mark.verdict in (RIGHT, WRONG, UNREADABLE, NOT_AN_EXERCISE, SOLUTION), mark
        assert one_line(mark.message) and mark.answer.isprintable() and mark.kind.isprintable()
        assert (mark.rule != "") == (mark.verdict == WRONG), mark
        if mark.verdict == NOT_AN_EXERCISE:
            assert any(p.startswith(f"{hostile}: {place}") for p in marked.problems), place
    if kept and "\ud800" not in text:
        assert marked.read, marked.problems
        for index in kept:
            assert marked.marks[index][1].verdict == RIGHT, (index, marked.marks[index])
    problems = err.splitlines()
    # the last line says where the grade book went, the one before that the totals count
    # only what was read (no --key is given)
    scores = out.splitlines()[:-2]
    assert out.splitlines()[-2].startswith("(without --key"), out
    MARKED["files"] += len(files)
    MARKED["lines"] += sum(any(line.startswith(f"{name}: ") for line in problems)
                           or any(f" ({name}): " in line for line in scores) for name in files)
    missing = f"{files[2]}: cannot read the file: no such file or directory"
    assert problems == [*marked.problems, missing], err
    assert code == 2 and len(scores) == 1 + marked.read, (code, out)
    assert scores[0].endswith(f"({files[0]}): 2 of 2 right: trick 1/1, settle 1/1"), scores[0]
    # the heading, the key's two exercises, the hostile file's rows (one when it cannot be
    # read), and the missing file's row
    assert len(rows) == 1 + 2 + len(marked.grade_rows()) + 1, (len(rows), marked.grade_rows())
    return "read" if marked.read else "refused"


# -- the targets ---------------------------------------------------------------------------

TARGETS: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], object]]] = {
    "records": (spoiled_records(), agrees_with_engine),
    "card_text": (card_texts, card_text_reads_or_refuses),
    "cli": (cli_calls(), cli_answers_in_one_line),
    "answers": (graded_answers(), answers_are_graded),
    "yaml": (hostile_texts(), hostile_text_is_read_or_refused),
    "answers_files": (hostile_answers_files(), answers_file_is_marked_or_refused),
}
"""Name -> (strategy, property), for ``benchmarks/fuzz.py`` and ``tests/apps/test_fuzz_inputs.py``."""
