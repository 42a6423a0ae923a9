// Hand history: each hand as this member may see it — own burn and hole cards, the board, every action,
// pots and results; an opponent's cards only where shown at showdown.
import { el, t, tn, list } from "./core.js";
import { memberApi, chips, countFaces, showMessage } from "./member.js";
import { eventLine as line, faces } from "./hand_lines.js";

const $ = (id) => document.getElementById(id);
const root = $("history");
const CODE = root.dataset.code;
let names = {};
let you = null;

const nameOf = (seat) => (seat === you ? t("room.you") : names[seat] ?? t("history.seat", { n: seat + 1 }));

const eventLine = (ev) => line(ev, nameOf, you);

// Replay, review (a hand the member played) and downloads of one finished hand.
function handLinks(h) {
  const base = `/rooms/${encodeURIComponent(CODE)}/hands/${h.hand_no}`;
  const api = `/api/rooms/${encodeURIComponent(CODE)}/hands/${h.hand_no}`;
  return el("p", { class: "hand-links" },
    el("a", { class: "btn small-btn", href: base, text: t("replay.open") }),
    h.final.you ? el("a", { class: "btn small-btn review-link", href: `${base}#review`, text: t("review.open") }) : null,
    el("a", { class: "btn small-btn", href: `${api}.phh`, download: "", text: "PHH" }),
    el("a", { class: "btn small-btn", href: `${api}.txt`, download: "", text: t("export.text") }),
    el("a", { class: "btn small-btn", href: `${api}.json`, download: "", text: "JSON" }));
}

function handItem(h) {
  const f = h.final;
  const mine = f.you;
  const summary = el("div", { class: "hand-summary" });
  if (mine) {
    summary.append(el("div", {}, el("span", { class: "label", text: t("room.hole") }), faces(mine.hole)),
      el("div", {}, el("span", { class: "label", text: t("room.burn") }), faces(mine.burns)));
  }
  summary.append(el("div", {}, el("span", { class: "label", text: t("room.board") }), faces(f.board)));
  for (const seat of f.seats) {
    if (seat.shown) {
      summary.append(el("div", {}, el("span", { class: "label", text: `${nameOf(seat.seat)} · ${t(`category.${seat.shown.category}`)}` }),
        faces(seat.shown.hole, { best: countFaces(seat.shown.best) })));
    }
  }
  const result = f.pots.map((p) => t("history.pot", {
    amount: chips(p.amount), winners: list(p.winners.map((w, i) => `${nameOf(w)} +${chips(p.shares[i])}`)),
  })).join(" ");
  return el("li", { class: "panel hand-item", "data-hand": String(h.hand_no) },
    el("h2", { text: t("room.hand_no", { n: h.hand_no }) }),
    el("p", { class: "hand-result", text: f.complete ? result : t("history.in_progress") }),
    summary,
    f.complete ? handLinks(h) : null,
    el("details", {}, el("summary", { text: t("history.actions") }),
      el("ol", { class: "event-list" }, ...h.events.map(eventLine).filter(Boolean))));
}

(async () => {
  try {
    const [room, hist] = await Promise.all([memberApi(`/api/rooms/${encodeURIComponent(CODE)}`),
      memberApi(`/api/rooms/${encodeURIComponent(CODE)}/history`)]);
    // a seat's current player over those who left it (the list gives the seated first)
    names = Object.fromEntries(room.players.slice().reverse().map((p) => [p.seat, p.name]));
    you = room.you;
    const hands = hist.hands || [];
    $("history-status").textContent = hands.length ? tn("history.count", hands.length) : t("history.none");
    $("hand-list").replaceChildren(...hands.slice().reverse().map(handItem));
  } catch (e) {
    $("history-status").hidden = true;
    showMessage($("history-error"), e);
  }
})();
