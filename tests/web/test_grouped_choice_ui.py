"""Discarding down to the Vale's stone limit is one dialog with a confirm (the stones of each
colour counted, confirm once the count is right), not a click per stone; the page then plays
one engine move per stone, in order, so the record replays alike."""

from __future__ import annotations

import random
from typing import Any

import eterna
from eterna.core.position import share_code


def over_the_limit_code() -> str:
    """Seat 1 of a 2-player Vale holding 5 red and 1 blue stones, limit 4: discard 2."""
    state = eterna.load_game("vale").new_game(2, seed=1)
    rng = random.Random(1)
    for _ in range(19):
        state.apply(rng.choice(state.legal_actions()))
    assert state.view(1)["pending"]["kind"] == "stone_limit"
    return share_code(state.to_position())


def test_discarding_down_to_the_limit_is_one_dialog_with_a_confirm(ui: Any, page: Any) -> None:
    made = ui.server.post("/api/positions/play", {"position": over_the_limit_code()})
    assert made["seat"] == 1
    page.goto(ui.server.url(made["url"]))
    ui.wait_settled(page)
    dialog = page.locator(".grouped-choice")
    dialog.wait_for()
    assert "Discard 2 stones" in dialog.locator("h3").inner_text()
    confirm = dialog.locator(".grouped-choice-confirm")
    assert confirm.is_disabled()
    red, blue = dialog.locator("[data-colour='red']"), dialog.locator("[data-colour='blue']")
    assert dialog.locator("[data-colour='purple']").count() == 0  # none held
    blue.locator(".more").click()
    assert blue.locator(".more").is_disabled()  # one blue stone held
    assert confirm.is_disabled()  # one of two chosen
    red.locator(".more").click()
    assert red.locator(".more").is_disabled()  # two chosen: no more
    assert dialog.locator(".grouped-choice-count").inner_text() == "2 of 2 chosen"
    ui.shot(page, "vale-grouped-stone-discard")
    start = int(ui.state(page)["ply"])
    confirm.click()
    page.wait_for_function("want => Number(document.body.dataset.ply) >= want", arg=start + 2)
    ui.wait_settled(page)
    assert page.locator(".grouped-choice").count() == 0
    assert int(ui.state(page)["ply"]) == start + 2  # one move per stone, and no other
    mine = ui.server.get(f"/api/tables/{made['table_id']}/position?token={made['token']}")
    stones = eterna.load_game("vale").from_position(mine["position"]).view(1)["stones"][1]
    assert stones == {"red": 4, "blue": 0, "purple": 0}
