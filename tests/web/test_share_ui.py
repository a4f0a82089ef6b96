"""Short share codes on the pages: a replay's "Copy position" offers, beside the self-contained
code, a short link (`/position/<id>`) that opens the position with the players' names; the
position page makes one of any position it shows; `/position#s.<id>` opens one too."""

from __future__ import annotations

from typing import Any

from tests.web.test_replay_ui import finished_table


def test_a_short_link_opens_the_position_with_the_players_names(ui: Any, page: Any) -> None:
    seats = [{"kind": "bot", "agent": "heuristic", "name": n} for n in ("Ada", "Bob", "Cy")]
    table_id = finished_table(ui, page, "eternity", seats, seed=8)
    page.goto(ui.server.url(f"/replay/{table_id}"))
    page.wait_for_function("document.body.dataset.ply === '0'")
    page.click("#replay-next")
    page.wait_for_function("document.body.dataset.ply === '1'")
    page.click("#replay-copy-position")
    short = page.locator("#position-short-link")
    short.wait_for(state="visible")
    href = short.get_attribute("href") or ""
    assert href.startswith("/position/") and len(href) <= len("/position/") + 12
    long_href = page.locator("#position-link").get_attribute("href") or ""
    assert len(long_href) > 10 * len(href)  # the self-contained code, still beside it
    page.goto(ui.server.url(href))
    page.locator("#position-shown").wait_for(state="visible")
    chips = page.locator("#seats .seat-name").all_inner_texts()
    assert chips == ["Ada", "Bob", "Cy"]
    assert "Seat" not in page.locator("#position-status").inner_text()
    assert [h.inner_text() for h in page.locator("#position-hands .hand-zone h3").all()] == chips
    assert page.url.endswith(href)  # the short address stays
    ui.shot(page, "position-07-short-link")
    # the page shares what it shows: the same position and names, the same short id
    page.click("#position-share")
    made = page.locator("#position-short")
    made.wait_for(state="visible")
    assert made.input_value() == ui.server.url(href)
    # the hash form opens it as well
    page.goto(ui.server.url("/position#s." + href.rsplit("/", 1)[1]))
    page.locator("#position-shown").wait_for(state="visible")
    assert page.locator("#seats .seat-name").all_inner_texts() == ["Ada", "Bob", "Cy"]
