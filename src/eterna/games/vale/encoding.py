"""The Vale of Eternity's encoding, version 1: 12 336 action ids, a float observation from the view.

Version 1 encodes base games only (option `expansions` empty): its actions are the base block of
`eterna.games.vale.cards.ACTIONS` (`BASE_ACTIONS`), its card slots the 70 base cards. Version 2
(encoding_v2.py, on this class) encodes every game, base or with the Artifacts;
`ValeEncoding.select(options, version)` picks one: version 2 when the options list expansions,
version 1 otherwise (so models trained on base games keep their encoding), unless asked.

Action id = the interned index of `eterna.games.vale.cards.ACTIONS`, which enumerates every
parameterised action at import: `summon <card> pay <stones>` for every card and every payment of
at most 6 stones (84 payments), `remove <card> pay <stones>` likewise (83, a removal costs at
least 1), `target seat-0..3`, the `choose` options, and one action per card for the other verbs.
docs/encodings.md has the observation layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

import numpy as np
from librt.vecs import vec
from mypy_extensions import i32

from eterna.core.encoding import ONE as _ONE
from eterna.core.encoding import Encoding, cap
from eterna.core.encoding import put_count as _put
from eterna.core.errors import EternaError
from eterna.core.game import GameState, View
from eterna.core.layout import Block, Layout, Slot, block, cap_of, fields, slot, table
from eterna.games.vale import board as engine
from eterna.games.vale import cards
from eterna.games.vale.state import ValeState
from eterna.games.vale.views import ValeView, as_vale_view

ENCODING_VERSION: Final = 1
ARTIFACTS_NOT_ENCODED: Final = (
    "the Vale's encoding version 1 covers the base game only: a game with the Artifacts "
    "expansion (option expansions) has no encoding yet"
)

C: Final = cards.BASE_DECK_SIZE  # 70: version 1 encodes base games (no expansion card)
MAXP: Final = cards.MAX_SEATS  # 4
PHASES: Final = ("hunting", "action", "resolution", "over")
COLOURS: Final = cards.COLOURS  # red, blue, purple
FAMILIES: Final = cards.FAMILIES  # fire, water, earth, wind, dragon
# The `pending.kind` values of the view (the asking step's stable `kind`), frozen for version 1
# in the order of the step class names they replaced (tests/games/vale/test_pending_kinds.py);
# `recover` is a slot no step asks for, kept so the layout does not move; anything else falls
# into the last slot, "other".
PENDING_KINDS: Final = (
    "stone_limit",
    "recover",
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
    "other",
)


def base_layout(c: int, kinds: tuple[str, ...], cap_area: float) -> Layout:
    """The layout of version 1 for `c` card slots, the pending `kinds` and the area size's cap
    (version 2 widens it and adds the Artifacts' blocks after it)."""
    seats = Block(
        "seats",
        (MAXP, 19),
        "per relative seat",
        slots=(
            Slot("present", "present"),
            Slot("first_player", "first player"),
            Slot("turn", "turn"),
            Slot("current", "current"),
            Slot("hand_size", "hand size", 10.0),
            Slot("score", "score", 100.0),
            Slot("area_size", "area size", cap_area),
            *(Slot(f"stones_{colour}", f"{colour} stones", 6.0) for colour in COLOURS),
            *(Slot(f"value_{colour}", f"{colour} stone value", 10.0) for colour in COLOURS),
            Slot("stone_limit", "stone limit", 6.0),
            *(Slot(f"cut_{family}", f"{family} cost cut", 3.0) for family in FAMILIES),
        ),
    )
    clock = (Slot("round", "round", float(cards.ROUNDS)), Slot("end_score", "end score", 100.0))
    return (
        Block("hand", (c,), "own hand"),
        Block("revealed", (c,), "unclaimed revealed cards"),
        Block("claimed", (MAXP, c), "claims this round, per relative seat"),
        Block("known_hands", (MAXP, c), "cards known to be in each relative seat's hand"),
        Block("areas", (MAXP, c), "each relative seat's area"),
        Block("discard", (c,), "discard pile"),
        Block("resolved", (c,), "resolved this resolution phase"),
        Block("deck_top", (c,), "a card known to be on top of the deck"),
        Block("phase", (len(PHASES),), "the phase, one-hot: " + ", ".join(PHASES)),
        Block(
            "clock",
            (3,),
            "the clock",
            slots=(*clock, Slot("deck_count", "deck count", float(c))),
        ),
        seats,
        Block("pending", (1,), "a pending choice exists"),
        Block("pending_chooser", (MAXP,), "the relative seat choosing"),
        Block("pending_for", (MAXP,), "the relative seat the choice is for"),
        Block("pending_card", (c,), "the card whose effect asks"),
        Block(
            "pending_kind",
            (len(kinds),),
            "the view's `pending.kind`, one-hot: " + ", ".join(f"`{k}`" for k in kinds),
        ),
        Block("terminal", (1,), "game over"),
        Block("winners", (MAXP,), "winners, per relative seat"),
    )


#: version 1's observation, declared once: writers, tables and docs/encodings.md follow from it
LAYOUT: Final[Layout] = base_layout(C, PENDING_KINDS, float(cards.ROUNDS))
SEAT_FEATURES: Final = tuple(s.name for s in block(LAYOUT, "seats").slots)
# where each named value sits in its row (the same in both versions)
_FIRST: Final = slot(LAYOUT, "seats", "first_player")
_TURN: Final = slot(LAYOUT, "seats", "turn")
_CURRENT: Final = slot(LAYOUT, "seats", "current")
_HAND_N: Final = slot(LAYOUT, "seats", "hand_size")
_SCORE_N: Final = slot(LAYOUT, "seats", "score")
_AREA_N: Final = slot(LAYOUT, "seats", "area_size")
_STONES_AT: Final = slot(LAYOUT, "seats", "stones_red")  # then blue, purple
_VALUES_AT: Final = slot(LAYOUT, "seats", "value_red")
_LIMIT_AT: Final = slot(LAYOUT, "seats", "stone_limit")
_CUTS_AT: Final = slot(LAYOUT, "seats", "cut_fire")  # then water, earth, wind, dragon
_ROUND_AT: Final = slot(LAYOUT, "clock", "round")
_END_AT: Final = slot(LAYOUT, "clock", "end_score")
_DECK_AT: Final = slot(LAYOUT, "clock", "deck_count")
assert SEAT_FEATURES[_STONES_AT : _STONES_AT + 3] == tuple(f"stones_{c}" for c in COLOURS)
assert SEAT_FEATURES[_VALUES_AT : _VALUES_AT + 3] == tuple(f"value_{c}" for c in COLOURS)
assert SEAT_FEATURES[_CUTS_AT : _CUTS_AT + 5] == tuple(f"cut_{f}" for f in FAMILIES)
# caps dividing each count (values are clipped to [0, 1]), from the layout
CAP_HAND: Final = cap_of(LAYOUT, "seats", "hand_size")
CAP_SCORE: Final = cap_of(LAYOUT, "seats", "score")
CAP_STONES: Final = cap_of(LAYOUT, "seats", "stones_red")
CAP_VALUE: Final = cap_of(LAYOUT, "seats", "value_red")
CAP_LIMIT: Final = cap_of(LAYOUT, "seats", "stone_limit")
CAP_CUT: Final = cap_of(LAYOUT, "seats", "cut_fire")
CAP_ROUND: Final = cap_of(LAYOUT, "clock", "round")
CAP_END_SCORE: Final = cap_of(LAYOUT, "clock", "end_score")


class ValeEncoding(Encoding):
    game_id: ClassVar[str] = "vale"
    version: ClassVar[int] = ENCODING_VERSION
    max_players: ClassVar[int] = MAXP
    actions: ClassVar[tuple[Any, ...]] = cards.BASE_ACTIONS  # version 1: the base game's moves
    state_class: ClassVar[type | None] = ValeState
    cards_n: ClassVar[int] = C  # the card slots (card ids 0 .. cards_n - 1)
    pending_kinds: ClassVar[tuple[str, ...]] = PENDING_KINDS
    layout: ClassVar[Layout] = LAYOUT
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = fields(LAYOUT)

    def __init__(self, players: int | None = None) -> None:
        super().__init__(players)
        self._o = dict(self.offsets)
        self._card = cards.CARD_BY_NAME
        self._phase = {name: i for i, name in enumerate(PHASES)}
        self._kind = {name: i for i, name in enumerate(self.pending_kinds)}
        self._other = len(self.pending_kinds) - 1  # the last slot: "other"
        # fast path: the engine's phase number -> this layout's phase slot
        self._phase_slot = tuple(self._phase[name] for name in engine.PHASES)
        self._resolution = engine.PHASES.index("resolution")
        self._deck_bits = table(self.layout, "clock", "deck_count")
        self._cap_deck = cap_of(self.layout, "clock", "deck_count")
        self._cap_area = cap_of(self.layout, "seats", "area_size")
        # fast path: field offsets as attributes (a dict lookup each costs more than a write)
        o = self.offsets
        self._o_revealed = o["revealed"]
        self._o_claimed = o["claimed"]
        self._o_known = o["known_hands"]
        self._o_areas = o["areas"]
        self._o_discard = o["discard"]
        self._o_resolved = o["resolved"]
        self._o_deck_top = o["deck_top"]
        self._o_phase = o["phase"]
        self._o_clock = o["clock"]
        self._o_seats = o["seats"]
        self._o_pending = o["pending"]
        self._o_chooser = o["pending_chooser"]
        self._o_for = o["pending_for"]
        self._o_card = o["pending_card"]
        self._o_kind = o["pending_kind"]
        self._o_terminal = o["terminal"]
        self._o_winners = o["winners"]
        self._area_values: tuple[int, ...] = table(self.layout, "seats", "area_size")

    # ------------------------------------------------------------------ versions
    @classmethod
    def select(
        cls, options: Mapping[str, Any] | None = None, version: int | None = None
    ) -> type[Encoding]:
        """Version 2 (every game) when `options` list expansions or `version` is 2; version 1
        (base games, the first models' encoding) otherwise; version 1 for expansions is refused."""
        from eterna.games.vale.encoding_v2 import ValeEncodingV2

        expansions = options.get("expansions") if options else None
        if version is None:
            version = 2 if expansions else 1
        if version == 1:
            if expansions:
                raise EternaError(
                    "the Vale encoding version 1 encodes base games only, not a game with the "
                    f"expansions {expansions} (option expansions): use version 2"
                )
            return ValeEncoding
        if version == 2:
            return ValeEncodingV2
        raise EternaError(f"the vale encoding has versions 1 and 2, not {version!r}")

    # ------------------------------------------------------------------ base games only
    def _base_game(self, state: GameState) -> None:
        """Version 1 has no slot for the Artifacts creatures: an expansion game is refused."""
        start = getattr(state, "start", None)
        if start is not None and start.options.get("expansions"):
            raise EternaError(
                "the Vale encoding version 1 encodes base games only, not a game with the "
                f"expansions {start.options['expansions']} (option expansions)"
            )

    def mask(self, state: GameState, out: np.ndarray | None = None) -> np.ndarray:
        self._base_game(state)
        return super().mask(state, out)

    def _observe(
        self, state: GameState, seat: object, out: np.ndarray, memory: Any = None, start: int = 0
    ) -> None:
        # (a base game of the engine's class has no Artifacts state: the generic check, a
        # getattr and an options lookup, is for the others)
        if type(state) is not ValeState or state.arts is not None:
            self._base_game(state)
        super()._observe(state, seat, out, memory, start)

    # ------------------------------------------------------------------ from a view
    def write(self, view: View, m: Any) -> None:
        v = as_vale_view(view)
        self._base_view(v)
        seat = v["seat"] or 0
        n = v["players"]
        self._write_view_cards(v, m, seat, n)
        self._write_view_seats(v, m, seat, n)
        self._write_view_status(v, m, seat, n)

    def _base_view(self, view: ValeView) -> None:
        if "artifacts" in view:
            raise EternaError(ARTIFACTS_NOT_ENCODED)

    def _write_view_cards(self, view: ValeView, m: Any, seat: int, n: int) -> None:
        o = self._o
        C = self.cards_n
        card = self._card
        for name in view["hand"] or ():
            m[card[name]] = 1.0
        b = o["revealed"]
        for name in view["revealed"]:
            m[b + card[name]] = 1.0
        per_seat = (
            ("claimed", view["claimed"]),
            ("known_hands", view["known_hands"]),
            ("areas", view["areas"]),
        )
        for key, rows in per_seat:
            b = o[key]
            for s, names in enumerate(rows):
                base = b + ((s - seat) % n) * C
                for name in names:
                    m[base + card[name]] = 1.0
        b = o["discard"]
        for name in view["discard"]:
            m[b + card[name]] = 1.0
        b = o["resolved"]
        for name in view["resolved"]:
            m[b + card[name]] = 1.0
        top = view["deck_top"]
        if top is not None:
            m[o["deck_top"] + card[top]] = 1.0

    def _write_view_seats(self, view: ValeView, m: Any, seat: int, n: int) -> None:
        b = self._o["seats"]
        k = len(SEAT_FEATURES)
        cap_area = self._cap_area
        first = view["first_player"]
        turn = view["turn"]
        current = view["current_player"]
        hand_sizes = view["hand_sizes"]
        scores = view["scores"]
        areas = view["areas"]
        stones = view["stones"]
        values = view["stone_values"]
        limits = view["stone_limits"]
        cuts = view["cost_reductions"]
        for s in range(n):
            base = b + ((s - seat) % n) * k
            m[base] = 1.0
            if s == first:
                m[base + _FIRST] = 1.0
            if s == turn:
                m[base + _TURN] = 1.0
            if s == current:
                m[base + _CURRENT] = 1.0
            m[base + _HAND_N] = cap(hand_sizes[s], CAP_HAND)
            m[base + _SCORE_N] = cap(scores[s], CAP_SCORE)
            m[base + _AREA_N] = cap(len(areas[s]), cap_area)
            st = stones[s]
            va = values[s]
            for i, colour in enumerate(COLOURS):
                m[base + _STONES_AT + i] = cap(st[colour], CAP_STONES)
                m[base + _VALUES_AT + i] = cap(va[colour], CAP_VALUE)
            m[base + _LIMIT_AT] = cap(limits[s], CAP_LIMIT)
            cut = cuts[s]
            for i, fam in enumerate(FAMILIES):
                m[base + _CUTS_AT + i] = cap(cut[fam], CAP_CUT)

    def _write_view_status(self, view: ValeView, m: Any, seat: int, n: int) -> None:
        """The phase, the clock, the pending question and the end."""
        o = self._o
        m[o["phase"] + self._phase[view["phase"]]] = 1.0
        b = o["clock"]
        m[b + _ROUND_AT] = cap(view["round"], CAP_ROUND)
        m[b + _END_AT] = cap(view["end_score"], CAP_END_SCORE)
        m[b + _DECK_AT] = cap(view["deck_count"], self._cap_deck)
        pending = view["pending"]
        if pending is not None:
            m[o["pending"]] = 1.0
            m[o["pending_chooser"] + (pending["chooser"] - seat) % n] = 1.0
            m[o["pending_for"] + (pending["for_seat"] - seat) % n] = 1.0
            if pending["card"] is not None:
                m[o["pending_card"] + self._card[pending["card"]]] = 1.0
            m[o["pending_kind"] + self._kind.get(pending["kind"], self._other)] = 1.0
        if view["is_terminal"]:
            m[o["terminal"]] = 1.0
        b = o["winners"]
        for s in view["winners"]:
            m[b + (s - seat) % n] = 1.0

    # ------------------------------------------------------------------ fast path
    def write_state(self, st: ValeState, seat: int, m: vec[i32]) -> None:
        """`write(st.view(seat), m)` from the engine's attributes (board.py). What it reads of
        hidden state: `seat`'s own hand, every hand's size, and the cards of other hands that
        are not secret (the view's `known_hands`) -- exactly what the view shows."""
        self._base_state(st)
        n = st.players
        self._write_state_cards(st, seat, n, m)
        self._write_state_seats(st, seat, n, m)
        self._write_state_status(st, seat, n, m)

    def _base_state(self, st: ValeState) -> None:
        if st.arts is not None:
            raise EternaError(ARTIFACTS_NOT_ENCODED)

    def _write_state_cards(self, st: ValeState, seat: int, n: int, m: vec[i32]) -> None:
        C = self.cards_n
        hands = st.hands
        for c in hands[seat]:
            m[c] = _ONE
        b = self._o_revealed
        for c in st.unclaimed:
            m[b + c] = _ONE
        b_claimed = self._o_claimed
        b_known = self._o_known
        b_areas = self._o_areas
        secret = st.secret
        claimed = st.claims
        areas = st.areas
        for s in range(n):
            r = ((s - seat) % n) * C
            base = b_claimed + r
            for c in claimed[s]:
                m[base + c] = _ONE
            base = b_known + r
            if s == seat:
                for c in hands[s]:
                    m[base + c] = _ONE
            else:
                for c in hands[s]:
                    if not secret >> c & 1:
                        m[base + c] = _ONE
            base = b_areas + r
            for c in areas[s]:
                m[base + c] = _ONE
        b = self._o_discard
        for c in st.discard:
            m[b + c] = _ONE
        if st.stage == self._resolution:
            b = self._o_resolved
            activated = st.activated
            while activated:
                low = activated & -activated
                m[b + low.bit_length() - 1] = _ONE
                activated ^= low
        top = st.known_top
        if top >= 0:
            m[self._o_deck_top + top] = _ONE

    def _write_state_seats(self, st: ValeState, seat: int, n: int, m: vec[i32]) -> None:
        b = self._o_seats
        k = len(SEAT_FEATURES)
        first = st.first
        turn = -1 if st.is_terminal else st.turn
        current = st.current_player
        hands = st.hands
        scores = st.points
        areas = st.areas
        stones = st.stone_counts
        values = st.stone_values
        limits = st.stone_limits
        cuts = st.cost_cuts
        area_values = self._area_values
        for s in range(n):
            base = b + ((s - seat) % n) * k
            m[base] = _ONE
            if s == first:
                m[base + _FIRST] = _ONE
            if s == turn:
                m[base + _TURN] = _ONE
            if s == current:
                m[base + _CURRENT] = _ONE
            # cap(v, scale) from tables: 0 stays 0 (the memory is zeroed), negatives too
            _put(m, base + _HAND_N, _HAND, len(hands[s]))
            _put(m, base + _SCORE_N, _SCORE, scores[s])
            _put(m, base + _AREA_N, area_values, len(areas[s]))
            j = s * 3
            for i in range(3):
                _put(m, base + _STONES_AT + i, _STONES, stones[j + i])
                _put(m, base + _VALUES_AT + i, _VALUE, values[j + i])
            _put(m, base + _LIMIT_AT, _LIMIT, limits[s])
            j = s * 5
            for i in range(5):
                _put(m, base + _CUTS_AT + i, _CUT, cuts[j + i])

    def _write_state_status(self, st: ValeState, seat: int, n: int, m: vec[i32]) -> None:
        m[self._o_phase + self._phase_slot[st.stage]] = _ONE
        b = self._o_clock
        _put(m, b + _ROUND_AT, _ROUND, st.round)
        _put(m, b + _END_AT, _END_SCORE, st.start.end_score)
        _put(m, b + _DECK_AT, self._deck_bits, len(st.draw_pile))
        choice = st.choice
        if choice is not None:
            src = choice.src
            m[self._o_pending] = _ONE
            m[self._o_chooser + (choice.chooser - seat) % n] = _ONE
            m[self._o_for + (choice.seat - seat) % n] = _ONE
            if src >= 0:
                m[self._o_card + src] = _ONE
            m[self._o_kind + self._kind.get(choice.step.kind, self._other)] = _ONE
        if st.is_terminal:
            m[self._o_terminal] = _ONE
        b = self._o_winners
        for s in st._winners:  # (the property copies the list)
            m[b + (s - seat) % n] = _ONE


# the float32 bits of cap() of counts (`cap_table`), from the layout
_HAND: Final[tuple[int, ...]] = table(LAYOUT, "seats", "hand_size")
_SCORE: Final[tuple[int, ...]] = table(LAYOUT, "seats", "score")
_STONES: Final[tuple[int, ...]] = table(LAYOUT, "seats", "stones_red")
_VALUE: Final[tuple[int, ...]] = table(LAYOUT, "seats", "value_red")
_LIMIT: Final[tuple[int, ...]] = table(LAYOUT, "seats", "stone_limit")
_CUT: Final[tuple[int, ...]] = table(LAYOUT, "seats", "cut_fire")
_ROUND: Final[tuple[int, ...]] = table(LAYOUT, "clock", "round")
_END_SCORE: Final[tuple[int, ...]] = table(LAYOUT, "clock", "end_score")
