"""The Compose deployment's files (deploy/): nginx accepts its configuration, and it spreads over
exactly the nodes the Compose file runs, with the WebSocket upgrade on /ws/ and a table's
sockets on one node by a consistent hash of its id; the images are the public ones unless a
variable swaps them (deploy/offline.env: Debian-built stand-ins), and the build context is what
the Dockerfile copies."""

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
    assert sorted(blocks) == ["eterna", "eterna_last", "eterna_tables"]
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
    # every node left out after 503s (PostgreSQL or Redis down for all): the nodes are asked
    # again through an upstream that leaves none out, so the client gets their 503, not a 502
    assert re.findall(r"max_fails=(\d+)", blocks["eterna_last"]) == ["0", "0", "0"]
    site = locations.split("location / {", 1)[1].split("}", 1)[0]
    assert "error_page 502 = @every_node_left_out;" in site
    last = locations.split("location @every_node_left_out {", 1)[1].split("}", 1)[0]
    assert "proxy_pass http://eterna_last;" in last
    assert "proxy_next_upstream error timeout;" in last


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


# The public images: what a user with Docker Hub runs, each swappable by a variable.
PUBLIC_IMAGES = {
    "ETERNA_POSTGRES_IMAGE": "postgres:15-bookworm",
    "ETERNA_REDIS_IMAGE": "redis:7-bookworm",
    "ETERNA_NGINX_IMAGE": "nginx:1.27-bookworm",
    "ETERNA_PYTHON_IMAGE": "python:3.11-slim-bookworm",
    "ETERNA_PYTHON_BUILD_IMAGE": "python:3.11-slim-bookworm",
}


def test_compose_runs_the_public_images_unless_told_otherwise() -> None:
    compose = (DEPLOY / "compose.yaml").read_text()
    used = dict(re.findall(r"\$\{(ETERNA_\w+_IMAGE):-([^}]+)\}", compose))
    assert used == PUBLIC_IMAGES
    # no image named outright: each is a variable with the public image as its default
    for image in re.findall(r"^\s*image: (.*)$", compose, flags=re.M):
        assert image == "eterna:local" or image.startswith("${ETERNA_"), image
    # the node's build arguments default, in the Dockerfile too, to the public Python image
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    args = dict(re.findall(r"^ARG (\w+)=(\S+)$", dockerfile, flags=re.M))
    assert args == {
        "PYTHON_IMAGE": used["ETERNA_PYTHON_IMAGE"],
        "PYTHON_BUILD_IMAGE": used["ETERNA_PYTHON_BUILD_IMAGE"],
    }
    assert re.findall(r"^FROM (\S+)", dockerfile, flags=re.M) == [
        "${PYTHON_BUILD_IMAGE}",
        "${PYTHON_IMAGE}",
    ]


def test_offline_env_names_the_images_offline_images_builds() -> None:
    """deploy/offline.env swaps every public image for one deploy/offline-images.sh builds from
    a target of deploy/offline/Dockerfile."""
    env = dict(
        line.split("=", 1)
        for line in (DEPLOY / "offline.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert sorted(env) == sorted(PUBLIC_IMAGES)
    script = (DEPLOY / "offline-images.sh").read_text()
    built = dict(re.findall(r"^build ([\w-]+) (\S+)$", script, flags=re.M))
    assert sorted(built.values()) == sorted(env.values())
    targets = re.findall(
        r"^FROM \S+ AS ([\w-]+)$", (DEPLOY / "offline" / "Dockerfile").read_text(), flags=re.M
    )
    assert set(built) <= set(targets)


def test_the_build_context_holds_what_the_dockerfile_copies_and_nothing_else() -> None:
    """The repository's .dockerignore (every builder reads it, docker-compose v1's too) lets in
    exactly the Dockerfile's COPY sources, without compiled or cached files."""
    root = DEPLOY.parent
    rules = [
        line
        for line in (root / ".dockerignore").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert rules[0] == "*"
    kept = {rule[1:].rstrip("/") for rule in rules if rule.startswith("!")}
    copied = set()
    for sources in re.findall(
        r"^COPY (?!--)(.*) \S+$", (DEPLOY / "Dockerfile").read_text(), flags=re.M
    ):
        copied |= set(sources.split())
    assert kept == copied == {"pyproject.toml", "setup.py", "README.md", "src"}
    assert {"src/**/__pycache__", "src/**/*.so", "src/**/*.c"} <= set(rules)


def test_the_shell_scripts_parse() -> None:
    for script in [
        "cluster.sh",
        "offline-images.sh",
        "offline/postgres-entrypoint.sh",
        "offline/redis-entrypoint.sh",
    ]:
        shell = "sh" if script.startswith("offline/") else "bash"
        done = subprocess.run([shell, "-n", str(DEPLOY / script)], capture_output=True, text=True)
        assert done.returncode == 0, (script, done.stderr)
