"""One error registry: every code raised anywhere in the package has an HTTP status and a zh-TW and an English
message, and each message uses only the parameters its raise sites pass.

The codes are found by reading the source (``code="..."`` at a raise, ``code = "..."`` on an error class, the
code handed to the settings reader ``whole``), so a new code without its messages fails here.
"""

from __future__ import annotations

import ast
import json
import re
import string
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rules.actions import Action, ActionKind, Legal
from taiwan_poker.tables.settings import table_rules
from taiwan_poker.web.error_registry import STATUS, message_key, status_of
from taiwan_poker.web.i18n import error_message

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "taiwan_poker"
CATALOGUES = {lang: json.loads((PACKAGE / "web" / "messages" / f"{lang}.json").read_text()) for lang in ("en", "zh-TW")}
SIZED_KINDS = ["bet", "raise"]  # the f-string reasons are all about a sized action (bet or raise)
NOT_PARAMS = {"code", "legal", "reason"}


class Site:
    """One place an error with a known code is raised, with the parameter names it passes (None: unknown)."""

    def __init__(self, code: str, where: str, params: set[str] | None, reasons: list[str]) -> None:
        self.code, self.where, self.params, self.reasons = code, where, params, reasons


def _reasons(node: ast.expr) -> list[str]:
    """A ``reason=`` value: a constant, or an f-string over an action kind (every kind)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        texts = [""]
        for part in node.values:
            if isinstance(part, ast.Constant):
                texts = [t + str(part.value) for t in texts]
            else:
                texts = [t + k for t in texts for k in SIZED_KINDS]
        return texts
    return []


def _sites() -> list[Site]:
    classes: dict[str, str] = {}
    trees = {p: ast.parse(p.read_text()) for p in PACKAGE.rglob("*.py")}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for st in node.body:
                    if (isinstance(st, ast.Assign) and [getattr(t, "id", None) for t in st.targets] == ["code"]
                            and isinstance(st.value, ast.Constant)):
                        classes[node.name] = str(st.value.value)
    sites = []
    for path, tree in trees.items():
        where = str(path.relative_to(PACKAGE))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg is not None}
            params = {k for k in keywords if k not in NOT_PARAMS}
            if any(kw.arg is None for kw in node.keywords):
                params_known: set[str] | None = None  # **params: passed on from elsewhere
            else:
                params_known = params
            reasons = _reasons(keywords["reason"]) if "reason" in keywords else []
            code = keywords.get("code")
            if isinstance(code, ast.Constant) and isinstance(code.value, str) and code.value:
                sites.append(Site(code.value, where, params_known, reasons))
            elif code is None and name in classes:
                sites.append(Site(classes[name], where, params_known, reasons))
            elif name == "whole" and len(node.args) == 4 and isinstance(node.args[3], ast.Constant):
                sites.append(Site(str(node.args[3].value), where, {"low", "high"}, []))
    for cls, code in classes.items():
        sites.append(Site(code, f"class {cls}", None, []))
    return sites


SITES = _sites()
CODES = sorted({s.code for s in SITES})


def _placeholders(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


def test_the_source_walk_finds_the_codes_it_must() -> None:
    for code in ("bad_decks", "illegal_action", "room_not_found", "rate_limited", "calc_busy", "bad_stack"):
        assert code in CODES, code
    assert len(CODES) > 70


@pytest.mark.parametrize("code", CODES)
def test_every_code_raised_has_a_status_and_both_messages(code: str) -> None:
    assert code in STATUS, f"{code} has no HTTP status in web/error_registry.py"
    for lang, catalogue in CATALOGUES.items():
        assert f"error.{code}" in catalogue, f"{code} has no {lang} message"


def test_every_reason_an_error_gives_has_both_messages() -> None:
    keys = {f"error.{s.code}.{r}" for s in SITES for r in s.reasons}
    assert len(keys) >= 15, keys
    for key in sorted(keys):
        for lang, catalogue in CATALOGUES.items():
            assert key in catalogue, f"{key} has no {lang} message"


def test_messages_use_only_the_parameters_their_raise_sites_pass() -> None:
    passed: dict[str, list[set[str] | None]] = defaultdict(list)
    for s in SITES:
        for key in [f"error.{s.code}.{r}" for r in s.reasons] or [f"error.{s.code}"]:  # a reason's own message
            passed[key].append(s.params)
    problems = []
    for key, param_sets in passed.items():
        known = [p for p in param_sets if p is not None]
        for lang, catalogue in CATALOGUES.items():
            if key not in catalogue:
                continue
            used = _placeholders(catalogue[key])
            for params in known:
                if not used <= params:
                    problems.append(f"{lang} {key} uses {sorted(used - params)} that a raise site does not pass")
    assert not problems, "\n".join(sorted(set(problems)))


def test_both_languages_use_the_same_parameters() -> None:
    for key, text in CATALOGUES["en"].items():
        if key.startswith("error.") and key in CATALOGUES["zh-TW"]:
            assert _placeholders(text) == _placeholders(CATALOGUES["zh-TW"][key]), key


def test_statuses_are_http_errors_and_unregistered_codes_are_server_faults() -> None:
    assert all(400 <= s < 600 for s in STATUS.values())
    assert status_of("room_not_found") == 404 and status_of("rate_limited") == 429
    assert status_of("no code like this") == 500


def _illegal(legal: Legal, action: Action) -> TaiwanPokerError:
    with pytest.raises(TaiwanPokerError) as info:
        legal.check(action)
    return info.value


LEGAL = Legal(seat=0, actions=(ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE, ActionKind.ALLIN),
              call_amount=40, min_to=140, max_to=1000, allin_to=1000)


@pytest.mark.parametrize(("action", "zh", "en"), [
    (Action(ActionKind.RAISE, 100), "最小加注是加注到 140（你填了 100）。",
     "The minimum raise is to 140 (you asked for 100)."),
    (Action(ActionKind.RAISE, 5000), "最多只能加注到 1000", "The most you can raise to is 1000"),
    (Action(ActionKind.CHECK), "要跟注 40", "there is a bet of 40 to call"),
    (Action(ActionKind.BET, 200), "請用加注", "raise instead of betting"),
])
def test_an_illegal_action_says_why_in_both_languages(action: Action, zh: str, en: str) -> None:
    exc = _illegal(LEGAL, action)
    assert exc.code == "illegal_action" and message_key(exc).startswith("error.illegal_action.")
    assert zh in error_message("zh-TW", exc)
    assert en in error_message("en", exc)


def test_a_settings_error_renders_with_its_bounds() -> None:
    with pytest.raises(TaiwanPokerError) as info:
        table_rules(decks=9)
    for lang in ("zh-TW", "en"):
        text = error_message(lang, info.value)
        assert re.search(r"2\D+6", text), text


def _raise(code: str, **params: Any) -> TaiwanPokerError:
    return TaiwanPokerError("x", code=code, **params)


def test_codes_without_messages_before_the_registry_now_have_them() -> None:
    for code in ("coach_off", "bad_date", "table_error"):
        assert "（x）" not in error_message("zh-TW", _raise(code)), code
