// A sit-and-go's structure in the lobby's create form (issue 46): minutes a level, antes, breaks, the blind levels
// and the payouts by place, filled in from the server's presets and default payouts (tables/schedules.py, in the
// page as #sng-data) and editable. The checks mirror the server's and speak its messages (error.bad_schedule.*,
// error.bad_payouts.*); they are a convenience: the server judges what is sent.
import { el, t } from "./core.js";
import { chips, whole } from "./member.js";

const $ = (id) => document.getElementById(id);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const BOXES = ["sng-error", "sng-clock-error", "sng-levels-error", "sng-payouts-error"];

export function structureEditor() {
  const root = $("sng-structure");
  if (!root) return null;
  const data = JSON.parse($("sng-data").textContent);
  const B = data.bounds;
  const body = $("sng-levels");
  let loaded = null;  // the preset the form was last filled from
  let seats = null;  // the field size the payouts are for
  let payoutsEdited = false;
  let typed = [];  // the payouts as the creator typed them, kept when the seats change

  // ---- the level table -------------------------------------------------------------------------------------------

  const rows = () => [...body.rows];
  const cell = (row, what) => row.querySelector(`input[data-what="${what}"]`);
  const anteFrom = () => Number($("sng-ante-from").value);
  const autoAnte = (big, n) => (anteFrom() && n >= anteFrom() ? Math.floor(big / data.ante_share) : 0);

  function input(what, value) {
    return el("input", { type: "text", inputmode: "numeric", autocomplete: "off", "data-what": what,
      value: value == null ? "" : String(value), "aria-describedby": "sng-levels-hint sng-levels-error" });
  }

  function levelRow([small, big, ante]) {
    const row = el("tr", { "data-big": big ?? "" },
      el("th", { scope: "row", class: "num" }),
      el("td", {}, input("small", small)), el("td", {}, input("big", big)), el("td", {}, input("ante", ante)),
      el("td", {}, el("button", { type: "button", class: "btn sng-remove", text: t("lobby.sng_remove") })));
    return row;
  }

  // numbers and names after rows come or go: "第 3 級 大盲" / "Level 3 big blind"
  function renumber() {
    const all = rows();
    all.forEach((row, i) => {
      const n = i + 1;
      row.cells[0].textContent = String(n);
      for (const what of ["small", "big", "ante"]) cell(row, what).setAttribute("aria-label", t(`lobby.sng_cell_${what}`, { n }));
      const rm = row.querySelector(".sng-remove");
      rm.setAttribute("aria-label", t("lobby.sng_remove_level", { n }));
      rm.disabled = all.length <= B.levels[0];
    });
    $("sng-add-level").disabled = all.length >= B.levels[1];
    const select = $("sng-ante-from"), keep = anteFrom();
    const top = Math.max(all.length, keep);
    select.replaceChildren(el("option", { value: "0", text: t("lobby.sng_ante_none") }),
      ...Array.from({ length: top }, (_, i) => el("option", { value: String(i + 1), text: t("lobby.sng_ante_level", { n: i + 1 }) })));
    select.value = String(keep);
  }

  function load(name) {
    const p = data.presets[name];
    loaded = name;
    $("sng-minutes").value = String(p.minutes);
    $("sng-break-every").value = String(p.break_every);
    $("sng-break-minutes").value = String(p.break_minutes);
    $("sng-stack").textContent = t("lobby.sng_stack", { stack: chips(p.stack) });
    $("sng-ante-from").replaceChildren(el("option", { value: String(p.ante_from) }));
    $("sng-ante-from").value = String(p.ante_from);
    body.replaceChildren(...p.levels.map(levelRow));
    renumber();
  }

  $("sng-ante-from").addEventListener("change", () => {  // fills the ante column; each level stays editable
    rows().forEach((row, i) => {
      const big = whole(cell(row, "big").value);
      if (big != null) cell(row, "ante").value = String(autoAnte(big, i + 1));
    });
  });

  body.addEventListener("input", (ev) => {  // a new big blind brings its ante along while the ante is the usual tenth
    const box = ev.target;
    if (box.dataset?.what !== "big") return;
    const row = box.closest("tr"), n = rows().indexOf(row) + 1;
    const was = whole(row.dataset.big), now = whole(box.value), ante = whole(cell(row, "ante").value);
    if (now != null && was != null && ante === autoAnte(was, n)) cell(row, "ante").value = String(autoAnte(now, n));
    if (now != null) row.dataset.big = String(now);
  });

  body.addEventListener("click", (ev) => {
    const rm = ev.target.closest?.(".sng-remove");
    if (!rm) return;
    const row = rm.closest("tr"), next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber();
    (next?.querySelector(".sng-remove:not([disabled])") || $("sng-add-level")).focus();  // the focus stays nearby
    root.dispatchEvent(new Event("input", { bubbles: true }));
  });

  $("sng-add-level").addEventListener("click", () => {  // the next level doubles the last big blind
    const last = rows().at(-1), big = last ? whole(cell(last, "big").value) : null;
    const n = rows().length + 1;
    const row = levelRow(big == null ? [null, null, null] : [big, big * 2, autoAnte(big * 2, n)]);
    body.append(row);
    renumber();
    cell(row, "small").focus();
    root.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // ---- payouts ---------------------------------------------------------------------------------------------------

  function payoutInputs() { return [...$("sng-payouts").querySelectorAll("input")]; }

  function drawPayouts(n, values) {
    seats = n;
    $("sng-payouts-title").textContent = t("lobby.sng_payouts", { n });
    if (n <= 2) {  // heads-up the winner takes all, always
      $("sng-payouts").replaceChildren(el("p", { class: "small", text: t("lobby.sng_payouts_heads_up") }));
      $("sng-payouts-reset").hidden = true;
    } else {
      $("sng-payouts").replaceChildren(...Array.from({ length: n }, (_, i) => el("label", { class: "sng-place" },
        el("span", { text: t("lobby.sng_place", { n: i + 1 }) }),
        el("input", { type: "text", inputmode: "numeric", autocomplete: "off", id: `sng-pay-${i + 1}`,
          value: String(values[i] ?? 0), "aria-describedby": "sng-payouts-hint sng-payouts-error" }))));
      $("sng-payouts-reset").hidden = false;
    }
    drawTotal();
  }

  function drawTotal() {
    const values = payoutInputs().map((x) => whole(x.value));
    $("sng-payouts-total").textContent = values.length && values.every((v) => v != null)
      ? t("lobby.sng_payouts_total", { total: values.reduce((a, b) => a + b, 0) }) : "";
  }

  $("sng-payouts").addEventListener("input", () => {
    payoutsEdited = true;
    typed = payoutInputs().map((x) => x.value);
    drawTotal();
  });
  $("sng-payouts-reset").addEventListener("click", () => {
    payoutsEdited = false;
    drawPayouts(seats, data.payouts[seats]);
    root.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // ---- what is sent, or the first reason it cannot be --------------------------------------------------------

  const fail = (key, params, field, box) => ({ error: t(key, params), field, box });

  function readClock() {
    const out = {};
    for (const [name, id] of [["minutes", "sng-minutes"], ["break_every", "sng-break-every"], ["break_minutes", "sng-break-minutes"]]) {
      const v = whole($(id).value), [low, high] = B[name];
      if (v == null || v < low || v > high) return fail(`error.bad_schedule.${name}`, { low, high }, $(id), "sng-clock-error");
      out[name] = v;
    }
    return { value: out };
  }

  function readLevels() {
    const out = [];
    for (const [i, row] of rows().entries()) {
      const level = i + 1;
      const v = ["small", "big", "ante"].map((what) => whole(cell(row, what).value));
      const bad = v.indexOf(null);
      if (bad >= 0) return fail("error.bad_schedule.level_shape", { level }, cell(row, ["small", "big", "ante"][bad]), "sng-levels-error");
      const [small, big, ante] = v;
      if (small < 1 || small > big) return fail("error.bad_schedule.small", { level }, [cell(row, "small"), cell(row, "big")], "sng-levels-error");
      if (ante > big) return fail("error.bad_schedule.ante", { level }, cell(row, "ante"), "sng-levels-error");
      if (out.length && big <= out.at(-1)[1]) return fail("error.bad_schedule.rising", { level }, cell(row, "big"), "sng-levels-error");
      out.push(v);
    }
    return { value: out };
  }

  function readPayouts() {
    if (seats <= 2) return { value: [100] };
    const boxes = payoutInputs();
    const v = boxes.map((x) => whole(x.value));
    const field = seats, box = "sng-payouts-error";
    const blank = v.indexOf(null);
    if (blank >= 0) return fail("error.bad_payouts.whole", { field }, boxes[blank], box);
    let paid = v.length;
    while (paid > 0 && v[paid - 1] === 0) paid -= 1;  // places not paid: the zeros at the end
    const table = v.slice(0, paid);
    if (!table.length) return fail("error.bad_payouts.places", { field }, boxes[0], box);
    const zero = table.indexOf(0);
    if (zero >= 0) return fail("error.bad_payouts.whole", { field }, boxes[zero], box);
    const up = table.findIndex((p, i) => i > 0 && p > table[i - 1]);
    if (up >= 0) return fail("error.bad_payouts.order", { field }, boxes[up], box);
    const total = table.reduce((a, b) => a + b, 0);
    if (total !== 100) return fail("error.bad_payouts.sum", { field, total }, boxes[0], box);
    return { value: table };
  }

  // { tournament } to send (the preset and only what differs from it), or { error, field, box } (field: the input,
  // or the inputs, at fault: the first is focused)
  function settings(format) {
    const p = data.presets[format];
    const clock = readClock();
    if (clock.error) return clock;
    const levels = readLevels();
    if (levels.error) return levels;
    const payouts = readPayouts();
    if (payouts.error) return payouts;
    const out = { preset: format };
    const c = clock.value;
    if (c.minutes !== p.minutes) out.minutes = c.minutes;
    if (c.break_every !== p.break_every || c.break_minutes !== p.break_minutes) {
      out.break_every = c.break_every;
      out.break_minutes = c.break_minutes;
    }
    if (!same(levels.value, p.levels)) out.levels = levels.value;
    if (!same(payouts.value, data.payouts[seats])) out.payouts = { [seats]: payouts.value };
    return { tournament: out };
  }

  function clear() {
    for (const id of BOXES) { $(id).hidden = true; $(id).textContent = ""; }
    for (const x of root.querySelectorAll("[aria-invalid]")) x.removeAttribute("aria-invalid");
  }

  // one error next to its field (or, for the server's answer, next to the part it is about)
  function showError(box, message, field = null) {
    clear();
    root.open = true;
    $(box).textContent = message;
    $(box).hidden = false;
    for (const x of [field].flat()) x?.setAttribute("aria-invalid", "true");
  }

  // the form's format chosen: the section shown for a sit-and-go, filled from its preset when it changes
  function show(format) {
    const sng = format in data.presets;
    root.hidden = !sng;
    if (sng && format !== loaded) load(format);
    if (!sng) clear();
  }

  return {
    show,
    // the seats chosen: the default payouts for that field, unless the creator changed them
    setSeats(n) {
      const keep = payoutsEdited ? typed : data.payouts[n] || [];
      drawPayouts(n, keep);
    },
    // the form's check as it is typed: null, or the error now shown next to its field
    check(format) {
      show(format);
      if (!(format in data.presets)) return { tournament: null };
      const res = settings(format);
      if (res.error) showError(res.box, res.error, res.field);
      else clear();
      return res;
    },
    // the server's refusal of the structure, next to the part it is about; false for any other error
    serverError(err) {
      if (err.code === "bad_payouts") showError("sng-payouts-error", err.message);
      else if (err.code === "bad_schedule") showError("sng-error", err.message);
      else return false;
      return true;
    },
  };
}
