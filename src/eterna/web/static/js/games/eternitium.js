// Eternitium: hand, Era piles (hidden cards as backs, visible shapes), Portal reserve, Era display,
// Basic and Advanced markets, discard pile, solo AI cards, scores (technology points).
import { el } from "../page.js";
import { currentLanguage, t, tOr, plural } from "../i18n.js";
import { section, row, stat, aroundThePlay } from "./common.js";
import { motionOK } from "../motion.js";

const SHAPE_COLOURS = { circle: "#ef6c00", square: "#1565c0", triangle: "#2e7d32", diamond: "#8e24aa" };
const TIER_COLOURS = { basic: "#00838f", advanced: "#b8860b" };
let data = null;
const loaded = new Map(); // language -> the card data in it (names and texts from the catalogs)

export async function load() {
  const lang = currentLanguage();
  if (!loaded.has(lang)) loaded.set(lang, await (await fetch(`/cards/eternitium/${lang}.json`)).json());
  data = loaded.get(lang);
  return data;
}

// Card ids repeat across zones (a Droid in hand and one in the market), so a click matches only
// the verbs of its zone.
export const zones = {
  hand: { rules: [["play", 1], ["destroy", 1], ["keep", 1], ["discard", 1]], natural: "play" },
  market: { rules: [["acquire", 1], ["pick", 1], ["gift", 1], ["play laboratory", 2]], natural: "acquire" },
  reserve: { rules: [["take", 1]], natural: "take" },
  display: { rules: [["era", 1]], natural: "era" },
  victim: { rules: [["steal", 1]], natural: "steal" },
  discard: { rules: [["play recycler-robot", 2]], natural: null },
};
// Card ids repeat across zones: only the card in play is surely the one just played.
export const playedZones = ["inplay"];

function shapeName(shape) {
  return tOr(`eternitium.shape.${shape}`, shape);
}

// An Era card; `under` (a card under the top of a pile): a back without its word, a known shape
// in the top right corner only, the part the cards above it leave in view.
export function eraSpec(shape, under = false) {
  if (shape === "hidden") return { back: true, label: t("eternitium.hiddenEra"), backLabel: under ? null : t("eternitium.face.era") };
  const glyph = { shape, colour: SHAPE_COLOURS[shape] };
  return { label: t("eternitium.eraCard", { shape: shapeName(shape) }), colour: SHAPE_COLOURS[shape], tint: "#fffdf5", glyphs: under ? [] : [glyph], lines: [shapeName(shape)], footer: t("eternitium.face.era"),
    index: under ? glyph : null };
}

export function cardSpec(card) {
  if (card === "blind-basic" || card === "blind-advanced") {
    const tier = card.split("-")[1];
    return { back: true, label: t(`eternitium.blind.${tier}`), backLabel: t(`eternitium.tier.${tier}`),
      backEmblem: tier === "advanced" ? "star" : "chip", backColour: TIER_COLOURS[tier] };
  }
  if (card.startsWith("portal-")) {
    const shape = card.slice(7);
    return { label: (data && data.names[card]) || card, colour: SHAPE_COLOURS[shape], tint: "#f5f5ff", glyphs: [{ shape, colour: SHAPE_COLOURS[shape] }], lines: [t("eternitium.face.portal")], footer: shapeName(shape) };
  }
  const info = (data && data.cards[card]) || { name: card, tier: "basic", text: "" };
  if (card.startsWith("double-portal-")) {
    const shapes = card.slice(14).split("-");
    return { label: `${info.name} (${t(`eternitium.tier.${info.tier}`)}: ${shapes.map(shapeName).join(", ")})`, title: info.text, colour: TIER_COLOURS[info.tier], tint: "#f5f5ff",
      glyphs: shapes.map((s) => ({ shape: s, colour: SHAPE_COLOURS[s] })), lines: t("eternitium.face.doublePortal").split(" "), emblem: info.tier === "advanced" ? "star" : "chip" };
  }
  // A technology: its tier's colour, its points in the corner, its name and its effect at a
  // glance in a few words; the zoom shows the whole text.
  const tier = t(`eternitium.tier.${info.tier}`);
  const points = info.tier === "advanced" ? 2 : 1;
  const glance = tOr(`eternitium.glance.${card}`, "");
  return { label: `${info.name} (${tier}): ${glance || info.text}`, title: `${info.name}: ${info.text}`, colour: TIER_COLOURS[info.tier],
    tint: info.tier === "advanced" ? "#fff8e1" : "#e0f7fa", name: info.name, rich: true, cornerRight: points,
    emblem: info.tier === "advanced" ? "star" : "chip", text: glance, textSize: 7.6,
    zoom: { title: info.name, meta: `${tier} · ${points === 1 ? t("eternitium.pointOne") : t("eternitium.points", { n: points })}`, text: info.text } };
}

// The round and the turn as the log tells them ("Round 2, turn 4: Ada plays", "Round 12 is
// over"): the view counts the turns played from 0 and, once the game is over, the round after
// the last one; players count the turn being played from 1 and end on the last round played.
export function counters(view) {
  if (!view.is_terminal) return { round: view.round, turn: view.turn + 1 };
  return { round: view.players > 1 ? Math.max(1, view.round - 1) : view.round, turn: Math.max(1, view.turn) };
}

let seenEra = null;  // the Era cards left per seat at the last drawing

export function render(view, ctx) {
  const root = el("div", { class: "game eternitium" });
  const infos = [
    stat("eternitium.round", counters(view).round),
    stat("eternitium.turn", counters(view).turn),
    stat("eternitium.phase", tOr(`eternitium.phase.${view.phase}`, view.phase)),
  ];
  if (view.turns_left !== null && view.turns_left !== undefined) infos.push(stat("eternitium.turnsLeft", view.turns_left));
  if (view.mission) infos.push(stat("eternitium.mission", view.mission));
  if (view.last_turn && !view.is_terminal) infos.push(el("span", { class: "stat warn" }, t("eternitium.lastTurn")));
  root.append(el("div", { class: "infobar" }, infos));

  // The play in the middle: the card in play, a thief's pick, the markets, then the Portal
  // reserve and the common Era cards.
  const center = el("div", {});
  if (view.in_play) {
    center.append(section("in-play", "eternitium.inPlay", row("", [ctx.card(cardSpec(view.in_play), view.in_play, "inplay")])));
  }
  const pending = view.pending || {};
  if (pending.victim_discard) {
    center.append(section("victim", null, el("h3", {}, t("eternitium.victimDiscard", { name: ctx.name(pending.victim) })),
      row("", pending.victim_discard.map((c) => ctx.card(cardSpec(c), c, "victim", { small: true })))));
  }
  if (pending.mode) center.append(el("p", { class: "note" }, t("eternitium.analyserMode", { mode: pending.mode })));

  // Markets, each with the blind top card of its deck.
  const market = (tier, cards, size) => {
    const items = cards.map((c) => ctx.card(cardSpec(c), c, "market"));
    if (size > 0) items.push(ctx.card(cardSpec(`blind-${tier}`), `blind-${tier}`, "market", { badge: size }));
    return section(`market market-${tier}`, `eternitium.market.${tier}`, row("", items));
  };
  center.append(el("div", { class: "markets" }, market("basic", view.basic_row || [], view.basic_deck_size), market("advanced", view.advanced_row || [], view.advanced_deck_size)));

  // Portal reserve (or the mission 4 Portal row) and the common Era cards.
  const reserve = Object.entries(view.portal_reserve || {}).map(([shape, n]) =>
    ctx.card(cardSpec(`portal-${shape}`), `portal-${shape}`, "reserve", { small: true, badge: n }));
  const commons = [];
  const missionDeck = (view.portal_row && view.portal_row.length) || view.portal_deck_size > 0;
  if (!missionDeck) commons.push(section("reserve", "eternitium.portalReserve", row("", reserve)));
  else {
    commons.push(section("portal-row", "eternitium.portalRow", row("", (view.portal_row || []).map((c) => ctx.card(cardSpec(c), c, "reserve", { small: true }))),
      el("p", { class: "note" }, t("eternitium.portalDeck", { n: view.portal_deck_size }))));
  }
  const discardCounts = Object.entries(view.era_discard || {}).map(([shape, n]) => `${shapeName(shape)} ${n}`).join(" · ");
  commons.push(section("era-display", "eternitium.eraDisplay",
    row("", (view.era_display || []).map((shape) => ctx.card(eraSpec(shape), shape, "display", { small: true }))),
    el("p", { class: "note" }, t("eternitium.eraDeck", { n: view.era_deck_size }), " · ", t("eternitium.eraDiscard"), " ", discardCounts)));
  center.append(el("div", { class: "commons" }, commons));

  if (view.players === 1) {
    center.append(section("ai", "eternitium.aiCards", el("p", { class: "note" }, plural(view.ai_deck_size, "eternitium.aiDeck.one", "eternitium.aiDeck.other")),
      row("", (view.ai_cards || []).map((c) => ctx.card(cardSpec(c), c, "ai", { small: true })))));
  }

  // Each seat around the play with its Era pile, top first (the count of Era cards left pulses
  // when it drops), its gem, score, Advanced cards and hand/deck/discard.
  const before = seenEra;
  seenEra = [...(view.era_counts || [])];
  root.append(aroundThePlay(view, ctx, center, (s) => {
    const pile = view.era[s] || [];
    const left = stat("eternitium.eraLeft", view.era_counts[s]);
    if (before && view.era_counts[s] < before[s] && motionOK()) left.classList.add("pulse");
    const gem = view.gem && view.gem.includes(s);
    // the pile fanned to the right, its top card whole on the left with the pile's count
    const cards = pile.map((shape, i) => ctx.card(eraSpec(shape, i > 0), shape, `era-${s}`,
      { small: true, extraClass: i === 0 ? "top" : "under", badge: i === 0 ? view.era_counts[s] : null }));
    cards.forEach((node, i) => node.style.setProperty("--at", String(i)));  // each under the one before
    return el("div", { class: "era-pile", dataset: { seat: s } },
      el("div", { class: "pile-head" }, el("strong", { class: "seat-title" }, ctx.name(s)), " ",
        gem ? el("span", { class: "gem" }, "◆ ", t("eternitium.gem")) : null,
        left,
        stat("common.score", view.scores[s]),
        stat("eternitium.advanced", view.advanced_counts ? view.advanced_counts[s] : 0),
        stat("eternitium.handDeckDiscard", `${view.hand_sizes[s]}/${view.deck_sizes[s]}/${view.discard_sizes[s]}`)),
      el("div", { class: "cards era-row", style: `--pile: ${Math.max(1, cards.length)}` }, cards.length ? cards : el("span", { class: "empty" }, t("eternitium.noEra"))));
  }, "era-piles"));

  if (view.hand) {
    root.append(section("hand-zone", "common.yourHand", row("hand", view.hand.map((c) => ctx.card(cardSpec(c), c, "hand")))));
  }
  if (view.discard && view.discard.length) {
    root.append(section("discard-zone", "eternitium.yourDiscard", row("", view.discard.map((c) => ctx.card(cardSpec(c), c, "discard", { small: true })))));
  }
  return root;
}

export function logExtras() {
  return [];
}

export function scoreDetails(view, ctx) {
  const table = el("table", { class: "rounds-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("common.player")), el("th", {}, t("eternitium.gem")), el("th", {}, t("eternitium.eraLeft")), el("th", {}, t("eternitium.advanced")))));
  const body = el("tbody");
  for (const s of ctx.order || [...Array(view.players).keys()]) {  // in the score sheet's order
    const gem = view.gem && view.gem.includes(s);
    body.append(el("tr", {}, el("th", {}, ctx.name(s)), el("td", { class: gem ? "gem" : "" }, gem ? "◆" : "-"),
      el("td", {}, view.era_counts[s]), el("td", {}, view.advanced_counts ? view.advanced_counts[s] : "")));
  }
  table.append(body);
  return table;
}

// The win rule: the gem finders, then technology points, then Advanced cards.
export function rankKey(view, s) {
  return [view.gem && view.gem.includes(s) ? 1 : 0, Number(view.scores[s]) || 0, view.advanced_counts ? view.advanced_counts[s] : 0];
}

export function resultReason(view, ctx, winners) {
  if (view.players === 1) return winners.length ? t("table.reason.soloWon") : t("table.reason.soloLost", { n: view.turn });
  const finders = (view.gem || []).map((s) => ctx.name(s));
  return finders.length ? t("table.reason.gem", { names: finders.join(", ") }) : t("table.reason.noGem");
}
