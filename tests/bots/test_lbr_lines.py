"""The LBR line log (lab/taiwan_poker_lab/lbr_lines.py): every decision in the line, groups that add up."""

from __future__ import annotations

from pathlib import Path

import pytest

from taiwan_poker_lab.lbr_lines import Row, group, load, play, report, save, summary


def _row(line: tuple[tuple[int, str], ...], small_blind: bool = True, net: float = 1.0) -> Row:
    return Row(0, 0, small_blind, net, net / 2, line)


def test_groups_name_the_seat_the_preflop_pot_and_the_first_actions_after_it() -> None:
    limped = _row(((0, "LC"), (0, "OX"), (1, "OX"), (1, "LB1.00"), (1, "OF")))
    raised = _row(((0, "LC"), (0, "OR0.75"), (0, "LC"), (1, "OB0.33"), (1, "LA"), (1, "OC")), small_blind=False)
    folded = _row(((0, "LC"), (0, "OF")))
    assert group(limped, 2) == ("LBR SB", "limped", "OX", "LB")
    assert group(raised, 3) == ("LBR BB", "raised", "OB", "LA", "OC")
    assert group(folded, 2) == ("LBR SB", "folded")


def test_the_groups_add_up_to_the_whole_and_a_log_reads_back(tmp_path: Path) -> None:
    rows = [_row(((0, "LC"), (0, "OX")), net=x) for x in (1.0, -2.0, 0.5)] + [_row(((0, "LC"), (0, "OF")), net=0.5)]
    groups = summary(rows, 2, least=1)
    assert sum(g.hands for g in groups) == len(rows)
    assert sum(g.raw for g in groups) == pytest.approx(1000 * sum(r.net for r in rows) / len(rows))
    assert sum(g.adjusted for g in groups) == pytest.approx(1000 * sum(r.adjusted for r in rows) / len(rows))
    path = tmp_path / "log.json"
    save(rows, path)
    assert load(path) == rows
    assert report(rows, 2, least=1)[0].startswith("4 hands")


def test_a_played_log_holds_every_decision_of_both_seatings() -> None:
    rows = play("folder", 2, 3, 2)
    assert [(r.deal, r.lbr_seat) for r in rows] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for r in rows:
        assert r.line and all(what[0] in "LO" for _, what in r.line)
        assert r.line[-1][1] == "OF"  # the folder gives up every hand LBR bets or raises into
        assert r.net > 0  # its blinds
