"""The hint at a solo Eternitium table: valued by the mission's goal (the share of the
search's lines that find the gem, the Era cards left), in the page's language; in German the
move column keeps its words whole (it was squeezed to "Dopp elpo rtal")."""

from __future__ import annotations

from typing import Any

# The words of the hint's move column split over two lines (a word cut inside a cell; a line
# may break after a hyphen).
BROKEN_WORDS = """cells => cells.flatMap(cell => {
  const broken = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s-]+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
})"""


def test_the_solo_hint_shows_the_goal_in_words_and_keeps_german_words_whole(
    ui: Any, open_page: Any
) -> None:
    created = ui.server.create(
        "eternitium", [{"kind": "human", "name": "Ada"}], seed=1, options={"mission": 0}
    )
    with open_page(locale="de-DE", viewport={"width": 1366, "height": 768}) as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        page.click("#hint-button")
        page.wait_for_selector("#hint table.hint-table")
        heads = page.locator("#hint table.hint-table th").all_inner_texts()
        assert "Übrige Ära-Karten" in heads and "Ziel erreicht" in heads
        assert "Gewinnchance" not in " ".join(heads)
        best = page.locator("#hint tr.best td").all_inner_texts()
        assert best[1].endswith("%") and float(best[2].replace(",", ".")) >= 0
        cells = page.locator("#hint table.hint-table td:first-child")
        assert any("portal" in text.lower() for text in cells.all_inner_texts())
        assert cells.evaluate_all(BROKEN_WORDS) == []
        ui.shot(page, "eternitium-solo-hint-de")
