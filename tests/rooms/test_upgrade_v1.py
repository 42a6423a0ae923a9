"""Rooms written by the heads-up room service (log format v1) are upgraded to table events by migration 0002.

``data/v1_rooms.json`` holds four rooms as that service wrote them (a match in
play mid-flop, a match forfeited mid-hand, a finished match with a rematch, a
room still waiting), with every seat's view as that service showed it.  After
the migration the tables must show the same cards, board, pots and stacks,
and the forfeited hand, which v1 left frozen, is folded and paid.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import inspect
import json
import sys
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store import db as store_db
from taiwan_poker.store.db import Database
from taiwan_poker.store.models import Member
from taiwan_poker.tables import chips_conserved

FIXTURE = json.loads((Path(__file__).parent / "data" / "v1_rooms.json").read_text(encoding="utf-8"))
HAND_KEYS = ("hand_no", "button", "street", "complete", "to_act", "board", "pot", "current_bet", "pots", "you",
             "returned")


def load_v1(database: Database) -> None:
    """Schema 0001 and the rows the v1 service wrote."""
    store_db.migrate(database.engine, "0001")
    meta = sa.MetaData()
    meta.reflect(database.engine)
    now = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
    with database.engine.begin() as conn:
        conn.execute(meta.tables["members"].insert(), [{**m, "created_at": now, "updated_at": now}
                                                      for m in FIXTURE["members"]])
        conn.execute(meta.tables["rooms"].insert(), [{**r, "created_at": now, "updated_at": now}
                                                    for r in FIXTURE["rooms"]])
        conn.execute(meta.tables["seats"].insert(), [
            {"room_id": x["room_id"], "seat_no": x["seat_no"], "member_id": x["member_id"], "joined_at": now,
             "left_at": now if x["left"] else None} for x in FIXTURE["seats"]])
        conn.execute(meta.tables["room_events"].insert(), [{**e, "created_at": now} for e in FIXTURE["events"]])


def member(mid: str) -> Member:
    name = next(m["display_name"] for m in FIXTURE["members"] if str(m["id"]) == mid)
    return Member(id=int(mid), display_name=name)


def faces_only(obj: Any) -> Any:
    """v1 views wrote faces (``Jc``); table views write labels with the deck (``Jc:2``)."""
    if isinstance(obj, str) and len(obj) > 2 and obj[2:3] == ":":
        return obj[:2]
    if isinstance(obj, list):
        return [faces_only(x) for x in obj]
    if isinstance(obj, dict):
        return {k: faces_only(v) for k, v in obj.items()}
    return obj


NEW_YOU_KEYS = ("strength", "strength2", "choice", "may_show")  # issue 23 added these to a seat's own part


def old_you(you: Any) -> Any:
    """A seat's own part as v1 wrote it (the hand-strength words came later)."""
    return {k: v for k, v in you.items() if k not in NEW_YOU_KEYS} if isinstance(you, dict) else you


def hand_part(view: dict[str, Any]) -> dict[str, Any]:
    hand = faces_only({**view["hand"], "you": old_you(view["hand"].get("you"))})
    seats = [{k: s[k] for k in ("seat", "stack", "bet", "contributed", "folded", "shown") if k in s}
             for s in hand["seats"]]
    return {**{k: hand.get(k) for k in HAND_KEYS}, "seats": seats}


def test_v1_rooms_are_upgraded_with_the_same_cards_board_pots_and_stacks(fresh_db: Database) -> None:
    load_v1(fresh_db)
    fresh_db.migrate()
    service = RoomService(fresh_db)
    expected = FIXTURE["expected"]

    playing = expected["playing"]
    for who, old in playing["views"].items():
        new = service.state(playing["code"], None if who == "spectator" else member(who))
        assert hand_part(new) == hand_part(old), who
        assert new["match"]["stacks"] == old["match"]["stacks"] and new["status"] == "playing"
        assert [p["name"] for p in new["players"]] == [p["name"] for p in old["players"]]
        assert new["you"] == old["you"]
        if "legal" in old["hand"]:
            assert {k: v for k, v in new["hand"]["legal"].items() if k != "actions"} == \
                {k: v for k, v in old["hand"]["legal"].items() if k != "actions"}
        for mid, hands in playing["history"].items():
            got = service.reads.history(playing["code"], member(mid))
            assert [faces_only(h["final"]["board"]) for h in got] == [h["final"]["board"] for h in hands]
            assert [old_you(faces_only(h["final"].get("you"))) for h in got] == [h["final"].get("you") for h in hands]
    # the upgraded match plays on
    old = playing["views"][next(k for k in playing["views"] if k != "spectator")]
    to_act = old["hand"]["to_act"]
    actor = member(next(k for k, v in playing["views"].items() if k != "spectator" and v["you"] == to_act))
    st = service.state(playing["code"], actor)
    assert service.act(playing["code"], actor, {"kind": "call" if "call" in st["hand"]["legal"]["actions"]
                                                 else "check"}, st["version"]).applied

    forfeit = expected["forfeit"]
    stayer = next(k for k, v in forfeit["views"].items() if k != "spectator" and v["you"] is not None)
    new = service.state(forfeit["code"], member(stayer))
    assert new["status"] == "over" and new["match"]["over"] and new["match"]["winner"] == new["you"]
    assert new["hand"]["complete"] and "legal" not in new["hand"], "v1 froze this hand; now it is folded and paid"
    room = service.loader._cache.get(service.loader.room_id(forfeit["code"]))
    assert room is not None and chips_conserved(room.state)

    finished = expected["finished"]
    old = finished["views"]["spectator"]
    new = service.state(finished["code"], None)
    assert new["match"]["over"] and new["match"]["winner"] == old["match"]["winner"]
    assert new["match"]["stacks"] == old["match"]["stacks"] and new["match"]["rematch"] == expected["rematch_code"]
    assert len(service.reads.history(finished["code"], None)) == len(FIXTURE["expected"]["finished"]["history"][
        next(iter(finished["history"]))])

    waiting = expected["waiting"]
    new = service.state(waiting["code"], None)
    assert new["status"] == "waiting" and [p["name"] for p in new["players"]] == ["Alice"]


# sha256 of every upgraded room's log (its payloads' JSON in order), version, status and whether it has a clock, as
# migration 0002 wrote them when it was frozen (2026-12-01): the upgrade must never write anything else
UPGRADED_DIGEST = "92f46894562dda5895b3097ad358115cfdf87b530dd3cc7455b8ed1a762c8caa"
LIVE_PACKAGES = ("taiwan_poker.tables", "taiwan_poker.rules", "taiwan_poker.evaluate", "taiwan_poker.cards")


def upgraded_rooms(database: Database) -> str:
    meta = sa.MetaData()
    meta.reflect(database.engine)
    rooms, events = meta.tables["rooms"], meta.tables["room_events"]
    out = []
    with database.engine.connect() as conn:
        for room in conn.execute(sa.select(rooms).order_by(rooms.c.id)).mappings():
            log = conn.execute(sa.select(events.c.seq, events.c.payload).where(events.c.room_id == room["id"])
                               .order_by(events.c.seq)).all()
            assert [seq for seq, _ in log] == list(range(1, len(log) + 1))
            out.append({"code": room["code"], "version": room["version"], "status": room["status"],
                        "clock": room["deadline"] is not None, "log": [json.dumps(p) for _, p in log]})
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()


def break_live_code(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every function and class of the live engine (and every method of its classes) raise when used."""
    called: list[str] = []

    def raiser(name: str) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            called.append(name)
            raise AssertionError(f"migration 0002 used live code: {name}")
        return refuse

    for module in [m for n, m in list(sys.modules.items()) if m is not None and n.startswith(LIVE_PACKAGES)]:
        for name, obj in list(vars(module).items()):
            if not (inspect.isfunction(obj) or inspect.isclass(obj)) or \
                    not getattr(obj, "__module__", "").startswith(LIVE_PACKAGES):
                continue
            if inspect.isclass(obj) and obj.__module__ == module.__name__ and not issubclass(obj, Enum):
                for attr, member in list(vars(obj).items()):
                    method = isinstance(member, staticmethod | classmethod) or inspect.isfunction(member)
                    if method and (not attr.startswith("__") or attr in ("__init__", "__post_init__")):
                        monkeypatch.setattr(obj, attr, raiser(f"{obj.__qualname__}.{attr}"))
            monkeypatch.setattr(module, name, raiser(f"{module.__name__}.{name}"))
    return called


def test_migration_0002_runs_with_the_live_engine_broken(fresh_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """The upgrade is frozen: with every live table, hand, rule set and card function raising, it still writes
    exactly the logs it wrote when it was frozen (which the live code folds: the test above)."""
    load_v1(fresh_db)
    called = break_live_code(monkeypatch)
    import taiwan_poker.tables as live_tables
    with pytest.raises(AssertionError, match="live code"):
        live_tables.fold([])  # the breakage works
    called.clear()
    fresh_db.migrate()
    monkeypatch.undo()
    assert called == []
    assert upgraded_rooms(fresh_db) == UPGRADED_DIGEST
