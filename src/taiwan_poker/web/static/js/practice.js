// Practice room: the server grades every answer and keeps this session's score.
import { LANG, api, el, renderCard, renderHand, showError, t } from "./core.js";
import { practiceData } from "./offline.js";

// Offline, the answers come from the cached practice data and the score is kept on this device.
const offlineScore = { answered: 0, correct: 0 };
function recordOffline(correct) {
  offlineScore.answered += 1;
  if (correct) offlineScore.correct += 1;
  return { ...offlineScore, percent: Math.round(100 * offlineScore.correct / offlineScore.answered) };
}

async function offlineAnswer(scenario, choice) {
  const s = (await practiceData(LANG)).scenarios.find((x) => x.id === scenario);
  const correct = choice === s.answer;
  return { correct, answer: s.answer, answer_label: s.answer_label, explanation: s.explanation,
    score: recordOffline(correct) };
}

async function offlineDrill() {
  const drills = (await practiceData(LANG)).drills;
  return drills[Math.floor(Math.random() * drills.length)];
}

async function offlineDrillAnswer(seed, fraction) {
  const d = (await practiceData(LANG)).drills.find((x) => x.seed === seed);
  const correct = fraction === d.answer.fraction;
  return { correct, answer: d.answer, explanation: d.explanation, score: recordOffline(correct) };
}

const orOffline = (online, offline) => online().catch((e) => { if (e.code === "network") return offline(); throw e; });

const $ = (id) => document.getElementById(id);

function showScore(score) {
  $("score-value").textContent = score.answered
    ? t("practice.score_value", { correct: score.correct, answered: score.answered, percent: score.percent })
    : t("practice.score_none");
  $("score").dataset.answered = score.answered;
  $("score").dataset.correct = score.correct;
}

function feedback(box, correct, verdict, text) {
  box.replaceChildren(el("p", { class: "verdict", text: verdict }), el("p", { text }));
  box.className = `feedback ${correct ? "right" : "wrong"}`;
  box.hidden = false;
}

document.querySelectorAll(".scenario").forEach((card) => {
  const box = card.querySelector(".feedback");
  card.querySelectorAll(".choice").forEach((btn) => {
    btn.addEventListener("click", async () => {
      try {
        const res = await orOffline(() => api("/api/practice/answers", {
          method: "POST", body: { scenario: card.dataset.scenario, choice: btn.dataset.choice },
        }), () => offlineAnswer(card.dataset.scenario, btn.dataset.choice));
        card.querySelectorAll(".choice").forEach((b) => {
          b.classList.remove("is-right", "is-wrong", "picked");
          if (b.dataset.choice === res.answer) b.classList.add("is-right");
        });
        btn.classList.add("picked");
        if (!res.correct) btn.classList.add("is-wrong");
        feedback(box, res.correct, res.correct ? t("practice.correct") : t("practice.wrong", { answer: res.answer_label }),
          res.explanation);
        card.dataset.answered = res.correct ? "right" : "wrong";
        showScore(res.score);
      } catch (e) { box.hidden = false; box.className = "feedback wrong"; box.textContent = e.message; }
    });
  });
});

let drill = null;
async function loadDrill() {
  const box = $("drill-feedback");
  box.hidden = true;
  try {
    drill = await orOffline(() => api("/api/practice/drill"), offlineDrill);
  } catch (e) { showError(box, e); return; }
  $("drill").dataset.seed = drill.seed;
  $("drill-meta").textContent = t("drill.meta", { decks: drill.decks, total: 52 * drill.decks });
  renderHand($("drill-hole"), drill.hole, { size: "sm" });
  renderHand($("drill-board"), drill.board, { size: "sm" });
  $("drill-burn").replaceChildren(renderCard(drill.burn, { size: "sm" }));
  $("drill-question").textContent = drill.question;
  $("drill-choices").replaceChildren(...drill.choices.map((c) => {
    const b = el("button", { type: "button", class: "btn choice", "data-choice": c.fraction },
      c.percent, el("span", { class: "frac", text: ` (${c.fraction})` }));
    b.addEventListener("click", () => answerDrill(b, c.fraction));
    return b;
  }));
}

async function answerDrill(btn, fraction) {
  const box = $("drill-feedback");
  try {
    const res = await orOffline(
      () => api("/api/practice/drill/answers", { method: "POST", body: { seed: drill.seed, choice: fraction } }),
      () => offlineDrillAnswer(drill.seed, fraction));
    document.querySelectorAll("#drill-choices .choice").forEach((b) => {
      b.classList.remove("is-right", "is-wrong");
      if (b.dataset.choice === res.answer.fraction) b.classList.add("is-right");
    });
    if (!res.correct) btn.classList.add("is-wrong");
    feedback(box, res.correct,
      res.correct ? t("practice.correct") : t("practice.wrong", { answer: `${res.answer.percent} (${res.answer.fraction})` }),
      res.explanation);
    showScore(res.score);
  } catch (e) { showError(box, e); }
}

$("drill-next").addEventListener("click", loadDrill);
api("/api/practice/score").then(showScore).catch(() => {});
loadDrill();
