"""Tables: room logs become table events (format 2); a seat number may be taken again after its player left.

Every room's log of format v1 (the heads-up room service's payloads) is
rewritten into table events, with its seats taken from the seat rows; the
room's version, status and clock follow the new log.

Frozen as written (2026-12-01): this file imports nothing from ``taiwan_poker``.
What it needs of the code of that day is copied below, cut down to what a v1
log can hold: the upgrade (``tables/upgrade.py``), the JSON of table and hand
events (``tables/events.py``, ``rules/events.py``, the rule set's defaults and
checks), and of the table and hand machines only the chips, turns and seats
that a leaving player's fold, the match's end and the room's status depend on.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Sequence
from typing import Any, NamedTuple

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

LOG_FORMAT = 2
NEXT_HAND_SECONDS = 6  # the wait before the next hand, for a room left between hands


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.drop_constraint("seats_room_id_seat_no_key", "seats", type_="unique")
    else:
        with op.batch_alter_table("seats", naming_convention={"uq": "uq_%(table_name)s_%(column_0_name)s"}) as b:
            b.drop_constraint("uq_seats_room_id", type_="unique")
    rewrite_v1_logs(bind)


def downgrade() -> None:
    raise NotImplementedError("table logs cannot be turned back into heads-up room payloads")


def rewrite_v1_logs(bind: sa.Connection) -> None:
    meta = sa.MetaData()
    rooms = sa.Table("rooms", meta, autoload_with=bind)
    events = sa.Table("room_events", meta, autoload_with=bind)
    seats = sa.Table("seats", meta, autoload_with=bind)
    members = sa.Table("members", meta, autoload_with=bind)
    now = dt.datetime.now(dt.UTC)
    for room in bind.execute(sa.select(rooms)).mappings().all():
        payloads = [r.payload for r in bind.execute(
            sa.select(events.c.payload).where(events.c.room_id == room["id"]).order_by(events.c.seq))]
        if payloads and not is_v1(payloads):
            continue
        rows = bind.execute(
            sa.select(seats.c.seat_no, seats.c.member_id, members.c.display_name, seats.c.left_at)
            .join(members, members.c.id == seats.c.member_id).where(seats.c.room_id == room["id"])
        ).all()
        seat_rows = [SeatRow(r.seat_no, r.member_id, r.display_name, r.left_at is not None) for r in rows]
        new, status, wait = upgrade_room(room["rules"], room["created_by"], seat_rows, payloads)
        deadline = None if wait is None else now + dt.timedelta(seconds=wait)
        bind.execute(sa.delete(events).where(events.c.room_id == room["id"]))
        bind.execute(sa.insert(events), [
            {"room_id": room["id"], "seq": i + 1, "payload": e, "created_at": now} for i, e in enumerate(new)])
        bind.execute(sa.update(rooms).where(rooms.c.id == room["id"]).values(
            version=len(new), status=status, deadline=deadline))


class SeatRow(NamedTuple):
    """A v1 seat row: who sat in which seat, and whether they left."""

    seat: int
    member: int
    name: str
    left: bool


def is_v1(payloads: Sequence[dict[str, Any]]) -> bool:
    return bool(payloads) and "kind" in payloads[0] and "v" not in payloads[0]


def upgrade_room(rules_json: dict[str, Any], creator: int, seats: Sequence[SeatRow],
                 payloads: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], str, int | None]:
    """A v1 room's table events as JSON, its status, and the seconds its clock runs (None: no clock).

    ``payloads`` may be empty: a room still waiting.  The upgrade opens the
    table with its creator, seats the players from the seat rows and turns each
    payload into the events the table machine wrote: hands as dealt and played,
    a forfeit as the player leaving (folding a hand they left running), and the
    match's end where one player holds every chip.
    """
    rules = _rules(rules_json)
    by_seat = {row.seat: row for row in seats}
    if 0 not in by_seat:
        raise ValueError("a v1 room without its creator's seat")
    table = _Table(rules)
    table.add({"type": "table_opened", "rules": dict(rules), "creator": creator})
    table.sit(0, by_seat[0])
    for payload in payloads:
        kind = payload.get("kind")
        if kind == "match":
            table.sit(1, by_seat[1])
        elif kind == "hand":
            table.add({"type": "hand", "hand_no": int(payload["hand"]), "event": _hand_event(payload["event"])})
            if table.hand is not None and table.hand.complete:
                table.settle()
        elif kind in ("forfeit", "left"):
            seat = int(payload["seat"])
            if table.seats[seat] is not None:
                table.leave(seat)
        elif kind == "rematch":
            table.add({"type": "rematch_opened", "code": str(payload["code"])})
        else:
            raise ValueError(f"unknown v1 payload {payload!r}"[:200])
    if not payloads and by_seat[0].left:  # a waiting room its creator left
        table.leave(0)
    return table.log, table.status, table.wait


# --- the JSON of the day ------------------------------------------------------------------------------------------

RANKS = "23456789TJQKA"
SUITS = "shdc"
_RULE_DEFAULTS: dict[str, Any] = {
    "decks": 2, "seats": 2, "starting_stack": 2000, "small_blind": 10, "big_blind": 20, "structure": "no-limit",
    "burns": "once-per-hand", "ranking": "five-of-a-kind-high", "action_clock": 45,
}
_RULE_CHOICES = {"structure": ("no-limit", "pot-limit", "limit"), "burns": ("once-per-hand", "every-street"),
                 "ranking": ("five-of-a-kind-high", "straight-flush-high")}
_HAND_FIELDS: dict[str, tuple[str, ...]] = {
    "hand_started": ("hand_no", "button", "small_blind_seat", "big_blind_seat", "stacks"),
    "shoe_drawn": ("cards",), "private_cards": ("seat", "burn", "hole"), "blind_posted": ("seat", "amount", "big"),
    "action": ("seat", "kind", "amount", "to", "allin", "timeout"), "private_burn": ("seat", "card"),
    "dealer_burn": ("street", "card"), "board_dealt": ("street", "cards"), "chips_returned": ("seat", "amount"),
    "hand_shown": ("seat", "hole", "board", "category", "rank"), "pot_awarded": ("amount", "eligible", "winners",
                                                                                 "shares"),
    "hand_ended": ("stacks",), "seat_folded": ("seat",),
}
_CARD_LISTS = {"cards", "hole", "board"}
_CARDS = {"burn", "card"}
_INT_LISTS = {"stacks", "eligible", "winners", "shares"}
_CATEGORIES = ("five_of_a_kind", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
               "three_of_a_kind", "two_pair", "one_pair", "high_card")
_ENUMS = {"kind": ("fold", "check", "call", "bet", "raise", "allin"), "street": ("preflop", "flop", "turn", "river"),
          "category": _CATEGORIES}


def _rules(obj: object) -> dict[str, Any]:
    """The rule set's JSON as the table wrote it: every field, in order, defaults filled in, checked."""
    if not isinstance(obj, dict):
        raise ValueError("a rule set must be a JSON object")
    unknown = set(obj) - set(_RULE_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown rule set field(s): {', '.join(sorted(unknown))}")
    rules = {**_RULE_DEFAULTS, **obj}
    rules = {k: rules[k] for k in _RULE_DEFAULTS}
    for name, low, high in (("decks", 1, 8), ("seats", 2, 9)):
        value = rules[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} must be {low} to {high}, not {value!r}")
    for name in ("starting_stack", "small_blind", "big_blind", "action_clock"):
        value = rules[name]
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, not {value!r}")
    if rules["small_blind"] > rules["big_blind"]:
        raise ValueError("the small blind is larger than the big blind")
    for name, choices in _RULE_CHOICES.items():
        if rules[name] not in choices:
            raise ValueError(f"unknown {name} {rules[name]!r}")
    private = rules["seats"] if rules["burns"] == "once-per-hand" else 4 * rules["seats"]
    if private + 2 * rules["seats"] + 8 > rules["decks"] * 52:
        raise ValueError("the decks hold too few cards for the seats")
    return rules


def _card(text: object) -> tuple[int, int, int] | None:
    """(rank, suit, deck) of ``As``, ``10h``, ``As:2`` (deck 1 when not named)."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"bad card in event: {text!r}")
    body, sep, deck_text = text.strip().partition(":")
    deck = 1
    if sep:
        if not (deck_text.isascii() and deck_text.isdigit()) or not 1 <= int(deck_text) <= 8:
            raise ValueError(f"bad deck number in card {text!r}")
        deck = int(deck_text)
    if len(body) == 3 and body[:2] == "10":
        body = "T" + body[2]
    if len(body) != 2 or RANKS.find(body[0].upper()) < 0 or SUITS.find(body[1].lower()) < 0:
        raise ValueError(f"bad card {text!r}")
    return RANKS.find(body[0].upper()), SUITS.find(body[1].lower()), deck


def _label(card: tuple[int, int, int] | None) -> str | None:
    return None if card is None else f"{RANKS[card[0]]}{SUITS[card[1]]}:{card[2]}"


def _hand_event(obj: object) -> dict[str, Any]:
    """A hand event's JSON as the engine wrote it: its fields in order, cards as ``As:2``, ``best`` for a shown hand."""
    if not isinstance(obj, dict) or obj.get("type") not in _HAND_FIELDS:
        raise ValueError(f"unknown event {obj!r}")
    out: dict[str, Any] = {"type": obj["type"]}
    try:
        for name in _HAND_FIELDS[obj["type"]]:
            raw = obj[name]
            if name in _CARD_LISTS:
                out[name] = [_label(_card(c)) for c in raw]
            elif name in _CARDS:
                out[name] = _label(_card(raw))
            elif name in _INT_LISTS:
                out[name] = [int(v) for v in raw]
            elif name in _ENUMS:
                if raw not in _ENUMS[name]:
                    raise ValueError(f"{raw!r} is not a valid {name}")
                out[name] = raw
            else:
                out[name] = raw
    except (KeyError, TypeError) as exc:
        raise ValueError(f"bad {obj['type']} event: {exc}") from None
    if obj["type"] == "hand_shown":
        out["best"] = _best(out)
    return out


def _best(shown: dict[str, Any]) -> list[str | None]:
    """The shown hand's best five cards, strongest first in comparison order."""
    cards = [c for c in (_card(x) for x in (*shown["hole"], *shown["board"])) if c is not None]
    if len(cards) != len(shown["hole"]) + len(shown["board"]):
        raise ValueError("a shown hand without its cards")
    if shown["category"] in ("flush", "straight_flush"):
        counts = [0, 0, 0, 0]
        for c in cards:
            counts[c[1]] += 1
        suit = counts.index(max(counts))
        cards = [c for c in cards if c[1] == suit]
    best = []
    for r in ((shown["rank"] >> (4 * (4 - i))) & 15 for i in range(5)):
        i = next(i for i, c in enumerate(cards) if c[0] == r)
        best.append(_label(cards.pop(i)))
    return best


# --- the table and the hand, as far as a v1 log goes -------------------------------------------------------------


class _Seat(NamedTuple):
    member: int
    name: str
    stack: int


class _Hand:
    """A hand's chips and turn: enough to fold a leaving player's hand as the engine did."""

    def __init__(self, started: dict[str, Any]) -> None:
        stacks = list(started["stacks"])
        n = len(stacks)
        self.n = n
        self.button = started["button"]
        self.bb_seat = started["big_blind_seat"]
        self.stacks = stacks
        self.bets = [0] * n
        self.contrib = [0] * n
        self.folded = [s <= 0 for s in stacks]
        self.live = n - sum(self.folded)
        self.active = self.live
        self.acted = [False] * n
        self.current_bet = 0
        self.players: set[int] = set()
        self.to_act: int | None = None
        self.complete = False

    def apply(self, ev: dict[str, Any]) -> None:
        kind = ev["type"]
        if kind == "private_cards":
            self.players.add(ev["seat"])
        elif kind == "blind_posted":
            seat = ev["seat"]
            self._put(seat, ev["amount"], self.bets[seat] + ev["amount"])
            if ev["big"]:
                self.to_act = self.next_to_act(self.bb_seat)
        elif kind == "action":
            seat = ev["seat"]
            self.acted[seat] = True
            if ev["kind"] == "fold":
                self.folded[seat] = True
                self.live -= 1
                self.active -= 1
            else:
                self._put(seat, ev["amount"], ev["to"])
            self.to_act = self.next_to_act(seat)
        elif kind == "board_dealt":
            self.bets = [0] * self.n
            self.acted = [False] * self.n
            self.current_bet = 0
            self.to_act = self.next_to_act(self.button)
        elif kind == "chips_returned":
            seat, amount = ev["seat"], ev["amount"]
            if self.stacks[seat] == 0 and amount > 0 and not self.folded[seat]:
                self.active += 1
            self.stacks[seat] += amount
            self.bets[seat] -= amount
            self.contrib[seat] -= amount
        elif kind == "pot_awarded":
            for seat, share in zip(ev["winners"], ev["shares"], strict=True):
                self.stacks[seat] += share
        elif kind == "seat_folded":
            seat = ev["seat"]
            self.folded[seat] = True
            self.live -= 1
            if self.stacks[seat] > 0:
                self.active -= 1
            if self.to_act is not None:
                self.to_act = self.next_to_act((self.to_act - 1) % self.n)
        elif kind == "hand_ended":
            self.complete = True
            self.to_act = None

    def _put(self, seat: int, amount: int, to: int) -> None:
        self.stacks[seat] -= amount
        if amount and self.stacks[seat] == 0:
            self.active -= 1
        self.bets[seat] = to
        self.contrib[seat] += amount
        if to > self.current_bet:
            self.current_bet = to

    def next_to_act(self, after: int) -> int | None:
        if self.live <= 1:
            return None
        for i in range(1, self.n + 1):
            s = (after + i) % self.n
            if self.folded[s] or self.stacks[s] == 0:
                continue
            if self.bets[s] < self.current_bet or (not self.acted[s] and self.active >= 2):
                return s
        return None

    def fold_out(self, seat: int) -> list[dict[str, Any]]:
        """The events of ``seat`` leaving mid-hand (worked out on a copy): its fold, then the hand won by the other."""
        probe = copy.deepcopy(self)
        if seat == probe.to_act:
            events: list[dict[str, Any]] = [{"type": "action", "seat": seat, "kind": "fold", "amount": 0,
                                             "to": probe.bets[seat], "allin": False, "timeout": False}]
        else:
            events = [{"type": "seat_folded", "seat": seat}]
        probe.apply(events[0])
        live = [s for s in range(probe.n) if not probe.folded[s]]
        if probe.to_act is not None or len(live) != 1:
            raise ValueError("a v1 hand with more than two players")
        bets = probe.bets
        top, second = sorted(bets)[-1], sorted(bets)[-2]
        if top > second and not probe.folded[bets.index(top)]:  # a leaver's uncalled bet stays in the pot
            events.append({"type": "chips_returned", "seat": bets.index(top), "amount": top - second})
            probe.apply(events[-1])
        total = sum(probe.contrib)
        events.append({"type": "pot_awarded", "amount": total, "eligible": [live[0]], "winners": [live[0]],
                       "shares": [total]})
        probe.apply(events[-1])
        events.append({"type": "hand_ended", "stacks": list(probe.stacks)})
        return events


class _Table:
    """The table's log (JSON) and as much of its state as the upgrade and the room's status need."""

    def __init__(self, rules: dict[str, Any]) -> None:
        self.rules = rules
        self.log: list[dict[str, Any]] = []
        self.seats: list[_Seat | None] = [None] * rules["seats"]
        self.hand: _Hand | None = None
        self.hand_no: Any = None
        self.started = False
        self.over = False
        self.departed = False

    def add(self, event: dict[str, Any]) -> None:
        """Append one table event (its JSON: ``v`` and ``type`` first, then its fields) and apply it."""
        self.log.append({"v": LOG_FORMAT, **event})
        kind = event["type"]
        if kind == "hand":
            self._hand_event(event["hand_no"], event["event"])
        elif kind == "player_sat":
            self.seats[event["seat"]] = _Seat(event["member"], event["name"], event["stack"])
        elif kind == "player_left":
            if self.seats[event["seat"]] is None:
                raise ValueError(f"seat {event['seat']} is empty")
            self.seats[event["seat"]] = None
            self.departed = True
        elif kind == "match_ended":
            self.over = True

    def _hand_event(self, hand_no: int, ev: dict[str, Any]) -> None:
        if ev["type"] == "hand_started":
            self.hand = _Hand(ev)
            self.hand_no = ev["hand_no"]  # the hand's own number, as the engine kept it
            self.started = True
            return
        hand = self.hand
        if hand is None or hand.complete or hand_no != self.hand_no:
            raise ValueError(f"an event of hand {hand_no}, which is not running")
        hand.apply(ev)
        if ev["type"] == "hand_ended":
            for i, seat in enumerate(self.seats):
                if seat is not None and i in hand.players:
                    self.seats[i] = seat._replace(stack=ev["stacks"][i])

    def sit(self, seat: int, row: SeatRow) -> None:
        self.add({"type": "player_sat", "seat": seat, "member": row.member, "name": row.name,
                  "stack": self.rules["starting_stack"], "bot": None})

    def leave(self, seat: int) -> None:
        """The seat's player leaves: their running hand folded, their chips behind off the table; then settle."""
        occupant = self.seats[seat]
        if occupant is None:
            raise ValueError("you have no seat at this table")
        hand = self.hand
        behind = occupant.stack
        if hand is not None and not hand.complete and seat in hand.players:
            if not hand.folded[seat]:
                hand_no = self.hand_no
                for ev in hand.fold_out(seat):
                    self.add({"type": "hand", "hand_no": hand_no, "event": ev})
            behind = hand.stacks[seat]
        self.add({"type": "player_left", "seat": seat, "removed": behind})
        self.settle()

    def settle(self) -> None:
        """What followed at once: the match's end when at most one player holds chips."""
        if self.hand is not None and not self.hand.complete:
            to_act = self.hand.to_act
            if to_act is not None and (self.seats[to_act] is None or all(s is None for s in self.seats)):
                raise ValueError("a v1 hand whose player to act left")
            return
        if self.over:
            return
        holders = [i for i, s in enumerate(self.seats) if s is not None and s.stack > 0]
        if self.started:
            if len(holders) <= 1:
                self.add({"type": "match_ended", "winner": holders[0] if holders else None})
            return
        if self.departed and all(s is None for s in self.seats):
            self.add({"type": "match_ended", "winner": None})

    @property
    def running(self) -> bool:
        return self.hand is not None and not self.hand.complete

    @property
    def status(self) -> str:
        if self.over:
            return "over"
        if not self.started:
            return "waiting"
        present = [s for s in self.seats if s is not None and s.stack > 0]
        return "playing" if self.running or len(present) >= 2 else "paused"

    @property
    def wait(self) -> int | None:
        """The room's clock: the action clock in a hand, the pause before the next one between hands."""
        if self.status != "playing":
            return None
        return int(self.rules["action_clock"]) if self.running else NEXT_HAND_SECONDS
