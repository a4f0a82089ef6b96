"""Seeded many-game simulation: the loop behind `eterna simulate`, reusable by an arena.

Fairness and reproducibility:

- The *lineup* is the list of agent specs, cycled to one per seat (`lineup`).
- Seats rotate every game: in game `g` seat `s` gets `lineup[(s + g) % players]`, so over any
  `players` consecutive games each lineup entry sits once in every seat.
- Game `g` is dealt from seed `seed + g`; the agent in seat `s` of game `g` is seeded with
  `derive_seed(seed, g, s)` (a hash, the same on every machine), so a run is reproduced exactly
  by the same arguments, and `eterna play --seed N` seeds its bots the same way (game 0).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from eterna.agents import make_agent, parse_spec
from eterna.core.agent import Agent
from eterna.core.errors import BadSetup, EternaError
from eterna.core.game import Game, GameState, Record
from eterna.core.registry import load_game
from eterna.core.rng import SEED_LIMIT, check_seed


def derive_seed(seed: int, game_index: int, seat: int) -> int:
    """The seed of the agent in `seat` of game `game_index` of a run seeded `seed`."""
    digest = hashlib.sha256(f"eterna-agent:{seed}:{game_index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_LIMIT


def split_specs(text: str) -> list[str]:
    """A comma-separated list of agent specs, where a spec's own parameters also use commas.

    `heuristic,ismcts:iterations=200,rollout=heuristic,random` is three specs: a `key=value`
    piece after a spec with parameters (`name:...`) continues that spec. A spec taking
    parameters after another's would need its name first: `ismcts:iterations=9,random`.
    """
    specs: list[str] = []
    for piece in (part.strip() for part in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
            specs[-1] += f",{piece}"
        else:
            specs.append(piece)
    return specs


def lineup(agents: Sequence[str], players: int) -> list[str]:
    """The agent specs cycled to one per seat; more specs than seats is an error."""
    specs = [a.strip() for a in agents if a.strip()]
    if not specs:
        raise EternaError("give at least one agent, e.g. --agents heuristic,random")
    if len(specs) > players:
        raise EternaError(f"{len(specs)} agents given for {players} seats: give at most {players}")
    return [specs[i % len(specs)] for i in range(players)]


def seat_specs(line: Sequence[str], game_index: int) -> list[str]:
    """Who sits where in game `game_index`: seat s gets line[(s + game_index) % players]."""
    n = len(line)
    return [line[(s + game_index) % n] for s in range(n)]


def check_agent(game: Game, spec: str) -> None:
    """Fail now, with a clear EternaError, if `spec` cannot play `game`.

    `make_agent` checks the name and parameters; the game's own heuristic is built lazily at
    its first decision, so it is built once here to find out whether the game has one.
    """
    agent = make_agent(spec, seed=0)
    check_game = getattr(agent, "check_game", None)
    if check_game is not None:  # an agent that plays some games only (`learned`)
        check_game(game)
    name, params = parse_spec(spec)
    if name != "heuristic":
        return
    try:
        made = game.make_heuristic(seed=0, **params)
    except ImportError as exc:
        raise EternaError(f"{game.name}'s heuristic agent is not available: {exc}") from None
    except TypeError as exc:
        raise EternaError(f"agent {spec!r}: {exc}") from None
    if made is None:
        raise EternaError(f"{game.name} has no heuristic agent yet")


@dataclass(frozen=True)
class GameResult:
    """One finished game of a run."""

    index: int
    seed: int
    agents: tuple[str, ...]  # agent spec per seat
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    record: Record | None  # None when the run was asked not to keep records
    # Per seat, when the run timed its agents: CPU seconds spent deciding, and the number of
    # decisions with a choice (two legal moves or more). Machine-dependent, so left out of
    # comparisons: two runs of the same games are equal whatever their timing.
    cpu: tuple[float, ...] = field(default=(), compare=False)
    choices: tuple[int, ...] = field(default=(), compare=False)

    def shares(self) -> list[float]:
        """Each seat's share of the win: 1/k to each of k winners, 0 to the others."""
        k = len(self.winners)
        return [1 / k if seat in self.winners else 0.0 for seat in range(len(self.scores))]


def play_out(
    state: GameState,
    agents: Mapping[int, Agent],
    max_actions: int = 100_000,
    cpu: list[float] | None = None,
    choices: list[int] | None = None,
) -> None:
    """Let `agents` (by seat) play `state` to its end. With `cpu` and `choices` (one entry per
    seat), add each seat's CPU time spent deciding (`time.process_time`) and its number of
    decisions with a choice to them; a forced move costs its agent no thought and is not
    counted."""
    timed = cpu is not None and choices is not None
    clock = time.process_time
    for _ in range(max_actions):
        if state.is_terminal:
            return
        seat = state.current_player
        if seat is None:
            return
        if timed and len(state.legal_actions()) > 1:
            assert cpu is not None and choices is not None
            start = clock()
            action = agents[seat].choose(state, seat)
            cpu[seat] += clock() - start
            choices[seat] += 1
        else:
            action = agents[seat].choose(state, seat)
        state.apply(action)
    raise EternaError(f"game did not end within {max_actions} actions")


def run_games(
    game_id: str,
    agents: Sequence[str],
    games: int,
    players: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    keep_records: bool = True,
) -> list[GameResult]:
    """Play `games` seeded games and return their results, in order.

    Everything is checked before the first game (game id, player count, options, agent specs,
    seed), raising EternaError. `on_result` is called after each game (progress, streaming).
    """
    game = load_game(game_id)
    game.check_players(players)
    opts = game.resolve_options(options)
    check_seed(seed)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise EternaError(f"the number of games must be 0 or more, not {games!r}")
    if games and seed + games - 1 >= SEED_LIMIT:
        raise BadSetup("seed + games must stay below 2**62")
    line = lineup(agents, players)
    for spec in dict.fromkeys(line):
        check_agent(game, spec)
    results = []
    for g in range(games):
        specs = seat_specs(line, g)
        seated = {s: make_agent(spec, seed=derive_seed(seed, g, s)) for s, spec in enumerate(specs)}
        state = game.new_game(players=players, seed=seed + g, options=opts)
        play_out(state, seated)
        result = GameResult(
            index=g,
            seed=seed + g,
            agents=tuple(specs),
            scores=tuple(state.scores),
            winners=tuple(state.winners),
            record=state.to_record() if keep_records else None,
        )
        if on_result is not None:
            on_result(result)
        results.append(result)
    return results


@dataclass
class Tally:
    """Wins (shared wins split 1/k), games and points of one agent or one seat."""

    games: int = 0
    wins: float = 0.0
    points: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_score(self) -> float:
        return self.points / self.games if self.games else 0.0


def summarize(results: Sequence[GameResult]) -> tuple[dict[str, Tally], dict[int, Tally]]:
    """Tallies per agent spec (in first-seen order) and per seat."""
    by_agent: dict[str, Tally] = {}
    by_seat: dict[int, Tally] = {}
    for result in results:
        shares = result.shares()
        for seat, spec in enumerate(result.agents):
            for tally in (by_agent.setdefault(spec, Tally()), by_seat.setdefault(seat, Tally())):
                tally.games += 1
                tally.wins += shares[seat]
                tally.points += result.scores[seat]
    return by_agent, by_seat


__all__ = [
    "SEED_LIMIT",  # the core's, with its one seed check (the CLI imports both from here)
    "GameResult",
    "Tally",
    "check_agent",
    "check_seed",
    "derive_seed",
    "lineup",
    "play_out",
    "run_games",
    "seat_specs",
    "split_specs",
    "summarize",
]
