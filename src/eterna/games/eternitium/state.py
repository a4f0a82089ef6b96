"""Eternitium's rules engine: the turn flow and the game contract on top of the board
(board.py), its deal (deal.py) and card effects (resolve.py). "Rules: <section>" names a
section of the English rulebook, "R<k>" a reading of the digest (docs/eternitium.md).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from eterna.core.errors import BadNotation, IllegalAction
from eterna.core.game import Action, JsonObject
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
    CARD_INDEX,
    CARD_NAME,
    EFFECT,
    ERA_KNOWN,
    HAND_AFTER_LUCK,
    HAND_AFTER_SKIP,
    HAND_REFILL,
    KEEP_AFTER_SKIP,
    MATCHES,
    MIN_ACTION_CARDS,
    NKINDS,
    NSHAPES,
    PASS,
    PER_TURN,
    SHAPE_BITS,
    SHAPES,
    SKIP,
    TIER,
    V_KEEP,
    V_PLAY,
    VISIBLE,
    EternitiumAction,
)
from eterna.games.eternitium.legal import EternitiumLegal
from eterna.games.eternitium.story import tell_end

if TYPE_CHECKING:
    from eterna.games.eternitium.views import EternitiumView

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


class EternitiumState(EternitiumLegal):
    """A game of Eternitium. Build one with `load_game("eternitium").new_game(...)`, or from
    an `EternitiumStart` (the constructor deals)."""

    __slots__ = ()
    action_type: ClassVar[type[EternitiumAction]] = EternitiumAction

    # BaseState.apply, written by `make fields` (core/fields.py):
    # do not edit; edit BaseState.apply and run it again.
    def apply(self, action: object) -> None:
        act: EternitiumAction = (
            action if type(action) is self._action_type else self._coerce(action)  # type: ignore[assignment]
        )
        history = self._history
        history.append(act)  # recorded first: a step reads the trick it ends from the history
        if not self._apply_if_legal(act):
            history.pop()
            raise self._refusal(act)

    # End of the written shell.

    def __init__(self, start: EternitiumStart | None = None, narrate: bool = False) -> None:
        """Deal the game `start` describes (rules: Setup, Game Preparation, Solo Mode)."""
        super().__init__(start, narrate)
        if start is None:  # a blank (BaseState.__init__)
            return
        self._rules = start.rules
        self._rng = start.seed
        self._phase = PH_PICK
        self._active = 0
        self._turn = self._round = 0
        self._limited = 0
        self._wallet = self._failed = self._skipped = self._played = self._last_turn = False
        self._in_play = self._target = self._kept = self._src = -1
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
    def _legal(self) -> tuple[EternitiumAction, ...]:
        if self._phase == PH_PLAY:
            return tuple(self._legal_play(self._current))
        return tuple(self._legal_list())

    def _apply(self, act: EternitiumAction) -> None:
        """Play the legal `act` in the current phase (the base has checked and recorded it)."""
        ph = self._phase
        if ph == PH_PLAY:
            if act.verb == V_PLAY:
                self._play(act)
            elif act is SKIP:
                if self._events is not None:
                    self.tell("turn_skipped", seat=self._active)
                self._skipped = True
                self._phase = PH_SKIPPED
                self._skipped_check()
            else:
                if self._events is not None:
                    self.tell("play_ended", seat=self._active)
                self._end_step2()
        elif ph == PH_PORTAL:
            self._take_portal(act.shape)
        elif ph == PH_ACQUIRE:
            if act is PASS:
                if self._events is not None:
                    self.tell("acquire_passed", seat=self._active)
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
        if self._events is None:
            card = self._take_tech(k)
        else:  # a blind card goes unseen into the deck
            card = self._take_told(k, "technology_picked", p, False)
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
        if self._events is not None:
            self.tell("turn_started", seat=p, turn=self._turn + 1, round=self._round + 1)
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
        if self._events is not None:
            self.tell("portal_taken", seat=p, card=CARD_NAME[s])
        if self._rules.portal_deck:
            self._portal_row.remove(s)  # reveal a new one
            if self._portal_deck:
                self._portal_row.append(self._portal_deck.pop())
                if self._events is not None:
                    self.tell("portal_revealed", cards=[CARD_NAME[self._portal_row[-1]]])
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
        if self._events is not None:
            self._tell_play(p, act)
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
        if self._events is not None:
            matched = bool(MATCHES[k] >> shape & 1)
            self.tell("luck_tried", seat=p, card=CARD_NAME[k], shape=SHAPES[shape], matched=matched)
        if MATCHES[k] >> shape & 1:
            self._discard_era(p)
            self._finish_play()
            return
        self._discards[p].append(k)
        self._k_gain(p, k, True)
        self._in_play = -1
        if self._events is not None:
            self.tell("card_resolved", seat=p, card=CARD_NAME[k])
        top = era[-1]
        if not top & ERA_KNOWN:  # everyone saw the missed card: it is among the hidden ones
            known = self._era_known[p]
            known[shape] = max(known[shape], 1)
        if len(era) == 1:  # the last Era card: one more from the common deck, unseen
            c = self._common_top()
            if c >= 0:
                era.append(c)
                if self._events is not None:
                    self.tell("era_added", seat=p, source=CARD_NAME[k])
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
            if self._events is not None and act.card >= 0:
                self.tell(
                    "card_kept", {"card": CARD_NAME[act.card]}, (self._active,), seat=self._active
                )
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
        size = len(pile)
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
        if self._events is not None and len(pile) > size:
            cards = [CARD_NAME[c] for c in pile[size:]]
            self.tell("hand_discarded", {"cards": cards}, (p,), seat=p, count=len(cards))
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
        if self._events is None:
            card = self._take_tech(k)
        else:  # a blind card goes unseen onto the deck
            card = self._take_told(k, "technology_acquired", p, False)
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
        if self._events is not None:
            self.tell("era_taken", seat=self._active, shape=SHAPES[s], face_down=self._pay_down)
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
                if self._events is not None:
                    shapes = [SHAPES[c & SHAPE_BITS] for c in reversed(era) if c & VISIBLE]
                    self.tell("era_flipped", seat=p, count=len(era), shapes=shapes)
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
            if self._events is not None:
                self.tell("round_ended", round=self._round, scores=self.scores)
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
        else:
            found = [s for s in range(n) if not self._eras[s]]
            tied = found or list(range(n))  # option round_limit: nobody found it, rank all
            keys = {s: self._points(s) for s in tied}
            best = max(keys.values())
            self._winners = [s for s in tied if keys[s] == best]
        if self._events is not None:
            tell_end(self)

    def _tell_play(self, p: int, act: EternitiumAction) -> None:
        """A card played, with the choice its notation names (a seat, a card, a pair)."""
        extra: dict[str, Any] = {}
        if act.seat >= 0:
            extra["target"] = act.seat
        if act.card2 >= 0 and act.card3 >= 0:
            extra["cards"] = [CARD_NAME[act.card2], CARD_NAME[act.card3]]
        elif 0 <= act.card2 < NKINDS:
            extra["chosen"] = CARD_NAME[act.card2]
        self.tell("card_played", seat=p, card=CARD_NAME[act.card], **extra)

    # ------------------------------------------------------------------ bad input
    def _coerce(self, action: object) -> EternitiumAction:
        """The action `action` names; `gift`/`pick` of an Advanced card is well-formed, so it
        is refused as IllegalAction naming the rule, not as bad notation."""
        try:
            return super()._coerce(action)
        except BadNotation:
            from eterna.games.eternitium.refusals import explain_advanced_gift

            why = explain_advanced_gift(self, action)
            if why is None:
                raise
            key = f"eternitium.refusal.{why.key}"
            raise IllegalAction(
                f"{action}: {why.text}", key=key, params=why.params, rule=why.rule
            ) from None

    def _refusal(self, act: EternitiumAction) -> IllegalAction:
        from eterna.games.eternitium.refusals import explain

        why = explain(self, act)
        key = f"eternitium.refusal.{why.key}"
        return IllegalAction(f"{act}: {why.text}", key=key, params=why.params, rule=why.rule)

    # ------------------------------------------------------------------ views
    def to_position(self, seat: object = None) -> JsonObject:
        """The state as a position (docs/eternitium.md, 'Positions'); with `seat`, only what
        that seat knows."""
        from eterna.games.eternitium.position_write import write_position

        return write_position(self, self.check_audience(seat))

    def public_notation(self, action: Action) -> str | None:
        """Every action is played in the open but a `keep` after a skip: which card a player
        keeps is theirs alone (see docs/eternitium.md, "Determinization")."""
        text = str(action)
        return None if text.startswith("keep") else text

    # The game's own view type: a TypedDict is a `View` (Mapping[str, object]), a legal override.
    def _view(self, seat: int | None) -> EternitiumView:
        from eterna.games.eternitium.views import build_view

        return build_view(self, seat)

    # ------------------------------------------------------------------ search
    def _determinize(self, seat: int, rng: random.Random) -> EternitiumState:
        from eterna.games.eternitium.views import determinize

        return determinize(self, seat, rng)
