"""The lobby in plain words, reserved seats, "my tables" and the first run (issue 15).

Browser tests in Debian's Chromium against the real server (conftest.py), plus the HTTP answer
the lobby reads its option words from and the Makefile's and README's first-run words.
Screenshots: test-output/screenshots/lobby-*.png.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What a player must never read in the lobby: option names, raw values, the rules digest's and
# the docs' references, and plural shortcuts.
RAW = [
    "next_round_leader",
    "last_trick_winner",
    "lowest_score",
    "rotate",
    "column_order",
    "shuffle_each_round",
    "tree_supply",
    "tie_break",
    "harmony_rounds",
    "dragon_attack_targets",
    "young_spirit_area_limit",
    "free_summon_triggers",
    "exalted_recover",
    "allow_superfluous_payment",
    "double_portal_luck",
    "basic_market_distinct",
    "round_limit",
    "composition",
    "{}",
    "digest",
    "docs/",
    ".md",
    "(s)",
    "heuristic",
    "ismcts",
]
REFERENCE = re.compile(r"\b(R\d+|Q\d+)\b")
LANGS = ["en", "fr", "de"]


def _lobby(page: Any, ui: Any, lang: str) -> None:
    page.add_init_script(f"localStorage.setItem('eterna.lang', '{lang}')")
    page.goto(ui.server.url("/"))
    page.wait_for_selector("#quick-buttons button")
    page.wait_for_selector("#seat-rows .seat-row")


def _all_option_text(page: Any) -> str:
    """The lobby's text with every game's options shown, and every choice of every select."""
    page.click("#options-box summary")
    texts = []
    for game in ("eternity", "vale", "eternitium"):
        page.select_option("#game-select", game)
        texts.append(page.inner_text("main"))
        texts += page.eval_on_selector_all("select option", "os => os.map(o => o.textContent)")
        texts += page.eval_on_selector_all("[title]", "es => es.map(e => e.title)")
    return "\n".join(texts)


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_speaks_plain_words(page: Any, ui: Any, lang: str) -> None:
    _lobby(page, ui, lang)
    text = _all_option_text(page)
    found = [raw for raw in RAW if raw in text]
    assert not found, f"raw names or references in the {lang} lobby: {found}"
    assert not REFERENCE.search(text), REFERENCE.search(text)
    # each of Eternity's options is there under its label, with its help under it
    page.select_option("#game-select", "eternity")
    labels = page.locator("#game-options .option-label")
    assert labels.count() == 4
    assert page.locator("#game-options .option-help").count() == 4
    # seats are numbered from 1
    page.select_option("#players-select", "3")
    seats = page.locator("#seat-rows .seat-label").all_inner_texts()
    assert [re.sub(r"\D", "", s) for s in seats] == ["1", "2", "3"]
    ui.shot(page, f"lobby-options-{lang}")


def test_switching_the_language_rewords_the_options(page: Any, ui: Any) -> None:
    _lobby(page, ui, "en")
    page.select_option("#game-select", "eternity")
    page.click("#options-box summary")
    german = ui.server.get("/api/games?lang=de")
    label = next(g for g in german if g["id"] == "eternity")["option_info"]["tie_break"]["label"]
    page.select_option("#lang-select", "de")
    page.wait_for_function(
        "l => [...document.querySelectorAll('.option-label')].some(e => e.textContent === l)",
        arg=label,
    )
    assert "Platz 1" in page.inner_text("#seat-rows")


def test_seat_names_count_from_one_on_every_page(page: Any, ui: Any) -> None:
    # seatName (page.js) names seats on the table, history and replay pages
    _lobby(page, ui, "en")
    names = page.evaluate(
        """async () => {
          const { seatName } = await import("/static/js/page.js");
          const bo = (seat) => ({ seat, kind: "human", name: "Bo" });
          const table = { seats: [{ seat: 0, kind: "human" }, bo(1), bo(2)] };
          return [0, 1, 2].map((s) => seatName(table, s));
        }"""
    )
    assert names == ["Seat 1", "Bo #2", "Bo #3"]


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["Seat 1", "Heuristic bot 2", "Heuristic bot 3", "Search bot", "Robby"]),
        (
            "fr",
            ["Place 1", "Robot heuristique 2", "Robot heuristique 3", "Robot chercheur", "Robby"],
        ),
    ],
)
def test_bots_are_named_by_the_catalog_not_their_agent_id(
    page: Any, ui: Any, lang: str, expected: list[str]
) -> None:
    # issue 32: "heuristic #2 bot" is "Heuristic bot 2", as the server and the terminal say
    _lobby(page, ui, lang)
    names = page.evaluate(
        """async () => {
          const { seatName } = await import("/static/js/page.js");
          const bot = (seat, agent, name) => ({ seat, kind: "bot", agent, name });
          const table = { seats: [{ seat: 0, kind: "human" }, bot(1, "heuristic", "heuristic"),
            bot(2, "heuristic", null), bot(3, "ismcts:seconds=2", "ismcts"),
            bot(4, "random", "Robby")] };
          return [0, 1, 2, 3, 4].map((s) => seatName(table, s));
        }"""
    )
    assert names == expected


def test_quick_start_buttons_say_their_bots_in_good_plurals(page: Any, ui: Any) -> None:
    expected = {
        "en": ["Eternitium vs 1 bot", "Eternity vs 2 bots", "The Vale of Eternity vs 1 bot"],
        "fr": ["Eternitium contre 1 robot", "Eternity contre 2 robots"],
        "de": ["Eternitium gegen 1 Bot", "Eternity gegen 2 Bots"],
    }
    for lang, wanted in expected.items():
        _lobby(page, ui, lang)
        buttons = page.locator("#quick-buttons button").all_inner_texts()
        for text in wanted:
            assert text in buttons, (lang, buttons)


def test_the_solo_mission_picker_describes_each_mission(page: Any, ui: Any) -> None:
    _lobby(page, ui, "fr")
    page.select_option("#game-select", "eternitium")
    page.select_option("#players-select", "1")
    missions = page.locator("#mission-box .mission")
    assert missions.count() == 11  # the base solo game and missions 1 to 10
    numbered = page.locator("#mission-box .mission-title").all_inner_texts()
    assert sum(1 for m in numbered if m.startswith("Mission ")) == 10
    texts = page.locator("#mission-box .mission-text").all_inner_texts()
    assert all(len(t) > 20 for t in texts)
    assert "Blasters temporels" in texts[1]  # mission 1, in French
    ui.shot(page, "lobby-missions-fr")
    page.set_viewport_size({"width": 390, "height": 844})
    ui.shot(page, "lobby-missions-phone")
    # the mission picked is the table's: mission 3 lasts at most 4 turns
    page.locator("#mission-box .mission-text").nth(3).click()  # the whole card picks it
    assert page.is_checked("#mission-box input[data-mission='3']")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    assert ui.server.get(f"/api/tables/{table_id}")["options"]["mission"] == 3
    # not a multiplayer option: two players, no picker
    page.select_option("#players-select", "2")
    assert page.locator("#mission-box").is_hidden()


def test_games_api_words_options_in_the_asked_language(server: Any) -> None:
    games = {g["id"]: g for g in server.get("/api/games?lang=de")}
    leader = games["eternity"]["option_info"]["next_round_leader"]
    assert leader["label"] and "_" not in leader["label"]
    assert "digest" not in leader["help"] and "Q2" not in leader["help"]
    assert set(leader["choice_labels"]) == {'"rotate"', '"last_trick_winner"', '"lowest_score"'}
    assert "rotate" not in " ".join(leader["choice_labels"].values())
    supply = games["eternity"]["option_info"]["tree_supply"]["help"]
    assert "18" in supply and "{" not in supply
    assert [m["id"] for m in games["eternitium"]["missions"]] == list(range(11))
    assert games["vale"]["missions"] == []
    english = {g["id"]: g for g in server.get("/api/games")}  # no lang: the header's, else English
    assert english["eternitium"]["missions"][1]["title"] == "The start of the training"


def test_a_friends_seat_is_never_offered_to_strangers(page: Any, ui: Any) -> None:
    _lobby(page, ui, "en")
    page.fill("#player-name", "Host")
    page.select_option("#game-select", "eternity")
    page.select_option("#players-select", "3")
    page.select_option("[data-seat-kind='1']", "human")
    page.fill("[data-seat-name='1']", "Bea")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    ui.shot(page, "lobby-created")
    summary = ui.server.get(f"/api/tables/{table_id}")
    assert summary["seats"][1]["reserved"] is True
    assert table_id not in {t["table_id"] for t in ui.server.get("/api/tables")}
    # a stranger's browser: the table is not offered
    stranger = page.context.browser.new_context(bypass_csp=True)
    try:
        other = stranger.new_page()
        other.goto(ui.server.url("/"))
        other.wait_for_selector("#open-tables li")
        assert other.locator(f"#open-tables [data-table-id='{table_id}']").count() == 0
    finally:
        stranger.close()


def test_an_open_seat_is_offered_with_join(page: Any, ui: Any) -> None:
    _lobby(page, ui, "en")
    page.select_option("#game-select", "vale")
    page.select_option("#players-select", "2")
    page.select_option("[data-seat-kind='1']", "open")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    listed = {t["table_id"]: t for t in ui.server.get("/api/tables")}
    assert table_id in listed and listed[table_id]["seats"][1]["reserved"] is False
    stranger = page.context.browser.new_context(bypass_csp=True)
    try:
        other = stranger.new_page()
        other.goto(ui.server.url("/"))
        row = other.locator(f"#open-tables [data-table-id='{table_id}']")
        row.wait_for()
        assert "1 open seat" in row.inner_text() and "(s)" not in row.inner_text()
        ui.shot(other, "lobby-open-table")
        row.locator("[data-join]").click()
        other.wait_for_url(f"**/table/{table_id}?token=*")
        other.goto(ui.server.url("/"))
        other.wait_for_selector(f"#my-tables [data-table-id='{table_id}']")  # remembered
    finally:
        stranger.close()


def test_my_tables_are_remembered_with_their_invite_links(page: Any, ui: Any) -> None:
    _lobby(page, ui, "en")
    page.fill("#player-name", "Host")
    page.select_option("#game-select", "vale")
    page.select_option("#players-select", "2")
    page.select_option("[data-seat-kind='1']", "human")
    page.fill("[data-seat-name='1']", "Bea")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    invite = page.locator("#created [data-seat='1'] input").input_value()
    page.reload()
    row = page.locator(f"#my-tables [data-table-id='{table_id}']")
    row.wait_for()
    assert "The Vale of Eternity" in row.inner_text()
    assert "Seat 1" in row.inner_text()
    page.wait_for_selector(f"#my-tables [data-table-id='{table_id}'] [data-my-table-link]")
    ui.shot(page, "lobby-my-tables")
    page.set_viewport_size({"width": 390, "height": 844})
    ui.shot(page, "lobby-my-tables-phone")
    page.set_viewport_size({"width": 1280, "height": 900})
    row.locator("[data-my-table-link]").click()
    page.wait_for_url(f"**/table/{table_id}?token=*")
    # the host's table page shows the invite link again, open while Bea has not come
    box = page.locator("#my-invites")
    box.wait_for()
    assert box.get_attribute("open") is not None
    assert box.locator("[data-seat='1'] input").input_value() == invite
    assert "Bea" in box.inner_text()
    ui.shot(page, "table-invites")
    # forgetting it removes it from the list
    page.goto(ui.server.url("/"))
    page.locator(f"#my-tables [data-forget='{table_id}']").click()
    assert page.locator(f"#my-tables [data-table-id='{table_id}']").count() == 0
    page.reload()
    page.wait_for_selector("#quick-buttons button")
    assert page.locator(f"#my-tables [data-table-id='{table_id}']").count() == 0


def test_lobby_fits_a_phone(page: Any, ui: Any) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    _lobby(page, ui, "de")
    page.click("#options-box summary")
    page.select_option("#game-select", "vale")
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 391)"
        ".map(e => `${e.tagName}#${e.id}.${e.className} ${e.getBoundingClientRect().right}`)"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    ui.shot(page, "lobby-phone-de")


# --------------------------------------------------------------------------- first run


def test_make_run_says_what_it_does_before_the_long_steps() -> None:
    dry = subprocess.run(
        ["make", "-n", "-B", "run", "VENV=/nonexistent-venv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = dry.replace("\\\n", " ").splitlines()  # a command continued over lines is one
    venv = next(i for i, line in enumerate(lines) if " -m venv " in line)
    install = next(i for i, line in enumerate(lines) if "pip install" in line and " -e " in line)
    said = "\n".join(lines[:venv])
    assert "echo" in said and re.search(r"minute", said), said
    # each slow step runs under build_engines.py's `step`, which says what it does and how long
    # it usually takes before it starts, then how far it is every few seconds
    step = re.compile(r'build_engines\.py step "[a-z][^"]+" \d+ -- ')
    assert step.search(lines[venv]), lines[venv]
    assert step.search(lines[install]), lines[install]


def test_readme_quick_start_says_what_the_page_says() -> None:
    import json

    readme = (ROOT / "README.md").read_text("utf-8")
    english = json.loads((ROOT / "src/eterna/web/static/i18n/en.json").read_text("utf-8"))
    assert "bot(s)" not in readme
    button = english["lobby.quickPlay.other"].format(game="Eternity", n=2)
    assert f'"{button}"' in readme
    assert english["lobby.quickTitle"] in readme
    assert re.search(r"minute", readme.split("\n## ", 1)[0])


def test_a_list_option_is_a_group_of_checkboxes(page: Any, ui: Any) -> None:
    # the Vale's `expansions`: one checkbox per expansion, its word from the catalogs
    _lobby(page, ui, "fr")
    page.select_option("#game-select", "vale")
    page.click("#options-box summary")
    box = page.locator("#game-options input[data-kind='item']")
    assert box.count() == 1 and not box.is_checked()
    group = page.locator("#game-options [role='group']")
    assert "Extensions" in group.inner_text() and "Artifacts" in group.inner_text()
    box.check()
    ui.shot(page, "lobby-vale-expansions-fr")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.get_attribute("#created", "data-table-id")
    assert ui.server.get(f"/api/tables/{table_id}")["options"]["expansions"] == ["artifacts"]
