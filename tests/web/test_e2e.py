"""End-to-end: the browser client against the real server, in Debian's Chromium.

Each game is created from the lobby page and played to its end by clicking legal moves; the score
sheet the page shows must be the server's own summary. Screenshots: test-output/screenshots/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

GAMES = [
    # game, players, seed: Eternity at 3, The Vale at 2, Eternitium at 2 (all seats but 0 bots)
    ("eternity", 3, 11),
    ("vale", 2, 12),
    ("eternitium", 2, 13),
]


def _assert_sheet_matches_server(ui: Any, page: Any, table_id: str) -> dict[str, Any]:
    summary: dict[str, Any] = ui.server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "over"
    scores, winners = ui.scoresheet(page)
    assert scores == dict(enumerate(summary["scores"]))
    assert winners == sorted(summary["winners"])
    shown = page.locator("#scoresheet .winners").get_attribute("data-winners")
    assert shown == ",".join(str(s) for s in summary["winners"])
    return summary


@pytest.mark.parametrize(("game", "players", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_full_game_from_the_lobby(ui: Any, page: Any, game: str, players: int, seed: int) -> None:
    table_id = ui.create_from_lobby(page, game, players, seed=seed)
    ui.shot(page, f"{game}-start")
    assert page.locator("#board .hand-zone").count() == 1
    assert page.locator("#status").inner_text() == "Your turn"
    moves = ui.play_to_end(page, name=game)
    assert moves > 5
    ui.shot(page, f"{game}-end")
    summary = _assert_sheet_matches_server(ui, page, table_id)
    assert summary["plies"] >= moves
    # the game log tells what happened, in sentences, the last move last (its notation as the
    # sentence's detail)
    told = page.locator("#log li.told")
    assert told.count() >= summary["plies"] // 2
    assert told.last.get_attribute("data-ply") == str(summary["plies"])
    assert told.last.get_attribute("title").startswith(f"{summary['plies']}. ")
    assert page.locator("#rematch-button").is_visible()


def test_rematch_follows_to_the_new_table(ui: Any, page: Any) -> None:
    # a short game: solo Eternitium, mission 3 (at most 4 turns)
    seats = [{"kind": "human", "name": "Ada"}]
    created = ui.server.create("eternitium", seats, seed=21, options={"mission": 3})
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.play_to_end(page)
    page.click("#rematch-button")
    old = re.escape(created["table_id"])
    page.wait_for_url(re.compile(r"/table/(?!" + old + r")[^?]+\?token="))
    ui.wait_settled(page)
    new_id = page.url.split("/table/")[1].split("?")[0]
    assert new_id != created["table_id"]
    assert ui.server.get(f"/api/tables/{created['table_id']}")["rematch"] == new_id
    assert page.locator("#action-list button[data-action]").count() > 0


def test_cards_are_clickable_and_an_illegal_click_explains_the_rule(ui: Any, page: Any) -> None:
    # Eternity: a follower holding the led family may only follow; clicking another hand card
    # sends its natural move (play) and the server's refusal, naming the rule, is shown.
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "agent": "heuristic"}] * 2
    created = ui.server.create("eternity", seats, seed=5)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    for _ in range(40):
        # (a pledge-only card is not refused by the server: the page says how to pledge it)
        illegal = page.locator("#board .hand-zone button.card:not(.legal):not(.pledge-only)")
        if illegal.count():
            card = illegal.first.get_attribute("data-card")
            ply = ui.state(page)["ply"]
            illegal.first.click()
            message = page.locator("#board .hand-zone #refusal")  # said under the clicked card
            message.wait_for(state="visible")
            assert "Illegal move" in message.inner_text()
            assert card in message.get_attribute("title")  # the detail names the notation
            assert "§" in message.inner_text()  # the rule's section
            assert ui.state(page)["ply"] == ply  # nothing was played
            break
        # otherwise play a legal card by clicking it (the hand's legal cards are buttons)
        ui.move(page, page.locator("#board .hand-zone button.card.legal").first, choice="play")
    else:
        pytest.fail("no turn with an illegal card in hand")
    # a legal card click plays it: the card leaves the hand
    legal = page.locator("#board .hand-zone button.card.legal").first
    card = legal.get_attribute("data-card")
    ui.move(page, legal, choice="pledge")
    assert page.locator(f"#board .hand-zone [data-card='{card}']").count() == 0
    assert page.locator(f"#log li.told[title$='{card}']").count() >= 1


def test_a_french_table_tells_and_labels_in_french(ui: Any, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "agent": "heuristic"}] * 2
    created = ui.server.create("eternity", seats, seed=5)
    context = browser.new_context(locale="fr-FR", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(ui.server.url(created["seats"][0]["url"]))
        page.wait_for_selector("#log li.told")
        sentences = page.locator("#log li.told").all_inner_texts()
        assert any("manche 1" in s for s in sentences), sentences
        button = page.locator("#action-list button[data-action]").first
        button.wait_for()
        notation = button.get_attribute("data-action")
        assert button.get_attribute("title") == notation
        assert button.inner_text() != notation
        assert button.inner_text().split()[0] in ("Jouer", "Offrir")
    finally:
        context.close()


def test_phone_sized_screen(ui: Any, browser: Any, screenshots: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        bypass_csp=True,  # Playwright's string waits use eval (test_csp.py checks the pages)
    )
    try:
        page = context.new_page()
        page.goto(ui.server.url("/"))
        page.wait_for_selector(".quick-start[data-game='eternity']")
        ui.shot(page, "phone-lobby")
        page.click(".quick-start[data-game='vale']")
        page.wait_for_url("**/table/*?token=*")
        ui.wait_settled(page)
        # A touch screen has no hover for the cards' tooltips: the card texts box lists every
        # card in sight with its effect, and stays open across moves once tapped open.
        box = page.locator("details.card-texts-box")
        first = box.locator("dt").first
        assert not first.is_visible()
        box.locator("summary").tap()
        card = first.get_attribute("data-card")
        text = ui.server.get("/cards/vale/en.json")["cards"][card]["text"]
        assert text and box.locator("dd").first.inner_text() == text
        assert first.is_visible()
        for _ in range(6):
            ui.move(page, page.locator("#action-list button[data-action]").first)
        assert page.locator("details.card-texts-box dt").first.is_visible()
        ui.shot(page, "phone-vale")
        # nothing wider than the screen: no sideways scrolling
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        ui.open_moves(page)  # folded while the cards are the moves
        assert page.locator("#action-list button[data-action]").first.is_visible()
    finally:
        context.close()


def test_hint_shows_candidates(ui: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "agent": "heuristic"}]
    created = ui.server.create("vale", seats, seed=3)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    legal = page.locator("#action-list button[data-action]").evaluate_all(
        "buttons => buttons.map(b => b.dataset.action)"
    )
    page.click("#hint-button")
    page.wait_for_selector("#hint table.hint-table")
    advised = page.locator("#hint [data-hint-action]").evaluate_all(
        "buttons => buttons.map(b => b.dataset.hintAction)"
    )
    assert sorted(advised) == sorted(legal)
    assert re.search(r"\d+%", page.locator("#hint tr.best").inner_text())


def test_language_switch_and_browser_language(ui: Any, page: Any, browser: Any) -> None:
    page.goto(ui.server.url("/"))
    page.wait_for_selector(".quick-start")
    assert page.locator("h1").inner_text() == "Play a game"
    page.select_option("#lang-select", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert page.locator("h1").inner_text() == "Jouer une partie"
    assert page.locator("#create-button").inner_text() == "Créer la table"
    page.reload()  # remembered
    page.wait_for_selector(".quick-start")
    assert page.locator("h1").inner_text() == "Jouer une partie"
    page.select_option("#lang-select", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert page.locator("h1").inner_text() == "Eine Partie spielen"
    assert page.locator("nav a[href='/history']").inner_text() == "Verlauf"
    # a German browser gets German without touching the switch
    context = browser.new_context(locale="de-DE", bypass_csp=True)
    try:
        german = context.new_page()
        german.goto(ui.server.url("/rules/vale"))
        german.wait_for_selector("#rules-content h2")
        assert german.locator("#lang-select").input_value() == "de"
        assert german.locator("#rules-title").inner_text() == "Regeln von The Vale of Eternity"
    finally:
        context.close()


def test_spectator_sees_no_hand(ui: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "agent": "heuristic"}] * 2
    created = ui.server.create("eternity", seats, seed=8)
    page.goto(ui.server.url(created["spectator_url"]))
    page.wait_for_selector("#board .trump-board")
    assert page.locator("#spectator-note").is_visible()
    assert page.locator("#board .hand-zone").count() == 0
    assert page.locator("#actions").is_hidden()
    assert page.locator("#board button.card").count() == 0  # nothing to click
    assert "Waiting for Ada" in page.locator("#status").inner_text()
    ui.shot(page, "eternity-spectator")


def test_replay_steps_through_a_finished_game(ui: Any, page: Any) -> None:
    seats = [{"kind": "bot", "agent": "heuristic"}] * 2
    created = ui.server.create("eternitium", seats, seed=4)
    table_id = created["table_id"]
    summary = ui.server.get(f"/api/tables/{table_id}")
    for _ in range(100):
        if summary["status"] == "over":
            break
        page.wait_for_timeout(100)
        summary = ui.server.get(f"/api/tables/{table_id}")
    assert summary["status"] == "over"
    plies = summary["plies"]
    page.goto(ui.server.url("/history"))
    link = page.locator(f"#history-rows tr[data-table-id='{table_id}'] a")
    link.click()
    page.wait_for_url(f"**/replay/{table_id}")
    page.wait_for_selector("#board .era-piles")
    assert page.locator("#replay-position").inner_text() == f"Move 0 of {plies}"
    assert page.locator("#replay-prev").is_disabled()
    page.click("#replay-next")
    page.wait_for_function("document.body.dataset.ply === '1'")
    first = ui.server.get(f"/api/tables/{table_id}/replay")["moves"][0]
    assert first["label"] in page.locator("#replay-action").inner_text()  # said, not notation
    page.locator("#replay-slider").fill(str(plies))
    page.wait_for_function(f"document.body.dataset.ply === '{plies}'")
    assert page.locator("#replay-next").is_disabled()
    assert page.locator("#replay-position").inner_text() == f"Move {plies} of {plies}"
    page.click("#replay-prev")
    page.wait_for_function(f"document.body.dataset.ply === '{plies - 1}'")
    ui.shot(page, "eternitium-replay")
    href = page.get_attribute("#replay-download", "href")
    record = ui.server.get(href)
    assert record["game"] == "eternitium"
    assert len(record["actions"]) == plies


def test_join_an_open_public_table_from_the_lobby(ui: Any, page: Any) -> None:
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "human"},
        {"kind": "bot", "agent": "heuristic"},
    ]
    created = ui.server.create("eternity", seats, seed=9, public=True)
    table_id = created["table_id"]
    page.goto(ui.server.url("/"))
    page.fill("#player-name", "Grace")
    row = page.locator(f"#open-tables [data-table-id='{table_id}']")
    row.wait_for()
    assert "Eternity" in row.inner_text()
    row.get_by_role("button").click()
    page.wait_for_url(f"**/table/{table_id}?token=*")
    page.wait_for_selector("#seats .seat-chip.me")
    # Ada's seat 0 is still open, so the lobby gave Grace the first open seat
    me = page.locator("#seats .seat-chip.me")
    assert "Grace" in me.inner_text()
    summary = ui.server.get(f"/api/tables/{table_id}")
    grace = [s for s in summary["seats"] if s["name"] == "Grace"]
    assert len(grace) == 1 and grace[0]["claimed"]
    assert me.get_attribute("data-seat") == str(grace[0]["seat"])


def test_solo_eternitium_mission_from_the_lobby_options(ui: Any, page: Any) -> None:
    page.goto(ui.server.url("/"))
    page.select_option("#game-select", "eternitium")
    page.select_option("#players-select", "1")
    assert page.locator("#seat-rows .seat-row").count() == 1
    page.check("#mission-box input[data-mission='3']")  # 5 Era cards, at most 4 turns
    page.click("#options-box summary")
    page.fill("#bot-delay", "0")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    assert ui.server.get(f"/api/tables/{table_id}")["options"]["mission"] == 3
    page.click("#created [data-seat-link='0']")
    ui.wait_settled(page)
    assert page.locator("#board .ai").count() == 1  # the solo AI deck is shown
    ui.play_to_end(page)
    ui.shot(page, "eternitium-solo-end")
    _assert_sheet_matches_server(ui, page, table_id)


def test_reconnects_after_a_dropped_connection(ui: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "agent": "heuristic"}]
    created = ui.server.create("vale", seats, seed=17)
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    ui.move(page, page.locator("#action-list button[data-action]").first)
    ply = ui.state(page)["ply"]
    page.evaluate("window.eternaTable.dropConnection()")
    for _ in range(50):
        if len(sockets) >= 2:
            break
        page.wait_for_timeout(100)
    assert len(sockets) == 2
    ui.wait_settled(page)
    assert ui.state(page)["ply"] == ply  # resumed where the game stands
    ui.move(page, page.locator("#action-list button[data-action]").first)
    assert int(ui.state(page)["ply"]) > int(ply)


def test_turn_timer_counts_down(ui: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "agent": "heuristic"}]
    created = ui.server.create("vale", seats, seed=2, turn_timer=300)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)
    countdown = page.locator("#status #countdown")
    countdown.wait_for()
    seconds = int(re.search(r"(\d+) s left", countdown.inner_text()).group(1))  # type: ignore[union-attr]
    assert 250 <= seconds <= 300
