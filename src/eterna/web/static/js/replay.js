// A finished game move by move: the spectator view after each ply with every hand shown (the
// game is over), the move list beside the board (click to jump), the events each ply made told
// in words, prev/next/slider, stepping by event (one told sentence at a time, on into the next
// ply), the record.
import { setupPage, el, api, seatName, copyText, pageReady } from "./page.js";
import { t, tOr } from "./i18n.js";
import { installDefs } from "./cards.js";
import { gameModule } from "./games/index.js";
import { renderBoard } from "./board.js";
import { seatToken } from "./mytables.js";
import { shareShort } from "./share.js";

const parts = location.pathname.split("/").filter(Boolean);
const tableId = decodeURIComponent(parts[parts.length - 1]);
const $ = (id) => document.getElementById(id);
// A private table's replay and record are for its players: their seat token comes along (the
// link's, else the one this browser kept when it played there).
const token = new URLSearchParams(location.search).get("token") || seatToken(tableId);
const access = token ? `?token=${encodeURIComponent(token)}` : "";
const R = { table: null, mod: null, plies: 0, ply: 0, event: -1, frame: null, cache: new Map(), loading: null, moves: [] };
const base = () => `/api/tables/${encodeURIComponent(tableId)}/replay`;

// Every ply's label, in the page's language (the API answers in its Accept-Language); false
// when the replay is refused (the page then says why and offers nothing else).
async function loadMoves() {
  try { R.moves = (await api("GET", `${base()}${access}`)).moves || []; } catch (error) {
    R.moves = [];
    if (error.status >= 400 && error.status < 500) { refuse(error); return false; }
    showError(error.message);
  }
  const list = $("replay-moves");
  list.replaceChildren(...R.moves.map((m) => el("li", {},
    el("button", { type: "button", class: "move-jump", dataset: { ply: m.ply }, title: t("replay.jump", { ply: m.ply }), onclick: () => show(m.ply) },
      el("span", { class: "move-ply" }, `${m.ply}.`), " ", el("span", { class: "move-who" }, t("replay.who", { name: seatName(R.table, m.seat) })), " ", el("span", { class: "move-label" }, m.label)))));
  markMove();
  return true;
}

// The current ply's entry of the move list, kept in view.
function markMove() {
  for (const button of $("replay-moves").querySelectorAll("button.move-jump")) {
    const current = Number(button.dataset.ply) === R.ply;
    if (current) { button.setAttribute("aria-current", "step"); button.scrollIntoView({ block: "nearest" }); } else button.removeAttribute("aria-current");
  }
}

async function fetchPly(ply) {
  if (!R.cache.has(ply)) R.cache.set(ply, await api("GET", `${base()}/${ply}${access}`));
  return R.cache.get(ply);
}

// `at`: the told sentence to mark in that ply (-1 none, "last" its last one).
async function show(ply, at = -1) {
  if (document.body.dataset.refused) return;  // a refused replay has no step to show
  ply = Math.max(0, Math.min(R.plies, ply));
  R.ply = ply;
  $("replay-slider").value = String(ply);
  const token = Symbol("load");
  R.loading = token;
  let frame;
  try { frame = await fetchPly(ply); } catch (error) { showError(error.message); return; }
  if (R.loading !== token) return;
  R.frame = frame;
  const count = (frame.told || []).length;
  R.event = at === "last" ? count - 1 : Math.min(at, count - 1);
  if (typeof frame.plies === "number" && frame.plies !== R.plies) { R.plies = frame.plies; $("replay-slider").max = String(R.plies); }
  render();
}

function render() {
  const frame = R.frame;
  if (!frame) return;
  document.body.dataset.ply = String(R.ply);
  $("replay-position").textContent = t("replay.position", { ply: R.ply, plies: R.plies });
  const who = frame.seat === null || frame.seat === undefined ? "" : seatName(R.table, frame.seat);
  const said = R.moves[R.ply - 1];
  const action = said && said.ply === R.ply ? said.label : frame.action;
  const last = frame.action ? t("replay.lastAction", { action, name: who }) : t("replay.start");
  $("replay-action").textContent = last;
  $("replay-prev").disabled = R.ply <= 0;
  $("replay-first").disabled = R.ply <= 0;
  $("replay-next").disabled = R.ply >= R.plies;
  $("replay-last").disabled = R.ply >= R.plies;
  const seats = $("seats");
  const scores = (frame.view && frame.view.scores) || [];
  seats.replaceChildren(...(R.table.seats || []).map((s) => el("li", { class: `seat-chip${frame.view && frame.view.current_player === s.seat ? " current" : ""}`, dataset: { seat: s.seat } },
    el("span", { class: "seat-name" }, seatName(R.table, s.seat)), el("span", { class: "seat-score" }, scores[s.seat] !== undefined ? String(scores[s.seat]) : ""))));
  renderBoard($("board"), { mod: R.mod, view: frame.view, table: R.table, seat: null, interactive: false });
  $("replay-told").replaceChildren(...(frame.told || []).map((item) => el("li", { class: "told", dataset: { kind: item.kind } },
    ...item.text.split("\n").flatMap((line, i) => (i ? [el("br"), line] : [line])))));
  renderHands(frame.views || []);
  markMove();
  markEvent();
}

// The current told sentence (stepping by event), kept in view; the event buttons' limits.
function markEvent() {
  const items = [...$("replay-told").children];
  items.forEach((item, i) => {
    const current = i === R.event;
    item.classList.toggle("current", current);
    if (current) { item.setAttribute("aria-current", "true"); item.scrollIntoView({ block: "nearest" }); } else item.removeAttribute("aria-current");
  });
  $("replay-prev-event").disabled = R.ply <= 0 && R.event <= 0;
  $("replay-next-event").disabled = R.ply >= R.plies && R.event >= items.length - 1;
}

// One told sentence on; after a ply's last, the next ply's first (plies telling nothing passed).
async function nextEvent() {
  if (R.event < (R.frame?.told || []).length - 1) { R.event += 1; markEvent(); return; }
  let ply = R.ply;
  while (ply < R.plies) {
    ply += 1;
    await show(ply, 0);
    if (R.ply !== ply || R.event >= 0) return;
  }
}

// One told sentence back; before a ply's first, the previous ply's last.
async function prevEvent() {
  if (R.event > 0) { R.event -= 1; markEvent(); return; }
  let ply = R.ply;
  while (ply > 0) {
    ply -= 1;
    await show(ply, "last");
    if (R.ply !== ply || R.event >= 0) return;
  }
}

// Every seat's hand, from its own view: the hand zone its game draws, under the seat's name.
function renderHands(views) {
  const hands = $("replay-hands");
  const zones = views.map((view, seat) => {
    const drawn = el("div", {});
    // nothing to play in a replay: no card of the seat to move is marked playable
    renderBoard(drawn, { mod: R.mod, view: { ...view, legal_actions: [] }, table: R.table, seat, interactive: false });
    const zone = drawn.querySelector(".hand-zone");
    if (!zone) return null;
    zone.dataset.seat = String(seat);
    const title = zone.querySelector("h3");
    if (title) title.textContent = seatName(R.table, seat);
    return zone;
  }).filter(Boolean);
  hands.hidden = !zones.length;
  hands.replaceChildren(...(zones.length ? [el("h2", {}, t("replay.hands")), ...zones] : []));
}

// The whole position at the ply shown (the game is over: every card is known), copied as its
// share code, with a link to the position page that opens it.
async function copyPosition(event) {
  const button = event.currentTarget;
  const query = `?at=${R.ply}${token ? `&token=${encodeURIComponent(token)}` : ""}`;
  try {
    const got = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/position${query}`);
    await copyText(got.code, button);
    const link = $("position-link");
    link.href = `/position#${got.code}`;
    link.hidden = false;
    // beside it, the short link: the position stored with the players' names
    const names = (R.table.seats || []).map((s) => seatName(R.table, s.seat));
    const made = await shareShort(got.code, names);
    const short = $("position-short-link");
    short.href = made.url;
    short.hidden = false;
  } catch (error) { showError(error.message); }
}

function showError(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
}

async function main() {
  await setupPage("replay.title");
  installDefs();
  $("table-id").textContent = tableId;
  try {
    R.table = await api("GET", `/api/tables/${encodeURIComponent(tableId)}`);
  } catch (error) {
    if (error.status >= 400 && error.status < 500) refuse(error); else showError(error.message);
    return;
  }
  $("game-title").textContent = tOr(`game.${R.table.game}`, R.table.game);
  $("rules-link").href = `/rules/${R.table.game}`;
  $("replay-download").href = `/api/tables/${encodeURIComponent(tableId)}/record${access}`;
  $("replay-download").setAttribute("download", `eterna-${R.table.game}-${tableId}.json`);
  R.mod = await gameModule(R.table.game);
  R.plies = R.table.plies || 0;
  $("replay-slider").max = String(R.plies);
  $("replay-first").addEventListener("click", () => show(0));
  $("replay-prev").addEventListener("click", () => show(R.ply - 1));
  $("replay-next").addEventListener("click", () => show(R.ply + 1));
  $("replay-last").addEventListener("click", () => show(R.plies));
  $("replay-next-event").addEventListener("click", nextEvent);
  $("replay-copy-position").addEventListener("click", copyPosition);
  $("replay-prev-event").addEventListener("click", prevEvent);
  $("replay-slider").addEventListener("input", (e) => show(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT") return;
    if (e.key === "ArrowLeft") show(R.ply - 1);
    if (e.key === "ArrowRight") show(R.ply + 1);
  });
  document.addEventListener("eterna:language", async () => {
    await R.mod.load();
    R.cache = new Map();  // the told sentences and labels are in the page's language
    if (await loadMoves()) await show(R.ply, R.event);
  });
  if (!(await loadMoves())) return;
  await show(0);
}

// A replay the server refuses (a private table without its seat's token, a game not over, no
// such table): why, in words, and no controls that would only be refused again.
function refuse(error) {
  for (const part of document.querySelectorAll(".replay-controls, #replay-action, #seats, .replay-layout")) part.remove();
  const why = { private: "replay.refused.private", not_over: "replay.refused.notOver", not_found: "replay.refused.notFound" }[error.code];
  const box = $("message");
  box.replaceChildren(el("strong", {}, why ? t(why) : error.message));
  if (why && error.message) box.append(" ", el("span", { class: "note" }, error.message));
  if (error.code === "not_over") box.append(" ", el("a", { href: `/table/${encodeURIComponent(tableId)}` }, t("replay.refused.watch")));
  if (error.code === "private") box.append(" ", el("a", { href: "/history" }, t("replay.refused.history")));
  box.hidden = false;
  document.body.dataset.refused = error.code || "error";
}

main().finally(pageReady);
