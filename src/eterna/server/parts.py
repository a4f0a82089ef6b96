"""The server's parts as FastAPI dependencies: a route names the parts it uses (the table
store, seating and tokens, the quotas), not the hub that holds them all (tables.py). The hub
builds the parts when the app starts; these read them from it."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from eterna.server.limits import Quotas
from eterna.server.seating import Seating
from eterna.server.store import TableStore


def quotas_of(request: Request) -> Quotas:
    quotas: Quotas = request.app.state.hub.quotas
    return quotas


def store_of(request: Request) -> TableStore:
    store: TableStore = request.app.state.hub.store
    return store


def seating_of(request: Request) -> Seating:
    seating: Seating = request.app.state.hub.seating
    return seating


QuotasDep = Annotated[Quotas, Depends(quotas_of)]
StoreDep = Annotated[TableStore, Depends(store_of)]
SeatingDep = Annotated[Seating, Depends(seating_of)]

__all__ = ["QuotasDep", "SeatingDep", "StoreDep", "quotas_of", "seating_of", "store_of"]
