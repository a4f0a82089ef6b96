// Drawing a view with a game's renderer: the context handed to it (names, clickable cards).
import { el, seatName } from "./page.js";
import { t, currentLanguage } from "./i18n.js";
import { cardElement } from "./cards.js";
import { matches } from "./games/common.js";

/**
 * opts: {mod, view, table, seat, interactive, onCard(card, zone, actions, node)}
 * A card is clickable when interactive and its zone is one the game lets the player click.
 */
export function makeContext(opts) {
  const { mod, view, table, seat } = opts;
  const legal = (view && view.legal_actions) || [];
  const name = (s) => {
    if (s === null || s === undefined) return "-";
    const base = seatName(table, s);
    return s === seat ? `${base} (${t("common.you")})` : base;
  };
  const card = (spec, id, zone, extra = {}) => {
    const zoneSpec = mod.zones[zone];
    const actions = zoneSpec ? legal.filter((a) => matches(a, id, zoneSpec.rules)) : [];
    const clickable = opts.interactive && zoneSpec && (actions.length > 0 || zoneSpec.natural);
    return cardElement(spec, {
      ...extra,
      card: id,
      zone,
      legal: actions.length > 0,
      onClick: clickable ? (event, node) => opts.onCard(id, zone, actions, node) : null,
    });
  };
  return { seat, legal, name, card, lang: currentLanguage() };
}

export function renderBoard(container, opts) {
  const ctx = makeContext(opts);
  container.replaceChildren(opts.view ? opts.mod.render(opts.view, ctx) : el("p", {}, t("table.waitingView")));
  return ctx;
}
