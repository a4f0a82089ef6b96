// The table page: one WebSocket to the table, a view per update, clickable legal moves.
import { setupPage, el, api, seatName, copyText, absoluteUrl, pageReady } from "./page.js";
import { t, tOr, currentLanguage } from "./i18n.js";
import { installDefs } from "./cards.js";
import { gameModule } from "./games/index.js";
import { renderBoard, makeContext } from "./board.js";
import { rankSeats, verdict, resultReason, isSolo } from "./result.js";
import { setupMoves, foldMoves, keepFocus, menuKeys, dockRoom } from "./keys.js";
import { renderWaiting } from "./waiting.js";
import { turnSignal, soundOn, setSound, flyFromSeat } from "./motion.js";
import { hintColumns } from "./hints.js";
import { keepOpen } from "./connection.js";

const parts = location.pathname.split("/").filter(Boolean);
const tableId = decodeURIComponent(parts[parts.length - 1]);
const token = new URLSearchParams(location.search).get("token");

const S = {
  seat: null, table: null, view: null, ply: null, mod: null, link: null, dropped: false,
  log: [], logKeys: new Set(), told: new Map(), labels: new Map(), refusal: null, hint: null, hintPending: false, deadline: null,
  stopped: false, sending: false, message: null, connected: false, closedTurn: null, refusedOffline: false,
  clicked: null, refusalShown: null, lastCard: null, endShown: false, besideCards: [],
};
// At most this many moves no card makes (Pass, End turn, Skip) and the cards are still the moves.
const FEW_BESIDE_CARDS = 3;

const $ = (id) => document.getElementById(id);

function showMessage(text, kind = "error") {
  S.message = text ? { text, kind } : null;
  const box = $("message");
  box.replaceChildren();
  box.className = `message ${kind}`;
  box.hidden = !text;
  if (text) {
    box.append(el("span", { class: "message-text" }, text),
      el("button", { type: "button", class: "close", "aria-label": t("common.close"), onclick: () => showMessage(null) }, "×"));
  }
}

function name(s) {
  if (s === null || s === undefined) return "-";
  const base = seatName(S.table, s);
  return s === S.seat && S.seat !== null ? `${base} (${t("common.you")})` : base;
}

// --- the socket -------------------------------------------------------------------------------

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let lang = currentLanguage();
  S.link = keepOpen({
    // the server tells the events, labels the moves and words refusals in the page's language
    url: () => {
      lang = currentLanguage();
      const query = `?lang=${encodeURIComponent(lang)}${token ? `&token=${encodeURIComponent(token)}` : ""}`;
      return `${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`;
    },
    // body[data-words]: the language the connection tells the game in (the page's, once it is open)
    onOpen: () => {
      S.connected = true;
      S.dropped = false;
      document.body.dataset.words = lang;
      if (S.message && S.message.offline) showMessage(null);  // "not connected" is no longer true
      render();  // the turn and its moves are offered again, as they were before the drop
    },
    onFrame,
    onClose: (event) => {
      S.connected = false;
      S.sending = false;
      if (event.code === 4404) { S.stopped = true; showMessage(t("table.unknownTable")); }
      else if (event.code === 4403) { S.stopped = true; showMessage(t("table.badToken")); }
      else S.dropped = true;  // a restarting node (1012), a lost one (1006): back in a moment
      if (S.dropped && myTurn() && S.closedTurn === null) S.closedTurn = S.ply;  // see draw()
      if (S.dropped) closeChoice();  // a card's menu of moves: none can be sent now
      if (S.table) render();  // nothing offered while nothing can be sent (the status says why)
      else renderConnection();
      return S.stopped;
    },
  });
}

function send(frame) {
  if (!S.link || !S.link.send(frame)) {
    // In the reconnecting banner, in its own place: a line in the page's flow would push the
    // table down under the player's pointer. Before the first connection, the page's message.
    if (reconnecting()) { refuseOffline(); return false; }
    showMessage(t("table.notConnected"));
    S.message.offline = true;  // taken back once the connection is open again
    return false;
  }
  return true;
}

// A move tried while reconnecting (a key, a menu left open): why nothing was sent, said in the
// reconnecting banner.
function refuseOffline() { S.refusedOffline = true; renderConnection(); }

function act(action) {
  if (S.seat === null) { showMessage(t("table.spectatorCannotPlay")); return; }
  if (reconnecting()) { closeChoice(); refuseOffline(); return; }  // says why, sends nothing
  closeChoice();
  showMessage(null); // the last refusal is answered by this new try
  S.refusal = null;
  if (send({ type: "act", action, ply: S.ply })) {
    S.sending = true;
    document.body.dataset.sending = "1";
    renderActions();
  }
}

function onFrame(frame) {
  switch (frame.type) {
    case "welcome":
      S.seat = frame.seat === undefined ? null : frame.seat;
      S.table = frame.table;
      document.body.dataset.seat = S.seat === null ? "spectator" : String(S.seat);
      ensureModule().then(render);
      break;
    case "update": {
      S.table = frame.table || S.table;
      const previous = S.view;
      const previousPly = S.ply;
      if (frame.ply !== S.ply) { S.hint = null; S.hintPending = false; S.sending = false; }
      S.view = frame.view || S.view;
      S.ply = frame.ply;
      // A node that does not drive the table may not know the turn's deadline (null): after a
      // reconnect at the same ply, the one this page was told still holds (the driver re-arms
      // the timer where it stood); a table waiting for a player or over has none.
      const kept = frame.ply === previousPly && !isOver() && !waiting() ? S.deadline : null;
      S.deadline = frame.deadline || kept;
      S.labels = new Map((frame.moves || []).map((m) => [m.notation, m.label]));
      if (frame.ply !== previousPly) S.refusal = null;
      const told = Array.isArray(frame.told);  // the server tells the events in words
      if (told) addTold(frame);
      else seedLog(frame);
      for (const event of frame.events || []) addLog(`${event.ply}`, event.seat, event.action);
      noteLastCard(frame.events || [], S.view);
      // the cards this update brings into play fly in from the seat that moved last
      if (previous) S.flyFrom = [...(frame.events || [])].reverse().find((e) => e.action)?.seat ?? null;
      ensureModule().then(() => {
        if (!told) for (const line of S.mod.logExtras(S.view, makeContext({ mod: S.mod, view: S.view, table: S.table, seat: S.seat }), previous)) addLog(`${frame.ply}w`, null, null, line);
        if (S.message && S.message.kind !== "error") showMessage(null);
        render();
      });
      break;
    }
    case "presence":  // only who holds and who is connected at each seat changed
      if (S.table) { S.table = { ...S.table, seats: frame.seats }; ensureModule().then(render); }
      break;
    case "error":
      S.sending = false;
      S.hintPending = false;
      // a double click: the first click was played, the second is stale; nothing to say
      if (frame.code === "illegal_action") S.refusal = frame;  // a refused move: said by the moves
      else if (frame.code !== "stale") showMessage(errorText(frame));
      renderActions();
      break;
    case "hint":
      S.hint = frame;
      S.hintPending = false;
      renderActions();
      break;
    case "rematch":
      if (S.seat !== null && frame.url) location.href = frame.url;
      else if (frame.url) { S.table = { ...S.table, rematch: frame.table_id }; S.rematchUrl = frame.url; render(); }
      break;
    default:
      break;
  }
}

// The server says every error in the page's language (`message`); `detail` is its English
// specifics, kept for the tooltip of a refused move and for bug reports.
function errorText(frame) {
  return frame.message || tOr(`error.${frame.code}`, frame.code || "");
}

async function ensureModule() {
  if (!S.mod && S.table) S.mod = await gameModule(S.table.game);
  return S.mod;
}

// Told events (n: their index in the game) with, for those of a move seen live, the move in
// notation as their detail.
function addTold(frame) {
  const moves = (frame.events || []).filter((e) => e.action);
  const move = moves.length === 1 ? moves[0] : null;
  for (const item of frame.told) {
    if (S.told.has(item.n)) continue;
    const title = move ? `${move.ply}. ${name(move.seat)}: ${move.action}` : item.kind;
    S.told.set(item.n, { n: item.n, kind: item.kind, text: item.text, title, ply: move ? move.ply : null });
  }
}

// The card the last move named (its second word), marked on the board.
function noteLastCard(events, view) {
  let moves = events.filter((e) => e.action);
  // a page that connects mid-round: the view's log of the round (Eternity, The Vale)
  if (!moves.length && S.lastCard === null && view && Array.isArray(view.log)) moves = view.log.filter((e) => e.action);
  if (moves.length) S.lastCard = moves[moves.length - 1].action.split(/\s+/)[1] || null;
}

function label(notation) {
  return S.labels.get(notation) || notation;
}

function addLog(key, seat, action, text) {
  if (S.logKeys.has(key)) return;
  S.logKeys.add(key);
  S.log.push({ key, seat, action, text, order: parseInt(key, 10) + (text ? 0.5 : 0) });
  S.log.sort((a, b) => a.order - b.order);
}

// Moves played before this page connected (or while it was away): the view's own log of the
// round (Eternity, The Vale) lists them, the last one being the update's ply.
function seedLog(frame) {
  const log = frame.view && Array.isArray(frame.view.log) ? frame.view.log : null;
  if (!log || typeof frame.ply !== "number") return;
  const moves = log.filter((entry) => entry.action);
  let ply = frame.ply - moves.length;
  for (const entry of log) {
    if (entry.action) {
      ply += 1;
      addLog(`${ply}`, entry.seat, entry.action);
    } else if (entry.trick_won_by !== undefined && ply > 0) {
      addLog(`${ply}w`, null, null, t("eternity.trickWon", { name: name(entry.trick_won_by) }));
    }
  }
}

// --- rendering --------------------------------------------------------------------------------

function isOver() {
  return Boolean((S.view && S.view.is_terminal) || (S.table && S.table.status === "over"));
}

function myTurn() {
  return Boolean(S.view && S.view.legal_actions && S.view.legal_actions.length && !isOver() && !waiting());
}

// The socket dropped and the page is dialling again: no move can be sent meanwhile.
function reconnecting() { return Boolean(S.dropped && !S.connected && !S.stopped); }

// Not every human seat is taken yet: nothing moves (docs/web.md, "Waiting for players").
function waiting() { return Boolean(S.table && S.table.waiting && !isOver()); }

function render() {
  if (S.table) keepFocus(draw);
}

function draw() {
  document.body.dataset.game = S.table.game;
  document.body.dataset.ply = S.ply === null ? "" : String(S.ply);
  document.body.dataset.status = isOver() ? "over" : "playing";
  document.body.dataset.myTurn = myTurn() ? "1" : "0";
  if (reconnecting()) document.body.dataset.connection = "lost";
  else delete document.body.dataset.connection;
  if (S.sending) document.body.dataset.sending = "1";
  else delete document.body.dataset.sending;
  $("game-title").textContent = S.table.game ? tOr(`game.${S.table.game}`, S.table.game) : "";
  $("rules-link").href = `/rules/${S.table.game}`;
  $("spectator-note").hidden = S.seat !== null;
  $("position-copy").hidden = S.seat === null || !token;
  renderStatus();
  renderSeats();
  if (S.mod) {
    homeRefusal();  // out of the board before it is redrawn
    const drawn = renderBoard($("board"), {
      mod: S.mod, view: S.view, table: S.table, seat: S.seat,
      interactive: S.seat !== null && !isOver() && !waiting(),
      onCard, onVerb, label, lastCard: S.lastCard,
    });
    if (S.flyFrom !== null && S.flyFrom !== undefined) { flyFromSeat($("board"), S.flyFrom); S.flyFrom = null; }
    // the cards stay where they are (the same buttons, nothing redrawn differently), unclickable
    if (reconnecting()) for (const node of $("board").querySelectorAll("button.card, button.card-verb")) node.disabled = true;
    // The cards are the moves when a click on a card makes every move but a few (Pass, End
    // turn): a phone folds the moves panel away, those few stay as buttons in its head.
    const legal = (S.view && S.view.legal_actions) || [];
    S.besideCards = legal.filter((a) => !drawn.onCards.has(a));
    const cardMoves = S.besideCards.length < legal.length && S.besideCards.length <= FEW_BESIDE_CARDS;
    document.body.dataset.cardMoves = cardMoves ? "1" : "0";
    foldMoves(cardMoves);
  }
  drawActions();
  renderLog();
  renderScoresheet();
  renderConnection();
  dockRoom();
  const game = tOr(`game.${S.table.game}`, S.table.game || "");
  const offered = myTurn() && !reconnecting();
  // the turn offered again after a drop is the same turn (the same ply): no second beep for it
  turnSignal(offered, `${t("table.title")} · Eterna`, t("table.turnTitle", { game }), S.closedTurn !== S.ply);
  if (offered || !myTurn()) S.closedTurn = null;
}

function renderStatus() {
  const status = $("status");
  // while reconnecting the line keeps at least the width it had: shorter words would let the
  // seats after it (and, wrapped, the table below) move up under the player's pointer
  if (reconnecting() && !status.style.minWidth) status.style.minWidth = `${status.getBoundingClientRect().width}px`;
  else if (!reconnecting()) status.style.minWidth = "";
  status.className = "status";
  if (!S.view) { status.textContent = t("table.connecting"); return; }
  renderWaiting(status, { table: S.table, seat: S.seat, token, onError: (text) => showMessage(text) });
  if (isOver()) {  // the verdict with it: who won, or the mission's outcome
    const winners = (S.table && S.table.winners) || S.view.winners || [];
    status.textContent = `${t("table.gameOver")} · ${verdict(S.view, S.table, winners, winners.map((s) => name(s)))}`;
    status.classList.add("over");
    return;
  }
  if (waiting()) { status.textContent = t("table.waitingPlayers"); status.classList.add("waiting"); return; }
  if (reconnecting()) { status.textContent = t("table.statusReconnecting"); status.classList.add("offline"); }
  else if (myTurn()) { status.textContent = t("table.yourTurn"); status.classList.add("mine"); }
  else status.textContent = t("table.waitingFor", { name: name(S.view.current_player) });
  if (S.deadline) status.append(" ", el("span", { id: "countdown", class: "countdown" }));
  // the creator chose the deal: they could know every hand in advance
  if (S.table && S.table.seed_chosen && !$("seed-note")) status.after(el("p", { id: "seed-note", class: "note seed-chosen" }));
  if ($("seed-note")) $("seed-note").textContent = t("lobby.seedChosen");  // in the page's language
  tickCountdown();
}

function tickCountdown() {
  const node = document.getElementById("countdown");
  if (!node || !S.deadline) return;
  const left = Math.max(0, Math.round(S.deadline - Date.now() / 1000));
  node.textContent = t("table.secondsLeft", { n: left });
}
setInterval(tickCountdown, 1000);

// The banner while the socket is away (after it was open once): it reconnects by itself; the
// button tries at once rather than at the end of the back-off. A move tried meanwhile (a key, a
// menu left open) is told in its words: nothing was sent (the turn line says "Reconnecting…").
function renderConnection() {
  const box = $("connection");
  box.hidden = !reconnecting();
  if (box.hidden) S.refusedOffline = false;
  box.setAttribute("role", "status");
  const words = S.refusedOffline
    ? el("span", { id: "not-sent", class: "message-text" }, t("table.notConnected"))
    : el("span", { class: "message-text" }, t("table.reconnecting"));
  box.replaceChildren(words, el("button", { type: "button", id: "reconnect-now", class: "secondary small", onclick: () => S.link && S.link.retryNow() },
    el("span", { class: "reconnect-word" }, t("table.reconnectNow"))));
}

// The banner's place, kept for it (eterna.css): the header's free middle on a wide screen, the
// table head's top right corner, beside the game's name, on a phone, whose header has no room.
const PHONE = matchMedia("(max-width: 700px)");
function placeConnection() {
  const slot = $("connection-slot");
  if (PHONE.matches) document.querySelector(".table-head > h1").after(slot);
  else document.querySelector(".topbar .lang").before(slot);
}

function renderSeats() {
  const list = $("seats");
  list.replaceChildren();
  const scores = (S.view && S.view.scores) || S.table.scores || [];
  for (const seat of S.table.seats || []) {
    const s = seat.seat;
    const current = S.view && !isOver() && S.view.current_player === s;
    // this page's own seat is not connected while it reconnects, whatever the last update said
    const connected = seat.connected && !(s === S.seat && reconnecting());
    list.append(el("li", { class: `seat-chip${current ? " current" : ""}${s === S.seat ? " me" : ""}`, dataset: { seat: s } },
      el("span", { class: `dot ${seat.kind === "bot" || connected ? "on" : "off"}`, title: seat.kind === "bot" ? t("common.botSeat") : connected ? t("table.connected") : t("table.disconnected") }),
      el("span", { class: "seat-name" }, name(s)),
      // the "bot" tag only where the name does not say it already (a bot named by the host)
      seat.kind === "bot" && seat.name && seat.name !== String(seat.agent || "").split(":")[0].trim() ? el("span", { class: "tag" }, t("common.botTag")) : null,
      el("span", { class: "seat-score" }, scores[s] !== undefined ? String(scores[s]) : "")));
  }
}

function onCard(card, zone, actions, node, explicit = []) {
  S.clicked = { card, zone };
  if (actions.length === 1) { act(actions[0]); return; }
  if (actions.length > 1) { openChoice(actions, node); return; }
  // a card whose only moves need their own button (a pledge): a plain click sends nothing
  if (explicit.length) { refuseHere(explicit); return; }
  const natural = S.mod.zones[zone] && S.mod.zones[zone].natural;
  if (natural) act(`${natural} ${card}`);
}

// A card's explicit move (its Pledge button): sent as it is.
function onVerb(action, node, card, zone) {
  S.clicked = { card, zone };
  act(action);
}

// A refusal the page says itself, in the page's language, where the refused click was.
function refuseHere(explicit) {
  closeChoice();
  const verb = explicit[0].split(/\s+/)[0];
  S.refusal = { type: "error", code: "illegal_action", message: t(`table.onlyVerbHow.${verb}`, { button: t(`table.verb.${verb}`) }), detail: "" };
  renderActions();
}

// The refusal box sits under the clicked card's row (scrolled into view), else by the moves.
let refusalBox = null;
function homeRefusal() {
  refusalBox = refusalBox || $("refusal");
  if (refusalBox && refusalBox.parentNode !== $("moves-body")) $("action-list").after(refusalBox);
}

function placeRefusal() {
  homeRefusal();
  if (!refusalBox || !S.refusal) return;
  const clicked = S.clicked && document.querySelector(`#board [data-zone="${CSS.escape(S.clicked.zone)}"][data-card="${CSS.escape(S.clicked.card)}"]`);
  const anchor = clicked && (clicked.closest(".cards") || clicked);
  if (anchor) anchor.after(refusalBox);
  refusalBox.classList.toggle("near", Boolean(anchor));
  if (S.refusalShown !== S.refusal) {
    S.refusalShown = S.refusal;
    refusalBox.scrollIntoView({ block: "nearest" });
  }
}

function openChoice(actions, anchor) {
  closeChoice();
  const menu = el("div", { id: "choice", class: "choice-menu", role: "menu", "aria-label": t("table.chooseAction") },
    el("p", {}, t("table.chooseAction")),
    ...actions.map((a) => el("button", { type: "button", role: "menuitem", class: "action", title: a, dataset: { choice: a }, onclick: () => act(a) }, label(a))),
    el("button", { type: "button", class: "secondary", onclick: () => { closeChoice(); if (document.contains(anchor)) anchor.focus(); } }, t("common.cancel")));
  document.body.append(menu);
  menuKeys(menu, anchor, closeChoice);
  const rect = anchor.getBoundingClientRect();
  const top = Math.min(window.innerHeight - menu.offsetHeight - 8, rect.bottom + 4);
  const left = Math.max(8, Math.min(window.innerWidth - menu.offsetWidth - 8, rect.left));
  menu.style.top = `${Math.max(8, top)}px`;
  menu.style.left = `${left}px`;
  menu.querySelector("button").focus();
}

function closeChoice() {
  const menu = document.getElementById("choice");
  if (menu) menu.remove();
}
document.addEventListener("keydown", (event) => { if (event.key === "Escape") closeChoice(); });

function renderActions() {
  keepFocus(drawActions);
}

function drawActions() {
  const panel = $("actions");
  const list = $("action-list");
  const hintButton = $("hint-button");
  const legal = (S.view && S.view.legal_actions) || [];
  panel.hidden = S.seat === null || isOver();
  $("skip-moves").hidden = panel.hidden;
  const button = (a, extra = "") => el("button", { type: "button", class: `action${extra}`, title: a, dataset: { action: a }, disabled: S.sending || waiting() || reconnecting(), onclick: () => { S.clicked = null; act(a); } }, label(a));
  list.replaceChildren(...legal.map((a) => button(a)));
  // the moves no card makes, in the panel's head while the cards are the moves (css)
  $("moves-quick").replaceChildren(...(document.body.dataset.cardMoves === "1" ? S.besideCards || [] : []).map((a) => button(a, " small")));
  markLongList();
  const refusal = $("refusal");
  refusal.hidden = !S.refusal;
  refusal.replaceChildren();
  if (S.refusal) {
    const rule = S.refusal.rule ? ` (${S.refusal.rule})` : "";
    refusal.title = S.refusal.detail || "";
    refusal.append(el("strong", {}, tOr(`error.${S.refusal.code}`, S.refusal.code)), `: ${S.refusal.message}${rule}`);
  }
  placeRefusal();
  // While reconnecting, in the room of the words it replaces (the moves below stay put): they stay
  // in the note, unseen, under the new ones (eterna.css), so the room holds at every width and
  // whether or not the panel is folded (a room measured at each drawing was lost when a retry
  // drew the page while a phone's panel was folded, and the moves moved up).
  const note = $("actions-note");
  const words = legal.length ? t("table.pickAction") : t("table.notYourTurn");
  if (reconnecting() && legal.length > 0) {
    note.replaceChildren(el("span", {}, t("table.movesReconnecting")), el("span", { class: "kept-room", "aria-hidden": "true" }, words));
  } else note.textContent = words;
  hintButton.disabled = !legal.length || S.hintPending || reconnecting();
  const hintBox = $("hint");
  hintBox.replaceChildren();
  if (S.hintPending) hintBox.append(el("p", { class: "note" }, t("table.thinking")));
  if (S.hint && S.hint.candidates) {
    const columns = hintColumns(S.hint.candidates, S.table && S.table.game);
    const table = el("table", { class: "hint-table" },
      el("thead", {}, el("tr", {}, el("th", {}, t("hint.action")), ...columns.heads.map((h) => el("th", {}, h)), el("th", {}, t("hint.visits")))));
    const body = el("tbody");
    S.hint.candidates.forEach((c, i) => {
      body.append(el("tr", { class: i === 0 ? "best" : "" },
        el("td", {}, el("button", { type: "button", class: "action small", title: c.action, dataset: { hintAction: c.action }, disabled: !legal.includes(c.action) || reconnecting(), onclick: () => { S.clicked = null; act(c.action); } }, label(c.action))),
        ...columns.cells(c).map((v) => el("td", {}, v)),
        el("td", {}, c.visits)));
    });
    table.append(body);
    hintBox.append(el("p", { class: "note" }, t("hint.explain", { n: S.hint.iterations || "" })), el("div", { class: "table-scroll" }, table));
  }
}

// Whether the list of moves scrolls (its last moves out of sight): the head then shows the
// moves no card makes.
function markLongList() {
  const list = $("action-list");
  $("actions").classList.toggle("list-scrolls", list.scrollHeight > list.clientHeight + 1);
}
new ResizeObserver(markLongList).observe($("action-list"));  // shown, hidden, the window resized

function renderLog() {
  const list = $("log");
  if (S.told.size) {
    const told = [...S.told.values()].sort((a, b) => a.n - b.n);
    list.replaceChildren(...told.map((entry) => el("li", { class: "told", title: entry.title, dataset: { n: entry.n, kind: entry.kind, ...(entry.ply === null ? {} : { ply: entry.ply }) } },
      ...entry.text.split("\n").flatMap((line, i) => (i ? [el("br"), line] : [line])))));
    list.scrollTop = list.scrollHeight;
    return;
  }
  list.replaceChildren(...S.log.map((entry) => el("li", {},
    entry.text ? el("em", {}, entry.text)
      : [el("span", { class: "log-ply" }, `${entry.key}.`), " ", el("strong", {}, name(entry.seat)), " ",
        entry.action ? el("code", {}, entry.action) : el("span", { class: "note" }, t("table.hiddenAction"))])));
  list.scrollTop = list.scrollHeight;
}

function renderScoresheet() {
  const sheet = $("scoresheet");
  if (!isOver()) { sheet.hidden = true; S.endShown = false; return; }
  sheet.hidden = false;
  const scores = (S.table && S.table.scores) || (S.view && S.view.scores) || [];
  const winners = (S.table && S.table.winners) || (S.view && S.view.winners) || [];
  const ctx = S.mod && S.view ? makeContext({ mod: S.mod, view: S.view, table: S.table, seat: S.seat }) : null;
  const order = rankSeats(S.mod, S.view, scores, winners);  // by the game's own win rule
  if (ctx) ctx.order = order;  // the details follow it
  // one ranked results panel: rank, player, score, winner mark (aligned columns); the game's
  // per-round detail follows in a table of its own
  const table = el("table", { class: "score-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "num" }, t("score.rank")), el("th", { scope: "col" }, t("common.player")),
      el("th", { scope: "col", class: "num" }, t("common.score")), el("th", { scope: "col" }, ""))));
  const body = el("tbody");
  order.forEach((s, i) => {
    const won = winners.includes(s);
    body.append(el("tr", { class: won ? "winner" : "", dataset: { seat: s, score: scores[s], winner: won ? "1" : "0" } },
      el("td", { class: "num rank" }, String(i + 1)), el("th", { scope: "row" }, name(s)), el("td", { class: "score num" }, scores[s]),
      el("td", { class: "mark" }, won ? ["★", el("span", { class: "mark-word" }, ` ${t("score.winner")}`)] : "")));
  });
  table.append(body);
  const names = winners.map((s) => name(s));
  const children = [
    el("h2", {}, t(isSolo(S.view, S.table) ? "score.missionTitle" : "score.title")),
    el("p", { class: "winners", dataset: { winners: winners.join(",") } }, verdict(S.view, S.table, winners, names)),
    el("p", { class: "result-reason" }, ctx ? resultReason(S.mod, S.view, ctx, winners) : ""),
    el("div", { class: "table-scroll" }, table),
  ];
  if (ctx) {
    const details = S.mod.scoreDetails(S.view, ctx);
    if (details) children.push(el("section", { class: "score-details" }, el("h3", {}, t("score.detailsTitle")), el("div", { class: "table-scroll" }, details)));
  }
  const buttons = el("div", { class: "buttons" });
  if (S.seat !== null && token) {
    buttons.append(el("button", { type: "button", id: "rematch-button", class: "primary", onclick: rematch }, t("score.rematch")));
  } else if (S.table && S.table.rematch) {
    buttons.append(el("a", { class: "button", href: S.rematchUrl || `/table/${S.table.rematch}` }, t("score.watchRematch")));
  }
  const replayAccess = S.table && !S.table.public && token ? `?token=${encodeURIComponent(token)}` : "";
  buttons.append(el("a", { class: "button secondary", href: `/replay/${encodeURIComponent(tableId)}${replayAccess}` }, t("score.replay")),
    el("a", { class: "button secondary", href: "/" }, t("nav.lobby")));
  children.push(buttons);
  sheet.replaceChildren(...children);
  if (!S.endShown) {  // the end comes into view once, where the player looks
    S.endShown = true;
    requestAnimationFrame(() => sheet.scrollIntoView({ block: "start" }));
  }
}

async function rematch() {
  const button = $("rematch-button");
  if (button) button.disabled = true;
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/rematch`, { token });
    // The rematch frame brings our seat's link; a seat keeps its token, so the answer's table
    // id is enough if the frame is late.
    if (answer && answer.table_id) setTimeout(() => { location.href = `/table/${encodeURIComponent(answer.table_id)}?token=${encodeURIComponent(token)}`; }, 1500);
  } catch (error) {
    showMessage(error.message);
    if (button) button.disabled = false;
  }
}

// The seat's own position now (what it knows, nothing more): its share code copied, and a link
// to the position page that opens it.
async function copyPosition(event) {
  const button = event.currentTarget;
  try {
    const got = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/position?token=${encodeURIComponent(token)}`);
    await copyText(got.code, button);
    const link = $("position-link");
    link.href = `/position#${got.code}`;
    link.hidden = false;
  } catch (error) { showMessage(error.message); }
}

// --- start ------------------------------------------------------------------------------------

async function main() {
  await setupPage("table.title");
  installDefs();
  setupMoves();
  placeConnection();
  PHONE.addEventListener("change", placeConnection);
  window.addEventListener("resize", dockRoom);
  $("hint-button").addEventListener("click", () => {
    if (send({ type: "hint" })) {
      S.hintPending = true;
      S.hint = null;
      renderActions();
      const ply = S.ply;
      setTimeout(() => {
        if (S.hintPending && S.ply === ply) { S.hintPending = false; showMessage(t("table.hintFailed")); renderActions(); }
      }, 90000);
    }
  });
  $("spectator-copy").addEventListener("click", (event) => copyText(absoluteUrl(`/table/${tableId}`), event.currentTarget));
  $("position-copy").addEventListener("click", copyPosition);
  $("table-id").textContent = tableId;
  const sound = $("sound-toggle");
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  document.addEventListener("eterna:language", async () => {
    if (S.mod) await S.mod.load(); // the card names and texts in the new language
    render();
    // the log and the labels come in the page's language: ask again in the new one
    if (S.link && S.connected) { S.told = new Map(); S.link.reopen(); }
  });
  // For tests and the curious: drop the socket as a network failure would (the page reconnects).
  window.eternaTable = { dropConnection: () => { if (S.link) S.link.drop(); } };
  setInterval(() => { if (S.connected) send({ type: "ping" }); }, 25000);
  connect();
}

main().finally(pageReady);
