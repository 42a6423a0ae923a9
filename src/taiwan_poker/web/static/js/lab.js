// Lab table: the shoe and the dealer burns stay on the server; we only ever get the player's view.
import { api, el, renderCard, renderHand, showError, t } from "./core.js";
import { LabHand } from "./offline.js";

const KEY = "tp_lab_hand";
const $ = (id) => document.getElementById(id);
const form = $("lab-form"), nextBtn = $("lab-next"), decksSel = $("lab-decks"), errorBox = $("lab-error");
let hand = null;
let local = null; // the hand dealt on this device while the server cannot be reached (offline.js)
let seq = 0; // only the latest request may redraw the table

function slots(n) {
  return Array.from({ length: n }, () => el("span", { class: "card slot", "aria-hidden": "true" }));
}

function draw(view, fresh = false) {
  const prevBoard = hand && hand.id === view.id ? hand.board.length : 0;
  hand = view;
  if (!view.offline) sessionStorage.setItem(KEY, view.id);
  $("lab-offline").hidden = !view.offline;
  decksSel.value = String(view.decks);
  const best = view.best ? view.best.cards : null;
  renderHand($("lab-hole"), view.hole, { best, dealFrom: fresh ? 0 : Infinity });
  $("lab-burn").replaceChildren(renderCard(view.burn, { deal: fresh }));
  const board = $("lab-board");
  renderHand(board, view.board, { best, dealFrom: prevBoard });
  board.append(...slots(5 - view.board.length));
  $("lab-dealer-burns").replaceChildren(...Array.from({ length: view.dealer_burns }, () =>
    el("span", { class: "card back", role: "img", "aria-label": t("lab.hidden") })));
  $("lab-street").textContent = t("lab.street_now", { street: view.street.name });
  if (view.best) {
    $("lab-best-cat").textContent = view.best.category.name;
    $("lab-best-cat").classList.remove("pending");
    $("lab-best-cat").dataset.category = view.best.category.code;
    renderHand($("lab-best"), view.best.cards, { best: view.best.cards });
  } else {
    $("lab-best-cat").textContent = t("lab.best_none");
    $("lab-best-cat").classList.add("pending");
    delete $("lab-best-cat").dataset.category;
    $("lab-best").replaceChildren();
  }
  $("lab-total").textContent = view.total;
  $("lab-used").textContent = view.used;
  $("lab-remaining").textContent = view.remaining;
  nextBtn.disabled = !view.next_street;
  nextBtn.textContent = view.next_street ? t("lab.next_to", { street: view.next_street.name }) : t("lab.done");
}

async function deal({ focus = true } = {}) {
  const mine = ++seq;
  showError(errorBox, null);
  try {
    let view;
    try {
      view = await api("/api/lab/hands", { method: "POST", body: { decks: Number(decksSel.value) } });
      local = null;
    } catch (e) {
      if (e.code !== "network") throw e;
      local = new LabHand(Number(decksSel.value)); // offline: the shoe is shuffled on this device
      view = local.view();
    }
    if (mine !== seq) return;
    draw(view, true);
    if (focus) nextBtn.focus();
  } catch (e) { if (mine === seq) showError(errorBox, e); }
}

form.addEventListener("submit", (ev) => { ev.preventDefault(); deal(); });
// a different shoe is a different game: changing the deck count deals a new hand at once
decksSel.addEventListener("change", () => { if (!hand || Number(decksSel.value) !== hand.decks) deal({ focus: false }); });
nextBtn.addEventListener("click", async () => {
  if (!hand) return;
  const mine = ++seq;
  showError(errorBox, null);
  nextBtn.disabled = true;
  try {
    if (local && hand.offline) local.advance();
    const view = local && hand.offline ? local.view()
      : await api(`/api/lab/hands/${encodeURIComponent(hand.id)}/next`, { method: "POST" });
    if (mine !== seq) return;
    draw(view);
    if (nextBtn.disabled) $("lab-deal").focus();
  } catch (e) { if (mine === seq) { showError(errorBox, e); nextBtn.disabled = false; } }
});

(async () => {
  const saved = sessionStorage.getItem(KEY);
  if (saved) {
    const mine = ++seq;
    try {
      const view = await api(`/api/lab/hands/${encodeURIComponent(saved)}`);
      if (mine === seq) draw(view);
      return;
    } catch (e) { sessionStorage.removeItem(KEY); }
  }
  if (!hand) await deal({ focus: false });
})();
