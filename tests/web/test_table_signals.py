"""What a player sees of the table from elsewhere, and counters that agree (issue 32):

- on your turn the tab's title and its icon change; a spectator's tab never says "your turn";
- the turn sound is off by default, remembered by the browser once switched on, and sounds when
  the turn comes back to you (a stand-in AudioContext counts the tones);
- Eternitium's bar counts the round and the turn as its log tells them;
- an end screen: one ranked panel, its detail in a table of its own, a solo mission "succeeded"
  or "failed" under "Mission result", never "Final scores", and no "Last turn!" once over.
"""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import UI

HUMAN = {"kind": "human", "name": "Ada"}
BOT = {"kind": "bot", "agent": "heuristic"}
# A stand-in for the Web Audio API: it counts the tones the page starts.
FAKE_AUDIO = """
window.__tones = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const start = () => { window.__tones += 1; };
    return { frequency: {}, connect: (n) => n, start, stop: () => {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n };
  }
};
"""


def _play_first(ui: UI, page: Any) -> None:
    ui.move(page, page.locator("#action-list button[data-action]").first)


def test_the_tab_says_your_turn_and_the_sound_is_yours_to_switch_on(ui: UI, open_page: Any) -> None:
    created = ui.server.create("eternity", [HUMAN, BOT, BOT], seed=5)
    with open_page() as page:
        page.add_init_script(FAKE_AUDIO)
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        assert page.title() == "▶ Your turn · Eternity"
        assert page.get_attribute("link[rel='icon']", "href") == "/static/favicon-turn.svg"
        sound = page.locator("#sound-toggle")
        assert not sound.is_checked()  # off by default
        _play_first(ui, page)
        assert page.evaluate("window.__tones") == 0
        sound.check()
        page.reload()
        ui.wait_settled(page)
        assert page.locator("#sound-toggle").is_checked()  # remembered by the browser
        assert page.evaluate("localStorage.getItem('eterna.turnSound')") == "1"
        _play_first(ui, page)  # the bots play, then the turn comes back: one tone
        page.wait_for_function("window.__tones >= 1")
        page.select_option("#lang-select", "fr")
        page.wait_for_function("document.title.startsWith('▶ À vous')")
    with open_page() as watcher:
        watcher.goto(ui.server.url(created["spectator_url"]))
        watcher.locator("#seats .seat-chip").first.wait_for()
        assert watcher.title() == "Table · Eterna"
        assert watcher.get_attribute("link[rel='icon']", "href") == "/static/favicon.svg"


def test_eternitiums_bar_counts_as_its_log_tells(ui: UI, open_page: Any) -> None:
    created = ui.server.create("eternitium", [HUMAN, BOT], seed=4)
    compared = 0
    with open_page() as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        for _ in range(8):  # a move, then the page waits for the seat's turn again
            _play_first(ui, page)
            if ui.state(page).get("status") == "over":
                break
            told = page.locator("#log li[data-kind='turn_started']")
            if not told.count():  # the first turn is told by no "turn" sentence
                continue
            stats = page.locator("#board .infobar .stat").all_inner_texts()
            bar = {s.split()[0]: s.split()[-1] for s in stats if s.split()[0] in ("Round", "Turn")}
            said = re.match(r"Round (\d+), turn (\d+):", told.last.inner_text())
            assert said, told.last.inner_text()
            assert (bar["Round"], bar["Turn"]) == said.groups(), (stats, said.group(0))
            compared += 1
    assert compared >= 2


def test_a_solo_end_screen_says_the_mission_and_a_ranked_panel(ui: UI, open_page: Any) -> None:
    solo = ui.server.create("eternitium", [BOT], seed=12, options={"mission": 3})["table_id"]
    duel = ui.server.create("eternity", [BOT, BOT, BOT], seed=12)["table_id"]
    with open_page() as page:
        for table_id in (solo, duel):
            for _ in range(300):
                if ui.server.get(f"/api/tables/{table_id}")["status"] == "over":
                    break
                page.wait_for_timeout(100)
        page.goto(ui.server.url(f"/table/{solo}"))
        sheet = page.locator("#scoresheet")
        sheet.wait_for(state="visible")
        assert sheet.locator("h2").inner_text() == "Mission result"
        assert "Final scores" not in sheet.inner_text()
        assert sheet.locator(".winners").inner_text() in ("Mission succeeded", "Mission failed")
        assert "Last turn!" not in page.locator("#board .infobar").inner_text()
        page.goto(ui.server.url(f"/table/{duel}"))
        sheet.wait_for(state="visible")
        assert sheet.locator("h2").inner_text() == "Final scores"
        ranks = sheet.locator(".score-table tbody td.rank").all_inner_texts()
        assert ranks == ["1", "2", "3"]
        scores = [int(s) for s in sheet.locator(".score-table tbody td.score").all_inner_texts()]
        assert scores == sorted(scores, reverse=True)
        # the per-round detail in a table of its own, below the ranking
        assert sheet.locator(".score-details .rounds-table").count() == 1
        assert sheet.locator(".score-table .rounds-table").count() == 0
        aligned = sheet.locator(".score-table td.score").first.evaluate(
            "n => getComputedStyle(n).textAlign"
        )
        assert aligned == "right"


def test_the_seat_chips_name_bots_once(ui: UI, open_page: Any) -> None:
    # issue 32, point 5: the chips read "Heuristic bot 2", never "Heuristic bot 2 bot"; the
    # "bot" tag stays only for a bot the host gave a name of its own
    named = {"kind": "bot", "agent": "heuristic", "name": "Robby"}
    created = ui.server.create("eternity", [HUMAN, BOT, named], seed=5)
    with open_page() as page:
        page.goto(ui.server.url(created["seats"][0]["url"]))
        ui.wait_settled(page)
        chips = page.locator("#seats .seat-chip")
        names = [chips.nth(i).locator(".seat-name").inner_text() for i in range(3)]
        tags = [chips.nth(i).locator(".tag").count() for i in range(3)]
        assert names == ["Ada (you)", "Heuristic bot", "Robby"]
        assert tags == [0, 0, 1]
        assert not any(re.search(r"\bbot bot\b", chips.nth(i).inner_text()) for i in range(3))
