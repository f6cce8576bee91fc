"""The book and the engine agree on the rules: one anchored section per rule ID."""

from __future__ import annotations

import re
from pathlib import Path

from loo_tutor import RuleId

BOOK = Path(__file__).parent.parent / "book"
TARGET = re.compile(r"^\((r-[a-z-]+)\)=\s*$", re.MULTILINE)
ANY_TARGET = re.compile(r"^\(([A-Za-z0-9_-]+)\)=\s*$", re.MULTILINE)
REF = re.compile(r"\{ref\}`(?:[^`<]*<)?([A-Za-z0-9_-]+)>?`")


def pages() -> dict[Path, str]:
    return {page: page.read_text(encoding="utf-8") for page in sorted(BOOK.glob("*.md"))}


def test_rule_targets_are_exactly_the_rule_ids_each_once() -> None:
    found = [label for text in pages().values() for label in TARGET.findall(text)]
    assert sorted(found) == sorted(rule.label for rule in RuleId)


def test_each_rule_section_is_headed_by_its_id_and_title() -> None:
    text = (BOOK / "rules.md").read_text(encoding="utf-8")
    for rule in RuleId:
        heading = re.search(rf"^\({rule.label}\)=\s*\n#+ (.+)$", text, re.MULTILINE)
        assert heading, rule
        assert rule.value in heading.group(1) and rule.heading in heading.group(1), heading.group(1)


def test_every_reference_names_an_existing_target() -> None:
    texts = pages()
    targets = {label for text in texts.values() for label in ANY_TARGET.findall(text)}
    for page, text in texts.items():
        for label in REF.findall(text):
            assert label in targets, f"{page.name}: {{ref}} to missing target {label!r}"
