"""Playing an arena's games: in this process, in a process pool, or on a Ray cluster.

Each game is a pure function of (game, players, options, match) (see `pairing`), so the backend
only decides where games run: results are gathered, sorted by game index and aggregated in
order, and are identical whichever backend and however many workers played them.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from eterna.agents import make_agent
from eterna.arena.pairing import Match, rotation_sets, schedule
from eterna.arena.simulate import GameResult, check_agent, check_seed, lineup, play_out
from eterna.core.errors import EternaError
from eterna.core.registry import load_game

BACKENDS = ("process", "ray")


@dataclass(frozen=True)
class ArenaSpec:
    """Everything that decides an arena's games (and so its results)."""

    game: str
    players: int
    lineup: tuple[str, ...]  # one spec per seat, before rotation
    games: int  # games played: the request rounded up to whole rotation sets
    requested: int  # games asked for
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def deals(self) -> int:
        return self.games // self.players if self.players else 0


def prepare(
    game_id: str,
    agents: Sequence[str],
    games: int,
    players: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> ArenaSpec:
    """Check everything before the first game (EternaError on bad input)."""
    game = load_game(game_id)
    game.check_players(players)
    opts = game.resolve_options(options)
    check_seed(seed)
    line = lineup(agents, players)
    for spec in dict.fromkeys(line):
        check_agent(game, spec)
    deals = rotation_sets(games, players)
    return ArenaSpec(
        game=game.id,
        players=players,
        lineup=tuple(line),
        games=deals * players,
        requested=games,
        seed=seed,
        options=opts,
    )


def play_match(
    game_id: str,
    players: int,
    options: Mapping[str, Any],
    match: Match,
    keep_record: bool = False,
) -> GameResult:
    """Play one game of an arena (a pure function of its arguments)."""
    game = load_game(game_id)
    seated = {
        seat: make_agent(spec, seed=match.agent_seeds[seat])
        for seat, spec in enumerate(match.agents)
    }
    state = game.new_game(players=players, seed=match.seed, options=dict(options))
    cpu = [0.0] * players
    choices = [0] * players
    play_out(state, seated, cpu=cpu, choices=choices)
    return GameResult(
        index=match.index,
        seed=match.seed,
        agents=match.agents,
        scores=tuple(state.scores),
        winners=tuple(state.winners),
        record=state.to_record() if keep_record else None,
        cpu=tuple(cpu),
        choices=tuple(choices),
    )


def play_chunk(
    game_id: str,
    players: int,
    options: Mapping[str, Any],
    matches: Sequence[Match],
    keep_records: bool = False,
) -> list[GameResult]:
    """Play several games (one task of a pool or a cluster)."""
    return [play_match(game_id, players, options, m, keep_records) for m in matches]


def chunks(matches: Sequence[Match], workers: int, players: int) -> list[list[Match]]:
    """Whole rotation sets per task, about eight tasks per worker (fewer for short arenas)."""
    deals = len(matches) // players if players else 0
    per_task = max(1, deals // max(1, workers * 8)) * players
    return [list(matches[i : i + per_task]) for i in range(0, len(matches), per_task)]


def default_workers() -> int:
    return os.cpu_count() or 1


def run_arena(
    spec: ArenaSpec,
    workers: int | None = None,
    backend: str = "process",
    address: str | None = None,
    on_results: Callable[[list[GameResult]], None] | None = None,
    keep_records: bool = False,
) -> list[GameResult]:
    """Play every game of `spec` and return the results sorted by game index.

    `backend="process"` uses a process pool of `workers` (default: the machine's CPU count;
    1 plays in this process); `backend="ray"` uses a Ray cluster at `address`, or a local Ray
    instance of `workers` CPUs when no address is given and Ray is not already initialised.
    `on_results` is called with each finished batch (in completion order: progress only).
    """
    if backend not in BACKENDS:
        raise EternaError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise EternaError(f"workers must be a positive integer, not {workers!r}")
    matches = schedule(spec.lineup, spec.requested, spec.seed)
    tasks = chunks(matches, workers, spec.players)
    args = (spec.game, spec.players, spec.options)
    results: list[GameResult] = []

    def collect(batch: list[GameResult]) -> None:
        results.extend(batch)
        if on_results is not None:
            on_results(batch)

    if backend == "ray":
        for batch in _ray_batches(args, tasks, workers, address, keep_records):
            collect(batch)
    elif workers == 1 or len(tasks) <= 1:
        for task in tasks:
            collect(play_chunk(*args, task, keep_records))
    else:
        context = _pool_context()
        if context.get_start_method() == "fork":  # warm up once here, for every worker
            play_match(*args, matches[0])
        for batch in _pool_batches(args, tasks, workers, keep_records, context):
            collect(batch)
    results.sort(key=lambda r: r.index)
    return results


def _pool_context() -> Any:
    """How to start workers. Forking this process is fastest (the workers inherit the loaded,
    warmed-up game) but is only safe while it runs a single thread; otherwise workers fork from a
    clean server process that has imported eterna (forkserver), or are spawned. Those two run
    the main module again in each worker, so a script using them needs the usual
    `if __name__ == "__main__":` guard."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["eterna.arena.runner"])
        return ctx
    return multiprocessing.get_context("spawn")


def _pool_batches(
    args: tuple[str, int, dict[str, Any]],
    tasks: list[list[Match]],
    workers: int,
    keep_records: bool,
    context: Any,
) -> Iterator[list[GameResult]]:
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as ex:
        pending: set[Future[list[GameResult]]] = {
            ex.submit(play_chunk, *args, task, keep_records) for task in tasks
        }
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    try:
                        batch = future.result()
                    except BrokenProcessPool as exc:
                        raise EternaError(f"a worker process died: {exc}") from None
                    yield batch
        finally:
            for future in pending:
                future.cancel()


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast (EternaError) when nothing listens at a Ray address `host:port` or
    `ray://host:port` (`ray.init` itself retries for minutes); `auto` is left to Ray."""
    target = address.removeprefix("ray://")
    host, colon, port = target.rpartition(":")
    if not colon or not port.isdigit():
        if target in ("auto", "local"):
            return
        raise EternaError(f"a Ray address reads host:port or ray://host:port, not {address!r}")
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()
    except OSError as exc:
        raise EternaError(f"cannot reach a Ray cluster at {address}: {exc}") from None


def _ray_batches(
    args: tuple[str, int, dict[str, Any]],
    tasks: list[list[Match]],
    workers: int,
    address: str | None,
    keep_records: bool,
) -> Iterator[list[GameResult]]:
    try:
        import ray
    except ImportError:
        raise EternaError("the ray backend needs Ray: pip install 'ray==2.60.0'") from None
    started = False
    if not ray.is_initialized():
        if address:
            check_reachable(address)
        try:
            if address:
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            else:
                ray.init(
                    num_cpus=workers,
                    include_dashboard=False,
                    logging_level=logging.WARNING,
                    log_to_driver=False,
                )
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise EternaError(f"cannot start or reach Ray at {address or 'local'}: {exc}") from None
        started = True
    try:
        remote = ray.remote(play_chunk)
        pending = [remote.remote(*args, task, keep_records) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
