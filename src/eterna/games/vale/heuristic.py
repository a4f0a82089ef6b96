"""The Vale of Eternity's heuristic agent: greedy, one decision at a time, from the view alone.

Every legal action gets a score and the best one is played (ties broken by the agent's own
generator):

- Hunting: claim the card worth most to this seat, as a summon it can afford soon (what the card
  would score, see below) or as stones to sell.
- Action phase: tame a claimed card worth summoning, sell the other; summon the card with the
  best gain now plus its expected future (active effects times the rounds left, permanents),
  minus what the payment wastes; never remove; end the turn when nothing scores.
- Resolution: stone gainers before stone spenders, recoveries last.
- Choices inside effects: the option that scores most (points now, then stones by value); attacks
  and steals aim at the leading opponent.

A card's worth when summoned is estimated from the seat's area as the engine would count it
(points per card, per family, per stone...) plus a flat value per round left for active effects.
"""

from __future__ import annotations

from typing import Any, Final

from eterna.core.agent import ViewAgent
from eterna.core.game import Action, View
from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_COST,
    CARD_FAMILY,
    DRAGON,
    EARTH,
    FIRE,
    HAS_ACTIVE,
    HAS_INSTANT,
    ROUNDS,
    SELL,
    WATER,
    WIND,
)

_V: Final = (1, 3, 6)  # base stone values, for judging sales

# Points an active effect is worth per round, roughly; permanents per round left.
ACTIVE_WORTH: Final[dict[str, float]] = {
    "salamander": 1.6,
    "horned-salamander": 2.0,
    "burning-skull": 2.5,
    "charybdis": 3.5,
    "nessie": 1.8,
    "sea-spirit": 1.0,
    "snail-maiden": 1.0,
    "undine-queen": 1.2,
    "basilisk": 1.0,
    "goblin": 1.5,
    "goblin-soldier": 1.5,
    "medusa": 1.5,
    "mimic": 1.0,
    "troll": 2.0,
    "freyja": 2.0,
    "genie-exalted": 2.0,
    "griffon": 1.0,
    "harpy": 1.0,
    "odin": 2.0,
    "valkyrie": 2.0,
    "asmodeus": 1.0,
    "balog": 1.0,
    "imp": 0.5,
    "undine": 0.5,
    "mud-slime": 3.0,
    "dandelion-spirit": 0.8,
}
PERMANENT_WORTH: Final[dict[str, float]] = {
    "agni": 1.0,
    "hestia": 0.6,
    "phoenix": 1.0,
    "hae-tae": 1.0,
    "kappa": 1.2,
    "triton": 1.0,
    "water-giant": 1.0,
    "gargoyle": 1.2,
    "hippogriff": 0.8,
    "pegasus": 1.0,
    "sylph": 1.0,
}
RESOLVE_ORDER: Final[dict[str, int]] = {
    # earlier first: gains that enable the spenders, then spenders, recoveries last
    "salamander": 0,
    "horned-salamander": 0,
    "undine-queen": 0,
    "basilisk": 1,
    "medusa": 1,
    "snail-maiden": 2,
    "harpy": 3,
    "burning-skull": 4,
    "charybdis": 4,
    "troll": 5,
    "imp": 9,
    "undine": 9,
    "mud-slime": 9,
    "dandelion-spirit": 9,
}


def _families(cards: list[str]) -> set[int]:
    return {CARD_FAMILY[CARD_BY_NAME[c]] for c in cards}


def _count(cards: list[str], family: int) -> int:
    return sum(1 for c in cards if CARD_FAMILY[CARD_BY_NAME[c]] == family)


class ValeHeuristic(ViewAgent):
    name = "heuristic"

    def __init__(self, seed: int | None = None, greed: float = 1.0) -> None:
        super().__init__(seed)
        self.greed = greed

    # ------------------------------------------------------------------ entry
    def act(self, view: View, legal: list[Any]) -> Action:
        me: int = view["seat"]
        best: list[Any] = []
        top = float("-inf")
        for action in legal:
            value = self.score(view, me, str(action))
            if value > top + 1e-9:
                best, top = [action], value
            elif abs(value - top) <= 1e-9:
                best.append(action)
        choice: Action = best[0] if len(best) == 1 else self.rng.choice(best)
        return choice

    # ------------------------------------------------------------------ estimates
    def rounds_left(self, view: View) -> int:
        left = ROUNDS - int(view["round"])
        if max(view["scores"]) >= 45:
            left = min(left, 1)
        return max(left, 0)

    def instant_gain(self, view: View, me: int, card: str, extra_area: int = 1) -> float:
        """Points `card`'s instant would give now (it counts itself in the area)."""
        area = view["areas"][me] + [card]
        hand = [c for c in (view["hand"] or []) if c != card]
        stones = view["stones"][me]
        values = view["stone_values"][me]
        fam = len(_families(area))
        table: dict[str, float] = {
            "firefox": len(hand),
            "ifrit": len(area),
            "incubus": 2 * sum(1 for c in area if CARD_COST[CARD_BY_NAME[c]] <= 2),
            "lava-giant": 2 * _count(area, FIRE),
            "surtr": 2 * fam,
            "succubus": 10.0 if {1, 2, 3, 4} <= {CARD_COST[CARD_BY_NAME[c]] for c in area} else 0.0,
            "hydra": 4 + 3,
            "leviathan": 7 + 2,
            "poseidon": 3 * _count(area, WATER),
            "undine": 1.5,
            "water-giant": 3,
            "imp": 1.5,
            "yuki-onna": sum(stones[c] * values[c] for c in ("red", "blue", "purple")) * 0.6,
            "yuki-onna-exalted": stones["blue"] * values["blue"],
            "behemoth": 3 * fam,
            "forest-spirit": max((CARD_COST[CARD_BY_NAME[c]] for c in hand), default=0) * 0.8,
            "mud-slime": 6,
            "rock-golem": stones["purple"] * values["purple"],
            "sand-giant": 4 * _count(area, EARTH),
            "stone-golem": 0.5 * (stones["red"] * 5 + stones["blue"] * 3),
            "young-forest-spirit": 3,
            "boreas": _count(area, WIND) + 1,
            "dandelion-spirit": 1.5,
            "gi-rin": 2 * len(area),
            "hippogriff": 1.5,
            "pegasus": 1.5,
            "rudra": 2 * len(hand),
            "sylph": 1.5,
            "tengu": 6,
            "aeris": 4,
            "boulder": 8 + 2,
            "dragon-egg": 6,
            "ember": 7 + 2,
            "eternity": 4 * fam,
            "gust": 8 + 2,
            "marina": 7 + 2,
            "scorch": 5,
            "tidal": 5 * _count(area, DRAGON),
            "willow": 3 + 5,
            "genie": 2 * sum(1 for c in view["areas"][me] if HAS_ACTIVE[CARD_BY_NAME[c]]),
        }
        return float(table.get(card, 0.0))

    def worth(self, view: View, me: int, card: str) -> float:
        """What summoning `card` now is worth: the instant plus its future."""
        left = self.rounds_left(view)
        value = self.instant_gain(view, me, card)
        value += ACTIVE_WORTH.get(card, 0.0) * (left + 1)
        value += PERMANENT_WORTH.get(card, 0.0) * left
        # the triggers of cards already in the area
        return value

    def sale(self, card: str) -> float:
        red, blue, purple = SELL[CARD_FAMILY[CARD_BY_NAME[card]]]
        return red * _V[0] + blue * _V[1] + purple * _V[2]

    def keep_value(self, view: View, me: int, card: str) -> float:
        cost = CARD_COST[CARD_BY_NAME[card]]
        return self.worth(view, me, card) - 0.55 * cost

    # ------------------------------------------------------------------ scoring actions
    def score(self, view: View, me: int, text: str) -> float:
        words = text.split()
        verb = words[0]
        pending = view.get("pending")
        if pending is not None and pending.get("chooser") == me:
            return self.score_choice(view, me, pending, words)
        if verb == "claim":
            card = words[1]
            stones = sum(view["stones"][me].values())
            keep = self.keep_value(view, me, card)
            return max(keep, self.sale(card) * (0.9 if stones < 3 else 0.4))
        if verb in ("sell", "tame"):
            return self.score_claimed(view, me, verb, words[1])
        if verb == "summon":
            return self.score_summon(view, me, words)
        if verb == "remove":
            return -50.0
        if verb == "end-turn":
            return 0.0
        if verb == "resolve":
            return 10.0 - RESOLVE_ORDER.get(words[1], 6)
        return 0.0

    def score_claimed(self, view: View, me: int, verb: str, card: str) -> float:
        stones = view["stones"][me]
        held = sum(stones.values())
        wealth = sum(stones[c] * view["stone_values"][me][c] for c in stones)
        hand = view["hand"] or []
        keep = self.keep_value(view, me, card)
        sale = self.sale(card) * (1.2 if wealth < 6 else 0.6)
        if held >= view["stone_limits"][me]:
            sale *= 0.3
        if len(hand) >= 4:
            keep -= 2 * (len(hand) - 3)
        if verb == "tame":
            return 20 + keep
        return 20 + sale

    def score_summon(self, view: View, me: int, words: list[str]) -> float:
        card = words[1]
        pay = words[3].split("+") if len(words) == 4 else []
        values = view["stone_values"][me]
        spent = float(sum(values[c] for c in pay))
        cost = CARD_COST[CARD_BY_NAME[card]]
        gain = self.worth(view, me, card)
        # "whenever you summon" triggers already in the area
        area = view["areas"][me]
        if "sylph" in area:
            gain += 1
        if "kappa" in area and "blue" in pay:
            gain += 2
        if "gargoyle" in area and "purple" in pay:
            gain += 3
        if "phoenix" in area:
            gain += pay.count("red")
        reduced = max(0, cost - int(view["cost_reductions"][me][_family_name(card)]))
        waste = spent - reduced
        return gain - 0.35 * spent - 0.4 * waste + 0.5

    def score_choice(self, view: View, me: int, pending: dict[str, Any], words: list[str]) -> float:
        verb = words[0]
        source = pending.get("card")
        scores = view["scores"]
        if verb == "discard-stone":
            return -{"red": 1, "blue": 3, "purple": 6}[words[1]]
        if verb == "target":
            seat = int(words[1].removeprefix("seat-"))
            if seat == me:
                return -100.0
            return float(scores[seat])
        if verb == "done":
            return 0.0
        if verb == "choose":
            return {
                "points": 4.0,
                "purple": 3.5,
                "blue": 3.0 if source == "hydra" else 1.5,
                "draw": 2.0,
                "red": 1.0 if scores[me] > 2 else 2.0,
                "blue-to-purple": 2.0,
                "purple-to-blue": 1.0,
            }.get(words[1], 0.0)
        card = words[1]
        idx = CARD_BY_NAME[card]
        cost = CARD_COST[idx]
        if verb == "discard":
            if pending.get("for_seat") != me or source in ("cerberus",):
                return -cost  # lose the cheapest of your own cards
            if source == "forest-spirit":
                return cost
            return -self.keep_value(view, me, card)
        if verb == "recover":
            if source == "aeris":
                return cost
            return self.instant_gain(view, me, card) if HAS_INSTANT[idx] else 0.0
        if verb in ("copy",):
            return self.instant_gain(view, me, card) + ACTIVE_WORTH.get(card, 0.0)
        if verb == "take":
            return cost
        if verb == "summon":
            return self.worth(view, me, card)
        if verb == "resolve":
            return 10.0 - RESOLVE_ORDER.get(card, 6)
        return 0.0


def _family_name(card: str) -> str:
    return ("fire", "water", "earth", "wind", "dragon")[CARD_FAMILY[CARD_BY_NAME[card]]]
