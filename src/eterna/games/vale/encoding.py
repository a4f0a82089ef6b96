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
from eterna.core.encoding import Encoding, cap, cap_table
from eterna.core.encoding import put_count as _put
from eterna.core.errors import EternaError
from eterna.core.game import GameState, Unchecked, View
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
SEAT_FEATURES: Final = (
    "present",
    "first_player",
    "turn",
    "current",
    "hand_size",
    "score",
    "area_size",
    "stones_red",
    "stones_blue",
    "stones_purple",
    "value_red",
    "value_blue",
    "value_purple",
    "stone_limit",
    "cut_fire",
    "cut_water",
    "cut_earth",
    "cut_wind",
    "cut_dragon",
)
CAP_HAND: Final = 10.0
CAP_SCORE: Final = 100.0
CAP_AREA: Final = float(cards.ROUNDS)
CAP_STONES: Final = 6.0
CAP_VALUE: Final = 10.0
CAP_CUT: Final = 3.0
CAP_ROUND: Final = float(cards.ROUNDS)
CAP_END_SCORE: Final = 100.0


def base_fields(c: int, kinds: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The layout of version 1 for `c` card slots and `kinds` pending kinds (version 2 widens
    it and adds the Artifacts' fields after it)."""
    return (
        ("hand", (c,)),
        ("revealed", (c,)),
        ("claimed", (MAXP, c)),
        ("known_hands", (MAXP, c)),
        ("areas", (MAXP, c)),
        ("discard", (c,)),
        ("resolved", (c,)),
        ("deck_top", (c,)),
        ("phase", (len(PHASES),)),
        ("clock", (3,)),  # round / 10, end score / 100, deck count / card slots
        ("seats", (MAXP, len(SEAT_FEATURES))),
        ("pending", (1,)),
        ("pending_chooser", (MAXP,)),
        ("pending_for", (MAXP,)),
        ("pending_card", (c,)),
        ("pending_kind", (kinds,)),
        ("terminal", (1,)),
        ("winners", (MAXP,)),
    )


class ValeEncoding(Encoding):
    game_id: ClassVar[str] = "vale"
    version: ClassVar[int] = ENCODING_VERSION
    max_players: ClassVar[int] = MAXP
    actions: ClassVar[tuple[Any, ...]] = cards.BASE_ACTIONS  # version 1: the base game's moves
    state_class: ClassVar[type | None] = ValeState
    cards_n: ClassVar[int] = C  # the card slots (card ids 0 .. cards_n - 1)
    pending_kinds: ClassVar[tuple[str, ...]] = PENDING_KINDS
    cap_area: ClassVar[float] = CAP_AREA
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = base_fields(C, len(PENDING_KINDS))

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
        self._deck_bits = cap_table(float(self.cards_n))  # the deck count's, by count
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
        self._area_values: tuple[int, ...] = cap_table(self.cap_area)

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
        self, state: GameState, seat: Unchecked, out: np.ndarray, memory: Any = None, start: int = 0
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
                m[base + 1] = 1.0
            if s == turn:
                m[base + 2] = 1.0
            if s == current:
                m[base + 3] = 1.0
            m[base + 4] = cap(hand_sizes[s], CAP_HAND)
            m[base + 5] = cap(scores[s], CAP_SCORE)
            m[base + 6] = cap(len(areas[s]), self.cap_area)
            st = stones[s]
            va = values[s]
            for i, colour in enumerate(COLOURS):
                m[base + 7 + i] = cap(st[colour], CAP_STONES)
                m[base + 10 + i] = cap(va[colour], CAP_VALUE)
            m[base + 13] = cap(limits[s], CAP_STONES)
            cut = cuts[s]
            for i, fam in enumerate(FAMILIES):
                m[base + 14 + i] = cap(cut[fam], CAP_CUT)

    def _write_view_status(self, view: ValeView, m: Any, seat: int, n: int) -> None:
        """The phase, the clock, the pending question and the end."""
        o = self._o
        m[o["phase"] + self._phase[view["phase"]]] = 1.0
        b = o["clock"]
        m[b] = cap(view["round"], CAP_ROUND)
        m[b + 1] = cap(view["end_score"], CAP_END_SCORE)
        m[b + 2] = cap(view["deck_count"], float(self.cards_n))
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
                m[base + 1] = _ONE
            if s == turn:
                m[base + 2] = _ONE
            if s == current:
                m[base + 3] = _ONE
            # cap(v, scale) from tables: 0 stays 0 (the memory is zeroed), negatives too
            _put(m, base + 4, _HAND, len(hands[s]))
            _put(m, base + 5, _SCORE, scores[s])
            _put(m, base + 6, area_values, len(areas[s]))
            j = s * 3
            for i in range(3):
                _put(m, base + 7 + i, _STONES, stones[j + i])
                _put(m, base + 10 + i, _VALUE, values[j + i])
            _put(m, base + 13, _STONES, limits[s])
            j = s * 5
            for i in range(5):
                _put(m, base + 14 + i, _CUT, cuts[j + i])

    def _write_state_status(self, st: ValeState, seat: int, n: int, m: vec[i32]) -> None:
        m[self._o_phase + self._phase_slot[st.stage]] = _ONE
        b = self._o_clock
        _put(m, b, _ROUND, st.round)
        _put(m, b + 1, _END_SCORE, st.start.end_score)
        _put(m, b + 2, self._deck_bits, len(st.draw_pile))
        choice = st.choice
        if choice is not None:
            chooser, step, who, src, _arg, _options = choice
            m[self._o_pending] = _ONE
            m[self._o_chooser + (chooser - seat) % n] = _ONE
            m[self._o_for + (who - seat) % n] = _ONE
            if src >= 0:
                m[self._o_card + src] = _ONE
            m[self._o_kind + self._kind.get(step.kind, self._other)] = _ONE
        if st.is_terminal:
            m[self._o_terminal] = _ONE
        b = self._o_winners
        for s in st._winners:  # (the property copies the list)
            m[b + (s - seat) % n] = _ONE


# the float32 bits of cap() of counts (`cap_table`)
_HAND: Final[tuple[int, ...]] = cap_table(CAP_HAND)
_SCORE: Final[tuple[int, ...]] = cap_table(CAP_SCORE)
_STONES: Final[tuple[int, ...]] = cap_table(CAP_STONES)
_VALUE: Final[tuple[int, ...]] = cap_table(CAP_VALUE)
_CUT: Final[tuple[int, ...]] = cap_table(CAP_CUT)
_ROUND: Final[tuple[int, ...]] = cap_table(CAP_ROUND)
_END_SCORE: Final[tuple[int, ...]] = cap_table(CAP_END_SCORE)
