"""The table page outlives its server (issue 31): the server restarts mid-game (SIGTERM: uvicorn
closes the sockets with 1012, as a draining cluster node does), each page says it is reconnecting
in its own language, backs off with jitter while nobody answers, and once the server is back it
resumes the same table without a reload: same ply, same log, same moves, and play goes on.

This test runs a server of its own (the session's server cannot be restarted under the others).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from tests.web.conftest import PHONE, PHONE_OPTIONS, UI, Server, free_port

from eterna.server.launch import serve_command, wait_until_serving

CATALOGS = Path(__file__).parents[2] / "src" / "eterna" / "web" / "static" / "i18n"
SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "agent": "heuristic"}]


class Restartable:
    """`eterna serve` on a fixed port and SQLite file, stopped and started again at will."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        command = serve_command(
            self.port,
            database_url=f"sqlite:///{self.data / 'db.sqlite'}",
            bot_delay=0,
            limits=False,
        )
        self.starts += 1
        log = self.data / f"server-{self.starts}.log"
        with log.open("w") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_until_serving(self.base, self.process, timeout=90)
        except RuntimeError as exc:
            pytest.fail(f"{exc}:\n{log.read_text()}")

    def stop(self) -> None:
        """SIGTERM: the server closes its sockets (1012) and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def restartable(tmp_path: Path) -> Iterator[Restartable]:
    server = Restartable(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _table_state(page: Any) -> dict[str, Any]:
    """What the player sees of the game: the ply, the log, the moves offered, the seats."""
    state: dict[str, Any] = page.evaluate(
        """() => ({
            ply: document.body.dataset.ply,
            log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
            moves: [...document.querySelectorAll('#action-list [data-action]')]
                .map((b) => b.dataset.action),
            seats: [...document.querySelectorAll('#seats .seat-name')].map((s) => s.textContent),
        })"""
    )
    return state


def test_the_retry_delays_back_off_with_jitter_up_to_a_cap(server: Server, page: Any) -> None:
    page.goto(server.url("/"))
    delays = page.evaluate(
        """async () => {
            const m = await import('/static/js/connection.js');
            const at = (random) => [...Array(12).keys()].map((n) => m.retryDelay(n, () => random));
            return { low: at(0), high: at(0.999999), cap: m.RETRY_CAP_MS, base: m.RETRY_BASE_MS };
        }"""
    )
    ceilings = [min(delays["cap"], delays["base"] * 2**n) for n in range(12)]
    assert delays["low"] == [round(c / 2) for c in ceilings]  # never sooner than half the ceiling
    assert delays["high"] == ceilings  # never later than it
    assert ceilings[-1] == delays["cap"] == 10000 and ceilings[0] == 500


def test_a_restarted_server_is_reconnected_and_the_table_resumes(
    restartable: Restartable, open_page: Any, screenshots: Path
) -> None:
    ui = UI(Server(restartable.base), screenshots)
    created = ui.server.create("vale", SEATS, seed=17)
    with open_page() as page, open_page(locale="fr-FR") as watcher:
        sockets: list[Any] = []
        page.on("websocket", lambda ws: sockets.append(ws))
        page.goto(restartable.base + created["seats"][0]["url"])
        watcher.goto(restartable.base + created["spectator_url"])
        ui.wait_settled(page)
        ui.move(page, page.locator("#action-list button[data-action]").first)
        watcher.wait_for_function(
            "ply => document.body.dataset.ply === ply", arg=ui.state(page)["ply"]
        )
        before = _table_state(page)
        seen = _table_state(watcher)
        assert not page.locator("#connection").is_visible()
        page.evaluate("window.__sameDocument = true")  # gone if the page reloads

        restartable.stop()
        banner = page.locator("#connection")
        banner.wait_for(state="visible")
        tries = len(sockets)
        # nobody answers: a few spaced tries (at about 0.4, 1.1, 2.6 and 5.6 s), not a storm
        page.wait_for_timeout(5000)
        assert 1 <= len(sockets) - tries <= 4
        assert banner.inner_text().startswith("Connection lost: reconnecting…")
        assert page.locator("#connection #reconnect-now").inner_text() == "Reconnect now"
        watcher.locator("#connection").wait_for(state="visible")
        assert (
            watcher.locator("#connection")
            .inner_text()
            .startswith("Connexion perdue : reconnexion…")
        )
        ui.shot(page, "reconnecting-banner")

        restartable.start()
        for p in (page, watcher):  # the button: at once, not at the end of the back-off
            p.evaluate("document.getElementById('reconnect-now')?.click()")
        banner.wait_for(state="hidden", timeout=30_000)
        watcher.locator("#connection").wait_for(state="hidden", timeout=30_000)
        ui.wait_settled(page)
        assert _table_state(page) == before  # the same table, no reload
        assert _table_state(watcher) == seen
        assert page.evaluate("window.__sameDocument === true")
        ui.move(page, page.locator("#action-list button[data-action]").first)
        assert int(ui.state(page)["ply"]) > int(before["ply"])


# Where a player aims: the moves, the cards, the hint, the turn line; their boxes in the page
# must not move when the connection comes and goes (rounded to the pixel).
_AIMED = """() => Object.fromEntries(
    [...document.querySelectorAll(
        '#action-list button[data-action], #moves-quick button, #board button.card, ' +
        '#hint-button, #status, #moves-toggle')]
      .map((node, i) => {
          const box = node.getBoundingClientRect();
          const key = node.id || `${node.dataset.action || node.dataset.card || ''}#${i}`;
          // the turn line's words change: its width with them, never its place or its height
          const width = node.id === 'status' ? 0 : box.width;
          const x = box.x + window.scrollX, y = box.y + window.scrollY;  // in the page
          return [key, [x, y, width, box.height].map(Math.round)];
      }))"""

# The moves a player could click: the buttons of #actions and the cards on the board.
_OFFERED = """() => [...document.querySelectorAll(
    '#action-list button[data-action], #moves-quick button, #board button.card, ' +
    '#board button.card-verb, #hint-button')].map((node) => node.disabled)"""


# What the reconnecting banner covers, in the window as it is scrolled: every visible link,
# button, field, card or the navigation, and every line of text outside the banner, whose box
# (clipped by the scrolling panels it sits in and by the window) meets the banner's. The banner
# may sit anywhere that covers none of them.
_COVERED = """() => {
  const banner = document.getElementById('connection');
  const b = banner.getBoundingClientRect();
  if (!b.width || !b.height) return ['the banner has no box'];
  const shown = (n) => {
    const style = getComputedStyle(n);
    return n.getClientRects().length > 0 && style.visibility !== 'hidden' && style.opacity !== '0';
  };
  // a box as the player sees it: cut by every scrolling or clipping ancestor, and the window
  const seen = (node, r) => {
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (let a = node.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const c = a.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top),
        Math.min(right, c.right), Math.min(bottom, c.bottom)];
    }
    [left, top] = [Math.max(left, 0), Math.max(top, 0)];
    [right, bottom] = [Math.min(right, innerWidth), Math.min(bottom, innerHeight)];
    return {left, top, right, bottom};
  };
  const meets = (node, r) => {
    if (r.left >= b.right || r.right <= b.left || r.top >= b.bottom || r.bottom <= b.top) {
      return false;  // clipping only takes from a box: one away from the banner stays away
    }
    const v = seen(node, r);
    return v.right - v.left > 0.5 && v.bottom - v.top > 0.5 && v.left < b.right - 0.5 &&
      v.right > b.left + 0.5 && v.top < b.bottom - 0.5 && v.bottom > b.top + 0.5;
  };
  const what = (n) => `${n.tagName.toLowerCase()}${n.id ? '#' + n.id : ''} ` +
    `"${(n.getAttribute('aria-label') || n.textContent).trim().slice(0, 40)}"`;
  const covered = [];
  const aimed = 'a[href], button, select, input, textarea, summary, nav, .card, ' +
    '[tabindex]:not([tabindex="-1"])';
  for (const n of document.querySelectorAll(aimed)) {
    if (banner.contains(n) || !shown(n)) continue;
    if ([...n.getClientRects()].some((r) => meets(n, r))) covered.push(what(n));
  }
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = texts.nextNode(); t; t = texts.nextNode()) {
    const parent = t.parentElement;
    if (!t.textContent.trim() || !parent || banner.contains(parent) || !shown(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    if ([...range.getClientRects()].some((r) => meets(parent, r))) {
      covered.push(`the text "${t.textContent.trim().slice(0, 40)}"`);
    }
  }
  return covered;
}"""

# The window's scroll positions a player reads the table at: its top, the moves, its end (one
# position where the page is the screen and does not scroll).
_SCROLLS = """() => {
  const moves = document.getElementById('actions');
  const end = Math.max(0, document.documentElement.scrollHeight - innerHeight);
  const y = moves ? moves.getBoundingClientRect().top + window.scrollY : 0;
  return [...new Set([0, Math.min(Math.round(y), end), end])];
}"""

# set once the page draws its moves again (a try that failed draws the page)
_WATCH_DRAWING = """() => {
  window.__drawnAgain = false;
  const seen = new MutationObserver(() => { window.__drawnAgain = true; seen.disconnect(); });
  seen.observe(document.getElementById('action-list'), {childList: true});
}"""

_TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

# every width the reconnect tests use (a laptop, a small laptop, a phone), and a tablet upright
_WIDTHS = [
    {"width": 1280, "height": 800},
    {"width": 1024, "height": 800},
    {"width": 820, "height": 1180},
    PHONE,
]


def _banner_covers(page: Any, screenshots: Path, where: str) -> list[str]:
    """At each width, once its button was pressed (a try that fails), the window scrolled to
    each place a player reads: what the banner covers (a window-sized screenshot each: the
    banner where the player sees it)."""
    size = page.viewport_size
    scrolled = page.evaluate("window.scrollY")
    problems: list[str] = []
    for viewport in _WIDTHS:
        page.set_viewport_size(viewport)
        page.evaluate(_TWO_FRAMES)
        # the player presses "Reconnect now" here: the try fails (the server is down) and the
        # page is drawn again at this width (a phone folds the moves whose cards are the moves)
        page.evaluate(_WATCH_DRAWING)
        page.locator("#reconnect-now").click()
        page.wait_for_function("window.__drawnAgain === true")
        # drawn again, the same table: nothing comes in, the last card played does not jump
        moving = page.evaluate(
            "document.getAnimations().map((a) => a.animationName).filter(Boolean)"
        )
        problems += [f"{where} at {viewport['width']} px: a try redrew {m}" for m in moving]
        page.evaluate(_TWO_FRAMES)
        for y in page.evaluate(_SCROLLS):
            page.evaluate(f"window.scrollTo(0, {y})")
            page.evaluate(_TWO_FRAMES)
            problems += [
                f"{where} at {viewport['width']} px, scrolled to {y}: the banner covers {c}"
                for c in page.evaluate(_COVERED)
            ]
            if y == 0:
                shot = screenshots / f"reconnect-banner-{where}-{viewport['width']}.png"
                page.screenshot(path=str(shot), scale="css")  # a phone's too: one pixel a px
    page.set_viewport_size(size)
    page.evaluate(_TWO_FRAMES)
    page.evaluate(f"window.scrollTo(0, {scrolled})")
    page.evaluate(_TWO_FRAMES)
    return problems


def _click_anyway(locator: Any) -> None:
    """A player's click on a move that is disabled (forced: Playwright would wait for it to be
    enabled). Each try the page makes to reconnect draws it again, with new buttons: one drawn
    between finding the button and clicking it leaves the old one detached ("not visible"),
    then the click goes to the new one, as a player's would."""
    for attempt in range(3):
        try:
            locator.click(force=True)
            return
        except PlaywrightError as gone:
            if attempt == 2 or "not visible" not in str(gone):
                raise


def _seconds_left(page: Any) -> int:
    text = page.locator("#status #countdown").inner_text()
    found = re.search(r"\d+", text)
    assert found, text
    return int(found.group(0))


@pytest.mark.parametrize(
    ("where", "options", "turn_words"),
    [
        ("vale-desktop-en", {"viewport": {"width": 1280, "height": 800}}, "Your turn"),
        ("vale-phone-de", {**PHONE_OPTIONS, "locale": "de-DE"}, "Du bist am Zug"),
        (
            "eternity-desktop-fr",
            {"viewport": {"width": 1024, "height": 800}, "locale": "fr-FR"},
            "À vous de jouer",
        ),
    ],
)
def test_a_dropped_socket_offers_no_move_until_it_is_back(
    restartable: Restartable,
    open_page: Any,
    screenshots: Path,
    where: str,
    options: dict[str, Any],
    turn_words: str,
) -> None:
    """While the page reconnects, its turn line says so (in the page's language), its moves and
    cards are disabled, a click on them sends nothing and moves nothing; once it is back, the
    same turn is offered again as it was, with its countdown, and a move is accepted."""
    game, _, lang = where.split("-")
    words = json.loads((CATALOGS / f"{lang}.json").read_text())
    ui = UI(Server(restartable.base), screenshots)
    seats = SEATS if game == "vale" else [*SEATS, {"kind": "bot", "agent": "heuristic"}]
    created = ui.server.create(game, seats, seed=17, turn_timer=300)
    with open_page(**options) as page:
        frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
        page.goto(restartable.base + created["seats"][0]["url"])
        ui.wait_settled(page)
        ui.open_moves(page)  # a phone folds the moves while the cards are the moves
        status = page.locator("#status")
        assert status.inner_text().startswith(turn_words)
        before = page.evaluate(_AIMED)
        assert len(before) > 3, before
        assert not any(page.evaluate(_OFFERED)), "a move is disabled before the drop"
        left = _seconds_left(page)
        ply = ui.state(page)["ply"]
        ui.shot(page, f"reconnect-turn-{where}-1-before")

        restartable.stop()
        page.wait_for_function("document.body.dataset.connection === 'lost'")
        page.locator("#connection").wait_for(state="visible")
        assert status.inner_text().startswith(words["table.statusReconnecting"])
        assert turn_words not in status.inner_text()
        assert page.locator("#status #countdown").count() == 1  # the clock still runs
        own_dot = page.locator("#seats .seat-chip.me .dot")
        assert own_dot.get_attribute("class") == "dot off"  # the page's own seat: not connected
        offered = page.evaluate(_OFFERED)
        assert offered and all(offered), "a move still looks clickable while reconnecting"
        sent = len(frames)
        # a player's clicks on a move and on a card: nothing is sent, nothing moves
        _click_anyway(page.locator("#action-list button[data-action]").first)
        cards = page.locator("#board button.card.legal")
        if cards.count():
            _click_anyway(cards.first)
        _click_anyway(page.locator("#hint-button"))
        page.wait_for_timeout(300)  # let a wrongly sent frame or a message show
        assert frames[sent:] == []
        assert page.locator("#message").is_hidden()
        assert page.evaluate(_AIMED) == before, "the table moved when the connection dropped"
        ui.shot(page, f"reconnect-turn-{where}-2-reconnecting")
        # the banner hides nothing a player reads or clicks, at every width, in this language
        assert _banner_covers(page, screenshots, where) == []
        assert page.evaluate(_AIMED) == before, "a width tried moved the table for good"

        restartable.start()
        page.evaluate("document.getElementById('reconnect-now')?.click()")
        page.locator("#connection").wait_for(state="hidden", timeout=30_000)
        ui.wait_settled(page)
        page.wait_for_function("!document.body.dataset.connection")
        assert status.inner_text().startswith(turn_words)
        assert not any(page.evaluate(_OFFERED)), "a move stays disabled after the reconnect"
        assert own_dot.get_attribute("class") == "dot on"
        assert 0 < _seconds_left(page) <= left
        assert ui.state(page)["ply"] == ply
        assert page.evaluate(_AIMED) == before, "the table moved when the connection came back"
        ui.shot(page, f"reconnect-turn-{where}-3-back")
        ui.open_moves(page)
        ui.move(page, page.locator("#action-list button[data-action]").first)
        assert int(ui.state(page)["ply"]) > int(ply)


def test_a_keyboard_player_s_focus_goes_back_to_the_move_after_a_reconnect(
    restartable: Restartable, open_page: Any, screenshots: Path
) -> None:
    """The drop disables the move the keyboard was on: the focus waits at the start of the
    moves (never the top of the page) and, once the move is offered again, is back on it, so
    Enter plays what the player had chosen (before, the focus stayed on the list: the player
    had to find the move again)."""
    ui = UI(Server(restartable.base), screenshots)
    created = ui.server.create("vale", SEATS, seed=17)
    with open_page(viewport={"width": 1280, "height": 800}) as page:
        frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
        page.goto(restartable.base + created["seats"][0]["url"])
        ui.wait_settled(page)
        ui.open_moves(page)
        moves = page.locator("#action-list button[data-action]")
        assert moves.count() >= 2
        chosen = moves.nth(1).get_attribute("data-action")
        moves.nth(1).focus()
        focused = "document.activeElement.dataset.action || document.activeElement.id || ''"
        assert page.evaluate(focused) == chosen

        restartable.stop()
        page.wait_for_function("document.body.dataset.connection === 'lost'")
        assert page.evaluate(focused) == "action-list"  # waits at the moves, not the page top

        restartable.start()
        page.evaluate("document.getElementById('reconnect-now')?.click()")
        page.locator("#connection").wait_for(state="hidden", timeout=30_000)
        page.wait_for_function("!document.body.dataset.connection")
        ui.wait_settled(page)
        assert page.evaluate(focused) == chosen
        ply = ui.state(page)["ply"]
        page.keyboard.press("Enter")  # plays the move the focus is on
        page.wait_for_function("ply => document.body.dataset.ply !== ply", arg=ply)
        acts = [json.loads(f) for f in frames if '"act"' in f]
        assert [a["action"] for a in acts if a.get("type") == "act"] == [chosen]
