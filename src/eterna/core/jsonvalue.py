"""JSON as the engines write it and pass it on (records, positions, events, setups, options).

Nested containers are read-only (`Sequence`, `Mapping`): a `list[int]` or a tuple fits where
JSON is expected, and `json.dumps` writes either as a list. A reader narrows with `isinstance`,
as it must for input anyway. On the compiled build these types are not checked at run time
(mypyc checks no `Sequence` or `Mapping`, so neither a union holding them): they are
annotations only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

JsonValue = None | bool | int | float | str | Sequence["JsonValue"] | Mapping[str, "JsonValue"]
JsonObject = dict[str, JsonValue]  # one JSON object, written here (its keys may be added to)
