"""Load test of the web table: N concurrent games over WebSockets on loopback.

Starts `eterna serve` in a subprocess (SQLite in a temporary folder, bots without delay; or
`--url` to load a server already running), creates `--games` tables whose seats are all human,
and drives every seat with a client bot over its own WebSocket: when a seat's update asks it to
decide, it waits a think time (uniform in [0.5, 1.5] x `--think` seconds, modelling people; 0
for a stress test) and plays a random legal action from its view. A finished game is replaced by
a new one, so N games are always in progress.

Reported: moves per second (all tables), and the latency of a move: from sending `act` to
receiving the `update` of that ply on the same connection (storage commit, view, encoding and
both network hops included), p50, p90, p99 and max, over the measuring window (after warm-up).

Run: `.venv/bin/python bench/server_load.py [--games 200] [--think 0.5] [--seconds 60]
[--game eternity] [--players 4] [--json out.json]`.

The client side is as cheap as it can be (a frame is only parsed when it may ask this seat to
decide or acknowledge its move), but it shares the machine with the server: on 2 cores the
figures measure both.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

from eterna.server.launch import serve_command, wait_until_serving


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games_done: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, data_dir: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        serve_command(port, data_dir=data_dir, bot_delay=0, post_rate=0, limits=False),
        stdout=subprocess.DEVNULL,
    )
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", proc)
    except RuntimeError as exc:
        proc.kill()
        raise SystemExit(str(exc)) from exc
    return proc


_sources = itertools.count()


def source_address(url: str) -> tuple[str, int] | None:
    """A loopback address of its own for each client connection to a server on 127.0.0.1
    (127.0.0.2 to 127.0.0.251 in turn): the server caps open WebSockets per client address
    (64), which 800 connections from one address would pass; elsewhere, the default."""
    if urlsplit(url).hostname not in ("127.0.0.1", "localhost"):
        return None
    return (f"127.0.0.{2 + next(_sources) % 250}", 0)


def ply_of(text: str) -> int:
    """The `ply` of an update frame without parsing it (the server writes it first)."""
    start = text.index('"ply":') + 6
    end = text.index(",", start)
    return int(text[start:end])


async def seat_client(
    url: str, stats: Stats, think: float, rng: random.Random, over: asyncio.Event
) -> None:
    """One seat: act when asked; measure act -> update of that ply."""
    try:
        await play_seat(url, stats, think, rng, over)
    except (OSError, websockets.ConnectionClosed) as exc:
        name = type(exc).__name__
        stats.errors[name] = stats.errors.get(name, 0) + 1
        over.set()


async def play_seat(
    url: str, stats: Stats, think: float, rng: random.Random, over: asyncio.Event
) -> None:
    sent_at: dict[int, float] = {}
    acted: set[int] = set()
    async with websockets.connect(
        url,
        max_size=2**22,
        compression=None,
        proxy=None,
        open_timeout=60,
        ping_interval=None,
        local_addr=source_address(url),
    ) as ws:
        async for text in ws:
            assert isinstance(text, str)
            now = time.perf_counter()
            if not text.startswith('{"type":"update"'):
                if text.startswith('{"type":"error"'):
                    code = json.loads(text)["code"]
                    stats.errors[code] = stats.errors.get(code, 0) + 1
                continue
            ply = ply_of(text)
            started = sent_at.pop(ply - 1, None)
            if started is not None and stats.measuring:
                stats.latencies.append(now - started)
                stats.moves += 1
            if '"status":"over"' in text:
                over.set()
                return
            if '"legal_actions"' not in text or ply in acted:
                continue
            frame = json.loads(text)
            legal = frame["view"].get("legal_actions")
            if not legal:
                continue
            acted.add(ply)
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent_at[ply] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": rng.choice(legal), "ply": ply}))


async def game_loop(
    base: str, args: argparse.Namespace, stats: Stats, rng: random.Random, stop: asyncio.Event
) -> None:
    """Keep one game going: create a table, connect every seat, start again when it ends."""
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=60, trust_env=False) as http:
        while not stop.is_set():
            response = await http.post(
                "/api/tables",
                json={
                    "game": args.game,
                    "players": args.players,
                    "seats": [{"kind": "human"} for _ in range(args.players)],
                    "public": False,
                },
            )
            response.raise_for_status()
            created = response.json()
            over = asyncio.Event()
            clients = [
                asyncio.create_task(
                    seat_client(
                        f"{ws_base}/ws/tables/{created['table_id']}?token={seat['token']}",
                        stats,
                        args.think,
                        random.Random(rng.getrandbits(32)),
                        over,
                    )
                )
                for seat in created["seats"]
            ]
            stopper = asyncio.create_task(stop.wait())
            await asyncio.wait([*clients, stopper], return_when=asyncio.ALL_COMPLETED)
            for task in clients:
                if not task.done():
                    task.cancel()
            if not stop.is_set():
                stats.games_done += 1


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) of a process so far: this one when `pid` is None."""
    if pid is None:
        usage = os.times()
        return usage.user + usage.system
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def runqueue_wait(pid: int | None) -> float:
    """Seconds the process's threads have waited for a CPU while runnable (Linux schedstat,
    summed over threads): how much the rest of the machine held it back."""
    if pid is None:
        return float("nan")
    total = 0.0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat", encoding="ascii") as stat:
                total += int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")
    return total


async def run(base: str, args: argparse.Namespace, server_pid: int | None) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    loops = []
    for _ in range(args.games):  # ramp up: connections come in over about two seconds
        loops.append(asyncio.create_task(game_loop(base, args, stats, rng, stop)))
        await asyncio.sleep(2.0 / args.games)
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    started = time.perf_counter()
    cpu_client, cpu_server = cpu_seconds(None), cpu_seconds(server_pid)
    waited = runqueue_wait(server_pid)
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    cpu_client = cpu_seconds(None) - cpu_client
    cpu_server = cpu_seconds(server_pid) - cpu_server if server_pid else float("nan")
    waited = runqueue_wait(server_pid) - waited
    stop.set()
    for task in loops:
        task.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    lat = sorted(stats.latencies)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")

    return {
        "games": args.games,
        "game": args.game,
        "players": args.players,
        "think": args.think,
        "seconds": round(elapsed, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "p50_ms": round(pct(0.50), 2),
        "p90_ms": round(pct(0.90), 2),
        "p99_ms": round(pct(0.99), 2),
        "max_ms": round(1000 * lat[-1], 2) if lat else None,
        "mean_ms": round(1000 * statistics.fmean(lat), 2) if lat else None,
        "games_finished": stats.games_done,
        "server_cpu_per_s": round(cpu_server / elapsed, 2),  # cores busy, on average
        "client_cpu_per_s": round(cpu_client / elapsed, 2),
        "server_cpu_ms_per_move": round(1000 * cpu_server / max(1, stats.moves), 2),
        "server_runqueue_wait_per_s": round(waited / elapsed, 2),  # runnable, but no free CPU
        "errors": stats.errors,
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--game", default="eternity")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time, s (0.5)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="load this running server instead of starting one")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    proc = None
    tmp = tempfile.TemporaryDirectory(prefix="eterna-load-")
    base = args.url
    if base is None:
        port = free_port()
        proc = start_server(port, tmp.name)
        base = f"http://127.0.0.1:{port}"
    try:
        figures = asyncio.run(run(base.rstrip("/"), args, proc.pid if proc else None))
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        tmp.cleanup()
    print(json.dumps(figures, indent=1))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)


if __name__ == "__main__":
    main()
