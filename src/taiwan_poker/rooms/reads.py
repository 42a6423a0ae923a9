"""The read side of tables: views, history, review, exports, share links, the lobby and a member's hands.

Nothing here changes a table. What leaves for a member is that member's view
(the fail-closed views of :mod:`taiwan_poker.tables.views` and
:mod:`taiwan_poker.rules.views`); which hand a member may ask for, and in
which state, is decided once, by :meth:`RoomReads.hand_index`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from ..coach.advice import advise
from ..coach.tournament import tournament_seat
from ..history.exports import Format, HandRecord, hand_record, render_json, render_text
from ..history.hand_stats import hand_stats
from ..history.played import PlayedHand
from ..history.review import allin_ev
from ..history.review import review as review_hand
from ..jsontext import compact_json
from ..lru import LruMap
from ..store import repo
from ..store.models import Member
from ..store.shares import share_token, shared_hand
from ..strategy.seat import seat_view
from ..strategy.table_habits import habits_at, with_habits
from ..tables import TableState, history, table_view
from ..tables.timing import clock_at
from ..tables.views import seat_fields, tournament_results
from .loader import QUARANTINED, Room, RoomError, RoomLoader

EV_REMEMBERED = 20_000  # finished hands' all-in EV results kept (a finished hand never changes)


def _id(member: Member | None) -> int | None:
    return member.id if member is not None else None


def _my_tournament(state: TableState, member: int) -> dict[str, Any] | None:
    """A sit-and-go as the member's list of tables shows it: its preset, whether it is over, their place."""
    t = state.tournament
    if t is None:
        return None
    mine = t.placed(member)
    return {"preset": t.settings.preset, "finished": t.finished, "field": len(t.field),
            "place": mine.place if mine else None, "payout": mine.payout if mine else None}


class RoomReads:
    """What a member (or a visitor) may read of tables."""

    def __init__(self, loader: RoomLoader, clock: Callable[[], dt.datetime]) -> None:
        self.loader = loader
        self.clock = clock
        self._ev: LruMap[tuple[int, int, int], tuple[int, bool]] = LruMap(EV_REMEMBERED)

    # -- the table now ------------------------------------------------------------------------------------

    def view(self, room: Room, member: Member | None) -> dict[str, Any]:
        """The room as ``member`` (None: a spectator) may see it, with its code and clock."""
        out = table_view(room.state, _id(member), room.public())
        out.update(self._clock(room, out["you"]))
        return out

    def view_text(self, room: Room, member: Member | None) -> str:
        """:meth:`view` as the JSON text a socket sends, the shared part encoded once per version (a push to six
        seats encodes it once, not six times); the same content as ``compact_json(view(room, member))``."""
        fields, private = seat_fields(room.state, _id(member))
        fields.update(self._clock(room, fields["you"]))
        top, hand = room.public_json()
        own = compact_json(fields)[1:-1]
        if hand is None:
            return f'{top},{own},"hand":null}}'
        mine = compact_json(private)[1:-1] if private else ""
        return f'{top},{own},"hand":{hand}{"," + mine if mine else ""}}}}}'

    def _clock(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The code, version and clock of a view (the table's own clock, as it stands now; the seat decides whether
        it may press time-out)."""
        now = self.clock()
        out: dict[str, Any] = {"code": room.row.code, "version": room.state.version, "settled": room.state.settled,
                               "server_time": now.isoformat()}
        out.update(clock_at(room.clock(), seat, now))
        return out

    def state(self, code: str, member: Member | None) -> dict[str, Any]:
        """The room as this member (or a spectator) may see it, as stored now."""
        return self.view(self.loader.locked_read(code), member)

    def state_at(self, code: str, member: Member | None, version: int) -> dict[str, Any]:
        """The view for a push announcing ``version``: straight from the cache when it holds that version."""
        return self.cached_view(code, member, version) or self.state(code, member)

    def cached_view(self, code: str, member: Member | None, version: int) -> dict[str, Any] | None:
        """The view from memory alone (no database, no lock: cached states are immutable), or None if not there.
        Cheap enough to run on the event loop, which spares each push a thread hop."""
        room = self.loader.cached(code, version)
        return self.view(room, member) if room is not None else None

    def cached_view_text(self, code: str, member: Member | None, version: int) -> tuple[int, str] | None:
        """As :meth:`cached_view`, as the version and the JSON text a push sends (:meth:`view_text`)."""
        room = self.loader.cached(code, version)
        return (room.state.version, self.view_text(room, member)) if room is not None else None

    def table_state(self, code: str) -> TableState:
        """The table's folded state as stored now (immutable: for read-only uses such as charts)."""
        return self.loader.locked_read(code).state

    def results(self, code: str) -> dict[str, Any]:
        """A sit-and-go's results, public (places, payouts, hands, level): ``not_tournament`` at a cash table."""
        out = tournament_results(self.loader.locked_read(code).state)
        if out is None:
            raise RoomError("this table plays a cash match, not a sit-and-go", code="not_tournament")
        for place in out["places"]:
            place.pop("member", None)  # member numbers stay on the server
        return {"code": code.upper(), **out}

    def tournaments(self, member: Member) -> list[dict[str, Any]]:
        """The member's sit-and-gos, newest first: each with its place and payout once they have one."""
        with self.loader.db.transaction() as s:
            rows = repo.rooms_of(s, member.id)
        out = []
        for row in rows:
            try:
                state = self.loader.locked_read(row.code).state
            except RoomError:
                continue
            results = tournament_results(state)
            if results is None:
                continue
            mine = next((p for p in results["places"] if p["member"] == member.id), None)
            out.append({"code": row.code, "preset": results["preset"], "finished": results["finished"],
                        "field": results["field"], "hands": results["hands"], "level": results["level"],
                        "place": mine["place"] if mine else None, "payout": mine["payout"] if mine else None,
                        "updated_at": row.updated_at.isoformat()})
        return out

    def coach(self, code: str, member: Member) -> dict[str, Any]:
        """The coach's advice for the member's turn, from their seat's view only (None when it is not their turn)."""
        state = self.loader.locked_read(code).state
        if state.seat_of(member.id) is None:
            raise RoomError("you have no seat at this table", code="not_seated")
        if not state.coach_on:
            raise RoomError("the coach is off at this table", code="coach_off")
        hand = state.hand
        seat = state.seat_in_hand(member.id, len(state.hands) - 1) if hand is not None else None
        out: dict[str, Any] = {"on": True, "version": state.version, "advice": None}
        if hand is not None and seat is not None and not hand.complete and hand.to_act == seat and not state.over:
            sit_and_go = tournament_seat(state.tournament) if state.tournament is not None else None
            out["advice"] = advise(with_habits(state, seat_view(hand, seat)), tournament=sit_and_go).to_json()
        return out

    # -- played hands: which one, and may you see it ------------------------------------------------------------

    @staticmethod
    def hand_index(state: TableState, hand_no: int, member: Member | None = None, *, played: bool = False,
                   finished: bool = False) -> int:
        """The 0-based index of hand ``hand_no``, when it exists, the member played it (``played``) and it is
        over (``finished``); else ``hand_not_found``, ``not_seated`` or ``hand_in_progress``."""
        if not 1 <= hand_no <= len(state.hands):
            raise RoomError(f"this table has no hand {hand_no}", code="hand_not_found", hand_no=hand_no)
        index = hand_no - 1
        if played and state.seat_in_hand(_id(member), index) is None:
            raise RoomError("you did not play this hand", code="not_seated")
        if finished and not state.hands[index].complete:
            raise RoomError("the hand is still being played", code="hand_in_progress")
        return index

    def history(self, code: str, member: Member | None) -> list[dict[str, Any]]:
        """Every hand as this member saw it: own cards in the hands they played, board, actions, pots, shown hands."""
        return history(self.table_state(code), _id(member))

    def review(self, code: str, member: Member, hand_no: int) -> dict[str, Any]:
        """The member's decisions in a finished hand, each with its equity, price and mark; the all-in EV."""
        state = self.table_state(code)
        index = self.hand_index(state, hand_no, member, played=True, finished=True)
        seat = state.seat_in_hand(member.id, index)
        assert seat is not None
        hand = state.hands[index]
        sit_and_go = tournament_seat(state.tournament, len(hand.players)) if state.tournament is not None else None
        decisions, ev = review_hand(hand, seat, habits=habits_at(state, index), tournament=sit_and_go)
        return {"hand_no": hand_no, "seat": seat, "decisions": [d.to_json() for d in decisions],
                "allin_ev": ev.to_json() if ev is not None else None}

    def _records(self, code: str, member: Member | None, hand_no: int | None) -> list[HandRecord]:
        state = self.table_state(code)
        table = code.strip().upper()
        indices = [self.hand_index(state, hand_no)] if hand_no is not None else range(len(state.hands))
        return [hand_record(state, table, _id(member), i) for i in indices]

    def export_text(self, code: str, member: Member | None, fmt: Format, hand_no: int | None = None) -> str:
        """One hand or every hand of the table in PHH or text, with only the cards this member may see."""
        return render_text(self._records(code, member, hand_no), fmt, single=hand_no is not None)

    def export_json(self, code: str, member: Member | None, hand_no: int | None = None) -> dict[str, Any]:
        """One hand or every hand as this member saw it (final view and visible events), for tools."""
        return render_json(self._records(code, member, hand_no), table=code.strip().upper(),
                           single=hand_no is not None)

    # -- share links ----------------------------------------------------------------------------------------

    def share(self, code: str, member: Member, hand_no: int) -> str:
        """The token of a link to a finished hand's public replay (only a player of the hand may share it)."""
        room = self.loader.locked_read(code)
        self.hand_index(room.state, hand_no, member, played=True, finished=True)
        return share_token(self.loader.db.engine, room.row.id, hand_no)

    def shared(self, token: str) -> dict[str, Any]:
        """The public replay of a shared hand (a spectator's record, leading nowhere), or ``hand_not_found``."""
        engine = self.loader.db.engine
        found = shared_hand(engine, token) if 8 <= len(token) <= 64 else None
        row = repo.room_row(engine, found[0]) if found is not None else None
        if found is None or row is None:
            raise RoomError("no shared hand with this link", code="hand_not_found")
        state = self.table_state(row.code)
        return hand_record(state, None, None, self.hand_index(state, found[1])).to_json()

    # -- a member's tables and hands ----------------------------------------------------------------------------

    def lobby(self, member: Member) -> list[dict[str, Any]]:
        """The member's tables, newest first, with whose turn it is, the seats and the blinds."""
        with self.loader.db.transaction() as s:
            rows = repo.rooms_of(s, member.id)
        out = []
        for row in rows:
            entry: dict[str, Any] = {"code": row.code, "status": row.status, "decks": row.rules.get("decks"),
                                     "seats": row.rules.get("seats"),
                                     "blinds": [row.rules.get("small_blind"), row.rules.get("big_blind")],
                                     "updated_at": row.updated_at.isoformat()}
            try:
                state = self.loader.locked_read(row.code).state
            except RoomError:  # quarantined: still listed, so its members see what became of it
                entry.update(status=QUARANTINED, players=[], seated=False, your_turn=False, taken=None)
                out.append(entry)
                continue
            seat = state.seat_of(member.id)
            hand = state.hand
            entry["tournament"] = _my_tournament(state, member.id)
            entry.update(
                players=[{"seat": i, "name": x.name} for i, x in enumerate(state.seats) if x is not None],
                taken=sum(x is not None for x in state.seats), seated=seat is not None,
                your_turn=seat is not None and hand is not None and not hand.complete and hand.to_act == seat,
            )
            out.append(entry)
        return out

    def played_hands(self, member: Member) -> list[PlayedHand]:
        """Every finished hand the member played at any table, oldest first."""
        with self.loader.db.transaction() as s:
            rows = [(r.id, r.code) for r in repo.rooms_of(s, member.id)]
        out: list[PlayedHand] = []
        for room_id, code in rows:
            try:
                state = self.table_state(code)
            except RoomError:  # a quarantined table has no readable hands
                continue
            with self.loader.db.engine.connect() as conn:
                dates = repo.hand_start_times(conn, room_id)
            for i, hand in enumerate(state.hands):
                seat = state.seat_in_hand(member.id, i)
                if seat is None or not hand.complete:
                    continue
                stats = hand_stats(hand_record(state, code, member.id, i).events, seat)
                if stats is None:
                    continue
                ev_diff, allin = self._ev_diff(room_id, state, i, seat)
                out.append(PlayedHand(code, hand.hand_no, dates[i] if i < len(dates) else None, stats,
                                      stats.net + ev_diff, allin))
        out.sort(key=lambda h: (h.started or dt.datetime.min.replace(tzinfo=dt.UTC), h.code, h.hand_no))
        return out

    def _ev_diff(self, room_id: int, state: TableState, index: int, seat: int) -> tuple[int, bool]:
        """What the all-in EV adds to the hand's net, and whether it applies (remembered: the hand is over)."""
        key = (room_id, index, seat)
        known = self._ev.get(key)
        if known is None:
            ev = allin_ev(state.hands[index], seat)
            known = (0, False) if ev is None else (ev.expected - ev.won, True)
            self._ev.put(key, known)
        return known
