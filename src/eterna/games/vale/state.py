"""The Vale of Eternity's rules engine. Section numbers (§) and questions (Q) refer to the rules
digest shared/reference/vale_of_eternity/rules.md, reproduced with every decision in docs/vale.md.

Hot path: `legal_actions`, `apply` and `clone` use ints, short lists and interned actions.
Card effects run from a work stack of (step, seat, card, argument) tuples: a step that needs a
decision leaves a pending choice (`_choice`) answered by an ordinary action (STYLE.md point 6).
Views, logs and refusal messages are built only when asked for.

Randomness: the only generator is derived from the game's seed, fresh for each shuffle:
shuffle k (0 = the opening deck, k >= 1 = the k-th reshuffle of the discard pile) uses
`random.Random(seed + (k << 62))`, so a clone copies no generator state.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

from eterna.core.errors import IllegalAction
from eterna.core.game import View
from eterna.core.state import COPY as CLONE_COPY
from eterna.core.state import COPY2, SHARE, BaseState, CloneKind, GameStart
from eterna.games.vale.abilities import ACTIVE, INSTANT, INSTANT_TRIVIAL, PERMANENT
from eterna.games.vale.cards import (
    A_CLAIM,
    A_DISCARD_STONE,
    A_END_TURN,
    A_REMOVE,
    A_RESOLVE,
    A_SELL,
    A_SUMMON,
    A_TAME,
    BASE_VALUE,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    CHOOSE,
    CLAIM,
    COLOURS,
    COPY,
    DECK_SIZE,
    DISCARD,
    DISCARD_STONE,
    DONE,
    END_TURN,
    FAMILIES,
    HAS_ACTIVE,
    PAYMENTS,
    RECOVER,
    REMOVE,
    RESOLVE,
    ROUNDS,
    SELL,
    SELL_,
    STONE_LIMIT,
    SUMMON,
    SUMMON_FREE,
    TAKE,
    TAME,
    TARGET,
    ValeAction,
    payment_text,
)
from eterna.games.vale.effects import Effect, Step, feasible

T = TypeVar("T")

HUNT, ACTION, RESOLUTION, OVER = range(4)
PHASES = ("hunting", "action", "resolution", "over")

Work = tuple[Step, int, int, Any]  # step, seat it acts for, card it acts for, argument
Choice = tuple[
    int, Step, int, int, Any, tuple[ValeAction, ...]
]  # chooser, step, seat, src, arg, options

_PAY_CACHE: dict[tuple[int, ...], tuple[int, ...]] = {}


def payments(
    cost: int, held: tuple[int, int, int], values: tuple[int, int, int], superfluous: bool
) -> tuple[int, ...]:
    """Indexes (into PAYMENTS) of the distinct stone sets from `held` that pay `cost` (§5.3:
    value at least the cost, no change). Q15: no stone may be superfluous (taking any one
    stone away would no longer cover the cost) unless `superfluous`."""
    key = (cost, *held, *values, superfluous)
    found = _PAY_CACHE.get(key)
    if found is not None:
        return found
    vr, vb, vp = values
    out = []
    for i, (x, y, z) in enumerate(PAYMENTS):
        if x > held[0] or y > held[1] or z > held[2]:
            continue
        v = x * vr + y * vb + z * vp
        if v < cost:
            continue
        if not superfluous and (
            (x and v - vr >= cost) or (y and v - vb >= cost) or (z and v - vp >= cost)
        ):
            continue
        out.append(i)
    found = _PAY_CACHE[key] = tuple(out)
    return found


class _AfterSummon(Step):
    """§5.3.4: your "whenever you summon" permanents, after the instant, never for the
    summoned card itself. `arg` is (payment or None for a free summon (Q4), bit mask of the
    cards in the area when the card was summoned): only those that are still there fire, so a
    card that entered during the instant (Young Forest Spirit bringing in Sylph) does not."""

    __slots__ = ()

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        paid, before = arg
        if paid is None:
            if st.start.options["free_summon_triggers"] == "none":
                return
            paid = (0, 0, 0)
        red = paid[0]
        gained = 0
        for c in st._areas[seat]:
            perm = PERMANENT[c]
            if perm is None or not before >> c & 1:
                continue
            if perm.on_summon_per_red:
                gained += perm.on_summon_per_red * red
            if perm.on_summon_points and (
                perm.on_summon_if_paid_with < 0 or paid[perm.on_summon_if_paid_with]
            ):
                gained += perm.on_summon_points
        if gained:
            st._gain_points(seat, gained)


class _StoneLimit(Step):
    """§7: over the limit, the player discards stones of their choice, one at a time."""

    __slots__ = ()

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        st._stones[seat * 3 + action.arg] -= 1


AFTER_SUMMON = _AfterSummon()
STONE_LIMIT_STEP = _StoneLimit()


@dataclass(frozen=True, slots=True, kw_only=True)
class ValeStart(GameStart):
    """What a game of the Vale never changes: the table (GameStart) and its opening position,
    the setup's (docs/vale.md) with the seed's shuffle and first player filled in."""

    end_score: int  # a score that ends the game (§9: 60; 80 with the Artifacts, not built)
    first: int  # the first player of the opening round
    round: int  # the opening round
    deck: tuple[int, ...]  # the opening deck, top card last
    discard: tuple[int, ...]  # top card last
    hands: tuple[tuple[int, ...], ...]  # one per seat, sorted
    areas: tuple[tuple[int, ...], ...]  # one per seat, in the order the cards entered
    stones: tuple[int, ...]  # seat * 3 + colour
    scores: tuple[int, ...]
    claimed: tuple[tuple[int, ...], ...] | None  # a setup that starts in the action phase
    revealed: tuple[int, ...] | None  # a setup that starts in the hunt with these (sorted)


class ValeState(BaseState[ValeAction, ValeStart]):
    """A game of The Vale of Eternity. Build one with `load_game("vale").new_game(...)`."""

    __slots__ = (
        "_activated",
        "_actors",
        "_areas",
        "_choice",
        "_claimed",
        "_cut",
        "_deck",
        "_deck_top_known",
        "_dirty",
        "_discard",
        "_first",
        "_hands",
        "_limit",
        "_phase",
        "_pick_i",
        "_picks",
        "_revealed",
        "_round",
        "_round_start",
        "_scores",
        "_secret",
        "_shuffles",
        "_stones",
        "_turn",
        "_value",
        "_work",
    )
    CLONE: ClassVar[Mapping[str, CloneKind]] = {
        "_activated": SHARE,
        "_actors": CLONE_COPY,
        "_areas": COPY2,
        "_choice": SHARE,  # a tuple
        "_claimed": COPY2,
        "_cut": CLONE_COPY,
        "_deck": CLONE_COPY,
        "_deck_top_known": SHARE,
        "_dirty": SHARE,
        "_discard": CLONE_COPY,
        "_first": SHARE,
        "_hands": COPY2,
        "_limit": CLONE_COPY,
        "_phase": SHARE,
        "_pick_i": SHARE,
        "_picks": SHARE,  # a tuple
        "_revealed": CLONE_COPY,
        "_round": SHARE,
        "_round_start": SHARE,
        "_scores": CLONE_COPY,
        "_secret": SHARE,
        "_shuffles": SHARE,
        "_stones": CLONE_COPY,
        "_turn": SHARE,
        "_value": CLONE_COPY,
        "_work": CLONE_COPY,  # a list of tuples
    }
    action_type: ClassVar[type[ValeAction]] = ValeAction
    not_an_action: ClassVar[str] = (
        "is not a Vale of Eternity action: pass an action from legal_actions() "
        "or its notation, e.g. 'summon ifrit pay blue'"
    )

    _round: int
    _first: int
    _phase: int
    _turn: int
    _hands: list[list[int]]  # sorted
    _areas: list[list[int]]  # in the order the cards entered
    _claimed: list[list[int]]
    _revealed: list[int]  # sorted: by family, then name
    _stones: list[int]  # seat * 3 + colour
    _value: list[int]  # seat * 3 + colour: what a stone is worth to that seat now
    _limit: list[int]
    _cut: list[int]  # seat * 5 + family: summoning cost reduction
    _scores: list[int]
    _deck: list[int]  # the top card is the last
    _discard: list[int]  # the top card is the last
    _shuffles: int
    _deck_top_known: int  # a card every seat knows is on top of the deck (Tengu), or -1
    _secret: int  # bit mask: cards in hands that only their holder knows (drawn)
    _picks: tuple[int, ...]
    _pick_i: int
    _activated: int  # bit mask: cards whose active effect was used this resolution phase
    _work: list[Work]
    _choice: Choice | None
    _dirty: bool  # stones or areas changed: check the stone limit
    _actors: list[int]
    _round_start: int

    def __init__(self, start: ValeStart) -> None:
        super().__init__(start)
        n = start.players
        self._round = start.round
        self._first = start.first
        self._turn = start.first
        self._current = start.first
        self._hands = [list(h) for h in start.hands]
        self._areas = [list(a) for a in start.areas]
        self._claimed = (
            [list(c) for c in start.claimed]
            if start.claimed is not None
            else [[] for _ in range(n)]
        )
        self._revealed = []
        self._stones = list(start.stones)
        self._value = [0] * (3 * n)
        self._limit = [0] * n
        self._cut = [0] * (len(FAMILIES) * n)
        self._scores = list(start.scores)
        self._deck = list(start.deck)
        self._discard = list(start.discard)
        self._shuffles = 0
        self._deck_top_known = -1
        self._secret = 0
        self._picks = ()
        self._pick_i = 0
        self._activated = 0
        self._work = []
        self._choice = None
        self._dirty = True
        self._actors = []
        self._round_start = 0
        for seat in range(n):
            self._area_changed(seat)
        if start.claimed is not None:
            self._phase = ACTION
        elif start.revealed is not None:
            self._phase = HUNT
            self._revealed = list(start.revealed)
            order = [(start.first + i) % n for i in range(n)]
            self._picks = tuple(order + order[::-1])
        else:
            self._start_hunt()
        self._run()

    # ------------------------------------------------------------------ contract: reading
    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def round(self) -> int:
        return self._round

    @property
    def phase(self) -> str:
        return PHASES[self._phase]

    # For tests and tools that own the whole state (never for agents).
    def hand(self, seat: int) -> list[str]:
        return [CARD_NAME[c] for c in self._hands[seat]]

    def area(self, seat: int) -> list[str]:
        return [CARD_NAME[c] for c in self._areas[seat]]

    def stones(self, seat: int) -> dict[str, int]:
        return {COLOURS[c]: self._stones[seat * 3 + c] for c in range(3)}

    def deck(self) -> list[str]:
        """The draw deck, top card first."""
        return [CARD_NAME[c] for c in reversed(self._deck)]

    def discard_pile(self) -> list[str]:
        return [CARD_NAME[c] for c in self._discard]

    def claimed(self, seat: int) -> list[str]:
        return [CARD_NAME[c] for c in self._claimed[seat]]

    def revealed(self) -> list[str]:
        return [CARD_NAME[c] for c in self._revealed]

    # ------------------------------------------------------------------ contract: hot path
    def _legal(self) -> tuple[ValeAction, ...]:
        choice = self._choice
        if choice is not None:
            return choice[5]
        phase = self._phase
        if phase == ACTION:
            return self._action_moves(self._turn)
        if phase == HUNT:
            return tuple(A_CLAIM[c] for c in self._revealed)
        if phase == RESOLUTION:
            return tuple(A_RESOLVE[c] for c in self._resolvable(self._turn))
        return ()

    def _action_moves(self, p: int) -> tuple[ValeAction, ...]:
        out: list[ValeAction] = []
        claimed = self._claimed[p]
        if claimed:
            out += [A_SELL[c] for c in claimed]
            out += [A_TAME[c] for c in claimed]
        b = p * 3
        held = (self._stones[b], self._stones[b + 1], self._stones[b + 2])
        values = (self._value[b], self._value[b + 1], self._value[b + 2])
        extra = self._start.options["allow_superfluous_payment"]
        area = self._areas[p]
        if len(area) < self._round:
            cut = self._cut
            for c in self._hands[p]:
                cost = CARD_COST[c] - cut[p * 5 + CARD_FAMILY[c]]
                pays = payments(cost if cost > 0 else 0, held, values, extra)
                if not pays or not (INSTANT_TRIVIAL[c] or self._instant_feasible(p, c)):
                    continue
                row = A_SUMMON[c]
                out += [row[i] for i in pays]
        if area and any(held):
            pays = payments(self._round, held, values, extra)
            if pays:
                for c in sorted(area):
                    rem = A_REMOVE[c]
                    out += [rem[i - 1] for i in pays]
        if not claimed:
            out.append(A_END_TURN)
        return tuple(out)

    def _apply(self, act: ValeAction) -> None:
        self._actors.append(self._current)
        choice = self._choice
        if choice is not None:
            self._choice = None
            _, step, seat, src, arg, _ = choice
            step.answer(self, seat, src, arg, act)
        else:
            self._do(act)
        self._run()

    def _do(self, act: ValeAction) -> None:
        kind = act.kind
        p = self._current
        c = act.card
        if kind == SUMMON:  # §5.3
            red, blue, purple = PAYMENTS[act.pay]
            b = p * 3
            self._stones[b] -= red
            self._stones[b + 1] -= blue
            self._stones[b + 2] -= purple
            self._hands[p].remove(c)
            self._secret &= ~(1 << c)
            before = self._area_mask(p)
            self._areas[p].append(c)
            self._area_changed(p)
            self._work.append((AFTER_SUMMON, p, c, ((red, blue, purple), before)))
            self._push(INSTANT[c], p, c)
        elif kind == SELL_:  # §5.1
            self._claimed[p].remove(c)
            self._discard.append(c)
            self._gain_stones(p, *SELL[CARD_FAMILY[c]])
        elif kind == TAME:  # §5.2
            self._claimed[p].remove(c)
            self._to_hand(p, c, public=True)
            fam = CARD_FAMILY[c]
            for card in self._areas[p]:
                perm = PERMANENT[card]
                if perm is not None and perm.on_tame_family == fam:
                    self._gain_stones(p, *perm.on_tame_stones)
        elif kind == END_TURN:
            self._end_action_turn()
        elif kind == RESOLVE:  # §6
            self._activated |= 1 << c
            self._push(ACTIVE[c], p, c)
        elif kind == CLAIM:  # §4.2
            self._revealed.remove(c)
            self._claimed[p].append(c)
            self._pick_i += 1
        elif kind == REMOVE:  # §5.4
            red, blue, purple = PAYMENTS[act.pay]
            b = p * 3
            self._stones[b] -= red
            self._stones[b + 1] -= blue
            self._stones[b + 2] -= purple
            self._area_to_discard(p, c)

    def _run(self) -> None:
        """Carry out pending work until a decision is needed. The stone limit (§7) is checked
        once the effect under way has run in full, its summon triggers included (§5.3 steps
        3-5): an instant's stones, points and draws all come before the discard."""
        work = self._work
        while self._choice is None:
            if work:
                step, seat, src, arg = work.pop()
                step.run(self, seat, src, arg)
                continue
            if self._dirty and self._over_limit():
                break
            if not self._progress():
                break
        choice = self._choice
        if choice is not None:
            self._current = choice[0]

    def _over_limit(self) -> bool:
        self._dirty = False
        n = self._n
        start = self._turn
        for i in range(n):
            s = (start + i) % n
            b = s * 3
            st = self._stones
            if st[b] + st[b + 1] + st[b + 2] > self._limit[s]:
                options = tuple(A_DISCARD_STONE[c] for c in range(3) if st[b + c])
                self._choice = (s, STONE_LIMIT_STEP, s, -1, None, options)
                self._dirty = True
                return True
        return False

    def _progress(self) -> bool:
        """Move the round along; False when the turn's owner must decide."""
        phase = self._phase
        if phase == ACTION:
            self._current = self._turn
            return False
        if phase == HUNT:
            if self._pick_i >= len(self._picks):
                self._phase = ACTION
                self._turn = self._first
                return True
            if not self._revealed:  # Q20: nothing left to claim
                self._pick_i += 1
                return True
            self._current = self._picks[self._pick_i]
            return False
        if phase == RESOLUTION:
            seat = self._turn
            if self._resolvable(seat):
                self._current = seat
                return False
            nxt = (seat + 1) % self._n
            if nxt == self._first:
                self._end_round()
                return not self.is_terminal
            self._turn = nxt
            return True
        self._current = -1
        return False

    def _end_action_turn(self) -> None:
        nxt = (self._turn + 1) % self._n
        if nxt == self._first:  # §6: the resolution phase, from the first player
            self._phase = RESOLUTION
            self._activated = 0
        self._turn = nxt

    def _end_round(self) -> None:
        # §9, Q16: the end is checked once, after the resolution phase
        if self._round >= ROUNDS or max(self._scores) >= self._start.end_score:
            self._phase = OVER
            self.is_terminal = True
            self._current = -1
            self._winners = self._compute_winners()
            return
        self._round += 1
        self._first = (self._first + 1) % self._n  # §9.2: the first player passes left
        self._start_hunt()

    def _game_end_score(self) -> int:
        return self._start.end_score

    def _compute_winners(self) -> list[int]:
        # §10: most points; tie: more cards in the area; still tied: shared
        best = max(self._scores)
        tied = [s for s in range(self._n) if self._scores[s] == best]
        most = max(len(self._areas[s]) for s in tied)
        return [s for s in tied if len(self._areas[s]) == most]

    def _start_hunt(self) -> None:
        """§4: reveal 2 x players cards; picks clockwise from the first player, then back."""
        n = self._n
        revealed = []
        for _ in range(2 * n):
            if not self._deck:
                self._reshuffle()
                if not self._deck:
                    break  # Q20
            revealed.append(self._deck.pop())
        self._deck_top_known = -1 if revealed else self._deck_top_known
        revealed.sort()
        self._revealed = revealed
        order = [(self._first + i) % n for i in range(n)]
        self._picks = tuple(order + order[::-1])
        self._pick_i = 0
        self._phase = HUNT
        self._turn = self._first
        self._round_start = len(self._history)

    def _resolvable(self, seat: int) -> list[int]:
        used = self._activated
        return [
            c
            for c in sorted(self._areas[seat])
            if HAS_ACTIVE[c] and not used >> c & 1 and feasible(ACTIVE[c], self, seat, c)
        ]

    # ------------------------------------------------------------------ primitives for effects
    def _gain_points(self, seat: int, n: int) -> None:
        self._scores[seat] += n

    def _lose_points(self, seat: int, n: int) -> None:
        s = self._scores[seat] - n
        self._scores[seat] = s if s > 0 else 0  # §8: never below 0

    def _gain_stones(self, seat: int, red: int, blue: int, purple: int) -> None:
        b = seat * 3
        self._stones[b] += red
        self._stones[b + 1] += blue
        self._stones[b + 2] += purple
        self._dirty = True

    def _reshuffle(self) -> None:
        """§4.1: the discard pile becomes the deck (shuffle number `_shuffles`)."""
        if not self._discard:
            return
        self._shuffles += 1
        deck = self._discard
        self._discard = []
        random.Random(self._start.seed + (self._shuffles << 62)).shuffle(deck)
        self._deck = deck
        self._deck_top_known = -1

    def _draw(self, seat: int) -> None:
        if not self._deck:
            self._reshuffle()
            if not self._deck:
                return
        card = self._deck.pop()
        public = card == self._deck_top_known
        if public:
            self._deck_top_known = -1
        self._to_hand(seat, card, public)

    def _to_hand(self, seat: int, card: int, public: bool) -> None:
        insort(self._hands[seat], card)
        if public:
            self._secret &= ~(1 << card)
        else:
            self._secret |= 1 << card

    def _area_to_hand(self, seat: int, card: int) -> None:
        self._areas[seat].remove(card)
        self._to_hand(seat, card, public=True)
        self._area_changed(seat)

    def _area_to_discard(self, seat: int, card: int) -> None:
        self._areas[seat].remove(card)
        self._discard.append(card)
        self._area_changed(seat)

    def _area_to_deck_top(self, seat: int, card: int) -> None:
        self._areas[seat].remove(card)
        self._deck.append(card)
        self._deck_top_known = card
        self._area_changed(seat)

    def _hand_to_discard(self, seat: int, card: int) -> None:
        self._hands[seat].remove(card)
        self._secret &= ~(1 << card)
        self._discard.append(card)

    def _push(self, effect: Effect, seat: int, src: int) -> None:
        work = self._work
        for step in reversed(effect):
            work.append((step, seat, src, None))

    def _ask(
        self, chooser: int, step: Step, seat: int, src: int, arg: Any, options: list[ValeAction]
    ) -> None:
        self._choice = (chooser, step, seat, src, arg, tuple(options))

    def _area_mask(self, seat: int) -> int:
        mask = 0
        for c in self._areas[seat]:
            mask |= 1 << c
        return mask

    def _has_room(self, seat: int) -> bool:
        return len(self._areas[seat]) < self._round

    def _summon_free(self, seat: int, card: int) -> None:
        """Young Forest Spirit, Dragon Egg: summon from hand without paying (Q3, Q4)."""
        self._hands[seat].remove(card)
        self._secret &= ~(1 << card)
        before = self._area_mask(seat)
        self._areas[seat].append(card)
        self._area_changed(seat)
        self._work.append((AFTER_SUMMON, seat, card, (None, before)))
        self._push(INSTANT[card], seat, card)

    def _instant_feasible(self, seat: int, card: int) -> bool:
        """Q1: could `card`'s instant be applied in full if it went from hand to area now?"""
        if INSTANT_TRIVIAL[card]:
            return True
        hand = self._hands[seat]
        area = self._areas[seat]
        i = hand.index(card)
        del hand[i]
        area.append(card)
        try:
            return feasible(INSTANT[card], self, seat, card)
        finally:
            area.pop()
            hand.insert(i, card)

    _can_summon_free = _instant_feasible

    def _with_discarded_from_hand(self, seat: int, card: int, then: Callable[[], T]) -> T:
        hand = self._hands[seat]
        i = hand.index(card)
        del hand[i]
        self._discard.append(card)
        try:
            return then()
        finally:
            self._discard.pop()
            hand.insert(i, card)

    def _with_area_discarded(self, seat: int, card: int, then: Callable[[], T]) -> T:
        area = self._areas[seat]
        i = area.index(card)
        del area[i]
        self._discard.append(card)
        try:
            return then()
        finally:
            self._discard.pop()
            area.insert(i, card)

    def _area_changed(self, seat: int) -> None:
        """Permanent effects (§11): recompute the seat's stone values, limit, cost cuts."""
        red, blue, purple = BASE_VALUE
        bonus = [0, 0, 0]
        limit = STONE_LIMIT
        cut = [0] * len(FAMILIES)
        for c in self._areas[seat]:
            perm = PERMANENT[c]
            if perm is None:
                continue
            if perm.swap_blue_purple:
                blue, purple = BASE_VALUE[2], BASE_VALUE[1]
            for i in range(3):
                bonus[i] += perm.stone_bonus[i]
            limit += perm.stone_limit
            if perm.cheaper:
                if perm.cheaper_family < 0:
                    for f in range(len(cut)):
                        cut[f] += perm.cheaper
                else:
                    cut[perm.cheaper_family] += perm.cheaper
        b = seat * 3
        # Q9: Hae-tae swaps first; Agni and Water Giant then add to the swapped values
        self._value[b : b + 3] = [red + bonus[0], blue + bonus[1], purple + bonus[2]]
        self._limit[seat] = limit
        self._cut[seat * 5 : seat * 5 + 5] = cut
        self._dirty = True

    # ------------------------------------------------------------------ bad input
    def _refusal(self, act: ValeAction) -> IllegalAction:
        """Explain, naming the rule, why `act` is refused now (never on the hot path)."""
        return IllegalAction(f"{act}: {self._why_not(act)}")

    def _why_not(self, act: ValeAction) -> str:
        if self.is_terminal:
            return "the game is over (rules §9-10)"
        p = self._current
        choice = self._choice
        kind = act.kind
        c = act.card
        name = CARD_NAME[c] if c >= 0 else ""
        if choice is not None:
            chooser, _step, _seat, src, _arg, options = choice
            what = "the stone limit (rules §7)" if src < 0 else f"the effect of {CARD_NAME[src]}"
            return (
                f"seat {chooser} must first answer {what}: one of "
                f"{', '.join(str(o) for o in options)} (rules §11: choices inside an effect)"
            )
        if kind in (RECOVER, DISCARD, TAKE, COPY, SUMMON_FREE, TARGET, CHOOSE, DONE, DISCARD_STONE):
            return "no effect is waiting for this answer now (rules §11)"
        phase = self._phase
        if kind == CLAIM:
            if phase != HUNT:
                return (
                    "cards are claimed only in the hunting phase; this is the "
                    f"{PHASES[phase]} phase (rules §4)"
                )
            return f"{name} is not an unclaimed revealed card (rules §4.2: one marker per card)"
        if phase == HUNT:
            return "this is the hunting phase: claim one revealed card (rules §4.2)"
        if kind == RESOLVE:
            if phase != RESOLUTION:
                return "active effects resolve in the resolution phase (rules §6)"
            if c not in self._areas[p]:
                return f"{name} is not in your area (rules §6)"
            if not HAS_ACTIVE[c]:
                return f"{name} has no active (hourglass) effect (rules §6)"
            if self._activated >> c & 1:
                return f"{name} already resolved this round (rules §6: once per round)"
            return f"{name}'s effect cannot be applied now, so it is skipped (rules §6)"
        if phase == RESOLUTION:
            return "this is the resolution phase: resolve your active effects (rules §6)"
        claimed = self._claimed[p]
        if kind in (SELL_, TAME):
            return f"you did not claim {name} this round (rules §5.1-5.2: only claimed cards)"
        if kind == END_TURN:
            left = ", ".join(CARD_NAME[x] for x in claimed)
            return f"sell or tame your claimed cards first: {left} (rules §5.2)"
        b = p * 3
        held = (self._stones[b], self._stones[b + 1], self._stones[b + 2])
        values = (self._value[b], self._value[b + 1], self._value[b + 2])
        pay = PAYMENTS[act.pay]
        if kind == SUMMON:
            if c not in self._hands[p]:
                return f"{name} is not in your hand (rules §5.3: summon from your hand)"
            if not self._has_room(p):
                return (
                    f"your area is full: {len(self._areas[p])} cards in round {self._round} "
                    "(rules §5.3.1: area size = round number; remove a card first)"
                )
            cost = max(0, CARD_COST[c] - self._cut[p * 5 + CARD_FAMILY[c]])
            why = self._payment_problem(pay, held, values, cost, f"{name} costs {cost}")
            if why:
                return why
            return (
                f"{name}'s instant effect cannot be applied in full now, so it cannot be "
                "summoned (rules Q1, Q14)"
            )
        if kind == REMOVE:
            if c not in self._areas[p]:
                return f"{name} is not in your area (rules §5.4)"
            why = self._payment_problem(
                pay, held, values, self._round, f"removing costs {self._round} in this round"
            )
            return why or "refused (rules §5.4)"
        return "not allowed now"

    def _payment_problem(
        self,
        pay: tuple[int, int, int],
        held: tuple[int, int, int],
        values: tuple[int, int, int],
        cost: int,
        what: str,
    ) -> str:
        if any(pay[i] > held[i] for i in range(3)):
            have = payment_text(held) or "no stones"
            return f"you do not hold {payment_text(pay)}: you hold {have} (rules §5.3.2)"
        value = sum(pay[i] * values[i] for i in range(3))
        if value < cost:
            return f"{payment_text(pay) or 'nothing'} is worth {value}; {what} (rules §5.3.2)"
        if not self._start.options["allow_superfluous_payment"]:
            for i in range(3):
                if pay[i] and value - values[i] >= cost:
                    return (
                        f"a {COLOURS[i]} stone is superfluous: {what} and the rest covers it "
                        "(rules Q15: no stone the cost does not need; no change is given)"
                    )
        return ""

    # ------------------------------------------------------------------ views
    def _view(self, seat: int | None) -> View:
        n = self._n
        names = CARD_NAME
        secret = self._secret
        choice = self._choice
        pending: dict[str, Any] | None = None
        if choice is not None:
            chooser, step, who, src, _arg, options = choice
            pending = {
                "chooser": chooser,
                "for_seat": who,
                "card": None if src < 0 else names[src],
                "kind": "stone-limit" if src < 0 else type(step).__name__,
            }
            # options may show the chooser's hand: only the chooser sees them
            if seat == chooser:
                pending["options"] = [str(o) for o in options]
        view: View = {
            "game": "vale",
            "seat": seat,
            "players": n,
            "round": self._round,
            "rounds": ROUNDS,
            "end_score": self._game_end_score(),
            "phase": PHASES[self._phase],
            "first_player": self._first,
            "turn": None if self.is_terminal else self._turn,
            "current_player": self.current_player,
            "area_limit": self._round,
            "revealed": [names[c] for c in self._revealed],
            "claimed": [[names[c] for c in cl] for cl in self._claimed],
            "hand": None if seat is None else [names[c] for c in self._hands[seat]],
            "hand_sizes": [len(h) for h in self._hands],
            "known_hands": [
                [names[c] for c in h if s == seat or not secret >> c & 1]
                for s, h in enumerate(self._hands)
            ],
            "areas": [[names[c] for c in a] for a in self._areas],
            "stones": [{COLOURS[i]: self._stones[s * 3 + i] for i in range(3)} for s in range(n)],
            "stone_values": [
                {COLOURS[i]: self._value[s * 3 + i] for i in range(3)} for s in range(n)
            ],
            "stone_limits": list(self._limit),
            "cost_reductions": [
                {FAMILIES[f]: self._cut[s * 5 + f] for f in range(5)} for s in range(n)
            ],
            "scores": list(self._scores),
            "deck_count": len(self._deck),
            "deck_top": None if self._deck_top_known < 0 else names[self._deck_top_known],
            "discard": [names[c] for c in self._discard],
            "resolved": [names[c] for c in range(DECK_SIZE) if self._activated >> c & 1]
            if self._phase == RESOLUTION
            else [],
            "pending": pending,
            "log": [
                {"seat": self._actors[i], "action": self._history[i].text}
                for i in range(self._round_start, len(self._history))
            ],
            "is_terminal": self.is_terminal,
            "winners": list(self._winners),
        }
        if seat is not None and seat == self._current:
            view["legal_actions"] = [str(a) for a in self.legal_actions()]
        return view

    # ------------------------------------------------------------------ search
    def _determinize(self, seat: int, rng: random.Random) -> ValeState:
        """Redeal what `seat` cannot see: the cards other seats drew (hidden in their hands)
        and the deck order, keeping every hand size, every card seen in a hand, and a card
        known to be on top of the deck (Tengu). Later reshuffles get a fresh seed from `rng`.
        """
        new = self.clone()
        new._determinized = True
        new._start = replace(self._start, seed=rng.getrandbits(62))
        hidden_slots: list[tuple[int, int]] = []  # (seat, -1) for a hand card, (-1, index) deck
        pool: list[int] = []
        secret = self._secret
        for s in range(self._n):
            if s == seat:
                continue
            for c in self._hands[s]:
                if secret >> c & 1:
                    pool.append(c)
                    hidden_slots.append((s, -1))
        for i, c in enumerate(self._deck):
            if c != self._deck_top_known:
                pool.append(c)
                hidden_slots.append((-1, i))
        if not pool:
            return new
        pool.sort()  # the draw depends only on what the seat knows, not on where cards are
        rng.shuffle(pool)
        hands = [
            [c for c in h if s == seat or not secret >> c & 1] for s, h in enumerate(new._hands)
        ]
        new_secret = secret
        for c in pool:
            new_secret &= ~(1 << c)
        for (s, i), c in zip(hidden_slots, pool, strict=True):
            if s >= 0:
                hands[s].append(c)
                new_secret |= 1 << c
            else:
                new._deck[i] = c
        new._hands = [sorted(h) for h in hands]
        new._secret = new_secret
        new._legal_cache = None
        choice = new._choice
        if choice is not None and choice[0] != seat and choice[3] >= 0:
            # another seat's pending choice may list cards of its (now resampled) hand: ask again
            _, step, who, src, arg, _ = choice
            new._choice = None
            step.run(new, who, src, arg)
            new._run()
        return new
