"""Member tables as a pure state machine: seats, the match, away players, leaving, rematches (no I/O).

    events = decide(state, Join(member_id, "小明"), rng)     # TableError / IllegalActionError: nothing changes
    state = fold(events, state)                              # evolve, one committed event at a time
    table_view(state, member_id)                             # what that member may see
"""

from .commands import (
    Act,
    AddBot,
    AdjustStack,
    AnswerRuns,
    AnswerSeat,
    Away,
    Back,
    BuyChips,
    ChangeRules,
    Command,
    Configure,
    ContributeSeed,
    Deal,
    DeleteChat,
    EndMatch,
    HandHost,
    Join,
    Leave,
    NameCohost,
    Open,
    Pause,
    Rematch,
    RemoveBot,
    RemovePlayer,
    Resume,
    SetCoach,
    SetOptions,
    ShowCards,
    ShowOrMuck,
    Silence,
    Straddle,
    TableOptions,
    TimeOut,
)
from .errors import TableError
from .events import TableEvent, event_from_json, event_to_json, visible_to
from .machine import chips_conserved, decide, decide_folded, evolve, fold, legal_for
from .state import Phase, SeatState, TableState
from .views import history, table_view

__all__ = [
    "Act", "AddBot", "AdjustStack", "AnswerRuns", "AnswerSeat", "Away", "Back", "BuyChips", "ChangeRules", "Command",
    "Configure", "ContributeSeed", "Deal", "DeleteChat", "EndMatch", "HandHost", "Join", "Leave", "NameCohost",
    "Open", "Pause", "Phase", "Rematch", "RemoveBot", "RemovePlayer", "Resume", "SeatState", "SetCoach", "SetOptions",
    "ShowCards", "ShowOrMuck", "Silence", "Straddle", "TableError", "TableEvent", "TableOptions", "TableState",
    "TimeOut", "chips_conserved", "decide", "decide_folded", "event_from_json", "event_to_json", "evolve", "fold",
    "history", "legal_for", "table_view", "visible_to",
]
