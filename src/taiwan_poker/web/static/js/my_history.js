// The member's hands across every table (filtered as the page's form says), from GET /api/me/hands: each with
// its result and links to its replay, review and downloads. The numbers and the chart are drawn by the server.
import { el, t, tn } from "./core.js";
import { memberApi, chips, showMessage } from "./member.js";

const $ = (id) => document.getElementById(id);
const query = JSON.parse($("mine").dataset.query || "{}");

function item(h) {
  const base = `/rooms/${encodeURIComponent(h.table)}/hands/${h.hand_no}`;
  const api = `/api/rooms/${encodeURIComponent(h.table)}/hands/${h.hand_no}`;
  const when = h.started ? new Date(h.started).toLocaleString(document.documentElement.lang) : "";
  const net = `${h.net > 0 ? "+" : ""}${chips(h.net)}`;
  return el("li", { class: `panel mine-item result-${h.result}`, "data-table": h.table, "data-hand": String(h.hand_no) },
    el("p", { class: "mine-head" },
      el("strong", { text: t("mine.hand_at", { table: h.table, n: h.hand_no }) }), " ",
      el("span", { class: "small muted", text: when }), " ",
      el("span", { class: `mine-net result-${h.result}`, text: `${t(`mine.result.${h.result}`)} ${net}` }),
      h.allin_ev ? el("span", { class: "small muted", text: ` ${t("mine.ev_net", { n: `${h.ev_net > 0 ? "+" : ""}${chips(h.ev_net)}` })}` }) : null),
    el("p", { class: "small muted", text: [h.vpip ? "VPIP" : null, h.pfr ? "PFR" : null,
      h.showdown ? (h.won_showdown ? t("mine.showdown_won") : t("mine.showdown_lost")) : null].filter(Boolean).join(" · ") }),
    el("p", { class: "hand-links" },
      el("a", { class: "btn small-btn", href: base, text: t("replay.open") }),
      el("a", { class: "btn small-btn review-link", href: `${base}#review`, text: t("review.open") }),
      el("a", { class: "btn small-btn", href: `${api}.phh`, download: "", text: "PHH" }),
      el("a", { class: "btn small-btn", href: `${api}.txt`, download: "", text: t("export.text") }),
      el("a", { class: "btn small-btn", href: `${api}.json`, download: "", text: "JSON" })));
}

(async () => {
  const params = new URLSearchParams(Object.entries(query).filter(([, v]) => v));
  try {
    const data = await memberApi(`/api/me/hands?${params}`);
    const hands = data.hands || [];
    $("mine-status").textContent = hands.length ? tn("history.count", hands.length) : t("mine.none");
    $("mine-list").replaceChildren(...hands.slice().reverse().map(item));
  } catch (e) {
    $("mine-status").hidden = true;
    showMessage($("mine-error"), e);
  }
})();
