"""Per-request and per-session state of the web shell: the reader's language and the practice score."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import Request

from .i18n import LANG_COOKIE, negotiate


def lang_of(request: Request) -> str:
    """``?lang=``, then the language switch's cookie, then ``Accept-Language``, then zh-TW."""
    return negotiate(request.query_params.get("lang"), request.cookies.get(LANG_COOKIE),
                     request.headers.get("accept-language"))


@dataclass
class Score:
    """Questions answered and answered correctly in this practice session: each question counts once, by its
    first answer (answering it again shows the explanation but does not change the score)."""

    answered: int = 0
    correct: int = 0
    seen: set[str] = field(default_factory=set)

    def record(self, question: str, correct: bool) -> bool:
        """Count the first answer to ``question``; False (and no change) when it was answered before."""
        if question in self.seen:
            return False
        self.seen.add(question)
        self.answered += 1
        self.correct += int(correct)
        return True

    def json(self) -> dict[str, Any]:
        share = round(100 * self.correct / self.answered) if self.answered else None
        return {"answered": self.answered, "correct": self.correct, "percent": share}
