"""Declared game options: one source of truth for names, defaults, allowed values and docs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

from eterna.core.errors import BadSetup
from eterna.core.frozen import Frozen
from eterna.core.jsonvalue import JsonValue

# A game option's value, as JSON carries it: a flag, a number or a word, a list of words (an
# `items` option, e.g. the Vale's expansions) or an object whose entries the game checks itself
# (Eternitium's composition: counts by card name).
OptionValue = bool | int | str | list[str] | dict[str, JsonValue]


@dataclass(frozen=True)
class Option(Frozen):
    """One documented game option.

    `choices` lists the allowed values when the option is an enumeration; `items` makes it a
    list of distinct values taken from `items` (given as a list, or as text with commas: the
    CLI's `-o expansions=artifacts`; resolved to a list in `items`' order); `kind` is the
    Python type a value must have otherwise (bool values are never accepted for int options).
    """

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] = ()
    kind: type | None = None
    minimum: int | None = None
    maximum: int | None = None
    items: tuple[str, ...] = ()

    def check(self, value: object) -> OptionValue:
        if self.items:
            return self._check_items(value)
        if self.choices:
            if value not in self.choices:
                allowed = ", ".join(repr(c) for c in self.choices)
                raise BadSetup(f"option {self.name!r} must be one of {allowed}, not {value!r}")
            return cast(OptionValue, value)
        kind = self.kind if self.kind is not None else type(self.default)
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadSetup(f"option {self.name!r} must be an integer, not {value!r}")
        if not isinstance(value, kind):
            raise BadSetup(f"option {self.name!r} must be a {kind.__name__}, not {value!r}")
        if self.minimum is not None and isinstance(value, int) and value < self.minimum:
            raise BadSetup(f"option {self.name!r} must be at least {self.minimum}, not {value!r}")
        if self.maximum is not None and isinstance(value, int) and value > self.maximum:
            raise BadSetup(f"option {self.name!r} must be at most {self.maximum}, not {value!r}")
        return cast(OptionValue, value)  # one of the choices, or of the option's own kind

    def _check_items(self, value: object) -> list[str]:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        allowed = ", ".join(repr(c) for c in self.items)
        if not isinstance(value, (list, tuple)):
            raise BadSetup(f"option {self.name!r} must be a list of {allowed}, not {value!r}")
        for v in value:
            if v not in self.items:
                raise BadSetup(f"option {self.name!r} takes values among {allowed}, not {v!r}")
        if len(set(value)) != len(value):
            raise BadSetup(f"option {self.name!r} names a value twice: {value!r}")
        return [v for v in self.items if v in value]


def resolve_options(declared: Mapping[str, Option], given: object) -> dict[str, OptionValue]:
    """Defaults overlaid with `given`; unknown names and bad values raise BadSetup."""
    if given is None or (type(given) is dict and not given):  # every game of a simulation
        return {name: opt.default for name, opt in declared.items()}
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


# Typed reads of resolved options (`resolve_options` checked every value against its
# declaration): the value as its declaration's type, TypeError if it is not (a caller's bug,
# e.g. options that were never resolved). A comparison (`options[name] == "any"`) needs none.
def option_flag(options: Mapping[str, OptionValue], name: str) -> bool:
    value = options[name]
    if not isinstance(value, bool):
        raise _not_a(name, value, "true or false")
    return value


def option_number(options: Mapping[str, OptionValue], name: str) -> int:
    value = options[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _not_a(name, value, "an integer")
    return value


def option_word(options: Mapping[str, OptionValue], name: str) -> str:
    value = options[name]
    if not isinstance(value, str):
        raise _not_a(name, value, "a string")
    return value


def option_words(options: Mapping[str, OptionValue], name: str) -> list[str]:
    value = options[name]
    if not isinstance(value, list):
        raise _not_a(name, value, "a list")
    return value


def option_object(options: Mapping[str, OptionValue], name: str) -> dict[str, JsonValue]:
    value = options[name]
    if not isinstance(value, dict):
        raise _not_a(name, value, "an object")
    return value


def _not_a(name: str, value: object, kind: str) -> TypeError:
    return TypeError(f"option {name!r} is {value!r}, not {kind}: were the options resolved?")
