"""CHANGELOG.md records each release: the package's version has its entry (issue 48, point 1)."""

from __future__ import annotations

import re
from pathlib import Path

from taiwan_poker import __version__

ROOT = Path(__file__).resolve().parents[2]


def test_the_current_version_has_a_changelog_entry_with_a_date() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (\S+) — (\d{4}-\d{2}-\d{2})$", text, flags=re.MULTILINE)
    assert headings, "no release headings"
    assert headings[0][0] == __version__, f"the newest entry is {headings[0][0]}, the package is {__version__}"


def test_the_version_is_written_once() -> None:
    """pyproject.toml reads it from the package (setuptools' dynamic version), so the two cannot disagree."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'version = {attr = "taiwan_poker.__version__"}' in pyproject
    assert not re.search(r'^version\s*=\s*"', pyproject, flags=re.MULTILINE)
