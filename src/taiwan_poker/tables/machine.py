"""The table state machine: ``decide(state, command) -> events`` and ``evolve(state, event) -> state``.

``decide`` checks a command against the state and returns the events it
causes (raising :class:`TableError`, and changing nothing, when it is not
allowed); it never changes the state.  ``evolve`` applies one committed event.
A table's state is only ever ``fold(events)`` (:mod:`.events`).  The shell
supplies the time of each command (``at``) and the random source that deals
hands; the deadlines are the state's own (:mod:`.timing`).

Rules (decisions in ``docs/rules.md``):

* seats fill from the first free one; a player who sits down plays from the
  next hand; heads-up the first hand is dealt when the second player sits, at
  bigger tables when every seat is taken or when the creator deals;
* the big blind moves on one player with chips each hand (nobody skips it or posts it twice in a row, also
  at the switch to heads-up); the small blind and the button are the two players before it (heads-up the
  button posts the small blind and acts first preflop); nobody posts a missed or dead blind;
* a player who has not acted when the action clock runs out draws on their time bank; once both are used
  up the time-out (check, else fold) applies;
* two time-outs in a row mark a player away: their hands are still dealt and
  are checked or folded at once; with fewer than two players present the table
  deals no more hands until someone is back;
* leaving mid-hand folds the hand at once and takes the stack behind off the
  table; the match ends when one player holds every chip still in play (if
  everyone else left, the last player wins; if all leave, nobody does).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..cards import Card, RandomSource, live_rng
from ..errors import IllegalActionError
from ..frozen import replace
from ..rules.actions import ActionKind
from ..rules.hand import RUNS, Hand
from ..rules.pots import clockwise_after
from ..rules.ruleset import cards_needed
from . import fair
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
    RaiseLevel,
    Rematch,
    RemoveBot,
    RemovePlayer,
    Resume,
    SetCoach,
    SetOptions,
    SetTournament,
    ShowCards,
    ShowOrMuck,
    Silence,
    Straddle,
    TableOptions,
    TimeOut,
)
from .errors import TableError
from .events import (
    ChatDeleted,
    ChipsBought,
    CoachSet,
    CohostSet,
    HandEvent,
    HostChanged,
    LevelRaised,
    MatchEnded,
    OptionsSet,
    PlayerAway,
    PlayerBack,
    PlayerLeft,
    PlayerSat,
    PlayerSilenced,
    PlayersPlaced,
    RematchOpened,
    RulesChanged,
    SeatAnswered,
    SeatRequested,
    SeedCommitted,
    SeedContributed,
    SeedsRevealed,
    ServerSeedDrawn,
    SettingsChanged,
    ShoeCommitted,
    StackAdjusted,
    StraddleChosen,
    TableEvent,
    TableOpened,
    TablePaused,
    TableResumed,
    TimeBankUsed,
    TournamentFinished,
    TournamentSet,
    TournamentStarted,
    evolve,
    fold,
)
from .limits import AWAY_AFTER_TIMEOUTS, BOT_LEVELS, SEATS, STACK, STACK_CONFIRM_TIMES, STRADDLE_CHOICES
from .schedules import FIELD, SitAndGo
from .state import SeatState, TableState, Wait
from .timing import bank_left, over_clock, ran_out, time_out_from
from .tournament import Tournament, next_deadline, place_busted, stage_at, winner_place

# --- decide -----------------------------------------------------------------------------------------------------


def decide(state: TableState | None, command: Command, rng: RandomSource | None = None) -> list[TableEvent]:
    """The events ``command`` causes, including what follows at once (an away player's turn, the match's end),
    each carrying the command's time.

    ``rng`` deals any hand the command starts (the OS CSPRNG in live play).
    Raises :class:`TableError` or the engine's :class:`IllegalActionError`,
    with nothing changed, when the command is not allowed now.
    """
    return decide_folded(state, command, rng).events


class Decided(NamedTuple):
    """A command's events (each carrying its time) and the state they lead to, ``fold(events, state)``: the
    machine folds them anyway to see what follows at once, so a shell that keeps the state need not fold again."""

    events: list[TableEvent]
    state: TableState


def decide_folded(state: TableState | None, command: Command, rng: RandomSource | None = None) -> Decided:
    """:func:`decide`, with the state its events lead to (the state itself when there are none)."""
    at = command.at
    if isinstance(command, Open):
        events = _stamped(_open(command, rng), at)
        return Decided(events, fold(events))
    if state is None:
        raise TableError("no such table", code="room_not_found")
    events = _stamped(HANDLERS[type(command)](state, command, rng), at)
    after = fold(events, state) if events else state
    more, after = settled(after, rng, deal_when_full=isinstance(command, Join | AddBot | AnswerSeat), at=at)
    return Decided(events + more, after)


def _stamped(events: list[TableEvent], at: dt.datetime | None) -> list[TableEvent]:
    """``events`` carrying the command's time (what they are folded with: the table's clock starts from it)."""
    return events if at is None else [event._replace(at=at) for event in events]


def _open(command: Open, rng: RandomSource | None) -> list[TableEvent]:
    rules = command.rules
    if command.guest and len(command.bots) != rules.seats - 1:
        raise TableError("a guest plays against bots only: fill every other seat with a bot", code="guest_solo_only")
    events: list[TableEvent] = [TableOpened(rules, command.member, command.guest, command.bot_pause)]
    if command.tournament is not None:
        _tournament_table(rules.seats, command.options)
        events.append(TournamentSet(command.tournament, command.member))
    events.append(PlayerSat(0, command.member, command.name, rules.starting_stack))
    if command.options is not None and command.options != TableOptions():
        events.append(_options_event(command.options, command.member))
    events += _seed_for(1, rng if rng is not None else live_rng())  # hand 1's server seed, committed first
    state = fold(events)
    for level in command.bots:
        more = _add_bot(state, AddBot(command.member, level), rng)
        events += more
        state = fold(more, state)
    return events + settle(state, rng, deal_when_full=True)


def _tournament_table(seats: int, options: TableOptions | None) -> None:
    """A sit-and-go seats 2 to 6 and allows no rebuys or top-ups."""
    if seats not in FIELD:
        raise TableError(f"a sit-and-go seats {FIELD.start} to {FIELD.stop - 1} players", code="bad_seats",
                         low=FIELD.start, high=FIELD.stop - 1)
    if options is not None and options.rebuys:
        raise TableError("a sit-and-go has no rebuys or top-ups", code="tournament_stacks")


def _registration_open(state: TableState) -> None:
    """Nobody (player or bot) sits down at a sit-and-go once it has begun: their chips would enter mid-way."""
    t = state.tournament
    if t is not None and t.begun:
        raise TableError("this sit-and-go has begun: registration is closed", code="tournament_started")


def _stacks_fixed(state: TableState) -> None:
    """Once a sit-and-go has begun, nothing changes a stack but the cards: no rebuys, top-ups, adjustments, or
    chips taken off the table."""
    t = state.tournament
    if t is not None and t.begun:
        raise TableError("in a sit-and-go only the cards change a stack", code="tournament_stacks")


def _act(state: TableState, command: Act, rng: RandomSource | None) -> list[TableEvent]:
    seat = _seated(state, command.member)
    hand = _running(state)
    if hand.to_act != seat:
        raise TableError("it is not your turn", code="not_your_turn")
    fork = hand.fork()
    moved = _wrap(hand.hand_no, fork.act(command.action, seat=seat, open_fold=True))
    return _bank_drawn(state, seat, over_clock(state, command.at)) + moved


def _bank_drawn(state: TableState, seat: int, over: float) -> list[TableEvent]:
    """What a move made ``over`` seconds past the action clock draws on the seat's time bank (whole seconds,
    at most what is left)."""
    occupant = state.seats[seat]
    spent = min(occupant.bank, math.ceil(over)) if occupant is not None and over > 0 else 0
    return [TimeBankUsed(seat, spent)] if spent > 0 else []


def _time_out(state: TableState, command: TimeOut, rng: RandomSource | None) -> list[TableEvent]:
    """Once the action clock and the time bank (or a choice's window) have run out, a seated member, and a second
    later the server, checks or folds for the player to act (or closes the choices: once, muck)."""
    if command.member is not None:
        _seated(state, command.member)
    hand = _running(state)
    allowed = time_out_from(state, server=command.member is None)
    if command.at is None or allowed is None or command.at < allowed:
        raise TableError("the action clock (and the time bank) has not run out yet", code="clock_running",
                         bank=bank_left(state))
    if hand.pending is not None:  # the window for running it twice, or for showing or mucking, has closed
        return _wrap(hand.hand_no, hand.fork().close_choices())
    late = hand.to_act
    occupant = state.seats[late] if late is not None else None
    bank = occupant.bank if occupant is not None else 0
    fork = hand.fork()
    events = ([TimeBankUsed(late, bank)] if late is not None and bank > 0 else []) + _wrap(hand.hand_no,
                                                                                        fork.timeout())
    if late is not None and occupant is not None and not occupant.away \
            and occupant.timeouts + 1 >= AWAY_AFTER_TIMEOUTS:
        events.append(PlayerAway(late))
    return events


def _deal_command(state: TableState, command: Deal, rng: RandomSource | None) -> list[TableEvent]:
    return _deal(state, command.member, rng, command.at)


def _end_match(state: TableState, command: EndMatch, rng: RandomSource | None) -> list[TableEvent]:
    """The host ends the match between hands (the books are its summary); the server ends a table that waited
    its time for busted players to rebuy."""
    if state.over:
        raise TableError("this match is over", code="match_over")
    if command.member is None:
        if not ran_out(state, Wait.REBUYS, command.at):
            raise TableError("the table is not waiting for a rebuy, or has not waited its time", code="clock_running",
                             bank=0)
    else:
        _host(state, command.member)
        if not state.started:
            raise TableError("the match has not started", code="table_not_started")
        if state.tournament is not None:
            raise TableError("a sit-and-go ends when one player holds every chip", code="tournament_running")
        _between(state)
    holders = state.with_chips()
    return [MatchEnded(holders[0] if len(holders) == 1 else None, command.member)]


def _away(state: TableState, command: Away, rng: RandomSource | None) -> list[TableEvent]:
    seat = _seated(state, command.member)
    occupant = state.seats[seat]
    assert occupant is not None
    return [] if occupant.away else [PlayerAway(seat)]


def _back(state: TableState, command: Back, rng: RandomSource | None) -> list[TableEvent]:
    seat = _seated(state, command.member)
    occupant = state.seats[seat]
    assert occupant is not None
    return [PlayerBack(seat)] if occupant.away else []


def _configure(state: TableState, command: Configure, rng: RandomSource | None) -> list[TableEvent]:
    _creator(state, command.member, "only the table's creator may change its settings")
    if state.started:
        raise TableError("the settings are fixed once the first hand is dealt", code="table_started")
    taken = [i for i, s in enumerate(state.seats) if s is not None]
    if taken and max(taken) >= command.rules.seats:
        raise TableError("fewer seats than the players already seated", code="bad_seats",
                         low=max(taken) + 1, high=SEATS.stop - 1)
    rules = command.rules
    if state.tournament is not None:  # the schedule sets the blinds
        _tournament_table(rules.seats, None)
        level = state.tournament.blinds()
        rules = replace(rules, small_blind=level.small, big_blind=level.big, ante=level.ante)
    return [SettingsChanged(rules, command.member)]


def _set_coach(state: TableState, command: SetCoach, rng: RandomSource | None) -> list[TableEvent]:
    _creator(state, command.member, "only the table's creator may turn the coach on or off")
    if state.hand_running:
        raise TableError("the coach is turned on or off between hands", code="hand_in_progress")
    return [] if state.coach_on == command.on else [CoachSet(bool(command.on), command.member)]


def _rematch(state: TableState, command: Rematch, rng: RandomSource | None) -> list[TableEvent]:
    if state.ever_seat_of(command.member) is None:
        raise TableError("only a player of this table can ask for a rematch", code="not_seated")
    if not state.over:
        raise TableError("the match is not over yet", code="match_not_over")
    return [] if state.rematch is not None else [RematchOpened(command.code)]


def _creator(state: TableState, member: int, message: str) -> None:
    """The controls the creator had before issue 23: now the host's and the co-hosts' (same error code)."""
    if not state.is_host(member):
        raise TableError(message, code="not_creator")


def _host(state: TableState, member: int, *, only_host: bool = False) -> None:
    if member != state.host and (only_host or member not in state.cohosts):
        raise TableError("only the table's host may do that" if only_host else
                         "only the table's host or a co-host may do that", code="not_host")


def _between(state: TableState) -> None:
    """Host controls that change a seat or the stakes wait for the hand to end."""
    if state.over:
        raise TableError("this match is over", code="match_over")
    if state.hand_running:
        raise TableError("this waits until the hand is over", code="hand_in_progress")


def _occupant(state: TableState, seat: object) -> SeatState:
    occupant = state.seats[seat] if isinstance(seat, int) and 0 <= seat < len(state.seats) else None
    if occupant is None:
        raise TableError(f"seat {seat!r} is empty", code="empty_seat", seat=seat)
    return occupant


def _seated(state: TableState, member: int) -> int:
    seat = state.seat_of(member)
    if seat is None:
        raise TableError("you have no seat at this table", code="not_seated")
    return seat


def _running(state: TableState) -> Hand:
    if state.over:
        raise TableError("this match is over", code="match_over")
    hand = state.hand
    if hand is None or hand.complete:
        raise TableError("no hand is being played right now", code="no_hand")
    return hand


def _wrap(hand_no: int, events: Sequence[object]) -> list[TableEvent]:
    return [HandEvent(hand_no, e) for e in events]  # type: ignore[arg-type]


def _join(state: TableState, command: Join, rng: RandomSource | None) -> list[TableEvent]:
    if state.seat_of(command.member) is not None:
        return []  # already seated: joining again changes nothing
    if command.guest:
        raise TableError("a guest plays against bots only; sign in to join a table", code="guest_not_allowed")
    if state.guest:
        raise TableError("this is a guest's solo table", code="guest_table")
    if state.over:
        raise TableError("this match is over", code="match_over")
    if state.tournament is not None and state.tournament.begun:
        raise TableError("this sit-and-go has begun: registration is closed", code="tournament_started")
    seat = _free_seat(state, command.seat)
    returning = state.started and any(d.member == command.member for d in state.departed)
    if returning or (state.options.approval and not state.is_host(command.member)):
        # a player who left this match sits again only if the host lets them (a new buy-in in the books)
        if state.request_of(command.member) is not None:
            return []  # asked already: the host has not answered yet
        return [SeatRequested(command.member, command.name, command.seat)]
    return [PlayerSat(seat, command.member, command.name, state.rules.starting_stack)]


def _free_seat(state: TableState, wanted: int | None) -> int:
    """``wanted`` when it is free, else the first free seat (``room_full``; ``seat_taken`` for a chosen one)."""
    hand = state.hand
    busy = set(hand.players) if hand is not None and not hand.complete else set()
    free = [i for i, s in enumerate(state.seats) if s is None and i not in busy]
    if wanted is not None:
        if isinstance(wanted, bool) or not isinstance(wanted, int) or not 0 <= wanted < len(state.seats):
            raise TableError(f"seats are numbered 0 to {len(state.seats) - 1}", code="bad_seat",
                             low=0, high=len(state.seats) - 1)
        if wanted not in free:
            raise TableError(f"seat {wanted} is taken", code="seat_taken", seat=wanted)
        return wanted
    if not free:
        raise TableError("this table's seats are taken", code="room_full")
    return free[0]


def _between_hands(state: TableState, member: int) -> None:
    """Bots join or leave by the creator's choice, before the first hand or between hands."""
    _creator(state, member, "only the table's creator may seat or remove bots")
    if state.over:
        raise TableError("this match is over", code="match_over")
    if state.hand_running:
        raise TableError("bots join or leave between hands", code="hand_in_progress")


def _add_bot(state: TableState, command: AddBot, rng: RandomSource | None) -> list[TableEvent]:
    _creator(state, command.member, "only the table's creator may seat or remove bots")
    _registration_open(state)
    _between_hands(state, command.member)
    if command.level not in BOT_LEVELS:
        raise TableError(f"unknown bot level {command.level!r}: {', '.join(BOT_LEVELS)}", code="bad_level",
                         levels=", ".join(BOT_LEVELS))
    free = [i for i, s in enumerate(state.seats) if s is None]
    if not free:
        raise TableError("this table's seats are taken", code="room_full")
    bot_id = -(state.version + 1)  # unique at this table, and no member's number
    return [PlayerSat(free[0], bot_id, f"Bot {free[0] + 1}", state.rules.starting_stack, command.level,
                      command.member)]


def _remove_bot(state: TableState, command: RemoveBot, rng: RandomSource | None) -> list[TableEvent]:
    _creator(state, command.member, "only the table's creator may seat or remove bots")
    _stacks_fixed(state)
    _between_hands(state, command.member)
    seat = command.seat
    occupant = state.seats[seat] if isinstance(seat, int) and 0 <= seat < len(state.seats) else None
    if occupant is None or occupant.bot is None:
        raise TableError(f"seat {seat!r} holds no bot", code="no_bot", seat=seat)
    return [PlayerLeft(seat, occupant.stack, by=command.member)]


def _leave(state: TableState, command: Leave, rng: RandomSource | None) -> list[TableEvent]:
    seat = _seated(state, command.member)
    events: list[TableEvent] = []
    hand = state.hand
    occupant = state.seats[seat]
    assert occupant is not None
    t = state.tournament
    if t is not None and t.begun and not state.over and state.stacks()[seat] > 0:
        return [] if occupant.away else [PlayerAway(seat)]  # blinded off, never removed: they may come back
    behind = occupant.stack
    if hand is not None and not hand.complete and seat in hand.players:
        fork = hand.fork()
        if not hand.betting.folded[seat]:
            events += _wrap(hand.hand_no, fork.fold_out_of_turn(seat))
        behind = fork.stacks[seat]
    if command.member == state.host:  # the role passes to a co-host still seated, else the first member seated
        seated = [s.member for s in state.seats if s is not None and s.bot is None and s.member != command.member]
        heirs = [m for m in seated if m in state.cohosts] + seated
        if heirs:
            events.append(HostChanged(heirs[0]))
    events.append(PlayerLeft(seat, behind))
    return events


# --- the host's controls (issue 23) ---------------------------------------------------------------------------


def _pause(state: TableState, command: Pause, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    if state.over:
        raise TableError("this match is over", code="match_over")
    return [] if state.paused_by is not None else [TablePaused(command.member)]


def _resume(state: TableState, command: Resume, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    return [TableResumed(command.member)] if state.paused_by is not None else []


def _remove_player(state: TableState, command: RemovePlayer, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    _stacks_fixed(state)
    _between(state)
    occupant = _occupant(state, command.seat)
    if occupant.member == state.host or occupant.member == command.member:
        raise TableError("the host cannot be removed (leave, or hand the role on first)", code="not_removable")
    return [PlayerLeft(command.seat, occupant.stack, by=command.member)]


def _adjust_stack(state: TableState, command: AdjustStack, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    _stacks_fixed(state)
    _between(state)
    if not state.started:
        raise TableError("before the first hand, change the starting stack instead", code="table_not_started")
    occupant = _occupant(state, command.seat)
    stack = command.stack
    if isinstance(stack, bool) or not isinstance(stack, int) or not 1 <= stack < STACK.stop:
        raise TableError(f"a stack is a whole number from 1 to {STACK.stop - 1}", code="bad_stack_adjust", low=1,
                         high=STACK.stop - 1)
    by_host = command.member == state.host
    if not by_host and occupant.member in (command.member, state.host):
        raise TableError("a co-host cannot change their own stack or the host's", code="cohost_stack")
    cap = STACK_CONFIRM_TIMES * state.rules.starting_stack
    if stack > cap and stack > occupant.stack and not (by_host and command.confirm):
        raise TableError(f"a stack over {cap} chips needs the host's confirmation", code="stack_confirm",
                         reason="host" if by_host else "cohost", cap=cap)
    return [] if stack == occupant.stack else [StackAdjusted(command.seat, occupant.stack, stack, command.member)]


def _change_rules(state: TableState, command: ChangeRules, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    _between(state)
    old, new = state.rules, command.rules
    if state.tournament is not None \
            and (old.small_blind, old.big_blind, old.ante) != (new.small_blind, new.big_blind, new.ante):
        raise TableError("a sit-and-go's blinds follow its schedule", code="tournament_blinds")
    if (old.decks, old.seats, old.starting_stack) != (new.decks, new.seats, new.starting_stack):
        raise TableError("the decks, seats and starting stack are fixed once the first hand is dealt",
                         code="table_started")
    return [] if new == old else [RulesChanged(new, command.member)]


def _set_options(state: TableState, command: SetOptions, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    if state.over:
        raise TableError("this match is over", code="match_over")
    options = TableOptions(*(bool(x) for x in command.options))
    if state.tournament is not None and options.rebuys:
        raise TableError("a sit-and-go has no rebuys or top-ups", code="tournament_stacks")
    if options.reveal != state.options.reveal and state.started:
        raise TableError("whether the seeds are revealed is settled before the first hand", code="table_started")
    return [] if options == state.options else [_options_event(options, command.member)]


def _options_event(options: TableOptions, by: int) -> OptionsSet:
    return OptionsSet(options.rebuys, options.approval, options.spectator_chat, by, reveal=options.reveal)


def _answer_seat(state: TableState, command: AnswerSeat, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    request = next((r for r in state.requests if r.id == command.request), None)
    if request is None:
        raise TableError("no such request to sit", code="no_request")
    if not command.approve:
        return [SeatAnswered(request.id, False, command.member)]
    if state.over:
        raise TableError("this match is over", code="match_over")
    _registration_open(state)
    try:
        seat = _free_seat(state, request.seat)
    except TableError as exc:
        if exc.code != "seat_taken":
            raise
        seat = _free_seat(state, None)  # the seat they chose was taken meanwhile: the first free one
    return [SeatAnswered(request.id, True, command.member),
            PlayerSat(seat, request.member, request.name, state.rules.starting_stack)]


def _member_in(state: TableState, seat: object) -> int:
    occupant = _occupant(state, seat)
    if occupant.bot is not None:
        raise TableError("a bot cannot take that role", code="bot_seat", seat=seat)
    return occupant.member


def _hand_host(state: TableState, command: HandHost, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member, only_host=True)
    heir = _member_in(state, command.seat)
    return [] if heir == state.host else [HostChanged(heir, command.member)]


def _name_cohost(state: TableState, command: NameCohost, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member, only_host=True)
    member = _member_in(state, command.seat)
    if member == state.host or (member in state.cohosts) == bool(command.on):
        return []
    return [CohostSet(member, bool(command.on), command.member)]


def _straddle(state: TableState, command: Straddle, rng: RandomSource | None) -> list[TableEvent]:
    """A player's straddle: for the next hand they are under the gun in, always, or off (the table allows it)."""
    seat = _seated(state, command.member)
    occupant = state.seats[seat]
    if not state.rules.straddle:
        raise TableError("this table plays without straddles", code="no_straddle")
    if command.choice not in STRADDLE_CHOICES:
        raise TableError("a straddle is next, always or off", code="bad_option", option="choice")
    if state.over:
        raise TableError("this match is over", code="match_over")
    member = occupant.member if occupant is not None else command.member
    now = "always" if member in state.straddle_always else "next" if member in state.straddle_next else "off"
    return [] if now == command.choice else [StraddleChosen(member, command.choice)]


def _silence(state: TableState, command: Silence, rng: RandomSource | None) -> list[TableEvent]:
    """Silence a player (by seat) or a spectator (by a chat line of theirs, looked up by the shell)."""
    _host(state, command.member)
    seated = command.seat is not None
    if seated:
        member = _member_in(state, command.seat)
    elif command.author is None:
        raise TableError("name a seat or a chat line", code="bad_request", reason="field", field="seat")
    else:
        member = command.author
    if state.is_host(member) and command.on:
        raise TableError("the host and co-hosts cannot be silenced", code="not_removable")
    if (member in state.silenced) == bool(command.on):
        return []
    if seated or state.seat_of(member) is not None:
        return [PlayerSilenced(member, bool(command.on), command.member)]
    return [PlayerSilenced(member, bool(command.on), command.member, command.name, command.line)]


def _delete_chat(state: TableState, command: DeleteChat, rng: RandomSource | None) -> list[TableEvent]:
    _host(state, command.member)
    return [ChatDeleted(command.message, command.author, command.member)]


# --- a player's own choices -------------------------------------------------------------------------------------


def _buy_chips(state: TableState, command: BuyChips, rng: RandomSource | None) -> list[TableEvent]:
    seat = _seated(state, command.member)
    if state.tournament is not None:
        raise TableError("a sit-and-go has no rebuys or top-ups", code="tournament_stacks")
    if not state.options.rebuys:
        raise TableError("the host does not allow rebuys or top-ups at this table", code="no_rebuys")
    if state.over:
        raise TableError("this match is over", code="match_over")
    if not state.started:
        raise TableError("everyone starts with the starting stack", code="table_not_started")
    hand = state.hand
    if hand is not None and not hand.complete and hand.dealt_in(seat):
        raise TableError("this waits until the hand is over", code="hand_in_progress")
    occupant = state.seats[seat]
    assert occupant is not None
    room = state.rules.starting_stack - occupant.stack
    amount = room if command.amount is None else command.amount
    if room <= 0:
        raise TableError("your stack is at the starting stack already", code="no_topup")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= room:
        raise TableError(f"a top-up is 1 to {room} chips (up to the starting stack)", code="bad_buy", high=room)
    return [ChipsBought(seat, amount, occupant.stack == 0)]


def _seat_in_running(state: TableState, member: int) -> tuple[Hand, int]:
    """The running hand and the member's seat in it (``not_seated`` when they are not dealt in)."""
    hand = _running(state)
    seat = state.seat_in_hand(member, len(state.hands) - 1)
    if seat is None or state.seat_of(member) != seat:
        raise TableError("you are not in this hand", code="not_seated")
    return hand, seat


def _answer_runs(state: TableState, command: AnswerRuns, rng: RandomSource | None) -> list[TableEvent]:
    hand, seat = _seat_in_running(state, command.member)
    return _wrap(hand.hand_no, hand.fork().answer_runs(seat, bool(command.agree)))


def _show_or_muck(state: TableState, command: ShowOrMuck, rng: RandomSource | None) -> list[TableEvent]:
    hand, seat = _seat_in_running(state, command.member)
    return _wrap(hand.hand_no, hand.fork().choose_show(seat, bool(command.show)))


def _show_cards(state: TableState, command: ShowCards, rng: RandomSource | None) -> list[TableEvent]:
    hand = state.hand
    seat = state.seat_in_hand(command.member, len(state.hands) - 1) if hand is not None else None
    if hand is None or seat is None or not hand.complete:
        raise TableError("only the winner of an uncontested pot may show cards after the hand", code="no_show")
    return _wrap(hand.hand_no, hand.fork().show_cards(seat, tuple(command.cards)))


def _contribute_seed(state: TableState, command: ContributeSeed, rng: RandomSource | None) -> list[TableEvent]:
    """A seated player's seed for the next hand (hex, 16 to 64 bytes); a later one replaces it."""
    _seated(state, command.member)
    seed = fair.check_player_seed(command.seed)
    if seed is None:
        raise TableError("a seed is 16 to 64 bytes in hex", code="bad_seed_hex")
    if state.over:
        raise TableError("this match is over", code="match_over")
    return [] if dict(state.player_seeds).get(command.member) == seed else [SeedContributed(command.member, seed.hex())]


# --- a sit-and-go (docs/tournaments.md) ----------------------------------------------------------------------


def _set_tournament(state: TableState, command: SetTournament, rng: RandomSource | None) -> list[TableEvent]:
    """The host changes a sit-and-go's schedule, payouts or buy-in before the first hand."""
    _creator(state, command.member, "only the table's host may change its settings")
    if state.tournament is None:
        raise TableError("this table plays a cash match, not a sit-and-go", code="not_tournament")
    if state.started:
        raise TableError("this sit-and-go has begun: its settings are fixed", code="tournament_started")
    if not isinstance(command.settings, SitAndGo):
        raise TableError("a sit-and-go's settings are an object", code="bad_schedule", field="settings")
    return [] if command.settings == state.tournament.settings else [TournamentSet(command.settings, command.member)]


def _raise_level(state: TableState, command: RaiseLevel, rng: RandomSource | None) -> list[TableEvent]:
    """The server moves the level clock on once the running level (or break) has run its minutes: to the stage
    the clock is at, at the command's time (levels that ran out meanwhile are passed over)."""
    t = state.tournament
    if command.member is not None:
        raise TableError("the blinds rise by the table's clock", code="not_host")
    end = next_deadline(t) if t is not None and not state.over else None
    if t is None or end is None or command.at is None or command.at < end:
        raise TableError("the level's time has not run out yet", code="clock_running", bank=0)
    stage = stage_at(t, command.at)
    moved = replace(t, stage=stage)
    level = moved.blinds()
    return [LevelRaised(stage, moved.level + 1, level.small, level.big, level.ante, moved.on_break)]


def _tournament_consequence(state: TableState, t: Tournament) -> list[TableEvent]:
    """After a sit-and-go's hand: the players it busted are placed; when one player holds every chip, the
    results, and the match's end."""
    hand = state.hand
    if t.finished or hand is None:
        return []
    placed = {p.member for p in t.places}
    busted = [(i, s.member, hand.initial_stacks[i]) for i, s in enumerate(state.seats)
              if s is not None and s.stack == 0 and s.member in t.field and s.member not in placed]
    holders = state.with_chips()
    if busted:
        places = place_busted(t, busted, len(holders), hand.button, len(state.seats))
        return [PlayersPlaced(hand.hand_no, tuple(p.member for p in places), tuple(p.seat for p in places),
                              tuple(p.place for p in places), tuple(p.payout for p in places))]
    if len(holders) != 1:
        return []
    occupant = state.seats[holders[0]]
    assert occupant is not None
    everyone = (winner_place(t, holders[0], occupant.member), *sorted(t.places, key=lambda p: p.place))
    return [TournamentFinished(tuple(p.member for p in everyone), tuple(p.seat for p in everyone),
                               tuple(p.place for p in everyone), tuple(p.payout for p in everyone), len(state.hands),
                               t.level + 1),
            MatchEnded(holders[0])]


Handler = Callable[[TableState, Any, RandomSource | None], list[TableEvent]]
HANDLERS: dict[type[Any], Handler] = {  # every command but Open, which starts a table instead of changing one
    Join: _join, Leave: _leave, Act: _act, TimeOut: _time_out, Deal: _deal_command, EndMatch: _end_match,
    Away: _away, Back: _back,
    Configure: _configure, AddBot: _add_bot, RemoveBot: _remove_bot, SetCoach: _set_coach, Rematch: _rematch,
    Pause: _pause, Resume: _resume, RemovePlayer: _remove_player, AdjustStack: _adjust_stack,
    ChangeRules: _change_rules, SetOptions: _set_options, AnswerSeat: _answer_seat, HandHost: _hand_host,
    NameCohost: _name_cohost, Silence: _silence, DeleteChat: _delete_chat, BuyChips: _buy_chips,
    AnswerRuns: _answer_runs, ShowOrMuck: _show_or_muck, ShowCards: _show_cards, Straddle: _straddle,
    ContributeSeed: _contribute_seed, SetTournament: _set_tournament, RaiseLevel: _raise_level,
}


def _deal(state: TableState, member: int | None, rng: RandomSource | None, at: dt.datetime | None
          ) -> list[TableEvent]:
    """A seated player deals the next hand once the last is over (the host the first); the server once the
    showdown pause is over."""
    if state.over:
        raise TableError("this match is over", code="match_over")
    if state.hand_running:
        raise TableError("the current hand is still being played", code="hand_in_progress")
    if member is not None:
        _seated(state, member)
        if not state.started and not state.is_host(member):
            raise TableError("the table's host deals the first hand", code="not_creator")
    if state.paused_by is not None:
        raise TableError("the host paused the table", code="host_paused")
    t = state.tournament
    if t is not None and t.on_break:
        raise TableError("the sit-and-go is on a break", code="tournament_break")
    if t is not None and t.begun:  # away players are blinded off: the sit-and-go deals on
        if len(state.with_chips()) < 2:
            raise TableError("fewer than two players hold chips", code="table_paused")
    elif len(state.present()) < 2 or not state.members_present():
        raise TableError("fewer than two players are here; the table waits", code="table_paused")
    if member is None and not ran_out(state, Wait.DEAL, at):
        raise TableError("the showdown pause is not over yet", code="clock_running", bank=0)
    return _dealt(state, rng)


def _seed_for(hand_no: int, rng: RandomSource) -> list[TableEvent]:
    """The server's seed for ``hand_no``, drawn now, and its hash, published now (before the players' seeds)."""
    seed = fair.draw_seed(rng)
    return [ServerSeedDrawn(hand_no, seed.hex()), SeedCommitted(hand_no, fair.commitment(seed))]


def _dealt(state: TableState, rng: RandomSource | None) -> list[TableEvent]:
    """The next hand, dealt from a committed shoe (docs/fairness.md): the bots' seeds drawn, the shoe derived from
    the server's seed (committed before) and every seat's seed that arrived, its root published, the hand dealt
    from it in order; then the server's seed for the hand after it, committed now."""
    source = rng if rng is not None else live_rng()
    hand_no = len(state.hands) + 1
    events: list[TableEvent] = []
    t = state.tournament
    if t is not None and not t.begun:  # the first hand: level 1's clock starts, the entrants are fixed
        events.append(TournamentStarted(tuple(s.member for s in state.seats if s is not None and s.stack > 0)))
    if state.seed_next is None or state.seed_next[0] != hand_no:  # a table from before: commit its seed now
        events += _seed_for(hand_no, source)
    stacks = [s.stack if s is not None else 0 for s in state.seats]
    dealt_in = [i for i, chips in enumerate(stacks) if chips > 0]
    events += [SeedContributed(occupant.member, fair.draw_seed(source).hex())
               for i in dealt_in if (occupant := state.seats[i]) is not None and occupant.bot is not None]
    ready = fold(events, state) if events else state
    assert ready.seed_next is not None
    given = dict(ready.player_seeds)
    seeds = {i: given[occupant.member] for i in dealt_in
             if (occupant := state.seats[i]) is not None and occupant.member in given}
    shoe = fair.derive(state.rules.decks, ready.seed_next[1], hand_no, seeds)
    need = cards_needed(len(dealt_in), state.rules.burns, 2 if state.rules.run_twice else 1)
    given_seats = sorted(seeds)
    events.append(ShoeCommitted(hand_no, shoe.root.hex(), len(shoe.cards), tuple(given_seats),
                                tuple(seeds[seat].hex() for seat in given_seats)))
    events += _wrap(hand_no, _start_hand(state, shoe.cards[:need]).events)
    return events + _seed_for(hand_no + 1, source)


def _reveal(state: TableState) -> list[TableEvent]:
    """The match is over: every hand's server seed, so anyone who played can recompute every shoe (unless the
    table never reveals them)."""
    if state.revealed or not state.deals or not state.options.reveal:
        return []
    return [SeedsRevealed(tuple(d.server_seed.hex() for d in state.deals))]


def _start_hand(state: TableState, cards: Sequence[Card]) -> Hand:
    stacks = [s.stack if s is not None else 0 for s in state.seats]
    button = _next_button(state, stacks)
    utg = under_the_gun(button, stacks)
    occupant = state.seats[utg] if utg is not None else None
    straddle = occupant is not None and occupant.member in state.straddle_next | state.straddle_always
    return Hand.start(state.rules, stacks, button, cards=cards, hand_no=len(state.hands) + 1, straddle=straddle)


def _next_button(state: TableState, stacks: Sequence[int]) -> int:
    last = state.hand
    return next(i for i, chips in enumerate(stacks) if chips > 0) if last is None else next_button(last.bb_seat,
                                                                                                   stacks)


def under_the_gun(button: int, stacks: Sequence[int]) -> int | None:
    """The seat under the gun (the straddler's) in a hand dealt from ``button``: the third player with chips
    clockwise after it; None heads-up (no straddle there)."""
    players = [s for s in clockwise_after(button, len(stacks)) if stacks[s] > 0]
    return players[2] if len(players) >= 3 else None


def next_under_the_gun(state: TableState) -> int | None:
    """The seat under the gun in the next hand, were it dealt now (None: no hand to deal, or heads-up)."""
    stacks = [s.stack if s is not None else 0 for s in state.seats]
    if sum(1 for chips in stacks if chips > 0) < 3:
        return None
    return under_the_gun(_next_button(state, stacks), stacks)


def next_button(last_big_blind: int, stacks: Sequence[int]) -> int:
    """The button of the next hand, placed so that the big blind moves on exactly one player.

    The big blind is the first player with chips clockwise after the last hand's big blind, so nobody skips
    the big blind when players go broke or leave, and nobody posts it twice in a row, also when the table
    goes heads-up (the TDA's button adjustment). Heads-up the other player has the button and posts the small
    blind; with three or more the small blind and the button are the two players with chips before the big
    blind (so a player may keep the button, or post the small blind, twice after a bust: see docs/rules.md)."""
    n = len(stacks)
    big = next(s for s in clockwise_after(last_big_blind, n) if stacks[s] > 0)
    before = [s for s in reversed(clockwise_after(big, n)) if stacks[s] > 0 and s != big]  # counter-clockwise
    return before[0] if len(before) == 1 else before[1]


def settle(state: TableState, rng: RandomSource | None = None, *, deal_when_full: bool = False) -> list[TableEvent]:
    """What follows at once from ``state``: away players' turns played, the match's end, a full table dealt."""
    return settled(state, rng, deal_when_full=deal_when_full)[0]


def settled(state: TableState, rng: RandomSource | None = None, *, deal_when_full: bool = False,
            at: dt.datetime | None = None) -> tuple[list[TableEvent], TableState]:
    """:func:`settle`'s events, carrying the time ``at``, and the state after them."""
    out: list[TableEvent] = []
    while True:
        more = _stamped(_next_consequence(state, rng, deal_when_full), at)
        if not more:
            return out, state
        out += more
        state = fold(more, state)


def _next_consequence(state: TableState, rng: RandomSource | None, deal_when_full: bool) -> list[TableEvent]:
    hand = state.hand
    if hand is not None and not hand.complete:
        pending = hand.pending
        if pending is not None:  # bots, away players and empty seats answer at once: no, and muck
            for chooser in pending.seats:
                who = state.seats[chooser]
                if who is None or who.away or who.bot is not None or not state.members_seated():
                    fork = hand.fork()
                    return _wrap(hand.hand_no, fork.answer_runs(chooser, False) if pending.kind == RUNS
                                 else fork.choose_show(chooser, False))
            return []
        seat = hand.to_act
        occupant = state.seats[seat] if seat is not None else None
        if seat is not None and (occupant is None or occupant.away or not state.members_seated()):
            # away (or bots left alone): checked or folded at once
            fork = hand.fork()
            return _wrap(hand.hand_no, fork.timeout())
        return []
    if state.over:
        return _reveal(state)
    if state.started and state.tournament is not None:
        return _tournament_consequence(state, state.tournament)
    if state.started:
        holders = state.with_chips()
        rebuying = state.options.rebuys and bool(state.busted_members())  # a busted member may buy back in
        if len(holders) <= 1 and not rebuying:
            return [MatchEnded(holders[0] if holders else None)]
        if not state.members_hold_chips() and not rebuying:
            return [MatchEnded(None)]  # every member left or went broke: bots do not play on for themselves
        return []
    if state.departed and not state.members_seated():
        return [MatchEnded(None)]  # every member left before the first hand: the table closes
    full = all(s is not None for s in state.seats)
    if full and deal_when_full and len(state.present()) >= 2 and state.members_present() and state.paused_by is None:
        return _dealt(state, rng)  # the table is full: the first hand is dealt
    return []


def chips_conserved(state: TableState) -> bool:
    """Every chip that entered the table (starting stacks, rebuys and top-ups, the host's adjustments) is in play
    or was taken off by a player who left."""
    return state.chips_in_play() + state.removed == state.chips_entered


def legal_for(state: TableState, seat: int | None) -> list[str] | None:
    """The member table's options for ``seat`` when it is to act: the engine's, plus fold when checking is possible."""
    hand = state.hand
    if seat is None or hand is None or hand.complete or hand.to_act != seat or state.over:
        return None
    actions = [k.value for k in hand.legal().actions]
    if ActionKind.CHECK.value in actions and ActionKind.FOLD.value not in actions:
        actions.insert(0, ActionKind.FOLD.value)
    return actions


__all__ = [
    "Act", "AddBot", "AdjustStack", "AnswerRuns", "AnswerSeat", "Away", "Back", "BuyChips", "ChangeRules", "Command",
    "Configure", "Deal", "DeleteChat", "HandHost", "IllegalActionError", "Join", "Leave", "NameCohost", "Open",
    "Pause", "Rematch", "RemoveBot", "RemovePlayer", "Resume", "SetCoach", "SetOptions", "ShowCards", "ShowOrMuck",
    "Silence", "TableError", "TimeOut", "chips_conserved", "decide", "decide_folded", "evolve", "fold", "legal_for",
    "settle",
]
