"""The Vale's TypedDicts: a seat's view (`ValeView`, docs/vale.md "The view") and its parts
(`ValePending`, `ValeLogEntry`, `ValeArtifacts`), which views.py builds and re-exports; the card
data as the package's JSON files hold it (`ValeCardsFile`, `ValeArtifactsFile`), which cards.py
reads.

Left interpreted (tests/engines/test_switch.py), as Eternitium's typeddicts.py is: mypyc makes
every TypedDict it compiles total and drops `NotRequired`, and the tests read the keys at run
time (tests/games/vale/test_views_typed.py, tests/core/test_typed_contract.py). At run time
each is a dict; the compiled modules that build and read them (views.py, cards.py, ...) check
no more.
"""

# (No `from __future__ import annotations`: TypedDict reads NotRequired at run time only from
# real annotations.)

from typing import NotRequired, TypedDict


class ValePending(TypedDict):
    """The question the game waits on (the view's `pending`)."""

    chooser: int  # the seat that answers it
    for_seat: int  # the seat whose effect asks (an attack's victim answers for the attacker)
    card: str | None  # the card whose effect asks; None for the stone limit and for a tile
    artifact: NotRequired[str]  # the artifact tile whose effect asks (the Artifacts)
    kind: str  # the question's stable name, the asking step's `kind` (docs/vale.md "Pending")
    options: NotRequired[list[str]]  # the answers, shown to the chooser only


class ValeLogEntry(TypedDict):
    seat: int  # the seat that chose
    action: str  # its notation


class ValeArtifacts(TypedDict):
    """The view's `artifacts` (docs/vale.md "The view"): tiles, shelters and areas bought."""

    glade: list[str]  # the tiles in play
    held: list[str | None]  # per seat: the tile held now
    picked: list[str | None]  # per seat: the tile picked this round (used and given back or not)
    blocked: list[str | None]  # per seat: the tile it may not pick (its last round's)
    picking: int | None  # the seat picking a tile now (hunting phase), else None
    shelter: list[str] | None  # the seat's own shelter (None for a spectator)
    shelter_sizes: list[int]  # per seat
    known_shelters: list[list[str]]  # per seat, the sheltered cards this seat has seen
    bought_areas: list[int]  # per seat
    area_limits: list[int]  # per seat: the round number plus the areas bought


class ValeView(TypedDict):
    """`ValeState.view(seat)`: what `seat` (None: a spectator) may know. Seats are ints,
    cards their ids ("kappa"), stones and families keyed by their ids ("red", "fire")."""

    game: str  # "vale"
    seat: int | None
    players: int
    round: int
    rounds: int  # 10
    end_score: int  # a score that ends the game after the round (§9)
    phase: str  # "hunting", "action", "resolution" or "over"
    first_player: int
    turn: int | None  # whose turn it is (None once the game is over)
    current_player: int | None
    area_limit: int  # the round number (§5.3.1)
    revealed: list[str]  # revealed cards nobody has claimed yet
    claimed: list[list[str]]  # per seat, claimed this round and not yet sold or tamed
    hand: list[str] | None  # the seat's own hand (None for a spectator)
    hand_sizes: list[int]
    known_hands: list[list[str]]  # per seat, the cards of that hand this seat has seen
    areas: list[list[str]]  # per seat, in the order the cards entered
    stones: list[dict[str, int]]  # per seat: colour -> stones held
    stone_values: list[dict[str, int]]  # per seat: colour -> what a stone is worth to it
    stone_limits: list[int]
    cost_reductions: list[dict[str, int]]  # per seat: family -> summoning cost reduction
    scores: list[int]
    deck_count: int
    deck_top: str | None  # a card every seat knows is on top of the deck (Tengu)
    discard: list[str]  # bottom card first
    resolved: list[str]  # active effects already used in this resolution phase
    pending: ValePending | None
    log: list[ValeLogEntry]  # this round's actions so far
    is_terminal: bool
    winners: list[int]
    legal_actions: NotRequired[list[str]]  # only in the view of the seat to move
    artifacts: NotRequired[ValeArtifacts]  # only with the Artifacts expansion


# ---------------------------------------------------------------------------- the card data
# What data/cards.json and data/artifacts.json hold, read once at import by cards.py (a `cast`:
# tests/core/test_typed_contract.py checks both files against these, every key and value).


class ValeStoneData(TypedDict):
    id: str  # "red", "blue", "purple"
    value: int  # what a stone is worth


class ValeFamilyData(TypedDict):
    id: str  # "fire", "water", "earth", "wind", "dragon"
    sell: dict[str, int]  # colour -> stones a card of the family sells for
    names: dict[str, str]  # language -> the family's name


class ValeRulesData(TypedDict):
    rounds: int
    end_score: int  # a score that ends the game after the round (§9)
    stone_limit: int
    picks_per_player: int
    starting_points: list[int]  # per seat in turn order


class ValeCardData(TypedDict):
    """A creature card: its facts, and the text of each effect it has, by timing."""

    id: str  # "lava-giant"
    name: str  # "Lava Giant"
    family: str
    cost: int  # the printed summoning cost
    set: str  # "base", "artifacts"
    instant: NotRequired[str]
    permanent: NotRequired[str]
    resolution: NotRequired[str]  # an active effect


class ValeTileData(TypedDict):
    """An artifact tile (the Artifacts)."""

    id: str  # "book-of-thoth"
    name: str
    set: str
    group: str  # which player counts bring it into play
    timing: str  # "action", "instant" or "permanent"
    text: str


class ValeCardsFile(TypedDict):
    """data/cards.json: the base game."""

    format: str
    game: str
    about: str
    sets: dict[str, str]  # set id -> what it is
    stones: list[ValeStoneData]
    families: list[ValeFamilyData]
    rules: ValeRulesData
    cards: list[ValeCardData]


class ValeArtifactsFile(TypedDict):
    """data/artifacts.json: the Artifacts expansion, its creatures and its tiles."""

    format: str
    game: str
    about: str
    sets: dict[str, str]
    creatures: list[ValeCardData]
    tiles: list[ValeTileData]
