"""DESIGN.md's game contract, checked on every registered game, plus the agent registry.

Each game is driven only through the contract (`load_game`, `new_game`, `legal_actions`, `apply`,
`view`, `clone`, `to_record`, `from_record`, `determinize`), with seeded random play, so a new
game registered in `eterna.games` is checked here without any change to this file.
"""

from __future__ import annotations

import ast
import json
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import eterna
from eterna.agents import make_agent, parse_spec
from eterna.core.rng import RECORD_VERSION

GAME_IDS = eterna.game_ids()
SRC = Path(__file__).resolve().parents[2] / "src" / "eterna"
MAX_STEPS = 5000  # a random game of any registered game must end well within this


def player_counts(game_id: str) -> list[int]:
    game = load(game_id)
    return sorted({game.min_players, game.max_players})


# Games played with options that change what the contract covers: a case id names the game
# and its options (the Vale with its Artifacts expansion, at every player count)
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "vale+artifacts": ("vale", {"expansions": ["artifacts"]}),
    "vale+artifacts-advanced": ("vale", {"expansions": ["artifacts"], "artifact_set": "advanced"}),
}


class Variant:
    """A registered game whose new games start from `options` (the same contract)."""

    def __init__(self, game: Any, options: dict[str, Any]) -> None:
        self._game = game
        self._options = options

    def new_game(self, players: int, seed: int | None = None, options: Any = None, **more: Any):
        return self._game.new_game(
            players=players, seed=seed, options={**self._options, **(options or {})}, **more
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def load(case: str) -> Any:
    """The game of a case id: a registered game, or a VARIANTS entry."""
    if case in VARIANTS:
        game_id, options = VARIANTS[case]
        return Variant(eterna.load_game(game_id), options)
    return eterna.load_game(case)


CASES = [(g, n) for g in GAME_IDS for n in player_counts(g)]
if "vale" in GAME_IDS:
    CASES += [("vale+artifacts", n) for n in (2, 3, 4)] + [("vale+artifacts-advanced", 3)]
CASE_IDS = [f"{g}-{n}p" for g, n in CASES]


def snapshot(state: Any) -> str:
    """Everything a client could observe, as one JSON text (also proves JSON-serialisable)."""
    return json.dumps(
        {
            "views": [state.view(None)] + [state.view(s) for s in range(state.players)],
            "record": state.to_record(),
            "legal": [str(a) for a in state.legal_actions()],
            "current": state.current_player,
            "terminal": state.is_terminal,
            "scores": state.scores,
            "winners": state.winners,
        },
        sort_keys=True,
    )


def walk(game_id: str, players: int, seed: int) -> Iterator[Any]:
    """The states of one seeded random game, from the start to the end (the same object)."""
    state = load(game_id).new_game(players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        yield state
        if state.is_terminal:
            return
        state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"{game_id}: a random game did not end in {MAX_STEPS} decisions")


# ------------------------------------------------------------------------------ registry
def test_game_ids_sorted_and_loadable() -> None:
    """eterna.game_ids() lists the registered games, sorted; load_game gives each."""
    ids = eterna.game_ids()
    assert ids == sorted(ids) and "eternity" in ids and set(GAME_IDS) <= set(ids)
    assert all(isinstance(game_id, str) for game_id in ids)
    for game_id in GAME_IDS:
        game = eterna.load_game(game_id)
        assert game.id == game_id and isinstance(game, eterna.Game)
        assert eterna.load_game(game_id) is game


@pytest.mark.parametrize("name", ["chess", "", "Eternity", "eternity "])
def test_unknown_game_raises_eterna_error(name: str) -> None:
    """An unknown game id raises EternaError naming the known games."""
    with pytest.raises(eterna.EternaError) as caught:
        eterna.load_game(name)
    assert "eternity" in str(caught.value)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_players_range_and_options(game_id: str) -> None:
    """min/max players are ints; options is name -> default, JSON-ready; counts outside the
    range raise BadSetup."""
    game = load(game_id)
    assert isinstance(game.min_players, int) and isinstance(game.max_players, int)
    assert 1 <= game.min_players <= game.max_players
    assert isinstance(game.options, dict)
    assert json.loads(json.dumps(game.options)) == game.options
    for players in range(game.min_players, game.max_players + 1):
        state = game.new_game(players=players, seed=1, options={}, setup=None)
        assert state.players == players
        assert len(state.scores) == players and state.winners == []
        assert not state.is_terminal and state.current_player in range(players)
        assert state.to_record()["options"] == game.options
    for players in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(eterna.BadSetup):
            game.new_game(players=players, seed=1)
    with pytest.raises(eterna.BadSetup):
        game.new_game(players=game.min_players, seed=1, options={"no_such_option": 1})


# ------------------------------------------------------------------------------ play loop
@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_random_games_keep_the_contract(game_id: str, players: int) -> None:
    """Along whole random games: current_player is None exactly when terminal; legal_actions
    is deterministic, non-empty until the end, of hashable actions with string notation;
    apply returns None; scores/winners are well formed; views are JSON-serialisable."""
    game = load(game_id)
    for seed in (0, 1):
        state = game.new_game(players=players, seed=seed)
        rng = random.Random(seed)
        for step in range(MAX_STEPS):
            assert state.is_terminal is (state.current_player is None)
            legal = state.legal_actions()
            assert [str(a) for a in legal] == [str(a) for a in state.legal_actions()]
            assert len(set(legal)) == len(legal) == len({str(a) for a in legal})
            assert all(str(a) and str(a) == str(a).strip() for a in legal)
            scores = state.scores
            assert len(scores) == players and all(isinstance(x, int) for x in scores)
            if step % 5 == 0 or state.is_terminal:
                json.dumps([state.view(s) for s in (None, *range(players))])
            if state.is_terminal:
                break
            assert legal and state.current_player in range(players)
            assert state.winners == []
            assert state.apply(rng.choice(legal)) is None
        assert state.is_terminal, f"a random game did not end in {MAX_STEPS} decisions"
        assert state.legal_actions() == []
        assert all(w in range(players) for w in state.winners)
        assert state.winners == sorted(set(state.winners))


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_random_playout_plays_the_contract_loop(game_id: str, players: int) -> None:
    """`random_playout(draw, limit)` (the loop of random rollouts, which an engine may write
    its own way) plays `legal_actions()[int(draw() * len(...))]` until the end or `limit` moves,
    drawing one float a move, and says how many it played: the same moves as the loop written
    here, from every 17th position of a random game, with and without a limit."""
    for position, state in enumerate(walk(game_id, players, 5)):
        if position % 17 or state.is_terminal:
            continue
        for limit in (-1, 0, 1, 9):
            fast, slow = state.clone(), state.clone()
            draws, twin = random.Random(position), random.Random(position)
            played = fast.random_playout(draws.random, limit)
            moves = 0
            while moves != limit and not slow.is_terminal:
                legal = slow.legal_actions()
                slow.apply(legal[int(twin.random() * len(legal))])
                moves += 1
            assert played == moves
            assert fast.to_record()["actions"] == slow.to_record()["actions"]
            assert draws.getstate() == twin.getstate()
            assert fast.is_terminal if limit == -1 else moves <= limit


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_notation_round_trips_through_apply(game_id: str, players: int) -> None:
    """str(action) is its notation: applying the text does exactly what the object does;
    actions survive pickling (e.g. to a worker process)."""
    game = load(game_id)
    for step, state in enumerate(walk(game_id, players, 2)):
        if state.is_terminal or step % 9:
            continue
        for action in state.legal_actions():
            by_object, by_text = state.clone(), state.clone()
            by_object.apply(action)
            by_text.apply(str(action))
            assert snapshot(by_text) == snapshot(by_object)
            assert str(game.parse_action(str(action))) == str(action)
            copy = pickle.loads(pickle.dumps(action))
            assert copy == action and hash(copy) == hash(action)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_same_seed_same_game(game_id: str, players: int) -> None:
    """Two games from the same seed, given the same choices, offer the same legal lists and
    the same views at every step (what seeded agents rely on to replay)."""
    game = load(game_id)
    one = game.new_game(players=players, seed=3)
    two = game.new_game(players=players, seed=3)
    rng = random.Random(3)
    for _ in range(MAX_STEPS):
        legal_one, legal_two = one.legal_actions(), two.legal_actions()
        assert [str(a) for a in legal_one] == [str(a) for a in legal_two]
        assert one.view(None) == two.view(None)
        if one.is_terminal:
            break
        index = rng.randrange(len(legal_one))
        one.apply(legal_one[index])
        two.apply(legal_two[index])
    assert one.is_terminal and two.is_terminal
    assert snapshot(one) == snapshot(two)


# ------------------------------------------------------------------ clone, records, search
def sample_states(game_id: str, players: int, seed: int, every: int) -> list[Any]:
    """Clones of one random game's states every `every` decisions, and its last state."""
    out = []
    for step, state in enumerate(walk(game_id, players, seed)):
        if step % every == 0 or state.is_terminal:
            out.append(state.clone())
    return out


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_clone_is_independent(game_id: str, players: int) -> None:
    """Playing on a clone leaves the original unchanged, and the other way round."""
    for state in sample_states(game_id, players, 4, 23):
        if state.is_terminal:
            continue
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        rng = random.Random(0)
        while not twin.is_terminal:
            twin.apply(rng.choice(twin.legal_actions()))
        assert snapshot(state) == before
        twin = state.clone()
        twin_before = snapshot(twin)
        state.apply(state.legal_actions()[0])
        assert snapshot(twin) == twin_before


def poison(value: Any) -> None:
    """Add an entry to every list and dict inside `value`, in place."""
    if isinstance(value, dict):
        for item in list(value.values()):
            poison(item)
        value["__poison__"] = 1
    elif isinstance(value, list):
        for item in list(value):
            poison(item)
        value.append("__poison__")


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_views_and_records_are_copies(game_id: str, players: int) -> None:
    """A client or agent that edits a view, a record or a legal list it was given changes
    nothing in the game (views are snapshots, not windows onto the state)."""
    for state in sample_states(game_id, players, 7, 13):
        before = snapshot(state)
        for seat in (None, *range(players)):
            poison(state.view(seat))
        poison(state.to_record())
        poison(state.scores)
        poison(state.winners)
        poison(state.legal_actions())
        assert snapshot(state) == before


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_record_round_trip(game_id: str, players: int) -> None:
    """to_record holds the seven documented keys (version 2 on), survives JSON, and from_record
    (or eterna.replay) rebuilds a state with every view equal."""
    game = load(game_id)
    for state in sample_states(game_id, players, 5, 31):
        record = state.to_record()
        assert set(record) == {"game", "version", "players", "seed", "options", "setup", "actions"}
        assert record["version"] == RECORD_VERSION
        assert record["game"] == game.id and record["players"] == players
        assert all(isinstance(a, str) for a in record["actions"])
        record = json.loads(json.dumps(record))
        assert snapshot(game.from_record(record)) == snapshot(state)
        assert snapshot(eterna.replay(record)) == snapshot(state)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_seed_none_draws_and_records_a_seed(game_id: str, players: int) -> None:
    """seed=None draws a seed, which the record keeps, so the game still replays."""
    game = load(game_id)
    state = game.new_game(players=players, seed=None)
    rng = random.Random(1)
    for _ in range(20):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    record = state.to_record()
    assert isinstance(record["seed"], int)
    assert snapshot(game.from_record(record)) == snapshot(state)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=CASE_IDS)
def test_determinize_keeps_the_seat_view(game_id: str, players: int) -> None:
    """determinize(seat, rng) gives a full state whose view for that seat equals the
    original's, that does not alter the original, and that plays on to an end."""
    for state in sample_states(game_id, players, 6, 17):
        before = snapshot(state)
        for seat in range(players):
            guess = state.determinize(seat, random.Random(seat))
            assert guess.view(seat) == state.view(seat)
            assert guess.current_player == state.current_player
            assert guess.is_terminal == state.is_terminal
            rng = random.Random(seat)
            for _ in range(MAX_STEPS):
                if guess.is_terminal:
                    break
                guess.apply(rng.choice(guess.legal_actions()))
            assert guess.is_terminal
        assert snapshot(state) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_records_raise_bad_record(game_id: str) -> None:
    """A record for another game, malformed, or with a refused action raises BadRecord."""
    game = load(game_id)
    state = game.new_game(players=game.min_players, seed=8)
    good = state.to_record()
    bad = [
        "not a record",
        {**good, "game": "no-such-game"},
        {**good, "actions": "play"},
        {**good, "actions": [7]},
        {**good, "actions": ["no such action at all"]},
        {**good, "players": game.max_players + 1},
    ]
    for record in bad:
        with pytest.raises(eterna.BadRecord):
            game.from_record(record)  # type: ignore[arg-type]
    with pytest.raises(eterna.EternaError):
        eterna.replay({"game": "no-such-game", "actions": []})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bad_input_to_apply(game_id: str) -> None:
    """Malformed notation raises BadNotation, a non-action IllegalAction; neither changes
    the state."""
    state = load(game_id).new_game(players=load(game_id).min_players, seed=9)
    before = snapshot(state)
    with pytest.raises(eterna.BadNotation):
        state.apply("%% not notation %%")
    assert snapshot(state) == before
    for thing in (None, 12, object()):
        with pytest.raises(eterna.IllegalAction):
            state.apply(thing)
        assert snapshot(state) == before


# ---------------------------------------------------------------------------- dependencies
def _imports(path: Path) -> list[str]:
    """Modules a file imports, including string arguments of importlib.import_module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            found += [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("import_module", "__import__")
        ):
            found += [a.value for a in node.args if isinstance(a, ast.Constant)]
    return found


def _names(path: Path) -> list[str]:
    """Identifiers and non-docstring string constants of a file, lower-cased."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                out.append(node.value.lower())
        elif isinstance(node, ast.Name):
            out.append(node.id.lower())
        elif isinstance(node, ast.Attribute):
            out.append(node.attr.lower())
    return out


KNOWN_GAMES = sorted(set(GAME_IDS) | {"eternity", "eternitium", "vale"})


def test_core_imports_no_game() -> None:
    """Dependencies point one way: core never imports (or names) a game, an agent, or any
    layer above it; it reaches games only through the `eterna.games` package registry."""
    files = sorted((SRC / "core").glob("*.py"))
    assert files
    for path in files:
        for module in _imports(path):
            assert not module.startswith(
                ("eterna.games.", "eterna.agents", "eterna.server", "eterna.arena", "eterna.cli")
            ), f"{path.name} imports {module}"
            assert not any(g in module.lower() for g in KNOWN_GAMES), f"{path.name}: {module}"
        for name in _names(path):
            assert not any(g in name for g in KNOWN_GAMES), f"{path.name} names a game: {name!r}"


def test_games_import_only_core_and_themselves() -> None:
    """A game depends on core only, and never imports another game."""
    for package in sorted(p for p in (SRC / "games").iterdir() if (p / "__init__.py").exists()):
        for path in sorted(package.rglob("*.py")):
            for module in _imports(path):
                if module.startswith("eterna.") or module == "eterna":
                    assert module.startswith(("eterna.core", f"eterna.games.{package.name}")), (
                        f"{package.name}/{path.name} imports {module}"
                    )


def test_agents_import_no_specific_game() -> None:
    """Agents depend on core only, never on a specific game."""
    for path in sorted((SRC / "agents").glob("*.py")):
        for module in _imports(path):
            assert not module.startswith("eterna.games"), f"{path.name} imports {module}"


# ---------------------------------------------------------------------------------- agents
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_random_agent_is_deterministic(game_id: str) -> None:
    """make_agent('random', seed) replays the same choices; its choices are legal."""
    game = load(game_id)

    def play(seed: int) -> list[str]:
        players = game.min_players
        agents = [make_agent("random", seed=seed + s) for s in range(players)]
        state = game.new_game(players=players, seed=10)
        for _ in range(MAX_STEPS):
            if state.is_terminal:
                break
            seat = state.current_player
            action = agents[seat].choose(state, seat)
            assert str(action) in {str(a) for a in state.legal_actions()}
            state.apply(action)
        assert state.is_terminal
        actions: list[str] = state.to_record()["actions"]
        return actions

    assert play(1) == play(1)
    assert play(1) != play(100)


def test_agent_refuses_to_move_out_of_turn() -> None:
    """agent.choose(state, seat) requires seat == state.current_player."""
    game = next(eterna.load_game(g) for g in GAME_IDS if eterna.load_game(g).max_players > 1)
    state = game.new_game(players=max(2, game.min_players), seed=1)
    other = (state.current_player + 1) % state.players
    with pytest.raises(eterna.EternaError):
        make_agent("random", seed=1).choose(state, other)


def test_parse_spec_reads_values() -> None:
    """Spec strings: 'name:key=value,...' with ints, floats, bools and text."""
    name, params = parse_spec("ismcts:iterations=2000,rollout=heuristic")
    assert (name, params) == ("ismcts", {"iterations": 2000, "rollout": "heuristic"})
    assert isinstance(params["iterations"], int)
    assert parse_spec("random") == ("random", {})
    assert parse_spec(" x:c=1.5, flag=true,off=False ,n=-3") == (
        "x",
        {"c": 1.5, "flag": True, "off": False, "n": -3},
    )


@pytest.mark.parametrize("spec", ["", "   ", "nope", "nope:a=1", "random:iterations", "random:=3"])
def test_bad_or_unknown_agent_raises_eterna_error(spec: str) -> None:
    """An unknown agent or a malformed spec raises EternaError."""
    with pytest.raises(eterna.EternaError):
        make_agent(spec, seed=1)


def test_agent_with_unknown_parameter_raises_eterna_error() -> None:
    """Parameters the agent does not take raise EternaError, not TypeError."""
    with pytest.raises(eterna.EternaError):
        make_agent("random:bogus=1", seed=1)
