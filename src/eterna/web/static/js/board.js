// Drawing a view with a game's renderer: the context handed to it (names, clickable cards).
import { el, seatName } from "./page.js";
import { t, currentLanguage } from "./i18n.js";
import { cardElement } from "./cards.js";
import { matches } from "./games/common.js";
import { cardCounts, markNewCards } from "./motion.js";

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
  // The last card played, in a zone it can have gone to (not a hand); renderBoard keeps one.
  const isLast = (id, zone) => Boolean(opts.lastCard) && id === opts.lastCard && zone !== "hand"
    && (!mod.playedZones || mod.playedZones.includes(zone));
  const onCards = new Set();  // the legal moves a card (or a card's own button) makes
  const card = (spec, id, zone, extra = {}) => {
    const zoneSpec = mod.zones[zone];
    const actions = zoneSpec ? legal.filter((a) => matches(a, id, zoneSpec.rules)) : [];
    const clickable = opts.interactive && zoneSpec && (actions.length > 0 || zoneSpec.natural);
    // Verbs a plain click never sends (Eternity's pledge): each has its own button by the card.
    const explicit = (zoneSpec && zoneSpec.explicit) || [];
    const special = actions.filter((a) => explicit.includes(a.split(/\s+/)[0]));
    const plain = actions.filter((a) => !special.includes(a));
    const only = clickable && plain.length === 0 && special.length > 0;
    if (clickable) for (const a of actions) onCards.add(a);
    const classes = [extra.extraClass, only ? "only-explicit" : "", isLast(id, zone) ? "last-played" : ""];
    for (const a of special) if (only) classes.push(`${a.split(/\s+/)[0]}-only`);
    const node = cardElement(spec, {
      ...extra,
      extraClass: classes.filter(Boolean).join(" "),
      card: id,
      zone,
      legal: plain.length > 0,
      onClick: clickable ? (event, button) => opts.onCard(id, zone, plain, button, special) : null,
    });
    if (!clickable || !special.length) return node;
    if (only) face(node).setAttribute("aria-label", `${spec.label || ""}: ${special.map((a) => t(`table.onlyVerb.${a.split(/\s+/)[0]}`)).join(", ")}`);
    const verbs = special.map((a) => {
      const verb = a.split(/\s+/)[0];
      return el("button", { type: "button", class: `card-verb verb-${verb}`, title: opts.label ? opts.label(a) : a,
        dataset: { [verb]: id }, onclick: (event) => opts.onVerb(a, event.currentTarget, id, zone) }, t(`table.verb.${verb}`));
    });
    return el("span", { class: "card-slot" }, node, ...verbs);
  };
  return { seat, legal, name, card, onCards, lang: currentLanguage() };
}

// The card itself in what cardElement gives (a card with words comes wrapped with its zoom button).
function face(node) {
  return node.classList.contains("card") ? node : node.querySelector(".card") || node;
}

export function renderBoard(container, opts) {
  const ctx = makeContext(opts);
  const before = cardCounts(container);
  container.replaceChildren(opts.view ? opts.mod.render(opts.view, ctx) : el("p", {}, t("table.waitingView")));
  markNewCards(container, before);
  markLastPlayed(container, opts.mod.playedZones || []);
  return ctx;
}

// One card stays marked as the last played: the one in the zone the game names first (Eternity:
// the trick, before the last trick and the trump board the trick's pledges joined).
function markLastPlayed(container, zones) {
  const rank = (node) => (zones.includes(node.dataset.zone) ? zones.indexOf(node.dataset.zone) : zones.length);
  const marked = [...container.querySelectorAll(".card.last-played")].sort((a, b) => rank(a) - rank(b));
  marked.slice(1).forEach((node) => node.classList.remove("last-played"));
  if (marked.length) marked[0].setAttribute("aria-label", `${marked[0].getAttribute("aria-label") || ""} (${t("table.lastPlayed")})`);
}
