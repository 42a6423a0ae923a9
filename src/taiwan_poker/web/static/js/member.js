// Member pages' shared helpers: the CSRF-protected JSON API, who is signed in, and cards given as faces ("As").
import { el, t, showError } from "./core.js";

// The pages' shared error box (one implementation, in core.js).
export { showError as showMessage };

const RANKS = "23456789TJQKA", SUITS = "shdc", SYM = { s: "♠", h: "♥", d: "♦", c: "♣" };
let csrfFromMe = null;

export function cookie(name) {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
}

export class MemberError extends Error {
  constructor(code, message, status, state = null) { super(message); this.code = code; this.status = status; this.state = state; }
}

// fetch with JSON in and out; state-changing requests carry the tp_csrf cookie's value as X-CSRF-Token.
export async function memberApi(path, { method = "GET", body } = {}) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  // before a session exists (signing in) the header still goes out: a form on another site cannot send it
  if (method !== "GET") headers["X-CSRF-Token"] = cookie("tp_csrf") || csrfFromMe || "signin";
  let res;
  try {
    res = await fetch(path, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new MemberError("network", t("js.error_network"), 0);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = data.error || {};
    throw new MemberError(err.code || "error", err.message || t("js.error_network"), res.status, data.state || null);
  }
  return data;
}

// The signed-in member (or null), and what sign-in the server offers.
export async function whoAmI() {
  const me = await memberApi("/api/me");
  if (me.csrf) csrfFromMe = me.csrf;
  return me;
}

export function newKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

export const chips = (n) => Number(n).toLocaleString("en-US");


// A card from its label ("Jc:2": the jack of clubs of deck 2) with its deck mark, as at the lab table:
// two J♣ are two physical cards and look it. A bare face ("Jc") draws without a mark.
export function faceCard(label, { hl = false, size = "" } = {}) {
  const [face, deck] = label.split(":");
  const r = face[0], s = face[1];
  const rank = r === "T" ? "10" : r;
  const aria = deck
    ? t("card.aria", { rank: t(`rank.${RANKS.indexOf(r)}`), suit: t(`suit.${SUITS.indexOf(s)}`), deck })
    : t("member.card", { rank: t(`rank.${RANKS.indexOf(r)}`), suit: t(`suit.${SUITS.indexOf(s)}`) });
  return el("span", { class: `card s-${s}${hl ? " hl" : ""}${size ? " " + size : ""}`, role: "img", "data-face": face,
    "data-label": label, "aria-label": aria },
    el("span", { class: "c-rank", text: rank }), el("span", { class: "c-suit", "aria-hidden": "true", text: SYM[s] }),
    deck ? el("span", { class: "c-deck", "aria-hidden": "true", text: deck }) : null);
}

// A card as a short symbol in running text ("Q♠", "10♥"), both languages alike.
export function cardSymbol(label) {
  const face = label.split(":")[0];
  return `${face[0] === "T" ? "10" : face[0]}${SYM[face[1]]}`;
}

export function cardBack(size = "") {
  return el("span", { class: `card back${size ? " " + size : ""}`, role: "img", "aria-label": t("member.card_hidden") });
}

// Which of ``faces`` belong to the best five (each face of ``best`` used once, in order).
export function bestMarks(faces, counts) {
  return faces.map((f) => {
    if (counts && counts.get(f) > 0) { counts.set(f, counts.get(f) - 1); return true; }
    return false;
  });
}

export function countFaces(faces) {
  const m = new Map();
  for (const f of faces || []) m.set(f, (m.get(f) || 0) + 1);
  return m;
}

export function drawFaces(target, faces, { best = null, size = "" } = {}) {
  const marks = bestMarks(faces, best);
  target.replaceChildren(...faces.map((f, i) => faceCard(f, { hl: marks[i], size })));
  target.classList.toggle("has-best", Boolean(best));
}


// A whole number of chips as typed ("2000", "2,000", full-width digits), or null: nothing is guessed.
export function whole(text) {
  const v = String(text).normalize("NFKC").trim();
  if (/^\d+$/.test(v) || /^\d{1,3}(,\d{3})+$/.test(v)) return Number(v.replace(/,/g, ""));
  return null;
}

// A table's settings as typed in `form` (fields `${prefix}-stack`, `-sb`, `-bb`, radios seats and decks): { body },
// or the first reason they cannot make a table, { error, field }; nothing is changed behind the player's back.
// `limits` as GET /api/tables/limits gives them.
export function tableSettings(form, prefix, limits, money = true) {
  const data = new FormData(form);
  if (!money) return bankSetting({ seats: Number(data.get("seats")), decks: Number(data.get("decks")) }, prefix, limits);
  const v = {};
  for (const [key, label] of [["stack", "lobby.stack"], ["sb", "lobby.small_blind"], ["bb", "lobby.big_blind"]]) {
    v[key] = whole(document.getElementById(`${prefix}-${key}`).value);
    if (v[key] == null) return { error: t("lobby.bad_whole", { field: t(label) }), field: `${prefix}-${key}` };
  }
  const { stack, sb, bb } = v;
  const [bbMin, bbMax] = limits.big_blind, [stackMin, stackMax] = limits.stack, bbs = limits.min_stack_in_big_blinds;
  if (bb < bbMin || bb > bbMax) return { error: t("lobby.bad_bb", { min: chips(bbMin), max: chips(bbMax) }), field: `${prefix}-bb` };
  if (sb < 1 || sb > bb) return { error: t("lobby.bad_sb", { max: chips(bb) }), field: `${prefix}-sb` };
  if (stack < stackMin || stack > stackMax) {
    return { error: t("lobby.bad_stack", { min: chips(stackMin), max: chips(stackMax) }), field: `${prefix}-stack` };
  }
  if (stack < bbs * bb) return { error: t("lobby.bad_stack_bb", { bbs, amount: chips(bbs * bb) }), field: `${prefix}-stack` };
  return bankSetting({ seats: Number(data.get("seats")), decks: Number(data.get("decks")), stack, blinds: [sb, bb] },
    prefix, limits);
}

// The time bank added to ``body`` (seconds per player per match, after the action clock), or why it cannot be.
function bankSetting(body, prefix, limits) {
  const bankField = document.getElementById(`${prefix}-bank`);
  if (bankField && limits.time_bank) {
    const bank = whole(bankField.value), [lo, hi] = limits.time_bank;
    if (bank == null || bank < lo || bank > hi) return { error: t("lobby.bad_bank", { min: lo, max: hi }), field: `${prefix}-bank` };
    body.time_bank = bank;
  }
  return { body };
}
