// Lobby: the member's tables and their state, a new table (seats, decks, starting stack, blinds, or a sit-and-go and
// its structure: sng_structure.js), joining by code.
import { el, t, LANG } from "./core.js";
import { memberApi, whoAmI, showMessage, chips, tableSettings } from "./member.js";
import { structureEditor } from "./sng_structure.js";

const $ = (id) => document.getElementById(id);
const errorBox = $("lobby-error");
const form = $("create-form");  // absent for a guest: they play against bots only
const LIMITS = form ? {  // as GET /api/tables/limits gives them, from the page
  stack: [Number(form.dataset.stackMin), Number(form.dataset.stackMax)],
  big_blind: [Number(form.dataset.bbMin), Number(form.dataset.bbMax)],
  min_stack_in_big_blinds: Number(form.dataset.minBbs),
  time_bank: [Number(form.dataset.bankMin), Number(form.dataset.bankMax)],
} : null;

function statusText(room) {
  if (room.status === "waiting" && room.seated) return t("lobby.status_waiting_you");
  return t(`room.status.${room.status}`);
}

function drawRooms(rooms) {
  $("rooms-empty").hidden = rooms.length > 0;
  $("room-list").replaceChildren(...rooms.map((r) => {
    const names = r.players.map((p) => p.name).join(" · ");
    const when = new Date(r.updated_at);
    const sng = r.tournament;  // a sit-and-go: its preset, and the member's place once they have one
    const meta = [
      sng ? t("lobby.sng", { preset: t(`sng.preset.${sng.preset}`) }) : null,
      sng && sng.place != null ? t("lobby.sng_place", { place: sng.place, payout: chips(sng.payout) }) : null,
      r.blinds && r.blinds[1] != null ? t("lobby.blinds_n", { sb: chips(r.blinds[0]), bb: chips(r.blinds[1]) }) : null,
      t("lobby.decks_n", { n: r.decks }),
      r.seated ? t("lobby.seated") : t("lobby.not_seated"),
      isNaN(when) ? null : when.toLocaleString(LANG),
    ].filter(Boolean).join(" · ");
    return el("li", { class: `room-item${r.your_turn ? " your-turn" : ""}`, "data-code": r.code, "data-status": r.status,
      "data-your-turn": r.your_turn ? "true" : "false" },
      el("a", { class: "room-link", href: `/rooms/${encodeURIComponent(r.code)}` },
        el("span", { class: "room-code mono", text: r.code }),
        el("span", { class: "room-badges" },
          el("span", { class: `status-badge st-${r.status}`, text: statusText(r) }),
          r.your_turn ? el("span", { class: "status-badge turn-badge", text: t("lobby.your_turn") }) : null),
        el("span", { class: "room-players", text: names || "–" }),
        el("span", { class: "room-seats", text: r.seats != null && r.taken != null ? t("lobby.seats_taken", { taken: r.taken, seats: r.seats }) : "" }),
        el("span", { class: "room-meta small muted", text: meta })));
  }));
  return rooms;
}

async function loadRooms() {
  const data = await memberApi("/api/rooms");
  return drawRooms(data.rooms || []);
}

(async () => {
  try {
    const me = await whoAmI();
    if (!me.member) { location.replace("/signin?next=/lobby"); return; }
    const rooms = await loadRooms();
    // a first visit (no tables yet) is a welcome, not a welcome back
    const hello = me.member.guest ? "lobby.hello_guest" : rooms.length ? "lobby.hello" : "lobby.hello_new";
    $("lobby-hello").textContent = t(hello, { name: me.member.name });
    setInterval(() => { if (document.visibilityState === "visible") loadRooms().catch(() => {}); }, 10000);
  } catch (e) { showMessage(errorBox, e); }
})();

// ---- a new table -----------------------------------------------------------------------------------------------

const structure = form ? structureEditor() : null;  // a sit-and-go's schedule and payouts, editable
const format = () => $("create-format")?.value || "cash";
const seats = () => Number(new FormData(form).get("seats"));

// The settings as typed, or the first reason they cannot make a table (a sit-and-go's stack and blinds are its
// schedule's: the cash fields are hidden and not read).
function settings() { return tableSettings(form, "create", LIMITS, format() === "cash"); }

// the starting stack and the blinds are a cash match's; a sit-and-go's come from its structure
function showMoney() {
  const cash = format() === "cash";
  $("create-stack").closest(".money-field").hidden = !cash;
  form.querySelector(".blinds-field").hidden = !cash;
}

function checkForm() {
  const res = settings();
  const box = $("create-error");
  for (const id of ["create-stack", "create-sb", "create-bb", "create-bank"]) $(id).setAttribute("aria-invalid", res.field === id ? "true" : "false");
  box.hidden = !res.error;
  box.textContent = res.error || "";
  // a sit-and-go's structure: its first fault shown next to its field
  const sng = res.error || !structure ? { tournament: null } : structure.check(format());
  $("create-room").disabled = Boolean(res.error || sng.error);
  return sng.error ? sng : { ...res, tournament: sng.tournament };
}

if (structure) {
  structure.setSeats(seats());
  structure.show(format());
  showMoney();
  $("create-format").addEventListener("change", () => { structure.show(format()); showMoney(); });
  for (const radio of form.querySelectorAll("input[name=seats]")) radio.addEventListener("change", () => structure.setSeats(seats()));
}
form?.addEventListener("input", checkForm);
form?.addEventListener("change", checkForm);

form?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showMessage(errorBox, null);
  const res = checkForm();
  if (res.error) { (typeof res.field === "string" ? $(res.field) : [res.field].flat()[0]).focus(); return; }
  const btn = $("create-room");
  btn.disabled = true;
  try {
    // the home game's options as ticked (all off at first but revealing the seeds after the match): rebuys, ask
    // to sit, spectators' chat, revealing the seeds and the hand's own
    const options = Object.fromEntries([...form.querySelectorAll("#create-options input[type=checkbox]")].map((b) => [b.name, b.checked]));
    const body = { ...res.body, ...options };
    if (res.tournament) {  // a sit-and-go: its preset's stack, its schedule as edited (docs/tournaments.md)
      body.tournament = res.tournament;
    }
    const created = await memberApi("/api/rooms", { method: "POST", body });
    location.assign(created.url || `/rooms/${encodeURIComponent(created.code)}`);
  } catch (e) {
    if (!structure?.serverError(e)) showMessage($("create-error"), e);  // the structure's faults by its fields
    btn.disabled = false;
  }
});

// ---- joining by code -------------------------------------------------------------------------------------------

$("join-form")?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showMessage(errorBox, null);
  const code = $("join-code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (!code) { $("join-code").focus(); return; }
  const btn = $("join-room");
  btn.disabled = true;
  try {
    // the table opens and the member picks a seat there (an empty seat's button, or the first free one)
    await memberApi(`/api/rooms/${encodeURIComponent(code)}`);
    location.assign(`/rooms/${encodeURIComponent(code)}`);
  } catch (e) {
    showMessage(errorBox, e);
    btn.disabled = false;
  }
});
