"""Where a redirect may go after signing in or switching the language: only a path on this site."""

from __future__ import annotations

import unicodedata
from urllib.parse import urlsplit


def safe_next(target: str | None, default: str = "/lobby") -> str:
    """``target`` when it is a same-origin path, else ``default``.

    Browsers read ``/\\host`` as ``//host`` and drop tabs and new lines inside a
    URL, so a path with a backslash or any control character is refused along
    with a scheme, a host and a leading ``//``.
    """
    if not target or "\\" in target or any(unicodedata.category(ch).startswith("C") for ch in target):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or parts.path.startswith("//"):
        return default
    return parts.path + (f"?{parts.query}" if parts.query else "")
