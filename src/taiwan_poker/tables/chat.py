"""Table talk as rules: who may write and read a table's chat, and what a message may be (pure, no storage).

* Seated players chat; spectators too where the host allows it (``spectator_chat``), signed-in ones only.
* Each message's audience is explicit and fixed when it is written: ``players`` (the players seated at the
  table) or, where spectators may chat, ``everyone`` (spectators too).
* A player the host silenced cannot write; the host and co-hosts cannot be silenced.
* A message is text of 1 to 200 characters (no control characters), stored and sent as text; a reaction is one
  of :data:`~.limits.CHAT_REACTIONS`, alone or to a message.
* A reader never gets the lines of players they muted (their own choice, per table).
"""

from __future__ import annotations

import unicodedata

from .errors import TableError
from .limits import CHAT_MAX_CHARS, CHAT_REACTIONS
from .state import TableState

PLAYERS, EVERYONE = "players", "everyone"


def chat_audience(state: TableState, member: int) -> str:
    """The audience of a message ``member`` writes now, or why they may not write (``chat_closed``,
    ``chat_silenced``)."""
    if member in state.silenced:
        raise TableError("the host has silenced you at this table's chat", code="chat_silenced")
    seated = state.seat_of(member) is not None
    if not seated and not state.options.spectator_chat:
        raise TableError("only the players at this table may chat", code="chat_closed")
    return EVERYONE if state.options.spectator_chat else PLAYERS


def may_read(state: TableState, member: int | None, audience: str) -> bool:
    """Whether ``member`` (None: a visitor) may read a line written for ``audience``."""
    if audience == EVERYONE:
        return True
    return audience == PLAYERS and state.seat_of(member) is not None


def clean_text(text: object) -> str:
    """A message as it is stored: trimmed, 1 to 200 characters, no control characters (``bad_chat``)."""
    if not isinstance(text, str):
        raise TableError("a message is text", code="bad_chat", high=CHAT_MAX_CHARS)
    text = text.strip()
    if not 1 <= len(text) <= CHAT_MAX_CHARS:
        raise TableError(f"a message is 1 to {CHAT_MAX_CHARS} characters", code="bad_chat", high=CHAT_MAX_CHARS)
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") and ch not in "\u200d\ufe0f" for ch in text):
        raise TableError("a message may not hold control characters", code="bad_chat", high=CHAT_MAX_CHARS)
    return text


def check_reaction(reaction: object) -> str:
    if not isinstance(reaction, str) or reaction not in CHAT_REACTIONS:
        raise TableError(f"a reaction is one of {' '.join(CHAT_REACTIONS)}", code="bad_reaction",
                         reactions=" ".join(CHAT_REACTIONS))
    return reaction


__all__ = ["EVERYONE", "PLAYERS", "chat_audience", "check_reaction", "clean_text", "may_read"]
