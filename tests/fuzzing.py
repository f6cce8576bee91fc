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
    text for :func:`loo_tutor.cards.parse_card`: a card, whose written form
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
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from loo_tutor import classroom
from loo_tutor.cards import CARDS, parse_card
from loo_tutor.cli import main
from loo_tutor.errors import LooError, MalformedRecord, NotationError
from loo_tutor.exercises import Kind, make
from loo_tutor.record import FIELDS, check, dumps, loads, record_from_state, replay
from loo_tutor.state import DealState, Phase, new_deal

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
            a, b = draw(st.integers(0, len(tricks[t]) - 1)), draw(st.integers(0, len(tricks[t]) - 1))
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
        elif edit == "order":
            if "announce" in record and isinstance(record["announce"], dict):
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
        raise AssertionError(f"check refused the record ({exc}) but replay accepted it")
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
              st.sampled_from(list("AKQJT98765432") + ["10", "1", "0", "11", "a", "k"]),
              st.sampled_from(list("SHDCshdc♠♥♦♣♤♡♢♧") + ["♥\ufe0f", "X", ""]),
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
    kept = draw(st.sampled_from(keys + [None]))
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
    for key, verdict in results.items():
        assert verdict.status in STATUSES, verdict
        assert verdict.message.strip(), verdict
        if verdict.status == "unreadable":
            assert one_line(verdict.message), verdict.message
    if kept is not None:
        assert results[kept].is_right, (kept, answers[kept], results[kept])
    return "graded"


# -- the targets ---------------------------------------------------------------------------

TARGETS: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], object]]] = {
    "records": (spoiled_records(), agrees_with_engine),
    "card_text": (card_texts, card_text_reads_or_refuses),
    "cli": (cli_calls(), cli_answers_in_one_line),
    "answers": (graded_answers(), answers_are_graded),
}
"""Name -> (strategy, property), for ``benchmarks/fuzz.py`` and ``tests/test_fuzz_inputs.py``."""
