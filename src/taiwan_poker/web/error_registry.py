"""Every error code the app can answer with: its HTTP status, and its message (``error.<code>`` in both
catalogues, ``error.<code>.<reason>`` where the error says why in more than one way).

One table for every route and the socket. ``tests/web/test_error_registry.py`` walks the whole package for
the codes raised and checks each is here, with a zh-TW and an English message that use only the parameters
the raise sites pass.
"""

from __future__ import annotations

from ..errors import TaiwanPokerError

BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT = 400, 401, 403, 404, 409
TOO_LARGE, TOO_MANY, UNAVAILABLE, INTERNAL = 413, 429, 503, 500

# input that cannot be read or is out of bounds: 400
_BAD_INPUT = (
    "bad_action", "bad_actions", "bad_amount", "bad_blinds", "bad_board_count", "bad_bots", "bad_card",
    "bad_card_count", "bad_chart", "bad_choice", "bad_date", "bad_decks", "bad_equity_request", "bad_event",
    "bad_fraction", "bad_hole_count", "bad_input", "bad_json", "bad_key", "bad_lang", "bad_level", "bad_message",
    "bad_record", "bad_seed_hex",
    "bad_name", "bad_odds_decks", "bad_precision", "bad_range", "bad_ranking", "bad_request", "bad_rules",
    "bad_seats", "bad_seed", "bad_stack", "bad_time_bank", "bad_stacks", "bad_target", "bad_token", "bad_usage",
    "bad_version", "bad_chat", "bad_clock", "bad_option", "bad_reaction", "bad_seat", "bad_stack_adjust", "bad_buy",
    "bad_schedule", "bad_payouts",
    "illegal_action", "missing_cards", "room_error", "shoe_empty", "table_error", "too_many_copies", "http_error",
)

STATUS: dict[str, int] = {
    **dict.fromkeys(_BAD_INPUT, BAD_REQUEST),
    # who is asking
    "signin_required": UNAUTHORIZED, "session_ended": UNAUTHORIZED,
    "csrf_required": FORBIDDEN, "bad_csrf": FORBIDDEN, "cross_site": FORBIDDEN, "local_signin_disabled": FORBIDDEN,
    "not_seated": FORBIDDEN, "not_creator": FORBIDDEN, "coach_off": FORBIDDEN, "guest_solo_only": FORBIDDEN,
    "guest_not_allowed": FORBIDDEN, "guest_table": FORBIDDEN, "too_many_sockets": FORBIDDEN,
    # what does not exist
    "not_found": NOT_FOUND, "room_not_found": NOT_FOUND, "hand_not_found": NOT_FOUND, "no_lab_hand": NOT_FOUND,
    "no_job": NOT_FOUND, "unknown_scenario": BAD_REQUEST,
    "method_not_allowed": 405,
    # the state of a table or hand does not allow it now
    "room_full": CONFLICT, "not_your_turn": CONFLICT, "clock_running": CONFLICT, "no_hand": CONFLICT,
    "match_over": CONFLICT, "hand_in_progress": CONFLICT, "match_not_over": CONFLICT, "stale_version": CONFLICT,
    "room_quarantined": CONFLICT, "table_started": CONFLICT, "table_paused": CONFLICT, "left_match": CONFLICT,
    "no_bot": CONFLICT, "hand_over": CONFLICT, "member_signed_in": CONFLICT,
    # the host's table (issue 23)
    "not_host": FORBIDDEN, "chat_closed": FORBIDDEN, "chat_silenced": FORBIDDEN, "no_request": NOT_FOUND,
    "chat_not_found": NOT_FOUND, "host_paused": CONFLICT, "empty_seat": CONFLICT, "not_removable": CONFLICT,
    "bot_seat": CONFLICT, "no_rebuys": CONFLICT, "no_topup": CONFLICT, "table_not_started": CONFLICT,
    "seat_taken": CONFLICT, "no_show": CONFLICT, "cohost_stack": FORBIDDEN, "stack_confirm": CONFLICT,
    "no_straddle": CONFLICT,
    # a sit-and-go (issue 46)
    "tournament_stacks": CONFLICT, "tournament_started": CONFLICT, "tournament_blinds": CONFLICT,
    "tournament_break": CONFLICT, "tournament_running": CONFLICT, "not_tournament": CONFLICT,
    # limits
    "body_too_large": TOO_LARGE, "rate_limited": TOO_MANY, "request_timeout": 408,
    "signin_busy": UNAVAILABLE, "guests_full": UNAVAILABLE, "calc_busy": UNAVAILABLE,
    "certs_unavailable": UNAVAILABLE, "database_unavailable": UNAVAILABLE,
    "internal_error": INTERNAL, "room_code_exhausted": INTERNAL,
}


def status_of(code: str) -> int:
    """The HTTP status of an error code (an unregistered code is a server fault: the test keeps this unused)."""
    return STATUS.get(code, INTERNAL)


def message_key(exc: TaiwanPokerError) -> str:
    """The catalogue key of an error's message: ``error.<code>``, or ``error.<code>.<reason>`` when it says why."""
    reason = exc.params.get("reason")
    return f"error.{exc.code}.{reason}" if isinstance(reason, str) else f"error.{exc.code}"
