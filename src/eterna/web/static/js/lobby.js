// The lobby: quick start, create a table (seats, bots, options), invite links, open tables.
import { setupPage, el, api, copyText, absoluteUrl, formatTime } from "./page.js";
import { t, tOr } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "eterna.name";
const QUICK_PLAYERS = { eternity: 3, eternitium: 2, vale: 2 };
let games = [];
let agentSpecs = ["heuristic", "random", "ismcts"];
let seatsState = [];

function playerName() {
  return $("player-name").value.trim() || t("lobby.defaultName");
}

function currentGame() {
  return games.find((g) => g.id === $("game-select").value) || games[0];
}

function gameLabel(game) {
  return tOr(`game.${game.id}`, game.name || game.id);
}

function fillGames() {
  const select = $("game-select");
  const chosen = select.value || (games[0] && games[0].id);
  select.replaceChildren(...games.map((g) => el("option", { value: g.id }, gameLabel(g))));
  if (chosen) select.value = chosen;
  const quick = $("quick-buttons");
  quick.replaceChildren(...games.map((g) => el("button", { type: "button", class: "primary quick-start", dataset: { game: g.id }, onclick: () => quickStart(g) },
    t("lobby.quickPlay", { game: gameLabel(g), n: Math.max(g.min_players, QUICK_PLAYERS[g.id] || g.min_players) - 1 }))));
}

function fillPlayers(keep) {
  const game = currentGame();
  if (!game) return;
  const select = $("players-select");
  const previous = keep ? Number(select.value) : NaN;
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  select.replaceChildren(...counts.map((n) => el("option", { value: n }, String(n))));
  const wanted = counts.includes(previous) ? previous : Math.max(game.min_players, QUICK_PLAYERS[game.id] || game.min_players);
  select.value = String(wanted);
  fillSeats();
  fillOptions();
}

function fillSeats() {
  const n = Number($("players-select").value);
  while (seatsState.length < n) seatsState.push({ kind: seatsState.length === 0 ? "human" : "bot", name: "", agent: "heuristic" });
  seatsState.length = n;
  const list = $("seat-rows");
  list.replaceChildren();
  seatsState.forEach((seat, i) => {
    const kind = el("select", { "aria-label": t("lobby.seatKind", { n: i }), dataset: { seatKind: i }, onchange: (e) => { seat.kind = e.target.value; fillSeats(); } },
      el("option", { value: "human" }, t("lobby.human")), el("option", { value: "bot" }, t("lobby.bot")));
    kind.value = seat.kind;
    const detail = seat.kind === "bot"
      ? el("input", { list: "agent-specs", value: seat.agent, "aria-label": t("lobby.agent"), dataset: { seatAgent: i }, oninput: (e) => { seat.agent = e.target.value; } })
      : el("input", { value: i === 0 ? "" : seat.name, placeholder: i === 0 ? t("lobby.yourNameShort") : t("lobby.friendName"), disabled: i === 0, "aria-label": t("lobby.seatName"), dataset: { seatName: i }, oninput: (e) => { seat.name = e.target.value; } });
    list.append(el("li", { class: "seat-row" }, el("span", { class: "seat-label" }, t("common.seat", { n: i })), kind, detail));
  });
  list.append(el("datalist", { id: "agent-specs" }, agentSpecs.map((s) => el("option", { value: s }))));
}

function fillOptions() {
  const game = currentGame();
  const box = $("game-options");
  box.replaceChildren();
  const info = game.option_info || {};
  for (const [name, value] of Object.entries(game.options || {})) {
    const label = tOr(`option.${game.id}.${name}`, name.replace(/_/g, " "));
    const choices = info[name] && info[name].choices;
    let input;
    if (choices && choices.length) {
      input = el("select", { dataset: { option: name, kind: "choice" } }, choices.map((c) => el("option", { value: JSON.stringify(c) }, String(c))));
      input.value = JSON.stringify(value);
    } else if (typeof value === "boolean") input = el("input", { type: "checkbox", checked: value, dataset: { option: name, kind: "bool" } });
    else if (typeof value === "number") input = el("input", { type: "number", value, dataset: { option: name, kind: "number" } });
    else if (typeof value === "object") input = el("input", { value: JSON.stringify(value), dataset: { option: name, kind: "json" } });
    else input = el("input", { value, dataset: { option: name, kind: "text" } });
    box.append(el("label", { class: typeof value === "boolean" ? "check" : "", title: info[name] ? info[name].doc : null }, el("span", {}, label), " ", input));
  }
}

function readOptions() {
  const game = currentGame();
  const options = {};
  for (const input of $("game-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    let value;
    switch (input.dataset.kind) {
      case "bool": value = input.checked; break;
      case "number": value = Number(input.value); break;
      case "json": value = JSON.parse(input.value || "null"); break;
      case "choice": value = JSON.parse(input.value); break;
      default: value = input.value;
    }
    if (JSON.stringify(value) !== JSON.stringify(game.options[name])) options[name] = value;
  }
  return options;
}

function numberOrNull(id) {
  const raw = $(id).value.trim();
  return raw === "" ? null : Number(raw);
}

async function createTable(body) {
  try {
    localStorage.setItem(NAME_KEY, $("player-name").value.trim());
  } catch { /* not remembered */ }
  return api("POST", "/api/tables", body);
}

function seatBodies() {
  return seatsState.map((seat, i) => seat.kind === "bot"
    ? { kind: "bot", agent: seat.agent.trim() || "heuristic" }
    : { kind: "human", name: i === 0 ? playerName() : seat.name.trim() || null });
}

async function onCreate(event) {
  event.preventDefault();
  const message = $("create-message");
  message.hidden = true;
  let options;
  try { options = readOptions(); } catch { message.textContent = t("lobby.badOptions"); message.hidden = false; return; }
  const body = {
    game: currentGame().id, players: Number($("players-select").value), options, seed: numberOrNull("seed"),
    seats: seatBodies(), turn_timer: numberOrNull("turn-timer"), public: $("public").checked, bot_delay: numberOrNull("bot-delay"),
  };
  $("create-button").disabled = true;
  try {
    showCreated(await createTable(body), body);
  } catch (error) {
    message.textContent = error.message;
    message.hidden = false;
  } finally {
    $("create-button").disabled = false;
  }
}

function linkRow(label, url, seat) {
  const full = absoluteUrl(url);
  return el("li", { class: "invite", dataset: seat === undefined ? { spectator: "1" } : { seat } },
    el("span", { class: "invite-label" }, label),
    el("input", { readonly: true, value: full, "aria-label": label, onfocus: (e) => e.target.select() }),
    el("button", { type: "button", class: "secondary small copy", onclick: (e) => copyText(full, e.currentTarget) }, t("common.copy")),
    el("a", { class: "button small", href: url, dataset: seat === undefined ? { watchLink: "1" } : { seatLink: seat } }, seat === undefined ? t("lobby.watch") : t("lobby.playSeat")));
}

function showCreated(answer, body) {
  const box = $("created");
  const rows = [];
  for (const seat of answer.seats) {
    if (seat.kind === "human" && seat.url) {
      const who = body.seats[seat.seat].name;
      rows.push(linkRow(t("lobby.inviteSeat", { n: seat.seat, name: who || "" }), seat.url, seat.seat));
    }
  }
  rows.push(linkRow(t("lobby.spectatorLink"), answer.spectator_url));
  box.replaceChildren(el("h3", {}, t("lobby.created", { id: answer.table_id })), el("p", { class: "note" }, t("lobby.inviteHelp")), el("ul", { class: "invites" }, rows));
  box.dataset.tableId = answer.table_id;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

async function quickStart(game) {
  const players = Math.max(game.min_players, QUICK_PLAYERS[game.id] || game.min_players);
  const seats = [{ kind: "human", name: playerName() }];
  for (let i = 1; i < players; i++) seats.push({ kind: "bot", agent: "heuristic" });
  try {
    const answer = await createTable({ game: game.id, players, options: {}, seed: null, seats, turn_timer: null, public: false, bot_delay: null });
    location.href = answer.seats[0].url;
  } catch (error) {
    $("create-message").textContent = error.message;
    $("create-message").hidden = false;
  }
}

async function loadOpenTables() {
  const list = $("open-tables");
  let tables = [];
  try { tables = await api("GET", "/api/tables"); } catch (error) { list.replaceChildren(el("li", { class: "note" }, error.message)); return; }
  if (tables && tables.tables) tables = tables.tables;
  if (!tables.length) { list.replaceChildren(el("li", { class: "note" }, t("lobby.noOpenTables"))); return; }
  list.replaceChildren(...tables.map((table) => {
    const open = (table.seats || []).filter((s) => s.kind === "human" && !s.claimed && !s.reserved).length;
    const names = (table.seats || []).map((s) => s.name || (s.kind === "bot" ? `[${t("common.botTag")}] ${s.agent || ""}` : "…")).join(", ");
    return el("li", { class: "open-table", dataset: { tableId: table.table_id } },
      el("strong", {}, tOr(`game.${table.game}`, table.game)), " ",
      el("span", {}, t("lobby.tableLine", { players: table.players, open, names })), " ",
      el("small", { class: "note" }, formatTime(table.created_at)), " ",
      table.seed_chosen ? el("small", { class: "note seed-chosen" }, t("lobby.seedChosen")) : null, table.seed_chosen ? " " : null,
      el("button", { type: "button", class: "small", onclick: () => join(table.table_id) }, t("lobby.join")),
      el("a", { class: "button secondary small", href: `/table/${table.table_id}` }, t("lobby.watch")));
  }));
}

async function join(tableId) {
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(tableId)}/join`, { name: playerName() });
    location.href = answer.url;
  } catch (error) {
    $("create-message").textContent = error.message;
    $("create-message").hidden = false;
  }
}

async function main() {
  await setupPage("lobby.title");
  try { $("player-name").value = localStorage.getItem(NAME_KEY) || ""; } catch { /* nothing stored */ }
  try {
    const agents = await api("GET", "/api/agents");
    const specs = [];
    const take = (item) => {
      if (typeof item === "string") specs.push(item);
      else if (item && typeof item === "object") {
        for (const key of ["spec", "name"]) if (typeof item[key] === "string") { specs.push(item[key]); break; }
        for (const key of ["suggested", "specs", "names"]) if (Array.isArray(item[key])) item[key].forEach(take);
      }
    };
    if (Array.isArray(agents)) agents.forEach(take); else take(agents);
    if (specs.length) agentSpecs = [...new Set(["heuristic", ...specs])];
  } catch { /* the defaults stand */ }
  games = await api("GET", "/api/games");
  fillGames();
  fillPlayers(false);
  $("game-select").addEventListener("change", () => fillPlayers(false));
  $("players-select").addEventListener("change", () => fillSeats());
  $("create-form").addEventListener("submit", onCreate);
  $("refresh-tables").addEventListener("click", loadOpenTables);
  document.addEventListener("eterna:language", () => { fillGames(); fillSeats(); fillOptions(); });
  loadOpenTables();
}

main();
