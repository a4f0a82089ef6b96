"""`eterna serve`: the web table (FastAPI on uvicorn), see docs/web.md.

Registered on the main Typer app by `register(app)` (called at the end of `eterna.cli.app`).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated, Any

import typer

from eterna import engines
from eterna.cli.app import fail
from eterna.server.settings import Settings

SERVE_HELP = (
    "Serve the web table: a lobby, tables for humans and bots, history and replays.\n\n"
    "Open http://HOST:PORT/ in a browser. Games are stored in SQLite under --data-dir "
    "(default ./data) or in the database of --database-url "
    "(postgresql+psycopg://user@host/db); every accepted move is committed before anyone sees "
    "it, so a restarted server resumes every game where it was."
)

LEVELS = ("debug", "info", "warning", "error")


Host = Annotated[str, typer.Option("--host", help="Interface to listen on.")]
Port = Annotated[int, typer.Option("--port", help="TCP port.", min=0, max=65535)]
DatabaseUrl = Annotated[
    str | None,
    typer.Option(
        "--database-url",
        envvar="ETERNA_DATABASE_URL",
        help="SQLAlchemy URL, e.g. postgresql+psycopg://eterna@localhost/eterna.",
        show_default="SQLite in --data-dir",
    ),
]
DataDir = Annotated[
    Path,
    typer.Option("--data-dir", envvar="ETERNA_DATA_DIR", help="Folder of the SQLite database."),
]
BotDelay = Annotated[
    float, typer.Option("--bot-delay", min=0.0, max=30.0, help="Seconds between a bot's moves.")
]
HintIterations = Annotated[
    int, typer.Option("--hint-iterations", min=1, max=20000, help="ISMCTS iterations of a hint.")
]
PostRate = Annotated[
    float,
    typer.Option(
        "--post-rate",
        min=0.0,
        help="POST requests (new tables, joins, rematches) per second per client address, "
        "in bursts of up to 60; more get 429 (0: no limit).",
    ),
]
TablesPerHour = Annotated[
    int,
    typer.Option(
        "--tables-per-hour",
        min=0,
        help="New tables per client address per hour; more get 429 (0: no limit).",
    ),
]
ConnectRate = Annotated[
    float,
    typer.Option(
        "--connect-rate",
        min=0.0,
        help="WebSocket connections per second per client address, in bursts of up to 40; "
        "more are closed with 4429 (0: no limit).",
    ),
]
ForwardedAllowIps = Annotated[
    str | None,
    typer.Option(
        "--forwarded-allow-ips",
        help="Comma-separated addresses of reverse proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto headers are believed (default: none; see docs/web.md).",
    ),
]
ApiDocs = Annotated[
    bool, typer.Option("--api-docs", help="Serve the OpenAPI schema at /api/openapi.json.")
]
RedisUrl = Annotated[
    str | None,
    typer.Option(
        "--redis-url",
        envvar="ETERNA_REDIS_URL",
        help="Run as one node of a cluster: redis://host:6379/0 carries events and limits "
        "between nodes (needs a PostgreSQL --database-url; see docs/web.md).",
    ),
]
NodeId = Annotated[
    str | None,
    typer.Option(
        "--node-id",
        help="This node's name in a cluster (default: host name and process id).",
        show_default=False,
    ),
]
LogLevel = Annotated[str, typer.Option("--log-level", help="debug, info, warning or error.")]


def serve(
    host: Host = "127.0.0.1",
    port: Port = 8000,
    database_url: DatabaseUrl = None,
    data_dir: DataDir = Path("data"),
    bot_delay: BotDelay = Settings.bot_delay,
    hint_iterations: HintIterations = Settings.hint_iterations,
    post_rate: PostRate = Settings.post_rate,
    tables_per_hour: TablesPerHour = Settings.tables_per_address,
    connect_rate: ConnectRate = Settings.connect_rate,
    forwarded_allow_ips: ForwardedAllowIps = None,
    api_docs: ApiDocs = False,
    log_level: LogLevel = "info",
    redis_url: RedisUrl = None,
    node_id: NodeId = None,
) -> None:
    level = _logging(log_level)
    if node_id is not None and not 0 < len(node_id) <= 64:
        fail("--node-id must be 1 to 64 characters")
    settings = Settings(
        bot_delay=bot_delay,
        hint_iterations=hint_iterations,
        post_rate=post_rate,
        tables_per_address=tables_per_hour,
        connect_rate=connect_rate,
        api_docs=api_docs,
        node_id=node_id,
    )
    app = _make_app(database_url, data_dir, settings, redis_url)
    where = database_url.split("@")[-1] if database_url else f"SQLite in {data_dir}/"
    typer.echo(f"Eterna web table on http://{host}:{port}/ (games stored: {where})")
    typer.echo(engines.describe())  # compiled or pure, and how far a build is (docs/compiled.md)
    _run(app, host, port, level, forwarded_allow_ips)


def _logging(log_level: str) -> str:
    level = log_level.strip().lower()
    if level not in LEVELS:
        fail(f"--log-level must be debug, info, warning or error, not {log_level!r}")
    logging.basicConfig(level=level.upper(), format="%(levelname)s %(name)s: %(message)s")
    if level != "debug":  # Alembic narrates every migration step at INFO
        logging.getLogger("alembic").setLevel(logging.WARNING)
    return level


def _make_app(
    database_url: str | None, data_dir: Path, settings: Settings, redis_url: str | None
) -> Any:
    from eterna.server.app import SQLITE_CLUSTER, create_app, database_url_for, url_is_sqlite
    from eterna.server.storage import Storage

    if redis_url and (not database_url or url_is_sqlite(database_url)):
        fail(SQLITE_CLUSTER)
    try:
        url = database_url_for(database_url, data_dir)
        Storage(url).close()  # open and migrate now: a bad URL or database fails in one line
        return create_app(
            database_url=database_url, data_dir=data_dir, settings=settings, redis_url=redis_url
        )
    except OSError as exc:
        fail(f"cannot use the data folder {data_dir}: {exc.strerror or exc}")
    except Exception as exc:  # a bad URL, driver or server: say it in one line
        detail = str(exc).strip().splitlines()
        fail(f"cannot open the database: {detail[0] if detail else type(exc).__name__}")


def _run(app: Any, host: str, port: int, level: str, forwarded_allow_ips: str | None) -> None:
    import uvicorn

    from eterna.server.serving import uvicorn_config

    config = uvicorn_config(
        app, host, port, log_level=level, forwarded_allow_ips=forwarded_allow_ips
    )

    class Draining(uvicorn.Server):
        """SIGTERM or Ctrl+C: the tables are handed over and the sockets closed with 1012
        (reconnect) before uvicorn waits for the connections to end."""

        async def shutdown(self, sockets: Any = None) -> None:
            lifecycle = getattr(app.state, "lifecycle", None)  # the node's parts (app.py)
            if lifecycle is not None:
                await lifecycle.drain()
            await super().shutdown(sockets)

    Draining(config).run()


def register(app: typer.Typer) -> None:
    """Add `serve` to the main app."""
    app.command(name="serve", help=SERVE_HELP)(serve)


__all__ = ["register"]
