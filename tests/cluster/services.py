"""Services of the cluster tests' own, to stop and start again at will: a redis-server and a
PostgreSQL cluster (the shared ones, from ETERNA_TEST_REDIS_URL and ETERNA_TEST_POSTGRES_URL,
are never stopped); and a node's health as it answers it."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from nodes import Node
from server_helpers import free_port


class RedisServer:
    """A redis-server of this test's own, on a free port."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed (.ci/run installs it)"
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--save", "", "--appendonly", "no"],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while (
            subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True
            ).stdout.strip()
            != b"PONG"
        ):
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)

    def stop(self) -> None:
        assert self.proc is not None
        self.proc.terminate()
        self.proc.wait(timeout=10)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.stop()


class PostgresServer:
    """A PostgreSQL cluster of this test's own (initdb in a fresh folder, a free port), run
    as the `postgres` user when the tests run as root, as `.ci/run` runs the shared one."""

    def __init__(self) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version)
        initdb = shutil.which("initdb")
        self.bin = Path(found[-1]) if found else Path(initdb).parent if initdb else None
        assert self.bin is not None, "PostgreSQL is not installed (.ci/run installs it)"
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="eterna-pg-test-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.folder / "data"), "-U", "eterna", "--auth=trust")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://eterna@127.0.0.1:{self.port}/eterna"

    def _run(self, tool: str, *args: str) -> None:
        assert self.bin is not None
        command = [*self.as_user, str(self.bin / tool), *args]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        data, log = str(self.folder / "data"), str(self.folder / "log")
        self._run("pg_ctl", "-D", data, "-l", log, "-w", "-o", options, "start")

    def create_database(self) -> None:
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "eterna", "eterna")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def _version(path: str) -> tuple[int, ...]:
    number = Path(path).parent.name
    return tuple(int(p) for p in number.split(".") if p.isdigit())


def health_of(node: Node) -> tuple[int, dict[str, object]]:
    response = node.http.get("/api/health")
    return response.status_code, response.json()


def wait_health(node: Node, status: int, timeout: float = 30.0) -> dict[str, object]:
    """The node's health once it answers `status`."""
    deadline = time.monotonic() + timeout
    while True:
        code, body = health_of(node)
        if code == status:
            return body
        assert time.monotonic() < deadline, (node.name, code, body)
        time.sleep(0.1)
