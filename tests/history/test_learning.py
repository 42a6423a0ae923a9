"""The pure parts of learning from hands: per-hand numbers, session numbers, the text export and the SVG chart."""

from __future__ import annotations

import random
import re

from taiwan_poker.history.chart import match_chart
from taiwan_poker.history.hand_stats import hand_stats, session_stats
from taiwan_poker.history.hand_text import hand_text, match_text
from taiwan_poker.history.phh import hand_phh
from taiwan_poker.rules import Action, ActionKind, Hand, RuleSet
from taiwan_poker.rules.views import events_for
from tests.history.test_phh import played, straddled_and_run_twice


def events(*rest: dict[str, object]) -> list[dict[str, object]]:
    start = {"type": "hand_started", "hand_no": 1, "button": 0, "small_blind_seat": 0, "big_blind_seat": 1,
             "stacks": [1000, 1000]}
    blinds = [{"type": "blind_posted", "seat": 0, "amount": 10, "big": False},
              {"type": "blind_posted", "seat": 1, "amount": 20, "big": True}]
    return [start, *blinds, *rest]


def act(seat: int, kind: str, amount: int, to: int, allin: bool = False) -> dict[str, object]:
    return {"type": "action", "seat": seat, "kind": kind, "amount": amount, "to": to, "allin": allin}


def shown(seat: int, hole: list[str], category: str) -> dict[str, object]:
    return {"type": "hand_shown", "seat": seat, "hole": hole, "category": category}


def test_vpip_pfr_showdown_and_net_of_one_hand() -> None:
    raised = events(act(0, "raise", 50, 60), act(1, "call", 40, 60),
                    {"type": "board_dealt", "street": "flop", "cards": ["2c:1", "3d:1", "4h:1"]},
                    act(1, "bet", 100, 100), act(0, "call", 100, 100),
                    shown(0, ["Ah:1", "Kd:1"], "high_card"), shown(1, ["4c:1", "5s:1"], "one_pair"),
                    {"type": "pot_awarded", "amount": 320, "eligible": [0, 1], "winners": [1], "shares": [320]},
                    {"type": "hand_ended", "stacks": [840, 1160]})
    sb, bb = hand_stats(raised, 0), hand_stats(raised, 1)
    assert sb is not None and bb is not None
    assert (sb.vpip, sb.pfr, sb.showdown, sb.won_showdown, sb.net, sb.result) == (True, True, True, False, -160, "lost")
    assert (bb.vpip, bb.pfr, bb.won_showdown, bb.net, bb.result) == (True, False, True, 160, "won")
    walk = events(act(0, "fold", 0, 10), {"type": "hand_ended", "stacks": [990, 1010]})
    folded = hand_stats(walk, 0)
    assert folded is not None and (folded.vpip, folded.pfr, folded.showdown) == (False, False, False)
    checked = hand_stats(events(act(0, "call", 10, 20), act(1, "check", 0, 20), {"type": "hand_ended",
                                                                                  "stacks": [1000, 1000]}), 1)
    assert checked is not None and not checked.vpip and checked.result == "even"  # the big blind's check is free
    shove = hand_stats(events(act(0, "allin", 990, 1000, True), {"type": "hand_ended", "stacks": [1020, 980]}), 0)
    assert shove is not None and shove.pfr
    assert hand_stats(events(act(0, "call", 10, 20)), 0) is None  # still being played
    total = session_stats([sb, bb, folded])
    assert (total.hands, total.showdowns, total.showdowns_won, total.net) == (3, 2, 1, -10)
    assert total.vpip is not None and abs(total.vpip - 2 / 3) < 1e-9
    assert session_stats([]).vpip is None


def test_text_export_shows_the_viewers_cards_and_nobody_elses() -> None:
    for seed in range(30):
        hand = played(3, 2, seed, ["caller", "random", "solid"])
        texts = {}
        for viewer in (0, 1, None):
            text = hand_text(events_for(hand, viewer), names=["Ann", "Ben", "Cy"], small_blind=10, big_blind=20,
                             decks=2, table="ABCD", hand_no=1, viewer=viewer)
            texts[viewer] = text
            assert text.startswith("Taiwan Poker Hand #ABCD-1: Hold'em No Limit (10/20) - 2 decks")
            assert "*** SUMMARY ***" in text
            for seat, name in enumerate(["Ann", "Ben", "Cy"]):
                dealt = f"Dealt to {name} [" in text
                assert dealt == (seat == viewer), (seed, viewer, seat)
                assert (f"Private burn of {name}" in text) == (seat == viewer)
        hole = " ".join(c.face_str for c in hand.hole_cards(0) if c is not None)
        assert f"Dealt to Ann [{hole}]" in texts[0]
        assert texts[0].index("posts big blind") < texts[0].index("Dealt to Ann")
    assert match_text(["a\n", "b\n"]) == "a\n\n\nb\n"


def test_the_chart_is_an_inline_svg_with_both_lines_and_escaped_labels() -> None:
    svg = match_chart([100, -50, 300], [100, 0, 200], title="<籌碼>", chips_label="累計", ev_label="EV",
                      hands_label="手")
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "viewBox" in svg
    assert "&lt;籌碼&gt;" in svg and "<籌碼>" not in svg
    chips = re.search(r'class="chips-line" points="([^"]+)"', svg)
    ev = re.search(r'class="ev-line" points="([^"]+)"', svg)
    assert chips and ev and len(chips.group(1).split()) == 4 == len(ev.group(1).split())
    assert "script" not in svg
    flat = match_chart([0], [0], title="t", chips_label="c", ev_label="e", hands_label="h")
    assert "polyline" in flat  # no division by zero when nothing moved


def test_the_numbers_the_text_and_phh_read_an_all_in_over_a_short_big_blind_alike() -> None:
    """Blinds 10/20, the big blind all in for 15, the button shoves 20: a pre-flop raise in every reader."""
    rules = RuleSet(decks=1, seats=3, small_blind=10, big_blind=20)
    hand = Hand.start(rules, [20, 500, 15], 0, rng=random.Random(5))
    hand.act(Action(ActionKind.ALLIN))
    hand.act(Action(ActionKind.CALL))
    events_0 = events_for(hand, 0)
    stats = hand_stats(events_0, 0)
    assert stats is not None and stats.vpip and stats.pfr
    text = hand_text(events_0, names=["Ann", "Ben", "Cy"], small_blind=10, big_blind=20, decks=1, table="T",
                     hand_no=1, viewer=0)
    assert "Cy: posts big blind 15" in text and "Ann: raises 5 to 20 and is all-in" in text
    phh = hand_phh(events_0, names=["Ann", "Ben", "Cy"], small_blind=10, big_blind=20, decks=1)
    assert '"p3 cbr 20"' in phh


def test_the_text_export_posts_the_straddle_and_writes_each_run_with_its_pots() -> None:
    """Every chip on a line, the straddle included, so the lines add up to the total pot; a board run twice as
    PokerStars writes one: each run's streets, its showdown and the half of the pot it paid, both boards in the
    summary."""
    hand = straddled_and_run_twice(2)
    text = hand_text(events_for(hand, 0), names=["Ann", "Ben", "Cy", "Dee"], small_blind=10, big_blind=20, decks=1,
                     table="T", hand_no=1, viewer=0)
    lines = text.splitlines()
    assert [line for line in lines if ": posts " in line] == \
        ["Ben: posts small blind 10", "Cy: posts big blind 20", "Dee: posts straddle 40"]
    assert "Ann: raises 1960 to 2000 and is all-in" in lines and "Dee: calls 1960 and is all-in" in lines
    put = 10 + 20 + 40 + 2000 + 1960  # the blinds, the straddle, the all-in and its call
    assert f"Total pot {put}" in lines and put == sum(p.amount for p in hand.pots)
    heads = [line[:line.index(" ***", 4) + 4] for line in lines if line.startswith("*** ")]
    assert heads == ["*** HOLE CARDS ***", "*** FIRST FLOP ***", "*** FIRST TURN ***", "*** FIRST RIVER ***",
                     "*** SECOND FLOP ***", "*** SECOND TURN ***", "*** SECOND RIVER ***", "*** FIRST SHOW DOWN ***",
                     "*** SECOND SHOW DOWN ***", "*** SUMMARY ***"]
    first, second = lines.index("*** FIRST SHOW DOWN ***"), lines.index("*** SECOND SHOW DOWN ***")
    collected = [(i, int(line.split(" collected ")[1].split()[0])) for i, line in enumerate(lines)
                 if " collected " in line]
    assert sum(c for i, c in collected if first < i < second) == (put + 1) // 2, "the first run: half, the odd chip"
    assert sum(c for i, c in collected if i > second) == put // 2
    faces = lambda cards: " ".join(c.face_str for c in cards)  # noqa: E731
    assert f"FIRST Board [{faces(hand.board)}] (decks 1 1 1 1 1)" in lines
    assert f"SECOND Board [{faces(hand.board2)}] (decks 1 1 1 1 1)" in lines and "Hand was run twice" in lines
