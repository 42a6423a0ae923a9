"""The chips of one hand and its betting rounds: legal options, resolving and applying decisions.

Rules (seeds 000–004, decisions in ``docs/rules.md``):

* the minimum bet is one big blind; a full raise adds at least the largest full
  bet-or-raise increment of the street (which starts at one big blind);
* an all-in below a full raise is allowed but does not reopen betting for a
  player who already acted, unless the bet they face has risen by a full
  increment since their last action (several short all-ins add up);
* a bet or raise-to is at most what some other player still in the hand can
  match (the spec's effective-stack rule); an all-in always moves the whole
  stack and the unmatched part comes back when the round closes;
* pot-limit: at most the pot after calling; limit: fixed small/big bet, a bet
  and three raises a street.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import IllegalActionError
from .actions import Action, ActionKind, Legal
from .ruleset import Structure

FOLD, CHECK, CALL, BET, RAISE, ALLIN = (
    ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.ALLIN,
)
LIMIT_BETS_PER_STREET = 4  # a bet and three raises

# legal action lists, in the contract's order, by (facing a bet, bet/raise allowed, all-in allowed)
_OPTIONS: dict[tuple[bool, ActionKind | None, bool], tuple[ActionKind, ...]] = {
    (facing, sized, allin): (
        (FOLD, CALL) if facing else (CHECK,)) + ((sized,) if sized else ()) + ((ALLIN,) if allin else ())
    for facing in (False, True) for sized in (None, BET, RAISE) for allin in (False, True)
}


class Betting:
    """Mutable chip state of one hand (owned by :class:`~taiwan_poker.rules.hand.Hand`, changed only by its events).

    ``stacks`` are chips behind, ``bets`` this street's totals, ``contrib`` the
    whole hand's.  Seats not dealt in count as folded.
    """

    __slots__ = (
        "acted", "active", "bets", "big_blind", "contrib", "current_bet", "faced", "folded", "live", "max_inc", "n",
        "raises", "stacks", "structure", "unit",
    )

    def __init__(self, stacks: Sequence[int], structure: Structure, big_blind: int) -> None:
        n = len(stacks)
        self.n = n
        self.structure = structure
        self.big_blind = big_blind
        self.unit = big_blind
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.contrib = [0] * n
        self.folded = [s <= 0 for s in stacks]  # seats without chips are not dealt in
        self.live = n - sum(self.folded)  # seats not folded
        self.active = self.live  # seats not folded with chips behind (can still act)
        self.acted = [False] * n
        self.faced = [0] * n
        self.current_bet = 0
        self.max_inc = big_blind
        self.raises = 0

    # -- transitions (called only when an event is applied) -------------------------------------------

    def post_ante(self, seat: int, amount: int) -> None:
        """Dead money: in the pot (``contrib``), not in the street's bets."""
        self.stacks[seat] -= amount
        if amount and self.stacks[seat] == 0:
            self.active -= 1
        self.contrib[seat] += amount

    def post_blind(self, seat: int, amount: int, big: bool) -> None:
        self.stacks[seat] -= amount
        if amount and self.stacks[seat] == 0:  # (a blind of 0: all in on the ante already)
            self.active -= 1
        self.bets[seat] += amount
        self.contrib[seat] += amount
        if self.bets[seat] > self.current_bet:
            self.current_bet = self.bets[seat]
        if big:
            self.raises = 1  # the big blind is the street's first bet (limit cap)

    def new_street(self, unit: int) -> None:
        n = self.n
        self.bets = [0] * n
        self.acted = [False] * n
        self.faced = [0] * n
        self.current_bet = 0
        self.unit = unit
        self.max_inc = unit
        self.raises = 0

    def apply(self, seat: int, kind: ActionKind, amount: int, to: int) -> None:
        """Do a decision already checked by :meth:`resolve`."""
        self.acted[seat] = True
        if kind is FOLD:
            self.folded[seat] = True
            self.live -= 1
            self.active -= 1
            return
        self.stacks[seat] -= amount
        if amount and self.stacks[seat] == 0:
            self.active -= 1
        self.bets[seat] = to
        self.contrib[seat] += amount
        cb = self.current_bet
        if to > cb:
            inc = to - cb
            if inc >= self.max_inc:
                self.max_inc = inc if self.structure is not Structure.LIMIT else self.unit
                self.raises += 1
            self.current_bet = to
        self.faced[seat] = self.current_bet

    def fold_out_of_turn(self, seat: int) -> None:
        """A player who leaves folds whenever it happens; the round goes on without them."""
        self.folded[seat] = True
        self.live -= 1
        if self.stacks[seat] > 0:
            self.active -= 1

    def fork(self) -> Betting:
        """An independent copy (the lists copied), for trying a decision without changing this one."""
        other = Betting((), self.structure, self.big_blind)  # through __init__, as a compiled (mypyc) class must be
        other.acted = self.acted[:]
        other.active = self.active
        other.bets = self.bets[:]
        other.contrib = self.contrib[:]
        other.current_bet = self.current_bet
        other.faced = self.faced[:]
        other.folded = self.folded[:]
        other.live = self.live
        other.max_inc = self.max_inc
        other.n = self.n
        other.raises = self.raises
        other.stacks = self.stacks[:]
        other.unit = self.unit
        return other

    def give_back(self, seat: int, amount: int) -> None:
        if self.stacks[seat] == 0 and amount > 0 and not self.folded[seat]:
            self.active += 1
        self.stacks[seat] += amount
        self.bets[seat] -= amount
        self.contrib[seat] -= amount

    # -- queries ---------------------------------------------------------------------------------------

    def pot(self) -> int:
        """Every chip put in this hand, this street's bets included."""
        return sum(self.contrib)

    def live_seats(self) -> list[int]:
        """Seats not folded."""
        return [s for s in range(self.n) if not self.folded[s]]

    def next_to_act(self, after: int) -> int | None:
        """The first seat clockwise after ``after`` that must act, or None when the round is closed."""
        if self.live <= 1:
            return None
        folded, stacks, bets, acted = self.folded, self.stacks, self.bets, self.acted
        n = self.n
        can_act = self.active
        cb = self.current_bet
        for i in range(1, n + 1):
            s = (after + i) % n
            if folded[s] or stacks[s] == 0:
                continue
            if bets[s] < cb or (not acted[s] and can_act >= 2):
                return s
        return None

    def legal(self, seat: int) -> Legal:
        """The options of ``seat`` (assumed to be the seat to act)."""
        stacks, bets = self.stacks, self.bets
        stack = stacks[seat]
        bet = bets[seat]
        cb = self.current_bet
        to_call = cb - bet
        if to_call < 0:
            to_call = 0
        call_amount = 0
        if to_call > 0:
            call_amount = to_call if to_call < stack else stack
        allin_to = bet + stack
        structure = self.structure
        rights = not self.acted[seat] or cb - self.faced[seat] >= self.max_inc
        if structure is Structure.LIMIT and self.raises >= LIMIT_BETS_PER_STREET:
            rights = False
        min_to = max_to = 0
        sized: ActionKind | None = None
        allin_ok = stack > 0 and (stack <= to_call or rights)
        if rights and stack > to_call:
            cap = 0
            folded = self.folded
            for o in range(self.n):
                if o != seat and not folded[o]:
                    t = bets[o] + stacks[o]
                    if t > cap:
                        cap = t
            lo = cb + self.max_inc
            if structure is Structure.NO_LIMIT:
                top = allin_to
            elif structure is Structure.POT_LIMIT:
                top = cb + self.pot() + to_call
                if allin_to > top:
                    allin_ok = False
            else:
                top = lo
                if allin_to > top:
                    allin_ok = False
            hi = allin_to if allin_to < top else top
            if cap < hi:
                hi = cap
            if lo <= hi:
                min_to, max_to = lo, hi
                sized = BET if cb == 0 else RAISE
        return Legal(seat, _OPTIONS[to_call > 0, sized, allin_ok], call_amount, min_to, max_to, allin_to)

    def resolve(self, seat: int, action: Action, legal: Legal) -> tuple[ActionKind, int, int, bool]:
        """Check ``action`` against ``legal`` and work out ``(kind, chips added, street total, all-in)``."""
        kind = action.kind
        if kind is BET or kind is RAISE or kind not in legal.actions:
            legal.check(action)  # raises unless a sized action within range (or naming the whole stack)
        bet = self.bets[seat]
        stack = self.stacks[seat]
        if kind is FOLD or kind is CHECK:
            return kind, 0, bet, False
        if kind is CALL:
            add = legal.call_amount
        elif kind is ALLIN:
            add = stack
        else:
            to = action.to
            if to is None:  # pragma: no cover - Legal.check refuses this
                raise IllegalActionError(f"{kind.value} needs an amount", legal=legal,
                                         reason=f"{kind.value}_needs_amount")
            add = to - bet
        return kind, add, bet + add, add == stack
