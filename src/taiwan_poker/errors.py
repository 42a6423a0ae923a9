"""Errors with a stable machine-readable code and a human message."""

from __future__ import annotations

from typing import Any


class TaiwanPokerError(ValueError):
    """Base error: ``code`` is stable (used by the JSON contract), ``message`` is English.

    ``params`` carries the values the message was built from, so a shell can
    translate the message by its code.
    """

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.params = params

    def to_json(self) -> dict[str, Any]:
        """The contract's error object: ``{"code": ..., "message": ...}``."""
        return {"code": self.code, "message": self.message}


class CardError(TaiwanPokerError):
    """A card that cannot be parsed or cannot exist in the shoe."""

    code = "bad_card"


class TooManyCopiesError(CardError):
    """More copies of one face (or of one physical card) than the decks hold."""

    code = "too_many_copies"


class CardCountError(TaiwanPokerError):
    """The wrong number of cards for the operation."""

    code = "bad_card_count"


class RuleSetError(TaiwanPokerError):
    """A rule set that cannot be played (e.g. the shoe is too small)."""

    code = "bad_rules"
