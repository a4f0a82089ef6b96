// A table waiting for its players (docs/web.md, "Waiting for players"): which human seats are
// not taken yet and, for the host (the first human seat), a button per seat that gives it to a
// bot. The host's invite links are shown by mytables.js.
import { el, api, seatName } from "./page.js";
import { t } from "./i18n.js";

const FILL_AGENT = "heuristic";

function hostSeat(table) {
  const first = (table.seats || []).find((s) => s.kind === "human");
  return first ? first.seat : null;
}

// The box under the status: shown while `table.waiting`, removed otherwise.
export function renderWaiting(anchor, { table, seat, token, onError }) {
  let box = document.getElementById("waiting-box");
  if (!table || !table.waiting) { if (box) box.remove(); return; }
  if (!box) { box = el("div", { id: "waiting-box", class: "panel waiting-box" }); anchor.after(box); }
  const host = token && seat !== null && seat === hostSeat(table);
  const free = (table.seats || []).filter((s) => s.kind === "human" && !s.claimed);
  const fill = async (button, free) => {
    button.disabled = true;
    try {
      await api("POST", `/api/tables/${encodeURIComponent(table.table_id)}/fill`, { token, seat: free, agent: FILL_AGENT });
    } catch (error) { button.disabled = false; onError(error.message); }
  };
  box.replaceChildren(
    host ? el("p", { class: "note" }, t("table.fillHelp")) : null,
    el("ul", { class: "waiting-seats" }, free.map((s) => el("li", { dataset: { seat: s.seat } },
      el("span", {}, t("table.waitingSeat", { seat: seatName(table, s.seat) })), " ",
      host ? el("button", { type: "button", class: "secondary small fill-seat", dataset: { seat: s.seat }, onclick: (e) => fill(e.currentTarget, s.seat) }, t("table.fillSeat")) : null))));
}
