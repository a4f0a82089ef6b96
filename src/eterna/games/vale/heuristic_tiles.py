"""The Vale heuristic's sense of the Artifacts' tiles (docs/vale.md "The artifact round").

A tile is worth what the seat can make of it this round, on its stones, hand, shelter and
area: Monkey King's Staff the four stones that fit under the limit less the two hand cards it
costs, Incense Burner an area bought while rounds are left to fill it, Book of Thoth its
upgrades, Ring of Wishes the best active effect of the area... The pick takes the tile worth
most; an action tile is used at the start of the action turn when it is worth more than
`USE_THRESHOLD` (it goes back to the glade when the phase ends, used or not). The choices
inside a tile's effect are valued with the same figures.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from eterna.games.vale.cards import CARD_BY_NAME, CARD_FAMILY, DRAGON
from eterna.games.vale.views import ValePending
from eterna.games.vale.worth import COLOUR, CardWorth, Sketch, fit_stones

_C = CARD_BY_NAME
USE_THRESHOLD: Final = 0.5
SHELTER_TOP: Final = 0.6  # a card of the deck sheltered: a retrieve away from the hand
UPGRADE_TO: Final = {0: 1, 1: 2}  # red to blue, blue to purple


@mypyc_attr(native_class=False)  # a base of ValeHeuristic, an agent
class TileSense(CardWorth):
    """Tile values over the position ValeHeuristic._prepare reads (shelter, areas bought)."""

    shelter: list[int]
    bought: int
    bought_limit: int

    def _stones_gain(self, gain: tuple[int, int, int], stones: list[int] | None = None) -> float:
        """What gaining `gain` (red, blue, purple) is worth, the stone limit applied."""
        before = self.stones[:] if stones is None else stones[:]
        after = [before[i] + gain[i] for i in range(3)]
        fit_stones(after, self.limit, self.values)
        return self.stone_worth(after) - self.stone_worth(before)

    def _sketch(self) -> Sketch:
        room = self.round + self.bought - len(self.area)
        return Sketch(self.stones[:], self.hand[:], self.area[:], self.values, self.limit, room)

    def area_worth(self) -> float:
        """One more area slot for the rest of the game."""
        if self.bought >= self.bought_limit or self.left <= 0:
            return 0.0
        full = self.round + self.bought - len(self.area) <= 0
        return min(3.0, 0.9 * self.left) + (1.0 if full else 0.0)

    def upgrade_worth(self, colour: int, stones: list[int] | None = None) -> float:
        held = self.stones if stones is None else stones
        if colour not in UPGRADE_TO or not held[colour]:
            return 0.0
        return self.rate * (self.values[UPGRADE_TO[colour]] - self.values[colour])

    def retrieve_worth(self, card: int) -> float:
        return self.in_hand(card)

    def tile_value(self, tile: str) -> float:
        """Holding `tile` this round (picked, or used now for an action tile)."""
        hand_worths = sorted(self.in_hand(c) for c in self.hand)
        if tile == "monkey-kings-staff":
            if len(hand_worths) < 2:
                return -1.0
            return self._stones_gain((2, 1, 1)) - hand_worths[0] - hand_worths[1]
        if tile == "incense-burner":
            area = self.area_worth() - 3 * self.rate if self.stone_value() >= 3 else 0.0
            return max(area, SHELTER_TOP * 2)
        if tile == "pied-pipers-pipe":
            return max(1.5, sum(self.retrieve_worth(c) for c in self.shelter))
        if tile == "seven-league-boots":
            return 1.0
        if tile == "golden-fleece":
            best = max((self.retrieve_worth(c) for c in self.shelter), default=SHELTER_TOP)
            return self._stones_gain((2, 0, 0)) + max(best, SHELTER_TOP)
        if tile == "book-of-thoth":
            ups = sorted((self.upgrade_worth(0), self.upgrade_worth(1)), reverse=True)
            return ups[0] + ups[1]
        if tile == "cap-of-hades":
            if not hand_worths:
                return -1.0
            reward = max(self.area_worth(), self._stones_gain((0, 0, 1)))
            return reward - 0.5 * hand_worths[0]
        if tile == "gem-of-kukulkan":
            return 1.0 if self.stones[0] else 0.3
        if tile == "imperial-seal":
            return max((self.seal_worth(c) for c in self.area), default=-1.0)
        if tile == "philosophers-stone":
            purple = self._stones_gain((0, 0, 1))
            return max((max(self.retrieve_worth(c), purple) for c in self.shelter), default=0.0)
        if tile == "ring-of-wishes":
            return max((self.active_worth(c, self.area) for c in self.area), default=0.0)
        return 0.0

    def stone_value(self) -> int:
        v = self.values
        s = self.stones
        return s[0] * v[0] + s[1] * v[1] + s[2] * v[2]

    def seal_worth(self, card: int) -> float:
        """Imperial Seal discarding `card` of the area: a slot freed, its future lost."""
        value = -self.future(card, self.area)
        if CARD_FAMILY[card] == DRAGON:
            value += self._stones_gain((0, 1, 0))
        if self.round + self.bought - len(self.area) <= 0 and self.hand:
            value += 1.5
        if _C["totem-pole"] in self.area:
            value += self._stones_gain((0, 0, 1))
        return value

    def pick_tile(self, texts: list[str]) -> str | None:
        best, pick = float("-inf"), None
        for text in texts:
            value = self.tile_value(text.split()[1])
            if value > best + 1e-9:
                best, pick = value, text
        return pick

    def tile_to_use(self, texts: list[str]) -> str | None:
        """The action tile worth using now, if any."""
        best, pick = USE_THRESHOLD, None
        for text in texts:
            if text.startswith("use "):
                value = self.tile_value(text.split()[1])
                if value > best:
                    best, pick = value, text
        return pick

    def artifact_choice(self, pending: ValePending, text: str) -> float:
        """A choice inside a tile's effect (pending["artifact"])."""
        words = text.split()
        verb = words[0]
        tile = pending.get("artifact")
        if verb == "done":
            return 0.0
        if verb == "buy-area":
            pay = [0, 0, 0]
            for w in words[2:3]:
                for colour in w.split("+"):
                    pay[COLOUR[colour]] += 1
            after = [self.stones[i] - pay[i] for i in range(3)]
            return self.area_worth() - (self.stone_worth(self.stones) - self.stone_worth(after))
        if verb == "choose":
            option = words[1]
            if option == "shelter-top":
                return SHELTER_TOP * (2 if tile == "incense-burner" else 1)
            if option == "retrieve-all":
                return sum(self.retrieve_worth(c) for c in self.shelter)
            if option == "draw":
                return 1.5
            if option == "purple":
                return self._stones_gain((0, 0, 1))
            if option == "keep-sold":
                sold = pending.get("card")
                kept = self.in_hand(_C[sold]) if sold in _C else 1.0
                return kept - self.rate * self.values[0]
            return 0.0
        if verb == "upgrade":
            return self.upgrade_worth(COLOUR[words[1]])
        card = _C.get(words[1], -1) if len(words) > 1 else -1
        if card < 0:
            return 0.0
        if verb == "retrieve":
            return self.retrieve_worth(card)
        if verb == "shelter":  # from hand (Cap of Hades) or from the display (the Boots)
            return -0.5 * self.in_hand(card) if card in self.hand else self.in_hand(card)
        if verb == "discard":
            if tile == "imperial-seal":
                return self.seal_worth(card)
            if tile == "philosophers-stone":
                return self._stones_gain((0, 0, 1)) - 0.3 * self.retrieve_worth(card)
            return -self.in_hand(card)
        if verb == "resolve":
            return self.active_worth(card, self.area)
        return 0.0
