"""Eternitium's engine data: the zones, the small moves on them and the public knowledge.
"Rules: <section>" names a section of the English rulebook
(shared/reference/seeds/003_9aabf473d6d7e687.txt); "R<k>" a reading of the digest's section 13
(shared/reference/eternitium/rules.md). Both are reproduced in docs/eternitium.md.

Hot path: `legal_actions`, `apply` and `clone` use plain ints and short lists. Randomness is the
games' one generator (core/rng.py, splitmix64) with its state held in one int (`_rng`), so a clone
copies one number; views, refusal messages and records are built only when asked for.

Zones: a hand is a list of counts per card kind; an Action deck is a list with its top at the end;
a discard pile is a list with its bottom first; an Era pile is a list of Era card codes (cards.py:
a shape with its VISIBLE or ERA_KNOWN flag) with its top at the end; the common Era deck and the
technology decks have their top at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Final, Self

from mypy_extensions import i32

from eterna.core.fields import Copied, Copied2, Shared
from eterna.core.rng import Rng
from eterna.core.state import BaseState, GameStart
from eterna.games.eternitium.cards import (
    ADVANCED_CARDS,
    BLIND_ADVANCED,
    BLIND_BASIC,
    CARD_NAME,
    ERA_KNOWN,
    MARKET_ROW,
    NKINDS,
    NSHAPES,
    SEEN,
    SHAPE_BITS,
    SHAPES,
    TIER,
    TIER_BASIC,
    TIER_POINTS,
    VISIBLE,
    EternitiumAction,
    era_shape,
)
from eterna.games.eternitium.rules import Rules
from eterna.games.eternitium.typeddicts import EternitiumSetup

# Phases: the kind of decision the current player faces.
PH_PICK: Final = 0  # setup: the initial Basic Technology pick
PH_DESTROY6: Final = 1  # mission 6: destroy a card before step 1
PH_PORTAL: Final = 2  # step 1: take a Portal card
PH_PLAY: Final = 3  # step 2: play cards
PH_CYCLE: Final = 4  # Data Analyser: discard or destroy cards
PH_STEAL: Final = 5  # Thieving Robot: the card taken
PH_GIFT: Final = 6  # Laboratory: another player's Basic Technology
PH_SKIPPED: Final = 7  # step 2 skipped: destroy cards, keep at most one
PH_ACQUIRE: Final = 8  # step 4: acquire a technology or pass
PH_ERA: Final = 9  # step 4: the visible Era card taken
PH_OVER: Final = 10
PHASE_NAME: Final = (
    "pick",
    "destroy",
    "portal",
    "play",
    "data-analyser",
    "steal",
    "gift",
    "skipped",
    "acquire",
    "era",
    "over",
)

_NO_CARDS: Final = (0,) * NKINDS


def _copy_peeks(
    peeks: dict[tuple[int, int], tuple[list[int], list[int]]],
) -> dict[tuple[int, int], tuple[list[int], list[int]]]:
    """A thief's private knowledge of a victim's cards: both count lists copied."""
    return {key: (a[:], b[:]) for key, (a, b) in peeks.items()} if peeks else {}


@dataclass(frozen=True, slots=True, kw_only=True)
class EternitiumStart(GameStart):
    """What a game of Eternitium never changes: the table (GameStart), the options read once,
    the card counts and the parsed setup the deal reads."""

    rules: Rules  # the rules played by (a mission's, the options')
    composition: tuple[int, ...]  # market copies per card kind, then Era cards per shape
    fixed: EternitiumSetup  # the setup, checked and turned into ints (setup.py)


class EternitiumBoard(BaseState[EternitiumAction, EternitiumStart]):
    """What the cards act on: every zone, the turn's progress, the public knowledge kept for
    `determinize`, and the small moves on them. The game's modules build on it in layers:
    deal.py deals it, resolve.py resolves card effects on it, state.py (EternitiumState) adds
    the turn flow and the contract. Its fields are read only by those layers and by the game's
    views, refusals and encoding (one package, one engine); agents get views."""

    action_type = EternitiumAction
    not_an_action = (
        "is not an Eternitium action: pass an action from legal_actions() "
        "or its notation, e.g. 'play droid' (docs/eternitium.md, Notation)"
    )

    _rules: Rules  # start.rules, read often
    _rng: int
    _hands: Copied2[list[list[int]]]
    _hsize: Copied[list[int]]
    _decks: Copied2[list[list[int]]]
    _discards: Copied2[list[list[int]]]
    _eras: Copied2[list[list[int]]]
    _owned: Copied[list[int]]
    _reserve: Copied[list[int]]
    _portal_deck: Copied[list[int]]
    _portal_row: Copied[list[int]]
    _basic_deck: Copied[list[int]]
    _basic_row: Copied[list[int]]
    _adv_deck: Copied[list[int]]
    _adv_row: Copied[list[int]]
    _era_deck: Copied[list[int]]
    _era_display: Copied[list[int]]
    _era_discard: Copied[list[int]]
    _ai_deck: Copied[list[int]]
    _ai_log: Copied[list[int]]
    _box: Copied[list[int]]
    # Public knowledge (docs/eternitium.md, Determinization), kept for `determinize` only:
    # per seat: counts of its Action cards whose identity is public
    _known: Copied2[list[list[int]]]
    # per seat: counts publicly known to lie in its discard pile
    _located: Copied2[list[list[int]]]
    # (thief, victim): its own
    _peeks: Annotated[dict[tuple[int, int], tuple[list[int], list[int]]], _copy_peeks]
    # per seat: shapes known to be among its face-down Era cards
    _era_known: Copied2[list[list[int]]]
    # shapes known to be in the common Era deck (rebuilt from discards)
    _deck_known: Copied[list[int]]
    _era_box: Shared[list[int]]  # Era cards a setup left out, per shape (never changed)
    # per technology tier (0 Basic, 1 Advanced): cards seen at the bottom
    _bottom: Copied[list[int]]
    _phase: int
    _active: int
    _first: int
    _turn: int
    _round: int
    _limited: int
    _wallet: bool
    _failed: bool
    _skipped: bool
    _played: bool
    _in_play: int
    _target: int
    _gifts: Copied[list[int]]
    _cycle_mode: int
    _cycle_count: int
    _pay_left: int
    _pay_down: bool
    _pickers: Copied[list[int]]
    _kept: int
    _last_turn: bool
    _src: int  # the solo AI card resolving (-1: none), the `source` of what it does

    # Generated from the fields declared above by `make fields` (core/fields.py):
    # do not edit; edit the declaration and run it again.
    __slots__ = (
        "_active",
        "_adv_deck",
        "_adv_row",
        "_ai_deck",
        "_ai_log",
        "_basic_deck",
        "_basic_row",
        "_bottom",
        "_box",
        "_cycle_count",
        "_cycle_mode",
        "_deck_known",
        "_decks",
        "_discards",
        "_era_box",
        "_era_deck",
        "_era_discard",
        "_era_display",
        "_era_known",
        "_eras",
        "_failed",
        "_first",
        "_gifts",
        "_hands",
        "_hsize",
        "_in_play",
        "_kept",
        "_known",
        "_last_turn",
        "_limited",
        "_located",
        "_owned",
        "_pay_down",
        "_pay_left",
        "_peeks",
        "_phase",
        "_pickers",
        "_played",
        "_portal_deck",
        "_portal_row",
        "_reserve",
        "_rng",
        "_round",
        "_rules",
        "_skipped",
        "_src",
        "_target",
        "_turn",
        "_wallet",
    )

    def clone(self) -> Self:
        """An independent copy: each field as its declaration says."""
        new = super().clone()
        new._rules = self._rules
        new._rng = self._rng
        new._hands = [x.copy() for x in self._hands]
        new._hsize = self._hsize.copy()
        new._decks = [x.copy() for x in self._decks]
        new._discards = [x.copy() for x in self._discards]
        new._eras = [x.copy() for x in self._eras]
        new._owned = self._owned.copy()
        new._reserve = self._reserve.copy()
        new._portal_deck = self._portal_deck.copy()
        new._portal_row = self._portal_row.copy()
        new._basic_deck = self._basic_deck.copy()
        new._basic_row = self._basic_row.copy()
        new._adv_deck = self._adv_deck.copy()
        new._adv_row = self._adv_row.copy()
        new._era_deck = self._era_deck.copy()
        new._era_display = self._era_display.copy()
        new._era_discard = self._era_discard.copy()
        new._ai_deck = self._ai_deck.copy()
        new._ai_log = self._ai_log.copy()
        new._box = self._box.copy()
        new._known = [x.copy() for x in self._known]
        new._located = [x.copy() for x in self._located]
        new._peeks = _copy_peeks(self._peeks)
        new._era_known = [x.copy() for x in self._era_known]
        new._deck_known = self._deck_known.copy()
        new._era_box = self._era_box
        new._bottom = self._bottom.copy()
        new._phase = self._phase
        new._active = self._active
        new._first = self._first
        new._turn = self._turn
        new._round = self._round
        new._limited = self._limited
        new._wallet = self._wallet
        new._failed = self._failed
        new._skipped = self._skipped
        new._played = self._played
        new._in_play = self._in_play
        new._target = self._target
        new._gifts = self._gifts.copy()
        new._cycle_mode = self._cycle_mode
        new._cycle_count = self._cycle_count
        new._pay_left = self._pay_left
        new._pay_down = self._pay_down
        new._pickers = self._pickers.copy()
        new._kept = self._kept
        new._last_turn = self._last_turn
        new._src = self._src
        return new

    # End of the generated part.

    # ------------------------------------------------------------------ events
    def source(self) -> str | None:
        """The card whose effect is under way, by name (None: a rule's own step)."""
        k = self._src if self._src >= 0 else self._in_play
        return None if k < 0 else CARD_NAME[k]

    # ------------------------------------------------------------------ contract: reading
    @property
    def phase(self) -> str:
        return PHASE_NAME[self._phase]

    @property
    def scores(self) -> list[int]:
        """Technology points (rules: End of the Game; R7: every card owned)."""
        return [self._points_of(s) for s in range(self._n)]

    def solo_goal(self) -> tuple[float, int] | None:
        """The solo game's goal (rules: Solo Mode): an empty Era pile. Progress is the share of
        the dealt Era cards gone (0 while the pile is as big as dealt or bigger, mission 7's
        added cards included); what is left, the Era cards still in the pile."""
        if self._n != 1:
            return None
        left = len(self._eras[0])
        dealt = max(self._rules.dealt(1), left, 1)
        return 1.0 - left / dealt, left

    def _points(self, seat: int) -> tuple[int, int]:
        """The seat's technology points and its Advanced cards (the tie-break)."""
        return self._points_of(seat), self._points_of(seat, ADVANCED_CARDS)

    def _points_of(self, seat: int, per_kind: bytes = TIER_POINTS) -> int:
        """The points of every card the seat owns (deck, discard, hand, in play), or per_kind's."""
        total: i32 = 0  # native sums compiled (no overflow checks): under 60 copies a kind
        for k in self._decks[seat]:
            total += per_kind[k]
        for k in self._discards[seat]:
            total += per_kind[k]
        for k, c in enumerate(self._hands[seat]):
            if c:
                total += per_kind[k] * c
        if seat == self._active and self._in_play >= 0:
            total += per_kind[self._in_play]
        return total

    # Tools that own the whole state (tests, the table) may read these; agents may not.

    def hand(self, seat: int) -> list[str]:
        names: list[str] = []
        for k, count in enumerate(self._hands[seat]):
            if count:
                names += (CARD_NAME[k],) * count
        return names

    def deck(self, seat: int) -> list[str]:
        """Top first."""
        return [CARD_NAME[k] for k in reversed(self._decks[seat])]

    def discard_pile(self, seat: int) -> list[str]:
        """Bottom first."""
        return [CARD_NAME[k] for k in self._discards[seat]]

    def market_deck(self, tier: str) -> list[str]:
        """A technology deck (`basic` or `advanced`), top first."""
        deck = self._basic_deck if tier == "basic" else self._adv_deck
        return [CARD_NAME[k] for k in reversed(deck)]

    def ai_deck(self) -> list[str]:
        """Solo: the AI deck, top first."""
        return [CARD_NAME[k] for k in reversed(self._ai_deck)]

    def era_pile(self, seat: int) -> list[str]:
        """Top first; a face-up card is written in upper case."""
        return [
            SHAPES[era_shape(c)].upper() if c & VISIBLE else SHAPES[era_shape(c)]
            for c in reversed(self._eras[seat])
        ]

    def census(self) -> dict[str, int]:
        """Every Action card and Era card in the game, wherever it is (conservation checks)."""
        from eterna.games.eternitium.views import census

        return census(self)

    # ------------------------------------------------------------------ randomness
    def _rand(self, n: int) -> int:
        """A number below n from the game's generator (core/rng.py), whose state is `_rng`."""
        rng = Rng.at(self._rng)
        value = rng.below(n)
        self._rng = rng.state
        return value

    def _shuffle(self, cards: list[int]) -> None:
        """`cards` shuffled by the game's generator (Rng.shuffle: Fisher-Yates from the end)."""
        rng = Rng.at(self._rng)
        rng.shuffle(cards)
        self._rng = rng.state

    # ------------------------------------------------------------------ small moves
    def _draw(self, p: int, count: int) -> None:
        """Draw from the deck; an empty deck is made again from the shuffled discard pile
        (rules: Deck Exhausted)."""
        deck = self._decks[p]
        hand = self._hands[p]
        before = hand[:] if self._events is not None else None
        drawn = 0
        for _ in range(count):
            if not deck:
                pile = self._discards[p]
                if not pile:
                    break
                deck.extend(pile)
                pile.clear()
                self._shuffle(deck)
                if self._events is not None:
                    self.tell("deck_reshuffled", seat=p, count=len(deck))
                for _known, located in self._knowledge(p):
                    located[:] = _NO_CARDS
            hand[deck.pop()] += 1
            drawn += 1
        self._hsize[p] += drawn
        if before is not None and count:
            cards = [CARD_NAME[k] for k in range(NKINDS) for _ in range(hand[k] - before[k])]
            self.tell(
                "cards_drawn", {"cards": cards}, (p,), seat=p, count=drawn, source=self.source()
            )

    def _destroy(self, p: int, k: int) -> None:
        self._k_lose(p, k)
        self._hands[p][k] -= 1
        self._hsize[p] -= 1
        self._owned[p] -= 1
        self._box[k] += 1
        if self._events is not None:
            self.tell("card_destroyed", seat=p, card=CARD_NAME[k], source=self.source())

    def _common_top(self, public: bool = False) -> int:
        """The face-down top card of the common Era deck (R12), reshuffling the common discard
        pile when the deck is empty (rules: Deck Exhausted); -1 when there is none. `public`:
        the card is shown (the display), else it stays face down."""
        deck = self._era_deck
        known = self._deck_known
        if not deck:
            pile = self._era_discard
            if not pile:
                return -1
            deck.extend(pile)
            pile.clear()
            self._shuffle(deck)
            for c in deck:  # the discarded Era cards were face up: the new deck is known
                known[c] += 1
            if self._events is not None:
                self.tell("era_reshuffled", count=len(deck))
        c = deck.pop()
        if public:
            if known[c]:
                known[c] -= 1
        else:  # unseen: any known shape may be the one gone
            for s in range(NSHAPES):
                if known[s]:
                    known[s] -= 1
        return c

    def _refill_display(self) -> None:
        display = self._era_display
        while len(display) < 2:  # R11: refilled at once
            c = self._common_top(public=True)
            if c < 0:
                return
            display.append(c)
            if self._events is not None:
                self.tell("era_placed", shape=SHAPES[c])

    def _refill_row(self, row: list[int], deck: list[int]) -> None:
        """Three face-up cards, all different (rules: Setup 5): different technologies by
        default (one Double Portal at most), different printed cards with option
        basic_market_distinct 'printed'; R14: a duplicate only when no different card is left
        in the deck."""
        t = 0 if deck is self._basic_deck else 1
        bottom = self._bottom
        size = len(row)
        same = self._rules.same  # what "identical" means (option basic_market_distinct)
        while len(row) < MARKET_ROW and deck:
            shown = [same[k] for k in row]
            for _ in range(len(deck)):
                c = deck.pop()
                bottom[t] = min(bottom[t], len(deck))
                if same[c] not in shown:
                    row.append(c)
                    break
                deck.insert(0, c)  # seen by all: a known card at the bottom
                bottom[t] += 1
            else:
                row.append(deck.pop())
                bottom[t] = min(bottom[t], len(deck))
        if self._events is not None and len(row) > size:
            self.tell("market_refilled", cards=[CARD_NAME[k] for k in row[size:]])

    def _take_tech(self, k: int) -> int:
        """Take a visible technology, or the top card of a deck (blind); returns the card."""
        if k in (BLIND_BASIC, BLIND_ADVANCED):
            t = 0 if k == BLIND_BASIC else 1
            deck = self._basic_deck if t == 0 else self._adv_deck
            card = deck.pop()
            self._bottom[t] = min(self._bottom[t], len(deck))
            return card
        if TIER[k] == TIER_BASIC:
            self._basic_row.remove(k)
            self._refill_row(self._basic_row, self._basic_deck)
        else:
            self._adv_row.remove(k)
            self._refill_row(self._adv_row, self._adv_deck)
        return k

    def _discard_era(self, p: int) -> None:
        code = self._eras[p].pop()
        self._era_seen(p, code)  # face up on the common discard pile
        self._era_discard.append(code & SHAPE_BITS)
        if self._events is not None:
            self.tell(
                "era_discarded", seat=p, shape=SHAPES[code & SHAPE_BITS], source=self.source()
            )
            if not self._eras[p]:
                self.tell("gem_found", seat=p)

    def _reveal(self, p: int, count: int, depth: int) -> None:
        """Turn the next hidden Era cards among the top `depth` face up (Droid, Giga Droid)."""
        era = self._eras[p]
        stop = max(len(era) - depth, 0)
        turned = []
        for i in range(len(era) - 1, stop - 1, -1):
            if count and not era[i] & VISIBLE:
                self._era_seen(p, era[i])
                era[i] = (era[i] & SHAPE_BITS) | VISIBLE
                count -= 1
                turned.append(i)
        if self._events is not None:
            shapes = [SHAPES[era[i] & SHAPE_BITS] for i in turned]
            self.tell("era_revealed", seat=p, shapes=shapes, source=self.source())

    def _top_visible(self, p: int, depth: int) -> bool:
        era = self._eras[p]
        return all(c & VISIBLE for c in era[-depth:])

    def _hide_and_shuffle(self, p: int, depth: int) -> None:
        era = self._eras[p]
        if not era or not any(c & VISIBLE for c in era[-depth:]):
            return  # Time Bomb: top cards already face down, nothing happens
        known = self._era_known[p]
        for i in range(max(len(era) - depth, 0), len(era)):
            if era[i] & VISIBLE:  # everyone saw it turned down
                known[era[i] & SHAPE_BITS] += 1
                era[i] &= SHAPE_BITS
        self._era_unposition(p)
        self._shuffle(era)
        if self._events is not None:
            self.tell("era_hidden", seat=p, count=len(era), source=self.source())

    def _add_hidden(self, p: int, force: bool = False) -> None:
        if force or self._eras[p]:  # no Era card is added to a player who found the gem
            c = self._common_top()
            if c >= 0:
                self._eras[p].append(c)
                if self._events is not None:
                    self.tell("era_added", seat=p, source=self.source())

    # ------------------------------------------------------------------ public knowledge
    def _knowledge(self, s: int) -> list[tuple[list[int], list[int]]]:
        """What is known of seat s's Action cards: publicly, then by each thief who looked."""
        out = [(self._known[s], self._located[s])]
        if self._peeks:
            out += [v for (_t, victim), v in self._peeks.items() if victim == s]
        return out

    def _k_gain(self, s: int, k: int, to_discard: bool = False) -> None:
        """Seat s gains card k in sight of everyone (into its discard pile or not)."""
        for known, located in self._knowledge(s):
            known[k] += 1
            if to_discard:
                located[k] += 1

    def _k_lose(self, s: int, k: int, from_discard: bool = False) -> None:
        """Seat s's card k leaves its hand (or discard pile) in sight of everyone."""
        for known, located in self._knowledge(s):
            if from_discard:
                if located[k]:
                    located[k] -= 1
                if known[k]:
                    known[k] -= 1
            elif known[k] > located[k]:  # else it was a card nobody knew of
                known[k] -= 1

    def _peek(self, thief: int, victim: int) -> None:
        """Thieving Robot (R2): the thief sees the victim's whole discard pile."""
        pile = [0] * NKINDS
        for c in self._discards[victim]:
            pile[c] += 1
        old = self._peeks.get((thief, victim), (self._known[victim], self._located[victim]))[0]
        known = [max(a, b, c) for a, b, c in zip(old, self._known[victim], pile, strict=True)]
        self._peeks[(thief, victim)] = (known, pile)

    def _era_seen(self, p: int, code: int) -> None:
        """A face-down card of seat p's Era pile is turned up (or discarded) in sight of all."""
        if not code & SEEN:
            known = self._era_known[p]
            if known[code & SHAPE_BITS]:
                known[code & SHAPE_BITS] -= 1

    def _era_leave(self, p: int) -> int:
        """Pop seat p's top Era card; a face-down one may be any of the known shapes."""
        code = self._eras[p].pop()
        if not code & SEEN:
            known = self._era_known[p]
            for s in range(NSHAPES):
                if known[s]:
                    known[s] -= 1
        return code

    def _era_unposition(self, p: int) -> None:
        """Before seat p's Era pile is shuffled: face-down cards of known identity lose their
        place but stay known to be in the pile."""
        era = self._eras[p]
        known = self._era_known[p]
        for i, c in enumerate(era):
            if c & ERA_KNOWN:
                known[c & SHAPE_BITS] += 1
                era[i] = c & SHAPE_BITS
