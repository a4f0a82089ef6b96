// The table with the keyboard alone: the skip link to the moves, the collapsible moves panel,
// focus kept across redraws, and the choice menu's arrow keys and Escape.
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const MOVES_OPEN = "eterna.movesOpen";

// The moves panel opens and closes with its toggle; a fold is remembered by the browser. On a
// phone the panel folds by itself whenever the cards are the moves (a tap on a card plays it):
// its head and its "Show" button stay above the board, the current trick is never pushed off
// the screen; opened there, it stays open until the next move. The skip link "Go to your moves"
// opens it and puts the focus at the start of the list: Tab then reaches the first move.
const PHONE = "(max-width: 700px)";
const moves = { folded: false, cards: false, openedAt: null };

export function setupMoves() {
  try { moves.folded = localStorage.getItem(MOVES_OPEN) === "0"; } catch { moves.folded = false; }
  applyMoves();
  $("moves-toggle").addEventListener("click", () => {
    const open = $("moves-body").hidden;
    moves.folded = !open;
    moves.openedAt = open ? document.body.dataset.ply : null;
    try { localStorage.setItem(MOVES_OPEN, open ? "1" : "0"); } catch { /* private mode */ }
    applyMoves();
  });
  $("skip-moves").addEventListener("click", (event) => {
    event.preventDefault();
    moves.folded = false;
    moves.openedAt = document.body.dataset.ply;
    applyMoves();
    $("action-list").focus();
  });
  document.addEventListener("eterna:language", applyMoves);
  matchMedia(PHONE).addEventListener("change", applyMoves);
}

// After each drawing: whether every legal move is a card to click.
export function foldMoves(cardMoves) {
  moves.cards = cardMoves;
  applyMoves();
}

function applyMoves() {
  const byItself = moves.cards && matchMedia(PHONE).matches && moves.openedAt !== document.body.dataset.ply;
  if (moves.openedAt !== document.body.dataset.ply) moves.openedAt = null;
  const open = !moves.folded && !byItself;
  document.body.dataset.movesFolded = open ? "0" : "1";
  $("moves-body").hidden = !open;
  const toggle = $("moves-toggle");
  toggle.setAttribute("aria-expanded", String(open));
  toggle.dataset.i18n = open ? "table.hideMoves" : "table.showMoves";
  toggle.textContent = t(toggle.dataset.i18n);
}

// What the focus was on, to find its like after a redraw: a card (by card and zone), a card's
// verb button, a move button, or an element with an id.
function focusKey(node) {
  if (!node || node === document.body || !node.closest) return null;
  if (!node.closest("#board, #actions")) return node.id ? { id: node.id } : null;
  const d = node.dataset || {};
  if (d.card && d.zone) return { selector: `#board [data-card="${CSS.escape(d.card)}"][data-zone="${CSS.escape(d.zone)}"]` };
  if (d.pledge) return { selector: `#board [data-pledge="${CSS.escape(d.pledge)}"]` };
  if (d.action && node.parentElement && node.parentElement.id) {
    return { selector: `#${node.parentElement.id} [data-action="${CSS.escape(d.action)}"]` };
  }
  return node.id ? { id: node.id } : { moves: true };
}

// A move the focus was on when the connection dropped (the drop disables every move): the
// focus waits at the start of the moves and goes back to that move once it is offered again,
// unless the player has put it somewhere else meanwhile.
let held = null;  // { key, at }: that move's focus key, and where the focus waits

// Run `redraw` and put the focus back where it was (or at the start of the moves when that is
// gone), so a keyboard player never falls back to the top of the page.
export function keepFocus(redraw) {
  const before = document.activeElement;
  const waiting = held && before === held.at ? held.key : null;
  const key = waiting || focusKey(before);
  held = null;
  redraw();
  if (!key || (!waiting && before && document.contains(before) && document.activeElement === before)) return;
  if (document.activeElement && document.activeElement !== document.body && document.activeElement !== before) return;
  let target = key.id ? $(key.id) : key.selector ? document.querySelector(key.selector) : null;
  const off = Boolean(target && (target.disabled || target.closest("[hidden]")));
  if (off) target = null;
  if (!target && !$("actions").hidden && !$("moves-body").hidden) target = $("action-list");
  if (!target && !$("scoresheet").hidden) target = $("scoresheet");  // the game ended: its verdict
  if (target) target.focus({ preventScroll: true });
  if (off && target && key.selector && document.body.dataset.connection === "lost") held = { key, at: target };
}

// The choice menu: Up/Down/Home/End move between its buttons; Escape closes it and gives the
// focus back to what opened it.
export function menuKeys(menu, anchor, close) {
  menu.addEventListener("keydown", (event) => {
    const items = [...menu.querySelectorAll("button")];
    const at = items.indexOf(document.activeElement);
    let next = null;
    if (event.key === "ArrowDown") next = items[(at + 1) % items.length];
    else if (event.key === "ArrowUp") next = items[(at - 1 + items.length) % items.length];
    else if (event.key === "Home") next = items[0];
    else if (event.key === "End") next = items[items.length - 1];
    else if (event.key === "Escape") {
      event.stopPropagation();
      close();
      if (anchor && document.contains(anchor)) anchor.focus();
      return;
    }
    if (next) { event.preventDefault(); next.focus(); }
  });
}

// On a phone the hand is docked at the bottom of the screen: the page keeps room for it below
// everything else.
export function dockRoom() {
  const hand = document.querySelector("#board .hand-zone");
  const fixed = hand && getComputedStyle(hand).position === "fixed";
  document.body.style.setProperty("--dock-h", fixed ? `${hand.offsetHeight + 8}px` : "0px");
}
