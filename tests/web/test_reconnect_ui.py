"""The table page outlives its server (issue 31): the server restarts mid-game (SIGTERM: uvicorn
closes the sockets with 1012, as a draining cluster node does), each page says it is reconnecting
in its own language, backs off with jitter while nobody answers, and once the server is back it
resumes the same table without a reload: same ply, same log, same moves, and play goes on.

This test runs a server of its own (the session's server cannot be restarted under the others).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import UI, Server, free_port

from eterna.server.launch import serve_command, wait_until_serving

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
