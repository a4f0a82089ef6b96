"""The web table's settings: one `Settings`, the single source of every server default, and
`RequestError`, an HTTP request the server refuses."""

from __future__ import annotations

from dataclasses import dataclass

TIMEOUT_AGENT = "heuristic"  # plays a human seat's decision when its turn timer runs out
CHECKPOINT_EVERY = 5.0  # seconds between SQLite WAL checkpoints


class RequestError(Exception):
    """An HTTP request the server refuses: `status`, `code` and a message for the client (and
    for a bad position, the `field` at fault)."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field

    def __reduce__(self) -> tuple[type[RequestError], tuple[int, str, str, str | None]]:
        # raised in a worker process (position_work.py) and re-raised in the server
        return (RequestError, (self.status, self.code, self.message, self.field))


@dataclass
class Settings:
    """Server-wide knobs (set by `create_app` / `eterna serve`)."""

    bot_delay: float = 0.8  # default seconds between a bot's decisions
    hint_iterations: int = 500  # ISMCTS iterations of a `hint`
    frame_rate: float = 20.0  # client frames per second per connection (token bucket)
    frame_burst: float = 20.0
    flood_strikes: int = 60  # refused frames in a row before a flooding connection is closed
    max_queue: int = 512  # frames waiting for a slow client before it is disconnected
    lobby_limit: int = 100
    max_live_tables: int = 10_000  # games in progress at once: more are refused (503)
    post_rate: float = 2.0  # POST requests per second per client address (0: no limit)
    post_burst: float = 60.0  # ... in bursts of up to this many
    connect_rate: float = 2.0  # WebSocket connections per second per client address (0: none)
    connect_burst: float = 40.0  # ... in bursts of up to this many
    # Bots on a budget (docs/web.md): every server-side decision runs in a worker process and
    # stops after `bot_seconds` (a hint: `hint_seconds`), whatever its spec says.
    bot_seconds: float = 5.0  # also the most an `ismcts:seconds=` bot may ask for
    bot_iterations: int = 5000  # the most an `ismcts:iterations=` bot may ask for
    hint_seconds: float = 2.0
    # Positions (docs/web-protocol.md, "Positions")
    position_hints: int = 30  # hints on posted positions per client address per window
    position_inspects: int = 120  # inspections of posted positions per address per window
    position_window: float = 600.0
    position_seconds: float = 1.0  # the budget of a position's load (its hard cap: 2.5 s)
    position_workers: int = 1  # worker processes of posted positions (position_work.py)
    position_memory: int = 512 * 1024 * 1024  # bytes such a worker may map beyond its start
    # Connections (docs/web.md, "Quotas, expiry and bounded games")
    max_connections_per_address: int = 64  # open WebSockets of one client address
    max_connections_per_table: int = 256  # open WebSockets of one table (players, spectators)
    cheap_workers: int = 1  # worker processes of `random` and `heuristic` bots and timers
    search_workers: int = 2  # worker processes of searching bots and hints
    retry_delay: float = 1.0  # a bot move that could not be stored is retried after this,
    retry_max: float = 30.0  # ... doubling up to this
    # Quotas, expiry and bounded games (docs/web.md)
    tables_per_address: int = 30  # new tables per client address per window (0: no limit)
    address_window: float = 3600.0
    idle_expiry: float = 1800.0  # a table nobody is connected to for this long is abandoned
    unclaimed_expiry: float = 600.0  # ... or this long if nobody ever took one of its seats
    expiry_sweep: float = 30.0  # seconds between looks for abandoned tables
    max_plies: int = 20_000  # a table reaching this many actions ends ("ply_limit")
    finished_cache: int = 256  # finished tables whose data and encoded record stay in memory
    token_ttl: float = 7 * 86400.0  # seat tokens stop working this long after the game ended
    api_docs: bool = False  # serve the OpenAPI schema, /api/openapi.json (`--api-docs`)
    tune_gc: bool = True  # freeze startup objects, collect young objects less often (app.py)
    # A cluster (docs/web.md, "Running on several machines"): this node's id, and its leases
    node_id: str | None = None  # `--node-id`, else the host name and process id on a cluster
    lease_ttl: float = 3.0  # a table whose driver stopped renewing is taken over after this
    lease_renew: float = 1.0  # seconds between renewals (and looks for tables nobody drives)
