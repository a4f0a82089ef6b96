"""What every game's encoding shares: the action-id map, the mask, the observation buffer.

An encoding turns a game into fixed-size arrays for learning code:

- **actions**: a fixed discrete space `0 .. num_actions - 1`. The id of an action is its interned
  `index` in the game's action table (`ACTIONS[i].index == i` for every game), so notation,
  Action object and id map to each other in O(1). `action_digest` fingerprints the whole table
  (every notation in id order): a test pins it to the game's `ENCODING_VERSION`, so a change of
  the engine's action table cannot silently renumber a trained policy's outputs.
- **mask**: an int8 vector, 1 for each legal action id (the current player's).
- **observation**: a float32 vector that is a function of `state.view(seat)` alone (never of
  hidden state), laid out in named fields (`layout`), written into a preallocated buffer. Seats
  are relative to the observer: slot 0 is the observer, slot 1 the next seat clockwise, and so
  on; slots past the table size stay zero. Every value lies in [0, 1] (counts are divided by a
  documented cap and clipped), so the Box space is `Box(0, 1)`.

Two ways to the same observation:

- `encode(view)` (`write`): from a view dict; the reference, and the only way for a spectator
  (seat None) or for a state of another class.
- `observe(state, seat)` (`write_state`, the fast path): the same floats written straight from
  the engine's fields, without building the view dict (which costs more than the encoding
  itself: logs, names, the legal actions as text). Each game's `write_state` reads exactly the
  fields its `view` exposes to that seat -- never another seat's hand, a deck order or anything
  else hidden. tests/adapters/test_fast_observe.py checks, with Hypothesis over random
  reachable states (determinized ones too) and every seat, that `observe(state, seat)` equals
  `encode(state.view(seat))` float for float, so the two cannot drift apart.

A game may have several versions of its encoding (a new one when its action table or layout
grows, the old one kept so that trained models stay readable): `select(options, version)` picks
the class for a game played with `options` (version None: the game's default for them).

docs/encodings.md documents each game's layout and version.
"""

from __future__ import annotations

import hashlib
import struct
import sys
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final, Generic, TypeAlias, TypedDict, overload

import numpy as np
from librt.vecs import vec
from mypy_extensions import i32
from numpy.typing import DTypeLike
from typing_extensions import TypeVar  # a type variable's default (PEP 696) before Python 3.13

from eterna.core.errors import EternaError
from eterna.core.game import Action, GameState, View, check_audience
from eterna.core.options import OptionValue
from eterna.core.registry import load_game

#: The float32 memory `write` fills: a flat memoryview of the observation (format "f"). Typeshed
#: types a memoryview's items as ints, so the writers assign it whole (`m[:] = ...`) from the
#: float32 bits they wrote into a native vector, never a float item by item.
Float32Memory: TypeAlias = memoryview

# An encoding's state class: the one its fast path (`write_state`) reads. Covariant, so that
# every game's encoding is an `Encoding` (`Encoding[GameState]`, the default) where code holds
# any game's; the price is the one parameter of that type, `write_state`'s, which `observe`
# calls only after checking the state's class (`state_class`).
StateCo = TypeVar("StateCo", bound=GameState, covariant=True, default=GameState)


class LayoutRow(TypedDict):
    """One field of an observation's layout, as `Encoding.describe` lists it."""

    field: str
    shape: list[int]
    offset: int


class Encoding(Generic[StateCo]):
    """A game's fixed-size action space and observation vector (see the module docstring)."""

    game_id: ClassVar[str]
    version: ClassVar[int]
    max_players: ClassVar[int]
    actions: ClassVar[tuple[Action, ...]]
    #: field name -> shape, in layout order; subclasses set it
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]]

    def __init__(self, players: int | None = None) -> None:
        self.players = players
        self.num_actions = len(self.actions)
        self.offsets: dict[str, int] = {}
        size = 0
        for name, shape in self.fields:
            self.offsets[name] = size
            size += int(np.prod(shape))
        self.size = size
        self.shape = (size,)
        self.buffer = np.zeros(size, np.float32)
        self.mask_buffer = np.zeros(self.num_actions, np.int8)
        # memory: the float32 bits; rows are overwritten in full (fast path) or zeroed first
        self._obs_rows = RowPool(size, np.float32, np.int32, zeroed=False)
        self._mask_rows = RowPool(self.num_actions, np.int8)
        self._zero_bits: vec[i32] = vec[i32]([0] * size)  # a fast-path writer's blank sheet
        self._mask_set: list[int] = []
        self._by_text = {a.text: a.index for a in self.actions}
        self._game = load_game(self.game_id)

    # ------------------------------------------------------------------ versions
    @classmethod
    def select(
        cls, options: Mapping[str, OptionValue] | None = None, version: int | None = None
    ) -> type[Encoding]:
        """The encoding class for a game played with `options`, of `version` (None: the default
        for those options). A game with a single version has only `cls`."""
        if version is not None and version != cls.version:
            raise EternaError(
                f"the {cls.game_id} encoding has version {cls.version} only, not {version!r}"
            )
        return cls

    # ------------------------------------------------------------------ actions
    @classmethod
    def check_table(cls) -> None:
        """Ids are the interned indexes: refuse a table that breaks this."""
        for i, action in enumerate(cls.actions):
            if action.index != i:
                raise AssertionError(f"{cls.game_id}: action {action} has index {action.index}")

    @classmethod
    def action_digest(cls) -> str:
        """sha256 of every action's notation in id order (pinned per ENCODING_VERSION)."""
        text = "\n".join(a.text for a in cls.actions)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    @classmethod
    def layout_digest(cls) -> str:
        text = ";".join(f"{name}:{'x'.join(map(str, shape))}" for name, shape in cls.fields)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def action_id(self, action: Action | str) -> int:
        """The id of an Action or of its notation (any spelling the game accepts)."""
        if isinstance(action, Action):
            return action.index
        found = self._by_text.get(action)
        if found is not None:
            return found
        return self._game.parse_action(action).index

    def action(self, action_id: int) -> Action:
        return self.actions[action_id]

    def notation(self, action_id: int) -> str:
        return self.actions[action_id].text

    @staticmethod
    def legal_ids(state: GameState) -> list[int]:
        # (typed: the compiled build reads `index` natively, not by a generic lookup by name)
        actions: list[Action] = state.legal_actions()
        return [a.index for a in actions]

    def mask(self, state: GameState, out: np.ndarray | None = None) -> np.ndarray:
        """int8 legal-action mask of the current player; written into `out` (or the buffer)."""
        if out is None:
            out = self.mask_buffer
            for i in self._mask_set:  # clear only what the last call set
                out[i] = 0
            ids = self._mask_set = self.legal_ids(state)
        else:
            out.fill(0)
            ids = self.legal_ids(state)
        if ids:
            out[ids] = 1
        return out

    # ------------------------------------------------------------------ observations
    #: the engine state class whose fields `write_state` reads (None: no fast path)
    state_class: ClassVar[type[GameState] | None] = None

    # Callers are checked against the signatures for a seat and for a spectator; the methods
    # take any value and refuse a bad seat with EternaError, as GameState's do (core/game.py).
    @overload
    def observe(self, state: GameState, seat: int, out: np.ndarray | None = None) -> np.ndarray: ...
    @overload
    def observe(
        self, state: GameState, seat: None, out: np.ndarray | None = None
    ) -> np.ndarray: ...
    def observe(self, state: GameState, seat: object, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of `seat`: equal to `encode(state.view(seat), out)`, written by the
        fast path (`write_state`) when the state is the engine's own class."""
        if out is None:
            out = self.buffer
        self._observe(state, seat, out)
        return out

    @overload
    def new_observation(self, state: GameState, seat: int) -> np.ndarray: ...
    @overload
    def new_observation(self, state: GameState, seat: None) -> np.ndarray: ...
    def new_observation(self, state: GameState, seat: object) -> np.ndarray:
        """`observe` into a fresh array (the caller may keep it; no copy of the buffer)."""
        return self._fresh(state, seat)

    def _fresh(self, state: GameState, seat: object) -> np.ndarray:
        out, memory, start = self._obs_rows.take()
        self._observe(state, seat, out, memory, start)
        return out

    @overload
    def observation(
        self, state: GameState, seat: int, legal: list[int] | None
    ) -> dict[str, np.ndarray]: ...
    @overload
    def observation(
        self, state: GameState, seat: None, legal: list[int] | None
    ) -> dict[str, np.ndarray]: ...
    def observation(
        self, state: GameState, seat: object, legal: list[int] | None
    ) -> dict[str, np.ndarray]:
        """PettingZoo's observation dict of `seat`: `{"observation": new_observation(...),
        "action_mask": new_mask(legal or [])}` (fresh arrays)."""
        return {
            "observation": self._fresh(state, seat),
            "action_mask": self.new_mask([] if legal is None else legal),
        }

    def new_mask(self, ids: list[int]) -> np.ndarray:
        """A fresh int8 mask with a 1 at each of `ids` (legal ids from `legal_ids`)."""
        out, memory, start = self._mask_rows.take()
        for i in ids:
            memory[start + i] = 1
        return out

    def _observe(
        self,
        state: GameState,
        seat: object,
        out: np.ndarray,
        memory: memoryview | None = None,
        start: int = 0,
    ) -> None:
        """Fill `out` (in any state: a pooled row may hold an old observation) with `seat`'s
        observation. `memory[start:start + size]`, when given, is `out`'s memory as int32 (a
        pooled row): the fast path copies its bits there. The fast path overwrites every item;
        the reference path zeroes `out` first."""
        if type(state) is self.state_class and type(seat) is int and 0 <= seat < state.players:
            bits = self._zero_bits[0 : self.size]
            # (state is a StateCo, its class checked; mypy cannot narrow to a type variable, and
            # a cast() is a call on the pure build: 0.6% of an observation)
            self.write_state(state, seat, bits)  # type: ignore[arg-type]
            if memory is None:
                out[:] = np.frombuffer(bits, np.float32)  # type: ignore[call-overload]
            else:
                memory[start : start + self.size] = bits
        else:  # the reference path (or a bad seat, refused)
            view = state.view(check_audience(seat, state.players))
            out.fill(0.0)
            self.write(view, memoryview(out))  # type: ignore[arg-type]

    # (StateCo is covariant, which a parameter breaks: mypy's [misc] allowed here, the one call
    # being _observe's, after its check of the state's class)
    def write_state(self, state: StateCo, seat: int, m: vec[i32]) -> None:  # type: ignore[misc]
        """Write, into the zeroed native vector `m`, the float32 bit patterns (`f32`, `ONE`,
        `cap_table`) of what `write(state.view(seat), ...)` writes, from the fields of `state`
        that view exposes to `seat` (subclasses with a `state_class`). A store into `m` is a
        plain machine store in the compiled build, where a float stored through a memoryview
        is a generic call (boxing the index and the float, parsing the format: about 50 ns).
        Called by `observe`; from interpreted code, mypyc's wrapper for a `vec` argument leaks
        the vector's buffer (docs/compiled.md)."""
        raise NotImplementedError

    def encode(self, view: View, out: np.ndarray | None = None) -> np.ndarray:
        """Write the observation of `view` into `out` (default: this encoding's buffer)."""
        if out is None:
            out = self.buffer
        out.fill(0.0)
        self.write(view, memoryview(out))  # type: ignore[arg-type]
        return out

    def write(self, view: View, m: Float32Memory) -> None:
        """Fill the zeroed float32 memory `m` from `view` (subclasses)."""
        raise NotImplementedError

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """The observation's fields by name, as views into `obs` (for reading and tests)."""
        out = {}
        for name, shape in self.fields:
            start = self.offsets[name]
            out[name] = obs[start : start + int(np.prod(shape))].reshape(shape)
        return out

    def describe(self) -> list[LayoutRow]:
        """The layout as rows: field, shape, offset (docs/encodings.md is built from this)."""
        return [
            {"field": name, "shape": list(shape), "offset": self.offsets[name]}
            for name, shape in self.fields
        ]


class RowPool:
    """Fresh 1-D arrays of one width and dtype, cut from preallocated blocks of about 64 KB: one
    allocation and one memoryview a block instead of one each a row (about 1 us of a 3-8 us
    observation). A row is a view into its block, never handed out twice while anyone holds it.

    The pool keeps its last `BLOCKS` blocks. When a block is used up, the oldest is handed out
    again if nothing but the pool refers to it any more -- no row of it, and no view of such a
    row (numpy views of a row refer to the block itself), is held by any caller: its rows are
    then new array objects over memory that is already mapped and in cache. A block a caller
    still holds a row of is left to the caller and replaced by a new one. With `zeroed`, every
    row comes zeroed; without it a reused row holds old values (for writers of every item)."""

    BLOCK_BYTES: ClassVar[int] = 1 << 16
    #: the blocks kept for reuse
    BLOCKS: ClassVar[int] = 4

    def __init__(
        self,
        width: int,
        dtype: DTypeLike,
        memory_dtype: DTypeLike | None = None,
        zeroed: bool = True,
    ) -> None:
        self.width = width
        self.dtype = np.dtype(dtype)
        #: the item type the block's memoryview shows (same size; e.g. int32 for float32
        #: rows, which a fast-path writer's bits are copied into)
        self.memory_dtype = self.dtype if memory_dtype is None else np.dtype(memory_dtype)
        assert self.memory_dtype.itemsize == self.dtype.itemsize
        self.zeroed = zeroed
        self.rows_per_block = max(1, self.BLOCK_BYTES // max(1, width * self.dtype.itemsize))
        self._blocks: list[np.ndarray] = []
        self._memories: list[memoryview] = []
        self._current = -1
        self._block: np.ndarray = _NO_BLOCK  # the block rows are being cut from
        self._memory: memoryview = _NO_MEMORY
        self._next = self.rows_per_block  # empty: the first take() gets a block
        self._unheld = 0  # sys.getrefcount of a block nobody but the pool refers to
        #: blocks handed out again (for tests and measurements)
        self.reused = 0

    def take(self) -> tuple[np.ndarray, memoryview, int]:
        """(row, its block's writable memory: a flat memoryview of `memory_dtype` items, the
        row's first item in it). The row's items are memory[start:start + width]. The memory
        is the pool's own: write through it before the next take(), never keep it (keeping it
        would not keep the block out of reuse; keeping the row does)."""
        i = self._next
        if i == self.rows_per_block:
            self._next_block()
            i = 0
        self._next = i + 1
        # (a view made here, not a list of them a block: the pool never holds a row, and
        # list(block) ends numpy's iteration with an IndexError and its formatted message)
        return self._block[i], self._memory, i * self.width

    def _next_block(self) -> None:
        self._block = _NO_BLOCK  # (the pool's reference dropped before the blocks' are counted)
        blocks = self._blocks
        j = self._current + 1 if self._current + 1 < self.BLOCKS else 0  # the oldest, or a new one
        if j < len(blocks) and self._refs(j) == self._unheld:
            self.reused += 1
            if self.zeroed:
                blocks[j].fill(0)
        else:  # none yet, or a caller holds a row of it: the block is theirs now
            self._new_block(j)
            self._unheld = self._refs(j)  # the same expression as the check, in the same state
        self._current = j
        self._memory = self._memories[j]
        self._block = blocks[j]

    def _new_block(self, j: int) -> None:
        shape = (self.rows_per_block, self.width)
        block = np.zeros(shape, self.dtype) if self.zeroed else np.empty(shape, self.dtype)
        # (numpy's stubs declare its buffer to Python 3.12 and later only, hence the ignores)
        memory = memoryview(block.reshape(-1).view(self.memory_dtype))  # type: ignore[arg-type]
        if j == len(self._blocks):
            self._blocks.append(block)
            self._memories.append(memory)
        else:
            self._blocks[j] = block
            self._memories[j] = memory

    def _refs(self, j: int) -> int:
        """sys.getrefcount of block j (references: the pool's list, its memoryview's array,
        and every row or view a caller holds)."""
        return sys.getrefcount(self._blocks[j])


#: A pool's block and memory before its first take() (and its block while it picks the next)
_NO_BLOCK: Final[np.ndarray] = np.zeros((0, 0), np.float32)
_NO_MEMORY: Final[memoryview] = memoryview(b"")


def relative(seat: int, other: int, players: int) -> int:
    """Slot of `other` in `seat`'s observation: 0 is `seat` itself, then clockwise."""
    return (other - seat) % players


def cap(value: float, scale: float) -> float:
    """value / scale, clipped to [0, 1]."""
    x = value / scale
    return 1.0 if x > 1.0 else (0.0 if x < 0.0 else x)


#: the float32 bit pattern of 1.0 (as a signed int32), which fast-path writers store
ONE: Final[i32] = 0x3F800000


def f32(x: float) -> int:
    """The bit pattern of float32(x), as a signed 32-bit int (numpy's rounding: to nearest).
    The writers' values are capped counts, a small set: they are remembered (up to 4096)."""
    bits = _F32.get(x)
    if bits is None:
        bits = struct.unpack("<i", struct.pack("<f", x))[0]
        if len(_F32) < 4096 and x != 0.0:  # (0.0 == -0.0, whose sign bit differs)
            _F32[x] = bits
    return bits


_F32: Final[dict[float, int]] = {}


def put_count(m: vec[i32], i: int, table: tuple[int, ...], v: int) -> None:
    """m[i] = the bits of cap(v, scale) for a count v, from its `cap_table` (0 or less: the
    zero already there)."""
    if v > 0:
        top = len(table) - 1
        m[i] = table[v if v < top else top]


def cap_table(scale: float) -> tuple[int, ...]:
    """table[v] = f32(cap(v, scale)) for the counts v = 0 .. ceil(scale) (the last is 1.0;
    larger counts read it): a fast-path writer looks a count's bits up."""
    return tuple(f32(cap(v, scale)) for v in range(int(-(-scale // 1)) + 1))


def index_map(names: Sequence[str]) -> dict[str, int]:
    return {name: i for i, name in enumerate(names)}
