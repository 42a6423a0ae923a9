// Calculators: outs with private information (click cards) and pot odds; the server does the counting.
import { api, el, renderCard, showError, t, cardAria } from "./core.js";
import * as offline from "./offline.js";

// Offline (the server cannot be reached), the same answers are worked out on this device (offline.js).
const orOffline = (online, local) => online().catch((e) => { if (e.code === "network") return local(); throw e; });

const $ = (id) => document.getElementById(id);
const RANKS = "AKQJT98765432", SUITS = "shdc", SYM = { s: "♠", h: "♥", d: "♦", c: "♣" };
const NAMES = { T: "10" };
const MAX = { hole: 2, board: 5, burn: 1 };
const picked = { hole: [], board: [], burn: [] };
let active = "hole";

const decks = () => Number($("outs-decks").value);
const faceCard = (face, deck = 1) => ({
  label: `${face}:${deck}`, face, rank: NAMES[face[0]] || face[0], suit: face[1], symbol: SYM[face[1]], deck,
});
const allPicked = () => [...picked.hole, ...picked.board, ...picked.burn];
const countOf = (face) => allPicked().filter((f) => f === face).length;

function setActive(group) {
  active = group;
  document.querySelectorAll(".group").forEach((g) => {
    const on = g.dataset.group === group;
    g.classList.toggle("active", on);
    g.querySelector(".group-pick").setAttribute("aria-pressed", on ? "true" : "false");
  });
}

function buildPicker() {
  const rows = [];
  for (const s of SUITS) {
    const row = el("div", { class: "pick-row" });
    for (const r of RANKS) {
      const face = r + s;
      // the count already picked is drawn from data-n by the stylesheet: a status beside the card's name
      const b = el("button", { type: "button", class: `pick s-${s}`, "data-face": face, "data-n": "" },
        `${NAMES[r] || r}${SYM[s]}`);
      b.addEventListener("click", () => add(face));
      row.append(b);
    }
    rows.push(row);
  }
  $("picker").replaceChildren(...rows);
}

function add(face) {
  if (picked[active].length >= MAX[active]) { showError($("outs-error"), { message: t("calc.full") }); return; }
  if (countOf(face) >= decks()) return;
  picked[active].push(face);
  if (picked[active].length >= MAX[active]) {
    const order = ["hole", "board", "burn"];
    const next = order.find((g) => picked[g].length < MAX[g] && g !== active && order.indexOf(g) > order.indexOf(active));
    if (next) setActive(next);
  }
  refresh();
}

function drawGroups() {
  const seen = {};
  for (const g of ["hole", "board", "burn"]) {
    $(`picked-${g}`).replaceChildren(...picked[g].map((face, i) => {
      seen[face] = (seen[face] || 0) + 1;
      const c = faceCard(face, seen[face]);
      const b = renderCard(c, { size: "sm", button: true });
      // the name starts with what the button shows (its rank, suit and deck), then says it in words
      b.setAttribute("aria-label", t("calc.remove", { face: b.textContent, card: cardAria(c) }));
      b.addEventListener("click", () => { picked[g].splice(i, 1); refresh(); });
      return b;
    }));
  }
  document.querySelectorAll(".pick").forEach((b) => {
    const n = countOf(b.dataset.face);
    b.dataset.n = n ? `×${n}` : "";
    b.disabled = n >= decks();
    b.setAttribute("aria-label", t("calc.add", { face: b.textContent, card: cardAria(faceCard(b.dataset.face, n + 1)) }));
  });
}

function target() {
  const kind = $("outs-kind").value;
  $("outs-suit").hidden = kind === "rank";
  $("outs-rank").hidden = kind === "suit";
  if (kind === "suit") return `suit:${$("outs-suit").value}`;
  if (kind === "rank") return `rank:${$("outs-rank").value}`;
  return `face:${$("outs-rank").value}${$("outs-suit").value}`;
}

let seq = 0;
async function refresh() {
  drawGroups();
  const mine = ++seq;
  showError($("outs-error"), null);
  try {
    const body = { decks: decks(), hole: picked.hole, board: picked.board, burn: picked.burn[0] || null, target: target() };
    const res = await orOffline(() => api("/api/calc/outs", { method: "POST", body }), () => offline.outs(body));
    if (mine !== seq) return;
    $("outs-next").textContent = res.next_card.percent;
    $("outs-next-frac").textContent = `${res.formula_next}`;
    // "at least one of the next two" only while two cards are still to come (not on a four- or five-card board)
    $("outs-two-box").hidden = picked.board.length > 3;
    $("outs-two").textContent = res.two_cards.percent;
    $("outs-two-frac").textContent = res.formula_two;
    $("outs-known").textContent = res.known;
    $("outs-unseen").textContent = res.unseen;
    $("outs-seen").textContent = res.seen_targets;
    $("outs-outs").textContent = res.outs;
    $("outs-states").querySelector("tbody").replaceChildren(...res.by_burn.map((row) => el("tr", { "data-state": row.state },
      el("th", { scope: "row", text: row.label }), el("td", { class: "mono", text: row.formula }),
      el("td", { text: row.next_card.percent }))));
  } catch (e) { if (mine === seq) showError($("outs-error"), e); }
}

document.querySelectorAll(".group-pick").forEach((b) => b.addEventListener("click", () => setActive(b.dataset.group)));
$("outs-decks").addEventListener("change", () => {
  for (const g of Object.keys(picked)) picked[g] = picked[g].filter((f, i, a) => a.slice(0, i + 1).filter((x) => x === f).length <= decks());
  refresh();
});
["outs-kind", "outs-suit", "outs-rank"].forEach((id) => $(id).addEventListener("change", refresh));
$("outs-example").addEventListener("click", () => {
  $("outs-decks").value = "2";
  picked.hole = ["Ah", "Qh"]; picked.board = ["Jh", "8h", "4s", "2d"]; picked.burn = [];
  $("outs-kind").value = "suit"; $("outs-suit").value = "h";
  setActive("burn");
  refresh();
});
$("outs-clear").addEventListener("click", () => {
  picked.hole = []; picked.board = []; picked.burn = []; setActive("hole"); refresh();
});

async function potOdds() {
  showError($("pot-error"), null);
  try {
    const body = { pot: Number($("pot-p").value), bet: Number($("pot-b").value) };
    const res = await orOffline(() => api("/api/calc/pot-odds", { method: "POST", body }),
      () => offline.potOdds(body.pot, body.bet));
    $("pot-result").textContent = res.break_even.percent;
    $("pot-formula").textContent = `${res.bet} / (${res.pot} + 2 × ${res.bet}) = ${res.bet}/${res.final_pot}`;
  } catch (e) { showError($("pot-error"), e); }
}
$("pot-form").addEventListener("input", potOdds);
$("pot-form").addEventListener("submit", (ev) => { ev.preventDefault(); potOdds(); });

buildPicker();
refresh();
potOdds();

// Equity: small cases come back at once; longer Monte Carlo runs return a job to poll for progress.
const eqForm = $("eq-form");
const pctText = (x) => `${(x * 100).toFixed(2)}%`;

function showEquity(result) {
  const rows = result.players.map((p, i) => el("tr", {},
    el("th", { scope: "row", text: i === 0 ? `${t("calc.equity_you")} (${p.label})` : p.label }),
    el("td", { text: pctText(p.win) }), el("td", { text: pctText(p.tie) }),
    el("td", { text: p.half_width == null ? pctText(p.equity) : `${pctText(p.equity)} ± ${(p.half_width * 100).toFixed(2)}` })));
  $("eq-table").querySelector("tbody").replaceChildren(...rows);
  $("eq-table-wrap").hidden = false;
  const hw = Math.max(...result.players.map((p) => p.half_width || 0));
  $("eq-method").textContent = result.exact
    ? t("calc.equity_exact", { samples: result.samples.toLocaleString() })
    : t("calc.equity_mc", { samples: result.samples.toLocaleString(), hw: (hw * 100).toFixed(2) });
  $("eq-status").textContent = "";
  $("eq-progress").hidden = true;
  $("eq-form").dataset.done = "1";
}

let eqSeq = 0;
eqForm.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const mine = ++eqSeq;
  showError($("eq-error"), null);
  $("eq-panel").hidden = false;
  delete eqForm.dataset.done;
  $("eq-run").disabled = true;
  $("eq-table-wrap").hidden = true;
  $("eq-method").textContent = "";
  const body = {
    decks: Number($("eq-decks").value), hero: $("eq-hero").value,
    opponents: $("eq-opps").value.split("\n").map((s) => s.trim()).filter(Boolean),
    board: $("eq-board").value, burn: $("eq-burn").value.trim() || null, precision: Number($("eq-precision").value),
  };
  try {
    let job = await orOffline(() => api("/api/calc/equity", { method: "POST", body }),
      () => ({ status: "done", result: offline.equity(body) }));
    while (job.status !== "done") {
      if (mine !== eqSeq) return;
      $("eq-progress").hidden = false;
      $("eq-progress").value = job.progress;
      $("eq-status").textContent = t("calc.equity_running", { percent: Math.round(job.progress * 100) });
      await new Promise((r) => setTimeout(r, 250));
      job = await api(`/api/calc/equity/${encodeURIComponent(job.id)}`);
    }
    if (mine === eqSeq) showEquity(job.result);
  } catch (e) {
    $("eq-progress").hidden = true;
    $("eq-status").textContent = "";
    showError($("eq-error"), e);
  } finally {
    $("eq-run").disabled = false;
  }
});
