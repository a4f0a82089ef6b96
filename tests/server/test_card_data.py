"""The card data the pages draw with, in the page's language (`/cards/{game}/{lang}.json`): every
card's name and effect text from the message catalogs, so a French table shows French faces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from server_helpers import ThreadServer

from eterna.core.registry import game_ids
from eterna.i18n.messages import LANGS, catalog

STATIC = Path(__file__).resolve().parents[2] / "src" / "eterna" / "web" / "static" / "cards"


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("lang", LANGS)
def test_every_card_is_named_and_told_in_the_language(
    server: ThreadServer, game: str, lang: str
) -> None:
    response = server.http.get(f"/cards/{game}/{lang}.json")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    data = response.json()
    english = json.loads((STATIC / f"{game}.json").read_text("utf-8"))
    cat = catalog(lang)
    # the same file as the static one, names and texts in the language
    assert set(data) == set(english) | {"names", "lang"}
    assert data["lang"] == lang
    for card_id, info in {**data.get("cards", {}), **data.get("tiles", {})}.items():
        assert info["name"] == cat.card_name(game, card_id)
        assert info["text"] == cat.card_text(game, card_id)
        short = info.pop("short", None)  # the face's few words, where the catalog has them
        if cat.has(f"{game}.short.{card_id}"):
            assert short == cat.text(f"{game}.short.{card_id}") and short
        else:
            assert short is None
        assert set(info) == set({**english["cards"], **english.get("tiles", {})}[card_id])
    assert data["names"]
    for card_id, name in data["names"].items():
        assert name == cat.card_name(game, card_id)


def test_a_french_page_gets_french_faces(server: ThreadServer) -> None:
    vale = server.http.get("/cards/vale/fr.json").json()
    eternitium = server.http.get("/cards/eternitium/fr.json").json()
    eternity = server.http.get("/cards/eternity/de.json").json()
    assert eternitium["cards"]["giga-droid"]["name"] == "Giga Droïde"
    assert eternitium["names"]["portal-circle"] == "Portail cercle"
    assert vale["cards"]["agni"]["text"].startswith("Permanent")
    assert vale["cards"]["agni"]["text"] != catalog("en").card_text("vale", "agni")
    # the Vale's artifact tiles (Artifacts expansion): named and told in French too
    assert vale["tiles"]["incense-burner"]["name"] == "Brûleur d'encens"
    assert vale["tiles"]["incense-burner"]["text"].startswith("Action :")
    assert vale["tiles"]["incense-burner"]["timing"] == "action"
    assert eternity["names"]["sky-13"] == catalog("de").card_name("eternity", "sky-13")


@pytest.mark.parametrize(
    "path", ["/cards/chess/fr.json", "/cards/vale/xx.json", "/cards/vale/../en.json"]
)
def test_unknown_games_and_languages_are_not_found(server: ThreadServer, path: str) -> None:
    assert server.http.get(path).status_code == 404
