"""Figures of the web table under abuse (issue 13), each against a real `eterna serve` process.

- `bots`: the worst delay between two moves of a table of heuristic bots while `--tables`
  tables of bots run the most expensive spec the server accepts (`ismcts:iterations=5000`);
- `flood`: a creator's throughput and latency while another address floods table creation
  (both behind a trusted proxy, `--forwarded-allow-ips 127.0.0.1`, so they are two addresses);
- `health`: `/api/health` latency while 6 clients fetch the summaries and records of finished
  tables of 20,000 actions each;
- `restarts`: moves lost over `--restarts` `kill -9` restarts while tables of random bots play
  (a spectator on each table notes every ply announced; after each restart every table must
  hold at least that many actions).

Run: `.venv/bin/python bench/abuse_figures.py [bots|flood|health ...] [--seconds 30]`.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from eterna.server.launch import serve_command, wait_until_serving

EXPENSIVE = "ismcts:iterations=5000"


def start(data_dir: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    command = serve_command(port, data_dir=data_dir, bot_delay=0, post_rate=0, limits=False)
    process = subprocess.Popen([*command, *extra], stdout=subprocess.DEVNULL)
    wait_until_serving(f"http://127.0.0.1:{port}", process)
    return process


def bots_table(agent: str) -> dict[str, Any]:
    seats = [{"kind": "bot", "agent": agent} for _ in range(3)]
    return {"game": "eternity", "players": 3, "seats": seats}


def bots(base: str, tables: int, seconds: float) -> dict[str, Any]:
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
        for _ in range(tables):
            assert http.post("/api/tables", json=bots_table(EXPENSIVE)).status_code == 201
        time.sleep(2.0)  # every search lane busy
        cheap = http.post("/api/tables", json=bots_table("heuristic")).json()["table_id"]
        last_ply, last_change, worst, moves = 0, time.monotonic(), 0.0, 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            summary = http.get(f"/api/tables/{cheap}").json()
            now = time.monotonic()
            if summary["plies"] != last_ply:
                worst = max(worst, now - last_change)
                moves += summary["plies"] - last_ply
                last_ply, last_change = summary["plies"], now
            if summary["status"] == "over":
                cheap = http.post("/api/tables", json=bots_table("heuristic")).json()["table_id"]
                last_ply, last_change = 0, time.monotonic()
            time.sleep(0.02)
    return {"search_tables": tables, "heuristic_moves": moves, "worst_gap_s": round(worst, 3)}


def flood(base: str, seconds: float) -> dict[str, Any]:
    body = {"game": "eternity", "players": 3, "seats": [{"kind": "human"}] * 3}
    flooded = {"201": 0, "429": 0, "other": 0}
    stop = threading.Event()

    def flooder() -> None:
        with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
            while not stop.is_set():
                code = http.post(
                    "/api/tables", json=body, headers={"X-Forwarded-For": "10.9.9.9"}
                ).status_code
                key = str(code) if str(code) in flooded else "other"
                flooded[key] += 1

    threads = [threading.Thread(target=flooder) for _ in range(4)]
    for thread in threads:
        thread.start()
    made, latencies = 0, []
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.monotonic()
            response = http.post("/api/tables", json=body, headers={"X-Forwarded-For": "10.1.1.1"})
            latencies.append(time.monotonic() - started)
            made += response.status_code == 201
            time.sleep(max(0.0, 2.0 - (time.monotonic() - started)))  # one every 2 s
    stop.set()
    for thread in threads:
        thread.join()
    return {
        "creator_tries": len(latencies),
        "creator_made": made,
        "creator_p50_ms": round(statistics.median(latencies) * 1000, 1),
        "creator_max_ms": round(max(latencies) * 1000, 1),
        "flood": flooded,
    }


def long_tables(data_dir: str, count: int, plies: int) -> list[str]:
    """Finished tables of `plies` stored actions (their notations are never replayed here)."""
    from eterna.server.storage import PendingAction, SeatData, Storage, TableData, sqlite_url

    storage = Storage(sqlite_url(Path(data_dir)))
    ids = []
    for n in range(count):
        table_id = f"long{n}"
        storage.create_table(
            TableData(
                id=table_id,
                game="eternity",
                players=3,
                seed=n,
                options={},
                setup=None,
                public=True,
                turn_timer=None,
                bot_delay=None,
                status="playing",
                created_at=time.time(),
                seats=[SeatData(s, "bot", "random", "random") for s in range(3)],
            )
        )
        batch = [PendingAction(table_id, p, p % 3, "play x-1") for p in range(plies - 1)]
        batch.append(PendingAction(table_id, plies - 1, 0, "play x-1", ([1, 2, 3], [2])))
        storage.add_actions(batch)
        ids.append(table_id)
    storage.close()
    return ids


def health(base: str, ids: list[str], seconds: float) -> dict[str, Any]:
    stop = threading.Event()
    fetched = [0]

    def fetcher(n: int) -> None:
        with httpx.Client(base_url=base, timeout=60, trust_env=False) as http:
            while not stop.is_set():
                table_id = ids[n % len(ids)]
                http.get(f"/api/tables/{table_id}").raise_for_status()
                http.get(f"/api/tables/{table_id}/record").raise_for_status()
                fetched[0] += 2

    threads = [threading.Thread(target=fetcher, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    latencies = []
    with httpx.Client(base_url=base, timeout=60, trust_env=False) as http:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.monotonic()
            http.get("/api/health").raise_for_status()
            latencies.append(time.monotonic() - started)
            time.sleep(0.05)
    stop.set()
    for thread in threads:
        thread.join()
    latencies.sort()
    return {
        "fetches": fetched[0],
        "health_p50_ms": round(latencies[len(latencies) // 2] * 1000, 1),
        "health_p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 1),
        "health_max_ms": round(latencies[-1] * 1000, 1),
    }


def restarts(data_dir: str, port: int, count: int, tables: int) -> dict[str, Any]:
    import asyncio
    import json
    import signal

    import websockets

    base = f"http://127.0.0.1:{port}"
    announced: dict[str, int] = {}
    ids: list[str] = []
    lost = 0

    async def watch(table_id: str, stop: asyncio.Event) -> None:
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
        try:
            async with websockets.connect(url, max_size=2**22) as ws:
                while not stop.is_set():
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 5))
                    if frame.get("type") == "update":
                        announced[table_id] = max(announced.get(table_id, 0), frame["ply"])
        except Exception:
            return

    async def run_for(seconds: float) -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(watch(t, stop)) for t in ids]
        await asyncio.sleep(seconds)
        stop.set()
        for task in tasks:
            task.cancel()

    for round_ in range(count + 1):
        process = start(data_dir, port)
        with httpx.Client(base_url=base, timeout=30, trust_env=False) as http:
            for table_id in ids:  # everything announced before the kill must be stored
                plies = http.get(f"/api/tables/{table_id}").json()["plies"]
                lost += max(0, announced.get(table_id, 0) - plies)
            if round_ == count:
                process.terminate()
                process.wait(timeout=20)
                break
            if not ids:
                body = {
                    "game": "eternitium",
                    "players": 3,
                    "seats": [{"kind": "bot", "agent": "random"}] * 3,
                    "bot_delay": 0.02,
                }
                ids = [
                    http.post("/api/tables", json=body).json()["table_id"] for _ in range(tables)
                ]
        asyncio.run(run_for(3.0))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=20)
    return {"restarts": count, "tables": tables, "announced": sum(announced.values()), "lost": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("figures", nargs="*", default=["bots", "flood", "health"])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--restarts", type=int, default=10)
    args = parser.parse_args()
    for figure in args.figures:
        with tempfile.TemporaryDirectory() as data_dir:
            if figure == "restarts":
                print(figure, restarts(data_dir, args.port, args.restarts, 20), flush=True)
                continue
            ids = long_tables(data_dir, 3, 20_000) if figure == "health" else []
            extra = ("--forwarded-allow-ips", "127.0.0.1") if figure == "flood" else ()
            if figure == "flood":  # the real limits, not the benchmark's
                extra = (*extra, "--tables-per-hour", "30", "--post-rate", "2")
            process = start(data_dir, args.port, *extra)
            base = f"http://127.0.0.1:{args.port}"
            try:
                if figure == "bots":
                    result = bots(base, args.tables, args.seconds)
                elif figure == "flood":
                    result = flood(base, args.seconds)
                else:
                    result = health(base, ids, args.seconds)
            finally:
                process.terminate()
                process.wait(timeout=20)
            print(figure, result, flush=True)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
