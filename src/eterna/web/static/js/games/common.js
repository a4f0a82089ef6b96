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

// Where each opponent sits around the play, by their count, clockwise from the seat after
// yours (you sit at the bottom): the next player on your left, the others across the top, the
// one before you on your right. A spectator sees every seat around the play.
export function placesAround(count) {
  if (count <= 0) return [];
  if (count === 1) return ["top"];
  if (count === 2) return ["left", "right"];
  return ["left", ...Array(count - 2).fill("top"), "right"];
}

// The table (issue 32): the opponents' seats around the play, each with its public zones, score
// and turn marker (`seatPanel(s)` draws one; `around(count)` places them, `placesAround` unless
// the game's seats are small enough to sit all across the top); the play (`center`: trick,
// hunting board, markets) in the middle; your own seat below it, above your docked hand. A grid whose columns follow the
// places taken; on a phone the opponents become one compact strip above the play.
// A grid cell, as custom properties the style sheet reads (a phone's strip sets its own).
function cell(node, column, row) {
  node.style.setProperty("--column", column);
  node.style.setProperty("--row", row);
}

export function aroundThePlay(view, ctx, center, seatPanel, extraClass = "", around = placesAround) {
  const players = view.players;
  const me = ctx.seat === null || ctx.seat === undefined ? null : ctx.seat;
  const others = [];
  for (let i = 1; i <= players; i++) {
    const s = me === null ? i - 1 : (me + i) % players;
    if (s !== me) others.push(s);
  }
  const places = around(others.length);
  const tops = places.filter((p) => p === "top").length;
  const sides = places.includes("left");
  const middle = Math.max(1, tops);
  const ring = el("div", { class: `zone seats-zone ring ring-${others.length} ${extraClass}`.trim(), role: "group", "aria-label": t("table.seatsAround"),
    style: `--ring-columns: ${sides ? "var(--ring-side) " : ""}repeat(${middle}, minmax(0, 1fr))${sides ? " var(--ring-side)" : ""};`
      + ` --ring-count: ${Math.max(1, others.length)}` });
  const first = sides ? 2 : 1;  // the grid column of the first top seat and of the play
  let top = 0;
  others.forEach((s, i) => {
    const place = places[i];
    const panel = seatPanel(s);
    panel.classList.add("seat-panel", `at-${place}`);
    if (s === view.current_player && !view.is_terminal) panel.classList.add("current");
    const column = place === "left" ? 1 : place === "right" ? first + middle : first + top++;
    cell(panel, String(column), place === "top" ? "1" : "2");
    ring.append(panel);
  });
  center.classList.add("ring-center");
  cell(center, `${first} / span ${middle}`, "2");
  ring.append(center);
  if (me !== null) {
    const mine = seatPanel(me);
    mine.classList.add("seat-panel", "at-bottom", "me");
    if (me === view.current_player && !view.is_terminal) mine.classList.add("current");
    cell(mine, "1 / -1", "3");
    ring.append(mine);
  }
  return ring;
}
