"""Member tables over HTTP: open a table, change its settings, seat or remove bots, sit, act, leave, rematch.

Thin: every handler checks who is asking and calls :class:`~taiwan_poker.rooms.service.RoomService`; what
goes back to a browser is only ever that member's view of the room.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..rooms.service import ActResult
from ..tables.limits import (
    BOT_LEVELS,
    BOUNDS,
    DEFAULT_BLINDS,
    DEFAULT_BOT_LEVEL,
    DEFAULT_DECKS,
    DEFAULT_SEATS,
    DEFAULT_STACK,
    DEFAULT_TIME_BANK,
)
from .error_model import ERROR_RESPONSES
from .members_api import Csrf, MemberDep, OptionalMember, rate_limit, services
from .metrics import observe_action

router = APIRouter(responses=ERROR_RESPONSES)


class NewRoom(BaseModel):
    """A table's settings; every field is optional (the defaults are the spec's heads-up table)."""

    model_config = ConfigDict(extra="forbid")
    decks: StrictInt = Field(DEFAULT_DECKS, description=f"decks in the shoe, {BOUNDS.decks[0]}–{BOUNDS.decks[1]}",
                             json_schema_extra={"minimum": BOUNDS.decks[0], "maximum": BOUNDS.decks[1]})
    seats: StrictInt = Field(DEFAULT_SEATS, description=f"seats, {BOUNDS.seats[0]}–{BOUNDS.seats[1]}",
                             json_schema_extra={"minimum": BOUNDS.seats[0], "maximum": BOUNDS.seats[1]})
    stack: StrictInt = Field(DEFAULT_STACK, description="starting stack (at least 10 big blinds)",
                             json_schema_extra={"minimum": BOUNDS.stack[0], "maximum": BOUNDS.stack[1]})
    blinds: list[StrictInt] = Field(list(DEFAULT_BLINDS), description=(
        f"[small blind, big blind]: the big blind {BOUNDS.big_blind[0]}–{BOUNDS.big_blind[1]}, the small blind 1 "
        "up to the big blind"), examples=[[10, 20]], json_schema_extra={
        "minItems": 2, "maxItems": 2, "items": {"type": "integer", "minimum": 1, "maximum": BOUNDS.big_blind[1]}})
    time_bank: StrictInt = Field(DEFAULT_TIME_BANK, description=(
        f"seconds of time bank each player may draw on per match once the {BOUNDS.action_clock}-s action clock "
        f"has run out, {BOUNDS.time_bank[0]}–{BOUNDS.time_bank[1]} (0: the clock alone)"),
        json_schema_extra={"minimum": BOUNDS.time_bank[0], "maximum": BOUNDS.time_bank[1]})

    def settings(self) -> dict[str, Any]:
        return {"decks": self.decks, "seats": self.seats, "stack": self.stack, "blinds": self.blinds,
                "time_bank": self.time_bank}


class NewTable(NewRoom):
    """A new table's settings, and bots to seat beside its creator at once (a full table deals straight away)."""

    bots: StrictInt = Field(0, description="bots to seat at once, 0 to seats − 1 (fills the table: a solo game)")
    level: StrictStr | None = Field(None, description=f"the bots' level: {', '.join(BOT_LEVELS)} (default "
                                                      f"{DEFAULT_BOT_LEVEL})")

    def settings(self) -> dict[str, Any]:
        return {**super().settings(), "bots": self.bots, "level": self.level}


class BotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: StrictStr | None = Field(None, description=f"{', '.join(BOT_LEVELS)}; omitted: {DEFAULT_BOT_LEVEL}",
                                    json_schema_extra={"enum": [*BOT_LEVELS, None]})


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(description="the room version the action was made against",
                               json_schema_extra={"minimum": 0})
    key: StrictStr | None = Field(None, description="idempotency key (e.g. a UUID); a repeat changes nothing",
                                  json_schema_extra={"minLength": 1, "maxLength": 64})
    action: dict[str, Any] = Field(description='{"kind": "fold|check|call|bet|raise|allin", "to": street total}',
                                   examples=[{"kind": "raise", "to": 120}])


class VersionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    version: StrictInt = Field(json_schema_extra={"minimum": 0})


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
    return services(request)[2].add_bot(code, member, (body or BotIn.model_validate({})).level)


@router.delete("/api/rooms/{code}/bots/{seat}", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def remove_bot(request: Request, code: str, seat: int, member: MemberDep) -> dict[str, Any]:
    """The creator takes a bot off the table between hands."""
    return services(request)[2].remove_bot(code, member, seat)


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
    return services(request)[2].set_coach(code, member, body.on)


@router.post("/api/rooms/{code}/away", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def away(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Step away: your hands are checked or folded at once until you are back."""
    return services(request)[2].away(code, member)


@router.post("/api/rooms/{code}/back", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def back(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    """Come back to the table after being away."""
    return services(request)[2].back(code, member)


@router.get("/api/rooms/{code}", tags=["rooms"])
def room_state(request: Request, code: str, member: OptionalMember) -> dict[str, Any]:
    """The room as the caller may see it (a spectator: public information only)."""
    return services(request)[2].state(code, member)


@router.post("/api/rooms/{code}/join", tags=["rooms"], dependencies=[Csrf, rate_limit("seat")])
def join_room(request: Request, code: str, member: MemberDep) -> dict[str, Any]:
    return services(request)[2].join(code, member)


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
