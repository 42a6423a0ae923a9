"""Strong's post-flop parameters as a file (taiwan_poker_lab.params_file): the shipped set round-trips through
JSON, and a file with a key the set does not know, or without one it needs, is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taiwan_poker.strategy.params import SHIPPED, Params
from taiwan_poker_lab.params_file import ParamsError, load, save, to_dict


def test_the_shipped_parameters_round_trip_through_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "shipped.json"
    save(path, SHIPPED)
    loaded = load(path)
    assert loaded == SHIPPED and loaded == Params() and hash(loaded) == hash(SHIPPED)
    assert json.loads(path.read_text())["betting"]["sizes"] == [1 / 3, 2 / 3, 1.0]  # exact floats


def test_an_unknown_key_is_refused_by_name(tmp_path: Path) -> None:
    data = to_dict()
    data["facing"]["price_safty"] = 0.8  # a typo
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ParamsError, match=r"facing: unknown key\(s\) price_safty"):
        load(path)


def test_a_missing_key_and_a_wrong_type_are_refused(tmp_path: Path) -> None:
    data = to_dict()
    del data["read"]["zeta"]["river"]
    path = tmp_path / "missing.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ParamsError, match=r"read.zeta: missing key\(s\) river"):
        load(path)
    data = to_dict()
    data["defence"]["iterations"] = 1.5
    path.write_text(json.dumps(data))
    with pytest.raises(ParamsError, match=r"defence.iterations: expected an integer"):
        load(path)


def test_a_changed_value_is_read() -> None:
    data = to_dict()
    data["facing"]["trust_bet"] = {"lo": 0.3, "hi": 0.6}
    data["defence"]["extra_sizes"] = [0.5]
    from taiwan_poker_lab.params_file import from_dict

    p = from_dict(data)
    assert p.facing.trust_bet.lo == 0.3 and p.defence.extra_sizes == (0.5,) and p != SHIPPED
