"""What a member (or a spectator) may see of a table: the only way table state leaves the core.

Built on the hand's own :func:`~taiwan_poker.rules.views.view`, which already
hides other seats' hole cards until shown and every private burn but one's
own.  Seats are matched to members hand by hand (``TableState.lineups``), so
a seat that changed hands never shows its new occupant the old one's cards.
"""

from __future__ import annotations

from typing import Any

from ..fairness import seed_commitment
from ..rules.events import ActionTaken, BoardDealt
from ..rules.hand import Hand
from ..rules.views import events_for, public_view, seat_part, view
from .events import PlayerSilenced, SeatRequested, log_entry
from .ledger import ledger
from .machine import legal_for, next_under_the_gun
from .schedules import FIELD
from .state import Phase, TableState
from .tournament import next_deadline, payout_amounts

LOG_IN_VIEW = 50  # the newest entries of the table's log in every view (all of them: GET .../log)


def last_actions(hand: Hand) -> dict[str, dict[str, Any]]:
    """Each seat's latest decision on the current street (public information), keyed by seat number."""
    out: dict[str, dict[str, Any]] = {}
    events = hand.events
    start = len(events)
    while start > 0 and not isinstance(events[start - 1], BoardDealt):  # the street's events only
        start -= 1
    for ev in events[start:]:
        if isinstance(ev, ActionTaken):
            out[str(ev.seat)] = {"kind": ev.kind.value, "to": ev.to, "amount": ev.amount, "allin": ev.allin,
                                 "timeout": ev.timeout}
    return out


def _books(state: TableState, member: int) -> dict[str, int]:
    """A player's chips in, from the table's books: bought (buy-ins, rebuys and top-ups; the host's adjustments
    apart), how many rebuys and top-ups, and the adjustments' sum."""
    a = next((x for x in state.accounts if x.member == member), None)
    if a is None:
        return {"bought": 0, "rebuys": 0, "top_ups": 0, "adjusted": 0}
    return {"bought": a.buy_ins + a.rebuys + a.top_ups, "rebuys": a.rebuy_count, "top_ups": a.top_up_count,
            "adjusted": a.adjusted}


def time_outs(hand: Hand) -> list[dict[str, Any]]:
    """Every move the clock made in the hand (a check, or a fold), in order: what the page explains after it."""
    return [{"seat": ev.seat, "kind": ev.kind.value} for ev in hand.events
            if isinstance(ev, ActionTaken) and ev.timeout]


def players(state: TableState) -> list[dict[str, Any]]:
    """Everyone at the table now, then those who left (public)."""
    stacks = state.stacks()
    out: list[dict[str, Any]] = [
        {"seat": i, "name": s.name, "left": False, "away": s.away, "stack": stacks[i],
         "creator": s.member == state.creator, "bot": s.bot is not None, "level": s.bot, "bank": s.bank,
         "busted": state.started and stacks[i] == 0 and not state.hand_running,
         "host": s.member == state.host, "cohost": s.member in state.cohosts, "silenced": s.member in state.silenced,
         **_books(state, s.member)}
        for i, s in enumerate(state.seats) if s is not None
    ]
    out += [{"seat": d.seat, "name": d.name, "left": True, "away": False, "stack": 0,
             "creator": d.member == state.creator, "bot": d.bot is not None, "level": d.bot, "bank": 0,
             "busted": False, "host": False, "cohost": False, "silenced": False, **_books(state, d.member),
             "removed": d.removed_by is not None} for d in state.departed]
    return out


def names(state: TableState) -> dict[int, str]:
    """Every member's name at this table (those seated now, those who left, those who asked to sit)."""
    out = {d.member: d.name for d in state.departed}
    out.update({item.event.member: item.event.name for item in state.log if isinstance(item.event, SeatRequested)})
    out.update({s.member: s.name for s in state.seats if s is not None})
    return out


def table_log(state: TableState, since: int = 0, last: int | None = None) -> list[dict[str, Any]]:
    """The table's log every player can read: each host action with who did it, and the chips that entered
    (``last``: only the newest so many)."""
    who = names(state)
    requests = {item.version: item.event.name for item in state.log if isinstance(item.event, SeatRequested)}
    items = state.log if last is None else state.log[-last:]
    return [log_entry(item, who, requests) for item in items if item.version > since]


def table_ledger(state: TableState) -> dict[str, Any]:
    """The table's books (:func:`.ledger.ledger`) as they stand now."""
    stacks = state.stacks()
    seated = {s.member: i for i, s in enumerate(state.seats) if s is not None}
    hand = state.hand
    pot = hand.pot - hand.awarded if hand is not None and not hand.complete else 0
    return ledger(state.accounts, {m: stacks[i] for m, i in seated.items()}, seated, pot, names(state))


def summary(state: TableState) -> list[dict[str, Any]]:
    """Every player who sat at this table (bots removed and players who left included), with the chips they hold
    now plus those they took away, largest first: with no hand running these add up to every chip that entered
    the table. ``bought``: buy-ins, rebuys and top-ups (the host's adjustments apart, in ``adjusted``)."""
    removed = {d.member for d in state.departed if d.removed_by is not None}
    books = table_ledger(state)["players"]
    rows = [{"seat": r["seat"] if r["seated"] else _last_seat(state, a.member), "name": r["name"], "bot": r["bot"],
             "left": not r["seated"], "chips": r["chips"] + r["took"], "bought": r["buy_in"] + r["rebuys"]
             + r["top_ups"], "rebuys": r["rebuy_count"], "top_ups": r["top_up_count"], "adjusted": r["adjusted"],
             "net": r["net"], **({"removed": a.member in removed} if not r["seated"] else {})}
            for a, r in zip(state.accounts, books, strict=True)]
    return sorted(rows, key=lambda r: -int(r["chips"]))


def _last_seat(state: TableState, member: int) -> int | None:
    return next((d.seat for d in reversed(state.departed) if d.member == member), None)


def fairness_summary(state: TableState) -> dict[str, Any]:
    """What everyone may know of the deal's fairness now (docs/fairness.md): the current hand's shoe root and the
    hash of its server seed, the next hand's seed hash, whether the seeds are revealed at the match's end."""
    hand = state.hand
    deal = next((d for d in reversed(state.deals) if hand is not None and d.hand_no == hand.hand_no), None)
    nxt = state.seed_commitment if not state.over else None  # no next hand once the match is over
    return {"reveal": state.options.reveal, "revealed": state.revealed,
            "hand": {"hand_no": deal.hand_no, "root": deal.root.hex(), "size": deal.size,
                     "seed_hash": seed_commitment(deal.server_seed).hex()} if deal is not None else None,
            "next": {"hand_no": nxt[0], "seed_hash": nxt[1]} if nxt is not None else None}


def waiting_for(state: TableState) -> dict[str, Any] | None:
    """What a table that deals no hand now waits for, in words a page can say: ``rebuys`` (busted players, by
    name: the match ends when the wait is over), ``host`` (the host paused it), ``back`` (players who are away,
    by name) or ``players`` (fewer than two hold chips); None while hands are dealt or once it is over."""
    phase = state.phase
    if phase is Phase.REBUYS:
        busted = (state.seats[i] for i in state.busted_members())
        return {"kind": "rebuys", "names": [s.name for s in busted if s is not None]}
    if phase is not Phase.PAUSED:
        return None
    if state.paused_by is not None:
        return {"kind": "host", "names": [names(state).get(state.paused_by, "")]}
    away = [s.name for s in state.seats if s is not None and s.away and s.stack > 0]
    return {"kind": "back", "names": away} if away else {"kind": "players", "names": []}


def silenced_spectators(state: TableState) -> list[dict[str, Any]]:
    """The spectators silenced now, each by its name and the chat line it was silenced for (the handle the
    host's page lets them talk again by)."""
    last: dict[int, PlayerSilenced] = {}
    for item in state.log:
        event = item.event
        if isinstance(event, PlayerSilenced) and event.line is not None:
            last[event.member] = event
    return [{"name": e.name, "line": e.line} for m, e in last.items()
            if m in state.silenced and state.seat_of(m) is None]


def _summary_tells(state: TableState) -> bool:
    return bool(state.over or state.rebought or state.adjusted
                or any(d.during_match or d.took for d in state.departed))


def public_table_view(state: TableState) -> dict[str, Any]:
    """What every seat and spectator sees alike (a shell may build it once per version and share it)."""
    rules = state.rules
    out: dict[str, Any] = {
        "status": state.phase.value,
        "decks": rules.decks,
        "seats": rules.seats,
        "stack": rules.starting_stack,
        "blinds": [rules.small_blind, rules.big_blind],
        "clock": rules.action_clock,
        "time_bank": rules.time_bank,
        "players": players(state),
        "you": None,
        "spectator": True,
        "creator": False,
        "hand": None,
        "match": None,
        "coach": state.coach_on,  # the same for everyone at the table
        "options": {**state.options._asdict(), "straddle": rules.straddle, "run_twice": rules.run_twice,
                    "show_or_muck": rules.show_or_muck},
        "paused": {"by": names(state).get(state.paused_by, "")} if state.paused_by is not None else None,
        "requests": [{"id": r.id, "name": r.name, "seat": r.seat} for r in state.requests],
        "silenced_spectators": silenced_spectators(state),
        "fairness": fairness_summary(state),
        "waiting_for": waiting_for(state),
        "log": table_log(state, last=LOG_IN_VIEW),
        "tournament": tournament_view(state),
    }
    hand = state.hand
    if hand is not None:
        hv = public_view(hand)
        hv["last_actions"] = last_actions(hand)
        hv["timeouts"] = time_outs(hand)
        out["hand"] = hv
    if state.started:
        left = [d.seat for d in state.departed if d.during_match]
        out["match"] = {
            "stacks": list(state.stacks()),
            "hands_played": len(state.hands),
            "over": state.over,
            "winner": state.winner,
            "rematch": state.rematch,
            "left": left,  # seats whose players left during the match, in order
            "forfeit": state.forfeit,  # the seat whose leaving ended it, if it ended that way
            "ended_by": names(state).get(state.ended_by, "") if state.ended_by is not None else None,
            # everyone who held chips, what they hold or took away: once it says more than the seats' stacks do
            # (someone left or was removed holding chips, a rebuy or a stack adjustment, the match's end); a plain
            # match leaves it out of every push (the page then reads the stacks)
            "summary": summary(state) if _summary_tells(state) else None,
            "chips": state.chips_entered,  # every chip that entered the table (the summary's total)
            "bought_in": state.bought_in, "rebought": state.rebought, "adjusted": state.adjusted,
        }
    return out


def tournament_view(state: TableState) -> dict[str, Any] | None:
    """A sit-and-go as everyone sees it (None at a cash table): the level in force and the next, when the clock
    next moves on (the seconds left are the clock's, :func:`~.timing.clock_view`), the places so far and the
    payouts; the level of each stage is counted from 1."""
    t = state.tournament
    if t is None:
        return None
    level, upcoming = t.blinds(), t.next_level()
    deadline = next_deadline(t)
    who = names(state)
    field = len(t.field) if t.field else sum(1 for s in state.seats if s is not None)
    return {
        "preset": t.settings.preset,
        "level": t.level + 1,
        "blinds": [level.small, level.big],
        "ante": level.ante,
        "next": {"level": t.level + 2, "blinds": [upcoming.small, upcoming.big], "ante": upcoming.ante}
        if upcoming is not None else None,
        "on_break": t.on_break,
        "paused": t.paused_at is not None,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "minutes": t.settings.schedule.minutes,
        "schedule": t.settings.schedule.to_json(),
        "begun": t.begun,
        "finished": t.finished,
        "field": field,
        "buy_in": t.settings.buy_in,
        "prize_pool": t.settings.buy_in * field,
        "payouts": list(payout_amounts(t.settings, field)) if field in FIELD else [],
        "places": [{"name": who.get(p.member, ""), "seat": p.seat, "place": p.place, "payout": p.payout}
                   for p in sorted(t.places, key=lambda p: (p.place, p.seat))],
    }


def tournament_results(state: TableState) -> dict[str, Any] | None:
    """A sit-and-go's results as anyone may read and share them (None at a cash table): every place so far with
    its name, bot or member, payout; the hands played, the level reached, the field and the prize pool."""
    t = state.tournament
    if t is None:
        return None
    who = names(state)
    bots = {s.member for s in state.seats if s is not None and s.bot is not None} | {d.member for d in state.departed
                                                                                   if d.bot is not None}
    placed = {p.member for p in t.places}
    stacks = state.stacks()
    alive = sorted((i for i, s in enumerate(state.seats) if s is not None and s.member in t.field
                    and s.member not in placed), key=lambda i: -stacks[i])
    still: list[dict[str, Any]] = [{"name": s.name, "seat": i, "place": None, "payout": None, "bot": s.bot is not None,
                                    "stack": stacks[i]} for i in alive if (s := state.seats[i]) is not None]
    return {
        "preset": t.settings.preset, "finished": t.finished, "begun": t.begun, "field": len(t.field),
        "buy_in": t.settings.buy_in, "prize_pool": t.prize_pool, "hands": len(state.hands), "level": t.level + 1,
        "started": t.started.isoformat() if t.started is not None else None,
        "places": [{"name": who.get(p.member, ""), "seat": p.seat, "place": p.place, "payout": p.payout,
                    "bot": p.member in bots, "member": p.member} for p in sorted(t.places, key=lambda p: (p.place,
                                                                                                        p.seat))]
        + [{**x, "member": None} for x in still],
    }


SEAT_KEYS = ("you", "spectator", "creator", "left_match", "busted", "host", "cohost", "requested", "silenced",
             "may_buy", "straddle", "seed_sent")
"""The top-level keys of a view that differ by viewer (the rest is :func:`public_table_view`, and the hand's own
part :func:`seat_fields` returns apart)."""


def seat_fields(state: TableState, member: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """What differs by viewer: the :data:`SEAT_KEYS` fields, and the keys the viewer's seat adds to the hand (its
    own cards and burn, its options; empty for a spectator or with no hand)."""
    seat = state.seat_of(member)
    out: dict[str, Any] = {
        "you": seat,
        "spectator": seat is None,
        "creator": member is not None and member == state.creator,
        # a player who left this match may not take a seat in it again (the page offers them none)
        "left_match": seat is None and state.started and any(d.member == member for d in state.departed),
        "busted": seat is not None and state.started and not state.hand_running and state.stacks()[seat] == 0,
        "host": member is not None and member == state.host,
        "cohost": member is not None and member in state.cohosts,
        "requested": seat is None and member is not None and state.request_of(member) is not None,
        "silenced": member is not None and member in state.silenced,
        "may_buy": may_buy(state, seat),
        "straddle": straddle_of(state, member, seat),
        "seed_sent": member is not None and member in dict(state.player_seeds),  # a seed for the next hand
    }
    private: dict[str, Any] = {}
    hand = state.hand
    if hand is not None:
        in_hand = state.seat_in_hand(member, len(state.hands) - 1)  # who held the seat when it was dealt
        private = seat_part(hand, in_hand)
        private.pop("legal", None)
        legal = legal_for(state, in_hand)
        if legal is not None:
            engine = hand.legal()
            private["legal"] = {**engine.to_json(), "actions": legal, "allin_to": engine.allin_to}
    return out, private


def table_view(state: TableState, member: int | None, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table as ``member`` (None: a spectator) may see it now (the shell adds its code and clock).

    ``public``: :func:`public_table_view` of this very state, when the caller already has it (it is not changed).
    """
    out = dict(public if public is not None else public_table_view(state))
    fields, private = seat_fields(state, member)
    out.update(fields)
    if private and out["hand"] is not None:
        out["hand"] = {**out["hand"], **private}
    return out


def straddle_of(state: TableState, member: int | None, seat: int | None) -> dict[str, Any] | None:
    """A seated player's straddle where the table allows straddles: their choice (``next``, ``always`` or
    ``off``) and whether they are under the gun in the next hand (``utg_next``, between hands)."""
    occupant = state.seats[seat] if seat is not None else None
    if occupant is None or member is None or occupant.bot is not None or not state.rules.straddle or state.over:
        return None
    choice = "always" if member in state.straddle_always else "next" if member in state.straddle_next else "off"
    return {"choice": choice, "utg_next": not state.hand_running and next_under_the_gun(state) == seat}


def may_buy(state: TableState, seat: int | None) -> int:
    """The most chips the player in ``seat`` may buy now (a rebuy or a top-up to the starting stack), 0: none."""
    occupant = state.seats[seat] if seat is not None else None
    hand = state.hand
    if occupant is None or not state.options.rebuys or state.over or not state.started \
            or (hand is not None and not hand.complete and hand.dealt_in(seat)):  # type: ignore[arg-type]
        return 0
    return max(0, state.rules.starting_stack - occupant.stack)


def history(state: TableState, member: int | None) -> list[dict[str, Any]]:
    """Every hand as ``member`` saw it (their own cards in the hands they played; public information otherwise),
    with the names of its players as seated then and its own stakes."""
    out = []
    for i, hand in enumerate(state.hands):
        seat = state.seat_in_hand(member, i)
        rules = hand.rules
        out.append({"hand_no": hand.hand_no, "names": names_in_hand(state, i),
                     "blinds": [rules.small_blind, rules.big_blind], "final": view(hand, seat),
                     "events": events_for(hand, seat)})
    return out


def names_in_hand(state: TableState, index: int) -> list[str]:
    """The name of the player in each seat when hand ``index`` (0-based) was dealt ("" for an empty seat)."""
    names = {s.member: s.name for s in state.seats if s is not None}
    names.update({d.member: d.name for d in state.departed if d.member not in names})
    return [names.get(m, "") if m is not None else "" for m in state.lineups[index]]


def hand_events(state: TableState, member: int | None, index: int) -> list[dict[str, Any]]:
    """Hand ``index`` (0-based) as ``member`` saw it: the visible events of the seat they played, if any."""
    return events_for(state.hands[index], state.seat_in_hand(member, index))
