"""`make run` installs the package alone, without any extra: the web table on SQLite must start,
serve its pages and play against a bot with none of the extras' modules importable.

The tests' environment has every extra (the dev install), so the server runs in a child process
whose imports of those modules fail as they would on a plain install (a regression: the
PostgreSQL commits' module imported psycopg at the top, and `make run` from a fresh clone
stopped with ModuleNotFoundError while every test passed)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

# Top-level modules of the optional extras (pyproject.toml: postgres, ray, train, research and
# the dev tools), none of which the base install has. numpy and librt are left importable:
# matplotlib (a base dependency) brings numpy, and a compiled build brings librt.
EXTRAS = (
    "psycopg",
    "ray",
    "torch",
    "sb3_contrib",
    "stable_baselines3",
    "pettingzoo",
    "gymnasium",
    "pyspiel",
    "open_spiel",
    "hypothesis",
    "playwright",
    "httpx",
)

CHILD = """
import sys

BLOCKED = set(sys.argv[1].split(","))


class Missing:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, Missing)
from eterna.cli import main

sys.argv = ["eterna", "serve", "--port", sys.argv[2], "--data-dir", sys.argv[3], "--bot-delay", "0"]
main()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


def _post(url: str, body: object) -> dict[str, object]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, object] = json.loads(response.read())
        return answer


def test_the_web_table_runs_without_any_extra(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, ",".join(EXTRAS), str(port), str(tmp_path / "data")],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            deadline = time.monotonic() + 60
            health = None
            while time.monotonic() < deadline and child.poll() is None:
                try:
                    health = _get(base + "/api/health")
                    break
                except OSError:
                    time.sleep(0.2)
            output = log.read_text(errors="replace")
            assert health is not None, f"the server did not start without the extras:\n{output}"
            assert health[0] == 200
            status, page = _get(base + "/")
            assert status == 200 and b"<html" in page.lower()
            made = _post(
                base + "/api/tables",
                {
                    "game": "vale",
                    "players": 2,
                    "seats": [{"kind": "human"}, {"kind": "bot", "agent": "heuristic"}],
                },
            )
            assert isinstance(made.get("table_id"), str), made
            _, table = _get(f"{base}/api/tables/{made['table_id']}")
            assert json.loads(table)["game"] == "vale"
        finally:
            child.terminate()
            child.wait(timeout=30)
    output = log.read_text(errors="replace")
    assert "ModuleNotFoundError" not in output, output
    assert "Traceback" not in output, output
