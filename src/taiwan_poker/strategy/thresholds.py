"""The equity lines the bots' policies and the coach share: when a bet or a raise for value pays.

Against the opponents' read ranges, a bet for value needs more equity the
fewer players can call it: 60 % heads-up, 50 % against two, 42 % against three
or more.  With no opponent at all (nobody left to bet into) the heads-up line
holds: the line never falls as opponents drop out.
"""

from __future__ import annotations

RAISE_MARGIN = 0.15  # a raise for value: this much equity above the value-bet line


def value_threshold(opponents: int) -> float:
    """Equity against the read ranges from which betting for value pays (more opponents: lower)."""
    return 0.6 if opponents <= 1 else 0.5 if opponents == 2 else 0.42
