// Page-wide behaviour: computed styles, the four-colour switch and the phone menu.
const FOUR = "tp_fourcolour";

// The Content-Security-Policy forbids style="" attributes, so templates give computed styles as data
// attributes and they are set here through the CSSOM: data-width is a width in per cent (the odds bars),
// data-e the heat-map equity custom property --e.
document.querySelectorAll("[data-width]").forEach((n) => { n.style.width = `${n.dataset.width}%`; });
document.querySelectorAll("[data-e]").forEach((n) => { n.style.setProperty("--e", n.dataset.e); });

function setCookie(name, value) {
  document.cookie = `${name}=${value}; path=/; max-age=${365 * 24 * 3600}; samesite=lax`;
}

document.querySelectorAll(".four-toggle").forEach((btn) => {
  btn.addEventListener("click", () => {
    const on = !document.documentElement.classList.contains("four-colour");
    document.documentElement.classList.toggle("four-colour", on);
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    setCookie(FOUR, on ? "1" : "0");
  });
});

const toggle = document.querySelector(".nav-toggle");
const nav = document.getElementById("site-nav");
if (toggle && nav) {
  toggle.addEventListener("click", () => {
    const open = !nav.classList.contains("open");
    nav.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  });
}

// The member link: the signed-in name when there is a session (its CSRF cookie says so), else "sign in".
const memberLink = document.getElementById("nav-member");
if (memberLink && document.cookie.split("; ").some((c) => c.startsWith("tp_csrf="))) {
  fetch("/api/me", { headers: { "Accept": "application/json" }, credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((me) => {
      if (!me || !me.member) return;
      memberLink.textContent = me.member.name;
      memberLink.classList.add("signed-in");
      memberLink.setAttribute("aria-label", `${memberLink.dataset.signedIn || ""}${me.member.name}`);
    })
    .catch(() => {});
}

// The app on the phone (docs/hosting.md, "The app on the phone"): the service worker caches the learning pages
// for offline use; pages that need the server (the tables) say so while the connection is down; a new build
// on the server is offered as a reload, and never mixed with this page's scripts.
const BUILD = document.querySelector('meta[name="tp-build"]')?.content || "";
const MSG = JSON.parse(document.getElementById("i18n-data")?.textContent || "{}");
const say = (key) => MSG[key] || key;

function banner(id, text, action) {
  let node = document.getElementById(id);
  if (!node) {
    node = document.createElement("div");
    node.id = id;
    node.className = "app-banner";
    node.setAttribute("role", "status");
    const p = document.createElement("p");
    node.append(p);
    document.body.prepend(node);
  }
  node.querySelector("p").textContent = text;
  node.querySelector("button")?.remove();
  if (action) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn primary";
    b.textContent = action.label;
    b.addEventListener("click", action.run);
    node.append(b);
  }
  node.hidden = false;
  return node;
}

function offerReload(worker) {
  banner("app-update", say("js.app_update"), {
    label: say("js.app_reload"),
    run: () => {
      if (worker) worker.postMessage("skip-waiting"); // the page reloads when the new worker takes over
      else location.reload();
    },
  });
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  let reloading = false;
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!hadController || reloading) return; // the first install takes the page over silently
    reloading = true;
    location.reload();
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).then((reg) => {
    const waiting = () => { if (reg.waiting && navigator.serviceWorker.controller) offerReload(reg.waiting); };
    waiting();
    reg.addEventListener("updatefound", () => {
      const w = reg.installing;
      w?.addEventListener("statechange", () => { if (w.state === "installed") waiting(); });
    });
  }).catch(() => {});
}

// an API answer from another build: this page's scripts are older (or newer) than the server's
window.addEventListener("tp:stale-build", () => offerReload(null));

if (document.body.dataset.onlineOnly !== undefined) {
  const show = () => {
    if (navigator.onLine) { const b = document.getElementById("app-offline"); if (b) b.hidden = true; }
    else banner("app-offline", say("js.app_offline_table"));
  };
  window.addEventListener("offline", show);
  window.addEventListener("online", show);
  show();
}
