"""SPEC §11.3's decisions about exchanges: refused by the rules means illegal, in Pam and Irish alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from loo_tutor import check, loads

DATA = Path(__file__).parents[1] / "data"
IRISH = (DATA / "variants" / "09_irish_exchange.yaml").read_text()
PAM = (DATA / "pam" / "03_exchange_then_play.yaml").read_text()


def irish(exchange: str, stock: str = "[8S, 8D, 8C, 9S]") -> str:
    text = IRISH.replace("exchange: {A: [7H, KC], B: [3S]}", f"exchange: {exchange}")
    text = text.replace("stock: [8S, 8D, 8C, 9S]", f"stock: {stock}")
    return text.replace("tricks: [[AH, 9H], [8S, 8C], [8D, AC]]", "")


def pam(exchange: str, stock: str = "[AD, KD, 5S, 6S]") -> str:
    text = PAM[:PAM.index("tricks:")]
    text = text.replace("exchange: {A: [2S, 3S], B: [], D: [QC]}", f"exchange: {exchange}")
    return text.replace("stock: [AD, KD, 5S, 6S]", f"stock: {stock}")


@pytest.mark.parametrize("text", [
    irish("{A: [7H, KC], B: [3S], C: [2H]}"),
    irish("{A: [7H, KC], B: [3S], C: [2H]}", stock="[8S, 8D, 8C]"),  # stock for the legal ones
    pam("{A: [2S, 3S], B: [], D: [QC], C: [2H]}"),
    pam("{A: [2S, 3S], B: [], D: [QC], C: [2H]}", stock="[AD, KD, 5S]"),
], ids=["irish", "irish, stock for the legal draws", "pam", "pam, stock for the legal draws"])
def test_an_exchange_by_a_player_who_passed_is_illegal_and_says_why(text: str) -> None:
    result = check(loads(text))
    assert result["status"] == "illegal"
    error = result["error"]
    assert (error["player"], error["rule"]) == ("C", "V-EXCHANGE")
    assert "C passed" in error["message"] and "out of this deal" in error["message"]
    assert "play has begun" not in error["message"]  # no card has been played



@pytest.mark.parametrize("text", [
    irish("{A: [7H, KC], B: [3S]}").replace("C: pass, D: pass, E: pass", "C: pass"),
    pam("{A: [2S, 3S], B: [], D: [QC]}").replace("C: pass, D: stand", "C: pass"),
], ids=["irish", "pam"])
def test_an_exchange_before_the_announcements_end_is_illegal_not_malformed(text: str) -> None:
    result = check(loads(text))
    assert result["status"] == "illegal"
    error = result["error"]
    assert (error["player"], error["phase"], error["rule"]) == ("A", "exchange", "V-EXCHANGE")
    assert "announcements are not finished" in error["message"]
    assert "D's turn to announce" in error["message"]
