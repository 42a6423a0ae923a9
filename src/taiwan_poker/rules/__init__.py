"""The rules engine: rule sets, betting, pots, hands as event logs, matches, views and adjudication.

Pure and sans-I/O: no clock, no sockets, no global random generator.  A web
shell uses it like this::

    match = Match(RuleSet(seats=2), rng)          # rng: live_rng() in production
    hand = match.start_hand()                     # deals; events so far in hand.events
    legal = hand.legal()                          # seat to act, call amount, min/max bet-to or raise-to
    new = hand.act(parse_action("raise 60"), seat=legal.seat)   # IllegalActionError → nothing changed
    hand.timeout()                                # the action clock ran out: check, else fold
    view(hand, seat) / view(hand, None)           # what a seat / a spectator may see (JSON-ready)
    events_for(hand, seat, since=version)         # new events, private ones reduced to their version
    Match.from_json(match.to_json(), rng)         # serialise and restore (replay of the event logs)
"""

from ..errors import BadActionError, BadStacksError, IllegalActionError, MissingCardsError
from .actions import (
    ALLIN,
    CALL,
    CHECK,
    FOLD,
    Action,
    ActionKind,
    Legal,
    parse_action,
)
from .adjudicate import adjudicate, adjudicate_safely
from .events import Audience, Event, Street, event_from_json, event_to_json, visible_to
from .hand import Hand
from .match import Match, MatchOverError
from .ruleset import DEFAULT_RULES, BurnSchedule, RuleSet, Structure, cards_needed
from .views import events_for, view

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
    "Match",
    "MatchOverError",
    "MissingCardsError",
    "RuleSet",
    "Street",
    "Structure",
    "adjudicate",
    "adjudicate_safely",
    "cards_needed",
    "event_from_json",
    "event_to_json",
    "events_for",
    "parse_action",
    "view",
    "visible_to",
]
