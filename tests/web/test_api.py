"""API tests with FastAPI's TestClient: every endpoint, good and bad input, both languages; never a 500."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from taiwan_poker.cards import parse_cards
from taiwan_poker.evaluate import evaluate
from taiwan_poker.web import create_app
from taiwan_poker.web.i18n import LANGS, catalogue, from_accept_language, negotiate

EN = {"Accept-Language": "en-US,en;q=0.9"}
ZH = {"Accept-Language": "zh-TW,zh;q=0.9"}
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(warm=False), raise_server_exceptions=False) as c:
        yield c


def error_of(r: object, status: int) -> dict[str, str]:
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    err: dict[str, str] = r.json()["error"]  # type: ignore[attr-defined]
    assert err["code"] and err["message"]
    return err


# --- the catalogue -------------------------------------------------------------------------------

def test_catalogues_have_the_same_keys_and_placeholders() -> None:
    zh, en = catalogue("zh-TW"), catalogue("en")
    assert zh.keys() == en.keys()
    for key in zh:
        assert set(re.findall(r"\{(\w+)\}", zh[key])) == set(re.findall(r"\{(\w+)\}", en[key])), key


def test_every_template_key_exists() -> None:
    root = Path(__file__).resolve().parents[2] / "src" / "taiwan_poker" / "web"
    used: set[str] = set()
    for f in [*root.glob("templates/*.html"), *root.glob("static/js/*.js")]:
        used |= set(re.findall(r"""\bt\(\s*['"]([a-z_]+(?:\.[A-Za-z_0-9]+)+)['"]""", f.read_text()))
    missing = sorted(k for k in used if k not in catalogue("zh-TW"))
    assert missing == []


def test_language_negotiation() -> None:
    assert negotiate(None, None, None) == "zh-TW"
    assert negotiate(None, None, "en-US,en;q=0.9") == "en"
    assert negotiate(None, None, "fr-FR,en;q=0.5,zh-TW;q=0.8") == "zh-TW"
    assert negotiate(None, "en", "zh-TW") == "en"
    assert negotiate("zh-Hant", "en", "en") == "zh-TW"
    assert from_accept_language("de") is None


# --- pages ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/rules", "/odds", "/calculators", "/lab", "/practice"])
@pytest.mark.parametrize("lang", LANGS)
def test_pages_render_in_both_languages(path: str, lang: str) -> None:
    with TestClient(create_app(warm=False), cookies={"tp_lang": lang}) as c:
        r = c.get(path)
    assert r.status_code == 200
    assert f'<html lang="{lang}"' in r.text
    assert "僅供練習" in r.text if lang == "zh-TW" else "Play money only" in r.text


def test_language_switch_sets_a_cookie_and_redirects_safely() -> None:
    client = TestClient(create_app(warm=False))
    r = client.get("/lang/en?next=/rules", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/rules"
    assert "tp_lang=en" in r.headers["set-cookie"]
    r = client.get("/lang/en?next=https://evil.example/x", follow_redirects=False)
    assert r.headers["location"] == "/"  # web/redirects.safe_next: a URL with a scheme or host goes home
    r = client.get("/lang/en?next=//evil.example", follow_redirects=False)
    assert r.headers["location"] == "/"


def test_unknown_page_is_a_localised_404(client: TestClient) -> None:
    r = client.get("/no-such-page", headers={"Accept": "text/html", **EN})
    assert r.status_code == 404 and "Page not found" in r.text
    assert error_of(client.get("/api/nope", headers=ZH), 404)["message"] == "找不到這個網址。"


def test_openapi_lists_every_api_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for p in ["/api/home", "/api/rules", "/api/evaluate", "/api/lab/hands", "/api/lab/hands/{hand_id}",
              "/api/lab/hands/{hand_id}/next", "/api/practice/scenarios", "/api/practice/answers",
              "/api/practice/score", "/api/practice/drill", "/api/practice/drill/answers", "/api/calc/outs",
              "/api/calc/pot-odds", "/api/i18n/{lang}", "/api/calc/equity", "/api/calc/equity/{job_id}",
              "/api/odds"]:
        assert p in paths
    assert client.get("/docs").status_code == 200


# --- home, rules, evaluate -----------------------------------------------------------------------

def test_home(client: TestClient) -> None:
    zh = client.get("/api/home", headers=ZH).json()
    en = client.get("/api/home", headers=EN).json()
    assert zh["title"] == "台灣撲克" and en["title"] == "Taiwan Poker"
    assert len(zh["pages"]) == 5 and "僅供練習" in zh["play_money"]


def test_rules_examples_come_from_the_engine(client: TestClient) -> None:
    data = client.get("/api/rules", headers=ZH).json()
    assert [c["code"] for c in data["ranking"]][:2] == ["five_of_a_kind", "straight_flush"]
    assert data["cards_used"] == {"heads_up": 14, "six_max": 26}
    assert [e["min_to"] for e in data["min_raise"]["examples"]] == [40, 100]
    assert [e["results"][0]["category"]["code"] for e in data["categories"]] == [c["code"] for c in data["ranking"]]
    for ex in data["categories"] + data["duplicate_rulings"]:
        for hand, result in zip(ex["hands"], ex["results"], strict=True):
            engine = evaluate(parse_cards([c["label"] for c in hand], ex["decks"]))
            assert result["category"]["code"] == engine.category.value
            assert [c["label"] for c in result["best"]] == [c.label for c in engine.best]
    rulings = {r["key"].split(".")[-1]: r for r in data["duplicate_rulings"]}
    assert rulings["four_any_suits"]["results"][0]["category"]["code"] == "four_of_a_kind"
    assert rulings["flush_over_two_pair"]["results"][0]["category"]["code"] == "flush"
    assert rulings["full_house_over_flush"]["results"][0]["category"]["code"] == "full_house"
    assert rulings["no_duplicate_straight"]["results"][0]["category"]["code"] != "straight"
    assert rulings["suits_never_break_ties"]["tie"] is True
    assert rulings["six_of_a_kind"]["tie"] is True


def test_evaluate(client: TestClient) -> None:
    r = client.post("/api/evaluate", json={"cards": ["As", "As", "Ah", "Ah", "Kc"]}, headers=EN)
    assert r.status_code == 200
    assert r.json()["decks"] == 2 and r.json()["category"] == {"code": "four_of_a_kind", "name": "Four of a kind"}


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"cards": ["As", "As", "As", "Kd", "Kc"], "decks": 2}, 400, "too_many_copies"),  # a card the decks can't hold
    ({"cards": ["As", "Ks", "Qs", "Js", "Ts"], "decks": 9}, 400, "bad_decks"),
    ({"cards": ["As", "Ks", "Qs", "Js", "Xx"]}, 400, "bad_card"),
    ({"cards": ["As", "Ks"]}, 400, "bad_card_count"),
    ({"cards": "As Ks"}, 422, "bad_request"),
    ({"cards": ["As", "Ks", "Qs", "Js", "Ts"], "extra": 1}, 422, "bad_request"),
    ({}, 422, "bad_request"),
])
def test_evaluate_bad_input(client: TestClient, body: dict[str, object], status: int, code: str) -> None:
    zh = error_of(client.post("/api/evaluate", json=body, headers=ZH), status)
    en = error_of(client.post("/api/evaluate", json=body, headers=EN), status)
    assert zh["code"] == en["code"] == code
    assert CJK.search(zh["message"]) and not CJK.search(en["message"])


def test_malformed_json_is_a_clear_422(client: TestClient) -> None:
    err = error_of(client.post("/api/evaluate", content=b"{not json", headers={"Content-Type": "application/json",
                                                                              **EN}), 422)
    assert "JSON" in err["message"]


# --- lab table ----------------------------------------------------------------------------------

def test_lab_hand_to_the_river_never_reveals_dealer_burns(client: TestClient) -> None:
    r = client.post("/api/lab/hands", json={"decks": 3}, headers=ZH)
    assert r.status_code == 201
    hand = r.json()
    assert hand["street"]["code"] == "preflop" and hand["used"] == 3 and hand["remaining"] == 153
    assert hand["best"] is None
    seen = {hand["burn"]["label"], *(c["label"] for c in hand["hole"])}
    for street, used in (("flop", 7), ("turn", 9), ("river", 11)):
        hand = client.post(f"/api/lab/hands/{hand['id']}/next", headers=ZH).json()
        assert hand["street"]["code"] == street and hand["used"] == used and hand["remaining"] == 156 - used
        assert hand["dealer_burns"] == used - 3 - len(hand["board"])
        engine = evaluate(parse_cards([c["label"] for c in hand["hole"] + hand["board"]], 3))
        assert hand["best"]["category"]["code"] == engine.category.value
        assert [c["label"] for c in hand["best"]["cards"]] == [c.label for c in engine.best]
    seen |= {c["label"] for c in hand["board"]}
    assert len(seen) == 8  # burn, two hole cards and five board cards: the three dealer burns are nowhere
    text = json.dumps(client.get(f"/api/lab/hands/{hand['id']}").json())
    assert len(set(re.findall(r'"label": "([^"]+)"', text))) == 8
    err = error_of(client.post(f"/api/lab/hands/{hand['id']}/next", headers=EN), 409)
    assert err["code"] == "hand_over" and "new hand" in err["message"]


@pytest.mark.parametrize("decks", [1, 7, 0, -2])
def test_lab_decks_out_of_range(client: TestClient, decks: int) -> None:
    err = error_of(client.post("/api/lab/hands", json={"decks": decks}, headers=ZH), 400)
    assert err["code"] == "bad_decks" and "2 至 6" in err["message"]


def test_lab_bad_input(client: TestClient) -> None:
    error_of(client.post("/api/lab/hands", json={"decks": "many"}, headers=EN), 422)
    assert error_of(client.get("/api/lab/hands/nope", headers=EN), 404)["code"] == "no_lab_hand"
    assert error_of(client.post("/api/lab/hands/nope/next", headers=ZH), 404)["code"] == "no_lab_hand"


# --- practice room ------------------------------------------------------------------------------

def test_practice_scenarios_hide_answers(client: TestClient) -> None:
    data = client.get("/api/practice/scenarios", headers=ZH).json()
    assert [s["id"] for s in data] == ["pot_odds", "draw_price", "value_raise"]
    assert "correct" not in json.dumps(data)
    assert "60" in data[0]["premise"] and "20" in data[0]["premise"]


def test_practice_answers_and_score() -> None:
    with TestClient(create_app(warm=False)) as c:
        assert c.get("/api/practice/score").json() == {"answered": 0, "correct": 0, "percent": None}
        r = c.post("/api/practice/answers", json={"scenario": "pot_odds", "choice": "20"}, headers=ZH).json()
        assert r["correct"] and "20/100" in r["explanation"] and "20%" in r["explanation"]
        r = c.post("/api/practice/answers", json={"scenario": "draw_price", "choice": "call"}, headers=EN).json()
        assert not r["correct"] and r["answer"] == "fold" and "22/97" in r["explanation"]
        assert "22.68%" in r["explanation"] and "25.00%" in r["explanation"]
        r = c.post("/api/practice/answers", json={"scenario": "value_raise", "choice": "raise"}, headers=EN).json()
        assert r["correct"] and "0 beat you" in r["explanation"] and "100" in r["explanation"]
        assert r["score"] == {"answered": 3, "correct": 2, "percent": 67}


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"scenario": "nope", "choice": "x"}, 400, "unknown_scenario"),
    ({"scenario": "pot_odds", "choice": "99"}, 400, "bad_choice"),
    ({"scenario": "pot_odds"}, 422, "bad_request"),
])
def test_practice_bad_answers(client: TestClient, body: dict[str, str], status: int, code: str) -> None:
    assert error_of(client.post("/api/practice/answers", json=body, headers=EN), status)["code"] == code


def test_drill_is_exact_and_graded(client: TestClient) -> None:
    for seed in range(30):
        d = client.get(f"/api/practice/drill?seed={seed}", headers=ZH).json()
        assert d["seed"] == seed and 2 <= d["decks"] <= 6 and len(d["choices"]) == 4
        assert len({c["fraction"] for c in d["choices"]}) == 4
        labels = [c["label"] for c in d["hole"] + d["board"]] + [d["burn"]["label"]]
        assert len(set(labels)) == len(labels)
        results = [client.post("/api/practice/drill/answers", json={"seed": seed, "choice": c["fraction"]}).json()
                   for c in d["choices"]]
        assert sum(r["correct"] for r in results) == 1
        answer = results[0]["answer"]["fraction"]
        # recompute independently: unseen N and outs O from the visible cards
        num, den = map(int, answer.split("/"))
        kind, _, value = d["target"]["code"].partition(":")
        known = [parse_cards([lab], d["decks"])[0] for lab in labels]
        key = {"suit": lambda c: "shdc"[c.suit], "rank": lambda c: "23456789TJQKA"[c.rank],
               "face": lambda c: c.face_str}[kind]
        per_deck = {"suit": 13, "rank": 4, "face": 1}[kind]
        n, o = 52 * d["decks"] - len(known), per_deck * d["decks"] - sum(key(c) == value for c in known)
        expected = Fraction(o, n) if d["draws"] == 1 else 1 - Fraction(comb(n - o, 2), comb(n, 2))
        assert Fraction(num, den) == expected


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"seed": -1, "choice": "1/2"}, 400, "bad_seed"),
    ({"seed": 2**40, "choice": "1/2"}, 400, "bad_seed"),
    ({"seed": 1, "choice": "half"}, 400, "bad_fraction"),
    ({"seed": 1, "choice": "1/0"}, 400, "bad_fraction"),
    ({"seed": "x", "choice": "1/2"}, 422, "bad_request"),
])
def test_drill_bad_answers(client: TestClient, body: dict[str, object], status: int, code: str) -> None:
    assert error_of(client.post("/api/practice/drill/answers", json=body, headers=ZH), status)["code"] == code
    assert error_of(client.get("/api/practice/drill?seed=abc", headers=ZH), 422)["code"] == "bad_request"


# --- calculators --------------------------------------------------------------------------------

@pytest.mark.parametrize(("burn", "fraction", "percent"), [(None, "22/98", "22.45%"), ("7h", "21/97", "21.65%"),
                                                           ("7c", "22/97", "22.68%")])
def test_outs_reproduce_the_spec_heart_draw(client: TestClient, burn: str | None, fraction: str, percent: str) -> None:
    body = {"decks": 2, "hole": ["Ah", "Qh"], "board": ["Jh", "8h", "4s", "2d"], "burn": burn, "target": "suit:h"}
    r = client.post("/api/calc/outs", json=body, headers=ZH).json()
    assert r["formula_next"] == fraction and r["next_card"]["percent"] == percent
    assert r["target"]["name"] == "紅心"
    assert [(row["state"], row["formula"]) for row in r["by_burn"]] == [("unknown", "22/98"), ("hit", "21/97"),
                                                                          ("miss", "22/97")]


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"decks": 1, "hole": ["As", "As"]}, 400, "too_many_copies"),
    ({"decks": 7, "hole": ["As"]}, 200, None),
    ({"decks": 9}, 400, "bad_decks"),
    ({"decks": 2, "hole": ["As", "Kd", "Qc"]}, 400, "bad_hole_count"),
    ({"decks": 2, "board": ["2s", "3s", "4s", "5s", "6s", "7s"]}, 400, "bad_board_count"),
    ({"decks": 2, "target": "colour:red"}, 400, "bad_target"),
    ({"decks": 2, "hole": ["1x"]}, 400, "bad_card"),
    ({"decks": 2, "hole": "As"}, 422, "bad_request"),
])
def test_outs_bad_input(client: TestClient, body: dict[str, object], status: int, code: str | None) -> None:
    r = client.post("/api/calc/outs", json=body, headers=EN)
    if code is None:
        assert r.status_code == status
    else:
        assert error_of(r, status)["code"] == code


def test_pot_odds(client: TestClient) -> None:
    r = client.post("/api/calc/pot-odds", json={"pot": 60, "bet": 20}).json()
    assert r["break_even"] == {"fraction": "1/5", "percent": "20.00%", "value": 0.2}
    assert error_of(client.post("/api/calc/pot-odds", json={"pot": 60, "bet": 0}, headers=ZH), 400)["code"] == \
        "bad_amount"
    assert error_of(client.post("/api/calc/pot-odds", json={"pot": "x", "bet": 1}), 422)["code"] == "bad_request"


@pytest.mark.parametrize(("body", "field"), [
    ({"pot": True, "bet": 20}, "pot"),
    ({"pot": 60, "bet": False}, "bet"),
    ({"pot": 60.0, "bet": 20}, "pot"),
    ({"pot": "60", "bet": 20}, "pot"),
])
def test_pot_odds_takes_only_whole_numbers(client: TestClient, body: dict[str, object], field: str) -> None:
    """Regression: JSON true/false were read as the chip counts 1/0 (and "60", 60.0 as 60): now a 422 bad_request."""
    err = error_of(client.post("/api/calc/pot-odds", json=body, headers=EN), 422)
    assert err["code"] == "bad_request" and f'"{field}"' in err["message"]
    good = client.post("/api/calc/pot-odds", json={"pot": 60, "bet": 20})
    assert good.status_code == 200 and good.json()["final_pot"] == 100


@pytest.mark.parametrize(("path", "good", "field"), [
    ("/api/evaluate", {"cards": ["As", "Ks", "Qs", "Js", "Ts"], "decks": 2}, "decks"),
    ("/api/lab/hands", {"decks": 2}, "decks"),
    ("/api/practice/drill/answers", {"seed": 1, "choice": "1/2"}, "seed"),
    ("/api/calc/outs", {"decks": 2, "hole": ["Ah", "Qh"]}, "decks"),
    ("/api/calc/equity", {"hero": "AsAh", "opponents": ["KdKc"], "board": "2c7d9h", "decks": 2}, "decks"),
    ("/api/calc/equity", {"hero": "AsAh", "opponents": ["KdKc"], "board": "2c7d9h", "precision": 0.05}, "precision"),
])
@pytest.mark.parametrize("flag", [True, False])
def test_no_number_field_takes_a_boolean(client: TestClient, path: str, good: dict[str, object], field: str,
                                         flag: bool) -> None:
    """Every number in a request body is strict: a JSON boolean is a 422 bad_request, the number itself works."""
    err = error_of(client.post(path, json={**good, field: flag}, headers=EN), 422)
    assert err["code"] == "bad_request" and f'"{field}"' in err["message"]
    assert client.post(path, json=good, headers=EN).status_code in (200, 201, 202)


def test_i18n_endpoint(client: TestClient) -> None:
    assert client.get("/api/i18n/en").json()["nav.lab"] == "Lab table"
    assert error_of(client.get("/api/i18n/fr", headers=ZH), 400)["code"] == "bad_lang"


# --- never a 500 -------------------------------------------------------------------------------


SCALARS = (st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(max_size=8) | st.sampled_from(["As", "As:2", "Ah", "10h", "suit:h", "1/2", "20"]))
JSONISH = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=8)
                       | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)
FIELDS = {
    "/api/evaluate": ["cards", "decks"],
    "/api/lab/hands": ["decks"],
    "/api/practice/answers": ["scenario", "choice"],
    "/api/practice/drill/answers": ["seed", "choice"],
    "/api/calc/outs": ["decks", "hole", "board", "burn", "target"],
    "/api/calc/pot-odds": ["pot", "bet"],
    "/api/calc/equity": ["decks", "hero", "opponents", "board", "burn", "precision"],
}
FUZZ_APP = create_app(warm=False)


@given(path=st.sampled_from(sorted(FIELDS)), data=st.data())
def test_fuzzed_bodies_never_500(path: str, data: st.DataObject) -> None:
    body = {f: data.draw(JSONISH, label=f) for f in FIELDS[path] if data.draw(st.booleans(), label=f"has {f}")}
    with TestClient(FUZZ_APP, raise_server_exceptions=False) as c:
        r = c.post(path, json=body, headers=EN)
    assert r.status_code < 500, (body, r.text)
    if r.status_code >= 400:
        assert r.json()["error"]["message"]


# --- odds and equity ----------------------------------------------------------------------------

def test_odds_tables_match_the_spec(client: TestClient) -> None:
    data = client.get("/api/odds?decks=3", headers=ZH).json()
    five = {r["category"]: r["percent"] for r in data["five"]["rows"]}
    assert five["five_of_a_kind"]["3"] == "0.001427%" and five["straight_flush"]["3"] == "0.001347%"
    assert five["high_card"]["1"] == "50.117739%"
    seven = {r["category"]: r["value"] for r in data["seven"]["rows"]}
    assert seven["five_of_a_kind"]["1"] == 0 and abs(seven["one_pair"]["1"] - 0.43823) < 0.0001
    start = {r["key"]: r["percent"] for r in data["starting"]["rows"]}
    assert start["pocket_pair"]["2"] == "6.7961%" and start["identical"]["2"] == "0.9709%"
    heat = data["heat_map"]
    assert heat["decks"] == 3 and len(heat["grid"]) == 13 and all(len(r) == 13 for r in heat["grid"])
    assert heat["grid"][0][0]["name"] == "AA" and heat["identical"][0]["name"] == "AA="
    assert client.get("/api/odds?decks=1").json()["heat_map"]["identical"][0] is None
    for bad in ("7", "0"):
        assert error_of(client.get(f"/api/odds?decks={bad}", headers=EN), 400)["code"] == "bad_odds_decks"
    assert error_of(client.get("/api/odds?decks=two", headers=EN), 422)["code"] == "bad_request"


def test_equity_exact_small_case(client: TestClient) -> None:
    body = {"decks": 2, "hero": "AhQh", "opponents": ["random"], "board": "Jh8h4s2d", "burn": "7c"}
    r = client.post("/api/calc/equity", json=body, headers=EN)
    assert r.status_code == 200 and r.json()["status"] == "done"
    res = r.json()["result"]
    assert res["exact"] and res["method"] == "exact"
    hero, opp = res["players"]
    assert abs(hero["equity"] + opp["equity"] - 1) < 1e-9


def test_equity_long_run_reports_progress(client: TestClient) -> None:
    r = client.post("/api/calc/equity", json={"decks": 6, "hero": "AsAh", "opponents": ["random", "random"],
                                              "precision": 0.001}, headers=EN)
    assert r.status_code in (200, 202)
    job = r.json()
    for _ in range(400):
        if job["status"] == "done":
            break
        assert 0 <= job["progress"] <= 1
        time.sleep(0.1)
        job = client.get(f"/api/calc/equity/{job['id']}").json()
    assert job["status"] == "done" and not job["result"]["exact"]
    assert job["result"]["players"][0]["half_width"] <= 0.0011


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"hero": "AsAh", "opponents": ["QQ++"]}, 400, "bad_range"),  # a malformed range
    ({"hero": "AsAs", "decks": 1}, 400, "too_many_copies"),
    ({"hero": "AsAh", "decks": 7, "opponents": ["random"]}, 200, None),
    ({"hero": "AsAh", "decks": 9}, 400, "bad_decks"),
    ({"hero": "As", "opponents": ["random"]}, 400, "bad_card_count"),
    ({"hero": "AsAh", "board": "2c3c"}, 400, "bad_card_count"),
    ({"hero": "AsAh", "opponents": []}, 400, "bad_equity_request"),
    ({"hero": "AsAh", "precision": 0.5}, 400, "bad_precision"),
    ({"hero": "AsAh", "burn": "Zz"}, 400, "bad_card"),
    ({"opponents": ["random"]}, 422, "bad_request"),
])
def test_equity_bad_input(client: TestClient, body: dict[str, object], status: int, code: str | None) -> None:
    body = {"precision": 0.005, **body}
    zh = client.post("/api/calc/equity", json=body, headers=ZH)
    if code is None:
        assert zh.status_code in (200, 202)
        return
    err = error_of(zh, status)
    assert err["code"] == code and CJK.search(err["message"])
    assert not CJK.search(error_of(client.post("/api/calc/equity", json=body, headers=EN), status)["message"])


def test_equity_unknown_job(client: TestClient) -> None:
    assert error_of(client.get("/api/calc/equity/nope", headers=EN), 404)["code"] == "no_job"


def test_browser_scripts_get_every_message_they_use() -> None:
    from taiwan_poker.web.member_pages import MEMBER_JS
    from taiwan_poker.web.rendering import JS_PREFIXES

    root = Path(__file__).resolve().parents[2] / "src" / "taiwan_poker" / "web" / "static" / "js"
    member_scripts = {"member.js", "signin.js", "lobby.js", "room.js", "history.js",  # pages with their own block
                      "my_history.js", "replay.js", "hand_lines.js", "coach_text.js",  # ... and their modules
                      "room_chat.js", "room_host.js", "room_keys.js", "room_books.js",  # the room page's modules
                      "room_fair.js", "room_sng.js", "sng_structure.js"}  # the lobby's sit-and-go structure
    used: set[str] = set()
    for f in root.glob("*.js"):
        keys = set(re.findall(r"""\bt\(\s*["'`]([a-z_]+(?:\.[A-Za-z_0-9]+)+)["'`]""", f.read_text()))
        prefixes = JS_PREFIXES + MEMBER_JS if f.name in member_scripts else JS_PREFIXES
        assert sorted(k for k in keys if not k.startswith(prefixes)) == [], f.name
        used |= keys
    assert used


@pytest.mark.parametrize("lang", LANGS)
def test_explanations_fill_every_placeholder(client: TestClient, lang: str) -> None:
    headers = {"Accept-Language": lang}
    for s in client.get("/api/practice/scenarios", headers=headers).json():
        assert "{" not in s["premise"] + s["question"]
        r = client.post("/api/practice/answers", json={"scenario": s["id"], "choice": s["choices"][0]["id"]},
                        headers=headers).json()
        assert "{" not in r["explanation"], r["explanation"]
    for seed in range(20):
        d = client.get(f"/api/practice/drill?seed={seed}", headers=headers).json()
        assert "{" not in d["question"]
        r = client.post("/api/practice/drill/answers", json={"seed": seed, "choice": "1/2"}, headers=headers).json()
        assert "{" not in r["explanation"]


def test_catalogue_category_names_match_the_core() -> None:
    from taiwan_poker.evaluate import CATEGORIES

    for c in CATEGORIES:
        assert catalogue("zh-TW")[f"category.{c.value}"] == c.zh
        assert catalogue("en")[f"category.{c.value}"] == c.en
