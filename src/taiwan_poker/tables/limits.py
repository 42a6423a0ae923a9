"""The one home of every limit and default of a member table (pages, API, CLI and the core read them here).

The spec's v0.1 member table is heads-up, 2,000 chips, blinds 10/20, 2–6
decks and a 45-second clock (``seeds/000``); tables go on to more seats.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.ruleset import DEFAULT_RULES, MAX_SEATS, MIN_SEATS

DECKS = range(2, 7)  # the spec's 2 to 6 decks, at member tables and the lab table (the engine plays 1 to 8)
DEFAULT_DECKS = DEFAULT_RULES.decks
SEATS = range(MIN_SEATS, MAX_SEATS + 1)  # the engine's 2 to 9; the lobby offers SEATS_OFFERED
SEATS_OFFERED = range(2, 7)
DEFAULT_SEATS = DEFAULT_RULES.seats
STACK = range(100, 1_000_001)  # starting stack
DEFAULT_STACK = DEFAULT_RULES.starting_stack
BIG_BLIND = range(2, 100_001)
DEFAULT_BLINDS = (DEFAULT_RULES.small_blind, DEFAULT_RULES.big_blind)
MIN_STACK_IN_BIG_BLINDS = 10  # a table deep enough to play: the starting stack is at least 10 big blinds
ACTION_CLOCK_SECONDS = DEFAULT_RULES.action_clock  # the spec's 45 s to act
ACTION_CLOCK = range(10, 301)  # the action clock a host may set between hands
CHOICE_SECONDS = 10  # the window to agree to run it twice, or to show or muck, before the default applies
CHAT_MAX_CHARS = 200  # a chat message, in characters
CHAT_REACTIONS = ("👍", "👏", "😂", "😮", "😢", "🔥", "🙏", "🍀")  # the emoji a player may react with
CHAT_KEPT_AFTER_MATCH_HOURS = 24  # a table's chat is removed this long after its match ended
CHAT_KEPT_IDLE_DAYS = 30  # ... or this long after its last event, when the match never ended
TIME_BANK = range(0, 301)  # seconds of time bank per player per match (0: the spec's clock alone)
DEFAULT_TIME_BANK = 60
NEXT_HAND_SECONDS = 6  # the showdown stays on the table this long before the server deals the next hand
REBUY_WAIT_SECONDS = 60  # a table that goes on only if a busted player rebuys waits this long, then the match ends
SERVER_GRACE_SECONDS = 1  # the server's own time-out comes this long after the seated members' time-out button
BOT_PAUSE_SECONDS = (0.5, 1.5)  # a bot's human-like pause before its move, at least and at most (0, 0 in tests)
AWAY_AFTER_TIMEOUTS = 2  # time-outs in a row that mark a player away
MAX_CHIPS = 10**9  # the largest amount a move may name
STRADDLE_CHOICES = ("next", "always", "off")  # a player's straddle: the next hand under the gun, every one, none
STACK_CONFIRM_TIMES = 10  # a stack set above this many starting stacks needs the host's own confirmation
BOT_LEVELS = ("beginner", "solid", "strong")  # the levels a table offers (their play lives in taiwan_poker.bots)
DEFAULT_BOT_LEVEL = "solid"
GUEST_TABLES_AT_ONCE = 1  # a guest's new solo table ends their last one


@dataclass(frozen=True, slots=True)
class Bounds:
    """The limits as plain data, for pages and the API (``GET /api/tables/limits``)."""

    decks: tuple[int, int] = (DECKS.start, DECKS.stop - 1)
    seats: tuple[int, int] = (SEATS.start, SEATS.stop - 1)
    seats_offered: tuple[int, int] = (SEATS_OFFERED.start, SEATS_OFFERED.stop - 1)
    stack: tuple[int, int] = (STACK.start, STACK.stop - 1)
    big_blind: tuple[int, int] = (BIG_BLIND.start, BIG_BLIND.stop - 1)
    default_decks: int = DEFAULT_DECKS
    default_seats: int = DEFAULT_SEATS
    default_stack: int = DEFAULT_STACK
    default_blinds: tuple[int, int] = DEFAULT_BLINDS
    min_stack_in_big_blinds: int = MIN_STACK_IN_BIG_BLINDS
    action_clock: int = ACTION_CLOCK_SECONDS
    time_bank: tuple[int, int] = (TIME_BANK.start, TIME_BANK.stop - 1)
    default_time_bank: int = DEFAULT_TIME_BANK
    action_clock_range: tuple[int, int] = (ACTION_CLOCK.start, ACTION_CLOCK.stop - 1)
    choice_seconds: int = CHOICE_SECONDS
    chat_max_chars: int = CHAT_MAX_CHARS
    chat_reactions: tuple[str, ...] = CHAT_REACTIONS

    def to_json(self) -> dict[str, object]:
        return {name: list(v) if isinstance(v, tuple) else v for name in self.__slots__ if (v := getattr(self, name))
                is not None}


BOUNDS = Bounds()
