"""The server's parts as FastAPI dependencies: a route names the parts it uses (the table store,
seating and tokens), not the hub that holds them all (tables.py). The hub builds the parts when
the app starts; these read them from it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from eterna.server.seating import Seating
from eterna.server.store import TableStore


def store_of(request: Request) -> TableStore:
    store: TableStore = request.app.state.hub.store
    return store


def seating_of(request: Request) -> Seating:
    seating: Seating = request.app.state.hub.seating
    return seating


StoreDep = Annotated[TableStore, Depends(store_of)]
SeatingDep = Annotated[Seating, Depends(seating_of)]

__all__ = ["SeatingDep", "StoreDep", "seating_of", "store_of"]
