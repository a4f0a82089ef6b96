// The Vale of Eternity: hunting board (revealed and claimed cards), hand, areas, stones per
// colour, scores, round and phase.
import { el } from "../page.js";
import { currentLanguage, t, tOr, plural } from "../i18n.js";
import { section, row, stat, aroundThePlay } from "./common.js";
import { glade, seatArtifacts, areaLine, tileName, tileSpec, effectText } from "./vale_artifacts.js";
import { stoneLimitChoice } from "../choose.js";

const FAMILY_COLOURS = { fire: "#d84315", water: "#1565c0", earth: "#6d4c41", wind: "#00897b", dragon: "#6a1b9a" };
const FAMILY_TINTS = { fire: "#fbe9e7", water: "#e3f2fd", earth: "#efebe9", wind: "#e0f2f1", dragon: "#f3e5f5" };
const STONE_COLOURS = { red: "#e53935", blue: "#1e88e5", purple: "#8e24aa" };
let data = null;
const loaded = new Map(); // language -> the card data in it (names and texts from the catalogs)

export async function load() {
  const lang = currentLanguage();
  if (!loaded.has(lang)) loaded.set(lang, await (await fetch(`/cards/vale/${lang}.json`)).json());
  data = loaded.get(lang);
  return data;
}

// One copy of each card, and a card is in one place: the card is always the action's second word.
const ANY = [["", 1]];
export const zones = {
  revealed: { rules: ANY, natural: "claim" },
  claimed: { rules: ANY, natural: "sell" },
  hand: { rules: ANY, natural: "summon" },
  area: { rules: ANY, natural: "resolve" },
  others: { rules: ANY, natural: null },
  // the Artifacts: a tile is picked or used, a sheltered card retrieved or discarded
  glade: { rules: [["pick", 1], ["use", 1]], natural: null },
  shelter: { rules: ANY, natural: null },
  discard: { rules: ANY, natural: null },
};

// A creature's face: family colour and emblem, cost, name, an icon per effect kind (instant,
// permanent, resolution) and the effect text; its zoom shows the whole text large.
export function cardSpec(card, extra = {}) {
  const info = (data && data.cards[card]) || { name: card, family: "", cost: "?", text: "", kinds: [] };
  const family = tOr(`vale.family.${info.family}`, info.family);
  const kinds = (info.kinds || []).map((k) => tOr(`vale.kind.${k}`, k)).join(", ");
  const meta = `${family} · ${t("vale.cost", { n: info.cost })}${kinds ? ` · ${kinds}` : ""}`;
  // the face: the effect's few words (its kind is the icon above them); the whole text on the
  // card's title and in its zoom
  const face = info.short ? shortFace(info.short, (info.kinds || []).length) : effectText(info.text, (info.kinds || []).length);

  return {
    // the name says what the face shows, its effect text too (what is drawn is in the name)
    label: info.text ? `${info.name} (${meta}): ${face}${face !== info.text ? `. ${info.text}` : ""}` : `${info.name} (${meta})`,
    heading: `${info.name} (${meta})`,
    title: `${info.name} · ${meta}\n${info.text}`,
    colour: FAMILY_COLOURS[info.family], tint: FAMILY_TINTS[info.family],
    rich: true, emblem: info.family, icons: info.kinds || [], text: face,
    cornerRight: info.cost, name: info.name, footer: family,
    zoom: { title: info.name, meta, text: info.text, fullOnFace: true },
    ...extra,
  };
}

// A short text's kind signs (⚡ instant, ∞ permanent, ⌛ resolution, as the terminal shows
// them) at the start of each part: the face draws them as its icons.
export function shortFace(short, icons) {
  if (!icons) return short;
  return short.split(" · ").map((part) => part.replace(/^[⚡∞⌛]\uFE0F?\s*/u, "")).join(" · ");
}

function cardName(card) {
  return (data && data.cards[card] && data.cards[card].name) || (data && data.names && data.names[card]) || card;
}

function stones(counts, values) {
  const out = el("span", { class: "stones" });
  for (const colour of ["red", "blue", "purple"]) {
    const n = counts ? counts[colour] || 0 : 0;
    // the stone's value is written on it (Agni makes a red stone worth 2), its count beside it
    const value = values ? values[colour] : "";
    const said = t("vale.stoneWorth", { n, stone: tOr(`vale.stone.${colour}`, colour), value });
    out.append(el("span", { class: "stone", title: said, role: "img", "aria-label": said },
      el("span", { class: "dot stone-value", style: `background:${STONE_COLOURS[colour]}`, "aria-hidden": "true" }, String(value)), el("span", { "aria-hidden": "true" }, `×${n}`)));
  }
  return out;
}

export function render(view, ctx) {
  const root = el("div", { class: "game vale" });
  root.append(el("div", { class: "infobar" },
    stat("vale.round", `${view.round}/${view.rounds}`),
    stat("vale.phase", tOr(`vale.phase.${view.phase}`, view.phase)),
    stat("vale.areaLimit", view.area_limit),
    stat("vale.endScore", view.end_score),
    stat("vale.firstPlayer", ctx.name(view.first_player)),
    stat("vale.deck", view.deck_count)));

  // Hunting board: the revealed cards left to claim and each seat's claims.
  const claims = [];
  (view.claimed || []).forEach((cards, s) => {
    for (const c of cards) {
      claims.push(el("figure", { class: "played" }, ctx.card(cardSpec(c), c, s === ctx.seat ? "claimed" : "others", { small: true }), el("figcaption", {}, ctx.name(s))));
    }
  });
  const center = el("div", {}, section("hunting", "vale.huntingBoard",
    row("revealed", (view.revealed || []).map((c) => ctx.card(cardSpec(c), c, "revealed"))),
    claims.length ? el("div", { class: "claims" }, el("h4", {}, t("vale.claimed")), row("", claims)) : null));

  const pending = view.pending || {};
  if (pending.kind) {
    // the card or artifact that asks, by its name in the page's language
    const source = pending.artifact ? tileName(data, pending.artifact) : pending.card ? cardName(pending.card) : "";
    const said = { name: ctx.name(pending.chooser), kind: tOr(`vale.pendingKind.${pending.kind}`, pending.kind), card: source };
    center.append(el("p", { class: "pending note" }, t(source ? "vale.pendingSource" : "vale.pending", said)));
  }
  const grouped = stoneLimitChoice(view, ctx); // discarding down to the limit: one dialog
  if (grouped) center.append(grouped);
  const tiles = glade(view, ctx, data); // null in a game without the Artifacts
  if (tiles) center.append(tiles);

  // The seats around the hunting board: score, stones, hand size, area.
  root.append(aroundThePlay(view, ctx, center, (s) => {
    const area = (view.areas[s] || []).map((c) => ctx.card(cardSpec(c, { highlight: (view.resolved || []).includes(c) }), c, s === ctx.seat ? "area" : "others", { small: true }));
    const known = s === ctx.seat ? [] : (view.known_hands ? view.known_hands[s] : []) || [];
    return el("div", { class: "vale-seat", dataset: { seat: s } },
      el("div", { class: "pile-head" }, el("strong", { class: "seat-title" }, ctx.name(s)), " ",
        stat("common.score", view.scores[s]),
        stones(view.stones[s], view.stone_values ? view.stone_values[s] : null),
        stat("vale.limit", view.stone_limits ? view.stone_limits[s] : 4),
        stat("vale.handSize", view.hand_sizes[s])),
      el("div", { class: "area-label" }, areaLine(view, s, area.length)),
      row("area", area),
      known.length ? el("p", { class: "note" }, t("vale.knownHand"), " ", known.map(cardName).join(", ")) : null,
      seatArtifacts(view, ctx, data, s, cardSpec));
  }, "vale-seats"));

  if (view.hand) {
    root.append(section("hand-zone", "common.yourHand", row("hand", view.hand.map((c) => ctx.card(cardSpec(c), c, "hand")))));
  }
  const arts = view.artifacts || {};
  root.append(cardTexts([...(view.revealed || []), ...(view.hand || []), ...(view.claimed || []).flat(), ...(view.areas || []).flat(),
    ...(arts.shelter || []), ...(arts.known_shelters || []).flat(), ...(view.discard || []).slice(-8)], arts.glade || []));
  const discard = view.discard || [];
  root.append(section("discard-zone", "vale.discard",
    discard.length ? el("p", { class: "note" }, plural(discard.length, "vale.discardCount.one", "vale.discardCount.other")) : null,
    row("", discard.slice(-8).map((c) => ctx.card(cardSpec(c), c, "discard", { small: true })))));
  return root;
}

// Every card in sight with its effect text: the cards' tooltips are out of reach on a touch
// screen. The box stays open or closed across the re-renders of each move.
let textsOpen = false;

function cardTexts(cards, tiles = []) {
  const unique = [...new Set(cards)];
  if (!unique.length && !tiles.length) return null;
  const list = el("dl", { class: "card-texts" });
  for (const [id, spec] of [...tiles.map((c) => [c, tileSpec(data, c)]), ...unique.map((c) => [c, cardSpec(c)])]) {
    // the whole text, its kind's word included (the face leaves that word to its icon)
    const full = (spec.zoom && spec.zoom.text) || spec.text;
    list.append(el("dt", { dataset: { card: id } }, spec.heading), el("dd", {}, full || "-"));
  }
  return el("details", { class: "zone card-texts-box", open: textsOpen, ontoggle: (e) => { textsOpen = e.target.open; } },
    el("summary", {}, t("vale.cardTexts", { n: unique.length + tiles.length })), list);
}

export function logExtras() {
  return [];
}

export function scoreDetails(view, ctx) {
  const table = el("table", { class: "rounds-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("common.player")), el("th", {}, t("vale.areaCards")))));
  const body = el("tbody");
  for (const s of ctx.order || [...Array(view.players).keys()]) body.append(el("tr", {}, el("th", {}, ctx.name(s)), el("td", {}, (view.areas[s] || []).length)));
  table.append(body);
  return table;
}

// The win rule (§10): most points, then more cards in the area, then a shared win.
export function rankKey(view, s) {
  return [Number(view.scores[s]) || 0, (view.areas[s] || []).length];
}

export function resultReason() {
  return t("table.reason.vale");
}
