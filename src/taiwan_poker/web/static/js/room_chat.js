// Table talk (聊天): the chat panel under the table. Lines arrive on the room's socket (the backlog on connect, then
// each new one) or, while the socket is down, by polling GET /chat?after=N; a "delete" line names the line the host
// removed, which is dropped. Every name and message is inserted as text (textContent), never as markup.
import { el, t } from "./core.js";
import { memberApi, showMessage } from "./member.js";

const $ = (id) => document.getElementById(id);
const KEEP = 200;            // lines kept on the page

let ctx = null;              // { api, getState, apply, getMember }
const lines = new Map();     // id -> a text or reaction line, in id order
let lastId = 0;              // the newest line id seen (any kind)
let muted = new Set();       // seats this reader muted (the server sends their lines no more)
let target = null;           // the line a reaction will answer (null: the table)
let unread = 0;
let drawnKey = null;
let sending = false;

const canModerate = (s) => Boolean(s.host || s.cohost);

// Whether this reader may write now, or the note saying why not.
function writeState(s) {
  const member = ctx.getMember();
  if (s.you == null && !s.options?.spectator_chat) return { ok: false, note: t("room.chat_closed") };
  if (member === null) return { ok: false, note: t("room.chat_signin") };
  if (s.silenced) return { ok: false, note: t("room.chat_silenced") };
  return { ok: true, note: "" };
}

export function receiveChat(messages, mutedSeats) {
  let fresh = 0;
  const s = ctx.getState();
  for (const line of messages || []) {
    if (typeof line?.id !== "number") continue;
    lastId = Math.max(lastId, line.id);
    if (line.kind === "delete") {
      lines.delete(line.to);
      if (target === line.to) target = null;
      continue;
    }
    if (line.deleted || lines.has(line.id)) continue;
    lines.set(line.id, line);
    if (!(s && s.you != null && line.seat === s.you)) fresh += 1;
  }
  while (lines.size > KEEP) lines.delete(lines.keys().next().value);
  if (Array.isArray(mutedSeats)) muted = new Set(mutedSeats);
  if (fresh && !$("chat-box").open) unread += fresh;
  drawnKey = null;
  if (s) drawChat(s);
}

export async function pollChat() {
  try {
    const res = await memberApi(`${ctx.api}/chat?after=${lastId}`);
    receiveChat(res.messages, res.muted);
  } catch (e) { /* the next poll tries again */ }
}

function snippet(text) {
  const chars = [...(text || "")];
  return chars.length > 24 ? `${chars.slice(0, 24).join("")}…` : chars.join("");
}

function lineItem(line, s) {
  const mine = s.you != null && line.seat === s.you;
  const when = new Date(line.at);
  const item = el("li", { class: `chat-line ${line.kind}${mine ? " mine" : ""}`, "data-id": String(line.id),
    "data-seat": line.seat == null ? "" : String(line.seat), title: isNaN(when) ? null : when.toLocaleTimeString() },
    el("strong", { class: "chat-name", text: line.name }), " ");
  if (line.kind === "reaction") {
    item.append(el("span", { class: "chat-reaction", text: line.text }));
    const to = line.to != null ? lines.get(line.to) : null;
    if (to) item.append(" ", el("span", { class: "chat-to small muted", text: t("room.chat_to", { name: to.name }) }));
  } else item.append(el("span", { class: "chat-text", text: line.text }));
  const tools = el("span", { class: "chat-tools" });
  if (line.kind === "text" && writeState(s).ok) {
    tools.append(el("button", { type: "button", class: "chat-tool chat-react", "data-id": String(line.id),
      "aria-label": t("room.chat_react_aria", { name: line.name }), title: t("room.chat_react"), text: "☺" }));
  }
  if (canModerate(s)) {
    tools.append(el("button", { type: "button", class: "chat-tool chat-del", "data-id": String(line.id),
      "aria-label": t("room.chat_delete_aria", { name: line.name }), title: t("room.chat_delete"), text: "🗑" }));
    if (line.seat == null && line.kind === "text") {
      // a spectator has no seat in the host's panel: they are silenced (and let talk again) from their lines
      const silenced = (s.silenced_spectators || []).find((x) => x.name === line.name);
      tools.append(el("button", { type: "button", class: "chat-tool chat-silence",
        "data-id": String(silenced ? silenced.line : line.id), "data-on": silenced ? "0" : "1",
        "aria-label": t(silenced ? "room.chat_unsilence_aria" : "room.chat_silence_aria", { name: line.name }),
        title: t(silenced ? "room.silence_off" : "room.silence_on"), text: silenced ? "🔈" : "🔇" }));
    }
  }
  if (tools.childElementCount) item.append(tools);
  return item;
}

function others(s) {
  return s.players.filter((p) => !p.left && !p.bot && p.seat !== s.you);
}

export function drawChat(s) {
  const panel = $("chat-panel");
  // the players' talk (and the spectators' where the host lets them); a table of bots has nobody to talk to
  const people = s.players.some((p) => !p.bot && p.seat !== s.you) || s.spectator;
  const show = Boolean(people && (s.you != null || s.options?.spectator_chat));
  panel.hidden = !show;
  if (!show) return;
  const can = writeState(s);
  // a player is told once, above the lines, that the spectators read them too (the host's option)
  $("chat-audience").hidden = !(s.you != null && s.options?.spectator_chat);
  $("chat-note").hidden = can.ok;
  $("chat-note").textContent = can.note;
  $("chat-form").hidden = !can.ok;
  $("chat-reactions").hidden = !can.ok;
  $("chat-send").disabled = sending;
  const aim = target != null ? lines.get(target) : null;
  if (target != null && !aim) target = null;
  $("chat-target").hidden = !aim;
  $("chat-target-text").textContent = aim ? t("room.chat_react_to", { name: aim.name, text: snippet(aim.text) }) : "";
  $("chat-unread").hidden = unread === 0;
  $("chat-unread").textContent = unread ? t("room.chat_unread", { n: unread }) : "";

  // the lines and the mute switches are drawn again only when something they show changed
  const people2 = others(s);
  const key = JSON.stringify([lastId, lines.size, [...muted], target, can.ok, canModerate(s), s.you,
    people2.map((p) => [p.seat, p.name]), s.silenced_spectators]);
  if (key === drawnKey) return;
  drawnKey = key;
  const list = $("chat-list");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  const shown = [...lines.values()].filter((l) => !(l.seat != null && muted.has(l.seat) && l.seat !== s.you));
  list.replaceChildren(...shown.map((l) => lineItem(l, s)));
  $("chat-empty").hidden = shown.length > 0;
  if (atEnd) list.scrollTop = list.scrollHeight;  // reading older lines: left where the reader is

  $("chat-mutes").hidden = s.you == null && !s.options?.spectator_chat;
  $("chat-mute-list").replaceChildren(...(people2.length ? people2.map((p) => {
    const on = muted.has(p.seat);
    return el("li", {}, el("span", { class: "chat-mute-name", text: p.name }), " ",
      el("button", { type: "button", class: `btn small-btn chat-mute${on ? " on" : ""}`, "data-seat": String(p.seat),
        "aria-pressed": on ? "true" : "false", "aria-label": t(on ? "room.chat_unmute_aria" : "room.chat_mute_aria", { name: p.name }),
        text: t(on ? "room.chat_unmute" : "room.chat_mute") }));
  }) : [el("li", { class: "small muted", text: t("room.chat_none_to_mute") })]));
}

async function say(body) {
  if (sending) return;
  sending = true;
  showMessage($("chat-error"), null);
  drawChat(ctx.getState());
  try {
    const res = await memberApi(`${ctx.api}/chat`, { method: "POST", body });
    receiveChat([res.message]);
    return true;
  } catch (e) {
    showMessage($("chat-error"), e);
    return false;
  } finally {
    sending = false;
    const s = ctx.getState();
    if (s) drawChat(s);
  }
}

export function setupChat(context) {
  ctx = context;
  const box = $("chat-box");
  // open on a wide screen; a phone keeps it folded under the table until asked
  box.open = window.matchMedia("(min-width: 721px)").matches;
  box.addEventListener("toggle", () => {
    if (box.open) { unread = 0; const list = $("chat-list"); list.scrollTop = list.scrollHeight; }
    const s = ctx.getState();
    if (s) drawChat(s);
  });
  $("chat-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    if (await say({ text })) input.value = "";
    input.focus();
  });
  $("chat-reactions").addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button[data-reaction]");
    if (!btn) return;
    const body = { reaction: btn.dataset.reaction };
    if (target != null) body.to = target;
    if (await say(body)) target = null;
    const s = ctx.getState();
    if (s) drawChat(s);
  });
  $("chat-target-cancel").addEventListener("click", () => { target = null; drawnKey = null; drawChat(ctx.getState()); });
  $("chat-list").addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button.chat-tool");
    if (!btn) return;
    const id = Number(btn.dataset.id), line = lines.get(id);
    if (btn.classList.contains("chat-silence")) {
      btn.disabled = true;
      try {
        ctx.apply(await memberApi(`${ctx.api}/silence`, { method: "POST", body: { line: id, on: btn.dataset.on === "1" } }));
        drawnKey = null;
        drawChat(ctx.getState());
      } catch (e) {
        btn.disabled = false;
        showMessage($("chat-error"), e);
      }
      return;
    }
    if (!line) return;
    if (btn.classList.contains("chat-react")) {
      target = id;
      drawnKey = null;
      drawChat(ctx.getState());
      $("chat-reactions").querySelector("button")?.focus();
      return;
    }
    if (!window.confirm(t("room.chat_delete_confirm", { name: line.name }))) return;
    btn.disabled = true;
    try {
      ctx.apply(await memberApi(`${ctx.api}/chat/${id}`, { method: "DELETE" }));
      lines.delete(id);
      drawnKey = null;
      drawChat(ctx.getState());
    } catch (e) {
      btn.disabled = false;
      showMessage($("chat-error"), e);
    }
  });
  $("chat-mute-list").addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button.chat-mute");
    if (!btn) return;
    const seat = Number(btn.dataset.seat), on = !muted.has(seat);
    btn.disabled = true;
    try {
      const res = await memberApi(`${ctx.api}/mute`, { method: "POST", body: { seat, on } });
      muted = new Set(res.muted);
      drawnKey = null;
      drawChat(ctx.getState());
    } catch (e) {
      btn.disabled = false;
      showMessage($("chat-error"), e);
    }
  });
}
