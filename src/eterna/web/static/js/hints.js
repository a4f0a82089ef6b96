// The columns of a hint table (the table page's and the position page's). A solo game with a
// goal (solo Eternitium: its candidates carry `left`) is valued by that goal: the share of the
// search's lines that reach it and what is left of it where they stop, in the game's words
// (Era cards left); any other game by its win chance and expected score.
import { t, tOr } from "./i18n.js";

const percent = (x) => (x === null || x === undefined ? "-" : `${Math.round(x * 100)}%`);
const number = (x) => (x === null || x === undefined ? "-" : Number(x).toFixed(1));

export function hintColumns(candidates, game) {
  const solo = (candidates || []).some((c) => c.left !== null && c.left !== undefined);
  if (solo) {
    return {
      solo,
      heads: [t("hint.success"), tOr(`hint.left.${game}`, t("hint.left"))],
      cells: (c) => [percent(c.win), number(c.left)],
    };
  }
  return { solo, heads: [t("hint.win"), t("hint.score")], cells: (c) => [percent(c.win), number(c.score)] };
}
