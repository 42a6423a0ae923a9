"""``taiwan-poker eval`` through the real console script (subprocess), per shared/spec/contract.md."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taiwan_poker.cards import parse_cards
from taiwan_poker.evaluate import Ranking, hand_value


def script() -> str:
    local = Path(sys.executable).parent / "taiwan-poker"
    found = str(local) if local.exists() else shutil.which("taiwan-poker")
    assert found, "the taiwan-poker console script is not installed"
    return found


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [script(), *args], input=stdin, capture_output=True, text=True, encoding="utf-8", env=env, timeout=60
    )


def jsonl(lines: list[str]) -> tuple[list[dict[str, Any]], subprocess.CompletedProcess[str]]:
    proc = run(["eval", "--jsonl"], "".join(line + "\n" for line in lines))
    out = proc.stdout.splitlines()
    return [json.loads(line) for line in out], proc


SAMPLE = '{"cards": ["As","Ah","As","Kd","Kc","2h","3d"], "decks": 2}'


def test_contract_sample_line() -> None:
    """Input line of the contract → {"category": "full_house", "best": ["As","Ah","As","Kd","Kc"], "rank": …}."""
    (answer,), proc = jsonl([SAMPLE])
    assert proc.returncode == 0
    assert set(answer) == {"category", "best", "rank"}
    assert answer["category"] == "full_house"
    assert answer["best"] == ["As", "Ah", "As", "Kd", "Kc"]
    assert isinstance(answer["rank"], int)
    assert answer["rank"] == hand_value(parse_cards(["As", "Ah", "As", "Kd", "Kc", "2h", "3d"], 2))


BAD_LINES = {
    "not json": "bad_json",
    "[1, 2, 3]": "bad_json",
    "": "bad_json",
    '{"cards": ["As","Kd","Qc","Jh"]}': "bad_card_count",
    '{"cards": ["As","Kd","Qc","Jh","9s","8s","7s","6s"]}': "bad_card_count",
    '{"cards": ["Xs","Kd","Qc","Jh","9s"]}': "bad_card",
    '{"cards": ["Ax","Kd","Qc","Jh","9s"]}': "bad_card",
    '{"cards": ["As:9","Kd","Qc","Jh","9s"]}': "bad_card",
    '{"cards": ["As:²","Kd","Qc","Jh","9s"]}': "bad_card",
    '{"cards": ["As:3","Kd","Qc","Jh","9s"], "decks": 2}': "bad_card",
    '{"cards": ["As","As","As","Kd","Kc"], "decks": 2}': "too_many_copies",
    '{"cards": ["As:1","As:1","Kd","Qc","Jh"], "decks": 2}': "too_many_copies",
    '{"cards": ["As","Kd","Qc","Jh","9s"], "decks": 9}': "bad_decks",
    '{"cards": ["As","Kd","Qc","Jh","9s"], "decks": 0}': "bad_decks",
    '{"cards": ["As","Kd","Qc","Jh","9s"], "decks": "two"}': "bad_decks",
    '{"cards": [1, 2, 3, 4, 5]}': "bad_card",
}


def test_bad_lines_get_an_error_object_and_processing_goes_on() -> None:
    """Each bad line is answered on its own line with {"error": {"code", "message"}}; later lines still judged."""
    lines: list[str] = []
    for bad in BAD_LINES:
        lines += [bad, SAMPLE]
    answers, proc = jsonl(lines)
    assert proc.returncode == 0
    assert len(answers) == len(lines)
    for i, (bad, code) in enumerate(BAD_LINES.items()):
        err = answers[2 * i]
        assert set(err) == {"error"}, bad
        assert set(err["error"]) == {"code", "message"}, bad
        assert err["error"]["code"] == code, bad
        assert isinstance(err["error"]["message"], str) and err["error"]["message"], bad
        assert answers[2 * i + 1]["category"] == "full_house", bad


def test_deeply_nested_json_line_is_an_error_object_not_a_crash() -> None:
    """A pathological line (JSON nested 100,000 deep) must not kill the loop."""
    answers, proc = jsonl(["[" * 100_000, SAMPLE])
    assert proc.returncode == 0, proc.stderr[-500:]
    assert answers[0]["error"]["code"] == "bad_json"
    assert answers[1]["category"] == "full_house"


def test_output_is_one_line_per_input_in_order_and_ranks_compare_across_lines() -> None:
    hands = [
        ["As", "Ah", "Ad", "Ac", "As:2"],  # five of a kind
        ["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"],  # straight flush
        ["As", "As", "Ks", "Ks", "Qs"],  # repeated-rank flush (decks default 2)
        ["As", "Kh", "Qd", "Jc", "Ts"],  # straight
        ["Ac", "Jd", "9s", "6h", "3c"],  # high card
        ["Ad", "Jh", "9c", "6s", "3d", "2h"],  # same high card: tie
    ]
    answers, proc = jsonl([json.dumps({"cards": h}) for h in hands])
    assert proc.returncode == 0
    assert [a["category"] for a in answers] == [
        "five_of_a_kind", "straight_flush", "flush", "straight", "high_card", "high_card"]
    ranks = [a["rank"] for a in answers]
    assert ranks[:5] == sorted(ranks[:5], reverse=True)
    assert ranks[4] == ranks[5]
    assert answers[2]["best"] == ["As", "As", "Ks", "Ks", "Qs"]
    assert answers[1]["best"] == ["As", "Ks", "Qs", "Js", "Ts"]
    for h, a in zip(hands, answers, strict=True):
        assert a["rank"] == hand_value(parse_cards(h))


def test_decks_default_is_the_smallest_count_that_allows_the_cards() -> None:
    (answer,), _ = jsonl(['{"cards": ["As","As","As","Ks","Ks"]}'])
    assert answer["category"] == "full_house"
    assert answer["best"] == ["As", "As", "As", "Ks", "Ks"]


def test_best_is_strongest_first_in_comparison_order() -> None:
    """e.g. trips before pair, kickers high to low; the wheel as 5 4 3 2 A."""
    answers, _ = jsonl([
        '{"cards": ["2c","9s","Kd","9h","4c","9d","Ah"]}',
        '{"cards": ["2c","3d","Ah","4s","5h","Kc","Kd"]}',
        '{"cards": ["Kc","4d","Kh","4s","Ad","7c","2d"]}',
    ])
    assert [a["best"] for a in answers] == [
        ["9s", "9h", "9d", "Ah", "Kd"],
        ["5h", "4s", "3d", "2c", "Ah"],
        ["Kc", "Kh", "4d", "4s", "Ad"],
    ]


def test_human_form_prints_category_in_traditional_chinese_and_english_and_best_five() -> None:
    proc = run(["eval", "As", "Ah", "As", "Kd", "Kc", "2h", "3d", "--decks", "2"])
    assert proc.returncode == 0, proc.stderr
    assert "葫蘆" in proc.stdout
    assert "Full house" in proc.stdout
    assert "A♠  A♥  A♠  K♦  K♣" in proc.stdout
    assert str(hand_value(parse_cards(["As", "Ah", "As", "Kd", "Kc", "2h", "3d"], 2))) in proc.stdout


@pytest.mark.parametrize(
    ("args", "zh", "en"),
    [
        (["As", "As", "Ks", "Ks", "Qs", "--decks", "2"], "同花", "Flush"),
        (["As", "Ah", "Ad", "Ac", "As:2"], "五條", "Five of a kind"),
        (["9h", "8h", "7h", "6h", "5h", "--ranking", Ranking.STRAIGHT_FLUSH_HIGH.value], "同花順", "Straight flush"),
    ],
)
def test_human_form_other_categories(args: list[str], zh: str, en: str) -> None:
    proc = run(["eval", *args])
    assert proc.returncode == 0, proc.stderr
    assert zh in proc.stdout and en in proc.stdout


def test_human_form_bad_card_reports_the_code_without_a_traceback() -> None:
    proc = run(["eval", "As", "Ah", "As", "Kd", "Kc", "--decks", "1"])
    assert proc.returncode != 0
    assert "too_many_copies" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    proc = run(["eval", "Zz", "Ah", "Kd", "Qc", "Jh"])
    assert proc.returncode != 0
    assert "bad_card" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
