"""A single-agent Gymnasium environment: one seat against Eterna agents.

    import gymnasium, eterna.adapters.gymnasium       # registers the eterna/... ids
    env = gymnasium.make("eterna/Vale-v0", opponents="heuristic")
    obs, info = env.reset(seed=7)
    while True:
        mask = env.unwrapped.action_masks()         # bool[action_space.n], for maskable RL
        action = env.action_space.sample(mask.astype("int8"))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Registered ids (on import of this module; `gymnasium.make("eterna.adapters.gymnasium:eterna/
Vale-v0")` imports it for you): `eterna/Vale-v0` (2 players, compact actions),
`eterna/Eternity-v0` (4 players), `eterna/Eternitium-v0` (2 players). Every keyword of `make`
below may be passed to `gymnasium.make` (`players=3`, `opponents=...`, `max_moves=...`), and
`gymnasium.make_vec(id, num_envs=n)` builds vector environments of them. `make(game_id, ...)`
builds the same environment directly.

- `opponents`: one agent spec (`random`, `heuristic`, `ismcts:iterations=200`, `learned`, as
  `eterna.agents.make_agent` reads them) for every other seat, or a list with one spec per other
  seat in seat order. The opponents play between the learner's decisions (including their
  out-of-turn decisions); their generators are seeded from the reset seed.
- `pool`: instead, opponents drawn afresh at every reset: each other seat draws one entry of the
  pool, uniformly (or by `pool_weights`), with the reset's generator. An entry is an agent spec
  or a callable `seed -> Agent` (an earlier checkpoint: `eterna.agents.learned.checkpoint(path)`;
  self-play: the trainer's current policy). `set_pool(entries, weights)` replaces it between
  episodes (vector environments: `env_method("set_pool", ...)`).
- Seeds: `reset(seed=s)` seeds the deal, the pool draw and every opponent's generator from
  `random.Random(s)`; later resets without a seed continue that stream, so an environment
  reset once with a seed replays the same sequence of episodes.
- Episode cap: an episode is truncated (`truncated=True`, reward 0) once the game has taken
  `max_moves` moves in all (every seat's, forced ones included; `MAX_MOVES` per game, far
  above any finished game) -- a loop such as Eternitium's Recycler Robot replayed for ever
  cannot hang a rollout or an evaluation. `info["moves"]` counts them.
- Actions: `action_layout="flat"` (the encoding's ids) or `"compact"` (one id per action
  without its payment; The Vale's 12,336 flat ids become 786, the payment chosen by a fixed
  rule: `eterna.adapters.layouts`, docs/agents.md). The registered Vale id uses compact.
  `action_masks()` and `info["action_mask"]` are in the layout's ids.
- Observation: float32[size] from `state.view(seat)` (eterna.adapters.encodings), in [0, 1].
  `encoding_version` picks the game's encoding version (None: the default for the options;
  The Vale's version 2 with expansions, version 1 otherwise; docs/encodings.md).
- Reward 0 until the end, then +1 if the seat is among the winners (shared wins included), -1
  otherwise. An illegal action ends the episode with -1 (`info["illegal_action"]` says why),
  leaving the game unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from eterna.adapters.encodings import make_encoding
from eterna.adapters.layouts import ActionLayout
from eterna.adapters.pettingzoo import render_view
from eterna.agents import make_agent
from eterna.core.agent import Agent
from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.core.registry import load_game

#: an opponent of the pool: an agent spec, or a factory `seed -> Agent`
PoolEntry = str | Callable[[int], Agent]

#: the default episode cap (moves of all seats) per game: several times the longest game seen
MAX_MOVES = {"eternity": 1000, "vale": 2000, "eternitium": 3000}
DEFAULT_MAX_MOVES = 3000

#: the registered ids: id -> (game, keyword defaults)
ENV_IDS: dict[str, tuple[str, dict[str, Any]]] = {
    "eterna/Vale-v0": ("vale", {"players": 2, "action_layout": "compact"}),
    "eterna/Eternity-v0": ("eternity", {"players": 4}),
    "eterna/Eternitium-v0": ("eternitium", {"players": 2}),
}


def make(
    game_id: str,
    seat: int = 0,
    opponents: str | Sequence[str] = "heuristic",
    players: int | None = None,
    render_mode: str | None = None,
    encoding_version: int | None = None,
    **options: Any,
) -> EternaEnv:
    return EternaEnv(game_id, seat, opponents, players, render_mode, encoding_version, **options)


class EternaEnv(gymnasium.Env[np.ndarray, np.int64]):
    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012 (gymnasium API)

    def __init__(
        self,
        game_id: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "heuristic",
        players: int | None = None,
        render_mode: str | None = None,
        encoding_version: int | None = None,
        *,
        pool: Sequence[PoolEntry] | None = None,
        pool_weights: Sequence[float] | None = None,
        max_moves: int | None = None,
        action_layout: str = "flat",
        **options: Any,
    ) -> None:
        self.game = load_game(game_id)
        if players is None:
            players = max(self.game.min_players, 2)
        self.players = self.game.check_players(players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise EternaError(f"seat must be 0..{self.players - 1}, not {seat!r}")
        self.seat = seat
        self.game_options = self.game.resolve_options(options)
        others = self.players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            raise EternaError(f"{others} opponent spec(s) needed, got {len(specs)}")
        self.opponent_specs = specs
        for spec in specs:
            make_agent(spec)  # fail early on a bad spec
        self.pool: list[PoolEntry] = []
        self.pool_weights: list[float] | None = None
        if pool is not None:
            self.set_pool(pool, pool_weights)
        if max_moves is None:
            max_moves = MAX_MOVES.get(game_id, DEFAULT_MAX_MOVES)
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise EternaError(f"max_moves must be a positive integer, not {max_moves!r}")
        self.max_moves = max_moves
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EternaError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoding = make_encoding(game_id, self.players, self.game_options, encoding_version)
        self.layout = ActionLayout(self.encoding, action_layout)
        self.observation_space = spaces.Box(0.0, 1.0, self.encoding.shape, np.float32)
        self.action_space = spaces.Discrete(self.layout.size)
        self._seeds = random.Random()
        self.state: GameState | None = None
        self._agents: dict[int, Agent] = {}
        self._legal: list[int] = []
        self.moves = 0
        self.truncated = False

    def set_pool(
        self, entries: Sequence[PoolEntry], weights: Sequence[float] | None = None
    ) -> None:
        """Opponents drawn per reset from `entries` (uniformly, or by `weights`)."""
        entries = list(entries)
        if not entries:
            raise EternaError("an opponent pool needs at least one entry")
        for entry in entries:
            if isinstance(entry, str):
                make_agent(entry)  # fail early on a bad spec
            elif not callable(entry):
                raise EternaError(f"a pool entry is an agent spec or a factory, not {entry!r}")
        if weights is not None:
            weights = [float(w) for w in weights]
            if len(weights) != len(entries) or min(weights) < 0 or sum(weights) <= 0:
                raise EternaError("pool_weights: one non-negative weight per entry, not all 0")
        self.pool = entries
        self.pool_weights = weights

    # ------------------------------------------------------------------ episode
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        rng = self._seeds
        self.state = self.game.new_game(
            players=self.players, seed=rng.getrandbits(62), options=self.game_options
        )
        others = [s for s in range(self.players) if s != self.seat]
        entries: list[PoolEntry]
        if self.pool:
            entries = rng.choices(self.pool, self.pool_weights, k=len(others))
        else:
            entries = list(self.opponent_specs)
        self.opponents_drawn = entries
        self._agents = {
            s: _opponent(entry, rng.getrandbits(62))
            for s, entry in zip(others, entries, strict=True)
        }
        self.moves = 0
        self.truncated = False
        self._play_opponents()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.is_terminal or self.truncated:
            raise EternaError("the episode is over: call reset()")
        try:
            flat = self.layout.resolve(int(action), self._legal_ids())
            state.apply(self.encoding.actions[flat])
        except (EternaError, IndexError, TypeError, ValueError) as exc:
            info = self._info()
            info["illegal_action"] = str(exc)
            return self._obs(), -1.0, True, False, info
        self.moves += 1
        self._play_opponents()
        reward = 0.0
        if state.is_terminal:
            reward = 1.0 if self.seat in state.winners else -1.0
        elif self.moves >= self.max_moves:
            self.truncated = True
            self._legal = []
        return self._obs(), reward, state.is_terminal, self.truncated, self._info()

    def _play_opponents(self) -> None:
        state = self._state()
        agents = self._agents
        while not state.is_terminal and state.current_player != self.seat:
            if self.moves >= self.max_moves:
                self.truncated = True
                break
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].choose(state, seat))
            self.moves += 1
        self._legal = []
        if not state.is_terminal and not self.truncated and state.current_player == self.seat:
            self._legal = self.encoding.legal_ids(state)

    def _state(self) -> GameState:
        if self.state is None:
            raise EternaError("call reset() first")
        return self.state

    def _legal_ids(self) -> list[int]:
        return self._legal

    # ------------------------------------------------------------------ observations
    def _obs(self) -> np.ndarray:
        return self.encoding.new_observation(self._state(), self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "moves": self.moves}

    def action_masks(self) -> np.ndarray:
        """bool[action_space.n]: the legal actions in the layout's ids (all False once the
        game is over or truncated)."""
        self._state()
        return self.layout.mask(self._legal)

    def legal_action_ids(self) -> list[int]:
        """The legal actions as the encoding's flat ids."""
        self._state()
        return list(self._legal)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_view(self.game.id, self._state())
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _opponent(entry: PoolEntry, seed: int) -> Agent:
    return make_agent(entry, seed=seed) if isinstance(entry, str) else entry(seed)


def _make_registered(game_id: str, **kwargs: Any) -> EternaEnv:
    seat = kwargs.pop("seat", 0)
    opponents = kwargs.pop("opponents", "heuristic")
    return EternaEnv(game_id, seat, opponents, **kwargs)


def register_envs() -> None:
    """Register the `eterna/...` ids with Gymnasium (done on import of this module)."""
    for env_id, (game_id, defaults) in ENV_IDS.items():
        if env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=env_id,
            entry_point=_make_registered,  # type: ignore[arg-type]
            kwargs={"game_id": game_id, **defaults},
            disable_env_checker=True,  # tests run gymnasium's checker on each id
        )


register_envs()
