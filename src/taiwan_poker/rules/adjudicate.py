"""The contract's adjudication (``taiwan-poker adjudicate``): one request object in, one answer dict out.

A complete hand gives final stacks, returned chips, pots with their eligible
players and winners, and the hands shown; actions that stop early give what is
legal now; an illegal action or bad input gives an error with its code, the
action's index and the legal options.  Nothing is ever partially applied.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..cards import (
    CARDS_PER_DECK,
    Card,
    CardSpec,
    check_decks,
    min_decks_for,
    parse_card,
    physical_cards,
    resolve_cards,
)
from ..errors import BadActionError, BadStacksError, IllegalActionError, TaiwanPokerError
from ..evaluate import DEFAULT_RANKING, Ranking
from .actions import Action, parse_action
from .hand import Hand
from .pots import clockwise_after
from .ruleset import MAX_SEATS, MIN_SEATS, RuleSet, Structure

_KNOWN_KEYS = frozenset(
    {"decks", "structure", "blinds", "stacks", "button", "hole_cards", "board", "actions", "ranking",
     "straddle", "run_twice", "board2"}  # the last three: optional extensions (issue 23), absent = as before
)


_STRUCTURES = frozenset(s.value for s in Structure)
_RANKINGS = frozenset(r.value for r in Ranking)


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(code: str, message: str) -> TaiwanPokerError:
    return TaiwanPokerError(message, code=code)


def _read_stacks(obj: dict[str, Any]) -> list[int]:
    stacks = obj.get("stacks")
    if not isinstance(stacks, list) or not MIN_SEATS <= len(stacks) <= MAX_SEATS:
        raise BadStacksError(f'"stacks" must list {MIN_SEATS} to {MAX_SEATS} seats\' chip counts')
    for s in stacks:
        if not _int(s) or s <= 0:
            raise BadStacksError(f"every stack must be a positive whole number of chips, not {s!r}")
    return stacks


@lru_cache(maxsize=256)
def _rules(decks: int, seats: int, small: int, big: int, structure: str, ranking: str, straddle: bool = False,
           run_twice: bool = False) -> RuleSet:
    return RuleSet(
        decks=decks, seats=seats, starting_stack=big, small_blind=small, big_blind=big,
        structure=Structure(structure), ranking=Ranking(ranking), straddle=straddle, run_twice=run_twice,
    )


@lru_cache(maxsize=4096)
def _action(text: str) -> Action:
    return parse_action(text)


@lru_cache(maxsize=4096)
def _spec(text: str) -> CardSpec:
    return parse_card(text)


def _spec_of(text: object) -> CardSpec:
    return _spec(text) if isinstance(text, str) else parse_card(text)  # type: ignore[arg-type]


def _resolve(specs: list[CardSpec], decks: int) -> list[Card]:
    """Like :func:`resolve_cards`, with a fast path when no card names its deck (lowest free copy first)."""
    if any(s.deck is not None for s in specs):
        return resolve_cards(specs, decks)
    physical = physical_cards(check_decks(decks))
    seen: dict[int, int] = {}
    out: list[Card] = []
    for spec in specs:
        face = spec.face
        copy = seen.get(face, 0) + 1
        if copy > decks:
            return resolve_cards(specs, decks)  # raises the precise too_many_copies error
        seen[face] = copy
        out.append(physical[(copy - 1) * CARDS_PER_DECK + face])
    return out


def _read_rules(obj: dict[str, Any], seats: int, decks: int) -> RuleSet:
    blinds = obj.get("blinds", [10, 20])
    if not isinstance(blinds, list) or len(blinds) != 2 or not all(_int(b) and b > 0 for b in blinds):
        raise _bad("bad_blinds", '"blinds" must be [small, big], two positive whole numbers')
    if blinds[0] > blinds[1]:
        raise _bad("bad_blinds", f"the small blind {blinds[0]} is larger than the big blind {blinds[1]}")
    structure = obj.get("structure", Structure.NO_LIMIT.value)
    if not isinstance(structure, str) or structure not in _STRUCTURES:
        raise _bad("bad_structure", f"unknown structure {structure!r}; one of no-limit, pot-limit, limit")
    ranking = obj.get("ranking", DEFAULT_RANKING.value)
    if not isinstance(ranking, str) or ranking not in _RANKINGS:
        raise _bad("bad_ranking", f"unknown ranking {ranking!r}")
    options = []
    for name in ("straddle", "run_twice"):
        value = obj.get(name, False)
        if not isinstance(value, bool):
            raise _bad("bad_json", f'"{name}" must be true or false')
        options.append(value)
    if options[0] and structure == Structure.LIMIT.value:
        raise _bad("bad_structure", "a straddle is played in no-limit and pot-limit only")
    return _rules(decks, seats, blinds[0], blinds[1], structure, ranking, *options)


def _read_cards(obj: dict[str, Any], seats: int) -> tuple[int, list[list[Card]], list[Card]]:
    """The decks, each seat's hole cards and the board, then the second run's own cards (``board2``)."""
    holes = obj.get("hole_cards", [])
    board = obj.get("board", [])
    board2 = obj.get("board2", [])
    if not isinstance(holes, list) or len(holes) > seats or not all(isinstance(h, list) and len(h) <= 2 for h in holes):
        raise _bad("bad_card", '"hole_cards" must list, per seat, up to two cards')
    if not isinstance(board, list) or len(board) > 5:
        raise _bad("bad_card", '"board" must list up to five cards')
    if not isinstance(board2, list) or len(board2) > 5:
        raise _bad("bad_card", '"board2" must list the second run\'s own cards: up to five')
    specs = [_spec_of(c) for h in holes for c in h] + [_spec_of(c) for c in (*board, *board2)]
    decks_raw = obj.get("decks")
    decks = min_decks_for(specs) if decks_raw is None else check_decks(decks_raw)
    physical = _resolve(specs, decks)
    out: list[list[Card]] = []
    i = 0
    for h in holes:
        out.append(physical[i:i + len(h)])
        i += len(h)
    return decks, out, physical[i:]


def second_run(board2: list[Card], split: int) -> list[Card | None]:
    """The second run's part of the shoe (after the first run's river): a burn and the cards of each street
    still to deal after the first ``split`` board cards (``None`` where not given)."""
    cards: list[Card | None] = [*board2, None, None, None, None, None]
    out: list[Card | None] = []
    i = 0
    for count in {0: (3, 1, 1), 3: (1, 1), 4: (1,)}[split]:
        out += [None, *cards[i:i + count]]
        i += count
    return out


def deck_order(button: int, seats: int, holes: list[list[Card]], board: list[Card]) -> list[Card | None]:
    """Known cards in dealing order (burns unknown): burns, hole cards in two passes, then burn + board per street."""
    order = clockwise_after(button, seats)
    firsts: list[Card | None] = []
    seconds: list[Card | None] = []
    for seat in order:
        h = holes[seat] if seat < len(holes) else []
        firsts.append(h[0] if h else None)
        seconds.append(h[1] if len(h) > 1 else None)
    b: list[Card | None] = [*board, None, None, None, None, None]
    return [*([None] * len(order)), *firsts, *seconds, None, b[0], b[1], b[2], None, b[3], None, b[4]]


def adjudicate(obj: Any) -> dict[str, Any]:
    """Judge one request (already parsed JSON).  Raises :class:`TaiwanPokerError` for anything wrong."""
    if not isinstance(obj, dict):
        raise _bad("bad_json", "a request must be a JSON object")
    unknown = set(obj) - _KNOWN_KEYS
    if unknown:
        raise _bad("bad_json", f"unknown field(s): {', '.join(sorted(unknown))}")
    stacks = _read_stacks(obj)
    seats = len(stacks)
    button = obj.get("button", 0)
    if not _int(button) or not 0 <= button < seats:
        raise _bad("bad_button", f'"button" must be a seat from 0 to {seats - 1}, not {button!r}')
    if "board2" in obj and obj.get("run_twice") is not True:
        raise _bad("bad_json", '"board2" is the second run\'s cards: it needs "run_twice": true')
    decks, holes, board = _read_cards(obj, seats)
    given2 = len(obj.get("board2", []))
    board, board2 = board[:len(board) - given2], board[len(board) - given2:]
    rules = _read_rules(obj, seats, decks)
    raw_actions = obj.get("actions", [])
    if not isinstance(raw_actions, list):
        raise BadActionError('"actions" must be a list of action strings')
    deck = deck_order(button, seats, holes, board)
    if rules.run_twice:  # where the runs split decides where the second run's cards lie in the shoe
        split = _play(rules, stacks, button, deck, raw_actions, until_runs=True)
        if split.pending is not None:
            need = 5 - len(split.board)
            if board2 and len(board2) != need:
                raise _bad("bad_card", f'"board2" must list the {need} cards the second run deals')
            deck = deck + second_run(board2, len(split.board))
    return _answer(_play(rules, stacks, button, deck, raw_actions), obj)


def _play(rules: RuleSet, stacks: list[int], button: int, deck: list[Card | None], raw_actions: list[Any],
          until_runs: bool = False) -> Hand:
    """The hand after the actions; where it may be run twice every player agrees (``until_runs``: stop at the
    offer instead, which tells where the second run starts)."""
    hand = Hand.start(rules, stacks, button, cards=deck)
    for index, raw in enumerate([None, *raw_actions]):
        if hand.pending is not None:
            if until_runs:
                return hand
            for seat in hand.pending.seats:
                hand.answer_runs(seat, True)
        if index == 0:
            continue
        index -= 1
        try:
            action = _action(raw) if isinstance(raw, str) else parse_action(raw)
        except BadActionError as exc:
            exc.params["index"] = index
            raise
        if hand.complete:
            raise BadActionError(f"action {index} ({raw!r}) comes after the hand is over", index=index)
        try:
            hand.act(action)
        except TaiwanPokerError as exc:
            exc.params["index"] = index
            raise
    if hand.pending is not None and not until_runs:
        for seat in hand.pending.seats:
            hand.answer_runs(seat, True)
    return hand


def _answer(hand: Hand, obj: dict[str, Any]) -> dict[str, Any]:
    if not hand.complete:
        legal = hand.legal()
        return {
            "ok": True, "complete": False, "street": hand.street.value, "to_act": hand.to_act,
            "legal": legal.to_json(), "pot": hand.pot,
        }
    returned: dict[int, int] = {}
    for ev in hand.returned:
        returned[ev.seat] = returned.get(ev.seat, 0) + ev.amount
    out: dict[str, Any] = {
        "ok": True, "complete": True,
        "final_stacks": list(hand.stacks),
        "returned": [{"seat": s, "amount": a} for s, a in returned.items()],
        "pots": [{"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)} for p in hand.pots],
        "showdown": [
            {"seat": e.seat, "category": e.category.value, "best": [c.face_str for c in e.best]}
            for e in sorted(hand.shown, key=lambda e: e.seat)
        ],
    }
    if obj.get("run_twice") is True:  # the extension's outputs, only for requests that use it
        out["runs"] = hand.runs or 1
        if hand.runs == 2:
            for pot, run in zip(out["pots"], hand.pot_runs, strict=True):
                pot["run"] = run
            out["board2"] = [c.face_str for c in hand.board2]
            out["showdown2"] = [{"seat": e.seat, "category": e.category.value, "best": [c.face_str for c in e.best]}
                                for e in sorted(hand.shown2, key=lambda e: e.seat)]
    return out


def error_answer(exc: TaiwanPokerError) -> dict[str, Any]:
    """The contract's error shape: code, index (for an action), message, legal options (for an illegal action)."""
    err: dict[str, Any] = {"code": exc.code}
    if "index" in exc.params:
        err["index"] = exc.params["index"]
    err["message"] = exc.message
    if isinstance(exc, IllegalActionError) and exc.legal is not None:
        err["legal"] = exc.legal.to_json()
    return {"ok": False, "error": err}


def adjudicate_safely(obj: Any) -> dict[str, Any]:
    """:func:`adjudicate`, with any rule error turned into the error answer."""
    try:
        return adjudicate(obj)
    except TaiwanPokerError as exc:
        return error_answer(exc)
    except (TypeError, ValueError, KeyError, IndexError) as exc:  # pragma: no cover - a bug, but keep serving
        return {"ok": False, "error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"}}
