"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), usable on every game through the contract alone.

Each iteration draws a determinization of the game from the deciding seat's point of view
(`window.determinize(rng)`: a full state consistent with everything the seat has seen), walks
the one shared tree with UCB1 restricted to the actions legal in that determinization
(availability counts), expands one action, plays on with the rollout policy, and backs up each
seat's reward into the nodes where that seat chose.

At the root, by default with heuristic rollouts, the iterations are spread by sequential halving
over common determinizations instead of UCB1: every surviving root action is tried in the same
deals, the better half survives each round, and the heuristic's own move (the anchor) is only
replaced by a challenger whose paired gain is `trust` standard errors clear (see `_halving`).
With UCB1 at the root (`root=ucb`, random rollouts, or a time budget) the move played is the
root's most visited action.

Defaults (chosen by arena runs against the heuristic, docs/agents.md): rollouts by the game's
own heuristic, each seat a fresh copy, cut off after `depth` moves (or when the scores change,
`cut=score`) and scored by the current `scores` as if the game ended there, reward = win share
plus a score-margin term. A game's heuristic agent may set its own defaults (its
`search_defaults`: budget, depth, reward...), with a larger budget where the compiled engines
run (`COMPILED_BUDGET`). The agent never reads the real state: only its
view, its legal actions and determinizations.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Final

from mypy_extensions import mypyc_attr

from eterna import engines
from eterna.core.agent import Agent, SeatWindow, ViewAgent
from eterna.core.errors import EternaError
from eterna.core.game import Action, GameState
from eterna.core.rng import choice

# Generic defaults, for heuristic rollouts; a game's heuristic agent may set its own
# (`search_defaults`, a dict of these keys), and a spec overrides both.
GENERIC: dict[str, Any] = {
    "iterations": 60,
    "c": 0.7,
    "reward": "score",
    "epsilon": 0.0,
    "depth": 40,
    "root": "halving",
    "trust": 1.0,
    "cut": "depth",
}
# Where the compiled engines run (docs/compiled.md) an iteration costs 3-5 times less CPU, so a
# game's budget is re-tuned to what its pure default costs, about 0.7 s of CPU a decision
# (measured per game, docs/agents.md); the rest of its `search_defaults` holds on both builds.
COMPILED_BUDGET: dict[str, dict[str, Any]] = {
    "eternity": {"iterations": 340},
    "vale": {"iterations": 75},
    "eternitium": {"iterations": 1000},
}


def game_defaults(game: Any, compiled: bool | None = None) -> dict[str, Any]:
    """The search defaults of `game` (its heuristic's `search_defaults`) on the build that runs,
    or on the compiled one (`compiled=True`) or the pure one (`False`): the compiled build
    spends its cheaper iterations on a larger budget (COMPILED_BUDGET)."""
    own: dict[str, Any] = dict(game.search_defaults())
    if engines.compiled() if compiled is None else compiled:
        own.update(COMPILED_BUDGET.get(game.id, {}))
    return own


# Random rollouts: the plain search (what `eterna.arena.hints` asks for).
PLAIN: dict[str, Any] = {
    "iterations": 60,
    "c": 0.7,
    "reward": "win",
    "epsilon": 0.0,
    "depth": 0,
    "root": "ucb",
    "trust": -1.0,
    "cut": "depth",
}


# The range of every numeric parameter: (integer?, lowest, highest, lowest excluded?). A spec
# outside it is refused, naming the parameter (docs/agents.md, "Parameter ranges").
MAX_ITERATIONS: Final = 1_000_000
MAX_SECONDS: Final = 600.0
RANGES: dict[str, tuple[bool, float, float, bool]] = {
    "iterations": (True, 1, MAX_ITERATIONS, False),
    "seconds": (False, 0.0, MAX_SECONDS, True),
    "c": (False, 0.0, 100.0, False),
    "epsilon": (False, 0.0, 1.0, False),
    "depth": (True, 0, 1_000_000, False),
    "trust": (False, -100.0, 100.0, False),
}


def check_number(key: str, value: Any) -> None:
    """Refuse (EternaError naming `key`) a value outside RANGES[key]: not a number (booleans
    are not numbers here), a float where an integer is due, NaN, an infinity, out of range."""
    integer, low, high, open_low = RANGES[key]
    kinds: tuple[type, ...] = (int,) if integer else (int, float)
    kind = "an integer" if integer else "a number"
    low_text = f"above {low:g}" if open_low else f"from {low:g}"
    wanted = f"ismcts {key} must be {kind} {low_text} to {high:g}"
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise EternaError(f"{wanted}, not {value!r}")
    number = float(value) if abs(value) < 1e300 else math.inf  # type: ignore[arg-type]
    if not math.isfinite(number) or number < low or number > high or (open_low and number == low):
        raise EternaError(f"{wanted}, not {value!r}")


def _by_mean(actions: list[Any], children: dict[Any, _Node]) -> list[Any]:
    """`actions` by falling mean reward of their nodes, ties in the given order."""
    keyed = sorted((-children[a].mean, i) for i, a in enumerate(actions))
    return [actions[i] for _, i in keyed]


class _Node:
    __slots__ = ("avail", "children", "goal", "left", "reached", "reward", "score", "visits")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0  # summed reward of the seat that chose the action leading here
        self.score = 0  # summed final score of that seat (root children only: for hints)
        self.goal = 0.0  # solo games (root children only): summed progress towards the goal
        self.left = 0  # ... summed amount left to reach it (GameState.solo_goal)
        self.reached = 0  # ... and how many of its rollouts reached it

    @property
    def mean(self) -> float:
        return self.reward / self.visits if self.visits else -1.0


@mypyc_attr(native_class=False)  # an agent: interpreted classes subclass it
class ISMCTSAgent(Agent):
    """Parameters (all optional, e.g. `ismcts:iterations=2000,rollout=heuristic`); unset ones
    take the game's heuristic's `search_defaults`, then GENERIC (PLAIN with random rollouts):

    - `iterations`: iterations per decision (generic default 60; Eternity 100, Vale 30,
      Eternitium 300 on the pure build, 340, 75 and 1000 on the compiled one: about 0.7-1 s of
      CPU a decision on average, see docs/agents.md);
    - `seconds`: a time budget per decision instead (not reproducible; iterations win if both;
      the root then uses UCB1);
    - `c`: UCB1 exploration constant (default 0.7);
    - `rollout`: `heuristic` (the game's own heuristic agent, default; random moves for a game
      without one) or `random`;
    - `epsilon`: with `rollout=heuristic`, the chance of a uniformly random rollout move instead
      (default 0);
    - `depth`: stop each rollout after this many moves and score the position by its current
      `scores` as if the game ended there (0 plays to the end; generic default 40 with
      heuristic rollouts, 0 with random ones);
    - `cut`: `depth` (default) or `score`: also stop a rollout as soon as any score changes
      (Eternity: at the end of the round, when its scores are known);
    - `reward`: `score` (0.8 for a win, shared among winners, plus 0.2 times the seat's place
      between the lowest and highest score; the default with heuristic rollouts) or `win` (the
      win share alone; the default with random rollouts);
    - `root`: `halving` (sequential halving over common determinizations, the default with
      heuristic rollouts) or `ucb` (the default with random ones);
    - `trust`: with `root=halving`, how many standard errors of paired gain a challenger needs
      to replace the heuristic's own move (default 1.0; negative: no anchor, the best mean
      wins).

    With `rollout=random` and no other setting the search is the plain one of earlier versions
    (what `eterna.arena.hints` asks for).
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float | None = None,
        rollout: str = "heuristic",
        reward: str | None = None,
        epsilon: float | None = None,
        depth: int | None = None,
        root: str | None = None,
        trust: float | None = None,
        cut: str | None = None,
    ) -> None:
        super().__init__(seed)
        if rollout not in ("random", "heuristic"):
            raise EternaError(f"ismcts rollout must be 'random' or 'heuristic', not {rollout!r}")
        self.rollout = rollout
        heuristic = rollout == "heuristic"
        # What the spec set; the rest comes from the game's heuristic (`search_defaults`, read
        # at the first decision in a game) or, failing that, from GENERIC.
        self._given: dict[str, Any] = {
            k: v
            for k, v in (
                ("iterations", iterations),
                ("c", c),
                ("reward", reward),
                ("epsilon", epsilon),
                ("depth", depth),
                ("root", root),
                ("trust", trust),
                ("cut", cut),
            )
            if v is not None
        }
        if seconds is not None and iterations is None:
            self._given["iterations"] = None
        generic: dict[str, Any] = dict(GENERIC if heuristic else PLAIN)
        self._check({**generic, **self._given})
        if seconds is not None:
            check_number("seconds", seconds)
        self.seconds = None if iterations is not None else seconds
        # A wall-clock cap on this agent's searches, whatever the spec says (None: none); who
        # runs the agent sets it, e.g. the web server's workers (docs/web.md, "Bots on a
        # budget") and hints. A search stopped by it decides on the iterations done so far.
        self.max_seconds: float | None = None
        self._configure({**generic, **self._given})
        self._configured_for: str | None = None
        self._deadline: float | None = None
        self._choice: Action | None = None
        self.last_choice: Action | None = None  # the move the last search recommends
        self._heuristic: dict[str, Any] = {}  # game id -> make_heuristic (or None)
        self.last_stats: dict[Action, tuple[int, float]] = {}
        # Mean final score of the deciding seat after each root action (hints, analysis).
        self.last_scores: dict[Action, float] = {}
        # A solo game's mean progress, amount left and share of rollouts reaching the goal
        # after each root action (GameState.solo_goal); empty for games of several seats
        self.last_goals: dict[Action, tuple[float, float, float]] = {}

    @staticmethod
    def _check(cfg: dict[str, Any]) -> None:
        if cfg["iterations"] is not None:
            check_number("iterations", cfg["iterations"])
        for key in ("epsilon", "depth", "trust", "c"):
            check_number(key, cfg[key])
        if cfg["reward"] not in ("win", "score"):
            raise EternaError(f"ismcts reward must be 'win' or 'score', not {cfg['reward']!r}")
        if cfg["root"] not in ("ucb", "halving"):
            raise EternaError(f"ismcts root must be 'ucb' or 'halving', not {cfg['root']!r}")
        if cfg["cut"] not in ("depth", "score"):
            raise EternaError(f"ismcts cut must be 'depth' or 'score', not {cfg['cut']!r}")

    def _configure(self, cfg: dict[str, Any]) -> None:
        self.iterations: int | None = cfg["iterations"]
        self.c = float(cfg["c"])
        self.reward: str = cfg["reward"]
        self.epsilon = float(cfg["epsilon"])
        self.depth: int = cfg["depth"]
        self.root: str = cfg["root"]
        self.trust = float(cfg["trust"])
        self.cut: str = cfg["cut"]

    def _make_heuristic(self, game: Any) -> Any:
        """The game's `make_heuristic` (None for a game without one or random rollouts)."""
        if self.rollout != "heuristic":
            return None
        gid = game.id
        if gid not in self._heuristic:
            has_one = game.make_heuristic(seed=0) is not None
            self._heuristic[gid] = game.make_heuristic if has_one else None
        return self._heuristic[gid]

    def _settle(self, state: GameState) -> None:
        """Apply the game's own search defaults (its heuristic's `search_defaults`) to every
        parameter the spec left unset, once per game."""
        gid = state.game.id
        if self._configured_for == gid:
            return
        self._configured_for = gid
        make = self._make_heuristic(state.game)
        cfg: dict[str, Any] = dict(GENERIC if self.rollout == "heuristic" else PLAIN)
        if make is not None:
            own = game_defaults(state.game)
            unknown = sorted(set(own) - set(GENERIC))
            if unknown:
                raise EternaError(f"{gid}: unknown search_defaults {', '.join(unknown)}")
            cfg.update(own)
        cfg.update(self._given)
        self._check(cfg)
        self._configure(cfg)

    # -------------------------------------------------------------- the search
    def _out_of_time(self) -> bool:
        return self._deadline is not None and time.perf_counter() >= self._deadline

    def decide(self, window: SeatWindow) -> Action:
        legal = window.legal_actions()
        if len(legal) == 1:
            self.last_stats = {legal[0]: (0, 0.0)}
            self.last_scores = {}
            self.last_goals = {}
            return legal[0]
        self.search(window)
        assert self.last_choice is not None  # at least one iteration ran
        return self.last_choice

    def search(self, window: SeatWindow) -> _Node:
        root = _Node()
        rng = self.rng
        started = time.perf_counter()
        state = window.determinize(rng)
        self._settle(state)
        self._choice = None
        caps = [s for s in (self.seconds, self.max_seconds) if s is not None]
        self._deadline = started + min(caps) if caps else None
        if self.root == "halving" and self.iterations is not None:
            self._choice = self._halving(root, window, state, rng)
        else:
            done = 0
            playout = self._playout()
            while True:
                playout.iterate(root, state, rng)
                done += 1
                if self.iterations is not None and done >= self.iterations:
                    break
                if self._out_of_time():
                    break
                state = window.determinize(rng)
        children = root.children
        if self._choice is None and children:  # UCB: the most visited (ties: legal order)
            best, most = None, -2  # max() with a key, written out (mypyc, docs/compiled.md)
            for a in window.legal_actions():
                visits = children[a].visits if a in children else -1
                if visits > most:
                    best, most = a, visits
            self.last_choice = best
        else:
            self.last_choice = self._choice
        self.last_stats = {a: (n.visits, n.reward / n.visits) for a, n in children.items()}
        self.last_scores = {a: n.score / n.visits for a, n in children.items()}
        self.last_goals = {
            a: (n.goal / n.visits, n.left / n.visits, n.reached / n.visits)
            for a, n in children.items()
            if state.players == 1 and n.visits
        }
        return root

    def _halving(
        self, root: _Node, window: SeatWindow, world: GameState, rng: random.Random
    ) -> Any:
        """Sequential halving at the root (Karnin, Koren and Somekh 2013) over common
        determinizations: each round gives every surviving root action the same fresh
        determinizations (one iteration each, the tree below the root grown as usual), then
        keeps the better half by mean reward. Comparing the actions in the same deals removes
        the luck of the deal from their differences; the budget goes to the close contenders.

        With heuristic rollouts the heuristic's own choice for the seat (from its view) is the
        anchor: it stays in every round, and the last challenger replaces it only when their
        paired reward difference is at least `trust` standard errors above zero."""
        legal = list(world.legal_actions())
        anchor = self._anchor(window, legal, rng) if self.trust >= 0 else None
        samples: dict[Any, list[float]] = {a: [] for a in legal}
        children = root.children
        for a in legal:
            children[a] = _Node()
        alive = legal
        playout = self._playout()
        left = self.iterations
        assert left is not None
        fresh = False
        while True:
            rounds = max(1, (len(alive) - 1).bit_length())  # ceil(log2(len(alive)))
            per = max(1, left // (rounds * len(alive)))
            for _ in range(per):
                if fresh:
                    world = window.determinize(rng)
                fresh = True
                for a in alive:
                    samples[a].append(playout.iterate(root, world.clone(), rng, a))
                if self._out_of_time():  # the wall-clock cap: decide on what is known
                    left = per * len(alive)
                    break
            left -= per * len(alive)
            ranked = _by_mean([a for a in alive if a != anchor], children)
            if anchor is None:
                if len(ranked) == 1 or left <= 0:
                    return ranked[0]
            elif not ranked:
                return anchor
            elif left <= 0:
                return self._duel(anchor, ranked[0], samples)
            keep = ranked[: (len(ranked) + 1) // 2]
            alive = keep if anchor is None else [anchor, *keep]

    def _duel(self, anchor: Any, challenger: Any, samples: dict[Any, list[float]]) -> Any:
        """The challenger if its paired gain over the anchor is `trust` standard errors clear."""
        diffs = [x - y for x, y in zip(samples[challenger], samples[anchor], strict=False)]
        n = len(diffs)
        if n == 0:
            return anchor
        mean = sum(diffs) / n
        if mean <= 0.0:
            return anchor
        if n < 2:
            return challenger if self.trust == 0 else anchor
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return challenger if mean >= self.trust * math.sqrt(var / n) else anchor

    def _anchor(self, window: SeatWindow, legal: list[Any], rng: random.Random) -> Any:
        """The game's heuristic's choice from the seat's view (None without a heuristic)."""
        make = self._heuristic.get(window.game_id)
        if make is None:
            return None
        pick = make(seed=rng.getrandbits(63)).decide(window)
        return pick if pick in legal else None

    def _playout(self) -> _Playout:
        """The compiled inner loop, set up with this search's parameters."""
        return _Playout(
            self.rng,
            self.c,
            self.depth,
            self.epsilon,
            self.cut == "score",
            self.reward == "score",
            self._make_heuristic,
        )

    def _iterate(
        self, root: _Node, state: GameState, rng: random.Random, first: Any = None
    ) -> float:
        """One iteration (see _Playout.iterate)."""
        return self._playout().iterate(root, state, rng, first)

    def _rollout(self, state: GameState) -> None:
        self._playout().rollout(state)

    def _rewards(self, state: GameState) -> list[float]:
        return self._playout().rewards(state)


class _Playout:
    """The search's inner loop, a plain (native) class so that the compiled build turns it into
    C (docs/compiled.md): one iteration's selection, expansion, rollout and backup."""

    __slots__ = ("c", "cut_score", "depth", "epsilon", "heuristic_of", "reward_score", "rng")

    def __init__(
        self,
        rng: random.Random,
        c: float,
        depth: int,
        epsilon: float,
        cut_score: bool,
        reward_score: bool,
        heuristic_of: Callable[[Any], Any],
    ) -> None:
        self.rng = rng
        self.c = c
        self.depth = depth
        self.epsilon = epsilon
        self.cut_score = cut_score
        self.reward_score = reward_score
        self.heuristic_of = heuristic_of

    def iterate(
        self, root: _Node, state: GameState, rng: random.Random, first: Any = None
    ) -> float:
        """One iteration; `first`, if given, is the root action to take (sequential halving).
        Returns the reward of the seat that chose at the root."""
        path: list[tuple[_Node, int]] = []  # (node, seat that chose the action into it)
        node = root
        c = self.c
        if first is not None:
            seat = state.current_player
            assert seat is not None
            node = root.children[first]
            node.avail += 1
            state.apply(first)
            path.append((node, seat))
        # Selection and expansion
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None  # not terminal
            legal = state.legal_actions()
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = choice(rng, untried)
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
        self.rollout(state)
        rewards = self.rewards(state)
        for nd, seat in path:
            nd.visits += 1
            nd.reward += rewards[seat]
        if path:  # the root child records the deciding seat's score where the rollout stopped
            top, seat = path[0]
            top.score += state.scores[seat]
            goal = state.solo_goal() if state.players == 1 else None
            if goal is not None:
                top.goal += goal[0]
                top.left += goal[1]
                if state.is_terminal and state.winners:
                    top.reached += 1
        root.visits += 1
        return rewards[path[0][1]] if path else 0.0

    def rollout(self, state: GameState) -> None:
        """Play on with the rollout policy, to the end or for `depth` moves. Heuristic rollouts
        give each seat a fresh heuristic agent (so an agent that remembers earlier decisions,
        e.g. within a turn, starts clean in every rollout), seeded from the search's generator."""
        left = self.depth or -1  # counts down to 0; never reaches it when unlimited
        rng = self.rng
        # state.legal_actions() and state.apply() called directly, not through bound methods
        # kept in locals: the compiled build then calls the engine's own methods in C
        make = self.heuristic_of(state.game)
        if make is None:  # random rollouts, asked for or for want of a heuristic
            # one float per move (cheaper than rng.choice's rejection loop), in the engine's loop
            state.random_playout(rng.random, left)
            return
        agents: dict[int, Any] = {}
        epsilon = self.epsilon
        start = state.scores if self.cut_score else None
        while left and not state.is_terminal:
            if start is not None and state.scores != start:
                return
            actions = state.legal_actions()
            if len(actions) == 1:
                state.apply(actions[0])
            elif epsilon and rng.random() < epsilon:
                state.apply(choice(rng, actions))
            else:
                seat = state.current_player
                assert seat is not None
                agent = agents.get(seat)
                if agent is None:
                    agent = agents[seat] = make(seed=rng.getrandbits(63))
                if isinstance(agent, ViewAgent):  # what `choose` does, less a legal()
                    state.apply(agent.act_state(state, seat, actions))
                else:
                    state.apply(agent.choose(state, seat))
            left -= 1

    def rewards(self, state: GameState) -> list[float]:
        """Each seat's reward in [0, 1]; a position cut off before the end counts as if the game
        ended there (the highest current scores win). A solo game with a goal measure
        (GameState.solo_goal): 1 for its goal reached, else half its progress towards it, so
        that lines that all fail still differ by how near they come."""
        n = state.players
        if n == 1:
            goal = state.solo_goal()
            if goal is not None:
                won = state.is_terminal and bool(state.winners)
                return [1.0 if won else 0.5 * goal[0]]
        if state.is_terminal:
            winners = state.winners
        else:
            top = max(state.scores)
            winners = [s for s, v in enumerate(state.scores) if v == top]
        out = [0.0] * n
        for s in winners:
            out[s] = 1.0 / len(winners)
        if self.reward_score:
            scores = state.scores
            top, low = max(scores), min(scores)
            spread = (top - low) or 1
            for s in range(n):
                out[s] = 0.8 * out[s] + 0.2 * (scores[s] - low) / spread
        return out
