"""What a seat may know of a game of Eternity: its view (docs/eternity.md, "The view").

`EternityState.view(seat)` builds it; the heuristic, the encoding and the terminal renderer
read it, typed as the EternityView below through `as_eternity_view`.
"""

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast

# (No `from __future__ import annotations`: TypedDict reads NotRequired at run time only from
# real annotations, and tests/games/eternity/test_views.py checks the keys at run time.)


class EternitySeatedCard(TypedDict):
    """A card of a trick, played or pledged, with the seat that gave it."""

    seat: int
    card: str  # its id ("sea-3")


class EternityLastTrick(TypedDict):
    """The last finished trick (the view's `last_trick`, kept across a round's end)."""

    round: int  # the round it was played in (1-3)
    leader: int
    cards: list[EternitySeatedCard]  # the cards played, in seat order from the leader
    pledges: list[EternitySeatedCard]
    winner: int


class EternityLogEntry(TypedDict, total=False):
    """One of the round's public events: an action (`seat` and `action`, its notation, e.g.
    "pledge sky-11"), or the end of a trick (`trick_won_by` alone)."""

    seat: int
    action: str
    trick_won_by: int


class EternityRoundResult(TypedDict):
    """One seat's result of a finished round (§7)."""

    trees: int
    tricks: int
    points: int


class EternityView(TypedDict):
    """`EternityState.view(seat)`: what `seat` (None: a spectator) may know. Seats are ints,
    cards their ids ("sea-3"), families their names ("earth", "sea", "sky")."""

    game: str  # "eternity"
    seat: int | None
    players: int
    round: int  # 1-3
    rounds: int  # 3
    harmony_bonus: int  # this round's bonus (§7)
    trick_number: int  # the trick being played, 1-based
    tricks_per_round: int
    current_player: int | None  # None once the game is over
    leader: int | None  # who led this trick (None once the game is over)
    columns: list[str]  # the trump board's families, left to right
    board: dict[str, list[str]]  # family -> the cards in its column
    trump: str
    display: list[str]  # the 3-player face-up display (empty otherwise)
    led: str | None  # the led family (None before the trick's first card)
    trick: list[EternitySeatedCard]  # the cards played to the current trick
    pledges: list[EternitySeatedCard]  # the current trick's pledges
    pledges_left: int  # pledges the current trick still allows (§5.4)
    hand: list[str] | None  # the seat's own cards (None for a spectator)
    hand_sizes: list[int]
    tricks: list[int]  # per seat, this round
    trees: list[int]  # per seat, this round
    tree_supply: int | None  # tree tokens left this round (None: unlimited)
    scores: list[int]
    round_results: list[list[EternityRoundResult]]  # per finished round, per seat
    last_trick: EternityLastTrick | None
    log: list[EternityLogEntry]  # this round's public events
    is_terminal: bool
    winners: list[int]
    legal_actions: NotRequired[list[str]]  # only in the view of the seat to move


def as_eternity_view(view: Mapping[str, object]) -> EternityView:
    """A view of this game typed as the EternityView it is: the contract hands any game's view on
    as a `View` (a read-only Mapping[str, object]). A cast: nothing is checked at run time."""
    return cast(EternityView, view)
