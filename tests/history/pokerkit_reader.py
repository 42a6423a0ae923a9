"""pokerkit reading our PHH: the hand history's own replay, with the number of runouts the file gives (``_runs``).

PHH has no action for choosing how many times the board is run, so pokerkit's
``HandHistory`` selects one runout by itself; a reader of our files leaves that
automation out and answers the showdown's question with ``_runs`` instead
(``history/phh.py``). Everything else is pokerkit's own replay of the actions.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

from pokerkit import Automation, HandHistory, State

AUTOMATIONS = tuple(a for a in HandHistory.automations if a is not Automation.RUNOUT_COUNT_SELECTION)


def pokerkit_replay(text: str) -> State:
    """The final state pokerkit reaches replaying one PHH hand, run as many times as the file says."""
    hh = HandHistory.loads(text, automations=AUTOMATIONS)
    runs = int(hh.user_defined_fields.get("_runs", 1))
    state = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a multi-deck shoe deals a face twice: pokerkit warns
        for state, _action in hh.state_actions:
            while state.can_select_runout_count():
                state.select_runout_count(runs if runs > 1 else None)
    assert state is not None
    return state


def repeated_faces(cards: Sequence[str]) -> bool:
    """Whether a face repeats among these labels (``Ah:1``, ``Ah:2``): two physical cards pokerkit cannot tell
    apart (it judges one deck), so it may judge such a hand otherwise than our multi-deck rules do."""
    faces = [c.split(":")[0] for c in cards]
    return len(set(faces)) < len(faces)
