"""Turn driving: what happens at a table without a client. A bot's move or a timed-out turn
(`schedule`, decided in a worker process on a budget: workers.py), retried with backoff when it
could not be stored, and hints. A part of its own: it owns each table's pending task, its turn
deadline and its hints in progress; the move it decides is played through `submit`, the move
part's (moves.py, given when the server is wired: app.py), and on a cluster node only while the
node holds the table's lease (`cluster`)."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable

from eterna.core.errors import EternaError
from eterna.server.cluster import Cluster
from eterna.server.live import Connection, LiveTable
from eterna.server.protocol import Refusal, error_frame, hint_frame
from eterna.server.settings import TIMEOUT_AGENT, Settings
from eterna.server.workers import BudgetExceeded, Workers

log = logging.getLogger("eterna.server")


def agent_seed(table_seed: int, seat: int, ply: int) -> int:
    """A bot's seed for one decision: fixed by the table, the seat and the position, so a restart
    replays the same bot decisions as an uninterrupted server would have made."""
    digest = hashlib.sha256(f"eterna-server:{table_seed}:{seat}:{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


Submit = Callable[..., Awaitable[Refusal | None]]


async def _not_wired(*_args: object, **_kwargs: object) -> Refusal | None:
    raise RuntimeError("the turn driver has no move part to play through (app.py wires it)")


class TurnDriver:
    """Bots, turn timers and hints of every table (see the module's doc)."""

    def __init__(self, settings: Settings, workers: Workers, cluster: Cluster | None) -> None:
        self.settings = settings
        self.workers = workers
        self.cluster = cluster
        # the move part's submit (moves.py), which needs this part in turn: given by assemble()
        self.submit: Submit = _not_wired
        self.stopping = False

    def drives(self, table: LiveTable) -> bool:
        """This process runs the table's bots, timer and expiry: always on a single server, on
        a cluster node only while it holds the table's lease (leases.py)."""
        return self.cluster is None or self.cluster.holds(table.id)

    def stop(self, tables: Iterable[LiveTable]) -> None:
        """Drive nothing any more (the server is stopping): every pending move cancelled."""
        self.stopping = True
        for table in tables:
            self.cancel(table)

    # ----------------------------------------------------------------- bots and timers
    def cancel(self, table: LiveTable) -> None:
        """Cancel the table's pending bot move or turn timer, if any."""
        task, table.task = table.task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def start(self, table: LiveTable) -> None:
        """The game starts (its last seat was taken): arm its turn timer, start its bots."""
        self.set_deadline(table)
        self.schedule(table)

    def restart(self, table: LiveTable) -> None:
        """The table's position changed under its pending work (reloaded, caught up, taken
        over): cancel it, arm the turn timer afresh and schedule what comes next."""
        self.cancel(table)
        self.set_deadline(table)
        self.schedule(table)

    def set_deadline(self, table: LiveTable) -> None:
        table.deadline = None
        player = table.state.current_player
        if table.over or player is None or table.data.turn_timer is None or table.waiting():
            return
        if table.data.seats[player].kind == "human":
            table.deadline = time.time() + table.data.turn_timer

    async def loaded(self, table: LiveTable) -> None:
        """A table just loaded into memory: its bots and timer start if this process drives
        it; on a cluster node that does not, its copy shows the turn deadline the driver
        stored (else a page whose socket is on this node would show no countdown until the
        next move, whose message carries the deadline: relay.py)."""
        self.schedule(table)
        if self.cluster is None or self.drives(table) or table.data.turn_timer is None:
            return
        try:
            armed = await self.cluster.db(self.cluster.leases.armed, table.id)
        except Exception:
            log.warning("table %s: its turn deadline could not be read", table.id)
            return
        async with table.lock:
            if table.deadline is not None or armed is None or armed[1] != table.ply:
                return  # a move heard meanwhile told it, or the driver has not armed it yet
            self.set_deadline(table)  # whether this turn has a deadline at all
            if table.deadline is not None:
                table.deadline = armed[0]

    def schedule(self, table: LiveTable) -> None:
        """Start whatever must happen without a client: a bot's move or a turn timer."""
        if self.stopping or table.over or table.task is not None or table.waiting():
            return
        if not self.drives(table):
            return
        player = table.state.current_player
        if player is None:
            return
        seat = table.data.seats[player]
        if seat.kind == "bot":
            delay = table.data.bot_delay
            delay = self.settings.bot_delay if delay is None else delay
            table.task = asyncio.create_task(
                self._auto_move(table, player, seat.agent or "heuristic", delay)
            )
        elif table.data.turn_timer is not None:
            if table.deadline is None:
                self.set_deadline(table)
            if self.cluster is not None and table.deadline is not None:
                self.cluster.arm_later(table.id, table.deadline, table.ply)
            wait = max(0.0, (table.deadline or time.time()) - time.time())
            table.task = asyncio.create_task(self._auto_move(table, player, TIMEOUT_AGENT, wait))

    async def _auto_move(self, table: LiveTable, seat: int, spec: str, delay: float) -> None:
        """Wait, then let `spec` choose for `seat` (in a worker process, on a budget). A move
        that could not be stored is tried again later, so a failing store never stops a
        table's bots for good."""
        started = time.monotonic()
        ply = table.ply
        retry = False
        try:
            action = await self._decide(table, seat, spec, ply)
            rest = delay - (time.monotonic() - started)
            if rest > 0:
                await asyncio.sleep(rest)
            if table.task is not asyncio.current_task():
                return
            timed_out = table.data.seats[seat].kind == "human"  # the turn timer played it
            error = await self.submit(table, seat, action, ply, timed_out, driven=True)
            if error is not None and error[0] != "stale":  # stale: a human acted first
                log.error("table %s: %s's move refused: %s", table.id, spec, error)
                retry = error[0] in ("server_error", "server_busy", "unavailable")
            table.failures = 0 if error is None else table.failures
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the %s agent failed for seat %d", table.id, spec, seat)
            retry = True
        finally:
            if table.task is asyncio.current_task():
                table.task = None
        if retry:
            self._retry_later(table)

    async def _decide(self, table: LiveTable, seat: int, spec: str, ply: int) -> str:
        """`spec`'s move for `seat`, from a clone, in a worker process within the budget; a
        seeded random legal move when the agent fails or runs out of time."""
        state = table.state.clone()
        seed = agent_seed(table.data.seed, seat, ply)
        budget = self.settings.bot_seconds
        try:
            return await self.workers.decide(table.id, budget, state, seat, spec, seed)
        except (BudgetExceeded, EternaError) as exc:
            log.warning("table %s: %s for seat %d: %s; a random move", table.id, spec, seat, exc)
        except Exception:
            log.exception("table %s: the %s agent failed for seat %d", table.id, spec, seat)
        return str(random.Random(seed).choice(state.legal_actions()))

    def _retry_later(self, table: LiveTable) -> None:
        """Schedule the table's bot or timer again after a failure, backing off."""
        table.failures += 1
        wait = min(self.settings.retry_max, self.settings.retry_delay * 2 ** (table.failures - 1))
        asyncio.get_running_loop().call_later(wait, self.schedule, table)

    # ----------------------------------------------------------------- hints
    async def hint(self, table: LiveTable, conn: Connection) -> None:
        """A hint for the connection's seat: one at a time per seat (not per connection), in a
        worker process within `hint_seconds`."""
        seat = conn.seat
        refused = self._hint_refusal(table, seat)
        if refused is not None:
            conn.send_json(error_frame(*refused, conn.lang, "hint"))
            return
        assert seat is not None
        table.hinting.add(seat)
        iterations = self.settings.hint_iterations
        try:
            candidates = await self.workers.hint(
                table.id,
                self.settings.hint_seconds,
                table.state.clone(),
                seat,
                iterations,
                random.SystemRandom().getrandbits(32),
            )
            conn.send_json(hint_frame(candidates, iterations))
        except EternaError as exc:
            conn.send_json(error_frame("not_your_turn", str(exc), conn.lang, "hint"))
        except BudgetExceeded:
            conn.send_json(
                error_frame("server_busy", "the hint took too long; try again", conn.lang, "hint")
            )
        except Exception:  # a search bug must not leave the client waiting for an answer
            log.exception("table %s: hint failed for seat %d", table.id, seat)
            conn.send_json(
                error_frame("server_error", "the hint could not be computed", conn.lang, "hint")
            )
        finally:
            table.hinting.discard(seat)

    def _hint_refusal(self, table: LiveTable, seat: int | None) -> tuple[str, str] | None:
        if seat is None:
            return "spectator", "spectators get no hints"
        if table.over:
            return "game_over", "the game is over"
        if table.waiting():
            return "waiting", "the game starts when every seat is taken"
        if table.state.current_player != seat:
            return "not_your_turn", "a hint is for your own turn"
        if seat in table.hinting:
            return "rate_limited", "a hint for this seat is already being computed"
        return None
