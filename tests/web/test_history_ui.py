"""History lists the games this browser played, private ones included (the browser keeps its
seats' links, mytables.js), beside the public ones; a replay the server refuses says why and
offers no controls that would only be refused again."""

from __future__ import annotations

from typing import Any

from tests.web.test_replay_ui import finished_table

_MADE: dict[str, Any] = {}


def private_game(ui: Any, page: Any) -> dict[str, Any]:
    """A private table finished in `page`'s browser: a public bots' game's last position played
    on (`POST /api/positions/play`, a private table), its last move made on the table page."""
    if "table_id" in _MADE:
        return _MADE
    seats = [{"kind": "bot", "agent": "heuristic"}] * 2
    done = finished_table(ui, page, "vale", seats, seed=12)
    moves = ui.server.get(f"/api/tables/{done}/replay")["moves"]
    before = ui.server.get(f"/api/tables/{done}/position?at={len(moves) - 1}")
    made = ui.server.post("/api/positions/play", {"position": before["code"], "name": "Ada"})
    page.goto(ui.server.url(made["url"]))
    ui.wait_settled(page)
    ui.move(page, page.locator(f"#action-list button[data-action='{moves[-1]['action']}']"))
    assert ui.state(page)["status"] == "over"
    _MADE.update(table_id=made["table_id"], token=made["token"])
    return _MADE


def test_history_lists_this_browsers_private_game_and_opens_its_replay(ui: Any, page: Any) -> None:
    game = private_game(ui, page)
    table_id = game["table_id"]
    public = ui.server.get("/api/history?limit=100")["tables"]
    assert table_id not in [t["table_id"] for t in public]  # a private table: never listed
    page.goto(ui.server.url("/history"))
    page.wait_for_selector("body[data-loaded='true']")
    row = page.locator(f"#history-mine-rows tr[data-table-id='{table_id}']")
    assert row.count() == 1
    assert "Ada" in row.inner_text()
    assert page.locator("#history-mine-section").is_visible()
    link = row.locator("a")
    assert f"token={game['token']}" in (link.get_attribute("href") or "")
    ui.shot(page, "history-mine")
    link.click()
    page.wait_for_url(f"**/replay/{table_id}?token=*")
    page.locator("#replay-moves button.move-jump").first.wait_for()
    assert page.locator("#replay-moves button.move-jump").count() == 1
    assert page.locator("#message").is_hidden()


def test_a_refused_replay_says_why_and_offers_no_controls(
    ui: Any, page: Any, open_page: Any
) -> None:
    game = private_game(ui, page)
    table_id = game["table_id"]
    with open_page() as stranger:  # another browser: no seat link kept
        refused: list[str] = []
        stranger.on("response", lambda r: refused.append(r.url) if r.status == 403 else None)
        stranger.goto(ui.server.url(f"/replay/{table_id}"))
        stranger.wait_for_selector("body[data-refused='private']")
        message = stranger.locator("#message")
        assert message.is_visible()
        assert "private table" in message.inner_text()
        for control in ("#replay-next", "#replay-slider", "#replay-copy-position", "#board"):
            assert stranger.locator(control).count() == 0, control
        stranger.keyboard.press("ArrowRight")  # no step to ask for: nothing more is refused
        stranger.wait_for_timeout(300)
        assert len(refused) == 1, refused
        ui.shot(stranger, "replay-refused-private")
    # The browser that played there (it opened its seat link) opens the same replay link: the
    # seat link it kept lets it in.
    page.goto(ui.server.url(f"/table/{table_id}?token={game['token']}"))
    ui.wait_settled(page)
    page.goto(ui.server.url(f"/replay/{table_id}"))
    page.locator("#replay-moves button.move-jump").first.wait_for()
    assert page.locator("body[data-refused]").count() == 0
