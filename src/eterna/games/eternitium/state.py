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

import copy
import random
from typing import TYPE_CHECKING, Any

from eterna.core.errors import EternaError, IllegalAction
from eterna.core.game import GameState, Record, View
from eterna.games.eternitium.cards import (
    ACQUIRE,
    AI_EFFECT,
    BASIC,
    BLIND_ADVANCED,
    BLIND_BASIC,
    CARD_INDEX,
    CARD_NAME,
    DESTROY,
    DISCARD,
    DONE,
    EFFECT,
    END,
    ERA,
    FIRST_HAND,
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
    MISSIONS,
    NEEDS_ERA,
    NKINDS,
    NSHAPES,
    OP_ADD_HIDDEN,
    OP_CYCLE,
    OP_DESTROY_OLDEST_TECH,
    OP_DISCARD_ERA,
    OP_DISCARD_HAND,
    OP_DISCOUNT,
    OP_DRAW,
    OP_GAIN_TECH,
    OP_HIDE_SHUFFLE,
    OP_RECYCLE,
    OP_REVEAL,
    OP_STEAL,
    OP_SWAP,
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
    SELF,
    SHAPES,
    SKIP,
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
    Op,
    parse_action,
)

if TYPE_CHECKING:
    from eterna.games.eternitium.game import Eternitium

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
ERA_KNOWN = 8  # a face-down Era card whose identity everyone saw (mission 5 flip, mission 8)


class EternitiumState(GameState):
    """A game of Eternitium. Build one with `load_game("eternitium").new_game(...)`."""

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
        "_current",
        "_cycle_count",
        "_cycle_mode",
        "_deck_known",
        "_decks",
        "_determinized",
        "_discards",
        "_era_box",
        "_era_deck",
        "_era_discard",
        "_era_display",
        "_era_known",
        "_eras",
        "_failed",
        "_first",
        "_game",
        "_gifts",
        "_hands",
        "_history",
        "_hsize",
        "_in_play",
        "_kept",
        "_known",
        "_last_turn",
        "_legal",
        "_limit_rounds",
        "_limit_turns",
        "_limited",
        "_located",
        "_luck_any",
        "_mission",
        "_n",
        "_options",
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
        "_seed",
        "_setup",
        "_skipped",
        "_target",
        "_turn",
        "_version",
        "_wallet",
        "_winners",
        "is_terminal",
    )

    _game: Eternitium
    _n: int
    _seed: int
    _version: int  # the record version (1 and 2 draw the same splitmix64 stream)
    _options: dict[str, Any]
    _setup: Any
    _mission: int
    _luck_any: bool  # option double_portal_luck (R6 alternative)
    _limit_rounds: int  # option round_limit (0: none)
    _limit_turns: int  # solo: 8, mission 3: 4
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
    _current: int
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
    _history: list[EternitiumAction]
    _winners: list[int]
    _determinized: bool
    _legal: list[EternitiumAction] | None
    is_terminal: bool

    # ------------------------------------------------------------------ contract: reading
    @property
    def game(self) -> Eternitium:  # type: ignore[override]
        return self._game

    @property
    def players(self) -> int:
        return self._n

    @property
    def current_player(self) -> int | None:
        p = self._current
        return None if p < 0 else p

    @property
    def phase(self) -> str:
        return PHASE_NAME[self._phase]

    @property
    def scores(self) -> list[int]:
        """Technology points (rules: End of the Game; R7: every card owned)."""
        return [self._points(s)[0] for s in range(self._n)]

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

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
            SHAPES[c & 3].upper() if c & VISIBLE else SHAPES[c & 3]
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
                era[c & 3] += 1
        for zone in (self._era_deck, self._era_display, self._era_discard):
            for c in zone:
                era[c] += 1
        for s in range(NSHAPES):
            out[f"era-{SHAPES[s]}"] = era[s]
        return out

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
    def legal_actions(self) -> list[EternitiumAction]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[:]

    def _compute_legal(self) -> list[EternitiumAction]:
        ph = self._phase
        p = self._current
        if ph == PH_PLAY:
            return self._legal_play(p)
        if ph == PH_PORTAL:
            if self._mission == 4:
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
                        if match >> (top & 3) & 1:  # R15: only on a matching visible card
                            out.append(PLAY[k])
                    elif k < NSHAPES or self._luck_any:  # R6: try your luck with a Portal
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
        if self._mission == 9:  # mission 9: play as many cards as possible; never skip
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

    def apply(self, action: EternitiumAction | str) -> None:
        if action.__class__ is not EternitiumAction:
            action = self._coerce(action)
        act: EternitiumAction = action
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if act not in legal:
            raise self._refusal(act)
        self._legal = None
        self._history.append(act)
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

    def clone(self) -> EternitiumState:
        new = object.__new__(EternitiumState)
        new._game = self._game
        new._n = self._n
        new._seed = self._seed
        new._version = self._version
        new._options = self._options
        new._setup = self._setup
        new._mission = self._mission
        new._luck_any = self._luck_any
        new._limit_rounds = self._limit_rounds
        new._limit_turns = self._limit_turns
        new._rng = self._rng
        new._hands = [h[:] for h in self._hands]
        new._hsize = self._hsize[:]
        new._decks = [d[:] for d in self._decks]
        new._discards = [d[:] for d in self._discards]
        new._eras = [e[:] for e in self._eras]
        new._owned = self._owned[:]
        new._reserve = self._reserve[:]
        new._portal_deck = self._portal_deck[:]
        new._portal_row = self._portal_row[:]
        new._basic_deck = self._basic_deck[:]
        new._basic_row = self._basic_row[:]
        new._adv_deck = self._adv_deck[:]
        new._adv_row = self._adv_row[:]
        new._era_deck = self._era_deck[:]
        new._era_display = self._era_display[:]
        new._era_discard = self._era_discard[:]
        new._ai_deck = self._ai_deck[:]
        new._ai_log = self._ai_log[:]
        new._box = self._box[:]
        new._known = [k[:] for k in self._known]
        new._located = [k[:] for k in self._located]
        new._peeks = (
            {key: (a[:], b[:]) for key, (a, b) in self._peeks.items()} if self._peeks else {}
        )
        new._era_known = [k[:] for k in self._era_known]
        new._deck_known = self._deck_known[:]
        new._bottom = self._bottom[:]
        new._era_box = self._era_box  # never changes after the setup
        new._phase = self._phase
        new._current = self._current
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
        new._gifts = self._gifts[:]
        new._cycle_mode = self._cycle_mode
        new._cycle_count = self._cycle_count
        new._pay_left = self._pay_left
        new._pay_down = self._pay_down
        new._pickers = self._pickers[:]
        new._kept = self._kept
        new._last_turn = self._last_turn
        new._history = self._history[:]
        new._winners = self._winners[:]
        new._determinized = self._determinized
        new._legal = self._legal
        new.is_terminal = self.is_terminal
        return new

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
        self._era_discard.append(code & 3)

    def _reveal(self, p: int, count: int, depth: int) -> None:
        """Turn the next hidden Era cards among the top `depth` face up (Droid, Giga Droid)."""
        era = self._eras[p]
        stop = max(len(era) - depth, 0)
        for i in range(len(era) - 1, stop - 1, -1):
            if count and not era[i] & VISIBLE:
                self._era_seen(p, era[i])
                era[i] = (era[i] & 3) | VISIBLE
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
                known[era[i] & 3] += 1
                era[i] &= 3
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
        if not code & VISIBLE and not code & ERA_KNOWN:
            known = self._era_known[p]
            if known[code & 3]:
                known[code & 3] -= 1

    def _era_leave(self, p: int) -> int:
        """Pop seat p's top Era card; a face-down one may be any of the known shapes."""
        code = self._eras[p].pop()
        if not code & (VISIBLE | ERA_KNOWN):
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
                known[c & 3] += 1
                era[i] = c & 3

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
        first_hand = MISSIONS.get(self._mission, {}).get("first_hand", FIRST_HAND)
        for s in range(self._n):
            self._draw(s, first_hand)
        self._begin_turn(self._first)

    def _begin_turn(self, p: int) -> None:
        self._active = self._current = p
        self._limited = 0
        self._wallet = self._failed = self._skipped = self._played = False
        self._kept = -1
        if self._mission == 6 and self._hsize[p] and self._owned[p] > MIN_ACTION_CARDS:
            self._phase = PH_DESTROY6  # mission 6; R9: never below the floor of 6 cards
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
        if self._mission == 4:
            self._portal_row.remove(s)  # mission 4: reveal a new one
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
        shape = era[-1] & 3
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

    def _run(self, p: int, effect: tuple[Op, ...], act: EternitiumAction | None) -> bool:
        """Apply an effect's primitives in order; True when a decision is now pending.

        `act` is None for a solo AI card, whose effects target the solo player (`p`).
        """
        n = self._n
        k = self._in_play
        if k >= 0 and VOID_IF_VISIBLE[k] and self._top_visible(p, VOID_IF_VISIBLE[k]):
            return False  # R4: Giga Droid with the top 3 visible does nothing at all
        for op in effect:
            code = op.code
            if code == OP_DISCARD_ERA:
                if self._eras[p]:
                    self._discard_era(p)
            elif code == OP_REVEAL:
                if op.a == OTHERS:
                    if op.d and n == 1:
                        self._ai_card()  # Solo: compensation reveals an AI card (R13)
                    for i in range(1, n):
                        self._reveal((p + i) % n, op.b, op.c)
                else:
                    self._reveal(p, op.b, op.c)
            elif code == OP_DRAW:
                self._draw(p, op.a)
            elif code == OP_DISCOUNT:
                self._wallet = True  # R16: two Wallets do not add up
            elif code == OP_HIDE_SHUFFLE:
                if op.a == OTHERS:
                    for i in range(1, n):
                        self._hide_and_shuffle((p + i) % n, op.c)
                else:
                    self._hide_and_shuffle(p, op.c)
            elif code == OP_ADD_HIDDEN:
                if op.a == OTHERS:
                    for i in range(1, n):
                        self._add_hidden((p + i) % n)
                else:  # the AI's Temporal Blaster replaces the card it discarded
                    self._add_hidden(p, force=act is None)
            elif code == OP_DESTROY_OLDEST_TECH:
                pile = self._discards[p]
                if self._owned[p] > MIN_ACTION_CARDS:
                    for i, c in enumerate(pile):
                        if TIER[c]:
                            self._k_lose(p, c, True)
                            del pile[i]
                            self._owned[p] -= 1
                            self._box[c] += 1
                            break
            elif act is not None:  # primitives that use the action's parameters
                if code == OP_SWAP:
                    s = act.seat
                    mine = self._era_leave(p)
                    self._eras[p].append(self._era_leave(s))
                    self._eras[s].append(mine)  # R5: each card keeps its face
                elif code == OP_DISCARD_HAND:
                    for c in (act.card2, act.card3):
                        self._hands[p][c] -= 1
                        self._discards[p].append(c)
                        self._k_lose(p, c)
                        self._k_gain(p, c, True)
                    self._hsize[p] -= 2
                elif code == OP_RECYCLE:
                    c = act.card2
                    if c >= 0:
                        pile = self._discards[p]
                        i = len(pile) - 1 - pile[::-1].index(c)
                        del pile[i]
                        self._hands[p][c] += 1
                        self._hsize[p] += 1
                        self._k_lose(p, c, True)
                        self._k_gain(p, c)
                elif code == OP_GAIN_TECH:
                    if op.a == SELF:
                        c = act.card2
                        if c >= 0:
                            card = self._take_tech(c)
                            self._hands[p][card] += 1
                            self._hsize[p] += 1
                            self._owned[p] += 1
                            if c < NKINDS:  # a visible card; a blind one stays unknown
                                self._k_gain(p, card)
                    elif n == 1:
                        self._ai_card()  # Solo: compensation (R13: after the card's own effect)
                    else:  # R8: players who found the gem receive nothing
                        self._gifts = [(p + i) % n for i in range(1, n) if self._eras[(p + i) % n]]
                        return self._next_gift()
                elif code == OP_STEAL:
                    self._target = act.seat
                    self._peek(p, act.seat)
                    self._phase = PH_STEAL
                    return True
                elif code == OP_CYCLE:
                    self._cycle_mode = 0
                    self._cycle_count = 0
                    self._phase = PH_CYCLE
                    return self._cycle_check()
        return False

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
                self._legal = legal
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
        self._pay_down = self._mission == 8  # mission 8: the Era cards go face down
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
            if self._mission == 5:  # mission 5, R10: reverse the pile and turn every card
                era.reverse()
                for i, c in enumerate(era):  # the cards turned down were seen: still known
                    era[i] = (c & 3) | ERA_KNOWN if c & VISIBLE else (c & 3) | VISIBLE
                self._era_known[p] = [0] * NSHAPES
            self._ai_card()  # step 6
            if self._mission == 7:  # mission 7: a face-down Era card on top
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
            if not self._eras[0] or self._turn >= self._limit_turns or self._last_turn:
                self._finish()
                return
            self._begin_turn(0)
            return
        nxt = (p + 1) % n
        if nxt == self._first:
            self._round += 1  # the round is complete: has anyone found the gem?
            if any(not e for e in self._eras) or (
                self._limit_rounds and self._round >= self._limit_rounds
            ):
                self._finish()
                return
        self._begin_turn(nxt)

    def _finish(self) -> None:
        self._phase = PH_OVER
        self._current = -1
        self.is_terminal = True
        self._legal = []
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
    def _coerce(self, action: object) -> EternitiumAction:
        if isinstance(action, str):
            return parse_action(action)
        if isinstance(action, EternitiumAction):
            return action
        raise IllegalAction(
            f"{action!r} is not an Eternitium action: pass an action from legal_actions() "
            "or its notation, e.g. 'play droid' (docs/eternitium.md, Notation)"
        )

    def _refusal(self, act: EternitiumAction) -> IllegalAction:
        from eterna.games.eternitium.refusals import explain

        return IllegalAction(f"{act}: {explain(self, act)}")

    # ------------------------------------------------------------------ views
    def public_notation(self, action: Any) -> str | None:
        """Every action is played in the open but a `keep` after a skip: which card a player
        keeps is theirs alone (see docs/eternitium.md, "Determinization")."""
        text = str(action)
        return None if text.startswith("keep") else text

    def view(self, seat: int | None) -> View:
        from eterna.games.eternitium.views import build_view

        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n
        ):
            raise EternaError(f"no seat {seat!r} at a {self._n}-player table")
        return build_view(self, seat)

    # ------------------------------------------------------------------ records and search
    def to_record(self) -> Record:
        if self._determinized:
            raise EternaError("a determinized state is a guess, not a game: it has no record")
        return {
            "game": "eternitium",
            **({} if self._version == 1 else {"version": self._version}),  # absent: version 1
            "players": self._n,
            "seed": self._seed,
            "options": copy.deepcopy(self._options),  # a copy: the client may edit it
            "setup": copy.deepcopy(self._setup),
            "actions": [a.text for a in self._history],
        }

    def determinize(self, seat: int, rng: random.Random) -> EternitiumState:
        from eterna.games.eternitium.views import determinize

        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._n:
            raise EternaError(f"no seat {seat!r} at a {self._n}-player table")
        return determinize(self, seat, rng)
