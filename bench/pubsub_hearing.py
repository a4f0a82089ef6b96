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

With `--own`, every message is one the subscriber published itself (a node hearing its own move
back), and two listeners alternate instead of the parsers: `ply`, the node's path before it
marked its messages (the real `Relay.on_message` on a copy already at that ply: the table looked
up, its lock taken, the ply compared), and `mark`, the path after (the message's `o`, this
process's mark, compared with its own, and dropped).

    ETERNA_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \\
        nice -n 10 .venv/bin/python bench/pubsub_hearing.py --pairs 5 --hiredis-path /tmp/hiredis
    PYTHONPATH=src nice -n 10 .venv/bin/python bench/pubsub_hearing.py --pairs 5 --own
    PYTHONPATH=src .venv/bin/python bench/pubsub_hearing.py --in-process --messages 100000
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
ORIGIN = "5eed0b1e"  # the mark of the subscriber's own messages, with --own (cluster.py's `o`)


def message(table: str, ply: int, own: bool = False) -> dict[str, Any]:
    """An accepted move as a node publishes it (relay.py, `act`; with the publisher's mark)."""
    sent = {"k": "act", "t": table, "p": ply, "s": ply % 3, "n": "play 12 3", "f": 1.8e9 + ply}
    return {**sent, "o": ORIGIN} if own else sent


def own_relay(tables: list[str]) -> Any:
    """The node's relay (relay.py) with copies of `tables` at a ply beyond every message's: what
    it does with a move it stored itself, heard back."""
    import asyncio
    from types import SimpleNamespace

    from eterna.server.relay import Relay

    copies = {t: SimpleNamespace(lock=asyncio.Lock(), ply=10**9) for t in tables}
    relay: Any = Relay.__new__(Relay)
    relay.store = SimpleNamespace(tables=copies, loading={}, finished={})
    relay.cluster = SimpleNamespace(node="node1")
    return relay


async def listen(url: str, count: int, own: str) -> None:
    """The subscriber: a node's listener, without the relay's work for its own tables (with
    `own`, its work for its own messages: `ply` or `mark`, see the module's doc)."""
    import orjson
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    pubsub = client.pubsub()
    tables = {f"t{i:05d}": object() for i in range(TABLES)}
    relay = own_relay(list(tables)) if own == "ply" else None
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
        if own == "mark":
            if event.get("o") == ORIGIN:
                heard["own"] += 1
        elif relay is not None:
            await relay.on_message(event)
        else:
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


async def publish(url: str, count: int, rate: float, own: bool) -> None:
    import orjson
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    names = [f"t{i:05d}" for i in range(TABLES)]
    payloads = [
        (f"eterna:t:{names[i % TABLES]}", orjson.dumps(message(names[i % TABLES], i, own)))
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


def in_process(count: int, rounds: int = 3) -> None:
    """The two listeners' work after the read alone, in this process (no Redis): `count` own
    messages decoded and passed to the relay (`ply`), then decoded and their mark compared
    (`mark`), CPU time each, `rounds` times."""
    import orjson

    names = [f"t{i:05d}" for i in range(TABLES)]
    datas = [orjson.dumps(message(names[i % TABLES], i, True)) for i in range(count)]

    async def measure() -> None:
        relay = own_relay(names)
        for done in range(rounds):
            started = time.process_time()
            for data in datas:
                await relay.on_message(orjson.loads(data))
            ply = (time.process_time() - started) / count * 1e6
            started = time.process_time()
            own = 0
            for data in datas:
                if orjson.loads(data).get("o") == ORIGIN:
                    own += 1
            mark = (time.process_time() - started) / count * 1e6
            print(f"round {done + 1}: ply {ply:.2f} µs, mark {mark:.2f} µs a message", flush=True)

    asyncio.run(measure())


def run(url: str, count: int, rate: float, hiredis: str | None, own: str) -> tuple[str, float]:
    """One run: the subscriber's parser (and its listener, with `own`) and its CPU
    microseconds per message heard."""
    env = dict(os.environ)
    path = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(([hiredis] if hiredis else []) + path)
    listen_as = ["--listen", "--messages", str(count), "--url", url, "--as", own]
    child = subprocess.Popen(
        [sys.executable, __file__, *listen_as],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert child.stdout is not None
    ready = child.stdout.readline().split()
    assert ready and ready[0] == "ready", ready
    asyncio.run(publish(url, count, rate, bool(own)))
    _, cpu, heard = child.stdout.readline().split()
    child.wait(timeout=60)
    name = f"{ready[1]} {own}" if own else ready[1]
    return name, float(cpu) / int(heard) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("ETERNA_TEST_REDIS_URL"))
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--rate", type=float, default=2_000.0, help="a second; 0: in batches")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--hiredis-path", help="a folder holding the hiredis package")
    parser.add_argument("--own", action="store_true", help="the listeners `ply` and `mark`")
    parser.add_argument("--in-process", action="store_true", help="--own's work alone, no Redis")
    parser.add_argument("--listen", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--as", dest="listener", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.in_process:
        in_process(args.messages)
        return
    if not args.url:
        parser.error("give --url or set ETERNA_TEST_REDIS_URL")
    if args.listen:
        asyncio.run(listen(args.url, args.messages, args.listener))
        return
    variants: list[tuple[str | None, str]] = [(None, "")]
    if args.own:
        variants = [(args.hiredis_path, "ply"), (args.hiredis_path, "mark")]
    elif args.hiredis_path:
        variants.append((args.hiredis_path, ""))
    figures: dict[str, list[float]] = {}
    for pair in range(args.pairs):
        order = variants if pair % 2 == 0 else variants[::-1]  # alternate which goes first
        for hiredis, own in order:
            name, micros = run(args.url, args.messages, args.rate, hiredis, own)
            figures.setdefault(name, []).append(micros)
            print(f"pair {pair + 1}: {name}: {micros:.1f} µs of CPU a message", flush=True)
    rate = f"at {args.rate:g}/s" if args.rate > 0 else "in batches of 100"
    print(f"{args.messages} messages a run {rate}, {TABLES} channels, {args.pairs} pairs:")
    if args.own:
        differences = [b - a for b, a in zip(*figures.values(), strict=True)]
        print(f"  {' - '.join(figures)} by pair: {', '.join(f'{d:.1f}' for d in differences)} µs")
    for name, values in figures.items():
        print(
            f"  {name}: median {statistics.median(values):.1f} µs "
            f"(min {min(values):.1f}, max {max(values):.1f})"
        )


if __name__ == "__main__":
    main()
