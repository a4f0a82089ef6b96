"""The Vale of Eternity's encoding, version 2: every game, base or with the Artifacts.

Its actions are the whole table `eterna.games.vale.cards.ACTIONS` (version 1's 12 336 ids
first, unmoved, then the Artifacts creatures' card actions, the new `choose` options, `swap`,
`put-on-deck`, and the tiles' `pick`, `use`, `shelter`, `retrieve`, `upgrade`, `buy-area`); its
card slots the 98 cards of every set (card id order of `cards.CARD_NAME`). The observation has
version 1's fields at 98 cards, a `pending_kind` slot for every question a step may ask, and
the Artifacts' part of the view (docs/vale.md "The view"): the glade, the tiles held, picked
and blocked per seat, the seat picking, the own shelter, the sheltered cards each seat may
know, the shelters' sizes and the areas bought. A base game leaves the Artifacts' fields zero.
docs/encodings.md has the layout.

Written once, as version 1 is (its description in observation.py, its writer in encoding.py):
`Seen` here extends version 1's with the Artifacts' facts, `seen_in_view` and `seen_in_state`
extend version 1's, and `_write` writes version 1's blocks (`super()`) and the Artifacts';
`write_state` is generated from it by `make observers`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Final

from librt.vecs import vec
from mypy_extensions import i32

from eterna.core.encoding import ONE
from eterna.core.encoding import put_count as _put
from eterna.core.game import GameState
from eterna.core.layout import Block, Layout, fields, table
from eterna.games.vale import cards
from eterna.games.vale.artifacts import Arts
from eterna.games.vale.board import HUNT
from eterna.games.vale.encoding import ValeEncoding
from eterna.games.vale.observation import MAXP, base_layout
from eterna.games.vale.observation import Seen as BaseSeen
from eterna.games.vale.observation import seen_in_state as base_seen_in_state
from eterna.games.vale.observation import seen_in_view as base_seen_in_view
from eterna.games.vale.state import ValeState
from eterna.games.vale.views import ValeView

ENCODING_VERSION: Final = 2
C: Final = cards.DECK_SIZE  # 98: the base game's 70 and the Artifacts' 28 creatures
T: Final = len(cards.TILE_NAME)  # 11 artifact tiles
# One slot per question (docs/vale.md "Pending choices"): the base game's, the Artifacts
# creatures', the Artifacts tiles'; "other" stays last for a question a later engine adds.
PENDING_KINDS_V2: Final = (
    "stone_limit",
    "return_to_hand",
    "discard_from_hand",
    "take_from_discard",
    "discard_from_own_area",
    "name_a_player",
    "steal_points",
    "choose_one",
    "copy_instant",
    "copy_active",
    "activate_others",
    "discard_then_summon_free",
    "summon_free_in_place",
    "discard_up_to_from_hand",
    "put_on_deck",
    "summon_from_discard",
    "summon_free_from_hand",
    "swap_with_a_player",
    "incense_burner",
    "pied_pipers_pipe",
    "shelter_from_display",
    "golden_fleece",
    "upgrade_stones",
    "cap_of_hades",
    "keep_sold",
    "philosophers_stone",
    "ring_of_wishes",
    "other",
)
#: version 2's observation, declared once: writers, tables and docs/encodings.md follow from it
LAYOUT_V2: Final[Layout] = (
    # version 1's blocks at 98 cards; the area size's cap: the round number plus the areas bought
    *base_layout(C, PENDING_KINDS_V2, 20.0),
    # the Artifacts (all zero in a base game)
    Block("artifacts", (1,), "the game plays with the Artifacts"),
    Block("pending_artifact", (T,), "the tile whose effect asks (the view's `pending.artifact`)"),
    Block("glade", (T,), "the tiles in play"),
    Block("held", (MAXP, T), "the tile each relative seat holds now"),
    Block("picked", (MAXP, T), "the tile each relative seat picked this round"),
    Block("blocked", (MAXP, T), "the tile each relative seat may not pick"),
    Block("picking", (MAXP,), "the relative seat picking a tile now"),
    Block("shelter", (C,), "own shelter"),
    Block(
        "known_shelters",
        (MAXP, C),
        "the sheltered cards this seat may know (its own; of the others only those every seat "
        "saw go in)",
    ),
    Block("shelter_sizes", (MAXP,), "shelter size per relative seat", 10.0),
    # option bought_area_limit is at most 10
    Block("bought_areas", (MAXP,), "areas bought per relative seat", 10.0),
)
_SHELTER: Final[tuple[int, ...]] = table(LAYOUT_V2, "shelter_sizes")
_BOUGHT: Final[tuple[int, ...]] = table(LAYOUT_V2, "bought_areas")


class Seen(BaseSeen):
    """What one seat sees of a game, version 2: version 1's facts and the Artifacts'."""

    artifacts: bool  # the game plays with the Artifacts; then:
    pending_artifact: int  # the tile whose effect asks (-1: none)
    glade: tuple[int, ...]  # tiles
    held: list[int]  # per seat, a tile (-1: none)
    picked: list[int]
    blocked: list[int]
    picking: int  # the seat picking a tile now (-1: none)
    shelter: list[int]  # the own shelter's cards (empty: a spectator)
    # of seat t's shelter, the cards the writer looks at (whether this seat knows one: shown)
    shelter_cards: Callable[[int], list[int]]
    shelter_size: Callable[[int], int]  # of a seat
    bought: list[int]  # areas bought, per seat


def seen_in_view(v: ValeView, s: Seen) -> None:
    """What the view shows (the reference path)."""
    base_seen_in_view(v, s)
    tile = cards.TILE_BY_NAME
    card = cards.CARD_BY_NAME
    pending = v["pending"]
    arts = v.get("artifacts")
    if arts is None:  # a base game: no tile, no shelter
        arts = {
            "glade": [],
            "held": [],
            "picked": [],
            "blocked": [],
            "picking": None,
            "shelter": [],
            "shelter_sizes": [],
            "known_shelters": [],
            "bought_areas": [],
            "area_limits": [],
        }
    known = [[card[name] for name in names] for names in arts["known_shelters"]]
    s.artifacts = "artifacts" in v
    s.pending_artifact = (
        tile[pending["artifact"]] if pending is not None and "artifact" in pending else -1
    )
    s.glade = tuple(tile[name] for name in arts["glade"])
    s.held = [-1 if name is None else tile[name] for name in arts["held"]]
    s.picked = [-1 if name is None else tile[name] for name in arts["picked"]]
    s.blocked = [-1 if name is None else tile[name] for name in arts["blocked"]]
    s.picking = -1 if arts["picking"] is None else arts["picking"]
    s.shelter = [card[name] for name in arts["shelter"] or ()]
    s.shelter_cards = known.__getitem__
    s.shelter_size = arts["shelter_sizes"].__getitem__
    s.bought = arts["bought_areas"]


def seen_in_state(st: ValeState, seat: int, s: Seen) -> None:
    """What `st.view(seat)` shows, read from the engine's attributes: version 1's, then the
    Artifacts' (read only in a game with them). Of the shelters it reads `seat`'s own, every
    shelter's size and the sheltered cards that are not secret (the view's `known_shelters`,
    by version 1's `shown`): what the view shows."""
    base_seen_in_state(st, seat, s)
    arts = _arts(st)
    choice = st.choice
    shelters = arts.shelters
    s.artifacts = st.arts is not None
    s.pending_artifact = -2 - choice.src if choice is not None and choice.src < -1 else -1
    s.glade = arts.glade
    s.held = arts.held
    s.picked = arts.chosen
    s.blocked = arts.blocked
    s.picking = _picking(st)
    s.shelter = shelters[seat]
    s.shelter_cards = lambda t: shelters[t]
    s.shelter_size = lambda t: len(shelters[t])
    s.bought = arts.bought


def _arts(st: ValeState) -> Arts:
    """The game's Artifacts; a base game's read as none (no tile, no shelter)."""
    return _NO_ARTS if st.arts is None else st.arts


def _picking(st: ValeState) -> int:
    """The seat picking a tile now (the view's `artifacts.picking`; -1: none)."""
    arts = st.arts
    if arts is not None and st.stage == HUNT and arts.pick_i < st.players and st.choice is None:
        picking = st.current_player
        if picking is not None:
            return picking
    return -1


def _tile_a_seat(m: vec[i32], b: int, tiles: list[int], seat: int, n: int) -> None:
    """A block of one tile (or none: -1) per relative seat, from `b`."""
    for t in range(n):
        tile = tiles[t]
        if tile >= 0:
            m[b + ((t - seat) % n) * T + tile] = ONE


#: a base game's Artifacts: no tile, empty shelters
_NO_ARTS: Final = Arts.new(
    (),
    None,
    {
        "bought_area_limit": 0,
        "artifact_block": "held",
        "thoth_same_stone": False,
        "ring_of_wishes": "spent",
    },
    MAXP,
)


class ValeEncodingV2(ValeEncoding):
    """Version 2 (see the module docstring): version 1's writer at 98 cards, plus the
    Artifacts' blocks."""

    version: ClassVar[int] = ENCODING_VERSION
    actions: ClassVar[tuple[cards.ValeAction, ...]] = cards.ACTIONS
    cards_n: ClassVar[int] = C
    pending_kinds: ClassVar[tuple[str, ...]] = PENDING_KINDS_V2
    layout: ClassVar[Layout] = LAYOUT_V2
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = fields(LAYOUT_V2)

    def __init__(self, players: int | None = None) -> None:
        super().__init__(players)
        # the Artifacts' offsets as attributes, as version 1's (a dict lookup each cost more)
        o = self.offsets
        self._o_artifacts = o["artifacts"]
        self._o_pending_artifact = o["pending_artifact"]
        self._o_glade = o["glade"]
        self._o_held = o["held"]
        self._o_picked = o["picked"]
        self._o_blocked = o["blocked"]
        self._o_picking = o["picking"]
        self._o_shelter = o["shelter"]
        self._o_known_shelters = o["known_shelters"]
        self._o_shelter_sizes = o["shelter_sizes"]
        self._o_bought = o["bought_areas"]

    # every game is encoded: nothing to refuse
    def _base_game(self, state: GameState) -> None:
        return None

    def _base_view(self, view: ValeView) -> None:
        return None

    def _seen(self, view: ValeView) -> Seen:
        seen = Seen()
        seen_in_view(view, seen)
        return seen

    def _write(self, s: BaseSeen, m: vec[i32]) -> None:
        """Version 1's blocks (at 98 cards), then the Artifacts' in a game with them."""
        super()._write(s, m)
        assert isinstance(s, Seen)  # (this version's; the generated writer holds none)
        if s.artifacts:
            self._write_artifacts(s, s.seat, s.n, m)

    def _write_artifacts(self, s: Seen, seat: int, n: int, m: vec[i32]) -> None:
        """The Artifacts' blocks."""
        m[self._o_artifacts] = ONE
        tile = s.pending_artifact
        if tile >= 0:
            m[self._o_pending_artifact + tile] = ONE
        b = self._o_glade
        for t in s.glade:
            m[b + t] = ONE
        _tile_a_seat(m, self._o_held, s.held, seat, n)
        _tile_a_seat(m, self._o_picked, s.picked, seat, n)
        _tile_a_seat(m, self._o_blocked, s.blocked, seat, n)
        picking = s.picking
        if picking >= 0:
            m[self._o_picking + (picking - seat) % n] = ONE
        b = self._o_shelter
        for c in s.shelter:
            m[b + c] = ONE
        b = self._o_known_shelters
        sizes = self._o_shelter_sizes
        bought = self._o_bought
        for t in range(n):
            r = (t - seat) % n
            base = b + r * C
            for c in s.shelter_cards(t):
                if s.shown(t, c):
                    m[base + c] = ONE
            _put(m, sizes + r, _SHELTER, s.shelter_size(t))
            _put(m, bought + r, _BOUGHT, s.bought[t])

    # Generated from _write and seen_in_state by `make observers` (core/fastwriter.py):
    # do not edit; edit the writer or seen_in_state and run it again.

    def write_state(self, st: ValeState, seat: int, m: vec[i32]) -> None:
        """Generated from `_write`: what `seen_in_state` reads, written as there."""
        super().write_state(st, seat, m)
        if st.arts is not None:
            self._write_artifacts_state(st, seat, st.players, m)

    def _write_artifacts_state(self, st: ValeState, seat: int, n: int, m: vec[i32]) -> None:
        """Generated from `_write_artifacts`: what `seen_in_state` reads, written as there."""
        st_secret = st.secret
        st_choice = st.choice
        st_arts = _arts(st)
        st_shelters = st_arts.shelters
        m[self._o_artifacts] = ONE
        tile = -2 - st_choice.src if st_choice is not None and st_choice.src < -1 else -1
        if tile >= 0:
            m[self._o_pending_artifact + tile] = ONE
        b = self._o_glade
        for t in st_arts.glade:
            m[b + t] = ONE
        _tile_a_seat(m, self._o_held, st_arts.held, seat, n)
        _tile_a_seat(m, self._o_picked, st_arts.chosen, seat, n)
        _tile_a_seat(m, self._o_blocked, st_arts.blocked, seat, n)
        picking = _picking(st)
        if picking >= 0:
            m[self._o_picking + (picking - seat) % n] = ONE
        b = self._o_shelter
        for c in st_shelters[seat]:
            m[b + c] = ONE
        b = self._o_known_shelters
        sizes = self._o_shelter_sizes
        bought = self._o_bought
        for t in range(n):
            r = (t - seat) % n
            base = b + r * C
            for c in st_shelters[t]:
                if t == seat or not st_secret >> c & 1:
                    m[base + c] = ONE
            _put(m, sizes + r, _SHELTER, len(st_shelters[t]))
            _put(m, bought + r, _BOUGHT, st_arts.bought[t])

    # End of the generated observer.
