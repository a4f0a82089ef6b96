// The lobby: quick start, create a table (seats, bots, options, a solo mission), invite links,
// my tables (remembered by the browser) and the open tables.
import { setupPage, el, api, copyText, absoluteUrl, formatTime, pageReady } from "./page.js";
import { t, tOr, currentLanguage, plural } from "./i18n.js";
import { myTables, remember, forget, inviteLabel } from "./mytables.js";

const $ = (id) => document.getElementById(id);
const NAME_KEY = "eterna.name";
const QUICK_PLAYERS = { eternity: 3, eternitium: 2, vale: 2 };
let games = [];
let agentSpecs = ["heuristic", "random", "ismcts", "ismcts:seconds=2"];
// Options the form leaves out: card counts are a JSON map for simulations, not a table setting.
const HIDDEN_OPTIONS = new Set(["composition"]);
// The options only an expansion uses, by game and expansion: shown together under the
// expansion's checkbox, and only while it is checked.
const EXPANSION_OPTIONS = {
  vale: { artifacts: ["artifact_set", "artifact_block", "bought_area_limit", "thoth_same_stone", "ring_of_wishes", "swap_dragon_targets"] },
};


function agentLabel(spec) {
  return tOr(`lobby.agent.${spec}`, spec);
}
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
    plural(Math.max(g.min_players, QUICK_PLAYERS[g.id] || g.min_players) - 1, "lobby.quickPlay.one", "lobby.quickPlay.other", { game: gameLabel(g) }))));
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

function seatKindSelect(seat, i) {
  const kinds = i === 0 ? ["human", "bot"] : ["human", "open", "bot"];
  const label = (kind) => t(i === 0 && kind === "human" ? "lobby.kindMe" : `lobby.kind.${kind}`);
  const select = el("select", { "aria-label": t("lobby.seatKind", { n: i + 1 }), dataset: { seatKind: i }, onchange: (e) => { seat.kind = e.target.value; fillSeats(); } },
    kinds.map((kind) => el("option", { value: kind }, label(kind))));
  select.value = seat.kind;
  return select;
}

function seatDetail(seat, i) {
  if (seat.kind === "bot") {
    const specs = agentSpecs.includes(seat.agent) ? agentSpecs : [...agentSpecs, seat.agent];
    const select = el("select", { "aria-label": t("lobby.agent"), dataset: { seatAgent: i }, onchange: (e) => { seat.agent = e.target.value; } },
      specs.map((spec) => el("option", { value: spec }, agentLabel(spec))));
    select.value = seat.agent;
    return select;
  }
  if (i === 0) return el("span", { class: "note seat-you" }, t("lobby.seatYou"));
  if (seat.kind === "open") return el("span", { class: "note" }, t("lobby.seatOpenNote"));
  return el("input", { value: seat.name, placeholder: t("lobby.friendName"), "aria-label": t("lobby.seatName"), dataset: { seatName: i }, oninput: (e) => { seat.name = e.target.value; } });
}

function fillSeats() {
  const n = Number($("players-select").value);
  while (seatsState.length < n) seatsState.push({ kind: seatsState.length === 0 ? "human" : "bot", name: "", agent: "heuristic" });
  seatsState.length = n;
  $("seat-rows").replaceChildren(...seatsState.map((seat, i) => el("li", { class: "seat-row" },
    el("span", { class: "seat-label" }, t("common.seat", { n: i + 1 })), seatKindSelect(seat, i), seatDetail(seat, i))));
}

function optionInput(name, value, info) {
  const labels = info.choice_labels || {};
  if (info.items && info.items.length) {  // a list option: one checkbox per value it may hold
    const held = new Set((value || []).map((v) => JSON.stringify(v)));
    return el("span", { class: "option-items" }, info.items.map((item) => el("label", { class: "check" },
      el("input", { type: "checkbox", checked: held.has(JSON.stringify(item)), dataset: { option: name, kind: "item", item: JSON.stringify(item) } }),
      el("span", {}, labels[JSON.stringify(item)] || String(item)))));
  }
  if (info.choices && info.choices.length) {
    const input = el("select", { dataset: { option: name, kind: "choice" } },
      info.choices.map((c) => el("option", { value: JSON.stringify(c) }, labels[JSON.stringify(c)] || String(c))));
    input.value = JSON.stringify(value);
    return input;
  }
  if (typeof value === "boolean") return el("input", { type: "checkbox", checked: value, dataset: { option: name, kind: "bool" } });
  return el("input", { type: "number", min: 0, value, dataset: { option: name, kind: "number" } });
}

function shownOptions(game, players) {
  const info = game.option_info || {};
  return Object.entries(game.options || {}).filter(([name, value]) => info[name] && info[name].label
    && !HIDDEN_OPTIONS.has(name) && (typeof value !== "object" || value === null || (Array.isArray(value) && info[name].items))
    && name !== "mission" && !(name === "round_limit" && players === 1));
}

function fillOptions() {
  const game = currentGame();
  if (!game) return;
  const players = Number($("players-select").value);
  const info = game.option_info || {};
  const kept = $("game-options").dataset.game === game.id ? inputValues() : {};
  $("game-options").dataset.game = game.id;
  const shown = shownOptions(game, players);
  if (!shown.length) $("game-options").replaceChildren(el("p", { class: "note" }, t("lobby.optionsNone")));
  else $("game-options").replaceChildren(...groupExpansions(game, shown, kept, (name, value) => {
    const input = optionInput(name, name in kept ? kept[name] : value, info[name]);
    const help = info[name].help ? el("small", { class: "note option-help" }, info[name].help) : null;
    const check = typeof value === "boolean";
    if (Array.isArray(value)) {  // a group of checkboxes (each its own label) under the option's name
      const id = `option-${name}`;
      return el("div", { class: "option", role: "group", "aria-labelledby": id }, el("span", { class: "option-label", id }, info[name].label), input, help);
    }
    return el("div", { class: "option" }, el("label", { class: check ? "check" : "" }, check ? input : null, el("span", { class: "option-label" }, info[name].label), check ? null : input), help);
  }));
  fillMissions(game, players);
}

// The options drawn by `draw(name, value)`, an expansion's own ones in a group of their own
// right after the `expansions` option, hidden while the expansion is not checked.
function groupExpansions(game, shown, kept, draw) {
  const groups = EXPANSION_OPTIONS[game.id] || {};
  const owner = new Map(Object.entries(groups).flatMap(([exp, names]) => names.map((n) => [n, exp])));
  const nodes = [];
  for (const [name, value] of shown) {
    if (owner.has(name)) continue;
    nodes.push(draw(name, value));
    if (name !== "expansions") continue;
    const chosen = new Set(("expansions" in kept ? kept.expansions : value) || []);
    for (const [exp, names] of Object.entries(groups)) {
      const own = shown.filter(([n]) => names.includes(n));
      if (!own.length) continue;
      const labels = (game.option_info.expansions || {}).choice_labels || {};
      const title = t("lobby.expansionOptions", { name: labels[JSON.stringify(exp)] || exp });
      nodes.push(el("fieldset", { class: "option-group", hidden: !chosen.has(exp), dataset: { expansion: exp } },
        el("legend", {}, title), el("div", { class: "options" }, own.map(([n, v]) => draw(n, v)))));
    }
  }
  return nodes;
}

// An expansion checked or not: its options come into view or go.
function showExpansionOptions(event) {
  const input = event.target;
  if (input.dataset.option !== "expansions") return;
  const group = $("game-options").querySelector(`.option-group[data-expansion="${CSS.escape(JSON.parse(input.dataset.item))}"]`);
  if (group) group.hidden = !input.checked;
}

// Solo Eternitium: a mission to play, each with what it changes.
function fillMissions(game, players) {
  const box = $("mission-box");
  const missions = game.missions || [];
  box.hidden = !(players === 1 && missions.length);
  if (box.hidden) { box.replaceChildren(); return; }
  const chosen = Number(box.dataset.chosen || 0);
  box.replaceChildren(el("legend", {}, t("lobby.missionTitle")), el("ul", { class: "missions" }, missions.map((m) => el("li", { class: "mission" },
    el("label", {}, el("input", { type: "radio", name: "mission", value: m.id, checked: m.id === chosen, dataset: { mission: m.id }, onchange: () => { box.dataset.chosen = m.id; } }),
      el("span", {}, el("span", { class: "mission-title" }, m.id === 0 ? m.title : t("lobby.missionNumbered", { n: m.id, title: m.title })),
        el("span", { class: "note mission-text" }, m.text)))))));
}

// The value of every option input shown, by option name.
function inputValues() {
  const values = {};
  for (const input of $("game-options").querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    if (kind === "item") {  // a list option: the checked values, in the items' order
      const list = values[input.dataset.option] || (values[input.dataset.option] = []);
      if (input.checked) list.push(JSON.parse(input.dataset.item));
      continue;
    }
    values[input.dataset.option] = kind === "bool" ? input.checked : kind === "number" ? Number(input.value) : kind === "choice" ? JSON.parse(input.value) : input.value;
  }
  return values;
}

// The options that differ from the game's defaults, and the solo mission chosen.
function readOptions() {
  const game = currentGame();
  const options = {};
  for (const [name, value] of Object.entries(inputValues())) {
    if (JSON.stringify(value) !== JSON.stringify(game.options[name])) options[name] = value;
  }
  const mission = document.querySelector("#mission-box:not([hidden]) input[name=mission]:checked");
  if (mission && Number(mission.value)) options.mission = Number(mission.value);
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

// A friend's seat is reserved: only its invite link opens it, the lobby never offers it.
function seatBodies() {
  return seatsState.map((seat, i) => {
    if (seat.kind === "bot") return { kind: "bot", agent: seat.agent.trim() || "heuristic" };
    if (i === 0) return { kind: "human", name: playerName() };
    if (seat.kind === "open") return { kind: "human", name: null };
    return { kind: "human", name: seat.name.trim() || null, reserved: true };
  });
}

async function onCreate(event) {
  event.preventDefault();
  const message = $("create-message");
  message.hidden = true;
  const options = readOptions();
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

// The new table, remembered in my tables: my seat's link, and the invite links for the others.
function rememberCreated(answer, body) {
  const humans = answer.seats.filter((seat) => seat.kind === "human" && seat.url);
  if (!humans.length) return;
  const invites = humans.slice(1).map((seat) => ({ seat: seat.seat, name: (body.seats[seat.seat] || {}).name || "", url: seat.url }));
  remember({ id: answer.table_id, game: body.game, seat: humans[0].seat, url: humans[0].url, invites, spectator: answer.spectator_url });
}

function showCreated(answer, body) {
  rememberCreated(answer, body);
  const box = $("created");
  const rows = [];
  for (const seat of answer.seats) {
    if (seat.kind === "human" && seat.url) {
      const who = body.seats[seat.seat].name;
      rows.push(linkRow(inviteLabel({ seat: seat.seat, name: who || "" }), seat.url, seat.seat));
    }
  }
  rows.push(linkRow(t("lobby.spectatorLink"), answer.spectator_url));
  box.replaceChildren(el("h3", {}, t("lobby.created", { id: answer.table_id })), el("p", { class: "note" }, t("lobby.inviteHelp")), el("ul", { class: "invites" }, rows));
  box.dataset.tableId = answer.table_id;
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
  fillMyTables();
}

async function quickStart(game) {
  const players = Math.max(game.min_players, QUICK_PLAYERS[game.id] || game.min_players);
  const seats = [{ kind: "human", name: playerName() }];
  for (let i = 1; i < players; i++) seats.push({ kind: "bot", agent: "heuristic" });
  try {
    const answer = await createTable({ game: game.id, players, options: {}, seed: null, seats, turn_timer: null, public: false, bot_delay: null });
    remember({ id: answer.table_id, game: game.id, seat: 0, url: answer.seats[0].url });
    location.href = answer.seats[0].url;
  } catch (error) {
    $("create-message").textContent = error.message;
    $("create-message").hidden = false;
  }
}

function seatWord(seat) {
  if (seat.kind === "bot") return t("lobby.botNamed", { name: seat.name || agentLabel(seat.agent || "heuristic") });
  if (seat.name) return seat.name;
  return t(seat.reserved ? "lobby.seatInvited" : "lobby.seatFree");
}

function openTableRow(table) {
  const seats = table.seats || [];
  const open = seats.filter((s) => s.kind === "human" && !s.claimed && !s.reserved).length;
  const line = `${plural(table.players, "lobby.playerCount.one", "lobby.playerCount.other")}, ${plural(open, "lobby.openSeats.one", "lobby.openSeats.other")}: ${seats.map(seatWord).join(", ")}`;
  const meta = [formatTime(table.created_at), table.seed_chosen ? t("lobby.seedChosen") : null].filter(Boolean).join(" · ");
  return el("li", { class: "open-table", dataset: { tableId: table.table_id } },
    el("div", { class: "my-table-info" }, el("strong", {}, tOr(`game.${table.game}`, table.game)), el("span", {}, line), el("small", { class: "note" }, meta)),
    el("div", { class: "buttons" },
      open ? el("button", { type: "button", class: "small", dataset: { join: table.table_id }, onclick: () => join(table) }, t("lobby.join")) : null,
      el("a", { class: "button secondary small", href: `/table/${table.table_id}` }, t("lobby.watch"))));
}

async function loadOpenTables() {
  const list = $("open-tables");
  let tables = [];
  try { tables = await api("GET", "/api/tables"); } catch (error) { list.replaceChildren(el("li", { class: "note" }, error.message)); return; }
  if (tables && tables.tables) tables = tables.tables;
  const mine = new Set(myTables().map((e) => e.id));
  tables = tables.filter((table) => !mine.has(table.table_id));
  if (!tables.length) { list.replaceChildren(el("li", { class: "note" }, t("lobby.noOpenTables"))); return; }
  list.replaceChildren(...tables.map(openTableRow));
}

// ------------------------------------------------------------------ my tables

function myTableRow(entry, summary) {
  const status = summary === undefined ? "" : summary === null ? t("mytables.gone") : summary.status === "over" ? t("mytables.over") : t("mytables.playing");
  const seat = Number.isInteger(entry.seat) ? t("common.seat", { n: entry.seat + 1 }) : null;
  const meta = [`#${entry.id}`, seat, status, formatTime(entry.at / 1000)].filter(Boolean).join(" · ");
  return el("li", { class: "my-table", dataset: { tableId: entry.id } },
    el("div", { class: "my-table-info" }, el("strong", {}, tOr(`game.${entry.game}`, entry.game || "")), el("small", { class: "note" }, meta)),
    el("div", { class: "buttons" },
      summary === null ? null : el("a", { class: "button small", href: entry.url, dataset: { myTableLink: entry.id } }, t("mytables.open")),
      el("button", { type: "button", class: "secondary small", dataset: { forget: entry.id }, "aria-label": t("mytables.forgetLabel", { id: entry.id }), onclick: () => { forget(entry.id); fillMyTables(); loadOpenTables(); } }, t("mytables.forget"))));
}

// Each fill draws the list at once, then again with the tables' statuses once they come; a fill
// started later (a table forgotten meanwhile) wins, so an older answer never brings a row back.
let myTablesFill = 0;

async function fillMyTables() {
  const fill = ++myTablesFill;
  const entries = myTables();
  $("my-tables-box").hidden = !entries.length;
  const list = $("my-tables");
  list.replaceChildren(...entries.map((entry) => myTableRow(entry, undefined)));
  const summaries = await Promise.all(entries.map((entry) => api("GET", `/api/tables/${encodeURIComponent(entry.id)}`).catch((error) => (error.status === 404 ? null : undefined))));
  if (fill !== myTablesFill) return;
  list.replaceChildren(...entries.map((entry, i) => myTableRow(entry, summaries[i])));
}

async function join(table) {
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(table.table_id)}/join`, { name: playerName() });
    remember({ id: table.table_id, game: table.game, seat: answer.seat, url: answer.url });
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
  games = await api("GET", `/api/games?lang=${currentLanguage()}`);
  fillGames();
  fillMyTables();
  fillPlayers(false);
  $("game-select").addEventListener("change", () => fillPlayers(false));
  $("players-select").addEventListener("change", () => { fillSeats(); fillOptions(); });
  $("create-form").addEventListener("submit", onCreate);
  $("game-options").addEventListener("change", showExpansionOptions);
  $("refresh-tables").addEventListener("click", loadOpenTables);
  document.addEventListener("eterna:language", async () => {
    try { games = await api("GET", `/api/games?lang=${currentLanguage()}`); } catch { /* the words stay */ }
    fillGames(); fillSeats(); fillOptions(); fillMyTables(); loadOpenTables();
  });
  loadOpenTables();
}

main().finally(pageReady);
