// The table's books (帳本): each player's buy-ins, rebuys, top-ups, the host's adjustments (with who made them),
// the chips taken away, the chips now and the net, with totals that add up. Read from the server when the panel
// opens and again whenever the table moves while it is open; drawn in the result banner once the match is over.
import { el, t } from "./core.js";
import { memberApi, chips } from "./member.js";

let ctx = null;
let loadedAt = -1;   // the room version the books were read at
let loading = false;

const signed = (n) => (n > 0 ? `+${chips(n)}` : n < 0 ? `−${chips(-n)}` : "0");

function cell(text, cls = "") {
  return el("td", { class: cls, text });
}

export function booksTable(books) {
  const head = ["books_player", "books_buy_in", "books_rebuys", "books_top_ups", "books_adjusted", "books_took",
    "books_chips", "books_net"];
  const rows = books.players.map((r) => el("tr", {},
    el("th", { scope: "row", text: r.name + (r.seated ? "" : t("room.books_left")) }),
    cell(r.buy_ins > 1 ? t("room.books_times", { chips: chips(r.buy_in), n: r.buy_ins }) : chips(r.buy_in), "num"),
    cell(r.rebuy_count ? t("room.books_times", { chips: chips(r.rebuys), n: r.rebuy_count }) : "—", "num"),
    cell(r.top_up_count ? t("room.books_times", { chips: chips(r.top_ups), n: r.top_up_count }) : "—", "num"),
    cell(r.adjustments.length ? r.adjustments.map((a) => t("room.books_adjust_by", { chips: signed(a.chips), by: a.by })).join("、") : "—", "num"),
    cell(r.took ? chips(r.took) : "—", "num"),
    cell(chips(r.chips), "num"),
    cell(signed(r.net), `num ${r.net > 0 ? "up" : r.net < 0 ? "down" : ""}`)));
  const tt = books.totals;
  const foot = el("tr", {}, el("th", { scope: "row", text: t("room.books_total") }), cell(chips(tt.buy_in), "num"),
    cell(chips(tt.rebuys), "num"), cell(chips(tt.top_ups), "num"), cell(signed(tt.adjusted), "num"),
    cell(chips(tt.took), "num"), cell(chips(tt.on_table), "num"), cell("0", "num"));
  const table = el("table", { class: "books-table" },
    el("thead", {}, el("tr", {}, ...head.map((k) => el("th", { scope: "col", text: t(`room.${k}`) })))),
    el("tbody", {}, ...rows), el("tfoot", {}, foot));
  // the balance under the table, where a phone's narrow screen wraps it (the table itself scrolls sideways)
  const balance = el("p", { class: "small muted books-balance", text: t("room.books_balance", { paid: chips(tt.paid_in),
    on_table: chips(tt.on_table), took: chips(tt.took) }) + (tt.pot ? t("room.books_pot", { pot: chips(tt.pot) }) : "") });
  return el("div", {}, el("div", { class: "scroll-x books-scroll", tabindex: "0", role: "region",
    "aria-label": t("room.books_title") }, table), balance);
}

async function load(version, targets) {
  if (loading) return;
  loading = true;
  try {
    const books = await memberApi(`${ctx.api}/ledger`);
    loadedAt = version;
    for (const box of targets) box.replaceChildren(booksTable(books));
  } catch (e) { /* the next change tries again */ } finally { loading = false; }
}

export function drawBooks(s) {
  const panel = document.getElementById("books-panel");
  panel.hidden = !s.match;
  document.getElementById("books-csv").href = `${ctx.api}/ledger.csv`;
  const over = Boolean(s.match?.over);
  const targets = [];
  if (panel.open) targets.push(document.getElementById("books-body"));
  if (over) targets.push(document.getElementById("result-books"));
  if (targets.length && s.version !== loadedAt) load(s.version, targets);
}

export function setupBooks(context) {
  ctx = context;
  document.getElementById("books-panel").addEventListener("toggle", () => {
    loadedAt = -1;
    const s = ctx.getState();
    if (s) drawBooks(s);
  });
}
