"""The JSON API's error body, declared once in the OpenAPI for every router (``responses=ERROR_RESPONSES``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    code: str = Field(description="a stable machine-readable code: bad_request, bad_cards, no_lab_hand, ...",
                      examples=["bad_request"])
    message: str = Field(description="what went wrong, in the request's language")


class ErrorOut(BaseModel):
    """The body of every error response of the JSON API."""

    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ErrorOut, "description": "The request cannot be served: bad input (`bad_request` for a body "
                                              "or parameter of the wrong shape or type), not found or a conflict"},
}
