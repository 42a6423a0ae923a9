// One hand's events as readable lines (history, replayer): blinds and straddle, own cards, actions, each run's board,
// shows and mucks, each run's pots, cards shown after an uncontested pot.
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

const STREETS = ["preflop", "flop", "turn", "river"];

// The events with the run each belongs to when the board was run twice: the first run's streets dealt after the
// all-in (``run: 1``), the second run's (``second_board``, ``run: 2``) and each pot with the run it paid (the
// second run's hands are shown before its pots). Events of a board dealt once come back as they are.
export function withRuns(events) {
  const twice = events.find((e) => e.type === "second_board");
  if (!twice) return events;
  let run = 1;
  return events.map((e) => {
    if (e.type === "board_dealt" && STREETS.indexOf(e.street) >= STREETS.indexOf(twice.street)) return { ...e, run: 1 };
    if (e.type === "second_board") return { ...e, run: 2 };
    if (e.type === "run_shown") run = 2;
    return e.type === "pot_awarded" ? { ...e, run } : e;
  });
}

// A street's name, with its run on a board run twice ("Run 2 · Flop").
export const streetName = (ev) => (ev.run ? t("history.run_street", { n: ev.run, street: t(`street.${ev.street}`) })
  : t(`street.${ev.street}`));

// A pot and its winners, with its run on a board run twice.
export function potText(pot, nameOf) {
  const params = { n: pot.run, amount: chips(pot.amount),
    winners: list(pot.winners.map((w, i) => `${nameOf(w)} +${chips(pot.shares[i])}`)) };
  return t(pot.run ? "history.run_pot" : "history.pot", params);
}

// ``nameOf(seat)`` names a seat ("you" for the viewer's); ``you`` is the viewer's seat (or null). Events of a
// board run twice carry their run (``withRuns``).
export function eventLine(ev, nameOf, you) {
  switch (ev.type) {
    case "blind_posted":
      return el("li", {}, t(ev.big ? "history.big_blind" : "history.small_blind", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
    case "straddle_posted":
      return el("li", {}, t("history.straddle", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
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
    case "second_board":
      return el("li", { class: "street-line" }, `${streetName(ev)} `, faces(ev.cards));
    case "chips_returned":
      return el("li", {}, ev.seat === you ? t("room.returned_you", { amount: chips(ev.amount) })
        : t("room.returned", { name: nameOf(ev.seat), amount: chips(ev.amount) }));
    case "hand_shown":
      return el("li", { class: "shown" }, `${ev.seat === you ? t("history.you_show") : t("history.shows", { name: nameOf(ev.seat) })} `,
        faces(ev.hole, { best: countFaces(ev.best) }), ` ${t(`category.${ev.category}`)}`);
    case "run_shown":
      return el("li", { class: "shown" }, `${t("history.run_shows", { name: nameOf(ev.seat), n: 2, category: t(`category.${ev.category}`) })} `,
        faces(ev.best));
    case "hand_mucked":
      return el("li", {}, t("history.mucks", { name: nameOf(ev.seat) }));
    case "cards_shown":
      return el("li", { class: "shown" }, `${t("history.shows_after", { name: nameOf(ev.seat) })} `, faces(ev.cards));
    case "pot_awarded":
      return el("li", { class: "won" }, potText(ev, nameOf));
    default:
      return null;  // hand_started, hand_ended, and events this viewer may not see (only their version)
  }
}
