import json, sys, collections
def key(r, depth):
    line = r["line"]
    pre = [a for s, a in line if s == 0]
    pf = "limp" if pre[:2] == ["LC", "SX"] else ("Sraise" if any(a.startswith("SR") or a == "SA" for a in pre) else "other")
    if r["lbr"] is not None and not r["sb"]:
        pf = "LBR-BB:" + ("limp" if pre[:2] == ["SC", "LX"] else "raise" if pre and pre[0].startswith("SR") else "SF" if pre == ["SF"] else "other")
    post = [a[:2] if a[1] in "BR" else a for s, a in line if s >= 1]
    return (pf,) + tuple(post[:depth])
def main():
    depth = int(sys.argv[1]); rows = []
    for p in sys.argv[2:]:
        rows += json.load(open(p))["rows"]
    n = len(rows)
    g = collections.defaultdict(list)
    for r in rows:
        g[key(r, depth)].append(r)
    tot = sum(r["net"] for r in rows) / n * 1000; adj = sum(r["adj"] for r in rows) / n * 1000
    sd = (sum((r["adj"]*1000 - adj) ** 2 for r in rows) / n) ** .5 / n ** .5
    print(f"hands {n}: raw {tot:+.0f}  adj {adj:+.0f} ± {1.96*sd:.0f} mbb/h")
    for k, rs in sorted(g.items(), key=lambda kv: -abs(sum(r["adj"] for r in kv[1]))):
        if len(rs) < 8: continue
        c_raw = sum(r["net"] for r in rs) / n * 1000; c_adj = sum(r["adj"] for r in rs) / n * 1000
        print(f"{' '.join(k):40s} n={len(rs):5d} ({len(rs)/n:5.1%})  raw {c_raw:+7.0f}  adj {c_adj:+7.0f}  per-hand adj {sum(r['adj'] for r in rs)/len(rs):+.2f}bb")
main()
