"""The agent interface: what a bot may see and how it answers.

It lives in core so that a game's own heuristic agent depends on core only (DESIGN.md).

An agent sees a game only through a `SeatWindow`: that seat's view, the legal actions and
`determinize` (for search agents). It never touches the state itself, so it cannot peek.
Its randomness comes from its own generator, seeded at construction.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from eterna.core.errors import EternaError
from eterna.core.game import Action, GameState, View


class SeatWindow:
    """What one seat is allowed to know of a game in progress."""

    __slots__ = ("_seat", "_state")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self._seat = seat

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def game_id(self) -> str:
        return self._state.game.id

    @property
    def players(self) -> int:
        return self._state.players

    @property
    def current_player(self) -> int | None:
        return self._state.current_player

    def view(self) -> View:
        return self._state.view(self._seat)

    def legal_actions(self) -> list[Action]:
        return self._state.legal_actions()

    def determinize(self, rng: random.Random) -> GameState:
        """A full state consistent with this seat's knowledge (for search agents)."""
        return self._state.determinize(self._seat, rng)


class Agent(ABC):
    """A player. `choose(state, seat)` returns one of `state.legal_actions()`."""

    name: str = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.spec = self.name  # the spec string it was made from (set by make_agent)

    def choose(self, state: GameState, seat: int) -> Action:
        if state.current_player != seat:
            raise EternaError(f"seat {seat} asked to move, but it is {state.current_player}'s turn")
        return self.decide(SeatWindow(state, seat))

    @abstractmethod
    def decide(self, window: SeatWindow) -> Action:
        """Pick an action using only what `window` shows."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class ViewAgent(Agent):
    """An agent that decides from the seat's view and the legal actions alone."""

    def decide(self, window: SeatWindow) -> Action:
        return self.act(window.view(), window.legal_actions())

    @abstractmethod
    def act(self, view: View, legal: list[Action]) -> Action: ...

    def act_state(self, state: GameState, seat: int, legal: list[Action]) -> Action:
        """The move `act(state.view(seat), legal)` makes, for search rollouts on the search's
        own determinizations. An agent may override it with a cheaper path to the part of the
        view it reads (Eternitium's heuristic does)."""
        return self.act(state.view(seat), legal)
