"""What a seat may know (`view`) and a full state consistent with it (`determinize`).

Hidden from a seat: other seats' hands, decks and discard piles (rules: step 3, a discard pile
is consulted only by its owner, or by a Thieving Robot once played), every deck order, the
hidden Era cards (including one's own), the AI deck and the generator.

The view is typed: `EternitiumView` (docs/eternitium.md, "The view"), of which the heuristic
reads the `EternitiumPolicyView` part; a reader handed the contract's plain `View` narrows it
with `as_eternitium_view` (or `as_eternitium_policy_view`), so mypy checks every key it reads.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Final, cast

from eterna.games.eternitium.board import (
    PH_CYCLE,
    PH_ERA,
    PH_GIFT,
    PH_STEAL,
    PHASE_NAME,
    EternitiumBoard,
)
from eterna.games.eternitium.cards import (
    CARD_NAME,
    ERA_CODES,
    HIDDEN_NAME,
    NKINDS,
    NSHAPES,
    PORTALS,
    SEEN,
    SHAPE_BITS,
    SHAPES,
    TIER,
    VISIBLE,
    era_shape,
)
from eterna.games.eternitium.typeddicts import EternitiumPending as EternitiumPending
from eterna.games.eternitium.typeddicts import EternitiumPolicyView as EternitiumPolicyView
from eterna.games.eternitium.typeddicts import EternitiumTurnState as EternitiumTurnState
from eterna.games.eternitium.typeddicts import EternitiumView as EternitiumView

if TYPE_CHECKING:
    from eterna.games.eternitium.state import EternitiumState


def as_eternitium_view(view: Mapping[str, object]) -> EternitiumView:
    """A view of this game typed as the EternitiumView it is: the contract hands any game's
    view on as a `View` (a read-only Mapping[str, object]). A cast: nothing is checked at run
    time (the compiled build checks it is a dict)."""
    return cast(EternitiumView, view)


def as_eternitium_policy_view(view: Mapping[str, object]) -> EternitiumPolicyView:
    """A view of this game, or the `policy_view` part of one, typed as what the heuristic
    reads. A cast, as `as_eternitium_view` is."""
    return cast(EternitiumPolicyView, view)


# What a seat sees of an Era card on a pile, indexed by its code (cards.py): its shape face up;
# a face-down card shows hidden, even one whose identity was seen (ERA_KNOWN).
_ERA_SEEN: Final = tuple(
    SHAPES[era_shape(c)] if c & VISIBLE else HIDDEN_NAME for c in range(ERA_CODES)
)


def _era_row(pile: list[int]) -> list[str]:
    return [_ERA_SEEN[c] for c in reversed(pile)]


def _names(cards: list[int]) -> list[str]:
    return [CARD_NAME[k] for k in cards]


def _pending(st: EternitiumState, seat: int | None) -> EternitiumPending:
    """What the decision the game waits on has gathered so far."""
    pending: EternitiumPending = {}
    if st._phase == PH_STEAL:
        pending["victim"] = st._target
        if seat == st._active:  # R2: the thief now looks through the victim's pile
            pending["victim_discard"] = _names(st._discards[st._target])
    elif st._phase == PH_GIFT:
        pending["gifts_to_come"] = list(st._gifts)
    elif st._phase == PH_CYCLE:
        pending["mode"] = ("any", "discard", "destroy")[st._cycle_mode]
        pending["chosen"] = st._cycle_count
    elif st._phase == PH_ERA:
        pending["era_to_take"] = st._pay_left
    return pending


def build_view(st: EternitiumState, seat: int | None) -> EternitiumView:
    n = st._n
    current = st.current_player
    era_discard = {s: 0 for s in SHAPES}
    for c in st._era_discard:
        era_discard[SHAPES[c]] += 1
    pending = _pending(st, seat)
    points = [st._points(s) for s in range(n)]  # technology points, Advanced count
    view: EternitiumView = {
        "game": "eternitium",
        "seat": seat,
        "players": n,
        "mission": st._rules.mission,
        "first_player": st._first,
        "starting_sets": [(s - st._first) % n + 1 for s in range(n)],
        "turn": st._turn,
        "round": st._round + 1,
        "current_player": current,
        "active_player": None if st.is_terminal else st._active,
        "phase": PHASE_NAME[st._phase],
        "hand": None if seat is None else st.hand(seat),
        "hand_sizes": list(st._hsize),
        "deck_sizes": [len(d) for d in st._decks],
        "discard": None if seat is None else _names(st._discards[seat]),
        "discard_sizes": [len(d) for d in st._discards],
        "era": [_era_row(pile) for pile in st._eras],
        "era_counts": [len(pile) for pile in st._eras],
        "gem": [s for s in range(n) if not st._eras[s]],
        "portal_reserve": {SHAPES[s]: st._reserve[s] for s in range(len(SHAPES))},
        "portal_row": _names(st._portal_row),
        "portal_deck_size": len(st._portal_deck),
        "basic_row": _names(st._basic_row),
        "basic_deck_size": len(st._basic_deck),
        "advanced_row": _names(st._adv_row),
        "advanced_deck_size": len(st._adv_deck),
        "era_display": [SHAPES[c] for c in st._era_display],
        "era_deck_size": len(st._era_deck),
        "era_discard": era_discard,
        "ai_deck_size": len(st._ai_deck),
        "ai_cards": _names(st._ai_log),
        "turns_left": max(st._rules.turns - st._turn, 0) if n == 1 else None,
        "last_turn": st._last_turn,
        "turn_state": {
            "played": st._played,
            "skipped": st._skipped,
            "failed_luck": st._failed,
            "smartphones": st._limited,
            "wallet": st._wallet,
        },
        "in_play": None if st._in_play < 0 else CARD_NAME[st._in_play],
        "pending": pending,
        "scores": [p[0] for p in points],
        "advanced_counts": [p[1] for p in points],  # the second tie-break
        "is_terminal": st.is_terminal,
        "winners": list(st._winners),
    }
    if seat is not None and seat == current:
        view["legal_actions"] = [str(a) for a in st.legal_actions()]
    return view


# The keys of the view that the game's heuristic reads (`policy_view`).
POLICY_KEYS: Final = (
    "seat",
    "players",
    "turn",
    "phase",
    "hand",
    "era",
    "era_counts",
    "discard_sizes",
    "advanced_row",
)


def policy_view(st: EternitiumState, seat: int) -> EternitiumPolicyView:
    """The part of `build_view(st, seat)` that the heuristic reads (`POLICY_KEYS`), built the
    same way, without the rest (scores, markets, counts): about a sixth of the cost. The
    heuristic decides from it in search rollouts (`EternitiumHeuristic.act_state`);
    tests/eternitium require it to equal the full view on those keys."""
    return {
        "seat": seat,
        "players": st._n,
        "turn": st._turn,
        "phase": PHASE_NAME[st._phase],
        "hand": st.hand(seat),
        "era": [_era_row(pile) for pile in st._eras],
        "era_counts": [len(pile) for pile in st._eras],
        "discard_sizes": [len(d) for d in st._discards],
        "advanced_row": _names(st._adv_row),
    }


def _counts(cards: list[int], size: int) -> list[int]:
    out = [0] * size
    for c in cards:
        out[c] += 1
    return out


def _spread(counts: list[int]) -> list[int]:
    """A multiset of counts as a sorted list (canonical: it depends on the counts only)."""
    return [k for k, c in enumerate(counts) for _ in range(c)]


def determinize(st: EternitiumState, seat: int, rng: random.Random) -> EternitiumState:
    """A full state `seat` cannot tell from `st`: every card it cannot locate is resampled.

    What stays is what the seat knows: every public card and count; its own hand, discard pile
    and the cards of its deck (their order is shuffled); of each other seat, the Action cards
    whose identity is public (starting sets, Portals, technologies taken from a face-up market,
    cards seen played, discarded, stolen or destroyed) and those publicly known to lie in its
    discard pile (played since its last reshuffle; all of it for a thief who looked); the face-
    down Era cards whose identity was seen (a missed try, a Time Bomb, missions 5 and 8); the
    cards seen put at the bottom of a technology deck (R14); the common Era deck's content after
    it was rebuilt from the discard pile. Everything else is drawn again, by tier, from the
    cards the seat cannot locate: the other seats' unknown cards (taken blind) with the unseen
    part of the technology decks; every unknown face-down Era card with the unknown part of the
    common Era deck; every deck order; the generator. The result depends only on what the seat
    knows and on `rng` (the pools are built in a canonical order), so determinizing the true
    state and a determinized one with the same `rng` give the same state.
    """
    new = st.clone()
    new._determinized = True
    new._legal_cache = None
    new._rng = rng.getrandbits(64)
    # the seed, the setup and the history would tell hidden cards: a guess has no record
    new._start = replace(st._start, seed=0, setup=None, fixed={})
    new._history = []
    new._peeks = {key: v for key, v in new._peeks.items() if key[0] == seat}
    shuffle = rng.shuffle

    # The seat's own deck: its cards are known, not their order.
    new._decks[seat] = _reordered(new._decks[seat], shuffle)
    _resample_action_cards(st, new, seat, shuffle)
    _resample_era_cards(st, new, shuffle)
    # Solo decks: contents known, order not.
    new._portal_deck = _reordered(new._portal_deck, shuffle)
    new._ai_deck = _reordered(new._ai_deck, shuffle)
    return new


Shuffle = Callable[[list[int]], None]


def _reordered(deck: list[int], shuffle: Shuffle) -> list[int]:
    """The same cards in an order drawn again (from a canonical one)."""
    out = sorted(deck)
    shuffle(out)
    return out


def _resample_action_cards(
    st: EternitiumState, new: EternitiumState, seat: int, shuffle: Shuffle
) -> None:
    """Action cards: one pool per tier of the cards the seat cannot locate, dealt again."""
    n = st._n
    pools: list[list[int]] = [[], [], []]
    tech_decks = (new._basic_deck, new._adv_deck)
    for t, deck in enumerate(tech_decks):
        pools[t + 1] += deck[new._bottom[t] :]
    plans: list[tuple[int, list[int], list[int], list[int]]] = []
    for s in range(n):
        if s == seat:
            continue
        known, located = new._known[s], new._located[s]
        peek = new._peeks.get((seat, s))
        if peek is not None:
            known = [max(a, b) for a, b in zip(known, peek[0], strict=True)]
            located = [max(a, b) for a, b in zip(located, peek[1], strict=True)]
        cards = new._hands[s][:]
        for c in new._decks[s] + new._discards[s]:
            cards[c] += 1
        unknown = [0, 0, 0]
        for k in range(NKINDS):
            extra = cards[k] - known[k]
            pools[TIER[k]] += [k] * extra
            unknown[TIER[k]] += extra
        plans.append((s, known, located, unknown))
    for pool in pools:
        pool.sort()
        shuffle(pool)
    for t, deck in enumerate(tech_decks):
        b = new._bottom[t]
        deck[b:] = [pools[t + 1].pop() for _ in range(len(deck) - b)]
    stealing = st._phase == PH_STEAL and seat == st._active
    for s, known, located, unknown in plans:
        cards = _spread(known)
        for t in range(3):
            cards += [pools[t].pop() for _ in range(unknown[t])]
        rest = _counts(cards, NKINDS)
        looking = stealing and s == st._target  # the thief is looking at this pile
        pile = new._discards[s][:] if looking else _spread(located)
        for c in pile:
            rest[c] -= 1
        loose = _spread(rest)
        shuffle(loose)
        size, deck_size = new._hsize[s], len(new._decks[s])
        new._hands[s] = _counts(loose[:size], NKINDS)
        new._decks[s] = loose[size : size + deck_size]
        if not looking:
            pile += loose[size + deck_size :]
            shuffle(pile)
        new._discards[s] = pile


def _resample_era_cards(st: EternitiumState, new: EternitiumState, shuffle: Shuffle) -> None:
    """Era cards: the known face-down ones keep their pile, the rest come from one pool."""
    census = st.census()
    unknown_era = [census[f"era-{shape}"] for shape in SHAPES]
    for pile in new._eras:
        for c in pile:
            if c & SEEN:
                unknown_era[era_shape(c)] -= 1
    for zone in (new._era_display, new._era_discard):
        for c in zone:
            unknown_era[c] -= 1
    for known_era in [*new._era_known, new._deck_known, new._era_box]:
        for x in range(NSHAPES):
            unknown_era[x] -= known_era[x]
    era_pool = _spread(unknown_era)
    shuffle(era_pool)
    for s, pile in enumerate(new._eras):
        slots = [i for i, c in enumerate(pile) if not c & SEEN]
        ids = _spread(new._era_known[s])
        ids += [era_pool.pop() for _ in range(len(slots) - len(ids))]
        shuffle(ids)
        for i, c in zip(slots, ids, strict=True):
            pile[i] = c
    ids = _spread(new._deck_known)
    ids += [era_pool.pop() for _ in range(len(new._era_deck) - len(ids))]
    shuffle(ids)
    new._era_deck = ids


def census(st: EternitiumBoard) -> dict[str, int]:
    """Every Action card and Era card in the game, wherever it is (conservation checks)."""
    counts = list(st._box)
    for s in range(st._n):
        for k, c in enumerate(st._hands[s]):
            counts[k] += c
        for zone in (st._decks[s], st._discards[s]):
            for k in zone:
                counts[k] += 1
    for zone in (
        st._basic_deck,
        st._basic_row,
        st._adv_deck,
        st._adv_row,
        st._portal_deck,
        st._portal_row,
        st._ai_deck,
    ):
        for k in zone:
            counts[k] += 1
    for shape in PORTALS:
        counts[shape] += st._reserve[shape]
    if st._in_play >= 0:
        counts[st._in_play] += 1
    out = {CARD_NAME[k]: counts[k] for k in range(NKINDS)}
    era = st._era_box[:]
    for pile in st._eras:
        for c in pile:
            era[c & SHAPE_BITS] += 1
    for zone in (st._era_deck, st._era_display, st._era_discard):
        for c in zone:
            era[c] += 1
    for s in range(NSHAPES):
        out[f"era-{SHAPES[s]}"] = era[s]
    return out
