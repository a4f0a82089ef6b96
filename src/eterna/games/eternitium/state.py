"""Eternitium's rules engine: the turn flow and the game contract on top of the board
(board.py), its deal (deal.py) and card effects (resolve.py). "Rules: <section>" names a
section of the English rulebook, "R<k>" a reading of the digest (docs/eternitium.md).
"""

from __future__ import annotations

import random
from typing import Any

from eterna.core.errors import IllegalAction
from eterna.core.game import View
from eterna.games.eternitium.board import (
    PH_ACQUIRE,
    PH_CYCLE,
    PH_DESTROY6,
    PH_ERA,
    PH_GIFT,
    PH_OVER,
    PH_PICK,
    PH_PLAY,
    PH_PORTAL,
    PH_SKIPPED,
    PH_STEAL,
    PHASE_NAME,
    EternitiumStart,
)
from eterna.games.eternitium.cards import (
    ACQUIRE,
    BLIND_ADVANCED,
    BLIND_BASIC,
    CARD_INDEX,
    DESTROY,
    DISCARD,
    DONE,
    EFFECT,
    END,
    ERA,
    ERA_KNOWN,
    GIFT,
    HAND_AFTER_LUCK,
    HAND_AFTER_SKIP,
    HAND_REFILL,
    KEEP,
    KEEP_AFTER_SKIP,
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
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
    V_KEEP,
    V_PLAY,
    VISIBLE,
    EternitiumAction,
)
from eterna.games.eternitium.resolve import EternitiumEffects

__all__ = [  # the phases are read by the encoding and its tests from here
    "PHASE_NAME",
    "PH_ACQUIRE",
    "PH_CYCLE",
    "PH_DESTROY6",
    "PH_ERA",
    "PH_GIFT",
    "PH_OVER",
    "PH_PICK",
    "PH_PLAY",
    "PH_PORTAL",
    "PH_SKIPPED",
    "PH_STEAL",
    "EternitiumStart",
    "EternitiumState",
]

_RECYCLER = CARD_INDEX["recycler-robot"]


class EternitiumState(EternitiumEffects):
    """A game of Eternitium. Build one with `load_game("eternitium").new_game(...)`, or from
    an `EternitiumStart` (the constructor deals)."""

    __slots__ = ()

    def __init__(self, start: EternitiumStart, narrate: bool = False) -> None:
        """Deal the game `start` describes (rules: Setup, Game Preparation, Solo Mode)."""
        super().__init__(start, narrate)
        self._rules = start.rules
        self._rng = start.seed
        self._phase = PH_PICK
        self._active = 0
        self._turn = self._round = 0
        self._limited = 0
        self._wallet = self._failed = self._skipped = self._played = self._last_turn = False
        self._in_play = self._target = self._kept = -1
        self._gifts = []
        self._cycle_mode = self._cycle_count = self._pay_left = 0
        self._pay_down = False
        self._ai_log = []
        self._peeks = {}
        self._bottom = [0, 0]
        self._deck_known = [0] * NSHAPES
        self._deal()
        # Game Preparation: the first Basic Technology, in turn order (a setup's hands skip it)
        if "hands" in start.fixed:
            self._pickers = []
            self._begin_turn(self._first)
        else:
            n = self._n
            self._pickers = [(self._first + i) % n for i in range(n)]
            self._next_picker()

    # ------------------------------------------------------------------ contract: hot path
    def apply(self, action: EternitiumAction | str) -> None:
        """BaseState.apply, written here by hand for the hot loop of every playout: the same
        steps (coerce, the cached legal set, the refusal, the history, `_apply`), with the
        action class read as a global rather than the class attribute `action_type`, a card
        played without the detour through `_apply`, and the play phase's legal set built
        without one either (together ~2% of a random game)."""
        act = action if action.__class__ is EternitiumAction else self._coerce(action)
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal()
        if act not in legal:
            raise self._refusal(act)
        self._legal_cache = None
        self._history.append(act)
        if act.verb == V_PLAY:  # only ever legal in the play phase: `_apply`'s commonest case
            self._play(act)
        else:
            self._apply(act)

    def _legal(self) -> tuple[EternitiumAction, ...]:
        if self._phase == PH_PLAY:
            return tuple(self._legal_play(self._current))
        return tuple(self._legal_list())

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

    def _apply(self, act: EternitiumAction) -> None:
        ph = self._phase
        if ph == PH_PLAY:
            if act.verb == V_PLAY:
                self._play(act)
            elif act is SKIP:
                self._skipped = True
                self._phase = PH_SKIPPED
                self._skipped_check()
            else:
                self._end_step2()
        elif ph == PH_PORTAL:
            self._take_portal(act.shape)
        elif ph == PH_ACQUIRE:
            if act is PASS:
                self._step5()
            else:
                self._acquire(act.card)
        elif ph == PH_ERA:
            self._pay_era(act.shape)
        elif ph == PH_CYCLE:
            self._cycle(act)
        elif ph == PH_STEAL:
            self._steal(act.card)
        elif ph == PH_GIFT:
            self._gift(act.card)
        elif ph == PH_SKIPPED:
            self._skipped_action(act)
        elif ph == PH_DESTROY6:
            self._destroy(self._active, act.card)
            self._step1()
        else:  # PH_PICK
            self._pick(act.card)

    # ------------------------------------------------------------------ turn flow
    def _pick(self, k: int) -> None:
        """Game Preparation: each player in turn order takes a Basic Technology card."""
        p = self._current
        card = self._take_tech(k)
        self._decks[p].append(card)
        self._owned[p] += 1
        if k < NKINDS:
            self._k_gain(p, card)
        self._shuffle(self._decks[p])
        self._next_picker()

    def _next_picker(self) -> None:
        while self._pickers:
            p = self._pickers.pop(0)
            if self._basic_row or self._basic_deck:
                self._current = p
                return
        first_hand = self._rules.first_hand
        for s in range(self._n):
            self._draw(s, first_hand)
        self._begin_turn(self._first)

    def _begin_turn(self, p: int) -> None:
        self._active = self._current = p
        self._limited = 0
        self._wallet = self._failed = self._skipped = self._played = False
        self._kept = -1
        rules = self._rules
        if rules.destroy_each_turn and self._hsize[p] and self._owned[p] > MIN_ACTION_CARDS:
            self._phase = PH_DESTROY6  # R9: never below the floor of 6 cards
            return
        self._step1()

    def _step1(self) -> None:
        """Step 1: take a Portal card, if any is left."""
        if any(self._reserve) or self._portal_row:
            self._phase = PH_PORTAL
        else:
            self._enter_play()

    def _take_portal(self, s: int) -> None:
        p = self._active
        if self._rules.portal_deck:
            self._portal_row.remove(s)  # reveal a new one
            if self._portal_deck:
                self._portal_row.append(self._portal_deck.pop())
        else:
            self._reserve[s] -= 1
        self._hands[p][s] += 1
        self._hsize[p] += 1
        self._owned[p] += 1
        self._k_gain(p, s)
        if self._n == 1 and not any(self._reserve) and not self._portal_row:
            self._last_turn = True  # Solo Mode: the last Portal card starts the last turn
        self._enter_play()

    def _enter_play(self) -> None:
        self._phase = PH_PLAY
        self._current = self._active

    def _play(self, act: EternitiumAction) -> None:
        p = self._active
        k = act.card
        self._k_lose(p, k)  # in play: back into the collection when it is discarded
        self._hands[p][k] -= 1
        self._hsize[p] -= 1
        self._played = True
        self._in_play = k
        if PER_TURN[k]:
            self._limited += 1
        era = self._eras[p]
        if MATCHES[k] and not era[-1] & VISIBLE:
            self._try_luck(p, k)
            return
        if self._run(p, EFFECT[k], act):
            return  # waits for a decision; _finish_play follows it
        self._finish_play()

    def _try_luck(self, p: int, k: int) -> None:
        """Step 2, "try your luck": turn over the hidden top Era card."""
        era = self._eras[p]
        shape = era[-1] & SHAPE_BITS
        if MATCHES[k] >> shape & 1:
            self._discard_era(p)
            self._finish_play()
            return
        self._discards[p].append(k)
        self._k_gain(p, k, True)
        self._in_play = -1
        top = era[-1]
        if not top & ERA_KNOWN:  # everyone saw the missed card: it is among the hidden ones
            known = self._era_known[p]
            known[shape] = max(known[shape], 1)
        if len(era) == 1:  # the last Era card: one more from the common deck, unseen
            c = self._common_top()
            if c >= 0:
                era.append(c)
        self._era_unposition(p)
        self._shuffle(era)  # the card goes back face down (its face bit was never set)
        self._failed = True  # step 5 draws only 4
        self._end_step2()

    def _skipped_check(self) -> None:
        if not self._hsize[self._active]:
            self._end_step2()

    def _skipped_action(self, act: EternitiumAction) -> None:
        """Skipping step 2: destroy any cards, then keep at most one (rules: step 2)."""
        if act.verb == V_KEEP:
            self._kept = act.card
            self._end_step2()
            return
        self._destroy(self._active, act.card)
        self._skipped_check()

    def _end_step2(self) -> None:
        """Step 3: discard the cards left in hand (a skipping player keeps one)."""
        p = self._active
        hand = self._hands[p]
        pile = self._discards[p]
        keep = self._kept
        for k in range(NKINDS):
            c = hand[k]
            if c:
                if k == keep:
                    c -= KEEP_AFTER_SKIP
                    hand[k] = KEEP_AFTER_SKIP
                else:
                    hand[k] = 0
                pile.extend([k] * c)
        self._hsize[p] = 1 if keep >= 0 else 0
        self._kept = -1
        self._current = p
        # Step 4: acquire a technology, unless the gem is found (rules: End of the Game)
        if self._eras[p] and (
            self._basic_row or self._basic_deck or self._adv_row or self._adv_deck
        ):
            legal = self._legal_acquire(p)
            if len(legal) > 1:
                self._phase = PH_ACQUIRE
                self._legal_cache = tuple(legal)
                return
        self._step5()

    def _acquire(self, k: int) -> None:
        p = self._active
        card = self._take_tech(k)
        self._decks[p].append(card)  # on top of the deck: drawn in step 5
        self._owned[p] += 1
        if k < NKINDS:
            self._k_gain(p, card)
        cost = TIER[card] - (1 if self._wallet else 0)
        self._pay_down = self._rules.paid_era_face_down
        self._pay_left = cost
        self._pay_next()

    def _pay_next(self) -> None:
        """Take the visible Era cards a technology costs (Basic one, Advanced both)."""
        display = self._era_display
        if self._pay_left <= 0 or not display:
            self._refill_display()
            self._step5()
            return
        if len(display) < 2 or display[0] == display[1]:
            # no choice: the cards are alike (or only one is left)
            while self._pay_left > 0 and display:
                self._pay_era(display[0], auto=True)
            self._refill_display()
            self._step5()
            return
        self._phase = PH_ERA
        self._current = self._active

    def _pay_era(self, s: int, auto: bool = False) -> None:
        self._era_display.remove(s)
        self._eras[self._active].append(s | ERA_KNOWN if self._pay_down else s | VISIBLE)
        self._pay_left -= 1
        if not auto:
            self._pay_next()

    def _step5(self) -> None:
        """Step 5: draw 5 (4 after a failed try, up to 6 after skipping); then the solo steps."""
        p = self._active
        if self._failed:
            count = HAND_AFTER_LUCK
        elif self._skipped:
            count = HAND_AFTER_SKIP - self._hsize[p]
        else:
            count = HAND_REFILL
        self._draw(p, count)
        if self._n == 1:
            era = self._eras[p]
            if self._rules.flip_era_each_turn:  # R10: reverse the pile and turn every card
                era.reverse()
                for i, c in enumerate(era):  # the cards turned down were seen: still known
                    era[i] = (
                        (c & SHAPE_BITS) | ERA_KNOWN if c & VISIBLE else (c & SHAPE_BITS) | VISIBLE
                    )
                self._era_known[p] = [0] * NSHAPES
            self._ai_card()  # step 6
            if self._rules.add_era_each_turn:  # a face-down Era card on top
                self._add_hidden(p)
        self._end_turn()

    def _end_turn(self) -> None:
        p = self._active
        n = self._n
        self._turn += 1
        if n == 1:
            if not self._eras[0] or self._turn >= self._rules.turns or self._last_turn:
                self._finish()
                return
            self._begin_turn(0)
            return
        nxt = (p + 1) % n
        if nxt == self._first:
            self._round += 1  # the round is complete: has anyone found the gem?
            limit = self._rules.limit_rounds
            if any(not e for e in self._eras) or (limit and self._round >= limit):
                self._finish()
                return
        self._begin_turn(nxt)

    def _finish(self) -> None:
        self._phase = PH_OVER
        self._current = -1
        self.is_terminal = True
        self._legal_cache = ()
        n = self._n
        if n == 1:
            self._winners = [] if self._eras[0] else [0]
            return
        found = [s for s in range(n) if not self._eras[s]]
        tied = found or list(range(n))  # option round_limit: nobody found it, rank everyone
        keys = {s: self._points(s) for s in tied}
        best = max(keys.values())
        self._winners = [s for s in tied if keys[s] == best]

    # ------------------------------------------------------------------ bad input
    def _refusal(self, act: EternitiumAction) -> IllegalAction:
        from eterna.games.eternitium.refusals import explain

        return IllegalAction(f"{act}: {explain(self, act)}")

    # ------------------------------------------------------------------ views
    def public_notation(self, action: Any) -> str | None:
        """Every action is played in the open but a `keep` after a skip: which card a player
        keeps is theirs alone (see docs/eternitium.md, "Determinization")."""
        text = str(action)
        return None if text.startswith("keep") else text

    def _view(self, seat: int | None) -> View:
        from eterna.games.eternitium.views import build_view

        return build_view(self, seat)

    # ------------------------------------------------------------------ search
    def _determinize(self, seat: int, rng: random.Random) -> EternitiumState:
        from eterna.games.eternitium.views import determinize

        return determinize(self, seat, rng)
