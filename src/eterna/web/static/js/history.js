// Finished games, newest first, each with a link to its replay: the games this browser played
// (its seats' links are remembered, mytables.js: private tables included) above the public ones.
import { setupPage, el, api, seatName, formatTime, pageReady } from "./page.js";
import { t, tOr } from "./i18n.js";
import { myTables, seatToken } from "./mytables.js";

const PAGE = 20;
let offset = 0;
const $ = (id) => document.getElementById(id);

// One finished table: when, game, players with their scores, result, and its replay link
// (`replay` null: the replay is for its players, and this browser holds no seat there).
function row(table, replay) {
  const scores = table.scores || [];
  const winners = table.winners || [];
  const players = (table.seats || []).map((s) => `${seatName(table, s.seat)}${scores[s.seat] !== undefined && scores[s.seat] !== null ? ` (${scores[s.seat]})` : ""}`).join(", ");
  const result = winners.length ? t("score.winners", { names: winners.map((s) => seatName(table, s)).join(", ") }) : t("score.noWinner");
  const link = replay
    ? el("a", { class: "button small", href: replay }, t("history.replay"))
    : el("span", { class: "note", title: t("history.privateHelp") }, t("history.private"));
  return el("tr", { dataset: { tableId: table.table_id } },
    el("td", {}, formatTime(table.finished_at || table.created_at)),
    el("td", {}, tOr(`game.${table.game}`, table.game)),
    el("td", {}, players),
    el("td", {}, result),
    el("td", {}, link));
}

const replayUrl = (id, token) => `/replay/${encodeURIComponent(id)}${token ? `?token=${encodeURIComponent(token)}` : ""}`;

// The games of this browser's tables that are over, with the token each seat link holds.
async function loadMine() {
  const section = $("history-mine-section");
  const asked = myTables().map((e) => ({ table_id: e.id, ...(seatToken(e.id) ? { token: seatToken(e.id) } : {}) }));
  if (!asked.length) { section.hidden = true; return; }
  let tables = [];
  try {
    tables = (await api("POST", "/api/history/mine", { tables: asked })).tables || [];
  } catch (error) {
    section.hidden = false;
    $("history-mine-rows").replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "note" }, error.message)));
    return;
  }
  section.hidden = !tables.length;
  $("history-mine-rows").replaceChildren(...tables.map((table) => {
    const token = table.public ? null : seatToken(table.table_id);
    return row(table, table.replay === "open" ? replayUrl(table.table_id, token) : null);
  }));
}

async function load() {
  const message = $("history-message");
  message.hidden = true;
  let rows;
  try {
    rows = await api("GET", `/api/history?limit=${PAGE}&offset=${offset}`);
  } catch (error) {
    message.textContent = error.message;
    message.hidden = false;
    return;
  }
  if (rows && !Array.isArray(rows)) rows = rows.tables || rows.items || [];
  const body = $("history-rows");
  if (!rows.length) {
    body.replaceChildren(el("tr", {}, el("td", { colspan: 5, class: "note" }, t("history.empty"))));
  } else {
    body.replaceChildren(...rows.map((table) => row(table, replayUrl(table.table_id, null))));
  }
  $("history-prev").disabled = offset === 0;
  $("history-next").disabled = rows.length < PAGE;
}

async function main() {
  await setupPage("history.title");
  $("history-prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
  $("history-next").addEventListener("click", () => { offset += PAGE; load(); });
  document.addEventListener("eterna:language", () => { loadMine(); load(); });
  await Promise.all([loadMine(), load()]);
  document.body.dataset.loaded = "true";
}

main().finally(pageReady);
