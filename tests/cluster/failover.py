"""Failover time of a cluster, measured: `python tests/cluster/failover.py --kills 10`.

Three nodes (`eterna serve` subprocesses on ETERNA_TEST_POSTGRES_URL and ETERNA_TEST_REDIS_URL);
tables of bots alone; again and again, the node driving one of them is killed with SIGKILL and
the time from the kill to the table's next move (made by another node) is measured, then the
node is started again. Prints each figure and their summary; every game is then checked
against the game an uninterrupted engine plays (moves lost, moves made twice: expected 0).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nodes import cluster, wait_over
from server_helpers import fresh_schema
from test_cluster import expected_actions, kill_driver, record_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    args = parser.parse_args()
    agents = ["heuristic", "random", "heuristic"]
    base, redis = os.environ["ETERNA_TEST_POSTGRES_URL"], os.environ["ETERNA_TEST_REDIS_URL"]
    with fresh_schema(base) as database, cluster(3, database, redis) as nodes:
        seeds, tables, figures = [], [], []
        while len(figures) < args.kills:
            for node in nodes:  # a killed node serves again before it can be killed again
                node.wait()
            seed = 1000 + len(seeds)
            created = nodes[len(seeds) % 3].create(
                game="eternity",
                players=3,
                seed=seed,
                bot_delay=0.2,
                seats=[{"kind": "bot", "agent": a} for a in agents],
            )
            seeds.append(seed)
            tables.append(created["table_id"])
            time.sleep(1.0)
            killed = kill_driver(nodes, database, created["table_id"])
            if killed is None:
                continue
            victim, seconds = killed
            figures.append(seconds)
            print(f"kill {len(figures)}: node {victim.name}, next move after {seconds:.2f} s")
            victim.launch()
        for node in nodes:
            node.wait()
        lost = twice = 0
        for table_id, seed in zip(tables, seeds, strict=True):
            wait_over(nodes[0], table_id, 300)
            actions = record_of(nodes[1], table_id)["actions"]
            expected = expected_actions("eternity", 3, seed, agents)
            lost += sum(1 for a, b in zip(actions, expected, strict=False) if a != b)
            twice += max(0, len(actions) - len(expected)) + max(0, len(expected) - len(actions))
        print(
            f"failover over {len(figures)} kills: median {statistics.median(figures):.2f} s, "
            f"mean {statistics.mean(figures):.2f} s, max {max(figures):.2f} s, "
            f"min {min(figures):.2f} s; games differing from the uninterrupted engine's: "
            f"{lost} moves, {twice} extra or missing"
        )


if __name__ == "__main__":
    main()
