"""Accessibility: every page passes axe-core with no serious or critical violation, and a whole
game of each game (and a solo mission) is played with the keyboard alone.

axe-core comes from the npm registry, pinned and checked by its sha256 (conftest.axe_source), and
is injected into the page by the test only. The keyboard games never click: the page's skip link
"Go to your moves" is reached with Tab, Enter follows it, Tab reaches the first move button and
Enter plays it.
"""

from __future__ import annotations

from typing import Any

import pytest

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "agent": "heuristic"}
# game, seats, options: Eternity at 3, The Vale at 2, Eternitium at 2 and its solo mission 3
GAMES = [
    ("eternity", [HUMAN, BOT, BOT], {}),
    ("vale", [HUMAN, BOT], {}),
    ("eternitium", [HUMAN, BOT], {}),
    ("eternitium", [HUMAN], {"options": {"mission": 3}}),
]
GAME_IDS = ["eternity", "vale", "eternitium", "eternitium-solo"]


# axe reads an SVG card face's texts as one word ("1313Earth": corner, centre and footer run
# together), so a card button named "Earth 13" fails its label-in-name rule. The rule's intent is
# checked here instead: every word drawn on the card appears in the card's name (numbers aside:
# a corner's points or value, which the name says in words, "Basic", or as the card's value).
_AXE_RUN = """async () => {
    const r = await axe.run(document, {resultTypes: ['violations']});
    const drawnInName = (target) => {
        const node = document.querySelector(target.join(' '));
        if (!node || !node.classList.contains('card')) return false;
        const name = (node.getAttribute('aria-label') || '').toLowerCase();
        return [...node.querySelectorAll('svg text')].map((t) => t.textContent.trim().toLowerCase())
            .filter((text) => /\\p{L}/u.test(text)).every((text) => name.includes(text));
    };
    return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({...v, nodes: v.id === 'label-content-name-mismatch'
            ? v.nodes.filter((n) => !drawnInName(n.target)) : v.nodes}))
        .filter((v) => v.nodes.length)
        .map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: '
                + (n.failureSummary || '').slice(0, 200))}));
}"""


def axe_violations(page: Any, axe_source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it stands."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe_source)
    result: list[dict[str, Any]] = page.evaluate(_AXE_RUN)
    return result


def assert_accessible(page: Any, axe_source: str, where: str) -> None:
    violations = axe_violations(page, axe_source)
    assert not violations, f"{where}: " + "\n".join(
        f"{v['impact']} {v['id']} ({v['help']}): {v['nodes']}" for v in violations
    )


def open_seat(ui: Any, page: Any, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    created = ui.server.create(game, seats, **extra)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    table_id: str = created["table_id"]
    return table_id


def finished_table(ui: Any, page: Any) -> str:
    created = ui.server.create("eternitium", [BOT, BOT], seed=4)
    table_id: str = created["table_id"]
    for _ in range(150):
        if ui.server.get(f"/api/tables/{table_id}")["status"] == "over":
            return table_id
        page.wait_for_timeout(100)
    pytest.fail("the bots' game did not end")


def keyboard_move(ui: Any, page: Any) -> None:
    """One move with the keyboard alone: from the start of the page, Tab reaches the skip link
    and Enter follows it; after a move the focus stays at the start of the moves. Then Tab
    reaches the first move and Enter plays it."""
    ply = ui.state(page).get("ply", "")
    if page.evaluate("document.activeElement.id") != "action-list":
        assert page.evaluate("document.activeElement === document.body"), "focus lost in the page"
        page.keyboard.press("Tab")  # the skip link is the page's first stop
        assert page.evaluate("document.activeElement.id") == "skip-moves"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "action-list"
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.action || ''")
    first = page.locator("#action-list button[data-action]").first.get_attribute("data-action")
    assert focused == first, (focused, first)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "ply => document.body.dataset.ply !== ply || document.body.dataset.status === 'over'",
        arg=ply,
    )
    ui.wait_settled(page)


@pytest.mark.parametrize(("game", "seats", "extra"), GAMES, ids=GAME_IDS)
def test_a_whole_game_with_the_keyboard_alone(
    ui: Any, page: Any, axe_source: str, game: str, seats: list[dict[str, Any]], extra: Any
) -> None:
    open_seat(ui, page, game, seats, seed=7, **extra)
    moves = 0
    while ui.state(page).get("status") != "over":
        assert moves < 600, "the game did not end"
        keyboard_move(ui, page)
        moves += 1
        if moves == 6:  # mid-game, as a player
            assert_accessible(page, axe_source, f"{game} table")
            ui.shot(page, f"a11y-{game}{'-solo' if len(seats) == 1 else ''}-mid")
    page.wait_for_selector("#scoresheet:not([hidden])")
    assert moves > 0
    assert_accessible(page, axe_source, f"{game} score sheet")


def test_the_other_pages_pass_axe(ui: Any, page: Any, axe_source: str) -> None:
    table_id = finished_table(ui, page)
    for path, ready in [
        ("/", "#quick-buttons button"),
        ("/history", f"#history-rows tr[data-table-id='{table_id}']"),
        (f"/replay/{table_id}", "#board .era-piles"),
        ("/rules/eternity", "#rules-content h2"),
        ("/rules/vale", "#rules-content h2"),
        ("/rules/eternitium", "#rules-content h2"),
    ]:
        page.goto(ui.server.url(path))
        page.wait_for_selector(ready)
        assert_accessible(page, axe_source, path)
