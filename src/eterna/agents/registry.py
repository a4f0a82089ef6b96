"""Agents by spec string, as the command line names them: `random`, `heuristic`,
`name:key=value,key=value`. The same specs work in `eterna play --bots` and `eterna simulate`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from eterna.agents.ismcts import ISMCTSAgent
from eterna.agents.learned import LearnedAgent
from eterna.agents.random_agent import RandomAgent
from eterna.core.agent import Agent, SeatWindow
from eterna.core.errors import EternaError
from eterna.core.game import Action
from eterna.core.registry import load_game


class HeuristicAgent(Agent):
    """The game's own heuristic, picked from the game being played at the first decision."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed)
        self.params = params
        self._inner: dict[str, Agent] = {}

    def decide(self, window: SeatWindow) -> Action:
        inner = self._inner.get(window.game_id)
        if inner is None:
            game = load_game(window.game_id)
            made = game.make_heuristic(seed=self.rng.getrandbits(63), **self.params)
            if made is None:
                raise EternaError(f"{game.name} has no heuristic agent yet")
            inner = self._inner[window.game_id] = made
        return inner.decide(window)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "ismcts": ISMCTSAgent,
    "learned": LearnedAgent,
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'name:key=value,...' -> (name, params); values read as int, float or bool if they can."""
    if not isinstance(spec, str) or not spec.strip():
        raise EternaError("an agent spec is a name such as 'random' or 'heuristic'")
    name, _, rest = spec.strip().partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise EternaError(f"agent parameter {item!r} in {spec!r} must read key=value")
        params[key.strip()] = _value(key.strip(), value.strip())
        _check_finite(key.strip(), params[key.strip()])
    return name, params


MAX_MAGNITUDE = 1e12  # no agent parameter needs more; each agent checks its own ranges


def _check_finite(key: str, value: Any) -> None:
    """Every number in a spec is finite and of sane size, whatever the agent (its own ranges
    are checked when it is made): `nan`, `inf` and `1e400` never reach an agent."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise EternaError(
            f"agent parameter {key!r} must be a finite number of at most {MAX_MAGNITUDE:g} "
            f"in size, not {value!r}"
        )


# Numbers in plain ASCII decimal only: int() and float() would also take "50_00", " 5",
# Arabic-Indic digits and "nan" (refused as such below, not read as numbers).
_INTEGER = re.compile(r"[-+]?[0-9]{1,15}", re.ASCII)
_DECIMAL = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,4})?", re.ASCII)
_MAX_NUMBER_TEXT = 40  # characters of a number written in a spec


def _value(key: str, text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if _INTEGER.fullmatch(text):
        return int(text)
    if len(text) <= _MAX_NUMBER_TEXT and _DECIMAL.fullmatch(text):
        return float(text)
    if _numeric(text):
        raise EternaError(
            f"agent parameter {key!r} must be a finite number in plain ASCII decimal digits, "
            f"not {text[:_MAX_NUMBER_TEXT]!r}"
        )
    return text


def _numeric(text: str) -> bool:
    """Whether Python would read `text` as a number (or it holds a digit of any script)."""
    if any(ch.isdigit() for ch in text) and (not text.isascii() or text[0] in "+-.0123456789"):
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


def make_agent(spec: str, seed: int | None = None) -> Agent:
    name, params = parse_spec(spec)
    factory = AGENTS.get(name)
    if factory is None:
        raise EternaError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    try:
        agent = factory(seed=seed, **params)
    except TypeError as exc:
        raise EternaError(f"agent {name!r} does not take these parameters: {params}") from exc
    agent.spec = spec
    return agent


def agent_names() -> list[str]:
    return sorted(AGENTS)
