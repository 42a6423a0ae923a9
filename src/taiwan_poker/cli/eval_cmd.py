"""``taiwan-poker eval``: judge a hand, as a human table or as the JSON-lines contract."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..cards import check_decks, min_decks_for, parse_card, pretty, resolve_cards
from ..errors import CardCountError, TaiwanPokerError
from ..evaluate import DEFAULT_RANKING, Ranking, evaluate
from .jsonl import run_jsonl


def judge_request(obj: dict[str, Any]) -> dict[str, Any]:
    """The contract's ``eval`` line: ``{"cards": [...], "decks": d}`` → category, best five, rank."""
    cards = obj.get("cards")
    if not isinstance(cards, list):
        raise TaiwanPokerError('"cards" must be a list of 5 to 7 card names', code="bad_json")
    if not 5 <= len(cards) <= 7:
        raise CardCountError(f"a hand has 5 to 7 cards, not {len(cards)}")
    specs = [parse_card(c) for c in cards]
    decks = obj.get("decks")
    decks = min_decks_for(specs) if decks is None else check_decks(decks)
    ranking_name = obj.get("ranking", DEFAULT_RANKING.value)
    try:
        ranking = Ranking(ranking_name)
    except ValueError:
        choices = ", ".join(r.value for r in Ranking)
        raise TaiwanPokerError(f"unknown ranking {ranking_name!r}; one of {choices}", code="bad_ranking") from None
    hand = evaluate(resolve_cards(specs, decks), ranking)
    return {"category": hand.category.value, "best": [c.face_str for c in hand.best], "rank": hand.rank}


CardsArg = Annotated[list[str] | None, typer.Argument(help="5–7 cards, e.g. As Ah As Kd Kc 2h 3d (deck as As:2)")]
DecksOpt = Annotated[int | None, typer.Option(help="Decks in the shoe (1–8); default: the fewest that hold the cards")]
RankingOpt = Annotated[Ranking, typer.Option(help="Which category is on top")]
JsonlOpt = Annotated[bool, typer.Option("--jsonl", help="Read one JSON request a line on stdin (see the contract)")]
USAGE = "[red]請給 5 至 7 張牌 / give 5 to 7 cards[/red], e.g. taiwan-poker eval As Ah As Kd Kc 2h 3d --decks 2"


def eval_command(
    cards: CardsArg = None,
    decks: DecksOpt = None,
    ranking: RankingOpt = DEFAULT_RANKING,
    jsonl: JsonlOpt = False,
) -> None:
    """Judge a hand: best five cards, category and rank. 判定牌型：最佳五張、牌型與大小。"""
    if jsonl:
        run_jsonl(judge_request)
        return
    console = Console()
    if not cards:
        console.print(USAGE)
        raise typer.Exit(2)
    try:
        specs = [parse_card(c) for c in cards]
        if not 5 <= len(specs) <= 7:
            raise CardCountError(f"a hand has 5 to 7 cards, not {len(specs)}")
        physical = resolve_cards(specs, min_decks_for(specs) if decks is None else check_decks(decks))
        hand = evaluate(physical, ranking)
    except TaiwanPokerError as exc:
        console.print(f"[red]錯誤 error[/red] [bold]{exc.code}[/bold]: {exc.message}")
        raise typer.Exit(2) from None
    table = Table(show_header=False, box=None)
    table.add_row("牌型 Category", f"[bold]{hand.category.zh}[/bold]  {hand.category.en}")
    table.add_row("最佳五張 Best five", "  ".join(pretty(c) for c in hand.best))
    table.add_row("牌面 Cards", " ".join(c.face_str for c in hand.best))
    table.add_row("大小 Rank", str(hand.rank))
    console.print(table)
