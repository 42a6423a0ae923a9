// The member table: the server is the only authority; this page draws the seat's own view and sends requests.
// Updates arrive by WebSocket push; while the socket is down the page polls every 2 s (the spec's sync) and
// reconnects with backoff, taking whatever state is newest on reconnect.
import { el, t } from "./core.js";
import { memberApi, whoAmI, newKey, chips, drawFaces, cardBack, countFaces, showMessage } from "./member.js";

const $ = (id) => document.getElementById(id);
const root = $("room");
const CODE = root.dataset.code;
const API = `/api/rooms/${encodeURIComponent(CODE)}`;
const POLL_MS = 2000;

let state = null;          // the newest state seen
let skew = 0;              // server clock minus this computer's clock, in ms
let clockTotal = null;     // seconds on the clock when this turn's state first arrived
let clockVersion = null;
let busy = false;          // a request is in flight: action buttons stay disabled
let member = undefined;    // undefined: not known yet; null: signed out
let sizeVersion = null;    // the version the raise amount was chosen for
let ws = null, retry = 0, pollTimer = null, reconnectTimer = null, pingTimer = null;

const errorBox = $("room-error");
const nameOf = (seat) => state?.players.find((p) => p.seat === seat)?.name ?? null;

// ---- receiving state --------------------------------------------------------------------------------------

function apply(next) {
  if (!next || typeof next.version !== "number") return;
  if (state && next.version < state.version) return;  // an older answer arriving late
  const serverNow = Date.parse(next.server_time);
  if (!isNaN(serverNow)) skew = serverNow - Date.now();
  if (next.version !== clockVersion) {
    clockVersion = next.version;
    clockTotal = next.seconds_left != null ? Math.max(1, Math.ceil(next.seconds_left)) : null;
  }
  state = next;
  draw();
}

async function refresh() {
  try {
    apply(await memberApi(API));
  } catch (e) {
    if (e.code === "room_not_found" || e.code === "room_quarantined") {  // nothing to play here: say why and stop
      stopPolling(); closeSocket(); showMessage(errorBox, e); root.dataset.status = "missing";
    }
  }
}

function setConn(kind) {
  root.dataset.conn = kind;
  $("conn-text").textContent = t(`room.conn.${kind}`);
}

function startPolling() { if (!pollTimer) pollTimer = setInterval(refresh, POLL_MS); }
function stopPolling() { clearInterval(pollTimer); pollTimer = null; }
function closeSocket() { clearTimeout(reconnectTimer); if (ws) { const s = ws; ws = null; s.close(); } }

function connect() {
  clearTimeout(reconnectTimer);
  let sock;
  try {
    sock = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/rooms/${encodeURIComponent(CODE)}`);
  } catch (e) { setConn("polling"); startPolling(); scheduleReconnect(); return; }
  ws = sock;
  sock.addEventListener("open", () => {
    if (ws !== sock) return;
    retry = 0;
    setConn("live");
    stopPolling();
    clearInterval(pingTimer);
    pingTimer = setInterval(() => { if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ type: "ping" })); }, 25000);
  });
  sock.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "state") apply(msg.state);
    else if (msg.type === "error") {
      showMessage(errorBox, msg.error);
      if (msg.state) apply(msg.state);
    }
  });
  sock.addEventListener("close", () => {
    if (ws !== sock) return;
    ws = null;
    clearInterval(pingTimer);
    setConn("polling");
    startPolling();
    refresh();
    scheduleReconnect();
  });
}

function scheduleReconnect() {
  clearTimeout(reconnectTimer);
  const delay = Math.min(15000, 500 * 2 ** retry) * (0.8 + Math.random() * 0.4);
  retry = Math.min(retry + 1, 8);
  reconnectTimer = setTimeout(connect, delay);
}

document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
window.addEventListener("online", () => { retry = 0; if (!ws) connect(); });

// ---- sending ----------------------------------------------------------------------------------------------

async function send(path, body) {
  if (busy || !state) return null;
  busy = true;
  showMessage(errorBox, null);
  draw();
  try {
    const res = await memberApi(`${API}${path}`, { method: "POST", body });
    // the answer's state is current when sent; a push may already have brought a newer one, so never go back
    apply(res.state ?? (typeof res.version === "number" ? res : null));  // join answers with the state itself
    if (res.applied === false && res.reason === "stale_version") showMessage(errorBox, { message: t("room.stale") });
    return res;
  } catch (e) {
    showMessage(errorBox, e);
    if (e.state) apply(e.state); else refresh();
    return null;
  } finally {
    busy = false;
    draw();
  }
}

function act(action) {
  return send("/actions", { version: state.version, key: newKey(), action });
}

// ---- drawing ----------------------------------------------------------------------------------------------

function remaining() {
  if (!state?.deadline) return null;
  return (Date.parse(state.deadline) - (Date.now() + skew)) / 1000;
}

const handLive = () => Boolean(state?.hand && !state.hand.complete && state.match && !state.match.over);

function tag(text, cls = "") { return el("span", { class: `tag ${cls}`, text }); }

function drawSeat(pos, seat) {
  const s = state, hand = s.hand, me = s.you;
  const player = s.players.find((p) => p.seat === seat);
  const box = $(`seat-${pos}`);
  const hs = hand ? hand.seats[seat] : null;
  box.dataset.seat = String(seat);
  box.classList.toggle("to-act", Boolean(handLive() && hand.to_act === seat));
  box.classList.toggle("folded", Boolean(hs?.folded));
  box.classList.toggle("empty", !player);
  const name = player ? player.name : t("room.empty_seat");
  $(`${pos}-name`).textContent = seat === me ? t("room.you_name", { name }) : name;
  $(`${pos}-avatar`).textContent = player ? [...player.name][0].toUpperCase() : "?";
  const tags = [];
  if (hand) {
    if (hand.button === seat) tags.push(tag(t("room.tag_button"), "dealer"));
    if (hand.small_blind_seat === seat) tags.push(tag(t("room.tag_sb")));
    if (hand.big_blind_seat === seat) tags.push(tag(t("room.tag_bb")));
    if (hs?.allin) tags.push(tag(t("room.tag_allin"), "allin"));
    if (hs?.folded) tags.push(tag(t("room.tag_folded"), "folded"));
    if (handLive() && hand.to_act === seat) tags.push(tag(t("room.tag_to_act"), "turn"));
    const last = hand.last_actions?.[String(seat)];
    if (last && handLive()) {
      const text = t(`room.last_${last.kind}`, { to: chips(last.to), amount: chips(last.amount) });
      tags.push(tag(last.timeout ? text + t("room.last_timeout") : text, "last-action"));
    }
  }
  if (player?.left) tags.push(tag(t("room.tag_left"), "folded"));
  $(`${pos}-tags`).replaceChildren(...tags);
  const stack = hs ? hs.stack : s.match ? s.match.stacks[seat] : null;
  $(`${pos}-stack`).textContent = stack == null ? "–" : chips(stack);
  $(`${pos}-stack`).dataset.chips = stack == null ? "" : String(stack);
  const bet = $(`${pos}-bet`), betting = Boolean(hs && hs.bet > 0 && !hand.complete);
  bet.hidden = !betting;
  bet.textContent = betting ? t("room.bet", { amount: chips(hs.bet) }) : "";
  bet.dataset.chips = hs ? String(hs.bet) : "0";

  // cards: my own from "you", an opponent's only once shown; otherwise face down
  const cards = $(`${pos}-cards`);
  const shown = hs?.shown;
  const best = shown ? countFaces(shown.best) : null;
  if (hand && seat === me && hand.you) drawFaces(cards, hand.you.hole, { best });
  else if (shown) drawFaces(cards, shown.hole, { best });
  else if (hand && hs?.in_hand && !hs.folded) {
    cards.replaceChildren(cardBack(), cardBack());
    cards.classList.remove("has-best");
  } else {
    cards.replaceChildren();
    cards.classList.remove("has-best");
  }
  const bestLine = $(`${pos}-best`);
  bestLine.hidden = !shown;
  if (shown) {
    $(`${pos}-cat`).textContent = t(`category.${shown.category}`);
    $(`${pos}-cat`).dataset.category = shown.category;
    drawFaces($(`${pos}-five`), shown.best, { size: "sm" });
  } else $(`${pos}-five`).replaceChildren();
  if (pos === "bottom") {
    const burns = hand && seat === me && hand.you ? hand.you.burns.filter(Boolean) : [];
    $("my-burn-box").hidden = burns.length === 0;
    drawFaces($("my-burn"), burns);
  }
}

function handMessage() {
  const s = state, hand = s.hand;
  if (!hand) {
    const seated = s.players.filter((p) => !p.left).length;
    return s.status === "over" ? t("room.closed") : seated < 2 ? t("room.waiting") : "";
  }
  if (!hand.complete) {
    if (hand.to_act == null) return "";
    return hand.to_act === s.you ? t("room.your_turn") : t("room.their_turn", { name: nameOf(hand.to_act) ?? "?" });
  }
  const parts = [];
  for (const pot of hand.pots) {
    const shown = pot.winners.map((w) => hand.seats[w].shown).filter(Boolean);
    if (pot.winners.length === 1) {
      const w = pot.winners[0];
      const who = w === s.you ? t("room.you") : nameOf(w) ?? "?";
      parts.push(shown.length
        ? t("room.won_with", { name: who, amount: chips(pot.shares[0]), category: t(`category.${shown[0].category}`) })
        : t("room.won_fold", { name: who, amount: chips(pot.shares[0]) }));
    } else {
      parts.push(t("room.split", { amount: chips(pot.amount), shares: pot.winners.map((w, i) => `${nameOf(w) ?? "?"} ${chips(pot.shares[i])}`).join("、") }));
    }
  }
  for (const r of hand.returned) {
    parts.push(t("room.returned", { name: r.seat === s.you ? t("room.you") : nameOf(r.seat) ?? "?", amount: chips(r.amount) }));
  }
  return parts.join(" ");
}

function drawBoard() {
  const hand = state.hand, board = $("board");
  const faces = hand ? hand.board.filter(Boolean) : [];
  // highlight the (first) winner's best five on the board at showdown
  let best = null;
  if (hand?.complete && hand.pots.length) {
    const w = hand.pots[0].winners[0];
    const shown = w != null ? hand.seats[w].shown : null;
    if (shown) {
      best = countFaces(shown.best);
      for (const f of shown.hole) if (best.get(f) > 0) best.set(f, best.get(f) - 1);
    }
  }
  drawFaces(board, faces, { best });
  const prev = Number(board.dataset.count || 0);
  board.dataset.count = String(faces.length);
  if (faces.length > prev) [...board.children].slice(prev).forEach((c) => c.classList.add("deal"));
  for (let i = faces.length; i < 5; i++) board.append(el("span", { class: "card slot", "aria-hidden": "true" }));
  $("pot").textContent = hand ? chips(hand.pot) : "0";
  $("pot").dataset.chips = hand ? String(hand.pot) : "0";
  $("street").textContent = hand ? (hand.complete ? t("room.hand_over") : t(`street.${hand.street}`)) : "";
  $("hand-no").textContent = hand ? t("room.hand_no", { n: hand.hand_no }) : "";
}

function drawClock() {
  const s = state;
  if (!s) return;
  const left = remaining();
  const clock = $("clock");
  const live = handLive();
  const seated = s.you != null && !s.spectator;
  if (live && left != null) {
    clock.hidden = false;
    const secs = Math.max(0, Math.ceil(left));
    const total = clockTotal || 45;
    $("clock-fill").style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
    clock.classList.toggle("low", left <= 10);
    clock.classList.toggle("out", left <= 0);
    clock.dataset.seconds = String(secs);
    const who = s.hand.to_act === s.you ? t("room.you") : nameOf(s.hand.to_act) ?? "?";
    $("clock-text").textContent = left > 0 ? t("room.clock", { name: who, seconds: secs }) : t("room.clock_out", { name: who });
  } else if (s.hand?.complete && s.match && !s.match.over && left != null) {
    clock.hidden = false;
    clock.classList.remove("low", "out");
    $("clock-fill").style.width = "0%";
    $("clock-text").textContent = t("room.next_in", { seconds: Math.max(0, Math.ceil(left)) });
  } else clock.hidden = true;
  const canTimeout = seated && live && (s.timeout_allowed || (left != null && left <= 0));
  $("timeout-btn").hidden = !canTimeout;
  $("timeout-btn").disabled = busy;
  $("next-btn").hidden = !(seated && s.hand?.complete && s.match && !s.match.over);
  $("next-btn").disabled = busy;
}

function clampAmount(v, lo, hi) {
  const n = Math.round(Number(v));
  if (!Number.isFinite(n)) return lo;
  return Math.min(hi, Math.max(lo, n));
}

function drawActions() {
  const s = state, hand = s.hand, legal = hand && !hand.complete ? hand.legal : null;
  const bar = $("actions");
  const appearing = bar.hidden && Boolean(legal);
  bar.hidden = !legal;
  if (!legal) return;
  if (appearing && bar.getBoundingClientRect().bottom > window.innerHeight) bar.scrollIntoView({ block: "nearest", behavior: "smooth" });
  const has = (k) => legal.actions.includes(k);
  const me = hand.seats[s.you];
  $("act-fold").hidden = !has("fold");
  $("act-check").hidden = !has("check");
  $("act-call").hidden = !has("call");
  $("act-call").textContent = t("action.call_n", { amount: chips(legal.call_amount) });
  $("act-call").dataset.amount = String(legal.call_amount);
  $("act-allin").hidden = !has("allin");
  if (legal.allin_to != null) {
    // what an all-in can put at risk: chips nobody can match come back, so show the matched street total
    const top = legal.max_raise_to ?? legal.max_bet_to ?? legal.allin_to;
    $("act-allin").textContent = t("action.allin_n", { amount: chips(Math.min(legal.allin_to, Math.max(top, legal.call_amount + me.bet))) });
    $("act-allin").dataset.to = String(legal.allin_to);
  }
  const kind = has("raise") ? "raise" : has("bet") ? "bet" : null;
  $("sizing").hidden = !kind;
  if (kind) {
    const lo = legal[`min_${kind}_to`], hi = legal[`max_${kind}_to`];
    const range = $("raise-range"), num = $("raise-amount");
    for (const input of [range, num]) { input.min = String(lo); input.max = String(hi); input.step = "1"; }
    if (sizeVersion !== s.version) { sizeVersion = s.version; range.value = num.value = String(lo); }
    const amount = clampAmount(num.value, lo, hi);
    $("act-raise").dataset.kind = kind;
    $("act-raise").dataset.to = String(amount);
    $("act-raise").textContent = t(kind === "raise" ? "action.raise_to" : "action.bet_to", { amount: chips(amount) });
    $("size-hint").textContent = t("room.size_hint", { min: chips(lo), max: chips(hi), street: chips(me ? me.bet : 0) });
  }
  bar.querySelectorAll("button").forEach((b) => { b.disabled = busy; });
}

function setAmount(v) {
  const kind = $("act-raise").dataset.kind;
  const legal = state?.hand?.legal;
  if (!legal || !kind) return;
  const lo = legal[`min_${kind}_to`], hi = legal[`max_${kind}_to`];
  const n = clampAmount(v, lo, hi);
  $("raise-range").value = $("raise-amount").value = String(n);
  drawActions();
}

function quickSize(size) {
  const hand = state.hand, legal = hand.legal, kind = $("act-raise").dataset.kind;
  const hi = legal[`max_${kind}_to`];
  const call = legal.call_amount, cb = hand.current_bet;
  // a pot-sized raise: call first, then raise by the pot that makes; a bet when nothing is bet yet
  const potAfterCall = hand.pot + call;
  if (size === "max") return setAmount(hi);
  const by = size === "half" ? Math.floor(potAfterCall / 2) : potAfterCall;
  setAmount(cb + by);
}

function drawResult() {
  const s = state, m = s.match, box = $("result");
  box.hidden = !(m && m.over);
  if (!m || !m.over) return;
  const w = m.winner;
  const who = w == null ? null : nameOf(w) ?? "?";
  box.classList.toggle("won", w != null && w === s.you);
  $("result-title").textContent = w == null ? t("room.match_tied")
    : w === s.you ? t("room.match_won") : s.you != null ? t("room.match_lost", { name: who }) : t("room.match_winner", { name: who });
  const stacks = s.players.filter((p) => p.seat < m.stacks.length).map((p) => `${p.name} ${chips(m.stacks[p.seat])}`).join(" · ");
  $("result-text").textContent = m.forfeit != null
    ? t("room.match_forfeit", { name: nameOf(m.forfeit) ?? "?" })
    : t("room.match_summary", { hands: m.hands_played, stacks });
  const player = s.you != null;
  $("rematch-btn").hidden = !player || Boolean(m.rematch);
  $("rematch-btn").disabled = busy;
  const link = $("rematch-link");
  link.hidden = !m.rematch;
  if (m.rematch) {
    link.href = `/rooms/${encodeURIComponent(m.rematch)}`;
    link.textContent = t("room.rematch_go", { code: m.rematch });
  }
}

const baseTitle = document.title;

function draw() {
  const s = state;
  if (!s) return;
  const myTurn = Boolean(handLive() && s.you != null && s.hand.to_act === s.you);
  document.title = myTurn ? `● ${t("room.your_turn")} ${baseTitle}` : baseTitle;
  root.dataset.version = String(s.version);
  root.dataset.status = s.status;
  root.dataset.you = s.you == null ? "" : String(s.you);
  $("room-status").textContent = t(`room.status.${s.status}`);
  $("room-status").className = `status-badge st-${s.status}`;
  $("room-decks").textContent = t("room.decks", { n: s.decks, cards: 52 * s.decks });
  $("spectator-note").hidden = !s.spectator;
  const open = s.spectator && (s.status === "waiting" || s.status === "playing" || s.status === "paused")
    && s.players.filter((p) => !p.left).length < s.seats;
  $("join-box").hidden = !open;
  $("join-btn").hidden = !member;
  $("join-btn").disabled = busy;
  $("signin-to-join").hidden = member !== null;
  const bottom = s.you ?? 0;
  drawSeat("bottom", bottom);
  drawSeat("top", 1 - bottom);
  drawBoard();
  $("hand-message").textContent = handMessage();
  drawClock();
  drawActions();
  drawResult();
  const canLeave = s.you != null && s.status !== "over";
  $("leave-box").hidden = !canLeave;
  if (!canLeave) $("leave-confirm").hidden = true;
}

// ---- controls ---------------------------------------------------------------------------------------------

$("actions").addEventListener("click", (ev) => {
  const btn = ev.target.closest("button.act");
  if (!btn || btn.disabled || busy) return;
  const kind = btn.dataset.kind;
  if (kind === "raise" || kind === "bet") {
    const to = Number(btn.dataset.to);
    const legal = state.hand.legal;
    if (legal.actions.includes("allin") && to === legal.allin_to) act({ kind: "allin" });
    else act({ kind, to });
  } else act({ kind });
});
document.querySelectorAll("#sizing .quick button").forEach((b) => b.addEventListener("click", () => quickSize(b.dataset.size)));
$("raise-range").addEventListener("input", (ev) => { $("raise-amount").value = ev.target.value; drawActions(); });
$("raise-amount").addEventListener("change", (ev) => setAmount(ev.target.value));
$("raise-amount").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter") { ev.preventDefault(); setAmount(ev.target.value); $("act-raise").click(); }
});
$("timeout-btn").addEventListener("click", () => send("/timeout", { version: state.version }));
$("next-btn").addEventListener("click", () => send("/next", { version: state.version }));
$("join-btn").addEventListener("click", () => send("/join", {}));
$("rematch-btn").addEventListener("click", async () => {
  const res = await send("/rematch", {});
  if (res?.code) location.assign(res.url || `/rooms/${encodeURIComponent(res.code)}`);
});
$("leave-btn").addEventListener("click", () => { $("leave-confirm").hidden = false; $("leave-no").focus(); });
$("leave-no").addEventListener("click", () => { $("leave-confirm").hidden = true; $("leave-btn").focus(); });
$("leave-yes").addEventListener("click", async () => {
  const res = await send("/leave", {});
  if (res) location.assign("/lobby");
});

const share = $("share-link");
share.value = new URL(`/rooms/${encodeURIComponent(CODE)}`, location.origin).href;
share.addEventListener("focus", () => share.select());
$("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(share.value);
  } catch (e) {
    share.select();
    document.execCommand?.("copy");
  }
  $("copy-status").textContent = t("room.copied");
  setTimeout(() => { $("copy-status").textContent = ""; }, 2500);
});

setInterval(drawClock, 250);

// ---- start --------------------------------------------------------------------------------------------------

(async () => {
  if (!CODE) { root.dataset.status = "missing"; showMessage(errorBox, { message: t("error.room_not_found") }); return; }
  whoAmI().then((me) => { member = me.member; if (state) draw(); }).catch(() => { member = null; });
  startPolling();  // until the socket is open (and again whenever it drops)
  await refresh();
  if (root.dataset.status !== "missing") connect(); else stopPolling();
})();
