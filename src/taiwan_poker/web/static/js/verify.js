// The verify page: a file or pasted JSON (an exported hand or match, or a bare record) checked in this browser.
import { el, t } from "./core.js";
import { recordsIn, verifyRecord } from "./fairness.js";

const $ = (id) => document.getElementById(id);

function line(report) {
  const opened = report.openings.filter((o) => o.ok).length;
  const state = (v) => t(v === null ? "verify.not_revealed" : v ? "verify.yes" : "verify.no");
  return el("li", { class: `verify-item ${report.ok ? "ok" : "bad"}`, "data-ok": report.ok ? "1" : "0" },
    el("strong", { text: `${report.ok ? "✓" : "✗"} ${report.hand_id}` }), " ",
    el("span", { text: t("verify.line", { opened, total: report.openings.length, seed: state(report.seed),
      shoe: state(report.shoe) }) }),
    report.ok ? null : el("span", { class: "error", text: ` ${t("verify.failed", { what: report.problems.join(", ") })}` }));
}

async function run() {
  $("verify-error").hidden = true;
  $("verify-status").textContent = t("verify.working");
  try {
    const records = recordsIn(JSON.parse($("verify-text").value));
    if (!records.length) throw new Error(t("verify.none"));
    const reports = [];
    for (const r of records) reports.push(await verifyRecord(r));
    $("verify-list").replaceChildren(...reports.map(line));
    $("verify-results").hidden = false;
    $("verify-status").textContent = t(reports.every((r) => r.ok) ? "verify.all_ok" : "verify.some_failed");
  } catch (e) {
    $("verify-status").textContent = "";
    $("verify-error").textContent = e instanceof SyntaxError ? t("verify.not_json") : e.message;
    $("verify-error").hidden = false;
  }
}

$("verify-run").addEventListener("click", run);
$("verify-file").addEventListener("change", async (ev) => {
  const file = ev.target.files?.[0];
  if (file) { $("verify-text").value = await file.text(); run(); }
});
