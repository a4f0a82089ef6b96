"""Position readers against random legal games and random mutations, for all three games
(issue 34; docs/positions.md "What a reader refuses"):

- a whole position written at a random moment of a random legal game always loads, and the
  loaded state writes the same position again;
- the same position mutated at random (a number moved by one, a text or list entry replaced by
  another value of the position, an entry dropped, duplicated or two swapped) is either refused
  with a BadPosition, or loads to a state whose own position is the mutated one (up to the order
  of the lists that are sets, e.g. a hand, and zero counts left out), which loads again to
  itself with the same legal moves and plays on. Never another exception, never a half-read
  state: nothing of the mutation is silently dropped.

Example counts stay modest (CI runs every test); a failing example prints its seed and path.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_

import eterna
from eterna.core.errors import BadPosition
from eterna.core.position import ENVELOPE

GAMES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "vale": [
        (2, {}),
        (3, {"expansions": ["artifacts"]}),
        (2, {"expansions": ["artifacts"], "artifact_set": "creatures"}),
        (4, {"expansions": ["artifacts"], "artifact_set": "advanced"}),
    ],
    "eternitium": [(2, {}), (3, {}), (1, {"mission": 3})],
    "eternity": [(3, {}), (4, {}), (5, {})],
}
# The lists whose order carries nothing (sets of cards, families or tiles), by the key above them.
SETS: dict[str, set[str]] = {
    "vale": {"glade", "hands", "hidden", "shelters", "shelters_hidden", "revealed", "resolved"},
    "eternitium": {"hands"},
    "eternity": {"hands", "board", "voids", "display"},
}
SEEDS = st_.integers(min_value=0, max_value=2**40)
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def random_moment(game_id: str, table: int, seed: int) -> Any:
    """A state a random legal game reaches after a random number of moves."""
    players, options = GAMES[game_id][table % len(GAMES[game_id])]
    game = eterna.load_game(game_id)
    rng = random.Random(seed)
    state = game.new_game(players, seed=seed, options=options)
    for _ in range(rng.randrange(0, 250)):
        if state.is_terminal:
            break
        moves = state.legal_actions()
        state.apply(moves[rng.randrange(len(moves))])
    return state


def through_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place of a JSON value (the envelope's own keys left out)."""
    out = [at] if at else []
    if isinstance(value, dict):
        for k, v in value.items():
            if not at and k in ENVELOPE:
                continue
            out += paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*at, i))
    return out


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in leaves(v)]
    return [value]


def mutate(position: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """One random change, and what it was."""
    out = copy.deepcopy(position)
    where = rng.choice(paths(out))
    parent = out
    for k in where[:-1]:
        parent = parent[k]
    key = where[-1]
    old = parent[key]
    pool = [x for x in leaves(position) if x != old] or [0]
    kind = rng.randrange(5)
    if isinstance(old, bool):
        parent[key] = not old
    elif isinstance(old, int) and kind < 3:
        parent[key] = old + rng.choice((-1, 1))
    elif isinstance(old, list) and old and kind < 4:
        i = rng.randrange(len(old))
        if kind == 0:
            del old[i]
        elif kind == 1:
            old.insert(i, old[i])
        elif kind == 2 and len(old) > 1:
            j = rng.randrange(len(old))
            old[i], old[j] = old[j], old[i]
        else:
            old[i] = rng.choice(pool)
    elif isinstance(parent, list) and kind == 4:
        del parent[key]
    else:
        parent[key] = rng.choice(pool)
    return out, f"{'.'.join(map(str, where))}: {old!r} -> kind {kind}"


def canonical(value: Any, sets: set[str], at: tuple[Any, ...] = ()) -> Any:
    """`value` with zero counts left out and the set-like lists sorted."""
    if isinstance(value, dict):
        return {
            k: canonical(v, sets, (*at, k))
            for k, v in value.items()
            if not (type(v) is int and v == 0 and at)
        }
    if isinstance(value, list):
        items = [canonical(v, sets, at) for v in value]
        if sets & set(map(str, at)) and all(isinstance(v, str) for v in items):
            return sorted(items)
        return items
    return value


def plays_on(state: Any, rng: random.Random, moves: int = 5) -> None:
    for _ in range(moves):
        if state.is_terminal:
            return
        legal = state.legal_actions()
        assert legal, "a live state with no legal move"
        state.apply(legal[rng.randrange(len(legal))])


def check_loaded(game: Any, loaded: Any, rng: random.Random, where: str) -> None:
    """A loaded state is whole: its own position loads to itself, with the same moves."""
    again = through_json(loaded.to_position())
    reloaded = game.from_position(again)
    assert through_json(reloaded.to_position()) == again, where
    assert [str(a) for a in reloaded.legal_actions()] == [str(a) for a in loaded.legal_actions()]
    plays_on(loaded, rng)


def over_games(test: Any) -> Any:
    """A property over every game, its tables and seeds (Hypothesis draws seed and table)."""
    drawn = given(seed=SEEDS, table=st_.integers(0, 3))(test)
    return pytest.mark.parametrize("game_id", sorted(GAMES))(SETTINGS(drawn))


def moment(game_id: str, seed: int, table: int) -> tuple[Any, Any, dict[str, Any]]:
    """A random moment's state, its game and its whole position (through JSON)."""
    state = random_moment(game_id, table, seed)
    return state, state.game, through_json(state.to_position())


@over_games
def test_positions_of_random_games_always_load(game_id: str, seed: int, table: int) -> None:
    state, game, position = moment(game_id, seed, table)
    loaded = game.from_position(position)
    assert through_json(loaded.to_position()) == position
    for seat in range(state.players):
        game.from_position(through_json(state.to_position(seat)))


@over_games
def test_mutated_positions_are_refused_or_load_whole(game_id: str, seed: int, table: int) -> None:
    _, game, position = moment(game_id, seed, table)
    rng = random.Random(seed)
    for _ in range(6):
        mutated, what = mutate(position, rng)
        try:
            loaded = game.from_position(through_json(mutated))
        except BadPosition:
            continue
        where = f"{game_id} seed {seed}: {what}"
        sets = SETS[game_id]
        written = canonical(through_json(loaded.to_position()), sets)
        assert written == canonical(through_json(mutated), sets), where
        check_loaded(game, loaded, rng, where)
