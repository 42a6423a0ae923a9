"""The JSON contract of ``taiwan-poker adjudicate`` (spec/contract.md), checked literally."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taiwan_poker.rules.adjudicate import adjudicate, adjudicate_safely

SAMPLE: dict[str, Any] = {
    "decks": 2,
    "structure": "no-limit",
    "blinds": [10, 20],
    "stacks": [2000, 2000],
    "button": 0,
    "hole_cards": [["As", "Kd"], ["Qh", "Qc"]],
    "board": ["2c", "7h", "9s", "Td", "Jc"],
    "actions": ["call", "check", "bet 40", "raise 120", "call", "check", "check", "allin", "fold"],
}
CLI = [str(Path(sys.executable).with_name("taiwan-poker")), "adjudicate"]


def with_actions(actions: list[str], **extra: Any) -> dict[str, Any]:
    return {**SAMPLE, "actions": actions, **extra}


def test_contract_sample_complete_hand_allin_and_fold() -> None:
    """Contract: seat 1 goes all-in on the river, seat 0 folds; the unmatched 1860 comes back."""
    assert adjudicate(SAMPLE) == {
        "ok": True, "complete": True,
        "final_stacks": [1860, 2140],
        "returned": [{"seat": 1, "amount": 1860}],
        "pots": [{"amount": 280, "eligible": [1], "winners": [1]}],
        "showdown": [],
    }


def test_contract_sample_called_shows_both_hands_queens_beat_ace_high() -> None:
    """Contract: had seat 0 called, both hands are shown and seat 1's queens win."""
    out = adjudicate(with_actions([*SAMPLE["actions"][:-1], "call"]))
    assert out["final_stacks"] == [0, 4000]
    assert out["returned"] == []
    assert out["pots"] == [{"amount": 4000, "eligible": [0, 1], "winners": [1]}]
    assert out["showdown"] == [
        {"seat": 0, "category": "high_card", "best": ["As", "Kd", "Jc", "Td", "9s"]},
        {"seat": 1, "category": "one_pair", "best": ["Qh", "Qc", "Jc", "Td", "9s"]},
    ]


def test_contract_sample_legal_now() -> None:
    """Contract: actions stopping after the flop bet give what is legal now."""
    assert adjudicate(with_actions(["call", "check", "bet 40"])) == {
        "ok": True, "complete": False, "street": "flop", "to_act": 0,
        "legal": {"actions": ["fold", "call", "raise", "allin"],
                  "call_amount": 40, "min_raise_to": 80, "max_raise_to": 1980},
        "pot": 80,
    }


def test_contract_sample_illegal_action_error_shape() -> None:
    """Contract: a raise below the minimum gives illegal_action with the index and the legal options."""
    request = {"stacks": [2000] * 6, "actions": ["fold", "fold", "fold", "raise 30"]}
    assert adjudicate_safely(request) == {"ok": False, "error": {
        "code": "illegal_action", "index": 3,
        "message": "raise to 30 is below the minimum raise to 40",
        "legal": {"actions": ["fold", "call", "raise", "allin"], "call_amount": 20,
                  "min_raise_to": 40, "max_raise_to": 2000}}}


def test_contract_bet_reported_with_min_and_max_bet_to() -> None:
    """Contract: a bet is reported as ``bet`` with ``min_bet_to`` / ``max_bet_to``."""
    out = adjudicate(with_actions(["call", "check"]))
    assert out["to_act"] == 1
    assert out["legal"] == {"actions": ["check", "bet", "allin"], "call_amount": 0,
                            "min_bet_to": 20, "max_bet_to": 1980}


def test_contract_raise_above_effective_stack_is_illegal_and_allin_returns_the_excess() -> None:
    """Contract: max_raise_to is what another player can match; ``raise N`` above it is illegal; allin moves all."""
    req = with_actions(["raise 600"], stacks=[3000, 500])
    err = adjudicate_safely(req)["error"]
    assert err["code"] == "illegal_action" and err["index"] == 0 and err["legal"]["max_raise_to"] == 500
    out = adjudicate(with_actions(["allin", "call"], stacks=[3000, 500]))
    assert out["returned"] == [{"seat": 0, "amount": 2500}]
    assert out["final_stacks"] in ([3500, 0], [2500, 1000])


def test_contract_no_raise_listed_when_betting_not_reopened() -> None:
    """Contract: where no full raise is allowed the list leaves ``raise`` out."""
    req = {"stacks": [2000, 2000, 170, 2000], "button": 3, "board": ["2c", "7h", "9s"],
           "actions": ["call", "call", "call", "check", "bet 100", "call", "allin", "call"]}
    out = adjudicate(req)
    assert out["to_act"] == 0 and out["legal"] == {"actions": ["fold", "call"], "call_amount": 50}


@pytest.mark.parametrize(
    ("request_", "code", "index"),
    [
        ({"stacks": [2000]}, "bad_stacks", None),
        ({"stacks": [2000, 0]}, "bad_stacks", None),
        ({"stacks": [2000, "x"]}, "bad_stacks", None),
        ({"stacks": [2000] * 10}, "bad_stacks", None),
        ({"stacks": [2000, 2000], "hole_cards": [["Zz", "As"]]}, "bad_card", None),
        ({"stacks": [2000, 2000], "decks": 1, "hole_cards": [["As", "As"]]}, "too_many_copies", None),
        ({"stacks": [2000, 2000], "actions": ["call", "jump"]}, "bad_actions", 1),
        ({"stacks": [2000, 2000], "actions": "call"}, "bad_actions", None),
        ({"stacks": [2000, 2000], "actions": ["fold", "check"]}, "bad_actions", 1),
        ({"stacks": [2000, 2000], "actions": ["check"]}, "illegal_action", 0),
        ({"stacks": [2000, 2000], "actions": ["call", "check"]}, "missing_cards", 1),
        ({"stacks": [2000, 2000], "button": 2}, "bad_button", None),
        ({"stacks": [2000, 2000], "structure": "spread"}, "bad_structure", None),
        ({"stacks": [2000, 2000], "blinds": [20, 10]}, "bad_blinds", None),
        ([1, 2], "bad_json", None),
    ],
)
def test_contract_bad_input_error_codes(request_: Any, code: str, index: int | None) -> None:
    """Contract: bad input gives ``{"ok": false, "error": {"code", "message", ...}}``, never a partial result."""
    out = adjudicate_safely(request_)
    assert out["ok"] is False and set(out) == {"ok", "error"}
    assert out["error"]["code"] == code
    assert out["error"].get("index") == index
    assert out["error"]["message"]


def test_contract_missing_showdown_hole_cards() -> None:
    """Contract: hole cards are needed only as far as the hand goes — a showdown needs them."""
    req = {"stacks": [100, 100], "board": ["2c", "7h", "9s", "Td", "Jc"], "hole_cards": [["As", "Ad"]],
           "actions": ["allin", "call"]}
    assert adjudicate_safely(req)["error"]["code"] == "missing_cards"
    req["actions"] = ["fold"]
    assert adjudicate(req)["final_stacks"] == [90, 110]


def test_cli_single_object_matches_contract_sample() -> None:
    """Contract: ``taiwan-poker adjudicate`` reads one object on stdin and writes the answer."""
    done = subprocess.run(CLI, input=json.dumps(SAMPLE), capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == adjudicate(SAMPLE)


def test_cli_jsonl_one_answer_per_line_in_order_bad_lines_answered() -> None:
    """Contract: ``--jsonl`` answers every line in order, bad lines with an error, exit status 0."""
    lines = [json.dumps(SAMPLE), "not json", json.dumps(with_actions(["call", "check", "bet 40"])), "[]"]
    done = subprocess.run([*CLI, "--jsonl"], input="\n".join(lines) + "\n", capture_output=True, text=True)
    assert done.returncode == 0
    out = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(out) == 4
    assert out[0]["final_stacks"] == [1860, 2140]
    assert out[1] == {"ok": False, "error": {"code": "bad_json", "message": out[1]["error"]["message"]}}
    assert out[2]["legal"]["min_raise_to"] == 80
    assert out[3]["error"]["code"] == "bad_json"


@pytest.mark.parametrize("field", ["structure", "ranking", "blinds", "decks", "button", "board", "hole_cards"])
def test_contract_wrong_json_types_give_an_error_not_a_crash(field: str) -> None:
    """Contract: bad input of any JSON type is answered with an error object."""
    for value in ([1], {"a": 1}, "x", 3.5, None, True):
        out = adjudicate_safely({**SAMPLE, field: value})
        assert out["ok"] is True or out["error"]["code"], out


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 3000) | st.floats(allow_nan=False) | st.sampled_from(
        ["As", "Kd", "10h", "As:2", "zz", "call", "raise 40", "allin", "no-limit", "limit", "pot-limit", ""]),
    lambda inner: st.lists(inner, max_size=6),
    max_leaves=12,
)


@settings(max_examples=300)
@given(st.dictionaries(st.sampled_from([*sorted(SAMPLE), "ranking", "extra"]), _json_values, max_size=8))
def test_contract_any_request_gets_an_answer_or_a_coded_error(request_: dict[str, Any]) -> None:
    """Contract: bad input of any shape gives an error with a stable code, never a crash or a partial result."""
    out = adjudicate_safely({**SAMPLE, **request_})
    if out["ok"]:
        assert set(out) in ({"ok", "complete", "final_stacks", "returned", "pots", "showdown"},
                            {"ok", "complete", "street", "to_act", "legal", "pot"})
    else:
        assert out["error"]["code"] != "internal_error", out
