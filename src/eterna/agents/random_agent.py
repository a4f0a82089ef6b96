"""The uniformly random agent: a baseline, and the rollout policy of search agents."""

from __future__ import annotations

from eterna.core.agent import Agent, SeatWindow
from eterna.core.game import Action


class RandomAgent(Agent):
    name = "random"

    def decide(self, window: SeatWindow) -> Action:
        return self.rng.choice(window.legal_actions())
