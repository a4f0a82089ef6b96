"""The catalog API: lookup, fallback, plurals, negotiation, errors, the checker's verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eterna.core.errors import EternaError
from eterna.i18n import (
    BadParam,
    Catalog,
    MissingMessage,
    MissingParam,
    catalog,
    negotiate,
    plural_form,
    problems,
)
from eterna.i18n import __main__ as cli
from eterna.i18n import check as check_module
from eterna.i18n import messages as catalog_module


def test_sentences_read_like_a_board_game_site() -> None:
    args: dict[str, Any] = {"player": "Alice", "card": "Earth 7", "trees": 2}
    assert catalog("en").text("eternity.event.card_pledged", **args) == (
        "Alice pledges Earth 7 and takes 2 trees"
    )
    fr, de = catalog("fr"), catalog("de")
    won = {"player": "Alice", "trick": 3, "cards": "x", "tricks": 2}
    assert fr.text("eternity.event.trick_won", **won).startswith("Alice remporte le pli 3")
    assert de.text("eternity.event.trick_won", **won).startswith("Alice gewinnt Stich 3")
    assert de.card_name("eternity", "sky-13") == "Himmel 13"
    assert fr.card_name("eternity", "sky-13") == "Ciel 13"
    assert catalog("en").text("eternity.action.play", card="Sky 13") == "Play Sky 13"


def test_catalog_is_cached_and_unknown_languages_fall_back_to_english() -> None:
    assert catalog("fr") is catalog("fr")
    assert catalog("xx").lang == "en"
    assert catalog("xx") is catalog("en")
    assert Catalog("pt").text("common.game_over") == "Game over"


def test_missing_key_falls_back_to_english_key_by_key(monkeypatch: pytest.MonkeyPatch) -> None:
    only_en = {"common.only_english": "English only {n}"}
    real = catalog_module.messages_of

    def fake(lang: str) -> dict[str, Any]:
        merged = dict(real(lang))
        if lang == "en":
            merged.update(only_en)
        return merged

    monkeypatch.setattr(catalog_module, "messages_of", fake)
    fr = Catalog("fr")
    assert fr.has("common.only_english")
    assert fr.text("common.only_english", n=1) == "English only 1"
    assert fr.text("common.game_over") == "Partie terminée"  # its own words otherwise


def test_key_missing_everywhere_is_a_clear_error() -> None:
    cat = catalog("de")
    assert not cat.has("eternity.event.no_such_event")
    with pytest.raises(MissingMessage, match=r"eternity\.event\.no_such_event") as info:
        cat.text("eternity.event.no_such_event")
    assert isinstance(info.value, KeyError) and isinstance(info.value, EternaError)
    assert "no message 'eternity.event.no_such_event'" in str(info.value)
    assert cat.get("eternity.event.no_such_event", "fallback") == "fallback"


def test_missing_param_names_the_key_and_the_param() -> None:
    """Hostile: a front end forgetting a parameter gets told which, never a bare KeyError."""
    cat = catalog("fr")
    with pytest.raises(MissingParam) as info:
        cat.text("eternity.event.card_played", player="Alice")
    message = str(info.value)
    assert "eternity.event.card_played" in message and "'card'" in message
    assert isinstance(info.value, KeyError)
    # the plural's own number missing
    with pytest.raises(MissingParam, match=r"eternity\.event\.card_pledged.*'trees'"):
        cat.text("eternity.event.card_pledged", player="A", card="B")
    # no parameters at all
    with pytest.raises(MissingParam, match=r"common\.seat.*'n'"):
        catalog("en").text("common.seat")
    # extra parameters are harmless
    assert catalog("en").text("common.seat", n=2, extra="x") == "Seat 2"


def test_plural_selection_per_language() -> None:
    assert [plural_form("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form("fr", n) for n in (0, 1, 2)] == ["one", "one", "other"]
    assert [plural_form("de", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    en, fr, de = catalog("en"), catalog("fr"), catalog("de")
    assert en.text("common.points", count=1) == "1 point"
    assert en.text("common.points", count=0) == "0 points"
    assert fr.text("common.points", count=0) == "0 point"
    assert fr.text("common.points", count=3) == "3 points"
    assert de.text("common.points", count=1) == "1 Punkt"
    assert de.text("common.points", count=7) == "7 Punkte"
    # a plural chosen by another parameter than `count`
    assert (
        de.text("eternity.action.pledge", card="Erde 7", trees=1) == "Erde 7 verpfänden (+1 Baum)"
    )
    assert de.text("eternity.action.pledge", card="Erde 7", trees=2).endswith("(+2 Bäume)")
    assert fr.text("vale.stones.red", count=2) == "2 pierres rouges"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("fr", "fr"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"),
        ("en;q=0.5, de;q=0.9", "de"),
        ("es, it;q=0.8", "en"),
        ("es, de;q=0.2", "de"),
        ("fr;q=0, de;q=0.1", "de"),
        ("*", "en"),
        ("DE_at", "de"),
        ("fr;q=abc, de", "de"),
        ("pt-BR;q=1.0, fr;q=0.5, de;q=0.5", "fr"),  # ties keep the header's order
    ],
)
def test_negotiate(header: str | None, lang: str) -> None:
    assert negotiate(header) == lang


def test_list_words() -> None:
    assert catalog("en").join(["a"]) == "a"
    assert catalog("en").join(["a", "b", "c"]) == "a, b and c"
    assert catalog("fr").join(["a", "b"]) == "a et b"
    assert catalog("de").card_names("eternity", ["sky-1", "sea-2"]) == "Himmel 1 und Meer 2"
    assert catalog("de").join([]) == "nichts"


def _write_catalog(root: Path, lang: str, domain: str, messages: dict[str, Any]) -> None:
    path = root / "catalogs" / lang / f"{domain}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {"format": "eterna-catalog/1", "lang": lang, "domain": domain}
    path.write_text(json.dumps({**head, "messages": messages}), encoding="utf-8")


def test_problems_finds_every_kind_of_mistake(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    en = {
        "common.a": "{player} plays {card}",
        "common.b": {"one": "{count} tree", "other": "{count} trees"},
        "common.c": "plain",
        "common.d": {"by": "trees", "one": "{trees} tree", "other": "{trees} trees"},
    }
    fr = {
        "common.a": "{player} joue {carte}",  # unknown placeholder, and {card} missing
        "common.b": {"one": "{count} arbre"},  # plural incomplete
        "common.d": {"one": "{trees} arbre", "other": "{trees} arbres"},  # other `by`
        "common.z": "extra",  # not in English
        "eternity.x": "wrong domain",
    }  # common.c missing
    de = {
        "common.a": "{player} spielt {card.name}",
        "common.b": "{count} Bäume",
        "common.c": "{ kaputt",
        "common.d": {"by": "trees", "one": "{trees} Baum", "other": "{trees} Bäume"},
    }
    for lang, messages in (("en", en), ("fr", fr), ("de", de)):
        _write_catalog(tmp_path, lang, "common", messages)
    monkeypatch.setattr(check_module.resources, "files", lambda _pkg: tmp_path)
    found = "\n".join(problems())
    for expected in (
        "fr: missing key common.c",
        "fr: key common.z is not in English",
        "does not start with 'common.'",
        "fr: common.a: unknown placeholder {carte}",
        "fr: common.a: placeholder {card} missing",
        "fr: common.b: plural forms ['one'], expected one and other",
        "fr: common.d: plural chosen by another parameter",
        "de: common.a: placeholder {card.name} is not a plain name",
        "de: common.b: plural in one language, plain in the other",
        "de: common.c: str.format cannot read it",
        "en/eternity.json: the file is missing",
    ):
        assert expected in found, expected


def test_check_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli.main(["--check"]) == 0
    out = capsys.readouterr().out
    assert "no problem" in out and "keys per language" in out
    monkeypatch.setattr(cli, "problems", lambda: ["fr: missing key common.x"])
    assert cli.main(["--check"]) == 1
    assert "fr: missing key common.x" in capsys.readouterr().out


def test_hostile_values_are_text_not_templates() -> None:
    """A player called "{card}" is shown as such: values are never formatted again."""
    en = catalog("en")
    assert en.text("eternity.event.card_played", player="{card}", card="{0}") == (
        "{card} plays {0}"
    )
    assert en.text("common.seat", n="}{") == "Seat }{"
    with pytest.raises(BadParam, match=r"common\.points.*'count'.*'many'"):
        en.text("common.points", count="many")
    assert en.text("common.points", count="1") == "1 point"
