"""The OpenAPI docs at /docs are served by this server (no CDN), so they work on a machine without internet."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient

from taiwan_poker.web import create_app


def test_docs_page_and_its_assets_come_from_this_server() -> None:
    app = create_app(Path(tempfile.mkdtemp()), warm=False)
    with TestClient(app) as c:
        page = c.get("/docs")
        assert page.status_code == 200
        urls = re.findall(r"""(?:src|href)=['"]([^'"]+)['"]""", page.text) + re.findall(r"url: ?'([^']+)'", page.text)
        assert urls and all(u.startswith("/") for u in urls), urls
        for url in urls:
            assert c.get(url).status_code == 200, url
        spec = c.get("/openapi.json").json()
        assert "/api/rooms/{code}/actions" in spec["paths"] and "/api/lab/hands" in spec["paths"]
