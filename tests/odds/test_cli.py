"""``taiwan-poker odds …``: --json documents, human tables, and bad input (exit status 2, no traceback)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from taiwan_poker.cli import app

runner = CliRunner()


def run_json(*args: str, code: int = 0) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    doc: dict[str, Any] = json.loads(result.stdout)  # exactly one JSON document, nothing else
    return doc


def test_five_json() -> None:
    doc = run_json("five", "--decks", "1-3")
    assert [r["decks"] for r in doc["results"]] == [1, 2, 3]
    one = doc["results"][0]
    assert one["total"] == 2_598_960
    assert one["counts"]["straight_flush"] == 40
    assert isinstance(one["counts"]["one_pair"], int)
    assert doc["results"][2]["percent_text"]["five_of_a_kind"] == "0.001427"
    assert all(r["formula_equals_enumeration"] for r in doc["results"])


def test_seven_exact_and_simulated_json() -> None:
    doc = run_json("seven", "--decks", "1", "--exact")
    assert doc["results"][0]["counts"]["flush"] == 4_047_644
    sim = run_json("seven", "--simulate", "--decks", "1,2", "--hands", "20000", "--seed", "5")
    assert sim["method"] == "monte_carlo" and sim["decks_order"] == [1, 2]
    est = sim["results"][1]["estimates"]["one_pair"]
    assert est["trials"] == 20000 and est["low95"] < est["p"] < est["high95"] and est["se"] > 0


def test_start_json() -> None:
    doc = run_json("start", "--decks", "2", "--hand", "AKs", "--hand", "AsAs")
    r = doc["results"][0]
    assert r["fractions"]["pocket_pair"] == "7/103"
    assert r["fractions"]["identical"] == "1/103"
    assert r["classes"]["AKs"]["combinations"] == 16
    assert r["classes"]["AsAs"]["combinations"] == 1


def test_outs_json_heart_draw() -> None:
    base = ["outs", "--hole", "Ah", "Qh", "--board", "Jh", "8h", "4s", "2d", "--suit", "h", "--decks", "2"]
    doc = run_json(*base)
    assert (doc["outs"], doc["unseen"]) == (22, 98)
    doc = run_json(*base, "--burn", "7h")
    assert (doc["outs"], doc["unseen"]) == (21, 97)
    assert doc["without_burn"]["outs"] == 22
    doc = run_json(*base, "--burn", "7s")
    assert (doc["outs"], doc["unseen"]) == (22, 97)
    glued = run_json("outs", "--hole", "AhQh", "--board", "Jh 8h 4s 2d", "--suit", "h", "--decks", "2")
    assert (glued["outs"], glued["unseen"]) == (22, 98)


def test_potodds_json() -> None:
    doc = run_json("potodds", "--pot", "60", "--bet", "20")
    assert doc["break_even"] == pytest.approx(0.2) and doc["break_even_fraction"] == "1/5"
    doc = run_json("potodds", "--pot", "60", "--bet", "20", "--win", "0.15", "--tie", "0.1")
    assert doc["equity"] == pytest.approx(0.2) and doc["call_ev"] == pytest.approx(0.0)


def test_equity_json() -> None:
    doc = run_json("equity", "AhKh", "QsQd", "--board", "Jh", "8h", "4s", "--decks", "2", "--burn", "7h")
    assert doc["method"] == "exact" and doc["board"] == ["Jh", "8h", "4s"]
    assert doc["samples"] == 4560
    players = doc["players"]
    assert sum(p["equity"] for p in players) == pytest.approx(1.0)
    assert isinstance(players[0]["win_count"], int)
    mc = run_json("equity", "AhKh", "random", "--decks", "2", "--precision", "0.01", "--seed", "1")
    assert mc["method"] == "monte_carlo" and mc["players"][0]["equity_se"] > 0


def test_charts_json() -> None:
    doc = run_json("charts", "--decks", "2")
    assert len(doc["cells"]) == 182
    assert doc["cells"]["AA"]["equity"] > 0.8
    one = run_json("charts", "--decks", "1")
    assert one["cells"]["AA="] is None


def test_human_tables() -> None:
    for args in (
        ["five", "--decks", "3"],
        ["start", "--decks", "2"],
        ["outs", "--hole", "Ah", "Qh", "--board", "Jh", "8h", "4s", "2d", "--burn", "7h", "--suit", "h"],
        ["potodds", "--pot", "60", "--bet", "20"],
        ["equity", "AhKh", "QsQd", "--board", "Jh", "8h", "4s", "--decks", "2", "--burn", "7h"],
        ["charts", "--decks", "2"],
        ["seven", "--decks", "1"],
    ):
        result = runner.invoke(app, ["odds", *args])
        assert result.exit_code == 0, (args, result.output)
        assert "{" not in result.stdout.splitlines()[0]
    out = runner.invoke(app, ["odds", "outs", "--hole", "Ah", "Qh", "--board", "Jh", "8h", "4s", "2d", "--suit", "h"])
    assert "22 / 98" in out.stdout


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["five", "--decks", "0"], "bad_decks"),
        (["five", "--decks", "x"], "bad_decks"),
        (["seven", "--decks", "9"], "bad_decks"),
        (["outs", "--hole", "Ah", "Zz", "--suit", "h"], "bad_card"),
        (["outs", "--hole", "Ah", "Ah", "--board", "Ah", "2c", "3d", "--suit", "h", "--decks", "2"], "too_many_copies"),
        (["outs", "--hole", "Ah", "Qh"], "bad_target"),
        (["outs", "--hole", "Ah", "--suit", "h"], "bad_card_count"),
        (["outs", "--foo", "Ah", "--suit", "h"], "bad_usage"),
        (["equity", "AhKh", "QQ+,AKx"], "bad_range"),
        (["equity", "AhKh"], "bad_usage"),
        (["equity", "AhKh", "random", "--board", "2c", "3c"], "bad_card_count"),
        (["equity", "AhKh", "AhKh", "--decks", "1"], "too_many_copies"),
        (["equity", "AhKh", "random", "--method", "magic"], "bad_equity_request"),
        (["potodds", "--pot", "60", "--bet", "0"], "bad_amount"),
        (["start", "--hand", "AKx"], "bad_range"),
        (["charts", "--decks", "7"], "bad_chart"),
    ],
)
def test_bad_input_exits_2_with_code(args: list[str], code: str) -> None:
    doc = run_json(*args, code=2)
    assert doc["error"]["code"] == code
    human = runner.invoke(app, ["odds", *args])
    assert human.exit_code == 2
    assert "Traceback" not in human.output
    assert code in human.stderr
