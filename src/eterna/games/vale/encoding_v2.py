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
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from librt.vecs import vec
from mypy_extensions import i32

from eterna.core.encoding import ONE, cap, f32
from eterna.core.layout import Block, Layout, cap_of, fields
from eterna.games.vale import cards
from eterna.games.vale.board import HUNT
from eterna.games.vale.encoding import MAXP, ValeEncoding, base_layout
from eterna.games.vale.state import ValeState
from eterna.games.vale.views import ValeView, as_vale_view

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
CAP_SHELTER: Final = cap_of(LAYOUT_V2, "shelter_sizes")
CAP_BOUGHT: Final = cap_of(LAYOUT_V2, "bought_areas")


class ValeEncodingV2(ValeEncoding):
    """Version 2 (see the module docstring): version 1's writers at 98 cards, plus the
    Artifacts' fields."""

    version: ClassVar[int] = ENCODING_VERSION
    actions: ClassVar[tuple[Any, ...]] = cards.ACTIONS
    cards_n: ClassVar[int] = C
    pending_kinds: ClassVar[tuple[str, ...]] = PENDING_KINDS_V2
    layout: ClassVar[Layout] = LAYOUT_V2
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = fields(LAYOUT_V2)

    # every game is encoded: nothing to refuse
    def _base_game(self, state: Any) -> None:
        return None

    def _base_view(self, view: ValeView) -> None:
        return None

    def _base_state(self, st: ValeState) -> None:
        return None

    # ------------------------------------------------------------------ from a view
    def write(self, view: Any, m: Any) -> None:
        super().write(view, m)
        v = as_vale_view(view)
        arts = v.get("artifacts")
        if arts is None:
            return
        o = self._o
        seat = v["seat"] or 0
        n = v["players"]
        tile = cards.TILE_BY_NAME
        card = self._card
        m[o["artifacts"]] = 1.0
        pending = v["pending"]
        if pending is not None and "artifact" in pending:
            m[o["pending_artifact"] + tile[pending["artifact"]]] = 1.0
        for name in arts["glade"]:
            m[o["glade"] + tile[name]] = 1.0
        for key in ("held", "picked", "blocked"):
            b = o[key]
            for s, held in enumerate(arts[key]):
                if held is not None:
                    m[b + ((s - seat) % n) * T + tile[held]] = 1.0
        if arts["picking"] is not None:
            m[o["picking"] + (arts["picking"] - seat) % n] = 1.0
        b = o["shelter"]
        for name in arts["shelter"] or ():
            m[b + card[name]] = 1.0
        b = o["known_shelters"]
        for s, names in enumerate(arts["known_shelters"]):
            base = b + ((s - seat) % n) * C
            for name in names:
                m[base + card[name]] = 1.0
        for s in range(n):
            r = (s - seat) % n
            m[o["shelter_sizes"] + r] = cap(arts["shelter_sizes"][s], CAP_SHELTER)
            m[o["bought_areas"] + r] = cap(arts["bought_areas"][s], CAP_BOUGHT)

    # ------------------------------------------------------------------ fast path
    def write_state(self, st: ValeState, seat: int, m: vec[i32]) -> None:
        """`write(st.view(seat), m)` from the engine's attributes; of the shelters it reads
        `seat`'s own, every shelter's size and the sheltered cards that are not secret (the
        view's `known_shelters`) -- exactly what the view shows."""
        super().write_state(st, seat, m)
        arts = st.arts
        if arts is None:
            return
        o = self._o
        n = st.players
        m[o["artifacts"]] = ONE
        choice = st.choice
        if choice is not None and choice.src < -1:
            m[o["pending_artifact"] - 2 - choice.src] = ONE
        for t in arts.glade:
            m[o["glade"] + t] = ONE
        per_seat = (
            (o["held"], arts.held),
            (o["picked"], arts.chosen),
            (o["blocked"], arts.blocked),
        )
        for b, tiles in per_seat:
            for s in range(n):
                if tiles[s] >= 0:
                    m[b + ((s - seat) % n) * T + tiles[s]] = ONE
        if st.stage == HUNT and arts.pick_i < n and choice is None:
            picking = st.current_player
            if picking is not None:
                m[o["picking"] + (picking - seat) % n] = ONE
        self._write_state_shelters(st, seat, n, m)

    def _write_state_shelters(self, st: ValeState, seat: int, n: int, m: vec[i32]) -> None:
        arts = st.arts
        assert arts is not None
        o = self._o
        secret = st.secret
        b = o["shelter"]
        for c in arts.shelters[seat]:
            m[b + c] = ONE
        b = o["known_shelters"]
        for s in range(n):
            r = (s - seat) % n
            base = b + r * C
            shelter = arts.shelters[s]
            for c in shelter:
                if s == seat or not secret >> c & 1:
                    m[base + c] = ONE
            m[o["shelter_sizes"] + r] = f32(cap(len(shelter), CAP_SHELTER))
            m[o["bought_areas"] + r] = f32(cap(arts.bought[s], CAP_BOUGHT))
