"""Diagnostic: LBR vs Strong, per-hand log of line, raw and luck-adjusted score, and LBR's final habits.

`hand` is `taiwan_poker_lab.arena.lbr_hand` with a log of each action and of Strong's numbers at bets of half a pot or more;
for results alone call `arena.lbr_heads_up(..., luck=True)` instead.  Run from the project root with `.venv/bin/python`."""
import json, random, sys, time
from dataclasses import replace
import numpy as np
from taiwan_poker_lab.arena import Memory, _responder, LBR_PLAYERS, allin_ev, seat_view
from taiwan_poker_lab.lbr import LocalBestResponse, sample_action, strip, as_distribution, LbrSettings
from taiwan_poker_lab.luck import LuckAdjuster
from taiwan_poker.bots.levels import policy_of
from taiwan_poker.rules.hand import Hand
from taiwan_poker.rules.ruleset import RuleSet


from taiwan_poker.strategy.policy import strategy
from taiwan_poker.evaluate.batch import rank_batch
from taiwan_poker.rules.actions import ActionKind


def probe(h, view, dist, lbr_seat):
    st = strategy(view, random.Random(0)).situation
    fold = sum(p for a, p in dist if a.kind is ActionKind.FOLD)
    out = {"street": view.street, "alpha": view.call_amount / view.pot, "price": view.price(), "fold": fold}
    if st is not None:
        out.update(eq=st.equity, place=st.place, solved=st.solved, node_eq=st.node_equity, node_place=st.node_place,
                   read_eq=st.read_equity, floor=st.floor_equity,
                   dfold=None if st.defence is None else st.defence.fold_share)
    if len(view.board) == 5:
        lh = [c.index for c in h.hole_cards(lbr_seat)]
        mine = [c.index for c in view.hole]
        b = [c.index for c in view.board]
        r = rank_batch(np.array([mine + b, lh + b], dtype=np.int16), threads=1)
        out["win"] = 1.0 if r[0] > r[1] else 0.5 if r[0] == r[1] else 0.0
    return out


def hand(rules, opponent, model, lbr_seat, button, deal_seed, memory):
    stacks = [rules.starting_stack] * 2
    h = Hand.start(rules, stacks, button, rng=random.Random(deal_seed))
    luck = LuckAdjuster(h, lbr_seat, np.random.default_rng(deal_seed + 7))
    other = 1 - lbr_seat
    lbr = LocalBestResponse(model, LbrSettings(), random.Random(deal_seed * 4 + lbr_seat))
    lbr.new_hand([c for c in h.hole_cards(lbr_seat) if c is not None],
                 [c for c in h.private_burns(lbr_seat) if c is not None], rules.decks)
    rng = random.Random(deal_seed * 4 + 2 + lbr_seat)
    players = [LBR_PLAYERS[0] if s == lbr_seat else LBR_PLAYERS[1] for s in (0, 1)]
    habits = memory.habits(players)
    line = []
    info = []
    while not h.complete:
        seat = h.to_act
        view = replace(seat_view(h, seat), habits=habits)
        if seat == lbr_seat:
            action = lbr.decide(view, _responder(h, seat, other, habits))
            who = "L"
        else:
            dist = opponent.distribution(view, rng)
            if view.call_amount > 0 and view.street >= 1 and view.call_amount / max(1, view.pot) >= 0.5:
                info.append(probe(h, view, dist, lbr_seat))
            luck.decision(h, view, dist)
            action = sample_action(dist, rng)
            lbr.observe(strip(view), action)
            who = "S"
        k = {"ALLIN": "A", "CHECK": "X"}.get(action.kind.name, action.kind.name[0])
        if action.kind.name in ("BET", "RAISE"):
            f = (action.to - view.current_bet) / max(1, view.pot + view.call_amount)
            k += f"{f:.2f}"
        line.append((view.street, who + k))
        h.act(action, seat=seat)
        luck.acted(h, action)
    memory.add(h, players)
    result = allin_ev(h, np.random.default_rng(deal_seed))
    net = result[lbr_seat] if result is not None else float(h.stacks[lbr_seat] - stacks[lbr_seat])
    return net, luck.score(net), line, info


def main():
    decks, seed, deals, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rules = RuleSet(decks=decks, seats=2)
    opp = policy_of("strong")
    model = as_distribution(opp, (8, 3, 3, 3), seed)
    memory = Memory()
    rows = []
    t0 = time.time()
    for d in range(deals):
        deal_seed = seed * 1_000_003 + d
        for s in (0, 1):
            net, adj, line, info = hand(rules, opp, model, s, d % 2, deal_seed, memory)
            rows.append({"d": d, "lbr": s, "sb": s == d % 2, "net": net / rules.big_blind,
                         "adj": adj / rules.big_blind, "line": line, "info": info})
    hb = memory.seen.get("lbr")
    json.dump({"rows": rows, "secs": time.time() - t0,
               "habits": None if hb is None else {"agg0": hb.aggression_after(False), "agg1": hb.aggression_after(True),
                                                   "fold_after": hb.fold_after()}}, open(path, "w"))

main()
