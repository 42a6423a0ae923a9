// Page-wide behaviour: the four-colour switch and the phone menu.
const FOUR = "tp_fourcolour";

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
