"""Eternity's encoding: 84 action ids (play / pledge x 42 cards), an 825-float observation.

Action id = the interned index: `play <card>` is the card number (0..41, earth-1 .. sky-14),
`pledge <card>` is 42 + the card number. docs/encodings.md has the observation layout.
"""

from __future__ import annotations

from typing import Any, ClassVar

from eterna.adapters.encodings.base import Encoding, cap
from eterna.games.eternity import cards

ENCODING_VERSION = 1

C = cards.DECK_SIZE  # 42
F = len(cards.FAMILIES)  # 3
MAXP = 5
ROUNDS = cards.ROUNDS
SEAT_FEATURES = (
    "present",
    "leader",
    "current",
    "hand_size",
    "tricks",
    "trees",
    "score",
    "won_last_trick",
)
# Caps dividing each count (values are clipped to [0, 1]).
CAP_HAND = 10.0
CAP_TRICKS = 10.0
CAP_TREES = 30.0
CAP_SCORE = 60.0
CAP_PLEDGES = 2.0
CAP_BONUS = 7.0
CAP_SUPPLY = float(cards.TREE_TOKENS_IN_BOX)


class EternityEncoding(Encoding):
    game_id: ClassVar[str] = "eternity"
    version: ClassVar[int] = ENCODING_VERSION
    max_players: ClassVar[int] = MAXP
    actions: ClassVar[tuple[Any, ...]] = cards.ACTIONS
    fields: ClassVar[tuple[tuple[str, tuple[int, ...]], ...]] = (
        ("hand", (C,)),
        ("board", (C,)),
        ("display", (C,)),
        ("trick_plays", (MAXP, C)),
        ("trick_pledges", (MAXP, C)),
        ("round_played", (MAXP, C)),
        ("led", (F,)),
        ("trump", (F,)),
        ("columns", (F, F)),
        ("round", (ROUNDS,)),
        ("trick_progress", (1,)),
        ("harmony_bonus", (1,)),
        ("pledges_left", (1,)),
        ("tree_supply", (2,)),
        ("seats", (MAXP, len(SEAT_FEATURES))),
        ("terminal", (1,)),
        ("winners", (MAXP,)),
    )

    def __init__(self, players: int | None = None) -> None:
        super().__init__(players)
        o = self.offsets
        self._o_hand = o["hand"]
        self._o_board = o["board"]
        self._o_display = o["display"]
        self._o_trick = o["trick_plays"]
        self._o_pledge = o["trick_pledges"]
        self._o_played = o["round_played"]
        self._o_led = o["led"]
        self._o_trump = o["trump"]
        self._o_columns = o["columns"]
        self._o_round = o["round"]
        self._o_misc = o["trick_progress"]  # trick_progress, harmony, pledges_left, supply x2
        self._o_seats = o["seats"]
        self._o_terminal = o["terminal"]
        self._o_winners = o["winners"]
        self._card = cards.CARD_BY_NAME
        self._family = cards.FAMILY_INDEX
        # notation -> card number, for the log ("play sea-3" and "pledge sea-3" alike)
        self._log_card = {a.text: a.card for a in cards.ACTIONS}

    def write(self, view: dict[str, Any], m: Any) -> None:
        card = self._card
        family = self._family
        seat = view["seat"] or 0
        n = view["players"]
        for name in view["hand"] or ():
            m[card[name]] = 1.0
        o = self._o_board
        for names in view["board"].values():
            for name in names:
                m[o + card[name]] = 1.0
        o = self._o_display
        for name in view["display"]:
            m[o + card[name]] = 1.0
        o = self._o_trick
        for entry in view["trick"]:
            m[o + ((entry["seat"] - seat) % n) * C + card[entry["card"]]] = 1.0
        o = self._o_pledge
        for entry in view["pledges"]:
            m[o + ((entry["seat"] - seat) % n) * C + card[entry["card"]]] = 1.0
        o = self._o_played
        log_card = self._log_card
        for entry in view["log"]:
            text = entry.get("action")
            if text is not None:
                m[o + ((entry["seat"] - seat) % n) * C + log_card[text]] = 1.0
        led = view["led"]
        if led is not None:
            m[self._o_led + family[led]] = 1.0
        m[self._o_trump + family[view["trump"]]] = 1.0
        o = self._o_columns
        for i, name in enumerate(view["columns"]):
            m[o + i * F + family[name]] = 1.0
        m[self._o_round + min(view["round"], ROUNDS) - 1] = 1.0
        o = self._o_misc
        m[o] = cap(view["trick_number"], view["tricks_per_round"])
        m[o + 1] = cap(view["harmony_bonus"], CAP_BONUS)
        m[o + 2] = cap(view["pledges_left"], CAP_PLEDGES)
        supply = view["tree_supply"]
        if supply is not None:
            m[o + 3] = 1.0
            m[o + 4] = cap(supply, CAP_SUPPLY)
        o = self._o_seats
        k = len(SEAT_FEATURES)
        leader = view["leader"]
        current = view["current_player"]
        last = view["last_trick"]
        last_winner = None if last is None else last["winner"]
        hand_sizes = view["hand_sizes"]
        tricks = view["tricks"]
        trees = view["trees"]
        scores = view["scores"]
        for s in range(n):
            b = o + ((s - seat) % n) * k
            m[b] = 1.0
            if s == leader:
                m[b + 1] = 1.0
            if s == current:
                m[b + 2] = 1.0
            m[b + 3] = cap(hand_sizes[s], CAP_HAND)
            m[b + 4] = cap(tricks[s], CAP_TRICKS)
            m[b + 5] = cap(trees[s], CAP_TREES)
            m[b + 6] = cap(scores[s], CAP_SCORE)
            if s == last_winner:
                m[b + 7] = 1.0
        if view["is_terminal"]:
            m[self._o_terminal] = 1.0
        o = self._o_winners
        for s in view["winners"]:
            m[o + (s - seat) % n] = 1.0
