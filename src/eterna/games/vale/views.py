"""What a seat may know of a game of the Vale: its view (docs/vale.md, "The view").

Everything public, the seat's own hand, and of the other hands only the cards every seat has
seen enter them (tamed, taken from the discard pile, recovered from an area); cards drawn stay
secret. A pending choice's options are shown to its chooser only (they may show that hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NotRequired, TypedDict, cast

from eterna.games.vale.board import HUNT, PHASES, RESOLUTION
from eterna.games.vale.cards import CARD_NAME, COLOURS, DECK_SIZE, FAMILIES, ROUNDS, TILE_NAME

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState


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


def as_vale_view(view: Mapping[str, object]) -> ValeView:
    """A view of this game typed as the ValeView it is: the contract hands any game's view on
    as a `View` (a read-only Mapping[str, object]). A cast: nothing is checked at run time
    (the compiled build checks it is a dict)."""
    return cast(ValeView, view)


def view_of(st: ValeState, seat: int | None) -> ValeView:
    """`st.view(seat)`: what `seat` (None: a spectator) may know, JSON-ready."""
    n = st.players
    names = CARD_NAME
    secret = st.secret
    hands = st.hands
    counts, values, cuts = st.stone_counts, st.stone_values, st.cost_cuts
    view: ValeView = {
        "game": "vale",
        "seat": seat,
        "players": n,
        "round": st.round,
        "rounds": ROUNDS,
        "end_score": st.start.end_score,
        "phase": PHASES[st.stage],
        "first_player": st.first,
        "turn": None if st.is_terminal else st.turn,
        "current_player": st.current_player,
        "area_limit": st.round,
        "revealed": [names[c] for c in st.unclaimed],
        "claimed": [[names[c] for c in cl] for cl in st.claims],
        "hand": None if seat is None else [names[c] for c in hands[seat]],
        "hand_sizes": [len(h) for h in hands],
        "known_hands": [
            [names[c] for c in h if s == seat or not secret >> c & 1] for s, h in enumerate(hands)
        ],
        "areas": [[names[c] for c in a] for a in st.areas],
        "stones": [{COLOURS[i]: counts[s * 3 + i] for i in range(3)} for s in range(n)],
        "stone_values": [{COLOURS[i]: values[s * 3 + i] for i in range(3)} for s in range(n)],
        "stone_limits": list(st.stone_limits),
        "cost_reductions": [{FAMILIES[f]: cuts[s * 5 + f] for f in range(5)} for s in range(n)],
        "scores": list(st.points),
        "deck_count": len(st.draw_pile),
        "deck_top": None if st.known_top < 0 else names[st.known_top],
        "discard": [names[c] for c in st.discard],
        "resolved": [names[c] for c in range(DECK_SIZE) if st.activated >> c & 1]
        if st.stage == RESOLUTION
        else [],
        "pending": _pending(st, seat),
        "log": st.round_log(),
        "is_terminal": st.is_terminal,
        "winners": st.winners,
    }
    if seat is not None and seat == st.current_player:
        view["legal_actions"] = [str(a) for a in st.legal_actions()]
    if st.arts is not None:
        view["artifacts"] = _artifacts(st, seat)
    return view


def _artifacts(st: ValeState, seat: int | None) -> ValeArtifacts:
    """The Artifacts' part of the view: the shelters' cards are their owner's secret, except
    the ones every seat saw go in (from the display); their sizes are public."""
    arts = st.arts
    assert arts is not None
    names, tiles, secret = CARD_NAME, TILE_NAME, st.secret

    def tile(t: int) -> str | None:
        return None if t < 0 else tiles[t]

    picking = None
    if st.stage == HUNT and arts.pick_i < st.players and st.choice is None:
        picking = st.current_player
    return {
        "glade": [tiles[t] for t in arts.glade],
        "held": [tile(t) for t in arts.held],
        "picked": [tile(t) for t in arts.chosen],
        "blocked": [tile(t) for t in arts.blocked],
        "picking": picking,
        "shelter": None if seat is None else [names[c] for c in arts.shelters[seat]],
        "shelter_sizes": [len(s) for s in arts.shelters],
        "known_shelters": [
            [names[c] for c in h if s == seat or not secret >> c & 1]
            for s, h in enumerate(arts.shelters)
        ],
        "bought_areas": list(arts.bought),
        "area_limits": [st.round + b for b in arts.bought],
    }


def _pending(st: ValeState, seat: int | None) -> ValePending | None:
    """The question the game waits on, if any: who answers it, for whom, about which card."""
    choice = st.choice
    if choice is None:
        return None
    chooser, src = choice.chooser, choice.src
    pending: ValePending = {
        "chooser": chooser,
        "for_seat": choice.seat,
        "card": None if src < 0 else CARD_NAME[src],
        "kind": choice.step.kind,
    }
    if src < -1:
        pending["artifact"] = TILE_NAME[-2 - src]
    # options may show the chooser's hand: only the chooser sees them
    if seat == chooser:
        pending["options"] = [str(o) for o in choice.options]
    return pending
