"""Errors with a stable machine-readable code and a human message.

The error classes of the core's compiled modules (``setup.py``) live here, or
in another module left interpreted: a class attribute such as ``code`` set in
a subclass compiled by mypyc is not seen by its instances.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules.actions import Legal


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


class MissingCardsError(TaiwanPokerError):
    """A card the hand needs was not given (adjudication with a short board or missing hole cards)."""

    code = "missing_cards"


class BadStacksError(TaiwanPokerError):
    """Stacks a hand cannot start with (code ``bad_stacks``)."""

    code = "bad_stacks"


class BadActionError(TaiwanPokerError):
    """An action that cannot be read (code ``bad_actions``)."""

    code = "bad_actions"


class IllegalActionError(TaiwanPokerError):
    """An action the rules do not allow now (code ``illegal_action``); ``legal`` says what is allowed."""

    code = "illegal_action"

    def __init__(self, message: str, *, legal: Legal | None = None, **params: Any) -> None:
        super().__init__(message, **params)
        self.legal = legal
