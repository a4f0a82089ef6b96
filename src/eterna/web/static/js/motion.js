// Motion and attention: what is new since the last drawing of the board comes in briefly (class
// `enter`); nothing is marked, so nothing moves, under `prefers-reduced-motion: reduce`.

export function motionOK() {
  return !(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// How many cards of each zone and id a board shows.
export function cardCounts(container) {
  const counts = new Map();
  for (const node of container.querySelectorAll(".card[data-card]")) {
    const key = `${node.dataset.zone || ""}|${node.dataset.card}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return counts;
}

// Mark the cards beyond the counts of the last drawing (a card played, summoned, claimed, dealt,
// revealed); the first drawing of a page marks none.
export function markNewCards(container, before) {
  if (!before.size || !motionOK()) return;
  const seen = new Map();
  for (const node of container.querySelectorAll(".card[data-card]")) {
    const key = `${node.dataset.zone || ""}|${node.dataset.card}`;
    const index = seen.get(key) || 0;
    seen.set(key, index + 1);
    if (index >= (before.get(key) || 0)) node.classList.add("enter");
  }
}

// The turn signal outside the page: on your turn the tab's title and its icon change and, if
// the player asked for it (off by default, remembered by the browser), a short beep sounds once.
const SOUND_KEY = "eterna.turnSound";
const signal = { mine: null, audio: null };

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "1"; } catch { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "1" : "0"); } catch { /* private mode: this page only */ }
}

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    signal.audio = signal.audio || new Context();
    const audio = signal.audio;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.3);
  } catch { /* no sound: the title and the icon still say it */ }
}

// mine: is it the seat's turn; title: the page's title otherwise; turnTitle: on the seat's turn.
export function turnSignal(mine, title, turnTitle, sound = true) {
  document.title = mine ? turnTitle : title;
  const icon = document.querySelector("link[rel='icon']");
  if (icon) icon.href = mine ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  document.body.dataset.turnSignal = mine ? "1" : "0";
  if (mine && signal.mine === false && sound && soundOn()) beep();
  signal.mine = mine;
}

// A card that has just come into play travels there from the seat that played, claimed or
// summoned it (its chip in the seats line), under 400 ms; your own hand's new cards only come in.
// Nothing moves under `prefers-reduced-motion: reduce` (no card is marked `enter` then).
export const FLIGHT_MS = 320;

export function flyFromSeat(container, seat) {
  if (seat === null || seat === undefined || !motionOK()) return;
  const chip = document.querySelector(`#seats .seat-chip[data-seat="${seat}"]`);
  if (!chip || typeof Element.prototype.animate !== "function") return;
  const from = chip.getBoundingClientRect();
  for (const node of container.querySelectorAll(".card.enter")) {
    if (node.closest(".hand-zone")) continue;
    const to = node.getBoundingClientRect();
    if (!to.width) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    // the flight's transform takes over from the drop of the `enter` animation (it still fades in)
    node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: 0.4 }, { transform: "none", opacity: 1 }],
      { duration: FLIGHT_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
  }
}

// A won trick sweeps to its winner's seat, then is gone.
export function sweepToSeat(node, seat, done) {
  const chip = document.querySelector(`#seats .seat-chip[data-seat="${seat}"]`);
  if (!motionOK() || !chip || typeof node.animate !== "function") { done(); return; }
  const from = node.getBoundingClientRect();
  const to = chip.getBoundingClientRect();
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const flight = node.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.3)`, opacity: 0 }],
    { duration: FLIGHT_MS, easing: "ease-in", fill: "forwards" });
  flight.onfinish = done;
}
