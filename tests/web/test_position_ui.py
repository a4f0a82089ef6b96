"""The position page, as a player uses it: "Copy position" at a live table gives the seat's own
position and a link to /position, which draws it with the game's renderer, lists the seat's
moves in words, asks the search for a hint (with the keyboard alone) and opens a table to play
on against bots; a replay copies the whole position at the ply shown. Axe checks the page."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import UI

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "agent": "heuristic"}
NARROW = {"width": 360, "height": 740}  # as test_phone.py's smallest phone


def copy_from_table(ui: UI, page: Any) -> str:
    """Take seat 0 of a new Eternity table, wait for its turn, copy its position: the link."""
    created = ui.server.create("eternity", [HUMAN, BOT, BOT], seed=5)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    assert page.locator("#spectator-copy").is_visible()
    page.click("#position-copy")
    link = page.locator("#position-link")
    link.wait_for(state="visible")
    href: str = link.get_attribute("href")
    assert href.startswith("/position#ep1.")
    ui.shot(page, "position-01-table-copied")
    return href


def test_copy_a_position_open_it_ask_a_hint_and_play_on(ui: UI, open_page: Any, axe: Any) -> None:
    with open_page() as page:
        href = copy_from_table(ui, page)
        moves = page.locator("#action-list button[data-action]").count()
        page.goto(ui.server.url(href))
        page.locator("#position-shown").wait_for(state="visible")
        assert page.locator("#position-heading").inner_text() == "Eternity · Seat 1's position"
        assert page.locator("#position-status").inner_text() == "Seat 1 to move."
        assert page.locator("#position-guess").is_visible()
        assert page.locator("#position-moves li").count() == moves
        assert page.locator("#board .card").count() > 0  # drawn by the game's own renderer
        ui.shot(page, "position-02-opened")
        axe(page, "position page")
        # the hint, with the keyboard alone: Tab from the moves' panel to the hint button
        page.focus("#position-open")
        for _ in range(10):
            if page.evaluate("document.activeElement.id") == "position-hint":
                break
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "position-hint"
        page.keyboard.press("Enter")
        page.locator(".hint-table tbody tr").first.wait_for()
        assert page.locator(".hint-table tbody tr").count() == moves
        assert page.locator(".hint-best").inner_text().startswith("Advice for Seat 1: ")
        ui.shot(page, "position-03-hint")
        axe(page, "position page with a hint")
        page.click("#position-play")
        page.wait_for_url("**/table/*?token=*")
        ui.wait_settled(page)
        assert ui.state(page).get("status") != "over"
        assert page.locator("#action-list button[data-action]").count() == moves
        ui.shot(page, "position-04-played-on")


def test_a_bad_position_says_what_is_wrong_in_the_pages_language(ui: UI, open_page: Any) -> None:
    with open_page(locale="fr-FR") as page:
        page.goto(ui.server.url("/position"))
        page.fill("#position-text", '{"format": "eterna-position", "game": "eternity"}')
        page.click("#position-open")
        message = page.locator("#message")
        message.wait_for(state="visible")
        text = message.inner_text()
        assert text.splitlines() == [
            "Cette position est illisible : voyez le champ indiqué.",
            "Champ version : position version: is missing",
        ]
        assert page.locator("#position-shown").is_hidden()
        ui.shot(page, "position-05-bad-fr")


def test_a_slow_server_never_loses_the_first_click(ui: UI, open_page: Any) -> None:
    """The race behind a test that failed under the full suite's load only: the page's script
    binds "Open" after fetching its language, so a click that came sooner submitted the bare
    form and reloaded the page. Every request here takes 1 s, as on a busy server: the tests
    wait for body[data-ready] (conftest's goto) before they type or click."""
    with open_page(locale="fr-FR") as page:
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        slow = {"offline": False, "latency": 1000, "downloadThroughput": -1, "uploadThroughput": -1}
        cdp.send("Network.emulateNetworkConditions", slow)
        page.goto(ui.server.url("/position"))
        page.fill("#position-text", '{"format": "eterna-position", "game": "eternity"}')
        page.click("#position-open")
        page.locator("#message").wait_for(state="visible")
        assert page.locator("#message").inner_text().startswith("Cette position est illisible")
        assert page.url == ui.server.url("/position")  # not reloaded by a native submit


def test_a_replay_copies_the_whole_position_at_the_ply_shown(ui: UI, open_page: Any) -> None:
    created = ui.server.create("eternity", [{"kind": "bot", "agent": "random"}] * 3, seed=3)
    table_id = created["table_id"]
    with open_page() as page:
        for _ in range(200):
            if ui.server.get(f"/api/tables/{table_id}")["status"] == "over":
                break
            page.wait_for_timeout(100)
        page.goto(ui.server.url(f"/replay/{table_id}"))
        page.wait_for_function("document.body.dataset.ply === '0'")
        page.click("#replay-next")
        page.wait_for_function("document.body.dataset.ply === '1'")
        page.click("#replay-copy-position")
        link = page.locator("#position-link")
        link.wait_for(state="visible")
        expected = ui.server.get(f"/api/tables/{table_id}/position?at=1")["code"]
        assert link.get_attribute("href") == f"/position#{expected}"
        page.goto(ui.server.url(link.get_attribute("href")))
        page.locator("#position-shown").wait_for(state="visible")
        heading = "Eternity · the whole position, as a spectator sees it"
        assert page.locator("#position-heading").inner_text() == heading
        assert page.locator("#position-hands .hand-zone").count() == 3  # every hand is known
        assert page.locator("#position-moves li").count() > 0  # the seat to move's
        ui.shot(page, "position-06-from-replay")


@pytest.mark.parametrize(("game", "players"), [("eternity", 3), ("vale", 2), ("eternitium", 2)])
def test_every_games_position_fits_a_small_phone(
    ui: UI, phone: Any, game: str, players: int
) -> None:
    bots = [{"kind": "bot", "agent": "random"}] * players
    table_id = ui.server.create(game, bots, seed=6)["table_id"]
    for _ in range(300):
        if ui.server.get(f"/api/tables/{table_id}")["status"] == "over":
            break
        phone.wait_for_timeout(100)
    code = ui.server.get(f"/api/tables/{table_id}/position?at=7")["code"]
    phone.goto(ui.server.url(f"/position#{code}"))
    phone.locator("#position-shown").wait_for(state="visible")
    assert phone.locator("#board .card").count() > 0
    assert phone.locator("#position-hands .hand-zone").count() == players
    ui.shot(phone, f"position-phone-{game}")
    phone.set_viewport_size(NARROW)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"{game}: {width} px wide on a {NARROW['width']} px screen"
