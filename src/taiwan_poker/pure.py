"""``TAIWAN_POKER_PURE=1``: run the Python source of every module, even those built compiled (``setup.py``).

Python imports a module's compiled file before its ``.py``. With this switch set before ``taiwan_poker`` is
first imported, a finder placed first on :data:`sys.meta_path` hands out the source instead, so a profiler sees
inside the table machine's functions and a test may replace one of them (a compiled module calls its own and
its siblings' functions directly, past any replacement). A module with no source (the evaluator's C kernel)
loads as usual.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import SOURCE_SUFFIXES, FileFinder, ModuleSpec, SourceFileLoader
from types import ModuleType

ENV = "TAIWAN_POKER_PURE"


class SourceFirst(MetaPathFinder):
    """Finds ``taiwan_poker``'s modules by their ``.py`` files only."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> ModuleSpec | None:
        if not fullname.startswith("taiwan_poker.") or path is None:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def prefer_sources() -> None:
    """Install the finder (once) when :data:`ENV` is ``1``."""
    if os.environ.get(ENV) == "1" and not any(isinstance(f, SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFirst())


def compiled() -> bool:
    """Whether the table machine runs compiled in this process."""
    from .tables import machine

    return not machine.__file__ or not machine.__file__.endswith(".py")


def built() -> bool:
    """Whether this install holds the table machine compiled (whichever of the two this process runs)."""
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    from .tables import machine

    folder = Path(str(machine.__file__)).parent
    return any((folder / f"machine{suffix}").exists() for suffix in EXTENSION_SUFFIXES)
