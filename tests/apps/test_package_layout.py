"""The test suite mirrors the package: one folder of tests per layer, and the book's."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest brings tomli to Pythons before 3.11
    import tomli as tomllib

from conftest import HERE, TEST_FOLDERS

ROOT = HERE.parent


def test_each_test_file_sits_in_a_layer_folder() -> None:
    stray = [str(p.relative_to(ROOT)) for p in HERE.rglob("test_*.py")
             if p.relative_to(HERE).parts[0] not in TEST_FOLDERS or len(p.relative_to(HERE).parts) != 2]
    assert stray == []


def test_the_folders_are_the_layers_of_the_import_contract() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    layers = next(c["layers"] for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers")
    assert {name.removeprefix("loo_tutor.") for name in layers} == set(TEST_FOLDERS) - {"book"}
    assert all((HERE / folder).is_dir() for folder in TEST_FOLDERS)
