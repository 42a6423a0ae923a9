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
