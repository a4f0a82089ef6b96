"""Eternitium's TypedDicts: a seat's view (`EternitiumView`, docs/eternitium.md "The view")
and a parsed setup (`EternitiumSetup`, "Setup format").

Left interpreted (tests/engines/test_switch.py), as Eternity's views.py is: mypyc makes every
TypedDict it compiles total and drops `NotRequired`, and the tests read the keys at run time
(tests/games/eternitium/test_views_typed.py, test_setup.py). At run time each is a dict; the
compiled modules that build and read them (views.py, setup.py, deal.py, ...) check no more.
"""

# (No `from __future__ import annotations`: TypedDict reads NotRequired at run time only from
# real annotations.)

from typing import NotRequired, TypedDict


class EternitiumPending(TypedDict, total=False):
    """What the decision the game waits on has gathered so far (the view's `pending`): each key
    only in its phase, none outside them."""

    victim: int  # steal: the Thieving Robot's victim
    victim_discard: list[str]  # steal, the thief only: the victim's pile, bottom first (R2)
    gifts_to_come: list[int]  # gift: the seats still to receive a gift, in order
    mode: str  # data-analyser: "any", "discard" or "destroy"
    chosen: int  # data-analyser: the cards chosen so far
    era_to_take: int  # era: the Era cards still to take


class EternitiumTurnState(TypedDict):
    """The view's `turn_state`: what the active seat's turn has done so far."""

    played: bool  # a card was played this turn (no `skip` any more)
    skipped: bool  # the player skipped step 2 (destroy, keep, draw up to 6)
    failed_luck: bool  # a Portal's try on a hidden Era card failed (step 5 draws 4)
    smartphones: int  # cards limited per turn played this turn (Smartphone: 3, R3)
    wallet: bool  # a Digital Wallet makes step 4 cost one Era card fewer (R16)


class EternitiumPolicyView(TypedDict):
    """The keys of the view that the game's heuristic reads (`POLICY_KEYS`, `policy_view`):
    every `EternitiumView` is one."""

    seat: int | None
    players: int
    turn: int  # turns played
    phase: str  # PHASE_NAME: "pick", "destroy", "portal", "play", ... or "over"
    hand: list[str] | None  # the seat's own hand, card ids (None for a spectator)
    era: list[list[str]]  # per seat, top first: a visible card's shape, else "hidden"
    era_counts: list[int]
    discard_sizes: list[int]
    advanced_row: list[str]


class EternitiumView(EternitiumPolicyView):
    """`EternitiumState.view(seat)`: what `seat` (None: a spectator) may know. Seats are ints,
    cards their ids ("portal-circle"), shapes their names ("circle"); docs/eternitium.md."""

    game: str  # "eternitium"
    mission: int  # the Special Mission played (0: none)
    first_player: int
    starting_sets: list[int]  # per seat, the starting set it was dealt (1-based)
    round: int  # 1-based
    current_player: int | None  # the seat that decides now (None once the game is over)
    active_player: int | None  # the seat whose turn it is (None once the game is over)
    hand_sizes: list[int]
    deck_sizes: list[int]
    discard: list[str] | None  # the seat's own pile, bottom first (None for a spectator)
    gem: list[int]  # the seats whose Era pile is empty
    portal_reserve: dict[str, int]  # shape -> Portal cards left in the reserve
    portal_row: list[str]  # mission 4's face-up Portal row
    portal_deck_size: int
    basic_row: list[str]
    basic_deck_size: int
    advanced_deck_size: int
    era_display: list[str]  # shapes
    era_deck_size: int
    era_discard: dict[str, int]  # shape -> discarded Era cards (face up)
    ai_deck_size: int
    ai_cards: list[str]  # the solo AI cards revealed so far
    turns_left: int | None  # solo: turns left (None with several seats)
    last_turn: bool
    turn_state: EternitiumTurnState
    in_play: str | None  # the card being played
    pending: EternitiumPending
    scores: list[int]  # technology points
    advanced_counts: list[int]  # Advanced cards owned: the second tie-break
    is_terminal: bool
    winners: list[int]
    legal_actions: NotRequired[list[str]]  # only in the view of the seat to move


class EternitiumSetup(TypedDict, total=False):
    """A setup checked and turned into ints (`parse_setup`): each key only when the setup gives
    it (`era_visible` whenever there is a setup). Cards are kinds (cards.py), Era cards shape
    indices (with `VISIBLE` on a face-up pile card), in the setup's order."""

    first_player: int
    hands: list[list[int]]  # per seat
    decks: list[list[int]]  # per seat, top first
    discards: list[list[int]]  # per seat, bottom first
    blind: list[list[int]]  # per seat: the cards among its own that it took blind
    era: list[list[int]]  # per seat, top first
    era_visible: list[int]  # per seat: the top cards the deal turns face up
    era_deck: list[int]  # top first
    era_display: list[int]
    era_discard: list[int]
    basic_row: list[int]
    basic_deck: list[int]  # top first
    advanced_row: list[int]
    advanced_deck: list[int]  # top first
    portals: dict[int, int]  # shape -> the Portal reserve's count
    portal_deck: list[int]  # top first
    ai_deck: list[int]  # top first
    exact: list[str]  # the decks given whole (EXACT_KEYS)
