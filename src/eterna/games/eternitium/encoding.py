"""Eternitium's encoding: 505 action ids, a float observation from the view.

Action id = the interned index of `eterna.games.eternitium.cards.ACTIONS`, which enumerates every
parameterised action at import: `play temporal-blaster seat-<k>` and `play thieving-robot
seat-<k>` for k < 5, `play transporter discard <a> <b>` for every unordered pair of card kinds,
`play recycler-robot <card>`, `play laboratory <tech>`, and one action per card (or blind pick)
for the other verbs. docs/encodings.md has the observation layout.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import numpy as np
from librt.vecs import vec
from mypy_extensions import i32

from eterna.core.encoding import ONE as _ONE
from eterna.core.encoding import Encoding, cap, f32
from eterna.core.encoding import put_count as _put
from eterna.core.layout import Block, Layout, Slot, block, cap_of, fields, slot, table
from eterna.games.eternitium import cards
from eterna.games.eternitium import state as engine
from eterna.games.eternitium.board import PHASE_NAME
from eterna.games.eternitium.state import EternitiumState

ENCODING_VERSION: Final = 1

K: Final = cards.NKINDS  # 23 Action card kinds
S: Final = cards.NSHAPES  # 4 shapes
MAXP: Final = cards.MAX_SEATS  # 5
ERA_DEPTH: Final = 3  # top Era cards shown per seat (the effects reach 3 deep)
PHASES: Final = PHASE_NAME  # the engine's phase names, in its order
MISSIONS: Final = 11  # 0 (base) and 1..10
SEATS: Final = Block(
    "seats",
    (MAXP, 14),
    "per relative seat",
    slots=(
        Slot("present", "present"),
        Slot("first_player", "first player"),
        Slot("current", "current"),
        Slot("active", "active"),
        Slot("gem", "holds the gem (an empty Era pile)"),
        Slot("hand_size", "hand", 10.0),
        Slot("deck_size", "deck", 30.0),
        Slot("discard_size", "discard", 30.0),
        Slot("era_count", "Era cards", 15.0),
        Slot("hidden_era", "hidden Era cards", 15.0),
        Slot("score", "points", 30.0),
        Slot("starting_set", "starting set", float(MAXP)),
        Slot("victim", "victim"),
        Slot("gift_to_come", "gift to come"),
    ),
)
#: The observation, declared once: writers, tables and docs/encodings.md follow from it.
LAYOUT: Final[Layout] = (
    Block("hand", (K,), "copies per kind in own hand", 5.0),
    Block("discard", (K,), "own discard pile, copies", 20.0),
    Block("victim_discard", (K,), "the Thieving Robot victim's pile (thief only), copies", 20.0),
    Block("basic_row", (K,), "face-up Basic market, copies", 5.0),
    Block("advanced_row", (K,), "face-up Advanced market, copies", 5.0),
    Block("portal_row", (K,), "mission 4's Portal row, copies", 5.0),
    Block("ai_cards", (K,), "solo AI cards revealed, copies", 5.0),
    Block("in_play", (K,), "the card being played"),
    Block(
        "era_top",
        (MAXP, ERA_DEPTH, S + 1),
        "top 3 Era cards per relative seat: shape one-hot, or the last slot: hidden",
    ),
    Block("era_visible", (MAXP, S), "visible Era cards per shape in each seat's pile", 15.0),
    SEATS,
    Block("portal_reserve", (S,), "Portal reserve per shape", 10.0),
    Block("era_display", (S,), "visible common Era cards per shape", 2.0),
    Block("era_discard", (S,), "discarded Era cards per shape", 15.0),
    Block(
        "deck_sizes",
        (5,),
        "deck sizes",
        slots=(
            Slot("portal", "Portal", 8.0),
            Slot("basic", "Basic", 30.0),
            Slot("advanced", "Advanced", 30.0),
            Slot("era", "common Era", 60.0),
            Slot("ai", "AI", 9.0),
        ),
    ),
    Block("phase", (len(PHASES),), "the phase, one-hot: " + ", ".join(PHASES)),
    Block("mission", (MISSIONS,), "the Special Mission, one-hot: 0 (base game) .. 10"),
    Block(
        "clock",
        (4,),
        "the clock",
        slots=(
            Slot("round", "round", 100.0),
            Slot("turns_left", "turns left (solo)", 8.0),
            Slot("last_turn", "last turn"),
            Slot("solo", "solo"),
        ),
    ),
    Block(
        "turn_state",
        (5,),
        "this turn",
        slots=(
            Slot("played", "played"),
            Slot("skipped", "skipped"),
            Slot("failed_luck", "failed luck"),
            Slot("smartphones", "smartphones", 3.0),
            Slot("wallet", "wallet"),
        ),
    ),
    Block(
        "pending",
        (4,),
        "what is pending",
        slots=(
            Slot("discard", "Data Analyser mode discard"),
            Slot("destroy", "Data Analyser mode destroy"),
            Slot("chosen", "cards chosen", 6.0),
            Slot("era_to_take", "Era cards to take", 2.0),
        ),
    ),
    Block("terminal", (1,), "game over"),
    Block("winners", (MAXP,), "winners, per relative seat"),
)
SEAT_FEATURES: Final = tuple(s.name for s in SEATS.slots)
_K: Final = len(SEAT_FEATURES)
# where each named value sits in its block's row
_FIRST: Final = slot(LAYOUT, "seats", "first_player")
_CURRENT: Final = slot(LAYOUT, "seats", "current")
_ACTIVE: Final = slot(LAYOUT, "seats", "active")
_GEM: Final = slot(LAYOUT, "seats", "gem")
_HAND_N: Final = slot(LAYOUT, "seats", "hand_size")
_DECK_N: Final = slot(LAYOUT, "seats", "deck_size")
_DISCARD_N: Final = slot(LAYOUT, "seats", "discard_size")
_ERA_N: Final = slot(LAYOUT, "seats", "era_count")
_HIDDEN_N: Final = slot(LAYOUT, "seats", "hidden_era")
_POINTS: Final = slot(LAYOUT, "seats", "score")
_SET_N: Final = slot(LAYOUT, "seats", "starting_set")
_VICTIM: Final = slot(LAYOUT, "seats", "victim")
_GIFT: Final = slot(LAYOUT, "seats", "gift_to_come")
_ROUND_AT: Final = slot(LAYOUT, "clock", "round")
_TURNS_AT: Final = slot(LAYOUT, "clock", "turns_left")
_LAST_AT: Final = slot(LAYOUT, "clock", "last_turn")
_SOLO_AT: Final = slot(LAYOUT, "clock", "solo")
_PLAYED_AT: Final = slot(LAYOUT, "turn_state", "played")
_SKIPPED_AT: Final = slot(LAYOUT, "turn_state", "skipped")
_FAILED_AT: Final = slot(LAYOUT, "turn_state", "failed_luck")
_PHONES_AT: Final = slot(LAYOUT, "turn_state", "smartphones")
_WALLET_AT: Final = slot(LAYOUT, "turn_state", "wallet")
_DISCARD_AT: Final = slot(LAYOUT, "pending", "discard")
_DESTROY_AT: Final = slot(LAYOUT, "pending", "destroy")
_CHOSEN_AT: Final = slot(LAYOUT, "pending", "chosen")
_ERA_TAKE_AT: Final = slot(LAYOUT, "pending", "era_to_take")
_DECK_SLOTS: Final = block(LAYOUT, "deck_sizes").slots  # each read from the view's <name>_deck_size
#: the cap of each seat feature (1.0 for a flag), by slot, for the reference writer
_SEAT_CAPS: Final = tuple(s.cap or 1.0 for s in SEATS.slots)
#: the cap of each counted block (the zones counted card by card)
_CAPS: Final[dict[str, float]] = {b.name: b.cap for b in LAYOUT if b.cap is not None}
_FACE_UP: Final = cards.VISIBLE
_SHAPE: Final = cards.SHAPE_BITS


def _count_values(scale: float, top: int = 64) -> tuple[float, ...]:
    """value[c]: what `_counts` leaves in a float32 slot after adding 1/scale c times (the
    fast path writes counts in one go; the float32 rounding of every step is replayed)."""
    slot: Any = memoryview(np.zeros(1, np.float32))  # type: ignore[arg-type]
    step = 1.0 / scale
    out = [0.0]
    for _ in range(top):
        v = slot[0] + step
        slot[0] = v if v < 1.0 else 1.0
        out.append(slot[0])
    return tuple(out)


class EternitiumEncoding(Encoding):
    game_id: ClassVar[str] = "eternitium"
    version: ClassVar[int] = ENCODING_VERSION
    max_players: ClassVar[int] = MAXP
    actions: ClassVar[tuple[Any, ...]] = cards.ACTIONS
    state_class: ClassVar[type | None] = EternitiumState
    layout: ClassVar[Layout] = LAYOUT
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = fields(LAYOUT)

    def __init__(self, players: int | None = None) -> None:
        super().__init__(players)
        self._o = dict(self.offsets)
        self._card = dict(cards.CARD_INDEX)
        self._shape = dict(cards.SHAPE_INDEX)
        self._phase = {name: i for i, name in enumerate(PHASES)}
        # fast path: the engine's phase number -> this layout's phase slot
        self._phase_slot = tuple(self._phase[name] for name in engine.PHASE_NAME)
        # fast path: field offsets as attributes (a dict lookup each costs more than a write)
        o = self.offsets
        self._o_hand = o["hand"]
        self._o_discard = o["discard"]
        self._o_victim = o["victim_discard"]
        self._o_basic = o["basic_row"]
        self._o_advanced = o["advanced_row"]
        self._o_portal = o["portal_row"]
        self._o_ai = o["ai_cards"]
        self._o_in_play = o["in_play"]
        self._o_era_top = o["era_top"]
        self._o_era_visible = o["era_visible"]
        self._o_seats = o["seats"]
        self._o_reserve = o["portal_reserve"]
        self._o_era_discard = o["era_discard"]
        self._o_era_display = o["era_display"]
        self._o_decks = o["deck_sizes"]
        self._o_phase = o["phase"]
        self._o_mission = o["mission"]
        self._o_clock = o["clock"]
        self._o_turn = o["turn_state"]
        self._o_pending = o["pending"]
        self._o_terminal = o["terminal"]
        self._o_winners = o["winners"]

    def _counts(self, m: Any, base: int, names: Any, scale: float) -> None:
        card = self._card
        step = 1.0 / scale
        for name in names:
            i = base + card[name]
            v = m[i] + step
            m[i] = v if v < 1.0 else 1.0

    def write(self, view: dict[str, Any], m: Any) -> None:
        o = self._o
        pending = view["pending"]
        zones = (
            ("hand", view["hand"] or ()),
            ("discard", view["discard"] or ()),
            ("victim_discard", pending.get("victim_discard", ())),
            ("basic_row", view["basic_row"]),
            ("advanced_row", view["advanced_row"]),
            ("portal_row", view["portal_row"]),
            ("ai_cards", view["ai_cards"]),
        )
        for name, names in zones:
            self._counts(m, o[name], names, _CAPS[name])
        if view["in_play"] is not None:
            m[o["in_play"] + self._card[view["in_play"]]] = 1.0
        hidden_count = self._view_era(view, m)
        self._view_seats(view, m, hidden_count)
        self._view_table(view, m)

    def _view_era(self, view: dict[str, Any], m: Any) -> list[int]:
        """Era piles, top first; returns the face-down count of each pile."""
        o = self._o
        shape = self._shape
        seat = view["seat"] or 0
        n = view["players"]
        top = o["era_top"]
        vis = o["era_visible"]
        hidden_count = [0] * n
        for s, pile in enumerate(view["era"]):
            r = (s - seat) % n
            base = top + r * ERA_DEPTH * (S + 1)
            vbase = vis + r * S
            hidden = 0
            for depth, face in enumerate(pile):
                j = shape.get(face, -1)
                if j < 0:
                    hidden += 1
                else:
                    v = m[vbase + j] + 1.0 / _CAPS["era_visible"]
                    m[vbase + j] = v if v < 1.0 else 1.0
                if depth < ERA_DEPTH:
                    m[base + depth * (S + 1) + (S if j < 0 else j)] = 1.0
            hidden_count[s] = hidden
        return hidden_count

    def _view_seats(self, view: dict[str, Any], m: Any, hidden_count: list[int]) -> None:
        """Each seat's features (SEAT_FEATURES), the reader's own seat first."""
        seat = view["seat"] or 0
        n = view["players"]
        pending = view["pending"]
        b = self._o["seats"]
        k = _K
        caps = _SEAT_CAPS
        first = view["first_player"]
        current = view["current_player"]
        active = view["active_player"]
        gems = view["gem"]
        victim = pending.get("victim")
        gifts = pending.get("gifts_to_come", ())
        hand_sizes = view["hand_sizes"]
        deck_sizes = view["deck_sizes"]
        discard_sizes = view["discard_sizes"]
        era_counts = view["era_counts"]
        scores = view["scores"]
        sets = view["starting_sets"]
        for s in range(n):
            base = b + ((s - seat) % n) * k
            m[base] = 1.0
            if s == first:
                m[base + _FIRST] = 1.0
            if s == current:
                m[base + _CURRENT] = 1.0
            if s == active:
                m[base + _ACTIVE] = 1.0
            if s in gems:
                m[base + _GEM] = 1.0
            m[base + _HAND_N] = cap(hand_sizes[s], caps[_HAND_N])
            m[base + _DECK_N] = cap(deck_sizes[s], caps[_DECK_N])
            m[base + _DISCARD_N] = cap(discard_sizes[s], caps[_DISCARD_N])
            m[base + _ERA_N] = cap(era_counts[s], caps[_ERA_N])
            m[base + _HIDDEN_N] = cap(hidden_count[s], caps[_HIDDEN_N])
            m[base + _POINTS] = cap(scores[s], caps[_POINTS])
            m[base + _SET_N] = cap(sets[s], caps[_SET_N])
            if s == victim:
                m[base + _VICTIM] = 1.0
            if s in gifts:
                m[base + _GIFT] = 1.0

    def _view_table(self, view: dict[str, Any], m: Any) -> None:
        """The common zones, the phase, the clock, the turn and what is pending."""
        o = self._o
        shape = self._shape
        seat = view["seat"] or 0
        n = view["players"]
        pending = view["pending"]
        for key in ("portal_reserve", "era_discard"):
            base = o[key]
            scale = _CAPS[key]
            for name, count in view[key].items():
                m[base + shape[name]] = cap(count, scale)
        base = o["era_display"]
        for name in view["era_display"]:
            m[base + shape[name]] += 0.5
        base = o["deck_sizes"]
        for i, deck in enumerate(_DECK_SLOTS):
            m[base + i] = cap(view[f"{deck.name}_deck_size"], deck.cap or 1.0)
        m[o["phase"] + self._phase[view["phase"]]] = 1.0
        mission = view["mission"]
        if 0 <= mission < MISSIONS:
            m[o["mission"] + mission] = 1.0
        base = o["clock"]
        m[base + _ROUND_AT] = cap(view["round"], cap_of(LAYOUT, "clock", "round"))
        if view["turns_left"] is not None:
            m[base + _TURNS_AT] = cap(view["turns_left"], cap_of(LAYOUT, "clock", "turns_left"))
        if view["last_turn"]:
            m[base + _LAST_AT] = 1.0
        if n == 1:
            m[base + _SOLO_AT] = 1.0
        ts = view["turn_state"]
        base = o["turn_state"]
        m[base + _PLAYED_AT] = 1.0 if ts["played"] else 0.0
        m[base + _SKIPPED_AT] = 1.0 if ts["skipped"] else 0.0
        m[base + _FAILED_AT] = 1.0 if ts["failed_luck"] else 0.0
        m[base + _PHONES_AT] = cap(ts["smartphones"], cap_of(LAYOUT, "turn_state", "smartphones"))
        m[base + _WALLET_AT] = 1.0 if ts["wallet"] else 0.0
        base = o["pending"]
        mode = pending.get("mode")
        if mode == "discard":
            m[base + _DISCARD_AT] = 1.0
        elif mode == "destroy":
            m[base + _DESTROY_AT] = 1.0
        if "chosen" in pending:
            m[base + _CHOSEN_AT] = cap(pending["chosen"], cap_of(LAYOUT, "pending", "chosen"))
        if "era_to_take" in pending:
            m[base + _ERA_TAKE_AT] = cap(
                pending["era_to_take"], cap_of(LAYOUT, "pending", "era_to_take")
            )
        if view["is_terminal"]:
            m[o["terminal"]] = 1.0
        b = o["winners"]
        for s in view["winners"]:
            m[b + (s - seat) % n] = 1.0

    def write_state(self, st: EternitiumState, seat: int, m: vec[i32]) -> None:
        """`write(st.view(seat), m)` from the engine's fields. What it reads of hidden state:
        `seat`'s own hand and discard pile, the pile a thief is looking through (the thief
        only), every zone's size, the face (visible or not) of each Era card, and the scores,
        which count every card a seat owns -- exactly what the view shows."""
        phase = st._phase
        # Action cards, counted as `_counts` does (one float32 step per card), from tables
        base = self._o_hand
        for k, c in enumerate(st._hands[seat]):
            if c:
                m[base + k] = _HAND_BITS[c] if c < _TOP else _ONE
        _ids(m, self._o_discard, st._discards[seat], _DISCARD_BITS)
        stealing = phase == engine.PH_STEAL
        if stealing and seat == st._active:
            _ids(m, self._o_victim, st._discards[st._target], _VICTIM_BITS)
        _ids(m, self._o_basic, st._basic_row, _BASIC_BITS)
        _ids(m, self._o_advanced, st._adv_row, _ADVANCED_BITS)
        _ids(m, self._o_portal, st._portal_row, _PORTAL_BITS)
        _ids(m, self._o_ai, st._ai_log, _AI_BITS)
        if st._in_play >= 0:
            m[self._o_in_play + st._in_play] = _ONE
        hidden_count = self._state_era(st, seat, m)
        self._state_seats(st, seat, m, hidden_count)
        self._state_table(st, seat, m)

    def _state_era(self, st: EternitiumState, seat: int, m: vec[i32]) -> vec[i32]:
        """Era piles, top first: a face-up card shows its shape, a face-down one only that
        (a pile holds Era codes: flag VISIBLE face up, ERA_KNOWN seen face down); returns
        the face-down count of each pile."""
        n = st._n
        top = self._o_era_top
        vis = self._o_era_visible
        eras = st._eras
        hidden_count = _ZERO_P[0:n]
        for s in range(n):
            pile = eras[s]
            if not pile:
                continue
            r = (s - seat) % n
            vbase = vis + r * S
            shown = _ZERO_S[0:S]  # face up (VISIBLE, with or without ERA_KNOWN), by shape
            up = 0
            for c in pile:
                if c & _FACE_UP:
                    shown[c & _SHAPE] += 1
                    up += 1
            for j, count in enumerate(shown):
                if count:
                    m[vbase + j] = _ERA_BITS[count] if count < _TOP else _ONE
            hidden_count[s] = len(pile) - up
            base = top + r * ERA_DEPTH * (S + 1)
            for depth in range(min(ERA_DEPTH, len(pile))):
                c = pile[-1 - depth]
                m[base + depth * (S + 1) + (c & _SHAPE if c & _FACE_UP else S)] = _ONE
        return hidden_count

    def _state_seats(
        self, st: EternitiumState, seat: int, m: vec[i32], hidden_count: vec[i32]
    ) -> None:
        """Each seat's features (SEAT_FEATURES), the reader's own seat first."""
        n = st._n
        phase = st._phase
        stealing = phase == engine.PH_STEAL
        eras = st._eras
        b = self._o_seats
        k = _K
        first = st._first
        current = st._current
        active = -1 if st.is_terminal else st._active
        victim = st._target if stealing else -1
        gifts = st._gifts if phase == engine.PH_GIFT else ()
        hand_sizes = st._hsize
        decks = st._decks
        discards = st._discards
        for s in range(n):
            base = b + ((s - seat) % n) * k
            m[base] = _ONE
            if s == first:
                m[base + _FIRST] = _ONE
            if s == current:
                m[base + _CURRENT] = _ONE
            if s == active:
                m[base + _ACTIVE] = _ONE
            era_count = len(eras[s])
            if not era_count:
                m[base + _GEM] = _ONE
            # cap(v, scale) of counts, which are never negative, from tables
            _put(m, base + _HAND_N, _HAND_SIZE, hand_sizes[s])
            _put(m, base + _DECK_N, _DECK, len(decks[s]))
            _put(m, base + _DISCARD_N, _DISCARD_SIZE, len(discards[s]))
            _put(m, base + _ERA_N, _ERA_COUNT, era_count)
            _put(m, base + _HIDDEN_N, _HIDDEN, hidden_count[s])
            _put(m, base + _POINTS, _SCORE, st._points(s)[0])  # the view's score
            m[base + _SET_N] = _SET[(s - first) % n + 1]
            if s == victim:
                m[base + _VICTIM] = _ONE
            if s in gifts:
                m[base + _GIFT] = _ONE

    def _state_table(self, st: EternitiumState, seat: int, m: vec[i32]) -> None:
        """The common zones, the phase, the clock, the turn and what is pending."""
        n = st._n
        phase = st._phase
        base = self._o_reserve
        for i, count in enumerate(st._reserve):
            _put(m, base + i, _RESERVE, count)
        era_discard = _ZERO_S[0:S]
        for c in st._era_discard:
            era_discard[c] += 1
        base = self._o_era_discard
        for i in range(S):
            _put(m, base + i, _ERA_DISCARD, era_discard[i])
        era_display = _ZERO_S[0:S]  # 0.5 a card, as the view's `+= 0.5` adds up
        for c in st._era_display:
            era_display[c] += 1
        base = self._o_era_display
        for i, c in enumerate(era_display):
            if c:
                m[base + i] = _HALVES[c] if c < len(_HALVES) else f32(0.5 * c)
        base = self._o_decks
        _put(m, base + _PORTAL_AT, _PORTAL_DECK, len(st._portal_deck))
        _put(m, base + _BASIC_AT, _BASIC_DECK, len(st._basic_deck))
        _put(m, base + _ADVANCED_AT, _ADVANCED_DECK, len(st._adv_deck))
        _put(m, base + _ERA_DECK_AT, _ERA_DECK, len(st._era_deck))
        _put(m, base + _AI_AT, _AI_DECK, len(st._ai_deck))
        m[self._o_phase + self._phase_slot[phase]] = _ONE
        mission = st._rules.mission
        if 0 <= mission < MISSIONS:
            m[self._o_mission + mission] = _ONE
        base = self._o_clock
        _put(m, base + _ROUND_AT, _ROUND, st._round + 1)
        if n == 1:
            _put(m, base + _TURNS_AT, _TURNS, st._rules.turns - st._turn)
            m[base + _SOLO_AT] = _ONE
        if st._last_turn:
            m[base + _LAST_AT] = _ONE
        base = self._o_turn
        if st._played:
            m[base + _PLAYED_AT] = _ONE
        if st._skipped:
            m[base + _SKIPPED_AT] = _ONE
        if st._failed:
            m[base + _FAILED_AT] = _ONE
        _put(m, base + _PHONES_AT, _LIMITED, st._limited)
        if st._wallet:
            m[base + _WALLET_AT] = _ONE
        base = self._o_pending
        if phase == engine.PH_CYCLE:
            mode = st._cycle_mode
            if mode == 1:  # ("any", "discard", "destroy")
                m[base + _DISCARD_AT] = _ONE
            elif mode == 2:
                m[base + _DESTROY_AT] = _ONE
            _put(m, base + _CHOSEN_AT, _CYCLED, st._cycle_count)
        elif phase == engine.PH_ERA:
            _put(m, base + _ERA_TAKE_AT, _PAY, st._pay_left)
        if st.is_terminal:
            m[self._o_terminal] = _ONE
        b = self._o_winners
        for s in st._winners:
            m[b + (s - seat) % n] = _ONE


def _ids(m: vec[i32], base: int, ids: list[int], table: tuple[int, ...]) -> None:
    """`_counts` of card ids instead of names: each kind's count, then its value from
    `table` (`_count_values` of the scale: the float32 steps replayed)."""
    if not ids:
        return
    counts = _ZERO_K[0:K]  # a native vector: no boxed item, no list to free
    for k in ids:
        counts[k] += 1
    for k, c in enumerate(counts):
        if c:
            m[base + k] = table[c] if c < _TOP else _ONE


def _steps(name: str) -> tuple[int, ...]:
    """The float32 bits `_counts` leaves after 0, 1, 2, .. cards of block `name` (its cap's
    steps replayed)."""
    return tuple(f32(v) for v in _count_values(cap_of(LAYOUT, name)))


# the float32 bits of cap() of counts (`cap_table`), and of the replayed float32 steps, from
# the layout
_HAND_BITS: Final[tuple[int, ...]] = _steps("hand")
_DISCARD_BITS: Final[tuple[int, ...]] = _steps("discard")
_VICTIM_BITS: Final[tuple[int, ...]] = _steps("victim_discard")
_BASIC_BITS: Final[tuple[int, ...]] = _steps("basic_row")
_ADVANCED_BITS: Final[tuple[int, ...]] = _steps("advanced_row")
_PORTAL_BITS: Final[tuple[int, ...]] = _steps("portal_row")
_AI_BITS: Final[tuple[int, ...]] = _steps("ai_cards")
_ERA_BITS: Final[tuple[int, ...]] = _steps("era_visible")
_HALVES: Final[tuple[int, ...]] = tuple(f32(0.5 * c) for c in range(16))
# zeroed counters, copied by slicing (a memcpy compiled; far cheaper than building a vector
# from a list in the interpreter)
_ZERO_K: Final[vec[i32]] = vec[i32]([0] * K)
_ZERO_S: Final[vec[i32]] = vec[i32]([0] * S)
_ZERO_P: Final[vec[i32]] = vec[i32]([0] * MAXP)
_TOP: Final = len(_HAND_BITS)  # counts past the tables read 1.0
_HAND_SIZE: Final[tuple[int, ...]] = table(LAYOUT, "seats", "hand_size")
_DECK: Final[tuple[int, ...]] = table(LAYOUT, "seats", "deck_size")
_DISCARD_SIZE: Final[tuple[int, ...]] = table(LAYOUT, "seats", "discard_size")
_ERA_COUNT: Final[tuple[int, ...]] = table(LAYOUT, "seats", "era_count")
_HIDDEN: Final[tuple[int, ...]] = table(LAYOUT, "seats", "hidden_era")
_SCORE: Final[tuple[int, ...]] = table(LAYOUT, "seats", "score")
_SET: Final[tuple[int, ...]] = table(LAYOUT, "seats", "starting_set")
_RESERVE: Final[tuple[int, ...]] = table(LAYOUT, "portal_reserve")
_ERA_DISCARD: Final[tuple[int, ...]] = table(LAYOUT, "era_discard")
_PORTAL_AT: Final = slot(LAYOUT, "deck_sizes", "portal")
_BASIC_AT: Final = slot(LAYOUT, "deck_sizes", "basic")
_ADVANCED_AT: Final = slot(LAYOUT, "deck_sizes", "advanced")
_ERA_DECK_AT: Final = slot(LAYOUT, "deck_sizes", "era")
_AI_AT: Final = slot(LAYOUT, "deck_sizes", "ai")
_PORTAL_DECK: Final[tuple[int, ...]] = table(LAYOUT, "deck_sizes", "portal")
_BASIC_DECK: Final[tuple[int, ...]] = table(LAYOUT, "deck_sizes", "basic")
_ADVANCED_DECK: Final[tuple[int, ...]] = table(LAYOUT, "deck_sizes", "advanced")
_ERA_DECK: Final[tuple[int, ...]] = table(LAYOUT, "deck_sizes", "era")
_AI_DECK: Final[tuple[int, ...]] = table(LAYOUT, "deck_sizes", "ai")
_ROUND: Final[tuple[int, ...]] = table(LAYOUT, "clock", "round")
_TURNS: Final[tuple[int, ...]] = table(LAYOUT, "clock", "turns_left")
_LIMITED: Final[tuple[int, ...]] = table(LAYOUT, "turn_state", "smartphones")
_CYCLED: Final[tuple[int, ...]] = table(LAYOUT, "pending", "chosen")
_PAY: Final[tuple[int, ...]] = table(LAYOUT, "pending", "era_to_take")
assert all(len(t) == _TOP for t in (_DISCARD_BITS, _VICTIM_BITS, _BASIC_BITS, _ERA_BITS))
