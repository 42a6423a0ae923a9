// The member table (2–9 seats): the server is the only authority; this page draws the seat's own view and sends
// requests. Updates arrive by WebSocket push; while the socket is down the page polls every 2 s (the spec's sync)
// and reconnects with backoff, taking whatever state is newest on reconnect. The host's controls and the table's
// log (room_host.js), table talk (room_chat.js) and the keyboard and turn alerts (room_keys.js) are modules of
// their own, drawn from the same state.
import { el, t, tn, list, LANG } from "./core.js";
import { memberApi, whoAmI, newKey, chips, drawFaces, cardBack, countFaces, showMessage, tableSettings, whole, faceCard, cardSymbol } from "./member.js";
import { setupChat, receiveChat, drawChat, pollChat } from "./room_chat.js";
import { setupHost, drawHost } from "./room_host.js";
import { setupBooks, drawBooks } from "./room_books.js";
import { setupFair, drawFair } from "./room_fair.js";
import { setupKeys, drawTurn } from "./room_keys.js";
import { drawSng, sngPlace } from "./room_sng.js";
import { mixText, mixAction, mixBars, reasonText } from "./coach_text.js";

const $ = (id) => document.getElementById(id);
const root = $("room");
const CODE = root.dataset.code;
const API = `/api/rooms/${encodeURIComponent(CODE)}`;
const POLL_MS = 2000;

let state = null;          // the newest state seen
let skew = 0;              // server clock minus this computer's clock, in ms
let clockTotal = null;     // seconds of the running wait (the server's clock_total; else as first seen)
let clockVersion = null;
let busy = false;          // a request is in flight: action buttons stay disabled
let member = undefined;    // undefined: not known yet; null: signed out
let sizeKey = null;        // the decision (hand, street, bet, seat) the amount box was filled for
let layoutKey = null;      // seats and the seat at the bottom the rings were built for
let ws = null, retry = 0, pollTimer = null, reconnectTimer = null, pingTimer = null;
let coachKey = null;       // the version the coach panel was asked about
let watching = false;      // a player who went broke chose to watch: the "you are out" note stays closed

const errorBox = $("room-error");
// the bot levels' names in the reader's language, as the server wrote them into the add-a-bot control
const LEVEL_NAMES = Object.fromEntries([...$("bot-level").options].map((o) => [o.value, o.textContent.trim()]));

// Who sits at a seat now; a seat whose player left during the hand still shows them until it ends.
function occupant(seat) {
  const now = state?.players.find((p) => p.seat === seat && !p.left);
  if (now) return now;
  const hs = state?.hand?.seats[seat];
  return hs?.in_hand ? state.players.find((p) => p.seat === seat && p.left) ?? null : null;
}
const nameOf = (seat) => occupant(seat)?.name ?? state?.players.find((p) => p.seat === seat)?.name ?? null;
// "you" in a sentence, or the player's name
const who = (seat) => (seat === state?.you ? t("room.you") : nameOf(seat) ?? t("room.seat_n", { n: seat + 1 }));
// the same inside a list ("for Alice, you, Bob")
const whoInList = (seat) => (seat === state?.you ? t("room.you_in_list") : who(seat));
const seatedPlayers = () => (state ? state.players.filter((p) => !p.left) : []);

// ---- receiving state --------------------------------------------------------------------------------------

function apply(next) {
  if (!next || typeof next.version !== "number") return;
  if (state && next.version < state.version) return;  // an older answer arriving late
  const serverNow = Date.parse(next.server_time);
  if (!isNaN(serverNow)) skew = serverNow - Date.now();
  if (next.version !== clockVersion) {
    clockVersion = next.version;
    clockTotal = next.clock_total ?? (next.seconds_left != null ? Math.max(1, Math.ceil(next.seconds_left)) : null);
  }
  state = next;
  draw();
}

async function refresh() {
  try {
    apply(await memberApi(API));
    if (!(ws && ws.readyState === WebSocket.OPEN)) pollChat();  // the socket brings the chat while it is open
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
    else if (msg.type === "chat") receiveChat(msg.messages, msg.muted);
    else if (msg.type === "chat_sent") receiveChat([msg.message]);
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

async function send(path, body, method = "POST") {
  if (busy || !state) return null;
  busy = true;
  showMessage(errorBox, null);
  draw();
  try {
    const res = await memberApi(`${API}${path}`, { method, body });
    // the answer's state is current when sent; a push may already have brought a newer one, so never go back
    apply(res.state ?? (typeof res.version === "number" ? res : null));  // join/away/back answer with the state
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

// ---- pots -------------------------------------------------------------------------------------------------

// While a hand runs the pots are not split yet: one pot per distinct all-in level of the players still in the
// hand (main pot first), each holding every seat's chips up to that level (folded players' chips stay in the
// levels they reached), then what lies above the highest all-in level. A player still in the hand who is not
// all-in can play for every pot.
export function livePots(hand) {
  const seats = hand.seats;
  const live = seats.filter((x) => x.in_hand && !x.folded);
  const levels = [...new Set(live.filter((x) => x.allin).map((x) => x.contributed))].sort((a, b) => a - b);
  const pots = [];
  let prev = 0;
  for (const level of levels) {
    const amount = seats.reduce((sum, x) => sum + Math.max(0, Math.min(x.contributed, level) - prev), 0);
    const eligible = live.filter((x) => !x.allin || x.contributed >= level).map((x) => x.seat);
    if (amount > 0) pots.push({ amount, eligible });
    prev = level;
  }
  const rest = seats.reduce((sum, x) => sum + Math.max(0, x.contributed - prev), 0);
  const above = live.filter((x) => !x.allin).map((x) => x.seat);
  if (rest > 0 && above.length) pots.push({ amount: rest, eligible: above });
  else if (rest > 0 && pots.length) pots[pots.length - 1].amount += rest;
  else if (!pots.length) pots.push({ amount: rest, eligible: live.map((x) => x.seat) });
  return pots;
}

const potName = (i) => (i === 0 ? t("room.main_pot") : t("room.side_pot", { n: i }));
// a pot of a board run twice is named by its run: "Run 2 · Main pot"
function potLabel(pots, i) {
  const run = pots[i].run;
  if (!run) return potName(i);
  return `${t("room.run_n", { n: run })} · ${potName(pots.slice(0, i).filter((p) => p.run === run).length)}`;
}

// Each winner's share, with the odd chips (they go to the first winner clockwise from the button).
function sharesText(pot) {
  if (pot.winners.length === 1) return whoInList(pot.winners[0]);  // the whole pot: its amount is beside it
  const base = Math.floor(pot.amount / pot.winners.length);
  return list(pot.winners.map((w, i) => {
    const odd = pot.shares[i] - base;
    return `${whoInList(w)} ${chips(pot.shares[i])}${odd > 0 ? tn("room.odd_chip", odd) : ""}`;
  }));
}

function drawPots() {
  const hand = state.hand, box = $("pots");
  let items = [];
  if (hand && hand.complete) {
    const pots = hand.pots || [];
    if (pots.length > 1 || pots.some((p) => p.winners.length > 1)) {
      items = pots.map((p, i) => el("li", { class: "pot-item settled", "data-amount": String(p.amount),
        "data-eligible": p.eligible.join(","), "data-winners": p.winners.join(","), "data-shares": p.shares.join(","),
        "data-run": p.run ? String(p.run) : null },
        el("span", { class: "pot-name", text: potLabel(pots, i) }), " ", el("strong", { text: chips(p.amount) }), " ",
        el("span", { class: "pot-won", text: t("room.pot_won", { shares: sharesText(p) }) })));
    }
  } else if (hand) {
    const pots = livePots(hand);
    if (pots.length > 1) {
      items = pots.map((p, i) => el("li", { class: "pot-item", "data-amount": String(p.amount), "data-eligible": p.eligible.join(",") },
        el("span", { class: "pot-name", text: potName(i) }), " ", el("strong", { text: chips(p.amount) }), " ",
        el("span", { class: "pot-for", text: t("room.pot_for", { names: list(p.eligible.map(whoInList)) }) })));
    }
  }
  box.replaceChildren(...items);
  box.hidden = items.length === 0;
  box.classList.toggle("by-run", Boolean(hand?.complete && hand.pots?.some((p) => p.run)));  // a column a run
}

// ---- drawing ----------------------------------------------------------------------------------------------

function remaining() {
  if (!state?.deadline) return null;
  return (Date.parse(state.deadline) - (Date.now() + skew)) / 1000;
}

// After the action clock, the player to act's time bank runs (seconds left, or null when there is none).
function bankRemaining() {
  if (!state?.bank_deadline || state.bank_deadline === state.deadline) return null;
  return (Date.parse(state.bank_deadline) - (Date.now() + skew)) / 1000;
}

const handLive = () => Boolean(state?.hand && !state.hand.complete && state.match && !state.match.over);
const matchOver = () => state.status === "over" || Boolean(state.match?.over);
// The creator seats and removes bots before the first hand and between hands.
const canManageBots = () => Boolean(state.creator && state.you != null && !matchOver() && !handLive());

function tag(text, cls = "") { return el("span", { class: `tag ${cls}`, text }); }

function seatBox(seat, mine) {
  const id = `seat-${seat}`;
  const cards = el("div", { class: "seat-cards" }, el("div", { class: "hand seat-hole", role: "group", "aria-label": t("room.hole") }));
  if (mine) {
    cards.append(el("div", { class: "burn-box", id: "my-burn-box", hidden: true, title: t("room.burn_note") },
      el("span", { class: "burn-label", id: "burn-label", text: t("room.burn") }),
      el("div", { class: "hand", id: "my-burn", role: "group", "aria-labelledby": "burn-label" }),
      el("span", { class: "burn-note", text: t("room.burn_note") })));
  }
  // .seat-clock: the seat's own running clock while it is to act (a time bank can fill it too); .seat-out: the
  // "out of the match" line of a busted seat (the .busted class shows it)
  return el("div", { class: `seat-box${mine ? " mine" : ""}`, id, "data-seat": String(seat), role: "group", "aria-labelledby": `${id}-name` },
    el("div", { class: "seat-info" },
      el("span", { class: "avatar", "aria-hidden": "true" }),
      el("div", { class: "seat-who" },
        el("h2", { class: "seat-name", id: `${id}-name` }),
        el("p", { class: "seat-tags" }),
        mine ? null : el("button", { type: "button", class: "btn small-btn bot-remove", "data-seat": String(seat), hidden: true,
          text: t("room.bot_remove") }),
        mine ? null : el("button", { type: "button", class: "btn small-btn sit-btn", "data-seat": String(seat), hidden: true,
          text: t("room.sit_here"), "aria-label": t("room.sit_here_aria", { n: seat + 1 }) })),
      el("p", { class: "seat-stack" }, el("span", { class: "small", text: t("room.stack") }), " ", el("strong", { class: "stack-num" }))),
    cards,
    el("p", { class: "seat-best", hidden: true }, el("span", { class: "cat" }), el("span", { class: "cat cat2", hidden: true }), " ",
      el("span", { class: "hand seat-five" })),
    // your own hand in words ("two pair, kings and eights"), with or without the coach
    mine ? el("p", { class: "seat-strength", id: "my-strength", hidden: true, "aria-label": t("room.strength_aria") }) : null,
    el("p", { class: "seat-bet", hidden: true }),
    el("p", { class: "seat-out", text: mine ? t("room.you_busted") : "" }),
    el("div", { class: "seat-clock", "aria-hidden": "true" }, el("i")));
}

// Opponents go around the felt clockwise from the viewer's left: [bottom-left, left, top, right, bottom-right].
const RINGS = ["ring-bl", "ring-left", "ring-top", "ring-right", "ring-br"];
const LAYOUT = { 0: [0, 0, 0, 0, 0], 1: [0, 0, 1, 0, 0], 2: [0, 0, 2, 0, 0], 3: [0, 1, 1, 1, 0], 4: [0, 1, 2, 1, 0],
  5: [0, 1, 3, 1, 0], 6: [1, 1, 2, 1, 1], 7: [1, 1, 3, 1, 1], 8: [1, 1, 4, 1, 1] };

function layout() {
  const n = state.seats, bottom = state.you ?? 0, mine = state.you != null;
  const key = `${n}:${bottom}:${mine}`;
  if (key === layoutKey) return;
  layoutKey = key;
  const table = $("table");
  table.dataset.seats = String(n);
  table.dataset.opponents = String(n - 1);
  $("ring-bottom").replaceChildren(seatBox(bottom, mine));
  const counts = LAYOUT[n - 1] ?? LAYOUT[8];
  let i = 1;
  RINGS.forEach((ring, r) => {
    const boxes = [];
    for (let k = 0; k < counts[r] && i < n; k++, i++) boxes.push(seatBox((bottom + i) % n, false));
    $(ring).replaceChildren(...boxes);
  });
  for (; i < n; i++) $("ring-top").append(seatBox((bottom + i) % n, false));
}

function drawSeat(seat) {
  const s = state, hand = s.hand, me = s.you;
  const box = $(`seat-${seat}`);
  if (!box) return;
  const q = (sel) => box.querySelector(sel);
  const player = occupant(seat);
  const hs = hand ? hand.seats[seat] : null;
  const inHand = Boolean(hs?.in_hand);
  const live = handLive();
  const winner = Boolean(hand?.complete && hand.pots.some((p) => p.winners.includes(seat)));
  box.classList.toggle("to-act", Boolean(live && hand.to_act === seat));
  box.classList.toggle("folded", Boolean(inHand && hs.folded));
  box.classList.toggle("empty", !player);
  box.classList.toggle("away", Boolean(player?.away));
  box.classList.toggle("winner", winner);
  // out of the match: no chips left once their last hand is over (the server may say so itself)
  const busted = Boolean(player && !player.left && s.match && (player.busted
    ?? (player.stack === 0 && !(live && inHand))));
  box.classList.toggle("busted", busted);
  const name = player ? player.name : t("room.empty_seat");
  q(".seat-name").textContent = seat === me && player ? t("room.you_name", { name }) : name;
  q(".avatar").textContent = player?.bot ? "🤖" : player ? [...player.name][0].toUpperCase() : "";
  box.classList.toggle("bot", Boolean(player?.bot));
  const tags = [];
  if (player?.bot) {
    // 「新手（鬆散被動）」: the name, then its style in brackets (dropped on a phone's small seats)
    const level = LEVEL_NAMES[player.level] ?? player.level ?? "";
    const short = /^(.*?)\s*[（(]/.exec(level)?.[1] || level;
    tags.push(el("span", { class: "tag bot", "data-level": player.level ?? "", title: t("room.bot_title", { level }) },
      t("room.bot_tag", { level: short }),
      level.length > short.length ? el("span", { class: "lv-style", text: level.slice(short.length) }) : null));
  }
  const remove = q(".bot-remove");
  if (remove) {
    remove.hidden = !(player?.bot && !player.left && canManageBots());
    remove.disabled = busy;
    remove.setAttribute("aria-label", t("room.bot_remove_aria", { name: player?.name ?? "" }));
  }
  // an empty seat a joining member may pick (where the host approves who sits, asks for it)
  const sit = q(".sit-btn");
  if (sit) {
    sit.hidden = !(!player && canPickSeat());
    sit.disabled = busy;
  }
  // the host and co-hosts, where there is more than one member to tell apart (not at a solo table of bots)
  if (player && !player.left && s.players.filter((p) => !p.bot).length > 1) {
    if (player.host) tags.push(tag(t("room.tag_host"), "host"));
    else if (player.cohost) tags.push(tag(t("room.tag_cohost"), "cohost"));
  }
  if (hand && s.match) {
    if (hand.button === seat) tags.push(tag(t("room.tag_button"), "dealer"));
    if (hand.small_blind_seat === seat) tags.push(tag(t("room.tag_sb"), "blind"));
    if (hand.big_blind_seat === seat) tags.push(tag(t("room.tag_bb"), "blind"));
    if (hand.straddle_seat === seat && inHand) tags.push(tag(t("room.tag_straddle"), "blind straddle"));
  }
  if (hs?.mucked) tags.push(tag(t("room.tag_mucked"), "folded mucked"));
  if (hs?.showed?.length) tags.push(tag(t("room.tag_showed"), "showed"));
  if (player?.left) tags.push(tag(t("room.tag_left"), "folded"));
  else if (busted) tags.push(tag(t("room.tag_busted"), "busted"));
  else if (player?.away) tags.push(tag(t("room.tag_away"), "away"));
  if (hand && inHand && !hand.complete) {
    // a shown hand speaks for itself: its last action is left out at the showdown
    const last = live && !hs.shown ? hand.last_actions?.[String(seat)] : null;
    // an all-in made on this street says so with its amount; a fold shows as the folded tag
    if (hs.allin && last?.kind !== "allin") tags.push(tag(t("room.tag_allin"), "allin"));
    if (hs.folded) {
      const clock = hand.timeouts?.some((o) => o.seat === seat && o.kind === "fold");  // folded by the clock
      tags.push(tag(t(clock ? "room.tag_folded_timeout" : "room.tag_folded"), "folded"));
    }
    if (live && hand.to_act === seat) tags.push(tag(t("room.tag_to_act"), "turn"));
    if (last && last.kind !== "fold" && !hs.folded) {
      const text = t(`room.last_${last.kind}`, { to: chips(last.to), amount: chips(last.amount) });
      tags.push(tag(last.timeout ? text + t("room.last_timeout") : text, last.kind === "allin" ? "allin" : "last-action"));
    }
  }
  q(".seat-tags").replaceChildren(...tags, ...(remove ? [remove] : []), ...(sit ? [sit] : []));  // its buttons go with its tags
  // who left took their chips; after the hand a rebuy, a top-up or the host's adjustment shows at once
  const stack = player?.left ? null : inHand && !hand.complete ? hs.stack : player ? player.stack : null;
  const stackNum = q(".stack-num");
  stackNum.textContent = stack == null ? "–" : chips(stack);
  stackNum.dataset.chips = stack == null ? "" : String(stack);
  const bet = q(".seat-bet"), betting = Boolean(inHand && hs.bet > 0 && !hand.complete);
  bet.hidden = !betting;
  // 「本輪 40」: the word and the amount apart, so a phone's small seats can show the chip and the amount alone
  if (betting) bet.replaceChildren(el("span", { class: "bet-word", text: t("room.bet_word") }), " ", el("span", { class: "bet-num", text: chips(hs.bet) }));
  else bet.replaceChildren();
  bet.dataset.chips = hs ? String(hs.bet) : "0";

  // cards: my own from "you", another player's only once shown; otherwise face down while they are in the hand
  const cards = q(".seat-hole");
  const shown = hs?.shown;
  const showed = hs?.showed?.filter(Boolean) ?? [];  // what the winner of an uncontested pot chose to show
  const best = shown ? countFaces(shown.best) : null;
  const faceDown = !(hand && seat === me && hand.you) && !shown && inHand && !hs.folded && !hs.mucked;
  if (hand && seat === me && hand.you) drawFaces(cards, hand.you.hole, { best });
  else if (shown) drawFaces(cards, shown.hole, { best });
  else if (showed.length) {
    drawFaces(cards, showed);
    for (let i = showed.length; i < 2; i++) cards.append(cardBack());
  } else if (faceDown) {
    cards.replaceChildren(cardBack(), cardBack());
    cards.classList.remove("has-best");
  } else {
    cards.replaceChildren();
    cards.classList.remove("has-best");
  }
  // another player's cards face down (a phone draws them small); shown or your own, face up
  cards.classList.toggle("face-down", faceDown && !showed.length);
  box.classList.toggle("shown", Boolean(shown));
  box.classList.toggle("mucked", Boolean(hs?.mucked));
  const bestLine = q(".seat-best");
  bestLine.hidden = !shown;
  const second = shown ? hs.shown2 : null;  // the same hand on the second run's board
  // a hand on a board run twice is named with its run: "Run 1 Full house", on a phone "(1) Full house"
  const named = (n, category) => [el("span", { class: "run-no", "aria-hidden": "true" }, String(n)),
    el("span", { class: "run-name" }, `${t("room.run_n", { n })} `), t(`category.${category}`)];
  if (shown) {
    if (second) q(".cat").replaceChildren(...named(1, shown.category));
    else q(".cat").textContent = t(`category.${shown.category}`);
    q(".cat").dataset.category = shown.category;
    drawFaces(q(".seat-five"), shown.best, { size: "sm" });
  } else q(".seat-five").replaceChildren();
  const cat2 = q(".cat2");
  cat2.hidden = !second;
  if (second) cat2.replaceChildren(...named(2, second.category));
  else cat2.textContent = "";
  if (seat === me && $("my-strength")) {
    const words = (x) => (x ? (LANG === "en" ? x.en : x.zh) : null);
    const one = words(hand?.you?.strength), two = words(hand?.you?.strength2);
    const text = !one || shown ? "" : two ? t("room.strength_runs", { one, two }) : one;
    $("my-strength").hidden = !text;
    $("my-strength").textContent = text;
    $("my-strength").dataset.category = text ? hand.you.strength.category : "";
  }
  if (seat === me && $("my-burn-box")) {
    const burns = hand && hand.you ? hand.you.burns.filter(Boolean) : [];
    $("my-burn-box").hidden = burns.length === 0;
    drawFaces($("my-burn"), burns);
  }
}

// A spectator may take a seat while the match is open and a seat is free (one who left this match asks the host).
function joinOpen() {
  const s = state;
  return Boolean(s.spectator && ["waiting", "playing", "paused", "rebuys"].includes(s.status)
    && !(s.match && s.match.over) && seatedPlayers().length < s.seats);
}
// joining asks the host where the host approves who sits, and for a player who left this match
const joinAsks = () => Boolean(state.options?.approval || state.left_match);

// What a table that deals no hand waits for, in words (the host's pause has its own box above the table).
function waitingText(s) {
  const w = s.waiting_for;
  if (!w || w.kind === "host") return "";
  if (w.kind === "rebuys") {
    const left = remaining();
    return t("room.waiting_rebuys", { names: list(w.names), seconds: Math.max(0, Math.ceil(left ?? 0)) });
  }
  if (w.kind === "back") return t("room.waiting_back", { names: list(w.names) });
  return t("room.waiting_players");
}
// ... and pick which: a signed-in member (not a guest) who has not asked already
const canPickSeat = () => Boolean(joinOpen() && member && !member.guest && !state.requested);

// The choice that is yours now at this hand: "runs" (run it twice?), "show" (show or muck), "answered" (you agreed
// to run it twice and the others are still answering), or null.
function myChoice() {
  const hand = state?.hand, pending = hand && !hand.complete ? hand.pending : null;
  if (!pending || state.you == null) return null;
  // an answer takes the seat off the list the hand waits for; the answers stay
  if (pending.kind === "runs" && pending.answers && String(state.you) in pending.answers) return "answered";
  if (hand.you?.choice !== pending.kind || !pending.seats.includes(state.you)) return null;
  return pending.kind;
}

// Who the table waits for at a pending choice, in words.
function pendingText(pending) {
  if (pending.kind === "runs") return t("room.runs_others");
  return t("room.show_others", { names: list(pending.seats.map(whoInList)) });
}

// The first hand of a table that is not full: its creator deals it, or anyone seated once the creator has left.
function canDealFirst() {
  const s = state, seated = seatedPlayers();
  const me = s.you != null && seated.some((p) => p.seat === s.you);
  return Boolean(me && !s.match && s.status === "waiting" && seated.length >= 2 && (s.creator || !seated.some((p) => p.creator)));
}

function handMessage() {
  const s = state, hand = s.hand;
  const seated = seatedPlayers().length;
  if (s.status === "over" && !hand) return t("room.closed");
  if (s.paused && !hand) return "";  // the pause box above the table says who paused it
  if (s.status === "paused" && !hand) return waitingText(s);  // waiting for a rebuy: the clock line counts it down
  if (!hand) {
    if (seated < 2) return t("room.waiting");
    if (!s.match) return canDealFirst() ? t("room.waiting_creator", { n: seated }) : t("room.waiting_others", { n: seated });
    return "";
  }
  if (!hand.complete) {
    // a choice's window: said once, by the clock line under the board (or, when the choice is yours, by the bar)
    if (hand.pending) return "";
    if (hand.to_act == null) return "";
    return hand.to_act === s.you ? t("room.your_turn") : t("room.their_turn", { name: nameOf(hand.to_act) ?? "?" });
  }
  // each winner once, with everything they won (the pots list shows the split)
  const won = new Map();
  for (const pot of hand.pots) pot.winners.forEach((w, i) => won.set(w, (won.get(w) || 0) + pot.shares[i]));
  const parts = [...won].map(([w, amount]) => {
    // a winner of the second run only names the hand they made on its board
    const onlySecond = hand.pots.every((p) => !p.winners.includes(w) || p.run === 2);
    const shown = onlySecond && hand.seats[w].shown2 ? hand.seats[w].shown2 : hand.seats[w].shown;
    const showed = hand.seats[w].showed?.filter(Boolean) ?? [];  // cards the uncontested winner chose to show
    if (shown) return t("room.won_with", { name: who(w), amount: chips(amount), category: t(`category.${shown.category}`) });
    return showed.length ? t("room.won_fold_showed", { name: who(w), amount: chips(amount), cards: showed.map(cardSymbol).join(" ") })
      : t("room.won_fold", { name: who(w), amount: chips(amount) });
  });
  // a move the clock made is said after the hand too (during it, the seat's tag says so)
  for (const o of hand.timeouts ?? []) {
    parts.push(t(o.seat === s.you ? `room.timed_out_${o.kind}_you` : `room.timed_out_${o.kind}`, { name: who(o.seat) }));
  }
  for (const r of hand.returned) {
    parts.push(r.seat === s.you ? t("room.returned_you", { amount: chips(r.amount) })
      : t("room.returned", { name: who(r.seat), amount: chips(r.amount) }));
  }
  // paused: said here unless you are the one away (the box above the table says so, with the way back)
  const meAway = s.players.some((p) => p.seat === s.you && !p.left && p.away);
  if (!s.paused && s.status === "paused" && !meAway) parts.push(waitingText(s));  // a host's pause has its box
  return parts.join(" ");
}

// The (first) winner's best five on a board at showdown, less their hole cards: what to highlight there.
function boardBest(hand, run) {
  const pot = hand.pots.find((p) => (p.run ?? 1) === run);
  const w = pot?.winners[0];
  const shown = w != null ? hand.seats[w].shown : null;
  const made = run === 2 ? hand.seats[w]?.shown2 : shown;
  if (!shown || !made) return null;
  const best = countFaces(made.best);
  for (const f of shown.hole) if (best.get(f) > 0) best.set(f, best.get(f) - 1);
  return best;
}

function drawBoard() {
  const hand = state.hand, board = $("board");
  const faces = hand ? hand.board.filter(Boolean) : [];
  const done = Boolean(hand?.complete && hand.pots.length);
  drawFaces(board, faces, { best: done ? boardBest(hand, 1) : null });
  // run twice: the second board under the first, each named by its run
  const two = Boolean(hand?.board2);
  $("boards").classList.toggle("two-runs", two);
  $("run1-label").hidden = !two;
  $("board2-row").hidden = !two;
  const board2 = $("board2");
  if (two) {
    const faces2 = hand.board2.filter(Boolean);
    const prev2 = Number(board2.dataset.count || 0);
    drawFaces(board2, faces2, { best: done ? boardBest(hand, 2) : null });
    board2.dataset.count = String(faces2.length);
    if (faces2.length > prev2) [...board2.children].slice(prev2).forEach((c) => c.classList.add("deal"));
    for (let i = faces2.length; i < 5; i++) board2.append(el("span", { class: "card slot", "aria-hidden": "true" }));
  } else {
    board2.replaceChildren();
    board2.dataset.count = "0";
  }
  const prev = Number(board.dataset.count || 0);
  board.dataset.count = String(faces.length);
  if (faces.length > prev) [...board.children].slice(prev).forEach((c) => c.classList.add("deal"));
  for (let i = faces.length; i < 5; i++) board.append(el("span", { class: "card slot", "aria-hidden": "true" }));
  $("pot-line").hidden = !hand;
  $("pot").textContent = hand ? chips(hand.pot) : "0";
  $("pot").dataset.chips = hand ? String(hand.pot) : "0";
  const street = hand ? (hand.complete ? t("room.hand_over") : t(`street.${hand.street}`)) : "";
  $("street").textContent = street;
  $("street").hidden = !street;
  $("hand-no").textContent = hand ? t("room.hand_no", { n: hand.hand_no }) : "";
  drawPots();
}

// the clock bar's share left, 0 to 1 (a transform: the bar moves without laying the page out again)
const fill = (share) => { $("clock-fill").style.transform = `scaleX(${share})`; };

function drawClock() {
  const s = state;
  if (!s) return;
  const clockLeft = remaining();
  const bankLeft = clockLeft != null && clockLeft <= 0 ? bankRemaining() : null;
  const banking = bankLeft != null && bankLeft > 0;  // the clock has run out: the time bank runs
  const left = banking ? bankLeft : clockLeft;
  const clock = $("clock");
  const live = handLive();
  const seated = s.you != null && !s.spectator;
  const canTimeout = seated && live && (s.timeout_allowed || (left != null && left <= 0));
  const toActPlayer = live ? s.players.find((p) => p.seat === s.hand.to_act && !p.left) : null;
  const total = banking ? Math.max(1, toActPlayer?.bank || 1) : clockTotal || s.clock || 45;
  if (live && left != null) {
    clock.hidden = false;
    const secs = Math.max(0, Math.ceil(left));
    fill(Math.max(0, Math.min(1, left / total)));
    clock.classList.toggle("low", left <= 10);
    clock.classList.toggle("out", left <= 0);
    clock.classList.toggle("bank", banking);
    clock.dataset.seconds = String(secs);
    const mine = s.hand.to_act === s.you;
    const name = nameOf(s.hand.to_act) ?? "?";
    const pending = s.hand.pending;  // a choice's window (run it twice, show or muck), on the server's clock
    let text;
    if (pending) {
      // yours to answer (or answered, the others still choosing): the choice bar says it, with its seconds
      text = myChoice() ? "" : t("room.choosing", { what: pendingText(pending), seconds: secs });
    } else if (banking) text = mine ? t("room.bank_you", { seconds: secs }) : t("room.bank", { name, seconds: secs });
    else if (left > 0) text = mine ? t("room.clock_you", { seconds: secs }) : t("room.clock", { name, seconds: secs });
    else if (mine) text = t("room.clock_out_you");
    else text = canTimeout ? t("room.clock_out", { name }) : t("room.clock_out_watch", { name });
    $("clock-text").textContent = text;
  } else if (s.hand?.complete && s.match && !s.match.over && s.status === "playing" && left != null) {
    clock.hidden = false;
    clock.classList.remove("low", "out");
    fill(0);
    $("clock-text").textContent = t("room.next_in", { seconds: Math.max(0, Math.ceil(left)) });
  } else if (s.status === "rebuys" && left != null) {  // waiting for a rebuy: the match ends when this runs out
    clock.hidden = false;
    clock.classList.remove("low", "out");
    fill(Math.max(0, Math.min(1, left / 60)));
    $("clock-text").textContent = waitingText(s);
  } else clock.hidden = true;
  // the seat to act shows its own clock running down too
  const toAct = live && left != null ? s.hand.to_act : null;
  const share = toAct == null ? 0 : Math.max(0, Math.min(100, (left / total) * 100));
  document.querySelectorAll("#table .seat-box").forEach((box) => {
    const on = Number(box.dataset.seat) === toAct;
    box.classList.toggle("clocked", on);
    if (on) box.querySelector(".seat-clock i").style.transform = `scaleX(${share / 100})`;
  });
  const choiceLeft = $("choice-left");
  if (!$("choice-bar").hidden && myChoice() && left != null) {
    choiceLeft.hidden = false;
    choiceLeft.textContent = t("room.choice_left", { seconds: Math.max(0, Math.ceil(left)) });
  } else choiceLeft.hidden = true;
  $("timeout-btn").hidden = !canTimeout;
  $("timeout-btn").disabled = busy;
  $("next-btn").hidden = !(seated && s.hand?.complete && s.match && !s.match.over && s.status === "playing");
  $("next-btn").disabled = busy;
}

// The amount as typed: a whole number of chips (digits, optionally grouped with commas; full-width digits as
// a Chinese keyboard types them), or why not. The box is never rewritten behind the player's back.
function checkAmount(text, lo, hi) {
  if (String(text).normalize("NFKC").trim() === "") return { ok: false, message: t("room.size_empty") };
  const n = whole(text);
  if (n == null) return { ok: false, message: t("room.size_whole", { min: chips(lo) }) };
  if (n < lo) return { ok: false, message: t("room.size_low", { min: chips(lo) }) };
  if (n > hi) return { ok: false, message: t("room.size_high", { max: chips(hi) }) };
  return { ok: true, n };
}

const decisionKey = (hand) => `${hand.hand_no}:${hand.street}:${hand.current_bet}:${hand.to_act}`;

function sizeKind(legal) {
  return legal.actions.includes("raise") ? "raise" : legal.actions.includes("bet") ? "bet" : null;
}

let barHeight = 0;         // the action bar's height when last shown
new ResizeObserver(() => { const h = $("actions").offsetHeight; if (h > 0) barHeight = h; }).observe($("actions"));

function drawActions() {
  const s = state, hand = s.hand, legal = hand && !hand.complete && handLive() ? hand.legal : null;
  const bar = $("actions");
  const appearing = bar.hidden && Boolean(legal);
  bar.hidden = !legal;
  // while the hand goes on and you are in it, the bar's place stays taken between your turns
  const waiting = !legal && handLive() && s.you != null && Boolean(hand.seats[s.you]?.in_hand) && !hand.seats[s.you].folded
    && !hand.seats[s.you].allin && !s.players.find((p) => p.seat === s.you && !p.left)?.away;
  $("action-dock").style.minHeight = waiting && barHeight ? `${barHeight}px` : "";
  $("stage").classList.toggle("docked", Boolean(legal) || waiting);  // the bar has a place (beside the felt on its side)
  if (!legal) { setFoldConfirm(false); sizeKey = null; return; }
  const key = decisionKey(hand);
  const fresh = sizeKey !== key;
  if (fresh) setFoldConfirm(false);
  const has = (k) => legal.actions.includes(k);
  $("act-fold").hidden = !has("fold");
  $("act-check").hidden = !has("check");
  $("act-call").hidden = !has("call");
  $("act-call").textContent = t("action.call_n", { amount: chips(legal.call_amount) });
  $("act-call").dataset.amount = String(legal.call_amount);
  $("act-allin").hidden = !has("allin");
  const note = $("allin-note");
  note.hidden = true;
  if (legal.allin_to != null) {
    // the street total an all-in makes: exactly what the table's tag will say afterwards
    $("act-allin").textContent = t("action.allin_n", { amount: chips(legal.allin_to) });
    $("act-allin").dataset.to = String(legal.allin_to);
    const others = hand.seats.filter((x) => x.seat !== s.you && x.in_hand && !x.folded);
    const matched = Math.max(0, ...others.map((x) => x.stack + x.bet));
    if (has("allin") && others.length && legal.allin_to > matched && matched > 0) {
      note.hidden = false;
      note.textContent = t("room.allin_note", { to: chips(legal.allin_to), matched: chips(matched) });
    }
  }
  bar.querySelectorAll(".action-main button, .quick button, #fold-confirm button").forEach((b) => { b.disabled = busy; });
  const kind = sizeKind(legal);
  $("sizing").hidden = !kind;
  if (kind) {
    const lo = legal[`min_${kind}_to`], hi = legal[`max_${kind}_to`];
    const range = $("raise-range"), num = $("raise-amount");
    range.min = String(lo); range.max = String(hi); range.step = "1";
    if (fresh) range.value = num.value = String(lo);  // a new decision starts at the minimum
    const res = checkAmount(num.value, lo, hi);
    const btn = $("act-raise");
    btn.dataset.kind = kind;
    btn.dataset.to = res.ok ? String(res.n) : "";
    btn.textContent = res.ok ? t(kind === "raise" ? "action.raise_to" : "action.bet_to", { amount: chips(res.n) }) : t(`action.${kind}`);
    btn.disabled = busy || !res.ok;
    if (res.ok && range.value !== String(res.n)) range.value = String(res.n);
    num.setAttribute("aria-invalid", res.ok ? "false" : "true");
    $("size-error").hidden = res.ok;
    $("size-error").textContent = res.ok ? "" : res.message;
    $("size-hint").textContent = t("room.size_hint", { min: chips(lo), max: chips(hi), street: chips(hand.seats[s.you]?.bet ?? 0) });
  }
  sizeKey = key;
  if (appearing) wantPin = true;
}

// A choice that is yours: run it twice or not, show or muck (each within its window), or, having won a pot nobody
// contested, which of your cards to show.
const SUIT_SYMBOL = { s: "♠", h: "♥", d: "♦", c: "♣" };
const cardWord = (label) => { const f = label.split(":")[0]; return `${f[0] === "T" ? "10" : f[0]}${SUIT_SYMBOL[f[1]] ?? ""}`; };

function drawChoice() {
  const s = state, hand = s.hand, bar = $("choice-bar");
  const choice = myChoice();
  const mayShow = Boolean(hand?.complete && hand.you?.may_show && s.you != null && !matchOver());
  const showed = mayShow ? hand.seats[s.you]?.showed ?? [] : [];
  const left = mayShow ? [0, 1].filter((i) => hand.you.hole[i] && !showed.includes(hand.you.hole[i])) : [];
  const on = Boolean(choice) || left.length > 0;
  const appearing = bar.hidden && on;
  bar.hidden = !on;
  bar.dataset.kind = choice ?? (on ? "may_show" : "");
  $("choice-text").textContent = choice === "runs" ? t("room.runs_ask") : choice === "answered" ? t("room.runs_waiting")
    : choice === "show" ? t("room.show_ask") : on ? t("room.may_show") : "";
  $("runs-yes").hidden = $("runs-no").hidden = choice !== "runs";
  $("show-yes").hidden = $("show-no").hidden = choice !== "show";
  for (const i of [0, 1]) {
    const btn = $(`show-card-${i}`);
    btn.hidden = !(choice == null && left.includes(i));
    if (!btn.hidden) btn.textContent = t("room.show_card", { card: cardWord(hand.you.hole[i]) });
  }
  $("show-both").hidden = !(choice == null && left.length === 2);
  bar.querySelectorAll("button").forEach((b) => { b.disabled = busy; });
  if (on) $("stage").classList.add("docked");
  if (appearing) wantPin = true;
}

// ---- keeping the table in view ------------------------------------------------------------------------------

// While a match is on, the stage (notices, felt, action bar) is one screen tall under the sticky header and the
// stylesheet fits every seat, the board, the pots, your cards and the buttons into it. The page is scrolled so the
// stage's top meets the header's bottom: when the page opens, when it becomes your turn, when the match ends or you
// are away, and on a resize while it is there. Scrolling away yourself leaves it alone until the next of those.
let pinned = false;        // the stage is where the page put it
let wantPin = false;       // something worth seeing appeared: put the stage in view after this draw
let stageShown = false;

const headerBottom = () => Math.max(0, document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0);
const stageOffset = () => $("stage").getBoundingClientRect().top - headerBottom();

function pinStage() {
  if (!stageShown) return;
  const dy = stageOffset();
  if (Math.abs(dy) > 1) window.scrollBy({ top: dy, left: 0, behavior: "instant" });
  pinned = true;
}

function measureHeader() {
  const header = document.querySelector(".site-header");
  const sticky = header && getComputedStyle(header).position === "sticky";
  document.documentElement.style.setProperty("--header-h", `${sticky ? header.offsetHeight : 0}px`);
}

// the reader scrolling (wheel, touch, keys, the scroll bar) lets go of the stage; the page's own changes do not
const letGo = () => { pinned = false; };
window.addEventListener("wheel", letGo, { passive: true });
window.addEventListener("touchmove", letGo, { passive: true });
window.addEventListener("mousedown", (ev) => { if (ev.target === document.documentElement) letGo(); });
window.addEventListener("keydown", (ev) => {
  const scrolling = ["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown"].includes(ev.key) || (ev.key === " " && ev.target === document.body);
  if (scrolling && !ev.target.closest?.("input, select, textarea")) letGo();
});
// so does moving elsewhere on the page: the coach's details (a link), a control below the table reached by Tab
window.addEventListener("hashchange", letGo);
document.addEventListener("focusin", (ev) => { if (!$("stage").contains(ev.target)) letGo(); });
window.addEventListener("resize", () => {
  measureHeader();
  if (pinned) requestAnimationFrame(pinStage);
});
// what sits above the stage changing height (the header once the member's name is in, the table's rules) moves it
const above = new ResizeObserver(() => { if (pinned) requestAnimationFrame(pinStage); });
for (const node of [document.querySelector(".site-header"), root.querySelector(".room-head")]) if (node) above.observe(node);
measureHeader();
document.fonts?.ready.then(() => { measureHeader(); if (pinned) pinStage(); });

function setFoldConfirm(open) {
  $("fold-confirm").hidden = !open;
  $("actions").classList.toggle("confirming", open);
}

function quickSize(size) {
  const hand = state.hand, legal = hand.legal, kind = sizeKind(legal);
  if (!kind) return;
  const lo = legal[`min_${kind}_to`], hi = legal[`max_${kind}_to`];
  const call = legal.call_amount, cb = hand.current_bet;
  // a pot-sized raise: call first, then raise by the pot that makes; a bet when nothing is bet yet
  const potAfterCall = hand.pot + call;
  const target = size === "max" ? hi : cb + (size === "half" ? Math.floor(potAfterCall / 2) : potAfterCall);
  const n = Math.min(hi, Math.max(lo, target));
  $("raise-range").value = $("raise-amount").value = String(n);
  drawActions();
}

function drawResult() {
  const s = state, m = s.match, box = $("result");
  if (m?.over && box.hidden) wantPin = true;
  box.hidden = !(m && m.over);
  if (!m || !m.over) return;
  const w = m.winner;
  const name = w == null ? null : nameOf(w) ?? "?";
  box.classList.toggle("won", w != null && w === s.you);
  $("result-title").textContent = w == null ? t("room.match_tied")
    : w === s.you ? t("room.match_won") : s.you != null ? t("room.match_lost", { name }) : t("room.match_winner", { name });
  // everyone who held chips in the match, those who left and bots taken off included, with what they took
  const rows = m.summary || s.players.filter((p) => !p.left && p.seat < m.stacks.length).map((p) => ({ ...p, chips: m.stacks[p.seat] }));
  const stacks = rows.map((r) => `${r.name}${r.left ? t("room.summary_left") : ""} ${chips(r.chips)}`).join(" · ")
    + (m.chips ? t("room.summary_total", { chips: chips(m.chips) }) : "");
  // a leave ended the match only when nobody but the winner is still seated (``forfeit`` names the last leave
  // even when the match ended later at the cards)
  const forfeit = m.forfeit != null && !seatedPlayers().some((p) => p.seat !== w);
  // the summary always: who held what (a forfeit says who left first)
  const summary = tn("room.match_summary", m.hands_played, { hands: m.hands_played, stacks });
  $("result-text").textContent = forfeit
    ? `${t("room.match_forfeit", { name: s.players.find((p) => p.seat === m.forfeit && p.left)?.name ?? nameOf(m.forfeit) ?? "?" })} ${summary}`
    : m.ended_by ? `${t("room.match_ended_by", { name: m.ended_by })} ${summary}` : summary;
  const place = sngPlace(s);  // a sit-and-go: the viewer's place and payout
  if (place) $("result-text").textContent += ` ${place}`;
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
  const choosing = ["runs", "show"].includes(myChoice());
  document.title = myTurn || choosing ? `● ${t("room.your_turn")} ${baseTitle}` : baseTitle;
  drawTurn(myTurn || choosing);  // a beep and a buzz when a decision becomes yours
  root.dataset.version = String(s.version);
  root.dataset.status = s.status;
  root.dataset.you = s.you == null ? "" : String(s.you);
  $("room-status").textContent = s.paused && s.status !== "over" ? t("room.status.host_paused") : t(`room.status.${s.status}`);
  $("room-status").className = `status-badge st-${s.status}`;
  $("room-rules").textContent = [t("room.seats_n", { n: s.seats }), t("room.decks", { n: s.decks, cards: 52 * s.decks }),
    t("room.blinds", { sb: chips(s.blinds[0]), bb: chips(s.blinds[1]) }), t("room.start_stack", { stack: chips(s.stack) })].join(" · ");
  $("spectator-note").hidden = !s.spectator;
  const seated = seatedPlayers();
  const open = joinOpen();
  $("join-box").hidden = !open;
  // where the host approves who sits, joining asks; a member who asked waits for the answer
  $("join-text").textContent = s.requested ? t("room.requested") : s.left_match ? t("room.seat_free_left")
    : s.options?.approval ? t("room.seat_free_ask") : s.match ? t("room.seat_free_playing") : t("room.seat_free");
  $("join-btn").textContent = t(joinAsks() ? "room.ask_sit" : "room.join");
  $("join-btn").hidden = !member || Boolean(s.requested);
  $("join-btn").disabled = busy;
  $("signin-to-join").hidden = member !== null;
  const me = s.you != null ? s.players.find((p) => p.seat === s.you && !p.left) : null;
  const over = s.status === "over" || Boolean(s.match?.over);
  // out of chips while the match goes on: say so, with the ways on (a finished match has its own banner); a busted
  // player is out during the hands dealt without them too (and may rebuy then, where the host allows it)
  const broke = Boolean(s.busted || (me && s.match && me.stack === 0 && !(handLive() && s.hand.seats[s.you]?.in_hand)));
  const outShown = broke && !over && !watching;
  if (outShown && $("out-box").hidden) wantPin = true;
  $("out-box").hidden = !outShown;
  // a rebuy where the host allows it (from the "you are out" box, or beside the table once watching); a top-up
  // between hands for the others below the starting stack
  const buy = s.may_buy > 0 && s.you != null && !over;
  $("out-rebuy").hidden = !buy;
  $("out-rebuy").disabled = busy;
  if (buy) $("out-rebuy").textContent = t("room.rebuy", { amount: chips(s.may_buy) });
  const topup = $("topup-btn");
  topup.hidden = !(buy && (!broke || watching));
  topup.disabled = busy;
  if (buy) {
    topup.textContent = broke ? t("room.rebuy", { amount: chips(s.may_buy) }) : t("room.topup", { amount: chips(s.may_buy) });
    topup.title = t("room.topup_title", { stack: chips(s.stack) });
  }
  $("out-new").href = member?.guest ? "/#solo-form" : "/lobby";
  const awayShown = Boolean(me?.away && !over);
  if (awayShown && $("away-box").hidden) wantPin = true;
  $("away-box").hidden = !awayShown;
  $("back-btn").disabled = busy;
  $("away-btn").hidden = !(me && !me.away && !over);
  $("away-btn").disabled = busy;
  // your straddle (where the table allows them); under the gun next hand, the box asks
  const straddle = s.straddle;
  $("straddle-box").hidden = !straddle;
  if (straddle) {
    $("straddle-box").classList.toggle("due", straddle.utg_next && straddle.choice === "off");
    $("straddle-label").textContent = t(straddle.utg_next ? "room.straddle_label_utg" : "room.straddle_label");
    $("straddle-box").querySelectorAll("button").forEach((b) => {
      b.setAttribute("aria-pressed", b.dataset.choice === straddle.choice ? "true" : "false");
      b.disabled = busy;
    });
  }
  $("bot-box").hidden = !(canManageBots() && seated.length < s.seats);
  $("table-downloads").hidden = !s.match;  // every hand of the table as a file, once one was dealt
  $("bot-add").disabled = busy;
  drawSettings();
  layout();
  for (let seat = 0; seat < s.seats; seat++) drawSeat(seat);
  drawBoard();
  $("hand-message").textContent = handMessage();
  $("deal-btn").hidden = !canDealFirst();
  $("deal-btn").disabled = busy;
  drawActions();
  drawChoice();
  drawClock();
  drawCoach(myTurn);
  drawHost(s);
  drawBooks(s);
  drawFair(s);
  drawSng(s);
  drawChat(s);
  drawReviewLink();
  drawResult();
  $("turn-prefs").hidden = s.you == null;  // a beep, a buzz and the keys are for the players
  const canLeave = s.you != null && !over;
  $("leave-box").hidden = !canLeave;
  if (!canLeave) $("leave-confirm").hidden = true;
  // the stage fills the screen once the match is on (before it, the settings and bot controls below matter)
  const shown = Boolean(s.match) && root.dataset.status !== "missing";
  if (shown && !stageShown) wantPin = true;
  stageShown = shown;
  root.classList.toggle("in-match", shown);
  if (wantPin || pinned) {
    wantPin = false;
    requestAnimationFrame(pinStage);
  }
}

// ---- the table's settings (the creator, until the first hand is dealt) ------------------------------------------

// The same fields, checks and messages as the lobby's create form; the server has the last word (its refusal is
// shown next to the form). The ranges come from /api/tables/limits, asked once when the form is first needed.
let limits = null, limitsAsked = false;
let settingsShown = null;   // the settings the fields were last filled from (a push refills them unless edited)
let settingsDirty = false;  // the creator has typed or chosen since

const canConfigure = () => Boolean(state && state.creator === true && state.status === "waiting" && state.hand == null);
const settingsOf = (s) => JSON.stringify([s.seats, s.decks, s.stack, s.blinds, s.time_bank]);

function radios(box, name, values, label) {
  box.replaceChildren(...values.map((v) => el("label", { class: "seg-opt" },
    el("input", { type: "radio", name, value: String(v) }), label(v))));
}

function buildSettings(lim) {
  limits = lim;
  const span = ([lo, hi]) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  const seats = span(lim.seats_offered);
  if (!seats.includes(state.seats)) seats.push(state.seats);  // a table opened through the API may have more
  radios($("settings-seats"), "seats", seats.sort((a, b) => a - b),
    (n) => el("span", {}, el("strong", { text: String(n) }), el("small", { text: t("lobby.seats_unit") })));
  radios($("settings-decks"), "decks", span(lim.decks),
    (d) => el("span", {}, el("strong", { text: t("lobby.decks_n", { n: d }) }), el("small", { text: t("lobby.cards_n", { cards: 52 * d }) })));
  $("settings-stack-hint").textContent = t("lobby.stack_hint", { min: chips(lim.stack[0]), max: chips(lim.stack[1]), bbs: lim.min_stack_in_big_blinds });
  $("settings-blinds-hint").textContent = t("lobby.blinds_hint", { min: chips(lim.big_blind[0]), max: chips(lim.big_blind[1]) });
  $("settings-bank-hint").textContent = t("lobby.time_bank_hint", { clock: lim.action_clock, min: lim.time_bank[0], max: lim.time_bank[1] });
  settingsShown = null;
  draw();
}

function fillSettings() {
  const s = state, form = $("settings-form");
  for (const [name, value] of [["seats", s.seats], ["decks", s.decks]]) {
    form.querySelectorAll(`input[name=${name}]`).forEach((r) => { r.checked = Number(r.value) === value; });
  }
  $("settings-stack").value = String(s.stack);
  $("settings-sb").value = String(s.blinds[0]);
  $("settings-bb").value = String(s.blinds[1]);
  $("settings-bank").value = String(s.time_bank ?? 0);
  settingsShown = settingsOf(s);
  settingsDirty = false;
  checkSettings();
}

function drawSettings() {
  const show = canConfigure();
  if (show && !limits && !limitsAsked) {
    limitsAsked = true;
    memberApi("/api/tables/limits").then(buildSettings).catch(() => { limitsAsked = false; });
  }
  const box = $("settings-box");
  box.hidden = !(show && limits);
  if (box.hidden) return;
  if (!settingsDirty && settingsShown !== settingsOf(state)) fillSettings();
  $("settings-save").disabled = busy || Boolean(settingsCheck().error);
}

// The settings as typed, or the first reason they cannot make a table (as in the lobby).
function settingsCheck() { return tableSettings($("settings-form"), "settings", limits); }

function checkSettings() {
  const res = settingsCheck();
  for (const id of ["settings-stack", "settings-sb", "settings-bb", "settings-bank"]) $(id).setAttribute("aria-invalid", res.field === id ? "true" : "false");
  showMessage($("settings-error"), res.error ? { message: res.error } : null);
  $("settings-save").disabled = busy || Boolean(res.error);
  return res;
}

$("settings-form").addEventListener("input", () => {
  settingsDirty = true;
  $("settings-status").textContent = "";
  checkSettings();
});

$("settings-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const res = checkSettings();
  if (res.error) { $(res.field).focus(); return; }
  if (busy || !canConfigure()) return;
  busy = true;
  $("settings-save").disabled = true;
  $("settings-status").textContent = "";
  try {
    const next = await memberApi(`${API}/settings`, { method: "POST", body: res.body });
    settingsDirty = false;
    settingsShown = null;  // refilled from the answer's state
    $("settings-status").textContent = t("room.settings_saved");
    busy = false;
    apply(next);
  } catch (e) {
    // the server's reason, in the reader's language; its refusal of fewer seats than the players seated comes
    // without the range its bad_seats message names, so the page says it (with the seat that is in the way)
    const need = Math.max(0, ...seatedPlayers().map((p) => p.seat + 1));
    showMessage($("settings-error"), e.code === "bad_seats" && res.body.seats < need
      ? { message: t("room.settings_seats_taken", { n: need }) } : e);
    if (e.state) apply(e.state);
  } finally {
    busy = false;
    draw();
  }
});

// ---- the coach ------------------------------------------------------------------------------------------------

const pct = (x) => `${(100 * x).toFixed(1)} %`;

// On your turn at a table with the coach on: the panel shows "computing…" at once and fills in when /coach
// answers (the action buttons are drawn first and never wait for it).
function drawCoach(myTurn) {
  const s = state;
  $("coach-status").textContent = t(s.coach ? "coach.status_on" : "coach.status_off");
  const toggle = $("coach-toggle");
  toggle.hidden = !(s.creator && s.you != null && !handLive() && !matchOver());
  toggle.textContent = t(s.coach ? "coach.turn_off" : "coach.turn_on");
  toggle.disabled = busy;
  const panel = $("coach-panel");
  const show = Boolean(myTurn && s.coach);
  panel.hidden = !show;
  $("coach-line").hidden = !show;
  if (!show) { coachKey = null; return; }
  if (coachKey === s.version) return;
  coachKey = s.version;
  $("coach-line-text").textContent = t("coach.line_wait");
  $("coach-wait").hidden = false;
  $("coach-body").hidden = true;
  panel.dataset.ready = "";
  const asked = s.version;
  memberApi(`${API}/coach`).then((r) => {
    if (coachKey !== asked || !r.advice) return;  // the table moved on meanwhile: a newer request is coming
    drawAdvice(r.advice);
  }).catch(() => { if (coachKey === asked) $("coach-wait").textContent = t("coach.unavailable"); });
}

function drawAdvice(a) {
  // the strategy's distribution, likeliest first: the top three in the bar's line ("…" when more follow), every
  // action with its bar in the panel, the likeliest as the suggestion
  const mix = a.mix?.length ? a.mix : [{ action: a.action, to: null, probability: 1 }];
  $("coach-line-text").textContent = t("coach.line", { action: mixText(mix, 3), reason: reasonText(a.reason) });
  $("coach-action").textContent = mixAction(mix[0]);
  $("coach-reason").textContent = reasonText(a.reason);
  $("coach-mix").replaceChildren(...mixBars(mix));
  const best = $("coach-best");
  if (a.best) best.replaceChildren(`${t(`category.${a.best}`)} `, faces(a.best_cards));
  else best.textContent = t("coach.preflop");
  $("coach-price").textContent = a.call > 0 ? t("coach.price_line", { call: chips(a.call), total: chips(a.pot + a.call), p: pct(a.price) })
    : t("coach.free");
  $("coach-eq-range").textContent = pct(a.equity_range);
  $("coach-eq-random").textContent = pct(a.equity_random);
  const outs = a.outs;
  const box = $("coach-outs");
  if (!outs) box.replaceChildren();
  else if (!outs.groups.length) box.replaceChildren(el("p", { class: "small", text: t("coach.no_outs") }));
  else {
    box.replaceChildren(el("p", { class: "small muted", text: t("coach.outs_head", { total: outs.total, unseen: outs.unseen, known: outs.known }) }),
      el("ul", { class: "outs-list" }, ...outs.groups.map((g) => el("li", {},
        el("strong", { text: `${t(`category.${g.category}`)} ${g.formula} = ${pct(g.next_card)}` }),
        ` ${t("coach.next_card")}`,
        g.by_river != null ? el("span", { text: ` · ${t("coach.by_river", { p: pct(g.by_river) })}` }) : null,
        el("span", { class: "small muted outs-faces", text: ` (${g.faces.join(" ")})` })))));
  }
  drawIcm(a.icm);
  $("coach-wait").hidden = true;
  $("coach-body").hidden = false;
  $("coach-panel").dataset.ready = "1";
}

// Near the money in a sit-and-go: each push-or-fold option's expected chips and prize points (ICM), the better
// one by ICM marked; hidden elsewhere.
function drawIcm(icm) {
  const box = $("coach-icm");
  box.hidden = !icm;
  if (!icm) return;
  $("coach-icm-head").textContent = t("coach.icm_head", {
    payouts: icm.payouts.filter((p) => p > 0).map((p) => chips(p)).join(" / "),
    equity: pct(icm.equity), now: icm.icm_now.toFixed(1) });
  $("coach-icm-rows").replaceChildren(...icm.options.map((o) => el("tr", {},
    el("th", { scope: "row" }, t(`coach.action.${o.action}`),
      o.action === icm.best ? el("span", { class: "small", text: t("coach.icm_best") }) : null),
    el("td", { text: chips(Math.round(o.chips)) }),
    el("td", { text: t("coach.icm_points", { n: o.icm.toFixed(1) }) }))));
}

function faces(labels) {
  const box = el("span", { class: "hand" });
  drawFaces(box, labels, { size: "sm" });
  return box;
}

// After a finished hand the member played: a link to its review.
function drawReviewLink() {
  const hand = state.hand, link = $("review-link");
  const played = Boolean(hand?.complete && hand.you);
  link.hidden = !played;
  if (played) link.href = `/rooms/${encodeURIComponent(CODE)}/hands/${hand.hand_no}#review`;
}

$("coach-toggle").addEventListener("click", () => send("/coach", { on: !state.coach }));

// ---- controls ---------------------------------------------------------------------------------------------

$("actions").addEventListener("click", (ev) => {
  const btn = ev.target.closest("button.act");
  if (!btn || btn.disabled || busy) return;
  const kind = btn.dataset.kind;
  const legal = state.hand.legal;
  if (kind === "raise" || kind === "bet") {
    const res = checkAmount($("raise-amount").value, legal[`min_${kind}_to`], legal[`max_${kind}_to`]);
    if (res.ok) act({ kind, to: res.n });  // exactly the amount the button says
  } else if (kind === "fold" && legal.actions.includes("check")) {
    setFoldConfirm(true);  // folding when a check is free: ask first
    $("fold-no").focus();
  } else act({ kind });
});
$("fold-yes").addEventListener("click", () => { setFoldConfirm(false); act({ kind: "fold" }); });
$("fold-check").addEventListener("click", () => { setFoldConfirm(false); act({ kind: "check" }); });
$("fold-no").addEventListener("click", () => { setFoldConfirm(false); $("act-fold").focus(); });
document.querySelectorAll("#sizing .quick button").forEach((b) => b.addEventListener("click", () => quickSize(b.dataset.size)));
$("raise-range").addEventListener("input", (ev) => { $("raise-amount").value = ev.target.value; drawActions(); });
$("raise-amount").addEventListener("input", () => drawActions());
$("raise-amount").addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter") return;
  ev.preventDefault();
  drawActions();
  if (!$("act-raise").disabled) $("act-raise").click();
});
$("timeout-btn").addEventListener("click", () => send("/timeout", { version: state.version }));
$("next-btn").addEventListener("click", () => send("/next", { version: state.version }));
$("deal-btn").addEventListener("click", () => send("/next", { version: state.version }));
$("join-btn").addEventListener("click", () => send("/join", {}));
$("runs-yes").addEventListener("click", () => send("/runs", { version: state.version, agree: true }));
$("runs-no").addEventListener("click", () => send("/runs", { version: state.version, agree: false }));
$("show-yes").addEventListener("click", () => send("/showdown", { version: state.version, show: true }));
$("show-no").addEventListener("click", () => send("/showdown", { version: state.version, show: false }));
document.querySelectorAll("#choice-bar .show-card").forEach((b) => b.addEventListener("click", () =>
  send("/show", { cards: b.dataset.cards.split(",").map(Number) })));
$("out-rebuy").addEventListener("click", async () => { if (await send("/buy", {})) watching = false; });
$("topup-btn").addEventListener("click", async () => { if (await send("/buy", {})) watching = false; });
$("bot-add").addEventListener("click", () => send("/bots", { level: $("bot-level").value }));
$("table").addEventListener("click", (ev) => {
  const sit = ev.target.closest("button.sit-btn");
  if (sit && !sit.disabled && !busy) { send("/join", { seat: Number(sit.dataset.seat) }); return; }
  const btn = ev.target.closest("button.bot-remove");
  if (!btn || btn.disabled || busy) return;
  const bot = state.players.find((p) => String(p.seat) === btn.dataset.seat && !p.left);
  // a bot holding chips takes them off the table with it: say how many and ask first
  if (bot && state.match && bot.stack > 0
      && !window.confirm(t("room.bot_remove_confirm", { name: bot.name, chips: chips(bot.stack) }))) return;
  send(`/bots/${encodeURIComponent(btn.dataset.seat)}`, undefined, "DELETE");
});
$("away-btn").addEventListener("click", () => send("/away"));
$("straddle-box").addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-choice]");
  if (b) send("/straddle", { choice: b.dataset.choice });
});
$("out-watch").addEventListener("click", () => { watching = true; draw(); });
$("back-btn").addEventListener("click", () => send("/back"));
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

const modules = { api: API, getState: () => state, apply, redraw: () => draw(), handLive, getMember: () => member };
setupHost(modules);
setupBooks(modules);
setupFair(modules);
setupChat(modules);
setupKeys();

// ---- start --------------------------------------------------------------------------------------------------

(async () => {
  if (!CODE) { root.dataset.status = "missing"; showMessage(errorBox, { message: t("error.room_not_found") }); return; }
  whoAmI().then((me) => { member = me.member; if (state) draw(); }).catch(() => { member = null; });
  startPolling();  // until the socket is open (and again whenever it drops)
  await refresh();
  if (root.dataset.status !== "missing") connect(); else stopPolling();
})();
