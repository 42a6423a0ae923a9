"""The match chart as inline SVG, drawn on the server: cumulative chips by hand and the all-in-EV line.

No script and no charting library: a ``viewBox`` that scales to the width of
the screen (a phone too), two polylines, a zero line and a few labelled ticks.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

WIDTH, HEIGHT = 640, 292
LEFT, RIGHT, TOP, BOTTOM = 76, 22, 16, 68  # the bottom: the hand numbers, then the axis's name on a line of its own


def cumulative(values: Sequence[int]) -> list[int]:
    out, total = [], 0
    for v in values:
        total += v
        out.append(total)
    return out


def _ticks(low: int, high: int, count: int = 4) -> list[int]:
    """Round values (1, 2 or 5 times a power of ten apart) between ``low`` and ``high``."""
    raw = max(1, high - low) / count
    step = min(u * 10**k for k in range(12) for u in (1, 2, 5) if u * 10**k >= raw)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


def match_chart(nets: Sequence[int], evs: Sequence[int], *, title: str, chips_label: str, ev_label: str,
                hands_label: str) -> str:
    """An SVG of the cumulative ``nets`` and ``evs`` (one value per hand, in order); labels are plain text.

    The legend is the page's (under the chart, where it covers no line); its names go in the lines' titles.
    """
    chips = [0, *cumulative(nets)]
    ev = [0, *cumulative(evs)]
    low, high = min(*chips, *ev, 0), max(*chips, *ev, 0)
    if low == high:
        low, high = low - 1, high + 1
    n = max(1, len(chips) - 1)

    def x(i: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * i / n

    def y(v: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - v) / (high - low)

    def line(values: list[int]) -> str:
        return " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))

    esc = html.escape
    parts = [f'<svg class="match-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{esc(title)}" '
             f'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">', f"<title>{esc(title)}</title>"]
    for v in _ticks(low, high):
        parts.append(f'<line class="grid{" zero" if v == 0 else ""}" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{y(v):.1f}" y2="{y(v):.1f}"/>')
        parts.append(f'<text class="tick" x="{LEFT - 6}" y="{y(v) + 6:.1f}" text-anchor="end">{v:,}</text>')
    step = max(1, n // 6)
    for i in range(0, n + 1, step):
        parts.append(f'<text class="tick" x="{x(i):.1f}" y="{HEIGHT - BOTTOM + 32}" text-anchor="middle">{i}</text>')
    # under the hand numbers and centred on the plot, so it never sits on the last one
    parts.append(f'<text class="axis" x="{(LEFT + WIDTH - RIGHT) / 2:.1f}" y="{HEIGHT - 6}" text-anchor="middle">'
                 f"{esc(hands_label)}</text>")
    parts.append(f'<polyline class="ev-line" points="{line(ev)}"><title>{esc(ev_label)}</title></polyline>')
    parts.append(f'<polyline class="chips-line" points="{line(chips)}"><title>{esc(chips_label)}</title></polyline>')
    parts.append("</svg>")
    return "".join(parts)
