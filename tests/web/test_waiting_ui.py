"""A table waiting for its players (docs/web.md, "Waiting for players"): the host's page says so,
lists the seats not taken yet and gives one to a bot with a click; then the game starts. A guest
sees no such button."""

from __future__ import annotations

from typing import Any


def test_the_host_waits_then_fills_the_seat_with_a_bot(ui: Any, page: Any) -> None:
    # Seed 5: seat 2 (a bot) moves first; it must not play before seat 1 is taken.
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "human", "reserved": True},
        {"kind": "bot", "agent": "heuristic", "name": "Cy"},
    ]
    created = ui.server.create("eternity", seats, seed=5)
    table_id = created["table_id"]
    page.goto(ui.server.url(created["seats"][0]["url"]))
    page.wait_for_selector("#waiting-box .fill-seat")
    assert "Waiting for players" in page.locator("#status").inner_text()
    assert page.locator("#waiting-box li").count() == 1
    assert page.locator("#waiting-box li").get_attribute("data-seat") == "1"
    assert page.locator("#board button.card").count() == 0  # nothing to click yet
    page.wait_for_timeout(500)
    assert ui.server.get(f"/api/tables/{table_id}")["plies"] == 0  # the bot waits too
    ui.shot(page, "eternity-waiting-host")
    page.click("#waiting-box .fill-seat[data-seat='1']")
    page.wait_for_selector("#waiting-box", state="detached")
    page.wait_for_function("Number(document.body.dataset.ply) >= 1")  # the bots played
    summary = ui.server.get(f"/api/tables/{table_id}")
    assert summary["waiting"] is False and summary["seats"][1]["kind"] == "bot"
    assert "Waiting for players" not in page.locator("#status").inner_text()


def test_a_guest_waits_without_a_fill_button(ui: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "human"}]
    created = ui.server.create("eternity", seats, seed=5, public=False)
    page.goto(ui.server.url(f"{created['seats'][1]['url']}&lang=fr"))
    page.evaluate("localStorage.setItem('eterna.lang', 'fr')")
    page.reload()
    page.wait_for_selector("#waiting-box li[data-seat='2']")
    assert "En attente des joueurs" in page.locator("#status").inner_text()
    assert page.locator("#waiting-box .fill-seat").count() == 0


def test_the_seat_to_move_cannot_act_while_waiting(ui: Any, page: Any) -> None:
    # Seed 1: Ada (seat 0) moves first; her moves are listed but not playable yet.
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human"}, {"kind": "bot"}]
    created = ui.server.create("eternity", seats, seed=1)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    page.wait_for_selector("#waiting-box .fill-seat")
    buttons = page.locator("#action-list button.action")
    assert buttons.count() > 0
    assert all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
    assert page.locator("#board button.card").count() == 0
    page.click("#waiting-box .fill-seat[data-seat='1']")
    page.wait_for_selector("#waiting-box", state="detached")
    page.wait_for_selector("#action-list button.action:not([disabled])")


def test_a_timer_move_is_announced_in_the_log(ui: Any, page: Any) -> None:
    # Seed 1: Ada (seat 0) moves first and lets her one second run out.
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "agent": "heuristic"}] * 2
    created = ui.server.create("eternity", seats, seed=1, turn_timer=1.0)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    told = page.locator("#log li[data-kind='timeout']")
    told.first.wait_for(timeout=15000)
    text = told.first.inner_text()
    assert text.startswith("Time ran out for Ada; played automatically: Play ")
    # Told before the events of the move it announces.
    following = page.locator("#log li[data-kind='timeout'] + li")
    assert "Ada" in following.first.inner_text()
