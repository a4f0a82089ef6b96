"""Eternitium's TypedDicts: a seat's view (`EternitiumView`, docs/eternitium.md "The view"),
a parsed setup (`EternitiumSetup`, "Setup format") and the card data as data/cards.json holds
it (`EternitiumCardsFile`, read by cards.py).

Left interpreted (tests/engines/test_switch.py), as Eternity's views.py is: mypyc makes every
TypedDict it compiles total and drops `NotRequired`, and the tests read the keys at run time
(tests/games/eternitium/test_views_typed.py, test_setup.py, tests/core/test_typed_contract.py).
At run time each is a dict; the compiled modules that build and read them (views.py, setup.py,
deal.py, cards.py, ...) check no more.
"""

# (No `from __future__ import annotations`: TypedDict reads NotRequired at run time only from
# real annotations.)

from typing import NotRequired, Required, TypedDict


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


# ---------------------------------------------------------------------------- the card data
# What data/cards.json holds, read once at import by cards.py (a `cast`: tests/core/
# test_typed_contract.py checks the file against these, every key and value).


class EternitiumPrimitive(TypedDict, total=False):
    """One primitive of a technology's effect (docs/eternitium.md "Effects"): `op` names it, the
    other keys are its fields (effects.py `compile_primitive`)."""

    op: Required[str]  # "discard_era", "reveal", "draw", "gain_tech", ...
    who: str  # "self" (the default) or "others"
    portals: str | list[str]  # discard_era: the shapes it matches, or "any"
    count: int
    depth: int
    era: int  # discount: the Era cards it saves
    compensation: bool
    tiers: list[str]  # gain_tech: "basic", "advanced"


class EternitiumTechnology(TypedDict):
    """A Basic or Advanced Technology card (the Portal cards are built, not listed)."""

    id: str
    name: str  # the printed name (the six Double Portals share one)
    tier: str  # "basic" or "advanced"
    copies: int  # in the market deck (option composition overrides it)
    confirmed: bool  # False: a default count no source states
    effect: list[EternitiumPrimitive]
    text: NotRequired[str]
    starting: NotRequired[int]  # copies in each starting set (the Droid)
    solo_ai: NotRequired[bool]  # a card of the solo AI's deck
    ai_effect: NotRequired[list[EternitiumPrimitive]]  # what it does played by the solo AI
    per_turn: NotRequired[int]  # at most this many played per turn (Smartphone)
    void_if_visible: NotRequired[int]  # does nothing when this many top Era cards are visible


class EternitiumMission(TypedDict, total=False):
    """A solo Special Mission: its title, and each rule flag it changes (rules.py `Rules`)."""

    title: Required[str]
    starting_droid: bool
    starting_portals_per_shape: int
    first_hand: int
    reserve_per_shape: int
    era_dealt: int
    portal_deck: bool
    advanced_market: bool
    ai_deck: list[str]
    removed: list[str]
    turns: int
    flip_era_each_turn: bool
    destroy_each_turn: bool
    add_era_each_turn: bool
    paid_era_face_down: bool
    must_play: bool


class EternitiumEraData(TypedDict):
    per_shape: dict[str, int]  # shape -> Era cards
    per_shape_confirmed: bool
    dealt: dict[str, int]  # player count -> Era cards dealt to each
    display: int


class EternitiumPortalData(TypedDict):
    per_shape: int
    reserve_per_player: int


class EternitiumSoloData(TypedDict):
    turns: int
    ai_deck: list[str]


class EternitiumCardsFile(TypedDict):
    """data/cards.json."""

    format: str
    game: str
    about: str
    shapes: list[str]
    era: EternitiumEraData
    portals: EternitiumPortalData
    starting_set: list[str]
    starting_sets: int
    market_row: int
    first_hand: int
    hand_refill: int
    hand_refill_after_failed_luck: int
    hand_after_skip: int
    keep_after_skip: int
    min_action_cards: int
    technologies: list[EternitiumTechnology]
    solo: EternitiumSoloData
    missions: dict[str, EternitiumMission]  # "1".."10"
