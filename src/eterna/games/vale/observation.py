"""What a seat of the Vale of Eternity observes (encoding version 1), declared once.

`base_layout` declares the observation's blocks (version 1's `LAYOUT`; version 2 widens it,
encoding_v2.py), `Seen` the facts a seat sees, in the engine's numbers, and two functions give
them, one line a fact: `seen_in_view` from a view (the reference path), `seen_in_state` from
the engine's attributes (the source of the generated fast path). The writer that turns a `Seen`
into floats, and the fast path `make observers` generates from it and `seen_in_state`, are the
encoding's (encoding.py); version 2 extends all three (encoding_v2.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from eterna.core.layout import Block, Layout, Slot
from eterna.games.vale import board as engine
from eterna.games.vale import cards
from eterna.games.vale.state import ValeState
from eterna.games.vale.views import ValeView

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


#: the layout's phase slot by name, and by the engine's phase number (`board.PHASES`)
_PHASE_BY_NAME: Final[dict[str, int]] = {name: i for i, name in enumerate(PHASES)}
PHASE_SLOT: Final[tuple[int, ...]] = tuple(_PHASE_BY_NAME[name] for name in engine.PHASES)
RESOLUTION: Final[int] = engine.RESOLUTION  # (a native constant: `engine.` is a generic lookup)


class Seen:
    """The facts a seat of the Vale sees, in the engine's numbers, which the encoding's `_write`
    alone reads: one line each in `seen_in_view` and in `seen_in_state` (core/fastwriter.py);
    version 2 extends them (encoding_v2.py)."""

    seat: int  # the observer (0 for a spectator, who holds no cards)
    n: int
    hand: list[int]  # card ids (empty: a spectator)
    revealed: list[int]
    claimed: list[list[int]]  # per seat
    # of seat t's hand, the cards the writer looks at (the view lists only the ones this seat
    # knows; the engine every one), and whether this seat knows card c there (the own hand
    # and the cards every seat saw go in; the view's `known_hands`); shelters alike
    hand_cards: Callable[[int], list[int]]
    shown: Callable[[int, int], bool]
    areas: list[list[int]]  # per seat
    discard: list[int]
    resolved: int  # a card mask: the active effects used this resolution phase
    deck_top: int  # a card (-1: none)
    phase: int  # the layout's phase slot (PHASES)
    round: int
    end_score: int
    deck_count: int
    first: int  # seats
    turn: int  # (-1: the game is over)
    current: int | None
    hand_size: Callable[[int], int]  # of a seat
    scores: list[int]
    stones: Callable[[int, int], int]  # of a seat and a colour (COLOURS)
    stone_values: Callable[[int, int], int]
    stone_limits: list[int]
    cost_cuts: Callable[[int, int], int]  # of a seat and a family (FAMILIES)
    pending: bool  # a choice is pending; then:
    chooser: int
    for_seat: int
    pending_card: int  # the card whose effect asks (below 0: none)
    pending_kind: str  # the asking step's `kind`
    is_terminal: bool
    winners: list[int]


def seen_in_view(v: ValeView, s: Seen) -> None:
    """What the view shows (the reference path)."""
    card = cards.CARD_BY_NAME
    known = [[card[name] for name in names] for names in v["known_hands"]]
    stones = v["stones"]
    values = v["stone_values"]
    cuts = v["cost_reductions"]
    pending = v["pending"]
    top = v["deck_top"]
    s.seat = v["seat"] or 0
    s.n = v["players"]
    s.hand = [card[name] for name in v["hand"] or ()]
    s.revealed = [card[name] for name in v["revealed"]]
    s.claimed = [[card[name] for name in names] for names in v["claimed"]]
    s.hand_cards = known.__getitem__
    s.shown = lambda t, c: True  # (the view lists only those)
    s.areas = [[card[name] for name in names] for names in v["areas"]]
    s.discard = [card[name] for name in v["discard"]]
    s.resolved = sum(1 << card[name] for name in v["resolved"])
    s.deck_top = -1 if top is None else card[top]
    s.phase = _PHASE_BY_NAME[v["phase"]]
    s.round = v["round"]
    s.end_score = v["end_score"]
    s.deck_count = v["deck_count"]
    s.first = v["first_player"]
    s.turn = -1 if v["turn"] is None else v["turn"]
    s.current = v["current_player"]
    s.hand_size = v["hand_sizes"].__getitem__
    s.scores = v["scores"]
    s.stones = lambda t, i: stones[t][COLOURS[i]]
    s.stone_values = lambda t, i: values[t][COLOURS[i]]
    s.stone_limits = v["stone_limits"]
    s.cost_cuts = lambda t, i: cuts[t][FAMILIES[i]]
    s.pending = pending is not None
    s.chooser = -1 if pending is None else pending["chooser"]
    s.for_seat = -1 if pending is None else pending["for_seat"]
    s.pending_card = -1 if pending is None or pending["card"] is None else card[pending["card"]]
    s.pending_kind = "" if pending is None else pending["kind"]
    s.is_terminal = v["is_terminal"]
    s.winners = v["winners"]


def seen_in_state(st: ValeState, seat: int, s: Seen) -> None:
    """What `st.view(seat)` shows, read from the engine's attributes (board.py): the source of
    the generated fast path (`make observers`), each right side inlined where the writer reads
    its fact. Of hidden state it reads `seat`'s own hand, every hand's size, and the cards of
    other hands that are not secret (the view's `known_hands`): what the view shows."""
    hands = st.hands
    secret = st.secret
    counts = st.stone_counts
    values = st.stone_values
    cuts = st.cost_cuts
    choice = st.choice
    s.seat = seat
    s.n = st.players
    s.hand = hands[seat]
    s.revealed = st.unclaimed
    s.claimed = st.claims
    s.hand_cards = lambda t: hands[t]
    s.shown = lambda t, c: t == seat or not secret >> c & 1
    s.areas = st.areas
    s.discard = st.discard
    s.resolved = st.activated if st.stage == RESOLUTION else 0
    s.deck_top = st.known_top
    s.phase = PHASE_SLOT[st.stage]
    s.round = st.round
    s.end_score = st.start.end_score
    s.deck_count = len(st.draw_pile)
    s.first = st.first
    s.turn = -1 if st.is_terminal else st.turn
    s.current = st.current_player
    s.hand_size = lambda t: len(hands[t])
    s.scores = st.points
    s.stones = lambda t, i: counts[t * 3 + i]
    s.stone_values = lambda t, i: values[t * 3 + i]
    s.stone_limits = st.stone_limits
    s.cost_cuts = lambda t, i: cuts[t * 5 + i]
    s.pending = choice is not None
    s.chooser = -1 if choice is None else choice.chooser
    s.for_seat = -1 if choice is None else choice.seat
    s.pending_card = -1 if choice is None else choice.src
    s.pending_kind = "" if choice is None else choice.step.kind
    s.is_terminal = st.is_terminal
    s.winners = st._winners  # (the property copies the list)
