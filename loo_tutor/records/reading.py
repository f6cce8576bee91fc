"""Reading the text of a deal record safely: JSON first, then YAML (CONTRACT.md §1).

Whatever the text holds, :func:`loads` returns a mapping or raises
:class:`~loo_tutor.engine.errors.MalformedRecord` with one line naming what is wrong
and where; it never raises anything else and never spends time or memory out
of proportion to what a deal record needs. Refused, all but the last two before
any value is built:

* text longer than :data:`MAX_CHARACTERS`;
* nesting deeper than :data:`MAX_DEPTH`, counting what aliases stand for;
* more than :data:`MAX_VALUES` values once every alias is written out (alias
  bombs such as "billion laughs"), and an alias inside what it names;
* a value longer than :data:`MAX_VALUE_CHARACTERS` (numbers too large to be
  worth reading among them);
* a key that is a list or a mapping, anywhere; more than one document;
* a value its tag cannot make (``!!bool maybe``, the date ``2026-13-45``);
* the same key twice in one mapping.

Other files read with this reader give :class:`Limits` of their own for the
text's length and the count of values; the other limits hold for every file.

>>> loads('hands: {A: [AS, 5D, 6D], [QS, 2D, 3D]: x}')
Traceback (most recent call last):
...
loo_tutor.engine.errors.MalformedRecord: hands: a key must be a player's name, not a list
>>> loads('a: &a [x, x]\\nb: &b [*a, *a]\\nc: [*b, *b]')["c"][1][0]
['x', 'x']
"""

from __future__ import annotations

import errno
import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..engine.errors import MalformedRecord
from ..engine.words import kind_of

MAX_CHARACTERS = 50_000
"""The longest text read as a record; a record with every field is under 2,000."""

MAX_DEPTH = 32
"""The most levels of values, the record itself the first; a card in a hand is on the fourth."""

MAX_VALUES = 2_000
"""The most values (keys, texts, numbers, lists, mappings), aliases written out; a record has
at most 200."""

MAX_VALUE_CHARACTERS = 500
"""The longest single value (a name, a card, a number)."""



@dataclass(frozen=True)
class Limits:
    """How much text and how many values a reading accepts, and what it reads.

    The defaults are a deal record's; other files read safely with limits of
    their own (``loo-tutor mark``'s answers files hold hundreds of answers).
    """

    characters: int = MAX_CHARACTERS
    values: int = MAX_VALUES
    what: str = "a deal record"


RECORD = Limits()
"""The limits of a deal record."""

_PLAYER_KEYS = frozenset({"hands", "announce", "exchange"})
_BOM = "\ufeff"
NOT_A_FILE = "Not a regular file (a pipe, a device or a folder is never read)"
"""Why a path that is no regular file is not read: reading a pipe or a device may never end."""


def read_text(path: str | os.PathLike[str], limits: Limits = RECORD) -> str:
    """The text of a file, ``-`` meaning standard input, read no further than ``limits`` go.

    Raises:
        OSError, UnicodeDecodeError: the file cannot be read as UTF-8 text, or it is
            not a regular file (a pipe, a device, a folder).
    """
    if path == "-":
        return sys.stdin.read(limits.characters + 1)
    # Opening a pipe would wait for a writer, and a device may never end: only a regular
    # file is read (looked at first, then opened without waiting, then looked at again).
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(errno.EINVAL, NOT_A_FILE, str(path))
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(descriptor, encoding="utf-8") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, NOT_A_FILE, str(path))
        return handle.read(limits.characters + 1)


def load(source: str | os.PathLike[str]) -> dict[str, Any]:
    """A record from a file path or from the record's text (:func:`~loo_tutor.records.record.load_record`).

    A :class:`~pathlib.Path` is always read as a file. A string is read as a
    file when it is a single line naming an existing file, else as text.

    Raises:
        MalformedRecord: the file cannot be read, or its text is not a record.
    """
    if isinstance(source, os.PathLike) or (
        "\n" not in source and len(source) < 4096 and os.path.isfile(source)
    ):
        path = Path(source)
        try:
            text = read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise MalformedRecord(f"cannot read {str(path)!r}: {reason(exc)}") from None
        return loads(text)
    return loads(source)


def reason(exc: Exception) -> str:
    """Why a file could not be read, in one line.

    >>> reason(UnicodeDecodeError("utf-8", b"ab\\xff", 2, 3, "invalid start byte"))
    'it is not UTF-8 text: its byte 3 (0xff) is not part of any character'
    """
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    if isinstance(exc, UnicodeDecodeError):
        byte = exc.object[exc.start]
        return (f"it is not UTF-8 text: its byte {exc.start + 1:,} (0x{byte:02x}) "
                "is not part of any character")
    return str(exc).splitlines()[0]


def loads(text: str, limits: Limits = RECORD) -> dict[str, Any]:
    """Parse the text of a record (or another file, with its ``limits``): JSON first, then YAML.

    Raises:
        MalformedRecord: the text is neither, is not a mapping, or is refused
            for one of the reasons in this module's description.
    """
    if len(text) > limits.characters:
        raise MalformedRecord(f"record: longer than {limits.characters:,} characters, "
                              f"far more than {limits.what} needs")
    text = text.removeprefix(_BOM)
    try:
        data = _from_json(text, limits)
    except json.JSONDecodeError:
        data = _from_yaml(text, limits)
    if not isinstance(data, dict):
        what = "an empty file" if data is None else kind_of(data)
        raise MalformedRecord(f"record: expected a mapping of fields, got {what}")
    return data


# -- JSON ------------------------------------------------------------------------------------


def _from_json(text: str, limits: Limits) -> Any:
    try:
        data = json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int)
    except RecursionError:
        raise MalformedRecord(f"record: nested more than {MAX_DEPTH} deep") from None
    _check_json(data, limits)
    return data


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise MalformedRecord(f"the key {key!r} appears twice")
        result[key] = value
    return result


def _json_int(text: str) -> int:
    if len(text) > MAX_VALUE_CHARACTERS:
        raise MalformedRecord(f"record: a number of {len(text):,} digits "
                              f"(at most {MAX_VALUE_CHARACTERS} characters)")
    return int(text)


def _check_json(data: Any, limits: Limits) -> None:
    """Depth and size of parsed JSON (its keys are text and it has no aliases)."""
    level, count = [data], 0
    for depth in range(1, MAX_DEPTH + 2):
        below: list[Any] = []
        for value in level:
            count += 1
            if isinstance(value, dict):
                count += len(value)
                below.extend(value.values())
            elif isinstance(value, list):
                below.extend(value)
            elif isinstance(value, str) and len(value) > MAX_VALUE_CHARACTERS:
                raise MalformedRecord(f"record: {_too_long(len(value))}")
        if count > limits.values:
            raise MalformedRecord(f"record: more than {limits.values:,} values")
        if not below:
            return
        if depth == MAX_DEPTH:
            raise MalformedRecord(f"record: nested more than {MAX_DEPTH} deep")
        level = below


# -- YAML ------------------------------------------------------------------------------------


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, stopped as soon as the text nests deeper than :data:`MAX_DEPTH`
    or holds more than :data:`MAX_VALUES` values."""

    def __init__(self, text: str, limits: Limits) -> None:
        super().__init__(text)
        self.depth = self.values = 0
        self.limits = limits

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self.depth += 1
        self.values += 1
        try:
            if self.depth > MAX_DEPTH or self.values > self.limits.values:
                where = _line(self.peek_event())  # type: ignore[no-untyped-call]
                raise MalformedRecord(
                    f"{where}nested more than {MAX_DEPTH} deep" if self.depth > MAX_DEPTH else
                    f"{where}more than {self.limits.values:,} values, far more than "
                    f"{self.limits.what} has")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def fetch_flow_collection_start(self, TokenClass: Any) -> None:
        # Stops the scanner itself: its look-ahead over a run of "[" or "{" costs
        # the square of the run's length, before the composer sees any depth.
        super().fetch_flow_collection_start(TokenClass)
        if self.flow_level > MAX_DEPTH:
            raise MalformedRecord(f"line {self.line + 1}: nested more than {MAX_DEPTH} deep")

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (MalformedRecord, yaml.YAMLError):
            raise
        except Exception as exc:  # a scalar its tag cannot make: !!bool maybe, 2026-13-45
            what = repr(node.value) if isinstance(node, ScalarNode) else "this value"
            why = f" ({_first_line(exc)})" if type(exc) is ValueError else ""
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise MalformedRecord(f"{_line(node)}{what} cannot be read as {tag}{why}") from None


def _mapping_without_duplicates(loader: _Loader, node: MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    result: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in result:
            raise MalformedRecord(f"{_line(key_node)}the key {key!r} appears twice")
        result[key] = loader.construct_object(value_node, deep=True)
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                        _mapping_without_duplicates)


def _from_yaml(text: str, limits: Limits) -> Any:
    try:
        loader = _Loader(text, limits)
    except yaml.YAMLError as exc:  # a character YAML does not allow, such as NUL
        raise MalformedRecord(f"invalid YAML: {_first_line(exc)}") from None
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _Inspection(limits.values).node(root, "record", 1)
        return loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise MalformedRecord(f"invalid YAML{where}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        raise MalformedRecord(f"invalid YAML: {_first_line(exc)}") from None
    finally:
        loader.dispose()


class _Inspection:
    """One walk of a YAML node graph before anything is built from it.

    Each node is inspected once, at its first place (an alias always follows
    its anchor); an alias then counts all the values and the depth it stands for.
    """

    def __init__(self, most: int) -> None:
        self.most = most  # values, aliases written out
        self.done: dict[int, tuple[int, int]] = {}  # id(node) -> (values, height)
        self.open: set[int] = set()

    def node(self, node: Node, where: str, depth: int) -> tuple[int, int]:
        """The values in ``node`` and its height; ``where`` names it, ``depth`` is its level."""
        seen = self.done.get(id(node))
        if seen is None:
            if id(node) in self.open:
                raise MalformedRecord(f"{_line(node)}an alias stands for the "
                                      f"{_KIND[type(node)]} that holds it")
            self.open.add(id(node))
            seen = self._inside(node, where, depth)
            self.open.discard(id(node))
            self.done[id(node)] = seen
        if depth + seen[1] - 1 > MAX_DEPTH:
            raise MalformedRecord(f"{_line(node)}nested more than {MAX_DEPTH} deep "
                                  "once its aliases are written out")
        return seen

    def _inside(self, node: Node, where: str, depth: int) -> tuple[int, int]:
        if isinstance(node, ScalarNode):
            if len(node.value) > MAX_VALUE_CHARACTERS:
                raise MalformedRecord(f"{_line(node)}{_too_long(len(node.value))}")
            return 1, 1
        values, height = 1, 1
        if isinstance(node, SequenceNode):
            items = [(f"{where}[{i}]", item) for i, item in enumerate(node.value)]
        else:
            items = []
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    raise MalformedRecord(f"{where}: a key must be {_key_kind(where)}, "
                                          f"not a {_KIND[type(key)]}")
                if len(key.value) > MAX_VALUE_CHARACTERS:
                    raise MalformedRecord(f"{_line(key)}{_too_long(len(key.value))}")
                name = _name(key.value)
                items.append((name if where == "record" else f"{where}.{name}", value))
                values += 1
        for place, item in items:
            count, below = self.node(item, place, depth + 1)
            values += count
            height = max(height, below + 1)
            if values > self.most:
                raise MalformedRecord(f"{_line(item)}more than {self.most:,} values once "
                                      "its aliases are written out")
        return values, height


_KIND = {ScalarNode: "text", SequenceNode: "list", MappingNode: "mapping"}


def _key_kind(where: str) -> str:
    if where == "record":
        return "a field name"
    return "a player's name" if where in _PLAYER_KEYS else "text or a number"


def _name(key: str) -> str:
    """A key as a place in a message: as written, or quoted when it would mislead."""
    plain = key and key.isprintable() and key.strip() == key and len(key) <= 40
    return key if plain else repr(key[:40])


def _line(thing: Any) -> str:
    mark = getattr(thing, "start_mark", None)
    return f"line {mark.line + 1}: " if mark is not None else ""


def _too_long(length: int) -> str:
    return f"a value of {length:,} characters (at most {MAX_VALUE_CHARACTERS})"


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
