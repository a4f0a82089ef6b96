"""Agents: the interface (defined in core), a seeded random agent, each game's heuristic
through `heuristic`, and the registry of specs."""

from eterna.agents.random_agent import RandomAgent
from eterna.agents.registry import AGENTS, HeuristicAgent, agent_names, make_agent, parse_spec
from eterna.core.agent import Agent, SeatWindow, ViewAgent

__all__ = [
    "AGENTS",
    "Agent",
    "HeuristicAgent",
    "RandomAgent",
    "SeatWindow",
    "ViewAgent",
    "agent_names",
    "make_agent",
    "parse_spec",
]
