"""Every frozen dataclass of the engines pickles and copies, on both builds.

A compiled frozen dataclass refuses the field-by-field restore that pickle and copy use by
default; `Frozen` (core/frozen.py) rebuilds it instead. This test finds every subclass of
`Frozen` in the compiled modules, takes an instance of each from the games' own tables and
from started games, and round-trips it through pickle, copy and deepcopy: a new frozen
dataclass that forgets the base fails here (`make test` runs it compiled, `make pure` pure).
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import sys
from collections.abc import Iterator
from typing import Any

import eterna
from eterna import engines
from eterna.core.frozen import Frozen
from eterna.core.state import GameStart, all_slots
from eterna.games.vale.effects import Step


def _frozen_classes() -> set[type]:
    for name in engines.COMPILED:
        importlib.import_module(f"eterna.{name}")
    found: set[type] = set()
    todo = [Frozen]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            # `slots=True` replaces the class it decorates: keep the one the module holds
            if getattr(sys.modules[cls.__module__], cls.__name__, None) is cls:
                found.add(cls)
    return found


def _reachable(value: Any, depth: int) -> Iterator[Any]:
    if isinstance(value, Frozen | Step):
        yield value
    if isinstance(value, Frozen):
        value = [getattr(value, f.name) for f in dataclasses.fields(value)]  # type: ignore[arg-type]
    if depth == 0:
        return
    if isinstance(value, Step):  # a Vale effect's step (its options, say)
        value = [getattr(value, name, None) for name in sorted(all_slots(type(value)))]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _reachable(item, depth - 1)


def _instances() -> dict[type, Any]:
    roots: list[Any] = [vars(m) for n, m in list(sys.modules.items()) if n.startswith("eterna.")]
    for game_id, players, options, setup in [
        ("eternity", 4, {}, None),
        ("eternitium", 2, {}, None),
        ("vale", 2, {}, None),
        ("vale", 2, {"expansions": ["artifacts"]}, {"bought_areas": [0, 1]}),
    ]:
        state = eterna.load_game(game_id).new_game(players, seed=3, options=options, setup=setup)
        for _ in range(6):
            state.apply(state.legal_actions()[0])
        roots += [state.start, state.events_since(0, None) and state._events, state.game]
        roots.append(dict(state.game.declared_options))
    roots.append(GameStart(game=eterna.load_game("vale"), players=2, seed=1))
    found: dict[type, Any] = {}
    for root in roots:
        for value in _reachable(root, 5):
            found.setdefault(type(value), value)
    return found


def test_every_frozen_dataclass_round_trips() -> None:
    classes = _frozen_classes()
    instances = _instances()
    assert classes, "no frozen dataclass found"
    missing = sorted(c.__qualname__ for c in classes if c not in instances)
    assert not missing, f"no instance found of {missing}"
    for cls in classes:
        value = instances[cls]
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        copied = copy.copy(value)  # the restore a compiled frozen dataclass refuses
        assert type(copied) is cls and all(
            getattr(copied, f.name) == getattr(value, f.name) for f in dataclasses.fields(value)
        ), cls.__qualname__
        if any(isinstance(v, Step) for v in _reachable(value, 5)):
            continue  # a Vale effect's steps are never pickled (a state pickles as its position)
        for copied in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            # the same fields by value (a deep copy has its own game and deals objects)
            assert type(copied) is cls, cls.__qualname__
            assert pickle.dumps(copied) == pickle.dumps(value), cls.__qualname__


def test_every_frozen_dataclass_of_the_compiled_modules_is_frozen_based() -> None:
    """Checked on the pure build too, where pickle would work without the base."""
    _frozen_classes()  # imports them
    plain = sorted(
        f"{name}.{cls.__name__}"
        for name in engines.COMPILED
        for cls in vars(sys.modules[f"eterna.{name}"]).values()
        if isinstance(cls, type)
        and cls.__module__ == f"eterna.{name}"
        and dataclasses.is_dataclass(cls)
        and cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        and not issubclass(cls, Frozen)
    )
    assert not plain, f"frozen dataclasses without core.frozen.Frozen: {plain}"
