"""The rules engine: rule sets, betting, pots, hands as event logs, matches, views and adjudication."""

from .actions import (
    ALLIN,
    CALL,
    CHECK,
    FOLD,
    Action,
    ActionKind,
    BadActionError,
    IllegalActionError,
    Legal,
    parse_action,
)
from .events import Audience, Event, Street, event_from_json
from .hand import BadStacksError, Hand, MissingCardsError
from .ruleset import DEFAULT_RULES, BurnSchedule, RuleSet, Structure, cards_needed

__all__ = [
    "ALLIN",
    "CALL",
    "CHECK",
    "DEFAULT_RULES",
    "FOLD",
    "Action",
    "ActionKind",
    "Audience",
    "BadActionError",
    "BadStacksError",
    "BurnSchedule",
    "Event",
    "Hand",
    "IllegalActionError",
    "Legal",
    "MissingCardsError",
    "RuleSet",
    "Street",
    "Structure",
    "cards_needed",
    "event_from_json",
    "parse_action",
]
