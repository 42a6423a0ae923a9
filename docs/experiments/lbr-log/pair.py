import json, sys
def load(p): return {(r["d"], r["lbr"]): r for r in json.load(open(p))["rows"]}
for d in sys.argv[3:]:
    a, b = load(f"{sys.argv[1]}_{d}.json"), load(f"{sys.argv[2]}_{d}.json")
    ks = sorted(set(a) & set(b)); n = len(ks)
    for f in ("net", "adj"):
        ma = sum(a[k][f] for k in ks) / n * 1000; mb = sum(b[k][f] for k in ks) / n * 1000
        diffs = [(b[k][f] - a[k][f]) * 1000 for k in ks]; m = sum(diffs) / n
        sd = (sum((x - m) ** 2 for x in diffs) / (n - 1)) ** .5 / n ** .5
        same = sum(1 for k in ks if a[k]["line"] == b[k]["line"])
        print(f"decks {d} {f}: {sys.argv[1]} {ma:+.0f}  {sys.argv[2]} {mb:+.0f}  diff {m:+.0f} ± {1.96*sd:.0f}  (same line {same}/{n})")
