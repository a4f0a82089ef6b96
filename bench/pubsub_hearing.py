"""A cluster node's CPU time for hearing one message over Redis pub/sub, with redis-py's own
parser and with hiredis, in alternating runs (docs/performance.md, "A site of 100,000
concurrent games on paper").

Each run starts a subscriber process that listens as a node's listener does (cluster.py:
redis-py's asyncio PubSub, `listen()`, each message decoded with orjson, counted by kind and
its table looked up) on the tables' channels, and publishes `--messages` messages of a move's
size (an `act` as `Cluster.publish` writes it, about 110 bytes) to them at `--rate` a second,
one PUBLISH each (as a node's publisher does when moves do not queue); the subscriber reports
the CPU time (user + system, its own process) from the first message to the last, over the
messages. With `--rate 0` the messages go out in pipelined batches of 100 (a busy site: several
messages a read). The hiredis runs need the hiredis package on `--hiredis-path` (a folder made
by `pip install --target DIR hiredis==3.4.2`), so that the same interpreter runs both.

    ETERNA_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \\
        nice -n 10 .venv/bin/python bench/pubsub_hearing.py --pairs 5 --hiredis-path /tmp/hiredis
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any

TABLES = 200  # channels the subscriber listens to (tables a node keeps)


def message(table: str, ply: int) -> dict[str, Any]:
    """An accepted move as a node publishes it (relay.py, `act`)."""
    return {"k": "act", "t": table, "p": ply, "s": ply % 3, "n": "play 12 3", "f": 1.8e9 + ply}


async def listen(url: str, count: int) -> None:
    """The subscriber: a node's listener, without the relay's work for its own tables."""
    import orjson
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    pubsub = client.pubsub()
    tables = {f"t{i:05d}": object() for i in range(TABLES)}
    await pubsub.subscribe(*(f"eterna:t:{t}" for t in tables))
    heard: Counter[str] = Counter()
    parser = type(pubsub.connection._parser).__name__ if pubsub.connection else "?"
    print(f"ready {parser}", flush=True)
    started = 0.0
    got = 0
    async for received in pubsub.listen():
        if received["type"] != "message":
            continue
        event = orjson.loads(received["data"])
        heard[event["k"]] += 1
        tables.get(event["t"])
        got += 1
        if got == 1:
            started = time.process_time()
        if got == count:
            break
    cpu = time.process_time() - started
    print(f"cpu {cpu:.6f} {got - 1}", flush=True)
    await pubsub.aclose()  # type: ignore[no-untyped-call]
    await client.aclose()


async def publish(url: str, count: int, rate: float) -> None:
    import orjson
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    names = [f"t{i:05d}" for i in range(TABLES)]
    payloads = [
        (f"eterna:t:{names[i % TABLES]}", orjson.dumps(message(names[i % TABLES], i)))
        for i in range(count)
    ]
    start = time.monotonic()
    if rate <= 0:
        for first in range(0, count, 100):
            async with client.pipeline(transaction=False) as pipe:
                for channel, data in payloads[first : first + 100]:
                    pipe.publish(channel, data)
                await pipe.execute()
    else:
        for i, (channel, data) in enumerate(payloads):
            await client.publish(channel, data)
            wait = start + (i + 1) / rate - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
    await client.aclose()


def run(url: str, count: int, rate: float, hiredis: str | None) -> tuple[str, float]:
    """One run: the subscriber's parser and its CPU microseconds per message heard."""
    env = dict(os.environ)
    path = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(([hiredis] if hiredis else []) + path)
    child = subprocess.Popen(
        [sys.executable, __file__, "--listen", "--messages", str(count), "--url", url],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert child.stdout is not None
    ready = child.stdout.readline().split()
    assert ready and ready[0] == "ready", ready
    asyncio.run(publish(url, count, rate))
    _, cpu, heard = child.stdout.readline().split()
    child.wait(timeout=60)
    return ready[1], float(cpu) / int(heard) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("ETERNA_TEST_REDIS_URL"))
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--rate", type=float, default=2_000.0, help="a second; 0: in batches")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--hiredis-path", help="a folder holding the hiredis package")
    parser.add_argument("--listen", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.url:
        parser.error("give --url or set ETERNA_TEST_REDIS_URL")
    if args.listen:
        asyncio.run(listen(args.url, args.messages))
        return
    variants: list[str | None] = [None] + ([args.hiredis_path] if args.hiredis_path else [])
    figures: dict[str, list[float]] = {}
    for pair in range(args.pairs):
        order = variants if pair % 2 == 0 else variants[::-1]  # alternate which goes first
        for variant in order:
            name, micros = run(args.url, args.messages, args.rate, variant)
            figures.setdefault(name, []).append(micros)
            print(f"pair {pair + 1}: {name}: {micros:.1f} µs of CPU a message", flush=True)
    rate = f"at {args.rate:g}/s" if args.rate > 0 else "in batches of 100"
    print(f"{args.messages} messages a run {rate}, {TABLES} channels, {args.pairs} pairs:")
    for name, values in figures.items():
        print(
            f"  {name}: median {statistics.median(values):.1f} µs "
            f"(min {min(values):.1f}, max {max(values):.1f})"
        )


if __name__ == "__main__":
    main()
