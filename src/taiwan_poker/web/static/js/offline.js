// What the learning pages compute on the device when the server cannot be reached (docs/hosting.md, "The app
// on the phone"): the lab table's shoe and hand, the exact outs and pot odds, an equity estimate, and the
// practice room's answers (from /offline-data/practice.json, cached by the service worker). Each function
// answers in the shape of the API answer it stands in for, so a page draws it the same way. The rules are
// the server's (evaluate/, trainer/); tests/web/test_offline.py compares these answers with the server's.
import { t } from "./core.js";

const RANKS = "23456789TJQKA", SUITS = "shdc", SYMBOLS = "♠♥♦♣";
const RANK_NAMES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const ORDER = ["five_of_a_kind", "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
  "three_of_a_kind", "two_pair", "one_pair", "high_card"];
const ACE = 12;

export function card(rank, suit, deck) { return { rank, suit, deck }; }

export function cardJson(c) {
  const face = RANKS[c.rank] + SUITS[c.suit];
  return { label: `${face}:${c.deck}`, face, rank: RANK_NAMES[c.rank], suit: SUITS[c.suit], symbol: SYMBOLS[c.suit],
    deck: c.deck };
}

export function parseFace(text) {
  const s = String(text).trim().replace(/^10/, "T");
  const rank = RANKS.indexOf(s[0]?.toUpperCase()), suit = SUITS.indexOf(s[1]?.toLowerCase());
  if (rank < 0 || suit < 0 || s.length !== 2) throw new Error(text);
  return { rank, suit };
}

// An unbiased draw from the browser's CSPRNG (rejection sampling), as the server's shoe.
function below(n) {
  const limit = Math.floor(0x100000000 / n) * n, buf = new Uint32Array(1);
  for (;;) { crypto.getRandomValues(buf); if (buf[0] < limit) return buf[0] % n; }
}

export function shoe(decks) {
  const cards = [];
  for (let d = 1; d <= decks; d++) for (let r = 0; r < 13; r++) for (let s = 0; s < 4; s++) cards.push(card(r, s, d));
  for (let i = cards.length - 1; i > 0; i--) { const j = below(i + 1); [cards[i], cards[j]] = [cards[j], cards[i]]; }
  return cards;
}

// --- the evaluator: the best five of 5-7 cards, every five-card subset judged (docs/rules.md's ranking) ---

function straightTop(ranks) {
  const set = new Set(ranks);
  if (set.size !== 5) return null;
  const hi = Math.max(...set), lo = Math.min(...set);
  if (hi - lo === 4) return hi;
  if ([ACE, 0, 1, 2, 3].every((r) => set.has(r))) return 3; // the wheel tops at 5
  return null;
}

function straightVector(top) { return top === 3 ? [3, 2, 1, 0, ACE] : [top, top - 1, top - 2, top - 3, top - 4]; }

export function classify5(cards) {
  const ranks = cards.map((c) => c.rank);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  const groups = [...counts].map(([r, n]) => [n, r]).sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  const vector = groups.flatMap(([n, r]) => Array(n).fill(r));
  const shape = groups.map(([n]) => n).join("");
  const flush = new Set(cards.map((c) => c.suit)).size === 1;
  const top = straightTop(ranks);
  if (shape === "5") return ["five_of_a_kind", vector];
  if (flush && top !== null) return ["straight_flush", straightVector(top)];
  if (shape === "41") return ["four_of_a_kind", vector];
  if (shape === "32") return ["full_house", vector];
  if (flush) return ["flush", [...ranks].sort((a, b) => b - a)];
  if (top !== null) return ["straight", straightVector(top)];
  if (shape === "311") return ["three_of_a_kind", vector];
  if (shape === "221") return ["two_pair", vector];
  if (shape === "2111") return ["one_pair", vector];
  return ["high_card", vector];
}

function value(category, vector) {
  return vector.reduce((acc, r) => acc * 16 + r, ORDER.length - 1 - ORDER.indexOf(category));
}

// The best hand: its category, its value (higher wins) and its five cards, strongest first in comparison order.
export function evaluate(cards) {
  let best = null;
  const n = cards.length;
  const pick = (from, chosen) => {
    if (chosen.length === 5) {
      const five = chosen.map((i) => cards[i]);
      const [category, vector] = classify5(five);
      const v = value(category, vector);
      if (!best || v > best.value) best = { category, vector, value: v, five };
      return;
    }
    for (let i = from; i <= n - (5 - chosen.length); i++) pick(i + 1, [...chosen, i]);
  };
  pick(0, []);
  const pool = [...best.five];
  const ordered = best.vector.map((r) => pool.splice(pool.findIndex((c) => c.rank === r), 1)[0]);
  return { category: best.category, value: best.value, cards: ordered };
}

// --- the lab table ---

const STREETS = ["preflop", "flop", "turn", "river"];
const BOARD = { flop: 3, turn: 1, river: 1 };

export class LabHand {
  constructor(decks) {
    this.id = `offline-${Date.now()}`;
    this.decks = decks;
    this.shoe = shoe(decks);
    this.burn = this.shoe.pop();
    this.hole = [this.shoe.pop(), this.shoe.pop()];
    this.board = [];
    this.dealerBurns = 0;
    this.street = 0;
  }

  advance() {
    if (this.street === 3) return;
    this.street += 1;
    this.shoe.pop();
    this.dealerBurns += 1;
    for (let i = 0; i < BOARD[STREETS[this.street]]; i++) this.board.push(this.shoe.pop());
  }

  view() {
    const street = STREETS[this.street], next = STREETS[this.street + 1];
    const cards = [...this.hole, ...this.board];
    const best = cards.length >= 5 ? evaluate(cards) : null;
    return {
      id: this.id, decks: this.decks, offline: true,
      street: { code: street, name: t(`street.${street}`) },
      next_street: next ? { code: next, name: t(`street.${next}`) } : null,
      burn: cardJson(this.burn), hole: this.hole.map(cardJson), board: this.board.map(cardJson),
      dealer_burns: this.dealerBurns,
      best: best && { category: { code: best.category, name: t(`category.${best.category}`) },
        cards: best.cards.map(cardJson), rank: best.value },
      used: 3 + this.dealerBurns + this.board.length, remaining: this.shoe.length, total: 52 * this.decks,
    };
  }
}

// --- exact counting: outs with private information, pot odds ---

const gcd = (a, b) => (b ? gcd(b, a % b) : a);
function fraction(num, den) {
  const g = gcd(num, den) || 1;
  return { fraction: `${num / g}/${den / g}`, percent: `${(num / den * 100).toFixed(2)}%`, value: num / den };
}
const comb2 = (n) => n * (n - 1) / 2;

function targetFaces(code) {
  const [kind, v] = code.split(":");
  if (kind === "suit") { const s = SUITS.indexOf(v); return [...Array(13).keys()].map((r) => r * 4 + s); }
  if (kind === "rank") { const r = RANKS.indexOf(v); return [0, 1, 2, 3].map((s) => r * 4 + s); }
  const f = parseFace(v);
  return [f.rank * 4 + f.suit];
}

function count(decks, known, faces) {
  const seen = new Map();
  for (const c of known) seen.set(c.rank * 4 + c.suit, (seen.get(c.rank * 4 + c.suit) || 0) + 1);
  const unseen = 52 * decks - known.length;
  const outs = faces.reduce((acc, f) => acc + decks - (seen.get(f) || 0), 0);
  return { unseen, outs };
}

// /api/calc/outs: hole, board and burn are faces ("Ah"); each face at most `decks` times
export function outs({ decks, hole, board, burn, target }) {
  const known = [...hole, ...board, ...(burn ? [burn] : [])].map(parseFace);
  const faces = targetFaces(target);
  const { unseen, outs: o } = count(decks, known, faces);
  const per = faces.length;
  const seenCards = [...hole, ...board].map(parseFace);
  const rows = [["unknown", null]];
  const left = [];
  for (let r = 0; r < 13; r++) for (let s = 0; s < 4; s++) {
    const f = r * 4 + s, used = seenCards.filter((c) => c.rank * 4 + c.suit === f).length;
    if (used < decks) left.push({ rank: r, suit: s, f });
  }
  const hit = left.find((c) => faces.includes(c.f)), miss = left.find((c) => !faces.includes(c.f));
  if (hit) rows.push(["hit", hit]);
  if (miss) rows.push(["miss", miss]);
  return {
    known: known.length, unseen, outs: o, seen_targets: per * decks - o,
    next_card: fraction(o, unseen), two_cards: fraction(comb2(unseen) - comb2(unseen - o), comb2(unseen)),
    formula_next: `${o}/${unseen}`, formula_two: `1 − C(${unseen - o},2)/C(${unseen},2)`,
    by_burn: rows.map(([state, b]) => {
      const k = count(decks, [...seenCards, ...(b ? [b] : [])], faces);
      return { state, label: t(`calc.burn_state.${state}`), outs: k.outs, unseen: k.unseen,
        next_card: fraction(k.outs, k.unseen), formula: `${k.outs}/${k.unseen}` };
    }),
  };
}

// /api/calc/pot-odds: break-even equity B / (P + 2B)
export function potOdds(pot, bet) {
  return { pot, bet, final_pot: pot + 2 * bet, break_even: fraction(bet, pot + 2 * bet) };
}

// --- equity: Monte Carlo over the unseen cards (exact hands or random opponents; ranges need the server) ---

function parseHand(text) {
  const s = text.replace(/\s+/g, "");
  const out = [];
  for (let i = 0; i < s.length;) {
    const len = s.startsWith("10", i) ? 3 : 2;
    out.push(parseFace(s.slice(i, i + len)));
    i += len;
  }
  return out;
}

export function equity({ decks, hero, opponents, board, burn, precision }) {
  const heroCards = parseHand(hero), boardCards = parseHand(board || ""), burnCards = burn ? parseHand(burn) : [];
  const opps = opponents.map((o) => (o.trim().toLowerCase() === "random" ? null : parseHand(o)));
  if (opps.some((o) => o && o.length !== 2) || heroCards.length !== 2) throw new Error(t("js.offline_ranges"));
  const fixed = [...heroCards, ...boardCards, ...burnCards, ...opps.filter(Boolean).flat()];
  const pool = [];
  const used = new Map();
  for (const c of fixed) used.set(c.rank * 4 + c.suit, (used.get(c.rank * 4 + c.suit) || 0) + 1);
  for (let r = 0; r < 13; r++) for (let s = 0; s < 4; s++) {
    for (let d = (used.get(r * 4 + s) || 0) + 1; d <= decks; d++) pool.push(card(r, s, d));
  }
  const players = opps.length + 1, wins = new Float64Array(players), ties = new Float64Array(players);
  const share = new Float64Array(players), shareSq = new Float64Array(players);
  const need = 5 - boardCards.length + opps.filter((o) => !o).length * 2;
  const target = precision || 0.005, maxHands = 200000;
  let n = 0;
  for (; n < maxHands; n++) {
    for (let i = 0; i < need; i++) { const j = i + below(pool.length - i); [pool[i], pool[j]] = [pool[j], pool[i]]; }
    let k = 0;
    const hands = [heroCards, ...opps.map((o) => o || [pool[k++], pool[k++]])];
    const full = [...boardCards, ...pool.slice(k, k + 5 - boardCards.length)];
    const values = hands.map((h) => evaluate([...h, ...full]).value);
    const top = Math.max(...values), winners = values.filter((v) => v === top).length;
    values.forEach((v, i) => {
      const s = v === top ? 1 / winners : 0;
      if (v === top) { if (winners === 1) wins[i] += 1; else ties[i] += 1; }
      share[i] += s; shareSq[i] += s * s;
    });
    if (n >= 2000 && n % 500 === 0) {
      const hw = Math.max(...[...share].map((sum, i) => 1.96 * Math.sqrt(Math.max(shareSq[i] / n - (sum / n) ** 2, 0) / n)));
      if (hw <= target) { n += 1; break; }
    }
  }
  const labels = [hero, ...opponents];
  return {
    exact: false, samples: n, offline: true,
    players: labels.map((label, i) => ({
      label, win: wins[i] / n, tie: ties[i] / n, equity: share[i] / n,
      half_width: 1.96 * Math.sqrt(Math.max(shareSq[i] / n - (share[i] / n) ** 2, 0) / n),
    })),
  };
}

// --- the practice room's answers, cached for offline use ---

let practice = null;
export async function practiceData(lang) {
  if (!practice) {
    const res = await fetch(`/offline-data/practice.json?v=${document.querySelector('meta[name="tp-build"]')?.content || ""}`);
    if (!res.ok) throw new Error(t("js.error_network"));
    practice = await res.json();
  }
  return practice[lang] || practice["zh-TW"];
}
