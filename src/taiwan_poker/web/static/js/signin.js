// Sign-in page: local sign-in (a display name only, local mode), or Google's button; sign-out when signed in.
import { memberApi, whoAmI, showMessage } from "./member.js";

const $ = (id) => document.getElementById(id);
const root = $("signin"), errorBox = $("signin-error");
const next = root.dataset.next || "/lobby";

function signedIn(member) {
  $("signed-in-name").textContent = member.name;
  $("signed-in").hidden = false;
  $("signin-options").hidden = true;
}

whoAmI().then((me) => { if (me.member) signedIn(me.member); }).catch((e) => showMessage(errorBox, e));

const form = $("local-form");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showMessage(errorBox, null);
    const name = $("local-name").value.trim();
    if (!name) { $("local-name").focus(); return; }
    $("local-submit").disabled = true;
    try {
      await memberApi("/api/auth/local", { method: "POST", body: { name } });
      location.assign(next);
    } catch (e) {
      showMessage(errorBox, e);
      $("local-submit").disabled = false;
    }
  });
}

$("signout").addEventListener("click", async () => {
  try {
    await memberApi("/api/auth/logout", { method: "POST", body: {} });
    location.reload();
  } catch (e) { showMessage(errorBox, e); }
});
