"""Discarding down to the Vale's stone limit is one dialog with a confirm (the stones of each
colour counted, confirm once the count is right), not a click per stone; the page then plays
one engine move per stone, in order, so the record replays alike."""

from __future__ import annotations

import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest

import eterna
from eterna.core.position import share_code


def over_the_limit_code(seed: int = 1, moves: int = 19) -> str:
    """Seat 1 of a 2-player Vale over its stone limit after `moves` random moves: by default
    holding 5 red and 1 blue stones, limit 4: discard 2."""
    state = eterna.load_game("vale").new_game(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
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


ONE_OVER = {
    # language: (title, the blue row, the count before, the count after, confirm)
    "en": (
        "Discard 1 stone: you hold 5, the limit is 4",
        "(1 held)",
        "0 of 1 chosen",
        "1 of 1 chosen",
        "Discard this stone",
    ),
    "fr": (
        "Défaussez 1 pierre : vous en avez 5, la limite est 4",
        "(1 possédée)",
        "0 sur 1 choisie",
        "1 sur 1 choisie",
        "Défausser cette pierre",
    ),
    "de": (
        "Wirf 1 Stein ab: Du hast 5, das Limit ist 4",
        "(1 vorhanden)",
        "0 von 1 gewählt",
        "1 von 1 gewählt",
        "Diesen Stein abwerfen",
    ),
}


@pytest.mark.parametrize("lang", sorted(ONE_OVER))
def test_one_stone_over_the_limit_reads_in_the_singular(
    ui: Any, open_page: Callable[..., AbstractContextManager[Any]], lang: str
) -> None:
    """One stone to discard reads "Discard 1 stone" and "Discard this stone" (it read "Discard
    1 stones" and "Discard these 1 stones"), in every language's own plural rule."""
    code = over_the_limit_code(seed=7, moves=6)  # 4 red and 1 blue, limit 4: discard 1
    made = ui.server.post("/api/positions/play", {"position": code})
    title, blue_row, before, after, confirm_text = ONE_OVER[lang]
    with open_page(locale={"en": "en-GB", "fr": "fr-FR", "de": "de-DE"}[lang]) as page:
        page.goto(ui.server.url(made["url"]))
        ui.wait_settled(page)
        dialog = page.locator(".grouped-choice")
        dialog.wait_for()
        assert dialog.locator("h3").inner_text() == title
        blue = dialog.locator("[data-colour='blue']")
        assert blue_row in blue.locator(".grouped-choice-name").inner_text()
        assert dialog.locator(".grouped-choice-count").inner_text() == before
        confirm = dialog.locator(".grouped-choice-confirm")
        assert confirm.inner_text() == confirm_text
        blue.locator(".more").click()
        assert dialog.locator(".grouped-choice-count").inner_text() == after
        assert confirm.is_enabled()
        ui.shot(page, f"vale-one-stone-over-{lang}")
        start = int(ui.state(page)["ply"])
        confirm.click()
        page.wait_for_function("want => Number(document.body.dataset.ply) >= want", arg=start + 1)
        ui.wait_settled(page)
        assert page.locator(".grouped-choice").count() == 0
    mine = ui.server.get(f"/api/tables/{made['table_id']}/position?token={made['token']}")
    stones = eterna.load_game("vale").from_position(mine["position"]).view(1)["stones"][1]
    assert stones == {"red": 4, "blue": 0, "purple": 0}
