"""A single-agent Gymnasium environment: one seat against Eterna agents.

    from eterna.adapters.gymnasium import make
    env = make("eternity", seat=0, opponents="heuristic", players=4)
    obs, info = env.reset(seed=7)
    while True:
        mask = env.action_masks()                  # bool[num_actions], for maskable RL
        action = env.action_space.sample(mask.astype("int8"))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

- `opponents`: one agent spec (`random`, `heuristic`, `ismcts:iterations=200`, as
  `eterna.agents.make_agent` reads them) for every other seat, or a list with one spec per other
  seat in seat order. The opponents play between the learner's decisions (including their
  out-of-turn decisions); their generators are seeded from the reset seed.
- Observation: float32[size] from `state.view(seat)` (eterna.adapters.encodings), in [0, 1].
  `info["action_mask"]` and `action_masks()` give the legal actions. `encoding_version` picks
  the game's encoding version (None: the default for the options; The Vale's version 2 with
  expansions, version 1 otherwise; docs/encodings.md).
- Reward 0 until the end, then +1 if the seat is among the winners (shared wins included), -1
  otherwise. An illegal action ends the episode with -1 (`info["illegal_action"]` says why),
  leaving the game unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from eterna.adapters.encodings import make_encoding
from eterna.adapters.pettingzoo import render_view
from eterna.agents import make_agent
from eterna.core.agent import Agent
from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.core.registry import load_game


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
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EternaError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.encoding = make_encoding(game_id, self.players, self.game_options, encoding_version)
        self.observation_space = spaces.Box(0.0, 1.0, self.encoding.shape, np.float32)
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self._seeds = random.Random()
        self.state: GameState | None = None
        self._agents: dict[int, Agent] = {}

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
        self._agents = {
            s: make_agent(spec, seed=rng.getrandbits(62))
            for s, spec in zip(others, self.opponent_specs, strict=True)
        }
        self._play_opponents()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self._state()
        if state.is_terminal:
            raise EternaError("the episode is over: call reset()")
        try:
            state.apply(self.encoding.actions[int(action)])
        except (EternaError, IndexError, TypeError, ValueError) as exc:
            info = self._info()
            info["illegal_action"] = str(exc)
            return self._obs(), -1.0, True, False, info
        self._play_opponents()
        reward = 0.0
        if state.is_terminal:
            reward = 1.0 if self.seat in state.winners else -1.0
        return self._obs(), reward, state.is_terminal, False, self._info()

    def _play_opponents(self) -> None:
        state = self._state()
        agents = self._agents
        while not state.is_terminal and state.current_player != self.seat:
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].choose(state, seat))

    def _state(self) -> GameState:
        if self.state is None:
            raise EternaError("call reset() first")
        return self.state

    # ------------------------------------------------------------------ observations
    def _obs(self) -> np.ndarray:
        return self.encoding.new_observation(self._state(), self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8)}

    def action_masks(self) -> np.ndarray:
        """bool[num_actions]: the legal actions (all False once the game is over)."""
        state = self._state()
        if state.current_player != self.seat:
            return np.zeros(self.encoding.num_actions, bool)
        return self.encoding.mask(state).astype(bool)

    def legal_action_ids(self) -> list[int]:
        return self.encoding.legal_ids(self._state())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_view(self.game.id, self._state())
        if self.render_mode == "human":
            print(text)
            return None
        return text
