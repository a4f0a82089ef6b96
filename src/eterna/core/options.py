"""Declared game options: one source of truth for names, defaults, allowed values and docs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eterna.core.errors import BadSetup


@dataclass(frozen=True)
class Option:
    """One documented game option.

    `choices` lists the allowed values when the option is an enumeration; `kind` is the
    Python type a value must have otherwise (bool values are never accepted for int options).
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] = ()
    kind: type | None = None
    minimum: int | None = None
    maximum: int | None = None

    def check(self, value: Any) -> Any:
        if self.choices:
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise BadSetup(f"option {self.name!r} must be one of {allowed}, not {value!r}")
            return value
        kind = self.kind if self.kind is not None else type(self.default)
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadSetup(f"option {self.name!r} must be an integer, not {value!r}")
        if not isinstance(value, kind):
            raise BadSetup(f"option {self.name!r} must be a {kind.__name__}, not {value!r}")
        if self.minimum is not None and isinstance(value, int) and value < self.minimum:
            raise BadSetup(f"option {self.name!r} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and isinstance(value, int) and value > self.maximum:
            raise BadSetup(f"option {self.name!r} must be at most {self.maximum}, not {value!r}")
        return value


def resolve_options(
    declared: Mapping[str, Option], given: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Defaults overlaid with `given`; unknown names and bad values raise BadSetup."""
    if given is None:
        given = {}
    if not isinstance(given, Mapping) or not all(isinstance(k, str) for k in given):
        raise BadSetup(f"options must be an object of option names to values, not {given!r}")
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise BadSetup(f"unknown option(s) {', '.join(unknown)}; this game's options: {known}")
    return {
        name: opt.check(given[name]) if name in given else opt.default
        for name, opt in declared.items()
    }
