"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), usable on every game through the contract alone.

Each iteration draws a determinization of the game from the deciding seat's point of view
(`window.determinize(rng)`: a full state consistent with everything the seat has seen), walks
the one shared tree with UCB1 restricted to the actions legal in that determinization
(availability counts), expands one action, finishes the game with the rollout policy, and
backs up each seat's reward into the nodes where that seat chose. The move played is the
root's most visited action.

Defaults (chosen by arena runs against the heuristic, docs/agents.md): rollouts by the game's
own heuristic (epsilon-greedy optional), cut off after `depth` moves and scored by the current
`scores` as if the game ended there, reward = win share plus a score-margin term. The agent
never reads the real state: only its view, its legal actions and determinizations.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from eterna.core.agent import Agent, SeatWindow
from eterna.core.errors import EternaError
from eterna.core.game import Action, GameState


class _Node:
    __slots__ = ("avail", "children", "reward", "score", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # summed reward of the seat that chose the action leading here
        self.score = 0  # summed final score of that seat (root children only: for hints)


class ISMCTSAgent(Agent):
    """Parameters (all optional, e.g. `ismcts:iterations=2000,rollout=heuristic`):

    - `iterations`: iterations per decision (default 60: about 1 s a move, see docs/agents.md);
    - `seconds`: a time budget per decision instead (not reproducible; iterations win if both);
    - `c`: UCB1 exploration constant (default 0.7);
    - `rollout`: `heuristic` (the game's own heuristic agent, default; random moves for a game
      without one) or `random`;
    - `epsilon`: with `rollout=heuristic`, the chance of a uniformly random rollout move instead
      (default 0);
    - `depth`: stop each rollout after this many moves and score the position by its current
      `scores` as if the game ended there (0 plays to the end; default 40 with heuristic
      rollouts, 0 with random ones);
    - `reward`: `score` (0.8 for a win, shared among winners, plus 0.2 times the seat's place
      between the lowest and highest score; the default with heuristic rollouts) or `win` (the
      win share alone; the default with random rollouts).

    With `rollout=random` and no other setting the search is the plain one of earlier versions
    (what `eterna.arena.hints` asks for).
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        rollout: str = "heuristic",
        reward: str | None = None,
        epsilon: float = 0.0,
        depth: int | None = None,
    ) -> None:
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = 60
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise EternaError(f"ismcts iterations must be a positive integer, not {iterations!r}")
        if seconds is not None and (not isinstance(seconds, (int, float)) or seconds <= 0):
            raise EternaError(f"ismcts seconds must be a positive number, not {seconds!r}")
        if rollout not in ("random", "heuristic"):
            raise EternaError(f"ismcts rollout must be 'random' or 'heuristic', not {rollout!r}")
        heuristic = rollout == "heuristic"
        if depth is None:
            depth = 40 if heuristic else 0
        if reward is None:
            reward = "score" if heuristic else "win"
        if not isinstance(epsilon, (int, float)) or not 0 <= epsilon <= 1:
            raise EternaError(f"ismcts epsilon must be between 0 and 1, not {epsilon!r}")
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
            raise EternaError(f"ismcts depth must be a non-negative integer, not {depth!r}")
        if reward not in ("win", "score"):
            raise EternaError(f"ismcts reward must be 'win' or 'score', not {reward!r}")
        self.iterations = iterations
        self.seconds = None if iterations is not None else seconds
        self.c = float(c)
        self.rollout = rollout
        self.reward = reward
        self.epsilon = float(epsilon)
        self.depth = depth
        self._rollout_agents: dict[str, Agent] = {}
        self.last_stats: dict[Action, tuple[int, float]] = {}
        # Mean final score of the deciding seat after each root action (hints, analysis).
        self.last_scores: dict[Action, float] = {}

    # -------------------------------------------------------------- the search
    def decide(self, window: SeatWindow) -> Action:
        legal = window.legal_actions()
        if len(legal) == 1:
            self.last_stats = {legal[0]: (0, 0.0)}
            self.last_scores = {}
            return legal[0]  # type: ignore[no-any-return]
        root = self.search(window)
        best = max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)
        return best  # type: ignore[no-any-return]

    def search(self, window: SeatWindow) -> _Node:
        root = _Node()
        rng = self.rng
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(root, window.determinize(rng), rng)
            done += 1
        children = root.children
        self.last_stats = {a: (n.visits, n.reward / n.visits) for a, n in children.items()}
        self.last_scores = {a: n.score / n.visits for a, n in children.items()}
        return root

    def _iterate(self, root: _Node, state: GameState, rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []  # (node, seat that chose the action into it)
        node = root
        c = self.c
        # Selection and expansion
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None  # not terminal
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = rng.choice(untried)
                child = children[action] = _Node()
                for a in legal:
                    if a in children:
                        children[a].avail += 1
                state.apply(action)
                path.append((child, seat))
                break
            best_value = -math.inf
            best_action = legal[0]
            for a in legal:
                ch = children[a]
                ch.avail += 1
                value = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if value > best_value:
                    best_value, best_action = value, a
            node = children[best_action]
            state.apply(best_action)
            path.append((node, seat))
        # Rollout
        self._rollout(state)
        rewards = self._rewards(state)
        for nd, seat in path:
            nd.visits += 1
            nd.reward += rewards[seat]
        if path:  # the root child records the deciding seat's score where the rollout stopped
            first, seat = path[0]
            first.score += state.scores[seat]
        root.visits += 1

    def _rollout(self, state: GameState) -> None:
        """Play on with the rollout policy, to the end or for `depth` moves."""
        left = self.depth or -1  # counts down to 0; never reaches it when unlimited
        rng = self.rng
        legal = state.legal_actions
        apply = state.apply
        agent = self._rollout_agents.get(state.game.id) if self.rollout == "heuristic" else None
        if agent is None and self.rollout == "heuristic":
            make = getattr(state.game, "make_heuristic", None)
            if make is not None:
                agent = self._rollout_agents[state.game.id] = make(seed=rng.getrandbits(63))
        if agent is None:  # random rollouts, asked for or for want of a heuristic
            choice = rng.choice
            while left and not state.is_terminal:
                apply(choice(legal()))
                left -= 1
            return
        epsilon = self.epsilon
        while left and not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            actions = legal()
            if len(actions) == 1:
                apply(actions[0])
            elif epsilon and rng.random() < epsilon:
                apply(rng.choice(actions))
            else:
                apply(agent.choose(state, seat))
            left -= 1

    def _rewards(self, state: GameState) -> list[float]:
        """Each seat's reward in [0, 1]; a position cut off before the end counts as if the game
        ended there (the highest current scores win)."""
        n = state.players
        if state.is_terminal:
            winners = state.winners
        else:
            top = max(state.scores)
            winners = [s for s, v in enumerate(state.scores) if v == top]
        out = [0.0] * n
        for s in winners:
            out[s] = 1.0 / len(winners)
        if self.reward == "score":
            scores = state.scores
            top, low = max(scores), min(scores)
            spread = (top - low) or 1
            for s in range(n):
                out[s] = 0.8 * out[s] + 0.2 * (scores[s] - low) / spread
        return out
