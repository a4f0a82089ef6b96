"""The Vale's positions: the keys of a game with the Artifacts (docs/vale.md#positions).

A game played with `expansions: ["artifacts"]` writes, beside the base keys: `glade` (the tiles
in play), per seat `held` / `picked` / `blocked` (a tile or null), `shelters` and
`shelters_hidden` (like `hands` and `hidden`: a seat's position writes another seat's sheltered
cards it never saw as "?", keeping the shelter's size), `bought_areas`, `rung` (the cards whose
active effect Ring of Wishes used this round), `loki` (the family each seat's Loki counts as, or
null), and in the hunting phase `hunt.tiles_picked` (the artifact picks made this round). A base
game has none of them. The perks of the Artifacts creatures are not written: they follow from
the areas, as the stone values and limits do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from eterna.core.jsonvalue import JsonObject
from eterna.core.options import option_words
from eterna.core.position import UNKNOWN, Reader
from eterna.games.vale.artifacts import NO_TILE, ArtSetup
from eterna.games.vale.board import ACTION, HUNT
from eterna.games.vale.cards import CARD_NAME, FAMILIES, TILE_NAME
from eterna.games.vale.position_steps import card, cards_mask, mask_cards, tile

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState

ART_KEYS: Final = (
    "glade",
    "held",
    "picked",
    "blocked",
    "shelters",
    "shelters_hidden",
    "bought_areas",
    "rung",
    "loki",
)


# ============================================================================ writing
def write_arts(st: ValeState, seat: int | None) -> JsonObject:
    """The Artifacts' keys of `st`'s position (none in a base game)."""
    arts = st.arts
    if arts is None:  # the Artifacts' creatures without tiles write Loki's family only
        return (
            {"loki": _lokis(st)}
            if "artifacts" in option_words(st.start.options, "expansions")
            else {}
        )

    def tiles(row: list[int]) -> list[str | None]:
        return [None if t == NO_TILE else TILE_NAME[t] for t in row]

    shelters, hidden = hidden_rows(arts.shelters, st.secret, seat)
    return {
        "glade": [TILE_NAME[t] for t in arts.glade],
        "held": tiles(arts.held),
        "picked": tiles(arts.chosen),
        "blocked": tiles(arts.blocked),
        "shelters": shelters,
        "shelters_hidden": hidden,
        "bought_areas": list(arts.bought),
        "rung": mask_cards(arts.rung),
        "loki": _lokis(st),
    }


def _lokis(st: ValeState) -> list[str | None]:
    return [_family(st.loki >> s * 4 & 15) for s in range(st.players)]


def _family(named: int) -> str | None:
    return FAMILIES[named - 1] if named else None


def hidden_rows(
    rows: list[list[int]], secret: int, seat: int | None
) -> tuple[list[list[str]], list[list[str]]]:
    """Hands or shelters as `seat` may write them, and the cards in them only their holder
    knows: another seat's such cards are "?" (after the cards every seat saw go in)."""
    out: list[list[str]] = []
    hidden: list[list[str]] = []
    for s, row in enumerate(rows):
        shut = [c for c in row if secret >> c & 1]
        if seat is None or s == seat:
            out.append([CARD_NAME[c] for c in row])
            hidden.append([CARD_NAME[c] for c in shut])
        else:
            out.append([CARD_NAME[c] for c in row if not secret >> c & 1] + [UNKNOWN] * len(shut))
            hidden.append([UNKNOWN] * len(shut))
    return out, hidden


def hidden_mask(r: Reader, rows: list[list[int | None]], zone: str) -> int:
    """The bit mask of the cards `r` (`hidden` or `shelters_hidden`) says only their holder
    knows: each in its row of `rows`, one "?" per unknown card of the row."""
    mask = 0
    for s, row_r in enumerate(r.items(len(rows))):
        row = rows[s]
        unknown = 0
        for x in row_r.items():
            if x.value == UNKNOWN:
                unknown += 1
                continue
            c = card(x)
            if c not in row:
                x.fail(f"{CARD_NAME[c]} is not in {zone}[{s}]")
            if mask >> c & 1:
                x.fail(f"names {CARD_NAME[c]} twice: each hidden card once")
            mask |= 1 << c
        if unknown != row.count(None):
            row_r.fail(f"must list one '?' per '?' of {zone}[{s}] (a card unknown there)")
    return mask


# ============================================================================ reading
def check_keys(r: Reader, arts: bool, creatures: bool = False) -> None:
    """With artifact tiles every key is required (their reads say so); with the Artifacts'
    creatures alone only `loki` (required too); in a base game none is let in."""
    if arts:
        return
    for key in ART_KEYS:
        if r.has(key) and not (creatures and key == "loki"):
            r[key].fail(
                "is only for a game with artifact tiles (options expansions, artifact_set)"
                if creatures
                else "is only for a game with the Artifacts (option expansions)"
            )


def read_glade(r: Reader) -> tuple[int, ...]:
    """The tiles in play, each once (a setup may have chosen any: `artifact_set` is not
    checked), sorted as the tiles' table."""
    g = r["glade"]
    glade = [tile(x) for x in g.items()]
    if len(set(glade)) != len(glade):
        g.fail("names a tile twice: the glade holds each tile once")
    if not glade:
        g.fail("is empty: a game with the Artifacts has tiles to pick")
    return tuple(sorted(glade))


def _tiles(r: Reader, glade: tuple[int, ...], n: int, once: bool = True) -> list[int]:
    out = []
    for x in r.items(n):
        if x.value is None:
            out.append(NO_TILE)
            continue
        t = tile(x)
        if t not in glade:
            x.fail(f"{TILE_NAME[t]} is not in this game's glade")
        out.append(t)
    taken = [t for t in out if t != NO_TILE]
    if once and len(set(taken)) != len(taken):
        r.fail("names a tile twice: each tile is with one seat at most")
    return out


def read_art_setup(
    r: Reader, glade: tuple[int, ...], shelters: list[list[int]], n: int, limit: int
) -> tuple[ArtSetup, list[int]]:
    """The tiles held and blocked, the shelters and the areas bought (the start's ArtSetup),
    and the tiles picked this round."""
    held = _tiles(r["held"], glade, n)
    picked = _tiles(r["picked"], glade, n)
    blocked = _tiles(r["blocked"], glade, n, once=False)  # seats may share a block
    for s in range(n):
        if held[s] != NO_TILE and held[s] != picked[s]:
            r["held"][s].fail(f"is {TILE_NAME[held[s]]}, but seat {s} picked another tile")
    bought = [x.number(0, limit) for x in r["bought_areas"].items(n)]
    return ArtSetup(tuple(held), tuple(blocked), tuple(map(tuple, shelters)), tuple(bought)), picked


def settle_arts(st: ValeState, r: Reader, picked: list[int]) -> None:
    """The round's progress in tiles (picked, Ring of Wishes, Loki), checked against the phase."""
    arts = st.arts
    assert arts is not None
    arts.chosen = picked
    arts.rung = _rung(st, r)
    arts.pick_i = _tiles_picked(st, r)
    if st.stage not in (HUNT, ACTION) and any(t != NO_TILE for t in arts.held):
        r["held"].fail("is all null after the action phase: every tile went back to the glade")
    st.loki = read_loki(st, r)


def read_loki(st: ValeState, r: Reader) -> int:
    """`loki`: per seat the family its Loki counts as this turn, or null (st.loki's bits)."""
    loki = 0
    for s, x in enumerate(r["loki"].items(st.players)):
        if x.value is not None:
            loki |= (FAMILIES.index(x.text(FAMILIES)) + 1) << s * 4
    return loki


def _rung(st: ValeState, r: Reader) -> int:
    mask = cards_mask(r["rung"])
    if mask and st.stage == HUNT:
        r["rung"].fail("must be empty in the hunting phase: Ring of Wishes is used in action")
    return mask


def _tiles_picked(st: ValeState, r: Reader) -> int:
    n = st.players
    hunt = r.get("hunt")
    if st.stage != HUNT or hunt is None:
        return n
    made = hunt["tiles_picked"].number(0, n)
    if made < n and (st._pick_i or any(st.claims)):
        hunt["tiles_picked"].fail("is below the players: no card is claimed before that")
    return made  # a seat yet to pick may hold a tile: a setup may give one (key "artifacts")
