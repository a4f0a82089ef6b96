"""The Vale's position invariants beyond the keys' own reads (docs/vale.md, "What a position
reader refuses"): states no legal game reaches and that would change what the rules do next.
Called once, at the end of `position._build`, on the state read; each refusal is a BadPosition
naming the field.

- Loki (Q-C10): at the start of its owner's action or resolution turn (nothing logged in that
  turn yet) Loki's family question is pending; without it Loki would count as Wind all turn.
- The block (Q-A4): a seat never picks the tile that blocks it; once the action phase has
  ended, `blocked` is this round's pick (option artifact_block 'held': that pick or none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eterna.core.position import Reader
from eterna.games.vale.abilities import PERMANENT
from eterna.games.vale.artifacts import NO_TILE
from eterna.games.vale.board import ACTION, HUNT, RESOLUTION
from eterna.games.vale.cards import CARD_NAME, TILE_NAME
from eterna.games.vale.permanents import WATCH_ANY_FAMILY

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState


def check_position(st: ValeState, r: Reader) -> None:
    """Every invariant above, on a state `position._build` has read in full."""
    _check_loki(st, r)
    _check_blocks(st, r)


def _check_loki(st: ValeState, r: Reader) -> None:
    if st.stage not in (ACTION, RESOLUTION) or st.choice is not None or st.work:
        return
    seat = st.turn
    loki = [c for c in st.areas[seat] if _any_family(c)]
    if not loki or _turn_begun(st, seat):
        return
    r["pending"].fail(
        f"is null at the start of seat {seat}'s turn, but {CARD_NAME[loki[0]]} in its area asks "
        "which family it counts as this turn first (Q-C10)"
    )


def _any_family(card: int) -> bool:
    perm = PERMANENT[card]
    return perm is not None and bool(perm.watch & WATCH_ANY_FAMILY)


def _turn_begun(st: ValeState, seat: int) -> bool:
    """Whether this round's log holds an action of `seat`'s current turn (its action turn
    starts after the last `end-turn`, or after the hunt's claims; its resolution turn after
    the action phase, with its own first action)."""
    log = st.round_log()
    ends = [i for i, e in enumerate(log) if e["action"] == "end-turn"]
    if st.stage == ACTION:
        claims = [i for i, e in enumerate(log) if e["action"].startswith("claim ")]
        start = max([-1, *ends[-1:], *claims[-1:]]) + 1
        return start < len(log)
    start = ends[-1] + 1 if ends else 0
    return any(e["seat"] == seat for e in log[start:])


def _check_blocks(st: ValeState, r: Reader) -> None:
    arts = st.arts
    if arts is None:
        return
    by_held = st.start.options["artifact_block"] == "held"
    for s in range(st.players):
        picked, blocked = arts.chosen[s], arts.blocked[s]
        if picked == NO_TILE:
            continue
        if st.stage in (HUNT, ACTION) and picked == blocked:
            r["picked"][s].fail(
                f"is {TILE_NAME[picked]}, the tile that blocks seat {s} this round (Q-A4)"
            )
        if st.stage == RESOLUTION and blocked != picked and not (by_held and blocked == NO_TILE):
            got = "null" if blocked == NO_TILE else TILE_NAME[blocked]
            r["blocked"][s].fail(
                f"is {got}, but the action phase has ended: seat {s}'s block is now the tile it "
                f"picked this round, {TILE_NAME[picked]} (Q-A4; docs/vale.md, when the block "
                "moves)"
            )
