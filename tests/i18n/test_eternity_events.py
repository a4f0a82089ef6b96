"""Eternity's events, told in words: every kind the engine produces has a sentence in every
language, and a whole game narrates without a missing word (docs/events.md, docs/i18n.md)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import eterna
from eterna.i18n import LANGS, Catalog, catalog

NAMES = ("Alice", "Bob", "Chloé", "Dieter", "Eve")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "events.md"


def _narrate(cat: Catalog, event: dict[str, Any]) -> list[str]:
    """A reference rendering, the way a front end is meant to fill the placeholders."""
    kind = event["kind"]
    key = f"eternity.event.{kind}"
    p: dict[str, Any] = {k: v for k, v in event.items() if k != "kind"}
    if "seat" in p:
        p["player"] = NAMES[p["seat"]]
    if "leader" in p:
        p["leader"] = NAMES[p["leader"]]
    if "card" in p:
        p["card"] = cat.card_name("eternity", p["card"])
    for field in ("cards", "board", "display"):
        if field in p:
            p[field] = cat.card_names("eternity", p[field])
    for field in ("trump", "previous_trump"):
        if field in p:
            p[field] = cat.text(f"eternity.family.{p[field]}")
    if "scores" in p:
        p["scores"] = ", ".join(f"{NAMES[s]} {v}" for s, v in enumerate(p["scores"]))
    if kind == "hand_dealt" and "cards" not in event:
        return [cat.text(key + ".hidden", **p)]
    if kind == "pledges_to_board" and not event["cards"]:
        return [cat.text(key + ".none")]
    if kind == "game_over":
        p["count"] = len(event["winners"])
        p["winners"] = cat.join(NAMES[s] for s in event["winners"])
    lines = [cat.text(key, **p)]
    if kind == "round_started":
        lines.append(cat.text(key + ".board", **p))
        if event["display"]:
            lines.append(cat.text(key + ".display", **p))
    if kind == "round_scored":
        for r in event["results"]:
            how = (
                "harmony"
                if r["trees"] == r["tricks"]
                else ("over" if r["trees"] > r["tricks"] else "under")
            )
            lines.append(cat.text(f"{key}.{how}", player=NAMES[r["seat"]], **r))
        lines.append(cat.text(key + ".total", **p))
    return lines


def test_every_documented_kind_has_a_sentence() -> None:
    section = DOCS.read_text(encoding="utf-8").split("## Eternity", 1)[1].split("\n## ", 1)[0]
    kinds = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    assert {"round_started", "trick_won", "round_scored", "game_over"} <= kinds
    for lang in LANGS:
        for kind in kinds:
            assert catalog(lang).has(f"eternity.event.{kind}"), (lang, kind)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_a_whole_game_narrates_in_every_language(players: int, seed: int) -> None:
    st = eterna.load_game("eternity").new_game(players, seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    for viewer in (0, None):
        events = st.events_since(0, viewer)
        for lang in LANGS:
            cat = catalog(lang)
            lines = [line for e in events for line in _narrate(cat, e)]
            assert len(lines) >= len(events)
            text = "\n".join(lines)
            assert "{" not in text and "sky-" not in text and "sea-" not in text, text[:500]
            assert NAMES[0] in text


def test_the_spectator_reads_no_hand() -> None:
    st = eterna.load_game("eternity").new_game(4, seed=5)
    dealt = [e for e in st.events_since(0, None) if e["kind"] == "hand_dealt"]
    assert dealt
    for lang in LANGS:
        line = _narrate(catalog(lang), dealt[0])[0]
        assert "Alice" in line and ":" not in line.replace("Alice", "")
    fr = _narrate(catalog("fr"), dealt[0])[0]
    assert fr == "Alice reçoit 10 cartes"


@pytest.mark.parametrize("players", [3, 5])
def test_the_helper_tells_eternity_as_the_reference_does(players: int) -> None:
    from eterna.i18n.words import event_lines

    st = eterna.load_game("eternity").new_game(players, seed=players)
    rng = random.Random(players)
    while not st.is_terminal:
        st.apply(rng.choice(list(st.legal_actions())))
    for viewer in (0, None):
        for e in st.events_since(0, viewer):
            for lang in LANGS:
                assert event_lines("eternity", e, lang, list(NAMES)) == _narrate(catalog(lang), e)
