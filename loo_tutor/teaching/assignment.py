"""An assignment: the one list of exercises a teacher sets, with a title and an id.

The same assignment is printed (``loo-tutor worksheet``), marked against
(``loo-tutor mark --key``) and kept with a class (:func:`save_for_class`,
:func:`class_assignment`). It is read from either of two files:

* the ``key.yaml`` that ``loo-tutor worksheet`` or ``loo-tutor exercise``
  writes: an answers file whose ``title`` and ``assignment`` (the id) name it,
  and whose items are the exercises;
* a short file listing the exercises::

      title: Week 3
      id: week-3                 # optional: made from the exercises when left out
      exercises:
        - {kind: legal-cards, seed: 2024}
        - {kind: settle, seeds: [4, 5, 6]}
        - {kind: find-illegal, seed: 0, record: my-deal.yaml}

>>> one = parse_assignment({"title": "Week 3", "exercises": [{"kind": 4, "seeds": [1, 2]}]})
>>> one.title, one.keys()
('Week 3', (('settle', 1), ('settle', 2)))
>>> parse_assignment({"exercises": [{"kind": 4, "seed": 1}]}).id == one.id
False
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

import yaml

from ..engine.errors import LooError, MalformedRecord
from ..records.reading import Limits, loads, read_text, reason
from .exercises import Kind

CLASS_FILE = "assignment.yaml"
"""The assignment's file in a class's folder (``loo-tutor classroom --data DIR``)."""

MAX_SEED = 1_000_000_000
"""The largest seed an exercise may have, in an assignment or an answers file (the exercises
page draws seeds below it)."""

MAX_ITEMS = 1_200
"""The most exercises an assignment may hold, and the most items of an answers file, which is
a worksheet of the largest size (200) of every kind."""

LIMITS = Limits(characters=160_000, values=25_000, what="an assignment")
"""How large an assignment or an answers file may be. The key of the largest worksheet (about
105,000 characters and 17,000 values) fits with a third to spare, and a hostile file is read
in a few seconds at most."""

_ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-_.")


class AssignmentError(LooError):
    """A file that is not an assignment; the message says why, in one line."""


@dataclass(frozen=True)
class Item:
    """One exercise of an assignment.

    Attributes:
        kind: the kind.
        seed: its seed (for an exercise made from a record, the seed it was made with).
        record: the deal record file it is made from, as the assignment names it, or ``""``.
    """

    kind: Kind
    seed: int
    record: str = ""

    @property
    def name(self) -> str:
        """How a teacher names it, e.g. ``"settle, seed 4"``."""
        return f"{self.kind.word}, seed {self.seed}"


@dataclass(frozen=True)
class Assignment:
    """The exercises a teacher set, in order.

    Attributes:
        id: a short name without spaces that downloads and class folders carry.
        title: the title shown to people.
        items: the exercises.
    """

    id: str
    title: str
    items: tuple[Item, ...]

    def keys(self) -> tuple[tuple[str, int], ...]:
        """Each exercise as ``(kind name, seed)``, as :func:`~loo_tutor.teaching.score.score` takes them."""
        return tuple((item.kind.word, item.seed) for item in self.items)

    def as_data(self) -> dict[str, Any]:
        """The assignment as the short file writes it."""
        exercises = []
        for item in self.items:
            one: dict[str, Any] = {"kind": item.kind.word, "seed": item.seed}
            if item.record:
                one["record"] = item.record
            exercises.append(one)
        return {"title": self.title, "id": self.id, "exercises": exercises}

    def dumps(self) -> str:
        """The assignment as the short file's YAML."""
        return yaml.safe_dump(self.as_data(), sort_keys=False, allow_unicode=True,
                              default_flow_style=None, width=100)


def make_id(items: tuple[Item, ...]) -> str:
    """An id made from the exercises alone: the same exercises always give the same id."""
    text = ";".join(f"{item.kind.word}:{item.seed}:{item.record}" for item in items)
    return "a-" + hashlib.sha256(text.encode()).hexdigest()[:10]


def _seed(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        raise AssignmentError(f"{where}: a seed is a whole number from 0 to {MAX_SEED:,}")
    return value


def _item_seeds(one: Mapping[str, Any], where: str) -> list[int]:
    if "seeds" in one:
        seeds = one["seeds"]
        if not isinstance(seeds, list) or not seeds:
            raise AssignmentError(f"{where}.seeds: write a list of seeds, e.g. [4, 5, 6]")
        return [_seed(s, f"{where}.seeds") for s in seeds]
    if "seed" not in one:
        raise AssignmentError(f"{where}: no seed (write seed: 4, or seeds: [4, 5])")
    return [_seed(one["seed"], f"{where}.seed")]


def _text(value: object, where: str, longest: int = 200) -> str:
    if value is None:
        return ""
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise AssignmentError(f"{where}: write one line of text")
    text = " ".join(str(value).split())
    if len(text) > longest or not text.isprintable():
        raise AssignmentError(f"{where}: one line of at most {longest} characters")
    return text


def _check_id(text: str) -> str:
    if not text or len(text) > 60 or not set(text.lower()) <= _ID_CHARACTERS:
        raise AssignmentError("id: letters, digits, '-', '_' and '.', at most 60, no spaces")
    return text


def parse_assignment(data: object) -> Assignment:
    """An assignment from a short file's or a key's data (already read from YAML or JSON).

    Raises:
        AssignmentError: not an assignment; the message names the place.
    """
    if not isinstance(data, Mapping):
        raise AssignmentError("an assignment is a mapping with title and exercises "
                              "(or a key written by loo-tutor worksheet)")
    if "answers" in data:  # a key written by loo-tutor worksheet or exercise
        listed, where, known = data["answers"], "answers", {"student", "answers", "title",
                                                             "assignment"}
        given_id = data.get("assignment")
    else:
        listed, where, known = data.get("exercises"), "exercises", {"title", "id", "exercises"}
        given_id = data.get("id")
    unknown = [k for k in data if k not in known]
    if unknown:
        raise AssignmentError(f"{unknown[0]!s:.40}: unknown field (an assignment has "
                              f"{', '.join(sorted(known))})")
    if not isinstance(listed, list) or not listed:
        raise AssignmentError(f"{where}: write the exercises as a list of items with kind "
                              "and seed")
    items: list[Item] = []
    for index, one in enumerate(listed):
        place = f"{where}[{index}]"
        if not isinstance(one, Mapping) or "kind" not in one:
            raise AssignmentError(f"{place}: an item has kind and seed (or seeds)")
        try:
            kind = Kind.parse(one["kind"])
        except LooError as exc:
            raise AssignmentError(f"{place}.kind: {exc}") from None
        record = _text(one.get("record"), f"{place}.record", 500)
        items += [Item(kind, seed, record) for seed in _item_seeds(one, place)]
        if len(items) > MAX_ITEMS:
            raise AssignmentError(f"{where}: more than {MAX_ITEMS:,} exercises")
    if len(set(items)) != len(items):
        twice = next(item for item in items if items.count(item) > 1)
        raise AssignmentError(f"{where}: {twice.name} is set twice")
    chosen = tuple(items)
    title = _text(data.get("title"), "title") or "Loo exercises"
    ident = _check_id(_text(given_id, "id", 60)) if given_id is not None else make_id(chosen)
    return Assignment(ident, title, chosen)


def read_assignment(path: str | os.PathLike[str]) -> Assignment:
    """Read an assignment file (a key, or the short file).

    Raises:
        AssignmentError: it cannot be read, or is not an assignment; the message names the file.
    """
    try:
        data = loads(read_text(path, LIMITS), LIMITS)
        return parse_assignment(data)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the name, or not UTF-8
        raise AssignmentError(f"{path}: cannot read the file: {reason(exc)}") from None
    except (MalformedRecord, AssignmentError) as exc:
        raise AssignmentError(f"{path}: {str(exc).removeprefix('record: ')}") from None


def save_for_class(folder: str | os.PathLike[str], assignment: Assignment) -> Path:
    """Keep ``assignment`` as the class's, in the class's folder; returns the file written."""
    path = Path(folder) / CLASS_FILE
    path.write_text(assignment.dumps(), encoding="utf-8")
    return path


def class_assignment(folder: str | os.PathLike[str]) -> Assignment | None:
    """The assignment kept with the class in ``folder``, or ``None`` when it has none.

    Raises:
        AssignmentError: the class's assignment file cannot be read.
    """
    path = Path(folder) / CLASS_FILE
    return read_assignment(path) if path.exists() else None


LINK_PAGE = "exercises.html"
"""The site's exercises page, which opens an assignment from its address (:func:`link_query`)."""


def link_query(assignment: Assignment) -> str:
    """The assignment as the query of the exercises page's address.

    ``assignment=ID&title=TITLE&items=KIND:SEED.SEED,KIND:SEED``: the id as
    the downloads carry it, the title, and the exercises in order, by kind
    name, with the seeds of neighbouring exercises of one kind run together.
    It reads in an address bar, and it holds the exercises themselves, so the
    page needs nothing but its own address (a sheet of 100 exercises of each
    kind is about 7,000 characters).

    Raises:
        AssignmentError: an exercise is made from a deal record, which an address cannot carry.

    >>> one = parse_assignment({"title": "Week 3", "id": "w3", "exercises": [
    ...     {"kind": 4, "seeds": [1, 2]}, {"kind": 1, "seed": 7}]})
    >>> link_query(one)
    'assignment=w3&title=Week%203&items=settle:1.2,legal-cards:7'
    >>> from_link_query("?" + link_query(one)) == one
    True
    """
    recorded = next((item for item in assignment.items if item.record), None)
    if recorded is not None:
        raise AssignmentError(f"{recorded.name} is made from a deal record, which a link "
                              "cannot carry")
    groups: list[tuple[str, list[int]]] = []
    for item in assignment.items:
        if groups and groups[-1][0] == item.kind.word:
            groups[-1][1].append(item.seed)
        else:
            groups.append((item.kind.word, [item.seed]))
    items = ",".join(f"{kind}:{'.'.join(map(str, seeds))}" for kind, seeds in groups)
    return (f"assignment={quote(assignment.id, safe='')}&title={quote(assignment.title, safe='')}"
            f"&items={items}")


def from_link_query(query: str) -> Assignment:
    """The assignment an exercises page's address carries (its query, as :func:`link_query`
    writes it, with or without the leading ``?``).

    Raises:
        AssignmentError: the address carries no assignment, or not one that can be read.
    """
    if len(query) > LIMITS.characters:
        raise AssignmentError("the link is too long to be an assignment")
    try:
        fields = parse_qs(query.strip().removeprefix("?"), max_num_fields=10)
    except ValueError:  # more fields than a link of the page has
        raise AssignmentError("the link has more parts than an assignment's") from None
    ident, title, listed = (fields.get(name, [""])[0] for name in ("assignment", "title", "items"))
    if not ident or not listed:
        raise AssignmentError("the link names no assignment: it has assignment=ID and items=…")
    exercises = []
    for group in listed.split(","):
        kind, _, seeds = group.partition(":")
        numbers = seeds.split(".")
        if not all(n.isascii() and n.isdigit() and len(n) <= 10 for n in numbers):
            raise AssignmentError(f"items: {group[:40]!r} is not kind:seed, with seeds joined by dots")
        exercises.append({"kind": kind, "seeds": [int(n) for n in numbers]})
        if len(exercises) > MAX_ITEMS:
            break
    return parse_assignment({"title": title or None, "id": ident, "exercises": exercises})
