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
[--game eternity] [--players 4] [--nodes N [--route table|spread]] [--json out.json]`.

`--nodes N` loads a cluster instead (docs/web.md, "Running on several machines"): the bench
starts a throwaway PostgreSQL and Redis of its own (Debian's packages; or uses `--database-url`
and `--redis-url`), then N nodes of `eterna serve --redis-url` on them, and spreads the clients.
`--route table` (the default, as deploy/nginx.conf routes): every seat of a table connects to
the node its id hashes to, so a move is told to its seats by the node that applied it;
`--route spread`: the seats of one table go to different nodes (round robin over all seats), so
every move crosses nodes. Tables are created on the nodes in turn either way. `--games
200,500,1000` runs each size in turn on the same servers. Reported besides:
the server CPU per move summed over the nodes, the CPU of PostgreSQL and Redis per move, Redis
commands and PostgreSQL commits (and rows written) per second, and the move messages the nodes
heard per move (Redis's deliveries: `GET /api/cluster`). A move a node refuses as
`waiting` (its copy has not yet heard of a seat claimed on another node) is played again after
`RETRY_WAITING` seconds, and counted under errors.

Every run also reports the kernel's part of the server's CPU per move (socket sends and receives,
mostly) and how long the server waited for a CPU while runnable (other jobs on the machine).

The client side is as cheap as it can be (a frame is only parsed when it may ask this seat to
decide or acknowledge its move), but it shares the machine with the server: on 2 cores the
figures measure both.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import itertools
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

from eterna.server.launch import serve_command, wait_until_serving

RETRY_WAITING = 0.2  # seconds before a move refused as `waiting` is sent again


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
    last: tuple[int, str] | None = None  # the last act sent: its ply and frame
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
                    if code == "waiting" and last is not None:
                        # a cluster node whose copy has not yet heard of a seat claimed on
                        # another node refuses the first move: play it again, as a person would
                        await asyncio.sleep(RETRY_WAITING)
                        sent_at[last[0]] = time.perf_counter()
                        await ws.send(last[1])
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
            last = (ply, json.dumps({"type": "act", "action": rng.choice(legal), "ply": ply}))
            sent_at[ply] = time.perf_counter()
            await ws.send(last[1])


async def game_loop(
    bases: list[str],
    number: int,
    args: argparse.Namespace,
    stats: Stats,
    rng: random.Random,
    stop: asyncio.Event,
) -> None:
    """Keep one game going: create a table, connect every seat, start again when it ends. With
    several nodes, the seats connect to the node `seat_base` names (`--route`)."""
    base = bases[number % len(bases)]
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
                        seat_base(bases, args, number, created["table_id"], seat["seat"])
                        + f"/ws/tables/{created['table_id']}?token={seat['token']}",
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


def seat_base(
    bases: list[str], args: argparse.Namespace, number: int, table_id: str, seat: int
) -> str:
    """The WebSocket base URL of a seat of game `number`: by `--route table`, the node the
    table's id hashes to (every seat of a table on one node, as the proxy routes them:
    deploy/nginx.conf); by `--route spread`, node number*players+seat (mod nodes)."""
    if args.route == "table":
        node = zlib.crc32(table_id.encode()) % len(bases)
    else:
        node = (number * args.players + seat) % len(bases)
    return bases[node].replace("http://", "ws://")


def cpu_split(pid: int | None) -> tuple[float, float]:
    """CPU time of a process so far, (user, system): this one when `pid` is None."""
    if pid is None:
        usage = os.times()
        return usage.user, usage.system
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, IndexError, ValueError):
        return float("nan"), float("nan")


def cpu_seconds(pid: int | None) -> float:
    """CPU time (user + system) of a process so far: this one when `pid` is None."""
    return sum(cpu_split(pid))


def cpu_of(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def system_cpu_of(pids: list[int]) -> float:
    """The part of `cpu_of` spent in the kernel (socket sends and receives, mostly)."""
    return sum(cpu_split(pid)[1] for pid in pids)


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (PostgreSQL's backends under its postmaster)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


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


@dataclass
class Servers:
    """What the bench loads: the nodes' base URLs and processes, and the services under them."""

    bases: list[str]
    node_pids: list[int]
    postgres_pid: int | None = None
    redis_pid: int | None = None
    database_url: str | None = None
    redis_url: str | None = None


def services_cpu(servers: Servers) -> dict[str, dict[int, float]]:
    """CPU seconds so far of PostgreSQL's processes and of Redis, by process."""
    out: dict[str, dict[int, float]] = {"postgres": {}, "redis": {}}
    if servers.postgres_pid:
        for pid in [servers.postgres_pid, *children(servers.postgres_pid)]:
            out["postgres"][pid] = cpu_seconds(pid)
    if servers.redis_pid:
        out["redis"][servers.redis_pid] = cpu_seconds(servers.redis_pid)
    return out


def redis_commands(url: str | None) -> int | None:
    """Redis's `total_commands_processed` (INFO stats), over a plain socket."""
    if not url:
        return None
    from urllib.parse import urlsplit

    where = urlsplit(url)
    try:
        with socket.create_connection((where.hostname, where.port or 6379), timeout=5) as sock:
            sock.sendall(b"INFO stats\r\n")
            data = b""
            while b"total_commands_processed:" not in data or not data.endswith(b"\r\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
    except OSError:
        return None
    line = data.split(b"total_commands_processed:", 1)[1].split(b"\r\n", 1)[0]
    return int(line)


async def acts_heard(bases: list[str]) -> int | None:
    """Move messages heard so far by all the nodes (`GET /api/cluster`; None before it was
    there: every node then heard every move)."""
    total = 0
    async with httpx.AsyncClient(trust_env=False, timeout=10) as http:
        for base in bases:
            response = await http.get(f"{base}/api/cluster")
            if response.status_code != 200:
                return None
            total += int(response.json()["heard"].get("act", 0))
    return total


def postgres_writes(url: str | None) -> tuple[int, int] | None:
    """PostgreSQL's committed transactions and rows written (inserted + updated) so far."""
    if not url:
        return None
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        conn.execute("SELECT pg_stat_force_next_flush()")
        row = conn.execute(
            "SELECT xact_commit, tup_inserted + tup_updated FROM pg_stat_database "
            "WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


async def run(servers: Servers, args: argparse.Namespace, games: int) -> dict[str, Any]:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    loops = []
    for number in range(games):  # ramp up: connections come in over about two seconds
        loops.append(asyncio.create_task(game_loop(servers.bases, number, args, stats, rng, stop)))
        await asyncio.sleep(2.0 / games)
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    started = time.perf_counter()
    pids = servers.node_pids
    cpu_client, cpu_server = cpu_seconds(None), cpu_of(pids)
    system_server = system_cpu_of(pids)
    services = services_cpu(servers)
    commands = redis_commands(servers.redis_url)
    writes = await asyncio.to_thread(postgres_writes, servers.database_url)
    heard = await acts_heard(servers.bases) if servers.redis_url else None
    waited = sum(runqueue_wait(pid) for pid in pids)
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - started
    cpu_client = cpu_seconds(None) - cpu_client
    cpu_server = cpu_of(pids) - cpu_server if pids else float("nan")
    system_server = system_cpu_of(pids) - system_server if pids else float("nan")
    waited = sum(runqueue_wait(pid) for pid in pids) - waited
    after = services_cpu(servers)
    commands_after = redis_commands(servers.redis_url)
    writes_after = await asyncio.to_thread(postgres_writes, servers.database_url)
    heard_after = await acts_heard(servers.bases) if heard is not None else None
    stop.set()
    for task in loops:
        task.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    lat = sorted(stats.latencies)
    moves = max(1, stats.moves)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")

    def service_ms_per_move(name: str) -> float | None:
        if not after[name]:
            return None
        spent = sum(cpu - services[name].get(pid, 0.0) for pid, cpu in after[name].items())
        return round(1000 * spent / moves, 3)

    figures: dict[str, Any] = {
        "games": games,
        "nodes": len(servers.bases),
        "route": args.route if len(servers.bases) > 1 else None,
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
        "server_cpu_ms_per_move": round(1000 * cpu_server / moves, 2),  # summed over the nodes
        "server_system_cpu_ms_per_move": round(1000 * system_server / moves, 2),  # the kernel's
        "server_runqueue_wait_per_s": round(waited / elapsed, 2),  # runnable, but no free CPU
        "errors": stats.errors,
        "load_average": os.getloadavg(),
        "python": platform.python_version(),
    }
    if servers.postgres_pid or servers.redis_pid:
        figures["postgres_cpu_ms_per_move"] = service_ms_per_move("postgres")
        figures["redis_cpu_ms_per_move"] = service_ms_per_move("redis")
    if commands is not None and commands_after is not None:
        figures["redis_commands_per_s"] = round((commands_after - commands) / elapsed, 1)
        figures["redis_commands_per_move"] = round((commands_after - commands) / moves, 2)
    if heard is not None and heard_after is not None:  # Redis deliveries of a move, all nodes
        figures["acts_heard_per_move"] = round((heard_after - heard) / moves, 2)
    if writes is not None and writes_after is not None:
        figures["postgres_commits_per_s"] = round((writes_after[0] - writes[0]) / elapsed, 1)
        figures["postgres_rows_written_per_s"] = round((writes_after[1] - writes[1]) / elapsed, 1)
    return figures


class Cluster:
    """A throwaway PostgreSQL and Redis (Debian's packages) and N nodes on them, in `folder`."""

    def __init__(self, folder: str, args: argparse.Namespace) -> None:
        self.folder = folder
        self.args = args
        self.procs: list[subprocess.Popen[bytes]] = []
        self.pg_ctl: list[str] = []
        self.redis: subprocess.Popen[bytes] | None = None
        self.postgres_pid: int | None = None

    def start(self) -> Servers:
        help_text = subprocess.run(
            [sys.executable, "-m", "eterna", "serve", "--help"], capture_output=True, text=True
        ).stdout
        clustered = "--redis-url" in help_text
        if not clustered and self.args.nodes > 1:
            raise SystemExit("this eterna has no --redis-url: one node only (--nodes 1)")
        database_url = self.args.database_url or self.start_postgres()
        redis_url = (self.args.redis_url or self.start_redis()) if clustered else None
        bases, pids = [], []
        for number in range(self.args.nodes):
            port = free_port()
            command = serve_command(
                port, database_url=database_url, bot_delay=0, post_rate=0, limits=False
            )
            if redis_url:
                command += ["--redis-url", redis_url, "--node-id", f"bench{number + 1}"]
            log = open(os.path.join(self.folder, f"node{number + 1}.log"), "wb")  # noqa: SIM115
            proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
            self.procs.append(proc)
            bases.append(f"http://127.0.0.1:{port}")
            pids.append(proc.pid)
            if number == 0:  # node 1 migrates a fresh database alone; then the others start
                self.wait(bases[0], proc, 1)
        for number, (base, proc) in enumerate(zip(bases, self.procs, strict=True)):
            self.wait(base, proc, number + 1)
        return Servers(
            bases,
            pids,
            postgres_pid=self.postgres_pid,
            redis_pid=self.redis.pid if self.redis else None,
            database_url=database_url,
            redis_url=redis_url,
        )

    def wait(self, base: str, proc: subprocess.Popen[bytes], number: int) -> None:
        try:
            wait_until_serving(base, proc, timeout=120)
        except RuntimeError as exc:
            with open(os.path.join(self.folder, f"node{number}.log"), encoding="utf-8") as log:
                raise SystemExit(f"node {number}: {exc}\n{log.read()[-2000:]}") from exc

    def start_postgres(self) -> str:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4]))
        if not bins:
            raise SystemExit("PostgreSQL is missing: sudo apt-get install postgresql")
        data, port = os.path.join(self.folder, "pg"), free_port()
        run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        os.chmod(self.folder, 0o755)
        if run_as:
            shutil.chown(self.folder, user="postgres")
        subprocess.run(
            [*run_as, f"{bins[-1]}/initdb", "-D", data, "-U", "eterna", "--auth=trust"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.pg_ctl = [*run_as, f"{bins[-1]}/pg_ctl", "-D", data]
        options = f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
        log = os.path.join(self.folder, "postgres.log")
        subprocess.run(
            [*self.pg_ctl, "-l", log, "-w", "-o", options, "start"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        with open(os.path.join(data, "postmaster.pid"), encoding="ascii") as pid:
            self.postgres_pid = int(pid.readline())
        subprocess.run(
            [
                *run_as,
                f"{bins[-1]}/createdb",
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
                "-U",
                "eterna",
                "eterna",
            ],
            check=True,
        )
        return f"postgresql+psycopg://eterna@127.0.0.1:{port}/eterna"

    def start_redis(self) -> str:
        server = shutil.which("redis-server")
        if server is None:
            raise SystemExit("Redis is missing: sudo apt-get install redis-server")
        port = free_port()
        self.redis = subprocess.Popen(
            [
                server,
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.folder,
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    return f"redis://127.0.0.1:{port}/0"
            time.sleep(0.05)
        raise SystemExit("Redis did not start")

    def stop(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(timeout=10)
        if self.pg_ctl:
            subprocess.run([*self.pg_ctl, "-m", "fast", "stop"], stdout=subprocess.DEVNULL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", default="200", help="concurrent games (200); several: 200,500,1000"
    )
    parser.add_argument("--game", default="eternity")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time, s (0.5)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measuring window (60)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="load this running server instead of starting one")
    parser.add_argument(
        "--nodes", type=int, help="start a cluster of this many nodes on PostgreSQL and Redis"
    )
    parser.add_argument(
        "--route",
        choices=["table", "spread"],
        default="table",
        help="a cluster's sockets: a table's seats on one node by its id (table, as the proxy "
        "routes them), or each seat of a table on another node (spread)",
    )
    parser.add_argument("--database-url", help="the cluster's PostgreSQL (else a throwaway one)")
    parser.add_argument("--redis-url", help="the cluster's Redis (else a throwaway one)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    sizes = [int(n) for n in str(args.games).split(",")]
    # SIGTERM (`timeout`, a CI's stop) unwinds like Ctrl+C: the servers started are stopped
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    proc = None
    cluster = None
    tmp = tempfile.TemporaryDirectory(prefix="eterna-load-")
    try:
        if args.url:
            servers = Servers([args.url.rstrip("/")], [])
        elif args.nodes:
            cluster = Cluster(tmp.name, args)
            servers = cluster.start()
        else:
            port = free_port()
            proc = start_server(port, tmp.name)
            servers = Servers([f"http://127.0.0.1:{port}"], [proc.pid])
        results = []
        for games in sizes:
            results.append(asyncio.run(run(servers, args, games)))
            print(json.dumps(results[-1], indent=1), flush=True)
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if cluster is not None:
            cluster.stop()
        tmp.cleanup()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results[0] if len(results) == 1 else results, out, indent=1)


if __name__ == "__main__":
    main()
