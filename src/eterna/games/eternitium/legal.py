"""The legal actions of Eternitium outside the hot path's own test (state.py's `_legal`): each
phase's decisions, the play phase's cards and their choices, and step 4's acquisitions."""

from __future__ import annotations

from eterna.games.eternitium.board import (
    PH_ACQUIRE,
    PH_CYCLE,
    PH_DESTROY6,
    PH_ERA,
    PH_GIFT,
    PH_PICK,
    PH_PORTAL,
    PH_SKIPPED,
    PH_STEAL,
)
from eterna.games.eternitium.cards import (
    ACQUIRE,
    BLIND_ADVANCED,
    BLIND_BASIC,
    CARD_INDEX,
    DESTROY,
    DISCARD,
    DONE,
    END,
    ERA,
    GIFT,
    KEEP,
    KEEP_NONE,
    MATCHES,
    MIN_ACTION_CARDS,
    NEEDS_ERA,
    NKINDS,
    NSHAPES,
    PARAM,
    PARAM_NONE,
    PARAM_OWN_DISCARD,
    PARAM_PAIR,
    PARAM_SEAT_STEAL,
    PARAM_SEAT_SWAP,
    PASS,
    PER_TURN,
    PICK,
    PLAY,
    PLAY_CARD,
    PLAY_PAIR,
    PLAY_SEAT,
    PORTALS,
    SHAPE_BITS,
    SKIP,
    STEAL,
    TAKE,
    TIER_ADVANCED,
    TIER_BASIC,
    VISIBLE,
    EternitiumAction,
)
from eterna.games.eternitium.resolve import EternitiumEffects

_RECYCLER = CARD_INDEX["recycler-robot"]


class EternitiumLegal(EternitiumEffects):
    """The legal actions; the turn flow (state.py) asks them."""

    __slots__ = ()

    def _legal_list(self) -> list[EternitiumAction]:
        """The legal actions outside the play phase."""
        ph = self._phase
        p = self._current
        if ph == PH_PORTAL:
            if self._rules.portal_deck:
                return [TAKE[s] for s in sorted(set(self._portal_row))]
            return [TAKE[s] for s in PORTALS if self._reserve[s]]
        if ph == PH_ACQUIRE:
            return self._legal_acquire(p)
        if ph == PH_ERA:
            return [ERA[s] for s in sorted(set(self._era_display))]
        if ph in (PH_PICK, PH_GIFT):
            table = PICK if ph == PH_PICK else GIFT
            out = [table[k] for k in sorted(set(self._basic_row))]
            if self._basic_deck:
                out.append(table[BLIND_BASIC])
            return out
        hand = self._hands[p]
        held = [k for k in range(NKINDS) if hand[k]]
        if ph == PH_CYCLE:
            mode = self._cycle_mode
            out = []
            if mode != 2:
                out += [DISCARD[k] for k in held]
            if mode != 1 and self._owned[p] > MIN_ACTION_CARDS:
                out += [DESTROY[k] for k in held]
            out.append(DONE)
            return out
        if ph == PH_SKIPPED:
            out = [DESTROY[k] for k in held] if self._owned[p] > MIN_ACTION_CARDS else []
            return [*out, *(KEEP[k] for k in held), KEEP_NONE]
        if ph == PH_DESTROY6:
            return [DESTROY[k] for k in held]
        if ph == PH_STEAL:
            return [STEAL[k] for k in sorted(set(self._discards[self._target]))]
        return []

    def _legal_play(self, p: int) -> list[EternitiumAction]:
        hand = self._hands[p]
        era = self._eras[p]
        top = era[-1] if era else -1
        out: list[EternitiumAction] = []
        must = False  # rules.must_play: a card other than a Recycler Robot can be played
        for k, count in enumerate(hand):
            if not count:
                continue
            before = len(out)
            param = PARAM[k]
            match = MATCHES[k]
            if match:
                if top >= 0:
                    if top & VISIBLE:
                        if match >> (top & SHAPE_BITS) & 1:  # R15: only on a matching visible card
                            out.append(PLAY[k])
                    elif k < NSHAPES or self._rules.luck_any:  # R6: try your luck with a Portal
                        out.append(PLAY[k])
            elif NEEDS_ERA[k] and top < 0:
                continue
            elif param == PARAM_NONE:
                if not PER_TURN[k] or self._limited < PER_TURN[k]:  # R3
                    out.append(PLAY[k])
            else:
                self._legal_choices(p, k, param, out)
            if len(out) > before and k != _RECYCLER:
                must = True
        if self._rules.must_play:  # play as many cards as possible; never skip
            if not must:
                out.append(END)
            return out
        out.append(END)
        if not self._played:
            out.append(SKIP)
        return out

    def _legal_choices(self, p: int, k: int, param: int, out: list[EternitiumAction]) -> None:
        """The plays of card k that name a choice (cards.PARAM), added to `out`."""
        hand = self._hands[p]
        n = self._n
        if param == PARAM_PAIR:
            hand[k] -= 1
            held = [c for c in range(NKINDS) if hand[c]]
            pairs = PLAY_PAIR[k]
            for i, a in enumerate(held):
                if hand[a] > 1:
                    out.append(pairs[(a, a)])
                for b in held[i + 1 :]:
                    out.append(pairs[(a, b)])
            hand[k] += 1
        elif param == PARAM_SEAT_SWAP:
            seats = PLAY_SEAT[k]
            for i in range(1, n):  # R5: not a player who found the gem
                s = (p + i) % n
                if self._eras[s]:
                    out.append(seats[s])
        elif param == PARAM_SEAT_STEAL:
            seats = PLAY_SEAT[k]
            for i in range(1, n):
                s = (p + i) % n
                if self._discards[s]:
                    out.append(seats[s])
        elif param == PARAM_OWN_DISCARD:
            pile = self._discards[p]
            if pile:
                cards = PLAY_CARD[k]
                out += [cards[c] for c in sorted(set(pile))]
            else:
                out.append(PLAY[k])
        else:  # PARAM_TECH (Laboratory)
            cards = PLAY_CARD[k]
            picks = []
            if self._eras[p]:  # R8: a player who found the gem takes no technology
                picks = [cards[c] for c in sorted(set(self._basic_row + self._adv_row))]
                if self._basic_deck:
                    picks.append(cards[BLIND_BASIC])
                if self._adv_deck:
                    picks.append(cards[BLIND_ADVANCED])
            out += picks or [PLAY[k]]

    def _legal_acquire(self, p: int) -> list[EternitiumAction]:
        display = len(self._era_display)
        out: list[EternitiumAction] = []
        discount = 1 if self._wallet else 0
        if display >= TIER_BASIC - discount:
            out += [ACQUIRE[k] for k in sorted(set(self._basic_row))]
            if self._basic_deck:
                out.append(ACQUIRE[BLIND_BASIC])
        if display >= TIER_ADVANCED - discount:
            out += [ACQUIRE[k] for k in sorted(set(self._adv_row))]
            if self._adv_deck:
                out.append(ACQUIRE[BLIND_ADVANCED])
        out.append(PASS)
        return out
