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
Steps are immutable and shared by every game; all game data lives on the state, read through
the engine attributes of ValeBoard (board.py) and changed through its primitives.

This module holds the quantities, conditions and card tests, and the steps that act at once;
choices.py the steps that ask a question, permanents.py what a card does while in an area.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, TypeVar

from eterna.games.vale.cards import (
    BLUE,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    COLOURS,
    FAMILY_INDEX,
    HAS_ACTIVE,
    HAS_INSTANT,
    HAS_PERMANENT,
    PURPLE,
    RED,
    ValeAction,
)

if TYPE_CHECKING:
    from eterna.games.vale.board import ValeBoard

Quantity = Callable[["ValeBoard", int, int], int]
Condition = Callable[["ValeBoard", int, int], bool]
CardTest = Callable[[int], bool]


# ============================================================================ quantities
def cards_in_area(family: str | None = None, cost_max: int | None = None) -> Quantity:
    """Cards in your area (the effect's own card included), optionally of one family or with
    a written cost of at most `cost_max`. Loki counts as the family its owner named."""
    fam = -1 if family is None else FAMILY_INDEX[family]
    top = 99 if cost_max is None else cost_max

    def count(st: ValeBoard, seat: int, src: int) -> int:
        if fam >= 0 and st.perks:
            return sum(
                1 for c in st.areas[seat] if st.family_of(seat, c) == fam and CARD_COST[c] <= top
            )
        return sum(
            1 for c in st.areas[seat] if (fam < 0 or CARD_FAMILY[c] == fam) and CARD_COST[c] <= top
        )

    return count


def cards_in_area_with_active(st: ValeBoard, seat: int, src: int) -> int:
    return sum(1 for c in st.areas[seat] if HAS_ACTIVE[c])


def cards_in_area_with_permanent(st: ValeBoard, seat: int, src: int) -> int:
    return sum(1 for c in st.areas[seat] if HAS_PERMANENT[c])


def cards_in_hand(st: ValeBoard, seat: int, src: int) -> int:
    return len(st.hands[seat])


def families_in_area(st: ValeBoard, seat: int, src: int) -> int:
    if st.perks:
        return len({st.family_of(seat, c) for c in st.areas[seat]})
    return len({CARD_FAMILY[c] for c in st.areas[seat]})


def families_in_hand(st: ValeBoard, seat: int, src: int) -> int:
    return len({CARD_FAMILY[c] for c in st.hands[seat]})


def half_of(quantity: Quantity) -> Quantity:
    """`quantity` halved, rounded down (Fireblast: one point per two Fire cards)."""

    def half(st: ValeBoard, seat: int, src: int) -> int:
        return quantity(st, seat, src) // 2

    return half


def stones_held(colour: int) -> Quantity:
    def count(st: ValeBoard, seat: int, src: int) -> int:
        return st.stone_counts[seat * 3 + colour]

    return count


def value_of_stones(colour: int | None = None) -> Quantity:
    """The combined value of your stones (of one colour), with the value modifiers in force."""

    def value(st: ValeBoard, seat: int, src: int) -> int:
        colours = range(3) if colour is None else (colour,)
        return sum(st.stone_counts[seat * 3 + c] * st.stone_values[seat * 3 + c] for c in colours)

    return value


# ============================================================================ conditions
def holds_stones(at_least: int) -> Condition:
    """You hold at least this many stones (any colours)."""

    def test(st: ValeBoard, seat: int, src: int) -> bool:
        b = seat * 3
        return sum(st.stone_counts[b : b + 3]) >= at_least

    return test


def holds(colour: int) -> Condition:
    def test(st: ValeBoard, seat: int, src: int) -> bool:
        return st.stone_counts[seat * 3 + colour] > 0

    return test


def no_card_in_area(family: str) -> Condition:
    fam = FAMILY_INDEX[family]

    def test(st: ValeBoard, seat: int, src: int) -> bool:
        if st.perks:
            return all(st.family_of(seat, c) != fam for c in st.areas[seat])
        return all(CARD_FAMILY[c] != fam for c in st.areas[seat])

    return test


def hand_size_equals_area_size(st: ValeBoard, seat: int, src: int) -> bool:
    return len(st.hands[seat]) == len(st.areas[seat])


def hand_smaller_than(n: int) -> Condition:
    def test(st: ValeBoard, seat: int, src: int) -> bool:
        return len(st.hands[seat]) < n

    return test


def an_opponent_has_more_points(st: ValeBoard, seat: int, src: int) -> bool:
    mine = st.points[seat]
    return any(st.points[s] > mine for s in range(st.players) if s != seat)


def area_has_written_costs(*costs: int) -> Condition:
    wanted = frozenset(costs)

    def test(st: ValeBoard, seat: int, src: int) -> bool:
        return wanted <= {CARD_COST[c] for c in st.areas[seat]}

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
ArgT = TypeVar("ArgT")


class Step(Generic[ArgT]):
    """One primitive of an effect. `trivial` steps are feasible in every position.

    `ArgT` is the type of the step's own progress, its `arg`: None when the step first runs
    (`ValeBoard.push`), then what the step itself queued (`ValeBoard.queue`) or asked with
    (`ValeBoard.ask`), so mypy checks that what is queued for a step is what it reads. A step
    that reads no progress is a `Step[object]`: it takes any value and ignores it (a position's
    stray `arg` is ignored, as it always was, and no check is compiled in)."""

    __slots__ = ()
    trivial: ClassVar[bool] = True
    kind: ClassVar[str] = ""  # a step that asks: its question's stable name (events, views)
    named: ClassVar[bool] = False  # asks a player to name, then that player for a card

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return True

    def run(self, st: ValeBoard, seat: int, src: int, arg: ArgT | None) -> None:
        raise NotImplementedError

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: ArgT | None, action: ValeAction
    ) -> None:
        raise NotImplementedError(f"{type(self).__name__} asks nothing")


# A step of any kind, its argument's type unknown: what an effect, the work stack and a pending
# choice hold, steps of several kinds side by side. Python has no existential type ("a step and
# an argument of the same type, whichever"), so this alias is the one place the Vale's step
# argument stays Any; `ValeBoard.queue` and `ValeBoard.ask` check each step against its argument.
AnyStep = Step[Any]
Effect = tuple[AnyStep, ...]


class Work:
    """An effect step waiting to run: an item of the board's `work` stack (the next one last).
    Immutable (`Final`: the compiled class refuses a write too), so clones share it; equal when
    its fields are (a position's check compares two stacks)."""

    __slots__ = ("arg", "seat", "src", "step")

    def __init__(self, step: AnyStep, seat: int, src: int, arg: object) -> None:
        self.step: Final = step
        self.seat: Final = seat  # the seat it acts for
        self.src: Final = src  # the card it acts for (-1: a rule's step, -2 - t: artifact tile t)
        self.arg: Final = arg  # its progress: None on its first run, else what `queue` put there

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Work)
            and self.step is other.step
            and self.seat == other.seat
            and self.src == other.src
            and self.arg == other.arg
        )

    def __repr__(self) -> str:
        return f"Work({self.step!r}, {self.seat}, {self.src}, {self.arg!r})"


def feasible(effect: Effect, st: ValeBoard, seat: int, src: int) -> bool:
    return all(step.trivial or step.feasible(st, seat, src) for step in effect)


class GainPoints(Step[object]):
    __slots__ = ("per", "times")

    def __init__(self, times: int, per: Quantity | None = None) -> None:
        self.times = times
        self.per = per

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        n = self.times if self.per is None else self.times * self.per(st, seat, src)
        st.gain_points(seat, n)


def points(n: int) -> GainPoints:
    """Gain n points."""
    return GainPoints(n)


def points_per(n: int, quantity: Quantity) -> GainPoints:
    """Gain n points for each of `quantity`."""
    return GainPoints(n, quantity)


class LosePoints(Step[object]):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.lose_points(seat, self.n)


def lose_points(n: int) -> LosePoints:
    return LosePoints(n)


class GainStones(Step[object]):
    __slots__ = ("blue", "purple", "red")

    def __init__(self, red: int, blue: int, purple: int) -> None:
        self.red, self.blue, self.purple = red, blue, purple

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.gain_stones(seat, self.red, self.blue, self.purple)


def stones(red: int = 0, blue: int = 0, purple: int = 0) -> GainStones:
    """Gain stones from the supply (the stone limit applies at once)."""
    return GainStones(red, blue, purple)


class ReturnStone(Step[object]):
    """Return one stone of a colour to the supply (the effect needs one)."""

    __slots__ = ("colour",)
    trivial = False

    def __init__(self, colour: int) -> None:
        self.colour = colour

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return st.stone_counts[seat * 3 + self.colour] > 0

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.lose_stone(seat, self.colour, "stones_returned")


def return_stone(colour: int) -> ReturnStone:
    return ReturnStone(colour)


class Exchange(Step[object]):
    """Swap one stone of a colour for other stones."""

    __slots__ = ("gain", "give")
    trivial = False

    def __init__(self, give: int, gain: tuple[int, int, int]) -> None:
        self.give = give
        self.gain = gain

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return st.stone_counts[seat * 3 + self.give] > 0

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.lose_stone(seat, self.give, "stones_returned")
        st.gain_stones(seat, *self.gain, earned=False)


def exchange(give: int, red: int = 0, blue: int = 0, purple: int = 0) -> Exchange:
    return Exchange(give, (red, blue, purple))


class Upgrade(Step[object]):
    """Upgrade one stone of a colour by one step: red to blue, blue to purple (an exchange:
    Thalassa does not count the blue, digest Q-C5)."""

    __slots__ = ("colour",)
    trivial = False

    def __init__(self, colour: int) -> None:
        self.colour = colour

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return self.colour < PURPLE and st.stone_counts[seat * 3 + self.colour] > 0

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.lose_stone(seat, self.colour, "stones_returned")
        up = [0, 0, 0]
        up[self.colour + 1] = 1
        st.gain_stones(seat, up[0], up[1], up[2], earned=False)


def upgrade(colour: int) -> Upgrade:
    return Upgrade(colour)


class ReturnAllStones(Step[object]):
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        b = seat * 3
        red, blue, purple = st.stone_counts[b : b + 3]
        st.lose_stones(seat, red, blue, purple, "stones_returned")


def return_all_stones() -> ReturnAllStones:
    return ReturnAllStones()


class ConvertAllStones(Step[object]):
    __slots__ = ("colour",)

    def __init__(self, colour: int) -> None:
        self.colour = colour

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        base = seat * 3
        total = sum(st.stone_counts[base : base + 3])
        st.stone_counts[base : base + 3] = [0, 0, 0]
        st.stone_counts[base + self.colour] = total
        if st._events is not None:
            st.tell(
                "stones_converted",
                seat=seat,
                colour=COLOURS[self.colour],
                count=total,
                source=st.source(),
            )


def replace_every_stone_with(colour: int) -> ConvertAllStones:
    return ConvertAllStones(colour)


class Require(Step[object]):
    """The rest of the effect applies only when `condition` holds (otherwise it is skipped).

    Only for active effects: an instant that required something missing would refuse the
    summon, and conditional instants use `when` instead.
    """

    __slots__ = ("condition",)
    trivial = False

    def __init__(self, condition: Condition) -> None:
        self.condition = condition

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return self.condition(st, seat, src)

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        pass


def require(condition: Condition) -> Require:
    return Require(condition)


class When(Step[object]):
    """If `condition` holds now, do `then`, else do `otherwise` (either may be empty)."""

    __slots__ = ("condition", "otherwise", "then")

    def __init__(self, condition: Condition, then: Effect, otherwise: Effect) -> None:
        self.condition = condition
        self.then = then
        self.otherwise = otherwise

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.push(self.then if self.condition(st, seat, src) else self.otherwise, seat, src)


def when(condition: Condition, *then: AnyStep, otherwise: Effect = ()) -> When:
    return When(condition, then, otherwise)


class Draw(Step[object]):
    """Draw the top card of the deck (the discard pile is reshuffled when the deck is empty)."""

    __slots__ = ()
    trivial = False

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(st.draw_pile or st.discard)

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.draw(seat)


def draw() -> Draw:
    return Draw()


class _ThisCardLeavesYourArea(Step[object]):
    """This card goes from your area somewhere else (`move`), if it is still there."""

    __slots__ = ()
    trivial = False

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return src in st.areas[seat]

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        if src in st.areas[seat]:
            self.move(st, seat, src)

    def move(self, st: ValeBoard, seat: int, src: int) -> None:
        raise NotImplementedError


class Recover(_ThisCardLeavesYourArea):
    """ "Recover": this card goes back from your area to your hand."""

    __slots__ = ()

    def move(self, st: ValeBoard, seat: int, src: int) -> None:
        st.area_to_hand(seat, src)


def recover() -> Recover:
    return Recover()


class PutOnDeck(_ThisCardLeavesYourArea):
    """This card goes from your area onto the top of the draw deck (face down)."""

    __slots__ = ()

    def move(self, st: ValeBoard, seat: int, src: int) -> None:
        st.area_to_deck_top(seat, src)


def put_self_on_deck() -> PutOnDeck:
    return PutOnDeck()


class DiscardSelf(_ThisCardLeavesYourArea):
    """This card goes from your area to the discard pile (Mandrake)."""

    __slots__ = ()

    def move(self, st: ValeBoard, seat: int, src: int) -> None:
        st.area_to_discard(seat, src)


def discard_self() -> DiscardSelf:
    return DiscardSelf()


class ShowHand(Step[object]):
    """Show your hand to every player (Anzu): its cards are known from now on."""

    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        for c in st.hands[seat]:
            st.secret &= ~(1 << c)
        if st._events is not None:
            st.tell(
                "hand_shown",
                seat=seat,
                cards=[CARD_NAME[c] for c in st.hands[seat]],
                source=st.source(),
            )


def show_hand() -> ShowHand:
    return ShowHand()


class NameFamily(Step[object]):
    """Loki: it counts as `family` for the rest of its owner's turn."""

    __slots__ = ("family",)

    def __init__(self, family: str) -> None:
        self.family = FAMILY_INDEX[family]

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.name_family(seat, self.family)


def counts_as(family: str) -> NameFamily:
    return NameFamily(family)


__all__ = [
    "BLUE",
    "PURPLE",
    "RED",
    "Effect",
    "Step",
    "feasible",
]
