"""PostgreSQL stopped and started again under two nodes: moves are refused with a clear error
meanwhile (nothing is acknowledged that is not stored), /api/health says the database is down,
and the service comes back by itself: nothing accepted lost, and the game plays on to its end."""

from __future__ import annotations

import time

from nodes import cluster, redis_base_url
from players import play_to_the_end, playing_against_bots
from services import PostgresServer, wait_health

OUTAGE = 4.0  # seconds without the database: longer than a lease (3 s), so every lease lapses


def test_postgres_stopped_and_started_again(postgres: PostgresServer) -> None:
    """The player's socket on one node, the table driven by the other; PostgreSQL stopped
    (`pg_ctl stop -m fast`) at the player's turn and started again: the player's move is
    refused meanwhile, then taken at once, the bots answer, and the game plays to its end."""
    with cluster(2, postgres.url, redis_base_url()) as nodes:
        home, other = nodes
        table_id, player, update = playing_against_bots(home, other, seed=11)
        ws = player.ws
        move = update["view"]["legal_actions"][0]

        postgres.stop("fast")
        stopped = time.monotonic()
        for node in nodes:
            body = wait_health(node, 503)
            assert body == {"ok": False, "node": node.name, "database": "down", "redis": "ok"}
        ws.act(move, update["ply"])  # refused: it could not be stored
        refused = ws.error()
        assert refused["code"] == "unavailable", refused
        assert refused["message"].startswith("The server cannot reach its game store")
        assert refused["message"].endswith("your move was not taken, try again in a moment.")
        lobby = other.http.get("/api/tables")  # read from the database: a clear 503
        assert lobby.status_code == 503, lobby.text
        assert lobby.json()["error"]["code"] == "storage_unavailable"
        assert lobby.json()["error"]["message"].startswith("The server cannot reach its game")
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - stopped)))
        assert other.summary(table_id)["plies"] == update["ply"]  # nothing changed meanwhile

        postgres.start()  # the same folder and port: both nodes come back by themselves
        wait_health(other, 200)
        ws.act(move, update["ply"])  # at once
        record = play_to_the_end(player, home, table_id)  # the bots answering every move
        for node in nodes:
            assert wait_health(node, 200)["database"] == "ok"
        assert record["actions"][update["ply"]] == move  # the move made after the return
