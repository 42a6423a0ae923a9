// Lobby: the member's rooms and their state, a new room (2–6 decks), joining by code.
import { el, t } from "./core.js";
import { memberApi, whoAmI, showMessage } from "./member.js";

const $ = (id) => document.getElementById(id);
const errorBox = $("lobby-error");

function statusText(room) {
  if (room.status === "waiting" && room.seated) return t("lobby.status_waiting_you");
  return t(`room.status.${room.status}`);
}

function drawRooms(rooms) {
  $("rooms-empty").hidden = rooms.length > 0;
  $("room-list").replaceChildren(...rooms.map((r) => {
    const names = r.players.map((p) => (p.left ? t("lobby.player_left", { name: p.name }) : p.name)).join(" · ");
    const when = new Date(r.updated_at);
    return el("li", { class: "room-item", "data-code": r.code, "data-status": r.status },
      el("a", { class: "room-link", href: `/rooms/${encodeURIComponent(r.code)}` },
        el("span", { class: "room-code mono", text: r.code }),
        el("span", { class: `status-badge st-${r.status}`, text: statusText(r) }),
        el("span", { class: "room-players", text: names || "–" }),
        el("span", { class: "room-meta small muted", text: `${t("lobby.decks_n", { n: r.decks })} · ${r.seated ? t("lobby.seated") : t("lobby.not_seated")} · ${isNaN(when) ? "" : when.toLocaleString()}` })));
  }));
}

async function loadRooms() {
  const data = await memberApi("/api/rooms");
  drawRooms(data.rooms || []);
}

(async () => {
  try {
    const me = await whoAmI();
    if (!me.member) { location.replace("/signin?next=/lobby"); return; }
    $("lobby-hello").textContent = t("lobby.hello", { name: me.member.name });
    await loadRooms();
    setInterval(() => { if (document.visibilityState === "visible") loadRooms().catch(() => {}); }, 10000);
  } catch (e) { showMessage(errorBox, e); }
})();

$("create-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showMessage(errorBox, null);
  const btn = $("create-room");
  btn.disabled = true;
  const decks = Number(new FormData(ev.target).get("decks") || 2);
  try {
    const res = await memberApi("/api/rooms", { method: "POST", body: { decks } });
    location.assign(res.url || `/rooms/${encodeURIComponent(res.code)}`);
  } catch (e) { showMessage(errorBox, e); btn.disabled = false; }
});

$("join-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showMessage(errorBox, null);
  const code = $("join-code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (!code) { $("join-code").focus(); return; }
  const btn = $("join-room");
  btn.disabled = true;
  try {
    await memberApi(`/api/rooms/${encodeURIComponent(code)}/join`, { method: "POST", body: {} });
    location.assign(`/rooms/${encodeURIComponent(code)}`);
  } catch (e) {
    if (e.code === "room_full") {  // taken seats: the room can still be watched
      errorBox.replaceChildren(`${e.message} `, el("a", { href: `/rooms/${encodeURIComponent(code)}`, text: t("lobby.watch") }));
      errorBox.hidden = false;
    } else showMessage(errorBox, e);
    btn.disabled = false;
  }
});
