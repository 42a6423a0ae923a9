// The replayer: one hand street by street, or action by action, as the member saw it (their cards and burn;
// opponents' cards only where shown), their review and downloads; or a shared hand with public information only.
import { el, t } from "./core.js";
import { mixText, reviewMark } from "./coach_text.js";
import { memberApi, chips, showMessage } from "./member.js";
import { eventLine, faces, actionText, withRuns } from "./hand_lines.js";

const $ = (id) => document.getElementById(id);
const root = $("replay");
const CODE = root.dataset.code, HAND = Number(root.dataset.hand), TOKEN = root.dataset.token;
const API = `/api/rooms/${encodeURIComponent(CODE)}/hands/${HAND}`;
let data = null, events = [], steps = [], at = 0, mode = "street";

const nameOf = (seat) => (seat === data.seat ? t("room.you") : data.names[seat] || t("history.seat", { n: seat + 1 }));
const pct = (x) => `${(100 * x).toFixed(1)} %`;

// Where a step of the hand starts: a street's board, the second run's board (a board run twice), the showdown.
const SHOWDOWN = new Set(["hand_shown", "run_shown", "hand_mucked", "pot_awarded"]);
function stepName(ev, current) {
  if (ev.type === "board_dealt") return ev.street;
  if (ev.type === "second_board") return "second_run";
  if (SHOWDOWN.has(ev.type)) return "showdown";
  return current;
}

// Streets as steps: pre-flop, flop, turn, river, the second run when the board was run twice, then the showdown
// (shows, mucks and each run's pots) when there is one.
function split(events) {
  const out = [{ name: "preflop", events: [] }];
  for (const ev of events) {
    const name = stepName(ev, out.at(-1).name);
    if (ev.type === "board_dealt" || name !== out.at(-1).name) out.push({ name, events: [] });
    out.at(-1).events.push(ev);
  }
  return out;
}

// Actions as steps: the deal (blinds, your cards), then each action, each card dealt to the board and each
// showdown event on its own. A step keeps its street's name and the street's events so far (``shown``).
const ONE_STEP = new Set(["action", "seat_folded", "board_dealt", "second_board", "hand_shown", "run_shown",
  "hand_mucked", "pot_awarded", "chips_returned", "cards_shown"]);
function splitActions(events) {
  const out = [{ name: "preflop", events: [], line: [] }];
  let street = "preflop", line = [];
  for (const ev of events) {
    const name = stepName(ev, street);
    if (ev.type === "board_dealt" || name !== street) line = [];
    street = name;
    line = [...line, ev];
    if (ONE_STEP.has(ev.type)) out.push({ name: street, events: [ev], line });
    else { out.at(-1).events.push(ev); out.at(-1).line = out.at(-1).line.concat(ev); }
  }
  return out.filter((s, i) => i === 0 || s.events.length);
}

// How many events the steps up to ``at`` hold: switching modes keeps the hand where it is.
const eventsSeen = () => steps.slice(0, at + 1).reduce((n, s) => n + s.events.length, 0);
function setMode(next) {
  if (next === mode || !data) return;
  const seen = eventsSeen();
  mode = next;
  steps = mode === "action" ? splitActions(events) : split(events);
  let n = 0;
  at = steps.findIndex((s) => (n += s.events.length) >= seen);
  if (at < 0) at = steps.length - 1;
  draw();
}

function draw() {
  const seen = steps.slice(0, at + 1).flatMap((s) => s.events);
  const start = seen.find((e) => e.type === "hand_started");
  const board = seen.filter((e) => e.type === "board_dealt").flatMap((e) => e.cards);
  // the second run's board: the cards both runs share (dealt before the all-in), then its own
  const second = seen.filter((e) => e.type === "second_board");
  const board2 = second.length ? [...seen.filter((e) => e.type === "board_dealt" && !e.run).flatMap((e) => e.cards),
    ...second.flatMap((e) => e.cards)] : [];
  const put = {}, folded = new Set(), shown = {}, won = {};
  let pot = 0, hole = null, burns = [];
  for (const e of seen) {
    if (e.type === "blind_posted" || e.type === "straddle_posted" || e.type === "action") {
      put[e.seat] = (put[e.seat] || 0) + e.amount;
      pot += e.amount;
    }
    if (e.type === "chips_returned") { put[e.seat] = (put[e.seat] || 0) - e.amount; pot -= e.amount; }
    if ((e.type === "action" && e.kind === "fold") || e.type === "seat_folded") folded.add(e.seat);
    if (e.type === "private_cards") { hole = e.hole; if (e.burn) burns.push(e.burn); }
    if (e.type === "private_burn") burns.push(e.card);
    if (e.type === "hand_shown") shown[e.seat] = e.hole;
    if (e.type === "cards_shown") shown[e.seat] ??= e.cards;  // an uncontested winner's cards, shown after it
    if (e.type === "pot_awarded") e.winners.forEach((w, i) => { won[w] = (won[w] || 0) + e.shares[i]; });
  }
  const step = steps[at];
  $("replay-street").textContent = step.name === "showdown" ? t("replay.showdown")
    : step.name === "second_run" ? t("replay.second_run") : t(`street.${step.name}`);
  $("replay-step").textContent = t("replay.step", { n: at + 1, total: steps.length });
  const latest = mode === "action" && at > 0 ? step.events[0] : null;  // the step's own action (or card), marked
  $("replay-board").replaceChildren(faces(board, { size: "" }));
  const two = board2.length > 0;  // each board named by its run once the second is dealt
  $("replay-run1").hidden = $("replay-run2").hidden = $("replay-board2").hidden = !two;
  $("replay-board2").replaceChildren(faces(board2, { size: "" }));
  $("replay-pot").textContent = chips(pot);
  $("replay-mine").hidden = !hole;
  if (hole) { $("replay-hole").replaceChildren(faces(hole)); $("replay-burn").replaceChildren(faces(burns)); }
  const seats = (start?.stacks || []).map((stack, seat) => ({ seat, stack })).filter((s) => s.stack > 0);
  $("replay-seats").replaceChildren(...seats.map(({ seat, stack }) => {
    const now = stack - (put[seat] || 0) + (won[seat] || 0);
    const last = [...(step.line || step.events)].reverse().find((e) => e.type === "action" && e.seat === seat);
    const acting = latest && (latest.type === "action" || latest.type === "seat_folded") && latest.seat === seat;
    return el("li", { class: `replay-seat${folded.has(seat) ? " folded" : ""}${seat === data.seat ? " me" : ""}${acting ? " acting" : ""}`,
      "data-seat": String(seat) },
      el("strong", { text: nameOf(seat) }), ` ${chips(now)}`,
      seat === start.button ? el("span", { class: "tag dealer", text: "D" }) : null,
      folded.has(seat) ? el("span", { class: "tag folded", text: t("action.fold") }) : null,
      last && !folded.has(seat) ? el("span", { class: "tag last-action", text: actionText(last) }) : null,
      shown[seat] ? faces(shown[seat]) : null);
  }));
  const lines = (step.line || step.events).map((e) => {
    const li = eventLine(e, nameOf, data.seat);
    if (li && e === latest) li.classList.add("latest");
    return li;
  });
  $("replay-actions").replaceChildren(...lines.filter(Boolean));
  $("replay-prev").disabled = at === 0;
  $("replay-next").disabled = at === steps.length - 1;
  $("replay-prev-label").textContent = t(mode === "action" ? "replay.prev_action" : "replay.prev");
  $("replay-next-label").textContent = t(mode === "action" ? "replay.next_action" : "replay.next");
  for (const b of document.querySelectorAll("[data-replay-mode]")) b.setAttribute("aria-pressed", String(b.dataset.replayMode === mode));
  root.dataset.step = String(at);
  root.dataset.mode = mode;
}

function go(delta) { at = Math.max(0, Math.min(steps.length - 1, at + delta)); draw(); }
$("replay-prev").addEventListener("click", () => go(-1));
$("replay-next").addEventListener("click", () => go(1));
for (const b of document.querySelectorAll("[data-replay-mode]")) b.addEventListener("click", () => setMode(b.dataset.replayMode));
document.addEventListener("keydown", (ev) => {
  if (ev.target.closest?.("input, textarea, select")) return;
  if (ev.key === "ArrowLeft") go(-1);
  if (ev.key === "ArrowRight") go(1);
});


// A review cell labelled with its column's heading (a phone shows each decision as a stacked card of them).
function cell(column, ...children) {
  const heads = document.querySelectorAll("#review-table thead th");
  return el("td", { "data-label": heads[column] ? heads[column].textContent : "" }, el("div", {}, ...children));
}

function reviewRow(d) {
  return el("tr", { class: `mark-${d.mark}` },
    cell(0, t(`street.${d.street}`)),
    cell(1, d.action === "fold" || d.action === "check" ? t(`action.${d.action}`)
      : d.action === "call" ? t("action.call_n", { amount: chips(d.call) })
        : t(d.action === "bet" ? "action.bet_to" : "action.raise_to", { amount: chips(d.to) })),
    cell(2, d.call > 0 ? `${pct(d.price)} (${chips(d.call)} / ${chips(d.pot + d.call)})` : t("review.free")),
    cell(3, t("review.vs_range", { p: pct(d.equity) }), el("br"), el("span", { class: "small muted", text: t("review.vs_random", { p: pct(d.equity_random) }) }),
      d.exact_equity != null ? el("span", { class: "small muted" }, el("br"), t("review.vs_shown", { p: pct(d.exact_equity) })) : null),
    cell(4, d.mix?.length ? mixText(d.mix) : t(`coach.action.${d.suggestion}`)),
    cell(5, ...reviewMark(d)));
}

async function review() {
  const box = $("review");
  box.hidden = false;
  try {
    const r = await memberApi(`${API}/review`);
    $("review-status").textContent = r.decisions.length ? "" : t("review.none");
    $("review-status").hidden = Boolean(r.decisions.length);
    $("review-rows").replaceChildren(...r.decisions.map(reviewRow));
    $("review-table").hidden = !r.decisions.length;
    const ev = r.allin_ev;
    $("review-ev").hidden = !ev;
    if (ev) {
      $("review-ev").textContent = t("review.allin_ev", { street: t(`street.${ev.street}`), p: pct(ev.equity),
        expected: chips(ev.expected), won: chips(ev.won), diff: `${ev.won - ev.expected >= 0 ? "+" : ""}${chips(ev.won - ev.expected)}` });
    }
    box.dataset.ready = "1";
    if (location.hash === "#review") box.scrollIntoView();
  } catch (e) {
    $("review-status").hidden = true;
    showMessage($("replay-error"), e);
  }
}

async function share() {
  try {
    const r = await memberApi(`${API}/share`, { method: "POST", body: {} });
    const input = $("share-url");
    input.value = new URL(r.url, location.origin).href;
    $("share-out").hidden = false;
    input.focus(); input.select();
  } catch (e) {
    showMessage($("replay-error"), e);
  }
}

(async () => {
  try {
    if (!TOKEN && !CODE) throw new Error(t("error.hand_not_found"));
    data = await memberApi(TOKEN ? `/api/share/${encodeURIComponent(TOKEN)}` : `${API}.json`);
    events = withRuns(data.events);
    steps = split(events);
    at = 0;
    draw();
    if (!TOKEN && data.seat != null && data.complete) {
      $("share-btn").hidden = false;
      $("share-btn").addEventListener("click", share);
      review();
    }
    root.dataset.ready = "1";
  } catch (e) {
    $("replay-street").textContent = "";
    showMessage($("replay-error"), e);
  }
})();
