"""Server-side decisions (bot moves, timed-out turns, hints) on a budget, in worker processes.

Every decision runs in a worker process, never on the event loop or in a thread under its GIL,
and has two caps whatever the agent's spec says:

- a cooperative wall-clock cap: ISMCTS searches stop at `ISMCTSAgent.max_seconds` and decide on
  what they found so far;
- a hard cap, `grace` times the budget plus a second, on the CPU time (`ITIMER_PROF`) and the
  wall-clock time (`ITIMER_REAL`) of the task in the worker: past it the task is interrupted
  (`BudgetExceeded`) and the server plays a fallback move instead (see `TurnDriver._decide` in
  driver.py). The server also stops waiting for the answer then.

Work is scheduled fairly (`Lane`): each table's jobs wait in the table's own queue and a free
worker takes the next table's job in round-robin order, so a table can delay another by at
most one of its decisions per worker. Cheap agents (`random`, `heuristic`: milliseconds) have
their own lane, so searches never stand in front of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from eterna.core.game import GameState

log = logging.getLogger("eterna.server")

CHEAP_AGENTS = ("random", "heuristic")
HARD_CAP_FACTOR = 1.5  # the hard cap: this times the budget, plus HARD_CAP_EXTRA seconds
HARD_CAP_EXTRA = 1.0
WATCHDOG_PERIOD = 1.0  # seconds between a worker's looks at whether the server still runs
HINT_SHARE = 0.7  # a hint's search stops itself after this share of its budget


class BudgetExceeded(Exception):
    """A decision ran past its hard cap in the worker and was interrupted."""


# ------------------------------------------------------------------------------ in the worker


def _interrupt(_signum: int, _frame: Any) -> None:
    raise BudgetExceeded("the decision ran past its time budget")


@contextlib.contextmanager
def hard_cap(seconds: float) -> Iterator[None]:
    """Interrupt the code inside after `seconds` of CPU time or wall-clock time (main thread of
    a worker process only: it uses the process's interval timers)."""
    previous = (signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM))
    signal.signal(signal.SIGPROF, _interrupt)
    signal.signal(signal.SIGALRM, _interrupt)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


def _capped(budget: float, fn: Callable[..., Any], *args: Any) -> Any:
    """Run `fn(*args)` in the worker with ISMCTS searches capped at `budget` seconds and the
    whole task at the hard cap."""
    from eterna.agents.ismcts import ISMCTSAgent

    ISMCTSAgent.max_seconds = budget
    try:
        with hard_cap(budget * HARD_CAP_FACTOR + HARD_CAP_EXTRA):
            return fn(*args)
    finally:
        ISMCTSAgent.max_seconds = None


def decide(state: GameState, seat: int, spec: str, seed: int) -> str:
    """A bot's (or a timed-out seat's) move: the action's notation."""
    from eterna.agents import make_agent

    return str(make_agent(spec, seed=seed).choose(state, seat))


def hint(
    state: GameState, seat: int, iterations: int, seed: int, seconds: float | None = None
) -> list[dict[str, Any]]:
    from eterna.arena.hints import advise

    return [c.to_dict() for c in advise(state, seat, iterations, seed, seconds=seconds)]


def _warm_up(server_pid: int) -> None:
    """Start a new worker: a watchdog that ends it when the server is gone (a server killed
    with SIGKILL never tells its workers), then import every game before the first task."""
    import threading

    from eterna.core.registry import game_ids

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(WATCHDOG_PERIOD)
        os._exit(0)

    threading.Thread(target=watch, name="eterna-watchdog", daemon=True).start()
    game_ids()


# ------------------------------------------------------------------------------ in the server


class Lane:
    """`workers` worker processes, shared fairly among keys (tables): each key's jobs wait in
    its own queue; a free worker takes the first job of the next key in round-robin order."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.busy = 0
        self.waiting: OrderedDict[str, deque[tuple[Any, ...]]] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:  # started at the first decision: a server without bots has none
            # spawn: each worker is the server's own child (no fork server to outlive it)
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_warm_up, initargs=(os.getpid(),)
            )
        return self._pool

    async def run(self, key: str, budget: float, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, after the jobs of other keys queued before it (one per key
        per round). Raises BudgetExceeded when the hard cap passes (in the worker or here)."""
        loop = asyncio.get_running_loop()
        result: asyncio.Future[Any] = loop.create_future()
        self.waiting.setdefault(key, deque()).append((budget, fn, args, result))
        self._pump()
        limit = budget * HARD_CAP_FACTOR + HARD_CAP_EXTRA + 1.0  # the worker's cap, then ours
        try:  # a caller cancelled while its job waits takes the job out of the queue
            return await asyncio.wait_for(result, limit + self.queued_wait(key))
        except TimeoutError:
            raise BudgetExceeded(f"no answer from the {self.name} lane in time") from None

    def queued_wait(self, key: str) -> float:
        """A generous bound on how long `key`'s job may wait for a worker: every other key's
        job ahead of it at its hard cap."""
        ahead = sum(1 for k in self.waiting if k != key) + self.busy
        return ahead * 30.0

    def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while self.busy < self.workers and self.waiting:
            key, jobs = self.waiting.popitem(last=False)
            budget, fn, args, result = jobs.popleft()
            if jobs:
                self.waiting[key] = jobs  # its next job goes to the back of the round
            if result.done():  # its caller gave up while it waited
                continue
            self.busy += 1
            future = self.pool().submit(_capped, budget, fn, *args)
            future.add_done_callback(functools.partial(self._done, loop, result))

    def _done(
        self, loop: asyncio.AbstractEventLoop, result: asyncio.Future[Any], future: Future[Any]
    ) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped
            loop.call_soon_threadsafe(self._settle, future, result)

    def _settle(self, future: Future[Any], result: asyncio.Future[Any]) -> None:
        self.busy -= 1
        if not result.done():
            if future.cancelled():
                result.cancel()
            elif future.exception() is not None:
                result.set_exception(future.exception())  # type: ignore[arg-type]
            else:
                result.set_result(future.result())
        self._pump()

    def stop(self) -> None:
        for jobs in self.waiting.values():
            for *_rest, result in jobs:
                result.cancel()
        self.waiting.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Workers:
    """The server's decision lanes: cheap bots, and searches (ISMCTS bots and hints)."""

    def __init__(self, cheap_workers: int, search_workers: int) -> None:
        self.cheap = Lane("cheap", cheap_workers)
        self.search = Lane("search", search_workers)

    def lane_for(self, spec: str) -> Lane:
        name = spec.partition(":")[0].strip()
        return self.cheap if name in CHEAP_AGENTS else self.search

    async def decide(
        self, key: str, budget: float, state: GameState, seat: int, spec: str, seed: int
    ) -> str:
        result: str = await self.lane_for(spec).run(key, budget, decide, state, seat, spec, seed)
        return result

    async def hint(
        self, key: str, budget: float, state: GameState, seat: int, iterations: int, seed: int
    ) -> list[dict[str, Any]]:
        # the search stops itself well before the budget (a solo game's heuristic rollouts
        # are slower than random ones), deciding on the iterations done by then
        result: list[dict[str, Any]] = await self.search.run(
            key, budget, hint, state, seat, iterations, seed, budget * HINT_SHARE
        )
        return result

    def stop(self) -> None:
        self.cheap.stop()
        self.search.stop()


__all__ = ["BudgetExceeded", "Lane", "Workers", "hard_cap"]
