"""The layout's import rule, read from the source with ``ast``: the core never imports the clients or the shell.

No module in ``tables/``, ``rules/``, ``coach/``, ``history/`` or ``strategy/``
imports ``bots``, ``rooms``, ``store`` or ``web`` (at the top, inside a
function or under ``TYPE_CHECKING`` alike): the bots are clients of the core,
and the coach and the review share the strategy core with them instead.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path

import pytest

import taiwan_poker

PACKAGE = Path(taiwan_poker.__file__).parent
CORE = ("tables", "rules", "coach", "history", "strategy")
FORBIDDEN = ("bots", "rooms", "store", "web")


def imported(source: str, package: Sequence[str]) -> set[str]:
    """Every module ``source`` imports, as an absolute dotted name (relative to ``package``, resolved)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(package[: len(package) - node.level + 1]) if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out.add(module)
            out.update(f"{module}.{alias.name}" for alias in node.names)  # ``from .. import bots``
    return out


def offences(source: str, package: Sequence[str]) -> list[str]:
    """The forbidden modules among those ``source`` imports."""
    bad = tuple(f"taiwan_poker.{name}" for name in FORBIDDEN)
    return sorted(m for m in imported(source, package) if m in bad or m.startswith(tuple(f"{b}." for b in bad)))


def package_of(module: str) -> list[str]:
    return ["taiwan_poker", *module.split("/")[:-1]]


MODULES = sorted(p.relative_to(PACKAGE).as_posix() for part in CORE for p in (PACKAGE / part).rglob("*.py"))


def test_every_core_folder_has_modules_to_check() -> None:
    assert {m.split("/")[0] for m in MODULES} == set(CORE)


@pytest.mark.parametrize("module", MODULES)
def test_no_core_module_imports_the_bots_the_rooms_the_store_or_the_web(module: str) -> None:
    assert offences((PACKAGE / module).read_text(encoding="utf-8"), package_of(module)) == []


@pytest.mark.parametrize(("source", "offends"), [
    ("from ..bots.levels import LEVELS", True),
    ("from .. import web", True),
    ("import taiwan_poker.store.repo", True),
    ("def f() -> None:\n    from ..rooms import service", True),
    ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..bots.policies import Policy", True),
    ("from ..strategy.seat import SeatView", False),
    ("from .advice import advise", False),
    ("from ..rules.views import events_for", False),
])
def test_the_checker_sees_relative_absolute_and_nested_imports(source: str, offends: bool) -> None:
    assert bool(offences(source, package_of("coach/advice.py"))) == offends
