"""Takeover delay of a cluster, measured: `python tests/cluster/takeover.py --kills 10`.

Three nodes (`eterna serve` subprocesses on ETERNA_TEST_POSTGRES_URL and ETERNA_TEST_REDIS_URL);
again and again, the node driving a table of bots is killed with SIGKILL, and this measures the
time from the kill to the table's lease taken by another node (its fencing token bumped), and
how much of it the dead node's lease still had to run (its expiry less the database's clock,
read right after the kill): the rest is how long the other nodes took to see the lapse and take
the table (docs/performance.md, "Failover"). failover.py measures up to the next bot move.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nodes import cluster, driver_of
from server_helpers import fresh_schema
from sqlalchemy import create_engine, text

TOKEN = text("SELECT token FROM table_leases WHERE table_id = :t")
LEFT = text(
    "SELECT expires_at - extract(epoch from clock_timestamp()) FROM node_leases WHERE node = :n"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=10)
    args = parser.parse_args()
    base, redis = os.environ["ETERNA_TEST_POSTGRES_URL"], os.environ["ETERNA_TEST_REDIS_URL"]
    with fresh_schema(base) as database, cluster(3, database, redis) as nodes:
        engine = create_engine(database)
        total: list[float] = []
        after: list[float] = []
        made = 0
        while len(total) < args.kills:
            for node in nodes:  # a killed node serves again before it can be killed again
                node.wait()
            created = nodes[made % 3].create(
                game="eternity",
                players=3,
                seed=2000 + made,
                bot_delay=0.2,
                seats=[{"kind": "bot", "agent": "random"}] * 3,
            )
            made += 1
            table_id = created["table_id"]
            time.sleep(1.0)
            name = driver_of(database, table_id)
            victim = next((n for n in nodes if n.name == name), None)
            if victim is None:
                continue
            with engine.begin() as conn:
                token = conn.execute(TOKEN, {"t": table_id}).scalar()
            victim.kill()
            killed = time.monotonic()
            with engine.begin() as conn:
                left = max(float(conn.execute(LEFT, {"n": name}).scalar() or 0.0), 0.0)
            while True:
                with engine.begin() as conn:
                    if conn.execute(TOKEN, {"t": table_id}).scalar() != token:
                        break
                assert time.monotonic() - killed < 30, f"table {table_id} never taken over"
                time.sleep(0.01)
            seconds = time.monotonic() - killed
            total.append(seconds)
            after.append(seconds - left)
            print(
                f"kill {len(total)}: node {name}, its lease had {left:.2f} s left, table taken "
                f"{seconds:.2f} s after the kill, {seconds - left:.3f} s after the lapse",
                flush=True,
            )
            victim.launch()
        engine.dispose()
        print(
            f"takeover over {len(total)} kills: from the kill median {statistics.median(total):.2f}"
            f" s, max {max(total):.2f} s; after the lapse median {statistics.median(after):.3f} s,"
            f" mean {statistics.mean(after):.3f} s, min {min(after):.3f} s,"
            f" max {max(after):.3f} s"
        )


if __name__ == "__main__":
    main()
