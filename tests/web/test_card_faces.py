"""Card faces and motion on the table page: Vale creatures with cost, family, effect icons and
their text in the page's language, a zoom that never takes a playing click, Eternity cards with
their trees and a trump board as large as the trick, Eternitium technologies at a glance, the new
cards coming in (not under reduced motion) and a won trick staying in view a moment.

Screenshots: test-output/screenshots/faces-*.png, desktop (1280x900) and phone (390x844).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

BOT = {"kind": "bot", "agent": "heuristic"}
HUMAN = {"kind": "human", "name": "Ada"}
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


# open_page's options per size (tests/web/conftest.py: desktop 1280x900 by default)
SIZE_OPTIONS: dict[str, dict[str, Any]] = {
    "desktop": {},
    "phone": {
        "viewport": SIZES["phone"],
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}


def _open(ui: Any, page: Any, game: str, seats: list[dict[str, Any]], **extra: Any) -> None:
    created = ui.server.create(game, seats, **extra)
    page.goto(ui.server.url(created["seats"][0]["url"]))
    ui.wait_settled(page)


def _width(locator: Any) -> float:
    # the laid-out width, whatever a card's entrance animation scales for a moment
    width: float = locator.evaluate("n => n.offsetWidth")
    return width


def _first_move(ui: Any, page: Any) -> None:
    ui.move(page, page.locator("#action-list button[data-action]").first)


def test_a_vale_card_shows_cost_family_icons_and_its_french_text(ui: Any, open_page: Any) -> None:
    cards = ui.server.get("/cards/vale/fr.json")["cards"]
    with open_page(locale="fr-FR") as page:
        _open(ui, page, "vale", [HUMAN, BOT], seed=4)
        node = page.locator("#board .revealed .card").first
        card = node.get_attribute("data-card")
        info = cards[card]
        assert node.locator(".card-cost").text_content() == str(info["cost"])
        assert node.locator(f".emblem-{info['family']}").count() == 1
        assert node.locator(".effect-icon").count() == len(info["kinds"]) >= 1
        face = " ".join(node.locator(".card-text").all_text_contents())
        # the effect in a few French words on the card itself (vale.short.<card>), each part's
        # kind sign left to the icons; the whole text in the name and the zoom
        short = " · ".join(re.sub(r"^[⚡∞⌛]\s*", "", p) for p in info["short"].split(" · "))
        assert face.replace(" ", "") == short.replace(" ", ""), (face, info["short"])
        assert "…" not in face and face != info["text"]
        label = node.get_attribute("aria-label") or ""
        assert info["name"] in label and "coût" in label and "effet" in label
        assert info["text"] in label
        # the zoom: the whole text, large; Escape closes it and gives the focus back
        zoom = page.locator("#board .revealed .card-zoom").first
        assert "en grand" in (zoom.get_attribute("aria-label") or "")
        zoom.click()
        dialog = page.locator("#card-zoom [role=dialog]")
        assert dialog.is_visible()
        assert page.locator("#card-zoom .card-zoom-text").inner_text() == info["text"]
        assert page.evaluate("document.activeElement.classList.contains('card-zoom-close')")
        ui.shot(page, "faces-vale-zoom-fr")
        page.keyboard.press("Escape")
        assert page.locator("#card-zoom").count() == 0
        assert page.evaluate("document.activeElement.classList.contains('card-zoom')")
        # a click outside the dialog closes it too
        zoom.click()
        page.mouse.click(5, 5)
        assert page.locator("#card-zoom").count() == 0
        # and a plain click on a playable card still plays it
        playable = page.locator("#board .revealed button.card.legal").first
        claimed = playable.get_attribute("data-card")
        ply = ui.state(page)["ply"]
        ui.move(page, playable)
        assert ui.state(page)["ply"] != ply
        assert page.locator("#card-zoom").count() == 0
        assert page.locator(f"#board [data-zone=claimed][data-card='{claimed}']").count() == 1


def _trees(value: int) -> int:
    return 0 if value <= 4 else 1 if value <= 9 else 2


def test_eternity_cards_show_their_trees_and_the_trump_board_is_as_large(
    ui: Any, page: Any
) -> None:
    _open(ui, page, "eternity", [HUMAN, BOT, BOT], seed=5)
    hand = page.locator("#board .hand-zone .card")
    assert hand.count() > 5
    for i in range(hand.count()):
        node = hand.nth(i)
        value = int((node.get_attribute("data-card") or "").split("-")[1])
        assert node.locator(".tree").count() == _trees(value), value
        assert node.locator(".card-value").text_content() == str(value)
    for _ in range(40):  # until a card stands on the trump board and one in the trick
        if (
            page.locator("#board .trump-board .card").count()
            and page.locator("#board .trick .card").count()
        ):
            break
        _first_move(ui, page)
    board = page.locator("#board .trump-board .card").first
    trick = page.locator("#board .trick .card").first
    assert _width(board) >= _width(trick) - 0.5
    value = int((board.get_attribute("data-card") or "").split("-")[1])
    assert board.locator(".tree").count() == _trees(value)


def test_eternitium_technologies_say_their_effect_at_a_glance(ui: Any, page: Any) -> None:
    glance = {
        "droid": "Reveal your next hidden Era card",
        "futuristic-smartphone": "Draw 2 Action cards",
    }
    _open(ui, page, "eternitium", [HUMAN, BOT], seed=13)
    texts = ui.server.get("/cards/eternitium/en.json")["cards"]
    market = page.locator("#board .market .card-wrap .card")
    assert market.count() >= 3
    for i in range(market.count()):
        node = market.nth(i)
        card = node.get_attribute("data-card") or ""
        face = " ".join(node.locator(".card-text").all_text_contents()).replace("…", "")
        assert face, card
        if card in glance:
            assert face == glance[card]
    node = page.locator("#board .market .card-wrap").first
    card = node.locator(".card").get_attribute("data-card") or ""
    node.locator(".card-zoom").click()
    assert page.locator("#card-zoom .card-zoom-text").inner_text() == texts[card]["text"]
    page.keyboard.press("Escape")
    assert page.locator("#card-zoom").count() == 0


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_new_cards_come_in_unless_motion_is_reduced(ui: Any, open_page: Any, motion: str) -> None:
    with open_page(reduced_motion=motion) as page:
        _open(ui, page, "eternity", [HUMAN, BOT, BOT], seed=11)
        assert page.locator("#board .card.enter").count() == 0  # the first drawing: nothing new
        _first_move(ui, page)
        last = page.locator("#board .card.last-played")
        entered = page.locator("#board .card.enter").count()
        animation = last.evaluate("n => getComputedStyle(n).animationName")
        if motion == "reduce":
            assert entered == 0 and animation == "none"
        else:
            assert entered >= 1 and "card-enter" in animation


def test_a_won_trick_stays_a_moment_while_the_next_move_can_be_made(ui: Any, page: Any) -> None:
    _open(ui, page, "eternity", [HUMAN, BOT, BOT], seed=11)
    done = page.locator("#board .trick-zone .completed-trick")
    for _ in range(10):
        _first_move(ui, page)
        if done.count():
            break
    assert done.count() == 1
    # the page is already waiting for the next move, the won trick shown with its winner
    assert ui.state(page)["myTurn"] == "1"
    assert done.locator(".card").count() >= 3
    assert page.locator("#board .trick-zone .completed-trick figure.winner").count() == 1
    assert page.locator("#action-list button[data-action]:not([disabled])").count() >= 1
    done.wait_for(state="detached", timeout=4000)


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", ["vale", "eternity", "eternitium"])
def test_screenshots_of_the_faces(ui: Any, open_page: Any, game: str, size: str) -> None:
    seats = [HUMAN, BOT, BOT] if game == "eternity" else [HUMAN, BOT]
    with open_page(**SIZE_OPTIONS[size]) as page:
        _open(ui, page, game, seats, seed=7)
        for _ in range(6 if game != "eternitium" else 2):
            if ui.state(page).get("status") == "over":
                break
            _first_move(ui, page)
        page.wait_for_timeout(1600)  # past the won trick's moment
        # nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
        ui.shot(page, f"faces-{game}-{size}")
        zoom = page.locator("#board .card-zoom")
        if zoom.count():  # a card with words, large
            zoom.first.click()
            page.wait_for_timeout(300)
            ui.shot(page, f"faces-{game}-zoom-{size}")
            page.keyboard.press("Escape")
            assert page.locator("#card-zoom").count() == 0


def test_an_era_pile_that_drops_pulses_its_count(ui: Any, page: Any) -> None:
    _open(ui, page, "eternitium", [HUMAN, BOT], seed=13)
    pulse = page.locator("#board .era-pile .stat.pulse")
    for _ in range(30):
        _first_move(ui, page)
        if pulse.count() or ui.state(page).get("status") == "over":
            break
    assert pulse.count() >= 1
