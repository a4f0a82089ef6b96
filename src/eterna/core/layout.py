"""An observation's layout, declared once per game: its blocks, in order.

A game's encoding (`eterna.games.<id>.encoding`) declares its observation as a tuple of `Block`s:
each has a name, a shape, what it holds (`meaning`, the sentence docs/encodings.md shows) and,
for a count, the `cap` it is divided by (then clipped to 1). A block whose last axis is a row of
named values (a seat's features, the clock, the deck sizes) lists them as `Slot`s, each with its
own meaning and cap. Everything else about the layout follows from that one declaration:

- `fields(blocks)`: the (name, shape) pairs `Encoding.fields` holds, hence the offsets, the
  size, `split`, `describe` and the pinned `layout_digest`;
- `slot(blocks, block, name)`: where a named value sits in its row, for the writers;
- `table(blocks, block, name=None)`: the float32 bits of cap(v, cap) by count (`cap_table`), the
  fast-path writers' lookup for that value;
- `markdown(blocks)`: the table docs/encodings.md shows for the layout
  (`python -m eterna.adapters.encodings.docs` rewrites the page; a test fails when it is stale).

So a change to what a seat observes is made in the declaration, and the writers (the reference
one from the view, the fast one from the engine, which tests/adapters/test_fast_observe.py holds
equal) take their positions, caps and tables from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from eterna.core.encoding import cap_table


@dataclass(frozen=True, slots=True)
class Slot:
    """One named value of a block's row: a 0/1 flag (cap None) or a count / cap, clipped."""

    name: str
    meaning: str
    cap: float | None = None


@dataclass(frozen=True, slots=True)
class Block:
    """A named part of the observation: `shape` floats, all 0/1 (cap None) or counts / `cap`;
    with `slots`, its last axis is that row of named values (its length: len(slots))."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    cap: float | None = None
    slots: tuple[Slot, ...] = ()

    def __post_init__(self) -> None:
        if self.slots and self.shape[-1] != len(self.slots):
            raise ValueError(f"block {self.name}: last axis {self.shape[-1]} != {len(self.slots)}")

    @property
    def size(self) -> int:
        return prod(self.shape)


Layout = tuple[Block, ...]


def fields(blocks: Layout) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """(name, shape) of each block, in order: `Encoding.fields`."""
    return tuple((b.name, b.shape) for b in blocks)


def block(blocks: Layout, name: str) -> Block:
    for b in blocks:
        if b.name == name:
            return b
    raise KeyError(f"no block {name!r} in this layout")


def slot(blocks: Layout, block_name: str, name: str) -> int:
    """The index of slot `name` in the rows of block `block_name`."""
    for i, s in enumerate(block(blocks, block_name).slots):
        if s.name == name:
            return i
    raise KeyError(f"no slot {name!r} in block {block_name!r}")


def cap_of(blocks: Layout, block_name: str, name: str | None = None) -> float:
    """The cap of a block's counts, or of its slot `name`'s."""
    b = block(blocks, block_name)
    found = b.cap if name is None else b.slots[slot(blocks, block_name, name)].cap
    if found is None:
        raise KeyError(f"{block_name}{'' if name is None else '.' + name} is not a count")
    return found


def table(blocks: Layout, block_name: str, name: str | None = None) -> tuple[int, ...]:
    """The float32 bits of cap(v, cap) for counts v (`cap_table`) of that block or slot."""
    return cap_table(cap_of(blocks, block_name, name))


def _number(x: float) -> str:
    return f"{x:g}"


def _value(meaning: str, cap: float | None) -> str:
    return meaning if cap is None else f"{meaning} / {_number(cap)}"


def markdown(blocks: Layout) -> str:
    """The layout as the Markdown table of docs/encodings.md: block, shape (and size), offset,
    meaning."""
    rows = ["| block | shape | offset | meaning |", "| --- | --- | --- | --- |"]
    offset = 0
    for b in blocks:
        text = _value(b.meaning, b.cap)
        if b.slots:
            text += ": " + ", ".join(_value(s.meaning, s.cap) for s in b.slots)
        shape = " x ".join(str(d) for d in b.shape)
        if len(b.shape) > 1:  # and the floats it takes
            shape += f" = {b.size}"
        rows.append(f"| `{b.name}` | {shape} | {offset} | {text} |")
        offset += b.size
    return "\n".join(rows)


__all__ = ["Block", "Layout", "Slot", "block", "cap_of", "fields", "markdown", "slot", "table"]
