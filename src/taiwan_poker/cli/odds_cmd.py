"""``taiwan-poker odds …``: exact tables, Monte Carlo, starting hands, outs, pot odds, equity, charts.

Every command prints a Rich table (zh-TW first, then English) or, with
``--json``, exactly one JSON document on stdout.  Bad input prints an error
with its code and exits with status 2.

Card lists after ``--hole``, ``--board`` and ``--outs`` may be written as
separate words (``--hole Ah Qh``), one quoted string (``--hole "Ah Qh"``) or
glued (``--hole AhQh``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..cards import RANKS, SUITS, check_decks, parse_card, resolve_cards
from ..errors import CardCountError, TaiwanPokerError
from ..evaluate import CATEGORIES, Category
from ..odds.charts import CHART_HANDS, CHART_SEED, DATA_FILE, build_charts, load_charts
from ..odds.equity import equity as compute_equity
from ..odds.equity import split_cards
from ..odds.five import five_card_counts, five_card_counts_formula, percent_text, total_hands
from ..odds.outs import outs_probability, target_faces
from ..odds.potodds import break_even_equity, call_ev, showdown_equity
from ..odds.seven import seven_card_counts
from ..odds.simulate import SPEC_DECKS, SPEC_HANDS, SPEC_SEED, simulate_seven
from ..odds.starting import class_combinations, class_probability, starting_hand_stats

odds_app = typer.Typer(
    name="odds",
    help="機率工具 Odds tools: exact multi-deck tables, Monte Carlo, outs, pot odds, equity.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_GREEDY = {"context_settings": {"ignore_unknown_options": True, "allow_extra_args": False}}


class UsageError(TaiwanPokerError):
    code = "bad_usage"


# -------------------------------------------------------------------------------------------- helpers


def _emit(doc: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(doc, ensure_ascii=False) + "\n")


def _fail(exc: TaiwanPokerError, as_json: bool) -> typer.Exit:
    if as_json:
        _emit({"error": exc.to_json()})
    else:
        Console(stderr=True).print(f"[red]錯誤 error[/red] [bold]{exc.code}[/bold]: {exc.message}")
    return typer.Exit(2)


@contextmanager
def _errors(as_json: bool) -> Iterator[None]:
    try:
        yield
    except TaiwanPokerError as exc:
        raise _fail(exc, as_json) from None
    except ValueError as exc:  # defensive: never a traceback for bad input
        raise _fail(TaiwanPokerError(str(exc), code="bad_input"), as_json) from None


def parse_deck_list(text: str) -> list[int]:
    """``"3"`` → [3]; ``"1-6"`` → [1..6]; ``"1,2,3,4,6"`` → that list (each 1..8)."""
    out: list[int] = []
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise TaiwanPokerError(f"bad deck list {text!r}: use 3, 1-6 or 1,2,3,4,6", code="bad_decks")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            raise TaiwanPokerError(f"bad deck range {part!r}", code="bad_decks")
        out += [check_decks(d) for d in range(lo, hi + 1)]
    if not out:
        raise TaiwanPokerError("no deck count given", code="bad_decks")
    return out


def split_greedy(tokens: Sequence[str], greedy: Sequence[str]) -> tuple[list[str], dict[str, list[str]]]:
    """Split raw tokens into positionals and the words following each greedy option (``--board Jh 8h``)."""
    positional: list[str] = []
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for tok in tokens:
        if tok.startswith("--"):
            name, eq, value = tok.partition("=")
            if name not in greedy:
                raise UsageError(f"unknown option {name}", option=name)
            current = found.setdefault(name, [])
            if eq:
                current.append(value)
            continue
        (current if current is not None else positional).append(tok)
    return positional, found


def _cards_of(words: Sequence[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        out += split_cards(w)
    return out


def _pct(p: float | Fraction, places: int = 4) -> str:
    return f"{float(p) * 100:.{places}f}%"


def _progress() -> Progress:
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f}%"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def _cat_label(cat: Category) -> str:
    return f"{cat.zh} {cat.en}"


# ------------------------------------------------------------------------------------------------ five


@odds_app.command("five")
def five_command(
    decks: Annotated[str, typer.Option(help="Deck counts: 3, 1-4 or 1,2,4 (each 1–8)")] = "1-4",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """五張牌精確機率 Exact five-card category counts (formulas = enumeration)."""
    with _errors(as_json):
        deck_list = parse_deck_list(decks)
        rows = []
        for d in deck_list:
            counts = five_card_counts(d)
            agree = counts == five_card_counts_formula(d)
            total = total_hands(d, 5)
            rows.append((d, counts, total, agree))
    if as_json:
        _emit(
            {
                "command": "five",
                "cards": 5,
                "results": [
                    {
                        "decks": d,
                        "total": total,
                        "formula_equals_enumeration": agree,
                        "counts": {c.value: n for c, n in counts.items()},
                        "probabilities": {c.value: n / total for c, n in counts.items()},
                        "percent_text": {c.value: percent_text(Fraction(n, total)) for c, n in counts.items()},
                    }
                    for d, counts, total, agree in rows
                ],
            }
        )
        return
    table = Table(title="五張牌精確機率 Exact five-card probabilities (C(52d,5) hands)")
    table.add_column("最強牌型 Category")
    for d, *_ in rows:
        table.add_column(f"{d} 副 decks\n組合數 count / 機率 %", justify="right")
    for cat in CATEGORIES:
        table.add_row(
            _cat_label(cat),
            *(f"{counts[cat]:,}\n{percent_text(Fraction(counts[cat], t))}%" for _, counts, t, _ in rows),
        )
    table.add_row("合計 Total", *(f"{t:,}" for _, _, t, _ in rows))
    console = Console()
    console.print(table)
    ok = all(a for *_, a in rows)
    console.print(f"公式 = 枚舉 formula = enumeration: {'✓' if ok else '✗ MISMATCH'}")


# ----------------------------------------------------------------------------------------------- seven


@odds_app.command("seven")
def seven_command(
    decks: Annotated[str | None, typer.Option(help="Deck counts (default 1-6 exact; 1,2,3,4,6 simulated)")] = None,
    exact: Annotated[bool, typer.Option("--exact/--simulate", help="Exact counts (default) or the Monte Carlo")] = True,
    hands: Annotated[int, typer.Option(help="Monte Carlo hands per deck count")] = SPEC_HANDS,
    seed: Annotated[int, typer.Option(help="Monte Carlo seed (PCG64)")] = SPEC_SEED,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """七選五牌型分布 Best five of seven: exact counts or the spec's seeded Monte Carlo."""
    with _errors(as_json):
        deck_list = parse_deck_list(decks) if decks else ([1, 2, 3, 4, 5, 6] if exact else list(SPEC_DECKS))
        if hands < 1:
            raise UsageError("--hands must be positive")
        if exact:
            results: list[Any] = []
            if as_json:
                results = [(d, seven_card_counts(d)) for d in deck_list]
            else:
                with _progress() as prog:
                    task = prog.add_task("精確計算 exact", total=len(deck_list))
                    for d in deck_list:
                        results.append((d, seven_card_counts(d)))
                        prog.advance(task)
        else:
            if as_json:
                sims = simulate_seven(deck_list, hands, seed)
            else:
                with _progress() as prog:
                    task = prog.add_task("模擬 simulating", total=len(deck_list))
                    sims = simulate_seven(deck_list, hands, seed, progress=lambda _d: prog.advance(task))
    if exact:
        if as_json:
            _emit(
                {
                    "command": "seven",
                    "method": "exact",
                    "results": [
                        {
                            "decks": d,
                            "total": comb(52 * d, 7),
                            "counts": {c.value: n for c, n in counts.items()},
                            "probabilities": {c.value: n / comb(52 * d, 7) for c, n in counts.items()},
                        }
                        for d, counts in results
                    ],
                }
            )
            return
        table = Table(title="七選五精確分布 Exact best-five-of-seven distribution (C(52d,7) hands)")
        table.add_column("最佳五張牌型 Category")
        for d, _ in results:
            table.add_column(f"{d} 副 decks", justify="right")
        for cat in CATEGORIES:
            table.add_row(
                _cat_label(cat),
                *(
                    f"{counts[cat]:,}\n{percent_text(Fraction(counts[cat], comb(52 * d, 7)), 4)}%"
                    for d, counts in results
                ),
            )
        table.add_row("合計 Total", *(f"{comb(52 * d, 7):,}" for d, _ in results))
        Console().print(table)
        return
    if as_json:
        _emit(
            {
                "command": "seven",
                "method": "monte_carlo",
                "seed": seed,
                "hands": hands,
                "decks_order": deck_list,
                "results": [
                    {"decks": s.decks, "estimates": {c.value: e.to_json() for c, e in s.estimates.items()}}
                    for s in sims
                ],
            }
        )
        return
    table = Table(
        title=f"七選五蒙地卡羅 Monte Carlo, PCG64 seed {seed}, {hands:,} hands per deck count\n"
        "估計 estimate % (標準誤 SE) [95% 區間 interval]"
    )
    table.add_column("最佳五張牌型 Category")
    for s in sims:
        table.add_column(f"{s.decks} 副 decks", justify="right")
    for cat in CATEGORIES:
        cells = []
        for s in sims:
            e = s.estimates[cat]
            cells.append(f"{e.p * 100:.3f}% ({e.se * 100:.4f})\n[{e.low * 100:.4f}, {e.high * 100:.4f}]")
        table.add_row(_cat_label(cat), *cells)
    Console().print(table)


# ----------------------------------------------------------------------------------------------- start


@odds_app.command("start")
def start_command(
    decks: Annotated[str, typer.Option(help="Deck counts: 2, 1-4 or 1,2,4")] = "1-4",
    hand: Annotated[
        list[str] | None, typer.Option(help="Also a class or range: AKs, QQ, QQ=, AsAs, QQ+ (repeatable)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """起手牌機率 Starting-hand probabilities (pocket pair, identical, suited, AA, any class)."""
    labels = {
        "pocket_pair": "口袋對子 Pocket pair",
        "identical": "兩張完全相同牌 Identical cards",
        "suited": "同花色底牌 Suited",
        "pocket_aces": "口袋 AA Pocket aces",
    }
    with _errors(as_json):
        deck_list = parse_deck_list(decks)
        stats = [starting_hand_stats(d) for d in deck_list]
        extra = [(h, [(class_combinations(h, d), class_probability(h, d)) for d in deck_list]) for h in hand or []]
    if as_json:
        _emit(
            {
                "command": "start",
                "results": [
                    {
                        "decks": s.decks,
                        "total_cards": s.total_cards,
                        "cards_per_rank": s.cards_per_rank,
                        "hands": comb(s.total_cards, 2),
                        **{k: float(v) for k, v in s.rows().items()},
                        "fractions": {k: f"{v.numerator}/{v.denominator}" for k, v in s.rows().items()},
                        "classes": {
                            h: {"combinations": vals[i][0], "probability": float(vals[i][1])} for h, vals in extra
                        },
                    }
                    for i, s in enumerate(stats)
                ],
            }
        )
        return
    table = Table(title="起手牌精確機率 Starting-hand probabilities")
    table.add_column("指標 Measure")
    for d in deck_list:
        table.add_column(f"{d} 副 decks", justify="right")
    table.add_row("總張數 Cards", *(str(s.total_cards) for s in stats))
    table.add_row("每點數張數 Cards per rank", *(str(s.cards_per_rank) for s in stats))
    for key, label in labels.items():
        table.add_row(label, *(_pct(s.rows()[key]) for s in stats))
    for h, vals in extra:
        table.add_row(f"{h}", *(f"{_pct(p)}\n({n:,} 組 combos)" for n, p in vals))
    Console().print(table)


# ------------------------------------------------------------------------------------------------ outs


@odds_app.command("outs", **_GREEDY)  # type: ignore[arg-type]
def outs_command(
    tokens: Annotated[
        list[str] | None,
        typer.Argument(
            help="--hole Ah Qh  --board Jh 8h 4s 2d  [--outs 9h 9d …] (card lists)", metavar="[--hole …] [--board …]"
        ),
    ] = None,
    burn: Annotated[str | None, typer.Option(help="Your own private burn, when you have seen it")] = None,
    suit: Annotated[str | None, typer.Option(help="Target suit: s h d c")] = None,
    rank: Annotated[str | None, typer.Option(help="Target rank: 2-9 T J Q K A")] = None,
    face: Annotated[str | None, typer.Option(help="Target face, e.g. Ah")] = None,
    decks: Annotated[int, typer.Option(help="Decks in the shoe (1–8)")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """補牌機率 Outs with private information: next card and next two cards."""
    with _errors(as_json):
        positional, opts = split_greedy(tokens or [], ["--hole", "--board", "--outs"])
        if positional:
            raise UsageError(f"unexpected words {' '.join(positional)!r}; put cards after --hole / --board / --outs")
        hole = _cards_of(opts.get("--hole", []))
        board = _cards_of(opts.get("--board", []))
        outs_faces = _cards_of(opts.get("--outs", []))
        if len(hole) not in (0, 2):
            raise CardCountError(f"--hole takes 2 cards, not {len(hole)}", count=len(hole))
        if len(board) > 5:
            raise CardCountError(f"the board has at most 5 cards, not {len(board)}", count=len(board))
        names = hole + board + ([burn] if burn else [])
        known = resolve_cards([parse_card(n) for n in names], check_decks(decks))
        faces = target_faces(face=face, rank=rank, suit=suit, faces=outs_faces)
        result = outs_probability(known, faces, decks)
        # The same spot without the burn, for comparison (what the burn's information changes).
        base = outs_probability(known[:-1], faces, decks) if burn else None
    if as_json:
        doc: dict[str, Any] = {"command": "outs", **result.to_json()}
        doc["hole"], doc["board"], doc["burn"] = hole, board, burn
        if base is not None:
            doc["without_burn"] = base.to_json()
        _emit(doc)
        return
    table = Table(title=f"補牌機率 Outs ({decks} 副 decks)")
    table.add_column("資訊 Information")
    table.add_column("已知 Known", justify="right")
    table.add_column("剩餘補牌 / 未知牌 Outs / unseen", justify="right")
    table.add_column("下一張 Next card", justify="right")
    table.add_column("兩張內至少一張 Next two", justify="right")
    rows = [("不計燒牌 Burn unknown", base)] if base is not None else []
    rows.append(("含已知燒牌 With own burn" if burn else "已知牌 Known cards", result))
    for label, r in rows:
        assert r is not None
        table.add_row(label, str(r.known), f"{r.outs} / {r.unseen}", _pct(r.next_card), _pct(r.next_two))
    console = Console()
    console.print(table)
    target = " ".join(RANKS[f >> 2] + SUITS[f & 3] for f in result.target_faces)
    console.print(f"目標牌面 Target faces: {target}")
    console.print(
        "未知的對手底牌、對手燒牌與系統燒牌不從分母扣除。Unseen cards (opponents, dealer burns) are not subtracted."
    )


# --------------------------------------------------------------------------------------------- potodds


@odds_app.command("potodds")
def potodds_command(
    pot: Annotated[float, typer.Option(help="Pot before the bet (P)")],
    bet: Annotated[float, typer.Option(help="The bet to call (B)")],
    equity: Annotated[float | None, typer.Option(help="Your equity (0–1) to judge the call")] = None,
    win: Annotated[float | None, typer.Option(help="Or: your win rate (0–1)")] = None,
    tie: Annotated[float, typer.Option(help="Tie rate (0–1), counted at --share")] = 0.0,
    share: Annotated[float, typer.Option(help="Your share of a tied pot")] = 0.5,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """底池賠率 Pot odds: break-even equity B/(P+2B); equity = win + tie × share."""
    with _errors(as_json):
        p, b = Fraction(str(pot)), Fraction(str(bet))
        need = break_even_equity(p, b)
        eq: float | None = equity
        if eq is None and win is not None:
            eq = showdown_equity(win, tie, share)
        if eq is not None and not 0 <= eq <= 1:
            raise TaiwanPokerError("equity is between 0 and 1", code="bad_amount")
        ev = call_ev(p, b, eq) if eq is not None else None
    if as_json:
        _emit(
            {
                "command": "potodds",
                "pot": pot,
                "bet": bet,
                "final_pot": float(p + 2 * b),
                "break_even": float(need),
                "break_even_fraction": f"{need.numerator}/{need.denominator}",
                "equity": eq,
                "call_ev": ev,
                "profitable": None if ev is None else ev > 0,
            }
        )
        return
    table = Table(show_header=False, box=None)
    table.add_row("底池 Pot (P)", f"{pot:g}")
    table.add_row("下注 Bet (B)", f"{bet:g}")
    table.add_row("最終底池 Final pot (P+2B)", f"{float(p + 2 * b):g}")
    table.add_row("損益兩平 Break-even equity", f"[bold]{_pct(need, 2)}[/bold]  ({need.numerator}/{need.denominator})")
    if eq is not None and ev is not None:
        verdict = "跟注有利 call gains" if ev > 0 else ("持平 break-even" if ev == 0 else "跟注不利 call loses")
        table.add_row("你的權益 Your equity", _pct(eq, 2))
        table.add_row("跟注期望值 Call EV", f"{ev:+.4g}  {verdict}")
    Console().print(table)


# ---------------------------------------------------------------------------------------------- equity


@odds_app.command("equity", **_GREEDY)  # type: ignore[arg-type]
def equity_command(
    tokens: Annotated[
        list[str] | None,
        typer.Argument(
            help="HERO OPPONENT… : e.g. AhKh QsQd, AhKh random, AhKh 'QQ+,AKs'; then --board Jh 8h 4s",
            metavar="HERO OPPONENT... [--board …]",
        ),
    ] = None,
    decks: Annotated[int, typer.Option(help="Decks in the shoe (1–8)")] = 2,
    burn: Annotated[str | None, typer.Option(help="The hero's own private burn, when known")] = None,
    precision: Annotated[float, typer.Option(help="Monte Carlo: 95% half-width to reach")] = 0.001,
    method: Annotated[str, typer.Option(help="auto, exact or monte_carlo")] = "auto",
    seed: Annotated[int | None, typer.Option(help="Monte Carlo seed (default: fresh)")] = None,
    max_hands: Annotated[int, typer.Option(help="Monte Carlo hand limit")] = 20_000_000,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """勝率與權益 Equity: one hand vs exact hands, ranges or random, multi-deck."""
    with _errors(as_json):
        positional, opts = split_greedy(tokens or [], ["--board"])
        if len(positional) < 2:
            raise UsageError("give the hero's hand and at least one opponent, e.g. AhKh QsQd (or random, QQ+)")
        board = _cards_of(opts.get("--board", []))
        if as_json:
            result = compute_equity(
                positional[0], positional[1:], board, decks=decks, burn=burn, method=method,
                precision=precision, seed=seed, max_hands=max_hands,
            )  # fmt: skip
        else:
            with _progress() as prog:
                task = prog.add_task("計算 computing", total=1.0)
                result = compute_equity(
                    positional[0], positional[1:], board, decks=decks, burn=burn, method=method,
                    precision=precision, seed=seed, max_hands=max_hands,
                    progress=lambda f: prog.update(task, completed=f),
                )  # fmt: skip
    if as_json:
        doc = {"command": "equity", **result.to_json(), "burn": burn}
        _emit(doc)
        return
    how = (
        f"精確枚舉 exact enumeration, {result.samples:,} 種實體發牌 physical deals"
        if result.method == "exact"
        else f"蒙地卡羅 Monte Carlo, {result.samples:,} 手 hands (±{precision:g} @95%)"
    )
    board_text = " ".join(c.face_str for c in result.board) or "—"
    table = Table(title=f"權益 Equity — {decks} 副 decks, 公共牌 board {board_text}\n{how}")
    table.add_column("玩家 Player")
    table.add_column("勝 Win", justify="right")
    table.add_column("平 Tie", justify="right")
    table.add_column("權益 Equity", justify="right")
    for i, pl in enumerate(result.players):
        se = "" if pl.equity_se is None else f" ± {pl.equity_se * 100:.3f}"
        who = ("你 Hero " if i == 0 else f"對手 Opp {i} ") + pl.label
        table.add_row(who, _pct(pl.win, 3), _pct(pl.tie, 3), f"[bold]{_pct(pl.equity, 3)}[/bold]{se}")
    console = Console()
    console.print(table)
    if burn:
        console.print(f"已扣除你的燒牌 your burn {burn} removed; 對手與系統燒牌視為未知 other burns stay unseen.")


# ---------------------------------------------------------------------------------------------- charts


def _heat(e: float) -> str:
    if e >= 0.65:
        return "bold green"
    if e >= 0.55:
        return "green"
    if e >= 0.48:
        return "yellow"
    if e >= 0.40:
        return "dark_orange"
    return "red"


@odds_app.command("charts")
def charts_command(
    decks: Annotated[int, typer.Option(help="Deck count to show (1–6)")] = 2,
    build: Annotated[bool, typer.Option("--build", help="Recompute the charts (about 3–5 minutes)")] = False,
    hands: Annotated[int, typer.Option(help="--build: hands per cell")] = CHART_HANDS,
    seed: Annotated[int, typer.Option(help="--build: seed")] = CHART_SEED,
    build_decks: Annotated[str, typer.Option(help="--build: deck counts")] = "1-6",
    out: Annotated[Path | None, typer.Option(help="--build: where to write (default: the package data file)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document")] = False,
) -> None:
    """翻牌前權益圖 Preflop equity chart vs one random hand (169 classes + 13 identical classes)."""
    with _errors(as_json):
        if build:
            deck_list = parse_deck_list(build_decks)
            if hands < 2:
                raise UsageError("--hands must be at least 2")
            if as_json:
                doc = build_charts(deck_list, hands, seed)
            else:
                with _progress() as prog:
                    task = prog.add_task("建立圖表 building", total=182 * len(deck_list))
                    doc = build_charts(deck_list, hands, seed, progress=lambda _d, _n: prog.advance(task))
            target = out or Path(__file__).resolve().parent.parent / "data" / DATA_FILE
            target.write_text(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
            load_charts.cache_clear()
            if as_json:
                _emit({"command": "charts", "built": str(target), "precision_note": doc["precision_note"]})
            else:
                Console().print(f"已寫入 written: {target}\n{doc['precision_note']}")
            return
        charts = load_charts()
        grid = charts.grid(check_decks(decks))
        identical = [charts.cell(decks, RANKS[r] * 2 + "=") for r in range(12, -1, -1)]
    if as_json:
        _emit(
            {
                "command": "charts",
                "decks": decks,
                "precision_note": charts.document["precision_note"],
                "hands_per_cell": charts.document["hands_per_cell"],
                "cells": {
                    name: None
                    if (c := charts.cell(decks, name)) is None
                    else {"equity": c.equity, "se": c.se, "win": c.win, "tie": c.tie}
                    for name in charts.classes
                },
            }
        )
        return
    order = [RANKS[r] for r in range(12, -1, -1)]
    table = Table(
        title=f"翻牌前權益 Preflop equity vs one random hand — {decks} 副 decks\n"
        "對角線=對子 (不同花色) pairs · 右上=同花 suited · 左下=不同花 offsuit",
        box=None,
        padding=(0, 1),
        pad_edge=False,
    )
    table.add_column("", no_wrap=True)
    for r in order:
        table.add_column(r, justify="right", no_wrap=True, min_width=4)
    for r, row in zip(order, grid, strict=True):
        cells = []
        for c in row:
            cells.append("—" if c is None else f"[{_heat(c.equity)}]{c.equity * 100:.1f}[/]")
        table.add_row(r, *cells)
    console = Console()
    console.print(table)
    ident = "  ".join(
        f"{r}{r}= " + ("—" if c is None else f"[{_heat(c.equity)}]{c.equity * 100:.1f}[/]")
        for r, c in zip(order, identical, strict=True)
    )
    console.print(f"完全相同牌 Identical pairs: {ident}")
    console.print(str(charts.document["precision_note"]))
