"""What the Vale's heuristic (heuristic.py) counts a card, a stone and a hand card worth to
the deciding seat, as rough figures in points.

A card's worth is its instant counted on a sketch of the seat's position as the engine would
(per card, family, stone...), plus its active effect per resolution left and its permanent per
round left; stones count for their value times a rate that falls to nothing at the last round.
`CardWorth` reads the position the heuristic prepared from the view (`_prepare`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    DRAGON,
    EARTH,
    FIRE,
    HAS_ACTIVE,
    HAS_INSTANT,
    HAS_PERMANENT,
    SELL,
    WATER,
    WIND,
)
from eterna.games.vale.worth_artifacts import ART_GUESS, art_active, art_instant, art_permanent

if TYPE_CHECKING:
    from eterna.games.vale.views import ValeView

_C = CARD_BY_NAME
_BASE: Final = (1, 3, 6)
COLOUR: Final = {"red": 0, "blue": 1, "purple": 2}
COLOUR_NAME: Final = ("red", "blue", "purple")

# Points a permanent is worth per round left (its "whenever you summon" part counted apart).
PERMANENT_WORTH: Final[dict[int, float]] = {
    _C["agni"]: 0.8,
    _C["hestia"]: 0.6,
    _C["phoenix"]: 0.9,
    _C["hae-tae"]: 0.7,
    _C["kappa"]: 1.1,
    _C["triton"]: 0.9,
    _C["water-giant"]: 0.8,
    _C["gargoyle"]: 1.2,
    _C["hippogriff"]: 0.6,
    _C["pegasus"]: 1.0,
    _C["sylph"]: 0.9,
}
RECOVERS: Final = frozenset(
    _C[n] for n in ("imp", "undine", "mud-slime", "dandelion-spirit", "duduri")
)
ATTACKS: Final[dict[int, tuple[int, int]]] = {  # card: (points, family attacked)
    _C["leviathan"]: (7, DRAGON),
    _C["ember"]: (7, WATER),
    _C["marina"]: (7, FIRE),
    _C["boulder"]: (8, WIND),
    _C["gust"]: (8, EARTH),
}
DRAWS: Final = frozenset(
    _C[n] for n in ("dandelion-spirit", "hippogriff", "pegasus", "sylph", "willow")
)
STONE_GAIN: Final[dict[int, tuple[int, int, int]]] = {
    _C["imp"]: (2, 0, 0),
    _C["undine"]: (0, 1, 0),
    _C["water-giant"]: (0, 2, 0),
    _C["willow"]: (1, 1, 1),
    _C["belphegor"]: (1, 0, 0),
}
# Resolution order: lower first. Harpy and Goblin Soldier are placed by the position.
RESOLVE_RANK: Final[dict[int, int]] = {
    _C["nessie"]: 0,
    _C["freyja"]: 1,
    _C["valkyrie"]: 1,
    _C["griffon"]: 2,
    _C["mimic"]: 2,
    _C["salamander"]: 3,
    _C["horned-salamander"]: 3,
    _C["undine-queen"]: 3,
    _C["odin"]: 3,
    _C["basilisk"]: 3,
    _C["medusa"]: 4,
    _C["sea-spirit"]: 5,
    _C["snail-maiden"]: 6,
    _C["troll"]: 7,
    _C["burning-skull"]: 7,
    _C["charybdis"]: 7,
    _C["goblin"]: 8,
    _C["genie-exalted"]: 9,
    _C["asmodeus"]: 10,
    _C["balog"]: 10,
    _C["imp"]: 12,
    _C["undine"]: 12,
    _C["mud-slime"]: 12,
    _C["dandelion-spirit"]: 12,
    # the Artifacts: stone gains early (spent by the converters), returns last
    _C["bul-gae"]: 2,
    _C["hephaestus"]: 2,
    _C["siren"]: 4,
    _C["loki"]: 5,
    _C["rukh"]: 5,
    _C["nurikabe"]: 6,
    _C["mandrake"]: 9,
    _C["duduri"]: 12,
}
_PAY_MEMO: dict[tuple[int, ...], tuple[tuple[int, int, int], ...]] = {}


def payments(
    cost: int, held: tuple[int, int, int], values: tuple[int, int, int]
) -> tuple[tuple[int, int, int], ...]:
    """The stone sets from `held` covering `cost` with no superfluous stone (as the engine)."""
    key = (cost, *held, *values)
    found = _PAY_MEMO.get(key)
    if found is not None:
        return found
    vr, vb, vp = values
    out = []
    if cost <= 0:
        out.append((0, 0, 0))
    else:
        for z in range(held[2] + 1):
            for y in range(held[1] + 1):
                rest = cost - z * vp - y * vb
                x = 0 if rest <= 0 else -(-rest // vr)
                if x > held[0] or x + y + z > 6:
                    continue
                v = x * vr + y * vb + z * vp
                if (x and v - vr >= cost) or (y and v - vb >= cost) or (z and v - vp >= cost):
                    continue
                out.append((x, y, z))
    if len(_PAY_MEMO) > 50_000:
        _PAY_MEMO.clear()
    found = _PAY_MEMO[key] = tuple(out)
    return found


def fit_stones(stones: list[int], limit: int, values: tuple[int, int, int]) -> None:
    """Drop the cheapest stones until `limit` are left (the stone limit, §7)."""
    while stones[0] + stones[1] + stones[2] > limit:
        for c in sorted(range(3), key=lambda k: values[k]):
            if stones[c]:
                stones[c] -= 1
                break


class Sketch:
    """The seat's position as the planner plays it forward."""

    __slots__ = ("area", "hand", "limit", "points", "room", "stones", "values")

    def __init__(
        self,
        stones: list[int],
        hand: list[int],
        area: list[int],
        values: tuple[int, int, int],
        limit: int,
        room: int,
    ) -> None:
        self.stones = stones
        self.hand = hand
        self.area = area
        self.values = values
        self.limit = limit
        self.room = room
        self.points = 0.0

    def copy(self) -> Sketch:
        new = Sketch(self.stones[:], self.hand[:], self.area[:], self.values, self.limit, self.room)
        new.points = self.points
        return new

    def room_for(self, n: int) -> bool:
        return sum(self.stones) + n <= self.limit

    def value_held(self) -> int:
        v = self.values
        s = self.stones
        return s[0] * v[0] + s[1] * v[1] + s[2] * v[2]


# Active effects worth a fixed number of points a resolution (active_worth)
_FIXED_ACTIVE: Final[dict[str, float]] = {
    "burning-skull": 2.6,
    "snail-maiden": 1.0,
    "mimic": 1.2,
    "genie-exalted": 2.0,
    "griffon": 1.2,
    "harpy": 1.0,
    "odin": 2.0,
    "asmodeus": 1.0,
    "balog": 1.0,
}
# ... and worth `base + per_rate * rate` (stones turned into points at the seat's rate)
_RATED_ACTIVE: Final[dict[str, tuple[float, float]]] = {
    "salamander": (1.0, 1.0),
    "horned-salamander": (0.0, 2.5),
    "charybdis": (5.0, -3.0),
    "undine-queen": (0.0, 3.0),
    "basilisk": (-1.5, 6.0),
    "medusa": (-0.8, 6.0),
}


@mypyc_attr(native_class=False)  # a base of ValeHeuristic, an agent
class CardWorth:
    """The estimates, over the position ValeHeuristic._prepare reads from the view."""

    # the seat's position (set by ValeHeuristic._prepare)
    view: ValeView
    me: int
    n: int
    round: int
    scores: list[int]
    left: int  # rounds left that count, after this one
    rate: float  # points a stone's value is worth now
    values: tuple[int, int, int]
    stones: list[int]
    limit: int
    hand: list[int]
    area: list[int]
    areas: list[list[int]]
    cut: list[int]
    behind: bool
    # the agent's parameters (ValeHeuristic.__init__)
    base_rate: float
    hand_factor: float
    hand_cost: float
    threshold: float
    stone_cap: float
    over_cap: float

    def cost(self, card: int, area: list[int] | None = None) -> int:
        if area is None or area is self.area:
            cut = self.cut[CARD_FAMILY[card]]
        else:
            cut = 0
            fam = CARD_FAMILY[card]
            for c in area:
                if c == _C["pegasus"]:
                    cut += 1
                elif c == _C["hippogriff"] and fam == WIND:
                    cut += 2
        c = CARD_COST[card] - cut
        return c if c > 0 else 0

    def active_worth(self, card: int, area: list[int], sk: Sketch | None = None) -> float:
        """Points one resolution of `card`'s active effect is worth, roughly."""
        name = CARD_NAME[card]
        fixed = _FIXED_ACTIVE.get(name)
        if fixed is not None:
            return fixed
        rated = _RATED_ACTIVE.get(name)
        if rated is not None:
            return rated[0] + rated[1] * self.rate
        stones = self.stones if sk is None else sk.stones
        if name == "nessie":
            return 0.0 if any(CARD_FAMILY[c] == DRAGON for c in area) else 2.0
        if name == "sea-spirit":
            return 0.5 + stones[1]
        if name == "goblin":
            return 1.0 + (1.0 if self.n == 2 else 0.4)
        if name == "goblin-soldier":
            return 2.5 if self.behind else -1.0
        if name == "troll":
            return 3.0 if stones[2] else 1.2
        if name == "freyja":
            return float(sum(1 for c in area if HAS_ACTIVE[c]))
        if name == "valkyrie":
            return float(len({CARD_FAMILY[c] for c in area}))
        return art_active(self, card, area, stones) or 0.0

    def future(self, card: int, area: list[int], sk: Sketch | None = None) -> float:
        """What `card` in the area still gives: its active per resolution left (this round
        included) and its permanent per round left."""
        value = 0.0
        if HAS_ACTIVE[card] and card not in RECOVERS:
            value += self.active_worth(card, area, sk) * (self.left + 1)
        if HAS_PERMANENT[card]:
            per = PERMANENT_WORTH.get(card)
            if per is None:
                per = art_permanent(card)
            value += (0.5 if per is None else per) * self.left
        return value

    def instant(self, card: int, sk: Sketch) -> float:
        """Points `card`'s instant gives on the sketch (card already in the area, payment
        made), stones it gains not included (the planner adds them)."""
        counted = self._instant_counted(card, sk)
        return counted if counted is not None else self._instant_on_position(card, sk)

    def _instant_counted(self, card: int, sk: Sketch) -> float | None:
        """The instants that count cards or give fixed points (None: another kind)."""
        name = CARD_NAME[card]
        area = sk.area
        hand = sk.hand
        if name in ("ifrit", "gi-rin"):
            return float(len(area) * (1 if name == "ifrit" else 2))
        if name in ("firefox", "rudra"):
            return float(len(hand) * (1 if name == "firefox" else 2))
        if name == "incubus":
            return 2.0 * sum(1 for c in area if CARD_COST[c] <= 2)
        per_family = {"lava-giant": (2, FIRE), "poseidon": (3, WATER), "sand-giant": (4, EARTH)}
        if name in per_family:
            k, fam = per_family[name]
            return float(k * sum(1 for c in area if CARD_FAMILY[c] == fam))
        if name == "tidal":
            return 5.0 * sum(1 for c in area if CARD_FAMILY[c] == DRAGON)
        if name in ("surtr", "behemoth", "eternity"):
            k = {"surtr": 2, "behemoth": 3, "eternity": 4}[name]
            return float(k * len({CARD_FAMILY[c] for c in area}))
        if name == "succubus":
            return 10.0 if {1, 2, 3, 4} <= {CARD_COST[c] for c in area} else 0.0
        if name == "boreas":
            return float(sum(1 for c in area if CARD_FAMILY[c] == WIND))
        if name in ("mud-slime", "tengu"):
            return 6.0
        if name == "willow":
            return 3.0 + 1.5
        if card in DRAWS:
            return 1.5
        return art_instant(self, card, sk)

    def _instant_on_position(self, card: int, sk: Sketch) -> float:
        """The instants worth what the stones, the hand or the other areas make of them."""
        name = CARD_NAME[card]
        area = sk.area
        hand = sk.hand
        if name == "hydra":
            return 4.0 + max(1.5, 6 * self.rate if sk.room_for(1) else 0.0)
        if name == "yuki-onna":
            return float(sk.value_held())
        if name == "yuki-onna-exalted":
            return float(sk.stones[1] * sk.values[1])
        if name == "rock-golem":
            return float(sk.stones[2] * sk.values[2])
        if name == "stone-golem":
            count = sum(sk.stones)
            return self.rate * (count * sk.values[2] - sk.value_held())
        if card in ATTACKS:
            points, fam = ATTACKS[card]
            return points + self.attack_worth(fam, sk.area)
        if name == "forest-spirit":
            return max((CARD_COST[c] - self.in_hand(c, sk) for c in hand), default=0.0)
        if name == "young-forest-spirit":
            best = 0.0
            for c in hand:
                if len(hand) >= 2:
                    best = max(best, self.worth(c, sk) - self.in_hand(c, sk))
            loss = min((self.in_hand(c, sk) for c in hand), default=0.0)
            return best - loss
        if name == "dragon-egg":
            best = max((self.worth(c, sk) for c in hand if CARD_FAMILY[c] == DRAGON), default=0.0)
            return best - 1.0
        if name == "aeris":
            return max(
                (CARD_COST[c] - self.future(c, area) for c in area if c != card), default=0.0
            )
        if name == "scorch":
            best = 0.0
            for c in area:
                if c != card and HAS_INSTANT[c] and CARD_NAME[c] not in ("scorch", "aeris"):
                    best = max(best, self.instant(c, sk))
            return best
        if name == "genie":
            return sum(self.active_worth(c, area, sk) for c in area if HAS_ACTIVE[c] and c != card)
        return 0.0

    def attack_worth(self, family: int, area: list[int]) -> float:
        """An attack on `family`: hurting an opponent is good; having to name yourself is not."""
        best = None
        for s in range(self.n):
            if s == self.me:
                continue
            cards = [c for c in self.areas[s] if CARD_FAMILY[c] == family]
            if cards:
                lead = 1.0 + 0.05 * max(0, self.scores[s] - self.scores[self.me])
                hit = lead * (1.5 + min(self.future(c, self.areas[s]) for c in cards) * 0.5)
                best = hit if best is None else max(best, hit)
        if best is not None:
            return best
        mine = [c for c in area if CARD_FAMILY[c] == family and c not in ATTACKS]
        if not mine:
            return -1.0  # only the card itself (a Dragon hit by Leviathan...): rare
        return -min(self.future(c, area) + 1.5 for c in mine)

    def worth(self, card: int, sk: Sketch) -> float:
        """Summoning `card` onto the sketch now: instant plus future (not its cost)."""
        area = sk.area
        area.append(card)
        hand = sk.hand
        at = hand.index(card) if card in hand else -1
        if at >= 0:
            del hand[at]
        try:
            value = self.instant(card, sk) + self.future(card, area, sk)
        finally:
            area.pop()
            if at >= 0:
                hand.insert(at, card)
        return value

    def in_hand(self, card: int, sk: Sketch | None = None) -> float:
        """What holding `card` is worth: a later summon, discounted, less its cost."""
        if self.left <= 0:
            return 0.1
        area = self.area if sk is None else sk.area
        base = self.instant_guess(card, area) + self.future(card, area) * (
            self.left / (self.left + 1)
        )
        value = base - self.hand_cost * self.cost(card, area) * (1.2 if self.left <= 2 else 1.0)
        return max(0.2, self.hand_factor * value)

    def instant_guess(self, card: int, area: list[int]) -> float:
        if not HAS_INSTANT[card]:
            return 0.0
        name = CARD_NAME[card]
        if card in ATTACKS:
            return float(ATTACKS[card][0])
        if name in ("tidal", "poseidon", "sand-giant", "lava-giant"):
            return 6.0
        if name in ("surtr", "behemoth", "eternity", "gi-rin"):
            return {"surtr": 6.0, "behemoth": 9.0, "eternity": 13.0, "gi-rin": 9.0}[name]
        if name in ("mud-slime", "tengu"):
            return 6.0
        if name in ("ifrit", "incubus", "firefox", "rudra"):
            return {"ifrit": 3.0, "incubus": 4.0, "firefox": 2.0, "rudra": 6.0}[name]
        if name == "willow":
            return 8.0
        if name == "hydra":
            return 7.0
        if card in STONE_GAIN:
            gain = STONE_GAIN[card]
            return 1.0 + self.rate * (gain[0] + 3 * gain[1] + 6 * gain[2])
        if card in DRAWS:
            return 1.5
        return ART_GUESS.get(name, 2.0)

    def stone_worth(self, stones: list[int], values: tuple[int, int, int] | None = None) -> float:
        v = self.values if values is None else values
        held = stones[0] * v[0] + stones[1] * v[1] + stones[2] * v[2] - 0.5 * stones[2]
        # more than a summon or two's worth mostly waits (and blocks sales at the limit)
        cap = self.stone_cap
        return self.rate * (held if held <= cap else cap + self.over_cap * (held - cap))

    def sale_gain(self, card: int, stones: list[int]) -> float:
        after = stones[:]
        gain = SELL[CARD_FAMILY[card]]
        for c in range(3):
            after[c] += gain[c]
        fit_stones(after, self.limit, self.values)
        return self.stone_worth(after) - self.stone_worth(stones)
