// Eternity: hand, trump board (three columns, trump highlighted), current trick with pledges,
// the 3-player display, and per seat: trees against tricks, scores.
import { el } from "../page.js";
import { currentLanguage, t, plural } from "../i18n.js";
import { section, row, stat, folded, aroundThePlay } from "./common.js";
import { motionOK, sweepToSeat } from "../motion.js";

const COLOURS = { earth: "#2e7d32", sea: "#1565c0", sky: "#c62828" };
const TINTS = { earth: "#e8f5e9", sea: "#e3f2fd", sky: "#ffebee" };
let data = null;
const loaded = new Map(); // language -> the card data in it (names and texts from the catalogs)

export async function load() {
  const lang = currentLanguage();
  if (!loaded.has(lang)) loaded.set(lang, await (await fetch(`/cards/eternity/${lang}.json`)).json());
  data = loaded.get(lang);
  return data;
}

export function familyName(family, lang) {
  const info = data && data.families.find((f) => f.id === family);
  return info ? info.names[lang] || info.names.en : family;
}

export function trees(value) {
  const band = data ? data.trees_by_value.find((b) => value >= b.from && value <= b.to) : null;
  return band ? band.trees : value >= 10 ? 2 : value >= 5 ? 1 : 0;
}

// Click zones: every card is unique, so the card is the action's second word.
export const zones = {
  hand: { rules: [["", 1]], natural: "play", explicit: ["pledge"] },
};
// Where a played card can be seen: the trick, the last trick, or the trump board it joined.
export const playedZones = ["trick", "last", "board"];

export function cardSpec(card, lang, extra = {}) {
  const [family, valueText] = card.split("-");
  const value = Number(valueText);
  const n = trees(value);
  const fname = familyName(family, lang);
  return {
    label: `${fname} ${value}${n ? ` (${plural(n, "eternity.treesOnCard.one", "eternity.treesOnCard.other")})` : ""}`,
    colour: COLOURS[family], tint: TINTS[family],
    valueFace: true, emblem: family, trees: n, corner: value, footer: fname,
    ...extra,
  };
}

export function render(view, ctx) {
  const lang = ctx.lang;
  const root = el("div", { class: "game eternity" });
  root.append(el("div", { class: "infobar" },
    stat("eternity.round", `${view.round}/${view.rounds}`),
    stat("eternity.trick", `${Math.min(view.trick_number, view.tricks_per_round)}/${view.tricks_per_round}`),
    stat("eternity.harmony", view.harmony_bonus),
    stat("eternity.trump", view.trump ? familyName(view.trump, lang) : "-"),
    stat("eternity.pledgesLeft", view.pledges_left)));

  // Trump board: three columns in the board's order, the trump one highlighted (a pulse when
  // the trump has just changed); its cards as large as the trick's.
  const changed = seen.trump !== undefined && seen.trump !== view.trump && motionOK();
  seen.trump = view.trump;
  const columns = el("div", { class: "trump-board" });
  for (const family of view.columns) {
    const cards = (view.board[family] || []).map((c) => ctx.card(cardSpec(c, lang), c, "board"));
    const isTrump = family === view.trump;
    columns.append(el("div", { class: `column${isTrump ? " trump" : ""}${isTrump && changed ? " trump-changed" : ""}`, dataset: { family } },
      el("div", { class: "column-head", style: `background:${COLOURS[family]}` }, familyName(family, lang),
        isTrump ? el("span", { class: "trump-badge" }, " ★ ", t("eternity.trumpBadge")) : null,
        el("span", { class: "count" }, ` (${(view.board[family] || []).length})`)),
      el("div", { class: "column-cards" }, cards)));
  }
  const board = section("board-zone", "eternity.trumpBoard", columns);

  // The current trick: participating cards, then pledges.
  const trick = [];
  for (const play of view.trick) {
    trick.push(el("figure", { class: "played" }, ctx.card(cardSpec(play.card, lang), play.card, "trick"), el("figcaption", {}, ctx.name(play.seat))));
  }
  for (const pledge of view.pledges) {
    trick.push(el("figure", { class: "played pledge" }, ctx.card(cardSpec(pledge.card, lang), pledge.card, "trick"),
      el("figcaption", {}, t("eternity.pledgedBy", { name: ctx.name(pledge.seat) }))));
  }
  const led = view.led ? t("eternity.led", { family: familyName(view.led, lang) }) : "";
  const center = el("div", {}, section("trick-zone", "eternity.currentTrick", completedTrick(view, ctx), el("p", { class: "note" }, led), row("trick", trick)));

  if (view.last_trick) {
    const lt = view.last_trick;
    const cards = lt.cards.map((p) => el("figure", { class: "played" }, ctx.card(cardSpec(p.card, lang), p.card, "last", { small: true }), el("figcaption", {}, ctx.name(p.seat))));
    const pledges = (lt.pledges || []).map((p) => el("figure", { class: "played pledge" }, ctx.card(cardSpec(p.card, lang), p.card, "last", { small: true }), el("figcaption", {}, t("eternity.pledgedBy", { name: ctx.name(p.seat) }))));
    center.append(section("last-trick", null, el("h3", {}, t("eternity.lastTrick", { name: ctx.name(lt.winner) })), row("", [...cards, ...pledges])));
  }
  center.append(board);

  if (view.display && view.display.length) {
    center.append(folded("display", `${t("eternity.display")} · ${view.display.length}`, row("", view.display.map((c) => ctx.card(cardSpec(c, lang), c, "display", { small: true })))));
  }

  // The seats around the trick: each with its cards in hand, trees against tricks (harmony
  // when equal), its pledges in this trick and its score.
  // (a seat is a few numbers: every opponent sits across the top, the trick and the trump board
  // side by side below them on a laptop)
  center.classList.add("eternity-play");
  root.append(aroundThePlay(view, ctx, center, (s) => seatPanel(view, ctx, s), "", (n) => Array(n).fill("top")));

  if (view.round_results && view.round_results.length) {
    root.append(folded("rounds", t("eternity.roundResults"), el("div", { class: "table-scroll" }, roundsTable(view, ctx))));
  }

  if (view.hand) {
    const hand = view.hand.map((c) => ctx.card(cardSpec(c, lang), c, "hand"));
    // your trees against your tricks beside your hand: on a laptop your seat's panel sits below
    // the trick and the trump board, out of view under the docked hand while you hold cards
    const mine = ctx.seat === null || ctx.seat === undefined ? null
      : seatStats(view, ctx.seat, stat("common.score", view.scores[ctx.seat]));
    root.append(section("hand-zone", null, el("div", { class: "hand-head" }, el("h3", {}, t("common.yourHand")), mine),
      row("hand", hand)));
  }
  return root;
}

function seatPanel(view, ctx, s) {
  return el("section", { class: "eternity-seat", dataset: { seat: s }, "aria-label": ctx.name(s) },
    el("div", { class: "pile-head" }, el("strong", { class: "seat-title" }, ctx.name(s)), " ", stat("common.score", view.scores[s])),
    seatStats(view, s, stat("eternity.cards", view.hand_sizes[s])));
}

// A seat's trees against its tricks (harmony when equal) and its pledges in this trick.
function seatStats(view, s, first) {
  const harmony = view.trees[s] === view.tricks[s];
  const pledged = (view.pledges || []).filter((p) => p.seat === s).length;
  return el("div", { class: "seat-stats" },
    first,
    el("span", { class: "stat trees" }, el("span", { class: "stat-label" }, t("eternity.trees")), " ", el("strong", {}, String(view.trees[s]))),
    el("span", { class: "stat tricks" }, el("span", { class: "stat-label" }, t("eternity.tricks")), " ", el("strong", {}, String(view.tricks[s])),
      harmony ? el("span", { class: "harmony", title: t("eternity.harmonyHint") }, " ☯") : null),
    pledged ? stat("eternity.pledgesThisTrick", pledged) : null);
}

// What the last drawings showed: the trump, the last trick and until when it stays in the trick's
// place (a trick just won stays in view a moment, then is gathered, while the next move can
// already be made).
const seen = { trump: undefined, lastTrick: undefined, until: 0 };
const PAUSE = 1200;

function completedTrick(view, ctx) {
  const key = JSON.stringify(view.last_trick || null);
  if (seen.lastTrick !== undefined && key !== seen.lastTrick && view.last_trick) seen.until = Date.now() + PAUSE;
  seen.lastTrick = key;
  const left = seen.until - Date.now();
  if (left <= 0 || !view.last_trick) return null;
  const lt = view.last_trick;
  const figures = [...lt.cards.map((p) => [p, ctx.name(p.seat)]), ...(lt.pledges || []).map((p) => [p, t("eternity.pledgedBy", { name: ctx.name(p.seat) })])]
    .map(([p, caption]) => el("figure", { class: `played${p.seat === lt.winner && lt.cards.includes(p) ? " winner" : ""}` },
      ctx.card(cardSpec(p.card, ctx.lang), p.card, "gathered"), el("figcaption", {}, caption)));
  const box = el("div", { class: "completed-trick", role: "status" },
    el("p", { class: "completed-head" }, t("eternity.trickWon", { name: ctx.name(lt.winner) })), row("", figures));
  setTimeout(() => sweepToSeat(box, lt.winner, () => box.remove()), left);  // to its winner
  return box;
}

// A row per player, in the score sheet's order (as the other games' details), a column per round:
// narrow enough for a phone at five players, where a column per player was not.
function roundsTable(view, ctx) {
  const table = el("table", { class: "rounds-table" });
  table.append(el("thead", {}, el("tr", {}, el("th", {}, t("common.player")),
    ...view.round_results.map((_, i) => el("th", { class: "num" }, `${t("eternity.roundCol")} ${i + 1}`)))));
  const body = el("tbody");
  for (const s of ctx.order || [...Array(view.players).keys()]) {
    body.append(el("tr", {}, el("th", {}, ctx.name(s)), ...view.round_results.map((result) => {
      const r = result[s];
      return el("td", { class: "num", title: `${t("eternity.trees")} ${r.trees} · ${t("eternity.tricks")} ${r.tricks}` }, r.points, el("small", {}, ` (${r.trees}/${r.tricks})`));
    })));
  }
  table.append(body);
  return table;
}

// Extra lines for the game log that the events do not say: who won the trick that just ended.
export function logExtras(view, ctx, previous) {
  if (!previous || !view.last_trick) return [];
  if (JSON.stringify(previous.last_trick) === JSON.stringify(view.last_trick)) return [];
  return [t("eternity.trickWon", { name: ctx.name(view.last_trick.winner) })];
}

export function scoreDetails(view, ctx) {
  return view.round_results && view.round_results.length ? roundsTable(view, ctx) : null;
}

// Why the winners won (the end screen): the highest total, the round score rule.
export function resultReason(view) {
  return t("table.reason.eternity", { rounds: view.rounds });
}
