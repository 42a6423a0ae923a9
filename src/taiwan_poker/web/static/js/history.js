// Hand history: each hand as this member may see it — own burn and hole cards, the board, every action,
// pots and results; an opponent's cards only where shown at showdown.
import { el, t, tn, list } from "./core.js";
import { memberApi, chips, drawFaces, countFaces, showMessage } from "./member.js";

const $ = (id) => document.getElementById(id);
const root = $("history");
const CODE = root.dataset.code;
let names = {};
let you = null;

const nameOf = (seat) => (seat === you ? t("room.you") : names[seat] ?? t("history.seat", { n: seat + 1 }));

function faces(list, opts = {}) {
  const box = el("span", { class: "hand" });
  drawFaces(box, (list || []).filter(Boolean), { size: "sm", ...opts });
  return box;
}

function eventLine(ev) {
  switch (ev.type) {
    case "blind_posted":
      return el("li", {}, t(ev.big ? "history.big_blind" : "history.small_blind", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
    case "private_cards":
      return el("li", { class: "mine" }, `${t("history.dealt_you")} `, faces(ev.hole),
        ev.burn ? el("span", { class: "burn-inline" }, ` ${t("room.burn")} `, faces([ev.burn])) : null);
    case "private_burn":
      return el("li", { class: "mine" }, `${t("room.burn")} `, faces([ev.card]));
    case "action": {
      const what = ev.kind === "fold" || ev.kind === "check"
        ? t(`action.${ev.kind}`)
        : ev.kind === "call" ? t("action.call_n", { amount: chips(ev.amount) })
          : ev.allin ? t("action.allin_n", { amount: chips(ev.to) })
            : t(ev.kind === "bet" ? "action.bet_to" : "action.raise_to", { amount: chips(ev.to) });
      return el("li", { "data-kind": ev.kind }, t("history.action_line", { name: nameOf(ev.seat), action: what }),
        ev.timeout ? el("span", { class: "tag folded", text: t("history.timed_out") }) : null);
    }
    case "board_dealt":
      return el("li", { class: "street-line" }, `${t(`street.${ev.street}`)} `, faces(ev.cards));
    case "chips_returned":
      return el("li", {}, ev.seat === you ? t("room.returned_you", { amount: chips(ev.amount) })
        : t("room.returned", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
    case "hand_shown":
      return el("li", { class: "shown" }, `${ev.seat === you ? t("history.you_show") : t("history.shows", { name: nameOf(ev.seat) })} `,
        faces(ev.hole, { best: countFaces(ev.best) }),
        ` ${t(`category.${ev.category}`)}`);
    case "pot_awarded":
      return el("li", { class: "won" }, t("history.pot", {
        amount: chips(ev.amount),
        winners: list(ev.winners.map((w, i) => `${nameOf(w)} +${chips(ev.shares[i])}`)),
      }));
    default:
      return null;  // hand_started, hand_ended, and events this seat may not see (only their version)
  }
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
