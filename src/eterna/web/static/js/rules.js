// The rules page of a game, in the interface's language (/static/rules/<game>.<lang>.html).
import { setupPage, el, pageReady } from "./page.js";
import { t, tOr, currentLanguage } from "./i18n.js";

const GAMES = ["eternity", "eternitium", "vale"];
const parts = location.pathname.split("/").filter(Boolean);
const game = GAMES.includes(parts[parts.length - 1]) ? parts[parts.length - 1] : "eternity";
const $ = (id) => document.getElementById(id);

async function render() {
  $("rules-title").textContent = t("rules.titleFor", { game: tOr(`game.${game}`, game) });
  $("rules-games").replaceChildren(...GAMES.map((g) => el("a", { class: `button ${g === game ? "" : "secondary"}`, href: `/rules/${g}`, "aria-current": g === game ? "page" : null }, tOr(`game.${g}`, g))));
  const response = await fetch(`/static/rules/${game}.${currentLanguage()}.html`);
  const html = response.ok ? await response.text() : `<p>${t("rules.missing")}</p>`;
  // Our own static file; DOMParser runs no script it might hold.
  const doc = new DOMParser().parseFromString(html, "text/html");
  $("rules-content").replaceChildren(...doc.body.childNodes);
}

async function main() {
  await setupPage("rules.title");
  $("rules-link").href = `/rules/${game}`;
  document.addEventListener("eterna:language", render);
  await render();
}

main().finally(pageReady);
