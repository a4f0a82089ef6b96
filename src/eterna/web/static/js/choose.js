// Grouped choices: a choice made several times in a row is one dialog with a confirm, not a
// click per item. The Vale's stone limit (§5.4: discard down to the limit) asks for stones one
// at a time (`discard-stone <colour>`, one engine move each, so records replay alike): the
// dialog takes how many of each colour, and on confirm plays them in order, each through the
// moves panel's own button once the previous move is answered.
import { el } from "./page.js";
import { plural, t } from "./i18n.js";

const COLOURS = ["red", "blue", "purple"];
const G = { key: null, picked: {}, queue: [] };

// The next queued move, once the page shows it as legal and is not waiting for an answer.
function step() {
  if (!G.queue.length) return;
  const button = document.querySelector(`#action-list button[data-action="${G.queue[0]}"]`);
  if (!button || button.disabled || document.body.dataset.sending) return;  // the next render retries
  G.queue.shift();
  button.click();
}

// The dialog for `view` (a Vale view) at the seat `ctx.seat`, or null when that seat is not
// discarding down to its stone limit now. Called by the Vale's renderer on every render.
export function stoneLimitChoice(view, ctx) {
  const pending = view.pending || {};
  const legal = (ctx.legal || []).filter((a) => a.startsWith("discard-stone "));
  if (pending.kind !== "stone_limit" || pending.chooser !== ctx.seat || ctx.seat === null || ctx.seat === undefined || !legal.length) {
    G.key = null;
    G.queue = [];
    return null;
  }
  const held = (view.stones || [])[ctx.seat] || {};
  const limit = (view.stone_limits || [])[ctx.seat] ?? 4;
  const total = COLOURS.reduce((sum, c) => sum + (held[c] || 0), 0);
  const need = Math.max(0, total - limit);
  const key = `${view.round}:${view.turn}:${pending.card || ""}`;
  if (G.key !== key) { G.key = key; G.picked = {}; G.queue = []; }
  if (G.queue.length) { setTimeout(step, 0); return el("p", { class: "note grouped-choice-busy" }, t("choose.stones.sending", { n: G.queue.length })); }
  const chosen = () => COLOURS.reduce((sum, c) => sum + (G.picked[c] || 0), 0);
  const box = el("section", { class: "zone grouped-choice", role: "group", "aria-labelledby": "grouped-choice-title", dataset: { need } });
  const count = el("p", { class: "grouped-choice-count", "aria-live": "polite" });
  const confirm = el("button", { type: "button", class: "primary grouped-choice-confirm", onclick: () => {
    G.queue = COLOURS.flatMap((c) => Array(G.picked[c] || 0).fill(`discard-stone ${c}`));
    G.picked = {};
    step();
  } }, plural(need, "choose.stones.confirm.one", "choose.stones.confirm.other"));
  const update = () => {
    count.textContent = plural(chosen(), "choose.stones.count.one", "choose.stones.count.other", { need });
    confirm.disabled = chosen() !== need;
    for (const row of box.querySelectorAll("[data-colour]")) {
      const c = row.dataset.colour;
      row.querySelector("output").textContent = String(G.picked[c] || 0);
      row.querySelector(".fewer").disabled = !(G.picked[c] > 0);
      row.querySelector(".more").disabled = (G.picked[c] || 0) >= (held[c] || 0) || chosen() >= need;
    }
  };
  const rows = COLOURS.filter((c) => held[c] > 0 && legal.includes(`discard-stone ${c}`)).map((c) => {
    const name = t(`vale.stone.${c}`);
    const change = (by) => () => { G.picked[c] = Math.max(0, (G.picked[c] || 0) + by); update(); };
    return el("li", { class: `grouped-choice-row stone-${c}`, dataset: { colour: c } },
      el("span", { class: "grouped-choice-name" }, plural(held[c], "choose.stones.held.one", "choose.stones.held.other", { stone: name })),
      el("button", { type: "button", class: "secondary small fewer", "aria-label": t("choose.fewer", { item: name }), onclick: change(-1) }, "−"),
      el("output", {}, "0"),
      el("button", { type: "button", class: "secondary small more", "aria-label": t("choose.more", { item: name }), onclick: change(1) }, "+"));
  });
  box.append(el("h3", { id: "grouped-choice-title" }, plural(need, "choose.stones.title.one", "choose.stones.title.other", { held: total, limit })),
    el("ul", { class: "grouped-choice-rows" }, ...rows), count, confirm);
  update();
  return box;
}
