"""`make cluster` / `make cluster-stop` (deploy/cluster.sh): a local cluster from Debian's
postgresql, redis-server and nginx starts, serves the site through nginx and on every node,
plays a move over a WebSocket through nginx, keeps serving when a node is killed and takes it
back, and stops leaving nothing running.

The services are Debian's packages (installed by .ci/run in CI); a machine without them fails
with the apt command to run, as the script itself says.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "cluster.sh"
NODES = 3


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _ephemeral_low() -> int:
    """The first port the kernel hands to outgoing connections and to `bind(0)`."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_base_port() -> int:
    """A port P with P..P+11 free: nginx, the nodes, PostgreSQL (P+10) and Redis (P+11).

    Below the kernel's ephemeral range: a port free when checked there could be taken by an
    outgoing connection or another test's `bind(0)` server before the cluster listens on it."""
    rng = random.Random()
    top = max(_ephemeral_low(), 20000 + 2000)
    for _ in range(200):
        base = rng.randrange(20000, top - 12, 20)
        if all(_port_free(base + i) for i in range(12)):
            return base
    raise RuntimeError("no 12 free ports in a row")


def listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def running(pid: int) -> bool:
    """The process exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def require_packages() -> None:
    missing = [
        name
        for name, found in [
            ("postgresql", any(Path("/usr/lib/postgresql").glob("*/bin/initdb"))),
            ("redis-server", shutil.which("redis-server")),
            ("nginx", shutil.which("nginx") or os.path.exists("/usr/sbin/nginx")),
        ]
        if not found
    ]
    if missing:
        pytest.fail(f"missing {missing}: apt-get install postgresql redis-server nginx")


def cluster(command: str, env: dict[str, str], timeout: float = 180) -> str:
    done = subprocess.run(
        [str(SCRIPT), *command.split()], env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"cluster.sh {command}: {done.stdout}\n{done.stderr}"
    return done.stdout


def serve_has_redis() -> bool:
    help_text = subprocess.run(
        [sys.executable, "-m", "eterna", "serve", "--help"], capture_output=True, text=True
    ).stdout
    return "--redis-url" in help_text


def play_one_move(base: str) -> None:
    """A table created through nginx; seat 0's socket through nginx plays one move and sees it."""
    created = httpx.post(
        f"{base}/api/tables",
        json={
            "game": "eternity",
            "players": 3,
            "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}],
            "bot_delay": 0,
        },
        timeout=30,
        trust_env=False,
    )
    assert created.status_code == 201, created.text
    table = created.json()
    token = table["seats"][0]["token"]
    url = base.replace("http://", "ws://") + f"/ws/tables/{table['table_id']}?token={token}"
    deadline = time.monotonic() + 60
    with connect(url, open_timeout=30, proxy=None) as ws:
        sent: tuple[int, str] | None = None
        while time.monotonic() < deadline:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if frame["type"] == "error":
                pytest.fail(f"error frame: {frame}")
            if frame["type"] != "update":
                continue
            if sent is not None and frame["ply"] == sent[0] + 1:
                moves = [e for e in frame.get("events", []) if e.get("action")]
                assert moves and moves[0]["seat"] == 0 and moves[0]["action"] == sent[1]
                return
            legal = frame["view"].get("legal_actions") or []
            if sent is None and legal:
                sent = (frame["ply"], legal[0])
                ws.send(json.dumps({"type": "act", "action": legal[0], "ply": frame["ply"]}))
    pytest.fail("seat 0 never played its move through nginx")


def failover_check(port: int, run_dir: Path) -> str:
    """deploy/failover_check.py on the cluster: the killed node's name (node1..node3)."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "deploy" / "failover_check.py"),
            f"http://127.0.0.1:{port}",
            "--psql",
            f"psql -h 127.0.0.1 -p {port + 10} -U eterna eterna",
            "--kill",
            f"kill -9 $(cat {run_dir}/{{node}}.pid)",
            "--bot-delay",
            "0.1",
            "--seconds",
            "240",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert "next bot move seen" in done.stdout and ": OK" in done.stdout, done.stdout
    killed = re.search(r"table driven by (node\d); killing it", done.stdout)
    assert killed, done.stdout
    return killed.group(1)


@pytest.fixture
def cluster_dir() -> Iterator[Path]:
    """A folder PostgreSQL's own user can reach (pytest's are private to root, and as root the
    script runs PostgreSQL as `postgres`)."""
    folder = Path(tempfile.mkdtemp(prefix="eterna-cluster-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def cluster_env(folder: Path, port: int, nodes: int = NODES, **extra: str) -> dict[str, str]:
    """The environment `deploy/cluster.sh` runs a cluster of `nodes` nodes with: its folder, its
    first port, this interpreter; `extra` adds to it."""
    return {
        **os.environ,
        "ETERNA_CLUSTER_DIR": str(folder),
        "ETERNA_CLUSTER_PORT": str(port),
        "ETERNA_CLUSTER_NODES": str(nodes),
        "ETERNA_PYTHON": sys.executable,
        **extra,
    }


def test_cluster_starts_serves_through_nginx_and_stops_clean(cluster_dir: Path) -> None:
    require_packages()
    tmp_path = cluster_dir
    port = free_base_port()
    env = cluster_env(tmp_path / "cluster", port, ETERNA_BOT_DELAY="0")
    run_dir = tmp_path / "cluster" / "run"
    pids: list[int] = []
    try:
        out = cluster("start", env)
        assert f"http://127.0.0.1:{port}" in out
        pids = [int(p.read_text()) for p in sorted(run_dir.glob("*.pid"))]
        assert {p.stem for p in run_dir.glob("*.pid")} == {
            "nginx",
            "redis",
            *(f"node{i}" for i in range(1, NODES + 1)),
        }
        assert all(running(pid) for pid in pids)
        for p in [port, *(port + i for i in range(1, NODES + 1))]:
            health = httpx.get(f"http://127.0.0.1:{p}/api/health", timeout=10, trust_env=False)
            assert health.status_code == 200 and health.json()["ok"] is True, (p, health.text)
        if serve_has_redis():  # the nodes run in cluster mode, on the cluster's Redis
            for i in range(1, NODES + 1):
                pid = int((run_dir / f"node{i}.pid").read_text())
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                assert f"redis://127.0.0.1:{port + 11}/0".encode() in argv
        play_one_move(f"http://127.0.0.1:{port}")
        # nginx spread the requests over the nodes (least connections, no stickiness)
        access = (tmp_path / "cluster" / "logs" / "nginx-access.log").read_text()
        assert len({f"127.0.0.1:{port + i}" for i in range(1, NODES + 1)} & set(access.split())) > 1
        status = cluster("status", env)
        assert f"site http://127.0.0.1:{port}: ok" in status
        # docs/web.md's check: a game through nginx, its driving node killed with SIGKILL, the
        # game goes on to its end and its record replays (deploy/failover_check.py)
        killed_node = failover_check(port, run_dir)
        assert f"node {killed_node[-1]} is back" in cluster(f"start-node {killed_node[-1]}", env)
        pids.append(int((run_dir / f"{killed_node}.pid").read_text()))
        # a node killed: nginx passes every request to the others; start-node brings it back
        killed = int((run_dir / "node2.pid").read_text())
        node2_log = tmp_path / "cluster" / "logs" / "node2.log"
        said = node2_log.read_text()
        os.kill(killed, signal.SIGKILL)
        for _ in range(6):
            site = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=10, trust_env=False)
            assert site.status_code == 200
        assert "node2: dead" in cluster("status", env)
        assert "node 2 is back" in cluster("start-node 2", env)
        pids.append(int((run_dir / "node2.pid").read_text()))
        # its log goes on after what the killed node said (docs/web.md: grep counts go on),
        # each start marked with the pid of the node it started
        log = node2_log.read_text()
        assert log.startswith(said) and len(log) > len(said)
        starts = re.findall(r"^=== node 2 started \S+Z, pid (\d+) ===$", log, re.MULTILINE)
        assert [int(pid) for pid in starts] == [killed, pids[-1]]
        health = httpx.get(f"http://127.0.0.1:{port + 2}/api/health", timeout=10, trust_env=False)
        assert health.status_code == 200
        if serve_has_redis():
            # Redis gone for every node: each answers 503 to its health check, which leaves it
            # out in nginx for 5 s; nginx then asks them again (eterna_last) instead of
            # answering its own 502, so the client is told what is down and pages still load
            os.kill(int((run_dir / "redis.pid").read_text()), signal.SIGTERM)
            time.sleep(1.0)
            for _ in range(4):
                site = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=20, trust_env=False)
                assert site.status_code == 503 and site.json()["redis"] == "down", site.text
            page = httpx.get(f"http://127.0.0.1:{port}/", timeout=20, trust_env=False)
            assert page.status_code == 200, page.text
    finally:
        stopped = cluster("stop", env)
    assert "stopping PostgreSQL" in stopped
    assert not list(run_dir.glob("*.pid"))
    assert not (tmp_path / "cluster" / "pg" / "data" / "postmaster.pid").exists()
    time.sleep(0.2)
    assert [pid for pid in pids if running(pid)] == []
    assert [p for p in range(port, port + 12) if listening(p)] == []


def test_missing_packages_name_the_apt_command(tmp_path: Path) -> None:
    """Without redis-server on the PATH the script stops at once and says what to install."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ["bash", "ls", "sort", "tail", "id", "dirname", "curl", "grep", "sed", "cut"]:
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    env = {
        **os.environ,
        "PATH": str(bin_dir),
        "ETERNA_CLUSTER_DIR": str(tmp_path / "cluster"),
        "ETERNA_PYTHON": sys.executable,
    }
    done = subprocess.run([str(SCRIPT), "start"], env=env, capture_output=True, text=True)
    assert done.returncode == 2
    assert "missing: redis-server" in done.stderr
    assert "Install them with: sudo apt-get install redis-server" in done.stderr
    assert not (tmp_path / "cluster").exists()  # nothing started, nothing written


def test_a_port_in_use_is_named_before_anything_starts(tmp_path: Path) -> None:
    """Another cluster (another user's, say) holding one of the range's ports: the script
    names the port and the setting that moves the range, and starts nothing."""
    require_packages()
    port = free_base_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port + 10))  # PostgreSQL's port of the range
        taken.listen()
        env = {
            **os.environ,
            "ETERNA_CLUSTER_DIR": str(tmp_path / "cluster"),
            "ETERNA_CLUSTER_PORT": str(port),
            "ETERNA_PYTHON": sys.executable,
        }
        done = subprocess.run([str(SCRIPT), "start"], env=env, capture_output=True, text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"port(s) {port + 10} already in use" in done.stderr
    assert "ETERNA_CLUSTER_PORT=" in done.stderr
    assert not (tmp_path / "cluster").exists()  # nothing started, nothing written
