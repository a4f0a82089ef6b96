"""The Eternitium game object: identity, options and the setup of a new game (rules: Setup,
Game Preparation, Solo Mode, Solo Mode Special Missions)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from eterna.core.agent import Agent
from eterna.core.errors import BadSetup
from eterna.core.game import Game
from eterna.core.options import Option
from eterna.core.rng import RECORD_VERSION
from eterna.games.eternitium.cards import (
    ADVANCED,
    BASIC,
    CARD_INDEX,
    CARD_NAME,
    DATA,
    DROID,
    ERA_DEALT,
    MISSIONS,
    NKINDS,
    NSHAPES,
    PORTALS,
    RESERVE_PER_PLAYER,
    SHAPES,
    SOLO_AI_KINDS,
    SOLO_TURNS,
    STARTING_SETS,
    VISIBLE,
    EternitiumAction,
    default_composition,
    parse_action,
)
from eterna.games.eternitium.setup import parse_setup
from eterna.games.eternitium.state import PH_PICK, EternitiumState

if TYPE_CHECKING:
    from eterna.core.encoding import Encoding

OPTIONS: dict[str, Option] = {
    opt.name: opt
    for opt in (
        Option(
            "mission",
            0,
            "Solo only: 0 plays the base solo game, 1-10 a Special Mission with its own setup "
            "and rules (rules: Solo Mode Special Missions).",
            minimum=0,
            maximum=10,
        ),
        Option(
            "composition",
            {},
            "Card counts that override the data file's defaults (docs/eternitium.md, "
            "'Composition'): technology ids give the copies in the market decks (droid: beside "
            "the 5 starting Droids), era-<shape> the Era cards of a shape, e.g. "
            "{'ultimate-portal': 4, 'laboratory': 1}.",
            kind=dict,
        ),
        Option(
            "double_portal_luck",
            False,
            "R6: may a Double Portal 'try its luck' on a hidden Era card? Default no (only a "
            "Portal card may).",
        ),
        Option(
            "round_limit",
            100,
            "Not a rule, a safety net for simulations (real games last far fewer rounds): "
            "end a multiplayer game after this many rounds even if nobody found the gem, "
            "everyone then ranked by technology points; 0: no limit.",
            minimum=0,
            maximum=100000,
        ),
    )
}


def check_composition(given: Mapping[str, Any]) -> list[int]:
    """Market copies per card kind (portals: the whole 15), and Era cards per shape after."""
    counts = default_composition()
    for key, value in given.items():
        if key not in counts:
            raise BadSetup(f"option composition: unknown count {key!r}; known: {', '.join(counts)}")
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 60:
            raise BadSetup(f"option composition: {key} must be a count 0..60, not {value!r}")
        counts[key] = value
    market = [0] * NKINDS
    for s in PORTALS:
        market[s] = int(DATA["portals"]["per_shape"])
    for key, value in counts.items():
        if key in CARD_INDEX:
            market[CARD_INDEX[key]] = value
    return market + [counts[f"era-{s}"] for s in SHAPES]


class Eternitium(Game):
    id: ClassVar[str] = "eternitium"
    name: ClassVar[str] = "Eternitium"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 5
    declared_options: ClassVar[Mapping[str, Option]] = OPTIONS

    def new_game(
        self,
        players: int,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        setup: Mapping[str, Any] | None = None,
        *,
        version: int = RECORD_VERSION,
    ) -> EternitiumState:
        n = self.check_players(players)
        opts = self.resolve_options(options)
        mission: int = opts["mission"]
        if mission and n != 1:
            raise BadSetup("option mission is for the solo game (players=1) only")
        comp = check_composition(opts["composition"])
        fixed = parse_setup(setup, n)
        seed = self.check_seed(seed)
        rules = MISSIONS.get(mission, {}) if n == 1 else {}

        st = object.__new__(EternitiumState)
        st._game = self
        st._n = n
        st._seed = seed
        st._version = self.check_version(version)
        st._options = json.loads(json.dumps(opts))
        st._setup = None if setup is None else json.loads(json.dumps(setup))
        st._mission = mission if n == 1 else 0
        st._luck_any = bool(opts["double_portal_luck"])
        st._limit_rounds = opts["round_limit"]
        st._limit_turns = int(rules.get("turns", SOLO_TURNS))
        st._rng = seed
        st._history = []
        st._winners = []
        st._determinized = False
        st._legal = None
        st.is_terminal = False
        st._phase = PH_PICK
        st._active = st._current = 0
        st._turn = st._round = 0
        st._limited = 0
        st._wallet = st._failed = st._skipped = st._played = st._last_turn = False
        st._in_play = st._target = st._kept = -1
        st._gifts = []
        st._cycle_mode = st._cycle_count = st._pay_left = 0
        st._pay_down = False
        st._ai_log = []
        st._peeks = {}
        st._bottom = [0, 0]
        st._deck_known = [0] * NSHAPES
        _deal(st, comp, fixed, rules)
        return st

    def parse_action(self, text: str) -> EternitiumAction:
        return parse_action(text)

    def make_heuristic(self, seed: int | None = None, **params: Any) -> Agent:
        """Eternitium's own heuristic agent (spec `heuristic`)."""
        from eterna.games.eternitium.heuristic import EternitiumHeuristic

        return EternitiumHeuristic(seed=seed, **params)

    def search_defaults(self) -> dict[str, Any]:
        from eterna.games.eternitium.heuristic import EternitiumHeuristic

        return dict(EternitiumHeuristic.search_defaults)

    def encoding_class(self) -> type[Encoding]:
        from eterna.games.eternitium.encoding import EternitiumEncoding

        return EternitiumEncoding


def _take(pool: list[int], cards: list[int], where: str) -> list[int]:
    for c in cards:
        if pool[c] <= 0:
            raise BadSetup(f"setup {where}: no {CARD_NAME[c]} is left for it (composition)")
        pool[c] -= 1
    return cards


def _deal(
    st: EternitiumState, comp: list[int], fixed: dict[str, Any], rules: dict[str, Any]
) -> None:
    """Rules: Setup 1-7 and Game Preparation; Solo Mode; the mission's own setup."""
    n = st._n
    solo = n == 1
    pool = comp[:NKINDS]
    pool[DROID] += STARTING_SETS  # the numbered starting Droids are among the 29 Basic cards
    era_pool = comp[NKINDS:]
    st._first = fixed.get("first_player", st._rand(n) if n > 1 else 0)

    # Setup 2: the starting cards (unused numbered sets go back to the box)
    st._hands = [[0] * NKINDS for _ in range(n)]
    st._decks = []
    st._discards = []
    if "hands" in fixed:
        for s in range(n):
            for c in _take(pool, fixed["hands"][s], f"hands[{s}]"):
                st._hands[s][c] += 1
            st._decks.append(_take(pool, fixed.get("decks", [[]] * n)[s], f"decks[{s}]")[::-1])
            st._discards.append(_take(pool, fixed.get("discards", [[]] * n)[s], f"discards[{s}]"))
    else:
        per_shape = int(rules.get("starting_portals_per_shape", 1))
        start = [s for s in PORTALS for _ in range(per_shape)]
        if rules.get("starting_droid", True):
            start.append(DROID)
        for _seat in range(n):
            deck = _take(pool, start[:], "starting cards")
            st._shuffle(deck)
            st._decks.append(deck)
            st._discards.append([])
    # Public knowledge: the starting sets (a setup's cards too, but those it calls blind)
    st._known = [st._hands[s][:] for s in range(n)]
    st._located = [[0] * NKINDS for _ in range(n)]
    for s in range(n):
        for c in st._decks[s] + st._discards[s]:
            st._known[s][c] += 1
        for c in fixed.get("blind", [[]] * n)[s]:
            if st._known[s][c] <= 0:
                raise BadSetup(f"setup blind[{s}]: seat {s} holds no {CARD_NAME[c]}")
            st._known[s][c] -= 1
    st._hsize = [sum(h) for h in st._hands]
    st._owned = [st._hsize[s] + len(st._decks[s]) + len(st._discards[s]) for s in range(n)]
    box = [0] * NKINDS

    # Setup 3: the Portal reserve (mission 4: a face-down Portal deck with 3 revealed)
    st._reserve = [0] * NSHAPES
    st._portal_deck = []
    st._portal_row = []
    reserve = int(rules.get("reserve_per_shape", RESERVE_PER_PLAYER * n))
    if rules.get("portal_deck"):
        if "portal_deck" in fixed:
            deck = _take(pool, fixed["portal_deck"], "portal_deck")[::-1]
        else:
            deck = []
            for s in PORTALS:
                k = min(reserve, pool[s])
                deck += [s] * k
                pool[s] -= k
            st._shuffle(deck)
        st._portal_deck = deck
        for _ in range(3):
            if st._portal_deck:
                st._portal_row.append(st._portal_deck.pop())
    else:
        given = fixed.get("portals", {})
        for s in PORTALS:
            k = given.get(s, reserve)
            _take(pool, [s] * k, "portals")
            st._reserve[s] = k
    for s in PORTALS:
        box[s] += pool[s]
        pool[s] = 0

    # Solo Mode: the AI card deck (mission 1: the Temporal Blasters only)
    st._ai_deck = []
    removed: list[int] = [CARD_INDEX[c] for c in rules.get("removed", [])]
    if solo:
        ai_kinds = [
            CARD_INDEX[c] for c in rules.get("ai_deck", [CARD_NAME[k] for k in SOLO_AI_KINDS])
        ]
        if "ai_deck" in fixed:
            for c in fixed["ai_deck"]:
                if c not in ai_kinds:
                    raise BadSetup(f"setup ai_deck: {CARD_NAME[c]} is not an AI card here")
            st._ai_deck = _take(pool, fixed["ai_deck"], "ai_deck")[::-1]
        else:
            deck = []
            for k in ai_kinds:
                deck += [k] * pool[k]
                pool[k] = 0
            st._shuffle(deck)
            st._ai_deck = deck
        removed += list(SOLO_AI_KINDS)
        if rules.get("advanced_market") is False:
            removed += list(ADVANCED)
    for k in removed:
        box[k] += pool[k]
        pool[k] = 0

    # Setup 4-5: the technology markets, three different face-up cards each
    market = comp[:NKINDS]
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
        st._shuffle(deck)
        deck += top[::-1]
        setattr(st, f"_{attr}_deck", deck)
        setattr(st, f"_{attr}_row", row)
        if row_key not in fixed:
            st._refill_row(row, deck)
    st._box = box

    # Setup 6-7: Era cards, the top one revealed; the common deck with two visible
    era_cards = [s for s in range(NSHAPES) for _ in range(era_pool[s])]
    dealt = int(rules.get("era_dealt", ERA_DEALT[n]))
    st._eras = []
    if "era" in fixed:
        for s, pile in enumerate(fixed["era"]):
            for c in pile:
                if c & 3 not in era_cards:
                    raise BadSetup(f"setup era[{s}]: no {SHAPES[c & 3]} Era card is left")
                era_cards.remove(c & 3)
    placed = fixed.get("era_display", []) + fixed.get("era_deck", [])
    for c in placed + fixed.get("era_discard", []):
        if c not in era_cards:
            raise BadSetup(f"setup era_deck/era_display/era_discard: no {SHAPES[c]} Era card left")
        era_cards.remove(c)
    st._shuffle(era_cards)
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
        st._eras.append(pile)
    st._era_box = [0] * NSHAPES
    if "era_deck" in fixed.get("exact", ()):  # the setup gives the whole common deck
        for c in era_cards:
            st._era_box[c] += 1
        era_cards = []
    st._era_deck = era_cards + fixed.get("era_deck", [])[::-1]
    st._era_display = list(fixed.get("era_display", []))
    st._era_discard = list(fixed.get("era_discard", []))
    st._era_known = [[0] * NSHAPES for _ in range(n)]
    if "era_display" not in fixed:
        st._refill_display()

    # Game Preparation: the first Basic Technology, in turn order (skipped by a setup's hands)
    if "hands" in fixed:
        st._pickers = []
        st._begin_turn(st._first)
    else:
        st._pickers = [(st._first + i) % n for i in range(n)]
        st._next_picker()


GAME = Eternitium()
