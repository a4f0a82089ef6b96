// Cards drawn as inline SVG. Every card is a 70x100 picture with a coloured frame, a corner
// value, a centred name and an optional glyph; card backs are hatched. Each family, suit and
// tier has its emblem, a <symbol> defined once per page (installDefs). Every text is set at a
// size that reads at 11 CSS px or more at a laptop's width (FLOOR); a small card shows its
// name, cost and icons only, its words on its title and in its zoom. Interactive cards are
// wrapped in a <button> (keyboard and screen-reader friendly), the others in a <span role=img>.

import { t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== null && value !== undefined) node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Split a name into lines of about `width` characters (at most `max` lines; a cut text ends
// with an ellipsis when `ellipsis`).
export function wrap(text, width = 9, max = 3, ellipsis = false, words = /[\s-]+/, split = true) {
  const lines = [];
  let line = "";
  const pieces = [];
  for (const word of String(text).split(words)) {
    // a word longer than a line (a German compound) goes on over the next line, as a browser's
    // overflow-wrap does: never off the card, and its letters still read as the card's name
    // (in even parts: "Levia / than", not "Leviatha / n")
    const parts = split && width > 3 ? Math.max(1, Math.ceil(word.length / width)) : 1;
    const size = Math.max(1, Math.ceil(word.length / parts));
    pieces.push(word.slice(0, size));
    for (let i = size; i < word.length; i += size) pieces.push(word.slice(i, i + size));
  }
  for (const word of pieces) {
    if (line && (line + " " + word).length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  if (ellipsis && lines.length > max) lines[max - 1] = `${lines[max - 1].replace(/[.,;:]?$/, "")}…`;
  return lines.slice(0, max);
}

// A font size at most `size` at which `text` fits `width` units of a card (an estimate of the
// glyphs' widths: a long German name is set smaller instead of running off the card).
export function fitSize(text, size, width, bold = true) {
  const length = String(text).length || 1;
  return Math.min(size, Number((width / (length * (bold ? 0.62 : 0.56))).toFixed(2)));
}

export function glyph(shape, cx, cy, r, colour) {
  const common = { fill: colour, stroke: "#222", "stroke-width": 1.2 };
  switch (shape) {
    case "circle": return svg("circle", { cx, cy, r, ...common });
    case "square": return svg("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...common });
    case "triangle": return svg("polygon", { points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`, ...common });
    case "diamond": return svg("polygon", { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`, ...common });
    case "tree": return svg("g", { class: "tree" },
      svg("rect", { x: cx - 1, y: cy, width: 2, height: r, fill: "#6b4423" }),
      svg("polygon", { points: `${cx},${cy - r} ${cx + r * 0.8},${cy + r * 0.3} ${cx - r * 0.8},${cy + r * 0.3}`, fill: "#2e7d32" }));
    case "star": {
      const pts = [];
      for (let i = 0; i < 10; i++) {
        const rr = i % 2 ? r * 0.45 : r;
        const a = (Math.PI / 5) * i - Math.PI / 2;
        pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
      }
      return svg("polygon", { points: pts.join(" "), ...common });
    }
    default: return null;
  }
}

// Emblems drawn in a unit box (-1..1) and scaled: the families of The Vale and Eternity, the
// kinds of a Vale effect. Our own simple shapes, no artwork.
const EMBLEMS = {
  fire: { d: "M0,1 C-0.8,1 -0.85,0.1 -0.35,-0.35 C-0.35,0.05 -0.15,0.2 0,0.2 C-0.1,-0.3 0.2,-0.7 0.1,-1 C0.6,-0.6 0.85,0 0.8,0.35 C0.8,0.8 0.4,1 0,1 Z" },
  water: { d: "M0,-1 C0.45,-0.35 0.75,0.05 0.75,0.35 A0.75,0.65 0 0 1 -0.75,0.35 C-0.75,0.05 -0.45,-0.35 0,-1 Z" },
  earth: { d: "M-1,0.8 L-0.4,-0.45 L-0.05,0.15 L0.35,-0.85 L1,0.8 Z" },
  wind: { d: "M-0.95,-0.35 H0.35 A0.32,0.32 0 1 0 0.05,-0.75 M-0.95,0.1 H0.65 A0.3,0.3 0 1 1 0.4,0.45 M-0.95,0.55 H0.1", stroke: true },
  dragon: { d: "M-1,-0.3 L-0.35,-0.95 L-0.15,-0.35 L0,-0.7 L0.15,-0.35 L0.35,-0.95 L1,-0.3 L0.45,0.05 L0.2,0.9 L0,0.35 L-0.2,0.9 L-0.45,0.05 Z" },
  sea: { d: "M-1,-0.15 Q-0.5,-0.75 0,-0.15 T1,-0.15 M-1,0.5 Q-0.5,-0.1 0,0.5 T1,0.5", stroke: true },
  sky: { d: "M-0.85,0.55 A0.35,0.35 0 0 1 -0.6,-0.05 A0.45,0.45 0 0 1 0.2,-0.4 A0.42,0.42 0 0 1 0.85,0.1 A0.25,0.25 0 0 1 0.8,0.55 Z" },
  instant: { d: "M0.25,-1 L-0.6,0.15 L-0.05,0.15 L-0.25,1 L0.6,-0.2 L0.05,-0.2 Z", fill: "#ffca28" },
  permanent: { d: "M0,0 C-0.3,-0.5 -1,-0.5 -1,0 C-1,0.5 -0.3,0.5 0,0 C0.3,-0.5 1,-0.5 1,0 C1,0.5 0.3,0.5 0,0 Z", stroke: true, colour: "#90caf9" },
  chip: { d: "M-0.5,-0.5 H0.5 V0.5 H-0.5 Z M-0.35,-0.95 h0.22 v0.5 h-0.22 Z M0.13,-0.95 h0.22 v0.5 h-0.22 Z M-0.35,0.45 h0.22 v0.5 h-0.22 Z M0.13,0.45 h0.22 v0.5 h-0.22 Z M-0.95,-0.35 v0.22 h0.5 v-0.22 Z M-0.95,0.13 v0.22 h0.5 v-0.22 Z M0.45,-0.35 v0.22 h0.5 v-0.22 Z M0.45,0.13 v0.22 h0.5 v-0.22 Z" },
  resolution: { d: "M-0.6,-0.9 H0.6 L0,0 L0.6,0.9 H-0.6 L0,0 Z", fill: "#ffe0b2" },
  // the Vale's Artifacts: a cut gem for a tile, a pointing hand's arrow for an action tile
  artifact: { d: "M-0.95,-0.3 L-0.5,-0.85 H0.5 L0.95,-0.3 L0,0.95 Z M-0.95,-0.3 H0.95 M-0.5,-0.85 L-0.25,-0.3 L0,0.95 L0.25,-0.3 L0.5,-0.85", fill: "#ffd54f" },
  // Eternitium's Advanced tier (the Basic tier is the chip)
  star: { d: "M0.00,-1.20 L0.32,-0.44 L1.14,-0.37 L0.51,0.17 L0.71,0.97 L0.00,0.54 L-0.71,0.97 L-0.51,0.17 L-1.14,-0.37 L-0.32,-0.44 Z" },
  action: { d: "M-0.9,-0.25 H0.1 V-0.8 L0.95,0 L0.1,0.8 V0.25 H-0.9 Z", fill: "#a5d6a7" },
};

export function emblem(kind, cx, cy, r, colour) {
  const e = EMBLEMS[kind];
  if (!e) return null;
  // each emblem is a <symbol> drawn once in the page's defs (installDefs), used at any size
  const paint = e.stroke
    ? { fill: "none", stroke: e.colour || colour, "stroke-width": 2.2 / r * 1.8, "stroke-linecap": "round" }
    : { fill: e.fill || colour, stroke: "#222", "stroke-width": 1 / r };
  return svg("use", { href: `#eterna-emblem-${kind}`, x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: `emblem emblem-${kind}`, ...paint });
}

// A line of text at `size` or smaller to fit `width`, but never under `floor` (the size still
// read at the card's drawn width): a line a little too long at the floor is set condensed to the
// width (its letters as tall), a much longer one is cut with an ellipsis. `attrs` are the
// <text>'s size attributes.
export function fitLine(text, size, width, floor, bold = true) {
  const per = bold ? 0.62 : 0.56;
  const fitted = Math.max(floor, fitSize(text, size, width, bold));
  let line = String(text);
  const room = width / (fitted * per);
  const attrs = { "font-size": fitted };
  if (line.length > room * 1.35) line = `${line.slice(0, Math.max(1, Math.floor(room) - 1))}…`;
  else if (line.length > room) Object.assign(attrs, { textLength: width, lengthAdjust: "spacingAndGlyphs" });
  return { line, size: fitted, attrs };
}

// The smallest sizes (in the face's 70-unit width) that read at 11 CSS px at a laptop's width:
// a big face with words is drawn about 104 px wide, a number face 72 px, a small card with words
// 65 px and a small number or shape card 50 px (css: --card-w, --card-small).
const FLOOR = { rich: 7.6, plain: 11, smallRich: 12.2, smallPlain: 15.6 };

// A face with room for words (a Vale creature, an Eternitium technology): a coloured head band
// with the emblem and the cost, the name, effect icons and the effect text in small type.
function richFace(spec, colour) {
  const parts = [svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: spec.tint || "#fff", stroke: colour, "stroke-width": 3 }),
    svg("path", { d: "M1,8 A7,7 0 0 1 8,1 H62 A7,7 0 0 1 69,8 V23 H1 Z", fill: colour })];
  if (spec.emblem) {
    parts.push(svg("circle", { cx: 12, cy: 12, r: 8.5, fill: "#fff" }), emblem(spec.emblem, 12, 12, 6, colour));
  }
  if (spec.cornerRight !== undefined && spec.cornerRight !== null) {
    parts.push(svg("circle", { cx: 58, cy: 12, r: 8.5, fill: "#fff" }),
      svg("text", { x: 58, y: 12.5, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 11, "font-weight": 800, fill: colour, class: "card-cost" }, spec.cornerRight));
  }
  if (spec.emblem) {
    // the family's emblem large and faint behind the words: each family its own face
    parts.push(svg("use", { href: `#eterna-emblem-${spec.emblem}`, x: 13, y: 40, width: 44, height: 44, fill: colour, stroke: "none", opacity: 0.1, class: "watermark" }));
  }
  const names = wrap(spec.name || "", 13, 2, true, undefined, false);
  // the name's lines in one size: the one its longest line fits at
  const nameSize = Math.min(...names.map((line) => fitLine(line, names.length > 1 || line.length > 11 ? 8 : 9.5, 64, FLOOR.rich).size));
  names.forEach((line, i) => {
    const fit = fitLine(line, nameSize, 64, FLOOR.rich);
    parts.push(svg("text", { x: 35, y: 31 + i * 9 - (names.length - 1) * 2, "text-anchor": "middle", "dominant-baseline": "middle",
      ...fit.attrs, "font-weight": 700, fill: "#222", class: "card-name" }, fit.line));
  });
  let y = 32 + names.length * 9;
  const icons = spec.icons || [];
  icons.forEach((kind, i) => {
    const cx = 35 + (i - (icons.length - 1) / 2) * 14;
    parts.push(svg("circle", { cx, cy: y, r: 6.5, fill: "#37474f", class: `effect-icon effect-${kind}` }), emblem(kind, cx, y, 4.8, "#fff"));
  });
  if (icons.length) y += 11;
  // the zoom's large face takes the whole text in small type; on the table, never under the floor
  const size = spec.enlarged ? spec.textSize : Math.max(FLOOR.rich, spec.textSize || FLOOR.rich);
  const step = size * 1.18;
  const lines = wrap(spec.text || "", spec.textWidth || Math.floor(60 / (size * 0.56)), Math.floor((97 - y) / step), true, /\s+/);
  lines.forEach((line, i) => parts.push(svg("text", { x: 35, y: y + size * 0.5 + i * step, "text-anchor": "middle", "font-size": size, fill: "#263238", class: "card-text" }, line)));
  return parts;
}

// A face for a number (Eternity): the value in the corner and large in the middle, the family's
// emblem, one tree per tree the card carries along the foot (class `tree`), the family's name.
function valueFace(spec, colour) {
  const parts = [svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: spec.tint || "#fff", stroke: colour, "stroke-width": 3 }),
    svg("text", { x: 7, y: 18, "font-size": 16, "font-weight": 800, fill: colour }, spec.corner),
    spec.emblem ? emblem(spec.emblem, 56, 13, 8, colour) : null,
    spec.emblem ? svg("use", { href: `#eterna-emblem-${spec.emblem}`, x: 13, y: 23, width: 44, height: 44, fill: colour, stroke: colour, "stroke-width": 0.12, opacity: 0.09, class: "watermark" }) : null,
    svg("text", { x: 35, y: 45, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 30, "font-weight": 800, fill: colour, class: "card-value" }, spec.corner)];
  const trees = spec.trees || 0;
  for (let i = 0; i < trees; i++) parts.push(glyph("tree", 35 + (i - (trees - 1) / 2) * 20, 71, 9));
  // a small card shows its value and emblem only (the family is in its colour, label and title)
  if (spec.footer && !spec.small) {
    const fit = fitLine(spec.footer, 11, 62, FLOOR.plain);
    parts.push(svg("text", { x: 35, y: 94, "text-anchor": "middle", ...fit.attrs, fill: colour, "font-weight": 700 }, fit.line));
  }
  return parts;
}

// A small card with words (a claimed or discarded creature, a technology in a discard): the
// emblem and the cost in a tall head band, the name in large type and the effect icons; the
// text is on the card's title and in its zoom.
function smallRichFace(spec, colour) {
  const parts = [svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: spec.tint || "#fff", stroke: colour, "stroke-width": 3 }),
    svg("path", { d: "M1,8 A7,7 0 0 1 8,1 H62 A7,7 0 0 1 69,8 V29 H1 Z", fill: colour })];
  // the emblem and the cost at the corners, the middle of the band left to the zoom button
  if (spec.emblem) parts.push(svg("circle", { cx: 13, cy: 14, r: 10, fill: "#fff" }), emblem(spec.emblem, 13, 14, 7, colour));
  if (spec.cornerRight !== undefined && spec.cornerRight !== null) {
    parts.push(svg("circle", { cx: 57, cy: 14, r: 10, fill: "#fff" }),
      svg("text", { x: 57, y: 15, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 14, "font-weight": 800, fill: colour, class: "card-cost" }, spec.cornerRight));
  }
  const names = wrap(spec.name || "", 10, 3, true);
  const icons = spec.icons || [];
  const top = (icons.length ? 52 : 62) - (names.length - 1) * 7;
  names.forEach((line, i) => {
    const fit = fitLine(line, FLOOR.smallRich, 66, FLOOR.smallRich);
    parts.push(svg("text", { x: 35, y: top + i * 14, "text-anchor": "middle", "dominant-baseline": "middle", ...fit.attrs, "font-weight": 700, fill: "#222", class: "card-name" }, fit.line));
  });
  icons.forEach((kind, i) => {
    const cx = 35 + (i - (icons.length - 1) / 2) * 20;
    parts.push(svg("circle", { cx, cy: 86, r: 9, fill: "#37474f", class: `effect-icon effect-${kind}` }), emblem(kind, cx, 86, 6.5, "#fff"));
  });
  return parts;
}

/**
 * A card picture.
 * spec: {label (aria), colour (frame), tint (background), corner (top-left text), cornerRight,
 *        lines (centre text lines, or name to wrap), glyphs ([{shape, colour}]), footer, back (bool),
 *        backLabel, title (tooltip), highlight (bool)}
 */
export function cardSvg(spec) {
  const colour = spec.colour || "#555";
  const parts = [];
  if (spec.back) {
    parts.push(svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: "#2d3561", stroke: "#11163a", "stroke-width": 2 }));
    parts.push(svg("rect", { x: 7, y: 7, width: 56, height: 86, rx: 5, fill: "url(#eterna-hatch)", stroke: "#9fa8da", "stroke-width": 1 }));
    if (spec.backLabel) {
      const label = [svg("rect", { x: 9, y: 38, width: 52, height: 24, rx: 4, fill: "#fff", opacity: 0.85 })];
      const floor = spec.small ? FLOOR.smallPlain : FLOOR.rich;
      const lines = wrap(spec.backLabel, Math.max(4, Math.floor(54 / (floor * 0.62))), 2, true, undefined, false);
      if (lines.length > 1) label.push(svg("rect", { x: 7, y: 32, width: 56, height: 36, rx: 4, fill: "#fff", opacity: 0.85 }));
      lines.forEach((line, i, all) => {
        const fit = fitLine(line, Math.max(floor, 9), 54, floor, false);
        label.push(svg("text", { x: 35, y: 50 + (i - (all.length - 1) / 2) * (fit.size + 1), "text-anchor": "middle", "dominant-baseline": "middle", ...fit.attrs, "font-weight": 600, fill: "#11163a" }, fit.line));
      });
      parts.push(svg("g", { class: "back-label" }, label));
    }
    // a deck's emblem instead of its word where the card is drawn too narrow for the word (css)
    if (spec.backEmblem) {
      parts.push(svg("g", { class: "back-emblem" }, svg("circle", { cx: 35, cy: 50, r: 19, fill: "#fff", opacity: 0.92 }),
        emblem(spec.backEmblem, 35, 50, 13, spec.backColour || "#11163a")));
    }
  } else if (spec.rich && spec.small) {
    parts.push(...smallRichFace(spec, colour));
  } else if (spec.rich) {
    parts.push(...richFace(spec, colour));
  } else if (spec.valueFace) {
    parts.push(...valueFace(spec, colour).filter(Boolean));
  } else {
    parts.push(svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: spec.tint || "#fff", stroke: colour, "stroke-width": 3 }));
    if (spec.corner !== undefined && spec.corner !== null) {
      parts.push(svg("text", { x: 7, y: 18, "font-size": 16, "font-weight": 700, fill: colour }, spec.corner));
    }
    if (spec.cornerRight !== undefined && spec.cornerRight !== null) {
      parts.push(svg("circle", { cx: 57, cy: 13, r: 9, fill: colour }));
      parts.push(svg("text", { x: 57, y: 14, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 11, "font-weight": 700, fill: "#fff" }, spec.cornerRight));
    }
    if (spec.emblem) parts.push(svg("circle", { cx: 57, cy: 13, r: 9, fill: "#fff", stroke: colour, "stroke-width": 1.5 }), emblem(spec.emblem, 57, 13, 6.5, colour));
    const glyphs = spec.glyphs || [];
    // a small card shows its shapes only, larger (the words are on its label and title)
    const lines = spec.small ? [] : spec.lines || (spec.name ? wrap(spec.name) : []);
    const footer = spec.small ? null : spec.footer;
    glyphs.forEach((g, i) => {
      const cx = glyphs.length === 1 ? 35 : 22 + (26 * i) / Math.max(1, glyphs.length - 1);
      const r = spec.small ? (glyphs.length > 1 ? 13 : 20) : g.r || (glyphs.length > 1 ? 10 : 14);
      parts.push(glyph(g.shape, cx, lines.length ? 40 : 50, r, g.colour || colour));
    });
    // a card under others in a pile: its shape again in the corner the cards above leave in view
    if (spec.index) parts.push(glyph(spec.index.shape, 57, 15, 8, spec.index.colour));
    const top = glyphs.length ? 68 : 52 - (lines.length - 1) * 6;
    lines.forEach((line, i) => {
      const fit = fitLine(line, 12, 62, FLOOR.plain);
      parts.push(svg("text", { x: 35, y: top + i * 12, "text-anchor": "middle", "dominant-baseline": "middle", ...fit.attrs, "font-weight": 600, fill: "#222" }, fit.line));
    });
    if (footer) {
      const fit = fitLine(footer, FLOOR.plain, 62, FLOOR.plain);
      parts.push(svg("text", { x: 35, y: 93, "text-anchor": "middle", ...fit.attrs, fill: colour, "font-weight": 600 }, fit.line));
    }
  }
  const picture = svg("svg", { viewBox: "0 0 70 100", class: "card-svg", role: "img", "aria-label": spec.label || "" }, parts);
  if (spec.title) picture.prepend(svg("title", {}, spec.title));
  return picture;
}

/**
 * A card element. opts: {card (id), zone, onClick, legal (bool: a legal action names it),
 *   small, extraClass, badge (text shown over the corner)}
 */
export function cardElement(spec, opts = {}) {
  const classes = ["card"];
  if (opts.small) classes.push("small");
  if (opts.legal) classes.push("legal");
  if (spec.highlight) classes.push("highlight");
  if (spec.back) classes.push("back");
  if (opts.extraClass) classes.push(opts.extraClass);
  let node;
  if (opts.onClick) {
    node = document.createElement("button");
    node.type = "button";
    node.addEventListener("click", (event) => opts.onClick(event, node));
  } else {
    node = document.createElement("span");
    node.setAttribute("role", "img");
  }
  node.className = classes.join(" ");
  node.setAttribute("aria-label", spec.label || "");
  if (spec.title || (opts.small && spec.label)) node.title = spec.title || spec.label;
  if (opts.card) node.dataset.card = opts.card;
  if (opts.zone) node.dataset.zone = opts.zone;
  // the element carries the name: the picture's own texts are not read a second time
  const picture = cardSvg(opts.small ? { ...spec, small: true } : spec);
  picture.setAttribute("aria-hidden", "true");
  node.append(picture);
  if (opts.badge !== undefined && opts.badge !== null) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = String(opts.badge);
    node.append(badge);
  }
  if (!spec.zoom) return node;
  // A card with words can be seen large: its own small button (a click on the card still plays
  // it), a right click or a long press on the card.
  node.addEventListener("contextmenu", (event) => { event.preventDefault(); openZoom(spec, node); });
  const zoom = document.createElement("button");
  zoom.type = "button";
  zoom.className = "card-zoom";
  zoom.textContent = "i";
  const enlarge = t("common.enlargeCard", { name: spec.zoom.title || spec.name || "" });
  zoom.setAttribute("aria-label", enlarge);
  zoom.title = enlarge;
  zoom.addEventListener("click", () => openZoom(spec, zoom));
  const wrapper = document.createElement("span");
  wrapper.className = `card-wrap${opts.small ? " small" : ""}`;
  wrapper.append(node, zoom);
  return wrapper;
}

// The card large, with its full text, over the page: Escape, the close button or a click
// outside closes it, and the focus goes back where it was.
export function openZoom(spec, opener) {
  closeZoom();
  const z = spec.zoom;
  const box = document.createElement("div");
  box.id = "card-zoom";
  box.className = "card-zoom-overlay";
  const dialog = document.createElement("div");
  dialog.className = "card-zoom-dialog";
  dialog.setAttribute("role", "dialog");
  dialog.setAttribute("aria-modal", "true");
  dialog.setAttribute("aria-labelledby", "card-zoom-title");
  const picture = document.createElement("div");
  picture.className = "card-zoom-picture";
  // The Vale: the whole text on the large card, in smaller type; the words beside it then only
  // for screen readers, unless the text was too long for the face.
  const face = z.fullOnFace ? { ...spec, title: null, small: false, enlarged: true, text: z.text || spec.text, textSize: 4.4, textWidth: 27 } : { ...spec, title: null, small: false };
  picture.append(cardSvg(face));
  const cut = [...picture.querySelectorAll(".card-text")].some((line) => line.textContent.endsWith("…"));
  const title = document.createElement("h2");
  title.id = "card-zoom-title";
  title.textContent = z.title || spec.name || "";
  const meta = document.createElement("p");
  meta.className = "card-zoom-meta";
  meta.textContent = z.meta || "";
  const text = document.createElement("p");
  text.className = `card-zoom-text${z.fullOnFace && !cut ? " visually-hidden" : ""}`;
  text.textContent = z.text || "";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "card-zoom-close secondary";
  close.textContent = t("common.close");
  close.addEventListener("click", closeZoom);
  const words = document.createElement("div");
  words.className = "card-zoom-words";
  words.append(title, meta, text, close);
  dialog.append(picture, words);
  box.append(dialog);
  box.addEventListener("click", (event) => { if (event.target === box) closeZoom(); });
  box.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.stopPropagation(); closeZoom(); }
    if (event.key === "Tab") { event.preventDefault(); close.focus(); }  // the one control: keep the focus in
  });
  zoomOpener = opener || document.activeElement;
  document.body.append(box);
  close.focus();
}

let zoomOpener = null;

export function closeZoom() {
  const box = document.getElementById("card-zoom");
  if (!box) return;
  box.remove();
  if (zoomOpener && zoomOpener.isConnected) zoomOpener.focus();
  zoomOpener = null;
}

// The shared <defs> (the hatch of card backs, the emblems as symbols), once per page.
export function installDefs() {
  if (document.getElementById("eterna-defs")) return;
  const defs = svg("svg", { id: "eterna-defs", width: 0, height: 0, style: "position:absolute", "aria-hidden": "true" },
    svg("defs", {},
      svg("pattern", { id: "eterna-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 6, height: 6, fill: "#3f4a8a" }),
        svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#7986cb", "stroke-width": 2 })),
      Object.entries(EMBLEMS).map(([kind, e]) => svg("symbol", { id: `eterna-emblem-${kind}`, viewBox: "-1 -1 2 2", overflow: "visible" }, svg("path", { d: e.d })))));
  document.body.prepend(defs);
}
