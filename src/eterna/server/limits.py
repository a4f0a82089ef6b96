"""Limits a web table keeps whatever its clients do: tables per address and time window, options
that would take a game's end away, and the documented idle time after which an abandoned table
ends (docs/web.md, "Quotas, expiry and bounded games")."""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Protocol

from eterna.server.settings import RequestError, Settings

# Options the web table bounds, per game: (lowest, highest). Eternitium's `round_limit` is its
# safety net against endless games (0 would remove it).
OPTION_BOUNDS: dict[tuple[str, str], tuple[int, int]] = {
    ("eternitium", "round_limit"): (1, 100),
}


def check_options(game_id: str, options: dict[str, Any]) -> None:
    """Refuse (422 `unbounded_game`) options that would let a game run without end."""
    for (game, name), (low, high) in OPTION_BOUNDS.items():
        if game != game_id or name not in options:
            continue
        value = options[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RequestError(
                422,
                "unbounded_game",
                f"option {name} must be an integer from {low} to {high} on this server, "
                f"not {value!r}",
            )


class SharedWindow(Protocol):
    """A sliding window counted for every node of a cluster (shared_limits.py)."""

    @property
    def available(self) -> bool:
        """Redis answers (else this node counts alone)."""

    async def take(self, kind: str, address: str, limit: int, window: float) -> float | None:
        """Count one for `address`; None when within `limit`, else seconds to wait."""


class CreateQuota:
    """At most `limit` new tables per client address in any `window` seconds (0: no limit)."""

    MAX_ADDRESSES = 10_000  # addresses tracked at once; past it, the idle ones are forgotten
    what = "new tables"
    code = "quota"  # the 429's error code

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.made: dict[str, deque[float]] = {}
        self.shared: SharedWindow | None = None  # a cluster's count, in Redis (Quotas)

    async def check(self, address: str) -> None:
        """`take`, counted across every node of a cluster when it shares its limits (this
        node alone while Redis cannot be reached)."""
        if self.limit > 0 and self.shared is not None and self.shared.available:
            try:
                wait = await self.shared.take(self.key, address, self.limit, self.window)
            except Exception:
                wait = None
                self.take(address)
            if wait is not None:
                self.refuse(wait)
            return
        self.take(address)

    @property
    def key(self) -> str:
        return type(self).__name__

    def take(self, address: str) -> None:
        """Count one new table for `address`, or raise 429 `quota` if it has made enough."""
        if self.limit <= 0:
            return
        now = time.monotonic()
        times = self.made.get(address)
        if times is None:
            if len(self.made) >= self.MAX_ADDRESSES:
                self._forget(now)
            times = self.made[address] = deque()
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            self.refuse(self.window - (now - times[0]))
        times.append(now)

    def refuse(self, wait: float) -> None:
        raise RequestError(
            429,
            self.code,
            f"at most {self.limit} {self.what} per address every {self.window:g} s; "
            f"retry in {int(wait) + 1} s",
        )

    def _forget(self, now: float) -> None:
        for address in [a for a, t in self.made.items() if not t or now - t[-1] >= self.window]:
            del self.made[address]


class HintQuota(CreateQuota):
    """At most `limit` hints on posted positions per client address in any `window` seconds:
    each costs a search worker up to `hint_seconds`."""

    what = "hints on positions"
    code = "hint_quota"


class InspectQuota(CreateQuota):
    """At most `limit` inspections of posted positions per client address in any `window`
    seconds: each costs the positions lane a load."""

    what = "inspections of positions"


class ShareQuota(CreateQuota):
    """At most `limit` new shared positions per client address in any `window` seconds."""

    what = "shared positions"
    code = "share_quota"


class Quotas:
    """The quotas per client address, one part: new tables (`tables`), hints and inspections
    of posted positions (`hints`, `inspects`) and shared positions (`shares`, with the table
    quota's numbers). A cluster node counts them across the cluster (`shared`)."""

    def __init__(self, settings: Settings, shared: SharedWindow | None = None) -> None:
        self.tables = CreateQuota(settings.tables_per_address, settings.address_window)
        self.hints = HintQuota(settings.position_hints, settings.position_window)
        self.inspects = InspectQuota(settings.position_inspects, settings.position_window)
        self.shares = ShareQuota(settings.tables_per_address, settings.address_window)
        for quota in (self.tables, self.hints, self.inspects, self.shares):
            quota.shared = shared
