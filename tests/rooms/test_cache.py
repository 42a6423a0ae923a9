"""The bounded in-memory structures: the LRU map and the room locks."""

from __future__ import annotations

from taiwan_poker.lru import LruMap


def test_the_lru_map_is_bounded_in_size_and_in_idle_time() -> None:
    now = [0.0]
    m: LruMap[str, int] = LruMap(3, idle_seconds=10, clock=lambda: now[0])
    for i, key in enumerate("abcd"):
        m.put(key, i)
    assert len(m) == 3 and m.get("a") is None, "the least recently used went first"
    m.get("b")
    m.put("e", 4)
    assert m.get("c") is None and m.get("b") == 1, "reading counts as use"
    now[0] = 11
    assert m.get("b") is None, "idle past the limit: gone on read"
    assert m.evict_idle() == 2 and len(m) == 0, "and the rest on a sweep"


def test_a_room_lock_lives_only_while_held() -> None:
    from taiwan_poker.rooms.cache import RoomLocks

    locks = RoomLocks()
    with locks(7) as held:
        assert locks(7) is held and len(locks) == 1
    del held
    assert len(locks) == 0, "nobody holds it: it is gone"
