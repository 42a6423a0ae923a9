// The coach's words, for the room's coach and the hand review: the strategy's mix as how many times in 100 it
// takes each action ("Raise to 60 (55 in 100)"), never as a percentage, which is how an equity or a price reads
// ("equity 34.9%"); the coach's reason in the reader's language; a review mark with its reason. No state.
import { el, t, list } from "./core.js";
import { chips } from "./member.js";

// How many times in 100 the strategy takes an action of probability ``p``.
export const times = (p) => Math.round(100 * p);

// An action of the mix in words: "Raise to 60", "Call".
export const mixAction = (m) => t(`coach.mix.${m.action}`, { amount: m.to == null ? "" : chips(m.to) });

// The distribution, likeliest first: "Raise to 60 (55 in 100), Call (45 in 100)"; with ``limit`` the first
// ``limit`` actions, and "…" when more follow.
export function mixText(mix, limit = mix.length) {
  const parts = mix.slice(0, limit).map((m) => t("coach.mix_part", { action: mixAction(m), n: times(m.probability) }));
  return list(parts) + (mix.length > limit ? t("coach.mix_more") : "");
}

// The distribution as bars, one an action, each with its times in 100 in words (the bar is a picture of them).
export function mixBars(mix) {
  return mix.map((m) => {
    const fill = el("span", { class: "mix-fill" });
    fill.style.width = `${times(m.probability)}%`;
    return el("li", {},
      el("span", { class: "mix-name", text: mixAction(m) }),
      el("span", { class: "mix-bar", "aria-hidden": "true" }, fill),
      el("span", { class: "mix-times", text: t("coach.times", { n: times(m.probability) }) }));
  });
}

// The coach's one-line reason is numbers between English words: say the words in the reader's language.
export function reasonText(reason) {
  return reason.replace(/solved preflop|bet for value|defend|equity|price|fold|check|call|raise|bet/g,
    (w) => t(`coach.word.${w.replaceAll(" ", "_")}`));
}

// A review mark ("✓ Good") with its reason ("inside the strategy's mix"), then the chips given up against the
// strategy, how often the strategy plays the action taken, and an exact cost: a mark never stands beside a loss
// without saying why.
export function reviewMark(d) {
  const why = d.why === "first_choice" && d.cost ? "first_choice_cost" : d.why;
  return [
    el("span", { class: `mark mark-${d.mark}`, text: t(`review.mark.${d.mark}`) }),
    why ? el("span", { class: "small why", text: t("review.why_wrap", { why: t(`review.why.${why}`) }) }) : null,
    d.loss ? el("span", { class: "small loss" }, el("br"), t("review.loss", { n: chips(Math.round(d.loss)), bb: d.loss_bb })) : null,
    d.mix?.length ? el("span", { class: "small muted" }, el("br"), t("review.took", { n: times(d.probability) })) : null,
    d.cost ? el("span", { class: "small cost" }, el("br"), t("review.cost", { n: chips(d.cost) })) : null,
  ];
}
