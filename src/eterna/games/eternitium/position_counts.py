"""Eternitium's position counts (docs/eternitium.md, "What a position reader refuses"): the
zones of a position read (position.py) hold no more cards than the game has, and only the zones
its rules have; what is known of a seat's cards fits its piles; a whole position adds up, every
card in exactly one place. Each refusal is a BadPosition naming the field, raised before a guess
or a search builds anything from the counts (unchecked, one count could make them deal millions).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from eterna.core.position import Reader
from eterna.games.eternitium.cards import (
    CARD_INDEX,
    CARD_NAME,
    DROID,
    NKINDS,
    NSHAPES,
    SEEN,
    SHAPE_BITS,
    SHAPES,
    STARTING_SETS,
)
from eterna.games.eternitium.position_write import write_knowledge

if TYPE_CHECKING:
    from eterna.games.eternitium.position import _Read
    from eterna.games.eternitium.state import EternitiumState

MAX_COUNT: Final = 1_000_000  # turns and rounds (option round_limit is at most 100,000)


def check_bottom(rd: _Read, st: EternitiumState) -> None:
    """The cards seen at the bottom of the markets' decks are in them, and written."""
    bottom = list(rd.top["knowledge"]["market_bottom"].items(2))
    for t, deck in enumerate((st._basic_deck, st._adv_deck)):
        if any(c < 0 for c in deck[: bottom[t].number(0, len(deck))]):
            bottom[t].fail("counts cards seen at the bottom of the deck: write them, not '?'")


def check_sizes(rd: _Read, st: EternitiumState) -> None:
    """The zones hold no more cards than the game has, and only the zones this game's rules
    (its players, mission and options) have: what no game can reach is refused here, before
    a guess or a search is built on it (a whole position is then counted card by card)."""
    top, rules = rd.top, st._rules
    action = sum(st._hsize) + sum(st._box) + sum(st._reserve) + (st._in_play >= 0)
    for zone in (*st._decks, *st._discards, st._portal_row, st._portal_deck, st._ai_deck):
        action += len(zone)
    for zone in (st._basic_row, st._basic_deck, st._adv_row, st._adv_deck):
        action += len(zone)
    if action > sum(rd.kinds):
        top["box"].fail(f"the zones hold {action} Action cards; the game has {sum(rd.kinds)}")
    era = sum(map(len, st._eras)) + len(st._era_deck) + len(st._era_display)
    era += len(st._era_discard) + sum(st._era_box)
    if era > sum(rd.shapes_total):
        top["era_box"].fail(f"the zones hold {era} Era cards; the game has {sum(rd.shapes_total)}")
    if rules.portal_deck and any(st._reserve):
        top["portal_reserve"].fail(
            "must be empty: this mission's Portal cards are a deck and a row"
        )
    if not rules.portal_deck and (st._portal_row or st._portal_deck):
        key = "portal_row" if st._portal_row else "portal_deck"
        top[key].fail("must be empty: this game's Portal cards are in the reserve (Setup 3)")
    if not rules.advanced_market and (st._adv_row or st._adv_deck):
        key = "advanced_row" if st._adv_row else "advanced_deck"
        top[key].fail("must be empty: this mission has no Advanced Technology market")
    ai_kinds = {CARD_INDEX[c] for c in rules.ai_deck} if rd.n == 1 else set()
    for key, zone in (("ai_deck", st._ai_deck), ("ai_cards", st._ai_log)):
        for i, c in enumerate(zone[::-1] if key == "ai_deck" else zone):
            if c >= 0 and c not in ai_kinds:
                top[key][i].fail(f"{CARD_NAME[c]} is not an AI card of this game (Solo Mode)")
            if c < 0 and rd.n > 1:
                top[key][i].fail("must be empty: the AI cards are the solo game's")
    if not st.is_terminal and rd.n == 1 and st._turn >= rules.turns:
        top["turn"].fail(f"must be below {rules.turns}: the solo game ends after that many turns")
    limit = rules.limit_rounds
    if not st.is_terminal and rd.n > 1 and limit and st._round >= limit:
        top["round"].fail(f"must be below the option round_limit {limit}: the game ends there")


def _kind_counts(cards: list[int]) -> list[int]:
    out = [0] * NKINDS
    for c in cards:
        if c >= 0:
            out[c] += 1
    return out


def check_knowledge(rd: _Read, st: EternitiumState) -> None:
    """What is known of each seat's cards fits that seat's piles: no more located in a
    discard pile than it holds, no more known than the seat has (in a whole position: card
    by card), the unknown tiers making up the rest. The guess and `determinize` deal cards
    from these counts: unchecked, one count could make them deal millions."""
    k = rd.top["knowledge"]
    for s in range(rd.n):
        _check_known(rd, st, s, st._known[s], st._located[s], k["known"][s], k["located"][s])
        known = st._known[s]
        peek = st._peeks.get((rd.seat, s)) if rd.seat is not None else None
        if peek is not None:  # the thief's own look: its position counts it as known
            known = [max(a, b) for a, b in zip(known, peek[0], strict=True)]
        cards = st._hsize[s] + len(st._decks[s]) + len(st._discards[s])
        tiers = [r.number(0, cards) for r in rd.tiers[s]]
        if sum(tiers) + sum(known) != cards:
            k["unknown_tiers"][s].fail(
                f"with the {sum(known)} known cards must count seat {s}'s {cards} cards, not "
                f"{sum(tiers) + sum(known)}"
            )
        down = [c & SHAPE_BITS for c in st._eras[s] if c >= 0 and not c & SEEN]
        hidden = sum(1 for c in st._eras[s] if c < 0 or not c & SEEN)
        _check_era_known(rd, st._era_known[s], down, hidden, k["era_known"][s])
    _check_era_known(rd, st._deck_known, st._era_deck, len(st._era_deck), k["era_deck_known"])
    for i, ((_thief, victim), (known, located)) in enumerate(st._peeks.items()):
        r = k["peeks"][i]
        _check_known(rd, st, victim, known, located, r["known"], r["located"])


def _check_known(
    rd: _Read,
    st: EternitiumState,
    s: int,
    known: list[int],
    located: list[int],
    known_r: Reader,
    located_r: Reader,
) -> None:
    pile = st._discards[s]
    for kind in range(NKINDS):
        if located[kind] > known[kind]:
            located_r[CARD_NAME[kind]].fail(
                f"must be at most {known[kind]}: a card located in the discard pile is known"
            )
    if sum(located) > len(pile):
        located_r.fail(f"locates {sum(located)} cards in a discard pile of {len(pile)}")
    cards = st._hsize[s] + len(st._decks[s]) + len(pile)
    if sum(known) > cards:
        known_r.fail(f"knows {sum(known)} cards of seat {s}, who has {cards}")
    if rd.part:
        return  # the rest is checked as the guess deals the seat's cards
    in_pile = _kind_counts(pile)
    held = _kind_counts(st._decks[s] + pile)
    for kind in range(NKINDS):
        name = CARD_NAME[kind]
        if located[kind] > in_pile[kind]:
            located_r[name].fail(f"must be at most {in_pile[kind]}: the {name} in that pile")
        if known[kind] > held[kind] + st._hands[s][kind]:
            known_r[name].fail(f"must be at most {held[kind] + st._hands[s][kind]}: seat {s}'s")


def _check_era_known(rd: _Read, known: list[int], cards: list[int], hidden: int, r: Reader) -> None:
    """Era shapes known to lie among face-down cards: no more than those cards (a whole
    position: shape by shape)."""
    if sum(known) > hidden:
        r.fail(f"knows {sum(known)} face-down Era cards where there are {hidden}")
    if not rd.part:
        for x in range(NSHAPES):
            have = sum(1 for c in cards if c == x)
            if known[x] > have:
                r[SHAPES[x]].fail(f"must be at most {have}: the face-down {SHAPES[x]} cards there")


def check_census(rd: _Read, st: EternitiumState, comp: list[int]) -> None:
    """A whole position adds up: every card of the game in exactly one place."""
    from eterna.games.eternitium.views import census

    total = list(comp)
    total[DROID] += STARTING_SETS
    counted = census(st)
    for k in range(NKINDS):
        if counted[CARD_NAME[k]] != total[k]:
            rd.top["box"].fail(
                f"the cards do not add up: {counted[CARD_NAME[k]]} {CARD_NAME[k]} in the "
                f"position, {total[k]} in the game (a card in two places, or missing)"
            )
    for s in range(NSHAPES):
        name = f"era-{SHAPES[s]}"
        if counted[name] != total[NKINDS + s]:
            rd.top["era_box"].fail(
                f"the Era cards do not add up: {counted[name]} {SHAPES[s]} in the position, "
                f"{total[NKINDS + s]} in the game"
            )
    tiers = write_knowledge(st, None)["unknown_tiers"]
    for s, row in enumerate(rd.tiers):
        if [r.number(0, MAX_COUNT) for r in row] != tiers[s]:
            rd.top["knowledge"]["unknown_tiers"][s].fail(
                f"must be {tiers[s]}: the seat's cards less those known to all, per tier"
            )
