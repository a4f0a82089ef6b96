"""The encodings' public signatures are typed too: no `Any` in core/encoding.py or any game's
`encoding*.py` (docs/architecture.md, "The typed contract"), counted as tests/core/
test_typed_contract.py counts core's and the games' other modules (`public_anys`).

What names each former `Any`: the game's state class (`Encoding[EternityState]`, which types the
fast path `write_state`), the game's action class (`actions`), `Float32Memory` (the memory
`write` fills), the options' `OptionValue` (`select`), `LayoutRow` (`describe`) and NumPy's
`DTypeLike` (`RowPool`). No exception is allowed.
"""

from __future__ import annotations

from pathlib import Path

from tests.core.test_typed_contract import public_anys

import eterna

SRC = Path(eterna.__file__).parent
ENCODINGS = [SRC / "core" / "encoding.py", *sorted(SRC.glob("games/*/encoding*.py"))]


def test_the_encodings_are_found():
    games = {path.parent.name for path in ENCODINGS[1:]}
    assert games == {"eternity", "eternitium", "vale"}
    assert (SRC / "games" / "vale" / "encoding_v2.py") in ENCODINGS


def test_encoding_public_signatures_hold_no_any():
    found = [
        f"{path.relative_to(SRC)}:{line} {name}"
        for path in ENCODINGS
        for name, line in public_anys(path)
    ]
    assert not found, "Any in an encoding's public signatures (name the type): " + ", ".join(found)


def test_the_count_sees_an_encodings_any(tmp_path):
    """The shapes the encodings held `Any` in are counted (a class variable, a method's memory
    argument, a classmethod's options)."""
    sample = tmp_path / "encoding.py"
    sample.write_text(
        "from typing import Any, ClassVar\n"
        "class GameEncoding(Encoding):\n"
        "    actions: ClassVar[tuple[Any, ...]] = ()\n"
        "    def write(self, view: View, m: Any) -> None: ...\n"
        "    @classmethod\n"
        "    def select(cls, options: Mapping[str, Any] | None = None) -> type: ...\n"
        "    def _write(self, m: Any) -> None: ...\n",
        encoding="utf-8",
    )
    assert [name for name, _ in public_anys(sample)] == [
        "GameEncoding.actions",
        "GameEncoding.write",
        "GameEncoding.select",
    ]
