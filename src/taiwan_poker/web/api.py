"""The JSON API (``/api/...``): one thin handler per page action, each calling the core."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..cards import MAX_DECKS, MIN_DECKS, Card, check_decks, full_shoe, min_decks_for, parse_card, resolve_cards
from ..errors import CardCountError, TaiwanPokerError
from ..evaluate import CATEGORIES, evaluate
from ..odds.equity import EquityResult, equity
from ..tables.limits import DECKS, DEFAULT_DECKS, MAX_CHIPS
from ..trainer import scenarios as sc
from ..trainer.drills import MAX_SEED, generate_drill, parse_fraction
from ..trainer.lab import LabHand, check_lab_decks
from ..trainer.next_card import Target, break_even_equity, draw_odds
from . import odds_page, views
from .error_model import ERROR_RESPONSES
from .i18n import LANGS, card_json, catalogue, t
from .jobs import Job, JobRunner
from .numbers import setting, setting_query
from .rate_limits import per_address
from .sessions import SessionStore
from .state import Score, lang_of

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)
PRACTICE_COOKIE = "tp_practice"
EQUITY_WORK = 6_000_000  # hands x players one equity request may evaluate (3 M heads-up, 1 M six-handed)
MAX_OPPONENTS = 5

Lang = Annotated[str, Depends(lang_of)]


class Strict(BaseModel):
    """A request body: no unknown fields, and no type coercion (``true`` is not the number 1, ``"2"`` not 2)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class EvaluateIn(Strict):
    cards: list[str] = Field(description="5–7 cards such as As, Td, 10h; a deck as As:2",
                             examples=[["As", "As:2", "Ah", "Kd", "Kc"]],
                             json_schema_extra={"minItems": 5, "maxItems": 7})
    decks: int | None = setting((MIN_DECKS, MAX_DECKS), None,
                                description="decks in the shoe (1–8); default: the fewest that hold the cards")


class LabIn(Strict):
    decks: int = setting((DECKS.start, DECKS.stop - 1), DEFAULT_DECKS,
                         description=f"{DECKS.start} to {DECKS.stop - 1}")


class AnswerIn(Strict):
    scenario: str
    choice: str


class DrillAnswerIn(Strict):
    seed: int = setting((0, MAX_SEED - 1))
    choice: str = Field(description="the chosen fraction, a/b")


class OutsIn(Strict):
    decks: int = setting((MIN_DECKS, MAX_DECKS), 2)
    hole: list[str] = Field(default_factory=list, json_schema_extra={"maxItems": 2})
    board: list[str] = Field(default_factory=list, json_schema_extra={"maxItems": 5})
    burn: str | None = None
    target: str = Field("suit:h", description="suit:h, rank:A or face:Ah")


class PotOddsIn(Strict):
    pot: int = setting((0, MAX_CHIPS), high=MAX_CHIPS, description="the pot before the bet")
    bet: int = setting((1, MAX_CHIPS), high=MAX_CHIPS, description="the bet you face")


def labs(request: Request) -> SessionStore[LabHand]:
    store: SessionStore[LabHand] = request.app.state.labs
    return store


def scores(request: Request) -> SessionStore[Score]:
    store: SessionStore[Score] = request.app.state.scores
    return store


def parse_known(groups: list[list[str]], decks: int) -> list[list[Any]]:
    """Parse several groups of card names as one set of distinct physical cards."""
    specs = [[parse_card(c) for c in g] for g in groups]
    flat = resolve_cards([s for g in specs for s in g], decks)
    out, i = [], 0
    for g in specs:
        out.append(flat[i:i + len(g)])
        i += len(g)
    return out


@router.get("/i18n/{lang}", summary="The message catalogue of one language")
def messages(lang: str) -> dict[str, str]:
    if lang not in LANGS:
        raise TaiwanPokerError(f"unknown language {lang!r}; one of {', '.join(LANGS)}", code="bad_lang", lang=lang)
    return catalogue(lang)


@router.get("/home", summary="Home page content")
def home(lang: Lang) -> dict[str, Any]:
    return {
        "title": t(lang, "app.name"),
        "tagline": t(lang, "home.tagline"),
        "intro": t(lang, "home.intro"),
        "play_money": t(lang, "common.play_money"),
        "new": [{"title": t(lang, f"home.new.{i}.title"), "text": t(lang, f"home.new.{i}.text")} for i in range(1, 5)],
        "pages": [{"path": p, "name": t(lang, f"nav.{k}"), "text": t(lang, f"home.link.{k}")}
                  for k, p in (("rules", "/rules"), ("odds", "/odds"), ("calculators", "/calculators"),
                               ("lab", "/lab"), ("practice", "/practice"))],
    }


@router.get("/rules", summary="Rules: hand flow, betting, minimum raise, categories and duplicate-card rulings")
def rules(lang: Lang) -> dict[str, Any]:
    return views.rules_json(lang)


@router.post("/evaluate", summary="Judge 5–7 cards: category and best five")
def evaluate_cards(body: EvaluateIn, lang: Lang) -> dict[str, Any]:
    if not 5 <= len(body.cards) <= 7:
        raise CardCountError(f"a hand has 5 to 7 cards, not {len(body.cards)}", count=len(body.cards))
    specs = [parse_card(c) for c in body.cards]
    decks = min_decks_for(specs) if body.decks is None else check_decks(body.decks)
    return {"decks": decks, **views.hand_json(lang, evaluate(resolve_cards(specs, decks)))}


@router.post("/lab/hands", status_code=201, summary="Lab table: shuffle a fresh shoe and deal your burn and hole cards")
def lab_new(body: LabIn, lang: Lang, store: Annotated[SessionStore[LabHand], Depends(labs)]) -> dict[str, Any]:
    hand = LabHand.deal(check_lab_decks(body.decks))
    return views.lab_json(lang, store.add(hand), hand)


def _lab(store: SessionStore[LabHand], hand_id: str) -> LabHand:
    hand = store.get(hand_id)
    if hand is None:
        raise TaiwanPokerError(f"no lab hand {hand_id!r} (it may have expired)", code="no_lab_hand")
    return hand


@router.get("/lab/hands/{hand_id}", summary="Lab table: the hand as you may see it")
def lab_get(hand_id: str, lang: Lang, store: Annotated[SessionStore[LabHand], Depends(labs)]) -> dict[str, Any]:
    return views.lab_json(lang, hand_id, _lab(store, hand_id))


@router.post("/lab/hands/{hand_id}/next", summary="Lab table: burn one card face down and deal the next street")
def lab_next(hand_id: str, lang: Lang, store: Annotated[SessionStore[LabHand], Depends(labs)]) -> dict[str, Any]:
    hand = _lab(store, hand_id)
    with store.lock():
        hand.advance()
    return views.lab_json(lang, hand_id, hand)


def _score(request: Request, response: Response, store: SessionStore[Score], sid: str | None) -> Score:
    score = store.get(sid) if sid else None
    if score is None or sid is None:
        score = Score()
        sid = store.add(score)
        response.set_cookie(PRACTICE_COOKIE, sid, httponly=True, samesite="lax")
    return score


@router.get("/practice/scenarios", summary="Practice room: the three decision scenarios (without answers)")
def practice_scenarios(lang: Lang) -> list[dict[str, Any]]:
    return [views.scenario_json(lang, s) for s in sc.scenarios()]


@router.get("/practice/score", summary="Practice room: this session's score")
def practice_score(request: Request, response: Response, store: Annotated[SessionStore[Score], Depends(scores)],
                   tp_practice: Annotated[str | None, Cookie()] = None) -> dict[str, Any]:
    return _score(request, response, store, tp_practice).json()


@router.post("/practice/answers", summary="Practice room: answer a scenario; get the explanation and your score")
def practice_answer(body: AnswerIn, lang: Lang, request: Request, response: Response,
                    store: Annotated[SessionStore[Score], Depends(scores)],
                    tp_practice: Annotated[str | None, Cookie()] = None) -> dict[str, Any]:
    g = sc.grade(body.scenario, body.choice)
    score = _score(request, response, store, tp_practice)
    with store.lock():
        score.record(f"scenario:{g.scenario.id}", g.correct)
    return {"correct": g.correct, "answer": g.scenario.correct,
            "answer_label": t(lang, f"practice.{g.scenario.id}.choice.{g.scenario.correct}"),
            "explanation": views.explanation(lang, g.scenario), "score": score.json()}


@router.get("/practice/drill", summary="Practice room: a generated multi-deck spot (random unless a seed is given)")
def practice_drill(lang: Lang, seed: Annotated[int | None, setting_query((0, MAX_SEED - 1))] = None) -> dict[str, Any]:
    return views.drill_json(lang, generate_drill(secrets.randbelow(MAX_SEED) if seed is None else seed))


@router.post("/practice/drill/answers", summary="Practice room: answer a drill; the exact answer and its counts")
def practice_drill_answer(body: DrillAnswerIn, lang: Lang, request: Request, response: Response,
                          store: Annotated[SessionStore[Score], Depends(scores)],
                          tp_practice: Annotated[str | None, Cookie()] = None) -> dict[str, Any]:
    d = generate_drill(body.seed)
    chosen = parse_fraction(body.choice)
    correct = chosen == d.answer
    score = _score(request, response, store, tp_practice)
    with store.lock():
        score.record(f"drill:{body.seed}", correct)
    return {"correct": correct, "answer": views.fraction_json(d.answer),
            "explanation": views.drill_explanation(lang, d), "score": score.json()}


@router.post("/calc/outs", summary="Outs with private information: next card and next two cards, exactly",
             dependencies=[per_address("calc_light")])
def calc_outs(body: OutsIn, lang: Lang) -> dict[str, Any]:
    decks = check_decks(body.decks)
    if len(body.hole) > 2:
        raise CardCountError("at most 2 hole cards", code="bad_hole_count", count=len(body.hole))
    if len(body.board) > 5:
        raise CardCountError("at most 5 board cards", code="bad_board_count", count=len(body.board))
    hole, board, burn = parse_known([body.hole, body.board, [body.burn] if body.burn else []], decks)
    target = Target.parse(body.target)
    known = [*hole, *board, *burn]
    odds = draw_odds(decks, known, target)
    return {"hole": [card_json(c) for c in hole], "board": [card_json(c) for c in board],
            "burn": [card_json(c) for c in burn], **views.odds_json(lang, odds, target),
            "by_burn": _by_burn(lang, decks, [*hole, *board], target)}


def _by_burn(lang: str, decks: int, seen: list[Card], target: Target) -> list[dict[str, Any]]:
    """The spec's three information states for the same cards: burn unknown, a target card, not a target card."""
    rows: list[tuple[str, Card | None]] = [("unknown", None)]
    left = [c for c in full_shoe(decks) if c not in seen]
    hit = next((c for c in left if target.matches(c)), None)
    miss = next((c for c in left if not target.matches(c)), None)
    rows += [("hit", hit), ("miss", miss)]
    out = []
    for key, burn in rows:
        if key != "unknown" and burn is None:
            continue
        o = draw_odds(decks, [*seen, *([burn] if burn else [])], target)
        out.append({"state": key, "label": t(lang, f"calc.burn_state.{key}"), "outs": o.outs, "unseen": o.unseen,
                    "next_card": views.fraction_json(o.next_card), "formula": f"{o.outs}/{o.unseen}"})
    return out


@router.post("/calc/pot-odds", summary="Pot odds: break-even equity B/(P+2B)", dependencies=[per_address("calc_light")])
def calc_pot_odds(body: PotOddsIn) -> dict[str, Any]:
    need = break_even_equity(body.pot, body.bet)
    return {"pot": body.pot, "bet": body.bet, "final_pot": body.pot + 2 * body.bet,
            "break_even": views.fraction_json(need)}


class EquityIn(Strict):
    decks: int = setting((MIN_DECKS, MAX_DECKS), 2)
    hero: str = Field(description="your two hole cards, e.g. AsKs")
    opponents: list[str] = Field(default_factory=lambda: ["random"],
                                 description="one per opponent: an exact hand (QdQc), a range (QQ+,AKs) or random",
                                 json_schema_extra={"minItems": 1, "maxItems": MAX_OPPONENTS})
    board: str = Field("", description="0, 3, 4 or 5 cards, e.g. Jh8h4s")
    burn: str | None = Field(None, description="your own private burn, when you know it")
    precision: float = Field(0.002, description="Monte Carlo stops at this 95% half-width (0.001 to 0.05)",
                             json_schema_extra={"minimum": 0.001, "maximum": 0.05})


def jobs(request: Request) -> JobRunner:
    runner: JobRunner = request.app.state.jobs
    return runner


def _equity_json(result: EquityResult) -> dict[str, Any]:
    out = result.to_json()
    out["exact"] = result.method == "exact"
    players: list[dict[str, Any]] = [p.to_json() for p in result.players]
    for p in players:
        se = p.get("equity_se")
        p["half_width"] = None if se is None else 1.96 * float(se)
    out["players"] = players
    return out


def _job_json(lang: str, key: str, job: Job) -> dict[str, Any]:
    out: dict[str, Any] = {"id": key, "status": job.status, "progress": round(job.progress, 4)}
    if job.status == "done":
        out["result"] = job.result
    return out


@router.post("/calc/equity", summary="Equity calculator: returns the result, or a job to poll for longer runs",
             responses={202: {"description": "still running: poll /api/calc/equity/{id}"}},
             dependencies=[per_address("calc")])
async def calc_equity(body: EquityIn, lang: Lang, response: Response,
                      runner: Annotated[JobRunner, Depends(jobs)]) -> dict[str, Any]:
    """Async so that a flood of calculations waits on the event loop, never on the threads room reads need."""
    decks = check_decks(body.decks)
    if not 0.001 <= body.precision <= 0.05:
        raise TaiwanPokerError("precision must be between 0.001 and 0.05", code="bad_precision")
    if not 1 <= len(body.opponents) <= MAX_OPPONENTS:
        raise TaiwanPokerError(f"give 1 to {MAX_OPPONENTS} opponents", code="bad_equity_request")
    # one request's work is bounded: hands dealt x players to evaluate stays under one budget
    max_hands = EQUITY_WORK // (len(body.opponents) + 1)

    def run(progress: Callable[[float], None]) -> dict[str, Any]:
        return _equity_json(equity(body.hero, body.opponents, body.board, decks=decks, burn=body.burn or None,
                                   precision=body.precision, max_hands=max_hands, progress=progress))

    key, job, future = runner.submit(run)
    await asyncio.wait([asyncio.wrap_future(future)], timeout=0.5)
    if job.status == "error" and job.error is not None:
        raise job.error
    if job.status != "done":
        response.status_code = 202
    return _job_json(lang, key, job)


@router.get("/calc/equity/{job_id}", summary="Equity calculator: progress and result of a run")
async def calc_equity_job(job_id: str, lang: Lang, runner: Annotated[JobRunner, Depends(jobs)]) -> dict[str, Any]:
    job = runner.jobs.get(job_id)
    if job is None:
        raise TaiwanPokerError(f"no calculation {job_id!r}", code="no_job")
    if job.status == "error" and job.error is not None:
        raise job.error
    return _job_json(lang, job_id, job)


@router.get("/odds", summary="Odds: exact five- and seven-card tables, starting hands (1–6 decks), preflop heat map")
def odds(lang: Lang, decks: Annotated[int, setting_query((1, 6))] = 2) -> dict[str, Any]:
    d = odds_page.check_odds_decks(decks)
    return {
        "five": odds_page.category_table(5),
        "seven": odds_page.category_table(7),
        "starting": odds_page.starting_table(),
        "heat_map": odds_page.heat_map(d),
        "categories": {c.value: t(lang, f"category.{c.value}") for c in CATEGORIES},
    }
