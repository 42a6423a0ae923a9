// Your turn, everywhere: keyboard shortcuts on the action bar (F fold, C check or call, R raise, A all-in), and a
// beep and a buzz when a decision becomes yours, each with an on/off switch remembered on this device.
// The shortcuts never fire while typing (the chat, the amount box, any field) or with a modifier held.

const $ = (id) => document.getElementById(id);
const PREFS = { sound: "tp_turn_sound", vibrate: "tp_turn_vibrate" };

function pref(name) {
  try { return localStorage.getItem(PREFS[name]) !== "0"; } catch (e) { return true; }
}

function setPref(name, on) {
  try { localStorage.setItem(PREFS[name], on ? "1" : "0"); } catch (e) { /* private mode: for this page only */ }
  drawPrefs();
}

function drawPrefs() {
  for (const name of Object.keys(PREFS)) {
    const btn = $(`${name}-toggle`);
    if (btn) btn.setAttribute("aria-pressed", pref(name) ? "true" : "false");
  }
}

// A button that is there to press now: shown, enabled, inside a bar that is shown.
function usable(id) {
  const b = $(id);
  return b && !b.hidden && !b.disabled && b.offsetParent !== null ? b : null;
}

function typing(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable=''], [contenteditable='true']"));
}

function onKey(ev) {
  if (ev.defaultPrevented || ev.repeat || ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
  if ($("actions").hidden) return;
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : "";
  let btn = null;
  if (key === "f") btn = usable("act-fold");
  else if (key === "c") btn = usable("act-check") || usable("act-call");
  else if (key === "a") btn = usable("act-allin");
  else if (key === "r") {
    const box = usable("raise-amount");
    if (!box) return;
    ev.preventDefault();  // the letter must not land in the box it focuses
    box.focus();
    box.select();
    return;
  }
  if (!btn) return;
  ev.preventDefault();
  btn.click();
}

// ---- the alert: Web Audio's beep (no sound file) and navigator.vibrate -------------------------------------------

let audio = null;

// Browsers let a page sound or vibrate only after the reader has pressed something on it.
const activated = () => !navigator.userActivation || navigator.userActivation.hasBeenActive;

function beep() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx || !activated()) return;
  try {
    audio ??= new Ctx();
    if (audio.state === "suspended") audio.resume();
    const now = audio.currentTime;
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(880, now);
    osc.frequency.setValueAtTime(1175, now + 0.12);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.18, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.3);
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.32);
  } catch (e) { /* no audio device: the title and the bar still say it */ }
}

export function alertTurn() {
  if (pref("sound")) beep();
  if (pref("vibrate") && activated() && typeof navigator.vibrate === "function") {
    try { navigator.vibrate([120, 60, 120]); } catch (e) { /* not on this device */ }
  }
}

let wanted = false;  // a decision was yours at the last draw

// Called on every draw: `yours` is whether a decision is yours now (your turn, or a choice to make).
export function drawTurn(yours) {
  if (yours && !wanted) alertTurn();
  wanted = yours;
}

export function setupKeys() {
  document.addEventListener("keydown", onKey);
  for (const name of Object.keys(PREFS)) {
    $(`${name}-toggle`)?.addEventListener("click", () => setPref(name, !pref(name)));
  }
  drawPrefs();
  // a browser that cannot vibrate (Safari) shows no switch for it
  if (typeof navigator.vibrate !== "function") $("vibrate-toggle").hidden = true;
}
