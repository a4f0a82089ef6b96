"""Pure checks of the browser client's static files (no server, no browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from eterna.server.page_routes import assemble

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "eterna" / "web"
STATIC = WEB / "static"
LANGUAGES = ("en", "fr", "de")
GAMES = ("eternity", "eternitium", "vale")
PAGES = ("index.html", "table.html", "history.html", "replay.html", "rules.html", "position.html")
KEY_PREFIXES = (
    "nav", "game", "common", "lobby", "table", "hint", "score", "error", "history", "replay",
    "rules", "eternity", "eternitium", "vale", "position",
)  # fmt: skip


def strings(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def page_html(page: str) -> str:
    """A page as the server sends it: its file with the shared parts written in."""
    html = assemble(WEB, page.removesuffix(".html"))
    assert html is not None, page
    return html


def js_files() -> list[Path]:
    return sorted((STATIC / "js").rglob("*.js"))


def test_every_language_has_the_same_keys_and_placeholders() -> None:
    english = strings("en")
    for lang in LANGUAGES:
        other = strings(lang)
        assert sorted(other) == sorted(english), lang
        for key, text in other.items():
            assert isinstance(text, str) and text.strip(), (lang, key)
            wanted = set(re.findall(r"\{(\w+)\}", english[key]))
            assert set(re.findall(r"\{(\w+)\}", text)) == wanted, (lang, key)


def used_keys() -> set[str]:
    """Every literal key the pages and scripts name (data-i18n attributes, quoted keys)."""
    keys: set[str] = set()
    prefixes = "|".join(KEY_PREFIXES)
    pattern = re.compile(r"[\"'`]((?:" + prefixes + r")\.[A-Za-z][\w.-]*)[\"'`]")
    for path in js_files():
        keys |= set(pattern.findall(path.read_text("utf-8")))
    for page in PAGES:
        html = page_html(page)
        keys |= set(re.findall(r'data-i18n(?:-[a-z]+)?="([^"]+)"', html))
    # keys the scripts build from a value (`phase.${...}`), listed by what the games send
    for shape in ("circle", "square", "triangle", "diamond"):
        keys.add(f"eternitium.shape.{shape}")
    for tier in ("basic", "advanced"):
        keys |= {f"eternitium.tier.{tier}", f"eternitium.blind.{tier}", f"eternitium.market.{tier}"}
    for family in ("fire", "water", "earth", "wind", "dragon"):
        keys.add(f"vale.family.{family}")
    for game in GAMES:
        keys.add(f"game.{game}")
    return {k for k in keys if not k.endswith(".")}


def test_every_key_the_client_uses_is_translated() -> None:
    english = strings("en")
    missing = sorted(k for k in used_keys() if k not in english)
    assert not missing
    assert len(used_keys()) > 150


def test_game_phases_and_error_codes_are_translated() -> None:
    english = strings("en")
    phases = ["pick", "destroy", "portal", "play", "data-analyser", "steal", "gift", "skipped",
              "acquire", "era", "over"]  # fmt: skip
    for phase in phases:
        assert f"eternitium.phase.{phase}" in english
    for phase in ("hunting", "action", "resolution", "over"):
        assert f"vale.phase.{phase}" in english
    protocol = (ROOT / "docs" / "web-protocol.md").read_text("utf-8")
    codes = re.search(r'"illegal_action" \|(.*?)"game_over"', protocol, re.S)
    assert codes is not None
    for code in re.findall(r'"(\w+)"', codes.group(0)):
        assert f"error.{code}" in english, code


def test_every_referenced_file_exists() -> None:
    for page in PAGES:
        html = page_html(page)
        refs = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
        assert refs, page
        for ref in refs:
            assert (STATIC / ref.removeprefix("/static/")).is_file(), (page, ref)
    for path in js_files():
        text = path.read_text("utf-8")
        for ref in re.findall(r'(?:import|from)\s*[^"\n]*"(\.{1,2}/[^"]+)"', text):
            assert (path.parent / ref).resolve().is_file(), (path.name, ref)
        for ref in re.findall(r"\"(/static/[^\"$`]+)\"", text):
            assert (STATIC / ref.removeprefix("/static/")).is_file(), (path.name, ref)


def test_no_network_dependency() -> None:
    # no CDN, no remote font: the machine may have no internet
    for path in [
        *js_files(),
        *(STATIC / "css").glob("*.css"),
        *(WEB / p for p in PAGES),
        *(WEB / "parts").glob("*.html"),
    ]:
        text = path.read_text("utf-8").replace("http://www.w3.org/2000/svg", "")  # a name
        assert not re.search(r"https?://", text), path


def test_every_page_has_the_shared_head_and_top_bar_written_once() -> None:
    # The head's links and the top bar's navigation are written once (web/parts/), so adding a
    # link to the navigation is one edit; each page names them by a marker the server replaces.
    topbar = (WEB / "parts" / "topbar.html").read_text("utf-8").strip()
    titles = {}
    for page in PAGES:
        source = (WEB / page).read_text("utf-8")
        assert '<header class="topbar">' not in source, f"{page} writes the top bar again"
        assert "<link rel=" not in source, f"{page} writes the head's links again"
        html = page_html(page)
        assert "eterna:" not in html, page  # no marker left
        assert html.count(topbar) == 1 and html.count("<title>") == 1, page
        assert html.index("</head>") < html.index(topbar), page
        title = re.search(r"<title>(.*?) \u00b7 Eterna</title>", html)
        assert title is not None, page
        titles[page] = title.group(1)
    assert titles["table.html"] == "Table" and titles["index.html"] == "Eterna"
    assert len(set(titles.values())) == len(PAGES)


@pytest.mark.parametrize("game", GAMES)
def test_rules_exist_in_every_language(game: str) -> None:
    for lang in LANGUAGES:
        html = (STATIC / "rules" / f"{game}.{lang}.html").read_text("utf-8")
        assert html.count("<h2>") >= 3
        assert "<script" not in html


def test_card_data_matches_the_games() -> None:
    # the client's card files are derived from the games' own data; they must not drift
    def data(game: str) -> dict:  # type: ignore[type-arg]
        path = ROOT / "src" / "eterna" / "games" / game / "data" / "cards.json"
        loaded: dict = json.loads(path.read_text("utf-8"))  # type: ignore[type-arg]
        return loaded

    def client(game: str) -> dict:  # type: ignore[type-arg]
        loaded: dict = json.loads((STATIC / "cards" / f"{game}.json").read_text("utf-8"))  # type: ignore[type-arg]
        return loaded

    vale = data("vale")
    artifacts = json.loads(
        (ROOT / "src" / "eterna" / "games" / "vale" / "data" / "artifacts.json").read_text("utf-8")
    )
    assert client("vale")["cards"] == {
        c["id"]: {
            "name": c["name"],
            "family": c["family"],
            "cost": c["cost"],
            "text": " ".join(
                f"[{k}] {c[k]}" for k in ("instant", "permanent", "resolution") if k in c
            ),
            # the effect kinds the card faces draw as icons
            "kinds": [k for k in ("instant", "permanent", "resolution") if k in c],
        }
        for c in (*vale["cards"], *artifacts["creatures"])
    }
    # the Artifacts' tiles, drawn like the cards: name, timing (its icon) and text
    assert client("vale")["tiles"] == {
        t["id"]: {"name": t["name"], "timing": t["timing"], "text": t["text"]}
        for t in artifacts["tiles"]
    }
    assert client("vale")["families"] == [f["id"] for f in vale["families"]]
    eternitium = data("eternitium")
    assert client("eternitium")["cards"] == {
        t["id"]: {"name": t["name"], "tier": t["tier"], "text": t.get("text", "")}
        for t in eternitium["technologies"]
    }
    assert client("eternitium")["shapes"] == eternitium["shapes"]
    eternity = data("eternity")
    assert client("eternity")["families"] == [
        {"id": f["id"], "colour": f["colour"], "names": f["names"]} for f in eternity["families"]
    ]
    assert client("eternity")["trees_by_value"] == eternity["trees_by_value"]


def test_action_buttons_carry_their_notation() -> None:
    # the tests and any other driver find moves by data-action="<notation>"
    table = (STATIC / "js" / "table.js").read_text("utf-8")
    assert "dataset: { action: a }" in table
    assert 'type: "act", action, ply: S.ply' in table


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counts_are_worded_by_plural_forms_not_shortcuts(lang: str) -> None:
    # "3 card(s)", "Karte(n)", "Baum/Bäume": a count picks its `.one` or `.other` form instead
    shortcuts = re.compile(r"\w\((s|n|e|en)\)|Baum/Bäume")
    found = {k: v for k, v in strings(lang).items() if shortcuts.search(v)}
    assert not found
