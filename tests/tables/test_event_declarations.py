"""One declaration per table event (issue 46): its name, its audience, its line in the table's log (a message
catalogue key both languages have, filled by the line's fields) and its ``evolve`` handler, in one place and
nowhere else; visibility fails closed (no event type without an audience)."""

from __future__ import annotations

import importlib.util
import re
import typing
from pathlib import Path
from types import ModuleType

from taiwan_poker.rules.events import AUDIENCE as HAND_AUDIENCE
from taiwan_poker.rules.events import TYPE_NAMES as HAND_TYPES
from taiwan_poker.rules.events import Audience
from taiwan_poker.tables import events as te
from taiwan_poker.tables.events import DECLARED, HandEvent, LogLine, TableEvent, log_entry
from taiwan_poker.tables.state import LogItem
from taiwan_poker.web.i18n import catalogue
from tests.tables.test_table_machine import sample_events


def python_source(module: ModuleType) -> ModuleType:
    """``module`` executed afresh from its ``.py`` file (a twin beside it, whatever the original runs)."""
    path = Path(str(module.__file__)).with_name(module.__name__.rpartition(".")[2] + ".py")
    spec = importlib.util.spec_from_file_location(f"{module.__name__}_source", path)
    assert spec is not None and spec.loader is not None
    twin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(twin)
    return twin


PLACEHOLDER = re.compile(r"\{(\w+)\}")
LANGUAGES = ("zh-TW", "en")


def test_every_table_event_declares_its_name_audience_log_line_and_evolve_handler() -> None:
    """Every type of the TableEvent union has a declaration with all four, and nothing else is declared; a name
    is given once; only a hand event defers its audience (to the engine's, where every type names one too)."""
    source = python_source(te)  # a compiled handler keeps no annotations to read
    union = set(typing.get_args(TableEvent))
    assert set(DECLARED) == union, "a declaration for each event type of the union, and for nothing else"
    names = [d.name for d in DECLARED.values()]
    assert len(set(names)) == len(names) and all(re.fullmatch(r"[a-z_]+", n) for n in names)
    for cls, declared in DECLARED.items():
        assert isinstance(declared.audience, Audience) or (cls is HandEvent and declared.audience is None), cls
        assert declared.log is None or isinstance(declared.log, LogLine), cls
        hints = typing.get_type_hints(source.DECLARED[getattr(source, cls.__name__)].evolve, vars(source))
        handles = {c.__name__ for c in typing.get_args(hints["event"]) or (hints["event"],)}
        assert cls.__name__ in handles, f"{cls.__name__}'s handler takes {hints['event']}"
        assert cls._fields[-1] == "at" and cls._field_defaults["at"] is None, f"{cls.__name__} carries its time"
    assert set(HAND_AUDIENCE) == set(HAND_TYPES), "every hand event type has an explicit audience"


def test_every_log_line_is_said_in_both_languages_with_the_fields_its_entry_carries() -> None:
    """Each catalogue key a declaration names (both of a line that picks one by a field) is in the zh-TW and the
    English catalogue, and every placeholder of its messages is a field of the entry the page reads."""
    words = {lang: catalogue(lang) for lang in LANGUAGES}
    lines = 0
    for event in sample_events():
        line = DECLARED[type(event)].log
        if line is None:
            continue
        variants = [event] if line.pick is None else [event._replace(**{line.pick: v}) for v in (1, None)]
        for variant in variants:
            entry = log_entry(LogItem(7, variant, 2), {1: "Host", 2: "Bea"}, {7: "Asker"})
            assert entry["key"] in line.keys and entry["type"] == DECLARED[type(event)].name
            for lang in LANGUAGES:
                message = words[lang].get(entry["key"])
                assert message is not None, f"{entry['key']} is missing from the {lang} catalogue"
                missing = set(PLACEHOLDER.findall(message)) - set(entry)
                assert not missing, f"{entry['key']} ({lang}) names {missing}, which its entry lacks: {entry}"
            lines += 1
            assert all(f"room.opt_short.{name}" in words[lang] for name in entry.get("options", ())
                       for lang in LANGUAGES)
    assert {entry for d in DECLARED.values() if d.log for entry in d.log.keys} <= set(words["en"])
    assert lines >= 20
