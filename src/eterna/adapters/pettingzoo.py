"""PettingZoo AEC environments for the Eterna games, after PettingZoo's classic environments.

    from eterna.adapters.pettingzoo import env
    e = env("eternity", players=4)            # options: any of the game's options
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        done = terminated or truncated
        action = None if done else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- Agents `player_0 .. player_{N-1}` are the seats. `agent_selection` is the seat that must decide
  now (Eternitium's Laboratory gifts and The Vale's attack victims decide out of turn).
- Observation: `{"observation": float32[size], "action_mask": int8[num_actions]}`, a function
  of `state.view(seat)` alone (eterna.adapters.encodings; written by the encoding's fast path
  straight from the engine). It is computed lazily when observed and cached until the next
  step (observing the same agent twice is free); its arrays are fresh, so an agent may keep
  them. `env.action_mask(agent)` gives the mask alone and `env.unwrapped.legal_action_ids()`
  the legal ids (cheaper still: both skip the observation).
- Rewards arrive at the end: +1 for each winner (shared wins included), -1 for every other seat
  (a lost solo game: -1). An illegal action (one the mask forbids) ends the game at once: the
  mover gets -1, the others 0, and `infos[agent]["illegal_action"]` names the rule broken.
- `reset(seed=s)` seeds the game (each later `reset()` without a seed draws the next game seed
  from that generator); `reset(options=...)` is accepted and ignored: game options are given
  to `env(...)`.
- `encoding_version`: the game's encoding version (None: the default for the options; The
  Vale's version 2 with expansions, version 1 otherwise; docs/encodings.md).
- `render_mode="ansi"`: `render()` returns the current player's view as text (the spectator's
  once the game is over).
"""

from __future__ import annotations

import functools
import io
import random
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from eterna.adapters.aec_core import AECCore, AgentIterator, WrapperCalls
from eterna.adapters.encodings import Encoding, make_encoding
from eterna.core.errors import EternaError
from eterna.core.game import GameState
from eterna.core.registry import load_game


def env(
    game_id: str,
    players: int | None = None,
    render_mode: str | None = None,
    encoding_version: int | None = None,
    **options: Any,
) -> AECEnv:
    """The AEC environment of `game_id`, wrapped like PettingZoo's classic environments."""
    raw = raw_env(
        game_id,
        players=players,
        render_mode=render_mode,
        encoding_version=encoding_version,
        **options,
    )
    return OrderEnforcing(raw)


def _hot(name: str) -> property:
    """A forwarding property: PettingZoo's wrappers forward through `__getattr__`, which costs
    a failed lookup and two Python calls per access (several per step)."""

    def get(self: OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's OrderEnforcingWrapper with direct forwarding of the per-step attributes
    and a leaner `last` and `agent_iter` (same checks)."""

    agent_selection = _hot("agent_selection")
    agents = _hot("agents")
    rewards = _hot("rewards")
    terminations = _hot("terminations")
    truncations = _hot("truncations")
    infos = _hot("infos")
    _cumulative_rewards = _hot("_cumulative_rewards")

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        raw = self.env
        result: tuple[Any, float, bool, bool, dict[str, Any]] = raw._core.last(
            raw.agent_selection, observe
        )
        return result

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        raw = self.env
        if "step" not in self.__dict__ and type(raw).step is raw_env.step:
            # from now on `step` and `last` are the compiled core's (same checks, no
            # interpreted frame); a subclass that overrides raw_env.step keeps the methods
            calls = WrapperCalls(self, raw, raw._core, functools.partial(OrderEnforcing.step, self))
            self.__dict__["step"] = calls.step  # instance attributes shadow the methods
            self.__dict__["last"] = calls.last

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterator:
        if not self._has_reset:
            super().agent_iter(max_iter)  # PettingZoo's own error
        # (more steps than 2**62 are not played: the count stays a machine integer)
        return AgentIterator(self, self.env, self.env._core, min(max_iter, 1 << 62))


class raw_env(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        encoding_version: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = load_game(game_id)
        if players is None:
            players = max(self.game.min_players, 2)
        self.players = self.game.check_players(players)
        self.game_options = self.game.resolve_options(options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EternaError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"eterna_{game_id}_v1"}  # type: ignore[misc]
        self.encoding: Encoding = make_encoding(
            game_id, self.players, self.game_options, encoding_version
        )
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, self.encoding.shape, np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.encoding.num_actions) for a in self.possible_agents
        }
        self._seeds = random.Random()
        self.state_: GameState | None = None
        self._core = AECCore(self.encoding, self.possible_agents)  # the per-step work, compiled

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return str(self.metadata["name"])

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state_ = self.game.new_game(
            players=self.players, seed=self._seeds.getrandbits(62), options=self.game_options
        )
        core = self._core
        self.agent_selection = core.reset(self.state_)
        # the very objects the core updates (PettingZoo's helpers change them in place)
        self.agents = core.agents
        self.rewards = core.rewards
        self._cumulative_rewards = core.cumulative
        self.terminations = core.terminations
        self.truncations = core.truncations
        self.infos = core.infos

    @property
    def state_or_raise(self) -> GameState:
        if self.state_ is None:
            raise EternaError("call reset() first")
        return self.state_

    def step(self, action: Any) -> None:
        agent = self._core.step(self.agent_selection, action)
        if agent is None:  # the selected agent is done: PettingZoo's dead step
            self._was_dead_step(action)
        else:
            self.agent_selection = agent

    # ------------------------------------------------------------------ observations
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        result: dict[str, np.ndarray] = self._core.observe(agent)
        return result

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The legal-action mask of `agent` (default: the one to move), without the view."""
        state = self.state_or_raise
        seat = self._core.seat_of[agent or self.agent_selection]
        if state.current_player != seat:
            return np.zeros(self.encoding.num_actions, np.int8)
        return self.encoding.mask(state)

    def legal_action_ids(self) -> list[int]:
        """Ids of the legal actions of the agent to move (the fastest way to pick one)."""
        return self._core.legal_action_ids()

    # ------------------------------------------------------------------ rendering
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_view(self.game.id, self.state_or_raise)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def render_view(game_id: str, state: GameState) -> str:
    """The table as the seat to move sees it (the spectator's once over), as plain text."""
    from rich.console import Console

    from eterna.render import renderer_for

    seat = state.current_player
    view = state.view(seat)
    renderer = renderer_for(game_id)
    names = [f"player_{i}" for i in range(state.players)]
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, force_terminal=False)
    console.print(renderer.table(view, names, []))
    if state.is_terminal:
        console.print(renderer.final(view, names))
    return buffer.getvalue()
