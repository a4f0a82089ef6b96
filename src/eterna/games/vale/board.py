"""The Vale's engine data and the primitives card effects are made of.

`ValeBoard` holds what the cards act on: hands, areas, claims, stones, points, the piles, the
work stack of effects with its pending question, and where the round stands. `ValeState`
(state.py) adds the rules of play (legal moves, what each does, the phases) and the game
contract on top of it. Its attributes have no underscore because the
game's own modules share them: the effect steps (effects.py, choices.py) read and change them
through the primitives below, and the encoding's fast path (encoding.py) reads them. Agents
never see them: they get views. Tools and tests that own a whole state use the name-based
readers of ValeState (`hand(seat)`, `deck()`...).

Cards are ints (cards.py), seats ints; per-seat numbers are flat lists: `stone_counts[seat * 3
+ colour]`, `cost_cuts[seat * 5 + family]`.

Randomness: the only generator is the game's `Rng` (eterna.core.rng), seeded with the game's
seed: the first player, the opening deck, then each reshuffle of the discard pile. Its whole
state is one int, kept in `_shuffles` and shared by a clone (an int is immutable). Records of
version 1 keep their generator (eterna.core.legacy): `_shuffles` is then `seed + (k << 62)`
after k reshuffles, reshuffle k using `random.Random(seed + (k << 62))`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Final, Self, TypeVar

from eterna.core.fields import Copied, Copied2
from eterna.core.legacy import vale_reshuffle
from eterna.core.rng import deal_at
from eterna.core.state import BaseState, GameStart
from eterna.games.vale.abilities import INSTANT, INSTANT_TRIVIAL, PERMANENT
from eterna.games.vale.artifacts import Arts, ArtSetup, clone_arts
from eterna.games.vale.cards import (
    BASE_VALUE,
    CARD_NAME,
    FAMILIES,
    STONE_LIMIT,
    TILE_NAME,
    ValeAction,
)
from eterna.games.vale.effects import AnyStep, Effect, Step, Work
from eterna.games.vale.perks import PERK_BITS, PERK_MASK, ArtifactsPerks
from eterna.games.vale.permanents import (
    WATCH_BLUE_GAINED,
    WATCH_DISCARDED,
    WATCH_DREW,
    WATCH_POINTS_LOST,
    WATCH_STONES_4,
)
from eterna.games.vale.summons import Summoned

T = TypeVar("T")
A = TypeVar("A")  # a step's argument (`queue`, `ask`)

HUNT, ACTION, RESOLUTION, OVER = range(4)  # ValeBoard.stage
PHASES: Final = ("hunting", "action", "resolution", "over")  # their names


class Choice:
    """A question the game waits on (an effect's, or the stone limit's), answered by one of its
    `options`, an ordinary action of its `chooser` (STYLE.md point 6). Immutable (`Final`: the
    compiled class refuses a write too), so clones share it."""

    __slots__ = ("arg", "chooser", "options", "seat", "src", "step")

    def __init__(
        self,
        chooser: int,
        step: Step[A],
        seat: int,
        src: int,
        arg: A | None,
        options: tuple[ValeAction, ...] = (),
    ) -> None:
        self.chooser: Final = chooser  # the seat that answers (an attack's victim answers itself)
        self.step: Final[AnyStep] = step  # its `answer(st, seat, src, arg, action)` goes on
        self.seat: Final = seat  # the seat the effect acts for
        self.src: Final = src  # the card whose effect asks (-1: the stone limit; < -1: a tile)
        self.arg: Final[object] = arg  # the step's progress (cards already used, the player named)
        self.options: Final = options  # the legal answers

    def asks_another(self, seat: int) -> bool:
        """Whether an effect asks a seat other than `seat` (whose options may show its hand)."""
        return self.chooser != seat and self.src != -1

    def resume(self, st: ValeBoard) -> None:
        """Ask again: run the step from where it stood (a redeal may change its options)."""
        self.step.run(st, self.seat, self.src, self.arg)


@dataclass(frozen=True, slots=True, kw_only=True)
class ValeStart(GameStart):
    """What a game of the Vale never changes: the table (GameStart) and its opening position,
    the setup's (docs/vale.md) with the seed's shuffle and first player filled in."""

    end_score: int  # a score that ends the game (§9: 60; option end_threshold, 80 with Artifacts)
    stream: int  # the generator's state after the opening deal (the reshuffles draw on)
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
    log: tuple[tuple[int, str], ...] = ()  # a position's round log so far: (seat, action)
    glade: tuple[int, ...] = ()  # the artifact tiles in play (none: no Artifacts, artifacts.py)
    artifacts: ArtSetup | None = None  # a setup's tiles held and blocked, shelters, areas bought


class ValeBoard(BaseState[ValeAction, ValeStart], ArtifactsPerks):
    """The cards, stones and points of a game in progress, and the effects under way."""

    round: int  # the round, 1..10, which is also the area limit (§5.3.1)
    first: int  # the first player of this round
    stage: int  # HUNT, ACTION, RESOLUTION or OVER (PHASES[stage] is the phase's name)
    turn: int  # whose turn it is (the hunt: its first player, who claims first)
    activated: int  # bit mask: cards whose active effect was used this resolution phase
    hands: Copied2[list[list[int]]]  # per seat, sorted
    areas: Copied2[list[list[int]]]  # per seat, in the order the cards entered
    claims: Copied2[list[list[int]]]  # per seat: claimed this round, not sold or tamed (§4.2)
    unclaimed: Copied[list[int]]  # revealed cards nobody has claimed yet, sorted (§4.1)
    stone_counts: Copied[list[int]]  # seat * 3 + colour: the stones each seat holds
    stone_values: Copied[list[int]]  # seat * 3 + colour: a stone's worth to that seat (§11)
    stone_limits: Copied[list[int]]  # per seat (§7; Hestia raises it)
    cost_cuts: Copied[list[int]]  # seat * 5 + family: summoning cost cut (Pegasus, Hippogriff)
    points: Copied[list[int]]  # per seat: the scores (the `scores` property is a copy)
    draw_pile: Copied[list[int]]  # the deck, top card last
    discard: Copied[list[int]]  # the discard pile, top card last
    known_top: int  # a card every seat knows is on top of the deck (Tengu), or -1
    secret: int  # bit mask: cards in hands that only their holder knows (drawn)
    perks: int  # per seat (PERK_BITS each): what its area's permanents watch for (WATCH_*)
    loki: int  # per seat (4 bits each): 1 + the family Loki counts as this turn, 0: Wind
    work: Copied[list[Work]]  # effect steps still to run, the next one last
    choice: Choice | None  # the question the game waits on
    arts: Annotated[Arts | None, clone_arts]  # the Artifacts expansion's tiles... (artifacts.py)
    _dirty: bool  # stones or areas changed: check the stone limit
    _shuffles: int  # reshuffles so far (the generator's number)
    _src: int  # while narrating: the card whose effect is under way (-1: a rule's own step)

    # Generated from the fields declared above by `make fields` (core/fields.py):
    # do not edit; edit the declaration and run it again.
    __slots__ = (
        "_dirty",
        "_shuffles",
        "_src",
        "activated",
        "areas",
        "arts",
        "choice",
        "claims",
        "cost_cuts",
        "discard",
        "draw_pile",
        "first",
        "hands",
        "known_top",
        "loki",
        "perks",
        "points",
        "round",
        "secret",
        "stage",
        "stone_counts",
        "stone_limits",
        "stone_values",
        "turn",
        "unclaimed",
        "work",
    )

    def clone(self) -> Self:
        """An independent copy: each field as its declaration says."""
        new = super().clone()
        new.round = self.round
        new.first = self.first
        new.stage = self.stage
        new.turn = self.turn
        new.activated = self.activated
        new.hands = [x.copy() for x in self.hands]
        new.areas = [x.copy() for x in self.areas]
        new.claims = [x.copy() for x in self.claims]
        new.unclaimed = self.unclaimed.copy()
        new.stone_counts = self.stone_counts.copy()
        new.stone_values = self.stone_values.copy()
        new.stone_limits = self.stone_limits.copy()
        new.cost_cuts = self.cost_cuts.copy()
        new.points = self.points.copy()
        new.draw_pile = self.draw_pile.copy()
        new.discard = self.discard.copy()
        new.known_top = self.known_top
        new.secret = self.secret
        new.perks = self.perks
        new.loki = self.loki
        new.work = self.work.copy()
        new.choice = self.choice
        new.arts = clone_arts(self.arts)
        new._dirty = self._dirty
        new._shuffles = self._shuffles
        new._src = self._src
        return new

    # End of the generated part.

    def __init__(self, start: ValeStart | None = None, narrate: bool = False) -> None:
        super().__init__(start, narrate)
        if start is None:  # a blank (BaseState.__init__)
            return
        n = start.players
        self.round = start.round
        self.first = start.first
        self.stage = HUNT  # until ValeState sets the opening phase
        self.turn = start.first
        self.activated = 0
        self.hands = [list(h) for h in start.hands]
        self.areas = [list(a) for a in start.areas]
        self.claims = [list(c) for c in start.claimed or ((),) * n]
        self.unclaimed = []
        self.stone_counts = list(start.stones)
        self.stone_values = [0] * (3 * n)
        self.stone_limits = [0] * n
        self.cost_cuts = [0] * (len(FAMILIES) * n)
        self.points = list(start.scores)
        self.draw_pile = list(start.deck)
        self.discard = list(start.discard)
        self.known_top = -1
        self.secret = 0
        self.perks = 0
        self.loki = 0
        self.work = []
        self.choice = None
        self.arts = (
            Arts.new(start.glade, start.artifacts, start.options, n) if start.glade else None
        )
        self._dirty = True
        self._shuffles = start.stream
        self._src = -1
        for seat in range(n):
            self._area_changed(seat)

    # ------------------------------------------------------------------ telling
    def source(self) -> str | None:
        """The card (or artifact tile) whose effect is under way, by name (None: a rule's own
        step)."""
        return src_name(self._src)

    # ------------------------------------------------------------------ points and stones
    def gain_points(self, seat: int, n: int) -> None:
        self.points[seat] += n
        if self._events is not None:
            self.tell(
                "points_gained", seat=seat, points=n, source=self.source(), score=self.points[seat]
            )

    def lose_points(self, seat: int, n: int) -> None:
        before = self.points[seat]
        s = before - n
        self.points[seat] = s if s > 0 else 0  # §8: never below 0
        if self.perks and self.points[seat] < before:
            self.recover_watchers(seat, WATCH_POINTS_LOST)
        if self._events is not None:
            self.tell(
                "points_lost",
                seat=seat,
                points=before - self.points[seat],
                source=self.source(),
                score=self.points[seat],
            )

    def gain_stones(self, seat: int, red: int, blue: int, purple: int, earned: bool = True) -> None:
        """Stones from the supply; `earned` False for an exchange or an upgrade (which Thalassa
        does not count, digest Q-C5)."""
        counts = self.stone_counts
        b = seat * 3
        counts[b] += red
        counts[b + 1] += blue
        counts[b + 2] += purple
        self._dirty = True
        if self._events is not None:
            self.tell(
                "stones_gained", seat=seat, red=red, blue=blue, purple=purple, source=self.source()
            )
        if self.perks:
            if counts[b] + counts[b + 1] + counts[b + 2] >= 4:
                self.recover_watchers(seat, WATCH_STONES_4)
            if blue and earned:
                self.recover_watchers(seat, WATCH_BLUE_GAINED)

    def lose_stone(self, seat: int, colour: int, kind: str) -> None:
        """One stone of `colour` back to the supply (see lose_stones)."""
        if colour == 0:
            self.lose_stones(seat, 1, 0, 0, kind)
        elif colour == 1:
            self.lose_stones(seat, 0, 1, 0, kind)
        else:
            self.lose_stones(seat, 0, 0, 1, kind)

    def lose_stones(self, seat: int, red: int, blue: int, purple: int, kind: str | None) -> None:
        """Stones back to the supply: `kind` is the event that says why (stones_returned for
        an effect, stone_discarded over the limit, §7), None when the move's own event tells
        the payment (a summon, a removal)."""
        counts = self.stone_counts
        b = seat * 3
        counts[b] -= red
        counts[b + 1] -= blue
        counts[b + 2] -= purple
        if kind is not None and self._events is not None:
            self.tell(kind, seat=seat, red=red, blue=blue, purple=purple, source=self.source())

    # ------------------------------------------------------------------ moving cards
    def _reshuffle(self) -> None:
        """§4.1: the discard pile becomes the deck, shuffled by the generator at `_shuffles`."""
        if not self.discard:
            return
        deck = self.discard
        self.discard = []
        if self._start.version == 1:
            self._shuffles = vale_reshuffle(self._shuffles, deck)
        else:
            self._shuffles = deal_at(self._shuffles, deck)
        self.draw_pile = deck
        self.known_top = -1
        if self._events is not None:
            self.tell("deck_reshuffled", count=len(deck))

    def draw(self, seat: int) -> None:
        """The top card of the deck to `seat`'s hand (secret unless every seat knows it)."""
        if not self.draw_pile:
            self._reshuffle()
            if not self.draw_pile:
                return
        card = self.draw_pile.pop()
        public = card == self.known_top
        if public:
            self.known_top = -1
        self.to_hand(seat, card, public)
        if self.perks:
            self.recover_watchers(seat, WATCH_DREW)
        if self._events is not None:
            name = CARD_NAME[card]
            if public:  # every seat saw it put on top (Tengu)
                self.tell("card_drawn", seat=seat, card=name, source=self.source())
            else:
                self.tell("card_drawn", {"card": name}, (seat,), seat=seat, source=self.source())

    def to_hand(self, seat: int, card: int, public: bool) -> None:
        insort(self.hands[seat], card)
        if public:
            self.secret &= ~(1 << card)
        else:
            self.secret |= 1 << card

    def area_to_hand(self, seat: int, card: int) -> None:
        self.areas[seat].remove(card)
        self.to_hand(seat, card, public=True)
        self._area_changed(seat)
        if self._events is not None:
            self.tell("card_returned", seat=seat, card=CARD_NAME[card], source=self.source())

    def area_to_discard(self, seat: int, card: int, told: bool = True) -> None:
        """A card of `seat`'s area to the discard pile (`told` False: the move's own event
        says so, a removal); Ash goes to hand instead, Totem Pole gives its stone."""
        if self.perks and self._kept(seat, card):
            return
        self.areas[seat].remove(card)
        self.discard.append(card)
        self._area_changed(seat)
        if told and self._events is not None:
            self.tell(
                "card_discarded", seat=seat, card=CARD_NAME[card], zone="area", source=self.source()
            )
        if self.perks >> seat * PERK_BITS & WATCH_DISCARDED:
            self.discarded_from_area(seat, card)

    def area_to_deck_top(self, seat: int, card: int) -> None:
        self.areas[seat].remove(card)
        self.draw_pile.append(card)
        self.known_top = card
        self._area_changed(seat)
        if self._events is not None:
            self.tell("card_put_on_deck", seat=seat, card=CARD_NAME[card])

    def hand_to_discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.secret &= ~(1 << card)
        self.discard.append(card)
        if self._events is not None:
            self.tell(
                "card_discarded", seat=seat, card=CARD_NAME[card], zone="hand", source=self.source()
            )

    # ------------------------------------------------------------------ effects under way
    def push(self, effect: Effect, seat: int, src: int) -> None:
        """Run `effect`'s steps next, in order, for `seat` on behalf of card `src`."""
        work = self.work
        for step in reversed(effect):
            work.append(Work(step, seat, src, None))

    def queue(self, step: Step[A], seat: int, src: int, arg: A) -> None:
        """Run `step` next with `arg`, its progress (mypy checks it is what the step reads)."""
        self.work.append(Work(step, seat, src, arg))

    def ask(
        self,
        chooser: int,
        step: Step[A],
        seat: int,
        src: int,
        arg: A | None,
        options: list[ValeAction],
    ) -> None:
        """Wait for `chooser` to answer `step` with one of `options`."""
        self.choice = Choice(chooser, step, seat, src, arg, tuple(options))
        if self._events is not None:
            # a named player's card is its own question ("name_a_player.card"), not a second
            # "a player to name"
            question = f"{step.kind}.card" if step.named and arg is not None else step.kind
            self.tell(
                "effect_choice", chooser=chooser, seat=seat, card=src_name(src), question=question
            )

    def has_room(self, seat: int) -> bool:
        """A free slot in the area (§5.3.1: as many cards as the round number, plus the areas
        bought with artifact tiles)."""
        arts = self.arts
        return len(self.areas[seat]) < self.round + (0 if arts is None else arts.bought[seat])

    def summon_free(self, seat: int, card: int) -> None:
        """Young Forest Spirit, Dragon Egg: summon from hand without paying (Q3, Q4)."""
        self.hands[seat].remove(card)
        self.secret &= ~(1 << card)
        before = self._area_mask(seat)
        self.areas[seat].append(card)
        self._area_changed(seat)
        if self._events is not None:
            self.tell("summoned", seat=seat, card=CARD_NAME[card], free=True, source=self.source())
        self.queue(AFTER_SUMMON, seat, card, Summoned(None, before))
        self.push(INSTANT[card], seat, card)

    def instant_feasible(self, seat: int, card: int) -> bool:
        """Q1: could `card`'s instant be applied in full if it went from hand to area now?"""
        return INSTANT_TRIVIAL[card] or self.instant_blocker(seat, card) is None

    def instant_blocker(self, seat: int, card: int) -> AnyStep | None:
        """Q1: the first step of `card`'s instant that could not be carried out if it went
        from hand to area now (None: the instant could be applied in full)."""
        if INSTANT_TRIVIAL[card]:
            return None
        hand = self.hands[seat]
        area = self.areas[seat]
        i = hand.index(card)
        del hand[i]
        area.append(card)
        try:
            for step in INSTANT[card]:
                if not step.trivial and not step.feasible(self, seat, card):
                    return step
            return None
        finally:
            area.pop()
            hand.insert(i, card)

    def can_summon_free(self, seat: int, card: int) -> bool:
        """Whether `seat` may summon `card` from hand without paying (its instant feasible)."""
        return self.instant_feasible(seat, card)

    def with_discarded_from_hand(self, seat: int, card: int, then: Callable[[], T]) -> T:
        """`then()` asked as if `card` had gone from `seat`'s hand to the discard pile."""
        hand = self.hands[seat]
        i = hand.index(card)
        del hand[i]
        self.discard.append(card)
        try:
            return then()
        finally:
            self.discard.pop()
            hand.insert(i, card)

    def with_area_discarded(self, seat: int, card: int, then: Callable[[], T]) -> T:
        """`then()` asked as if `card` had gone from `seat`'s area to the discard pile."""
        area = self.areas[seat]
        i = area.index(card)
        del area[i]
        self.discard.append(card)
        try:
            return then()
        finally:
            self.discard.pop()
            area.insert(i, card)

    # ------------------------------------------------------------------ permanents
    def _area_mask(self, seat: int) -> int:
        mask = 0
        for c in self.areas[seat]:
            mask |= 1 << c
        return mask

    def _area_changed(self, seat: int) -> None:
        """Permanent effects (§11): recompute the seat's stone values, limit, cost cuts."""
        red, blue, purple = BASE_VALUE
        bonus = [0, 0, 0]
        limit = STONE_LIMIT
        cut = [0] * len(FAMILIES)
        watch = 0
        for c in self.areas[seat]:
            perm = PERMANENT[c]
            if perm is None:
                continue
            watch |= perm.watch
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
        self.stone_values[b : b + 3] = [red + bonus[0], blue + bonus[1], purple + bonus[2]]
        self.stone_limits[seat] = limit
        self.cost_cuts[seat * 5 : seat * 5 + 5] = cut
        if watch or self.perks:
            shift = seat * PERK_BITS
            self.perks = self.perks & ~(PERK_MASK << shift) | watch << shift
        self._dirty = True


def src_name(src: int) -> str | None:
    """The name of an effect's source: a card (>= 0), an artifact tile (<= -2, its
    `tile_src`), or None for a rule's own step (-1: the stone limit)."""
    if src >= 0:
        return CARD_NAME[src]
    return None if src == -1 else TILE_NAME[-2 - src]


class _AfterSummon(Step[Summoned]):
    """§5.3.4: your "whenever you summon" permanents, after the instant, never for the
    summoned card itself. Only the cards in the area when the card was summoned (`before`)
    fire, so a card that entered during the instant (Young Forest Spirit bringing in Sylph)
    does not; a free summon (Q4) as the option `free_summon_triggers` says."""

    __slots__ = ()

    def run(self, st: ValeBoard, seat: int, src: int, arg: Summoned | None) -> None:
        assert arg is not None  # always queued with one (summon_free, ValeState._do)
        paid, before = arg.paid, arg.before
        if paid is None:
            if st.start.options["free_summon_triggers"] == "none":
                return
            paid = (0, 0, 0)
        red = paid[0]
        gained = 0
        telling = st._events is not None
        for c in st.areas[seat]:
            perm = PERMANENT[c]
            if perm is None or not before >> c & 1:
                continue
            mine = 0
            if perm.on_summon_per_red:
                mine += perm.on_summon_per_red * red
            if perm.on_summon_points and (
                perm.on_summon_if_paid_with < 0 or paid[perm.on_summon_if_paid_with]
            ):
                mine += perm.on_summon_points
            if telling and mine:  # told per card: each permanent pays its own points
                st._src = c
                st.gain_points(seat, mine)
            gained += mine
        if gained and not telling:
            st.gain_points(seat, gained)


class _StoneLimit(Step[object]):
    """§7: over the limit, the player discards stones of their choice, one at a time."""

    __slots__ = ()

    kind = "stone_limit"

    def answer(self, st: ValeBoard, seat: int, src: int, arg: object, action: ValeAction) -> None:
        st.lose_stone(seat, action.arg, "stone_discarded")


AFTER_SUMMON: Final = _AfterSummon()
STONE_LIMIT_STEP: Final = _StoneLimit()
