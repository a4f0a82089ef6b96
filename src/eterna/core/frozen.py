"""Pickling for the engines' frozen dataclasses.

A compiled (mypyc) dataclass unpickles (and copies) by setting its fields one by one, which a
frozen one refuses (FrozenInstanceError). The engines' frozen dataclasses therefore derive from
`Frozen`, whose `__reduce__` rebuilds them instead: the class called with its fields. The pure
path does the same, so a pickle is the same whichever engines wrote it (docs/compiled.md);
tests/core/test_frozen.py round-trips every one of them through pickle and copy.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

F = TypeVar("F", bound="Frozen")


def rebuild(cls: type[F], values: dict[str, object]) -> F:
    """The frozen dataclass `cls` with `values` (what `Frozen.__reduce__` took)."""
    return cls(**values)


class Frozen:
    """The base of a frozen dataclass of the engines: pickled and copied by rebuilding."""

    __slots__ = ()

    def __reduce__(self) -> tuple[object, ...]:
        data: Any = self  # a dataclass: every subclass is one, which mypy cannot know here
        return (
            rebuild,
            (type(self), {f.name: getattr(self, f.name) for f in fields(data) if f.init}),
        )
