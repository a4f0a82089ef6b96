// Cards drawn as inline SVG. Every card is a 70x100 picture with a coloured frame, a corner
// value, a centred name and an optional glyph; card backs are hatched. Interactive cards are
// wrapped in a <button> (keyboard and screen-reader friendly), the others in a <span role=img>.

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

// Split a name into lines of about `width` characters (at most three lines).
export function wrap(text, width = 9) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(/[\s-]+/)) {
    if (line && (line + " " + word).length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.slice(0, 3);
}

export function glyph(shape, cx, cy, r, colour) {
  const common = { fill: colour, stroke: "#222", "stroke-width": 1.2 };
  switch (shape) {
    case "circle": return svg("circle", { cx, cy, r, ...common });
    case "square": return svg("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...common });
    case "triangle": return svg("polygon", { points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`, ...common });
    case "diamond": return svg("polygon", { points: `${cx},${cy - r} ${cx + r},${cy} ${cx},${cy + r} ${cx - r},${cy}`, ...common });
    case "tree": return svg("g", {},
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
      parts.push(svg("rect", { x: 9, y: 38, width: 52, height: 24, rx: 4, fill: "#fff", opacity: 0.85 }));
      wrap(spec.backLabel, 10).slice(0, 2).forEach((line, i, all) => parts.push(
        svg("text", { x: 35, y: 50 + (i - (all.length - 1) / 2) * 10, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 9, "font-weight": 600, fill: "#11163a" }, line)));
    }
  } else {
    parts.push(svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: spec.tint || "#fff", stroke: colour, "stroke-width": 3 }));
    if (spec.corner !== undefined && spec.corner !== null) {
      parts.push(svg("text", { x: 7, y: 18, "font-size": 16, "font-weight": 700, fill: colour }, spec.corner));
    }
    if (spec.cornerRight !== undefined && spec.cornerRight !== null) {
      parts.push(svg("circle", { cx: 57, cy: 13, r: 9, fill: colour }));
      parts.push(svg("text", { x: 57, y: 14, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": 11, "font-weight": 700, fill: "#fff" }, spec.cornerRight));
    }
    const glyphs = spec.glyphs || [];
    glyphs.forEach((g, i) => {
      const cx = glyphs.length === 1 ? 35 : 22 + (26 * i) / Math.max(1, glyphs.length - 1);
      parts.push(glyph(g.shape, cx, spec.lines || spec.name ? 40 : 50, g.r || (glyphs.length > 1 ? 10 : 14), g.colour || colour));
    });
    const lines = spec.lines || (spec.name ? wrap(spec.name) : []);
    const top = glyphs.length ? 68 : 52 - (lines.length - 1) * 6;
    lines.forEach((line, i) => parts.push(
      svg("text", { x: 35, y: top + i * 12, "text-anchor": "middle", "dominant-baseline": "middle", "font-size": line.length > 8 ? 9.5 : 11, "font-weight": 600, fill: "#222" }, line)));
    if (spec.footer) {
      parts.push(svg("text", { x: 35, y: 93, "text-anchor": "middle", "font-size": 8.5, fill: colour, "font-weight": 600 }, spec.footer));
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
  if (spec.title) node.title = spec.title;
  if (opts.card) node.dataset.card = opts.card;
  if (opts.zone) node.dataset.zone = opts.zone;
  // the element carries the name: the picture's own texts are not read a second time
  const picture = cardSvg(spec);
  picture.setAttribute("aria-hidden", "true");
  node.append(picture);
  if (opts.badge !== undefined && opts.badge !== null) {
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = String(opts.badge);
    node.append(badge);
  }
  return node;
}

// The shared <defs> (the hatch of card backs), once per page.
export function installDefs() {
  if (document.getElementById("eterna-defs")) return;
  const defs = svg("svg", { id: "eterna-defs", width: 0, height: 0, style: "position:absolute", "aria-hidden": "true" },
    svg("defs", {},
      svg("pattern", { id: "eterna-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        svg("rect", { width: 6, height: 6, fill: "#3f4a8a" }),
        svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#7986cb", "stroke-width": 2 }))));
  document.body.prepend(defs);
}
