"""Server-side decisions (bot moves, timed-out turns, hints) on a budget, in worker processes.

Every decision runs in a worker process, never on the event loop or in a thread under its GIL,
and has two caps whatever the agent's spec says:

- a cooperative wall-clock cap: an ISMCTS agent's searches stop at the budget (its
  `max_seconds`) and decide on what they found so far;
- a hard cap, `grace` times the budget plus a second, on the CPU time (`ITIMER_PROF`) and the
  wall-clock time (`ITIMER_REAL`) of the task in the worker: past it the task is interrupted
  (`BudgetExceeded`) and the server plays a fallback move instead (see `TurnDriver._decide` in
  driver.py). The server also stops waiting for the answer then.

Work is scheduled fairly (`Lane`): each table's jobs wait in the table's own queue and a free
worker takes the next table's job in round-robin order, so a table can delay another by at
most one of its decisions per worker. Cheap agents (`random`, `heuristic`: milliseconds) have
their own lane, so searches never stand in front of them.

Posted positions (loading, guessing, describing, writing: position_work.py) have a lane of their
own too, so a costly position never stands in front of a bot's move. Every worker also has a
memory cap (`RLIMIT_AS`, `memory` bytes above what it holds once started: past it the task gets
a `MemoryError`) and each task a CPU cap (`RLIMIT_CPU`: compiled code that never lets the timer's
signal through is killed by the kernel). A worker that dies, or that does not answer by the
server's own deadline, is killed and its lane starts a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import resource
import signal
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from eterna.core.game import GameState

log = logging.getLogger("eterna.server")

CHEAP_AGENTS = ("random", "heuristic", "learned")
HARD_CAP_FACTOR = 1.5  # the hard cap: this times the budget, plus HARD_CAP_EXTRA seconds
HARD_CAP_EXTRA = 1.0
WATCHDOG_PERIOD = 1.0  # seconds between a worker's looks at whether the server still runs
WORKER_MEMORY = 1024 * 1024 * 1024  # bytes a worker may map beyond what it holds once started
HINT_SHARE = 0.7  # a hint's search stops itself after this share of its budget


class BudgetExceeded(Exception):
    """A decision ran past its hard cap in the worker and was interrupted."""


class LaneBusy(BudgetExceeded):
    """A job waited for a free worker longer than the lane allows (it never started)."""


# ------------------------------------------------------------------------------ in the worker


def _interrupt(_signum: int, _frame: Any) -> None:
    raise BudgetExceeded("the decision ran past its time budget")


def _cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def hard_cap(seconds: float, kernel: bool = False) -> Iterator[None]:
    """Interrupt the code inside after `seconds` of CPU time or wall-clock time (main thread of
    a worker process only: it uses the process's interval timers). `kernel`: also let the
    kernel end the process (`RLIMIT_CPU`) a second after that, should compiled code hold the
    interpreter past the timers' signals."""
    previous = (signal.getsignal(signal.SIGPROF), signal.getsignal(signal.SIGALRM))
    limits = resource.getrlimit(resource.RLIMIT_CPU)
    signal.signal(signal.SIGPROF, _interrupt)
    signal.signal(signal.SIGALRM, _interrupt)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    if kernel:
        ceiling = int(_cpu_used() + seconds) + 2
        if limits[1] == resource.RLIM_INFINITY or ceiling <= limits[1]:
            resource.setrlimit(resource.RLIMIT_CPU, (ceiling, limits[1]))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
        if kernel:
            resource.setrlimit(resource.RLIMIT_CPU, limits)


def _capped(budget: float, fn: Callable[..., Any], *args: Any) -> Any:
    """Run `fn(*args)` in the worker with the whole task at the hard cap (the tasks cap their
    own searches at `budget`)."""
    with hard_cap(budget * HARD_CAP_FACTOR + HARD_CAP_EXTRA, kernel=True):
        return fn(*args)


def decide(state: GameState, seat: int, spec: str, seed: int, budget: float | None = None) -> str:
    """A bot's (or a timed-out seat's) move: the action's notation; a search stops at
    `budget` seconds (None: as its spec says)."""
    from eterna.agents import make_agent
    from eterna.agents.ismcts import ISMCTSAgent

    agent = make_agent(spec, seed=seed)
    if isinstance(agent, ISMCTSAgent):
        agent.max_seconds = budget
    return str(agent.choose(state, seat))


def hint(
    state: GameState, seat: int, iterations: int, seed: int, seconds: float | None = None
) -> list[dict[str, Any]]:
    from eterna.arena.hints import advise

    return [c.to_dict() for c in advise(state, seat, iterations, seed, seconds=seconds)]


def _warm_up(server_pid: int, memory: int = 0, preload: tuple[str, ...] = ()) -> None:
    """Start a new worker: a watchdog that ends it when the server is gone (a server killed
    with SIGKILL never tells its workers), then import every game and the `preload` modules
    before the first task, then cap its address space at what it maps now plus `memory` bytes
    (0: no cap)."""
    import importlib
    import threading

    from eterna.core.registry import game_ids

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(WATCHDOG_PERIOD)
        os._exit(0)

    threading.Thread(target=watch, name="eterna-watchdog", daemon=True).start()
    game_ids()
    for module in preload:  # imported now: not within the first task's time cap
        importlib.import_module(module)

    if memory > 0:
        cap = _mapped_bytes() + memory
        hard = resource.getrlimit(resource.RLIMIT_AS)[1]
        if hard == resource.RLIM_INFINITY or cap <= hard:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


def _mapped_bytes() -> int:
    """The worker's address space now (VmSize), in bytes."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


# ------------------------------------------------------------------------------ in the server


class Lane:
    """`workers` worker processes, shared fairly among keys (tables): each key's jobs wait in
    its own queue; a free worker takes the first job of the next key in round-robin order."""

    def __init__(
        self, name: str, workers: int, memory: int = WORKER_MEMORY, preload: tuple[str, ...] = ()
    ) -> None:
        self.name = name
        self.workers = max(1, workers)
        self.memory = memory
        self.preload = preload
        self.busy = 0
        self.waiting: OrderedDict[str, deque[tuple[Any, ...]]] = OrderedDict()
        self._pool: ProcessPoolExecutor | None = None
        self.running: dict[asyncio.Future[Any], tuple[float, ProcessPoolExecutor]] = {}
        self.restarts = 0  # workers killed or lost, and replaced

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:  # started at the first decision: a server without bots has none
            # spawn: each worker is the server's own child (no fork server to outlive it)
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_warm_up,
                initargs=(os.getpid(), self.memory, self.preload),
            )
        return self._pool

    def restart(self, pool: ProcessPoolExecutor | None) -> None:
        """Kill the lane's workers (`pool`: one ran past every cap, or died) and start afresh
        at the next job; the jobs they were running fail (`BrokenProcessPool`). Nothing when
        `pool` was replaced already."""
        if pool is None or pool is not self._pool:
            return
        self._pool = None
        self.restarts += 1
        log.warning("%s lane: restarting its workers", self.name)
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, key: str, budget: float, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, after the jobs of other keys queued before it (one per key
        per round). Raises BudgetExceeded when the hard cap passes (in the worker or here)."""
        loop = asyncio.get_running_loop()
        result: asyncio.Future[Any] = loop.create_future()
        self.waiting.setdefault(key, deque()).append((budget, fn, args, result))
        self._pump()
        limit = budget * HARD_CAP_FACTOR + HARD_CAP_EXTRA + 1.0  # the worker's cap, then ours
        started = loop.time()
        try:  # a caller cancelled while its job waits takes the job out of the queue
            return await asyncio.wait_for(result, limit + self.queued_wait(key))
        except TimeoutError:
            running = self.running.get(result)
            log.warning("%s lane: no answer after %.1f s", self.name, loop.time() - started)
            if running is None:
                raise LaneBusy(f"no free worker in the {self.name} lane in time") from None
            if loop.time() - running[0] >= limit:
                self.restart(running[1])  # its worker is stuck past every cap of its own
            raise BudgetExceeded(f"no answer from the {self.name} lane in time") from None
        except BrokenProcessPool:
            raise BudgetExceeded(f"the {self.name} lane's worker died on this task") from None

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
            pool = self.pool()
            try:
                future = pool.submit(_capped, budget, fn, *args)
            except BrokenProcessPool:  # a worker died since: start afresh
                self.restart(pool)
                pool = self.pool()
                future = pool.submit(_capped, budget, fn, *args)
            self.running[result] = (loop.time(), pool)
            future.add_done_callback(functools.partial(self._done, loop, result, pool))

    def _done(
        self,
        loop: asyncio.AbstractEventLoop,
        result: asyncio.Future[Any],
        pool: ProcessPoolExecutor,
        future: Future[Any],
    ) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: the server stopped
            loop.call_soon_threadsafe(self._settle, future, result, pool)

    def _settle(
        self, future: Future[Any], result: asyncio.Future[Any], pool: ProcessPoolExecutor
    ) -> None:
        self.busy -= 1
        self.running.pop(result, None)
        if not result.done():
            if future.cancelled():
                result.cancel()
            elif future.exception() is not None:
                result.set_exception(future.exception())  # type: ignore[arg-type]
            else:
                result.set_result(future.result())
        if not future.cancelled() and isinstance(future.exception(), BrokenProcessPool):
            self.restart(pool)  # a worker died (a kernel limit, a crash): the next gets a new one
        self._pump()

    def stop(self) -> None:
        for jobs in self.waiting.values():
            for *_rest, result in jobs:
                result.cancel()
        self.waiting.clear()
        self.running.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Workers:
    """The server's lanes: cheap bots, searches (ISMCTS bots and hints) and posted positions."""

    def __init__(
        self,
        cheap_workers: int,
        search_workers: int,
        position_workers: int = 1,
        position_memory: int = WORKER_MEMORY,
    ) -> None:
        self.cheap = Lane("cheap", cheap_workers)
        self.search = Lane("search", search_workers)
        self.positions = Lane(
            "positions", position_workers, position_memory, ("eterna.server.position_work",)
        )

    def lane_for(self, spec: str) -> Lane:
        name = spec.partition(":")[0].strip()
        return self.cheap if name in CHEAP_AGENTS else self.search

    async def decide(
        self, key: str, budget: float, state: GameState, seat: int, spec: str, seed: int
    ) -> str:
        lane = self.lane_for(spec)
        result: str = await lane.run(key, budget, decide, state, seat, spec, seed, budget)
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

    async def position(self, key: str, budget: float, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` (a task of position_work.py) in the positions lane, on `budget`."""
        return await self.positions.run(key, budget, fn, *args)

    def warm(self) -> None:
        """Start the cheap lane's workers now (a cluster node that takes a table over plays its
        bot at once, not after a worker process has started)."""
        for _ in range(self.cheap.workers):
            self.cheap.pool().submit(int)

    def stop(self) -> None:
        self.cheap.stop()
        self.search.stop()
        self.positions.stop()


__all__ = ["BudgetExceeded", "Lane", "LaneBusy", "Workers", "hard_cap"]
