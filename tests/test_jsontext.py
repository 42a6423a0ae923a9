"""The compact JSON the server sends and stores (orjson) is the text the standard library wrote before it."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taiwan_poker.jsontext import compact_json


def stdlib(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text()
    | st.floats(allow_nan=False, allow_infinity=False, min_value=-1e15, max_value=1e15),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text() | st.integers(0, 99), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_compact_json_writes_the_standard_librarys_text(value: Any) -> None:
    """The same JSON; the same text where there is no float (orjson writes ``e-8`` for ``e-08``)."""
    assert json.loads(compact_json(value)) == json.loads(stdlib(value))
    if not _has_float(value):
        assert compact_json(value) == stdlib(value)


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    return isinstance(value, list) and any(_has_float(v) for v in value)


class Pair(NamedTuple):
    a: int
    b: str


@pytest.mark.parametrize("value", [Pair(1, "一"), {"k": Pair(2, "x")}, 2**70, [2**70, "大"], {"name": "王小明"}])
def test_what_orjson_does_not_take_is_written_as_before(value: Any) -> None:
    assert compact_json(value) == stdlib(value)


def test_a_value_no_encoder_takes_is_refused() -> None:
    with pytest.raises(TypeError):
        compact_json({"when": object()})

