"""Seat tokens, rate limits per connection and per address, and caps of open connections.

A seat token is 24 random bytes (URL-safe base64). The server keeps only its SHA-256: a leaked
database does not let anyone act for a seat, and a token's entropy makes a plain hash (no salt, no
key stretching) enough. Tokens are compared with `hmac.compare_digest` so timing says nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import time
from collections.abc import Iterable, Sequence
from typing import Protocol

TOKEN_BYTES = 24
TOKEN_MAX_LENGTH = 64  # anything longer is not one of ours: refused before hashing


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """A short URL-safe id: 12 characters, 72 random bits (ids are public, not secrets)."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def find_seat(token: str, hashes: Sequence[str | None]) -> int | None:
    """The seat whose stored hash matches `token`, or None. Every seat is compared (no early
    exit), each in constant time."""
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    digest = hash_token(token)
    found: int | None = None
    for seat, stored in enumerate(hashes):
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found


class TokenBucket:
    """`rate` frames per second on average, bursts up to `burst`; `take()` says if one may pass.

    `strikes` counts frames refused in a row, so a connection that keeps flooding can be closed.
    """

    __slots__ = ("burst", "rate", "strikes", "tokens", "updated")

    def __init__(self, rate: float = 20.0, burst: float = 20.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.updated = time.monotonic()
        self.strikes = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            self.strikes = 0
            return True
        self.strikes += 1
        return False


class SharedCounts(Protocol):
    """Rates and connection caps counted for every node of a cluster (shared_limits.py)."""

    @property
    def available(self) -> bool: ...

    async def bucket(self, kind: str, address: str, rate: float, burst: float) -> float | None: ...

    async def enter(
        self, ticket: int, address: str, table_id: str, per_address: int, per_table: int
    ) -> str | None: ...

    async def leave(self, ticket: int, address: str, table_id: str) -> None: ...

    async def renew(self, open_connections: Iterable[tuple[int, str, str]]) -> None: ...


class AddressLimiter:
    """A token bucket per client address: `rate` a second on average, bursts of `burst`
    (`rate` 0: no limit). `take(address)` is None when allowed, else the seconds to wait;
    `check(address)` the same, counted across a cluster's nodes when `shared` is set and
    Redis answers (this node alone otherwise). `kind` names the count in Redis."""

    MAX_CLIENTS = 4096  # addresses tracked at once; idle (full) buckets are dropped past it

    def __init__(self, rate: float, burst: float, kind: str = "requests") -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.kind = kind
        self.buckets: dict[str, TokenBucket] = {}
        self.shared: SharedCounts | None = None

    async def check(self, address: str) -> float | None:
        if self.rate <= 0:
            return None
        if self.shared is not None and self.shared.available:
            try:
                wait = await self.shared.bucket(self.kind, address, self.rate, self.burst)
            except Exception:
                return self.take(address)  # Redis just went away: this node alone
            return None if wait is None else max(1.0, wait)
        return self.take(address)

    def take(self, address: str) -> float | None:
        if self.rate <= 0:
            return None
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.MAX_CLIENTS:
                self._forget_idle()
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        if bucket.take():
            return None
        return max(1.0, (1.0 - bucket.tokens) / self.rate)

    def _forget_idle(self) -> None:
        now = time.monotonic()
        full = self.burst / self.rate
        for address in [a for a, b in self.buckets.items() if now - b.updated >= full]:
            del self.buckets[address]
        if len(self.buckets) >= self.MAX_CLIENTS:  # all busy: forget the longest idle half
            by_age = sorted(self.buckets, key=lambda a: self.buckets[a].updated)
            for address in by_age[: len(by_age) // 2]:
                del self.buckets[address]


class ConnectionCaps:
    """Open WebSockets counted per client address and per table: `admit` says which cap a new
    one would pass (None: admitted, and counted until `leave` with the ticket it gave). With
    `shared` set (a cluster node), the caps hold across the cluster while Redis answers, and
    this node renews its open connections there (`renew`); it always counts its own too, to
    count alone while Redis is away."""

    def __init__(self, per_address: int, per_table: int) -> None:
        self.per_address = per_address
        self.per_table = per_table
        self.addresses: dict[str, int] = {}
        self.tables: dict[str, int] = {}
        self.open: dict[int, tuple[str, str]] = {}  # ticket: (address, table id)
        self.tickets = 0
        self.shared: SharedCounts | None = None

    def _full(self, address: str, table_id: str) -> str | None:
        if self.addresses.get(address, 0) >= self.per_address:
            return "address"
        if self.tables.get(table_id, 0) >= self.per_table:
            return "table"
        return None

    async def admit(self, address: str, table_id: str) -> tuple[str | None, int]:
        """(the cap passed, or None and the connection's ticket)."""
        self.tickets += 1
        ticket = self.tickets
        shared = self.shared
        if shared is not None and shared.available:
            try:
                full = await shared.enter(
                    ticket, address, table_id, self.per_address, self.per_table
                )
            except Exception:
                full = self._full(address, table_id)  # Redis just went away: this node alone
        else:
            full = self._full(address, table_id)
        if full is not None:
            return full, 0
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.tables[table_id] = self.tables.get(table_id, 0) + 1
        self.open[ticket] = (address, table_id)
        return None, ticket

    async def leave(self, ticket: int) -> None:
        address, table_id = self.open.pop(ticket)
        for counts, key in ((self.addresses, address), (self.tables, table_id)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)
        if self.shared is not None and self.shared.available:
            with contextlib.suppress(Exception):  # else it expires with its last renewal
                await self.shared.leave(ticket, address, table_id)

    async def renew(self) -> None:
        """Keep this node's open connections counted across the cluster (Redis answering)."""
        if self.shared is not None and self.shared.available:
            await self.shared.renew([(t, a, k) for t, (a, k) in self.open.items()])
