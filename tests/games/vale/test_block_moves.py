"""docs/vale.md "When the block moves" (digest Q-A4): the worked example, step by step, and a
resolution-phase position that must already give this round's pick as `blocked`."""

from __future__ import annotations

import pytest
from tests.positions import assert_round_trip
from vale_helpers import legal, vale

from eterna.core.errors import BadPosition, BadSetup
from eterna.games.vale import GAME

GLADE = ["incense-burner", "monkey-kings-staff", "pied-pipers-pipe"]


def tiles(st: object) -> tuple[list[str | None], list[str | None], list[str | None]]:
    p = st.to_position()  # type: ignore[attr-defined]
    return p["held"], p["picked"], p["blocked"]


def test_the_block_moves_when_the_action_phase_ends_q_a4() -> None:
    st = vale(
        2,
        options={"expansions": ["artifacts"]},
        round=2,
        glade=GLADE,
        blocked=[None, "incense-burner"],
        areas=[["sea-spirit"], []],  # a resolution phase to stop in
    )
    assert tiles(st) == ([None, None], [None, None], [None, "incense-burner"])
    st.apply("pick incense-burner")
    assert "pick incense-burner" not in legal(st)  # blocked for seat 1
    st.apply("pick monkey-kings-staff")
    both = ["incense-burner", "monkey-kings-staff"]
    assert tiles(st) == (both, both, [None, "incense-burner"])
    while st.view(None)["phase"] != "resolution":
        assert tiles(st)[2] == [None, "incense-burner"]  # unchanged through the action phase
        moves = legal(st)
        st.apply(next((m for m in moves if m.startswith("sell")), moves[-1]))
    assert tiles(st) == ([None, None], both, both)  # the action phase ended: the block moved
    assert_round_trip(st)
    stale = {**st.to_position(), "blocked": [None, "incense-burner"]}
    with pytest.raises(BadPosition, match=r"blocked\[0\]: is null, but the action phase has ended"):
        GAME.from_position(stale)  # a block that did not move: seat 0 could pick it again
    while st.view(None)["phase"] == "resolution":
        st.apply(legal(st)[0])
    assert st.round == 3 and tiles(st) == ([None, None], [None, None], both)
    assert st.current_player == 1
    assert legal(st) == ["pick incense-burner", "pick pied-pipers-pipe"]


def test_a_seat_never_holds_the_tile_that_blocks_it_q_a4() -> None:
    st = vale(
        2,
        options={"expansions": ["artifacts"]},
        round=2,
        glade=GLADE,
        blocked=[None, "incense-burner"],
        claimed=[[], []],
        artifacts=["monkey-kings-staff", "pied-pipers-pipe"],
    )
    position = st.to_position()
    bad = {**position, "held": [None, "incense-burner"], "picked": [None, "incense-burner"]}
    with pytest.raises(BadPosition, match=r"picked\[1\]: is incense-burner, the tile that blocks"):
        GAME.from_position(bad)
    with pytest.raises(BadSetup, match="blocks it"):
        vale(2, options={"expansions": ["artifacts"]}, glade=GLADE, claimed=[[], []],
             artifacts=["incense-burner", None], blocked=["incense-burner", None])  # fmt: skip
