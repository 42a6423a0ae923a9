// The host's table (主持人的牌桌): the pause notice everyone sees, the requests to sit the host answers, the host's
// (and co-hosts') controls under the table, and the table's log every player reads in their own language.
import { el, t, list } from "./core.js";
import { memberApi, showMessage, chips, whole } from "./member.js";

const $ = (id) => document.getElementById(id);
let ctx = null;              // { api, getState, apply, handLive }
let playersKey = null, logKey = null;
let stakesShown = null, stakesDirty = false;
const HAND_OPTIONS = ["straddle", "run_twice", "show_or_muck"];
const TABLE_OPTIONS = ["rebuys", "approval", "spectator_chat", "reveal"];

const controls = (s) => Boolean((s.host || s.cohost) && !(s.status === "over" || s.match?.over));

// A host request: its answer's state is drawn; a refusal is said in the host's box (or `box`), with its state.
async function call(path, body, method = "POST", box = $("host-error"), btn = null) {
  showMessage(box, null);
  if (btn) btn.disabled = true;
  try {
    const res = await memberApi(`${ctx.api}${path}`, { method, body });
    ctx.apply(res.state ?? res);
    return res;
  } catch (e) {
    showMessage(box, e);
    if (e.state) ctx.apply(e.state);
    return null;
  } finally {
    if (btn) btn.disabled = false;
  }
}

// ---- the table's log ----------------------------------------------------------------------------------------

function optionsOn(e, names) {
  const on = names.filter((n) => e[n]).map((n) => t(`room.opt_short.${n}`));
  return on.length ? t("room.log_opts_on", { names: list(on) }) : t("room.log_opts_none");
}

const CHIP_FIELDS = ["before", "after", "amount", "took", "stack", "small", "big"];

// An entry of the table's log in the reader's language: the server names its catalogue key and fields (one
// declaration per event, tables/events.py); a seat is shown counted from 1, amounts as chips, and `options`
// names the flags whose settings follow the line.
export function logText(e) {
  if (!e.key) return null;
  const params = { ...e, by: e.by ?? "" };
  if (typeof e.seat === "number") params.seat = e.seat + 1;
  for (const name of CHIP_FIELDS) if (typeof e[name] === "number") params[name] = chips(e[name]);
  return t(e.key, params) + (e.options ? optionsOn(e, e.options) : "");
}

function drawLog(s) {
  const log = s.log || [];
  const panel = $("log-panel");
  panel.hidden = !s.match && log.length === 0;
  const key = `${log.length}:${log.at(-1)?.version ?? 0}`;
  if (key === logKey) return;
  logKey = key;
  const items = log.map((e) => [e, logText(e)]).filter(([, text]) => text).reverse();  // newest first
  $("log-list").replaceChildren(...items.map(([e, text]) => el("li", { "data-type": e.type, "data-version": String(e.version), text })));
  $("log-list").start = items.length;
  $("log-empty").hidden = items.length > 0;
  $("log-count").textContent = items.length ? t("room.log_count", { n: items.length }) : "";
}

// ---- the pause, the requests to sit ------------------------------------------------------------------------

function drawPause(s) {
  const paused = Boolean(s.paused) && !(s.status === "over" || s.match?.over);
  $("pause-box").hidden = !paused;
  if (paused) $("pause-text").textContent = t("room.host_paused_msg", { name: s.paused.by });
  $("resume-btn").hidden = !(paused && controls(s));
}

function drawRequests(s) {
  const reqs = controls(s) ? s.requests || [] : [];
  $("request-box").hidden = reqs.length === 0;
  $("request-list").replaceChildren(...reqs.map((r) => el("li", { "data-request": String(r.id) },
    el("span", { class: "request-who", text: t("room.request_line", { name: r.name })
      + (r.seat != null ? t("room.request_seat", { n: r.seat + 1 }) : "") }),
    el("span", { class: "request-buttons" },
      el("button", { type: "button", class: "btn small-btn primary req-approve", "data-request": String(r.id),
        "aria-label": t("room.approve_aria", { name: r.name }), text: t("room.approve") }),
      el("button", { type: "button", class: "btn small-btn req-deny", "data-request": String(r.id),
        "aria-label": t("room.deny_aria", { name: r.name }), text: t("room.deny") })))));
}

// ---- the host's controls ------------------------------------------------------------------------------------

function playerRow(p, s, live) {
  const me = p.seat === s.you;
  const tags = [];
  if (p.host) tags.push(el("span", { class: "tag host", text: t("room.tag_host") }));
  if (p.cohost) tags.push(el("span", { class: "tag cohost", text: t("room.tag_cohost") }));
  if (p.silenced) tags.push(el("span", { class: "tag silenced", text: t("room.tag_silenced") }));
  const btn = (cls, text, aria, extra = {}) => el("button", { type: "button", class: `btn small-btn ${cls}`,
    "data-seat": String(p.seat), text, "aria-label": aria, disabled: live && extra.between ? true : null, ...extra.attrs });
  const row = el("li", { class: "host-player", "data-seat": String(p.seat) },
    el("span", { class: "hp-who" }, el("strong", { text: me ? t("room.you_name", { name: p.name }) : p.name }), " ", ...tags));
  if (s.match) {
    row.append(el("span", { class: "hp-stack" },
      el("input", { type: "text", inputmode: "numeric", autocomplete: "off", class: "hp-stack-input", "data-seat": String(p.seat),
        value: String(p.stack), "aria-label": t("room.stack_aria", { name: p.name }), disabled: live ? true : null }),
      btn("hp-stack-set", t("room.stack_set"), t("room.stack_set_aria", { name: p.name }), { between: true })));
  }
  const acts = el("span", { class: "hp-actions" });
  if (!me && !p.host) acts.append(btn("hp-remove act-fold", t("room.remove"), t("room.remove_aria", { name: p.name }), { between: true }));
  if (s.host && !me && !p.bot) {
    acts.append(btn("hp-host", t("room.make_host"), `${t("room.make_host")}: ${p.name}`));
    acts.append(btn("hp-cohost", t(p.cohost ? "room.cohost_off" : "room.cohost_on"), `${t(p.cohost ? "room.cohost_off" : "room.cohost_on")}: ${p.name}`,
      { attrs: { "data-on": p.cohost ? "0" : "1" } }));
  }
  if (!me && !p.bot && !p.host && !p.cohost) {
    acts.append(btn("hp-silence", t(p.silenced ? "room.silence_off" : "room.silence_on"), `${t(p.silenced ? "room.silence_off" : "room.silence_on")}: ${p.name}`,
      { attrs: { "data-on": p.silenced ? "0" : "1" } }));
  }
  if (acts.childElementCount) row.append(acts);
  return row;
}

function drawPlayers(s, live) {
  const box = $("host-players");
  const seated = s.players.filter((p) => !p.left);
  const key = JSON.stringify([seated.map((p) => [p.seat, p.name, p.stack, p.bot, p.host, p.cohost, p.silenced]), s.host,
    s.you, live, Boolean(s.match), document.documentElement.lang]);
  if (key === playersKey) return;
  // someone typing a stack keeps their box unless the seats themselves changed
  const typing = box.contains(document.activeElement) && document.activeElement.tagName === "INPUT";
  if (typing && playersKey && JSON.parse(playersKey)[0].map((x) => x[0]).join() === seated.map((p) => p.seat).join()) return;
  playersKey = key;
  box.replaceChildren(...seated.map((p) => playerRow(p, s, live)));
}

const stakesOf = (s) => JSON.stringify([s.blinds, s.clock, s.time_bank, HAND_OPTIONS.map((n) => Boolean(s.options?.[n]))]);

function fillStakes(s) {
  $("stakes-sb").value = String(s.blinds[0]);
  $("stakes-bb").value = String(s.blinds[1]);
  $("stakes-clock").value = String(s.clock);
  $("stakes-bank").value = String(s.time_bank ?? 0);
  for (const n of HAND_OPTIONS) $(`stakes-${n}`).checked = Boolean(s.options?.[n]);
  stakesShown = stakesOf(s);
  stakesDirty = false;
}

export function drawHost(s) {
  drawPause(s);
  drawRequests(s);
  drawLog(s);
  const panel = $("host-panel");
  panel.hidden = !controls(s);
  if (panel.hidden) return;
  const live = ctx.handLive();
  const pause = $("pause-btn");
  pause.textContent = t(s.paused ? "room.resume" : "room.pause");
  pause.dataset.paused = s.paused ? "1" : "0";
  // ending the match: once it has started, between hands
  $("end-row").hidden = !(s.match && !s.match.over);
  $("end-btn").disabled = live;
  drawPlayers(s, live);
  if (!stakesDirty && stakesShown !== stakesOf(s)) fillStakes(s);
  $("stakes-save").disabled = live;
  $("stakes-status").textContent = live ? t("room.between_hands") : $("stakes-status").dataset.saved === "1" ? t("room.stakes_saved") : "";
  for (const n of TABLE_OPTIONS) {
    const box = $(`opt-${n}`);
    if (!box.dataset.sending) box.checked = Boolean(s.options?.[n]);  // a click on its way keeps its tick
    if (n === "reveal") box.disabled = Boolean(s.match);  // settled before the first hand (docs/fairness.md)
  }
}

function stakesBody() {
  const fields = [["stakes-sb", "lobby.small_blind"], ["stakes-bb", "lobby.big_blind"], ["stakes-clock", "room.clock_field"],
    ["stakes-bank", "lobby.time_bank"]];
  const v = [];
  for (const [id, label] of fields) {
    const n = whole($(id).value);
    if (n == null) return { error: { message: t("room.stakes_bad_whole", { field: t(label) }) }, field: id };
    v.push(n);
  }
  const body = { blinds: [v[0], v[1]], action_clock: v[2], time_bank: v[3] };
  for (const n of HAND_OPTIONS) body[n] = $(`stakes-${n}`).checked;
  return { body };
}

export function setupHost(context) {
  ctx = context;
  $("pause-btn").addEventListener("click", (ev) => call(ev.currentTarget.dataset.paused === "1" ? "/resume" : "/pause", {}, "POST", $("host-error"), ev.currentTarget));
  $("end-btn").addEventListener("click", (ev) => {
    if (window.confirm(t("room.end_match_confirm"))) call("/end", {}, "POST", $("host-error"), ev.currentTarget);
  });
  $("resume-btn").addEventListener("click", (ev) => call("/resume", {}, "POST", $("room-error"), ev.currentTarget));
  $("request-list").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-request]");
    if (!btn) return;
    call(`/requests/${encodeURIComponent(btn.dataset.request)}`, { approve: btn.classList.contains("req-approve") }, "POST", $("room-error"), btn);
  });
  $("host-players").addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-seat]");
    if (!btn || btn.disabled) return;
    const s = ctx.getState(), seat = Number(btn.dataset.seat);
    const p = s.players.find((x) => x.seat === seat && !x.left);
    if (!p) return;
    if (btn.classList.contains("hp-stack-set")) {
      const input = $("host-players").querySelector(`input[data-seat="${seat}"]`);
      const stack = whole(input.value);
      if (stack == null || stack < 1) { input.setAttribute("aria-invalid", "true"); showMessage($("host-error"), { message: t("room.stakes_bad_whole", { field: t("room.stack_aria", { name: p.name }) }) }); input.focus(); return; }
      input.setAttribute("aria-invalid", "false");
      playersKey = null;
      // over ten starting stacks the server asks the host to confirm (a co-host cannot set one at all)
      const cap = 10 * s.stack;
      const confirm = stack > cap && stack > p.stack && s.host
        && window.confirm(t("room.stack_confirm", { name: p.name, chips: chips(stack), cap: chips(cap) }));
      call(`/players/${seat}/stack`, { stack, confirm: Boolean(confirm) }, "POST", $("host-error"), btn);
    } else if (btn.classList.contains("hp-remove")) {
      // their chips leave with them: say how many and ask first
      if (!window.confirm(t("room.remove_confirm", { name: p.name, chips: chips(p.stack) }))) return;
      call(`/players/${seat}`, undefined, "DELETE", $("host-error"), btn);
    } else if (btn.classList.contains("hp-host")) {
      if (!window.confirm(t("room.make_host_confirm", { name: p.name }))) return;
      call("/host", { seat }, "POST", $("host-error"), btn);
    } else if (btn.classList.contains("hp-cohost")) {
      call("/cohosts", { seat, on: btn.dataset.on === "1" }, "POST", $("host-error"), btn);
    } else if (btn.classList.contains("hp-silence")) {
      call("/silence", { seat, on: btn.dataset.on === "1" }, "POST", $("host-error"), btn);
    }
  });
  $("host-players").addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" || !ev.target.matches("input.hp-stack-input")) return;
    ev.preventDefault();
    $("host-players").querySelector(`button.hp-stack-set[data-seat="${ev.target.dataset.seat}"]`)?.click();
  });
  $("stakes-form").addEventListener("input", () => { stakesDirty = true; $("stakes-status").dataset.saved = ""; });
  $("stakes-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = stakesBody();
    if (res.error) { showMessage($("host-error"), res.error); $(res.field).focus(); return; }
    const done = await call("/stakes", res.body, "POST", $("host-error"), $("stakes-save"));
    if (done) {
      stakesDirty = false;
      stakesShown = null;
      $("stakes-status").dataset.saved = "1";
      ctx.redraw();
    }
  });
  $("host-options").addEventListener("change", async (ev) => {
    const box = ev.target.closest("input[type=checkbox]");
    if (!box) return;
    box.dataset.sending = "1";
    await call("/options", { [box.name]: box.checked }, "POST", $("host-error"), box);
    box.dataset.sending = "";
    ctx.redraw();
  });
}
