"""The Variants chapter and the engine agree: one section per variant rule ID.

Like tests/book/test_book_links.py for the limited rules: every
:class:`~loo_tutor.engine.rules.VariantRuleId` has exactly one ``(v-…)=`` target in
the book, headed by its ID and heading, and the chapter lists every example
record and links to the live comparison.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from loo_tutor.engine.profiles import RULES_OPTIONS
from loo_tutor.engine.rules import VariantRuleId
from loo_tutor.render.markup import rule_link

ROOT = Path(__file__).parents[2]
BOOK = ROOT / "book"
PAGE = BOOK / "variants.md"
V_TARGET = re.compile(r"^\((v-[a-z-]+)\)=\s*$", re.MULTILINE)


def test_variant_targets_are_exactly_the_variant_rule_ids_each_once() -> None:
    found = [label for page in sorted(BOOK.glob("*.md"))
             for label in V_TARGET.findall(page.read_text(encoding="utf-8"))]
    assert sorted(found) == sorted(rule.label for rule in VariantRuleId)
    assert set(V_TARGET.findall(PAGE.read_text(encoding="utf-8"))) == set(found)


def test_each_variant_section_is_headed_by_its_id_and_heading() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for rule in VariantRuleId:
        heading = re.search(rf"^\({rule.label}\)=\s*\n#+ (.+)$", text, re.MULTILINE)
        assert heading, rule
        assert rule.value in heading.group(1) and rule.heading in heading.group(1)


def test_rule_links_point_at_the_variants_page_sections() -> None:
    for rule in VariantRuleId:
        assert f'href="../book/variants.html#{rule.label}"' in rule_link(rule)


def test_the_pam_rules_point_to_the_pam_chapter() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for rule in (VariantRuleId.PAM, VariantRuleId.PAM_CIVIL):
        section = text.split(f"({rule.label})=", 1)[1].split("\n(", 1)[0]
        assert "{doc}`pam`" in section


def test_every_three_card_option_is_explained() -> None:
    text = PAGE.read_text(encoding="utf-8")
    pam_only = {"running_pam", "flush_exempt", "duties", "dealer_takes_trump"}
    for option in set(RULES_OPTIONS) - pam_only:
        assert f"`{option}" in text, option


def test_the_chapter_lists_every_example_record() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for record in sorted((ROOT / "tests" / "data" / "variants").glob("*.yaml")):
        assert f"`{record.stem}`" in text, record.name


def test_the_variants_part_lists_the_chapter_then_its_notebook() -> None:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    part = next(p for p in toc["parts"] if p["caption"] == "Variants")
    files = [chapter["file"] for chapter in part["chapters"]]
    assert files[:2] == ["book/variants", "notebooks/variants"]
    assert "{doc}`../notebooks/variants`" in PAGE.read_text(encoding="utf-8")
