"""What an Eternitium seat observes, declared once: the layout and the facts.

`LAYOUT` declares the observation's blocks (docs/encodings.md's tables follow from it), `Seen`
the facts a seat sees, in the engine's numbers, and two functions give them, one line a fact:
`seen_in_view` from a view (the reference path), `seen_in_state` from the engine's fields (the
source of the generated fast path). The writer that turns a `Seen` into floats, and the fast
path `make observers` generates from it and `seen_in_state`, are the encoding's (encoding.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from eterna.core.layout import Block, Layout, Slot
from eterna.games.eternitium import cards
from eterna.games.eternitium.board import PH_CYCLE, PH_ERA, PH_GIFT, PH_STEAL, PHASE_NAME
from eterna.games.eternitium.state import EternitiumState
from eterna.games.eternitium.views import EternitiumView

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
#: what `seen_in_view` reads back from a view's Era pile: a shape face up as the engine's code
#: (VISIBLE | shape), a hidden card as a face-down code (0)
_ERA_CODE: Final[dict[str, int]] = {
    **{name: cards.VISIBLE | i for i, name in enumerate(cards.SHAPES)},
    cards.HIDDEN_NAME: 0,
}
_PHASE_NUMBER: Final[dict[str, int]] = {name: i for i, name in enumerate(PHASES)}
_MODES: Final = ("any", "discard", "destroy")  # the Data Analyser's modes, the engine's order
NO_CARDS: Final[list[int]] = []  # (never written to)


class Seen:
    """The facts an Eternitium seat sees, in the engine's numbers, which the encoding's `_write`
    alone reads: one line each in `seen_in_view` and in `seen_in_state` (core/fastwriter.py)."""

    seat: int  # the observer (0 for a spectator, who holds no cards)
    n: int
    hand: list[int]  # copies of each card kind (empty: a spectator)
    discard: list[int]  # card kinds, one a card: the own pile (empty: a spectator)
    victim_discard: list[int]  # the pile a thief looks through (the thief only)
    basic_row: list[int]
    advanced_row: list[int]
    portal_row: list[int]
    ai_cards: list[int]
    in_play: int  # a card kind (-1: none)
    # each seat's Era pile, its top last, as the engine's codes: a face-up card VISIBLE | its
    # shape; a face-down one shows no shape (its code without VISIBLE)
    eras: list[list[int]]
    first: int  # seats (-1: none)
    current: int
    active: int
    hand_sizes: list[int]  # per seat
    deck_size: Callable[[int], int]  # of a seat
    discard_size: Callable[[int], int]
    score: Callable[[int], int]
    starting_set: Callable[[int], int]
    victim: int
    gifts: list[int]  # the seats a Laboratory gift is still to come to
    reserve: list[int]  # Portal reserve per shape
    era_discard: list[int]  # shapes, one a card
    era_display: list[int]
    portal_deck: int  # deck sizes
    basic_deck: int
    advanced_deck: int
    era_deck: int
    ai_deck: int
    phase: int  # the engine's phase number (PHASES)
    mission: int
    round: int  # from 1
    turns_left: int  # solo (0 otherwise)
    last_turn: bool
    played: bool
    skipped: bool
    failed_luck: bool
    smartphones: int
    wallet: bool
    cycle_mode: int  # the Data Analyser's mode (_MODES; 0 outside its phase)
    chosen: int  # the cards it chose (0 outside its phase)
    era_to_take: int  # Era cards to take (0 outside that phase)
    is_terminal: bool
    winners: list[int]


def seen_in_view(v: EternitiumView, s: Seen) -> None:
    """What the view shows (the reference path)."""
    card = cards.CARD_INDEX
    shape = cards.SHAPE_INDEX
    pending = v["pending"]
    turn = v["turn_state"]
    s.seat = v["seat"] or 0
    s.n = v["players"]
    s.hand = _per_kind(v["hand"] or ())
    s.discard = [card[name] for name in v["discard"] or ()]
    s.victim_discard = [card[name] for name in pending.get("victim_discard", ())]
    s.basic_row = [card[name] for name in v["basic_row"]]
    s.advanced_row = [card[name] for name in v["advanced_row"]]
    s.portal_row = [card[name] for name in v["portal_row"]]
    s.ai_cards = [card[name] for name in v["ai_cards"]]
    s.in_play = -1 if v["in_play"] is None else card[v["in_play"]]
    s.eras = [[_ERA_CODE[face] for face in reversed(row)] for row in v["era"]]
    s.first = v["first_player"]
    s.current = _int_or_none(v["current_player"])
    s.active = _int_or_none(v["active_player"])
    s.hand_sizes = v["hand_sizes"]
    s.deck_size = v["deck_sizes"].__getitem__
    s.discard_size = v["discard_sizes"].__getitem__
    s.score = v["scores"].__getitem__
    s.starting_set = v["starting_sets"].__getitem__
    s.victim = _int_or_none(pending.get("victim"))
    s.gifts = pending.get("gifts_to_come", [])
    s.reserve = [v["portal_reserve"][name] for name in cards.SHAPES]
    s.era_discard = [shape[name] for name, k in v["era_discard"].items() for _ in range(k)]
    s.era_display = [shape[name] for name in v["era_display"]]
    s.portal_deck = v["portal_deck_size"]
    s.basic_deck = v["basic_deck_size"]
    s.advanced_deck = v["advanced_deck_size"]
    s.era_deck = v["era_deck_size"]
    s.ai_deck = v["ai_deck_size"]
    s.phase = _PHASE_NUMBER[v["phase"]]
    s.mission = v["mission"]
    s.round = v["round"]
    s.turns_left = v["turns_left"] or 0
    s.last_turn = v["last_turn"]
    s.played = turn["played"]
    s.skipped = turn["skipped"]
    s.failed_luck = turn["failed_luck"]
    s.smartphones = turn["smartphones"]
    s.wallet = turn["wallet"]
    s.cycle_mode = _MODES.index(pending.get("mode", "any"))
    s.chosen = pending.get("chosen", 0)
    s.era_to_take = pending.get("era_to_take", 0)
    s.is_terminal = v["is_terminal"]
    s.winners = v["winners"]


def seen_in_state(st: EternitiumState, seat: int, s: Seen) -> None:
    """What `st.view(seat)` shows, read from the engine's fields: the source of the generated
    fast path (`make observers`), each right side inlined where the writer reads its fact. Of
    hidden state it reads `seat`'s own hand and discard pile, the pile a thief is looking
    through (the thief only), every zone's size, the face (up or not) of each Era card, and
    the scores, which count every card a seat owns: what the view shows."""
    phase = st._phase
    n = st._n
    first = st._first
    decks = st._decks
    discards = st._discards
    s.seat = seat
    s.n = n
    s.hand = st._hands[seat]
    s.discard = discards[seat]
    s.victim_discard = (
        discards[st._target] if phase == PH_STEAL and seat == st._active else NO_CARDS
    )
    s.basic_row = st._basic_row
    s.advanced_row = st._adv_row
    s.portal_row = st._portal_row
    s.ai_cards = st._ai_log
    s.in_play = st._in_play
    s.eras = st._eras
    s.first = first
    s.current = st._current
    s.active = -1 if st.is_terminal else st._active
    s.hand_sizes = st._hsize
    s.deck_size = lambda t: len(decks[t])
    s.discard_size = lambda t: len(discards[t])
    s.score = lambda t: st._points_of(t)  # (the view's score)
    s.starting_set = lambda t: (t - first) % n + 1
    s.victim = st._target if phase == PH_STEAL else -1
    s.gifts = st._gifts if phase == PH_GIFT else NO_CARDS
    s.reserve = st._reserve
    s.era_discard = st._era_discard
    s.era_display = st._era_display
    s.portal_deck = len(st._portal_deck)
    s.basic_deck = len(st._basic_deck)
    s.advanced_deck = len(st._adv_deck)
    s.era_deck = len(st._era_deck)
    s.ai_deck = len(st._ai_deck)
    s.phase = phase
    s.mission = st._rules.mission
    s.round = st._round + 1
    s.turns_left = st._rules.turns - st._turn if n == 1 else 0
    s.last_turn = st._last_turn
    s.played = st._played
    s.skipped = st._skipped
    s.failed_luck = st._failed
    s.smartphones = st._limited
    s.wallet = st._wallet
    s.cycle_mode = st._cycle_mode if phase == PH_CYCLE else 0
    s.chosen = st._cycle_count if phase == PH_CYCLE else 0
    s.era_to_take = st._pay_left if phase == PH_ERA else 0
    s.is_terminal = st.is_terminal
    s.winners = st._winners


def _per_kind(names: Iterable[str]) -> list[int]:
    card = cards.CARD_INDEX
    counts = [0] * K
    for name in names:
        counts[card[name]] += 1
    return counts


def _int_or_none(x: int | None) -> int:
    return -1 if x is None else x
