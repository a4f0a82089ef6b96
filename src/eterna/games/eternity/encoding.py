"""Eternity's encoding: 84 action ids (play / pledge x 42 cards), an 825-float observation.

Action id = the interned index: `play <card>` is the card number (0..41, earth-1 .. sky-14),
`pledge <card>` is 42 + the card number. docs/encodings.md has the observation layout.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from librt.vecs import vec
from mypy_extensions import i32

from eterna.core.encoding import ONE as _ONE
from eterna.core.encoding import Encoding, cap, cap_table
from eterna.core.encoding import put_count as _put
from eterna.core.game import View
from eterna.core.layout import Block, Layout, Slot, cap_of, fields, slot, table
from eterna.games.eternity import cards
from eterna.games.eternity.state import EternityState
from eterna.games.eternity.views import EternityView, as_eternity_view

ENCODING_VERSION: Final = 1

C: Final = cards.DECK_SIZE  # 42
F: Final = len(cards.FAMILIES)  # 3
MAXP: Final = 5
ROUNDS: Final = cards.ROUNDS
SEATS: Final = Block(
    "seats",
    (MAXP, 8),
    "per relative seat",
    slots=(
        Slot("present", "present"),
        Slot("leader", "leads the trick"),
        Slot("current", "to play"),
        Slot("hand_size", "hand size", 10.0),
        Slot("tricks", "tricks won this round", 10.0),
        Slot("trees", "trees", 30.0),
        Slot("score", "score", 60.0),
        Slot("won_last_trick", "won the last trick"),
    ),
)
#: The observation, declared once: writers, tables and docs/encodings.md follow from it.
LAYOUT: Final[Layout] = (
    Block("hand", (C,), "own hand"),
    Block("board", (C,), "cards on the trump board"),
    Block("display", (C,), "3-player face-up display"),
    Block("trick_plays", (MAXP, C), "participating cards in the current trick, per relative seat"),
    Block("trick_pledges", (MAXP, C), "pledged cards in the current trick, per relative seat"),
    Block(
        "round_played",
        (MAXP, C),
        "every card each relative seat played or pledged this round (the view's log)",
    ),
    Block("led", (F,), "led family (all zero before the lead)"),
    Block("trump", (F,), "trump family"),
    Block("columns", (F, F), "column i holds family j"),
    Block("round", (ROUNDS,), "round, one-hot"),
    Block("trick_progress", (1,), "trick number / tricks per round"),
    Block("harmony_bonus", (1,), "harmony bonus", 7.0),
    Block("pledges_left", (1,), "pledges left", 2.0),
    Block(
        "tree_supply",
        (2,),
        "the tree supply",
        slots=(
            Slot("capped", "capped supply in play"),
            Slot("left", "tokens left", float(cards.TREE_TOKENS_IN_BOX)),
        ),
    ),
    SEATS,
    Block("terminal", (1,), "game over"),
    Block("winners", (MAXP,), "winners, per relative seat"),
)
SEAT_FEATURES: Final = tuple(s.name for s in SEATS.slots)
# Where each seat feature sits in a seat's row
_LEADER: Final = slot(LAYOUT, "seats", "leader")
_CURRENT: Final = slot(LAYOUT, "seats", "current")
_HAND_SIZE: Final = slot(LAYOUT, "seats", "hand_size")
_TRICKS_WON: Final = slot(LAYOUT, "seats", "tricks")
_TREES_HELD: Final = slot(LAYOUT, "seats", "trees")
_SCORED: Final = slot(LAYOUT, "seats", "score")
_WON_LAST: Final = slot(LAYOUT, "seats", "won_last_trick")
_K: Final = len(SEAT_FEATURES)
# Caps dividing each count (values are clipped to [0, 1]), from the layout
CAP_HAND: Final = cap_of(LAYOUT, "seats", "hand_size")
CAP_TRICKS: Final = cap_of(LAYOUT, "seats", "tricks")
CAP_TREES: Final = cap_of(LAYOUT, "seats", "trees")
CAP_SCORE: Final = cap_of(LAYOUT, "seats", "score")
CAP_PLEDGES: Final = cap_of(LAYOUT, "pledges_left")
CAP_BONUS: Final = cap_of(LAYOUT, "harmony_bonus")
CAP_SUPPLY: Final = cap_of(LAYOUT, "tree_supply", "left")


# The fast path's card tables. A hand holds one 14-bit chunk per family (the engine's layout),
# read here as two 7-bit halves: _LO[f][h] / _HI[f][h] are the cards of family f whose value
# bits are set in the low / high half h, ascending (small tables, built at once).
_HALF: Final = 7
_HALF_MASK: Final = (1 << _HALF) - 1


def _half_rows(first: int) -> tuple[tuple[int, ...], ...]:
    """rows[h]: first + v for each bit v set in the 7-bit `h`, ascending."""
    return tuple(tuple(first + v for v in range(_HALF) if h >> v & 1) for h in range(1 << _HALF))


_LO: Final = tuple(_half_rows(f * cards.PER_FAMILY) for f in range(F))
_HI: Final = tuple(_half_rows(f * cards.PER_FAMILY + _HALF) for f in range(F))
_PER_FAMILY: Final = cards.PER_FAMILY
_CHUNK: Final = cards.CHUNK
assert cards.PER_FAMILY == 2 * _HALF
#: _POP[chunk]: the number of cards in a family's chunk (int.bit_count is a generic method
#: call in the compiled build, boxing a 42-bit hand)
_POP: Final[tuple[int, ...]] = tuple(bin(h).count("1") for h in range(1 << cards.PER_FAMILY))


class EternityEncoding(Encoding):
    game_id: ClassVar[str] = "eternity"
    version: ClassVar[int] = ENCODING_VERSION
    max_players: ClassVar[int] = MAXP
    actions: ClassVar[tuple[Any, ...]] = cards.ACTIONS
    state_class: ClassVar[type | None] = EternityState
    layout: ClassVar[Layout] = LAYOUT
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = fields(LAYOUT)

    def __init__(self, players: int | None = None) -> None:
        super().__init__(players)
        o = self.offsets
        self._o_hand = o["hand"]
        self._o_board = o["board"]
        self._o_display = o["display"]
        self._o_trick = o["trick_plays"]
        self._o_pledge = o["trick_pledges"]
        self._o_played = o["round_played"]
        self._o_led = o["led"]
        self._o_trump = o["trump"]
        self._o_columns = o["columns"]
        self._o_round = o["round"]
        self._o_progress = o["trick_progress"]
        self._o_bonus = o["harmony_bonus"]
        self._o_pledges_left = o["pledges_left"]
        self._o_supply = o["tree_supply"]
        self._o_seats = o["seats"]
        self._o_terminal = o["terminal"]
        self._o_winners = o["winners"]
        self._card = cards.CARD_BY_NAME
        self._family = cards.FAMILY_INDEX
        # notation -> card number, for the log ("play sea-3" and "pledge sea-3" alike)
        self._log_card = {a.text: a.card for a in cards.ACTIONS}
        # fast path, per table size n (tuples indexed by n; 0 unused): _seat_bases[n][observer][s]
        # = where seat s's features start; _played_bases[n][j] = the round_played offset of
        # relative slot j % n, j < 2n
        k = _K
        self._seat_bases: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(
                tuple(self._o_seats + ((s - seat) % n) * k for s in range(n)) for seat in range(n)
            )
            for n in range(MAXP + 1)
        )
        self._played_bases: tuple[tuple[int, ...], ...] = tuple(
            tuple(self._o_played + (j % n) * C for j in range(2 * n)) for n in range(MAXP + 1)
        )

    def write(self, view: View, m: Any) -> None:
        v = as_eternity_view(view)
        seat = v["seat"] or 0
        n = v["players"]
        self._write_view_cards(v, m, seat, n)
        self._write_view_status(v, m)
        self._write_view_seats(v, m, seat, n)

    def _write_view_cards(self, view: EternityView, m: Any, seat: int, n: int) -> None:
        """hand, board, display, trick_plays, trick_pledges and round_played."""
        card = self._card
        for name in view["hand"] or ():
            m[card[name]] = 1.0
        o = self._o_board
        for names in view["board"].values():
            for name in names:
                m[o + card[name]] = 1.0
        o = self._o_display
        for name in view["display"]:
            m[o + card[name]] = 1.0
        o = self._o_trick
        for entry in view["trick"]:
            m[o + ((entry["seat"] - seat) % n) * C + card[entry["card"]]] = 1.0
        o = self._o_pledge
        for entry in view["pledges"]:
            m[o + ((entry["seat"] - seat) % n) * C + card[entry["card"]]] = 1.0
        o = self._o_played
        log_card = self._log_card
        for log in view["log"]:
            text = log.get("action")
            if text is not None:
                m[o + ((log["seat"] - seat) % n) * C + log_card[text]] = 1.0

    def _write_view_status(self, view: EternityView, m: Any) -> None:
        """led, trump, columns, round, and trick_progress .. tree_supply."""
        family = self._family
        led = view["led"]
        if led is not None:
            m[self._o_led + family[led]] = 1.0
        m[self._o_trump + family[view["trump"]]] = 1.0
        o = self._o_columns
        for i, name in enumerate(view["columns"]):
            m[o + i * F + family[name]] = 1.0
        m[self._o_round + min(view["round"], ROUNDS) - 1] = 1.0
        m[self._o_progress] = cap(view["trick_number"], view["tricks_per_round"])
        m[self._o_bonus] = cap(view["harmony_bonus"], CAP_BONUS)
        m[self._o_pledges_left] = cap(view["pledges_left"], CAP_PLEDGES)
        supply = view["tree_supply"]
        if supply is not None:
            m[self._o_supply] = 1.0
            m[self._o_supply + 1] = cap(supply, CAP_SUPPLY)

    def _write_view_seats(self, view: EternityView, m: Any, seat: int, n: int) -> None:
        """seats, terminal and winners."""
        o = self._o_seats
        k = _K
        leader = view["leader"]
        current = view["current_player"]
        last = view["last_trick"]
        last_winner = None if last is None else last["winner"]
        hand_sizes = view["hand_sizes"]
        tricks = view["tricks"]
        trees = view["trees"]
        scores = view["scores"]
        for s in range(n):
            b = o + ((s - seat) % n) * k
            m[b] = 1.0
            if s == leader:
                m[b + _LEADER] = 1.0
            if s == current:
                m[b + _CURRENT] = 1.0
            m[b + _HAND_SIZE] = cap(hand_sizes[s], CAP_HAND)
            m[b + _TRICKS_WON] = cap(tricks[s], CAP_TRICKS)
            m[b + _TREES_HELD] = cap(trees[s], CAP_TREES)
            m[b + _SCORED] = cap(scores[s], CAP_SCORE)
            if s == last_winner:
                m[b + _WON_LAST] = 1.0
        if view["is_terminal"]:
            m[self._o_terminal] = 1.0
        o = self._o_winners
        for s in view["winners"]:
            m[o + (s - seat) % n] = 1.0

    def write_state(self, st: EternityState, seat: int, m: vec[i32]) -> None:
        """`write(st.view(seat), m)` from the engine's fields. What it reads of hidden state:
        `seat`'s own hand, and every hand's size -- exactly what the view shows. (The hot
        path: two calls, for this round's history and the seats, and the rest inline.)"""
        lo, hi = _LO, _HI
        k = _HALF_MASK
        hands = st._hands
        b = seat * F
        for f in range(F):  # own hand
            chunk = hands[b + f]
            for c in lo[f][chunk & k]:
                m[c] = _ONE
            for c in hi[f][chunk >> _HALF]:
                m[c] = _ONE
        o = self._o_board
        mask = st._board_mask
        for f in range(F):
            chunk = mask >> (f * _PER_FAMILY) & _CHUNK
            for c in lo[f][chunk & k]:
                m[o + c] = _ONE
            for c in hi[f][chunk >> _HALF]:
                m[o + c] = _ONE
        o = self._o_display
        mask = st._display
        if mask:
            for f in range(F):
                chunk = mask >> (f * _PER_FAMILY) & _CHUNK
                for c in lo[f][chunk & k]:
                    m[o + c] = _ONE
                for c in hi[f][chunk >> _HALF]:
                    m[o + c] = _ONE
        self._write_history(st, seat, st._n, m)
        led = st._led
        if led >= 0:
            m[self._o_led + led] = _ONE
        m[self._o_trump + st._trump] = _ONE
        o = self._o_columns
        for i, f in enumerate(st._col_order):
            m[o + i * F + f] = _ONE
        rnd = st._round
        m[self._o_round + min(rnd, ROUNDS) - 1] = _ONE
        _put(m, self._o_progress, _PROGRESS[st._hand_size], st._trick_no + 1)
        _put(m, self._o_bonus, _BONUS, st._game_bonus(rnd))
        _put(m, self._o_pledges_left, _PLEDGES, st._pledges_left)
        supply = st._supply_left
        if supply >= 0:
            m[self._o_supply] = _ONE
            _put(m, self._o_supply + 1, _SUPPLY, supply)
        self._write_seats(st, seat, st._n, m)

    def _write_history(self, st: EternityState, seat: int, n: int, m: vec[i32]) -> None:
        """This round's actions (the view's "log") and the unfinished trick ("trick",
        "pledges"), with the seat of each: trick k is history[k*n:(k+1)*n], led by the
        round's leader (a round's first trick) or by the winner of trick k-1."""
        history = st._history
        done = len(history)
        per_round = st._hand_size
        round_leaders = st._round_leaders
        winners = st._trick_winners
        bases = self._played_bases[n]  # bases[j] = round_played offset of slot j % n
        first = st._round_start
        k = first // n
        while first < done:
            leader = round_leaders[k // per_round] if k % per_round == 0 else winners[k - 1]
            rel = (leader - seat) % n
            end = first + n
            if end > done:  # the unfinished trick
                o_trick = self._o_trick - self._o_played
                o_pledge = self._o_pledge - self._o_played
                for i in range(first, done):  # (by index: a slice is a list to allocate)
                    a = history[i]
                    c = bases[rel] + a.card
                    m[c] = _ONE
                    m[c + (o_pledge if a.pledge else o_trick)] = _ONE
                    rel += 1
                break
            for i in range(first, end):
                m[bases[rel] + history[i].card] = _ONE
                rel += 1
            first = end
            k += 1

    def _write_seats(self, st: EternityState, seat: int, n: int, m: vec[i32]) -> None:
        """seats, terminal and winners."""
        seat_base = self._seat_bases[n][seat]  # seat_base[s]: where seat s's features start
        hands = st._hands
        pop = _POP
        tricks = st._tricks
        trees = st._trees
        scores = st._scores
        for s in range(n):
            b = seat_base[s]
            m[b] = _ONE
            # cap() of counts, which are never negative, from tables (0 is already there)
            h = s * F
            hand = pop[hands[h]] + pop[hands[h + 1]] + pop[hands[h + 2]]
            _put(m, b + _HAND_SIZE, _HAND, hand)
            _put(m, b + _TRICKS_WON, _TRICKS, tricks[s])
            _put(m, b + _TREES_HELD, _TREES, trees[s])
            _put(m, b + _SCORED, _SCORE, scores[s])
        if st._trick_leader >= 0:
            m[seat_base[st._trick_leader] + _LEADER] = _ONE
        if st._current >= 0:
            m[seat_base[st._current] + _CURRENT] = _ONE
        winners = st._trick_winners
        if winners:  # the last trick's winner
            m[seat_base[winners[-1]] + _WON_LAST] = _ONE
        if st.is_terminal:
            m[self._o_terminal] = _ONE
        o = self._o_winners
        for s in st._winners:
            m[o + (s - seat) % n] = _ONE


# the float32 bits of cap() of counts (`cap_table`), from the layout
_HAND: Final[tuple[int, ...]] = table(LAYOUT, "seats", "hand_size")
_TRICKS: Final[tuple[int, ...]] = table(LAYOUT, "seats", "tricks")
_TREES: Final[tuple[int, ...]] = table(LAYOUT, "seats", "trees")
_SCORE: Final[tuple[int, ...]] = table(LAYOUT, "seats", "score")
_BONUS: Final[tuple[int, ...]] = table(LAYOUT, "harmony_bonus")
_PLEDGES: Final[tuple[int, ...]] = table(LAYOUT, "pledges_left")
_SUPPLY: Final[tuple[int, ...]] = table(LAYOUT, "tree_supply", "left")
#: _PROGRESS[h]: the trick-progress bits for hands of h cards (cap(min(v, h), h))
_PROGRESS: Final[tuple[tuple[int, ...], ...]] = tuple(
    cap_table(float(h)) if h else (0,) for h in range(C + 1)
)
