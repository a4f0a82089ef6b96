"""What a cluster node tells the other nodes about its tables, and asks of them, that needs
nothing but the cluster's link (cluster.py): which seats are connected here (`presence`), a
seat claimed or filled here (`claimed`), a rematch's seat tokens shared in Redis, which copies
this node keeps in memory, and the games in play here counted against the cluster's live-table
cap. Made right after the cluster, so that the table store, the broadcaster and seating are
given it when they are made (app.py); relay.py applies what the other nodes tell."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Iterable
from typing import Any

from eterna.server.cluster import Cluster
from eterna.server.live import LiveTable

REMATCH_TOKENS_TTL = 3600  # seconds a rematch's seat tokens stay shared between nodes


def watched(table: LiveTable) -> bool:
    """A seat of the table is connected to another node (the table is not abandoned)."""
    return any(table.remote.values())


class Peers:
    """This node's word to the other nodes of its cluster (see the module's doc)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.background: set[asyncio.Task[Any]] = set()

    def later(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def keeps(self, table: LiveTable) -> bool:
        """An unfinished copy stays in memory while a socket here shows it or this node drives
        it (the others are read again when needed)."""
        return bool(table.conns) or self.cluster.holds(table.id)

    def claimed(self, table: LiveTable) -> None:
        """A seat was claimed or filled here: the other nodes read the seats again."""
        self.cluster.publish({"k": "seats", "t": table.id})

    def presence(self, table: LiveTable) -> None:
        """A seat connected or left here: the other nodes are told, and a table a seat's first
        visit brought into play (`LiveTable.in_play`) counts against the cap at once."""
        seats = sorted({c.seat for c in table.conns if c.seat is not None and not c.closed})
        self.cluster.publish(
            {"k": "presence", "t": table.id, "node": self.cluster.node, "seats": seats}
        )
        if seats and self.in_play(table) and self.cluster.limits.available:
            self.later(self.cluster.limits.mark_live([table.id]))

    def in_play(self, table: LiveTable) -> bool:
        """The game counts against the live-table cap (`LiveTable.in_play`; a seat connected
        to another node counts as a visit)."""
        return not table.over and (table.in_play() or watched(table))

    async def mark_new(self, table: LiveTable) -> None:
        """A new game in play is counted before its creator hears of it, so that the next
        request, on any node, sees it (a count written in the background could come after)."""
        if self.in_play(table) and self.cluster.limits.available:
            with contextlib.suppress(Exception):  # Redis away: the next renewal counts it
                await self.cluster.limits.mark_live([table.id])

    async def mark_playing(self, tables: Iterable[LiveTable]) -> None:
        """Every game in play here counted again (the lease sweep's renewal)."""
        await self.cluster.limits.mark_live(t.id for t in tables if self.in_play(t))

    async def keep_tokens(self, rematch_id: str, tokens: dict[int, str]) -> None:
        """A rematch's seat tokens, kept before the rematch is stored, for a node whose rematch
        of the same table loses the race."""
        if tokens:
            key = f"eterna:rematch:{rematch_id}"
            await self.cluster.redis.hset(key, mapping={str(s): t for s, t in tokens.items()})
            await self.cluster.redis.expire(key, REMATCH_TOKENS_TTL)

    async def find_tokens(self, rematch_id: str) -> dict[int, str]:
        try:
            found = await self.cluster.redis.hgetall(f"eterna:rematch:{rematch_id}")
        except Exception:
            return {}
        return {int(s): t.decode() if isinstance(t, bytes) else str(t) for s, t in found.items()}


__all__ = ["REMATCH_TOKENS_TTL", "Peers", "watched"]
