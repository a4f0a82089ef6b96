"""Pickling for the engines' frozen dataclasses.

A compiled (mypyc) dataclass unpickles by setting its fields one by one, which a frozen one
refuses; each frozen dataclass of the engines therefore says how to rebuild it: its class
called with its fields (`__reduce__` returning `reduce_frozen(self)`). The pure path does the
same, so a pickle is the same whichever engines wrote it (docs/compiled.md).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def rebuild(cls: Any, values: dict[str, Any]) -> Any:
    """The frozen dataclass `cls` with `values` (what `reduce_frozen` took)."""
    return cls(**values)


def reduce_frozen(obj: Any) -> tuple[Any, ...]:
    """`__reduce__` for a frozen dataclass: rebuilt from its init fields."""
    values = {f.name: getattr(obj, f.name) for f in fields(obj) if f.init}
    return (rebuild, (type(obj), values))
