"""A table's state: who sits where with how many chips, the hands so far, and how the match stands.

Immutable: :func:`~.machine.evolve` returns a new state for each event (the
current hand is forked, never changed in place), so a state once handed out
stays what it was.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from ..frozen import replace
from ..rules.hand import Hand
from ..rules.ruleset import RuleSet
from .commands import TableOptions
from .fair import DealSeeds
from .ledger import Account
from .limits import BOT_PAUSE_SECONDS
from .tournament import Tournament

if TYPE_CHECKING:
    from .events import TableEvent

NO_OPTIONS = TableOptions()


class Phase(StrEnum):
    """Where the table is: before the first hand, playing, paused for players, waiting a bounded time for busted
    players to rebuy (:data:`~.limits.REBUY_WAIT_SECONDS`, then the match ends), or over."""

    WAITING = "waiting"
    PLAYING = "playing"
    PAUSED = "paused"
    REBUYS = "rebuys"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class SeatState:
    """A seated player: chips behind (before the current hand), away or present, time-outs in a row.

    A bot's seat has ``bot`` (its level) and a negative ``member`` number that
    no member account has. ``bank`` is what is left of the player's time bank (seconds, this match).
    """

    member: int
    name: str
    stack: int
    away: bool = False
    timeouts: int = 0
    bot: str | None = None
    bank: int = 0
    bought: int = 0  # every chip this player brought to the table: the starting stack, rebuys, top-ups
    rebuys: int = 0  # rebuys and top-ups made


@dataclass(frozen=True, slots=True)
class Departed:
    """A player who left: kept for the table's history and its list of players."""

    seat: int
    member: int
    name: str
    during_match: bool = False  # left after the first hand was dealt (and before the match ended)
    bot: str | None = None
    took: int = 0  # the chips they took off the table with them
    bought: int = 0  # the chips they brought (starting stack, rebuys and top-ups)
    removed_by: int | None = None  # the host who took them off the table, if it was not their choice


class Wait(StrEnum):
    """What a table's timer waits for: a player's move (the action clock, then their time bank), a bot's pause
    before its move, the players' choices (run it twice, show or muck), the showdown pause before the next hand,
    or busted players' rebuys."""

    ACT = "act"
    BOT = "bot"
    CHOICE = "choice"
    DEAL = "deal"
    REBUYS = "rebuys"
    LEVEL = "level"  # a sit-and-go's next blind level (or the end of its break)


class Timer(NamedTuple):
    """A running wait: what for, which one (``key``: the turn, the choice or the hand; the timer runs on while it
    stays the same), when it began and when it ends (None in a log written before the table kept its time)."""

    wait: Wait
    key: tuple[object, ...]
    since: dt.datetime | None
    deadline: dt.datetime | None


@dataclass(frozen=True, slots=True)
class Clock:
    """Every deadline of a table, kept by :func:`~.events.evolve` from the time each event carries
    (:func:`~.timing.tick`): the turn's timer, one wait at a time. (A sit-and-go's blind levels run on a clock
    of their own beside it, :attr:`TableState.tournament`.)"""

    turn: Timer | None = None


class LogItem(NamedTuple):
    """An entry of the table's log: the event, its version, and the member it concerns (the player whose chips
    or seat it changed, as seated then; None for events about the table)."""

    version: int
    event: TableEvent
    subject: int | None = None


class SeatRequest(NamedTuple):
    """A request to sit that waits for the host: its id (the version of its event), who asks, the seat chosen."""

    id: int
    member: int
    name: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class TableState:
    rules: RuleSet
    creator: int
    seats: tuple[SeatState | None, ...]
    hands: tuple[Hand, ...] = ()
    lineups: tuple[tuple[int | None, ...], ...] = ()  # for each hand, the member in each seat when it was dealt
    over: bool = False
    winner: int | None = None
    rematch: str | None = None
    departed: tuple[Departed, ...] = ()
    bought_in: int = 0  # chips brought to the table (every starting stack)
    removed: int = 0  # chips taken off the table by players who left
    version: int = 0  # events folded so far
    settled: int = 0  # the version after the last event a request may be made against (a player's seed is not)
    last_left: tuple[int, int] | None = None  # (version, seat) of the last player to leave (a forfeit says why)
    forfeit: int | None = None  # the seat whose leaving ended the match
    ended_by: int | None = None  # the host who ended the match (None: it ended by itself)
    coach: bool | None = None  # the creator's choice; None: the default (on at tables with bots)
    guest: bool = False  # a guest's solo table: no member joins it
    host: int = 0  # the member who runs the table (the creator, until they hand the role on or leave)
    cohosts: frozenset[int] = frozenset()  # members the host named to share the controls
    paused_by: int | None = None  # the host who paused the table (no hand is dealt until it resumes)
    options: TableOptions = NO_OPTIONS
    requests: tuple[SeatRequest, ...] = ()  # requests to sit waiting for the host
    silenced: frozenset[int] = frozenset()  # members the host silenced at the chat
    rebought: int = 0  # chips that entered by rebuys and top-ups
    adjusted: int = 0  # chips the host's stack adjustments added (negative: took away)
    log: tuple[LogItem, ...] = ()  # the host's actions and the table's chip and seat events, by version
    accounts: tuple[Account, ...] = ()  # the books: one per player who ever sat, in the order they first sat
    straddle_next: frozenset[int] = frozenset()  # members who straddle the next hand they are under the gun in
    straddle_always: frozenset[int] = frozenset()  # members who straddle whenever they are under the gun
    seed_next: tuple[int, bytes] | None = None  # the server's seed for the next hand (hand number, seed): secret
    seed_commitment: tuple[int, str] | None = None  # its hash, published (hand number, hex)
    player_seeds: tuple[tuple[int, bytes], ...] = ()  # (member, seed) sent for the next hand
    deals: tuple[DealSeeds, ...] = ()  # each dealt hand's seeds and shoe root, in order
    revealed: bool = False  # the server's seeds were revealed (the match is over)
    clock: Clock = Clock()  # every deadline: the action clock, a bot's pause, a choice, the next hand, a rebuy
    bot_pause: tuple[float, float] = BOT_PAUSE_SECONDS  # how long this table's bots pause before a move, at least/most
    tournament: Tournament | None = None  # a sit-and-go's settings, blind level and places (None: a cash match)

    @property
    def chips_entered(self) -> int:
        """Every chip that entered the table: starting stacks, rebuys and top-ups, and the host's adjustments."""
        return self.bought_in + self.rebought + self.adjusted

    def is_host(self, member: int | None) -> bool:
        """Whether ``member`` may use the host's controls: the host or a co-host."""
        return member is not None and (member == self.host or member in self.cohosts)

    def request_of(self, member: int) -> SeatRequest | None:
        return next((r for r in self.requests if r.member == member), None)

    def busted_members(self) -> list[int]:
        """Seats of members (not bots) seated with no chips: they may buy back in where rebuys are allowed."""
        return [i for i, s in enumerate(self.seats) if s is not None and s.bot is None and s.stack == 0]

    @property
    def coach_on(self) -> bool:
        """Whether the coach is on for everyone: the creator's choice, else on exactly when bots play here."""
        if self.coach is not None:
            return self.coach
        return any(s is not None and s.bot is not None for s in self.seats) or any(d.bot for d in self.departed)

    @property
    def hand(self) -> Hand | None:
        """The current (or last) hand."""
        return self.hands[-1] if self.hands else None

    @property
    def hand_running(self) -> bool:
        hand = self.hand
        return hand is not None and not hand.complete

    @property
    def started(self) -> bool:
        return bool(self.hands)

    def seat_in_hand(self, member: int | None, index: int) -> int | None:
        """The seat the member played in hand ``index`` (0-based), if they were dealt in."""
        if member is None:
            return None
        lineup = self.lineups[index]
        return lineup.index(member) if member in lineup else None

    def seat_of(self, member: int | None) -> int | None:
        """The member's seat, if seated now."""
        if member is None:
            return None
        return next((i for i, s in enumerate(self.seats) if s is not None and s.member == member), None)

    def ever_seat_of(self, member: int | None) -> int | None:
        """The seat the member has, or last had, at this table."""
        seat = self.seat_of(member)
        if seat is not None or member is None:
            return seat
        return next((d.seat for d in reversed(self.departed) if d.member == member), None)

    def stacks(self) -> tuple[int, ...]:
        """Every seat's chips now: behind in the running hand for those dealt in, else at the table."""
        hand = self.hand
        live = hand.stacks if hand is not None and not hand.complete else None
        out = []
        for i, s in enumerate(self.seats):
            if s is None:
                out.append(0)
            elif live is not None and hand.dealt_in(i):  # type: ignore[union-attr]
                out.append(live[i])
            else:
                out.append(s.stack)
        return tuple(out)

    def chips_in_play(self) -> int:
        """Chips of seated players (behind) plus the running hand's pot."""
        hand = self.hand
        pot = hand.pot - hand.awarded if hand is not None and not hand.complete else 0
        return sum(self.stacks()) + pot  # pots already awarded are in the winners' stacks

    def present(self) -> list[int]:
        """Seats whose players are here (not away) and have chips."""
        return [i for i, s in enumerate(self.seats) if s is not None and not s.away and s.stack > 0]

    def members_present(self) -> bool:
        """Whether a member (not a bot) is seated, here and holds chips: bots alone do not play on."""
        return any(s is not None and s.bot is None and not s.away and s.stack > 0 for s in self.seats)

    def members_hold_chips(self) -> bool:
        """Whether a seated member (not a bot) has chips: when none has, the match is over for the table."""
        return any(s is not None and s.bot is None and s.stack > 0 for s in self.seats)

    def members_seated(self) -> bool:
        return any(s is not None and s.bot is None for s in self.seats)

    def bot_to_act(self) -> tuple[int, SeatState] | None:
        """The seat to act and its occupant, when a bot is to act in the running hand."""
        hand = self.hand
        if hand is None or hand.complete or self.over or hand.to_act is None:
            return None
        occupant = self.seats[hand.to_act]
        return (hand.to_act, occupant) if occupant is not None and occupant.bot is not None else None

    def with_chips(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None and s.stack > 0]

    @property
    def phase(self) -> Phase:
        if self.over:
            return Phase.OVER
        if not self.started:
            return Phase.WAITING
        if self.tournament is not None:  # away players are blinded off: the bots and they play on
            return Phase.PLAYING if self.hand_running or self.may_deal_tournament() else Phase.PAUSED
        if self.hand_running or (len(self.present()) >= 2 and self.members_present() and self.paused_by is None):
            return Phase.PLAYING
        if self.waiting_for_rebuys():
            return Phase.REBUYS
        return Phase.PAUSED

    def may_deal_tournament(self) -> bool:
        """A sit-and-go deals on while two players hold chips, present or not, unless paused or on a break."""
        t = self.tournament
        return t is not None and not t.finished and len(self.with_chips()) >= 2 and self.paused_by is None \
            and not t.on_break

    def waiting_for_rebuys(self) -> bool:
        """Between hands, the match goes on only if a busted member rebuys: fewer than two hold chips, or no
        member does (bots do not play on alone), and the host allows rebuys."""
        if not self.started or self.over or self.hand_running or not self.options.rebuys \
                or not self.busted_members():
            return False
        return len(self.with_chips()) < 2 or not self.members_hold_chips()

    def with_seat(self, seat: int, value: SeatState | None) -> TableState:
        seats = list(self.seats)
        seats[seat] = value
        return replace(self, seats=tuple(seats))
