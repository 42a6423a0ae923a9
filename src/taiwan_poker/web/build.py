"""The build id: the package version and a hash of every file the pages are made of.

A deploy that changes a static file, a template or a message catalogue, with or without a new version number,
gets a new id. Pages load their scripts and styles as ``?v=<build>``, every HTTP response names its build
(``X-TP-Build``, :class:`.app_shell.BuildHeader`) and the service worker's cache is named after it.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from .. import __version__

HERE = Path(__file__).parent


@cache
def build_id() -> str:
    """``<version>+<hash>``: the version and a hash of every static file, template and message catalogue."""
    digest = hashlib.sha256()
    for folder in ("static", "templates", "messages"):
        for path in sorted((HERE / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(HERE).as_posix().encode())
                digest.update(path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"
