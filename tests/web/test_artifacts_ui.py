"""The Vale of Eternity with the Artifacts expansion, played in the browser: the glade of artifact
tiles (who holds each, whom it is blocked for), the shelters and the picks are on the page in
words, in English and in French, and no move's notation or card id shows (the checks of
test_words_in_the_browser). Screenshots at desktop and phone size; axe-core on such a table.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "src" / "eterna" / "i18n" / "catalogs"
_spec = importlib.util.spec_from_file_location(
    "words_in_the_browser", Path(__file__).with_name("test_words_in_the_browser.py")
)
assert _spec is not None and _spec.loader is not None
words = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(words)

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "agent": "heuristic"}
OPTIONS = {"expansions": ["artifacts"], "artifact_set": "advanced"}
PHONE_OPTIONS = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2}
PHONE_OPTIONS |= {"is_mobile": True, "has_touch": True}
# the expansion's moves first, so the game goes through them: a tile used, cards sheltered
TIMING = {
    "en": r"\(artifact · (action|instant|permanent)\): ",
    "fr": r"\(artefact · (action|immédiat|permanent)\): ",
}
PREFERRED = ("use", "shelter", "retrieve", "upgrade", "buy-area", "pick")


def tile_names(lang: str) -> dict[str, str]:
    tiles = json.loads((ROOT / "src/eterna/games/vale/data/artifacts.json").read_text("utf-8"))
    messages = json.loads((CATALOGS / lang / "vale.json").read_text("utf-8"))["messages"]
    return {t["id"]: messages[f"vale.card.{t['id']}.name"] for t in tiles["tiles"]}


def pick_move(page: Any) -> Any:
    """The first offered move of the expansion (in PREFERRED's order), else the first move."""
    buttons = page.locator("#action-list button[data-action]")
    offered: list[str] = buttons.evaluate_all("bs => bs.map(b => b.dataset.action)")
    for verb in PREFERRED:
        for i, action in enumerate(offered):
            if action.split()[0] == verb:
                return buttons.nth(i)
    return buttons.first


def play(
    ui: Any, page: Any, lang: str, limit: int | None = None, axe: Any = None
) -> dict[str, Any]:
    """Seat 0 plays the expansion's moves when offered; what the page showed along the way
    (`axe`, when given, checks the page the first time a shelter holds cards)."""
    seen: dict[str, Any] = {"texts": [], "offered": set(), "shelters": set(), "labels": set()}
    moves = 0
    while ui.state(page).get("status") != "over" and (limit is None or moves < limit):
        assert moves < 800, "the game did not end"
        buttons = page.locator("#action-list button[data-action]")
        pairs = buttons.evaluate_all("bs => bs.map(b => [b.dataset.action, b.innerText])")
        seen["offered"].update(a for a, _ in pairs)
        seen["labels"].update(f"{a}\t{text}" for a, text in pairs)
        seen["texts"].append(page.locator("body").inner_text())
        seen["shelters"].update(page.locator(".shelter-label").all_inner_texts())
        if page.locator(".seat-artifacts .cards.shelter .card").count() and "shelter" not in seen:
            seen["shelter"] = ui.shot(page, f"artifacts-{lang}-shelter")
            if axe is not None:
                axe(page, "vale table with a shelter")
        ui.move(page, pick_move(page))
        moves += 1
    seen["texts"].append(page.locator("body").inner_text())
    seen["log"] = page.locator("#log li").all_inner_texts()
    return seen


def check_glade(page: Any, lang: str) -> None:
    """Every tile of the glade by its name in `lang`, its timing and a caption saying its state."""
    names = tile_names(lang)
    tiles = page.locator(".glade-zone figure.tile")
    assert tiles.count() >= 3
    for i in range(tiles.count()):
        tile = tiles.nth(i)
        card = tile.locator(".card")
        label = card.get_attribute("aria-label") or ""
        assert label.startswith(names[tile.get_attribute("data-tile")]), label
        assert re.search(TIMING[lang], label), label  # its timing in words
        assert tile.locator("figcaption").inner_text().strip()
        assert tile.locator(".card-name").count()  # the face is drawn with words


def test_an_artifacts_game_in_english(ui: Any, open_page: Any, axe: Any) -> None:
    created = ui.server.create("vale", [HUMAN, BOT], seed=41, options=OPTIONS)
    with open_page() as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        check_glade(page, "en")
        assert "Glade" in page.locator(".glade-zone h3").inner_text()
        ui.shot(page, "artifacts-en-start")
        axe(page, "vale table with the Artifacts")
        # a tile is picked by a click on it in the glade; the seat then shows it held
        tile = page.locator(".glade-zone button.card.legal").first
        picked = tile.get_attribute("data-card")
        ui.move(page, tile)
        mine = page.locator(".vale-seat.me .held-tile").inner_text()
        assert tile_names("en")[picked] in mine, mine
        caption = page.locator(f".glade-zone figure[data-tile='{picked}'] figcaption").inner_text()
        assert "held by Ada (you)" in caption, caption
        seen = play(ui, page, "en", axe=axe)
        page.wait_for_selector("#scoresheet:not([hidden])")
        ui.shot(page, "artifacts-en-end")
        axe(page, "vale score sheet with the Artifacts")
    text = "\n".join(seen["texts"])
    # the picks, in words: the move buttons and the log
    picks = [line for line in seen["labels"] if line.startswith("pick ")]
    assert picks
    for line in picks:
        action, label = line.split("\t")
        assert label.startswith("Pick the artifact "), label
        assert tile_names("en")[action.split()[1]] in label
    assert any("picks the artifact" in line for line in seen["log"])
    # a shelter with cards in it, seen on the page
    assert any(re.search(r"Shelter: [1-9]", s) for s in seen["shelters"]), seen["shelters"]
    assert "shelter" in seen
    # no notation, no card or tile id (the English phrases are the page's own words here)
    found = [f for f in words.misses(text, seen["offered"], "vale", "fr") if "English" not in f]
    assert not found, "\n".join(found)


def test_an_artifacts_game_starts_in_french(ui: Any, open_page: Any) -> None:
    created = ui.server.create("vale", [HUMAN, BOT], seed=42, options=OPTIONS)
    with open_page(locale="fr-FR") as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        check_glade(page, "fr")
        assert "Clairière" in page.locator(".glade-zone h3").inner_text()
        seen = play(ui, page, "fr", limit=40)
        ui.shot(page, "artifacts-fr-start")
    picks = [line.split("\t") for line in seen["labels"] if line.startswith("pick ")]
    assert picks and all(label.startswith("Choisir l'artefact ") for _, label in picks), picks
    assert any("choisit l'artefact" in line for line in seen["log"])
    found = words.misses("\n".join(seen["texts"]), seen["offered"], "vale", "fr")
    assert not found, "\n".join(found)


def test_an_artifacts_table_on_a_phone(ui: Any, open_page: Any) -> None:
    created = ui.server.create("vale", [HUMAN, BOT, BOT], seed=43, options=OPTIONS)
    with open_page(**PHONE_OPTIONS) as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        check_glade(page, "en")
        play(ui, page, "en", limit=10)
        # nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        ui.shot(page, "artifacts-en-phone")
        # the glade and the seats at the phone's own size, to look at
        for zone in ("glade-zone", "seats-zone"):
            path = ui.shots / f"artifacts-en-phone-{zone}.png"
            page.locator(f".{zone}").screenshot(path=str(path))
            print(f"screenshot: {path}")


def test_the_lobby_offers_the_expansion(ui: Any, page: Any) -> None:
    page.goto(ui.server.url("/"))
    page.select_option("#game-select", "vale")
    page.select_option("#players-select", "2")
    page.fill("#player-name", "Ada")
    page.click("#options-box summary")
    page.fill("#bot-delay", "0")
    box = page.locator("#game-options")
    expansion = box.locator("input[data-option='expansions'][data-kind='item']")
    assert expansion.count() == 1
    assert expansion.locator("xpath=..").inner_text().strip() == "Artifacts"
    labels = box.locator(".option-label").all_inner_texts()
    assert {"Artifact tiles in play", "Extra areas a player may buy"} <= set(labels)
    # every option shown says what it is in words, none by its name in the code
    assert not [label for label in labels if "_" in label or label.startswith("vale.")]
    # the expansion's own options: together under its checkbox, shown once it is checked
    group = box.locator(".option-group[data-expansion='artifacts']")
    assert group.is_hidden()
    expansion.check()
    assert group.is_visible()
    assert "Options of the Artifacts expansion" in group.locator("legend").inner_text()
    assert group.locator("[data-option='artifact_set']").count() == 1
    ui.shot(page, "artifacts-lobby-options")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    page.click("#created [data-seat-link='0']")
    ui.wait_settled(page)
    check_glade(page, "en")
