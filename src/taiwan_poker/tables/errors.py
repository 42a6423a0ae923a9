"""The table machine's error: a command the table cannot take now (its code says why)."""

from __future__ import annotations

from ..errors import TaiwanPokerError


class TableError(TaiwanPokerError):
    """A command the table cannot take now (the code says why; ``params`` the values behind the message)."""

    code = "table_error"
