"""Eternitium's rules engine. "Rules: <section>" names a section of the English rulebook
(shared/reference/seeds/003_9aabf473d6d7e687.txt); "R<k>" a reading of the digest's section 13
(shared/reference/eternitium/rules.md). Both are reproduced in docs/eternitium.md.

Hot path: `legal_actions`, `apply` and `clone` use plain ints and short lists. Randomness is a
splitmix64 stream held in one int (`_rng`), so a clone copies one number; views, refusal messages
and records are built only when asked for.

Zones: a hand is a list of counts per card kind; an Action deck is a list with its top at the end;
a discard pile is a list with its bottom first; an Era pile is a list of `shape | VISIBLE` codes
with its top at the end; the common Era deck and the technology decks have their top at the end.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from eterna.core.errors import BadSetup, IllegalAction
from eterna.core.game import View
from eterna.core.state import COPY, COPY2, SHARE, BaseState, CloneKind, GameStart
from eterna.games.eternitium.cards import (
    ACQUIRE,
    ADVANCED,
    AI_EFFECT,
    BASIC,
    BLIND_ADVANCED,
    BLIND_BASIC,
    CARD_INDEX,
    CARD_NAME,
    DESTROY,
    DISCARD,
    DONE,
    DROID,
    EFFECT,
    END,
    ERA,
    ERA_KNOWN,
    GIFT,
    HAND_AFTER_LUCK,
    HAND_AFTER_SKIP,
    HAND_REFILL,
    KEEP,
    KEEP_AFTER_SKIP,
    KEEP_NONE,
    MARKET_ROW,
    MATCHES,
    MIN_ACTION_CARDS,
    NEEDS_ERA,
    NKINDS,
    NSHAPES,
    OTHERS,
    PARAM,
    PARAM_NONE,
    PARAM_OWN_DISCARD,
    PARAM_PAIR,
    PARAM_SEAT_STEAL,
    PARAM_SEAT_SWAP,
    PASS,
    PER_TURN,
    PICK,
    PLAY,
    PLAY_CARD,
    PLAY_PAIR,
    PLAY_SEAT,
    PORTALS,
    SEEN,
    SELF,
    SHAPE_BITS,
    SHAPES,
    SKIP,
    SOLO_AI_KINDS,
    STARTING_SETS,
    STEAL,
    TAKE,
    TIER,
    TIER_ADVANCED,
    TIER_BASIC,
    V_DISCARD,
    V_KEEP,
    V_PLAY,
    VISIBLE,
    VOID_IF_VISIBLE,
    EternitiumAction,
    era_shape,
)
from eterna.games.eternitium.effects import (
    AddHiddenEra,
    CycleHand,
    DestroyOldestTech,
    DiscardEra,
    DiscardFromHand,
    Discount,
    Draw,
    Effect,
    GainTech,
    HideAndShuffle,
    Primitive,
    Recycle,
    Reveal,
    Steal,
    SwapTopEra,
)
from eterna.games.eternitium.rules import Rules

# Phases: the kind of decision the current player faces.
PH_PICK = 0  # setup: the initial Basic Technology pick
PH_DESTROY6 = 1  # mission 6: destroy a card before step 1
PH_PORTAL = 2  # step 1: take a Portal card
PH_PLAY = 3  # step 2: play cards
PH_CYCLE = 4  # Data Analyser: discard or destroy cards
PH_STEAL = 5  # Thieving Robot: the card taken
PH_GIFT = 6  # Laboratory: another player's Basic Technology
PH_SKIPPED = 7  # step 2 skipped: destroy cards, keep at most one
PH_ACQUIRE = 8  # step 4: acquire a technology or pass
PH_ERA = 9  # step 4: the visible Era card taken
PH_OVER = 10
PHASE_NAME = (
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

_M64 = (1 << 64) - 1
_THIEF = CARD_INDEX["thieving-robot"]
_RECYCLER = CARD_INDEX["recycler-robot"]
_PORTAL_SET = frozenset(PORTALS)
_BASIC_SET = frozenset(BASIC)
_NO_CARDS = (0,) * NKINDS


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
    fixed: Mapping[str, Any]  # the setup, checked and turned into ints (setup.py)


class EternitiumState(BaseState[EternitiumAction, EternitiumStart]):
    """A game of Eternitium. Build one with `load_game("eternitium").new_game(...)`, or from
    an `EternitiumStart` (the constructor deals)."""

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
        "_target",
        "_turn",
        "_wallet",
    )
    CLONE: ClassVar[Mapping[str, CloneKind]] = {
        "_active": SHARE,
        "_adv_deck": COPY,
        "_adv_row": COPY,
        "_ai_deck": COPY,
        "_ai_log": COPY,
        "_basic_deck": COPY,
        "_basic_row": COPY,
        "_bottom": COPY,
        "_box": COPY,
        "_cycle_count": SHARE,
        "_cycle_mode": SHARE,
        "_deck_known": COPY,
        "_decks": COPY2,
        "_discards": COPY2,
        "_era_box": SHARE,  # never changes after the setup
        "_era_deck": COPY,
        "_era_discard": COPY,
        "_era_display": COPY,
        "_era_known": COPY2,
        "_eras": COPY2,
        "_failed": SHARE,
        "_first": SHARE,
        "_gifts": COPY,
        "_hands": COPY2,
        "_hsize": COPY,
        "_in_play": SHARE,
        "_kept": SHARE,
        "_known": COPY2,
        "_last_turn": SHARE,
        "_limited": SHARE,
        "_located": COPY2,
        "_owned": COPY,
        "_pay_down": SHARE,
        "_pay_left": SHARE,
        "_peeks": _copy_peeks,
        "_phase": SHARE,
        "_pickers": COPY,
        "_played": SHARE,
        "_portal_deck": COPY,
        "_portal_row": COPY,
        "_reserve": COPY,
        "_rng": SHARE,
        "_round": SHARE,
        "_rules": SHARE,
        "_skipped": SHARE,
        "_target": SHARE,
        "_turn": SHARE,
        "_wallet": SHARE,
    }
    action_type = EternitiumAction
    not_an_action = (
        "is not an Eternitium action: pass an action from legal_actions() "
        "or its notation, e.g. 'play droid' (docs/eternitium.md, Notation)"
    )

    _rules: Rules  # start.rules, read often
    _rng: int
    _hands: list[list[int]]
    _hsize: list[int]
    _decks: list[list[int]]
    _discards: list[list[int]]
    _eras: list[list[int]]
    _owned: list[int]
    _reserve: list[int]
    _portal_deck: list[int]
    _portal_row: list[int]
    _basic_deck: list[int]
    _basic_row: list[int]
    _adv_deck: list[int]
    _adv_row: list[int]
    _era_deck: list[int]
    _era_display: list[int]
    _era_discard: list[int]
    _ai_deck: list[int]
    _ai_log: list[int]
    _box: list[int]
    # Public knowledge (docs/eternitium.md, Determinization), kept for `determinize` only:
    _known: list[list[int]]  # per seat: counts of its Action cards whose identity is public
    _located: list[list[int]]  # per seat: counts publicly known to lie in its discard pile
    _peeks: dict[tuple[int, int], tuple[list[int], list[int]]]  # (thief, victim): its own
    _era_known: list[list[int]]  # per seat: shapes known to be among its face-down Era cards
    _deck_known: list[int]  # shapes known to be in the common Era deck (rebuilt from discards)
    _era_box: list[int]  # Era cards a setup left out of the game, per shape
    _bottom: list[int]  # per technology tier (0 Basic, 1 Advanced): cards seen at the bottom
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
    _gifts: list[int]
    _cycle_mode: int
    _cycle_count: int
    _pay_left: int
    _pay_down: bool
    _pickers: list[int]
    _kept: int
    _last_turn: bool

    def __init__(self, start: EternitiumStart, narrate: bool = False) -> None:
        """Deal the game `start` describes (rules: Setup, Game Preparation, Solo Mode)."""
        super().__init__(start, narrate)
        self._rules = start.rules
        self._rng = start.seed
        self._phase = PH_PICK
        self._active = 0
        self._turn = self._round = 0
        self._limited = 0
        self._wallet = self._failed = self._skipped = self._played = self._last_turn = False
        self._in_play = self._target = self._kept = -1
        self._gifts = []
        self._cycle_mode = self._cycle_count = self._pay_left = 0
        self._pay_down = False
        self._ai_log = []
        self._peeks = {}
        self._bottom = [0, 0]
        self._deck_known = [0] * NSHAPES
        self._deal()

    # ------------------------------------------------------------------ contract: reading
    @property
    def phase(self) -> str:
        return PHASE_NAME[self._phase]

    @property
    def scores(self) -> list[int]:
        """Technology points (rules: End of the Game; R7: every card owned)."""
        return [self._points(s)[0] for s in range(self._n)]

    def _points(self, seat: int) -> tuple[int, int]:
        points = advanced = 0
        for zone in (self._decks[seat], self._discards[seat]):
            for k in zone:
                points += TIER[k]
                advanced += TIER[k] == TIER_ADVANCED
        for k, c in enumerate(self._hands[seat]):
            if c:
                points += TIER[k] * c
                advanced += c if TIER[k] == TIER_ADVANCED else 0
        if seat == self._active and self._in_play >= 0:
            points += TIER[self._in_play]
            advanced += TIER[self._in_play] == TIER_ADVANCED
        return points, advanced

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
        counts = list(self._box)
        for s in range(self._n):
            for k, c in enumerate(self._hands[s]):
                counts[k] += c
            for zone in (self._decks[s], self._discards[s]):
                for k in zone:
                    counts[k] += 1
        for zone in (
            self._basic_deck,
            self._basic_row,
            self._adv_deck,
            self._adv_row,
            self._portal_deck,
            self._portal_row,
            self._ai_deck,
        ):
            for k in zone:
                counts[k] += 1
        for shape in PORTALS:
            counts[shape] += self._reserve[shape]
        if self._in_play >= 0:
            counts[self._in_play] += 1
        out = {CARD_NAME[k]: counts[k] for k in range(NKINDS)}
        era = self._era_box[:]
        for pile in self._eras:
            for c in pile:
                era[c & SHAPE_BITS] += 1
        for zone in (self._era_deck, self._era_display, self._era_discard):
            for c in zone:
                era[c] += 1
        for s in range(NSHAPES):
            out[f"era-{SHAPES[s]}"] = era[s]
        return out

    # ------------------------------------------------------------------ the deal
    def _deal(self) -> None:
        """Rules: Setup 1-7 and Game Preparation; Solo Mode; the mission's own setup."""
        start = self._start
        comp, fixed, rules = start.composition, start.fixed, start.rules
        n = self._n
        solo = n == 1
        pool = list(comp[:NKINDS])
        pool[DROID] += STARTING_SETS  # the numbered starting Droids are among the 29 Basic cards
        era_pool = list(comp[NKINDS:])
        self._first = fixed.get("first_player", self._rand(n) if n > 1 else 0)

        # Setup 2: the starting cards (unused numbered sets go back to the box)
        self._hands = [[0] * NKINDS for _ in range(n)]
        self._decks = []
        self._discards = []
        if "hands" in fixed:
            for s in range(n):
                for c in _take(pool, fixed["hands"][s], f"hands[{s}]"):
                    self._hands[s][c] += 1
                self._decks.append(
                    _take(pool, fixed.get("decks", [[]] * n)[s], f"decks[{s}]")[::-1]
                )
                self._discards.append(
                    _take(pool, fixed.get("discards", [[]] * n)[s], f"discards[{s}]")
                )
        else:
            per_shape = rules.starting_portals_per_shape
            starting = [s for s in PORTALS for _ in range(per_shape)]
            if rules.starting_droid:
                starting.append(DROID)
            for _seat in range(n):
                deck = _take(pool, starting[:], "starting cards")
                self._shuffle(deck)
                self._decks.append(deck)
                self._discards.append([])
        # Public knowledge: the starting sets (a setup's cards too, but those it calls blind)
        self._known = [self._hands[s][:] for s in range(n)]
        self._located = [[0] * NKINDS for _ in range(n)]
        for s in range(n):
            for c in self._decks[s] + self._discards[s]:
                self._known[s][c] += 1
            for c in fixed.get("blind", [[]] * n)[s]:
                if self._known[s][c] <= 0:
                    raise BadSetup(f"setup blind[{s}]: seat {s} holds no {CARD_NAME[c]}")
                self._known[s][c] -= 1
        self._hsize = [sum(h) for h in self._hands]
        self._owned = [
            self._hsize[s] + len(self._decks[s]) + len(self._discards[s]) for s in range(n)
        ]
        box = [0] * NKINDS

        # Setup 3: the Portal reserve (mission 4: a face-down Portal deck with 3 revealed)
        self._reserve = [0] * NSHAPES
        self._portal_deck = []
        self._portal_row = []
        reserve = rules.reserve(n)
        if rules.portal_deck:
            if "portal_deck" in fixed:
                deck = _take(pool, fixed["portal_deck"], "portal_deck")[::-1]
            else:
                deck = []
                for s in PORTALS:
                    k = min(reserve, pool[s])
                    deck += [s] * k
                    pool[s] -= k
                self._shuffle(deck)
            self._portal_deck = deck
            for _ in range(3):
                if self._portal_deck:
                    self._portal_row.append(self._portal_deck.pop())
        else:
            given = fixed.get("portals", {})
            for s in PORTALS:
                k = given.get(s, reserve)
                _take(pool, [s] * k, "portals")
                self._reserve[s] = k
        for s in PORTALS:
            box[s] += pool[s]
            pool[s] = 0

        # Solo Mode: the AI card deck (mission 1: the Temporal Blasters only)
        self._ai_deck = []
        removed: list[int] = [CARD_INDEX[c] for c in rules.removed]
        if solo:
            ai_kinds = [CARD_INDEX[c] for c in rules.ai_deck]
            if "ai_deck" in fixed:
                for c in fixed["ai_deck"]:
                    if c not in ai_kinds:
                        raise BadSetup(f"setup ai_deck: {CARD_NAME[c]} is not an AI card here")
                self._ai_deck = _take(pool, fixed["ai_deck"], "ai_deck")[::-1]
            else:
                deck = []
                for k in ai_kinds:
                    deck += [k] * pool[k]
                    pool[k] = 0
                self._shuffle(deck)
                self._ai_deck = deck
            removed += list(SOLO_AI_KINDS)
            if not rules.advanced_market:
                removed += list(ADVANCED)
        for k in removed:
            box[k] += pool[k]
            pool[k] = 0

        # Setup 4-5: the technology markets, three different face-up cards each
        market = list(comp[:NKINDS])
        for tier_kinds, row_key, deck_key, attr in (
            (BASIC, "basic_row", "basic_deck", "basic"),
            (ADVANCED, "advanced_row", "advanced_deck", "adv"),
        ):
            row = _take(pool, fixed.get(row_key, []), row_key)
            top = _take(pool, fixed.get(deck_key, []), deck_key)
            deck = []
            exact = deck_key in fixed.get("exact", ())  # the setup gives the whole deck
            for k in tier_kinds:
                copies = 0 if exact else min(market[k], pool[k])  # unused Droids: to the box
                deck += [k] * copies
                pool[k] -= copies
                box[k] += pool[k]
                pool[k] = 0
            self._shuffle(deck)
            deck += top[::-1]
            if attr == "basic":
                self._basic_deck, self._basic_row = deck, row
            else:
                self._adv_deck, self._adv_row = deck, row
            if row_key not in fixed:
                self._refill_row(row, deck)
        self._box = box

        # Setup 6-7: Era cards, the top one revealed; the common deck with two visible
        era_cards = [s for s in range(NSHAPES) for _ in range(era_pool[s])]
        dealt = rules.dealt(n)
        self._eras = []
        if "era" in fixed:
            for s, pile in enumerate(fixed["era"]):
                for c in pile:
                    if era_shape(c) not in era_cards:
                        raise BadSetup(
                            f"setup era[{s}]: no {SHAPES[era_shape(c)]} Era card is left"
                        )
                    era_cards.remove(era_shape(c))
        placed = fixed.get("era_display", []) + fixed.get("era_deck", [])
        for c in placed + fixed.get("era_discard", []):
            if c not in era_cards:
                raise BadSetup(
                    f"setup era_deck/era_display/era_discard: no {SHAPES[c]} Era card left"
                )
            era_cards.remove(c)
        self._shuffle(era_cards)
        visible = fixed.get("era_visible", [1] * n)
        for s in range(n):
            if "era" in fixed:
                pile = fixed["era"][s][::-1]
            else:
                if len(era_cards) < dealt:
                    raise BadSetup("not enough Era cards to deal (option composition)")
                pile = [era_cards.pop() for _ in range(dealt)]
            for i in range(min(visible[s], len(pile))):
                pile[len(pile) - 1 - i] |= VISIBLE
            self._eras.append(pile)
        self._era_box = [0] * NSHAPES
        if "era_deck" in fixed.get("exact", ()):  # the setup gives the whole common deck
            for c in era_cards:
                self._era_box[c] += 1
            era_cards = []
        self._era_deck = era_cards + fixed.get("era_deck", [])[::-1]
        self._era_display = list(fixed.get("era_display", []))
        self._era_discard = list(fixed.get("era_discard", []))
        self._era_known = [[0] * NSHAPES for _ in range(n)]
        if "era_display" not in fixed:
            self._refill_display()

        # Game Preparation: the first Basic Technology, in turn order (skipped by a setup's hands)
        if "hands" in fixed:
            self._pickers = []
            self._begin_turn(self._first)
        else:
            self._pickers = [(self._first + i) % n for i in range(n)]
            self._next_picker()

    # ------------------------------------------------------------------ randomness
    def _rand(self, n: int) -> int:
        """A number below n from the game's splitmix64 stream."""
        x = (self._rng + 0x9E3779B97F4A7C15) & _M64
        self._rng = x
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
        return (x ^ (x >> 31)) % n

    def _shuffle(self, cards: list[int]) -> None:
        rand = self._rand
        for i in range(len(cards) - 1, 0, -1):
            j = rand(i + 1)
            cards[i], cards[j] = cards[j], cards[i]

    # ------------------------------------------------------------------ contract: hot path
    def _legal(self) -> tuple[EternitiumAction, ...]:
        return tuple(self._legal_list())

    def _legal_list(self) -> list[EternitiumAction]:
        ph = self._phase
        p = self._current
        if ph == PH_PLAY:
            return self._legal_play(p)
        if ph == PH_PORTAL:
            if self._rules.portal_deck:
                return [TAKE[s] for s in sorted(set(self._portal_row))]
            return [TAKE[s] for s in PORTALS if self._reserve[s]]
        if ph == PH_ACQUIRE:
            return self._legal_acquire(p)
        if ph == PH_ERA:
            return [ERA[s] for s in sorted(set(self._era_display))]
        if ph in (PH_PICK, PH_GIFT):
            table = PICK if ph == PH_PICK else GIFT
            out = [table[k] for k in sorted(set(self._basic_row))]
            if self._basic_deck:
                out.append(table[BLIND_BASIC])
            return out
        hand = self._hands[p]
        held = [k for k in range(NKINDS) if hand[k]]
        if ph == PH_CYCLE:
            mode = self._cycle_mode
            out = []
            if mode != 2:
                out += [DISCARD[k] for k in held]
            if mode != 1 and self._owned[p] > MIN_ACTION_CARDS:
                out += [DESTROY[k] for k in held]
            out.append(DONE)
            return out
        if ph == PH_SKIPPED:
            out = [DESTROY[k] for k in held] if self._owned[p] > MIN_ACTION_CARDS else []
            return [*out, *(KEEP[k] for k in held), KEEP_NONE]
        if ph == PH_DESTROY6:
            return [DESTROY[k] for k in held]
        if ph == PH_STEAL:
            return [STEAL[k] for k in sorted(set(self._discards[self._target]))]
        return []

    def _legal_play(self, p: int) -> list[EternitiumAction]:
        hand = self._hands[p]
        era = self._eras[p]
        top = era[-1] if era else -1
        out: list[EternitiumAction] = []
        must = False  # mission 9: a card other than a Recycler Robot can be played
        n = self._n
        for k, count in enumerate(hand):
            if not count:
                continue
            before = len(out)
            param = PARAM[k]
            match = MATCHES[k]
            if match:
                if top >= 0:
                    if top & VISIBLE:
                        if match >> (top & SHAPE_BITS) & 1:  # R15: only on a matching visible card
                            out.append(PLAY[k])
                    elif k < NSHAPES or self._rules.luck_any:  # R6: try your luck with a Portal
                        out.append(PLAY[k])
            elif NEEDS_ERA[k] and top < 0:
                continue
            elif param == PARAM_NONE:
                if not PER_TURN[k] or self._limited < PER_TURN[k]:  # R3
                    out.append(PLAY[k])
            elif param == PARAM_PAIR:
                hand[k] -= 1
                held = [c for c in range(NKINDS) if hand[c]]
                pairs = PLAY_PAIR[k]
                for i, a in enumerate(held):
                    if hand[a] > 1:
                        out.append(pairs[(a, a)])
                    for b in held[i + 1 :]:
                        out.append(pairs[(a, b)])
                hand[k] += 1
            elif param == PARAM_SEAT_SWAP:
                seats = PLAY_SEAT[k]
                for i in range(1, n):  # R5: not a player who found the gem
                    s = (p + i) % n
                    if self._eras[s]:
                        out.append(seats[s])
            elif param == PARAM_SEAT_STEAL:
                seats = PLAY_SEAT[k]
                for i in range(1, n):
                    s = (p + i) % n
                    if self._discards[s]:
                        out.append(seats[s])
            elif param == PARAM_OWN_DISCARD:
                pile = self._discards[p]
                if pile:
                    cards = PLAY_CARD[k]
                    out += [cards[c] for c in sorted(set(pile))]
                else:
                    out.append(PLAY[k])
            else:  # PARAM_TECH (Laboratory)
                cards = PLAY_CARD[k]
                picks = []
                if era:  # R8: a player who found the gem takes no technology
                    picks = [cards[c] for c in sorted(set(self._basic_row + self._adv_row))]
                    if self._basic_deck:
                        picks.append(cards[BLIND_BASIC])
                    if self._adv_deck:
                        picks.append(cards[BLIND_ADVANCED])
                out += picks or [PLAY[k]]
            if len(out) > before and k != _RECYCLER:
                must = True
        if self._rules.must_play:  # play as many cards as possible; never skip
            if not must:
                out.append(END)
            return out
        out.append(END)
        if not self._played:
            out.append(SKIP)
        return out

    def _legal_acquire(self, p: int) -> list[EternitiumAction]:
        display = len(self._era_display)
        out: list[EternitiumAction] = []
        discount = 1 if self._wallet else 0
        if display >= TIER_BASIC - discount:
            out += [ACQUIRE[k] for k in sorted(set(self._basic_row))]
            if self._basic_deck:
                out.append(ACQUIRE[BLIND_BASIC])
        if display >= TIER_ADVANCED - discount:
            out += [ACQUIRE[k] for k in sorted(set(self._adv_row))]
            if self._adv_deck:
                out.append(ACQUIRE[BLIND_ADVANCED])
        out.append(PASS)
        return out

    def _apply(self, act: EternitiumAction) -> None:
        ph = self._phase
        if ph == PH_PLAY:
            if act.verb == V_PLAY:
                self._play(act)
            elif act is SKIP:
                self._skipped = True
                self._phase = PH_SKIPPED
                self._skipped_check()
            else:
                self._end_step2()
        elif ph == PH_PORTAL:
            self._take_portal(act.shape)
        elif ph == PH_ACQUIRE:
            if act is PASS:
                self._step5()
            else:
                self._acquire(act.card)
        elif ph == PH_ERA:
            self._pay_era(act.shape)
        elif ph == PH_CYCLE:
            self._cycle(act)
        elif ph == PH_STEAL:
            self._steal(act.card)
        elif ph == PH_GIFT:
            self._gift(act.card)
        elif ph == PH_SKIPPED:
            self._skipped_action(act)
        elif ph == PH_DESTROY6:
            self._destroy(self._active, act.card)
            self._step1()
        else:  # PH_PICK
            self._pick(act.card)

    # ------------------------------------------------------------------ small moves
    def _draw(self, p: int, count: int) -> None:
        """Draw from the deck; an empty deck is made again from the shuffled discard pile
        (rules: Deck Exhausted)."""
        deck = self._decks[p]
        hand = self._hands[p]
        drawn = 0
        for _ in range(count):
            if not deck:
                pile = self._discards[p]
                if not pile:
                    break
                deck.extend(pile)
                pile.clear()
                self._shuffle(deck)
                for _known, located in self._knowledge(p):
                    located[:] = _NO_CARDS
            hand[deck.pop()] += 1
            drawn += 1
        self._hsize[p] += drawn

    def _destroy(self, p: int, k: int) -> None:
        self._k_lose(p, k)
        self._hands[p][k] -= 1
        self._hsize[p] -= 1
        self._owned[p] -= 1
        self._box[k] += 1

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

    def _refill_row(self, row: list[int], deck: list[int]) -> None:
        """Three face-up cards, all different (rules: Setup 5); R14: a duplicate only when no
        different card is left in the deck."""
        t = 0 if deck is self._basic_deck else 1
        bottom = self._bottom
        while len(row) < MARKET_ROW and deck:
            for _ in range(len(deck)):
                c = deck.pop()
                bottom[t] = min(bottom[t], len(deck))
                if c not in row:
                    row.append(c)
                    break
                deck.insert(0, c)  # seen by all: a known card at the bottom
                bottom[t] += 1
            else:
                row.append(deck.pop())
                bottom[t] = min(bottom[t], len(deck))

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

    def _reveal(self, p: int, count: int, depth: int) -> None:
        """Turn the next hidden Era cards among the top `depth` face up (Droid, Giga Droid)."""
        era = self._eras[p]
        stop = max(len(era) - depth, 0)
        for i in range(len(era) - 1, stop - 1, -1):
            if count and not era[i] & VISIBLE:
                self._era_seen(p, era[i])
                era[i] = (era[i] & SHAPE_BITS) | VISIBLE
                count -= 1

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

    def _add_hidden(self, p: int, force: bool = False) -> None:
        if force or self._eras[p]:  # no Era card is added to a player who found the gem
            c = self._common_top()
            if c >= 0:
                self._eras[p].append(c)

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

    # ------------------------------------------------------------------ turn flow
    def _pick(self, k: int) -> None:
        """Game Preparation: each player in turn order takes a Basic Technology card."""
        p = self._current
        card = self._take_tech(k)
        self._decks[p].append(card)
        self._owned[p] += 1
        if k < NKINDS:
            self._k_gain(p, card)
        self._shuffle(self._decks[p])
        self._next_picker()

    def _next_picker(self) -> None:
        while self._pickers:
            p = self._pickers.pop(0)
            if self._basic_row or self._basic_deck:
                self._current = p
                return
        first_hand = self._rules.first_hand
        for s in range(self._n):
            self._draw(s, first_hand)
        self._begin_turn(self._first)

    def _begin_turn(self, p: int) -> None:
        self._active = self._current = p
        self._limited = 0
        self._wallet = self._failed = self._skipped = self._played = False
        self._kept = -1
        rules = self._rules
        if rules.destroy_each_turn and self._hsize[p] and self._owned[p] > MIN_ACTION_CARDS:
            self._phase = PH_DESTROY6  # R9: never below the floor of 6 cards
            return
        self._step1()

    def _step1(self) -> None:
        """Step 1: take a Portal card, if any is left."""
        if any(self._reserve) or self._portal_row:
            self._phase = PH_PORTAL
        else:
            self._enter_play()

    def _take_portal(self, s: int) -> None:
        p = self._active
        if self._rules.portal_deck:
            self._portal_row.remove(s)  # reveal a new one
            if self._portal_deck:
                self._portal_row.append(self._portal_deck.pop())
        else:
            self._reserve[s] -= 1
        self._hands[p][s] += 1
        self._hsize[p] += 1
        self._owned[p] += 1
        self._k_gain(p, s)
        if self._n == 1 and not any(self._reserve) and not self._portal_row:
            self._last_turn = True  # Solo Mode: the last Portal card starts the last turn
        self._enter_play()

    def _enter_play(self) -> None:
        self._phase = PH_PLAY
        self._current = self._active

    def _play(self, act: EternitiumAction) -> None:
        p = self._active
        k = act.card
        self._k_lose(p, k)  # in play: back into the collection when it is discarded
        self._hands[p][k] -= 1
        self._hsize[p] -= 1
        self._played = True
        self._in_play = k
        if PER_TURN[k]:
            self._limited += 1
        era = self._eras[p]
        if MATCHES[k] and not era[-1] & VISIBLE:
            self._try_luck(p, k)
            return
        if self._run(p, EFFECT[k], act):
            return  # waits for a decision; _finish_play follows it
        self._finish_play()

    def _try_luck(self, p: int, k: int) -> None:
        """Step 2, "try your luck": turn over the hidden top Era card."""
        era = self._eras[p]
        shape = era[-1] & SHAPE_BITS
        if MATCHES[k] >> shape & 1:
            self._discard_era(p)
            self._finish_play()
            return
        self._discards[p].append(k)
        self._k_gain(p, k, True)
        self._in_play = -1
        top = era[-1]
        if not top & ERA_KNOWN:  # everyone saw the missed card: it is among the hidden ones
            known = self._era_known[p]
            known[shape] = max(known[shape], 1)
        if len(era) == 1:  # the last Era card: one more from the common deck, unseen
            c = self._common_top()
            if c >= 0:
                era.append(c)
        self._era_unposition(p)
        self._shuffle(era)  # the card goes back face down (its face bit was never set)
        self._failed = True  # step 5 draws only 4
        self._end_step2()

    def _run(self, p: int, effect: Effect, act: EternitiumAction | None) -> bool:
        """Resolve an effect's primitives in order; True when a decision is now pending.

        `act` is None for a solo AI card, whose effects target the solo player (`p`); the
        primitives that read the action's choices do nothing then.
        """
        n = self._n
        k = self._in_play
        if k >= 0 and VOID_IF_VISIBLE[k] and self._top_visible(p, VOID_IF_VISIBLE[k]):
            return False  # R4: Giga Droid with the top 3 visible does nothing at all
        for op in effect:
            match op:
                case DiscardEra():
                    if self._eras[p]:
                        self._discard_era(p)
                case Reveal(who=who, count=count, depth=depth, compensation=comp):
                    if who == OTHERS:
                        if comp and n == 1:
                            self._ai_card()  # Solo: compensation reveals an AI card (R13)
                        for i in range(1, n):
                            self._reveal((p + i) % n, count, depth)
                    else:
                        self._reveal(p, count, depth)
                case Draw(count=count):
                    self._draw(p, count)
                case Discount():
                    self._wallet = True  # R16: two Wallets do not add up
                case HideAndShuffle(who=who, depth=depth):
                    if who == OTHERS:
                        for i in range(1, n):
                            self._hide_and_shuffle((p + i) % n, depth)
                    else:
                        self._hide_and_shuffle(p, depth)
                case AddHiddenEra(who=who):
                    if who == OTHERS:
                        for i in range(1, n):
                            self._add_hidden((p + i) % n)
                    else:  # the AI's Temporal Blaster replaces the card it discarded
                        self._add_hidden(p, force=act is None)
                case DestroyOldestTech():
                    self._destroy_oldest_tech(p)
                case _ if act is not None:  # primitives that use the action's choices
                    if self._run_chosen(p, op, act):
                        return True
        return False

    def _run_chosen(self, p: int, op: Primitive, act: EternitiumAction) -> bool:
        """The primitives that read the action's choices; True when a decision is pending."""
        match op:
            case SwapTopEra():
                s = act.seat
                mine = self._era_leave(p)
                self._eras[p].append(self._era_leave(s))
                self._eras[s].append(mine)  # R5: each card keeps its face
            case DiscardFromHand():
                for c in (act.card2, act.card3):
                    self._hands[p][c] -= 1
                    self._discards[p].append(c)
                    self._k_lose(p, c)
                    self._k_gain(p, c, True)
                self._hsize[p] -= 2
            case Recycle():
                self._recycle(p, act.card2)
            case GainTech(who=who):
                if who == SELF:
                    self._gain_tech(p, act.card2)
                elif self._n == 1:
                    self._ai_card()  # Solo: compensation (R13: after the card's own effect)
                else:  # R8: players who found the gem receive nothing
                    n = self._n
                    self._gifts = [(p + i) % n for i in range(1, n) if self._eras[(p + i) % n]]
                    return self._next_gift()
            case Steal():
                self._target = act.seat
                self._peek(p, act.seat)
                self._phase = PH_STEAL
                return True
            case CycleHand():
                self._cycle_mode = 0
                self._cycle_count = 0
                self._phase = PH_CYCLE
                return self._cycle_check()
        return False

    def _destroy_oldest_tech(self, p: int) -> None:
        pile = self._discards[p]
        if self._owned[p] > MIN_ACTION_CARDS:
            for i, c in enumerate(pile):
                if TIER[c]:
                    self._k_lose(p, c, True)
                    del pile[i]
                    self._owned[p] -= 1
                    self._box[c] += 1
                    break

    def _recycle(self, p: int, c: int) -> None:
        if c >= 0:
            pile = self._discards[p]
            i = len(pile) - 1 - pile[::-1].index(c)
            del pile[i]
            self._hands[p][c] += 1
            self._hsize[p] += 1
            self._k_lose(p, c, True)
            self._k_gain(p, c)

    def _gain_tech(self, p: int, c: int) -> None:
        if c >= 0:
            card = self._take_tech(c)
            self._hands[p][card] += 1
            self._hsize[p] += 1
            self._owned[p] += 1
            if c < NKINDS:  # a visible card; a blind one stays unknown
                self._k_gain(p, card)

    def _finish_play(self) -> None:
        """The played card goes to the discard pile (the Thieving Robot to its victim's)."""
        p = self._active
        k = self._in_play
        if k >= 0:
            self._in_play = -1
            if k == _THIEF and self._target >= 0:
                t = self._target
                self._discards[t].append(k)
                self._k_gain(t, k, True)
                self._owned[p] -= 1
                self._owned[t] += 1
                self._target = -1
            else:
                self._discards[p].append(k)
                self._k_gain(p, k, True)
        self._phase = PH_PLAY
        self._current = p
        if not self._eras[p] and self._n == 1:
            self._finish()  # Solo: you found the gem, you win
            return
        if not self._hsize[p]:
            self._end_step2()  # no card left: step 2 is over

    def _cycle_check(self) -> bool:
        """Data Analyser: when nothing more can be chosen, draw and finish."""
        p = self._active
        if self._hsize[p] and (self._cycle_mode != 2 or self._owned[p] > MIN_ACTION_CARDS):
            return True
        self._cycle_done()
        return False

    def _cycle(self, act: EternitiumAction) -> None:
        p = self._active
        if act is DONE:
            self._cycle_done()
            self._finish_play()
            return
        k = act.card
        if act.verb == V_DISCARD:
            self._cycle_mode = 1
            self._hands[p][k] -= 1
            self._hsize[p] -= 1
            self._discards[p].append(k)
            self._k_lose(p, k)
            self._k_gain(p, k, True)
        else:
            self._cycle_mode = 2
            self._destroy(p, k)
        self._cycle_count += 1
        if not self._cycle_check():
            self._finish_play()

    def _cycle_done(self) -> None:
        self._draw(self._active, self._cycle_count)
        self._cycle_count = 0
        self._cycle_mode = 0

    def _steal(self, k: int) -> None:
        p = self._active
        pile = self._discards[self._target]
        i = len(pile) - 1 - pile[::-1].index(k)
        del pile[i]
        self._k_lose(self._target, k, True)
        self._k_gain(p, k)
        self._owned[self._target] -= 1
        self._hands[p][k] += 1  # R1: into the thief's hand, playable this turn
        self._hsize[p] += 1
        self._owned[p] += 1
        self._finish_play()

    def _next_gift(self) -> bool:
        """Laboratory: the other players, from the left and clockwise, take a Basic card."""
        while self._gifts:
            s = self._gifts.pop(0)
            if self._basic_row or self._basic_deck:
                self._phase = PH_GIFT
                self._current = s
                return True
        return False

    def _gift(self, k: int) -> None:
        s = self._current
        card = self._take_tech(k)
        self._hands[s][card] += 1
        self._hsize[s] += 1
        self._owned[s] += 1
        if k < NKINDS:
            self._k_gain(s, card)
        if not self._next_gift():
            self._finish_play()

    def _skipped_check(self) -> None:
        if not self._hsize[self._active]:
            self._end_step2()

    def _skipped_action(self, act: EternitiumAction) -> None:
        """Skipping step 2: destroy any cards, then keep at most one (rules: step 2)."""
        if act.verb == V_KEEP:
            self._kept = act.card
            self._end_step2()
            return
        self._destroy(self._active, act.card)
        self._skipped_check()

    def _end_step2(self) -> None:
        """Step 3: discard the cards left in hand (a skipping player keeps one)."""
        p = self._active
        hand = self._hands[p]
        pile = self._discards[p]
        keep = self._kept
        for k in range(NKINDS):
            c = hand[k]
            if c:
                if k == keep:
                    c -= KEEP_AFTER_SKIP
                    hand[k] = KEEP_AFTER_SKIP
                else:
                    hand[k] = 0
                pile.extend([k] * c)
        self._hsize[p] = 1 if keep >= 0 else 0
        self._kept = -1
        self._current = p
        # Step 4: acquire a technology, unless the gem is found (rules: End of the Game)
        if self._eras[p] and (
            self._basic_row or self._basic_deck or self._adv_row or self._adv_deck
        ):
            legal = self._legal_acquire(p)
            if len(legal) > 1:
                self._phase = PH_ACQUIRE
                self._legal_cache = tuple(legal)
                return
        self._step5()

    def _acquire(self, k: int) -> None:
        p = self._active
        card = self._take_tech(k)
        self._decks[p].append(card)  # on top of the deck: drawn in step 5
        self._owned[p] += 1
        if k < NKINDS:
            self._k_gain(p, card)
        cost = TIER[card] - (1 if self._wallet else 0)
        self._pay_down = self._rules.paid_era_face_down
        self._pay_left = cost
        self._pay_next()

    def _pay_next(self) -> None:
        """Take the visible Era cards a technology costs (Basic one, Advanced both)."""
        display = self._era_display
        if self._pay_left <= 0 or not display:
            self._refill_display()
            self._step5()
            return
        if len(display) < 2 or display[0] == display[1]:
            # no choice: the cards are alike (or only one is left)
            while self._pay_left > 0 and display:
                self._pay_era(display[0], auto=True)
            self._refill_display()
            self._step5()
            return
        self._phase = PH_ERA
        self._current = self._active

    def _pay_era(self, s: int, auto: bool = False) -> None:
        self._era_display.remove(s)
        self._eras[self._active].append(s | ERA_KNOWN if self._pay_down else s | VISIBLE)
        self._pay_left -= 1
        if not auto:
            self._pay_next()

    def _step5(self) -> None:
        """Step 5: draw 5 (4 after a failed try, up to 6 after skipping); then the solo steps."""
        p = self._active
        if self._failed:
            count = HAND_AFTER_LUCK
        elif self._skipped:
            count = HAND_AFTER_SKIP - self._hsize[p]
        else:
            count = HAND_REFILL
        self._draw(p, count)
        if self._n == 1:
            era = self._eras[p]
            if self._rules.flip_era_each_turn:  # R10: reverse the pile and turn every card
                era.reverse()
                for i, c in enumerate(era):  # the cards turned down were seen: still known
                    era[i] = (
                        (c & SHAPE_BITS) | ERA_KNOWN if c & VISIBLE else (c & SHAPE_BITS) | VISIBLE
                    )
                self._era_known[p] = [0] * NSHAPES
            self._ai_card()  # step 6
            if self._rules.add_era_each_turn:  # a face-down Era card on top
                self._add_hidden(p)
        self._end_turn()

    def _ai_card(self) -> None:
        """Solo step 6 (and compensation): reveal the top AI card and resolve it on you."""
        if not self._ai_deck:
            return  # an empty AI deck is never rebuilt
        k = self._ai_deck.pop()
        self._ai_log.append(k)
        self._box[k] += 1
        saved = self._in_play
        self._in_play = -1
        if self._eras[0]:
            self._run(0, AI_EFFECT[k], None)
        self._in_play = saved

    def _end_turn(self) -> None:
        p = self._active
        n = self._n
        self._turn += 1
        if n == 1:
            if not self._eras[0] or self._turn >= self._rules.turns or self._last_turn:
                self._finish()
                return
            self._begin_turn(0)
            return
        nxt = (p + 1) % n
        if nxt == self._first:
            self._round += 1  # the round is complete: has anyone found the gem?
            limit = self._rules.limit_rounds
            if any(not e for e in self._eras) or (limit and self._round >= limit):
                self._finish()
                return
        self._begin_turn(nxt)

    def _finish(self) -> None:
        self._phase = PH_OVER
        self._current = -1
        self.is_terminal = True
        self._legal_cache = ()
        n = self._n
        if n == 1:
            self._winners = [] if self._eras[0] else [0]
            return
        found = [s for s in range(n) if not self._eras[s]]
        tied = found or list(range(n))  # option round_limit: nobody found it, rank everyone
        keys = {s: self._points(s) for s in tied}
        best = max(keys.values())
        self._winners = [s for s in tied if keys[s] == best]

    # ------------------------------------------------------------------ bad input
    def _refusal(self, act: EternitiumAction) -> IllegalAction:
        from eterna.games.eternitium.refusals import explain

        return IllegalAction(f"{act}: {explain(self, act)}")

    # ------------------------------------------------------------------ views
    def public_notation(self, action: Any) -> str | None:
        """Every action is played in the open but a `keep` after a skip: which card a player
        keeps is theirs alone (see docs/eternitium.md, "Determinization")."""
        text = str(action)
        return None if text.startswith("keep") else text

    def _view(self, seat: int | None) -> View:
        from eterna.games.eternitium.views import build_view

        return build_view(self, seat)

    # ------------------------------------------------------------------ search
    def _determinize(self, seat: int, rng: random.Random) -> EternitiumState:
        from eterna.games.eternitium.views import determinize

        return determinize(self, seat, rng)


def _take(pool: list[int], cards: list[int], where: str) -> list[int]:
    for c in cards:
        if pool[c] <= 0:
            raise BadSetup(f"setup {where}: no {CARD_NAME[c]} is left for it (composition)")
        pool[c] -= 1
    return cards
