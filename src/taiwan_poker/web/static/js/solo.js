// "Play against bots" (home page and lobby): one click seats bots in every other seat and opens the table, whose
// first hand the server deals at once. A visitor who is not signed in plays as a guest (solo tables only).
import { memberApi, whoAmI, showMessage } from "./member.js";

const form = document.getElementById("solo-form");
const errorBox = document.getElementById("solo-error");
const button = document.getElementById("solo-start");
const guestNote = document.getElementById("solo-guest");

let me = null;  // the answer of /api/me once known
const known = whoAmI().then((m) => { me = m; return m; }).catch(() => null);
// the guest note is for visitors and guests; a member's tables are in the lobby
known.then((m) => { if (guestNote && m?.member && !m.member.guest) guestNote.hidden = true; });

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showMessage(errorBox, null);
  const data = new FormData(form);
  const seats = Number(data.get("solo-seats"));
  const body = { seats, decks: Number(data.get("solo-decks")), bots: seats - 1, level: String(data.get("solo-level")) };
  const format = String(data.get("solo-format") || "cash");
  if (format !== "cash") body.tournament = { preset: format };  // a sit-and-go against bots (docs/tournaments.md)
  button.disabled = true;
  try {
    if (!(me || await known)?.member) me = await memberApi("/api/auth/guest", { method: "POST", body: {} });
    const created = await memberApi("/api/rooms", { method: "POST", body });
    location.assign(created.url || `/rooms/${encodeURIComponent(created.code)}`);
  } catch (e) {
    showMessage(errorBox, e);
    button.disabled = false;
  }
});
