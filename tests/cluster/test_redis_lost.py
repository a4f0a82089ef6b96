"""Redis stopped and started again under two nodes: moves are refused with a clear error
meanwhile (never accepted and left unannounced), /api/health says which part is down, and the
service comes back by itself: nothing accepted lost, and the game plays on to its end."""

from __future__ import annotations

import time

from nodes import cluster, postgres_url
from players import play_to_the_end, playing_against_bots
from server_helpers import fresh_schema
from services import RedisServer, wait_health


def test_redis_stopped_and_started_again(redis: RedisServer) -> None:
    """The player's socket on one node, the table driven by the other; Redis stopped at the
    player's turn and started again: the player moves at once, the bots answer, and the game
    plays to its end, every event told once and in order."""
    with fresh_schema(postgres_url()) as database, cluster(2, database, redis.url) as nodes:
        home, other = nodes
        table_id, player, update = playing_against_bots(home, other, seed=5)
        ws = player.ws
        move = update["view"]["legal_actions"][0]

        redis.stop()
        body = wait_health(other, 503)
        assert body == {"ok": False, "node": other.name, "database": "ok", "redis": "down"}
        time.sleep(0.5)  # whatever got out before Redis went: no bot plays on without it
        ws.act(move, update["ply"])  # refused: unannounceable
        refused = ws.error()
        assert refused["code"] == "unavailable"
        assert refused["message"].startswith("The server is reconnecting")

        redis.start()  # the same port: both nodes come back by themselves
        wait_health(other, 200)
        ws.act(move, update["ply"])  # at once
        record = play_to_the_end(player, home, table_id)  # the bots answering every move
        for node in nodes:
            assert wait_health(node, 200)["redis"] == "ok"
        assert record["actions"][update["ply"]] == move  # the move made at once after the return
