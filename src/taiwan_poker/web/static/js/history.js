// Hand history: each hand as this member may see it — own burn and hole cards, the board, every action,
// pots and results; an opponent's cards only where shown at showdown.
import { el, t, tn } from "./core.js";
import { memberApi, chips, countFaces, showMessage } from "./member.js";
import { eventLine, faces, potText, withRuns } from "./hand_lines.js";

const $ = (id) => document.getElementById(id);
const root = $("history");
const CODE = root.dataset.code;

// Each hand names its players as seated when it was dealt (a seat may have changed hands since), and "you" the
// seat the member played in it.
function namer(h) {
  const you = h.final.you?.seat ?? null;
  return (seat) => (seat === you ? t("room.you") : h.names[seat] || t("history.seat", { n: seat + 1 }));
}

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

// What the hand came to: each pot (with its run on a board run twice), then each move the clock made.
function resultText(h, nameOf) {
  const you = h.final.you?.seat ?? null;
  const clock = h.events.filter((e) => e.type === "action" && e.timeout)
    .map((e) => t(e.seat === you ? `room.timed_out_${e.kind}_you` : `room.timed_out_${e.kind}`, { name: nameOf(e.seat) }));
  return [...h.final.pots.map((p) => potText(p, nameOf)), ...clock].join(" ");
}

function handItem(h) {
  const f = h.final;
  const mine = f.you;
  const nameOf = namer(h);
  const two = f.runs === 2;
  const summary = el("div", { class: "hand-summary" });
  if (mine) {
    summary.append(el("div", {}, el("span", { class: "label", text: t("room.hole") }), faces(mine.hole)),
      el("div", {}, el("span", { class: "label", text: t("room.burn") }), faces(mine.burns)));
  }
  summary.append(el("div", {}, el("span", { class: "label", text: two ? t("room.run_n", { n: 1 }) : t("room.board") }), faces(f.board)));
  if (two) summary.append(el("div", {}, el("span", { class: "label", text: t("room.run_n", { n: 2 }) }), faces(f.board2)));
  for (const seat of f.seats) {
    if (seat.shown) {
      const made = two && seat.shown2 ? ` / ${t("room.run_n", { n: 2 })} ${t(`category.${seat.shown2.category}`)}` : "";
      summary.append(el("div", {}, el("span", { class: "label", text: `${nameOf(seat.seat)} · ${t(`category.${seat.shown.category}`)}${made}` }),
        faces(seat.shown.hole, { best: countFaces(seat.shown.best) })));
    } else if (seat.showed?.length) {  // an uncontested winner's cards, shown after the hand
      summary.append(el("div", {}, el("span", { class: "label", text: t("history.shows_after", { name: nameOf(seat.seat) }) }),
        faces(seat.showed)));
    }
  }
  const [small, big] = h.blinds;
  return el("li", { class: "panel hand-item", "data-hand": String(h.hand_no) },
    el("h2", {}, t("room.hand_no", { n: h.hand_no }), " ",
      el("span", { class: "small muted hand-stakes", text: t("history.stakes", { small: chips(small), big: chips(big) }) })),
    el("p", { class: "hand-result", text: f.complete ? resultText(h, nameOf) : t("history.in_progress") }),
    summary,
    f.complete ? handLinks(h) : null,
    el("details", {}, el("summary", { text: t("history.actions") }),
      el("ol", { class: "event-list" }, ...withRuns(h.events).map((e) => eventLine(e, nameOf, f.you?.seat ?? null)).filter(Boolean))));
}

(async () => {
  try {
    const hist = await memberApi(`/api/rooms/${encodeURIComponent(CODE)}/history`);
    const hands = hist.hands || [];
    $("history-status").textContent = hands.length ? tn("history.count", hands.length) : t("history.none");
    $("hand-list").replaceChildren(...hands.slice().reverse().map(handItem));
  } catch (e) {
    $("history-status").hidden = true;
    showMessage($("history-error"), e);
  }
})();
