"""The per-step work of the PettingZoo environment (`eterna.adapters.pettingzoo`), compiled.

PettingZoo's `AECEnv` is an interpreted class, and a compiled class cannot inherit from one, so
the environment stays an `AECEnv` subclass whose hot methods (`step`, `observe`, `last`,
`legal_action_ids`, the agent iterator) forward here in one call: a step then costs one
interpreted frame instead of a dozen dict and attribute lookups in interpreted code.

The core owns the dicts PettingZoo reads (`agents`, `rewards`, `_cumulative_rewards`,
`terminations`, `truncations`, `infos`): the environment holds the very same objects, set at each
`reset`, and PettingZoo's own helpers (`_was_dead_step`, `_clear_rewards`) change them in place.
"""

from __future__ import annotations

from typing import Any

from eterna.core.encoding import Encoding
from eterna.core.errors import EternaError
from eterna.core.game import Action, GameState


class AECCore:
    """One environment's episode: the game state, the PettingZoo dicts, the observation cache
    (observing the same agent twice in a step is free) and the legal ids of the step."""

    def __init__(self, encoding: Encoding, agents: list[str]) -> None:
        self.encoding = encoding
        self.actions: tuple[Action, ...] = encoding.actions
        self.possible_agents = agents
        self.seat_of: dict[str, int] = {a: i for i, a in enumerate(agents)}
        self.state: GameState | None = None
        self.agents: list[str] = []
        self.rewards: dict[str, int] = {}
        self.cumulative: dict[str, int] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.cache: dict[str, Any] = {}
        self.legal: list[int] | None = None  # the step's legal ids, once observe() needs them

    def reset(self, state: GameState) -> str:
        """Start an episode on `state`; returns the agent to move."""
        agents = self.possible_agents
        self.state = state
        self.agents = agents[:]
        self.rewards = dict.fromkeys(agents, 0)
        self.cumulative = dict.fromkeys(agents, 0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self.cache = {}
        self.legal = None
        player = state.current_player
        return agents[0 if player is None else player]

    def step(self, agent: str, action: Any) -> str | None:
        """`agent` (the one selected) takes `action`; returns the agent selected next, or None
        when `agent` is already done (the caller runs PettingZoo's dead step)."""
        if self.terminations[agent] or self.truncations[agent]:
            return None
        state = self._state()
        # Rewards are only ever set at the end (every seat's at once), so until then there is
        # nothing to clear: the mover's cumulative reward is still 0.
        if self.cache:
            self.cache.clear()
        self.legal = None
        try:
            if action < 0:
                raise IndexError(f"action id {action} is negative")
            state.apply(self.actions[action])
        except (EternaError, IndexError, TypeError, ValueError) as exc:
            # An illegal move ends the game with a loss for the mover (classic convention).
            for a in self.agents:
                self.terminations[a] = True
            self.rewards[agent] = -1
            self.infos[agent] = {"illegal_action": str(exc)}
            self._accumulate()
            return agent
        if state.is_terminal:
            winners = state.winners
            for a, seat in self.seat_of.items():
                self.rewards[a] = 1 if seat in winners else -1
                self.terminations[a] = True
            self._accumulate()
            return agent
        player = state.current_player
        assert player is not None
        return self.possible_agents[player]

    def _accumulate(self) -> None:
        """PettingZoo's `_accumulate_rewards`."""
        cumulative = self.cumulative
        for a, reward in self.rewards.items():
            cumulative[a] = cumulative[a] + reward

    def observe(self, agent: str) -> Any:
        """`agent`'s observation dict (fresh arrays, cached until the next step)."""
        cached = self.cache.get(agent)
        if cached is not None:
            return cached
        state = self._state()
        seat = self.seat_of[agent]
        legal = self.legal_ids() if state.current_player == seat else None
        result = self.encoding.observation(state, seat, legal)
        self.cache[agent] = result
        return result

    def last(self, agent: str, observe: bool) -> tuple[Any, int, bool, bool, dict[str, Any]]:
        """`AECEnv.last()` for `agent`."""
        return (
            self.observe(agent) if observe else None,
            self.cumulative[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def legal_ids(self) -> list[int]:
        """The legal ids of this step, computed once (shared: never modified)."""
        ids = self.legal
        if ids is None:
            ids = self.legal = self.encoding.legal_ids(self._state())
        return ids

    def legal_action_ids(self) -> list[int]:
        """A copy of the legal ids of the agent to move (the mask's stay intact)."""
        ids = self.legal
        return ids[:] if ids is not None else self.encoding.legal_ids(self._state())

    def _state(self) -> GameState:
        state = self.state
        if state is None:
            raise EternaError("call reset() first")
        return state


class WrapperCalls:
    """The order-enforcing wrapper's `step` and `last` once the environment is reset, bound
    to the wrapper instance (an instance attribute shadows the class's method): a step then
    runs no interpreted frame at all. Same checks and effects as `OrderEnforcing.step` and
    `.last`; the rare paths (a step after the end) call the class's own method."""

    def __init__(self, wrapper: Any, raw: Any, core: AECCore, slow_step: Any) -> None:
        self.wrapper = wrapper
        self.raw = raw
        self.core = core
        self.slow_step = slow_step

    def step(self, action: Any) -> None:
        core = self.core
        if not core.agents:  # PettingZoo's warning for a step after the end
            self.slow_step(action)
            return
        self.wrapper._has_updated = True
        raw = self.raw
        agent = core.step(raw.agent_selection, action)
        if agent is None:  # the selected agent is done: PettingZoo's dead step
            raw._was_dead_step(action)
        else:
            raw.agent_selection = agent

    def last(self, observe: bool = True) -> tuple[Any, int, bool, bool, dict[str, Any]]:
        return self.core.last(self.raw.agent_selection, observe)


class AgentIterator:
    """PettingZoo's AECOrderEnforcingIterator: the agent to move until every agent is done,
    asserting that each was given a step (`wrapper._has_updated`)."""

    def __init__(self, wrapper: Any, raw: Any, core: AECCore, max_iter: int) -> None:
        self.wrapper = wrapper
        self.raw = raw
        self.core = core
        self.left = max_iter

    def __iter__(self) -> AgentIterator:
        return self

    def __next__(self) -> str:
        if not self.core.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        wrapper = self.wrapper
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        agent: str = self.raw.agent_selection
        return agent
