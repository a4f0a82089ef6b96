"""A whole game of each kind played in the browser in French (and a German start): the page says
everything in the page's language, and no move's notation is shown outside a notation detail.

What is checked, on the page's visible text (`innerText`, so `title` tooltips, the notation
detail, are left out):
- no notation of any move the page offered during the game appears (the notation of every move
  button is collected as the game goes), and no card id (`sand-giant`) either;
- no English sentence of the client's catalog (static/i18n/en.json) or of the game's server
  catalog (events, moves, refusals) appears, where the French text differs: the catalogs'
  fixed words between placeholders, 12 characters or longer, are looked for.

The game log of each game is written to `test-output/transcripts/<game>-<lang>-web.txt`, the
transcript a player would read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC_I18N = ROOT / "src" / "eterna" / "web" / "static" / "i18n"
CATALOGS = ROOT / "src" / "eterna" / "i18n" / "catalogs"
TRANSCRIPTS = ROOT / "test-output" / "transcripts"

GAMES = [
    # game, seats (seat 0 is the human), seed, options
    ("eternity", 3, 31, {}),
    ("vale", 2, 32, {}),
    ("eternitium", 2, 33, {}),
    ("eternitium-solo", 1, 34, {"mission": 2}),
]

_PLACEHOLDER = re.compile(r"\{[^}]*\}")


def _fixed_words(text: str) -> list[str]:
    """The parts of a catalog text between its placeholders, long enough to be telling."""
    return [part.strip() for part in _PLACEHOLDER.split(text) if len(part.strip()) >= 12]


def english_phrases(game: str, lang: str) -> set[str]:
    """English catalog phrases whose translation into `lang` differs (so seeing one is a miss)."""
    pairs: list[tuple[dict[str, str], dict[str, str]]] = [
        (_load(STATIC_I18N / "en.json"), _load(STATIC_I18N / f"{lang}.json"))
    ]
    for domain in ("common", game):
        pairs.append(
            (_load(CATALOGS / "en" / f"{domain}.json"), _load(CATALOGS / lang / f"{domain}.json"))
        )
    phrases: set[str] = set()
    for english, other in pairs:
        for key, text in english.items():
            if isinstance(text, str) and other.get(key) != text:
                phrases.update(_fixed_words(text))
    return phrases


def _load(path: Path) -> dict[str, str]:
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _is_telling(notation: str) -> bool:
    """Notation worth looking for: more than one bare word (`pass` could be anybody's word)."""
    return bool(re.search(r"[\s\-\d]", notation))


def play_in(
    ui: Any,
    open_page: Any,
    game: str,
    players: int,
    seed: int,
    options: Any,
    lang: str,
    limit: int | None = None,
) -> tuple[str, set[str], list[str]]:
    """Play seat 0 with the first offered move (bots elsewhere) in a `lang` page; the page's
    visible text at the end, every notation offered, and the log's sentences."""
    engine = game.split("-")[0]
    seats = [{"kind": "human", "name": "Ada"}]
    seats += [{"kind": "bot", "agent": "heuristic"}] * (players - 1)
    created = ui.server.create(engine, seats, seed=seed, options=options)
    locale = {"fr": "fr-FR", "de": "de-DE"}[lang]
    with open_page(locale=locale) as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        offered: set[str] = set()
        texts: list[str] = []
        moves = 0
        while ui.state(page).get("status") != "over" and (limit is None or moves < limit):
            assert moves < 600, "the game did not end"
            buttons = page.locator("#action-list button[data-action]")
            offered.update(buttons.evaluate_all("bs => bs.map(b => b.dataset.action)"))
            texts.append(page.locator("body").inner_text())
            ui.move(page, buttons.first)
            moves += 1
        if limit is None:
            page.wait_for_selector("#scoresheet:not([hidden])")
        texts.append(page.locator("body").inner_text())
        ui.shot(page, f"{game}-{lang}-{'end' if limit is None else 'start'}")
        log = page.locator("#log li").all_inner_texts()
    return "\n".join(texts), offered, log


def card_ids(game: str) -> list[str]:
    """The game's card ids of more than one word (`sand-giant`, `sky-13`): notation too."""
    names = _load(CATALOGS / "en" / f"{game}.json")
    prefix = f"{game}.card."
    return sorted(
        key[len(prefix) : -len(".name")]
        for key in names
        if key.startswith(prefix) and key.endswith(".name") and "-" in key[len(prefix) :]
    )


def misses(text: str, offered: set[str], game: str, lang: str) -> list[str]:
    """Notation (moves and card ids) and English phrases found in `text`."""
    found = [f"notation {n!r}" for n in sorted(offered) if _is_telling(n) and n in text]
    found += [
        f"card id {c!r}"
        for c in card_ids(game)
        if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)
    ]
    found += [f"English {p!r}" for p in sorted(english_phrases(game, lang)) if p in text]
    return found


@pytest.mark.parametrize(("game", "players", "seed", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_french_game_says_everything_in_french(
    ui: Any, open_page: Any, game: str, players: int, seed: int, options: Any
) -> None:
    engine = game.split("-")[0]
    text, offered, log = play_in(ui, open_page, game, players, seed, options, "fr")
    assert offered, "no move was offered"
    found = misses(text, offered, engine, "fr")
    assert not found, "\n".join(found)
    assert len(log) > 10
    TRANSCRIPTS.mkdir(parents=True, exist_ok=True)
    path = TRANSCRIPTS / f"{game}-fr-web.txt"
    path.write_text("\n".join(log) + "\n", encoding="utf-8")
    print(f"transcript: {path}")


@pytest.mark.parametrize("game", ["eternity", "vale", "eternitium"])
def test_a_german_table_says_its_first_moves_in_german(ui: Any, open_page: Any, game: str) -> None:
    players = {"eternity": 3, "vale": 2, "eternitium": 2}[game]
    text, offered, log = play_in(ui, open_page, game, players, 41, {}, "de", limit=12)
    assert offered
    found = misses(text, offered, game, "de")
    assert not found, "\n".join(found)
    assert log
