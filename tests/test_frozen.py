"""``taiwan_poker.frozen.replace``: what :func:`dataclasses.replace` returns, for the table's records and others."""

from __future__ import annotations

import dataclasses

import pytest

from taiwan_poker.frozen import replace
from taiwan_poker.rules.ruleset import DEFAULT_RULES, RuleSetError
from taiwan_poker.tables.state import SeatState, TableState


def same(a: object, b: object) -> bool:
    """The same object; or, for what a compiled class keeps unboxed and boxes anew on each read (an int, a float,
    a fixed-length tuple), an equal one of the same type."""
    return a is b or (type(a) is type(b) and type(a) in (int, float, tuple) and a == b)


def test_a_frozen_record_is_copied_with_the_changes_as_dataclasses_replace_does() -> None:
    seat = SeatState(member=7, name="Ann", stack=2000)
    state = TableState(rules=DEFAULT_RULES, creator=7, seats=(seat, None))
    for changes in ({}, {"version": 3, "settled": 3}, {"seats": (None, seat)}, {"over": True, "winner": 7}):
        ours, theirs = replace(state, **changes), dataclasses.replace(state, **changes)
        assert ours == theirs and ours is not state and type(ours) is TableState
        assert all(same(getattr(ours, f.name), getattr(theirs, f.name)) for f in dataclasses.fields(TableState))
    assert replace(seat, stack=10) == dataclasses.replace(seat, stack=10)
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(state, version=1).version = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        replace(state, no_such_field=1)


def test_a_class_that_checks_itself_is_still_checked() -> None:
    """A ``__post_init__`` (the rule set's bounds) runs as with :func:`dataclasses.replace`."""
    assert replace(DEFAULT_RULES, decks=3).decks == 3
    with pytest.raises(RuleSetError):
        replace(DEFAULT_RULES, decks=0)


@dataclasses.dataclass(frozen=True, slots=True)
class Interpreted:
    """A frozen record of an interpreted module (the tests are never compiled): the branch that copies each field
    into ``object.__new__``'s instance, which the table's records take when the package runs its Python source."""

    a: int
    b: tuple[str, ...] = ()
    c: object = None


def test_an_interpreted_record_is_copied_field_by_field_as_dataclasses_replace_does() -> None:
    record = Interpreted(1, ("x",), c=[1])
    for changes in ({}, {"a": 2}, {"b": (), "c": None}):
        ours, theirs = replace(record, **changes), dataclasses.replace(record, **changes)
        assert ours == theirs and ours is not record and type(ours) is Interpreted
        assert all(getattr(ours, f.name) is getattr(theirs, f.name) for f in dataclasses.fields(Interpreted))
    with pytest.raises(TypeError):
        replace(record, d=1)
