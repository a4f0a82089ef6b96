// Interface strings: one flat JSON file per language under /static/i18n/.
// The language comes from localStorage (the switch), else the browser, else English.

export const LANGUAGES = ["en", "fr", "de"];
const STORE_KEY = "eterna.lang";
let strings = {};
let fallback = {};
let lang = "en";

export function pickLanguage() {
  const stored = safeGet(STORE_KEY);
  if (stored && LANGUAGES.includes(stored)) return stored;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const tag of wanted) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

function safeGet(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

async function fetchStrings(code) {
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`i18n ${code}: ${response.status}`);
  return response.json();
}

export async function loadLanguage(code) {
  if (!LANGUAGES.includes(code)) code = "en";
  if (!Object.keys(fallback).length) fallback = await fetchStrings("en");
  strings = code === "en" ? fallback : await fetchStrings(code);
  lang = code;
  document.documentElement.lang = code;
}

export function currentLanguage() {
  return lang;
}

export async function setLanguage(code) {
  try { localStorage.setItem(STORE_KEY, code); } catch { /* private mode: not remembered */ }
  await loadLanguage(code);
  applyI18n(document);
  document.dispatchEvent(new CustomEvent("eterna:language", { detail: code }));
}

// t("table.yourTurn") or t("table.waiting", {name: "Ada"}): {name} placeholders are filled in.
export function t(key, vars) {
  let text = key in strings ? strings[key] : key in fallback ? fallback[key] : key;
  if (vars) {
    for (const [name, value] of Object.entries(vars)) text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

// A count in words: the `one` or the `other` key by the language's rule (French: 0 and 1 are
// singular), with {n} filled in.
export function plural(n, one, other, vars) {
  const singular = currentLanguage() === "fr" ? n <= 1 : n === 1;
  return t(singular ? one : other, { n, ...vars });
}

// A key built at run time (a phase, an option name): its text if translated, else `otherwise`.
export function tOr(key, otherwise) {
  return key in strings ? strings[key] : key in fallback ? fallback[key] : otherwise;
}

export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) el.setAttribute("aria-label", t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.setAttribute("title", t(el.dataset.i18nTitle));
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
}
