"""``dataclasses.replace`` for the table's frozen records, without its per-call field walk.

The table machine folds every event with a few ``replace`` calls on a
:class:`~taiwan_poker.tables.state.TableState` of about forty fields;
:func:`dataclasses.replace` walks the class's fields in Python and calls
``__init__`` each time, which made it the largest single cost of a move
(issue 49). :func:`replace` does the same for a frozen dataclass with no
``__post_init__`` and only ``init`` fields, through a function generated once
per class that copies each field straight into a new instance (as the
generated ``__init__`` does; a class compiled by mypyc, whose ``__init__`` is
C, is called with every field instead); any other class goes to
:func:`dataclasses.replace`. The result is the same object
:func:`dataclasses.replace` returns.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_MADE: dict[type, Callable[..., Any]] = {}


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass instance ``obj`` with ``changes`` (as :func:`dataclasses.replace`)."""
    cls = type(obj)
    made = _MADE.get(cls)
    if made is None:
        made = _MADE[cls] = _replacer(cls)
    result: T = made(obj, **changes)
    return result


def _replacer(cls: type) -> Callable[..., Any]:
    params = getattr(cls, dataclasses._PARAMS)  # type: ignore[attr-defined]  # the class's @dataclass arguments
    fields = dataclasses.fields(cls)
    if (not params.frozen or hasattr(cls, "__post_init__") or any(not f.init for f in fields)
            or any(f.name.startswith("_tp_") for f in fields)):
        return dataclasses.replace
    names = [f.name for f in fields]
    namespace: dict[str, Any] = {"_tp_missing": object(), "_tp_make": object.__new__, "_tp_cls": cls,
                                 "_tp_set": object.__setattr__}
    lines = [f"def replace(_tp_obj, /, *, {', '.join(f'{n}=_tp_missing' for n in names)}):"]
    if hasattr(cls, "__mypyc_attrs__"):  # compiled by mypyc: its __init__ is C, and object.__new__ refuses the class
        values = ", ".join(f"{n}=_tp_obj.{n} if {n} is _tp_missing else {n}" for n in names)
        lines.append(f"    return _tp_cls({values})")
    else:
        lines.append("    _tp_new = _tp_make(_tp_cls)")
        lines += [f"    _tp_set(_tp_new, {n!r}, _tp_obj.{n} if {n} is _tp_missing else {n})" for n in names]
        lines.append("    return _tp_new")
    exec("\n".join(lines), namespace)  # the source is made of the class's own field names
    made: Callable[..., Any] = namespace["replace"]
    return made
