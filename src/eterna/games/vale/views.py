"""What a seat may know of a game of the Vale: its view (docs/vale.md, "The view").

Everything public, the seat's own hand, and of the other hands only the cards every seat has
seen enter them (tamed, taken from the discard pile, recovered from an area); cards drawn stay
secret. A pending choice's options are shown to its chooser only (they may show that hand).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from eterna.core.game import View
from eterna.games.vale.board import PHASES, RESOLUTION
from eterna.games.vale.cards import CARD_NAME, COLOURS, DECK_SIZE, FAMILIES, ROUNDS

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState


def view_of(st: ValeState, seat: int | None) -> View:
    """`st.view(seat)`: what `seat` (None: a spectator) may know, JSON-ready."""
    n = st.players
    names = CARD_NAME
    secret = st.secret
    hands = st.hands
    counts, values, cuts = st.stone_counts, st.stone_values, st.cost_cuts
    view: View = {
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
    return view


def _pending(st: ValeState, seat: int | None) -> dict[str, Any] | None:
    """The question the game waits on, if any: who answers it, for whom, about which card."""
    choice = st.choice
    if choice is None:
        return None
    chooser, step, who, src, _arg, options = choice
    pending: dict[str, Any] = {
        "chooser": chooser,
        "for_seat": who,
        "card": None if src < 0 else CARD_NAME[src],
        "kind": "stone-limit" if src < 0 else type(step).__name__,
    }
    # options may show the chooser's hand: only the chooser sees them
    if seat == chooser:
        pending["options"] = [str(o) for o in options]
    return pending
