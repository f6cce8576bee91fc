"""A printed worksheet has a place for the student's name and the date; its key has none."""

from __future__ import annotations

import re
from pathlib import Path

from loo_tutor.apps.cli import main


def test_the_worksheet_asks_for_a_name_and_a_date_and_the_key_does_not(tmp_path: Path) -> None:
    assert main(["worksheet", "--kinds", "4", "--count", "1", "--seed", "3",
                 "--out", str(tmp_path)]) == 0
    work = (tmp_path / "worksheet.html").read_text(encoding="utf-8")
    key = (tmp_path / "answers.html").read_text(encoding="utf-8")
    line = re.search(r'<p class="loo-student">(.*?)</p>', work)
    assert line is not None
    assert re.findall(r'(\w+): <span class="loo-blank loo-(\w+)">', line.group(1)) == [
        ("Name", "name"), ("Date", "date")]
    assert work.index("loo-student") < work.index('id="exercise-1"')
    assert 'class="loo-student"' not in key
