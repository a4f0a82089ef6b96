"""The readable playthroughs (tests/playthroughs/<game>/*.txt) replay exactly, and perft counts
from fixed Eternity deals stay what they were: together they prove a refactor kept behaviour."""

from __future__ import annotations

from typing import Any

import pytest
from tests.playthroughs.playthroughs import CASES, compare

import eterna


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_unchanged(name: str) -> None:
    diff = compare(name)
    assert not diff, (
        f"playthrough {name} differs from a fresh run (stored -> fresh); if the change is "
        f"intended, rewrite with `python -m tests.playthroughs.playthroughs --write {name}` "
        f"and review the diff:\n{diff}"
    )


def perft(state: Any, depth: int) -> int:
    """The number of move sequences of length `depth` (fewer where the game ends first)."""
    if depth == 0 or state.is_terminal:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        total += perft(child, depth - 1)
    return total


# (players, seed) -> perft counts for depths 1, 2, 3, ... from the game's first decision, dealt
# by the generator of record version 1 (eterna.core.legacy), so the counts stay as first found
PERFT: dict[tuple[int, int], list[int]] = {
    (3, 1): [10, 128, 692, 6228, 72738],
    (4, 2): [10, 128, 920, 5140, 46260],
    (5, 3): [8, 82, 880, 4704, 17192, 120344],
}
PERFT_MID = [11, 54, 486, 5541]


def _start(players: int, seed: int) -> Any:
    return eterna.load_game("eternity").new_game(players, seed=seed, version=1)


@pytest.mark.parametrize(("players", "seed"), sorted(PERFT))
def test_eternity_perft(players: int, seed: int) -> None:
    state = _start(players, seed)
    counts = [perft(state, d) for d in range(1, len(PERFT[players, seed]) + 1)]
    assert counts == PERFT[players, seed]


def test_eternity_perft_mid_trick() -> None:
    """From inside a trick (pledges possible), counted after a fixed opening."""
    state = _start(4, 11)
    for _ in range(2):
        state.apply(state.legal_actions()[0])
    assert [perft(state, d) for d in (1, 2, 3, 4)] == PERFT_MID
