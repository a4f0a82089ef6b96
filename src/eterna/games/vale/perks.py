"""What the Artifacts creatures add to the engine's board (a mixin of ValeBoard, board.py): the
"whenever" permanents the board watches for (`perks`: per seat, the WATCH_* bits of the area's
permanents, zero in every base game so the base game only tests it), Belphegor's fixed cost,
Loki's family, and the primitives their steps move cards with (Akhlut, Nurikabe, the swaps)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final, cast

from mypy_extensions import trait

from eterna.games.vale.abilities import (
    INSTANT,
    INSTANT_TRIVIAL,
    LOKI_FAMILY,
    PERMANENT,
    SALE_UPGRADE,
)
from eterna.games.vale.cards import CARD_COST, CARD_FAMILY, CARD_NAME
from eterna.games.vale.effects import Effect, Recover, Work, feasible
from eterna.games.vale.permanents import (
    WATCH_ANY_FAMILY,
    WATCH_DISCARDED,
    WATCH_FIXED_COST,
    WATCH_KEPT,
    WATCH_SOLD,
)

if TYPE_CHECKING:
    from eterna.core.events import Event
    from eterna.core.jsonvalue import JsonValue
    from eterna.games.vale.board import ValeBoard

PERK_BITS: Final = 16  # ValeBoard.perks: the WATCH_* bits of each seat's area, seat * PERK_BITS up
PERK_MASK: Final = (1 << PERK_BITS) - 1
RECOVER_STEP: Final = Recover()
NO_SLOTS: tuple[str, ...] = ()  # a name, not a literal: mypy then lets the trait's methods set
# the attributes it declares (ValeBoard's slots)


@trait  # mypyc: a second base of ValeBoard, compiled with it (docs/compiled.md)
class ArtifactsPerks:
    """The board's primitives for the Artifacts creatures (ValeBoard holds the data)."""

    __slots__ = NO_SLOTS  # no data of its own (ValeBoard's slots hold it)

    # ValeBoard's data and primitives these use (a trait declares them, ValeBoard defines them)
    areas: list[list[int]]
    hands: list[list[int]]
    discard: list[int]
    draw_pile: list[int]
    cost_cuts: list[int]
    work: list[Work]
    secret: int
    known_top: int
    perks: int
    loki: int
    turn: int
    round: int
    _src: int
    _events: list[Event] | None

    def tell(
        self,
        kind: str,
        private: Mapping[str, JsonValue] | None = None,
        to: tuple[int, ...] = (),
        **public: JsonValue,
    ) -> None:
        raise NotImplementedError

    def source(self) -> str | None:
        raise NotImplementedError

    def gain_points(self, seat: int, n: int) -> None:
        raise NotImplementedError

    def gain_stones(self, seat: int, red: int, blue: int, purple: int, earned: bool = True) -> None:
        raise NotImplementedError

    def area_to_hand(self, seat: int, card: int) -> None:
        raise NotImplementedError

    def push(self, effect: Effect, seat: int, src: int) -> None:
        raise NotImplementedError

    def summon_free(self, seat: int, card: int) -> None:
        raise NotImplementedError

    def _area_changed(self, seat: int) -> None:
        raise NotImplementedError

    def summon_from_discard(self, seat: int, card: int) -> None:
        """Akhlut: a card of the discard pile summoned without paying (its instant resolves)."""
        self.discard.remove(card)
        self.hands[seat].append(card)  # summon_free takes it from the hand, publicly
        self.summon_free(seat, card)

    def can_summon_from_discard(self, seat: int, card: int) -> bool:
        """Could `card`, now in the discard pile, be summoned free by `seat` (its instant)?"""
        if INSTANT_TRIVIAL[card]:
            return True
        pile = self.discard
        i = pile.index(card)
        del pile[i]
        self.areas[seat].append(card)
        try:
            return feasible(INSTANT[card], cast("ValeBoard", self), seat, card)
        finally:
            self.areas[seat].pop()
            pile.insert(i, card)

    def hand_to_deck_top(self, seat: int, card: int) -> None:
        """Nurikabe: a hand card on top of the deck; known to all if it was known in hand."""
        self.hands[seat].remove(card)
        known = not self.secret >> card & 1
        self.secret &= ~(1 << card)
        self.draw_pile.append(card)
        self.known_top = card if known else -1
        if self._events is not None:
            if known:
                self.tell("card_put_on_deck", seat=seat, card=CARD_NAME[card])
            else:
                self.tell("card_put_on_deck", {"card": CARD_NAME[card]}, (seat,), seat=seat)

    def swap_cards(self, seat: int, mine: int, other: int, theirs: int) -> None:
        """The swap Dragons: `mine` (in `seat`'s area) and `theirs` (in `other`'s) trade places."""
        area, their_area = self.areas[seat], self.areas[other]
        i, j = area.index(mine), their_area.index(theirs)
        area[i], their_area[j] = theirs, mine  # the same list when you named yourself
        self._area_changed(seat)
        self._area_changed(other)
        if self._events is not None:
            self.tell(
                "cards_swapped",
                seat=seat,
                card=CARD_NAME[mine],
                victim=other,
                chosen=CARD_NAME[theirs],
                source=self.source(),
            )

    def _as(self, card: int, then: Callable[[], None]) -> None:
        """`then()` told as the effect of `card` (a permanent's trigger)."""
        if self._events is None:
            then()
            return
        src = self._src
        self._src = card
        try:
            then()
        finally:
            self._src = src

    def recover_watchers(self, seat: int, event: int) -> None:
        """The cards of `seat`'s area that go back to hand whenever `event` happens (Fireblast,
        Thalassa, Wendigo, Banshee) do so once the step under way is done."""
        if not self.perks >> seat * PERK_BITS & event:
            return
        for c in self.areas[seat]:
            perm = PERMANENT[c]
            if perm is not None and perm.watch & event:
                self.work.append(Work(RECOVER_STEP, seat, c, None))

    def _kept(self, seat: int, card: int) -> bool:
        """Ash: discarded from the area, it goes to hand and scores the round number (Q-C1)."""
        perm = PERMANENT[card]
        if perm is None or not perm.watch & WATCH_KEPT:
            return False

        def keep() -> None:
            self.area_to_hand(seat, card)
            self.gain_points(seat, self.round)

        self._as(card, keep)
        return True

    def sold(self, seat: int, family: int) -> None:
        """Duduri King: upgrade one of the stones the sale of a `family` card gave."""
        if not self.perks >> seat * PERK_BITS & WATCH_SOLD:
            return
        for c in self.areas[seat]:
            perm = PERMANENT[c]
            if perm is not None and perm.watch & WATCH_SOLD:
                self.push(SALE_UPGRADE[family], seat, c)

    def summon_cost(self, seat: int, card: int) -> int:
        """What summoning `card` costs `seat` now: its written cost less the cuts (never below
        0), or exactly Belphegor's cost for its family."""
        fam = CARD_FAMILY[card]
        if self.perks >> seat * PERK_BITS & WATCH_FIXED_COST:
            for c in self.areas[seat]:
                perm = PERMANENT[c]
                if perm is not None and perm.fixed_family == fam:
                    return perm.fixed_cost
        cost = CARD_COST[card] - self.cost_cuts[seat * 5 + fam]
        return cost if cost > 0 else 0

    def family_of(self, seat: int, card: int) -> int:
        """The family a card of `seat`'s area counts as: Loki's named one during its owner's
        turn (Q-C10), else the printed one."""
        named = self.loki >> seat * 4 & 15
        if named and self.turn == seat and PERMANENT[card] is not None:
            perm = PERMANENT[card]
            if perm is not None and perm.watch & WATCH_ANY_FAMILY:
                return named - 1
        return CARD_FAMILY[card]

    def name_family(self, seat: int, family: int) -> None:
        """Loki: `seat` names the family it counts as until the turn ends."""
        self.loki = self.loki & ~(15 << seat * 4) | (family + 1) << seat * 4

    def turn_started(self, seat: int) -> None:
        """A seat's action or resolution turn begins: Loki's owner names its family."""
        self.loki &= ~(15 << seat * 4)
        if self.perks >> seat * PERK_BITS & WATCH_ANY_FAMILY:
            for c in self.areas[seat]:
                perm = PERMANENT[c]
                if perm is not None and perm.watch & WATCH_ANY_FAMILY:
                    self.push(LOKI_FAMILY, seat, c)

    def discarded_from_area(self, seat: int, card: int) -> None:
        """Totem Pole: another card of `seat`'s area was discarded."""
        for c in self.areas[seat]:
            perm = PERMANENT[c]
            if perm is not None and perm.watch & WATCH_DISCARDED and c != card:
                red, blue, purple = perm.on_discarded_stones
                self._as(c, lambda: self.gain_stones(seat, red, blue, purple))  # noqa: B023
