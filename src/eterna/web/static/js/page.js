// What every page shares: the language, the header's switch, small DOM and HTTP helpers.
import { LANGUAGES, applyI18n, currentLanguage, loadLanguage, pickLanguage, setLanguage, t, tOr } from "./i18n.js";

const LANGUAGE_NAMES = { en: "English", fr: "Français", de: "Deutsch" };

export async function setupPage(titleKey) {
  await loadLanguage(pickLanguage());
  const select = document.getElementById("lang-select");
  if (select) {
    select.replaceChildren(...LANGUAGES.map((code) => el("option", { value: code }, LANGUAGE_NAMES[code])));
    select.value = currentLanguage();
    select.addEventListener("change", () => setLanguage(select.value));
  }
  const setTitle = () => { if (titleKey) document.title = `${t(titleKey)} · Eterna`; };
  setTitle();
  document.addEventListener("eterna:language", setTitle);
  applyI18n(document);
}

// Marks the page ready: its script has set up the page and every control answers (tests wait
// for body[data-ready] before they type or click, so a click never reaches a bare form). Each
// page calls it once its main() has finished, failed or not: `main().finally(pageReady)`.
export function pageReady() {
  document.body.dataset.ready = "1";
}

// el("button", {class: "x", dataset: {action: "end"}, onclick: f}, "text", child, ...)
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "dataset") Object.assign(node.dataset, value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else if (value === true) node.setAttribute(name, "");
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : String(child));
  }
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// An HTTP call; a refusal throws ApiError with the server's `message`, said in the page's
// language (the server reads it from Accept-Language; `detail` stays English).
export async function api(method, path, body) {
  const init = { method, headers: { "Accept-Language": currentLanguage() } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    const error = (data && data.error) || {};
    const detail = data && data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : "";
    throw new ApiError(response.status, error.code || String(response.status), error.message || detail || response.statusText);
  }
  return data;
}

export function formatTime(value) {
  if (value === null || value === undefined || value === "") return "";
  const date = typeof value === "number" ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString(currentLanguage());
}

// The display name of a seat from a table summary, as the server and the terminal name it
// (eterna/i18n/names.py): a bot without a name of its own by its catalog name ("Heuristic
// bot", never its agent id), numbered by seat when two share it ("Heuristic bot 2"); a name
// two players share gets "#n". Players count seats from 1 (the protocol's seat 0 is "Seat 1").
export function seatName(table, seat) {
  const seats = (table && table.seats) || [];
  const agentOf = (info) => (info && info.kind === "bot" ? String(info.agent || "").split(":")[0].trim() : "");
  const botName = (agent) => tOr(`common.botName.${agent}`, t("common.botName", { agent }));
  const base = (info) => {
    if (!info) return t("common.seat", { n: seat + 1 });
    const agent = agentOf(info);
    if (info.kind === "bot" && (!info.name || info.name === agent)) return botName(agent || "bot");
    if (info.name) return info.name;
    return t("common.seat", { n: info.seat + 1 });
  };
  const info = seats.find((s) => s.seat === seat);
  const name = base(info);
  const shared = seats.some((s) => s.seat !== seat && base(s) === name);
  if (!shared) return name;
  const ownName = info && info.name && info.name !== agentOf(info);
  return info && info.kind === "bot" && !ownName ? t("common.botNumbered", { name, n: seat + 1 }) : `${name} #${seat + 1}`;
}

export async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = el("textarea", {}, text);
    document.body.append(area);
    area.select();
    try { document.execCommand("copy"); } catch { /* nothing more to try */ }
    area.remove();
  }
  if (button) {
    button.textContent = t("common.copied");
    setTimeout(() => { button.textContent = t("common.copy"); }, 1500);
  }
}

export function absoluteUrl(path) {
  return new URL(path, location.origin).href;
}
