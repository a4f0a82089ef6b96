"""Each state field is declared once (core/fields.py): its annotation. Every part derived from it
must agree: the written `__slots__` and `clone` (`make fields`), the compiled class's
attributes, `__init__` (it sets every field), the clone's behaviour (what it copies and shares)
and the position I/O (`to_fields`/`from_fields`)."""

from __future__ import annotations

import random

import pytest

import eterna
from eterna.core import fields
from eterna.core.fields import COPY, COPY2, SHARE, Field
from eterna.core.state import BaseState, all_slots


def _state_class(game_id: str) -> type:
    game = eterna.load_game(game_id)
    return type(game.new_game(players=game.min_players, seed=1))


BASE_GAMES = [g for g in eterna.game_ids() if issubclass(_state_class(g), BaseState)]


def declared(cls: type) -> dict[str, Field]:
    """The fields `cls` and its bases declare, by name."""
    where = {name: path for path, name in fields.classes()}
    out: dict[str, Field] = {}
    for klass in reversed(cls.__mro__):
        if klass.__name__ in where:
            out.update((f.name, f) for f in fields.declared(where[klass.__name__], klass.__name__))
    return out


def test_the_written_parts_agree_with_the_declarations() -> None:
    """`__slots__` and `clone` are what `make fields` writes from the declaration, in every
    class that declares fields."""
    assert {name for _, name in fields.classes()} >= {
        "BaseState",
        "EternityState",
        "ValeBoard",
        "ValeState",
        "EternitiumBoard",
    }
    assert fields.stale() == [], "run `make fields`"


def test_a_declared_list_says_how_it_is_cloned() -> None:
    import ast

    with pytest.raises(ValueError, match="says how a clone gets it"):
        fields._declared(ast.parse("class A:\n    x: list[int]\n").body[0], "A")  # type: ignore[arg-type]
    cls = ast.parse("class A:\n    x: Copied2[list[list[int]]]\n    y: int\n").body[0]
    assert fields._declared(cls, "A") == (Field("x", COPY2), Field("y", SHARE))  # type: ignore[arg-type]


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_the_declaration_covers_every_attribute(game_id: str) -> None:
    """The class's attributes (its slots, or the compiled class's) are the declared fields."""
    cls = _state_class(game_id)
    assert declared(cls).keys() == all_slots(cls)


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_init_sets_every_field_and_a_blank_none(game_id: str) -> None:
    cls = _state_class(game_id)
    game = eterna.load_game(game_id)
    state = game.new_game(players=game.min_players, seed=5)
    unset = [name for name in declared(cls) if not hasattr(state, name)]
    assert unset == []
    blank = cls()
    assert [name for name in declared(cls) if hasattr(blank, name)] == []


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_a_clone_copies_what_is_declared_copied(game_id: str) -> None:
    """Copied and Copied2 fields are new containers (Copied2: each inner list too), equal to
    the original's; shared fields are the same object."""
    game = eterna.load_game(game_id)
    rng = random.Random(3)
    state = game.new_game(players=game.min_players, seed=3)
    plan = {name: f.kind for name, f in declared(type(state)).items()}
    for step in range(400):
        if state.is_terminal:
            break
        if step % 25 == 0:
            twin = state.clone()
            for name, kind in plan.items():
                mine, theirs = getattr(state, name), getattr(twin, name)
                assert mine == theirs, name
                if kind == SHARE and not isinstance(mine, int | float):
                    assert theirs is mine, name  # (the compiled build keeps numbers unboxed)
                elif kind in (COPY, COPY2):
                    assert theirs is not mine, name
                if kind == COPY2:
                    assert all(a is not b for a, b in zip(mine, theirs, strict=True)), name
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_fields_out_and_back_make_the_same_game(game_id: str) -> None:
    """`from_fields(to_fields())` holds every field, and plays on exactly as the original."""
    game = eterna.load_game(game_id)
    rng = random.Random(11)
    state = game.new_game(players=game.min_players, seed=11)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    twin = type(state).from_fields(state.start, state.clone().to_fields())  # its own lists
    assert twin.to_fields() == state.to_fields()
    for _ in range(60):
        if state.is_terminal:
            break
        action = rng.choice(state.legal_actions())
        assert twin.legal_actions() == state.legal_actions()
        state.apply(action)
        twin.apply(action)
    assert twin.to_position() == state.to_position()


@pytest.mark.parametrize("game_id", BASE_GAMES)
def test_from_fields_refuses_a_missing_or_unknown_field(game_id: str) -> None:
    game = eterna.load_game(game_id)
    state = game.new_game(players=game.min_players, seed=2)
    given = state.to_fields()
    own = sorted(given.keys() - all_slots(BaseState))
    with pytest.raises(KeyError, match=own[0]):
        type(state).from_fields(state.start, {k: v for k, v in given.items() if k != own[0]})
    with pytest.raises(KeyError, match="_no_such_field"):
        type(state).from_fields(state.start, {**given, "_no_such_field": 1})
