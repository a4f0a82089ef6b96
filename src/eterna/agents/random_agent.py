"""The uniformly random agent: a baseline, and the rollout policy of search agents."""

from __future__ import annotations

from typing import Any

from eterna.core.agent import Agent, SeatWindow
from eterna.core.game import Action


class RandomAgent(Agent):
    name = "random"

    def decide(self, window: SeatWindow) -> Action:
        legal: list[Any] = window.legal_actions()
        choice: Action = self.rng.choice(legal)
        return choice
