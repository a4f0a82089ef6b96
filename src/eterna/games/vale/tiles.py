"""What each artifact tile does (data/artifacts.json "tiles"; docs/vale.md "Artifacts").

A tile's effect is a tuple of steps like a card's (effects.py), run for its holder with `src` the
tile's `tile_src` (a negative number, so events and views name the tile, not a card). The steps
that ask leave a pending choice answered by an ordinary action; `run` with the step's progress
in `arg` asks again (as every asking step does: a determinized state re-asks with it).

`TILE_USABLE[t](st, seat)` says whether an action tile can be used now: a tile whose cost cannot
be paid (Monkey King's Staff with fewer than 2 cards in hand, Cap of Hades with an empty hand)
or which could do nothing (Imperial Seal with an empty area, Book of Thoth without a red or
blue stone, Ring of Wishes without an active effect to use) is not offered (digest Q-A10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from eterna.games.vale.abilities import ACTIVE
from eterna.games.vale.artifacts import (
    NO_TILE,
    NOTHING_SHELTERED,
    Sheltering,
    area_limit,
    buy_area,
    can_buy_area,
    discard_from_shelter,
    retrieve,
    shelter,
    shelter_from_deck,
    shelter_from_hand,
    upgrade,
)
from eterna.games.vale.cards import (
    A_BUY_AREA,
    A_CHOOSE_ALL,
    A_DISCARD,
    A_DONE,
    A_RESOLVE,
    A_RETRIEVE,
    A_SHELTER,
    A_UPGRADE,
    BLUE,
    BUY_AREA,
    CARD_FAMILY,
    CHOICE_INDEX,
    DISCARD,
    DRAGON,
    HAS_ACTIVE,
    RED,
    RETRIEVE,
    TILE_NAME,
    UPGRADE,
    ValeAction,
)
from eterna.games.vale.effects import Effect, Step, feasible
from eterna.games.vale.payments import payments

if TYPE_CHECKING:
    from eterna.games.vale.board import ValeBoard

DRAW = A_CHOOSE_ALL[CHOICE_INDEX["draw"]]
PURPLE_STONE = A_CHOOSE_ALL[CHOICE_INDEX["purple"]]
SHELTER_TOP = A_CHOOSE_ALL[CHOICE_INDEX["shelter-top"]]
RETRIEVE_ALL = A_CHOOSE_ALL[CHOICE_INDEX["retrieve-all"]]
KEEP_SOLD_ACTION = A_CHOOSE_ALL[CHOICE_INDEX["keep-sold"]]
AREA_PRICE: Final = 3  # Incense Burner: "Price: 3", stones worth at least 3, no change


def _shelter_of(st: ValeBoard, seat: int) -> list[int]:
    assert st.arts is not None
    return st.arts.shelters[seat]


def _area_payments(st: ValeBoard, seat: int) -> tuple[int, ...]:
    b = seat * 3
    counts, values = st.stone_counts, st.stone_values
    extra = bool(st.start.options["allow_superfluous_payment"])
    held = (counts[b], counts[b + 1], counts[b + 2])
    return payments(AREA_PRICE, held, (values[b], values[b + 1], values[b + 2]), extra)


class IncenseBurner(Step[object]):
    """Buy an area for stones worth 3, or shelter the deck's top 2 cards."""

    kind = "incense_burner"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        options = []
        if can_buy_area(st, seat):
            options += [A_BUY_AREA[i] for i in _area_payments(st, seat)]
        st.ask(seat, self, seat, src, None, [*options, SHELTER_TOP])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        if action.kind == BUY_AREA:
            buy_area(st, seat, action.pay)
        else:
            shelter_from_deck(st, seat, 2)


class MonkeyKingsStaff(Step[int]):
    """Discard 2 hand cards, one at a time, then gain red, red, blue, purple."""

    kind = "discard_from_hand"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        hand = st.hands[seat]
        if hand:
            st.ask(seat, self, seat, src, arg or 0, [A_DISCARD[c] for c in hand])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        st.hand_to_discard(seat, action.card)
        if arg == 0:
            st.queue(self, seat, src, 1)
        else:
            st.gain_stones(seat, 2, 1, 1)


class PiedPipersPipe(Step[object]):
    """Draw a card, or retrieve the whole shelter (only a draw when it is empty)."""

    kind = "pied_pipers_pipe"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        if _shelter_of(st, seat):
            st.ask(seat, self, seat, src, None, [DRAW, RETRIEVE_ALL])
        else:
            st.draw(seat)

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        if action is DRAW:
            st.draw(seat)
        else:
            for card in list(_shelter_of(st, seat)):
                retrieve(st, seat, card, named=False)


class SevenLeagueBoots(Step[int]):
    """Reveal one more card into the display, then shelter a display card (digest Q-A11: with
    the deck and the discard pile empty nothing is revealed; an empty display, nothing)."""

    kind = "shelter_from_display"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            _reveal_one(st, seat)
        if st.unclaimed:
            st.ask(seat, self, seat, src, 1, [A_SHELTER[c] for c in st.unclaimed])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        st.unclaimed.remove(action.card)
        shelter(st, seat, action.card, True, "display")


def _reveal_one(st: ValeBoard, seat: int) -> None:
    from bisect import insort

    from eterna.games.vale.cards import CARD_NAME

    if not st.draw_pile:
        st._reshuffle()
        if not st.draw_pile:
            return
    card = st.draw_pile.pop()
    if card == st.known_top:
        st.known_top = -1
    st.secret &= ~(1 << card)
    insort(st.unclaimed, card)
    if st._events is not None:
        st.tell("card_revealed", seat=seat, card=CARD_NAME[card], source=st.source())


class GoldenFleece(Step[int]):
    """Gain 2 red stones; then shelter the deck's top card or retrieve a sheltered card."""

    kind = "golden_fleece"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            st.gain_stones(seat, 2, 0, 0)
        options = [SHELTER_TOP, *(A_RETRIEVE[c] for c in _shelter_of(st, seat))]
        st.ask(seat, self, seat, src, 1, options)

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if action.kind == RETRIEVE:
            retrieve(st, seat, action.card, named=True)
        else:
            shelter_from_deck(st, seat, 1)


class BookOfThoth(Step[int]):
    """Upgrade up to two stones one step each: two different stones (digest Q-A7), or with
    option thoth_same_stone the same one twice. `arg`: None, then the colour the first
    upgrade made (that stone may not go up again), or -1 when it may."""

    kind = "upgrade_stones"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        b = seat * 3
        counts = st.stone_counts
        options = []
        for colour in (RED, BLUE):
            spare = counts[b + colour] - (1 if arg == colour else 0)
            if spare > 0:
                options.append(A_UPGRADE[colour])
        if arg is not None:
            if not options:
                return
            options.append(A_DONE)
        if options:
            st.ask(seat, self, seat, src, arg, options)

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if action.kind != UPGRADE:
            return  # done
        upgrade(st, seat, action.arg)
        if arg is None:
            assert st.arts is not None
            same = st.arts.rules[2]
            st.queue(self, seat, src, -1 if same else action.arg + 1)


class CapOfHades(Step[int]):
    """Shelter a hand card; then buy an area for free or gain a purple stone."""

    kind = "cap_of_hades"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if arg is None:
            hand = st.hands[seat]
            if hand:
                st.ask(seat, self, seat, src, None, [A_SHELTER[c] for c in hand])
            return
        if can_buy_area(st, seat):
            st.ask(seat, self, seat, src, 1, [A_BUY_AREA[0], PURPLE_STONE])
        else:
            st.gain_stones(seat, 0, 0, 1)

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if arg is None:
            shelter_from_hand(st, seat, action.card)
            st.queue(self, seat, src, 1)
        elif action.kind == BUY_AREA:
            buy_area(st, seat, 0)
        else:
            st.gain_stones(seat, 0, 0, 1)


class KeepSold(Step[int]):
    """Gem of Kukulkan, after a sale (`arg` the card sold): pay a red stone to take the card
    from the discard pile into your hand, or not."""

    kind = "keep_sold"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: int | None) -> None:
        if st.stone_counts[seat * 3 + RED] and arg in st.discard:
            st.ask(seat, self, seat, src, arg, [KEEP_SOLD_ACTION, A_DONE])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: int | None, action: ValeAction
    ) -> None:
        if action is not KEEP_SOLD_ACTION or arg is None:  # asked with the card sold (run)
            return
        from eterna.games.vale.cards import CARD_NAME

        st.lose_stones(seat, 1, 0, 0, "stones_returned")
        st.discard.remove(arg)
        st.to_hand(seat, arg, public=True)
        if st._events is not None:
            st.tell("sold_card_kept", seat=seat, card=CARD_NAME[arg], source=st.source())


class ImperialSeal(Step[object]):
    """Discard one of your summoned cards; a Dragon gives a blue stone."""

    kind = "discard_from_own_area"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        area = st.areas[seat]
        if area:
            st.ask(seat, self, seat, src, None, [A_DISCARD[c] for c in sorted(area)])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        card = action.card
        st.area_to_discard(seat, card)
        if CARD_FAMILY[card] == DRAGON:
            st.gain_stones(seat, 0, 1, 0)


class PhilosophersStone(Step[Sheltering]):
    """Retrieve a sheltered card and/or discard one for a purple stone, in either order, then
    done. `arg`: what is spent (`Sheltering`)."""

    kind = "philosophers_stone"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: Sheltering | None) -> None:
        spent = arg or NOTHING_SHELTERED
        cards = _shelter_of(st, seat)
        if not cards or (spent.retrieved and spent.discarded):
            return
        options: list[ValeAction] = []
        if not spent.retrieved:
            options += [A_RETRIEVE[c] for c in cards]
        if not spent.discarded:
            options += [A_DISCARD[c] for c in cards]
        st.ask(seat, self, seat, src, spent, [*options, A_DONE])

    def answer(
        self, st: ValeBoard, seat: int, src: int, arg: Sheltering | None, action: ValeAction
    ) -> None:
        spent = arg or NOTHING_SHELTERED  # asked with one (run)
        if action.kind == RETRIEVE:
            retrieve(st, seat, action.card, named=True)
            st.queue(self, seat, src, Sheltering(True, spent.discarded))
        elif action.kind == DISCARD:
            discard_from_shelter(st, seat, action.card)
            st.gain_stones(seat, 0, 0, 1)
            st.queue(self, seat, src, Sheltering(spent.retrieved, True))


class RingOfWishes(Step[object]):
    """Use now the active effect of a card of your area (one that can be applied)."""

    kind = "ring_of_wishes"
    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: object) -> None:
        cards = _ring_targets(st, seat)
        if cards:
            st.ask(seat, self, seat, src, None, [A_RESOLVE[c] for c in cards])

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        card = action.card
        assert st.arts is not None
        st.arts.rung |= 1 << card
        if st._events is not None:
            from eterna.games.vale.cards import CARD_NAME

            st.tell("effect_resolved", seat=seat, card=CARD_NAME[card], source=st.source())
        st.push(ACTIVE[card], seat, card)


def _ring_targets(st: ValeBoard, seat: int) -> list[int]:
    return [c for c in sorted(st.areas[seat]) if HAS_ACTIVE[c] and feasible(ACTIVE[c], st, seat, c)]


def _always(st: ValeBoard, seat: int) -> bool:
    return True


def _no_action(st: ValeBoard, seat: int) -> bool:
    return False


USABLE = Callable[["ValeBoard", int], bool]

_BY_NAME: dict[str, tuple[Effect, USABLE]] = {
    "incense-burner": ((IncenseBurner(),), _always),
    "monkey-kings-staff": ((MonkeyKingsStaff(),), lambda st, seat: len(st.hands[seat]) >= 2),
    "pied-pipers-pipe": ((PiedPipersPipe(),), _no_action),
    "seven-league-boots": ((SevenLeagueBoots(),), _no_action),
    "golden-fleece": ((GoldenFleece(),), _always),
    "book-of-thoth": (
        (BookOfThoth(),),
        lambda st, seat: bool(st.stone_counts[seat * 3] or st.stone_counts[seat * 3 + 1]),
    ),
    "cap-of-hades": ((CapOfHades(),), lambda st, seat: bool(st.hands[seat])),
    "gem-of-kukulkan": ((), _no_action),
    "imperial-seal": ((ImperialSeal(),), lambda st, seat: bool(st.areas[seat])),
    "philosophers-stone": ((PhilosophersStone(),), _no_action),
    "ring-of-wishes": ((RingOfWishes(),), lambda st, seat: bool(_ring_targets(st, seat))),
}
TILE_EFFECT: tuple[Effect, ...] = tuple(_BY_NAME[name][0] for name in TILE_NAME)
TILE_USABLE: tuple[USABLE, ...] = tuple(_BY_NAME[name][1] for name in TILE_NAME)
KEEP_SOLD: Final = KeepSold()

__all__ = ["KEEP_SOLD", "NO_TILE", "TILE_EFFECT", "TILE_USABLE", "area_limit"]
