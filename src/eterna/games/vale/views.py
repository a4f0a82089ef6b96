"""What a seat may know of a game of the Vale: its view (docs/vale.md, "The view").

Everything public, the seat's own hand, and of the other hands only the cards every seat has
seen enter them (tamed, taken from the discard pile, recovered from an area); cards drawn stay
secret. A pending choice's options are shown to its chooser only (they may show that hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from eterna.games.vale.board import HUNT, PHASES, RESOLUTION
from eterna.games.vale.cards import CARD_NAME, COLOURS, DECK_SIZE, FAMILIES, ROUNDS, TILE_NAME
from eterna.games.vale.typeddicts import ValeArtifacts as ValeArtifacts
from eterna.games.vale.typeddicts import ValeLogEntry as ValeLogEntry
from eterna.games.vale.typeddicts import ValePending as ValePending
from eterna.games.vale.typeddicts import ValeView as ValeView

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState


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
