"""Shared test settings: a deterministic Hypothesis profile for CI and local runs, and a check that the compiled
table machine (mypyc, ``setup.py``) was built from the sources as they are now."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[1]

settings.register_profile(
    "default",
    deadline=None,
    max_examples=200,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def stale_build() -> bool:
    """True when the compiled modules in ``src`` were built from other sources than these (Python imports a
    module's compiled file before its ``.py``, so the tests would run the old code; with TAIWAN_POKER_PURE=1 they
    run the ``.py``)."""
    stamp = ROOT / ".venv" / ".taiwan-poker-installed"
    built = any((ROOT / "src").glob("taiwan_poker_core__mypyc*"))
    if os.environ.get("TAIWAN_POKER_PURE") == "1" or not stamp.exists() or not built:
        return False
    spec = importlib.util.spec_from_file_location("taiwan_poker_dev", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    return bool(dev.build_digest() != stamp.read_text())


def pytest_sessionstart(session: pytest.Session) -> None:
    if stale_build():
        pytest.exit("the compiled table machine is older than its sources: `python3 dev.py test` builds it again "
                    "(or `python3 -c 'import dev; dev.setup()'`, then pytest)", returncode=4)
