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
