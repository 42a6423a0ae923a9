"""What the live table showed of one hand, and the check that each of its histories tells the same story (issue 45).

:class:`LiveHand` is read from the table's view as the players saw it: when the
hand was dealt (its players' names, its stakes, the chips posted) and when it
ended (pots, stacks, boards, cards shown), with the moves as the players made
them.  :func:`check_histories` then reads one viewer's histories of that hand —
the JSON the replayer draws, the table history's entry, the text and the PHH
(replayed by pokerkit) — and checks every post, action, pot of every run, stack
and name against it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pokerkit import HandHistory

from taiwan_poker.rules.replay import replay
from tests.history.pokerkit_reader import pokerkit_replay, repeated_faces


@dataclass
class LiveHand:
    """One hand as the live table showed it."""

    hand_no: int
    blinds: tuple[int, int]
    names: dict[int, str]  # seat -> the player dealt in there
    start: dict[int, int]  # seat -> chips before the posts
    posts: dict[int, int]  # seat -> chips posted (blinds and straddle)
    roles: dict[int, int]  # seat -> the forced bet its role asks for (small, big blind, straddle)
    straddle: int | None
    moves: list[tuple[int, bool, bool]] = field(default_factory=list)  # (seat, folded, timed out), in order
    pots: list[dict[str, Any]] = field(default_factory=list)
    end: dict[int, int] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    board2: list[str] = field(default_factory=list)
    shown: dict[int, list[str]] = field(default_factory=dict)  # hole cards shown at the showdown
    showed: dict[int, list[str]] = field(default_factory=dict)  # an uncontested winner's cards shown after it

    @classmethod
    def dealt(cls, view: dict[str, Any]) -> LiveHand:
        """The hand as dealt, from a view taken before anyone acted in it."""
        hand = view["hand"]
        seats = [s for s in hand["seats"] if s["in_hand"]]
        players = {p["seat"]: p["name"] for p in view["players"] if not p["left"]}
        sb, bb = view["blinds"]
        roles = {hand["small_blind_seat"]: sb, hand["big_blind_seat"]: bb}
        if hand["straddle_seat"] is not None:
            roles[hand["straddle_seat"]] = 2 * bb
        return cls(hand_no=hand["hand_no"], blinds=(sb, bb), names={s["seat"]: players[s["seat"]] for s in seats},
                   start={s["seat"]: s["stack"] + s["bet"] for s in seats},
                   posts={s["seat"]: s["bet"] for s in seats if s["bet"]}, roles=roles,
                   straddle=hand["straddle_seat"])

    def moved(self, view: dict[str, Any], seat: int, timed_out: bool) -> None:
        """The player in ``seat`` made a move (or the clock made it for them); ``view`` is the table after it."""
        self.moves.append((seat, view["hand"]["seats"][seat]["folded"], timed_out))

    def ended(self, view: dict[str, Any]) -> None:
        """The hand is over: its pots, stacks, boards and the cards shown, as the table shows them."""
        hand = view["hand"]
        assert hand["complete"] and hand["hand_no"] == self.hand_no
        self.pots = hand["pots"]
        self.end = {s: hand["seats"][s]["stack"] for s in self.names}
        self.board, self.board2 = hand["board"], hand.get("board2", [])
        self.shown = {s["seat"]: s["shown"]["hole"] for s in hand["seats"] if "shown" in s}
        self.showed = {s["seat"]: s["showed"] for s in hand["seats"] if s.get("showed")}

    @property
    def timeouts(self) -> list[int]:
        return [seat for seat, _folded, timed_out in self.moves if timed_out]

    def shares(self, run: int) -> list[tuple[int, int]]:
        """Every winner's share of the pots paid on ``run``, sorted."""
        return sorted((w, s) for p in self.pots if p.get("run", 1) == run
                      for w, s in zip(p["winners"], p["shares"], strict=True))

    @property
    def judged_alike(self) -> bool:
        """Whether pokerkit, which knows one deck, judges the showdown as we do: no face repeats among a shown
        hand's cards and a board it played on (``tests/history/test_phh.py`` checks the other hands by twins)."""
        return not any(repeated_faces([*hole, *board]) for hole in self.shown.values()
                       for board in (self.board, self.board2) if board)


def check_histories(live: LiveHand, data: dict[str, Any], entry: dict[str, Any], text: str, phh: str,
                    seat: int | None) -> None:
    """One viewer's histories of the hand (JSON export, table history entry, text, PHH) against the live hand."""
    check_json(live, data)
    assert entry["hand_no"] == live.hand_no and entry["events"] == data["events"], "history entry = export"
    assert {s: entry["names"][s] for s in live.names} == live.names, "the history page names the hand's players"
    assert entry["blinds"] == list(live.blinds) and entry["final"]["pots"] == live.pots
    check_text(live, text, seat)
    check_phh(live, phh)


def faces(labels: list[str]) -> str:
    return "".join(c.split(":")[0] for c in labels)


POT_KEYS = ("amount", "eligible", "winners", "shares")


def check_json(live: LiveHand, data: dict[str, Any]) -> None:
    """The JSON export (what the replayer draws, street by street and action by action)."""
    events = data["events"]
    assert data["hand_no"] == live.hand_no and data["blinds"] == list(live.blinds), "the hand's own stakes"
    assert {s: data["names"][s] for s in live.names} == live.names, "names as seated at that hand"
    started = next(e for e in events if e.get("type") == "hand_started")
    assert {s: started["stacks"][s] for s in live.names} == live.start
    posts = {e["seat"]: e["amount"] for e in events if e.get("type") in ("blind_posted", "straddle_posted")}
    assert posts == live.posts, "every post, the straddle included"
    assert next((e["seat"] for e in events if e.get("type") == "straddle_posted"), None) == live.straddle
    moves = [(e["seat"], e["kind"] == "fold", e["timeout"]) for e in events if e.get("type") == "action"]
    assert moves == live.moves, "every action, time-outs marked"
    final = data["final"]
    assert final["pots"] == live.pots, "every pot of every run"
    assert [{k: e[k] for k in POT_KEYS} for e in events if e.get("type") == "pot_awarded"] == \
        [{k: p[k] for k in POT_KEYS} for p in live.pots]
    ended = next(e for e in events if e.get("type") == "hand_ended")
    assert {s: ended["stacks"][s] for s in live.names} == live.end
    assert final["board"] == live.board and final.get("board2", []) == live.board2
    assert {s["seat"]: s["showed"] for s in final["seats"] if s.get("showed")} == live.showed
    hand = replay(events)  # the replayer's fold of the same events: chips in, pots out, every stack at the end
    assert hand.pot == sum(p["amount"] for p in live.pots) and hand.end_stacks is not None
    assert {s: hand.stacks[s] for s in live.names} == live.end, "the replayed stacks end where the table's did"
    assert [p.run for p in hand.pots] == [p.get("run", 1) for p in live.pots]
    assert [c.label for c in hand.board2] == live.board2
    assert {s.seat: [c.label for c in s.cards] for s in hand.steps if type(s).__name__ == "ShownAfter"} \
        == live.showed


SEAT_LINE = re.compile(r"^Seat (\d+): (.+) \((\d+) in chips\)$")
POST = re.compile(r"^(.+): posts (small blind|big blind|straddle) (\d+)$")
MOVE = re.compile(r"^(.+): (folds|checks|calls (\d+)|bets (\d+)|raises \d+ to (\d+))( and is all-in)?"
                  r"( \(left the table\))?( \(timed out\))?$")
STREET = re.compile(r"^\*\*\* (FIRST |SECOND )?(FLOP|TURN|RIVER) \*\*\*")
SHOWDOWN = re.compile(r"^\*\*\* (FIRST |SECOND )?SHOW DOWN \*\*\*$")
COLLECTED = re.compile(r"^(.+) collected (\d+) from (pot|main pot|side pot-\d+)$")
RETURNED = re.compile(r"^Uncalled bet \((\d+)\) returned to (.+)$")
FINISHED = re.compile(r"^Seat \d+: (.+) finished with (\d+)$")
SHOWS_AFTER = re.compile(r"^(.+): shows \[([^\]]*)\] \(decks [\d ]*\)$")


def check_text(live: LiveHand, text: str, viewer: int | None) -> None:
    """The text export: its lines add up to its total pot, and the total, each post, action, pot of each run,
    stack and name are the live hand's."""
    lines = text.splitlines()
    seat_of = {name: s for s, name in live.names.items()}
    assert f"Hold'em No Limit ({live.blinds[0]}/{live.blinds[1]})" in lines[0], "the header gives the hand's stakes"
    seats = {int(m[1]) - 1: (m[2], int(m[3])) for line in lines if (m := SEAT_LINE.match(line))}
    assert seats == {s: (live.names[s], live.start[s]) for s in live.names}, "names and stacks as seated then"
    put = dict.fromkeys(live.names, 0)
    posts = {}
    for line in lines:
        if m := POST.match(line):
            posts[seat_of[m[1]]] = int(m[3])
            put[seat_of[m[1]]] += int(m[3])
    assert posts == live.posts, "every post on a line, the straddle included"
    street = dict(posts)  # each seat's chips in on this street
    moves, collected, showdown = [], {1: [], 2: []}, 0
    returned = dict.fromkeys(live.names, 0)
    for line in lines:
        if STREET.match(line) and not line.startswith("*** SECOND"):
            street = dict.fromkeys(live.names, 0)
        elif m := SHOWDOWN.match(line):
            showdown = 2 if m[1] == "SECOND " else 1
        elif (m := MOVE.match(line)) and m[1] in seat_of:
            seat = seat_of[m[1]]
            if not m[7]:  # a player who left folded out of turn: not a move they made
                moves.append((seat, m[2] == "folds", bool(m[8])))
            before = street.get(seat, 0)
            to = before + int(m[3]) if m[3] else int(m[4] or m[5] or before)  # calls N; bets or raises to N
            put[seat] += to - before
            street[seat] = to
        elif m := RETURNED.match(line):
            returned[seat_of[m[2]]] += int(m[1])
        elif m := COLLECTED.match(line):
            collected[showdown or 1].append((seat_of[m[1]], int(m[2])))
    assert moves == live.moves, "every action on a line, time-outs marked"
    total = next(int(line.split()[2]) for line in lines if line.startswith("Total pot "))
    assert total == sum(p["amount"] for p in live.pots) == sum(put.values()) - sum(returned.values()), \
        "the total pot is the sum of its lines"
    for run in (1, 2):
        assert sorted(collected[run]) == live.shares(run), f"run {run}'s pots"
    won = {s: sum(v for run in (1, 2) for w, v in collected[run] if w == s) for s in live.names}
    finished = {seat_of[m[1]]: int(m[2]) for line in lines if (m := FINISHED.match(line))}
    assert finished == live.end
    for s in live.names:
        assert live.start[s] - put[s] + returned[s] + won[s] == live.end[s], f"seat {s}'s chips add up"
    if live.board2:
        assert f"FIRST Board [{' '.join(faces([c]) for c in live.board)}]" in text
        assert f"SECOND Board [{' '.join(faces([c]) for c in live.board2)}]" in text
    after = lines[max(i for i, line in enumerate(lines) if COLLECTED.match(line)):lines.index("*** SUMMARY ***")]
    shows = {seat_of[m[1]]: m[2].split() for line in after if (m := SHOWS_AFTER.match(line))}
    assert shows == {s: [faces([c]) for c in cards] for s, cards in live.showed.items()}, "cards shown after"
    if viewer is not None and viewer in live.names:
        assert any(line.startswith(f"Dealt to {live.names[viewer]} [") for line in lines)


def check_phh(live: LiveHand, phh: str) -> None:
    """The PHH export, replayed by pokerkit to the stacks the table recorded."""
    hh = HandHistory.loads(phh)
    fields = hh.user_defined_fields
    order = fields["_seats"]
    assert sorted(order) == sorted(live.names) and hh.players == [live.names[s] for s in order]
    assert hh.starting_stacks == [live.start[s] for s in order] and hh.min_bet == live.blinds[1]
    forced = [live.roles.get(s, 0) for s in order]
    assert hh.blinds_or_straddles == (forced[::-1] if len(order) == 2 else forced), "blinds and straddle"
    for s in order:  # a short stack posts what it has, as pokerkit does
        assert min(live.roles.get(s, 0), live.start[s]) == live.posts.get(s, 0)
    assert hh.finishing_stacks == [live.end[s] for s in order]
    moves = [(order[int(a.split()[0][1:]) - 1], a.split()[1] == "f", a.endswith("# timed out"))
             for a in hh.actions if re.match(r"^p\d+ (f|cc|cbr)\b", a) and "# left the table" not in a
             and "# not asked at our table" not in a]
    assert moves == live.moves, "every action, time-outs as commentaries"
    dealt = "".join(a[5:] for a in hh.actions if a.startswith("d db "))
    assert dealt == faces(live.board) + faces(live.board2[_shared(live):]), "each run's board, in dealing order"
    assert fields.get("_runs", 1) == (2 if live.board2 else 1)
    if "_folded_out_of_turn" in fields:  # the hand ended before a leaver's next turn (history/phh.py)
        return
    state = pokerkit_replay(phh)
    assert not state.status, "pokerkit plays the hand to its end"
    theirs, ours = list(state.stacks), [live.end[s] for s in order]
    assert sum(theirs) == sum(ours)
    if live.judged_alike and theirs != ours:  # else pokerkit, a one-deck reader, may judge the showdown otherwise
        odd = [p for p in live.pots if p["amount"] % len(p["winners"])]
        assert odd, (theirs, ours)  # pokerkit gives a split pot's odd chips otherwise (docs/rules.md)
        assert all(abs(t - o) < len(order) for t, o in zip(theirs, ours, strict=True)), (theirs, ours)


def _shared(live: LiveHand) -> int:
    """How many board cards both runs share (dealt before the all-in; all five when it was run once)."""
    return next((i for i, (a, b) in enumerate(zip(live.board, live.board2, strict=False)) if a != b),
                len(live.board2))
