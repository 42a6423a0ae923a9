// Shared helpers: messages, the JSON API, and drawing cards. No dependencies.
// The shared messages, plus a page's own block (#i18n-page) when it has one.
const MESSAGES = Object.assign({}, ...["i18n-data", "i18n-page"].map(
  (id) => JSON.parse(document.getElementById(id)?.textContent || "{}")));
export const LANG = document.documentElement.lang || "zh-TW";
const PAGE_BUILD = document.querySelector('meta[name="tp-build"]')?.content || "";

export function t(key, params = {}) {
  const text = MESSAGES[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

// A message with a count: ``key_one`` when ``n`` is 1 and the catalogue has it (English "1 hand"), else ``key``.
export function tn(key, n, params = {}) {
  const one = `${key}_one`, other = `${key}_other`;
  const k = n === 1 && one in MESSAGES ? one : n !== 1 && other in MESSAGES ? other : key;
  return t(k, { n, ...params });
}

// Items joined the reader's way: 「甲、乙」 / "A, B".
export const list = (items) => items.join(t("js.list_sep"));

export class ApiError extends Error {
  constructor(code, message, status) { super(message); this.code = code; this.status = status; }
}

export async function api(path, { method = "GET", body } = {}) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: { "Accept": "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      credentials: "same-origin",
    });
  } catch (e) {
    throw new ApiError("network", t("js.error_network"), 0);
  }
  const build = res.headers.get("X-TP-Build");
  if (build && PAGE_BUILD && build !== PAGE_BUILD) {
    // the server runs another build than this page's scripts: never use its answers with these scripts
    window.dispatchEvent(new Event("tp:stale-build"));
    throw new ApiError("stale_build", t("js.app_update"), res.status);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = data.error || {};
    throw new ApiError(err.code || "error", err.message || t("js.error_network"), res.status);
  }
  return data;
}

const RANK_INDEX = "23456789TJQKA";
const SUIT_INDEX = "shdc";

export function cardAria(c) {
  return t("card.aria", {
    rank: t(`rank.${RANK_INDEX.indexOf(c.face[0])}`),
    suit: t(`suit.${SUIT_INDEX.indexOf(c.suit)}`),
    deck: c.deck,
  });
}

export function cardText(c) {
  return t("card.short", {
    rank: t(`rank.${RANK_INDEX.indexOf(c.face[0])}`), suit: t(`suit.${SUIT_INDEX.indexOf(c.suit)}`),
    symbol: c.symbol, deck: c.deck,
  });
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v == null) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

export function renderCard(c, { hl = false, size = "", deal = false, button = false } = {}) {
  const cls = `card s-${c.suit}${hl ? " hl" : ""}${size ? " " + size : ""}${deal ? " deal" : ""}`;
  const node = el(button ? "button" : "span", {
    class: cls, "data-label": c.label, ...(button ? { type: "button" } : { role: "img" }), "aria-label": cardAria(c),
  },
    el("span", { class: "c-rank", text: c.rank }),
    el("span", { class: "c-suit", "aria-hidden": "true", text: c.symbol }),
    el("span", { class: "c-deck", "aria-hidden": "true", text: String(c.deck) }));
  return node;
}

export function renderHand(target, cards, { best = null, size = "", dealFrom = Infinity } = {}) {
  const labels = new Set((best || []).map((c) => c.label));
  target.replaceChildren(...cards.map((c, i) => renderCard(c, { hl: labels.has(c.label), size, deal: i >= dealFrom })));
  target.classList.toggle("has-best", Boolean(best));
}

export function showError(node, err) {
  if (!node) return;
  if (!err) { node.hidden = true; node.textContent = ""; return; }
  node.textContent = err.message || String(err);
  node.hidden = false;
}
