"""Players of the cluster tests: a human seat's client that plays a game to its end on
whichever node its socket is, and the checks every finished game must pass."""

from __future__ import annotations

import threading
from typing import Any

from nodes import Node
from server_helpers import WS

import eterna

SKIP_EVERY = 4  # a human leaves every 4th of its turns to the timer


class Seat(threading.Thread):
    """A human seat's client on one socket: plays the first legal action, except every
    `skip_every`-th turn (the timer plays it). `plies` and `own` are read from every frame
    the socket received, before the thread started too."""

    def __init__(self, ws: WS, seat: int | None, skip_every: int = SKIP_EVERY) -> None:
        super().__init__(daemon=True)
        self.skip_every = skip_every
        self.ws = ws
        self.seat = seat
        self.skipped = 0
        self.error: BaseException | None = None

    @property
    def events(self) -> list[dict[str, Any]]:
        return [e for f in self.ws.frames if f["type"] == "update" for e in f["events"]]

    @property
    def plies(self) -> list[int]:
        """The ply of every event received, in order."""
        return [e["ply"] for e in self.events]

    @property
    def own(self) -> dict[int, str]:
        """This seat's acknowledged actions, by ply."""
        return {
            e["ply"]: e["action"] for e in self.events if e["seat"] == self.seat and "action" in e
        }

    def run(self) -> None:
        try:
            turns = 0
            while True:
                frame = self.ws.recv(timeout=90)
                if frame["type"] != "update":
                    continue
                if frame["table"]["status"] == "over":
                    return
                legal = frame["view"].get("legal_actions")
                if self.seat is None or not legal or frame["table"]["current_player"] != self.seat:
                    continue
                turns += 1
                if self.skip_every and turns % self.skip_every == 0:
                    self.skipped += 1
                    continue
                self.ws.act(legal[0], frame["ply"])
        except BaseException as exc:  # reported by the test, with the last frames seen
            last = [(f["type"], f.get("ply"), f.get("code")) for f in self.ws.frames[-4:]]
            self.error = AssertionError(f"seat {self.seat}: {exc!r} after {last}")


def record_of(node: Node, table_id: str) -> dict[str, Any]:
    response = node.http.get(f"/api/tables/{table_id}/record")
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


def assert_replays(record: dict[str, Any]) -> None:
    replayed = eterna.replay(record)
    assert replayed.scores == record["meta"]["scores"]
    assert replayed.winners == record["meta"]["winners"]


def assert_told_once(seat: Seat, record: dict[str, Any]) -> None:
    """The seat was told every event of the finished game once, in order, and every move it
    saw acknowledged is in the record."""
    total = len(record["actions"])
    assert seat.plies == list(range(1, total + 1)), seat.seat
    for ply, action in seat.own.items():
        assert record["actions"][ply - 1] == action


def your_turn(ws: WS, ply: int = 0, seat: int = 0) -> dict[str, Any]:
    """The next update at `ply` or later in which `seat` is to move."""
    update = ws.update(ply)
    while update["table"]["current_player"] != seat:
        update = ws.update(ply)
    return update


def playing_against_bots(home: Node, other: Node, seed: int) -> tuple[str, Seat, dict[str, Any]]:
    """A table of Eternity created on `home` (which drives it), its human seat 0 played from
    `other`: the table's id, the player (not started) and the update of its second turn, after
    one move of its own and the bots' answers."""
    created = home.create(
        game="eternity",
        players=3,
        seed=seed,
        seats=[{"kind": "human", "name": "Ada"}, {"kind": "bot"}, {"kind": "bot"}],
    )
    table_id, token = created["table_id"], created["seats"][0]["token"]
    player = Seat(other.ws(table_id, token), 0, skip_every=0)
    update = your_turn(player.ws)
    player.ws.act(update["view"]["legal_actions"][0], update["ply"])
    return table_id, player, your_turn(player.ws, update["ply"] + 1)


def play_to_the_end(player: Seat, node: Node, table_id: str) -> dict[str, Any]:
    """Start the player and wait for the game's end; the record, checked: it replays to its
    scores, and the player was told every event once and in order."""
    player.start()
    player.join(timeout=180)
    assert player.error is None, repr(player.error)
    assert not player.is_alive(), f"the game stalled: {node.summary(table_id)}"
    record = record_of(node, table_id)
    assert_replays(record)
    assert_told_once(player, record)  # nothing accepted lost, nothing told twice
    return record
