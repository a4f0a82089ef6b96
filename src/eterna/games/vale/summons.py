"""The steps of the Artifacts creatures that bring a card into an area (see effects.py for the
vocabulary's rules): Akhlut summons a Dragon from the discard pile, Horus a card of the hand,
and the four swap Dragons (Deepdive, Pyro, Whisper, Rockscale) trade places with a card of
another player's area. Each asks its question like the steps of choices.py. `Summoned` is how
any summon was made, the argument of the rules' step after it (board.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from eterna.games.vale.cards import (
    A_SUMMON_FREE,
    A_SWAP,
    A_TARGET,
    CARD_COST,
    FAMILY_INDEX,
    ValeAction,
)
from eterna.games.vale.effects import CardTest, Step, points

if TYPE_CHECKING:
    from eterna.games.vale.board import ValeBoard


class Summoned:
    """How a card was summoned: the argument of the step that then fires the summoner's
    permanents (board.py `AFTER_SUMMON`). Immutable (`Final`), compared by value. A plain
    class, not a frozen dataclass: one is made at every summon, and a frozen dataclass takes
    three times as long to make on the pure build."""

    __slots__ = ("before", "paid")

    def __init__(self, paid: tuple[int, int, int] | None, before: int) -> None:
        self.paid: Final = paid  # the stones paid (red, blue, purple); None: free (Q4)
        self.before: Final = before  # bit mask of the cards in the area when it was summoned

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Summoned) and self.paid == other.paid and self.before == other.before
        )

    def __hash__(self) -> int:
        return hash((self.paid, self.before))


class SummonFromDiscard(Step[object]):
    """Summon a card matching `test` from the discard pile without paying (Akhlut): it needs a
    free slot and its instant must be applicable in full (digest Q-C8, rules Q18)."""

    kind = "summon_from_discard"

    __slots__ = ("test",)
    trivial = False

    def __init__(self, test: CardTest) -> None:
        self.test = test

    def _targets(self, st: ValeBoard, seat: int) -> list[int]:
        if not st.has_room(seat):
            return []
        return sorted(c for c in st.discard if self.test(c) and st.can_summon_from_discard(seat, c))

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat))

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        targets = self._targets(st, seat)
        if targets:
            st.ask(seat, self, seat, src, None, [A_SUMMON_FREE[c] for c in targets])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.summon_from_discard(seat, action.card)


def summon_free_from_discard(test: CardTest) -> SummonFromDiscard:
    return SummonFromDiscard(test)


class SummonFreeFromHand(Step[object]):
    """Summon a card of your hand without paying (Horus), then gain points equal to its written
    cost: it needs a free slot and its instant must be applicable in full (Q-C8)."""

    kind = "summon_free_from_hand"

    __slots__ = ()
    trivial = False

    def _targets(self, st: ValeBoard, seat: int) -> list[int]:
        if not st.has_room(seat):
            return []
        return [c for c in list(st.hands[seat]) if st.can_summon_free(seat, c)]

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._targets(st, seat))

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        targets = self._targets(st, seat)
        if targets:
            st.ask(seat, self, seat, src, None, [A_SUMMON_FREE[c] for c in targets])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.queue(points(CARD_COST[action.card]), seat, src, None)  # after its instant
        st.summon_free(seat, action.card)


def summon_free_from_hand_for_its_cost() -> SummonFreeFromHand:
    return SummonFreeFromHand()


class SwapWithNamedPlayer(Step[int]):
    """Name another player (yourself too if the option `swap_dragon_targets` is 'any') with a
    card of `family` in their area; they choose one of those cards, which comes into your area
    while this card goes into theirs (digest Q-C9: nobody summons, so no instant fires and
    nothing is discarded)."""

    kind = "swap_with_a_player"

    __slots__ = ("family",)
    trivial = False
    named = True

    def __init__(self, family: str) -> None:
        self.family = FAMILY_INDEX[family]

    def _cards(self, st: ValeBoard, victim: int) -> list[int]:
        fam = self.family
        return sorted(c for c in st.areas[victim] if st.family_of(victim, c) == fam)

    def _victims(self, st: ValeBoard, seat: int) -> list[int]:
        self_ok = st.start.options["swap_dragon_targets"] == "any"
        return [s for s in range(st.players) if (self_ok or s != seat) and self._cards(st, s)]

    def feasible(self, st: ValeBoard, seat: int, src: int) -> bool:
        return bool(self._victims(st, seat))

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            victims = self._victims(st, seat)
            if victims:
                st.ask(seat, self, seat, src, None, [A_TARGET[s] for s in victims])
            return
        cards = self._cards(st, arg)
        if cards and src in st.areas[seat]:
            st.ask(arg, self, seat, src, arg, [A_SWAP[c] for c in cards])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if arg is None:  # the summoner named a player: now that player picks the card
            st.queue(self, seat, src, action.arg)
        else:
            st.swap_cards(seat, src, arg, action.card)


def swap_with_a_player(family: str) -> SwapWithNamedPlayer:
    return SwapWithNamedPlayer(family)
