"""The Vale with the Artifacts' 28 creatures and no tiles (option artifact_set 'creatures',
digest Q-A9), from the browser's lobby to the score sheet: the lobby offers the mode with its
explanation, the table has no glade and no shelter, and the game ends (at 60 points, or after
round 10)."""

from __future__ import annotations

from typing import Any


def test_a_creatures_only_table_with_a_bot_plays_to_its_end(ui: Any, page: Any) -> None:
    page.goto(ui.server.url("/"))
    page.select_option("#game-select", "vale")
    page.select_option("#players-select", "2")
    page.fill("#player-name", "Ada")
    page.click("#options-box summary")
    page.fill("#bot-delay", "0")
    page.fill("#seed", "5")
    box = page.locator("#game-options")
    box.locator("input[data-option='expansions'][data-kind='item']").check()
    chooser = box.locator("select[data-option='artifact_set']")
    labels = chooser.locator("option").all_inner_texts()
    assert "creatures only, no tiles" in labels, labels
    chooser.select_option(label="creatures only, no tiles")
    helps = " ".join(box.locator(".option-help").all_inner_texts())
    assert "no tiles and no shelter; the game ends at 60 points" in helps
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    page.click("#created [data-seat-link='0']")
    page.wait_for_url(f"**/table/{table_id}?token=*")
    ui.wait_settled(page)
    assert page.locator(".glade-zone figure.tile").count() == 0
    ui.play_to_end(page, "vale-creatures")
    assert page.locator(".seat-artifacts .cards.shelter .card").count() == 0
    scores, winners = ui.scoresheet(page)
    assert len(scores) == 2 and winners
    ui.shot(page, "vale-creatures-end")
