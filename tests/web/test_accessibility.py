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
    ui: Any, page: Any, axe: Any, game: str, seats: list[dict[str, Any]], extra: Any
) -> None:
    open_seat(ui, page, game, seats, seed=7, **extra)
    moves = 0
    while ui.state(page).get("status") != "over":
        assert moves < 600, "the game did not end"
        keyboard_move(ui, page)
        moves += 1
        if moves == 6:  # mid-game, as a player
            axe(page, f"{game} table")
            ui.shot(page, f"a11y-{game}{'-solo' if len(seats) == 1 else ''}-mid")
    page.wait_for_selector("#scoresheet:not([hidden])")
    assert moves > 0
    axe(page, f"{game} score sheet")


def test_the_other_pages_pass_axe(ui: Any, page: Any, axe: Any) -> None:
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
        axe(page, path)


def play_until(ui: Any, page: Any, predicate: str, limit: int = 80) -> Any:
    """Keyboard moves until `predicate` (JS, the page) gives a card id; that id."""
    for _ in range(limit):
        found = page.evaluate(predicate)
        if found:
            return found
        assert ui.state(page).get("status") != "over", "the game ended first"
        keyboard_move(ui, page)
    pytest.fail("never came")


def shift_tab_to(page: Any, check: str, limit: int = 120) -> None:
    """From the start of the moves, Shift+Tab back into the board until `check` (JS, the
    focused element) holds."""
    if page.evaluate("document.activeElement.id") != "action-list":
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    for _ in range(limit):
        page.keyboard.press("Shift+Tab")
        if page.evaluate(f"(n => {check})(document.activeElement)"):
            return
    pytest.fail(f"the keyboard never reached {check}")


_MENU_CARD = """() => {
    const legal = [...document.querySelectorAll('#action-list [data-action]')]
        .map((b) => b.dataset.action);
    const card = [...document.querySelectorAll('#board button.card.legal')].find((c) =>
        legal.filter((a) => a.split(' ')[1] === c.dataset.card).length > 1);
    return card ? card.dataset.card : null;
}"""


def test_a_card_with_several_moves_opens_a_menu_the_keyboard_works(ui: Any, page: Any) -> None:
    open_seat(ui, page, "vale", [HUMAN, BOT], seed=7)
    card = play_until(ui, page, _MENU_CARD)
    shift_tab_to(page, f"n.dataset.card === '{card}' && n.dataset.zone !== 'others'")
    ply = ui.state(page)["ply"]
    page.keyboard.press("Enter")
    items = page.locator("#choice [data-choice]")
    assert items.count() >= 2
    first = page.evaluate("document.activeElement.dataset.choice")
    assert first == items.first.get_attribute("data-choice")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.choice") == items.nth(1).get_attribute(
        "data-choice"
    )
    page.keyboard.press("Escape")  # closes the menu, the focus back on the card
    assert page.locator("#choice").count() == 0
    assert page.evaluate("document.activeElement.dataset.card") == card
    assert ui.state(page)["ply"] == ply
    page.keyboard.press("Space")
    page.keyboard.press("Enter")  # the first choice
    page.wait_for_function("ply => document.body.dataset.ply !== ply", arg=ply)
    ui.wait_settled(page)
    ui.shot(page, "a11y-vale-menu")


def test_the_keyboard_reaches_a_card_and_its_pledge_button(ui: Any, page: Any) -> None:
    open_seat(ui, page, "eternity", [HUMAN, BOT, BOT], seed=5)
    card = play_until(
        ui,
        page,
        "(() => { const c = document.querySelector('#board .hand-zone button.card.pledge-only');"
        " return c ? c.dataset.card : null; })()",
    )
    shift_tab_to(page, f"n.dataset.card === '{card}'")
    assert "pledge" in page.evaluate("document.activeElement.getAttribute('aria-label')").lower()
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    ply = ui.state(page)["ply"]
    page.keyboard.press("Enter")  # a plain press never pledges: the page says how
    page.wait_for_selector("#refusal:not([hidden])")
    assert ui.state(page)["ply"] == ply
    page.keyboard.press("Tab")  # the card's own Pledge button comes next
    assert page.evaluate("document.activeElement.dataset.pledge") == card
    page.keyboard.press("Enter")
    page.wait_for_function("ply => document.body.dataset.ply !== ply", arg=ply)
    ui.wait_settled(page)
    assert page.locator(f"#board .hand-zone [data-card='{card}']").count() == 0
