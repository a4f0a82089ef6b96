"""What Eternity's position reader refuses beyond each key's own read (docs/eternity.md,
"What a position reader refuses"; issue 34)."""

from __future__ import annotations

import pytest

import eterna
from eterna.core.errors import BadPosition

GAME = eterna.load_game("eternity")


def test_a_void_named_twice_is_refused_rules_5_3() -> None:
    st = GAME.new_game(3, seed=4)
    position = st.to_position()
    position["voids"][0] = ["sea", "sea"]
    with pytest.raises(BadPosition, match=r"voids\[0\]: names a family twice"):
        GAME.from_position(position)
