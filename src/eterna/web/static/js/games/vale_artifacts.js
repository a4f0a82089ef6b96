// The Vale of Eternity, Artifacts expansion: the glade of artifact tiles (who holds each, whom
// it is blocked for), each seat's tile and shelter, the areas bought. The view's `artifacts`
// (docs/vale.md, "The view"); nothing of it is drawn in a base game.
import { el } from "../page.js";
import { t, tOr, plural } from "../i18n.js";
import { cardElement } from "../cards.js";
import { row } from "./common.js";

const TILE_COLOUR = "#8d6e00";
const TILE_TINT = "#fff8e1";

// A tile's face, drawn like a creature's: the artifact emblem, the name, its timing as an icon
// (action, instant, permanent) and its text, all in the page's language.
// An effect's text on a face, where an icon already says its kind: the words after the kind's
// ("Instant: gain 3 points" under the instant icon reads "gain 3 points").
export function effectText(text, withIcon) {
  if (!withIcon) return text;
  const rest = String(text || "").replace(/^[^:\s]{1,12}\s?:\s*/, "");
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

export function tileSpec(data, tile, extra = {}) {
  const info = (data && data.tiles && data.tiles[tile]) || { name: tileName(data, tile), timing: "", text: "" };
  const timing = tOr(`vale.timing.${info.timing}`, info.timing);
  const meta = `${t("vale.artifact")} · ${timing}`;
  // the face: the tile's few words (vale.short.<tile>) after its timing's icon, else its text
  const face = info.short || effectText(info.text, info.timing);
  return {
    label: info.text ? `${info.name} (${meta}): ${face}${face !== info.text ? `. ${info.text}` : ""}` : `${info.name} (${meta})`,
    heading: `${info.name} (${meta})`,
    title: `${info.name} · ${meta}\n${info.text}`,
    colour: TILE_COLOUR, tint: TILE_TINT,
    rich: true, emblem: "artifact", icons: info.timing ? [info.timing] : [], text: face,
    name: info.name, footer: t("vale.artifact"),
    zoom: { title: info.name, meta, text: info.text, fullOnFace: true },
    ...extra,
  };
}

export function tileName(data, tile) {
  if (!tile) return "";
  if (data && data.tiles && data.tiles[tile]) return data.tiles[tile].name;
  return (data && data.names && data.names[tile]) || tile;
}

// The glade: every tile in play, with who holds it this round and whom it is blocked for.
export function glade(view, ctx, data) {
  const arts = view.artifacts;
  if (!arts) return null;
  const seats = [...Array(view.players).keys()];
  const tiles = arts.glade.map((tile) => {
    const holders = seats.filter((s) => arts.held[s] === tile);
    const blocked = seats.filter((s) => arts.blocked[s] === tile);
    const used = seats.filter((s) => arts.picked[s] === tile && arts.held[s] !== tile);
    const names = (list) => list.map(ctx.name).join(", ");
    // one line a state: held (or used and given back, or free), then whom it is blocked for
    const lines = [];
    if (holders.length) lines.push(el("span", { class: "tile-held" }, t("vale.heldBy", { names: names(holders) })));
    if (used.length) lines.push(el("span", { class: "tile-used" }, t("vale.usedBy", { names: names(used) })));
    if (!holders.length && !used.length) lines.push(el("span", { class: "tile-free" }, t(arts.picking === null ? "vale.tileUnheld" : "vale.tileFree")));
    if (blocked.length) lines.push(el("span", { class: "tile-blocked" }, t("vale.blockedFor", { names: names(blocked) })));
    return el("figure", { class: `played tile${holders.length ? " held" : ""}`, dataset: { tile } },
      ctx.card(tileSpec(data, tile), tile, "glade", { extraClass: holders.includes(ctx.seat) ? "held-mine" : "" }),
      el("figcaption", {}, ...lines));
  });
  const picking = arts.picking;
  return el("section", { class: "zone glade-zone" },
    el("h3", {}, t("vale.glade")),
    picking !== null && picking !== undefined ? el("p", { class: "note picking" }, t("vale.picking", { name: ctx.name(picking) })) : null,
    row("glade", tiles));
}

// One seat's artifact line: the tile it holds, its shelter (its own cards face up, another
// seat's as card backs, the ones every seat saw go in face up), and the areas it bought.
export function seatArtifacts(view, ctx, data, s, cardSpec) {
  const arts = view.artifacts;
  if (!arts) return null;
  const held = arts.held[s];
  const mine = s === ctx.seat;
  const heldLine = el("div", { class: "held-tile" },
    el("span", { class: "stat-label" }, t("vale.heldTile")), " ",
    held ? el("strong", {}, tileName(data, held)) : el("span", { class: "empty" }, t("common.none")));
  const size = arts.shelter_sizes[s] || 0;
  let cards;
  if (mine && arts.shelter) {
    cards = arts.shelter.map((c) => ctx.card(cardSpec(c), c, "shelter", { small: true }));
  } else {
    const known = (arts.known_shelters && arts.known_shelters[s]) || [];
    cards = known.map((c) => ctx.card(cardSpec(c), c, "others", { small: true }));
    for (let i = known.length; i < size; i++) {
      cards.push(cardElement({ back: true, label: t("vale.shelteredBack") }, { small: true, extraClass: "sheltered" }));
    }
  }
  return el("div", { class: "seat-artifacts" }, heldLine,
    el("div", { class: "area-label shelter-label" }, plural(size, "vale.shelter.one", "vale.shelter.other")),
    size ? row("shelter", cards) : null);
}

// The area line of a seat: its size out of its limit (the round plus the areas bought).
export function areaLine(view, s, count) {
  const arts = view.artifacts;
  if (!arts) return t("vale.area", { n: count, limit: view.area_limit });
  const bought = arts.bought_areas[s] || 0;
  const limit = arts.area_limits[s];
  return bought ? plural(bought, "vale.areaBought.one", "vale.areaBought.other", { n: count, limit, bought }) : t("vale.area", { n: count, limit });
}
