// One hand's events as readable lines (history, replayer): blinds, own cards, actions, board, shows, pots.
// Only what the viewer's events hold is drawn: an event outside the viewer's audience carries no content.
import { el, t, list } from "./core.js";
import { chips, drawFaces, countFaces } from "./member.js";

export function faces(cards, opts = {}) {
  const box = el("span", { class: "hand" });
  drawFaces(box, (cards || []).filter(Boolean), { size: "sm", ...opts });
  return box;
}

export function actionText(ev) {
  if (ev.kind === "fold" || ev.kind === "check") return t(`action.${ev.kind}`);
  if (ev.kind === "call") return t("action.call_n", { amount: chips(ev.amount) });
  if (ev.allin) return t("action.allin_n", { amount: chips(ev.to) });
  return t(ev.kind === "bet" ? "action.bet_to" : "action.raise_to", { amount: chips(ev.to) });
}

// ``nameOf(seat)`` names a seat ("you" for the viewer's); ``you`` is the viewer's seat (or null).
export function eventLine(ev, nameOf, you) {
  switch (ev.type) {
    case "blind_posted":
      return el("li", {}, t(ev.big ? "history.big_blind" : "history.small_blind", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
    case "private_cards":
      return el("li", { class: "mine" }, `${t("history.dealt_you")} `, faces(ev.hole),
        ev.burn ? el("span", { class: "burn-inline" }, ` ${t("room.burn")} `, faces([ev.burn])) : null);
    case "private_burn":
      return el("li", { class: "mine" }, `${t("room.burn")} `, faces([ev.card]));
    case "action":
      return el("li", { "data-kind": ev.kind }, t("history.action_line", { name: nameOf(ev.seat), action: actionText(ev) }),
        ev.timeout ? el("span", { class: "tag folded", text: t("history.timed_out") }) : null);
    case "seat_folded":
      return el("li", {}, t("history.action_line", { name: nameOf(ev.seat), action: t("action.fold") }));
    case "board_dealt":
      return el("li", { class: "street-line" }, `${t(`street.${ev.street}`)} `, faces(ev.cards));
    case "chips_returned":
      return el("li", {}, ev.seat === you ? t("room.returned_you", { amount: chips(ev.amount) })
        : t("room.returned", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
    case "hand_shown":
      return el("li", { class: "shown" }, `${ev.seat === you ? t("history.you_show") : t("history.shows", { name: nameOf(ev.seat) })} `,
        faces(ev.hole, { best: countFaces(ev.best) }), ` ${t(`category.${ev.category}`)}`);
    case "pot_awarded":
      return el("li", { class: "won" }, t("history.pot", {
        amount: chips(ev.amount), winners: list(ev.winners.map((w, i) => `${nameOf(w)} +${chips(ev.shares[i])}`)),
      }));
    default:
      return null;  // hand_started, hand_ended, and events this viewer may not see (only their version)
  }
}
