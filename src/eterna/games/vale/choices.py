"""The steps of card effects that ask a question (see effects.py for the vocabulary's rules).

Each leaves a pending choice on the state (`ask`), answered by an ordinary action of the
chooser; its `answer` goes on from there, and its `feasible` offers only options that keep the
effect completable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from eterna.core.frozen import Frozen
from eterna.games.vale.cards import (
    A_CHOOSE,
    A_COPY,
    A_DISCARD,
    A_DONE,
    A_PUT_ON_DECK,
    A_RECOVER,
    A_RESOLVE,
    A_SUMMON_FREE,
    A_TAKE,
    A_TARGET,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    CHOICE_INDEX,
    FAMILY_INDEX,
    HAS_ACTIVE,
    HAS_INSTANT,
    ValeAction,
)
from eterna.games.vale.effects import (
    AnyStep,
    CardTest,
    Effect,
    Recover,
    Step,
    any_card,
    feasible,
)
from eterna.games.vale.permanents import WATCH_POINTS_LOST

if TYPE_CHECKING:
    from eterna.games.vale.board import ValeBoard


class ReturnToHand(Step[object]):
    """Choose one other card of your area matching `test` and return it to your hand
    (`gain_cost`: then gain points equal to its written cost)."""

    kind = "return_to_hand"

    __slots__ = ("gain_cost", "test")
    trivial = False

    def __init__(self, test: CardTest, gain_cost: bool) -> None:
        self.test = test
        self.gain_cost = gain_cost

    def _targets(self, st: ValeBoard, seat: int, src: int) -> list[int]:
        return sorted(c for c in st.areas[seat] if c != src and self.test(c))

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat, src))

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        targets = self._targets(st, seat, src)
        if targets:
            st.ask(seat, self, seat, src, None, [A_RECOVER[c] for c in targets])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.area_to_hand(seat, action.card)
        if self.gain_cost:
            st.gain_points(seat, CARD_COST[action.card])


def return_to_hand(test: CardTest = any_card, gain_cost: bool = False) -> ReturnToHand:
    return ReturnToHand(test, gain_cost)


class DiscardFromHand(Step[object]):
    """Discard one card of your hand; then `then`, or points equal to its written cost."""

    kind = "discard_from_hand"

    __slots__ = ("gain_cost", "then")
    trivial = False

    def __init__(self, gain_cost: bool, then: Effect) -> None:
        self.gain_cost = gain_cost
        self.then = then

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(st.hands[seat])

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        if st.hands[seat]:
            st.ask(seat, self, seat, src, None, [A_DISCARD[c] for c in st.hands[seat]])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.hand_to_discard(seat, action.card)
        if self.gain_cost:
            st.gain_points(seat, CARD_COST[action.card])
        st.push(self.then, seat, src)


def discard_from_hand(*then: AnyStep, gain_cost: bool = False) -> DiscardFromHand:
    return DiscardFromHand(gain_cost, then)


class TakeFromDiscard(Step[object]):
    """Take one card matching `test` from the discard pile into your hand."""

    kind = "take_from_discard"

    __slots__ = ("test",)
    trivial = False

    def __init__(self, test: CardTest) -> None:
        self.test = test

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return any(self.test(c) for c in st.discard)

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        targets = sorted(c for c in st.discard if self.test(c))
        if targets:
            st.ask(seat, self, seat, src, None, [A_TAKE[c] for c in targets])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.discard.remove(action.card)
        st.to_hand(seat, action.card, public=True)
        if st._events is not None:
            st.tell("card_taken", seat=seat, card=CARD_NAME[action.card], source=st.source())


def take_from_discard(test: CardTest) -> TakeFromDiscard:
    return TakeFromDiscard(test)


class DiscardFromOwnArea(Step[int]):
    """Discard up to `most` other cards of your own area (`done` stops); `least` of them are
    required (then the effect needs that many), and `gain_cost` scores each one's written
    cost (Anubis)."""

    kind = "discard_from_own_area"

    __slots__ = ("gain_cost", "least", "most")

    def __init__(self, most: int, least: int = 0, gain_cost: bool = False) -> None:
        self.most = most
        self.least = least
        self.gain_cost = gain_cost

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        done = arg or 0
        targets = sorted(c for c in st.areas[seat] if c != src)
        if done < self.most and targets:
            stop = [A_DONE] if done >= self.least else []
            st.ask(seat, self, seat, src, done, [*stop, *(A_DISCARD[c] for c in targets)])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if action is A_DONE:  # a move like any other: told, though it changes no figure
            if st._events is not None:
                st.tell("discarding_ended", seat=seat, source=st.source())
            return
        st.area_to_discard(seat, action.card)
        if self.gain_cost:
            st.gain_points(seat, CARD_COST[action.card])
        st.queue(self, seat, src, (arg or 0) + 1)


def discard_up_to_from_own_area(most: int) -> DiscardFromOwnArea:
    return DiscardFromOwnArea(most)


class DiscardAnotherFromOwnArea(DiscardFromOwnArea):
    """The same question when the effect needs the discard (Anubis): feasible only with
    another card in the area."""

    __slots__ = ()
    trivial = False

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return sum(1 for c in st.areas[seat] if c != src) >= self.least


def discard_another_from_own_area(gain_cost: bool = False) -> DiscardAnotherFromOwnArea:
    """Discard one other card of your area (the effect needs one)."""
    return DiscardAnotherFromOwnArea(1, least=1, gain_cost=gain_cost)


class DiscardUpToFromHand(Step[int]):
    """Discard up to `most` cards of your hand (None: any number), one at a time, `done`
    stopping; each discard is followed by `each` (Melusine's points, Taweret's stones)."""

    kind = "discard_up_to_from_hand"

    __slots__ = ("each", "most")

    def __init__(self, most: int | None, each: Effect) -> None:
        self.most = most
        self.each = each

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        done = arg or 0
        hand = st.hands[seat]
        if hand and (self.most is None or done < self.most):
            st.ask(seat, self, seat, src, done, [A_DONE, *(A_DISCARD[c] for c in hand)])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if action is A_DONE:
            if st._events is not None:
                st.tell("discarding_ended", seat=seat, source=st.source())
            return
        st.hand_to_discard(seat, action.card)
        st.queue(self, seat, src, (arg or 0) + 1)
        st.push(self.each, seat, src)


def discard_up_to_from_hand(most: int | None, *each: AnyStep) -> DiscardUpToFromHand:
    return DiscardUpToFromHand(most, each)


class PutFromHandOnDeck(Step[object]):
    """Put one card of your hand on top of the draw deck (Nurikabe; nothing with an empty
    hand). Every seat knows which card it is only if the card was known in your hand."""

    kind = "put_on_deck"

    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        hand = st.hands[seat]
        if hand:
            st.ask(seat, self, seat, src, None, [A_PUT_ON_DECK[c] for c in hand])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.hand_to_deck_top(seat, action.card)


def put_a_card_from_hand_on_deck() -> PutFromHandOnDeck:
    return PutFromHandOnDeck()


class NamedPlayerDiscards(Step[int]):
    """Name a player with a card of `family` in their area (yourself too unless the option
    `dragon_attack_targets` is 'opponents'); they discard one of those cards, their choice."""

    kind = "name_a_player"

    __slots__ = ("family",)
    trivial = False
    named = True

    def __init__(self, family: str) -> None:
        self.family = FAMILY_INDEX[family]

    def _victims(self, st: ValeBoard, seat: int) -> list[int]:
        fam = self.family
        self_ok = st.start.options["dragon_attack_targets"] == "any"
        return [
            s
            for s in range(st.players)
            if (self_ok or s != seat) and any(CARD_FAMILY[c] == fam for c in st.areas[s])
        ]

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._victims(st, seat))

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            victims = self._victims(st, seat)
            if victims:
                st.ask(seat, self, seat, src, None, [A_TARGET[s] for s in victims])
            return
        fam = self.family
        cards = sorted(c for c in st.areas[arg] if CARD_FAMILY[c] == fam)
        if cards:
            st.ask(arg, self, seat, src, arg, [A_DISCARD[c] for c in cards])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if arg is None:  # the summoner named a player: now that player picks the card
            st.queue(self, seat, src, action.arg)
        else:
            st.area_to_discard(arg, action.card)


def named_player_discards(family: str) -> NamedPlayerDiscards:
    return NamedPlayerDiscards(family)


class StealPoints(Step[object]):
    """Choose an opponent and move up to n of their points to you (a score stops at 0)."""

    kind = "steal_points"

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        st.ask(seat, self, seat, src, None, [A_TARGET[s] for s in range(st.players) if s != seat])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        victim = action.arg
        taken = min(self.n, st.points[victim])
        st.points[victim] -= taken
        st.points[seat] += taken
        if taken and st.perks:
            st.recover_watchers(victim, WATCH_POINTS_LOST)
        if st._events is not None:
            st.tell("points_stolen", seat=seat, victim=victim, points=taken, source=st.source())


def steal_points(n: int) -> StealPoints:
    return StealPoints(n)


@dataclass(frozen=True)
class Option(Frozen):
    name: str
    effect: Effect


class ChooseOne(Step[frozenset[int]]):
    """Choose `picks` different options among `options` and carry each out (one at a time)."""

    kind = "choose_one"

    __slots__ = ("by_index", "options", "picks")
    trivial = False

    def __init__(self, options: tuple[Option, ...], picks: int) -> None:
        self.options = options
        self.picks = picks
        self.by_index = {CHOICE_INDEX[o.name]: o for o in options}

    def _open(self, st: ValeBoard, seat: int, src: int, taken: frozenset[int]) -> list[int]:
        return [
            i
            for i, o in self.by_index.items()
            if i not in taken and feasible(o.effect, st, seat, src)
        ]

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return len(self._open(st, seat, src, frozenset())) >= self.picks

    def run(self, st: ValeBoard, seat: int, src: int, arg: frozenset[int] | None) -> None:
        taken: frozenset[int] = arg or frozenset()
        if len(taken) >= self.picks:
            return
        open_ = self._open(st, seat, src, taken)
        if open_:
            st.ask(seat, self, seat, src, taken, [A_CHOOSE[i] for i in sorted(open_)])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: frozenset[int] | None, action: ValeAction
    ) -> None:
        st.queue(self, seat, src, (arg or frozenset()) | {action.arg})
        st.push(self.by_index[action.arg].effect, seat, src)


def choose(*options: tuple[str, Effect], picks: int = 1) -> ChooseOne:
    return ChooseOne(tuple(Option(name, effect) for name, effect in options), picks)


class CopyInstant(Step[object]):
    """Choose another card of your area with an instant effect and resolve that instant again
    (only cards whose instant can be applied in full are offered)."""

    kind = "copy_instant"

    __slots__ = ()
    trivial = False

    def _targets(self, st: ValeBoard, seat: int, src: int) -> list[int]:
        from eterna.games.vale.abilities import INSTANT

        return sorted(
            c
            for c in st.areas[seat]
            if c != src and HAS_INSTANT[c] and feasible(INSTANT[c], st, seat, c)
        )

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat, src))

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        targets = self._targets(st, seat, src)
        if targets:
            st.ask(seat, self, seat, src, None, [A_COPY[c] for c in targets])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        from eterna.games.vale.abilities import INSTANT

        st.push(INSTANT[action.card], seat, action.card)


def copy_instant_of_other_card() -> CopyInstant:
    return CopyInstant()


def _active_as_copied(st: ValeBoard, card: int, copier: int) -> list[tuple[AnyStep, int]]:
    """The steps of `card`'s active effect with the card each acts for, when `copier` copies it
    (option `exalted_recover`: whose 'Recover' it is, digest Q11)."""
    from eterna.games.vale.abilities import ACTIVE

    mine = st.start.options["exalted_recover"] == "copier"
    return [(s, copier if mine and isinstance(s, Recover) else card) for s in ACTIVE[card]]


class CopyActive(Step[object]):
    """Choose another card of your area with an active effect and carry it out once more."""

    kind = "copy_active"

    __slots__ = ()
    trivial = False

    def _targets(self, st: ValeBoard, seat: int, src: int) -> list[int]:
        return sorted(
            c
            for c in st.areas[seat]
            if c != src
            and HAS_ACTIVE[c]
            and all(
                s.trivial or s.feasible(st, seat, who) for s, who in _active_as_copied(st, c, src)
            )
        )

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat, src))

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        targets = self._targets(st, seat, src)
        if targets:
            st.ask(seat, self, seat, src, None, [A_COPY[c] for c in targets])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        for s, who in reversed(_active_as_copied(st, action.card, src)):
            st.queue(s, seat, who, None)


def copy_active_of_other_card() -> CopyActive:
    return CopyActive()


class ActivateOthers(Step[int]):
    """Use, once each and in the order you choose, the active effect of every other card of
    your area that can be resolved (an extra use: they still resolve at the round's end)."""

    kind = "activate_others"

    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        from eterna.games.vale.abilities import ACTIVE

        used: int = arg or 0
        targets = [
            c
            for c in sorted(st.areas[seat])
            if c != src and HAS_ACTIVE[c] and not used >> c & 1 and feasible(ACTIVE[c], st, seat, c)
        ]
        if targets:
            st.ask(seat, self, seat, src, used, [A_RESOLVE[c] for c in targets])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        from eterna.games.vale.abilities import ACTIVE

        st.queue(self, seat, src, (arg or 0) | 1 << action.card)
        st.push(ACTIVE[action.card], seat, action.card)


def use_active_effects_of_other_cards() -> ActivateOthers:
    return ActivateOthers()


class DiscardThenSummonFree(Step[int]):
    """Discard one card of your hand, then summon a different card of your hand for free (its
    instant resolves). The free card needs a slot unless `young_spirit_area_limit` is 'ignored'
    (digest Q3). Only discards that leave a summonable card are offered."""

    kind = "discard_then_summon_free"

    __slots__ = ()
    trivial = False

    def _room(self, st: ValeBoard, seat: int) -> bool:
        return st.start.options["young_spirit_area_limit"] == "ignored" or st.has_room(seat)

    def _discards(self, st: ValeBoard, seat: int) -> list[int]:
        if not self._room(st, seat):
            return []
        hand = st.hands[seat]
        out = []
        for d in list(hand):
            if st.with_discarded_from_hand(
                seat, d, lambda: any(st.can_summon_free(seat, s) for s in list(hand))
            ):
                out.append(d)
        return out

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._discards(st, seat))

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            discards = self._discards(st, seat)
            if discards:
                st.ask(seat, self, seat, src, None, [A_DISCARD[c] for c in discards])
            return
        free = [s for s in st.hands[seat] if st.can_summon_free(seat, s)]
        if free and self._room(st, seat):
            st.ask(seat, self, seat, src, 1, [A_SUMMON_FREE[c] for c in free])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if arg is None:
            st.hand_to_discard(seat, action.card)
            st.queue(self, seat, src, 1)
        else:
            st.summon_free(seat, action.card)


def discard_from_hand_then_summon_free() -> DiscardThenSummonFree:
    return DiscardThenSummonFree()


class DiscardSelfThenSummonFree(Step[int]):
    """This card goes from your area to the discard pile; then summon a card of `family` from
    your hand for free, in its slot (its instant resolves and must be applicable, Q18)."""

    kind = "summon_free_in_place"

    __slots__ = ("family",)
    trivial = False

    def __init__(self, family: str) -> None:
        self.family = FAMILY_INDEX[family]

    def _choices(self, st: ValeBoard, seat: int, src: int) -> list[int]:
        fam = self.family
        hand = st.hands[seat]
        if src not in st.areas[seat]:
            return []
        return st.with_area_discarded(
            seat,
            src,
            lambda: [
                c for c in list(hand) if CARD_FAMILY[c] == fam and st.can_summon_free(seat, c)
            ],
        )

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._choices(st, seat, src))

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            if self._choices(st, seat, src):
                st.area_to_discard(seat, src)
                st.queue(self, seat, src, 1)
            return
        fam = self.family
        free = [c for c in st.hands[seat] if CARD_FAMILY[c] == fam and st.can_summon_free(seat, c)]
        if free:
            st.ask(seat, self, seat, src, 1, [A_SUMMON_FREE[c] for c in free])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        st.summon_free(seat, action.card)


def discard_self_then_summon_free(family: str) -> DiscardSelfThenSummonFree:
    return DiscardSelfThenSummonFree(family)
