// The fairness check in the browser (docs/fairness.md), with WebCrypto only: the same algorithm as the server's
// taiwan_poker/fairness (HMAC_DRBG(SHA-256), a forward Fisher-Yates with rejection sampling, salted leaves in an
// RFC 9162 Merkle tree). It asks the server nothing: a record (an opened card's salt and path, and once the
// match is over the seeds) is checked against the root published before the deal.
const RANKS = "23456789TJQKA", SUITS = "shdc";
const CHUNK = 1024, SALT_BYTES = 16;
const enc = new TextEncoder();

export const hex = (bytes) => [...bytes].map((x) => x.toString(16).padStart(2, "0")).join("");
export function unhex(text) {
  if (typeof text !== "string" || text.length % 2 || /[^0-9a-f]/i.test(text)) throw new Error(`not hex: ${text}`);
  return Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
}
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
const u16 = (n) => Uint8Array.of((n >> 8) & 255, n & 255);
const equal = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

export async function sha256(data) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data));
}
async function hmac(key, data) {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, data));
}

// HMAC_DRBG (NIST SP 800-90A, 10.1.2), without reseeding or additional input.
export class HmacDrbg {
  static async create(entropy, nonce = new Uint8Array(), personalization = new Uint8Array()) {
    const d = new HmacDrbg();
    d.k = new Uint8Array(32);
    d.v = new Uint8Array(32).fill(1);
    await d.update(concat(entropy, nonce, personalization));
    return d;
  }
  async update(provided) {
    this.k = await hmac(this.k, concat(this.v, Uint8Array.of(0), provided));
    this.v = await hmac(this.k, this.v);
    if (provided.length) {
      this.k = await hmac(this.k, concat(this.v, Uint8Array.of(1), provided));
      this.v = await hmac(this.k, this.v);
    }
  }
  async generate(n) {
    const out = [];
    let got = 0;
    while (got < n) { this.v = await hmac(this.k, this.v); out.push(this.v); got += 32; }
    await this.update(new Uint8Array());
    return concat(...out).slice(0, n);
  }
}

export const cardLabel = (index) => {
  const face = index % 52;
  return `${RANKS[face >> 2]}${SUITS[face & 3]}:${Math.floor(index / 52) + 1}`;
};

export async function playerMix(seeds) {  // seeds: {seat: Uint8Array}
  const parts = [enc.encode("taiwan-poker mix v1")];
  for (const seat of Object.keys(seeds).map(Number).sort((a, b) => a - b)) {
    parts.push(Uint8Array.of(seat, seeds[seat].length), seeds[seat]);
  }
  return sha256(concat(...parts));
}

export const seedCommitment = (serverSeed) => sha256(concat(enc.encode("taiwan-poker seed v1"), serverSeed));

export async function shuffledShoe(decks, serverSeed, handId, mix) {
  const n = 52 * decks;
  const cards = Array.from({ length: n }, (_, i) => cardLabel(i));
  const drbg = await HmacDrbg.create(serverSeed, enc.encode(handId), mix);
  let block = new Uint8Array(), at = 0;
  const word = async () => {
    if (at >= block.length) { block = await drbg.generate(CHUNK); at = 0; }
    const w = ((block[at] << 24) >>> 0) + (block[at + 1] << 16) + (block[at + 2] << 8) + block[at + 3];
    at += 4;
    return w;
  };
  for (let i = 0; i < n - 1; i++) {
    const span = n - i;
    const limit = 2 ** 32 - (2 ** 32 % span);
    let w = await word();
    while (w >= limit) w = await word();
    const j = i + (w % span);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

export async function salts(serverSeed, handId, count) {
  const key = await sha256(concat(enc.encode("taiwan-poker salts v1"), serverSeed, enc.encode(handId)));
  const out = [];
  for (let p = 0; p < count; p++) out.push((await sha256(concat(key, u16(p)))).slice(0, SALT_BYTES));
  return out;
}

export const leaf = (salt, position, label) => sha256(concat(Uint8Array.of(0), salt, u16(position), enc.encode(label)));
const node = (left, right) => sha256(concat(Uint8Array.of(1), left, right));

export async function merkleRoot(leaves) {
  let level = leaves;
  if (!level.length) return sha256(new Uint8Array());
  while (level.length > 1) {
    const up = [];
    for (let i = 0; i + 1 < level.length; i += 2) up.push(await node(level[i], level[i + 1]));
    if (level.length % 2) up.push(level[level.length - 1]);
    level = up;
  }
  return level[0];
}

// RFC 9162 2.1.3.2: the root an audit path leads to (null when it does not fit the tree)
export async function rootFromPath(leafHash, index, size, path) {
  if (!(index >= 0 && index < size)) return null;
  let fn = index, sn = size - 1, r = leafHash;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn & 1 || fn === sn) {
      r = await node(p, r);
      while (!(fn & 1) && fn !== 0) { fn >>= 1; sn >>= 1; }
    } else r = await node(r, p);
    fn >>= 1; sn >>= 1;
  }
  return sn === 0 ? r : null;
}

// A record as the server exports it (taiwan_poker/fairness/record.py): every opening against the root; with
// the seeds, the seed against its commitment and the whole shoe against the root and the opened cards.
export async function verifyRecord(record) {
  const report = { hand_id: record.hand_id, openings: [], seed: null, shoe: null, problems: [] };
  const root = unhex(record.root);
  for (const o of record.openings || []) {
    const got = await rootFromPath(await leaf(unhex(o.salt), o.position, o.card), o.position, record.size,
      o.path.map(unhex));
    const ok = Boolean(got && equal(got, root));
    report.openings.push({ position: o.position, card: o.card, ok });
    if (!ok) report.problems.push(`position ${o.position} (${o.card})`);
  }
  if (record.server_seed) {
    const seed = unhex(record.server_seed);
    report.seed = equal(await seedCommitment(seed), unhex(record.seed_hash));
    if (!report.seed) report.problems.push("server seed");
    const seeds = Object.fromEntries(Object.entries(record.player_seeds || {}).map(([k, v]) => [Number(k), unhex(v)]));
    const cards = await shuffledShoe(record.decks, seed, record.hand_id, await playerMix(seeds));
    const salt = await salts(seed, record.hand_id, cards.length);
    const leaves = [];
    for (let p = 0; p < cards.length; p++) leaves.push(await leaf(salt[p], p, cards[p]));
    const rebuilt = await merkleRoot(leaves);
    report.shoe = equal(rebuilt, root) && cards.length === record.size
      && (record.openings || []).every((o) => cards[o.position] === o.card);
    if (!report.shoe) report.problems.push("whole shoe");
  }
  report.ok = report.problems.length === 0;
  return report;
}

// Every record in an exported hand, match or bare record.
export function recordsIn(doc) {
  if (Array.isArray(doc)) return doc.flatMap(recordsIn);
  if (doc && typeof doc === "object") {
    if (doc.v === 1 && doc.root) return [doc];
    if (doc.fairness) return [doc.fairness];
    if (Array.isArray(doc.hands)) return doc.hands.flatMap(recordsIn);
  }
  return [];
}
