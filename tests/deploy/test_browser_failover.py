"""The newcomer's failover, in a real browser (docs/web.md, "Kill a node and watch the game go
on"): the local cluster of `make cluster` (deploy/cluster.sh: PostgreSQL, Redis, three nodes,
nginx), a table against a bot with a turn timer made in the lobby and played in Debian's
Chromium through nginx.

The node the page's WebSocket is on is killed with SIGKILL: the page says it is reconnecting, in
words (the banner and the turn line), without moving the table under the player's pointer; its
moves are disabled meanwhile and a click on one sends nothing (the browser is held offline for
that moment, so that its retries fail until the test lets them through); then it resumes
without a reload (a marker set on `window` before the kill survives) with the same ply, the
same log and the same turn's countdown, its turn and its moves offered again, and its next move
is accepted. Then the node
that drives the table (its lease) is killed: the player's moves are still accepted, and the bot
moves again once another node has taken the table over. Every move the player clicked is in the
database at its ply, and the page's ply is the number of moves stored: none lost, none added.

One cluster for the module (its start is the slow part). Screenshots go where the browser
tests write theirs (test-output/screenshots/).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.deploy.test_local_cluster import (
    cluster,
    cluster_env,
    free_base_port,
    require_packages,
    running,
)
from tests.web.conftest import (
    CHROMIUM_ARGS,
    SCREENSHOTS,
    UI,
    Server,
    browser_page,
    ensure_chromium,
)

NODES = 3
# Generous bounds on waits for the page's state, never asserted durations: failover is
# documented at lease_ttl (3 s) plus one sweep (1 s); a loaded CI machine may take longer.
RECONNECT_MS = 30_000
FAILOVER_MS = 60_000


@dataclass
class Cluster:
    base: str  # nginx: the site address a player opens
    port: int
    folder: Path
    env: dict[str, str]

    @property
    def logs(self) -> Path:
        return self.folder / "logs"

    def pid(self, node: str) -> int:
        return int((self.folder / "run" / f"{node}.pid").read_text())

    def kill(self, node: str) -> None:
        pid = self.pid(node)
        os.kill(pid, signal.SIGKILL)
        for _ in range(100):  # the kernel reaps it at once; wait for that, not for a time
            if not running(pid):
                return
            time.sleep(0.05)
        pytest.fail(f"{node} (pid {pid}) survived SIGKILL")

    def sql(self, query: str) -> list[list[str]]:
        psql = ["psql", "-h", "127.0.0.1", "-p", str(self.port + 10), "-U", "eterna", "eterna"]
        done = subprocess.run(
            [*psql, "-tAF", "\t", "-c", query],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 0, done.stderr
        return [line.split("\t") for line in done.stdout.splitlines() if line]

    def driver(self, table_id: str, dead: set[str]) -> str:
        """The live node holding the table's lease (docs/web.md: the `leases` view)."""
        query = (
            f"SELECT node FROM leases WHERE table_id = '{table_id}' "
            "AND expires_at > extract(epoch from clock_timestamp())"
        )
        deadline = time.monotonic() + FAILOVER_MS / 1000
        while time.monotonic() < deadline:
            rows = [row[0] for row in self.sql(query) if row[0] not in dead]
            if rows:
                return rows[0]
            time.sleep(0.1)
        pytest.fail(f"no live node took the lease of table {table_id}")

    def forgotten_elsewhere(self, keep: set[str]) -> None:
        """Wait until the nodes not in `keep` hold no copy of a table (they hear no table's
        channel: GET /api/cluster): a copy read for a request is forgotten within seconds.
        The module's one table is the only one, so a node with none has no copy of it."""
        nodes = [f"node{i}" for i in range(1, NODES + 1) if f"node{i}" not in keep]
        deadline = time.monotonic() + FAILOVER_MS / 1000
        while time.monotonic() < deadline:
            heard = {
                node: httpx.get(
                    f"http://127.0.0.1:{self.port + int(node[4:])}/api/cluster",
                    timeout=10,
                    trust_env=False,
                ).json()["channels"]
                for node in nodes
            }
            if not any(heard.values()):
                return
            time.sleep(0.2)
        pytest.fail(f"copies of the table kept on {heard}")

    def sockets_accepted(self, table_id: str) -> Counter[str]:
        """How many of the table's WebSockets each node accepted (its log says so at once,
        as docs/web.md tells the newcomer to grep)."""
        needle = f'"WebSocket /ws/tables/{table_id}?'
        counts: Counter[str] = Counter()
        for log in self.logs.glob("node*.log"):
            text = log.read_text(errors="replace")
            counts[log.stem] = sum(
                1 for line in text.splitlines() if needle in line and "[accepted]" in line
            )
        return counts


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[Cluster]:
    """`deploy/cluster.sh start` on ports of its own, in a folder PostgreSQL's user can reach
    (as root the script runs PostgreSQL as `postgres`); stopped at the end of the module."""
    require_packages()
    folder = Path(tempfile.mkdtemp(prefix="eterna-browser-cluster-"))
    folder.chmod(0o755)
    port = free_base_port()
    env = cluster_env(folder / "cluster", port, NODES)
    try:
        cluster("start", env)
        yield Cluster(f"http://127.0.0.1:{port}", port, folder / "cluster", env)
    finally:
        cluster("stop", env)
        shutil.rmtree(folder, ignore_errors=True)


def in_a_thread_of_its_own(scenario: Callable[[Any], None]) -> None:
    """Run `scenario(browser)` with a Chromium of its own, in a thread of its own: Playwright's
    sync API refuses to start in a thread where another one runs, and tests/web's Chromium (whose
    fixtures tests/deploy cannot reach) runs in this worker while tests/web's tests do: a thread
    of its own does not depend on the order a worker is given its tests in."""
    failures: list[BaseException] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        try:
            executable = ensure_chromium()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                try:
                    scenario(browser)
                finally:
                    browser.close()
        except BaseException as exc:  # an assertion, pytest.fail, a timeout: the test's
            failures.append(exc)

    thread = threading.Thread(target=run, name="chromium")
    thread.start()
    thread.join(timeout=600)
    assert not thread.is_alive(), "the browser's scenario did not end within 10 minutes"
    if failures:
        raise failures[0]


# What the player sees of the game: the ply, the log, the moves offered.
_TABLE_STATE = """() => ({
    ply: document.body.dataset.ply,
    log: [...document.querySelectorAll('#log li')].map((li) => li.textContent),
    moves: [...document.querySelectorAll('#action-list [data-action]')]
        .map((b) => b.dataset.action),
})"""

# Set before the first kill: a marker a reload would lose, and the banner's words each time it
# is shown (a MutationObserver: the banner may show for less than a screenshot takes).
_WATCH = """() => {
    window.__sameDocument = true;
    window.__banners = [];
    const box = document.getElementById('connection');
    let shown = !box.hidden;
    new MutationObserver(() => {
        if (!box.hidden && !shown) window.__banners.push(box.innerText);
        shown = !box.hidden;
    }).observe(box, {attributes: true, childList: true, subtree: true});
}"""

_CONNECTED = "document.getElementById('connection').hidden"
_BOT_TO_MOVE = "document.body.dataset.status === 'playing' && document.body.dataset.myTurn !== '1'"


_SETTLED = (
    "document.body.dataset.status === 'over' || "
    "(document.body.dataset.myTurn === '1' && !document.body.dataset.sending)"
)


class Player:
    """The player at the page: the moves clicked, by ply, each accepted by the server."""

    def __init__(self, ui: UI, page: Any) -> None:
        self.ui, self.page = ui, page
        self.played: dict[int, str] = {}
        self.sockets: list[Any] = []
        self.sent: list[str] = []  # every frame the page sent, on any of its sockets
        page.on("websocket", self.opened)

    def opened(self, ws: Any) -> None:
        self.sockets.append(ws)
        ws.on("framesent", lambda payload: self.sent.append(str(payload)))

    def ply(self) -> int:
        return int(self.ui.state(self.page)["ply"])

    def first_button(self) -> Any:
        return self.page.locator("#action-list button[data-action]").first

    def play(self, settle: bool = True) -> None:
        """Click the first move offered: the server must accept it (the ply moves on); then,
        when `settle`, wait until it is the player's turn again (the bot answered)."""
        ply = self.ply()
        button = self.first_button()
        action = button.get_attribute("data-action")
        assert action
        button.click()
        self.page.wait_for_function(
            "ply => Number(document.body.dataset.ply) > ply", arg=ply, timeout=RECONNECT_MS
        )
        self.played[ply] = action
        if settle:
            self.page.wait_for_function(_SETTLED, timeout=FAILOVER_MS)

    def same_document(self) -> bool:
        return bool(self.page.evaluate("window.__sameDocument === true"))


TURN_TIMER = 300  # seconds a move: the countdown shows, and never runs out during the test


def create_in_lobby(ui: UI, page: Any) -> str:
    """As a newcomer does: the lobby's form, The Vale of Eternity against a heuristic bot, a turn
    timer and no bot delay (Options); the seat taken from the link the lobby shows."""
    page.goto(ui.server.url("/"))
    page.select_option("#game-select", "vale")
    page.select_option("#players-select", "2")
    page.fill("#player-name", "Ada")
    assert page.locator("[data-seat-kind='1']").input_value() == "bot"
    page.click("#options-box summary")
    page.fill("#bot-delay", "0")
    page.fill("#turn-timer", str(TURN_TIMER))
    page.fill("#seed", "17")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    table_id: str = page.get_attribute("#created", "data-table-id")
    page.click("#created [data-seat-link='0']")
    page.wait_for_url(f"**/table/{table_id}?token=*")
    page.wait_for_function(_SETTLED, timeout=FAILOVER_MS)
    return table_id


def seconds_left(page: Any) -> int:
    """The turn's countdown the page shows ("(N s left)"); it must show on the player's turn."""
    countdown = page.locator("#status #countdown")
    assert countdown.count() == 1, "no countdown on the player's turn"
    found = re.search(r"(\d+) s left", countdown.inner_text())
    assert found, countdown.inner_text()
    return int(found.group(1))


def kill_the_sockets_node(site: Cluster, player: Player, table_id: str, dead: set[str]) -> None:
    """The node the page's socket is on, found as docs/web.md says (its log), killed: the
    banner, a move refused meanwhile, then the same table again without a reload."""
    page, ui = player.page, player.ui
    accepted = site.sockets_accepted(table_id)
    assert len(player.sockets) == 1 and sum(accepted.values()) == 1, accepted
    node = accepted.most_common(1)[0][0]
    # the nodes that neither drive the table nor serve the page forget their copies (read for
    # the lobby's requests), so that the page may come back to a node that reads the table
    # afresh and does not know the turn's deadline
    driver = site.driver(table_id, dead)
    site.forgotten_elsewhere({node, driver})
    before = page.evaluate(_TABLE_STATE)
    left = seconds_left(page)
    aimed = player.first_button().bounding_box()
    acts = sum(1 for frame in player.sent if '"act"' in frame)
    page.evaluate(_WATCH)
    # offline: the page's retries fail until it is back online, which holds the gap open long
    # enough to look at it (the open socket is left alone: the kill drops it)
    page.context.set_offline(True)
    site.kill(node)
    dead.add(node)
    print(f"killed {node}, the node of the page's socket ({driver} drove the table)")
    page.wait_for_function("window.__banners.length >= 1", timeout=RECONNECT_MS)
    assert page.locator("#connection").is_visible()
    # the banner floats: nothing moved under the player's pointer (it pushed the table 54 px down)
    now = player.first_button().bounding_box()
    assert abs(now["y"] - aimed["y"]) < 1 and abs(now["x"] - aimed["x"]) < 1, (aimed, now)
    # the turn line says the table is reconnecting, and no move is offered meanwhile: the move
    # looks disabled, and a click on it sends nothing
    assert page.locator("#status").inner_text().startswith("Reconnecting…")
    assert player.first_button().is_disabled()
    player.first_button().click(force=True)
    message = page.locator("#message")
    assert not message.is_visible()
    assert sum(1 for frame in player.sent if '"act"' in frame) == acts
    ui.shot(page, "cluster-failover-2-reconnecting")
    page.context.set_offline(False)  # the browser's "online" event: the page dials at once
    page.wait_for_function(_CONNECTED, timeout=RECONNECT_MS)
    page.wait_for_function(_SETTLED, timeout=FAILOVER_MS)
    ui.shot(page, "cluster-failover-3-resumed")
    banners = page.evaluate("window.__banners")
    assert banners[0].startswith("Connection lost: reconnecting…"), banners
    assert "Reconnect now" in banners[0]
    assert not message.is_visible(), "the page says it is not connected"
    assert page.locator("#status").inner_text().startswith("Your turn")
    assert not player.first_button().is_disabled()
    assert len(player.sockets) >= 2  # a new socket, through nginx to a live node
    assert player.same_document(), "the page was reloaded"
    assert page.evaluate(_TABLE_STATE) == before  # same ply, same log, same moves
    # the same turn's countdown goes on (a node that does not drive the table sends none)
    assert 0 < seconds_left(page) <= left


def kill_the_driver(site: Cluster, player: Player, table_id: str, dead: set[str]) -> int:
    """The node driving the table (its lease) killed on the player's turn: the player's moves
    are accepted, and the bot moves again once another node took the table. The bot's ply."""
    page, ui = player.page, player.ui
    # the page's socket is on the one live node that accepted one (the first one's is dead)
    accepted = site.sockets_accepted(table_id)
    live = [node for node, count in accepted.items() if count and node not in dead]
    assert len(live) == 1, accepted
    socket_node = live[0]
    driver = site.driver(table_id, dead)
    shown = len(page.evaluate("window.__banners"))
    site.kill(driver)
    dead.add(driver)
    print(f"killed {driver}, the table's driver ({socket_node} had the page's socket)")
    killed_at = time.monotonic()
    if driver == socket_node:  # the page loses its socket again, and comes back
        page.wait_for_function(f"window.__banners.length > {shown}", timeout=RECONNECT_MS)
        page.wait_for_function(_CONNECTED, timeout=RECONNECT_MS)
    page.wait_for_function(_SETTLED, timeout=FAILOVER_MS)
    for _ in range(20):  # the player's moves need no driver: play to the bot's turn
        if page.evaluate(_BOT_TO_MOVE):
            break
        player.play(settle=False)
    assert page.evaluate(_BOT_TO_MOVE), "the player's turn never ended"
    bot_ply = player.ply()
    ui.shot(page, "cluster-failover-4-bot-to-move-driver-killed")
    page.wait_for_function(
        "ply => Number(document.body.dataset.ply) > ply", arg=bot_ply, timeout=FAILOVER_MS
    )
    print(f"the bot moved {time.monotonic() - killed_at:.2f} s after its node was killed")
    page.wait_for_function(_SETTLED, timeout=FAILOVER_MS)  # the player's turn again
    ui.shot(page, "cluster-failover-5-bot-moved")
    assert seconds_left(page) > 0  # a fresh turn's countdown, from the new driver
    assert site.driver(table_id, dead) not in dead
    assert player.same_document(), "the page was reloaded"
    return bot_ply


def test_a_page_survives_its_node_and_the_driving_node_killed(local_cluster: Cluster) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    ui = UI(Server(local_cluster.base), SCREENSHOTS)
    dead: set[str] = set()
    seen: dict[str, Any] = {}

    def walk(browser: Any) -> None:
        with browser_page(browser) as page:
            player = Player(ui, page)
            seen["table"] = table_id = create_in_lobby(ui, page)
            player.play()
            player.play()
            ui.shot(page, "cluster-failover-1-playing")
            kill_the_sockets_node(local_cluster, player, table_id, dead)
            player.play()  # the next move is accepted
            seen["bot_ply"] = kill_the_driver(local_cluster, player, table_id, dead)
            player.play()
            seen["ply"], seen["played"] = player.ply(), player.played

    in_a_thread_of_its_own(walk)

    # no move lost, none added: the database holds every move the page showed, the player's
    # at the plies they were clicked, and the bot's after its node was killed
    stored = local_cluster.sql(
        f"SELECT ply, seat, notation FROM actions WHERE table_id = '{seen['table']}' ORDER BY ply"
    )
    assert [int(row[0]) for row in stored] == list(range(seen["ply"]))
    by_ply = {int(p): (int(seat), notation) for p, seat, notation in stored}
    played: dict[int, str] = seen["played"]
    assert {p: by_ply[p] for p in played} == {p: (0, action) for p, action in played.items()}
    assert by_ply[seen["bot_ply"]][0] == 1
