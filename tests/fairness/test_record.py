"""Fairness records, the published test vectors, and ``taiwan-poker verify`` (issue 47)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from taiwan_poker.cli import app
from taiwan_poker.fairness import CommittedShoe, HmacDrbg, player_mix, seed_commitment
from taiwan_poker.fairness.record import verify_record

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "fairness-vectors.json").read_text())


def test_the_published_vectors_are_what_this_implementation_gives() -> None:
    d = VECTORS["hmac_drbg"]
    drbg = HmacDrbg(bytes.fromhex(d["entropy"]), bytes.fromhex(d["nonce"]))
    drbg.generate(128)
    assert drbg.generate(128).hex() == d["returned"]
    v = VECTORS["shoe"]
    seeds = {int(k): bytes.fromhex(x) for k, x in v["player_seeds"].items()}
    seed = bytes.fromhex(v["server_seed"])
    shoe = CommittedShoe.derive(v["decks"], seed, v["hand_id"], seeds)
    assert player_mix(seeds).hex() == v["mix"] and seed_commitment(seed).hex() == v["seed_hash"]
    assert [c.label for c in shoe.cards[:12]] == v["first_cards"] and shoe.cards[-1].label == v["last_card"]
    assert (shoe.salts[0].hex(), shoe.leaves[0].hex(), shoe.root.hex()) == (v["salt_0"], v["leaf_0"], v["root"])
    assert verify_record(VECTORS["record"]).ok


def _broken(change: str) -> dict[str, Any]:
    r = copy.deepcopy(VECTORS["record"])
    o = r["openings"][1]
    if change == "card":
        o["card"] = "As:1" if o["card"] != "As:1" else "As:2"
    elif change == "salt":
        o["salt"] = ("0" if o["salt"][0] != "0" else "1") + o["salt"][1:]
    elif change == "server seed":
        r["server_seed"] = "ff" + r["server_seed"][2:]
    elif change == "player seed":
        r["player_seeds"]["1"] = "626f63"
    elif change == "two cards swapped":
        a, b = r["openings"][0], r["openings"][1]
        a["card"], b["card"] = b["card"], a["card"]
    return r


@pytest.mark.parametrize("change", ["card", "salt", "server seed", "player seed", "two cards swapped"])
def test_changing_anything_makes_the_check_fail(change: str) -> None:
    assert not verify_record(_broken(change)).ok, change


def test_the_cli_verifies_a_match_file_and_fails_on_a_changed_card(tmp_path: Path) -> None:
    runner = CliRunner()
    good = tmp_path / "match.json"
    good.write_text(json.dumps({"hands": [{"hand_no": 1, "fairness": VECTORS["record"]}]}))
    result = runner.invoke(app, ["verify", str(good), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)[0]["ok"] is True
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"fairness": _broken("card")}))
    result = runner.invoke(app, ["verify", str(bad)])
    assert result.exit_code == 1 and "FAILED" in result.output
    assert runner.invoke(app, ["verify", str(tmp_path / "nothing.json")]).exit_code != 0
