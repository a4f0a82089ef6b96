// The position page (/position#<share code>): paste a position, see it drawn as its seat (a whole
// position: as a spectator) with the game's own renderer, its legal moves in words, a hint from
// the search, and a table to play on from it against bots.
import { setupPage, el, api, copyText, absoluteUrl, pageReady } from "./page.js";
import { t, tOr, currentLanguage } from "./i18n.js";
import { installDefs } from "./cards.js";
import { gameModule } from "./games/index.js";
import { renderBoard } from "./board.js";
import { hintColumns } from "./hints.js";
import { sharedId, shareShort, loadShared } from "./share.js";

const $ = (id) => document.getElementById(id);
// names: the players' names a shared position came with (null: "Seat 1"...); shareId: the
// short id the page was opened on (its address is kept while that position is shown).
const P = { text: "", shown: null, mod: null, hint: null, names: null, shareId: null };

function showError(text, ...more) {
  const box = $("message");
  box.replaceChildren(...(text ? [el("div", {}, text), ...more] : []));
  box.hidden = !text;
}

// A refused position: the words in the page's language, then the field at fault and the
// server's specifics (English, as written in the position's docs).
function showRefusal(error) {
  if (error.code !== "bad_position") { showError(error.message); return; }
  const where = error.field ? t("position.field", { field: error.field }) : "";
  showError(error.message, el("div", {}, where, where ? " " : "", el("code", { class: "refusal-detail" }, error.detail || "")));
}

async function post(path, body) {
  try {
    return await api("POST", path, body);
  } catch (error) {
    showError(error.message);
    throw error;
  }
}

// api() keeps the message only; a bad position's field and detail come from the body itself.
async function inspect(text) {
  const response = await fetch("/api/positions/inspect", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Accept-Language": currentLanguage() },
    body: JSON.stringify({ position: text }),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) throw ((data && data.error) || { message: response.statusText });
  return data;
}

async function open(text, names = null) {
  text = text.trim();
  if (!text) return;
  showError("");
  P.hint = null;
  let shown;
  try { shown = await inspect(text); } catch (error) { $("position-shown").hidden = true; showRefusal(error); return; }
  P.text = text;
  P.names = names;
  if (names) shown.names = shown.names.map((name, seat) => names[seat] || name);
  P.shown = shown;
  $("position-short").hidden = true;
  P.mod = await gameModule(shown.game);
  $("rules-link").href = `/rules/${shown.game}`;
  if (!P.shareId && shown.code && (location.pathname !== "/position" || location.hash.slice(1) !== shown.code)) history.replaceState(null, "", `/position#${shown.code}`);
  render();
  $("position-shown").hidden = false;
  $("position-heading").focus();
}

function tableOf(shown) {
  return { game: shown.game, seats: shown.names.map((name, seat) => ({ seat, name, kind: "human" })) };
}

function render() {
  const shown = P.shown;
  if (!shown) return;
  const game = tOr(`game.${shown.game}`, shown.name);
  const table = tableOf(shown);
  const whose = shown.seat === null ? t("position.whole") : t("position.ofSeat", { name: shown.names[shown.seat] });
  $("position-heading").textContent = `${game} · ${whose}`;
  $("position-status").textContent = shown.over ? t("position.over") : t("position.toMove", { name: shown.names[shown.to_move] });
  $("position-guess").hidden = !shown.guess;
  const scores = shown.scores || [];
  $("seats").replaceChildren(...shown.names.map((name, seat) => el("li", { class: `seat-chip${shown.to_move === seat ? " current" : ""}`, dataset: { seat } },
    el("span", { class: "seat-name" }, seat === shown.seat ? `${name} (${t("common.you")})` : name), el("span", { class: "seat-score" }, scores[seat] !== undefined ? String(scores[seat]) : ""))));
  renderBoard($("board"), { mod: P.mod, view: { ...shown.view, legal_actions: [] }, table, seat: shown.seat, interactive: false });
  renderHands(shown.views || [], table);
  const moves = shown.moves || [];
  $("position-moves").replaceChildren(...moves.map((m) => el("li", { dataset: { notation: m.notation } }, m.label, " ", el("code", { class: "notation" }, m.notation))));
  $("position-no-moves").hidden = moves.length > 0 || shown.over;
  $("position-moves-title").textContent = moves.length ? t("position.movesOf", { name: shown.names[shown.to_move] }) : t("position.moves");
  $("position-hint").disabled = shown.over || (shown.seat !== null && shown.to_move !== shown.seat);
  $("position-play").disabled = shown.over;
  const you = shown.seat === null ? shown.to_move : shown.seat;
  $("position-play-note").textContent = shown.over ? t("position.over") : t("position.playNote", { name: shown.names[you] ?? "" });
  renderHint();
}

// A whole position knows every card: each seat's hand from its own view, as a replay shows
// them (the hand zone its game draws, under the seat's name).
function renderHands(views, table) {
  const zones = views.map((view, seat) => {
    const drawn = el("div", {});
    renderBoard(drawn, { mod: P.mod, view: { ...view, legal_actions: [] }, table, seat, interactive: false });
    const zone = drawn.querySelector(".hand-zone");
    if (!zone) return null;
    zone.dataset.seat = String(seat);
    const title = zone.querySelector("h3");
    if (title) title.textContent = P.shown.names[seat];
    return zone;
  }).filter(Boolean);
  const hands = $("position-hands");
  hands.hidden = !zones.length;
  hands.replaceChildren(...(zones.length ? [el("h3", {}, t("position.hands")), ...zones] : []));
}

function renderHint() {
  const box = $("hint");
  if (!P.hint) { box.replaceChildren(); return; }
  if (P.hint === "pending") { box.replaceChildren(el("p", { class: "note" }, t("table.thinking"))); return; }
  const columns = hintColumns(P.hint.candidates, P.shown.game);
  const rows = P.hint.candidates.map((c, i) => el("tr", { class: i === 0 ? "best" : "", dataset: { hintAction: c.action } },
    el("td", { title: c.action }, c.label),
    ...columns.cells(c).map((v) => el("td", {}, v)),
    el("td", {}, String(c.visits))));
  const table = el("table", { class: "hint-table" },
    el("thead", {}, el("tr", {}, el("th", {}, t("hint.action")), ...columns.heads.map((h) => el("th", {}, h)), el("th", {}, t("hint.visits")))),
    el("tbody", {}, ...rows));
  const best = P.hint.candidates[0];
  box.replaceChildren(
    el("p", { class: "hint-best" }, t("position.best", { name: P.shown.names[P.hint.seat], move: best ? best.label : "-" })),
    el("p", { class: "note" }, t("hint.explain", { n: P.hint.iterations })),
    // a region keyboard users can scroll when the table is wider than the column
    el("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": t("table.hint") }, table));
}

async function askHint() {
  const button = $("position-hint");
  button.disabled = true;
  P.hint = "pending";
  renderHint();
  try {
    P.hint = await post("/api/positions/hint", { position: P.text });
  } catch { P.hint = null; }
  button.disabled = false;
  renderHint();
}

// The short link of the position shown (with its players' names), stored by the server, copied.
async function shareIt(event) {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    const made = await shareShort(P.text, P.names);
    const box = $("position-short");
    box.value = absoluteUrl(made.url);
    box.hidden = false;
    await copyText(box.value, button);
  } catch (error) { showError(error.message); }
  button.disabled = false;
}

async function playOn() {
  const button = $("position-play");
  button.disabled = true;
  try {
    const made = await post("/api/positions/play", { position: P.text });
    location.href = made.url;
  } catch { button.disabled = false; }
}

async function main() {
  await setupPage("position.title");
  installDefs();
  $("position-form").addEventListener("submit", (event) => { event.preventDefault(); P.shareId = null; open($("position-text").value); });
  $("position-share").addEventListener("click", shareIt);
  $("position-hint").addEventListener("click", askHint);
  $("position-play").addEventListener("click", playOn);
  document.addEventListener("eterna:language", async () => {
    if (!P.text) return;
    if (P.mod) await P.mod.load();
    await open(P.text, P.names);  // the moves' words come in the page's language
  });
  const id = sharedId();
  if (id) {
    P.shareId = id;
    let found;
    try { found = await loadShared(id); } catch (error) { showError(error.message); return; }
    $("position-text").value = found.code;
    await open(found.code, found.names);
    return;
  }
  const code = decodeURIComponent(location.hash.slice(1));
  if (code) {
    $("position-text").value = code;
    await open(code);
  }
}

main().finally(pageReady);
