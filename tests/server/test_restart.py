"""Durability: the real server (`python -m eterna serve`) killed with SIGKILL mid-game and
started again on the same data folder resumes the game; the finished game's record is exactly
the game an uninterrupted engine plays with the same deterministic players."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from server_helpers import Server, free_port

import eterna
from eterna.agents import make_agent
from eterna.server.driver import agent_seed
from eterna.server.launch import serve_command, wait_until_serving

SEATS = [{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot", "agent": "random"}]
BOT_SPECS = {1: "heuristic", 2: "random"}
SEED = 31


class Subprocess(Server):
    """`eterna serve` in a child process."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.proc = subprocess.Popen(
            serve_command(port, data_dir=data_dir, bot_delay=0, limits=False),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_serving(base, self.proc, timeout=90)  # a loaded 2-core machine
        except RuntimeError as exc:
            self.proc.kill()
            err = self.proc.stderr.read().decode() if self.proc.stderr else ""
            raise RuntimeError(f"{exc}: {err}") from exc
        super().__init__(base)

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        self.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()


def expected_game() -> dict[str, Any]:
    """The same game without any server: seat 0 plays its first legal move, the bots are seeded
    as the server seeds them (by table seed, seat and ply)."""
    state = eterna.load_game("eternity").new_game(players=3, seed=SEED)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        ply = len(state.to_record()["actions"])
        if seat == 0:
            action = state.legal_actions()[0]
        else:
            agent = make_agent(BOT_SPECS[seat], seed=agent_seed(SEED, seat, ply))
            action = agent.choose(state.clone(), seat)
        state.apply(action)
    return state.to_record()


def play(server: Server, table_id: str, token: str, stop_at: int | None) -> list[int]:
    """Seat 0 plays first-legal moves until ply `stop_at` (None: the end); the plies seen."""
    ws = server.ws(table_id, token)
    seen = []
    while True:
        update = ws.update()
        seen.append(update["ply"])
        if update["table"]["status"] == "over":
            return seen
        if stop_at is not None and update["ply"] >= stop_at:
            return seen
        if "legal_actions" in update["view"]:
            action = update["view"]["legal_actions"][0]
            ws.act(action, update["ply"])


def test_kill_restart_finish_compare(tmp_path: Path) -> None:
    data = tmp_path / "data"
    port = free_port()
    first = Subprocess(data, port)
    try:
        created = first.create(game="eternity", players=3, seed=SEED, seats=SEATS)
        table_id, token = created["table_id"], created["seats"][0]["token"]
        seen = play(first, table_id, token, stop_at=25)
    finally:
        first.kill()  # mid-game: bots may be thinking, a move may be half-sent
    assert (data / "eterna.sqlite3").exists()
    second = Subprocess(data, port)
    try:
        resumed = second.summary(table_id)
        assert resumed["status"] == "playing"
        assert resumed["plies"] >= max(seen)  # nothing acknowledged was lost
        play(second, table_id, token, stop_at=None)
        deadline = time.monotonic() + 30
        while second.summary(table_id)["status"] != "over":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = second.http.get(f"/api/tables/{table_id}/record").json()
    finally:
        second.kill()
    expected = expected_game()
    assert record["actions"] == expected["actions"]
    assert {k: record[k] for k in expected} == expected
    replayed = eterna.replay(record)
    assert replayed.scores == record["meta"]["scores"]
    assert replayed.winners == record["meta"]["winners"]
