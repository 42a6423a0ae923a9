// Provable fairness at the table (docs/fairness.md). The page adds randomness of its own to the next hand's shoe
// (32 bytes from this browser's crypto after every deal, or a seed the player types); once a hand is over it checks
// every card the viewer saw against the shoe committed before the deal; once the match is over and the server's
// seeds are revealed it recomputes every hand's whole shoe. The checks run here with WebCrypto (fairness.js): they
// never take the server's word that a card is right.
import { t } from "./core.js";
import { memberApi, showMessage } from "./member.js";
import { hex, recordsIn, verifyRecord } from "./fairness.js";

const $ = (id) => document.getElementById(id);
const SEED_HEX = /^(?:[0-9a-fA-F]{2}){16,64}$/;  // 16 to 64 bytes (tables/fair.py PLAYER_SEED_BYTES)

let ctx = null;
let seedFor = null;              // the next hand a seed was sent for (sent once a hand; a missing one is allowed)
let typedFor = null;             // the next hand the player's own seed was sent for
const reports = new Map();       // hand number -> its report, or "pending"
let shownHand = null;            // the hand whose report the page shows
let matchReport = null;          // null, "pending", or {ok, hands, problems}

const short = (h) => (h ? `${h.slice(0, 16)}…` : "—");

const sent = new Map();          // hand number -> the seed this browser sent for it (the answer says which hand)

async function sendSeed(seed) {
  const res = await memberApi(`${ctx.api}/seed`, { method: "POST", body: { seed } });
  const hand = res?.fairness?.next?.hand_no;
  if (hand != null) sent.set(hand, seed.toLowerCase());
  ctx.apply(res);
  return hand;
}

function randomSeed() {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

// The last hand that is over (0: none yet).
function lastDone(s) {
  const h = s.hand;
  return !h ? 0 : h.complete ? h.hand_no : h.hand_no - 1;
}

async function check(handNo) {
  reports.set(handNo, "pending");
  try {
    const doc = await memberApi(`${ctx.api}/hands/${handNo}.json`);
    const record = doc.fairness;
    // a hand dealt before tables committed their shoes, or one the viewer saw no card of: nothing to say
    if (!record || !record.openings?.length) reports.set(handNo, null);
    else {
      const report = { ...(await verifyRecord(record)), hand_no: handNo };
      const mine = sent.get(handNo);  // the seed this browser sent for the hand must be the one that went in
      if (mine && doc.seat != null && record.player_seeds?.[String(doc.seat)] !== mine) {
        report.mine = false;
        report.ok = false;
      }
      reports.set(handNo, report);
    }
  } catch (e) {
    reports.delete(handNo);  // asked again at the next change
    return;
  }
  ctx.redraw();
}

async function checkMatch() {
  matchReport = "pending";
  try {
    const records = recordsIn(await memberApi(`${ctx.api}/hands.json`));
    const results = [];
    for (const r of records) results.push(await verifyRecord(r));
    const bad = results.filter((r) => !r.ok);
    matchReport = { ok: bad.length === 0 && results.length > 0, hands: results.length,
      problems: bad.map((r) => `${r.hand_id}: ${failures(r)}`) };
  } catch (e) {
    matchReport = null;
    return;
  }
  ctx.redraw();
}

// What failed, in the reader's language: the cards that do not open the root, the seed, the whole shoe, the seed
// this browser sent.
function failures(r) {
  const cards = r.openings.filter((o) => !o.ok).map((o) => o.card);
  return [cards.length ? t("room.fair_bad_cards", { cards: cards.join(" ") }) : null,
    r.seed === false ? t("room.fair_bad_seed") : null, r.shoe === false ? t("room.fair_bad_shoe") : null,
    ...(r.mine === false ? [t("room.fair_seed_missing")] : [])].filter(Boolean).join(t("js.list_sep"));
}

function handLine(r) {
  return r.ok ? t("room.fair_hand_ok", { n: r.hand_no, cards: r.openings.length })
    : t("room.fair_hand_bad", { n: r.hand_no, what: failures(r) });
}

function drawLink(s) {
  const link = $("fair-link");
  const m = matchReport && matchReport !== "pending" ? matchReport : null;
  const r = shownHand != null ? reports.get(shownHand) : null;
  const report = r && r !== "pending" ? r : null;
  const show = Boolean(m || report);
  link.hidden = !show;
  if (!show) return;
  const ok = (m ? m.ok : true) && (report ? report.ok : true);  // any failure shows
  link.dataset.ok = ok ? "1" : "0";
  link.textContent = t(!ok ? "room.fair_bad_badge" : m ? "room.fair_match_badge" : "room.fair_badge");
  link.title = [report ? handLine(report) : null, m ? matchLine(m) : null].filter(Boolean).join(" ");  // a description
}

function matchLine(m) {
  return m.ok ? t("room.fair_match_ok", { n: m.hands }) : t("room.fair_match_bad", { what: m.problems.join("; ") });
}

export function drawFair(s) {
  const f = s.fairness;
  const panel = $("fair-panel");
  panel.hidden = !f;
  if (!f) return;
  const over = Boolean(s.match?.over);
  // this browser's randomness for the next hand, once a hand, unless the player's own seed went first
  if (s.you != null && !s.spectator && !s.seed_sent && !over && f.next && seedFor !== f.next.hand_no) {
    seedFor = f.next.hand_no;
    sendSeed(randomSeed()).catch(() => {});  // none in time: the hand is dealt without it (docs/fairness.md)
  }
  const done = lastDone(s);
  if (done >= 1 && !reports.has(done)) check(done);
  if (done >= 1 && reports.get(done) !== "pending") shownHand = done;
  if (over && f.revealed && matchReport === null) checkMatch();

  $("fair-policy").textContent = t(!f.reveal ? "room.fair_never" : f.revealed ? "room.fair_revealed"
    : "room.fair_will_reveal");
  $("fair-root").textContent = short(f.hand?.root);
  $("fair-root").title = f.hand?.root ?? "";
  $("fair-hash").textContent = short(f.hand?.seed_hash);
  $("fair-hash").title = f.hand?.seed_hash ?? "";
  $("fair-next").textContent = f.next ? `${t("room.fair_hand_n", { n: f.next.hand_no })} · ${short(f.next.seed_hash)}` : "—";
  $("fair-next").title = f.next?.seed_hash ?? "";
  const r = shownHand != null ? reports.get(shownHand) : null;
  const result = $("fair-result");
  result.hidden = !(r && r !== "pending");
  if (!result.hidden) {
    result.textContent = handLine(r);
    result.dataset.ok = r.ok ? "1" : "0";
  }
  const download = $("fair-download");
  download.hidden = shownHand == null;
  if (shownHand != null) {
    download.href = `${ctx.api}/hands/${shownHand}.json`;
    download.setAttribute("download", `hand-${shownHand}.json`);
  }
  const mr = $("fair-match-result");
  const m = matchReport && matchReport !== "pending" ? matchReport : null;
  mr.hidden = !(m || matchReport === "pending");
  mr.textContent = m ? matchLine(m) : matchReport === "pending" ? t("room.fair_match_working") : "";
  if (m) mr.dataset.ok = m.ok ? "1" : "0";
  $("fair-seed-form").hidden = s.you == null || Boolean(s.spectator) || over;
  if (typedFor != null && f.next && typedFor !== f.next.hand_no) {  // the typed seed went into a hand dealt since
    typedFor = null;
    $("fair-seed-status").textContent = "";
  }
  drawLink(s);
}

export function setupFair(context) {
  ctx = context;
  $("fair-link").addEventListener("click", (ev) => {
    ev.preventDefault();
    const panel = $("fair-panel");
    panel.open = true;
    panel.scrollIntoView({ block: "nearest" });
    panel.querySelector("summary").focus();
  });
  $("fair-seed-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("fair-seed"), err = $("fair-seed-error");
    const seed = input.value.trim();
    showMessage(err, null);
    if (!SEED_HEX.test(seed)) {
      showMessage(err, { message: t("error.bad_seed_hex") });
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    input.removeAttribute("aria-invalid");
    try {
      typedFor = await sendSeed(seed);
      seedFor = typedFor;  // the page sends no random seed over the player's own for that hand
      $("fair-seed-status").textContent = t("room.fair_seed_sent", { n: typedFor ?? "" });
      input.value = "";
    } catch (e) {
      showMessage(err, e);
    }
  });
}
