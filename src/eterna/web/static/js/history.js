// Finished games, newest first, each with a link to its replay.
import { setupPage, el, api, seatName, formatTime, pageReady } from "./page.js";
import { t, tOr } from "./i18n.js";

const PAGE = 20;
let offset = 0;
const $ = (id) => document.getElementById(id);

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
    body.replaceChildren(...rows.map((table) => {
      const scores = table.scores || [];
      const winners = table.winners || [];
      const players = (table.seats || []).map((s) => `${seatName(table, s.seat)}${scores[s.seat] !== undefined ? ` (${scores[s.seat]})` : ""}`).join(", ");
      const result = winners.length ? t("score.winners", { names: winners.map((s) => seatName(table, s)).join(", ") }) : t("score.noWinner");
      return el("tr", { dataset: { tableId: table.table_id } },
        el("td", {}, formatTime(table.finished_at || table.created_at)),
        el("td", {}, tOr(`game.${table.game}`, table.game)),
        el("td", {}, players),
        el("td", {}, result),
        el("td", {}, el("a", { class: "button small", href: `/replay/${encodeURIComponent(table.table_id)}` }, t("history.replay"))));
    }));
  }
  $("history-prev").disabled = offset === 0;
  $("history-next").disabled = rows.length < PAGE;
}

async function main() {
  await setupPage("history.title");
  $("history-prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); });
  $("history-next").addEventListener("click", () => { offset += PAGE; load(); });
  document.addEventListener("eterna:language", load);
  load();
}

main().finally(pageReady);
