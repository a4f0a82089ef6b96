"""The Compose deployment's files (deploy/): nginx accepts its configuration, and it spreads over
exactly the nodes the Compose file runs, with the WebSocket upgrade on /ws/ and a table's
sockets on one node by a consistent hash of its id."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def compose_nodes() -> list[str]:
    compose = (DEPLOY / "compose.yaml").read_text()
    return re.findall(r"^  (eterna\d+):\n    <<: \*node", compose, flags=re.M)


def upstreams(conf: str) -> dict[str, str]:
    """Each `upstream NAME { ... }` block of an nginx configuration, by name."""
    return dict(re.findall(r"^\s*upstream (\w+) \{\n(.*?)^\s*\}", conf, flags=re.M | re.S))


def test_nginx_spreads_over_every_compose_node() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    blocks = upstreams(conf)
    assert sorted(blocks) == ["eterna", "eterna_tables"]
    for block in blocks.values():
        servers = re.findall(r"^\s*server (eterna\d+):8000\b", block, flags=re.M)
        assert servers == compose_nodes() == ["eterna1", "eterna2", "eterna3"]
    # pages and API calls: the least busy node; no directive pins a client to a node
    assert re.search(r"^\s*least_conn;", blocks["eterna"], flags=re.M)
    assert not re.search(r"^\s*(ip_hash|sticky)\b", conf, flags=re.M)
    # a table's sockets: by its id only, with a consistent hash (a node down moves its tables)
    hashes = re.findall(r"^\s*hash (\S+)(.*);", conf, flags=re.M)
    assert hashes == [("$table_id", " consistent")]
    assert re.search(r'map \$uri \$table_id \{ "~\^/ws/tables/\(\?<id>', conf)
    locations = (DEPLOY / "eterna-locations.conf").read_text()
    ws = locations.split("location /ws/", 1)[1].split("}", 1)[0]
    assert "proxy_pass http://eterna_tables;" in ws
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert "proxy_set_header Connection $connection_upgrade;" in ws


def test_nginx_accepts_the_compose_configuration(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is missing: apt-get install nginx")
    # the containers' names and paths, as this machine has them
    conf = (DEPLOY / "nginx.conf").read_text()
    conf = re.sub(r"server eterna\d+:8000", "server 127.0.0.1:8000", conf)
    conf = conf.replace("/etc/nginx/eterna-locations.conf", str(DEPLOY / "eterna-locations.conf"))
    conf = conf.replace("/tmp/nginx.pid", str(tmp_path / "nginx.pid"))
    (tmp_path / "nginx.conf").write_text(conf)
    done = subprocess.run(
        [
            nginx,
            "-t",
            "-e",
            str(tmp_path / "error.log"),
            "-c",
            str(tmp_path / "nginx.conf"),
            "-p",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
