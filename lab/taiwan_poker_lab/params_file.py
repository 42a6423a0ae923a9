"""Strong's post-flop parameters (:class:`taiwan_poker.strategy.params.Params`) to and from a JSON file.

An experiment is a parameter file: write the shipped set (``python -m taiwan_poker_lab.params_file > exp.json``),
change the numbers to try, and pass it to the lab (``benchmarks/bench_bots.py --params exp.json``,
``benchmarks/lbr_paired.py exp.json``).  The file holds every field, nested as the groups are (a :class:`Ramp`
as ``{"lo": .., "hi": ..}``, a tuple as a list); :func:`load` refuses a file with a key it does not know or
without one it needs, naming the key, so a typo or a parameter renamed since never passes silently.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import typing
from pathlib import Path
from typing import Any

from taiwan_poker.strategy.params import SHIPPED, Params


class ParamsError(ValueError):
    """A parameter file that does not describe a :class:`Params`."""


def load(path: str | Path) -> Params:
    """The parameters in the JSON file at ``path`` (:class:`ParamsError` naming the first key that is unknown,
    missing or of the wrong type)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ParamsError(f"{path}: not JSON ({e})") from e
    return from_dict(data, str(path))


def from_dict(data: object, where: str = "params") -> Params:
    """The parameters in ``data`` (a JSON object as :func:`to_dict` writes it)."""
    out = _build(Params, data, where)
    assert isinstance(out, Params)
    return out


def to_dict(params: Params = SHIPPED) -> dict[str, Any]:
    """``params`` as a JSON object (tuples as lists)."""
    out: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(params)))
    return out


def dumps(params: Params = SHIPPED) -> str:
    """``params`` as the text of a parameter file."""
    return json.dumps(to_dict(params), indent=2) + "\n"


def save(path: str | Path, params: Params = SHIPPED) -> None:
    Path(path).write_text(dumps(params), encoding="utf-8")


def _build(cls: type[Any], data: object, where: str) -> object:
    if not isinstance(data, dict):
        raise ParamsError(f"{where}: expected an object with the keys of {cls.__name__}, got {type(data).__name__}")
    names = [f.name for f in dataclasses.fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise ParamsError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(names)})")
    missing = [n for n in names if n not in data]
    if missing:
        raise ParamsError(f"{where}: missing key(s) {', '.join(missing)}")
    hints = typing.get_type_hints(cls)
    return cls(**{n: _value(hints[n], data[n], f"{where}.{n}") for n in names})


def _value(tp: Any, x: object, where: str) -> object:
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _build(tp, x, where)
    if tp is bool:
        if not isinstance(x, bool):
            raise ParamsError(f"{where}: expected true or false, got {x!r}")
        return x
    if tp is int:
        if isinstance(x, bool) or not isinstance(x, int):
            raise ParamsError(f"{where}: expected an integer, got {x!r}")
        return x
    if tp is float:
        if isinstance(x, bool) or not isinstance(x, int | float):
            raise ParamsError(f"{where}: expected a number, got {x!r}")
        return float(x)
    if typing.get_origin(tp) is tuple:
        if not isinstance(x, list):
            raise ParamsError(f"{where}: expected a list, got {x!r}")
        item = typing.get_args(tp)[0]
        return tuple(_value(item, y, f"{where}[{i}]") for i, y in enumerate(x))
    raise ParamsError(f"{where}: a field of type {tp!r} cannot be read")  # pragma: no cover (a new field type)


if __name__ == "__main__":
    sys.stdout.write(dumps(SHIPPED))
