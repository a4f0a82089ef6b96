"""Dealing a new game of Eternitium (rules: Setup 1-7, Solo Mode, Solo Mode Special Missions):
the first part of the state's constructor, drawing from the game's generator in the rulebook's
order, with what a `setup` fixes (docs/eternitium.md, 'Setup format') left as given."""

from __future__ import annotations

from typing import Final

from eterna.core.errors import BadSetup
from eterna.games.eternitium.board import EternitiumBoard
from eterna.games.eternitium.cards import (
    ADVANCED,
    BASIC,
    CARD_INDEX,
    CARD_NAME,
    DROID,
    NKINDS,
    NSHAPES,
    PORTALS,
    SHAPES,
    SOLO_AI_KINDS,
    STARTING_SETS,
    VISIBLE,
    era_shape,
)
from eterna.games.eternitium.position_checks import market_breaks, market_rule
from eterna.games.eternitium.setup import MarketKey
from eterna.games.eternitium.story import tell_deal, tell_era_dealt

# Each market: Basic or not, its kinds, the setup's keys for its row and its deck's top.
_MARKETS: Final[tuple[tuple[bool, tuple[int, ...], MarketKey, MarketKey], ...]] = (
    (True, BASIC, "basic_row", "basic_deck"),
    (False, ADVANCED, "advanced_row", "advanced_deck"),
)


class EternitiumDeal(EternitiumBoard):
    """The deal (rules: Setup 1-7; Solo Mode; a mission's own setup), as the constructor's first
    part; the Game Preparation pick that follows is the turn flow's (state.py)."""

    __slots__ = ()

    def _deal(self) -> None:
        """Every zone dealt, drawing from the generator in the rulebook's setup order."""
        start = self._start
        comp, fixed = start.composition, start.fixed
        n = self._n
        pool = list(comp[:NKINDS])  # what is left to deal, per card kind
        pool[DROID] += STARTING_SETS  # the numbered starting Droids are among the 29 Basic cards
        box = [0] * NKINDS
        self._first = fixed.get("first_player", self._rand(n) if n > 1 else 0)
        self._deal_starting_cards(pool)
        if self._events is not None:
            tell_deal(self)
        self._deal_portals(pool, box)
        self._deal_ai_deck(pool, box)
        self._deal_markets(pool, box)
        self._box = box
        self._deal_era(list(comp[NKINDS:]))

    def _deal_starting_cards(self, pool: list[int]) -> None:
        """Setup 2: the starting cards (unused numbered sets go back to the box); what of them
        is public knowledge (a setup's cards too, but those it calls blind)."""
        fixed, rules, n = self._start.fixed, self._start.rules, self._n
        self._hands = [[0] * NKINDS for _ in range(n)]
        self._decks = []
        self._discards = []
        if "hands" in fixed:
            for s in range(n):
                for c in _take(pool, fixed["hands"][s], f"hands[{s}]"):
                    self._hands[s][c] += 1
                deck = _take(pool, fixed.get("decks", [[]] * n)[s], f"decks[{s}]")
                self._decks.append(deck[::-1])
                pile = _take(pool, fixed.get("discards", [[]] * n)[s], f"discards[{s}]")
                self._discards.append(pile[:])  # a copy: the start is shared by its replays
        else:
            starting = [s for s in PORTALS for _ in range(rules.starting_portals_per_shape)]
            if rules.starting_droid:
                starting.append(DROID)
            for _seat in range(n):
                deck = _take(pool, starting[:], "starting cards")
                self._shuffle(deck)
                self._decks.append(deck)
                self._discards.append([])
        self._known = [self._hands[s][:] for s in range(n)]
        self._located = [[0] * NKINDS for _ in range(n)]
        for s in range(n):
            for c in self._decks[s] + self._discards[s]:
                self._known[s][c] += 1
            for c in fixed.get("blind", [[]] * n)[s]:
                if self._known[s][c] <= 0:
                    raise BadSetup(f"setup blind[{s}]: seat {s} holds no {CARD_NAME[c]}")
                self._known[s][c] -= 1
        self._hsize = [sum(h) for h in self._hands]
        self._owned = [
            self._hsize[s] + len(self._decks[s]) + len(self._discards[s]) for s in range(n)
        ]

    def _deal_portals(self, pool: list[int], box: list[int]) -> None:
        """Setup 3: the Portal reserve (rules.portal_deck: a face-down deck, 3 revealed)."""
        fixed, rules = self._start.fixed, self._start.rules
        self._reserve = [0] * NSHAPES
        self._portal_deck = []
        self._portal_row = []
        reserve = rules.reserve(self._n)
        if rules.portal_deck:
            if "portal_deck" in fixed:
                deck = _take(pool, fixed["portal_deck"], "portal_deck")[::-1]
            else:
                deck = []
                for s in PORTALS:
                    k = min(reserve, pool[s])
                    deck += [s] * k
                    pool[s] -= k
                self._shuffle(deck)
            self._portal_deck = deck
            for _ in range(3):
                if self._portal_deck:
                    self._portal_row.append(self._portal_deck.pop())
            if self._events is not None:
                self.tell("portal_revealed", cards=[CARD_NAME[k] for k in self._portal_row])
        else:
            given = fixed.get("portals", {})
            for s in PORTALS:
                k = given.get(s, reserve)
                _take(pool, [s] * k, "portals")
                self._reserve[s] = k
        for s in PORTALS:
            box[s] += pool[s]
            pool[s] = 0

    def _deal_ai_deck(self, pool: list[int], box: list[int]) -> None:
        """Solo Mode: the AI card deck (rules.ai_deck); the cards a mission removes."""
        fixed, rules = self._start.fixed, self._start.rules
        self._ai_deck = []
        removed: list[int] = [CARD_INDEX[c] for c in rules.removed]
        if self._n == 1:
            ai_kinds = [CARD_INDEX[c] for c in rules.ai_deck]
            if "ai_deck" in fixed:
                for c in fixed["ai_deck"]:
                    if c not in ai_kinds:
                        raise BadSetup(f"setup ai_deck: {CARD_NAME[c]} is not an AI card here")
                self._ai_deck = _take(pool, fixed["ai_deck"], "ai_deck")[::-1]
            else:
                deck = []
                for k in ai_kinds:
                    deck += [k] * pool[k]
                    pool[k] = 0
                self._shuffle(deck)
                self._ai_deck = deck
            removed += list(SOLO_AI_KINDS)
            if not rules.advanced_market:
                removed += list(ADVANCED)
        for k in removed:
            box[k] += pool[k]
            pool[k] = 0

    def _deal_markets(self, pool: list[int], box: list[int]) -> None:
        """Setup 4-5: the technology markets, three different face-up cards each."""
        fixed = self._start.fixed
        market = self._start.composition
        for basic, tier_kinds, row_key, deck_key in _MARKETS:
            row = _take(pool, fixed.get(row_key, []), row_key)[:]  # a copy, as above
            top = _take(pool, fixed.get(deck_key, []), deck_key)
            deck = []
            exact = deck_key in fixed.get("exact", ())  # the setup gives the whole deck
            for k in tier_kinds:
                copies = 0 if exact else min(market[k], pool[k])  # unused Droids: to the box
                deck += [k] * copies
                pool[k] -= copies
                box[k] += pool[k]
                pool[k] = 0
            self._shuffle(deck)
            deck += top[::-1]
            if basic:
                self._basic_deck, self._basic_row = deck, row
            else:
                self._adv_deck, self._adv_row = deck, row
            if row_key not in fixed:
                self._refill_row(row, deck)
            elif (other := market_breaks(row, deck, self._rules.same)) is not None:
                raise BadSetup(f"setup {row_key} {market_rule(other)}")

    def _deal_era(self, era_pool: list[int]) -> None:
        """Setup 6-7: Era cards, the top one revealed; the common deck with two visible."""
        fixed, n = self._start.fixed, self._n
        era_cards = [s for s in range(NSHAPES) for _ in range(era_pool[s])]
        for s, pile in enumerate(fixed.get("era", [])):
            for c in pile:
                shape = era_shape(c)
                if shape not in era_cards:
                    raise BadSetup(f"setup era[{s}]: no {SHAPES[shape]} Era card is left")
                era_cards.remove(shape)
        placed = fixed.get("era_display", []) + fixed.get("era_deck", [])
        for c in placed + fixed.get("era_discard", []):
            if c not in era_cards:
                raise BadSetup(
                    f"setup era_deck/era_display/era_discard: no {SHAPES[c]} Era card left"
                )
            era_cards.remove(c)
        self._shuffle(era_cards)
        self._eras = [self._era_pile(s, era_cards) for s in range(n)]
        if self._events is not None:
            tell_era_dealt(self)
        self._era_box = [0] * NSHAPES
        if "era_deck" in fixed.get("exact", ()):  # the setup gives the whole common deck
            for c in era_cards:
                self._era_box[c] += 1
            era_cards = []
        self._era_deck = era_cards + fixed.get("era_deck", [])[::-1]
        self._era_display = list(fixed.get("era_display", []))
        self._era_discard = list(fixed.get("era_discard", []))
        self._era_known = [[0] * NSHAPES for _ in range(n)]
        if "era_display" not in fixed:
            self._refill_display()

    def _era_pile(self, s: int, era_cards: list[int]) -> list[int]:
        """Seat s's Era pile, its top card(s) face up (the setup's, or dealt)."""
        fixed = self._start.fixed
        if "era" in fixed:
            pile: list[int] = fixed["era"][s][::-1]
        else:
            dealt = self._start.rules.dealt(self._n)
            if len(era_cards) < dealt:
                raise BadSetup("not enough Era cards to deal (option composition)")
            pile = [era_cards.pop() for _ in range(dealt)]
        visible = fixed.get("era_visible", [1] * self._n)[s]  # 0 for a pile written by case
        for i in range(min(visible, len(pile))):
            pile[len(pile) - 1 - i] |= VISIBLE
        return pile


def _take(pool: list[int], cards: list[int], where: str) -> list[int]:
    """Take `cards` from what is left to deal, or BadSetup (the composition has no more)."""
    for c in cards:
        if pool[c] <= 0:
            raise BadSetup(f"setup {where}: no {CARD_NAME[c]} is left for it (composition)")
        pool[c] -= 1
    return cards
