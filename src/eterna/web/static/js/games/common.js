// Helpers the three game renderers share.
import { el } from "../page.js";
import { t } from "../i18n.js";

export function section(cls, titleKey, ...children) {
  return el("section", { class: `zone ${cls}` }, titleKey ? el("h3", {}, t(titleKey)) : null, ...children);
}

// Secondary detail that folds (a <details> zone, closed at first): whether the player opened it
// is kept across the redraws of the board.
const opened = new Set();
export function folded(cls, title, ...children) {
  const box = el("details", { class: `zone ${cls}`, open: opened.has(cls) }, el("summary", {}, title), ...children);
  box.addEventListener("toggle", () => { if (box.open) opened.add(cls); else opened.delete(cls); });
  return box;
}

export function row(cls, cards) {
  return el("div", { class: `cards ${cls || ""}` }, cards.length ? cards : el("span", { class: "empty" }, t("common.none")));
}

export function stat(labelKey, value, vars) {
  return el("span", { class: "stat" }, el("span", { class: "stat-label" }, t(labelKey, vars)), " ", el("strong", {}, String(value)));
}

// Does `action` (notation) name `card` for a click in `zone`? `rules` is a list of
// [prefix, index]: the action starts with prefix ("" for any) and its index-th word is the card.
export function matches(action, card, rules) {
  const words = action.split(/\s+/);
  return rules.some(([prefix, index]) => (prefix === "" || action === prefix || action.startsWith(prefix + " ")) && words[index] === card);
}
