"""Resolving card effects (effects.py's primitives) and the decisions they leave pending: the
Data Analyser's cycle, the Thieving Robot's pick, the Laboratory's gifts, the solo AI cards."""

from __future__ import annotations

from typing import Any

from eterna.games.eternitium.board import PH_CYCLE, PH_GIFT, PH_PLAY, PH_STEAL
from eterna.games.eternitium.cards import (
    AI_EFFECT,
    BLIND_BASIC,
    CARD_INDEX,
    CARD_NAME,
    DONE,
    MIN_ACTION_CARDS,
    NKINDS,
    OTHERS,
    SELF,
    TIER,
    V_DISCARD,
    VOID_IF_VISIBLE,
    EternitiumAction,
)
from eterna.games.eternitium.deal import EternitiumDeal
from eterna.games.eternitium.effects import (
    AddHiddenEra,
    CycleHand,
    DestroyOldestTech,
    DiscardEra,
    DiscardFromHand,
    Discount,
    Draw,
    Effect,
    GainTech,
    HideAndShuffle,
    Primitive,
    Recycle,
    Reveal,
    Steal,
    SwapTopEra,
)

_THIEF = CARD_INDEX["thieving-robot"]


class EternitiumEffects(EternitiumDeal):
    """Card effects on the board; the turn flow (state.py) calls `_run` and `_ai_card` and
    continues from `_finish_play`."""

    __slots__ = ()

    # The turn flow's steps an effect may end on (EternitiumState writes them).
    def _end_step2(self) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    # Size rules waived: one case per primitive of the effect vocabulary, in the hot loop of
    # every card played (a call per case would cost the playouts)
    def _run(  # noqa: C901, PLR0912
        self, p: int, effect: Effect, act: EternitiumAction | None
    ) -> bool:
        """Resolve an effect's primitives in order; True when a decision is now pending.

        `act` is None for a solo AI card, whose effects target the solo player (`p`); the
        primitives that read the action's choices do nothing then. The cases match the type
        alone and read the fields by name: keyword captures would cost ~1% of a random game.
        """
        n = self._n
        k = self._in_play
        if k >= 0 and VOID_IF_VISIBLE[k] and self._top_visible(p, VOID_IF_VISIBLE[k]):
            return False  # R4: Giga Droid with the top 3 visible does nothing at all
        for op in effect:
            match op:
                case DiscardEra():
                    if self._eras[p]:
                        self._discard_era(p)
                case Reveal():
                    who, count, depth = op.who, op.count, op.depth
                    if who == OTHERS:
                        if op.compensation and n == 1:
                            self._ai_card()  # Solo: compensation reveals an AI card (R13)
                        for i in range(1, n):
                            self._reveal((p + i) % n, count, depth)
                    else:
                        self._reveal(p, count, depth)
                case Draw():
                    self._draw(p, op.count)
                case Discount():
                    self._wallet = True  # R16: two Wallets do not add up
                    if self._events is not None:
                        self.tell("discount_gained", seat=p, source=self.source())
                case HideAndShuffle():
                    who, depth = op.who, op.depth
                    if who == OTHERS:
                        for i in range(1, n):
                            self._hide_and_shuffle((p + i) % n, depth)
                    else:
                        self._hide_and_shuffle(p, depth)
                case AddHiddenEra():
                    who = op.who
                    if who == OTHERS:
                        for i in range(1, n):
                            self._add_hidden((p + i) % n)
                    else:  # the AI's Temporal Blaster replaces the card it discarded
                        self._add_hidden(p, force=act is None)
                case DestroyOldestTech():
                    self._destroy_oldest_tech(p)
                case _ if act is not None:  # primitives that use the action's choices
                    if self._run_chosen(p, op, act):
                        return True
        return False

    def _run_chosen(self, p: int, op: Primitive, act: EternitiumAction) -> bool:
        """The primitives that read the action's choices; True when a decision is pending."""
        match op:
            case SwapTopEra():
                s = act.seat
                mine = self._era_leave(p)
                self._eras[p].append(self._era_leave(s))
                self._eras[s].append(mine)  # R5: each card keeps its face
                if self._events is not None:
                    self.tell("era_swapped", seat=p, target=s, source=self.source())
            case DiscardFromHand():
                for c in (act.card2, act.card3):
                    self._hands[p][c] -= 1
                    self._discards[p].append(c)
                    self._k_lose(p, c)
                    self._k_gain(p, c, True)
                self._hsize[p] -= 2
                if self._events is not None:
                    cards = [CARD_NAME[act.card2], CARD_NAME[act.card3]]
                    self.tell("cards_discarded", seat=p, cards=cards, source=self.source())
            case Recycle():
                self._recycle(p, act.card2)
            case GainTech(who=who):
                if who == SELF:
                    self._gain_tech(p, act.card2)
                elif self._n == 1:
                    self._ai_card()  # Solo: compensation (R13: after the card's own effect)
                else:  # R8: players who found the gem receive nothing
                    n = self._n
                    self._gifts = [(p + i) % n for i in range(1, n) if self._eras[(p + i) % n]]
                    return self._next_gift()
            case Steal():
                self._target = act.seat
                self._peek(p, act.seat)
                self._phase = PH_STEAL
                return True
            case CycleHand():
                self._cycle_mode = 0
                self._cycle_count = 0
                self._phase = PH_CYCLE
                return self._cycle_check()
        return False

    def _destroy_oldest_tech(self, p: int) -> None:
        pile = self._discards[p]
        if self._owned[p] > MIN_ACTION_CARDS:
            for i, c in enumerate(pile):
                if TIER[c]:
                    self._k_lose(p, c, True)
                    del pile[i]
                    self._owned[p] -= 1
                    self._box[c] += 1
                    if self._events is not None:  # a discard pile only its owner sees
                        src = self.source()
                        self.tell(  # its points are public: the scores show them
                            "technology_destroyed",
                            {"card": CARD_NAME[c]},
                            (p,),
                            seat=p,
                            points=TIER[c],
                            source=src,
                        )
                    break

    def _recycle(self, p: int, c: int) -> None:
        if c >= 0:
            pile = self._discards[p]
            i = len(pile) - 1 - pile[::-1].index(c)
            del pile[i]
            self._hands[p][c] += 1
            self._hsize[p] += 1
            self._k_lose(p, c, True)
            self._k_gain(p, c)
            if self._events is not None:
                self.tell("card_recycled", seat=p, card=CARD_NAME[c], source=self.source())

    def _gain_tech(self, p: int, c: int) -> None:
        if c >= 0:
            if self._events is None:
                card = self._take_tech(c)
            else:
                card = self._take_told(c, "technology_gained", p, True, source=self.source())
            self._hands[p][card] += 1
            self._hsize[p] += 1
            self._owned[p] += 1
            if c < NKINDS:  # a visible card; a blind one stays unknown
                self._k_gain(p, card)

    def _finish_play(self) -> None:
        """The played card goes to the discard pile (the Thieving Robot to its victim's)."""
        p = self._active
        k = self._in_play
        if k >= 0:
            self._in_play = -1
            if k == _THIEF and self._target >= 0:
                t = self._target
                self._discards[t].append(k)
                self._k_gain(t, k, True)
                self._owned[p] -= 1
                self._owned[t] += 1
                self._target = -1
                if self._events is not None:
                    self.tell("card_resolved", seat=p, card=CARD_NAME[k], target=t)
            else:
                self._discards[p].append(k)
                self._k_gain(p, k, True)
                if self._events is not None:
                    self.tell("card_resolved", seat=p, card=CARD_NAME[k])
        self._phase = PH_PLAY
        self._current = p
        if not self._eras[p] and self._n == 1:
            self._finish()  # Solo: you found the gem, you win
            return
        if not self._hsize[p]:
            self._end_step2()  # no card left: step 2 is over

    def _cycle_check(self) -> bool:
        """Data Analyser: when nothing more can be chosen, draw and finish."""
        p = self._active
        if self._hsize[p] and (self._cycle_mode != 2 or self._owned[p] > MIN_ACTION_CARDS):
            return True
        self._cycle_done()
        return False

    def _cycle(self, act: EternitiumAction) -> None:
        p = self._active
        if act is DONE:
            self._cycle_done()
            self._finish_play()
            return
        k = act.card
        if act.verb == V_DISCARD:
            self._cycle_mode = 1
            self._hands[p][k] -= 1
            self._hsize[p] -= 1
            self._discards[p].append(k)
            self._k_lose(p, k)
            self._k_gain(p, k, True)
            if self._events is not None:
                self.tell("card_discarded", seat=p, card=CARD_NAME[k], source=self.source())
        else:
            self._cycle_mode = 2
            self._destroy(p, k)
        self._cycle_count += 1
        if not self._cycle_check():
            self._finish_play()

    def _cycle_done(self) -> None:
        self._draw(self._active, self._cycle_count)
        self._cycle_count = 0
        self._cycle_mode = 0

    def _steal(self, k: int) -> None:
        p = self._active
        pile = self._discards[self._target]
        i = len(pile) - 1 - pile[::-1].index(k)
        del pile[i]
        self._k_lose(self._target, k, True)
        self._k_gain(p, k)
        self._owned[self._target] -= 1
        self._hands[p][k] += 1  # R1: into the thief's hand, playable this turn
        self._hsize[p] += 1
        self._owned[p] += 1
        if self._events is not None:
            src = self.source()
            self.tell("card_stolen", seat=p, victim=self._target, card=CARD_NAME[k], source=src)
        self._finish_play()

    def _next_gift(self) -> bool:
        """Laboratory: the other players, from the left and clockwise, take a Basic card."""
        while self._gifts:
            s = self._gifts.pop(0)
            if self._basic_row or self._basic_deck:
                self._phase = PH_GIFT
                self._current = s
                return True
        return False

    def _gift(self, k: int) -> None:
        s = self._current
        if self._events is None:
            card = self._take_tech(k)
        else:
            src = self.source()
            card = self._take_told(k, "technology_gifted", s, True, giver=self._active, source=src)
        self._hands[s][card] += 1
        self._hsize[s] += 1
        self._owned[s] += 1
        if k < NKINDS:
            self._k_gain(s, card)
        if not self._next_gift():
            self._finish_play()

    def _ai_card(self) -> None:
        """Solo step 6 (and compensation): reveal the top AI card and resolve it on you."""
        if not self._ai_deck:
            return  # an empty AI deck is never rebuilt
        k = self._ai_deck.pop()
        self._ai_log.append(k)
        self._box[k] += 1
        saved = self._in_play
        self._in_play = -1
        if self._events is not None:
            self.tell("ai_strike", seat=0, card=CARD_NAME[k], void=not self._eras[0])
            self._src = k  # the source of what it does
        if self._eras[0]:
            self._run(0, AI_EFFECT[k], None)
        self._in_play = saved
        self._src = -1

    def _take_told(self, k: int, kind: str, seat: int, hand: bool, **public: Any) -> int:
        """`_take_tech` told: a face-up card before the market refills, a blind one after,
        named only to its taker when it goes into a hand (else to nobody: into the deck)."""
        if k < NKINDS:
            self.tell(kind, seat=seat, card=CARD_NAME[k], **public)
            return self._take_tech(k)
        card = self._take_tech(k)
        private = {"card": CARD_NAME[card]} if hand else None
        deck = "basic" if k == BLIND_BASIC else "advanced"  # public: the deck sizes show it
        self.tell(
            kind, private, (seat,) if hand else (), seat=seat, blind=True, deck=deck, **public
        )
        return card
