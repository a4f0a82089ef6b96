"""What happened: structured events, each field shown only to the seats that may see it.

Applying an action produces events: a stable `kind` (`trick_won`, `summoned`, ...) and named
JSON-plain fields (seats, card ids, amounts). Fields every seat may see are `public`; fields
only some seats may see (the card a player drew) are `private`, shown to the seats in `to`.
A spectator (seat None) sees the public fields only.

Events are not part of a record: a state narrates only once asked (`events_since`), replaying
its own history the first time, so simulations and searches, which never ask, pay nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from eterna.core.frozen import Frozen

if TYPE_CHECKING:
    from eterna.core.jsonvalue import JsonObject, JsonValue


@dataclass(frozen=True, slots=True)
class Event(Frozen):
    kind: str
    public: Mapping[str, JsonValue] = field(default_factory=dict)
    private: Mapping[str, JsonValue] = field(default_factory=dict)
    to: tuple[int, ...] = ()  # the seats that see the private fields

    def for_seat(self, seat: int | None) -> JsonObject:
        """The event as `seat` sees it (None: a spectator), as a JSON-ready dict."""
        out = {"kind": self.kind, **self.public}
        if self.private and seat is not None and seat in self.to:
            out.update(self.private)
        return out

    def hidden_from(self, seat: int | None) -> bool:
        """Whether `seat` misses some of this event's fields."""
        return bool(self.private) and (seat is None or seat not in self.to)
