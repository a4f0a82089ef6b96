"""The shipped catalogs: complete, consistent, and matching what the engines pass."""

from __future__ import annotations

import ast
import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import eterna
from eterna.i18n import LANGS, catalog, problems
from eterna.i18n.messages import message_params, messages_of

SRC = Path(eterna.__file__).resolve().parent
GAMES = ("eternity", "vale", "eternitium")


def _fields(lang: str, key: str) -> set[str]:
    return message_params(messages_of(lang)[key])


def test_no_problems() -> None:
    assert problems() == []


def test_every_language_has_the_same_keys() -> None:
    english = set(messages_of("en"))
    assert len(english) > 500
    for lang in LANGS:
        assert set(messages_of(lang)) == english, lang


def _refusal_calls(game: str) -> dict[str, set[str]]:
    """Every `key="<game>.refusal.*"` the engine source passes, with its params' names."""
    found: dict[str, set[str]] = {}
    for path in sorted((SRC / "games" / game).glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kw = {k.arg: k.value for k in node.keywords if k.arg}
            key = kw.get("key")
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            if not key.value.startswith(f"{game}.refusal."):
                continue
            params = kw.get("params")
            names: set[str] = set()
            if isinstance(params, ast.Dict):
                names = {k.value for k in params.keys if isinstance(k, ast.Constant)}
            found[key.value] = names
    return found


def test_eternity_refusal_keys_exist_with_the_engine_params() -> None:
    calls = _refusal_calls("eternity")
    assert len(calls) >= 6  # game_over, not_in_hand, leader_must_play, pledge_limit, ...
    for key, params in calls.items():
        for lang in LANGS:
            assert key in messages_of(lang), (lang, key)
            assert _fields(lang, key) == params, (lang, key, params)


@pytest.mark.parametrize("game", ["vale", "eternitium"])
def test_other_games_refusal_keys_exist_when_the_engines_pass_them(game: str) -> None:
    calls = _refusal_calls(game)
    if game == "vale":  # every refusal of refusals.py (Eternitium's pass their keys by name)
        assert len(calls) == 37, sorted(calls)  # 28 of the base game, 9 of the Artifacts
    for key, params in calls.items():
        for lang in LANGS:
            assert _fields(lang, key) == params, (lang, key)


def _random_actions(game_id: str, players: int, seed: int) -> list[Any]:
    """Every legal action seen along one random game (at most 400 steps)."""
    st = eterna.load_game(game_id).new_game(players, seed=seed)
    rng = random.Random(seed)
    seen: list[Any] = []
    for _ in range(400):
        if st.is_terminal:
            break
        legal = list(st.legal_actions())
        seen.extend(legal)
        st.apply(rng.choice(legal))
    return seen


@pytest.mark.parametrize(
    ("game_id", "players"), [("eternity", 3), ("eternity", 5), ("vale", 2), ("eternitium", 2)]
)
def test_action_words_have_messages_with_their_params(game_id: str, players: int) -> None:
    game = eterna.load_game(game_id)
    keys: set[str] = set()
    for action in _random_actions(game_id, players, seed=3):
        key, params = game.action_words(action)
        keys.add(key)
        for lang in LANGS:
            assert key in messages_of(lang), (lang, key)
            assert _fields(lang, key) == set(params), (lang, key, params)
            assert catalog(lang).text(key, **params)
    if game_id == "eternity":
        assert keys == {"eternity.action.play", "eternity.action.pledge"}


def _card_ids(game: str) -> list[str]:
    node = resources.files("eterna").joinpath("games", game, "data", "cards.json")
    data = json.loads(node.read_text(encoding="utf-8"))
    if game == "eternity":
        return [
            f"{f['id']}-{v}"
            for f in data["families"]
            for v in range(data["values"]["low"], data["values"]["high"] + 1)
        ]
    if game == "vale":  # the base cards, then the Artifacts creatures
        more = resources.files("eterna").joinpath("games", "vale", "data", "artifacts.json")
        creatures = json.loads(more.read_text(encoding="utf-8"))["creatures"]
        return [c["id"] for c in (*data["cards"], *creatures)]
    shapes = data["shapes"]
    return (
        [t["id"] for t in data["technologies"]]
        + [f"portal-{s}" for s in shapes]
        + [f"era-{s}" for s in shapes]
        + ["blind-basic", "blind-advanced"]
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_card_has_a_name_and_a_text_in_every_language(game: str) -> None:
    ids = _card_ids(game)
    assert len(ids) == {"eternity": 42, "vale": 98, "eternitium": 29}[game]
    for lang in LANGS:
        cat = catalog(lang)
        for card in ids:
            assert cat.card_name(game, card).strip(), (lang, card)
            assert cat.card_text(game, card).strip(), (lang, card)
            assert f"{game}.card.{card}.name" in messages_of(lang)


def test_engine_card_ids_are_those_of_the_data() -> None:
    from eterna.games.eternitium.cards import BLIND_NAME
    from eterna.games.eternitium.cards import CARD_NAME as ETERNITIUM
    from eterna.games.eternity.cards import CARD_NAME as ETERNITY
    from eterna.games.vale.cards import CARD_NAME as VALE

    assert set(ETERNITY) == set(_card_ids("eternity"))
    assert set(VALE) == set(_card_ids("vale"))
    assert set(ETERNITIUM) | set(BLIND_NAME) <= set(_card_ids("eternitium"))


def test_vale_texts_follow_the_data_timings() -> None:
    data = resources.files("eterna").joinpath("games", "vale", "data")
    base = json.loads(data.joinpath("cards.json").read_text(encoding="utf-8"))["cards"]
    more = json.loads(data.joinpath("artifacts.json").read_text(encoding="utf-8"))["creatures"]
    for card in (*base, *more):
        english = catalog("en").card_text("vale", card["id"])
        for timing in ("instant", "permanent", "resolution"):
            if timing in card:
                assert card[timing] in english, card["id"]
        labels = {"fr": ("Immédiat :", "Actif :"), "de": ("Sofort:", "Aktiv:")}
        for lang, (instant, active) in labels.items():
            text = catalog(lang).card_text("vale", card["id"])
            assert text != english
            assert text.startswith(instant) == ("instant" in card), (lang, card["id"])
            assert (active in text) == ("resolution" in card), (lang, card["id"])


def test_families_stones_phases_and_shapes() -> None:
    for lang in LANGS:
        cat = catalog(lang)
        for family in ("earth", "sea", "sky"):
            assert cat.has(f"eternity.family.{family}")
        for family in ("fire", "water", "earth", "wind", "dragon"):
            assert cat.has(f"vale.family.{family}")
        for stone in ("red", "blue", "purple"):
            assert cat.has(f"vale.stone.{stone}") and cat.has(f"vale.stones.{stone}")
        for phase in ("hunting", "action", "resolution", "over"):
            assert cat.has(f"vale.phase.{phase}")
        for shape in ("circle", "square", "triangle", "diamond"):
            assert cat.has(f"eternitium.shape.{shape}")
        for n in range(11):
            assert cat.has(f"eternitium.mission.{n}.title")
            assert cat.has(f"eternitium.mission.{n}.text")
        for ai in ("temporal-blaster", "time-bomb", "thieving-robot", "quantum-clock"):
            assert cat.has(f"eternitium.ai.{ai}.text")


def test_web_client_words_stay_consistent() -> None:
    """The family names the web client already shows are the catalog's."""
    static = SRC / "web" / "static" / "i18n"
    for lang in LANGS:
        web = json.loads((static / f"{lang}.json").read_text(encoding="utf-8"))
        for family in ("fire", "water", "earth", "wind", "dragon"):
            assert web[f"vale.family.{family}"] == catalog(lang).text(f"vale.family.{family}")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_option_has_a_label_and_help(game_id: str) -> None:
    game = eterna.load_game(game_id)
    for name, option in game.declared_options.items():
        for lang in LANGS:
            cat = catalog(lang)
            assert cat.has(f"{game_id}.option.{name}"), (lang, name)
            assert cat.has(f"{game_id}.option.{name}.help"), (lang, name)
            for choice in getattr(option, "choices", None) or ():
                assert cat.has(f"{game_id}.option.{name}.{choice}"), (lang, name, choice)
