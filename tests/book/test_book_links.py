"""The book and the engine agree on the rules: one anchored section per rule ID.

Every rule's section also says where the rule is taught and links to a live
example of it in one of the notebooks; those links must reach real pages
and real sections.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from loo_tutor import RuleId

ROOT = Path(__file__).parents[2]
BOOK = ROOT / "book"
NOTEBOOKS = ROOT / "notebooks"
TARGET = re.compile(r"^\((r-[a-z-]+)\)=\s*$", re.MULTILINE)
ANY_TARGET = re.compile(r"^\(([A-Za-z0-9_-]+)\)=\s*$", re.MULTILINE)
REF = re.compile(r"\{ref\}`(?:[^`<]*<)?([A-Za-z0-9_-]+)>?`")
DOC = re.compile(r"\{doc\}`(?:[^`<]*<)?([^`<>]+)>?`")
TAUGHT = re.compile(r"^Where it is taught: (.+)$", re.MULTILINE)
LIVE = re.compile(r"^See it live: (.+)$", re.MULTILINE)


def pages() -> dict[Path, str]:
    return {page: page.read_text(encoding="utf-8") for page in sorted(BOOK.glob("*.md"))}


def notebook_markdown() -> dict[Path, str]:
    """The markdown cells of every notebook, joined, by notebook."""
    found = {}
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        found[path] = "\n\n".join("".join(c["source"]) for c in cells
                                   if c["cell_type"] == "markdown")
    return found


def notebook_targets() -> list[str]:
    return [label for text in notebook_markdown().values() for label in ANY_TARGET.findall(text)]


def toc_files() -> set[str]:
    """Every file the table of contents lists, without its suffix."""
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("file", "root") and isinstance(value, str):
                    found.add(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8")))
    return found


def rule_sections() -> dict[RuleId, str]:
    """Each rule's section of book/rules.md, from its target to the next one."""
    text = (BOOK / "rules.md").read_text(encoding="utf-8")
    starts = [(m.start(), m.group(1)) for m in TARGET.finditer(text)]
    ends = [start for start, _ in starts[1:]] + [len(text)]
    by_label = {label: text[start:end] for (start, label), end in zip(starts, ends, strict=True)}
    return {rule: by_label.get(rule.label, "") for rule in RuleId}


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
    targets |= set(notebook_targets())
    for page, text in texts.items():
        for label in REF.findall(text):
            assert label in targets, f"{page.name}: {{ref}} to missing target {label!r}"


@pytest.mark.parametrize("rule", list(RuleId), ids=lambda rule: rule.value)
def test_every_rule_section_says_where_it_is_taught_and_where_to_see_it_live(
        rule: RuleId) -> None:
    section = rule_sections()[rule]
    taught = TAUGHT.findall(section)
    assert len(taught) == 1 and REF.findall(taught[0]), f"{rule.value}: no 'Where it is taught' ref"
    live = LIVE.findall(section)
    assert len(live) == 1, f"{rule.value}: no 'See it live' line"
    notebook_docs = [d for d in DOC.findall(live[0]) if d.startswith("../notebooks/")]
    try_refs = [label for label in REF.findall(live[0]) if label.startswith("try-")]
    assert notebook_docs or try_refs, f"{rule.value}: 'See it live' links to no notebook"


def test_every_live_link_reaches_a_notebook_page_or_section_in_the_book() -> None:
    labels = notebook_targets()
    listed = toc_files()
    for rule, section in rule_sections().items():
        for line in LIVE.findall(section):
            for doc in DOC.findall(line):
                assert doc.startswith("../notebooks/"), (rule.value, doc)
                page = doc.removeprefix("../")
                assert (ROOT / f"{page}.ipynb").is_file(), (rule.value, doc)
                assert page in listed, f"{rule.value}: {page} is not in _toc.yml"
            for label in REF.findall(line):
                assert label in labels, f"{rule.value}: no notebook section ({label})="
    for path, text in notebook_markdown().items():
        if ANY_TARGET.search(text):
            assert f"notebooks/{path.stem}" in listed, f"{path.name} is not in _toc.yml"


def test_notebook_section_targets_are_unique_and_named_try() -> None:
    labels = notebook_targets()
    assert labels, "the notebooks carry no section targets"
    assert len(labels) == len(set(labels)), sorted(labels)
    assert all(label.startswith("try-") for label in labels), labels
    book_labels = {label for text in pages().values() for label in ANY_TARGET.findall(text)}
    assert not book_labels & set(labels)


def test_notebooks_stay_thin_and_without_saved_outputs() -> None:
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                assert cell["outputs"] == [] and cell["execution_count"] is None, path.name
                source = "".join(cell["source"])
                assert not re.search(r"^\s*(def|class) ", source, re.MULTILINE), path.name
