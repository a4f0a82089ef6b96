"""A live table in memory (`LiveTable`), its connections (`Connection`), and what is derived
from a table's stored data: its public summary, its record, its replayed state."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from collections.abc import Coroutine
from typing import Any, NamedTuple

from starlette.websockets import WebSocket, WebSocketState

from eterna.core.game import Game, GameState
from eterna.core.records import make_record
from eterna.core.registry import load_game
from eterna.server.security import TokenBucket
from eterna.server.settings import Settings
from eterna.server.storage import TableData

# ------------------------------------------------------------------------------ connections


class Connection:
    """One WebSocket: its seat (None for a spectator), its language, its outgoing frames and its
    rate limit.

    A frame is written to the socket at once, in the caller's turn of the event loop, when
    nothing is waiting to go out before it: uvicorn's send only waits when the client's socket
    buffer is full (its transport paused). Only then does a writer task take over, finishing that
    send and then the frames queued behind it, in order; so a broadcast never waits on a slow
    client, every frame goes out once and in the order sent, and a client that falls
    `max_queue` frames behind is disconnected. (Before, every frame woke a writer task per
    connection: a trip through the event loop per connection and frame.)
    """

    def __init__(
        self,
        ws: WebSocket,
        seat: int | None,
        token: str | None,
        settings: Settings,
        lang: str = "en",
    ):
        self.ws = ws
        self.seat = seat
        self.lang = lang  # the language of its `told` sentences, move labels and refusals
        self.token = token  # kept only to build this seat's own rematch link
        self.bucket = TokenBucket(settings.frame_rate, settings.frame_burst)
        self.max_queue = settings.max_queue
        self.queue: deque[str] = deque()  # frames behind a send that waits for the client
        self.writer: asyncio.Task[None] | None = None  # only while a send waits
        self.closed = False
        self._close_code: tuple[int, str] | None = None  # the close, sent after the queue

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.writer is None:
            self._start(self.ws.send_text(text))
            return
        if len(self.queue) >= self.max_queue:
            self.queue.clear()  # drop the backlog: the close goes out next
            self.close(1008, "too slow: frames are not being read")
            return
        self.queue.append(text)

    def send_json(self, frame: dict[str, Any]) -> None:
        self.send(json.dumps(frame, separators=(",", ":")))

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Stop sending; the socket is closed after the frames already queued."""
        if self.closed:
            return
        self.closed = True
        self._close_code = (code, reason)
        if self.writer is None:
            self._start(self._close())

    def _start(self, send: Coroutine[Any, Any, None]) -> None:
        """Run a send (or the close) now; if it has to wait for the client, a writer task
        finishes it, then what is queued behind it."""
        try:
            waiting = send.send(None)
        except StopIteration:
            return
        except Exception:  # the peer went away: the reader sees the disconnect
            self.closed = True
            return
        self.writer = asyncio.get_running_loop().create_task(self._write(send, waiting))

    async def _write(self, send: Coroutine[Any, Any, None], waiting: Any) -> None:
        try:
            await _resume(send, waiting)
            while self.queue:
                await self.ws.send_text(self.queue.popleft())
            if self._close_code is not None:
                await self._close()
        except Exception:  # the peer went away: the reader sees the disconnect
            self.closed = True
            self.queue.clear()
        finally:
            self.writer = None

    async def _close(self) -> None:
        code, reason = self._close_code or (1000, "")
        if self.ws.application_state == WebSocketState.CONNECTED:
            await self.ws.close(code, reason)

    async def flushed(self) -> None:
        """Until what was sent (and the close) went out, or the writer stopped."""
        writer = self.writer
        if writer is not None:
            await asyncio.shield(writer)

    async def finish(self) -> None:
        """After the reader saw the disconnect: stop the writer, if one is waiting."""
        self.closed = True
        self.queue.clear()
        writer = self.writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            self.writer = None  # (cancelled before it ran, it never cleared itself)


async def _resume(send: Coroutine[Any, Any, None], waiting: Any) -> None:
    """Finish a coroutine that was stepped by hand and suspended on `waiting` (the future it
    awaits, or None for a bare yield), as a task would; cancelled, it is closed."""
    while True:
        try:
            if waiting is None:
                await asyncio.sleep(0)
            else:
                await asyncio.wait((waiting,))
        except BaseException:
            send.close()
            raise
        try:
            waiting = send.send(None)
        except StopIteration:
            return


# ------------------------------------------------------------------------------ a live table


class TimedOut(NamedTuple):
    """A move the turn timer played for `seat`: `notation` for that seat, `public` for the
    others (None: hidden from them)."""

    seat: int
    notation: str
    public: str | None


class LiveTable:
    """One table in memory: its stored data, its current state and who is connected."""

    def __init__(self, data: TableData, state: GameState) -> None:
        self.data = data
        self.state = state
        self.game: Game = state.game
        self.conns: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.deadline: float | None = None
        self.task: asyncio.Task[None] | None = None  # the pending bot move or turn timer
        self.failures = 0  # bot moves in a row that could not be stored (retries back off)
        self.hinting: set[int] = set()  # seats with a hint being computed
        self.last_active = time.monotonic()  # created, loaded, or a connection came or went
        self.rematch_tokens: dict[int, str] = {}  # each human seat's token at the rematch
        self.visited = False  # a seat's holder connected since the table was loaded
        self._shown: list[str | None] | None = None  # public notation per ply, made on demand
        self.timeouts: dict[int, TimedOut] = {}  # the timer's moves, by their first event
        self.remote: dict[str, set[int]] = {}  # seats connected on other cluster nodes

    def history_events(self, seat: int | None) -> list[dict[str, Any]]:
        """Every action so far as `events` for `seat`: its own in full, the others' as
        published (docs/web-protocol.md, "Public actions")."""
        if self._shown is None:
            self._shown = public_history(self.data)
        out: list[dict[str, Any]] = []
        for ply, ((actor, notation), shown) in enumerate(
            zip(self.data.actions, self._shown, strict=True), 1
        ):
            text = notation if actor == seat else shown
            out.append({"ply": ply, "seat": actor} | ({} if text is None else {"action": text}))
        return out

    def shown(self, public: str | None) -> None:
        """Keep the public history in step with an accepted action (if it was ever made)."""
        if self._shown is not None:
            self._shown.append(public)

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def ply(self) -> int:
        return len(self.data.actions)

    @property
    def over(self) -> bool:
        return self.data.status == "over"

    def in_play(self) -> bool:
        """Counted against the live-table cap: bots alone, a player came, or a move was made (a
        table nobody came to is not, and expires sooner)."""
        return self.visited or self.ply > 0 or not self.has_humans()

    def has_humans(self) -> bool:
        return any(s.kind == "human" for s in self.data.seats)

    def waiting(self) -> bool:
        """The game has not started: a human seat is still to be taken (docs/web.md)."""
        return waiting_for_players(self.data, self.ply)

    def open_seats(self) -> list[int]:
        return [
            s.seat
            for s in self.data.seats
            if s.kind == "human" and not s.claimed and not s.reserved
        ]

    def connected(self) -> set[int]:
        here = {c.seat for c in self.conns if c.seat is not None and not c.closed}
        return here.union(*self.remote.values())

    def summary(self) -> dict[str, Any]:
        """The public summary (docs/web-protocol.md): nothing secret, nothing seat-private."""
        return summary_of(self.data, self.ply, self.state, self.connected())

    def record(self) -> dict[str, Any]:
        return table_record(self.data)


def summary_of(
    data: TableData, plies: int, state: GameState | None, connected: set[int]
) -> dict[str, Any]:
    over = data.status == "over"
    if state is not None and data.ended is None:
        current = state.current_player
        scores: list[int] | None = list(state.scores)
        winners: list[int] | None = list(state.winners) if over else []
    else:
        current, scores, winners = None, data.scores, data.winners
    return {
        "table_id": data.id,
        "game": data.game,
        "players": data.players,
        "options": data.options,
        "status": data.status,
        "seats": seat_summaries(data, connected),
        "turn_timer": data.turn_timer,
        "created_at": data.created_at,
        "finished_at": data.finished_at,
        "plies": plies,
        "current_player": current,
        "scores": scores,
        "winners": winners if over else [],
        "rematch": data.rematch_id,
        "ended": data.ended,
        "seed_chosen": data.seed_chosen,
        "public": data.public,
        "waiting": waiting_for_players(data, plies),
    }


def waiting_for_players(data: TableData, plies: int) -> bool:
    """No move yet and a human seat nobody holds: bots and timers wait, moves are refused."""
    return (
        data.status == "playing"
        and plies == 0
        and any(s.kind == "human" and not s.claimed for s in data.seats)
    )


def seat_summaries(data: TableData, connected: set[int]) -> list[dict[str, Any]]:
    """The seats part of a summary (also the whole of a `presence` frame)."""
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "agent": s.agent,
            "name": s.name,
            "claimed": s.kind == "bot" or s.claimed,
            "connected": s.kind == "bot" or s.seat in connected,
            "reserved": s.reserved,
        }
        for s in data.seats
    ]


def start_position(data: TableData) -> dict[str, Any] | None:
    """The whole position a table was started from (POST /api/positions/play), if any: it is
    kept in the table's `setup` column as `{"position": ...}` (the server starts no other
    table from a setup)."""
    setup = data.setup
    if isinstance(setup, dict) and isinstance(setup.get("position"), dict):
        position: dict[str, Any] = setup["position"]
        return position
    return None


def start_state(data: TableData) -> GameState:
    """The table's game at its start: its seed's deal, or the position it was started from."""
    game = load_game(data.game)
    position = start_position(data)
    if position is not None:
        return game.from_position(position)
    return game.new_game(
        players=data.players,
        seed=data.seed,
        options=data.options,
        setup=data.setup,
        version=data.version,
    )


def table_record(data: TableData) -> dict[str, Any]:
    """The record of DESIGN.md, plus a `meta` entry (ignored by replays) naming the seats. A
    table started from a position has the record of a game played on from one."""
    record = make_record(
        data.game,
        data.players,
        data.seed,
        data.options,
        data.setup,
        [notation for _seat, notation in data.actions],
        version=data.version,
    )
    position = start_position(data)
    if position is not None:
        del record["setup"]
        record = {k: v for k, v in record.items() if k != "actions"} | {
            "position": position,
            "actions": record["actions"],
        }
    record["meta"] = {
        "table_id": data.id,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "agent": s.agent, "name": s.name} for s in data.seats
        ],
        "scores": data.scores,
        "winners": data.winners,
        "ended": data.ended,
        "created_at": data.created_at,
        "finished_at": data.finished_at,
    }
    return record


def replay_table(data: TableData) -> GameState:
    return load_game(data.game).from_record(table_record(data))


def public_history(data: TableData) -> list[str | None]:
    """What every seat saw of each stored action (`GameState.public_notation`, None: hidden),
    by replaying the table from its start: the backlog a newly connected client's log needs."""
    state = start_state(data)
    shown: list[str | None] = []
    for _seat, notation in data.actions:
        action = state.game.parse_action(notation)
        shown.append(state.public_notation(action))
        state.apply(action)
    return shown


# Views, summaries and events are the server's own text (names are cleaned at the door), so they
# are encoded without ASCII escapes or the circular-reference check: about 40% faster, and
# encoding views is the biggest cost of a move. Error frames, which may quote a client's text,
# go through json.dumps with its defaults.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


def _dumps(value: Any) -> str:
    return _encode(value)
