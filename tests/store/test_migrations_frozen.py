"""A migration is frozen as it was written: nothing under ``store/migrations/`` imports ``taiwan_poker``.

The one exception is Alembic's ``env.py``, which runs no upgrade itself: it hands Alembic the live models'
metadata (for ``--autogenerate``) and may import exactly that.
"""

from __future__ import annotations

import ast
from pathlib import Path

import taiwan_poker.store.db as store_db

MIGRATIONS = Path(store_db.__file__).parent / "migrations"
ENV_MAY_IMPORT = {"taiwan_poker.store.models"}


def live_imports(path: Path) -> set[str]:
    """Every module of this package that ``path`` imports (relative imports count: they reach the package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = ["." * node.level + (node.module or "")]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if called in ("import_module", "__import__"):
                names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        found |= {n for n in names if n.startswith(".") or n == "taiwan_poker" or n.startswith("taiwan_poker.")}
    return found


def test_no_migration_imports_taiwan_poker() -> None:
    files = sorted(MIGRATIONS.rglob("*.py"))
    versions = [f for f in files if f.parent.name == "versions"]
    assert len(versions) >= 4 and MIGRATIONS / "env.py" in files
    offenders = {str(f.relative_to(MIGRATIONS)): sorted(names) for f in files if f.name != "env.py"
                 and (names := live_imports(f))}
    assert offenders == {}, "a migration must not import live code: copy what it needs into it"
    assert live_imports(MIGRATIONS / "env.py") <= ENV_MAY_IMPORT
    template = (MIGRATIONS / "script.py.mako").read_text(encoding="utf-8")
    assert "taiwan_poker" not in template, "new migrations start from this template"


def test_the_import_check_sees_live_imports(tmp_path: Path) -> None:
    sample = tmp_path / "0099_sample.py"
    sample.write_text("import sqlalchemy\ndef upgrade():\n    from taiwan_poker.tables import fold\n"
                      "    from . import helpers\n    import importlib\n"
                      "    importlib.import_module('taiwan_poker.rules')\n", encoding="utf-8")
    assert live_imports(sample) == {"taiwan_poker.tables", ".", "taiwan_poker.rules"}
