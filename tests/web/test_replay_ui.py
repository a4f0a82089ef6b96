"""The replay page of a finished game (docs/web.md, "Replays"): every hand is shown, a move list
beside the board labels each ply in the page's language, a click jumps to that ply, and the
ply's events are told."""

from __future__ import annotations

from typing import Any


def finished_table(ui: Any, page: Any, game: str, seats: list[dict[str, Any]], seed: int) -> str:
    created = ui.server.create(game, seats, seed=seed)
    table_id: str = created["table_id"]
    for _ in range(200):
        if ui.server.get(f"/api/tables/{table_id}")["status"] == "over":
            return table_id
        page.wait_for_timeout(100)
    raise AssertionError("the bots did not finish the game")


def test_the_replay_shows_a_move_list_every_hand_and_the_plys_events(ui: Any, page: Any) -> None:
    seats = [{"kind": "bot", "agent": "heuristic", "name": n} for n in ("Ada", "Bob", "Cy")]
    table_id = finished_table(ui, page, "eternity", seats, seed=8)
    moves = ui.server.get(f"/api/tables/{table_id}/replay")["moves"]
    page.goto(ui.server.url(f"/replay/{table_id}"))
    page.wait_for_selector("#board .trump-board")
    jumps = page.locator("#replay-moves button.move-jump")
    jumps.first.wait_for()
    assert jumps.count() == len(moves)
    assert moves[4]["label"] in jumps.nth(4).inner_text()
    # At the start every seat's hand is drawn, under its name.
    hands = page.locator("#replay-hands .hand-zone")
    hands.first.wait_for()
    assert hands.count() == 3
    assert [hands.nth(s).locator("h3").inner_text() for s in range(3)] == ["Ada", "Bob", "Cy"]
    assert all(hands.nth(s).locator(".card").count() > 0 for s in range(3))
    # A click on the fifth move jumps there: its ply is shown, marked and told.
    jumps.nth(4).click()
    page.wait_for_function("document.body.dataset.ply === '5'")
    assert jumps.nth(4).get_attribute("aria-current") == "step"
    assert page.locator("#replay-moves [aria-current]").count() == 1
    assert page.locator("#replay-position").inner_text() == f"Move 5 of {len(moves)}"
    assert moves[4]["label"] in page.locator("#replay-action").inner_text()
    step = ui.server.get(f"/api/tables/{table_id}/replay/5")
    told = page.locator("#replay-told li")
    assert told.count() == len(step["told"]) > 0
    assert told.first.inner_text() == step["told"][0]["text"]
    # The hands are those after move 5: the mover holds one card fewer than at the start.
    mover = moves[4]["seat"]
    assert len(step["views"][mover]["hand"]) == hands.nth(mover).locator(".card").count()
    ui.shot(page, "eternity-replay-moves")
    # The end: the hands as the game left them, every move still listed.
    page.click("#replay-last")
    page.wait_for_function(f"document.body.dataset.ply === '{len(moves)}'")
    assert jumps.nth(len(moves) - 1).get_attribute("aria-current") == "step"


def test_the_move_list_speaks_the_pages_language(ui: Any, page: Any) -> None:
    seats = [{"kind": "bot", "agent": "heuristic"}] * 2
    table_id = finished_table(ui, page, "vale", seats, seed=12)
    page.goto(ui.server.url(f"/replay/{table_id}?lang=fr"))
    page.evaluate("localStorage.setItem('eterna.lang', 'fr')")
    page.goto(ui.server.url(f"/replay/{table_id}"))
    page.locator("#replay-moves button.move-jump").first.wait_for()
    first = page.locator("#replay-moves button.move-jump").first.inner_text()
    french = ui.server.get(f"/api/tables/{table_id}/replay?lang=fr")["moves"][0]["label"]
    assert french in first
    assert page.locator(".replay-side h2").inner_text() == "Coups"


def test_stepping_by_event_walks_the_told_sentences_into_the_next_ply(ui: Any, page: Any) -> None:
    seats = [{"kind": "bot", "agent": "heuristic", "name": n} for n in ("Ada", "Bob", "Cy")]
    table_id = finished_table(ui, page, "eternity", seats, seed=8)
    page.goto(ui.server.url(f"/replay/{table_id}"))
    page.locator("#replay-moves button.move-jump").first.wait_for()
    page.click("#replay-moves button.move-jump >> nth=0")
    page.wait_for_function("document.body.dataset.ply === '1'")
    first = ui.server.get(f"/api/tables/{table_id}/replay/1")["told"]
    second = ui.server.get(f"/api/tables/{table_id}/replay/2")["told"]
    assert first and second
    told = page.locator("#replay-told li")
    assert page.locator("#replay-told li.current").count() == 0  # a ply's step marks none
    button = page.locator("#replay-next-event")
    for i, item in enumerate(first):  # each sentence of ply 1 in turn, by the keyboard
        button.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelectorAll('#replay-told li')[{i}].matches('.current')"
        )
        assert page.locator("#replay-told li.current").count() == 1
        assert told.nth(i).get_attribute("aria-current") == "true"
        assert told.nth(i).inner_text() == item["text"]
    assert document_ply(page) == "1"
    button.click()  # after ply 1's last sentence: ply 2's first
    page.wait_for_function("document.body.dataset.ply === '2'")
    page.wait_for_selector("#replay-told li.current")
    assert told.nth(0).get_attribute("aria-current") == "true"
    assert told.nth(0).inner_text() == second[0]["text"]
    assert page.locator("#replay-position").inner_text().startswith("Move 2 of")
    page.click("#replay-prev-event")  # and back: ply 1's last sentence
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.wait_for_selector("#replay-told li.current")
    assert told.nth(len(first) - 1).get_attribute("aria-current") == "true"
    assert page.locator("#replay-prev-event").inner_text() == "Previous event"


def document_ply(page: Any) -> str:
    ply: str = page.evaluate("document.body.dataset.ply")
    return ply
