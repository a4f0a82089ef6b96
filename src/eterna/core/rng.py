"""The one generator of game randomness: splitmix64, whose whole state is one int.

Every game draws its deals and shuffles from an `Rng` seeded with the game's seed (record
version 2, `RECORD_VERSION`). Records of version 1 replay through the generators they were
played with, kept in `eterna.core.legacy`. Agents' own randomness (determinization, policies)
is a `random.Random` of the agent's and is not drawn from here.

A clone of a state that holds a generator keeps only its `state` int: `Rng.at(state)` resumes
the same stream, so cloning costs nothing.

Agents draw from a `random.Random`; `shuffle`, `choice` and `order_by_draws` below are its
`shuffle`, `choice` and a sort by one `random()` per item, written out so that the compiled
build runs them in C (docs/compiled.md): the same draws, the same results.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, TypeVar

from mypy_extensions import i64

from eterna.core.errors import BadSetup

T = TypeVar("T")

SEED_LIMIT: Final = 1 << 62  # game seeds are 0 .. 2**62 - 1
RECORD_VERSION: Final = 2  # records written now; version 1 replays through eterna.core.legacy
RECORD_VERSIONS: Final = (1, 2)

_M64: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB


def check_seed(seed: object) -> int:
    """A game seed: an integer from 0 to 2**62 - 1 (BadSetup otherwise)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise BadSetup(f"seed must be an integer from 0 to 2**62 - 1, not {seed!r}")
    return seed


def check_version(version: object) -> int:
    """A record version this release plays: 1 or 2 (BadSetup otherwise)."""
    if isinstance(version, bool) or not isinstance(version, int) or version not in RECORD_VERSIONS:
        known = " or ".join(map(str, RECORD_VERSIONS))
        raise BadSetup(f"record version must be the integer {known}, not {version!r}")
    return version


class Rng:
    """splitmix64: `below(n)` is the next 64-bit output modulo n; the state is one int."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _M64

    @classmethod
    def at(cls, state: int) -> Rng:
        """The generator whose state is `state` (as read from another's `state`)."""
        return cls(state)  # a state is already below 2**64

    def copy(self) -> Rng:
        return Rng.at(self.state)

    def below(self, n: int) -> int:
        """A number from 0 to n - 1."""
        x = (self.state + _GAMMA) & _M64
        self.state = x
        if _WRAPS and 0 < n < _NATIVE_BELOW:  # the compiled build: native 64-bit arithmetic
            return _below_native(x, n)
        x = ((x ^ (x >> 30)) * _MIX1) & _M64
        x = ((x ^ (x >> 27)) * _MIX2) & _M64
        return (x ^ (x >> 31)) % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates from the end: item i swaps with below(i + 1)."""
        if _WRAPS:  # the compiled build: the same stream in native 64-bit arithmetic
            self.state = _shuffle_native(self.state, items)
            return
        x = self.state
        for i in range(len(items) - 1, 0, -1):
            x = (x + _GAMMA) & _M64
            z = ((x ^ (x >> 30)) * _MIX1) & _M64
            z = ((z ^ (z >> 27)) * _MIX2) & _M64
            j = (z ^ (z >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = x

    def deal(self, items: list[T]) -> None:
        """A uniform shuffle for dealing a deck, several times faster than `shuffle`: the same
        Fisher-Yates from the end, but each 64-bit output gives several indices (its mixed-radix
        digits, drawn while at least 2**40 of its range is left, so index i is off uniform by
        at most (i + 1) / 2**40). Its permutations are not `shuffle`'s: Eternity's and the
        Vale's decks use `deal`, and `shuffle` is Eternitium's stream."""
        n = len(items)
        plan = _PLANS.get(n)
        if plan is None:
            plan = _PLANS[n] = _deal_plan(n)
        if _WRAPS:  # the compiled build: the same digits in native 64-bit arithmetic
            self.state = _deal_native(self.state, items, plan)
            return
        s = self.state
        for group in plan:
            s = (s + _GAMMA) & _M64
            z = ((s ^ (s >> 30)) * _MIX1) & _M64
            z = ((z ^ (z >> 27)) * _MIX2) & _M64
            x = z ^ (z >> 31)
            for i, m in group:
                j = x % m
                x //= m
                items[i], items[j] = items[j], items[i]
        self.state = s

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def __repr__(self) -> str:
        return f"Rng.at({self.state:#x})"


# The same splitmix64 in 64-bit native integers (mypyc's `i64`), for the compiled build, where
# Python ints of 64 bits are bignums: their arithmetic was a quarter of a random Eternitium
# playout, which reshuffles often. An `i64` wraps around in compiled code (two's complement, the
# same bits as unsigned arithmetic modulo 2**64) and is a plain int in the interpreter, so the
# function runs only where `_WRAPS` says it wraps; tests compare it with the reference stream.
_GAMMA_S: Final[i64] = -7046029254386353131  # _GAMMA, _MIX1 and _MIX2 as signed 64-bit values
_MIX1_S: Final[i64] = -4658895280553007687
_MIX2_S: Final[i64] = -7723592293110705685
_LOW34: Final[i64] = (1 << 34) - 1  # x >> 30 of the unsigned value: shift, then keep 64 - 30
_LOW37: Final[i64] = (1 << 37) - 1
_LOW33: Final[i64] = (1 << 33) - 1
_LOW63: Final[i64] = (1 << 63) - 1


def _native_wraps(big: i64) -> bool:
    return big + big < 0


_WRAPS: Final = _native_wraps(1 << 62)  # True in the compiled build only
_NATIVE_BELOW: Final = 1 << 62  # below(n) takes the native branch for n under this (an i64)


def _output_native(x: i64) -> i64:
    """splitmix64's output for the (already advanced) state `x`, in wrapping `i64`."""
    z: i64 = (x ^ ((x >> 30) & _LOW34)) * _MIX1_S
    z = (z ^ ((z >> 27) & _LOW37)) * _MIX2_S
    return z ^ ((z >> 31) & _LOW33)


def _below_native(state: int, n: i64) -> int:
    """`Rng.below(n)`'s draw for the advanced `state` (0 .. 2**64 - 1), in wrapping `i64`."""
    z = _output_native(state - (1 << 64) if state >> 63 else state)
    # (a negative z stands for z + 2**64: halve that by a logical shift, then restore)
    return z % n if z >= 0 else ((((z >> 1) & _LOW63) % n) * 2 + (z & 1)) % n


def _shuffle_native(state: int, items: list[T]) -> int:
    """`Rng.shuffle` from `state` (0 .. 2**64 - 1) in wrapping `i64` arithmetic; the state after."""
    x: i64 = state - (1 << 64) if state >> 63 else state
    for i in range(len(items) - 1, 0, -1):
        x = x + _GAMMA_S
        z = _output_native(x)
        m: i64 = i + 1
        # (a negative z stands for z + 2**64: halve that by a logical shift, then restore)
        j = z % m if z >= 0 else ((((z >> 1) & _LOW63) % m) * 2 + (z & 1)) % m
        items[i], items[j] = items[j], items[i]
    out: int = x
    return out + (1 << 64) if out < 0 else out


def _deal_native(state: int, items: list[T], plan: tuple[tuple[tuple[int, int], ...], ...]) -> int:
    """`Rng.deal` from `state` in wrapping `i64` arithmetic; the state after. An output at or
    above 2**63 is negative here: its first digit and quotient come from its half (a logical
    shift) and its low bit, after which the quotient fits."""
    s: i64 = state - (1 << 64) if state >> 63 else state
    for group in plan:
        s = s + _GAMMA_S
        x = _output_native(s)
        for i, m in group:
            if x >= 0:
                j: i64 = x % m
                x = x // m
            else:  # x stands for u = x + 2**64 = 2h + b
                h: i64 = (x >> 1) & _LOW63
                rest: i64 = (h % m) * 2 + (x & 1)
                j = rest % m
                x = (h // m) * 2 + rest // m
            items[i], items[j] = items[j], items[i]
    out: int = s
    return out + (1 << 64) if out < 0 else out


_PLANS: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {}
_ROOM: Final = 1 << 40  # a 64-bit output gives indices while this much of its range is left


def _deal_plan(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """`deal`'s swaps of an n-item list, (i, i + 1) from the end, grouped by the output each
    draws from (the grouping depends on n only)."""
    groups: list[list[tuple[int, int]]] = []
    room = 0
    for i in range(n - 1, 0, -1):
        if room < _ROOM:
            groups.append([])
            room = 1 << 64
        groups[-1].append((i, i + 1))
        room //= i + 1
    return tuple(map(tuple, groups))


def deal_at(state: int, items: list[T]) -> int:
    """`deal` `items` with the generator at `state`; the state after (for a state slot)."""
    rng = Rng.at(state)
    rng.deal(items)
    return rng.state


# ---------------------------------------------------------------------- agents' random.Random
_Random: Final = random.Random


def _plain(rng: random.Random) -> bool:
    """Whether `rng` draws its indices as `random.Random` does (a subclass may override)."""
    cls = type(rng)
    return cls is _Random or (
        cls.shuffle is _Random.shuffle
        and cls.choice is _Random.choice
        and cls._randbelow is _Random._randbelow  # type: ignore[attr-defined]
        and cls.getrandbits is _Random.getrandbits
    )


def shuffle(rng: random.Random, items: list[T]) -> None:
    """`rng.shuffle(items)`: CPython's Fisher-Yates from the end, index i + 1 drawn by
    rejection from `getrandbits(bit_length)`, so the same permutation from the same draws."""
    if not _plain(rng):
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """`rng.choice(items)`, the same draws (IndexError on an empty sequence)."""
    n = len(items)
    if not n or not _plain(rng):
        return rng.choice(items)
    k = n.bit_length()
    getrandbits = rng.getrandbits
    j = getrandbits(k)
    while j >= n:
        j = getrandbits(k)
    return items[j]


def order_by_draws(rng: random.Random, items: list[T]) -> None:
    """`items.sort(key=lambda _: rng.random())`: one float per item, drawn in list order (as
    sort computes its keys), then a stable sort by them."""
    draw = rng.random
    keys = [draw() for _ in items]
    order = sorted(range(len(items)), key=keys.__getitem__)
    items[:] = [items[i] for i in order]
