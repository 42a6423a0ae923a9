"""Accessibility at 0 (issue 45): axe-core 4 finds no violation on any page or any state of the room.

axe-core comes from the PyPI package ``axe-playwright-python`` (its bundled ``axe.min.js``, MPL-2.0), injected into
every page. Every rule axe has runs except the AAA ones (enhanced contrast and the like): WCAG A and AA, best
practices and the experimental rules (``label-content-name-mismatch`` among them). Each page or state is audited at a
phone's and a desktop's width in the language of its test, the four widths shared out between the two languages:
English (the longer words) at 360×640 and 1280×800, zh-TW at 390×844 and 1920×1080. A page is loaded once and
audited at each width (the viewport resized, the layout settled, the page scrolled to its top so nothing lies half
under the sticky header). One server and one browser serve the module; each test has its own table.

* The pages: home, rules, odds, calculators (an example loaded, an equity run), lab (a hand dealt), practice (an
  answer given), lobby (a sit-and-go's structure open, a payout wrong), sign-in, my history, a table's history, a
  hand's replay, a shared replay and the error page.
* The room (``room_states.reach_states``): a player to act against five bots at six seats, the host alone before the
  first deal (the table's settings open), a spectator who may sit, the player to act, the same with the chat open,
  the host with the host panel open, the other player waiting, a spectator (chat open), a player between hands after
  folding, the player to act with the coach's advice, a paused table to a player who stepped away, the show-or-muck
  choice (the player asked and the other), run it twice (asked, and agreed while the other decides), the match over
  (the winner and a spectator).

Screenshots ``test-output/screenshots/a11y-<page or state>-<lang>-<width>.png`` at each width audited (whole pages);
every violation found is written to ``test-output/a11y-report.json`` whatever the outcome.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import SCREENSHOTS
from .room_states import Member, Table, hand_over, passive, reach_states, wait_for
from .test_table_layout import settle

SIZES = {"360": (360, 640), "390": (390, 844), "1280": (1280, 800), "1920": (1920, 1080)}
# the room's 18 states at a phone's width and a desktop's (the two layouts; 390 and 1920 are checked for every
# other page, and the table layout test puts every seat in view at all four): the suite's longest test halved
WIDTHS = {"en": ("360", "1280"), "zh-TW": ("390", "1920")}  # a phone and a desktop each, the four between them
LANGS = ("zh-TW", "en")
LANG_TAG = {"zh-TW": "zh", "en": "en"}
REPORT = SCREENSHOTS.parent / "a11y-report.json"

# every rule axe knows but the AAA ones; each violation as its rule, impact and nodes
AXE_RUN = """async () => {
  window.scrollTo(0, 0);  // nothing half under the sticky header (axe's target-size counts that as obscured)
  const rules = Object.fromEntries(axe.getRules().map((r) => [r.ruleId, {enabled: !r.tags.includes("wcag2aaa")}]));
  const res = await axe.run(document, {rules, resultTypes: ["violations"]});
  return res.violations.map((v) => ({rule: v.id, impact: v.impact,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), html: n.html.slice(0, 160),
                                why: n.failureSummary.slice(0, 300)}))}));
}"""


class Audit:
    """Runs axe on pages and collects every violation, named by where it was found."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.found: list[dict[str, Any]] = []
        self.checked: list[str] = []

    def run(self, page: Any, name: str, lang: str, prepare: Callable[[Any], None] | None = None,
            sizes: tuple[str, ...] = tuple(SIZES)) -> None:
        """Audit the open page at each width (``prepare`` redone after each resize: a panel opened, say)."""
        for size in sizes:
            w, h = SIZES[size]
            page.set_viewport_size({"width": w, "height": h})
            if prepare is not None:
                prepare(page)
            settle(page)
            where = f"{name} {lang} {size}"
            self.checked.append(where)
            self.found += [{"where": where, **v} for v in page.evaluate(AXE_RUN)]
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.evaluate("window.scrollTo(0, 0)")  # the sticky header at the top of the picture
            page.screenshot(path=str(SCREENSHOTS / f"a11y-{name}-{LANG_TAG[lang]}-{size}.png"),
                            full_page=True, animations="disabled")

    def assert_none(self) -> None:
        """Writes the report, then fails with every violation by rule and the first forty in full."""
        by_rule: dict[str, int] = {}
        for v in self.found:
            by_rule[v["rule"]] = by_rule.get(v["rule"], 0) + len(v["nodes"])
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        old = json.loads(REPORT.read_text()) if REPORT.exists() else {}
        old[self.label] = {"checked": self.checked, "nodes_by_rule": by_rule, "violations": self.found}
        REPORT.write_text(json.dumps(old, ensure_ascii=False, indent=1))
        lines = [f"{rule}: {n} nodes" for rule, n in sorted(by_rule.items())]
        lines += [f"{v['where']} {v['rule']} ({v['impact']}): " + "; ".join(f"{n['target']} {n['why']}"
                                                                      for n in v["nodes"][:3])
                  for v in self.found[:40]]
        assert self.found == [], "\n".join(lines)


@pytest.fixture()
def table(browser: Any, server: str) -> Iterator[Table]:
    t = Table(browser, server)
    yield t
    t.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_state_of_the_room_has_no_axe_violation(table: Table, lang: str) -> None:
    audit = Audit(f"room-{lang}")
    for state in reach_states(table).values():
        state.member.open_room(lang, state.frozen, state.coach)
        audit.run(state.member.page, state.name, lang, state.prepare, WIDTHS[lang])
    assert len(audit.checked) == 18 * len(WIDTHS[lang])
    audit.assert_none()


def calculators_used(page: Any) -> None:
    """An example in the outs calculator, an equity run to its table."""
    page.click("#outs-example")
    page.wait_for_function("document.getElementById('outs-next').textContent !== '–'")
    page.click("#eq-run")
    page.wait_for_selector("#eq-table-wrap", state="visible", timeout=60_000)


def sng_structure_open(page: Any) -> None:
    """The lobby's create form for a four-seat sit-and-go, its structure open, a payout wrong (its message shown)."""
    page.check("input[name=seats][value='4']")
    page.select_option("#create-format", "regular")
    page.click("#sng-structure summary")
    page.fill("#sng-pay-1", "60")
    page.wait_for_selector("#sng-payouts-error:not([hidden])")


def practice_answered(page: Any) -> None:
    page.click(".scenario .choice >> nth=0")
    page.wait_for_selector(".scenario .feedback:not([hidden])")


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_has_no_axe_violation(table: Table, browser: Any, server: str, lang: str) -> None:
    audit = Audit(f"pages-{lang}")
    # a hand checked down to a showdown, both hands shown, for the histories and the replays (best five lit, the
    # other cards dimmed)
    s = table.play(hand_over, passive)
    if s["hand"]["pending"] is not None:  # show or muck: shown
        table.seats[s["hand"]["pending"]["seats"][0]].post("/showdown", {"version": s["version"], "show": True})
    wait_for(table.alice, lambda x: x["hand"]["hand_no"] > 1 or x["hand"]["complete"])
    code = table.alice.code
    share = table.alice.post("/hands/1/share")["url"]
    visitor = Member(browser, server, None)
    try:
        pages: list[tuple[str, Member, str, str, Callable[[Any], None] | None]] = [
            ("home", visitor, "/", "#solo-form", None),
            ("rules", visitor, "/rules", "#duplicates", None),
            ("odds", visitor, "/odds", "table.heat", None),
            ("calculators", visitor, "/calculators", "#picker button", calculators_used),
            ("lab", visitor, "/lab", "#lab-hole .card:not(.slot)", None),
            ("practice", visitor, "/practice", "#drill-choices button", practice_answered),
            ("signin", visitor, "/signin", "main h1", None),
            ("shared-replay", visitor, share, "#replay-seats li", None),
            ("error", visitor, "/no-such-page", "main h1", None),
            ("lobby", table.alice, "/lobby", "#room-list li", sng_structure_open),
            ("my-history", table.alice, "/history", "#mine-list li", None),
            ("table-history", table.alice, f"/rooms/{code}/history", "#hand-list li", None),
            ("replay", table.alice, f"/rooms/{code}/hands/1", "#replay-seats li", None),
        ]
        for name, m, path, ready, use in pages:
            m.goto(lang, path)
            m.page.wait_for_selector(ready)
            if use is not None:
                use(m.page)
            audit.run(m.page, name, lang, sizes=WIDTHS[lang])
    finally:
        visitor.close()
    audit.assert_none()
