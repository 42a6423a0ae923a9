"""The web shell: a FastAPI app serving server-rendered pages and a JSON API over the pure core."""

from .app import create_app

__all__ = ["create_app"]
