"""The rule set of a table: decks, seats, stacks, blinds, betting structure, burns, ranking, clock.

Rules are data.  Defaults are the spec's v0.1 member table (``seeds/000``):
two decks, 2,000 chips, blinds 10/20, no-limit, one private burn per player a
hand, five of a kind on top, 45 s to act.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from ..cards import CARDS_PER_DECK, MAX_DECKS, MIN_DECKS
from ..errors import RuleSetError
from ..evaluate import DEFAULT_RANKING, Ranking

MIN_SEATS = 2
MAX_SEATS = 9
BOARD_CARDS = 5
DEALER_BURNS = 3


class Structure(StrEnum):
    """Betting structure."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    LIMIT = "limit"


class BurnSchedule(StrEnum):
    """When each player gets a private burn: once before the hole cards, or before every street too."""

    ONCE_PER_HAND = "once-per-hand"
    EVERY_STREET = "every-street"


def cards_needed(players: int, burns: BurnSchedule = BurnSchedule.ONCE_PER_HAND, runs: int = 1) -> int:
    """Most cards a hand of ``players`` can use: 3n+8 with one burn a hand, 6n+8 with a burn every street.

    A hand that may be run twice (``runs`` 2) can deal a second flop, turn and river with their dealer burns
    (and, every street, each player's private burns) from the same shoe: 8 (or 3n+8) more."""
    private = players if burns is BurnSchedule.ONCE_PER_HAND else 4 * players
    once = private + 2 * players + BOARD_CARDS + DEALER_BURNS
    if runs < 2:
        return once
    again = BOARD_CARDS + DEALER_BURNS + (0 if burns is BurnSchedule.ONCE_PER_HAND else 3 * players)
    return once + (runs - 1) * again


_OPTIONS = ("straddle", "run_twice", "show_or_muck")  # on/off rules, written only when on


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True, slots=True)
class RuleSet:
    """What a table plays.  Invalid combinations raise :class:`RuleSetError` (code ``bad_rules``)."""

    decks: int = 2
    seats: int = 2
    starting_stack: int = 2000
    small_blind: int = 10
    big_blind: int = 20
    structure: Structure = Structure.NO_LIMIT
    burns: BurnSchedule = BurnSchedule.ONCE_PER_HAND
    ranking: Ranking = DEFAULT_RANKING
    action_clock: int = 45
    time_bank: int = 0  # seconds each player may draw on, per match, once the action clock has run out
    straddle: bool = False  # under the gun posts a live straddle of 2 big blinds (3 or more players, not limit)
    run_twice: bool = False  # an all-in before the river may be run twice when every player still in agrees
    show_or_muck: bool = False  # at showdown, hands that cannot win may be mucked (else every hand is shown)
    ante: int = 0  # every dealt-in player's ante before the blinds (a sit-and-go's, from its level on)

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int) or not MIN_DECKS <= self.decks <= MAX_DECKS:
            raise RuleSetError(f"decks must be {MIN_DECKS} to {MAX_DECKS}, not {self.decks!r}", decks=self.decks)
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise RuleSetError(f"seats must be {MIN_SEATS} to {MAX_SEATS}, not {self.seats!r}", seats=self.seats)
        for name in ("starting_stack", "small_blind", "big_blind", "action_clock"):
            if not _positive_int(getattr(self, name)):
                raise RuleSetError(f"{name} must be a positive integer, not {getattr(self, name)!r}", field=name)
        if isinstance(self.time_bank, bool) or not isinstance(self.time_bank, int) or self.time_bank < 0:
            raise RuleSetError(f"time_bank must be a whole number of seconds, not {self.time_bank!r}",
                               field="time_bank")
        if isinstance(self.ante, bool) or not isinstance(self.ante, int) or not 0 <= self.ante <= self.big_blind:
            raise RuleSetError(f"ante must be a whole number from 0 to the big blind, not {self.ante!r}",
                               field="ante")
        for name in _OPTIONS:
            if not isinstance(getattr(self, name), bool):
                raise RuleSetError(f"{name} must be true or false, not {getattr(self, name)!r}", field=name)
        if self.small_blind > self.big_blind:
            raise RuleSetError(
                f"small blind {self.small_blind} is larger than the big blind {self.big_blind}",
                small_blind=self.small_blind, big_blind=self.big_blind,
            )
        for name, enum in (("structure", Structure), ("burns", BurnSchedule), ("ranking", Ranking)):
            value = getattr(self, name)
            if not isinstance(value, enum):
                try:
                    object.__setattr__(self, name, enum(value))
                except ValueError:
                    choices = ", ".join(e.value for e in enum)
                    raise RuleSetError(f"unknown {name} {value!r}; one of {choices}", field=name) from None
        if self.straddle and self.structure is Structure.LIMIT:
            raise RuleSetError("a straddle is played in no-limit and pot-limit only", field="straddle")
        need = cards_needed(self.seats, self.burns, 2 if self.run_twice else 1)
        have = self.decks * CARDS_PER_DECK
        if need > have:
            raise RuleSetError(
                f"{self.seats} seats with burns {self.burns.value} need up to {need} cards "
                f"but {self.decks} deck(s) hold only {have}",
                needed=need, available=have,
            )

    @property
    def cards_per_hand(self) -> int:
        """Most cards one full table's hand can use (3n+8 once-per-hand; more when it may be run twice)."""
        return cards_needed(self.seats, self.burns, 2 if self.run_twice else 1)

    def limit_bet(self, street_index: int) -> int:
        """Limit structure: the small bet (big blind) preflop and on the flop, the big bet (2 BB) after."""
        return self.big_blind if street_index < 2 else 2 * self.big_blind

    def to_json(self) -> dict[str, Any]:
        """A JSON object that :meth:`from_json` turns back into an equal rule set (the options added by issue 23
        only when on, so a rule set without them is written exactly as before)."""
        return {k: (v.value if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()
                if not (k in _OPTIONS and v is False) and not (k == "ante" and v == 0)}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> RuleSet:
        """Rebuild from :meth:`to_json` (unknown keys are an error)."""
        if not isinstance(obj, dict):
            raise RuleSetError("a rule set must be a JSON object")
        fields = set(cls.__dataclass_fields__)
        unknown = set(obj) - fields
        if unknown:
            raise RuleSetError(f"unknown rule set field(s): {', '.join(sorted(unknown))}")
        return cls(**obj)


DEFAULT_RULES = RuleSet()
