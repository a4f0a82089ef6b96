"""Seat tokens and per-connection rate limits.

A seat token is 24 random bytes (URL-safe base64). The server keeps only its SHA-256: a leaked
database does not let anyone act for a seat, and a token's entropy makes a plain hash (no salt, no
key stretching) enough. Tokens are compared with `hmac.compare_digest` so timing says nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence

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


class AddressLimiter:
    """A token bucket per client address: `rate` a second on average, bursts of `burst`
    (`rate` 0: no limit). `take(address)` is None when allowed, else the seconds to wait."""

    MAX_CLIENTS = 4096  # addresses tracked at once; idle (full) buckets are dropped past it

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.buckets: dict[str, TokenBucket] = {}

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
    """Open WebSockets counted per client address and per table: `enter` says which cap a new
    one would pass (None: admitted, and counted until `leave`)."""

    def __init__(self, per_address: int, per_table: int) -> None:
        self.per_address = per_address
        self.per_table = per_table
        self.addresses: dict[str, int] = {}
        self.tables: dict[str, int] = {}

    def enter(self, address: str, table_id: str) -> str | None:
        if self.addresses.get(address, 0) >= self.per_address:
            return "address"
        if self.tables.get(table_id, 0) >= self.per_table:
            return "table"
        self.addresses[address] = self.addresses.get(address, 0) + 1
        self.tables[table_id] = self.tables.get(table_id, 0) + 1
        return None

    def leave(self, address: str, table_id: str) -> None:
        for counts, key in ((self.addresses, address), (self.tables, table_id)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)
