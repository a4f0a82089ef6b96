"""Figures of the web table under hostile positions (issue 36), against a real `eterna serve`.

Starts a server on loopback (its code from `--src`, default this checkout's `src`, so the same
client can measure an older checkout), runs a table of heuristic bots beside it (a spectator
WebSocket notes the time of every move; a finished table is replaced), then replays every
payload of tests/server/hostile_corpus.py one at a time, and reports per payload:

- `gap`: the worst time between two moves of the bots' table while the payload ran (its
  bot delay, `--bot-delay`, is the floor);
- `peak`: the server process's highest resident memory while the payload ran (sampled every
  50 ms), minus at its start (MB); `after`: the same once answered; `workers`: its worker
  processes' highest resident memory meanwhile (MB);
- `status`, `seconds`, `bytes` of the answer, and the count of 5xx answers (a reset connection
  or a timeout counts as one).

Run: `.venv/bin/python bench/hostile_positions.py [--src DIR] [--only NAME ...] [--json OUT]`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "server"))

from hostile_corpus import Payload, corpus, request_payloads  # noqa: E402

REQUEST_TIMEOUT = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start(src: Path, data_dir: str, port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "eterna", "serve", "--port", str(port)]
    command += ["--data-dir", data_dir, "--bot-delay", f"{bot_delay:g}", "--log-level", "error"]
    command += ["--post-rate", "0", "--tables-per-hour", "0", "--connect-rate", "0"]
    env = dict(os.environ, PYTHONPATH=str(src))
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children_rss_mb(pid: int) -> float:
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    return sum(rss_mb(int(child)) for child in children)


class BotTable:
    """A table of heuristic bots, watched by a spectator: the times of its moves."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.moves: list[float] = []
        self.last_ply = -1
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _new_table(self, http: httpx.Client) -> str:
        seats = [{"kind": "bot", "agent": "heuristic"} for _ in range(3)]
        body = {"game": "eternity", "players": 3, "seats": seats}
        return str(http.post("/api/tables", json=body).json()["table_id"])

    def _watch(self) -> None:
        url = self.base.replace("http://", "ws://")
        with httpx.Client(base_url=self.base, timeout=REQUEST_TIMEOUT, trust_env=False) as http:
            table_id: str | None = None
            while not self.stopping.is_set():
                try:  # a stalled server may drop the connection: watch the same table again
                    if table_id is None:
                        table_id, self.last_ply = self._new_table(http), -1
                    if self._follow(f"{url}/ws/tables/{table_id}"):
                        table_id = None
                        self.moves.append(float("nan"))  # a new table: no gap across
                except Exception as exc:
                    print(f"(the watcher reconnects: {exc!r:.80})", flush=True)
                    time.sleep(0.2)

    def _follow(self, url: str) -> bool:
        """Note the time of every new ply until the table is over (True) or stopping."""
        with connect(url, open_timeout=REQUEST_TIMEOUT, ping_interval=None) as ws:
            while not self.stopping.is_set():
                try:
                    frame = json.loads(ws.recv(timeout=1.0))
                except TimeoutError:
                    continue
                if frame.get("type") != "update":
                    continue
                if frame["ply"] != self.last_ply:  # a reconnect's first update is no move
                    self.last_ply = frame["ply"]
                    self.moves.append(time.monotonic())
                if frame["table"]["status"] == "over":
                    return True
        return False

    def worst_gap(self, since: float, until: float) -> float:
        """The longest time without a move between `since` and `until` (open gaps count)."""
        times = [t for t in self.moves if t == t]
        inside = [t for t in times if since <= t <= until]
        before = [t for t in times if t < since]
        points = ([before[-1]] if before else [since]) + inside + [until]
        return max(b - a for a, b in itertools.pairwise(points))

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)


class Peak:
    """The highest resident memory of the server and of its workers while it runs."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.server = self.workers = 0.0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self.stopping.is_set():
            self.server = max(self.server, rss_mb(self.pid))
            self.workers = max(self.workers, children_rss_mb(self.pid))
            time.sleep(0.05)

    def __enter__(self) -> Peak:
        self.thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.stopping.set()
        self.thread.join(timeout=5)


def replay(http: httpx.Client, payload: Payload) -> tuple[int, float, int]:
    started = time.monotonic()
    try:
        response = http.request(
            payload.method,
            payload.path,
            json=payload.body,
            headers=payload.headers,
            follow_redirects=False,
        )
        status, size = response.status_code, len(response.content)
    except httpx.HTTPError:
        status, size = 599, 0  # a reset connection or no answer in time
    return status, time.monotonic() - started, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=HERE.parent / "src")
    parser.add_argument("--bot-delay", type=float, default=0.2)
    parser.add_argument("--only", nargs="*", help="payloads whose name starts so")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    payloads = [*corpus(), *request_payloads("%74oken=not-a-real-token")]
    if args.only:
        payloads = [p for p in payloads if p.name.startswith(tuple(args.only))]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as data_dir:
        server = start(args.src.resolve(), data_dir, port, args.bot_delay)
        table = BotTable(base)
        try:
            deadline = time.monotonic() + 120
            while len(table.moves) < 10 and time.monotonic() < deadline:
                time.sleep(0.2)  # the bots' worker started, a few moves made
            start_rss = rss_mb(server.pid)
            idle_from = time.monotonic()
            time.sleep(3.0)
            idle = table.worst_gap(idle_from, time.monotonic())
            print(
                f"server {args.src}: start RSS {start_rss:.0f} MB, idle gap {idle:.3f} s",
                flush=True,
            )
            print(
                f"{'payload':40} {'status':>6} {'sec':>6} {'bytes':>8} {'gap':>6} "
                f"{'peak':>6} {'after':>6} {'workers':>7}"
            )
            with httpx.Client(base_url=base, timeout=REQUEST_TIMEOUT, trust_env=False) as http:
                for payload in payloads:
                    began = time.monotonic()
                    with Peak(server.pid) as peak:
                        status, seconds, size = replay(http, payload)
                        time.sleep(0.3)  # a move due just after the answer counts
                    gap = table.worst_gap(began, time.monotonic())
                    row = {
                        "payload": payload.name,
                        "status": status,
                        "seconds": round(seconds, 3),
                        "bytes": size,
                        "gap": round(gap, 3),
                        "peak_mb": round(peak.server - start_rss, 1),
                        "after_mb": round(rss_mb(server.pid) - start_rss, 1),
                        "workers_mb": round(peak.workers, 1),
                    }
                    rows.append(row)
                    print(
                        f"{payload.name:40} {status:>6} {seconds:>6.2f} {size:>8} {gap:>6.2f} "
                        f"{row['peak_mb']:>+6.0f} {row['after_mb']:>+6.0f} {peak.workers:>7.0f}",
                        flush=True,
                    )
        finally:
            table.stop()
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    failures = sum(1 for r in rows if r["status"] >= 500)
    worst = max(r["gap"] for r in rows)
    peak = max(r["peak_mb"] for r in rows)
    print(f"5xx answers: {failures} of {len(rows)}; worst gap {worst:.3f} s; peak RSS +{peak} MB")
    if args.json is not None:
        summary = {"src": str(args.src), "start_rss_mb": start_rss, "idle_gap": idle}
        args.json.write_text(json.dumps(summary | {"rows": rows}, indent=1))


if __name__ == "__main__":
    main()
