// "My tables", remembered by this browser (localStorage): each table I created or joined, with
// my seat's link (its token) and, for the host, the invite links. The lobby lists them; on a
// table page (this module is loaded by table.html too) the host sees the invite links again, and
// a seat link opened here is remembered.
import { el, api, copyText, absoluteUrl } from "./page.js";
import { t, loadLanguage, pickLanguage } from "./i18n.js";

const STORE_KEY = "eterna.mytables";
const KEEP = 30;

export function myTables() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((e) => e && typeof e.id === "string") : [];
  } catch { return []; }
}

function store(list) {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(list.slice(0, KEEP))); } catch { /* private mode: not remembered */ }
}

// remember({id, game, seat, url, invites: [{seat, name, url}], spectator}): newest first; what
// was known of the table before and is not said again is kept.
export function remember(entry) {
  const list = myTables();
  const old = list.find((e) => e.id === entry.id) || {};
  const merged = { ...old, ...Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined && v !== null)) };
  if (!merged.at) merged.at = Date.now();
  store([merged, ...list.filter((e) => e.id !== entry.id)]);
}

// The seat token this browser holds at table `id` (from its seat link), or null.
export function seatToken(id) {
  const entry = myTables().find((e) => e.id === id);
  if (!entry || typeof entry.url !== "string") return null;
  try { return new URL(entry.url, location.origin).searchParams.get("token"); } catch { return null; }
}

export function forget(id) {
  store(myTables().filter((e) => e.id !== id));
}

// One invite link: its label, the link to select or copy, a copy button.
export function inviteRow(label, url, extra) {
  const full = absoluteUrl(url);
  return el("li", { class: "invite", dataset: extra || {} },
    el("span", { class: "invite-label" }, label),
    el("input", { readonly: true, value: full, "aria-label": label, onfocus: (e) => e.target.select() }),
    el("button", { type: "button", class: "secondary small copy", onclick: (e) => copyText(full, e.currentTarget) }, t("common.copy")));
}

export function inviteLabel(invite) {
  return invite.name ? t("mytables.inviteNamed", { n: invite.seat + 1, name: invite.name }) : t("common.seat", { n: invite.seat + 1 });
}

// ------------------------------------------------------------------ on a table page

function tableIdHere() {
  const match = location.pathname.match(/^\/table\/([^/?#]+)/);
  return match ? decodeURIComponent(match[1]) : null;
}

function showInvites(id) {
  const entry = myTables().find((e) => e.id === id);
  const invites = (entry && entry.invites) || [];
  let box = document.getElementById("my-invites");
  if (!invites.length) { if (box) box.remove(); return; }
  if (!box) {
    box = el("details", { id: "my-invites", class: "panel my-invites" });
    const anchor = document.querySelector(".table-tools") || document.querySelector("main > *");
    if (anchor) anchor.after(box); else document.body.append(box);
  }
  box.replaceChildren(el("summary", {}, t("mytables.invitesTitle")), el("p", { class: "note" }, t("mytables.invitesHelp")),
    el("ul", { class: "invites" }, invites.map((inv) => inviteRow(inviteLabel(inv), inv.url, { seat: inv.seat }))));
}

async function onTablePage(id) {
  await loadLanguage(pickLanguage());
  let summary = null;
  try { summary = await api("GET", `/api/tables/${encodeURIComponent(id)}`); } catch { /* not a table (any more) */ }
  const token = new URLSearchParams(location.search).get("token");
  if (summary && token && !myTables().some((e) => e.id === id)) {
    // an invite link opened in this browser: remember it (which seat is the server's to say)
    remember({ id, game: summary.game, url: location.pathname + location.search });
  }
  showInvites(id);
  document.addEventListener("eterna:language", () => showInvites(id));
  const box = document.getElementById("my-invites");
  const entry = myTables().find((e) => e.id === id);
  if (box && summary && entry) {
    // open while a friend's seat is still free: the links are what the host needs now
    const free = new Set(summary.seats.filter((s) => s.kind === "human" && !s.claimed).map((s) => s.seat));
    box.open = summary.status !== "over" && entry.invites.some((inv) => free.has(inv.seat));
  }
}

const here = tableIdHere();
if (here) onTablePage(here);
