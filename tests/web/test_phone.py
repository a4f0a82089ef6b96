"""The web client on a phone: the hand docked at the bottom of a 390x844 touch screen with the
trick or board above it, the moves panel collapsible, a whole game of each game played by
tapping, and no page wider than a 360 px screen.

Screenshots of every page at 390x844 go to test-output/screenshots/ (phone-*.png).
"""

from __future__ import annotations

from typing import Any

import pytest

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "agent": "heuristic"}
GAMES = [
    ("eternity", [HUMAN, BOT, BOT], {}, ".trick-zone"),
    ("vale", [HUMAN, BOT], {}, ".hunting"),
    ("eternitium", [HUMAN, BOT], {}, ".markets"),  # the play first, the Era piles below
    ("eternitium", [HUMAN], {"options": {"mission": 3}}, ".markets"),
]
GAME_IDS = ["eternity", "vale", "eternitium", "eternitium-solo"]
NARROW = {"width": 360, "height": 740}


def open_seat(ui: Any, page: Any, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    created = ui.server.create(game, seats, **extra)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    table_id: str = created["table_id"]
    return table_id


def rect(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.locator(selector).first.evaluate(
        "n => { const r = n.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"
    )
    return box


def assert_docked(page: Any, board_zone: str) -> None:
    """The hand touches the bottom of the screen, the trick or board shows above it (the page
    as it opens: a tap on a move below the board scrolls it away, a tap on a card does not)."""
    page.evaluate("window.scrollTo(0, 0)")
    height = page.evaluate("window.innerHeight")
    hand = rect(page, "#board .hand-zone")
    assert abs(hand["bottom"] - height) <= 1, (hand, height)
    assert hand["top"] > height * 0.45, f"the hand covers too much of the screen: {hand}"
    zone = rect(page, f"#board {board_zone}")
    assert 0 <= zone["top"] < hand["top"], (zone, hand)


def holds_cards(page: Any) -> bool:
    return bool(page.locator("#board .hand-zone .cards.hand .card").count())


def no_sideways_scroll(page: Any, where: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"{where}: {width} px wide on a {NARROW['width']} px screen"


def tap_move(ui: Any, page: Any) -> None:
    ply = ui.state(page).get("ply", "")
    toggle = page.locator("#moves-toggle")
    if toggle.get_attribute("aria-expanded") == "false":  # folded: the cards are the moves
        toggle.tap()
    # a Vale player who never tames holds no card: tame when the rules allow it
    tame = page.locator("#action-list button[data-action^='tame ']")
    (tame if tame.count() else page.locator("#action-list button[data-action]")).first.tap()
    page.wait_for_function(
        "ply => document.body.dataset.ply !== ply || document.body.dataset.status === 'over'",
        arg=ply,
    )
    ui.wait_settled(page)


@pytest.mark.parametrize(("game", "seats", "extra", "zone"), GAMES, ids=GAME_IDS)
def test_a_whole_game_tapped_on_a_phone(
    ui: Any,
    phone: Any,
    axe: Any,
    game: str,
    seats: list[dict[str, Any]],
    extra: Any,
    zone: str,
) -> None:
    open_seat(ui, phone, game, seats, seed=11, **extra)
    name = f"phone-{game}{'-solo' if len(seats) == 1 else ''}"
    ui.shot(phone, f"{name}-start")
    moves = docked = 0
    while ui.state(phone).get("status") != "over":
        assert moves < 600, "the game did not end"
        if holds_cards(phone) and docked < 2:  # checked at its first two chances
            assert_docked(phone, zone)
            docked += 1
            if docked == 2:
                axe(phone, f"{game} on a phone")
                phone.screenshot(path=str(ui.shots / f"{name}-mid.png"))  # the screen as seen
        tap_move(ui, phone)
        moves += 1
    assert docked == 2, "the hand was never held"
    phone.wait_for_selector("#scoresheet:not([hidden])")
    assert moves > 0
    ui.shot(phone, f"{name}-end")


def test_the_moves_panel_folds_away(ui: Any, phone: Any) -> None:
    """Where the cards are the moves (a tap on a card plays it), the moves panel folds by itself:
    its head and Show button stay in view above the board, and nothing pushes the current trick
    off the screen; opened, it stays open until the next move; a fold the player chose is
    remembered on the next visit."""
    open_seat(ui, phone, "eternity", [HUMAN, BOT, BOT], seed=11)
    assert ui.state(phone)["cardMoves"] == "1"
    toggle = phone.locator("#moves-toggle")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert toggle.inner_text() == "Show"
    assert not phone.locator("#action-list").is_visible()
    height = phone.evaluate("window.innerHeight")
    control, trick = rect(phone, "#moves-toggle"), rect(phone, "#board .trick-zone")
    hand = rect(phone, "#board .hand-zone")
    assert control["top"] >= 0 and control["bottom"] <= trick["top"], (control, trick)
    # the whole current trick on the screen, above the docked hand
    assert trick["top"] >= 0 and trick["bottom"] <= hand["top"] + 1, (trick, hand, height)
    # opened by its control: the moves show until the next move, then fold again
    toggle.tap()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert phone.locator("#action-list button[data-action]").first.is_visible()
    ui.move(phone, phone.locator("#board .hand-zone button.card.legal").first)
    if ui.state(phone).get("cardMoves") == "1":
        assert toggle.get_attribute("aria-expanded") == "false"
        assert not phone.locator("#action-list").is_visible()
    # the hand stays playable; a fold chosen by the player is remembered on the next visit
    toggle.tap()
    toggle.tap()
    assert toggle.get_attribute("aria-expanded") == "false"
    assert phone.locator("#board .hand-zone button.card.legal").first.is_visible()
    phone.reload()
    ui.wait_settled(phone)
    assert phone.locator("#moves-toggle").get_attribute("aria-expanded") == "false"
    phone.locator("#moves-toggle").tap()
    assert phone.locator("#action-list button[data-action]").first.is_visible()


def _in_view(page: Any, selector: str) -> dict[str, float]:
    """The element's rectangle, which must lie whole on the screen (above the docked hand when
    it is not the hand itself)."""
    box = rect(page, selector)
    width, height = page.evaluate("[window.innerWidth, window.innerHeight]")
    assert box["top"] >= -1 and box["bottom"] <= height + 1, f"{selector} off the screen: {box}"
    assert box["left"] >= -1 and box["right"] <= width + 1, f"{selector} off the screen: {box}"
    return box


def test_eternitium_on_a_phone_shows_the_market_not_the_moves(ui: Any, phone: Any) -> None:
    """Eternitium on a phone: every buy is a market card to tap and the hand's moves are its
    cards, so the moves panel folds by itself; its head keeps the few moves no card makes (Pass,
    End turn) one tap away, and the markets and the hand are on the screen together."""
    open_seat(ui, phone, "eternitium", [HUMAN, BOT], seed=12)
    seen: set[str] = set()
    for _ in range(60):
        if ui.state(phone).get("status") == "over" or {"acquire", "play"} <= seen:
            break
        legal = phone.locator("#action-list [data-action]").evaluate_all(
            "ns => ns.map((n) => n.dataset.action)"
        )
        verbs = {action.split()[0] for action in legal}
        phase = "acquire" if "acquire" in verbs else "play" if "play" in verbs else None
        if phase and phase not in seen:
            seen.add(phase)
            phone.evaluate("window.scrollTo(0, 0)")  # as it opens (a tap in the list scrolled)
            where = f"the {phase} phase ({legal})"
            assert ui.state(phone)["movesFolded"] == "1", f"{where}: the moves panel is open"
            assert not phone.locator("#action-list").is_visible(), where
            head = _in_view(phone, "#actions .panel-head")
            markets = _in_view(phone, "#board .markets")
            assert head["bottom"] <= markets["top"], (head, markets)
            if holds_cards(phone):
                hand = _in_view(phone, "#board .hand-zone")
                assert markets["bottom"] <= hand["top"] + 1, f"{where}: {markets} / {hand}"
            # the moves no card makes: buttons in the folded head, each one tap away
            quick = phone.locator("#moves-quick button[data-action]")
            actions = quick.evaluate_all("ns => ns.map((n) => n.dataset.action)")
            assert {"pass" if phase == "acquire" else "end"} <= set(actions) <= set(legal), where
            for i in range(quick.count()):
                _in_view(phone, f"#moves-quick button[data-action] >> nth={i}")
            phone.screenshot(path=str(ui.shots / f"phone-eternitium-{phase}.png"))
        tap_move(ui, phone)
    assert {"acquire", "play"} <= seen, f"only {seen} seen"


def test_no_page_is_wider_than_a_small_phone(ui: Any, phone: Any) -> None:
    phone.set_viewport_size(NARROW)
    for game, seats, extra, _ in GAMES:
        open_seat(ui, phone, game, seats, seed=3, **extra)
        no_sideways_scroll(phone, f"{game} table")
        for _ in range(5):  # mid-game too
            if ui.state(phone).get("status") == "over":
                break
            tap_move(ui, phone)
        no_sideways_scroll(phone, f"{game} table, mid-game")
    finished = ui.server.create("eternitium", [BOT, BOT], seed=4)["table_id"]
    for _ in range(150):
        if ui.server.get(f"/api/tables/{finished}")["status"] == "over":
            break
        phone.wait_for_timeout(100)
    phone.set_viewport_size({"width": 390, "height": 844})
    for path, ready, name in [
        ("/", "#quick-buttons button", "lobby"),
        ("/history", f"#history-rows tr[data-table-id='{finished}']", "history"),
        (f"/replay/{finished}", "#board .era-piles", "replay"),
        ("/rules/eternity", "#rules-content h2", "rules-eternity"),
        ("/rules/vale", "#rules-content h2", "rules-vale"),
        ("/rules/eternitium", "#rules-content h2", "rules-eternitium"),
    ]:
        phone.goto(ui.server.url(path))
        phone.wait_for_selector(ready)
        ui.shot(phone, f"phone-{name}")
        phone.set_viewport_size(NARROW)
        no_sideways_scroll(phone, path)
        phone.set_viewport_size({"width": 390, "height": 844})
