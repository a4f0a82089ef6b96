"""Every card face can be read at a laptop's size (issue 32): at 1366x768 no text on any card of
any game, big or small, is set under 11 CSS px. The size measured is the one on the screen: an
SVG text's font size times the scale its card is drawn at (a 70-unit-wide face shown 50 px wide
sets a 9-unit text at 6.4 px).

The games are played a few moves by their first legal move, so the small cards (claims, areas,
discards, the last trick, Era piles, the Portal row) come on the table; the faces are measured
after each move. Screenshots: test-output/screenshots/legibility-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest

BOT = {"kind": "bot", "agent": "heuristic"}
HUMAN = {"kind": "human", "name": "Ada"}
LAPTOP = {"width": 1366, "height": 768}
MIN_PX = 11.0

# Every text drawn on a card (SVG or HTML, its zoom button and its count badge included), with
# its size on the screen and whether it sits on a small card.
MEASURE = """() => {
  const out = [];
  for (const card of document.querySelectorAll('#board .card, #board .card-wrap')) {
    const small = card.classList.contains('small') || !!card.closest('.card-wrap.small');
    for (const node of card.querySelectorAll('text, tspan, .badge, button.card-zoom')) {
      const words = (node.textContent || '').trim();
      if (!words) continue;
      const box = node.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const style = getComputedStyle(node);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let px = parseFloat(style.fontSize);
      if (node instanceof SVGElement) {
        const m = node.getScreenCTM();
        px *= Math.hypot(m.a, m.b);  // the card's scale, whatever a pledge's tilt
      }
      const host = card.closest('[data-card]') || card.querySelector('[data-card]');
      out.push({ px: Math.round(px * 100) / 100, text: words, small,
                 card: host ? host.dataset.card : card.getAttribute('aria-label') });
    }
  }
  return out;
}"""

GAMES: dict[str, tuple[str, list[dict[str, Any]], dict[str, Any], int]] = {
    "vale": ("vale", [HUMAN, BOT], {"seed": 7}, 14),
    "vale-artifacts": (
        "vale",
        [HUMAN, BOT],
        {"seed": 41, "options": {"expansions": ["artifacts"], "artifact_set": "advanced"}},
        14,
    ),
    "eternity": ("eternity", [HUMAN, BOT, BOT], {"seed": 5}, 14),
    "eternitium": ("eternitium", [HUMAN, BOT], {"seed": 13}, 10),
    "eternitium-solo": ("eternitium", [HUMAN], {"seed": 21, "options": {"mission": 3}}, 10),
}
# German names and texts are the longest: the same games in German
LOCALES = {name: "en-US" for name in GAMES} | {"vale-de": "de-DE", "eternitium-de": "de-DE"}
GAMES["vale-de"] = GAMES["vale"]
GAMES["eternitium-de"] = GAMES["eternitium"]


@pytest.mark.parametrize("name", list(GAMES))
def test_no_card_text_under_11_px_at_1366(ui: Any, open_page: Any, name: str) -> None:
    game, seats, extra, moves = GAMES[name]
    with open_page(viewport=LAPTOP, reduced_motion="reduce", locale=LOCALES[name]) as page:
        created = ui.server.create(game, seats, **extra)
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        seen: dict[tuple[str, str, bool], float] = {}
        small_seen = 0
        for step in range(moves + 1):
            for item in page.evaluate(MEASURE):
                key = (str(item["card"]), item["text"], bool(item["small"]))
                seen[key] = min(seen.get(key, 99.0), float(item["px"]))
                small_seen += bool(item["small"])
            if step == moves // 2:
                ui.shot(page, f"legibility-{name}-1366")
            if step == moves or ui.state(page).get("status") == "over":
                break
            ui.move(page, page.locator("#action-list button[data-action]").first)
        assert len(seen) >= 10, f"{name}: too few card texts measured ({len(seen)})"
        assert small_seen, f"{name}: no small card came on the table"
        print(f"{name}: {len(seen)} card texts, the smallest {min(seen.values())} px")
        small = sorted((px, key) for key, px in seen.items() if px < MIN_PX)
        assert not small, f"{name}: {len(small)} card texts under {MIN_PX} px: {small[:12]}"


# Every creature of the Vale (the Artifacts' included) and every artifact tile drawn on a table
# page as the hand and the glade draw them: its short effect text whole on the face (no line cut
# with an ellipsis), inside the card, at 11 px or more.
_ALL_FACES = """async () => {
  const vale = await import('/static/js/games/vale.js');
  const { tileSpec } = await import('/static/js/games/vale_artifacts.js');
  const { cardElement } = await import('/static/js/cards.js');
  const data = await vale.load();
  const box = document.createElement('div');
  box.className = 'game vale';
  box.id = 'every-face';
  document.getElementById('board').append(box);
  const out = [];
  const specs = [...Object.entries(data.cards).map(([id, info]) => [id, info, vale.cardSpec(id)]),
    ...Object.entries(data.tiles).map(([id, info]) => [id, info, tileSpec(data, id)])];
  for (const [id, info, spec] of specs) {
    const node = cardElement(spec, {});
    box.append(node);
    const face = node.querySelector('svg');
    const width = face.viewBox.baseVal.width;
    const texts = [...face.querySelectorAll('text.card-text')];
    const scale = Math.hypot(face.getScreenCTM().a, face.getScreenCTM().b);
    const px = texts.map((n) => parseFloat(getComputedStyle(n).fontSize) * scale);
    const off = (n) => { const b = n.getBBox(); return b.x < -0.5 || b.x + b.width > width + 0.5; };
    out.push({ id, short: info.short || '', lines: texts.map((n) => n.textContent),
      px: Math.min(99, ...px), off: texts.filter(off).map((n) => n.textContent) });
  }
  box.remove();
  return out;
}"""


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "de-DE"])
def test_every_vale_creature_shows_its_short_text_whole(
    ui: Any, open_page: Any, locale: str
) -> None:
    created = ui.server.create("vale", [HUMAN, BOT], seed=7)
    with open_page(viewport=LAPTOP, reduced_motion="reduce", locale=locale) as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        faces = page.evaluate(_ALL_FACES)
    assert len(faces) == 109, f"{len(faces)} drawn: 70 creatures, the Artifacts' 28 and 11 tiles"
    problems = []
    for face in faces:
        drawn = " ".join(face["lines"])
        if not face["short"] or not face["lines"]:
            problems.append(f"{face['id']}: no short text on its face")
        elif "…" in drawn:
            problems.append(f"{face['id']}: its short text is cut: {face['lines']}")
        if face["px"] < MIN_PX:
            problems.append(f"{face['id']}: text at {face['px']:.2f} px")
        if face["off"]:
            problems.append(f"{face['id']}: text off the card: {face['off']}")
    assert not problems, f"{locale}: " + "\n".join(problems)
