"""The vocabulary card effects are composed from (STYLE.md point 5).

An effect is a tuple of steps run in order for one player (`seat`) on behalf of one card (`src`,
the card whose text it is). A step either acts at once (gain points, gain stones, draw...) or
asks a question: it leaves a pending choice on the state, answered by an ordinary action of the
chooser (STYLE.md point 6), and its `answer` goes on from there.

Every step also says whether it can be carried out now (`feasible`): a card whose instant
effect cannot be applied in full is not summoned (digest Q1, Q14), an active effect that cannot
be applied is skipped at resolution (digest §6), and a choice only offers options that keep the
effect completable. Counting steps ("1 point per ...") are always feasible, even at zero (Q14).

Quantities and conditions are small callables `(state, seat, src) -> int | bool`.
Steps are immutable and shared by every game; all game data lives on the state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from eterna.games.vale.cards import (
    A_CHOOSE,
    A_COPY,
    A_DISCARD,
    A_DONE,
    A_RECOVER,
    A_RESOLVE,
    A_SUMMON_FREE,
    A_TAKE,
    A_TARGET,
    BLUE,
    CARD_COST,
    CARD_FAMILY,
    CHOICE_INDEX,
    FAMILY_INDEX,
    HAS_ACTIVE,
    HAS_INSTANT,
    PURPLE,
    RED,
    ValeAction,
)

if TYPE_CHECKING:
    from eterna.games.vale.state import ValeState

Quantity = Callable[["ValeState", int, int], int]
Condition = Callable[["ValeState", int, int], bool]
CardTest = Callable[[int], bool]


# ============================================================================ quantities
def cards_in_area(family: str | None = None, cost_max: int | None = None) -> Quantity:
    """Cards in your area (the effect's own card included), optionally of one family or with
    a written cost of at most `cost_max`."""
    fam = -1 if family is None else FAMILY_INDEX[family]
    top = 99 if cost_max is None else cost_max

    def count(st: ValeState, seat: int, src: int) -> int:
        return sum(
            1 for c in st._areas[seat] if (fam < 0 or CARD_FAMILY[c] == fam) and CARD_COST[c] <= top
        )

    return count


def cards_in_area_with_active(st: ValeState, seat: int, src: int) -> int:
    return sum(1 for c in st._areas[seat] if HAS_ACTIVE[c])


def cards_in_hand(st: ValeState, seat: int, src: int) -> int:
    return len(st._hands[seat])


def families_in_area(st: ValeState, seat: int, src: int) -> int:
    return len({CARD_FAMILY[c] for c in st._areas[seat]})


def stones_held(colour: int) -> Quantity:
    def count(st: ValeState, seat: int, src: int) -> int:
        return st._stones[seat * 3 + colour]

    return count


def value_of_stones(colour: int | None = None) -> Quantity:
    """The combined value of your stones (of one colour), with the value modifiers in force."""

    def value(st: ValeState, seat: int, src: int) -> int:
        colours = range(3) if colour is None else (colour,)
        return sum(st._stones[seat * 3 + c] * st._value[seat * 3 + c] for c in colours)

    return value


# ============================================================================ conditions
def holds(colour: int) -> Condition:
    def test(st: ValeState, seat: int, src: int) -> bool:
        return st._stones[seat * 3 + colour] > 0

    return test


def no_card_in_area(family: str) -> Condition:
    fam = FAMILY_INDEX[family]

    def test(st: ValeState, seat: int, src: int) -> bool:
        return all(CARD_FAMILY[c] != fam for c in st._areas[seat])

    return test


def hand_size_equals_area_size(st: ValeState, seat: int, src: int) -> bool:
    return len(st._hands[seat]) == len(st._areas[seat])


def hand_smaller_than(n: int) -> Condition:
    def test(st: ValeState, seat: int, src: int) -> bool:
        return len(st._hands[seat]) < n

    return test


def an_opponent_has_more_points(st: ValeState, seat: int, src: int) -> bool:
    mine = st._scores[seat]
    return any(st._scores[s] > mine for s in range(st._n) if s != seat)


def area_has_written_costs(*costs: int) -> Condition:
    wanted = frozenset(costs)

    def test(st: ValeState, seat: int, src: int) -> bool:
        return wanted <= {CARD_COST[c] for c in st._areas[seat]}

    return test


# ============================================================================ card tests
def card_test(
    family: str | None = None,
    cost_max: int | None = None,
    has_instant: bool = False,
    has_active: bool = False,
) -> CardTest:
    fam = -1 if family is None else FAMILY_INDEX[family]
    top = 99 if cost_max is None else cost_max

    def test(card: int) -> bool:
        return (
            (fam < 0 or CARD_FAMILY[card] == fam)
            and CARD_COST[card] <= top
            and (not has_instant or HAS_INSTANT[card])
            and (not has_active or HAS_ACTIVE[card])
        )

    return test


def any_card(card: int) -> bool:
    return True


# ============================================================================ steps
class Step:
    """One primitive of an effect. `trivial` steps are feasible in every position."""

    __slots__ = ()
    trivial: ClassVar[bool] = True

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return True

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        raise NotImplementedError

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        raise NotImplementedError(f"{type(self).__name__} asks nothing")


Effect = tuple[Step, ...]


def feasible(effect: Effect, st: ValeState, seat: int, src: int) -> bool:
    return all(step.trivial or step.feasible(st, seat, src) for step in effect)


class GainPoints(Step):
    __slots__ = ("per", "times")

    def __init__(self, times: int, per: Quantity | None = None) -> None:
        self.times = times
        self.per = per

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        n = self.times if self.per is None else self.times * self.per(st, seat, src)
        st._gain_points(seat, n)


def points(n: int) -> GainPoints:
    """Gain n points."""
    return GainPoints(n)


def points_per(n: int, quantity: Quantity) -> GainPoints:
    """Gain n points for each of `quantity`."""
    return GainPoints(n, quantity)


class LosePoints(Step):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._lose_points(seat, self.n)


def lose_points(n: int) -> LosePoints:
    return LosePoints(n)


class GainStones(Step):
    __slots__ = ("blue", "purple", "red")

    def __init__(self, red: int, blue: int, purple: int) -> None:
        self.red, self.blue, self.purple = red, blue, purple

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._gain_stones(seat, self.red, self.blue, self.purple)


def stones(red: int = 0, blue: int = 0, purple: int = 0) -> GainStones:
    """Gain stones from the supply (the stone limit applies at once)."""
    return GainStones(red, blue, purple)


class ReturnStone(Step):
    """Return one stone of a colour to the supply (the effect needs one)."""

    __slots__ = ("colour",)
    trivial = False

    def __init__(self, colour: int) -> None:
        self.colour = colour

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return st._stones[seat * 3 + self.colour] > 0

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._stones[seat * 3 + self.colour] -= 1


def return_stone(colour: int) -> ReturnStone:
    return ReturnStone(colour)


class Exchange(Step):
    """Swap one stone of a colour for other stones."""

    __slots__ = ("gain", "give")
    trivial = False

    def __init__(self, give: int, gain: tuple[int, int, int]) -> None:
        self.give = give
        self.gain = gain

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return st._stones[seat * 3 + self.give] > 0

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._stones[seat * 3 + self.give] -= 1
        st._gain_stones(seat, *self.gain)


def exchange(give: int, red: int = 0, blue: int = 0, purple: int = 0) -> Exchange:
    return Exchange(give, (red, blue, purple))


class ReturnAllStones(Step):
    __slots__ = ()

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._stones[seat * 3 : seat * 3 + 3] = [0, 0, 0]


def return_all_stones() -> ReturnAllStones:
    return ReturnAllStones()


class ConvertAllStones(Step):
    __slots__ = ("colour",)

    def __init__(self, colour: int) -> None:
        self.colour = colour

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        base = seat * 3
        total = sum(st._stones[base : base + 3])
        st._stones[base : base + 3] = [0, 0, 0]
        st._stones[base + self.colour] = total


def replace_every_stone_with(colour: int) -> ConvertAllStones:
    return ConvertAllStones(colour)


class Require(Step):
    """The rest of the effect applies only when `condition` holds (otherwise it is skipped).

    Only for active effects: an instant that required something missing would refuse the
    summon, and conditional instants use `when` instead.
    """

    __slots__ = ("condition",)
    trivial = False

    def __init__(self, condition: Condition) -> None:
        self.condition = condition

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return self.condition(st, seat, src)

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        pass


def require(condition: Condition) -> Require:
    return Require(condition)


class When(Step):
    """If `condition` holds now, do `then`, else do `otherwise` (either may be empty)."""

    __slots__ = ("condition", "otherwise", "then")

    def __init__(self, condition: Condition, then: Effect, otherwise: Effect) -> None:
        self.condition = condition
        self.then = then
        self.otherwise = otherwise

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._push(self.then if self.condition(st, seat, src) else self.otherwise, seat, src)


def when(condition: Condition, *then: Step, otherwise: Effect = ()) -> When:
    return When(condition, then, otherwise)


class Draw(Step):
    """Draw the top card of the deck (the discard pile is reshuffled when the deck is empty)."""

    __slots__ = ()
    trivial = False

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(st._deck or st._discard)

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._draw(seat)


def draw() -> Draw:
    return Draw()


class Recover(Step):
    """ "Recover": this card goes back from your area to your hand."""

    __slots__ = ()
    trivial = False

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return src in st._areas[seat]

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        if src in st._areas[seat]:
            st._area_to_hand(seat, src)


def recover() -> Recover:
    return Recover()


class PutOnDeck(Step):
    """This card goes from your area onto the top of the draw deck (face down)."""

    __slots__ = ()
    trivial = False

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return src in st._areas[seat]

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        if src in st._areas[seat]:
            st._area_to_deck_top(seat, src)


def put_self_on_deck() -> PutOnDeck:
    return PutOnDeck()


class ReturnToHand(Step):
    """Choose one other card of your area matching `test` and return it to your hand
    (`gain_cost`: then gain points equal to its written cost)."""

    __slots__ = ("gain_cost", "test")
    trivial = False

    def __init__(self, test: CardTest, gain_cost: bool) -> None:
        self.test = test
        self.gain_cost = gain_cost

    def _targets(self, st: ValeState, seat: int, src: int) -> list[int]:
        return sorted(c for c in st._areas[seat] if c != src and self.test(c))

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat, src))

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        targets = self._targets(st, seat, src)
        if targets:
            st._ask(seat, self, seat, src, None, [A_RECOVER[c] for c in targets])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        st._area_to_hand(seat, action.card)
        if self.gain_cost:
            st._gain_points(seat, CARD_COST[action.card])


def return_to_hand(test: CardTest = any_card, gain_cost: bool = False) -> ReturnToHand:
    return ReturnToHand(test, gain_cost)


class DiscardFromHand(Step):
    """Discard one card of your hand; then `then`, or points equal to its written cost."""

    __slots__ = ("gain_cost", "then")
    trivial = False

    def __init__(self, gain_cost: bool, then: Effect) -> None:
        self.gain_cost = gain_cost
        self.then = then

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(st._hands[seat])

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        if st._hands[seat]:
            st._ask(seat, self, seat, src, None, [A_DISCARD[c] for c in st._hands[seat]])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        st._hand_to_discard(seat, action.card)
        if self.gain_cost:
            st._gain_points(seat, CARD_COST[action.card])
        st._push(self.then, seat, src)


def discard_from_hand(*then: Step, gain_cost: bool = False) -> DiscardFromHand:
    return DiscardFromHand(gain_cost, then)


class TakeFromDiscard(Step):
    """Take one card matching `test` from the discard pile into your hand."""

    __slots__ = ("test",)
    trivial = False

    def __init__(self, test: CardTest) -> None:
        self.test = test

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return any(self.test(c) for c in st._discard)

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        targets = sorted(c for c in st._discard if self.test(c))
        if targets:
            st._ask(seat, self, seat, src, None, [A_TAKE[c] for c in targets])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        st._discard.remove(action.card)
        st._to_hand(seat, action.card, public=True)


def take_from_discard(test: CardTest) -> TakeFromDiscard:
    return TakeFromDiscard(test)


class DiscardFromOwnArea(Step):
    """Discard up to `most` other cards of your own area (`done` stops)."""

    __slots__ = ("most",)

    def __init__(self, most: int) -> None:
        self.most = most

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        done = arg or 0
        targets = sorted(c for c in st._areas[seat] if c != src)
        if done < self.most and targets:
            st._ask(seat, self, seat, src, done, [A_DONE, *(A_DISCARD[c] for c in targets)])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        if action is A_DONE:
            return
        st._area_to_discard(seat, action.card)
        st._work.append((self, seat, src, arg + 1))


def discard_up_to_from_own_area(most: int) -> DiscardFromOwnArea:
    return DiscardFromOwnArea(most)


class NamedPlayerDiscards(Step):
    """Name a player with a card of `family` in their area (yourself too unless the option
    `dragon_attack_targets` is 'opponents'); they discard one of those cards, their choice."""

    __slots__ = ("family",)
    trivial = False

    def __init__(self, family: str) -> None:
        self.family = FAMILY_INDEX[family]

    def _victims(self, st: ValeState, seat: int) -> list[int]:
        fam = self.family
        self_ok = st._options["dragon_attack_targets"] == "any"
        return [
            s
            for s in range(st._n)
            if (self_ok or s != seat) and any(CARD_FAMILY[c] == fam for c in st._areas[s])
        ]

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(self._victims(st, seat))

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        if arg is None:
            victims = self._victims(st, seat)
            if victims:
                st._ask(seat, self, seat, src, None, [A_TARGET[s] for s in victims])
            return
        fam = self.family
        cards = sorted(c for c in st._areas[arg] if CARD_FAMILY[c] == fam)
        if cards:
            st._ask(arg, self, seat, src, arg, [A_DISCARD[c] for c in cards])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        if arg is None:  # the summoner named a player: now that player picks the card
            st._work.append((self, seat, src, action.arg))
        else:
            st._area_to_discard(arg, action.card)


def named_player_discards(family: str) -> NamedPlayerDiscards:
    return NamedPlayerDiscards(family)


class StealPoints(Step):
    """Choose an opponent and move up to n of their points to you (a score stops at 0)."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        st._ask(seat, self, seat, src, None, [A_TARGET[s] for s in range(st._n) if s != seat])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        victim = action.arg
        taken = min(self.n, st._scores[victim])
        st._scores[victim] -= taken
        st._gain_points(seat, taken)


def steal_points(n: int) -> StealPoints:
    return StealPoints(n)


@dataclass(frozen=True)
class Option:
    name: str
    effect: Effect


class ChooseOne(Step):
    """Choose `picks` different options among `options` and carry each out (one at a time)."""

    __slots__ = ("by_index", "options", "picks")
    trivial = False

    def __init__(self, options: tuple[Option, ...], picks: int) -> None:
        self.options = options
        self.picks = picks
        self.by_index = {CHOICE_INDEX[o.name]: o for o in options}

    def _open(self, st: ValeState, seat: int, src: int, taken: frozenset[int]) -> list[int]:
        return [
            i
            for i, o in self.by_index.items()
            if i not in taken and feasible(o.effect, st, seat, src)
        ]

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return len(self._open(st, seat, src, frozenset())) >= self.picks

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        taken: frozenset[int] = arg or frozenset()
        if len(taken) >= self.picks:
            return
        open_ = self._open(st, seat, src, taken)
        if open_:
            st._ask(seat, self, seat, src, taken, [A_CHOOSE[i] for i in sorted(open_)])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        st._work.append((self, seat, src, arg | {action.arg}))
        st._push(self.by_index[action.arg].effect, seat, src)


def choose(*options: tuple[str, Effect], picks: int = 1) -> ChooseOne:
    return ChooseOne(tuple(Option(name, effect) for name, effect in options), picks)


class CopyInstant(Step):
    """Choose another card of your area with an instant effect and resolve that instant again
    (only cards whose instant can be applied in full are offered)."""

    __slots__ = ()
    trivial = False

    def _targets(self, st: ValeState, seat: int, src: int) -> list[int]:
        from eterna.games.vale.abilities import INSTANT

        return sorted(
            c
            for c in st._areas[seat]
            if c != src and HAS_INSTANT[c] and feasible(INSTANT[c], st, seat, c)
        )

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat, src))

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        targets = self._targets(st, seat, src)
        if targets:
            st._ask(seat, self, seat, src, None, [A_COPY[c] for c in targets])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        from eterna.games.vale.abilities import INSTANT

        st._push(INSTANT[action.card], seat, action.card)


def copy_instant_of_other_card() -> CopyInstant:
    return CopyInstant()


def _active_as_copied(st: ValeState, card: int, copier: int) -> list[tuple[Step, int]]:
    """The steps of `card`'s active effect with the card each acts for, when `copier` copies it
    (option `exalted_recover`: whose 'Recover' it is, digest Q11)."""
    from eterna.games.vale.abilities import ACTIVE

    mine = st._options["exalted_recover"] == "copier"
    return [(s, copier if mine and isinstance(s, Recover) else card) for s in ACTIVE[card]]


class CopyActive(Step):
    """Choose another card of your area with an active effect and carry it out once more."""

    __slots__ = ()
    trivial = False

    def _targets(self, st: ValeState, seat: int, src: int) -> list[int]:
        return sorted(
            c
            for c in st._areas[seat]
            if c != src
            and HAS_ACTIVE[c]
            and all(
                s.trivial or s.feasible(st, seat, who) for s, who in _active_as_copied(st, c, src)
            )
        )

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat, src))

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        targets = self._targets(st, seat, src)
        if targets:
            st._ask(seat, self, seat, src, None, [A_COPY[c] for c in targets])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        for s, who in reversed(_active_as_copied(st, action.card, src)):
            st._work.append((s, seat, who, None))


def copy_active_of_other_card() -> CopyActive:
    return CopyActive()


class ActivateOthers(Step):
    """Use, once each and in the order you choose, the active effect of every other card of
    your area that can be resolved (an extra use: they still resolve at the round's end)."""

    __slots__ = ()

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        from eterna.games.vale.abilities import ACTIVE

        used: int = arg or 0
        targets = [
            c
            for c in sorted(st._areas[seat])
            if c != src and HAS_ACTIVE[c] and not used >> c & 1 and feasible(ACTIVE[c], st, seat, c)
        ]
        if targets:
            st._ask(seat, self, seat, src, used, [A_RESOLVE[c] for c in targets])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        from eterna.games.vale.abilities import ACTIVE

        st._work.append((self, seat, src, arg | 1 << action.card))
        st._push(ACTIVE[action.card], seat, action.card)


def use_active_effects_of_other_cards() -> ActivateOthers:
    return ActivateOthers()


class DiscardThenSummonFree(Step):
    """Discard one card of your hand, then summon a different card of your hand for free (its
    instant resolves). The free card needs a slot unless `young_spirit_area_limit` is 'ignored'
    (digest Q3). Only discards that leave a summonable card are offered."""

    __slots__ = ()
    trivial = False

    def _room(self, st: ValeState, seat: int) -> bool:
        return st._options["young_spirit_area_limit"] == "ignored" or st._has_room(seat)

    def _discards(self, st: ValeState, seat: int) -> list[int]:
        if not self._room(st, seat):
            return []
        hand = st._hands[seat]
        out = []
        for d in list(hand):
            if st._with_discarded_from_hand(
                seat, d, lambda: any(st._can_summon_free(seat, s) for s in list(hand))
            ):
                out.append(d)
        return out

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(self._discards(st, seat))

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        if arg is None:
            discards = self._discards(st, seat)
            if discards:
                st._ask(seat, self, seat, src, None, [A_DISCARD[c] for c in discards])
            return
        free = [s for s in st._hands[seat] if st._can_summon_free(seat, s)]
        if free and self._room(st, seat):
            st._ask(seat, self, seat, src, 1, [A_SUMMON_FREE[c] for c in free])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        if arg is None:
            st._hand_to_discard(seat, action.card)
            st._work.append((self, seat, src, 1))
        else:
            st._summon_free(seat, action.card)


def discard_from_hand_then_summon_free() -> DiscardThenSummonFree:
    return DiscardThenSummonFree()


class DiscardSelfThenSummonFree(Step):
    """This card goes from your area to the discard pile; then summon a card of `family` from
    your hand for free, in its slot (its instant resolves and must be applicable, Q18)."""

    __slots__ = ("family",)
    trivial = False

    def __init__(self, family: str) -> None:
        self.family = FAMILY_INDEX[family]

    def _choices(self, st: ValeState, seat: int, src: int) -> list[int]:
        fam = self.family
        hand = st._hands[seat]
        if src not in st._areas[seat]:
            return []
        return st._with_area_discarded(
            seat,
            src,
            lambda: [
                c for c in list(hand) if CARD_FAMILY[c] == fam and st._can_summon_free(seat, c)
            ],
        )

    def feasible(self, st: ValeState, seat: int, src: int) -> bool:
        return bool(self._choices(st, seat, src))

    def run(self, st: ValeState, seat: int, src: int, arg: Any) -> None:
        if arg is None:
            if self._choices(st, seat, src):
                st._area_to_discard(seat, src)
                st._work.append((self, seat, src, 1))
            return
        fam = self.family
        free = [
            c for c in st._hands[seat] if CARD_FAMILY[c] == fam and st._can_summon_free(seat, c)
        ]
        if free:
            st._ask(seat, self, seat, src, 1, [A_SUMMON_FREE[c] for c in free])

    def answer(self, st: ValeState, seat: int, src: int, arg: Any, action: ValeAction) -> None:
        st._summon_free(seat, action.card)


def discard_self_then_summon_free(family: str) -> DiscardSelfThenSummonFree:
    return DiscardSelfThenSummonFree(family)


# ============================================================================ permanents
@dataclass(frozen=True)
class Permanent:
    """What a card does while it is in its owner's area (all zero: nothing)."""

    cheaper: int = 0  # every card you summon costs this much less (never below 0)
    cheaper_family: int = -1  # ...only cards of this family (-1: every card)
    stone_bonus: tuple[int, int, int] = (0, 0, 0)  # value added to red, blue, purple
    swap_blue_purple: bool = False  # blue stones worth a purple's value and back
    stone_limit: int = 0  # added to the stone limit
    # "whenever you summon a card" (not this card's own summon)
    on_summon_points: int = 0
    on_summon_per_red: int = 0
    on_summon_if_paid_with: int = -1  # points only when the payment holds this colour
    # "whenever you tame a card of family ..."
    on_tame_family: int = -1
    on_tame_stones: tuple[int, int, int] = field(default=(0, 0, 0))


def cheaper(n: int, family: str | None = None) -> Permanent:
    return Permanent(cheaper=n, cheaper_family=-1 if family is None else FAMILY_INDEX[family])


def stone_values(red: int = 0, blue: int = 0, purple: int = 0) -> Permanent:
    return Permanent(stone_bonus=(red, blue, purple))


def blue_and_purple_values_swapped() -> Permanent:
    return Permanent(swap_blue_purple=True)


def stone_limit_raised_by(n: int) -> Permanent:
    return Permanent(stone_limit=n)


def whenever_you_summon(
    points: int = 0, points_per_red_spent: int = 0, if_paid_with: int = -1
) -> Permanent:
    return Permanent(
        on_summon_points=points,
        on_summon_per_red=points_per_red_spent,
        on_summon_if_paid_with=if_paid_with,
    )


def whenever_you_tame(family: str, red: int = 0, blue: int = 0, purple: int = 0) -> Permanent:
    return Permanent(on_tame_family=FAMILY_INDEX[family], on_tame_stones=(red, blue, purple))


__all__ = [
    "BLUE",
    "PURPLE",
    "RED",
    "Effect",
    "Permanent",
    "Step",
    "feasible",
]
