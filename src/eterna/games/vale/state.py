"""The Vale of Eternity's rules engine. Section numbers (§) and questions (Q) refer to the rules
digest shared/reference/vale_of_eternity/rules.md, reproduced with every decision in docs/vale.md.

`ValeState` is the game contract (core/state.py's BaseState writes its shell) over the engine
data of `ValeBoard` (board.py): the legal moves, what each move does, and the round's phases.
Refusal messages are written in refusals.py, views in views.py.

Hot path: `legal_actions`, `apply` and `clone` use ints, short lists and interned actions.
Card effects run from a work stack of (step, seat, card, argument) tuples: a step that needs a
decision leaves a pending choice (`choice`) answered by an ordinary action (STYLE.md point 6).
Views, logs and refusal messages are built only when asked for.
"""

from __future__ import annotations

import random
from typing import ClassVar, Final, Self, SupportsIndex

from eterna.core.errors import IllegalAction
from eterna.core.fields import Copied
from eterna.core.game import JsonObject
from eterna.core.legacy import vale_reseed
from eterna.core.rng import shuffle
from eterna.games.vale import artifacts as art
from eterna.games.vale.abilities import ACTIVE, INSTANT, INSTANT_TRIVIAL, PERMANENT
from eterna.games.vale.board import (
    ACTION,
    AFTER_SUMMON,
    HUNT,
    OVER,
    PHASES,
    RESOLUTION,
    STONE_LIMIT_STEP,
    Choice,
    ValeBoard,
    ValeStart,
)
from eterna.games.vale.cards import (
    A_CLAIM,
    A_DISCARD_STONE,
    A_END_TURN,
    A_REMOVE,
    A_RESOLVE,
    A_SELL,
    A_SUMMON,
    A_TAME,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    CLAIM,
    COLOURS,
    END_TURN,
    HAS_ACTIVE,
    PAYMENTS,
    PICK,
    REMOVE,
    RESOLVE,
    ROUNDS,
    SELL,
    SELL_,
    SUMMON,
    TAME,
    USE,
    ValeAction,
)
from eterna.games.vale.effects import feasible
from eterna.games.vale.payments import payments
from eterna.games.vale.redeal import asks_alike, redealt, redealt_asking, unseen_by
from eterna.games.vale.refusals import refusal
from eterna.games.vale.summons import Summoned
from eterna.games.vale.views import ValeLogEntry, ValeView, view_of

__all__ = ["ACTION", "HUNT", "OVER", "PHASES", "RESOLUTION", "ValeStart", "ValeState"]


class ValeState(ValeBoard):
    """A game of The Vale of Eternity. Build one with `load_game("vale").new_game(...)`."""

    action_type: ClassVar[type[ValeAction]] = ValeAction
    not_an_action: ClassVar[str] = (
        "is not a Vale of Eternity action: pass an action from legal_actions() "
        "or its notation, e.g. 'summon ifrit pay blue'"
    )

    _picks: tuple[int, ...]  # the hunt's order of claims (§4.2)
    _pick_i: int  # claims made so far in this hunt
    _actors: Copied[list[int]]  # the seat that chose each action of the history
    _round_start: int  # where this round starts in the history (the view's log)

    # Generated from the fields declared above by `make fields` (core/fields.py):
    # do not edit; edit the declaration and run it again.
    __slots__ = (
        "_actors",
        "_pick_i",
        "_picks",
        "_round_start",
    )

    def clone(self) -> Self:
        """An independent copy: each field as its declaration says."""
        new = super().clone()
        new._picks = self._picks
        new._pick_i = self._pick_i
        new._actors = self._actors.copy()
        new._round_start = self._round_start
        return new

    # End of the generated part.

    # BaseState.apply, written by `make fields` (core/fields.py):
    # do not edit; edit BaseState.apply and run it again.
    def apply(self, action: object) -> None:
        act: ValeAction = (
            action if type(action) is self._action_type else self._coerce(action)  # type: ignore[assignment]
        )
        history = self._history
        history.append(act)  # recorded first: a step reads the trick it ends from the history
        if not self._apply_if_legal(act):
            history.pop()
            raise self._refusal(act)

    # End of the written shell.

    def __init__(self, start: ValeStart | None = None, narrate: bool = False) -> None:
        super().__init__(start, narrate)
        if start is None:  # a blank (BaseState.__init__)
            return
        n = start.players
        self._current = start.first
        self._picks = ()
        self._pick_i = 0
        self._actors = []
        self._round_start = 0
        if start.claimed is not None:
            self.stage = ACTION
            if self.perks:
                self.turn_started(self.turn)
            if self.arts is not None:
                self.arts.pick_i = n  # the setup's tiles are held (key "artifacts")
        elif start.revealed is not None:
            self.stage = HUNT
            self.unclaimed = list(start.revealed)
            order = [(start.first + i) % n for i in range(n)]
            self._picks = tuple(order + order[::-1])
        else:
            self._start_hunt()
            self._run()
            return
        if self._events is not None:  # a setup's opening: the round as the setup left it
            self._tell_round_started()
        self._run()

    # ------------------------------------------------------------------ contract: reading
    @property
    def scores(self) -> list[int]:
        return list(self.points)

    @property
    def phase(self) -> str:
        return PHASES[self.stage]

    # For tests and tools that own the whole state (never for agents).
    def hand(self, seat: int) -> list[str]:
        return [CARD_NAME[c] for c in self.hands[seat]]

    def area(self, seat: int) -> list[str]:
        return [CARD_NAME[c] for c in self.areas[seat]]

    def stones(self, seat: int) -> dict[str, int]:
        return {COLOURS[c]: self.stone_counts[seat * 3 + c] for c in range(3)}

    def deck(self) -> list[str]:
        """The draw deck, top card first."""
        return [CARD_NAME[c] for c in reversed(self.draw_pile)]

    def discard_pile(self) -> list[str]:
        return [CARD_NAME[c] for c in self.discard]

    def claimed(self, seat: int) -> list[str]:
        return [CARD_NAME[c] for c in self.claims[seat]]

    def revealed(self) -> list[str]:
        return [CARD_NAME[c] for c in self.unclaimed]

    def round_log(self) -> list[ValeLogEntry]:
        """This round's actions so far, each with the seat that chose it (the view's log)."""
        history = self._history
        actors = self._actors
        # a game loaded from a position opens with the log it was written with
        before = self._start.log if self._round_start == 0 else ()
        log: list[ValeLogEntry] = [{"seat": s, "action": a} for s, a in before]
        return log + [
            {"seat": actors[i], "action": history[i].text}
            for i in range(self._round_start, len(history))
        ]

    def to_position(self, seat: object = None) -> JsonObject:
        """This moment as JSON (docs/vale.md#positions); with `seat`, what that seat knows."""
        from eterna.games.vale.position import write_position

        return write_position(self, seat)  # which checks the seat

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[object, ...]:
        """Pickled (for a worker process: bots, hints) as its whole position: a question
        asked inside an effect holds functions pickle cannot carry, which sent bots to a random
        move. The copy has the same legal moves, views and future, but no history of its own
        (agents read none). A guess or a version 1 game, which write no position, pickle as
        objects."""
        if self._determinized or self._start.version == 1:
            return super().__reduce_ex__(protocol)
        from eterna.games.vale.position import unpickle

        return (unpickle, (self.to_position(),))

    # ------------------------------------------------------------------ contract: hot path
    def _legal(self) -> tuple[ValeAction, ...]:
        choice = self.choice
        if choice is not None:
            return choice.options
        stage = self.stage
        if stage == ACTION:
            return self._action_moves(self.turn)
        if stage == HUNT:
            arts = self.arts
            if arts is not None and arts.pick_i < self._n:
                return art.pick_moves(self, self._current)
            return tuple(A_CLAIM[c] for c in self.unclaimed)
        if stage == RESOLUTION:
            return tuple(A_RESOLVE[c] for c in self._resolvable(self.turn))
        return ()

    def _action_moves(self, p: int) -> tuple[ValeAction, ...]:
        out: list[ValeAction] = []
        claimed = self.claims[p]
        if claimed:
            out += [A_SELL[c] for c in claimed]
            out += [A_TAME[c] for c in claimed]
        b = p * 3
        counts = self.stone_counts
        held = (counts[b], counts[b + 1], counts[b + 2])
        value = self.stone_values
        values = (value[b], value[b + 1], value[b + 2])
        # a resolved option is a bool: `is True` reads it without a call on this hot path
        extra = self._start.options["allow_superfluous_payment"] is True
        area = self.areas[p]
        arts = self.arts
        if len(area) < (self.round if arts is None else self.round + arts.bought[p]):
            cut = self.cost_cuts
            perks = self.perks
            for c in self.hands[p]:
                cost = (
                    self.summon_cost(p, c) if perks else CARD_COST[c] - cut[p * 5 + CARD_FAMILY[c]]
                )
                pays = payments(cost if cost > 0 else 0, held, values, extra)
                if not pays or not (INSTANT_TRIVIAL[c] or self.instant_feasible(p, c)):
                    continue
                row = A_SUMMON[c]
                out += [row[i] for i in pays]
        if area and any(held):
            pays = payments(self.round, held, values, extra)
            if pays:
                for c in sorted(area):
                    rem = A_REMOVE[c]
                    out += [rem[i - 1] for i in pays]
        if arts is not None:
            out += art.action_moves(self, p)
        if not claimed:
            out.append(A_END_TURN)
        return tuple(out)

    def _apply(self, act: ValeAction) -> None:
        """Play the legal `act` (the base has checked and recorded it): the seat that chose is
        recorded for the log, the action answers the pending choice or is done, and the game
        runs on to the next decision."""
        self._actors.append(self._current)
        choice = self.choice
        if choice is not None:
            self.choice = None
            if self._events is not None:
                self._src = choice.src
            choice.step.answer(self, choice.seat, choice.src, choice.arg, act)
        else:
            if self._events is not None:
                self._src = -1
                self._tell_action(act)
            self._do(act)
        self._run()

    def _do(self, act: ValeAction) -> None:
        kind = act.kind
        p = self._current
        c = act.card
        if kind == SUMMON:  # §5.3
            red, blue, purple = PAYMENTS[act.pay]
            self.lose_stones(p, red, blue, purple, None)  # told with the summon
            self.hands[p].remove(c)
            self.secret &= ~(1 << c)
            before = self._area_mask(p)
            self.areas[p].append(c)
            self._area_changed(p)
            self.queue(AFTER_SUMMON, p, c, Summoned((red, blue, purple), before))
            self.push(INSTANT[c], p, c)
        elif kind == SELL_:  # §5.1
            self.claims[p].remove(c)
            self.discard.append(c)
            self.gain_stones(p, *SELL[CARD_FAMILY[c]])
            if self.perks:
                self.sold(p, CARD_FAMILY[c])
            if self.arts is not None:
                art.after_sale(self, p, c)
        elif kind == TAME:  # §5.2
            self.claims[p].remove(c)
            self.to_hand(p, c, public=True)
            fam = CARD_FAMILY[c]
            for card in self.areas[p]:
                perm = PERMANENT[card]
                if perm is not None and perm.on_tame_family == fam:
                    if self._events is not None:
                        self._src = card
                    self.gain_stones(p, *perm.on_tame_stones)
        elif kind == END_TURN:
            self._end_action_turn()
        elif kind == RESOLVE:  # §6
            self.activated |= 1 << c
            self.push(ACTIVE[c], p, c)
        elif kind == CLAIM:  # §4.2
            self.unclaimed.remove(c)
            self.claims[p].append(c)
            self._pick_i += 1
        elif kind == REMOVE:  # §5.4
            self.lose_stones(p, *PAYMENTS[act.pay], None)  # told with the removal
            if self.perks:
                self.area_to_discard(p, c, told=False)
                return
            self.areas[p].remove(c)  # area_to_discard, less its event and permanents
            self.discard.append(c)
            self._area_changed(p)
        elif kind == PICK:  # the Artifacts: a tile for this round
            art.do_pick(self, p, act.arg)
        elif kind == USE:
            art.do_use(self, p, act.arg)

    def _tell_action(self, act: ValeAction) -> None:
        """The event of a player's own move (what its effects do is told as they happen)."""
        kind = act.kind
        p = self._current
        name = CARD_NAME[act.card] if act.card >= 0 else None
        if kind == CLAIM:
            self.tell("card_claimed", seat=p, card=name)
        elif kind == SELL_:
            self.tell("card_sold", seat=p, card=name)
        elif kind == TAME:
            self.tell("card_tamed", seat=p, card=name)
        elif kind == SUMMON:
            red, blue, purple = PAYMENTS[act.pay]
            paid = {"red": red, "blue": blue, "purple": purple}
            self.tell("summoned", seat=p, card=name, free=False, source=None, paid=paid)
        elif kind == REMOVE:
            red, blue, purple = PAYMENTS[act.pay]
            paid = {"red": red, "blue": blue, "purple": purple}
            self.tell("card_removed", seat=p, card=name, paid=paid)
        elif kind == RESOLVE:
            self.tell("effect_resolved", seat=p, card=name)
        elif kind == END_TURN:
            self.tell("turn_ended", seat=p)

    def _tell_round_started(self) -> None:
        self.tell(
            "round_started",
            round=self.round,
            first=self.first,
            revealed=[CARD_NAME[c] for c in self.unclaimed],
            scores=list(self.points),
        )

    # ------------------------------------------------------------------ the round's phases
    def _run(self) -> None:
        """Carry out pending work until a decision is needed. The stone limit (§7) is checked
        once the effect under way has run in full, its summon triggers included (§5.3 steps
        3-5): an instant's stones, points and draws all come before the discard."""
        work = self.work
        while self.choice is None:
            if work:
                w = work.pop()
                if self._events is not None:
                    self._src = w.src
                w.step.run(self, w.seat, w.src, w.arg)
                continue
            if self._dirty and self._over_limit():
                break
            if not self._progress():
                break
        choice = self.choice
        if choice is not None:
            self._current = choice.chooser

    def _over_limit(self) -> bool:
        self._dirty = False
        n = self._n
        start = self.turn
        for i in range(n):
            s = (start + i) % n
            b = s * 3
            st = self.stone_counts
            if st[b] + st[b + 1] + st[b + 2] > self.stone_limits[s]:
                options = tuple(A_DISCARD_STONE[c] for c in range(3) if st[b + c])
                self.choice = Choice(s, STONE_LIMIT_STEP, s, -1, None, options)
                self._dirty = True
                if self._events is not None:
                    self._src = -1
                    held = st[b] + st[b + 1] + st[b + 2]
                    self.tell(
                        "stone_limit_exceeded", seat=s, stones=held, limit=self.stone_limits[s]
                    )
                return True
        return False

    def _progress(self) -> bool:
        """Move the round along; False when the turn's owner must decide."""
        stage = self.stage
        if stage == ACTION:
            self._current = self.turn
            return False
        if stage == HUNT:
            arts = self.arts
            if arts is not None and arts.pick_i < self._n:  # the Artifacts: tiles first
                seat = art.picker(self)
                self._current = seat
                if art.pick_moves(self, seat):
                    return False
                arts.pick_i += 1  # nothing this seat may pick
                return True
            if self._pick_i >= len(self._picks):
                self.stage = ACTION
                self.turn = self.first
                if self._events is not None:
                    self.tell("phase_started", phase="action", round=self.round)
                if self.perks:
                    self.turn_started(self.turn)
                return True
            if not self.unclaimed:  # Q20: nothing left to claim
                self._pick_i += 1
                return True
            self._current = self._picks[self._pick_i]
            return False
        if stage == RESOLUTION:
            seat = self.turn
            if self._resolvable(seat):
                self._current = seat
                return False
            nxt = (seat + 1) % self._n
            if nxt == self.first:
                self._end_round()
                return not self.is_terminal
            self.turn = nxt
            if self.perks:
                self.turn_started(nxt)
            return True
        self._current = -1
        return False

    def _end_action_turn(self) -> None:
        nxt = (self.turn + 1) % self._n
        if nxt == self.first:  # §6: the resolution phase, from the first player
            self.stage = RESOLUTION
            self.activated = 0
            if self.arts is not None:
                art.end_action_phase(self)
            if self._events is not None:
                self.tell("phase_started", phase="resolution", round=self.round)
        self.turn = nxt
        if self.perks:
            self.turn_started(nxt)

    def _end_round(self) -> None:
        # §9, Q16: the end is checked once, after the resolution phase
        if self._events is not None:
            self.tell("round_ended", round=self.round, scores=list(self.points))
        if self.round >= ROUNDS or max(self.points) >= self._start.end_score:
            self.stage = OVER
            self.is_terminal = True
            self._current = -1
            self._winners = self._compute_winners()
            if self._events is not None:
                self.tell("game_over", winners=list(self._winners), scores=list(self.points))
            return
        self.round += 1
        self.first = (self.first + 1) % self._n  # §9.2: the first player passes left
        self._start_hunt()

    def _compute_winners(self) -> list[int]:
        # §10: most points; tie: more cards in the area; still tied: shared
        best = max(self.points)
        tied = [s for s in range(self._n) if self.points[s] == best]
        most = max(len(self.areas[s]) for s in tied)
        return [s for s in tied if len(self.areas[s]) == most]

    def _start_hunt(self) -> None:
        """§4: reveal 2 x players cards; picks clockwise from the first player, then back."""
        n = self._n
        revealed = []
        for _ in range(2 * n):
            if not self.draw_pile:
                self._reshuffle()
                if not self.draw_pile:
                    break  # Q20
            revealed.append(self.draw_pile.pop())
        self.known_top = -1 if revealed else self.known_top
        revealed.sort()
        self.unclaimed = revealed
        order = [(self.first + i) % n for i in range(n)]
        self._picks = tuple(order + order[::-1])
        self._pick_i = 0
        self.stage = HUNT
        self.turn = self.first
        self._round_start = len(self._history)
        if self.arts is not None:
            art.new_round(self.arts)
        if self._events is not None:
            self._tell_round_started()

    def _resolvable(self, seat: int) -> list[int]:
        used = self.activated
        return [
            c
            for c in sorted(self.areas[seat])
            if HAS_ACTIVE[c] and not used >> c & 1 and feasible(ACTIVE[c], self, seat, c)
        ]

    # ------------------------------------------------------------------ refusals and views
    def _refusal(self, act: ValeAction) -> IllegalAction:
        """Explain, naming the rule, why `act` is refused now (never on the hot path)."""
        return refusal(self, act, self._current)

    # The game's own view type: a TypedDict is a `View` (Mapping[str, object]), a legal override.
    def _view(self, seat: int | None) -> ValeView:
        return view_of(self, seat)

    # ------------------------------------------------------------------ search
    def _determinize(self, seat: int, rng: random.Random) -> ValeState:
        """Redeal what `seat` cannot see: the cards other seats drew (hidden in their hands)
        and the deck order, keeping every hand size, every card seen in a hand, and a card
        known to be on top of the deck (Tengu). Later reshuffles get a fresh seed from `rng`.

        Another seat's pending choice is public (its card and its chooser), and it says
        something of the chooser's hidden hand (Dragon Egg asks only a seat holding a card it
        may summon): a redeal whose hand could not have been asked is drawn again, up to
        `_REDEALS` times, then searched for one card that makes it ask (redeal.py).
        """
        base = self.clone()
        base._determinized = True
        fresh = rng.getrandbits(62)
        # the reshuffles' generator, reseeded (version 1: the seed in `seed + (k << 62)`)
        base._shuffles = vale_reseed(self._shuffles, fresh) if self._start.version == 1 else fresh
        pool, slots = unseen_by(self, seat)
        if not pool:
            return base
        pool.sort()  # the draw depends only on what the seat knows, not on where cards are
        choice = self.choice
        asks_another = choice is not None and choice.asks_another(seat)
        for _ in range(_REDEALS if asks_another else 1):
            shuffle(rng, pool)
            new = redealt(self, base, seat, pool, slots)
            if not asks_another or asks_alike(new, self):
                return new
        return redealt_asking(self, base, seat, pool, slots)


_REDEALS: Final = 32  # random redeals tried before `redealt_asking` (see _determinize)
