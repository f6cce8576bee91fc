"""Records that do not describe a deal are refused with one line naming the field."""

from __future__ import annotations

import re

import pytest

from loo_tutor import MalformedRecord, check, load_record, loads

from conftest import FORCED_ACE, run

DECK = "[" + ", ".join(f"{r}{s}" for s in "SHDC" for r in
                       ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]) + "]"
SIMPLE = f"players: [A, B, C, D, E]\ndealer: E\ncarried: 0\ndeck: {DECK}\n"
STOOD = "announce: {A: stand, B: stand, C: stand, D: pass, E: pass}\n"

CASES = {
    "not a mapping": ("- just\n- a list\n", "record"),
    "unknown key": (SIMPLE + "colour: red\n", "colour"),
    "unknown profile": (SIMPLE + "rules: whist\n", "rules"),
    "players missing": ("dealer: E\ncarried: 0\n", "players"),
    "players not a list": (SIMPLE.replace("[A, B, C, D, E]", "ABCDE"), "players"),
    "non-text name": (SIMPLE.replace("[A, B, C, D, E]", "[A, B, C, D, No]").replace(
        "dealer: E", "dealer: A"), "players: the fifth"),
    "empty name": (SIMPLE.replace("[A, B, C, D, E]", '[A, B, C, D, ""]').replace(
        "dealer: E", "dealer: A"), "players: the fifth"),
    "duplicate name": (SIMPLE.replace("[A, B, C, D, E]", "[A, B, C, D, A]").replace(
        "dealer: E", "dealer: A"), "players"),
    "nine players": (SIMPLE.replace("[A, B, C, D, E]", "[A, B, C, D, E, F, G, H, I]"), "players"),
    "unknown dealer": (SIMPLE.replace("dealer: E", "dealer: Z"), "dealer"),
    "carried missing": (SIMPLE.replace("carried: 0\n", ""), "carried"),
    "carried float": (SIMPLE.replace("carried: 0", "carried: 1.5"), "carried"),
    "carried bool": (SIMPLE.replace("carried: 0", "carried: true"), "carried"),
    "carried negative": (SIMPLE.replace("carried: 0", "carried: -3"), "carried"),
    "carried zero denominator": (SIMPLE.replace("carried: 0", 'carried: "3/0"'), "carried"),
    "carried text": (SIMPLE.replace("carried: 0", 'carried: "lots"'), "carried"),
    "deck and hands": (SIMPLE + "hands: {}\n", "deck/hands"),
    "neither deck nor hands": (SIMPLE.replace(f"deck: {DECK}\n", ""), "deck/hands"),
    "short deck": (SIMPLE.replace(", AC]", "]"), "deck"),
    "unknown card": (SIMPLE.replace("AC]", "1C]"), "deck, 52nd card"),
    "trump with deck": (SIMPLE + "trump: 2H\n", "trump"),
    "miss with deck": (SIMPLE + "miss: [2H, 3H, 4H]\n", "miss"),
    "hands missing a player": (FORCED_ACE.replace(", E: [JS, JD, JC]", ""), "hands"),
    "hands naming a stranger": (FORCED_ACE.replace("E: [JS, JD, JC]", "E: [JS, JD, JC], Z: [3C]"),
                                "hands"),
    "hand of two cards": (FORCED_ACE.replace("[JS, JD, JC]", "[JS, JD]"), "hands.E"),
    "miss missing in a double deal": (FORCED_ACE.replace("miss: [2S, 2D, 2C]\n", ""), "miss"),
    "miss in a simple deal": (FORCED_ACE.replace("carried: 9", "carried: 0"), "miss"),
    "miss of two cards": (FORCED_ACE.replace("[2S, 2D, 2C]", "[2S, 2D]"), "miss"),
    "trump missing": (FORCED_ACE.replace("trump: 4H\n", ""), "trump"),
    "card twice": (FORCED_ACE.replace("trump: 4H", "trump: AH"), "hands/miss/trump"),
    "announce not a mapping": (FORCED_ACE + "announce: [A, stand]\n", "announce"),
    "announce unknown player": (FORCED_ACE + "announce: {Z: stand}\n", "announce"),
    "announce unknown word": (FORCED_ACE + "announce: {A: fold}\n", "announce.A"),
    "tricks not a list": (FORCED_ACE + STOOD + "tricks: AH\n", "tricks"),
    "trick not a list": (FORCED_ACE + STOOD + "tricks: [AH]\n", "tricks: the first trick"),
    "four tricks": (FORCED_ACE + STOOD + "tricks: [[AH], [7H], [KC], [9H]]\n", "tricks"),
    "empty trick": (FORCED_ACE + STOOD + "tricks: [[]]\n", "tricks: the first trick"),
    "card played twice": (FORCED_ACE + STOOD + "tricks: [[AH, 9H, 2H], [AH]]\n", "tricks"),
    "tricks before announcements end": (FORCED_ACE + "announce: {A: stand}\ntricks: [[AH]]\n",
                                        "tricks"),
    "resign outside the Blenheim rules": (FORCED_ACE + "announce: {A: resign}\n", "announce.A"),
    "duplicate YAML key": (FORCED_ACE + "announce: {A: stand, A: pass}\n", "line"),
    "invalid YAML": ("players: [A, B\n", "invalid YAML"),
    "empty text": ("", "record"),
}


@pytest.mark.parametrize("text, field", CASES.values(), ids=CASES.keys())
def test_malformed_record_names_the_field_in_one_line(text: str, field: str) -> None:
    with pytest.raises(MalformedRecord) as refused:
        check(loads(text))
    message = str(refused.value)
    assert "\n" not in message and message.startswith(field), message
    assert not PYTHON_WORDS.search(message), message
    assert not re.search(r"\[\d+\]", message), message  # positions are counted from one


PYTHON_WORDS = re.compile(r"\b(str|int|float|bool|dict|NoneType|tuple)\b|\bcodec\b")


def test_resign_is_pass_under_the_blenheim_rules_and_told_to_write_pass_elsewhere() -> None:
    record = FORCED_ACE + "announce: {A: stand, B: stand, C: stand, D: resign, E: resign}\n"
    blenheim = check(loads("rules: blenheim\n" + record))
    as_pass = check(loads("rules: blenheim\n" + record.replace("resign", "pass")))
    assert blenheim == as_pass and blenheim["error"] is None
    with pytest.raises(MalformedRecord, match="write pass"):
        check(loads(record))


@pytest.mark.parametrize("written, shown", [("1000.0", "1000.0"), ("1.5", "1.5"), ("-3.0", "-3.0")])
def test_a_decimal_carried_balance_is_named_as_a_decimal(written: str, shown: str) -> None:
    with pytest.raises(MalformedRecord) as refused:
        check(loads(SIMPLE.replace("carried: 0", f"carried: {written}")))
    message = str(refused.value)
    assert message.startswith("carried") and "decimal" in message and shown in message, message


def test_a_whole_decimal_carried_balance_is_told_the_whole_number_to_write() -> None:
    with pytest.raises(MalformedRecord) as refused:
        check(loads(SIMPLE.replace("carried: 0", "carried: 1000.0")))
    assert "the whole number 1000 " in str(refused.value)


def test_a_trick_cut_short_is_counted_from_one_in_words() -> None:
    with pytest.raises(MalformedRecord) as refused:
        check(loads(FORCED_ACE + STOOD + "tricks: [[AH], [7H, 3S, 5D]]\n"))
    assert str(refused.value) == ("tricks: the first trick has 1 card of 3, "
                                  "yet another trick follows it")


def test_an_illegal_announcement_wins_over_later_trick_structure() -> None:
    text = FORCED_ACE + "announce: {B: stand}\ntricks: [[AH, 9H, 2H, 7H, 8H, 9S]]\n"
    assert run(text)["error"]["rule"] == "R-ANN-ORDER"


def test_json_records_are_read_and_checked_like_yaml() -> None:
    text = ('{"players": ["A","B","C","D","E"], "dealer": "E", "carried": "13/3", '
            '"deck": ' + DECK.replace("[", '["').replace("]", '"]').replace(", ", '", "') + "}")
    assert check(loads(text))["pool"] == "22/3"
    with pytest.raises(MalformedRecord):
        loads('{"players": 1, "players": 2}')


def test_unreadable_file_is_a_malformed_record(tmp_path) -> None:
    with pytest.raises(MalformedRecord):
        load_record(tmp_path)
    binary = tmp_path / "deal.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(MalformedRecord):
        load_record(binary)


def test_card_forms_are_all_accepted_in_records() -> None:
    text = FORCED_ACE.replace("[AH, 7H, KC]", "['a♥️', ' 7h ', Kc]").replace("[9H, 3S, AC]",
                                                                          "[9♥, 3s, A♣]")
    text = text.replace("[QS, QD, QC]", "[QS, Q♦, qc]").replace("[2S, 2D, 2C]", "[2S, 2D, 2C]")
    assert run(text)["next"]["options"] == ["miss", "pass", "stand"]
    assert run(FORCED_ACE.replace("JS, JD, JC", "JS, JD, TC"))["status"] == "in_progress"
