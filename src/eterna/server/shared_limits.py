"""Limits counted by every node of a cluster in its one Redis (docs/web.md, "Limits across
nodes"), with the same figures as a single server's: the quotas per client address (sliding
windows: limits.py), the POST and WebSocket connection rates (token buckets: security.py), the
open WebSockets per address and per table (security.py's caps) and the games in play (the
live-table cap: tables.py).

Each count is one atomic Lua script on Redis's own clock, so nodes on machines whose clocks
disagree count alike. Open connections and games in play are members of sorted sets scored by
an expiry that their node renews every `CONNECTIONS_RENEW` seconds: the connections of a node
that died stop counting within `CONNECTIONS_TTL` seconds, and so do the games it alone saw in
play (until their new driver marks them). While Redis cannot be reached (`available` false, or
a call fails) each node counts alone, as a single server does.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import Any

CONNECTIONS_TTL = 30  # seconds an open connection counts without its node renewing it
CONNECTIONS_RENEW = 10.0  # seconds between a node's renewals of its open connections

WINDOW_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return tostring(window - (now - tonumber(first[2])))
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(window))
return false
"""

BUCKET_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local wait = false
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = tostring((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return wait
"""

ENTER_SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local ttl = tonumber(ARGV[4])
local caps = {tonumber(ARGV[2]), tonumber(ARGV[3])}
local names = {'address', 'table'}
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= caps[i] then return names[i] end
end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now + ttl, ARGV[1])
  redis.call('EXPIRE', KEYS[i], ttl)
end
return false
"""

RENEW_SCRIPT = """
local t = redis.call('TIME')
local until_ = tonumber(t[1]) + tonumber(t[2]) / 1000000 + tonumber(ARGV[1])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], until_, ARGV[i + 1])
  redis.call('EXPIRE', KEYS[i], tonumber(ARGV[1]))
end
return #KEYS
"""


LIVE_KEY = "eterna:live"  # the games in play, each scored by the expiry of its last mark
MARK_SCRIPT = """
local t = redis.call('TIME')
local until_ = tonumber(t[1]) + tonumber(t[2]) / 1000000 + tonumber(ARGV[1])
for i = 2, #ARGV do
  redis.call('ZADD', KEYS[1], until_, ARGV[i])
end
return #ARGV - 1
"""
COUNT_SCRIPT = """
local t = redis.call('TIME')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(t[1]) + tonumber(t[2]) / 1000000)
return redis.call('ZCARD', KEYS[1])
"""


def _number(answer: Any) -> float | None:
    return None if answer is None else float(answer)


class SharedLimits:
    """A cluster node's end of the shared counts (see the module's doc)."""

    def __init__(self, redis: Any, node: str, up: Callable[[], bool]) -> None:
        self.redis = redis
        self.up = up
        self.prefix = f"{node}:{secrets.token_hex(4)}"  # this process's connections

    @property
    def available(self) -> bool:
        """Redis answers (else every node counts alone)."""
        return self.up()

    async def take(self, kind: str, address: str, limit: int, window: float) -> float | None:
        """A sliding window of `limit` per `window` seconds for `address`: None when within
        it (and counted), else the seconds until it has room."""
        member = f"{self.prefix}:{secrets.token_hex(6)}"
        key = f"eterna:quota:{kind}:{address}"
        return _number(await self.redis.eval(WINDOW_SCRIPT, 1, key, limit, window, member))

    async def bucket(self, kind: str, address: str, rate: float, burst: float) -> float | None:
        """A token bucket of `rate` a second, bursts of `burst`, for `address`: None when a
        token was taken, else the seconds until there is one."""
        key = f"eterna:rate:{kind}:{address}"
        return _number(await self.redis.eval(BUCKET_SCRIPT, 1, key, rate, burst))

    async def mark_live(self, table_ids: Iterable[str]) -> None:
        """These games are in play (`LiveTable.in_play`) for another `CONNECTIONS_TTL` seconds:
        every node marks its own every `CONNECTIONS_RENEW` seconds, and a new one at once."""
        ids = list(table_ids)
        for start in range(0, len(ids), 1000):
            part = ids[start : start + 1000]
            await self.redis.eval(MARK_SCRIPT, 1, LIVE_KEY, CONNECTIONS_TTL, *part)

    async def unmark_live(self, table_ids: Iterable[str]) -> None:
        """These games are over."""
        ids = list(table_ids)
        if ids:
            await self.redis.zrem(LIVE_KEY, *ids)

    async def count_live(self) -> int:
        """The games in play on every node (the live-table cap)."""
        return int(await self.redis.eval(COUNT_SCRIPT, 1, LIVE_KEY))

    def member(self, ticket: int) -> str:
        return f"{self.prefix}:{ticket}"

    @staticmethod
    def _keys(address: str, table_id: str) -> list[str]:
        return [f"eterna:conns:address:{address}", f"eterna:conns:table:{table_id}"]

    async def enter(
        self, ticket: int, address: str, table_id: str, per_address: int, per_table: int
    ) -> str | None:
        """Count an open connection against both caps: None when admitted, else the cap it
        would pass ("address" or "table")."""
        keys = self._keys(address, table_id)
        args = (self.member(ticket), per_address, per_table, CONNECTIONS_TTL)
        full = await self.redis.eval(ENTER_SCRIPT, 2, *keys, *args)
        return None if full is None else full.decode() if isinstance(full, bytes) else str(full)

    async def leave(self, ticket: int, address: str, table_id: str) -> None:
        member = self.member(ticket)
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in self._keys(address, table_id):
                pipe.zrem(key, member)
            await pipe.execute()

    async def renew(self, open_connections: Iterable[tuple[int, str, str]]) -> None:
        """Renew this node's open connections (ticket, address, table): counted for another
        `CONNECTIONS_TTL` seconds; added again after Redis lost them (it restarted)."""
        keys: list[str] = []
        members: list[str] = []
        for ticket, address, table_id in open_connections:
            for key in self._keys(address, table_id):
                keys.append(key)
                members.append(self.member(ticket))
        for start in range(0, len(keys), 1000):  # a script's keys, in slices
            part = keys[start : start + 1000]
            await self.redis.eval(
                RENEW_SCRIPT, len(part), *part, CONNECTIONS_TTL, *members[start : start + 1000]
            )


__all__ = ["CONNECTIONS_RENEW", "CONNECTIONS_TTL", "SharedLimits"]
