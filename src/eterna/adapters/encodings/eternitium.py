"""Eternitium's encoding: 505 action ids, a float observation from the view.

Action id = the interned index of `eterna.games.eternitium.cards.ACTIONS`, which enumerates every
parameterised action at import: `play temporal-blaster seat-<k>` and `play thieving-robot
seat-<k>` for k < 5, `play transporter discard <a> <b>` for every unordered pair of card kinds,
`play recycler-robot <card>`, `play laboratory <tech>`, and one action per card (or blind pick)
for the other verbs. docs/encodings.md has the observation layout.
"""

from __future__ import annotations

from typing import Any, ClassVar

from eterna.adapters.encodings.base import Encoding, cap
from eterna.games.eternitium import cards

ENCODING_VERSION = 1

K = cards.NKINDS  # 23 Action card kinds
S = cards.NSHAPES  # 4 shapes
MAXP = cards.MAX_SEATS  # 5
ERA_DEPTH = 3  # top Era cards shown per seat (the effects reach 3 deep)
PHASES = (
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
MISSIONS = 11  # 0 (base) and 1..10
SEAT_FEATURES = (
    "present",
    "first_player",
    "current",
    "active",
    "gem",
    "hand_size",
    "deck_size",
    "discard_size",
    "era_count",
    "hidden_era",
    "score",
    "starting_set",
    "victim",
    "gift_to_come",
)
CAP_COUNT = 5.0  # copies of one kind in a hand / row
CAP_PILE = 20.0  # copies of one kind in a discard pile
CAP_HAND = 10.0
CAP_DECK = 30.0
CAP_ERA = 15.0
CAP_SCORE = 30.0
CAP_RESERVE = 10.0
CAP_ROUND = 100.0


class EternitiumEncoding(Encoding):
    game_id: ClassVar[str] = "eternitium"
    version: ClassVar[int] = ENCODING_VERSION
    max_players: ClassVar[int] = MAXP
    actions: ClassVar[tuple[Any, ...]] = cards.ACTIONS
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = (
        ("hand", (K,)),
        ("discard", (K,)),
        ("victim_discard", (K,)),
        ("basic_row", (K,)),
        ("advanced_row", (K,)),
        ("portal_row", (K,)),
        ("ai_cards", (K,)),
        ("in_play", (K,)),
        ("era_top", (MAXP, ERA_DEPTH, S + 1)),  # shape one-hot, or the last slot: hidden
        ("era_visible", (MAXP, S)),  # visible cards per shape in the whole pile
        ("seats", (MAXP, len(SEAT_FEATURES))),
        ("portal_reserve", (S,)),
        ("era_display", (S,)),
        ("era_discard", (S,)),
        ("deck_sizes", (5,)),  # portal, basic, advanced, common Era, AI decks
        ("phase", (len(PHASES),)),
        ("mission", (MISSIONS,)),
        ("clock", (4,)),  # round / 100, turns left / 8, last turn, solo
        ("turn_state", (5,)),  # played, skipped, failed luck, smartphones / 3, wallet
        ("pending", (4,)),  # analyser mode discard / destroy, chosen / 6, Era to take / 2
        ("terminal", (1,)),
        ("winners", (MAXP,)),
    )

    def __init__(self, players: int | None = None) -> None:
        super().__init__(players)
        self._o = dict(self.offsets)
        self._card = dict(cards.CARD_INDEX)
        self._shape = dict(cards.SHAPE_INDEX)
        self._phase = {name: i for i, name in enumerate(PHASES)}

    def _counts(self, m: Any, base: int, names: Any, scale: float) -> None:
        card = self._card
        step = 1.0 / scale
        for name in names:
            i = base + card[name]
            v = m[i] + step
            m[i] = v if v < 1.0 else 1.0

    def write(self, view: dict[str, Any], m: Any) -> None:
        o = self._o
        shape = self._shape
        seat = view["seat"] or 0
        n = view["players"]
        pending = view["pending"]
        counts = self._counts
        counts(m, o["hand"], view["hand"] or (), CAP_COUNT)
        counts(m, o["discard"], view["discard"] or (), CAP_PILE)
        counts(m, o["victim_discard"], pending.get("victim_discard", ()), CAP_PILE)
        counts(m, o["basic_row"], view["basic_row"], CAP_COUNT)
        counts(m, o["advanced_row"], view["advanced_row"], CAP_COUNT)
        counts(m, o["portal_row"], view["portal_row"], CAP_COUNT)
        counts(m, o["ai_cards"], view["ai_cards"], CAP_COUNT)
        if view["in_play"] is not None:
            m[o["in_play"] + self._card[view["in_play"]]] = 1.0
        top = o["era_top"]
        vis = o["era_visible"]
        hidden_count = [0] * n
        for s, pile in enumerate(view["era"]):
            r = (s - seat) % n
            base = top + r * ERA_DEPTH * (S + 1)
            vbase = vis + r * S
            hidden = 0
            for depth, face in enumerate(pile):
                j = shape.get(face, -1)
                if j < 0:
                    hidden += 1
                else:
                    v = m[vbase + j] + 1.0 / CAP_ERA
                    m[vbase + j] = v if v < 1.0 else 1.0
                if depth < ERA_DEPTH:
                    m[base + depth * (S + 1) + (S if j < 0 else j)] = 1.0
            hidden_count[s] = hidden
        b = o["seats"]
        k = len(SEAT_FEATURES)
        first = view["first_player"]
        current = view["current_player"]
        active = view["active_player"]
        gems = view["gem"]
        victim = pending.get("victim")
        gifts = pending.get("gifts_to_come", ())
        hand_sizes = view["hand_sizes"]
        deck_sizes = view["deck_sizes"]
        discard_sizes = view["discard_sizes"]
        era_counts = view["era_counts"]
        scores = view["scores"]
        sets = view["starting_sets"]
        for s in range(n):
            base = b + ((s - seat) % n) * k
            m[base] = 1.0
            if s == first:
                m[base + 1] = 1.0
            if s == current:
                m[base + 2] = 1.0
            if s == active:
                m[base + 3] = 1.0
            if s in gems:
                m[base + 4] = 1.0
            m[base + 5] = cap(hand_sizes[s], CAP_HAND)
            m[base + 6] = cap(deck_sizes[s], CAP_DECK)
            m[base + 7] = cap(discard_sizes[s], CAP_DECK)
            m[base + 8] = cap(era_counts[s], CAP_ERA)
            m[base + 9] = cap(hidden_count[s], CAP_ERA)
            m[base + 10] = cap(scores[s], CAP_SCORE)
            m[base + 11] = cap(sets[s], float(MAXP))
            if s == victim:
                m[base + 12] = 1.0
            if s in gifts:
                m[base + 13] = 1.0
        for key, scale in (
            ("portal_reserve", CAP_RESERVE),
            ("era_discard", CAP_ERA),
        ):
            base = o[key]
            for name, count in view[key].items():
                m[base + shape[name]] = cap(count, scale)
        base = o["era_display"]
        for name in view["era_display"]:
            m[base + shape[name]] += 0.5
        base = o["deck_sizes"]
        m[base] = cap(view["portal_deck_size"], 8.0)
        m[base + 1] = cap(view["basic_deck_size"], CAP_DECK)
        m[base + 2] = cap(view["advanced_deck_size"], CAP_DECK)
        m[base + 3] = cap(view["era_deck_size"], 60.0)
        m[base + 4] = cap(view["ai_deck_size"], 9.0)
        m[o["phase"] + self._phase[view["phase"]]] = 1.0
        mission = view["mission"]
        if 0 <= mission < MISSIONS:
            m[o["mission"] + mission] = 1.0
        base = o["clock"]
        m[base] = cap(view["round"], CAP_ROUND)
        if view["turns_left"] is not None:
            m[base + 1] = cap(view["turns_left"], 8.0)
        if view["last_turn"]:
            m[base + 2] = 1.0
        if n == 1:
            m[base + 3] = 1.0
        ts = view["turn_state"]
        base = o["turn_state"]
        m[base] = 1.0 if ts["played"] else 0.0
        m[base + 1] = 1.0 if ts["skipped"] else 0.0
        m[base + 2] = 1.0 if ts["failed_luck"] else 0.0
        m[base + 3] = cap(ts["smartphones"], 3.0)
        m[base + 4] = 1.0 if ts["wallet"] else 0.0
        base = o["pending"]
        mode = pending.get("mode")
        if mode == "discard":
            m[base] = 1.0
        elif mode == "destroy":
            m[base + 1] = 1.0
        if "chosen" in pending:
            m[base + 2] = cap(pending["chosen"], 6.0)
        if "era_to_take" in pending:
            m[base + 3] = cap(pending["era_to_take"], 2.0)
        if view["is_terminal"]:
            m[o["terminal"]] = 1.0
        b = o["winners"]
        for s in view["winners"]:
            m[b + (s - seat) % n] = 1.0
