// A sit-and-go at the table (坐滿即開賽): the blind level in force, the next one and the time left on the table's
// level clock (counted down here from the server's seconds left), a break, and the link to the results page.
import { el, t } from "./core.js";
import { chips } from "./member.js";

let timer = null;
let base = null;  // { seconds, at }: the server's seconds left and when this page read them

const clockText = (seconds) => {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

function left() {
  return base == null ? null : base.seconds - (performance.now() - base.at) / 1000;
}

function tick() {
  const out = document.getElementById("sng-left");
  const s = left();
  if (out) out.textContent = s == null ? "" : t("sng.left", { time: clockText(s) });
}

export function drawSng(s) {
  const bar = document.getElementById("sng-bar");
  if (!bar) return;
  const sng = s.tournament;
  bar.hidden = !sng;
  if (!sng) return;
  const level = t("sng.level", { level: sng.level, small: chips(sng.blinds[0]), big: chips(sng.blinds[1]) })
    + (sng.ante ? ` · ${t("sng.ante", { ante: chips(sng.ante) })}` : "");
  const next = sng.next ? t("sng.next", { small: chips(sng.next.blinds[0]), big: chips(sng.next.blinds[1]) })
    + (sng.next.ante ? ` · ${t("sng.ante", { ante: chips(sng.next.ante) })}` : "") : t("sng.last");
  base = s.level_seconds_left == null ? null : { seconds: s.level_seconds_left, at: performance.now() };
  bar.replaceChildren(
    el("strong", { id: "sng-level", text: sng.on_break ? `${t("sng.break")} · ${level}` : level }),
    el("span", { id: "sng-next", text: next }),
    el("span", { id: "sng-left", class: "num" }),
    el("a", { id: "sng-results", href: `/rooms/${encodeURIComponent(s.code || document.getElementById("room")?.dataset.code || "")}/results`,
      text: t("sng.results") }));
  bar.dataset.level = String(sng.level);
  tick();
  if (timer == null) timer = setInterval(tick, 1000);
}

// The viewer's finish, said under the match's result (a sit-and-go only): their place and payout.
export function sngPlace(s) {
  const mine = s.tournament?.places?.find((p) => p.seat === s.you);
  return mine ? t("room.sng_place", { place: mine.place, payout: chips(mine.payout) }) : "";
}
