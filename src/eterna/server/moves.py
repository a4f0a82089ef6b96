"""The move part: a table's game going forward. A game starts when its last seat is taken;
a move is checked on a clone of the state, committed to storage (writer.py), and only then does
the clone become the table's state and the update go out (broadcast.py), and to the other nodes
of a cluster (cluster.py); a table ends early (abandoned, too long) by its driver; a table that
holds an action this process did not apply is read again.

So a refused action changes nothing, and a server killed at any moment restarts with every game
where its last broadcast left it (resumed lazily: see store.py). A move runs on the event loop
except its commit (the per-move commits of SQLite run on the loop, grouped: see writer.py).

On a cluster node, an action another node stored is applied here too (`apply`, told by
relay.py), and a copy that missed some is caught up from the database (`catch_up`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy.exc import OperationalError

from eterna.core.errors import BadNotation, EternaError, IllegalAction
from eterna.server.broadcast import Broadcaster
from eterna.server.cluster import Cluster
from eterna.server.database import Database
from eterna.server.driver import TurnDriver
from eterna.server.live import LiveTable, replay_table
from eterna.server.protocol import Refusal
from eterna.server.seating import Seating
from eterna.server.settings import Settings
from eterna.server.storage import LeaseLost, PendingAction, PlyConflict, StorageBusy
from eterna.server.store import TableStore
from eterna.server.told import told_since
from eterna.server.writer import ActionWriter

log = logging.getLogger("eterna.server")
UNREACHABLE = "common.error.unavailable.database"  # a move's refusal while the database is away


class Moves:
    """Starting, moving and ending every table's game (see the module's doc)."""

    def __init__(
        self,
        settings: Settings,
        database: Database,
        store: TableStore,
        driver: TurnDriver,
        fanout: Broadcaster,
        seating: Seating,
        cluster: Cluster | None = None,
    ) -> None:
        self.settings = settings
        self.database = database
        self.store = store
        self.driver = driver
        self.fanout = fanout
        self.seating = seating
        self.cluster = cluster
        self.writer = ActionWriter(database)

    def announce(self, message: dict[str, Any]) -> None:
        """Tell the other nodes of a cluster (nothing without one)."""
        if self.cluster is not None:
            self.cluster.publish(message)

    async def submit(
        self,
        table: LiveTable,
        seat: int,
        text: str,
        ply: int | None = None,
        timed_out: bool = False,
        driven: bool = False,
    ) -> Refusal | None:
        """Play `text` for `seat`. None when accepted (the update is the answer), else the
        refusal (the error frame's code and message, the rule's words). A refusal leaves the
        table exactly as it was.

        The work runs shielded: a submitter cancelled mid-way (a bot whose turn a human took, a
        closing connection) never leaves an action stored but not applied. `timed_out`: the
        turn timer plays for the seat (everyone is told so). `driven`: a bot's or the timer's
        move, which a cluster node writes only while it holds the table's lease (fencing)."""
        work = self._submit(table, seat, text, ply, timed_out, driven)
        return await asyncio.shield(asyncio.ensure_future(work))

    async def _submit(
        self, table: LiveTable, seat: int, text: str, ply: int | None, timed_out: bool, driven: bool
    ) -> Refusal | None:
        async with table.lock:
            fence = None
            if self.cluster is not None:
                if not self.cluster.redis_ok:  # a move this node could not announce
                    return Refusal("unavailable", "the server is reconnecting to its cluster")
                fence = self.cluster.fence(table.id) if driven else None
                if driven and (fence is None or not self.cluster.holds(table.id)):
                    return Refusal("stale", "another node drives this table now")
            if table.over:
                return Refusal("game_over", "the game is over")
            if ply is not None and ply != table.ply:
                return Refusal("stale", f"the game is at ply {table.ply}, not {ply}")
            state = table.state
            if state.current_player != seat:
                return Refusal("not_your_turn", f"it is seat {state.current_player}'s turn")
            if table.waiting() and self.cluster is not None:
                # a seat claimed through another node may not have reached this copy yet
                await self.seating.refresh(table)
            if table.waiting():
                return Refusal("waiting", "the game starts when every seat is taken")
            try:
                action = table.game.parse_action(text)
                following = state.clone()
                following.apply(action)
                public = state.public_notation(action)
            except IllegalAction as exc:
                return Refusal("illegal_action", str(exc), exc.key, exc.params, exc.rule)
            except BadNotation as exc:
                return Refusal("bad_notation", str(exc))
            except EternaError as exc:
                return Refusal("illegal_action", str(exc))
            except Exception:  # an engine bug must not take the server down
                log.exception("table %s: engine failed on %r", table.id, text)
                return Refusal("server_error", "the server could not check this action")
            notation = str(action)
            number = table.ply
            result = (
                (list(following.scores), list(following.winners)) if following.is_terminal else None
            )
            try:
                finished_at = await self.writer.write(
                    PendingAction(table.id, number, seat, notation, result, fence)
                )
            except LeaseLost:
                log.warning("table %s: ply %d refused: the lease moved on", table.id, number)
                return Refusal("stale", "another node drives this table now")
            except PlyConflict:
                log.error("table %s: ply %d already stored: reloading it", table.id, number)
                await self.resync(table)
                return Refusal("stale", "the game moved on: here is where it stands")
            except StorageBusy:
                log.warning("table %s: ply %d not stored: the database is locked", table.id, number)
                return Refusal("server_busy", "the game store is busy; try again in a moment")
            except OperationalError:  # the database cannot be reached (logged by the writer)
                return Refusal("unavailable", "the database cannot be reached", UNREACHABLE)
            except Exception:
                log.exception("table %s: cannot store ply %d", table.id, number)
                return Refusal("server_error", "the action could not be stored; try again")
            # Stored: from here on the action is part of the game.
            timing = (finished_at, timed_out)
            await self.accepted(table, seat, notation, public, following, result, timing)
            self.announce(
                {
                    "k": "act",
                    "t": table.id,
                    "p": table.ply,
                    "s": seat,
                    "n": notation,
                    "x": timed_out,
                    "f": finished_at,
                    "d": table.deadline,
                }
            )
        return None

    async def accepted(
        self,
        table: LiveTable,
        seat: int,
        notation: str,
        public: str | None,
        following: Any,
        result: tuple[list[int], list[int]] | None,
        timing: tuple[float, bool],
        deadline: float | None = None,
        remote: bool = False,
    ) -> None:
        """A stored action becomes the table's state; everyone is told (with the table's lock
        held). `timing`: when it was stored, and whether the turn timer played it. `remote`:
        another node stored it (its turn `deadline`, if any, is the one everyone sees)."""
        finished_at, timed_out = timing
        told_from = told_since(table, kept=timed_out)
        table.state = following
        table.data.actions.append((seat, notation))
        table.shown(public)
        if result is not None:
            table.data.status = "over"
            table.data.finished_at = finished_at
            table.data.scores, table.data.winners = result
        self.driver.cancel(table)
        self.driver.set_deadline(table)
        if remote and deadline is not None and table.deadline is not None:
            table.deadline = deadline
        self.fanout.action(table, seat, notation, public, told_from, timed_out)
        if not remote and not table.over and table.ply >= self.settings.max_plies:
            await self.end_early(table, "ply_limit")
        self.driver.schedule(table)
        if table.over:
            self.store.forget_if_idle(table)

    async def end_early(self, table: LiveTable, ended: str) -> None:
        """End a table that is not over, without winners (`ended`: "abandoned", "ply_limit"),
        with the table's lock held; it stays in history, and everyone connected is told."""
        scores = list(table.state.scores)
        storage = self.database.storage
        try:
            finished_at = await self.database.run(storage.end_table, table.id, ended, scores)
        except Exception:
            log.exception("table %s: cannot end it (%s)", table.id, ended)
            return
        data = table.data
        data.status, data.ended, data.finished_at = "over", ended, finished_at
        data.scores, data.winners = scores, []
        self.driver.cancel(table)
        table.deadline = None
        self.fanout.nothing_new(table)
        self.announce({"k": "ended", "t": table.id})
        log.info("table %s ended: %s", table.id, ended)

    async def resync(self, table: LiveTable) -> None:
        """Read a table that holds an action this process did not apply: a cluster node
        catches its copy up, each action told in turn; a single server reloads it."""
        if self.cluster is not None:
            await self.catch_up(table)
        else:
            await self.reload(table)

    async def reload(self, table: LiveTable) -> None:
        """Reload a table from storage (it holds an action this process did not apply: another
        server on the same database?) and show everyone where the game stands."""
        data = await self.database.run(self.database.storage.load_table, table.id)
        if data is None:
            return
        try:
            state = replay_table(data)
        except EternaError:
            log.exception("table %s cannot be replayed", table.id)
            return
        table.data, table.state = data, state
        table._shown = None  # rebuilt from the reloaded actions on the next connection
        self.driver.restart(table)
        self.fanout.nothing_new(table)

    # ----------------------------------------------------------------- a cluster's copies
    async def apply(
        self,
        table: LiveTable,
        seat: int,
        notation: str,
        stored_at: float,
        timed_out: bool = False,
        deadline: float | None = None,
    ) -> None:
        """An action another node stored becomes this copy's state, told to its sockets."""
        state = table.state
        action = table.game.parse_action(notation)
        following = state.clone()
        public = state.public_notation(action)
        following.apply(action)
        result = (
            (list(following.scores), list(following.winners)) if following.is_terminal else None
        )
        timing = (stored_at, timed_out)
        await self.accepted(
            table, seat, notation, public, following, result, timing, deadline, remote=True
        )

    async def catch_up(self, table: LiveTable) -> None:
        """With the table's lock held: read it from the database and apply what this copy
        missed, each action told in turn (seats, an early end and a rematch too)."""
        data = await self.database.run(self.database.storage.load_table, table.id)
        if data is None:
            return
        try:
            for seat, notation in data.actions[table.ply :]:
                await self.apply(table, seat, notation, data.finished_at or time.time())
        except EternaError:
            log.exception("table %s: cannot apply the stored actions: reloading", table.id)
            await self.reload(table)
            return
        was_waiting = table.waiting()
        table.data.seats = data.seats
        self.seating._claimed(table, was_waiting)
        if data.status == "over" and not table.over:  # ended early by its driver
            old = table.data
            old.status, old.ended, old.finished_at = data.status, data.ended, data.finished_at
            old.scores, old.winners = data.scores, data.winners
            self.driver.cancel(table)
            table.deadline = None
            self.fanout.nothing_new(table)
        if data.rematch_id is not None and table.data.rematch_id is None:
            table.data.rematch_id = data.rematch_id
        if table.over and self.cluster is not None:
            self.cluster.drop(table.id)


__all__ = ["UNREACHABLE", "Moves"]
