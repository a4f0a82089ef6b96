"""The Vale of Eternity: Artifacts, the expansion's round (docs/vale.md, "Artifacts (expansion)").

With `expansions: ["artifacts"]` a game has a glade of artifact tiles (`Arts.glade`, chosen at
setup by `choose_glade`), and each round, once the hunting display is revealed and before the
first creature claim, every player picks one tile, from the first player clockwise, never the
tile that blocks them (the one they picked last round; option `artifact_block`). An instant tile
resolves as it is picked; an action tile is used once in its holder's action turn (`use
<tile>`), then given back; a permanent tile works while held. Every tile still held goes back
to the glade when the action phase ends.

The expansion's zones live here too: each player's shelter (cards kept outside hand and area,
seen by their owner only, their number public) and the extra areas bought with tiles (the area
limit is the round number plus the areas bought). The tiles' own effects are in tiles.py.

A base game has no `Arts` (`ValeBoard.arts is None`): the hot path pays one test where a tile
could matter (the hunt's legal moves, the action phase's, a sale, the end of the action phase).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from eterna.core.errors import BadSetup
from eterna.core.frozen import Frozen
from eterna.core.jsonvalue import JsonObject, JsonValue
from eterna.core.options import OptionValue, option_flag, option_number, option_words
from eterna.core.rng import deal_at
from eterna.games.vale.cards import (
    A_PICK,
    A_USE,
    CARD_NAME,
    COLOURS,
    END_SCORE,
    EXPANSIONS,
    PAYMENTS,
    PICK,
    RETRIEVE,
    SHELTER,
    TILE_GROUP,
    TILE_NAME,
    TILE_TIMING,
    TILES,
    UPGRADE,
    USE,
    ValeAction,
    card_id,
    tile_id,
)

if TYPE_CHECKING:
    from eterna.games.vale.board import ValeBoard

ARTIFACTS_END_SCORE: Final = 80  # digest §6: 80 points end the game with the Artifacts
# option artifact_set: the 28 creatures alone, no tiles and no shelter (digest §6, Q-A9)
CREATURES_ONLY: Final = "creatures"
# digest Q-A1 (unverified): the groups a player count brings in; "advanced" adds 3 drawn tiles
GROUPS: Final = {
    2: ("2-players",),
    3: ("2-players", "3-players"),
    4: ("2-players", "3-players", "4-players"),
}
RANDOM_GROUP: Final = "random"
ADVANCED_DRAWN: Final = 3
SETUP_KEYS: Final = ("glade", "artifacts", "blocked", "shelters", "bought_areas")
NO_TILE: Final = -1
GEM: Final = tile_id("gem-of-kukulkan")


def tile_src(tile: int) -> int:
    """The `src` of a tile's effect on the work stack: a card is >= 0, the stone limit -1."""
    return -2 - tile


def src_tile(src: int) -> int:
    return -2 - src


@dataclass(frozen=True, slots=True)
class Sheltering(Frozen):
    """Philosopher's Stone's progress (tiles.py): which of its two uses are spent. Here, not
    in tiles.py: a dataclass is made as its module is imported, and tiles.py is imported only
    when a tile is first used, in a game's first moves."""

    retrieved: bool  # a sheltered card was retrieved
    discarded: bool  # a sheltered card was discarded for a purple stone


NOTHING_SHELTERED: Final = Sheltering(False, False)


def artifacts_in_play(options: Mapping[str, OptionValue]) -> bool:
    """Whether the game plays with the Artifacts (option `expansions`, checked here)."""
    chosen = option_words(options, "expansions")
    for name in chosen:
        if name not in EXPANSIONS:
            raise BadSetup(
                f"option 'expansions' lists {name!r}; the expansions are: {', '.join(EXPANSIONS)}"
            )
    return "artifacts" in chosen


def tiles_in_play(options: Mapping[str, OptionValue]) -> bool:
    """Whether the game has artifact tiles (a glade, the artifact round, shelters, areas
    bought): the Artifacts with any `artifact_set` but 'creatures'."""
    return artifacts_in_play(options) and options["artifact_set"] != CREATURES_ONLY


def end_score(options: Mapping[str, OptionValue]) -> int:
    """The score that ends the game after its round, decided here only (new games and
    positions alike): option `end_threshold` when given, else 80 with artifact tiles in play
    (digest §6) and the base game's 60 without them, the Artifacts' creatures alone included
    (digest Q-A9: the sources tie 80 to the expansion's tiles; docs/vale.md)."""
    given = option_number(options, "end_threshold")
    return given or (ARTIFACTS_END_SCORE if tiles_in_play(options) else END_SCORE)


def choose_glade(
    players: int, artifact_set: str, stream: int, fixed: tuple[int, ...] | None, version: int
) -> tuple[tuple[int, ...], int]:
    """The tiles in play (sorted) and the generator's state after drawing them: the groups of
    the player count, and for 'advanced' 3 of the random six drawn by the game's generator
    (records of version 1 draw them without moving their reshuffle generator)."""
    if fixed is not None:
        return tuple(sorted(fixed)), stream
    glade = [t for t, group in enumerate(TILE_GROUP) if group in GROUPS[players]]
    if artifact_set == "advanced":
        pool = [t for t, group in enumerate(TILE_GROUP) if group == RANDOM_GROUP]
        after = deal_at(stream, pool)
        if version != 1:
            stream = after
        glade += pool[:ADVANCED_DRAWN]
    return tuple(sorted(glade)), stream


@dataclass(frozen=True, slots=True)
class ArtSetup(Frozen):
    """A setup's artifact keys (docs/vale.md "Setup"), per seat."""

    held: tuple[int, ...]  # the tile each seat holds (NO_TILE: none), e.g. to start acting
    blocked: tuple[int, ...]  # the tile each seat may not pick this round
    shelters: tuple[tuple[int, ...], ...]
    bought: tuple[int, ...]


def parse_artifact_setup(
    setup: Mapping[str, JsonValue], players: int
) -> tuple[tuple[int, ...] | None, ArtSetup | None]:
    """The glade and the ArtSetup a setup gives (None, None when it gives no artifact key)."""
    if not any(setup.get(k) is not None for k in SETUP_KEYS):
        return None, None
    glade = None
    if setup.get("glade") is not None:
        glade = tuple(_tiles(setup["glade"], "glade"))
        if len(set(glade)) != len(glade):
            raise BadSetup("setup glade names a tile twice")
        if not glade:
            raise BadSetup(
                "setup glade is empty: a game with artifact tiles has tiles to pick (for the "
                "Artifacts' creatures without tiles, choose artifact_set 'creatures')"
            )
    none = (NO_TILE,) * players
    held = _seat_tiles(setup.get("artifacts"), players, "artifacts") or none
    blocked = _seat_tiles(setup.get("blocked"), players, "blocked") or none
    shelters: tuple[tuple[int, ...], ...] = ((),) * players
    if setup.get("shelters") is not None:
        rows = _rows(setup["shelters"], players, "shelters")
        shelters = tuple(tuple(sorted(_cards(r, f"shelters[{s}]"))) for s, r in enumerate(rows))
    bought = (0,) * players
    if setup.get("bought_areas") is not None:
        rows = _rows(setup["bought_areas"], players, "bought_areas")
        areas = [b for b in rows if isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 10]
        if len(areas) != len(rows):
            raise BadSetup("setup bought_areas holds one integer from 0 to 10 per seat")
        bought = tuple(areas)
    taken = [t for t in held if t != NO_TILE]
    if len(set(taken)) != len(taken):
        raise BadSetup("setup artifacts: two seats hold the same tile")
    if any(t != NO_TILE and t == b for t, b in zip(held, blocked, strict=True)):
        raise BadSetup("setup artifacts: a seat holds the tile that blocks it (digest Q-A4)")
    if glade is not None and any(t not in glade for t in taken + list(blocked) if t != NO_TILE):
        raise BadSetup("setup artifacts and blocked name only tiles of the glade")
    return glade, ArtSetup(held, blocked, shelters, bought)


def _rows(value: JsonValue, players: int, where: str) -> list[JsonValue]:
    if not isinstance(value, list) or len(value) != players:
        raise BadSetup(f"setup {where} must hold one entry per seat ({players})")
    return value


def _tiles(value: JsonValue, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise BadSetup(f"setup {where} must be a list of tile ids like 'book-of-thoth'")
    try:
        return [tile_id(t) for t in value if isinstance(t, str)]  # every one (checked above)
    except Exception as exc:  # BadNotation
        raise BadSetup(f"setup {where}: {exc}") from None


def _seat_tiles(value: JsonValue, players: int, where: str) -> tuple[int, ...] | None:
    if value is None:
        return None
    rows = _rows(value, players, where)
    if not all(t is None or isinstance(t, str) for t in rows):
        raise BadSetup(f"setup {where}: one tile id (or null) per seat")
    return tuple(NO_TILE if t is None else _tiles([t], where)[0] for t in rows)


def _cards(value: JsonValue, where: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise BadSetup(f"setup {where} must be a list of card ids like 'kappa'")
    try:
        return [card_id(c) for c in value if isinstance(c, str)]  # every one (checked above)
    except Exception as exc:  # BadNotation
        raise BadSetup(f"setup {where}: {exc}") from None


class Arts:
    """The artifact round of one game: the glade, who holds and who may not pick which tile,
    the shelters, the areas bought. Copied with its state (`copy`)."""

    __slots__ = (
        "blocked",
        "bought",
        "chosen",
        "glade",
        "held",
        "pick_i",
        "rules",
        "rung",
        "shelters",
    )

    glade: tuple[int, ...]  # the tiles in play, sorted
    held: list[int]  # per seat: the tile held now (NO_TILE: none)
    chosen: list[int]  # per seat: the tile picked this round, given back or not
    blocked: list[int]  # per seat: the tile they may not pick this round (digest Q-A4)
    shelters: list[list[int]]  # per seat, sorted
    bought: list[int]  # per seat: extra areas bought (the area limit is round + bought)
    rung: int  # bit mask: cards whose active effect Ring of Wishes used this round
    pick_i: int  # tiles picked this round (players: all picked)
    rules: tuple[int, bool, bool, bool]  # bought_area_limit, block held, thoth same, ring spent

    def copy(self) -> Arts:
        new = Arts.__new__(Arts)
        new.glade = self.glade
        new.held = self.held.copy()
        new.chosen = self.chosen.copy()
        new.blocked = self.blocked.copy()
        new.shelters = [s.copy() for s in self.shelters]
        new.bought = self.bought.copy()
        new.rung = self.rung
        new.pick_i = self.pick_i
        new.rules = self.rules
        return new

    @classmethod
    def new(
        cls, glade: tuple[int, ...], given: ArtSetup | None, opts: Mapping[str, OptionValue], n: int
    ) -> Arts:
        new = Arts.__new__(Arts)
        new.glade = glade
        new.held = list(given.held) if given else [NO_TILE] * n
        new.chosen = new.held.copy()
        new.blocked = list(given.blocked) if given else [NO_TILE] * n
        new.shelters = [list(s) for s in given.shelters] if given else [[] for _ in range(n)]
        new.bought = list(given.bought) if given else [0] * n
        new.rung = 0
        new.pick_i = 0
        new.rules = (
            option_number(opts, "bought_area_limit"),
            opts["artifact_block"] == "held",
            option_flag(opts, "thoth_same_stone"),
            opts["ring_of_wishes"] == "spent",
        )
        return new

    @property
    def area_limit_bought(self) -> int:
        return self.rules[0]


def clone_arts(arts: Arts | None) -> Arts | None:
    """ValeBoard's clone plan for `arts` (None in a base game)."""
    return None if arts is None else arts.copy()


# ---------------------------------------------------------------------------- the round
def new_round(arts: Arts) -> None:
    """A new hunting phase: nobody has picked yet."""
    arts.pick_i = 0
    arts.rung = 0
    n = len(arts.held)
    arts.chosen = [NO_TILE] * n


def picker(st: ValeBoard) -> int:
    """The seat whose pick it is (digest Q-A2: from the first player, clockwise)."""
    assert st.arts is not None
    return (st.first + st.arts.pick_i) % st.players


def pick_moves(st: ValeBoard, seat: int) -> tuple[ValeAction, ...]:
    """The tiles `seat` may pick: in the glade, not picked this round, not blocked for them."""
    arts = st.arts
    assert arts is not None
    taken = arts.chosen
    mine = arts.blocked[seat]
    return tuple(A_PICK[t] for t in arts.glade if t != mine and t not in taken)


def do_pick(st: ValeBoard, seat: int, tile: int) -> None:
    from eterna.games.vale.tiles import TILE_EFFECT

    arts = st.arts
    assert arts is not None
    arts.chosen[seat] = arts.held[seat] = tile
    arts.pick_i += 1
    if st._events is not None:
        st.tell("artifact_picked", seat=seat, artifact=TILE_NAME[tile])
    if TILE_TIMING[tile] == "instant":
        st.push(TILE_EFFECT[tile], seat, tile_src(tile))


def action_moves(st: ValeBoard, seat: int) -> list[ValeAction]:
    """`use <tile>` when `seat` holds an action tile it can use now (digest Q-A10)."""
    from eterna.games.vale.tiles import TILE_USABLE

    assert st.arts is not None
    tile = st.arts.held[seat]
    if tile < 0 or TILE_TIMING[tile] != "action" or not TILE_USABLE[tile](st, seat):
        return []
    return [A_USE[tile]]


def do_use(st: ValeBoard, seat: int, tile: int) -> None:
    """An action tile: given back at once, then its effect (digest §4.3)."""
    from eterna.games.vale.tiles import TILE_EFFECT

    arts = st.arts
    assert arts is not None
    arts.held[seat] = NO_TILE
    if st._events is not None:
        st.tell("artifact_used", seat=seat, artifact=TILE_NAME[tile])
    st.push(TILE_EFFECT[tile], seat, tile_src(tile))


def after_sale(st: ValeBoard, seat: int, card: int) -> None:
    """Gem of Kukulkan: its holder may buy back the card just sold (tiles.py KeepSold)."""
    from eterna.games.vale.tiles import KEEP_SOLD

    assert st.arts is not None
    if st.arts.held[seat] == GEM:
        st.queue(KEEP_SOLD, seat, tile_src(GEM), card)


def end_action_phase(st: ValeBoard) -> None:
    """Every tile still held goes back to the glade; each seat's block for next round is the
    tile it picked (or, option artifact_block 'held', the one it gave back now). With
    ring_of_wishes 'spent' the cards the Ring used count as resolved."""
    arts = st.arts
    assert arts is not None
    by_held = arts.rules[1]
    for seat, tile in enumerate(arts.held):
        arts.blocked[seat] = tile if by_held else arts.chosen[seat]
        if tile >= 0:
            arts.held[seat] = NO_TILE
            if st._events is not None:
                st.tell("artifact_returned", seat=seat, artifact=TILE_NAME[tile])
    if arts.rules[3]:
        st.activated |= arts.rung


def area_limit(st: ValeBoard, seat: int) -> int:
    """The round number plus the areas `seat` bought."""
    arts = st.arts
    return st.round if arts is None else st.round + arts.bought[seat]


# ---------------------------------------------------------------------------- the shelter
def shelter(st: ValeBoard, seat: int, card: int, public: bool, origin: str) -> None:
    """`card` (already out of its zone) into `seat`'s shelter; `public` when every seat saw it
    (taken from the display), else only its owner knows it (the deck's top, a drawn card)."""
    assert st.arts is not None
    insort(st.arts.shelters[seat], card)
    if public:
        st.secret &= ~(1 << card)
    else:
        st.secret |= 1 << card
    if st._events is not None:
        name = CARD_NAME[card]
        source = st.source()
        if public:
            st.tell("card_sheltered", seat=seat, card=name, origin=origin, source=source)
        else:
            st.tell(
                "card_sheltered", {"card": name}, (seat,), seat=seat, origin=origin, source=source
            )


def shelter_from_deck(st: ValeBoard, seat: int, count: int) -> None:
    """The top `count` cards of the deck into the shelter (reshuffling as a draw does)."""
    for _ in range(count):
        if not st.draw_pile:
            st._reshuffle()
            if not st.draw_pile:
                return
        card = st.draw_pile.pop()
        public = card == st.known_top
        if public:
            st.known_top = -1
        shelter(st, seat, card, public, "deck")


def shelter_from_hand(st: ValeBoard, seat: int, card: int) -> None:
    """A hand card into the shelter: public, since its move (`shelter <card>`) names it."""
    st.hands[seat].remove(card)
    shelter(st, seat, card, True, "hand")


def retrieve(st: ValeBoard, seat: int, card: int, named: bool) -> None:
    """A sheltered card back to its owner's hand: public when its move named it (`retrieve
    <card>`), else known to whoever knew it (Pied Piper's Pipe retrieves the whole shelter)."""
    assert st.arts is not None
    st.arts.shelters[seat].remove(card)
    public = named or not st.secret >> card & 1
    st.to_hand(seat, card, public)
    if st._events is not None:
        name = CARD_NAME[card]
        if public:
            st.tell("card_retrieved", seat=seat, card=name, source=st.source())
        else:
            st.tell("card_retrieved", {"card": name}, (seat,), seat=seat, source=st.source())


def discard_from_shelter(st: ValeBoard, seat: int, card: int) -> None:
    assert st.arts is not None
    st.arts.shelters[seat].remove(card)
    st.secret &= ~(1 << card)
    st.discard.append(card)
    if st._events is not None:
        st.tell(
            "card_discarded", seat=seat, card=CARD_NAME[card], zone="shelter", source=st.source()
        )


def unseen_in_shelter(
    st: ValeBoard, seat: int, pool: list[int], slots: list[tuple[int, int]]
) -> None:
    """Determinizing: the cards of `seat`'s shelter only its owner knows, as slots (seat, -2)."""
    assert st.arts is not None
    secret = st.secret
    for c in st.arts.shelters[seat]:
        if secret >> c & 1:
            pool.append(c)
            slots.append((seat, -2))


def seen_shelters(arts: Arts, seat: int, secret: int) -> list[list[int]]:
    """Each shelter as `seat` may know it: its own whole, the others' public cards."""
    return [[c for c in h if s == seat or not secret >> c & 1] for s, h in enumerate(arts.shelters)]


# ---------------------------------------------------------------------------- areas, stones
def can_buy_area(st: ValeBoard, seat: int) -> bool:
    assert st.arts is not None
    return st.arts.bought[seat] < st.arts.area_limit_bought


def buy_area(st: ValeBoard, seat: int, pay: int) -> None:
    """One more area for the rest of the game, paid with PAYMENTS[pay] (nothing: free)."""
    assert st.arts is not None
    red, blue, purple = PAYMENTS[pay]
    st.lose_stones(seat, red, blue, purple, None)  # told with the purchase
    st.arts.bought[seat] += 1
    if st._events is not None:
        paid = {"red": red, "blue": blue, "purple": purple}
        st.tell(
            "area_bought",
            seat=seat,
            paid=paid,
            limit=area_limit(st, seat),
            source=st.source(),
        )


def upgrade(st: ValeBoard, seat: int, colour: int) -> None:
    """One stone of `colour` becomes the next colour up (red to blue, blue to purple)."""
    counts = st.stone_counts
    b = seat * 3 + colour
    counts[b] -= 1
    counts[b + 1] += 1
    st._dirty = True
    if st._events is not None:
        st.tell(
            "stone_upgraded",
            seat=seat,
            stone=COLOURS[colour],
            into=COLOURS[colour + 1],
            source=st.source(),
        )


# ---------------------------------------------------------------------------- words
def artifact_action_words(act: ValeAction) -> tuple[str, JsonObject]:
    """`vale.action.<verb>` and its parameters for the expansion's moves."""
    from eterna.games.vale.cards import BUY_AREA

    kind = act.kind
    if kind in (PICK, USE):
        verb = "pick" if kind == PICK else "use"
        return f"vale.action.{verb}", {"card": TILE_NAME[act.arg]}
    if kind in (SHELTER, RETRIEVE):
        verb = "shelter" if kind == SHELTER else "retrieve"
        return f"vale.action.{verb}", {"card": CARD_NAME[act.card]}
    if kind == UPGRADE:
        return "vale.action.upgrade", {"stone": COLOURS[act.arg]}
    assert kind == BUY_AREA
    pay = PAYMENTS[act.pay]
    if not any(pay):
        return "vale.action.buy_area_free", {}
    return "vale.action.buy_area", {"payment": dict(zip(COLOURS, pay, strict=True))}


def tile_titles() -> dict[str, str]:
    """Tile id -> its English name (docs, tools)."""
    return {t["id"]: t["name"] for t in TILES}
