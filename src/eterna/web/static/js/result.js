// The end of a game in words: seats ranked by the game's own win rule, the verdict (a solo game's
// mission succeeded or failed) and why the winners won.
import { t } from "./i18n.js";

// Seats best first: the winners, then by the game's ranking key (mod.rankKey: a list of numbers,
// larger is better), else by score.
export function rankSeats(mod, view, scores, winners) {
  const key = (s) => [winners.includes(s) ? 1 : 0,
    ...(mod && mod.rankKey && view ? mod.rankKey(view, s) : [Number(scores[s]) || 0])];
  const compare = (a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
      const d = (kb[i] || 0) - (ka[i] || 0);
      if (d) return d;
    }
    return a - b;
  };
  return scores.map((_, s) => s).sort(compare);
}

export function isSolo(view, table) {
  const players = view && view.players ? view.players : ((table && table.seats) || []).length;
  return players === 1;
}

export function verdict(view, table, winners, names) {
  if (isSolo(view, table)) return t(winners.length ? "table.missionSucceeded" : "table.missionFailed");
  return winners.length ? t("score.winners", { names: names.join(", ") }) : t("score.noWinner");
}

// Why: the game's own sentence (mod.resultReason), or none.
export function resultReason(mod, view, ctx, winners) {
  if (!mod || !mod.resultReason || !view) return "";
  return mod.resultReason(view, ctx, winners) || "";
}
