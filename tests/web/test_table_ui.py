"""The table page as a player sees it: card sizes, explicit pledges, refusals where the click was,
the end of the game in view and explained, the hint table inside its panel, the last card played.

Each test was written against the page before its fix and failed there. Screenshots go to
test-output/screenshots/ (table-ui-*.png), at desktop and phone sizes.
"""

from __future__ import annotations

from typing import Any

import pytest

BOTS2 = [{"kind": "bot", "agent": "heuristic"}] * 2


def _open(ui: Any, page: Any, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    created = ui.server.create(game, seats, **extra)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    table_id: str = created["table_id"]
    return table_id


def _box(locator: Any) -> dict[str, float]:
    box: dict[str, float] | None = locator.bounding_box()
    assert box is not None
    return box


def _in_viewport(page: Any, locator: Any) -> tuple[bool, Any]:
    rect: dict[str, float] = locator.evaluate(
        "n => { const r = n.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }"
    )
    height = page.evaluate("window.innerHeight")
    return bool(rect["top"] >= -2 and rect["top"] < height and rect["bottom"] > 0), (rect, height)


def _gap(a: dict[str, float], b: dict[str, float]) -> float:
    """The vertical distance between two boxes (0 when they overlap vertically)."""
    if a["y"] + a["height"] < b["y"]:
        return b["y"] - (a["y"] + a["height"])
    if b["y"] + b["height"] < a["y"]:
        return a["y"] - (b["y"] + b["height"])
    return 0.0


def _play_first_until(ui: Any, page: Any, selector: str, limit: int = 60) -> Any:
    """Play the first legal move until `selector` shows on the page; its locator."""
    for _ in range(limit):
        found = page.locator(selector)
        if found.count():
            return found.first
        assert ui.state(page).get("status") != "over", f"the game ended before {selector}"
        ui.move(page, page.locator("#action-list button[data-action]").first)
    pytest.fail(f"never saw {selector}")


def _finish_scrolled_down(ui: Any, page: Any, limit: int = 600) -> None:
    """Play to the end as a player looking at the bottom of the page: each move is clicked
    without scrolling the page to it."""
    moves = 0
    while ui.state(page).get("status") != "over":
        assert moves < limit, "the game did not end"
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        ply = ui.state(page).get("ply", "")
        page.locator("#action-list button[data-action]").first.dispatch_event("click")
        page.wait_for_function(
            "ply => document.body.dataset.ply !== ply || document.body.dataset.status === 'over'",
            arg=ply,
        )
        ui.wait_settled(page)
        moves += 1
    page.wait_for_selector("#scoresheet:not([hidden])")


# 1 ------------------------------------------------------------------------------------------


def test_a_clickable_card_is_as_large_as_a_plain_card_of_its_kind(ui: Any, page: Any) -> None:
    _open(ui, page, "eternitium", [{"kind": "human", "name": "Ada"}, BOTS2[0]], seed=13)
    clickable = page.locator("#board .era-display button.card").first
    plain = page.locator("#board .era-pile span.card").first
    a, b = _box(clickable), _box(plain)
    assert abs(a["width"] - b["width"]) <= 1, (a, b)
    assert abs(a["height"] - b["height"]) <= 1, (a, b)
    # the Portal reserve (clickable) is an Era-sized small card too
    portal = _box(page.locator("#board .reserve button.card").first)
    assert abs(portal["width"] - b["width"]) <= 1, (portal, b)
    ui.shot(page, "table-ui-eternitium-cards")


# 2 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_plain_click_never_pledges(ui: Any, page: Any, phone: Any, size: str) -> None:
    page = phone if size == "phone" else page
    _open(ui, page, "eternity", [{"kind": "human", "name": "Ada"}, *BOTS2], seed=5)
    only = _play_first_until(ui, page, "#board .hand-zone button.card.pledge-only")
    card = only.get_attribute("data-card")
    playable = page.locator("#board .hand-zone button.card.legal").first
    # they look different and say so
    style = "n => getComputedStyle(n).boxShadow + '|' + getComputedStyle(n).outlineStyle"
    assert only.evaluate(style) != playable.evaluate(style)
    assert "pledge" in (only.get_attribute("aria-label") or "").lower()
    assert "pledge-only" not in (playable.get_attribute("class") or "")
    ui.shot(page, f"table-ui-eternity-pledge-only-{size}")
    # a plain click sends nothing and says how to pledge, next to the card
    ply = ui.state(page)["ply"]
    only.click()
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert "only be pledged" in refusal.inner_text()
    assert "Pledge" in refusal.inner_text()
    page.wait_for_timeout(500)
    assert ui.state(page)["ply"] == ply
    assert page.locator(f"#board .hand-zone [data-card='{card}']").count() == 1
    assert _in_viewport(page, refusal)[0]
    assert _gap(_box(refusal), _box(page.locator(f"#board .hand-zone [data-card='{card}']"))) < 200
    ui.shot(page, f"table-ui-eternity-pledge-refused-{size}")
    # the card's own Pledge control pledges it
    pledge = page.locator(f"#board .hand-zone button[data-pledge='{card}']")
    assert pledge.inner_text().strip() == "Pledge"
    ui.move(page, pledge)
    assert page.locator(f"#board .hand-zone [data-card='{card}']").count() == 0
    assert page.locator(f"#log li.told[title$='pledge {card}']").count() == 1


# 3 ------------------------------------------------------------------------------------------


def test_a_refusal_shows_next_to_the_click_on_a_phone(ui: Any, phone: Any) -> None:
    page = phone
    _open(ui, page, "eternitium", [{"kind": "human", "name": "Ada"}, BOTS2[0]], seed=13)
    illegal = page.locator("#board .market button.card:not(.legal)").first
    ply = ui.state(page)["ply"]
    illegal.click()
    refusal = page.locator("#refusal")
    refusal.wait_for(state="visible")
    assert "Illegal move" in refusal.inner_text()
    assert ui.state(page)["ply"] == ply
    assert _in_viewport(page, refusal)[0], (
        "the refusal is off-screen",
        _in_viewport(page, refusal),
    )
    assert _gap(_box(refusal), _box(illegal)) < 200, "the refusal is far from the click"
    ui.shot(page, "table-ui-phone-refusal")


# 4, 5, 7 ------------------------------------------------------------------------------------


def test_solo_mission_ends_in_view_with_its_verdict(ui: Any, phone: Any) -> None:
    page = phone
    table_id = _open(
        ui, page, "eternitium", [{"kind": "human", "name": "Ada"}], seed=21, options={"mission": 3}
    )
    _finish_scrolled_down(ui, page)
    summary = ui.server.get(f"/api/tables/{table_id}")
    sheet = page.locator("#scoresheet")
    page.wait_for_timeout(700)  # a smooth scroll
    assert _in_viewport(page, sheet)[0], (
        "the score sheet is out of sight",
        _in_viewport(page, sheet),
    )
    verdict = page.locator("#scoresheet .winners").inner_text()
    assert verdict == ("Mission succeeded" if summary["winners"] else "Mission failed")
    assert "No winner" not in sheet.inner_text()
    assert page.locator("#status").inner_text() == f"Game over · {verdict}"
    assert page.locator("#scoresheet .result-reason").inner_text().strip()
    assert page.locator("#rematch-button").is_visible()
    ui.shot(page, "table-ui-phone-solo-end")


def test_eternitium_sheet_ranks_by_the_win_rule(ui: Any, page: Any) -> None:
    table_id = _open(ui, page, "eternitium", [{"kind": "human", "name": "Ada"}, BOTS2[0]], seed=13)
    _finish_scrolled_down(ui, page)
    summary = ui.server.get(f"/api/tables/{table_id}")
    page.wait_for_timeout(700)
    assert _in_viewport(page, page.locator("#scoresheet"))[0]
    rows = page.locator("#scoresheet .score-table tr[data-seat]")
    seats = [int(rows.nth(i).get_attribute("data-seat")) for i in range(rows.count())]
    winners = summary["winners"]
    assert winners, summary
    assert seats[: len(winners)] == sorted(winners), (seats, winners, summary["scores"])
    reason = page.locator("#scoresheet .result-reason").inner_text()
    assert "gem" in reason.lower()
    # the details (who found the gem, Era cards, Advanced cards) follow the same order
    first = page.locator("#scoresheet .rounds-table tbody tr").first
    assert first.locator("th").inner_text() == rows.first.locator("th").inner_text()
    assert first.locator("td").first.inner_text() == "◆"
    ui.shot(page, "table-ui-eternitium-end")


def test_eternity_end_explains_trees_and_tricks(ui: Any, page: Any) -> None:
    _open(ui, page, "eternity", [{"kind": "human", "name": "Ada"}, *BOTS2], seed=11)
    ui.move(page, page.locator("#action-list button[data-action]").first)
    # the last card played is marked on the board
    last = page.locator("#board .card.last-played")
    assert last.count() == 1
    title = page.locator("#log li.told[data-ply]").last.get_attribute("title")
    assert title.split()[-1] == last.get_attribute("data-card")
    ui.play_to_end(page)
    reason = page.locator("#scoresheet .result-reason").inner_text()
    assert "trees" in reason and "tricks" in reason
    ui.shot(page, "table-ui-eternity-end")


def test_your_trees_and_tricks_show_beside_your_docked_hand(ui: Any, page: Any) -> None:
    """Eternity's deciding numbers, your trees against your tricks, stay in view while you hold
    cards: on a laptop your seat's panel sits below the trick and the trump board, under the
    docked hand, so before this they were off the screen for most of a round."""
    _open(ui, page, "eternity", [{"kind": "human", "name": "Ada"}, *BOTS2], seed=11)
    for _ in range(4):  # a trick or so, so that the numbers say something
        ui.move(page, page.locator("#action-list button[data-action]").first)
    docked = page.locator("#board .hand-zone .hand-head .seat-stats")
    mine = page.locator("#board .ring > .seat-panel.me .seat-stats")
    for kind in ("trees", "tricks"):
        said = docked.locator(f".{kind} strong").inner_text()
        assert said == mine.locator(f".{kind} strong").inner_text(), kind
    covered = docked.evaluate(
        """n => { const r = n.getBoundingClientRect();
             const top = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
             return r.bottom > window.innerHeight || !(top && n.contains(top)); }"""
    )
    assert not covered, "your trees and tricks are not in view beside your hand"
    assert docked.locator(".stat").first.inner_text().startswith("Score")
    ui.shot(page, "table-ui-eternity-hand-stats")


# 6 ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_hint_table_stays_in_its_panel(ui: Any, page: Any, phone: Any, size: str) -> None:
    page = phone if size == "phone" else page
    _open(ui, page, "vale", [{"kind": "human", "name": "Ada"}, BOTS2[0]], seed=12)
    ui.open_moves(page)  # a phone folds the moves while the cards are the moves
    page.click("#hint-button")
    table = page.locator("#hint .hint-table")
    table.wait_for()
    panel = page.locator("#actions")
    width = table.evaluate("n => n.getBoundingClientRect().width")
    inner = panel.evaluate("n => n.clientWidth")
    right = table.evaluate("n => n.getBoundingClientRect().right")
    panel_right = panel.evaluate("n => n.getBoundingClientRect().right")
    assert width <= inner and right <= panel_right + 0.5, (width, inner, right, panel_right)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    ui.shot(page, f"table-ui-hint-{size}")


def test_a_pledge_only_click_is_explained_in_french(ui: Any, open_page: Any) -> None:
    with open_page(locale="fr-FR") as page:
        _open(ui, page, "eternity", [{"kind": "human", "name": "Ada"}, *BOTS2], seed=5)
        only = _play_first_until(ui, page, "#board .hand-zone button.card.pledge-only")
        assert "ne peut qu’être offerte" in (only.get_attribute("aria-label") or "")
        card = only.get_attribute("data-card")
        assert page.locator(f"button[data-pledge='{card}']").inner_text().strip() == "Offrir"
        only.click()
        refusal = page.locator("#refusal")
        refusal.wait_for(state="visible")
        assert "ne peut qu’être offerte" in refusal.inner_text()
        assert "« Offrir »" in refusal.inner_text()
        assert "pledge" not in refusal.inner_text().lower()


def test_vale_stone_values_are_written_on_the_stones(ui: Any, phone: Any) -> None:
    # a touch screen has no hover: each stone shows its value (1, 3, 6 unless a card changes
    # it), its count beside it, and says both to a screen reader
    _open(ui, phone, "vale", [{"kind": "human", "name": "Ada"}, BOTS2[0]], seed=12)
    mine = phone.locator(".vale-seat[data-seat='0'] .stone")
    assert mine.count() == 3
    values = [v.strip() for v in mine.locator(".stone-value").all_inner_texts()]
    assert values == ["1", "3", "6"]
    assert mine.first.locator(".stone-value").is_visible()
    assert "worth 1" in (mine.first.get_attribute("aria-label") or "")
    ui.shot(phone, "table-ui-vale-stones-phone")
