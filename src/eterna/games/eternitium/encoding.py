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
from eterna.core.encoding import Encoding, cap, cap_table, f32
from eterna.core.encoding import put_count as _put
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
SEAT_FEATURES: Final = (
    "present",
    "first_player",
    "current",
    "active",
    "gem",
    "hand_size",
    "deck_size",
    "discard_size",
    "era_count",
    "hidden_era",
    "score",
    "starting_set",
    "victim",
    "gift_to_come",
)
CAP_COUNT: Final = 5.0  # copies of one kind in a hand / row
CAP_PILE: Final = 20.0  # copies of one kind in a discard pile
CAP_HAND: Final = 10.0
CAP_DECK: Final = 30.0
CAP_ERA: Final = 15.0
CAP_SCORE: Final = 30.0
CAP_RESERVE: Final = 10.0
CAP_ROUND: Final = 100.0
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
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = (
        ("hand", (K,)),
        ("discard", (K,)),
        ("victim_discard", (K,)),
        ("basic_row", (K,)),
        ("advanced_row", (K,)),
        ("portal_row", (K,)),
        ("ai_cards", (K,)),
        ("in_play", (K,)),
        ("era_top", (MAXP, ERA_DEPTH, S + 1)),  # shape one-hot, or the last slot: hidden
        ("era_visible", (MAXP, S)),  # visible cards per shape in the whole pile
        ("seats", (MAXP, len(SEAT_FEATURES))),
        ("portal_reserve", (S,)),
        ("era_display", (S,)),
        ("era_discard", (S,)),
        ("deck_sizes", (5,)),  # portal, basic, advanced, common Era, AI decks
        ("phase", (len(PHASES),)),
        ("mission", (MISSIONS,)),
        ("clock", (4,)),  # round / 100, turns left / 8, last turn, solo
        ("turn_state", (5,)),  # played, skipped, failed luck, smartphones / 3, wallet
        ("pending", (4,)),  # analyser mode discard / destroy, chosen / 6, Era to take / 2
        ("terminal", (1,)),
        ("winners", (MAXP,)),
    )

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
        counts = self._counts
        counts(m, o["hand"], view["hand"] or (), CAP_COUNT)
        counts(m, o["discard"], view["discard"] or (), CAP_PILE)
        counts(m, o["victim_discard"], pending.get("victim_discard", ()), CAP_PILE)
        counts(m, o["basic_row"], view["basic_row"], CAP_COUNT)
        counts(m, o["advanced_row"], view["advanced_row"], CAP_COUNT)
        counts(m, o["portal_row"], view["portal_row"], CAP_COUNT)
        counts(m, o["ai_cards"], view["ai_cards"], CAP_COUNT)
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
                    v = m[vbase + j] + 1.0 / CAP_ERA
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
        k = len(SEAT_FEATURES)
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
                m[base + 1] = 1.0
            if s == current:
                m[base + 2] = 1.0
            if s == active:
                m[base + 3] = 1.0
            if s in gems:
                m[base + 4] = 1.0
            m[base + 5] = cap(hand_sizes[s], CAP_HAND)
            m[base + 6] = cap(deck_sizes[s], CAP_DECK)
            m[base + 7] = cap(discard_sizes[s], CAP_DECK)
            m[base + 8] = cap(era_counts[s], CAP_ERA)
            m[base + 9] = cap(hidden_count[s], CAP_ERA)
            m[base + 10] = cap(scores[s], CAP_SCORE)
            m[base + 11] = cap(sets[s], float(MAXP))
            if s == victim:
                m[base + 12] = 1.0
            if s in gifts:
                m[base + 13] = 1.0

    def _view_table(self, view: dict[str, Any], m: Any) -> None:
        """The common zones, the phase, the clock, the turn and what is pending."""
        o = self._o
        shape = self._shape
        seat = view["seat"] or 0
        n = view["players"]
        pending = view["pending"]
        for key, scale in (
            ("portal_reserve", CAP_RESERVE),
            ("era_discard", CAP_ERA),
        ):
            base = o[key]
            for name, count in view[key].items():
                m[base + shape[name]] = cap(count, scale)
        base = o["era_display"]
        for name in view["era_display"]:
            m[base + shape[name]] += 0.5
        base = o["deck_sizes"]
        m[base] = cap(view["portal_deck_size"], 8.0)
        m[base + 1] = cap(view["basic_deck_size"], CAP_DECK)
        m[base + 2] = cap(view["advanced_deck_size"], CAP_DECK)
        m[base + 3] = cap(view["era_deck_size"], 60.0)
        m[base + 4] = cap(view["ai_deck_size"], 9.0)
        m[o["phase"] + self._phase[view["phase"]]] = 1.0
        mission = view["mission"]
        if 0 <= mission < MISSIONS:
            m[o["mission"] + mission] = 1.0
        base = o["clock"]
        m[base] = cap(view["round"], CAP_ROUND)
        if view["turns_left"] is not None:
            m[base + 1] = cap(view["turns_left"], 8.0)
        if view["last_turn"]:
            m[base + 2] = 1.0
        if n == 1:
            m[base + 3] = 1.0
        ts = view["turn_state"]
        base = o["turn_state"]
        m[base] = 1.0 if ts["played"] else 0.0
        m[base + 1] = 1.0 if ts["skipped"] else 0.0
        m[base + 2] = 1.0 if ts["failed_luck"] else 0.0
        m[base + 3] = cap(ts["smartphones"], 3.0)
        m[base + 4] = 1.0 if ts["wallet"] else 0.0
        base = o["pending"]
        mode = pending.get("mode")
        if mode == "discard":
            m[base] = 1.0
        elif mode == "destroy":
            m[base + 1] = 1.0
        if "chosen" in pending:
            m[base + 2] = cap(pending["chosen"], 6.0)
        if "era_to_take" in pending:
            m[base + 3] = cap(pending["era_to_take"], 2.0)
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
                m[base + k] = _COUNT[c] if c < _TOP else _ONE
        _ids(m, self._o_discard, st._discards[seat], _PILE)
        stealing = phase == engine.PH_STEAL
        if stealing and seat == st._active:
            _ids(m, self._o_victim, st._discards[st._target], _PILE)
        _ids(m, self._o_basic, st._basic_row, _COUNT)
        _ids(m, self._o_advanced, st._adv_row, _COUNT)
        _ids(m, self._o_portal, st._portal_row, _COUNT)
        _ids(m, self._o_ai, st._ai_log, _COUNT)
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
                    m[vbase + j] = _ERA[count] if count < _TOP else _ONE
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
        k = len(SEAT_FEATURES)
        first = st._first
        current = st._current
        active = -1 if st.is_terminal else st._active
        victim = st._target if stealing else -1
        gifts = st._gifts if phase == engine.PH_GIFT else ()
        hand_sizes = st._hsize
        decks = st._decks
        discards = st._discards
        hands = st._hands
        tiers = _TIERS
        in_play = st._in_play
        for s in range(n):
            base = b + ((s - seat) % n) * k
            m[base] = _ONE
            if s == first:
                m[base + 1] = _ONE
            if s == current:
                m[base + 2] = _ONE
            if s == active:
                m[base + 3] = _ONE
            era_count = len(eras[s])
            if not era_count:
                m[base + 4] = _ONE
            # cap(v, scale) of counts, which are never negative, from tables
            _put(m, base + 5, _HAND_SIZE, hand_sizes[s])
            deck = decks[s]
            _put(m, base + 6, _DECK, len(deck))
            pile = discards[s]
            _put(m, base + 7, _DECK, len(pile))
            _put(m, base + 8, _ERA_COUNT, era_count)
            _put(m, base + 9, _ERA_COUNT, hidden_count[s])
            # the view's score: the engine's _points(s)[0] (every card the seat owns), summed
            # here without the advanced count the view does not encode
            score: i32 = 0  # (loops, not sum(map(...)): the compiled build runs them in C)
            for c in deck:
                score += tiers[c]
            for c in pile:
                score += tiers[c]
            for c, copies in enumerate(hands[s]):
                if copies:
                    score += copies * tiers[c]
            if s == st._active and in_play >= 0:
                score += tiers[in_play]
            _put(m, base + 10, _SCORE, score)
            m[base + 11] = _SET[(s - first) % n + 1]
            if s == victim:
                m[base + 12] = _ONE
            if s in gifts:
                m[base + 13] = _ONE

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
            _put(m, base + i, _ERA_COUNT, era_discard[i])
        era_display = _ZERO_S[0:S]  # 0.5 a card, as the view's `+= 0.5` adds up
        for c in st._era_display:
            era_display[c] += 1
        base = self._o_era_display
        for i, c in enumerate(era_display):
            if c:
                m[base + i] = _HALVES[c] if c < len(_HALVES) else f32(0.5 * c)
        base = self._o_decks
        _put(m, base, _PORTAL_DECK, len(st._portal_deck))
        _put(m, base + 1, _DECK, len(st._basic_deck))
        _put(m, base + 2, _DECK, len(st._adv_deck))
        _put(m, base + 3, _ERA_DECK, len(st._era_deck))
        _put(m, base + 4, _AI_DECK, len(st._ai_deck))
        m[self._o_phase + self._phase_slot[phase]] = _ONE
        mission = st._rules.mission
        if 0 <= mission < MISSIONS:
            m[self._o_mission + mission] = _ONE
        base = self._o_clock
        _put(m, base, _ROUND, st._round + 1)
        if n == 1:
            _put(m, base + 1, _TURNS, st._rules.turns - st._turn)
            m[base + 3] = _ONE
        if st._last_turn:
            m[base + 2] = _ONE
        base = self._o_turn
        if st._played:
            m[base] = _ONE
        if st._skipped:
            m[base + 1] = _ONE
        if st._failed:
            m[base + 2] = _ONE
        _put(m, base + 3, _LIMITED, st._limited)
        if st._wallet:
            m[base + 4] = _ONE
        base = self._o_pending
        if phase == engine.PH_CYCLE:
            mode = st._cycle_mode
            if mode == 1:  # ("any", "discard", "destroy")
                m[base] = _ONE
            elif mode == 2:
                m[base + 1] = _ONE
            _put(m, base + 2, _CYCLED, st._cycle_count)
        elif phase == engine.PH_ERA:
            _put(m, base + 3, _PAY, st._pay_left)
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


# the float32 bits of cap() of counts (`cap_table`), and of the replayed float32 steps
_COUNT: Final[tuple[int, ...]] = tuple(f32(v) for v in _count_values(CAP_COUNT))
_PILE: Final[tuple[int, ...]] = tuple(f32(v) for v in _count_values(CAP_PILE))
_ERA: Final[tuple[int, ...]] = tuple(f32(v) for v in _count_values(CAP_ERA))
_HALVES: Final[tuple[int, ...]] = tuple(f32(0.5 * c) for c in range(16))
# zeroed counters, copied by slicing (a memcpy compiled; far cheaper than building a vector
# from a list in the interpreter)
_ZERO_K: Final[vec[i32]] = vec[i32]([0] * K)
_ZERO_S: Final[vec[i32]] = vec[i32]([0] * S)
_ZERO_P: Final[vec[i32]] = vec[i32]([0] * MAXP)
#: each card kind's technology points (a native vector: the score loop reads one a card)
_TIERS: Final[vec[i32]] = vec[i32](cards.TIER)
_TOP: Final = len(_COUNT)  # counts past the tables read 1.0
_HAND_SIZE: Final[tuple[int, ...]] = cap_table(CAP_HAND)
_DECK: Final[tuple[int, ...]] = cap_table(CAP_DECK)
_ERA_COUNT: Final[tuple[int, ...]] = cap_table(CAP_ERA)
_SCORE: Final[tuple[int, ...]] = cap_table(CAP_SCORE)
_SET: Final[tuple[int, ...]] = cap_table(float(MAXP))
_RESERVE: Final[tuple[int, ...]] = cap_table(CAP_RESERVE)
_PORTAL_DECK: Final[tuple[int, ...]] = cap_table(8.0)
_ERA_DECK: Final[tuple[int, ...]] = cap_table(60.0)
_AI_DECK: Final[tuple[int, ...]] = cap_table(9.0)
_ROUND: Final[tuple[int, ...]] = cap_table(CAP_ROUND)
_TURNS: Final[tuple[int, ...]] = cap_table(8.0)
_LIMITED: Final[tuple[int, ...]] = cap_table(3.0)
_CYCLED: Final[tuple[int, ...]] = cap_table(6.0)
_PAY: Final[tuple[int, ...]] = cap_table(2.0)
assert len(_PILE) == len(_ERA) == _TOP
