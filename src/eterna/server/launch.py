"""Starting `eterna serve` as a child process and waiting until it answers.

Shared by everything that needs a real server in another process: the restart test (it kills
the process), the browser tests and the load benchmark (they keep the server off their own
event loop and GIL).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def serve_command(
    port: int,
    *,
    data_dir: str | Path | None = None,
    database_url: str | None = None,
    bot_delay: float = 0.0,
    hint_iterations: int | None = None,
    log_level: str = "warning",
    post_rate: float | None = None,
    limits: bool = True,
    redis_url: str | None = None,
    node_id: str | None = None,
) -> list[str]:
    """The command line of `eterna serve` on 127.0.0.1:`port`, run by this Python (`limits`
    False: no per-address quota of tables or connections)."""
    command = [sys.executable, "-m", "eterna", "serve", "--port", str(port)]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    if database_url is not None:
        command += ["--database-url", database_url]
    command += ["--bot-delay", f"{bot_delay:g}", "--log-level", log_level]
    if hint_iterations is not None:
        command += ["--hint-iterations", str(hint_iterations)]
    if post_rate is not None:
        command += ["--post-rate", f"{post_rate:g}"]
    if redis_url is not None:  # a node of a cluster (docs/web.md)
        command += ["--redis-url", redis_url]
    if node_id is not None:
        command += ["--node-id", node_id]
    if not limits:  # a test or benchmark opening many tables and connections from one address
        command += ["--tables-per-hour", "0", "--connect-rate", "0"]
    return command


def wait_until_serving(base: str, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Return once `base`/api/health answers ok; RuntimeError if the process exits first or
    `timeout` seconds pass (the caller adds what the process logged)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=2) as response:
                if json.loads(response.read()).get("ok"):
                    return
        except (urllib.error.URLError, OSError, ValueError):
            pass
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with code {process.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer within {timeout:g} s")
        time.sleep(0.1)
