"""Table talk through the room service on SQLite and PostgreSQL (issue 23): text only, 200 characters, an explicit
audience, per-viewer mutes, the host's deletions and silences, and the chat's removal when the table is cleaned up."""

from __future__ import annotations

import datetime as dt

import pytest

from taiwan_poker.errors import TaiwanPokerError
from taiwan_poker.rooms.service import RoomService
from taiwan_poker.store import chat as store
from taiwan_poker.store import repo
from taiwan_poker.store.db import Database
from taiwan_poker.store.models import Member
from tests.rooms.test_service import Clock, members


def code_of(exc: pytest.ExceptionInfo[TaiwanPokerError]) -> str:
    return exc.value.code


def table(service: RoomService, db: Database, **options: bool) -> tuple[str, list[Member]]:
    """Alice (host) and Bob seated at a three-seat table; Carol outside it."""
    alice, bob, carol = members(db, "Alice", "Bob", "Carol")
    code = service.create_room(alice, seats=3, options=options)
    service.join(code, bob)
    return code, [alice, bob, carol]


def texts(read: dict[str, object]) -> list[str]:
    return [m["text"] for m in read["messages"] if m["kind"] == "text"]  # type: ignore[attr-defined, index]


def test_a_message_is_stored_and_sent_as_the_text_written_at_most_200_characters(db: Database) -> None:
    service = RoomService(db)
    code, (alice, bob, _carol) = table(service, db)
    markup = "<b>all in</b> & <script>alert(1)</script>"
    line = service.chat.say(code, alice, f"  {markup}  ")
    assert line["text"] == markup and line["seat"] == 0 and line["name"] == "Alice" and line["audience"] == "players"
    assert texts(service.chat.read(code, bob)) == [markup], "text as written: the page escapes it, never HTML"
    assert len(service.chat.say(code, bob, "字" * 200)["text"]) == 200
    for bad in ("字" * 201, "", "   ", "bell\x07", "a\nb", 42):
        with pytest.raises(TaiwanPokerError) as info:
            service.chat.say(code, bob, bad)
        assert code_of(info) == "bad_chat", bad


def test_players_only_chat_reaches_no_spectator_until_the_host_lets_spectators_talk(db: Database) -> None:
    service = RoomService(db)
    code, (alice, bob, carol) = table(service, db)
    service.chat.say(code, alice, "players only")
    assert texts(service.chat.read(code, carol)) == [] and texts(service.chat.read(code, None)) == []
    with pytest.raises(TaiwanPokerError) as info:
        service.chat.say(code, carol, "hello")
    assert code_of(info) == "chat_closed"
    service.request(code, alice, "options", {"spectator_chat": True})
    assert service.chat.say(code, carol, "hello from the rail")["audience"] == "everyone"
    assert service.chat.say(code, bob, "hi rail")["audience"] == "everyone"
    assert texts(service.chat.read(code, carol)) == ["hello from the rail", "hi rail"]
    assert texts(service.chat.read(code, None)) == ["hello from the rail", "hi rail"]
    assert texts(service.chat.read(code, bob)) == ["players only", "hello from the rail", "hi rail"]
    service.request(code, alice, "options", {"spectator_chat": False})
    assert texts(service.chat.read(code, carol)) == ["hello from the rail", "hi rail"], "each line keeps its audience"


def test_a_muted_players_lines_are_not_sent_to_the_viewer_who_muted_them(db: Database) -> None:
    service = RoomService(db)
    code, (alice, bob, _carol) = table(service, db)
    service.chat.say(code, bob, "before")
    assert service.chat.mute(code, alice, 1, True) == {"muted": [1]}
    service.chat.say(code, bob, "while muted")
    service.chat.say(code, alice, "mine")
    read = service.chat.read(code, alice)
    assert texts(read) == ["mine"] and read["muted"] == [1]
    assert texts(service.chat.read(code, bob)) == ["before", "while muted", "mine"], "only for the one who muted"
    service.chat.mute(code, alice, 1, False)
    service.chat.say(code, bob, "after")
    assert texts(service.chat.read(code, alice)) == ["before", "while muted", "mine", "after"]
    with pytest.raises(TaiwanPokerError) as info:
        service.chat.mute(code, alice, 0, True)
    assert code_of(info) == "empty_seat", "nobody mutes themselves"


def test_the_host_deletes_a_message_for_good_and_silences_a_player_both_in_the_log(db: Database) -> None:
    service = RoomService(db)
    code, (alice, bob, _carol) = table(service, db)
    line = service.chat.say(code, bob, "something rude")
    with pytest.raises(TaiwanPokerError) as info:
        service.chat.delete(code, bob, line["id"])
    assert code_of(info) == "not_host"
    view = service.chat.delete(code, alice, line["id"])
    assert view["log"][-1]["type"] == "chat_deleted" and view["log"][-1]["name"] == "Bob"
    assert view["log"][-1]["by"] == "Alice" and view["log"][-1]["message"] == line["id"]
    stored = store.line(db.engine, service.loader.room_id(code), line["id"])
    assert stored is not None and stored.deleted and stored.text == "", "the text is gone from the store"
    read = service.chat.read(code, alice)["messages"]
    assert [(m["kind"], m.get("text"), m.get("to")) for m in read] == [("text", "", None), ("delete", None, line["id"])]
    with pytest.raises(TaiwanPokerError) as info:
        service.chat.delete(code, alice, line["id"])
    assert code_of(info) == "chat_not_found"
    service.request(code, alice, "silence", {"seat": 1, "on": True})
    with pytest.raises(TaiwanPokerError) as info:
        service.chat.say(code, bob, "let me talk")
    assert code_of(info) == "chat_silenced"
    service.request(code, alice, "silence", {"seat": 1, "on": False})
    assert service.chat.say(code, bob, "sorry")["text"] == "sorry"


def test_a_reaction_answers_a_message_or_the_table_with_one_of_the_emoji(db: Database) -> None:
    service = RoomService(db)
    code, (alice, bob, _carol) = table(service, db)
    line = service.chat.say(code, alice, "nice hand")
    reaction = service.chat.say(code, bob, reaction="👏", to=line["id"])
    assert (reaction["kind"], reaction["text"], reaction["to"]) == ("reaction", "👏", line["id"])
    assert service.chat.say(code, bob, reaction="🔥")["to"] is None
    for kwargs, expected in (({"reaction": "💩"}, "bad_reaction"), ({"reaction": "👍", "to": 10**6}, "chat_not_found"),
                             ({"reaction": "👍", "to": reaction["id"]}, "chat_not_found")):
        with pytest.raises(TaiwanPokerError) as info:
            service.chat.say(code, bob, **kwargs)  # type: ignore[arg-type]
        assert code_of(info) == expected


def test_a_tables_chat_is_removed_a_day_after_its_match_ends_and_with_a_guests_table(db: Database) -> None:
    clock = Clock()
    clock.now = dt.datetime.now(dt.UTC)
    service = RoomService(db, clock=clock)
    code, (alice, bob, _carol) = table(service, db)
    other, (dave, _erin, _frank) = table_named(service, db)
    service.chat.say(code, alice, "gg")
    service.chat.say(other, dave, "still playing")
    service.leave(code, bob)
    service.leave(code, alice)  # everyone left: the table is over
    room_id, other_id = service.loader.room_id(code), service.loader.room_id(other)
    row = repo.room_row(db.engine, room_id)
    assert row is not None and row.status == "over"
    clock.advance(23 * 3600)
    service.purge_guests()
    assert store.lines(db.engine, room_id), "kept for the match and a day after"
    clock.advance(2 * 3600)
    service.purge_guests()
    assert store.lines(db.engine, room_id) == [] and store.lines(db.engine, other_id), "a table still open keeps it"
    clock.advance(31 * 24 * 3600)
    service.purge_guests()
    assert store.lines(db.engine, other_id) == [], "30 days without a change: removed too"
    with db.transaction() as s:
        guest = repo.create_guest(s)
    solo = service.create_room(guest, seats=2, bots=1)
    service.request(solo, guest, "options", {"spectator_chat": False})
    service.chat.say(solo, guest, "hello bot")
    solo_id = service.loader.room_id(solo)
    clock.advance(2 * 24 * 3600)
    with db.transaction() as s:  # the guest is more than a day old: the guest purge removes their table and its chat
        repo.purge_guests(s, dt.datetime.now(dt.UTC) + dt.timedelta(days=1))
    assert store.lines(db.engine, solo_id) == []


def table_named(service: RoomService, db: Database) -> tuple[str, list[Member]]:
    dave, erin, frank = members(db, "Dave", "Erin", "Frank")
    code = service.create_room(dave, seats=3)
    service.join(code, erin)
    return code, [dave, erin, frank]
