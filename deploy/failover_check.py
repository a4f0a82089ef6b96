"""Play a game through a running cluster's proxy and kill the node driving it, as a person would
check a deployment by hand: `make cluster` or `docker compose -f deploy/compose.yaml up`, then

    python deploy/failover_check.py http://127.0.0.1:8100 \\
        --psql "psql -h 127.0.0.1 -p 8110 -U eterna eterna" \\
        --kill 'kill -9 $(cat build/cluster/run/{node}.pid)'

    python deploy/failover_check.py http://localhost:8080 \\
        --psql "docker compose -f deploy/compose.yaml exec -T postgres psql -U eterna eterna" \\
        --kill "docker compose -f deploy/compose.yaml kill {node}"

It creates a table of Eternity (seat 0 played here over a WebSocket through the proxy, seats 1
and 2 bots), plays a few moves, asks PostgreSQL (`--psql`, a command that runs psql) which
node holds the table's lease, runs `--kill` with `{node}` replaced by that node's id (and the
environment's TABLE_ID and NODE set: a command may kill another node, e.g. its socket's), and plays
on: the socket reconnects through the proxy as the page does, and the bots go on once another
node has taken the table over. It prints the failover time (the kill to the next bot move the
player sees), checks that the player saw every ply once and in order, plays the game to its
end, and replays the stored record (scores and winners as the server said). Exit 0 when all
held. Runs on the Python that runs the nodes (`.venv/bin/python deploy/failover_check.py ...`):
it needs only eterna and websockets.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import eterna


def request(url: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    """GET (or POST `body` as JSON) through the proxy: the status and the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"} if body is not None else {}
    req = urllib.request.Request(url, data=data, headers=headers)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no HTTP proxy
    try:
        with opener.open(req, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")


def psql(command: str, sql: str) -> str:
    done = subprocess.run(
        f"{command} -tAc {shlex_quote(sql)}",
        shell=True,
        capture_output=True,
        text=True,
        timeout=30,
    )
    if done.returncode != 0:
        raise SystemExit(f"--psql failed: {done.stderr.strip()}")
    return done.stdout.strip()


def shlex_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def driver_of(command: str, table_id: str) -> str:
    sql = (
        f"SELECT node FROM leases WHERE table_id = '{table_id}' "
        "AND expires_at > extract(epoch from clock_timestamp())"
    )
    for _ in range(50):
        node = psql(command, sql)
        if node:
            return node
        time.sleep(0.1)
    raise SystemExit(f"no node holds the lease of table {table_id}")


class Player:
    """Seat 0 through the proxy: plays the first legal move when it is its turn, reconnects
    after a drop (0.25 s, doubling to 4 s, as the page does), and notes every ply it is told."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url
        self.plies: list[int] = []  # the ply of each update frame, in order of arrival
        self.bot_moves: list[tuple[int, float]] = []  # (ply after it, when it arrived)
        self.reconnects = 0
        self.over = False
        self.failure = ""  # what went wrong, if anything did

    def play(self, until: float) -> None:
        delay = 0.25
        while time.monotonic() < until and not self.over and not self.failure:
            try:
                with connect(self.ws_url, open_timeout=10, proxy=None) as ws:
                    delay = 0.25
                    self._session(ws, until)
            except (OSError, ConnectionClosed, TimeoutError):
                self.reconnects += 1
                time.sleep(delay)
                delay = min(delay * 2, 4.0)

    def _session(self, ws: Any, until: float) -> None:
        while time.monotonic() < until:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if frame["type"] == "error":
                if frame.get("code") in ("stale", "waiting", "unavailable", "server_busy"):
                    continue  # told again by the next update
                self.failure = f"error frame: {frame}"
                return
            if frame["type"] != "update":
                continue
            ply = frame["ply"]
            if self.plies and ply < self.plies[-1]:
                self.failure = f"ply went back: {self.plies[-1]} then {ply}"
                return
            now = time.monotonic()
            for event in frame.get("events") or []:
                if event.get("action") and event.get("seat") != 0:
                    self.bot_moves.append((ply, now))
            self.plies.append(ply)
            if frame["table"].get("status") == "over":
                self.over = True
                return
            legal = frame["view"].get("legal_actions") or []
            if legal:
                ws.send(json.dumps({"type": "act", "action": legal[0], "ply": ply}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="the site, through its proxy (http://127.0.0.1:8100)")
    parser.add_argument("--psql", required=True, help="a command running psql on the database")
    parser.add_argument("--kill", required=True, help="a shell command; {node}: the node's id")
    parser.add_argument("--moves-before", type=int, default=6, help="plies before the kill")
    parser.add_argument("--bot-delay", type=float, default=0.5)
    parser.add_argument("--seconds", type=float, default=300, help="give up after this long")
    args = parser.parse_args()
    base = args.url.rstrip("/")
    status, health = request(f"{base}/api/health")
    print(f"health through the proxy: {status} {health}")
    status, table = request(
        f"{base}/api/tables",
        {
            "game": "eternity",
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
            "bot_delay": args.bot_delay,
        },
    )
    if status != 201:
        raise SystemExit(f"POST /api/tables: {status} {table}")
    table_id, token = table["table_id"], table["seats"][0]["token"]
    print(f"table {table_id} created")
    ws_url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}?token={token}"
    player = Player(ws_url)
    until = time.monotonic() + args.seconds
    # the player plays on in its thread, its socket open across the kill
    playing = threading.Thread(target=player.play, args=(until,), daemon=True)
    playing.start()
    while not player.plies or player.plies[-1] < args.moves_before:
        if player.over or not playing.is_alive() or time.monotonic() > until:
            raise SystemExit(player.failure or "the game ended (or never began) before the kill")
        time.sleep(0.02)
    node = driver_of(args.psql, table_id)
    kill = args.kill.replace("{node}", node)
    print(f"ply {player.plies[-1]}: table driven by {node}; killing it: {kill}")
    env = {**os.environ, "TABLE_ID": table_id, "NODE": node}
    began = time.monotonic()
    subprocess.run(kill, shell=True, check=True, timeout=60, env=env)
    killed = time.monotonic()  # once the command returned: the node is dead by then
    # the moves stored by then (the dead node's last ones may still be on their way to the
    # player): the failover ends with the first bot move after them
    ply_at_kill = int(
        psql(args.psql, f"SELECT count(*) FROM actions WHERE table_id = '{table_id}'")
    )
    playing.join(max(0.0, until - time.monotonic()) + 5)
    after = [when for ply, when in player.bot_moves if ply > ply_at_kill]
    new_driver = driver_of(args.psql, table_id) if not player.over else "(game over)"
    print(
        f"next bot move seen {after[0] - killed:.2f} s after the kill command returned"
        f" ({after[0] - began:.2f} s after it began)"
        if after
        else "no bot move after the kill"
    )
    print(f"driver now: {new_driver}; socket reconnected {player.reconnects} time(s)")
    if player.failure:
        raise SystemExit(player.failure)
    if not player.over:
        raise SystemExit(f"the game did not end within {args.seconds} s")
    status, record = request(f"{base}/api/tables/{table_id}/record")
    if status != 200:
        raise SystemExit(f"GET the record: {status} {record}")
    replayed = eterna.replay(record)
    plies = len(record["actions"])
    seen = sorted(set(player.plies))
    ok = (
        replayed.scores == record["meta"]["scores"]
        and replayed.winners == record["meta"]["winners"]
        and seen[-1] == plies
        and bool(after)
    )
    print(
        f"game over at ply {plies}, scores {record['meta']['scores']}; the record replays to "
        f"{replayed.scores}; plies seen in order, last {seen[-1]}: {'OK' if ok else 'FAILED'}"
    )
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
