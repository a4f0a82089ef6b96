"""The server's parts as FastAPI dependencies: a route names the parts it uses (the table store,
seating and tokens, the quotas, moves, ...), never one object that holds them all. app.py wires
the parts once when the app starts (`assemble`) and keeps each on the app's state under its own
name; these read them from there, for HTTP routes and WebSockets alike."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends
from starlette.requests import HTTPConnection

from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.expiry import Expiry
from eterna.server.limits import Quotas
from eterna.server.moves import Moves
from eterna.server.node import Health, Lifecycle
from eterna.server.relay import Relay
from eterna.server.seating import Seating
from eterna.server.security import AddressLimiter, ConnectionCaps
from eterna.server.settings import Settings
from eterna.server.store import TableStore
from eterna.server.tables import TableService
from eterna.server.workers import Workers

P = TypeVar("P")


@dataclass(frozen=True)
class Parts:
    """What `assemble` (app.py) made: each part once, given the parts it needs. app.py puts
    each on the app's state under its field's name; no route is given this record."""

    settings: Settings
    database: Database
    workers: Workers
    driver: TurnDriver
    store: TableStore
    seating: Seating
    fanout: Broadcaster
    moves: Moves
    quotas: Quotas
    tables: TableService
    expiry: Expiry
    health: Health
    lifecycle: Lifecycle
    cluster: Cluster | None = None
    relay: Relay | None = None

    def named(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}


def _reader(name: str, kind: type[P]) -> Callable[[HTTPConnection], Coroutine[Any, Any, P]]:
    """The dependency that gives a route (or a WebSocket) the part `app.state.<name>`. It is a
    coroutine function so that FastAPI calls it on the event loop: a plain function dependency
    is run in a worker thread (anyio's), a thread hand-over per part and request, which cost a
    cluster node about a seventh of its event loop's time (docs/performance.md, "Cheaper
    moves")."""

    async def read(conn: HTTPConnection) -> P:
        part = getattr(conn.app.state, name)
        assert isinstance(part, kind), f"app.state.{name} is not a {kind.__name__}"
        return part

    read.__name__ = f"{name}_of"
    return read


SettingsDep = Annotated[Settings, Depends(_reader("settings", Settings))]
DatabaseDep = Annotated[Database, Depends(_reader("database", Database))]
WorkersDep = Annotated[Workers, Depends(_reader("workers", Workers))]
DriverDep = Annotated[TurnDriver, Depends(_reader("driver", TurnDriver))]
StoreDep = Annotated[TableStore, Depends(_reader("store", TableStore))]
SeatingDep = Annotated[Seating, Depends(_reader("seating", Seating))]
FanoutDep = Annotated[Broadcaster, Depends(_reader("fanout", Broadcaster))]
MovesDep = Annotated[Moves, Depends(_reader("moves", Moves))]
QuotasDep = Annotated[Quotas, Depends(_reader("quotas", Quotas))]
TablesDep = Annotated[TableService, Depends(_reader("tables", TableService))]
HealthDep = Annotated[Health, Depends(_reader("health", Health))]
# the WebSocket connection limits (made with the app: app.py, counted across a cluster)
ConnectsDep = Annotated[AddressLimiter, Depends(_reader("connects", AddressLimiter))]
CapsDep = Annotated[ConnectionCaps, Depends(_reader("connection_caps", ConnectionCaps))]

__all__ = [
    "CapsDep",
    "ConnectsDep",
    "DatabaseDep",
    "DriverDep",
    "FanoutDep",
    "HealthDep",
    "MovesDep",
    "Parts",
    "QuotasDep",
    "SeatingDep",
    "SettingsDep",
    "StoreDep",
    "TablesDep",
    "WorkersDep",
]
