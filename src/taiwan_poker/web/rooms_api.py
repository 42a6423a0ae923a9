"""Member tables over HTTP: open a table, change its settings, seat or remove bots, sit, act, leave, rematch; the
host's controls, rebuys, the choices at an all-in and a showdown, and the table's chat (issue 23).

Thin: every handler checks who is asking and calls :class:`~taiwan_poker.rooms.service.RoomService`; what
goes back to a browser is only ever that member's view of the room.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..rooms.loader import RoomError
from ..rooms.service import ActResult
from ..store.models import Member
from ..tables.ledger import ledger_csv
from ..tables.limits import (
    BOT_LEVELS,
    BOUNDS,
    DEFAULT_BLINDS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_DECKS,
    DEFAULT_SEATS,
    DEFAULT_STACK,
    DEFAULT_TIME_BANK,
    MAX_CHIPS,
    STACK_CONFIRM_TIMES,
    STRADDLE_CHOICES,
)
from ..tables.views import table_ledger
from ..tables.views import table_log as log_of
from .error_model import ERROR_RESPONSES
from .members_api import Csrf, MemberDep, OptionalMember, rate_limit, services
from .metrics import observe_action
from .numbers import Id, IdPath, IdQuery, Seat, SeatPath, setting

router = APIRouter(responses=ERROR_RESPONSES)
Blind = Annotated[StrictInt, setting((1, BOUNDS.big_blind[1]))]


class NewRoom(BaseModel):
    """A table's settings; every field is optional (the defaults are the spec's heads-up table)."""

    model_config = ConfigDict(extra="forbid")
    decks: StrictInt = setting(BOUNDS.decks, DEFAULT_DECKS,
                               description=f"decks in the shoe, {BOUNDS.decks[0]}–{BOUNDS.decks[1]}")
    seats: StrictInt = setting(BOUNDS.seats, DEFAULT_SEATS, description=f"seats, {BOUNDS.seats[0]}–{BOUNDS.seats[1]}")
    stack: StrictInt = setting(BOUNDS.stack, DEFAULT_STACK, description="starting stack (at least 10 big blinds)")
    blinds: list[Blind] = Field(list(DEFAULT_BLINDS), description=(
        f"[small blind, big blind]: the big blind {BOUNDS.big_blind[0]}–{BOUNDS.big_blind[1]}, the small blind 1 "
        "up to the big blind"), examples=[[10, 20]], json_schema_extra={"minItems": 2, "maxItems": 2})
    time_bank: StrictInt = setting(BOUNDS.time_bank, DEFAULT_TIME_BANK, description=(
        f"seconds of time bank each player may draw on per match once the {BOUNDS.action_clock}-s action clock "
        f"has run out, {BOUNDS.time_bank[0]}–{BOUNDS.time_bank[1]} (0: the clock alone)"))
    straddle: StrictBool | None = Field(None, description=(
        "under the gun posts a live straddle of 2 big blinds (3+ players); omitted: off (a change of settings: "
        "as it was)"))
    run_twice: StrictBool | None = Field(None, description="an all-in before the river may be run twice if all agree")
    show_or_muck: StrictBool | None = Field(None, description="at showdown, hands that cannot win may be mucked")

    def settings(self) -> dict[str, Any]:
        return {"decks": self.decks, "seats": self.seats, "stack": self.stack, "blinds": self.blinds,
                "time_bank": self.time_bank, "options": {"straddle": self.straddle, "run_twice": self.run_twice,
                                                         "show_or_muck": self.show_or_muck}}


class NewTable(NewRoom):
    """A new table's settings, and bots to seat beside its creator at once (a full table deals straight away)."""

    bots: StrictInt = setting((0, BOUNDS.seats[1] - 1), 0,
                              description="bots to seat at once, 0 to seats − 1 (fills the table: a solo game)")
    level: StrictStr | None = Field(None, description=f"the bots' level: {', '.join(BOT_LEVELS)} (default "
                                                      f"{DEFAULT_BOT_LEVEL})")
    rebuys: StrictBool = Field(False, description="rebuys and top-ups up to the starting stack, between hands")
    approval: StrictBool = Field(False, description="the host approves who sits (ask to sit)")
    spectator_chat: StrictBool = Field(False, description="spectators may read and write the table's chat")
    reveal: StrictBool = Field(True, description="reveal the server's seeds when the match ends, so every shoe can be "
                                                 "recomputed (false: never; docs/fairness.md)")
    tournament: dict[str, Any] | None = Field(
        None, description="a sit-and-go (docs/tournaments.md): {\"preset\": \"turbo|regular|deep\"} and optionally "
                          "minutes, ante_from, break_every, break_minutes, levels, payouts, buy_in; omitted: a cash "
                          "match", examples=[{"preset": "turbo"}])

    def settings(self) -> dict[str, Any]:
        out = {**super().settings(), "bots": self.bots, "level": self.level, "tournament": self.tournament}
        out["options"] = {**out["options"], "rebuys": self.rebuys, "approval": self.approval,
                          "spectator_chat": self.spectator_chat, "reveal": self.reveal}
        if self.tournament is not None and "stack" not in self.model_fields_set:
            out["stack"] = None  # the preset's
        return out


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: StrictStr | None = Field(None, description=f"{', '.join(BOT_LEVELS)}; omitted: {DEFAULT_BOT_LEVEL}",
                                    json_schema_extra={"enum": [*BOT_LEVELS, None]})


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Id = Field(description="the room version the action was made against")
    key: StrictStr | None = Field(None, description="idempotency key (e.g. a UUID); a repeat changes nothing",
                                  json_schema_extra={"minLength": 1, "maxLength": 64})
    action: dict[str, Any] = Field(description='{"kind": "fold|check|call|bet|raise|allin", "to": street total}',
                                   examples=[{"kind": "raise", "to": 120}], json_schema_extra={"properties": {
                                       "kind": {"enum": ["fold", "check", "call", "bet", "raise", "allin"]},
                                       "to": {"type": "integer", "minimum": 0, "maximum": MAX_CHIPS}}})


class VersionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: Id


def room_url(request: Request, code: str) -> str:
    return str(request.base_url).rstrip("/") + f"/rooms/{code}"


def act_json(result: ActResult) -> dict[str, Any]:
    return {"applied": result.applied, "reason": result.reason, "state": result.state}


@router.get("/api/rooms", tags=["rooms"])
def lobby(request: Request, member: MemberDep) -> dict[str, Any]:
    """The member's rooms, newest first."""
    return {"rooms": services(request)[2].reads.lobby(member)}


@router.post("/api/rooms", tags=["rooms"], dependencies=[Csrf, rate_limit("room_create")])
def create_room(request: Request, member: MemberDep, body: NewTable | None = None) -> dict[str, str]:
    """Open a table (by default heads-up, 2 decks, 2,000 chips, blinds 10/20) and take seat 0.

    A guest opens solo tables only (bots in every other seat); their previous table ends.
    """
    code = services(request)[2].create_room(member, **(body or NewTable.model_validate({})).settings())
    return {"code": code, "url": room_url(request, code)}


@router.get("/api/tables/limits", tags=["rooms"])
def table_limits() -> dict[str, Any]:
    """The ranges and defaults of a table's settings (decks, seats, stack, blinds, clock)."""
    return BOUNDS.to_json()


@router.post("/api/rooms/{code}/settings", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def configure_room(request: Request, code: str, body: NewRoom, member: MemberDep) -> dict[str, Any]:
    """The creator changes the table's settings until the first hand is dealt."""
    return services(request)[2].configure(code, member, **body.settings())


@router.post("/api/rooms/{code}/bots", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def add_bot(request: Request, code: str, member: MemberDep, body: BotIn | None = None) -> dict[str, Any]:
    """The creator seats a bot in the next empty seat (before the first hand or between hands)."""
    return _request(request, code, member, "add_bot", {"level": (body or BotIn.model_validate({})).level})


@router.delete("/api/rooms/{code}/bots/{seat}", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def remove_bot(request: Request, code: str, seat: SeatPath, member: MemberDep) -> dict[str, Any]:
    """The creator takes a bot off the table between hands."""
    return _request(request, code, member, "remove_bot", {"seat": seat})


class CoachIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    on: StrictBool = Field(description="the coach on (true) or off (false) for everyone at the table")


@router.get("/api/rooms/{code}/coach", tags=["rooms"])
def coach(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """The coach's advice for your turn, from your seat's view only (``advice`` is null when it is not your turn)."""
    return services(request)[2].reads.coach(code, member)


@router.post("/api/rooms/{code}/coach", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def set_coach(request: Request, code: str, body: CoachIn, member: MemberDep) -> dict[str, Any]:
    """The creator turns the coach on or off for everyone at the table (between hands)."""
    return _request(request, code, member, "coach", {"on": body.on})


@router.post("/api/rooms/{code}/away", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def away(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Step away: your hands are checked or folded at once until you are back."""
    return _request(request, code, member, "away", {})


@router.post("/api/rooms/{code}/back", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def back(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Come back to the table after being away."""
    return _request(request, code, member, "back", {})


@router.get("/api/rooms/{code}/results", tags=["rooms"])
def results(request: Request, code: str) -> dict[str, Any]:
    """A sit-and-go's results, public and shareable: places, payouts, hands played, the level reached."""
    return services(request)[2].reads.results(code)


@router.get("/api/tournaments", tags=["rooms"])
def my_tournaments(request: Request, member: MemberDep) -> dict[str, Any]:
    """The member's sit-and-gos, newest first, with their place and payout."""
    return {"tournaments": services(request)[2].reads.tournaments(member)}


@router.get("/api/rooms/{code}", tags=["rooms"])
def room_state(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """The room as the caller may see it (a spectator: public information only)."""
    return services(request)[2].state(code, member)


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Seat | None = Field(None, description="the empty seat to take (0-based); omitted: the first free one")


@router.post("/api/rooms/{code}/join", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def join_room(request: Request, code: str, member: MemberDep, body: JoinIn | None = None) -> dict[str, Any]:
    """Take a seat (``seat``: any empty one), or ask to sit where the host approves who sits."""
    return services(request)[2].join(code, member, (body or JoinIn.model_validate({})).seat)


@router.post("/api/rooms/{code}/leave", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def leave_room(request: Request, code: str, member: MemberDep) -> dict[str, bool]:
    """Leave the seat for good (a match in progress is forfeited)."""
    services(request)[2].leave(code, member)
    return {"ok": True}


@router.post("/api/rooms/{code}/rematch", tags=["rooms"], dependencies=[Csrf, rate_limit("room_create")])
def rematch(request: Request, code: str, member: MemberDep) -> dict[str, str]:
    new = services(request)[2].rematch(code, member)
    return {"code": new, "url": room_url(request, new)}


@router.post("/api/rooms/{code}/actions", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def act(request: Request, code: str, body: ActionIn, member: MemberDep) -> dict[str, Any]:
    """Act against a version; a stale or repeated request changes nothing and returns the current state."""
    with observe_action(request.app, "action"):
        return act_json(services(request)[2].act(code, member, body.action, body.version, body.key))


@router.post("/api/rooms/{code}/timeout", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def timeout(request: Request, code: str, body: VersionIn, member: MemberDep) -> dict[str, Any]:
    """After the action clock runs out, a seated member applies the time-out: check if possible, else fold."""
    with observe_action(request.app, "timeout"):
        return act_json(services(request)[2].timeout(code, member, body.version))


@router.post("/api/rooms/{code}/next", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def next_hand(request: Request, code: str, body: VersionIn, member: MemberDep) -> dict[str, Any]:
    """Deal the next hand once the last one is over."""
    with observe_action(request.app, "next"):
        return act_json(services(request)[2].next_hand(code, member, body.version))


# --- the host's table (issue 23) ----------------------------------------------------------------------------------


def _request(request: Request, code: str, member: Member, kind: str, body: dict[str, Any]) -> dict[str, Any]:
    out = services(request)[2].request(code, member, kind, body)
    assert isinstance(out, dict)
    return out


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Seat


class SeatOnIn(SeatIn):
    on: StrictBool = Field(True, description="true: name (silence, mute); false: undo it")


class StackIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    stack: StrictInt = Field(description="the seat's new stack (between hands)", ge=1, le=MAX_CHIPS)
    confirm: StrictBool = Field(False, description=(
        f"the host confirms a stack over {STACK_CONFIRM_TIMES} starting stacks (a co-host cannot set one, nor "
        "change their own stack or the host's)"))


class StakesIn(BaseModel):
    """What changes between hands; fields left out stay as they are."""

    model_config = ConfigDict(extra="forbid")
    blinds: list[Blind] | None = Field(None, examples=[[25, 50]])
    action_clock: StrictInt | None = setting(BOUNDS.action_clock_range, None, description=(
        f"seconds to act, {BOUNDS.action_clock_range[0]}–{BOUNDS.action_clock_range[1]}"))
    time_bank: StrictInt | None = setting(BOUNDS.time_bank, None)
    straddle: StrictBool | None = None
    run_twice: StrictBool | None = None
    show_or_muck: StrictBool | None = None


class OptionsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rebuys: StrictBool | None = None
    approval: StrictBool | None = None
    spectator_chat: StrictBool | None = None
    reveal: StrictBool | None = Field(None, description="reveal the server's seeds when the match ends (before the "
                                                        "first hand only; docs/fairness.md)")


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    approve: StrictBool


class BuyIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    amount: StrictInt | None = Field(None, description="chips to buy; omitted: up to the starting stack", ge=1,
                                     le=MAX_CHIPS)


class ChoiceIn(VersionIn):
    agree: StrictBool | None = Field(None, description="runs: agree (true) or decline to run it twice")
    show: StrictBool | None = Field(None, description="showdown: show (true) or muck (false)")


class ShowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    cards: list[Annotated[StrictInt, Field(ge=0, le=1)]] = Field(
        description="hole cards to show: [0], [1] or [0, 1]", examples=[[0, 1]])


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: StrictStr | None = Field(None, description=f"a message, 1–{BOUNDS.chat_max_chars} characters (plain text)")
    reaction: StrictStr | None = Field(None, description=f"one of {' '.join(BOUNDS.chat_reactions)}")
    to: Id | None = Field(None, description="the message a reaction answers (omitted: the table)")


def _set(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(exclude_none=True)


@router.post("/api/rooms/{code}/pause", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def pause(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Pause the table: no hand is dealt until it resumes (a hand in play is played out)."""
    return _request(request, code, member, "pause", {})


@router.post("/api/rooms/{code}/end", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def end_match(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """End the match between hands (the table's books are its summary)."""
    return _request(request, code, member, "end", {})


@router.post("/api/rooms/{code}/resume", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def resume(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    return _request(request, code, member, "resume", {})


@router.delete("/api/rooms/{code}/players/{seat}", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def remove_player(request: Request, code: str, seat: SeatPath, member: MemberDep) -> dict[str, Any]:
    """Take a player off the table between hands; their stack leaves with them (listed in the summary)."""
    return _request(request, code, member, "remove", {"seat": seat})


@router.post("/api/rooms/{code}/players/{seat}/stack", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def adjust_stack(request: Request, code: str, seat: SeatPath, body: StackIn, member: MemberDep) -> dict[str, Any]:
    """Set a player's stack between hands (a public event with who did it)."""
    return _request(request, code, member, "stack", {"seat": seat, "stack": body.stack, "confirm": body.confirm})


@router.post("/api/rooms/{code}/stakes", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def change_stakes(request: Request, code: str, body: StakesIn, member: MemberDep) -> dict[str, Any]:
    """New blinds, action clock, time bank or hand options (straddle, run it twice, show or muck), between hands."""
    return _request(request, code, member, "stakes", _set(body))


@router.post("/api/rooms/{code}/options", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def set_options(request: Request, code: str, body: OptionsIn, member: MemberDep) -> dict[str, Any]:
    """Rebuys and top-ups, approval of who sits, spectators' chat."""
    return _request(request, code, member, "options", _set(body))


@router.post("/api/rooms/{code}/requests/{request_id}", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def answer_request(request: Request, code: str, request_id: IdPath, body: AnswerIn, member: MemberDep
                   ) -> dict[str, Any]:
    """Approve or deny a request to sit (``requests[].id`` in the view)."""
    return _request(request, code, member, "answer", {"request": request_id, "approve": body.approve})


@router.post("/api/rooms/{code}/host", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def hand_host(request: Request, code: str, body: SeatIn, member: MemberDep) -> dict[str, Any]:
    """The host hands the host role to the member in ``seat``."""
    return _request(request, code, member, "host", {"seat": body.seat})


@router.post("/api/rooms/{code}/cohosts", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def name_cohost(request: Request, code: str, body: SeatOnIn, member: MemberDep) -> dict[str, Any]:
    """The host names (``on``) or unnames a co-host."""
    return _request(request, code, member, "cohost", {"seat": body.seat, "on": body.on})


class SilenceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Seat | None = Field(None, description="the player to silence, by seat")
    line: Id | None = Field(None, description="or the writer of this chat line (a spectator has no seat)")
    on: StrictBool = Field(True, description="true: silence; false: let them talk again")


@router.post("/api/rooms/{code}/silence", tags=["host"], dependencies=[Csrf, rate_limit("seat")])
def silence(request: Request, code: str, body: SilenceIn, member: MemberDep) -> dict[str, Any]:
    """Silence (``on``) a player (``seat``) or a spectator (the writer of chat ``line``) at the table's chat, or
    let them talk again."""
    if (body.seat is None) == (body.line is None):
        raise RoomError("name a seat or a chat line, not both", code="bad_request", reason="field", field="seat")
    if body.line is not None:
        return services(request)[2].chat.silence(code, member, body.line, body.on)
    return _request(request, code, member, "silence", {"seat": body.seat, "on": body.on})


LEDGER_CSV: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "the books as CSV"}}


@router.get("/api/rooms/{code}/ledger", tags=["rooms"])
def room_ledger(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """The table's books: each player's buy-ins, rebuys, top-ups, the host's adjustments (with who made them),
    the chips taken away, the chips now and the net; totals that add up to the chips on the table."""
    return table_ledger(services(request)[2].reads.table_state(code))


@router.get("/api/rooms/{code}/ledger.csv", tags=["rooms"], response_class=Response, responses=LEDGER_CSV)
def room_ledger_csv(request: Request, code: str, member: OptionalMember) -> Response:
    """The table's books as a CSV file (a row per player, then the totals)."""
    books = table_ledger(services(request)[2].reads.table_state(code))
    return Response(ledger_csv(books), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="taiwan-poker-{code.upper()}-ledger.csv"'})


@router.get("/api/rooms/{code}/log", tags=["host"])
def table_log(request: Request, code: str, member: OptionalMember, since: IdQuery = 0) -> dict[str, Any]:
    """The table's log every player can read: each host action with who did it, rebuys and top-ups."""
    return {"log": log_of(services(request)[2].reads.table_state(code), since)}


@router.post("/api/rooms/{code}/buy", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def buy_chips(request: Request, code: str, member: MemberDep, body: BuyIn | None = None) -> dict[str, Any]:
    """A rebuy or a top-up up to the starting stack, where the host allows them, while you are in no hand."""
    return _request(request, code, member, "buy", _set(body or BuyIn.model_validate({})))


@router.post("/api/rooms/{code}/runs", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def answer_runs(request: Request, code: str, body: ChoiceIn, member: MemberDep) -> dict[str, Any]:
    """Agree (or not) to run the rest of the board twice, against a version."""
    with observe_action(request.app, "runs"):
        return act_json(_choice(request, code, member, "runs", {"agree": body.agree}, body.version))


@router.post("/api/rooms/{code}/showdown", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def show_or_muck(request: Request, code: str, body: ChoiceIn, member: MemberDep) -> dict[str, Any]:
    """Show (``show`` true) or muck a hand that cannot win, against a version."""
    with observe_action(request.app, "showdown"):
        return act_json(_choice(request, code, member, "showdown", {"show": body.show}, body.version))


def _choice(request: Request, code: str, member: Member, kind: str, body: dict[str, Any], version: int
            ) -> ActResult:
    out = services(request)[2].request(code, member, kind, body, version)
    assert isinstance(out, ActResult)
    return out


class SeedIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seed: StrictStr = Field(description="your seed for the next hand's shoe: 16 to 64 random bytes in hex "
                                        "(docs/fairness.md)", json_schema_extra={"minLength": 32, "maxLength": 128,
                                                                               "pattern": "^[0-9a-fA-F]+$"})


@router.post("/api/rooms/{code}/seed", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def contribute_seed(request: Request, code: str, body: SeedIn, member: MemberDep) -> dict[str, Any]:
    """Add your randomness to the next hand's shoe (the page sends 32 random bytes after every hand)."""
    return _request(request, code, member, "seed", {"seed": body.seed})


class StraddleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    choice: StrictStr = Field(description="next: the next hand you are under the gun in; always; off",
                              json_schema_extra={"enum": list(STRADDLE_CHOICES)})


@router.post("/api/rooms/{code}/straddle", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def straddle(request: Request, code: str, body: StraddleIn, member: MemberDep) -> dict[str, Any]:
    """Your straddle, where the table allows straddles: the next hand you are under the gun in, always, or off."""
    return _request(request, code, member, "straddle", {"choice": body.choice})


@router.post("/api/rooms/{code}/show", tags=["rooms"], dependencies=[Csrf, rate_limit("action")])
def show_cards(request: Request, code: str, body: ShowIn, member: MemberDep) -> dict[str, Any]:
    """The winner of an uncontested pot shows one or both hole cards after the hand."""
    return _request(request, code, member, "show", {"cards": body.cards})


@router.get("/api/rooms/{code}/chat", tags=["chat"])
def read_chat(request: Request, code: str, member: OptionalMember, after: IdQuery = 0) -> dict[str, Any]:
    """The chat lines you may read after id ``after`` (the newest 100), and the seats you muted."""
    return services(request)[2].chat.read(code, member, after)


@router.post("/api/rooms/{code}/chat", tags=["chat"], dependencies=[Csrf, rate_limit("chat")])
def say(request: Request, code: str, body: ChatIn, member: MemberDep) -> dict[str, Any]:
    """Write a message (``text``) or a reaction (``reaction``, to the message ``to``) at the table."""
    return {"message": services(request)[2].chat.say(code, member, body.text, body.reaction, body.to)}


@router.delete("/api/rooms/{code}/chat/{line}", tags=["chat"], dependencies=[Csrf, rate_limit("seat")])
def delete_chat(request: Request, code: str, line: IdPath, member: MemberDep) -> dict[str, Any]:
    """The host deletes a message (its text is removed for good; the log says who deleted whose message)."""
    return services(request)[2].chat.delete(code, member, line)


@router.post("/api/rooms/{code}/mute", tags=["chat"], dependencies=[Csrf, rate_limit("seat")])
def mute(request: Request, code: str, body: SeatOnIn, member: MemberDep) -> dict[str, Any]:
    """Mute (``on``) or unmute a player for you only: their messages are not sent to you."""
    return services(request)[2].chat.mute(code, member, body.seat, body.on)
