"""A connection's outgoing frames (live.py's `Connection`): written to the socket at once when
nothing waits before them; when the client's buffer is full (uvicorn's send waits until the
transport may write again) the frames queue behind the waiting send and go out after it, each
once and in order; a client that falls `max_queue` frames behind is disconnected, the close
going out after the frame in flight and nothing after it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from starlette.websockets import WebSocketState

from eterna.server.live import Connection
from eterna.server.settings import Settings

TOO_SLOW = (1008, "too slow: frames are not being read")


class FakeSocket:
    """Starlette's WebSocket as uvicorn drives it: a send waits while the transport is paused
    (`writable` cleared), else writes at once; `gone`: the peer left (the send fails)."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.gone = False
        self.sent: list[str] = []
        self.closed_with: tuple[int, str] | None = None
        self.application_state = WebSocketState.CONNECTED

    async def send_text(self, text: str) -> None:
        await self.writable.wait()
        if self.gone:
            raise OSError("connection reset")
        if self.application_state != WebSocketState.CONNECTED:
            raise RuntimeError("send after close")
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.writable.wait()
        self.closed_with = (code, reason)
        self.application_state = WebSocketState.DISCONNECTED


def run(test: Callable[[FakeSocket, Connection], Coroutine[Any, Any, None]], **knobs: Any) -> None:
    async def main() -> None:
        ws = FakeSocket()
        conn = Connection(ws, 0, None, Settings(**knobs))  # type: ignore[arg-type]
        await test(ws, conn)

    asyncio.run(main())


def test_frames_go_out_at_once_without_a_task() -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        conn.send("a")
        conn.send("b")
        assert ws.sent == ["a", "b"]  # written in the caller's turn, no loop trip
        assert conn.writer is None
        conn.close(1000)
        assert ws.closed_with == (1000, "")
        conn.send("c")  # after the close: dropped
        assert ws.sent == ["a", "b"]

    run(test)


def test_frames_behind_a_waiting_send_go_out_after_it_in_order() -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        conn.send("first")
        ws.writable.clear()  # the client's buffer is full
        frames = [f"frame {n}" for n in range(100)]
        for frame in frames[:60]:
            conn.send(frame)
        assert conn.writer is not None
        await asyncio.sleep(0.01)
        assert ws.sent == ["first"]
        ws.writable.set()  # the client reads again
        await asyncio.sleep(0)
        for frame in frames[60:]:  # sent while the backlog drains
            conn.send(frame)
        await conn.flushed()
        assert ws.sent == ["first", *frames]  # each once, in order
        assert conn.writer is None and not conn.closed
        conn.send("later")  # at once again
        assert ws.sent[-1] == "later"

    run(test)


@pytest.mark.parametrize("closing", [False, True])
def test_a_close_goes_out_after_the_queued_frames(closing: bool) -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        ws.writable.clear()
        conn.send("a")
        conn.send("b")
        if closing:
            conn.close(4000, "bye")
        conn.send("c")
        ws.writable.set()
        await conn.flushed()
        assert ws.sent == (["a", "b"] if closing else ["a", "b", "c"])
        assert ws.closed_with == ((4000, "bye") if closing else None)

    run(test)


def test_a_client_too_far_behind_is_disconnected() -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        ws.writable.clear()
        conn.send("in flight")
        for n in range(8):  # the quota: 8 frames waiting
            conn.send(f"queued {n}")
        assert not conn.closed
        conn.send("one too many")
        assert conn.closed
        conn.send("after")
        ws.writable.set()
        await conn.flushed()
        assert ws.sent == ["in flight"]  # the backlog dropped, the close next
        assert ws.closed_with == TOO_SLOW

    run(test, max_queue=8)


def test_a_peer_gone_stops_the_sending() -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        ws.gone = True
        conn.send("a")
        assert conn.closed and conn.writer is None
        conn.send("b")
        assert ws.sent == []

    run(test)


def test_a_peer_gone_while_a_send_waits() -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        ws.writable.clear()
        conn.send("a")
        conn.send("b")
        ws.gone = True
        ws.writable.set()
        await conn.flushed()
        assert conn.closed and conn.writer is None and ws.sent == []

    run(test)


def test_finish_stops_a_waiting_writer() -> None:
    async def test(ws: FakeSocket, conn: Connection) -> None:
        ws.writable.clear()
        conn.send("a")
        conn.send("b")
        writer = conn.writer
        assert writer is not None
        await conn.finish()
        assert writer.cancelled() and conn.writer is None and conn.closed
        ws.writable.set()
        await asyncio.sleep(0.01)
        assert ws.sent == []  # the waiting send was abandoned, not finished later

    run(test)
