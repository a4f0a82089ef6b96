"""The Vale of Eternity's heuristic agent: from the view and the legal actions alone.

- Action phase: a small turn planner. For every way of dealing with the claimed cards (sell or
  tame each), it plays the turn out on a sketch of the seat's stones, hand and area: summons
  chosen greedily by their net worth (what the card scores now and over the rounds left, minus
  the stones it spends, minus what the card would be worth kept in hand), paid with the
  payment that costs least, with the stone limit applied after every gain (the cheapest stones
  are lost), summons tried both before and after the sales (spend first when a sale would
  overflow). Cards with nothing left to give are removed when the area is full and something
  better waits. The plan with the best end position (points, stones kept, hand) gives the
  next action: tames, then the summons planned before the sales, the sales, the other summons.
- Hunting: each revealed card by the better of its sale (the stones that fit under the limit)
  and keeping it (summoned this turn if affordable, else its worth in hand).
- Resolution: effects that must see the position as it is first (Harpy, Goblin Soldier while
  behind, counters), stone gains before the effects that spend them, recoveries last.
- Choices inside effects: the option worth most for the seat; attacks at the leading opponent
  with a card to lose, never at itself when avoidable.

- The Artifacts (heuristic_tiles.py): the tile worth most this round is picked; an action
  tile worth using is used at the start of the action turn; the choices inside a tile's
  effect (shelter, retrieve, buy an area, upgrade...) by the same figures. The game's end
  score (80 with the Artifacts) sets how many rounds are still counted on.

What a card, a stone or a hand card is worth is estimated in worth.py (worth_artifacts.py for
the Artifacts' creatures).
"""

from __future__ import annotations

import math
from typing import ClassVar

from mypy_extensions import mypyc_attr

from eterna.core.agent import ViewAgent
from eterna.core.game import Action, AgentParam, View
from eterna.games.vale.cards import (
    CARD_BY_NAME,
    CARD_COST,
    CARD_FAMILY,
    CARD_NAME,
    FAMILIES,
    ROUNDS,
    SELL,
)
from eterna.games.vale.heuristic_tiles import TileSense
from eterna.games.vale.views import ValePending, ValeView, as_vale_view
from eterna.games.vale.worth import (
    COLOUR,
    RECOVERS,
    RESOLVE_RANK,
    STONE_GAIN,
    Sketch,
    fit_stones,
    payments,
)

_C = CARD_BY_NAME


@mypyc_attr(native_class=False)  # an agent: a Python class, its code compiled
class ValeHeuristic(TileSense, ViewAgent):
    name = "heuristic"
    # The ISMCTS agent's defaults with this heuristic as its rollout policy (a spec overrides
    # them; docs/agents.md).
    search_defaults: ClassVar[dict[str, AgentParam]] = {"iterations": 30, "depth": 0}

    def __init__(
        self,
        seed: int | None = None,
        rate: float = 0.55,
        hand_factor: float = 0.45,
        hand_cost: float = 0.5,
        threshold: float = 0.3,
        stone_cap: float = 10.0,
        over_cap: float = 0.4,
    ) -> None:
        super().__init__(seed)
        self.base_rate = rate  # points a stone's value is worth while rounds are left
        self.hand_factor = hand_factor  # a card in hand: this share of its summon value
        self.hand_cost = hand_cost  # ...less this share of its cost
        self.threshold = threshold  # the least net gain worth a summon
        self.stone_cap = stone_cap  # stones beyond this value...
        self.over_cap = over_cap  # ...count this share of it

    # ================================================================== entry
    def act(self, view: View, legal: list[Action]) -> Action:
        if len(legal) == 1:
            only: Action = legal[0]
            return only
        return self._act(as_vale_view(view), legal)

    def _act(self, view: ValeView, legal: list[Action]) -> Action:
        self._prepare(view)
        pending = view.get("pending")
        texts = [str(a) for a in legal]
        if pending is not None and pending.get("chooser") == self.me:
            pick = self._choice(view, pending, texts)
        elif view["phase"] == "hunting":
            pick = self.pick_tile(texts) if texts[0].startswith("pick ") else self._claim(texts)
        elif view["phase"] == "resolution":
            pick = self._resolve_order(texts)
        else:
            pick = self.tile_to_use(texts) or self._action_turn(view, texts)
        if pick is None or pick not in texts:
            pick = texts[-1] if "end-turn" in texts else texts[0]
        chosen: Action = legal[texts.index(pick)]
        return chosen

    def _prepare(self, view: ValeView) -> None:
        me = view["seat"]
        assert me is not None, "an agent's view is a seat's, never a spectator's"
        self.me = me
        self.view = view
        self.n = int(view["players"])
        self.round = int(view["round"])
        scores: list[int] = view["scores"]
        self.scores = scores
        left = ROUNDS - self.round
        top = max(scores) + 60 - int(view.get("end_score") or 60)  # as if the end were at 60
        if top >= 56:
            left = 0
        elif top >= 46:
            left = min(left, 1)
        elif top >= 36:
            left = min(left, 2)
        self.left = left
        # a stone's value is worth this many points while there are rounds left to spend it
        self.rate = self.base_rate * (1.0 if left >= 2 else (0.6 if left == 1 else 0.1))
        vals = view["stone_values"][me]
        self.values = (int(vals["red"]), int(vals["blue"]), int(vals["purple"]))
        st = view["stones"][me]
        self.stones = [int(st["red"]), int(st["blue"]), int(st["purple"])]
        self.limit = int(view["stone_limits"][me])
        self.hand = [_C[c] for c in (view["hand"] or [])]
        self.area = [_C[c] for c in view["areas"][me]]
        self.areas = [[_C[c] for c in a] for a in view["areas"]]
        cuts = view["cost_reductions"][me]
        self.cut = [int(cuts[f]) for f in FAMILIES]
        self.behind = any(scores[s] > scores[me] for s in range(self.n) if s != me)
        arts = view.get("artifacts")
        self.shelter = [_C[c] for c in (arts["shelter"] or [])] if arts else []
        self.bought = int(arts["bought_areas"][me]) if arts else 0
        self.bought_limit = 2 if arts else 0

    # ================================================================== estimates
    def _claim(self, texts: list[str]) -> str | None:
        """The revealed card whose best turn plan (with the cards already claimed) is best."""
        claimed = [_C[c] for c in self.view["claimed"][self.me]]
        best, pick = float("-inf"), None
        for text in texts:
            value = self._plan([*claimed, _C[text.split()[1]]])[0]
            if value > best + 1e-9:
                best, pick = value, text
        return pick

    def _room(self) -> int:
        return self.round + self.bought - len(self.area)

    # ================================================================== action phase
    def _plan(
        self, claimed: list[int]
    ) -> tuple[float, tuple[list[int], list[int], list[str], list[str]] | None]:
        """The best way to play the turn: (its value, (sells, tames, summons before the
        sales, summons after))."""
        base = Sketch(
            self.stones[:], self.hand[:], self.area[:], self.values, self.limit, self._room()
        )
        best_value = float("-inf")
        best_plan: tuple[list[int], list[int], list[str], list[str]] | None = None
        k = len(claimed)
        for mask in range(1 << k):
            sells = [claimed[i] for i in range(k) if mask >> i & 1]
            tames = [claimed[i] for i in range(k) if not mask >> i & 1]
            for spend_first in (False, True):
                if spend_first and not sells:
                    continue
                sk = base.copy()
                sk.hand.extend(tames)
                first: list[str] = []
                if spend_first:
                    first = self.summons(sk)
                for c in sells:
                    gain = SELL[CARD_FAMILY[c]]
                    for i in range(3):
                        sk.stones[i] += gain[i]
                    fit_stones(sk.stones, sk.limit, sk.values)
                later = self.summons(sk)
                value = sk.points + self.stone_worth(sk.stones, sk.values)
                value += sum(self.in_hand(c, sk) for c in sk.hand)
                if value > best_value + 1e-9:
                    best_value = value
                    best_plan = (sells, tames, first, later)
        return best_value, best_plan

    def _action_turn(self, view: ValeView, texts: list[str]) -> str | None:
        best_plan = self._plan([_C[c] for c in view["claimed"][self.me]])[1]
        if best_plan is None:
            return None
        sells, tames, first, later = best_plan
        for c in tames:
            return f"tame {CARD_NAME[c]}"
        for step in first:
            if step in texts:
                return step
        for c in sells:
            return f"sell {CARD_NAME[c]}"
        for step in later:
            if step in texts:
                return step
        return "end-turn"

    def best_payment(self, card: int, sk: Sketch) -> tuple[float, tuple[int, int, int]] | None:
        """The cheapest way to pay for `card` on the sketch: (points lost, payment)."""
        held = (sk.stones[0], sk.stones[1], sk.stones[2])
        pays = payments(self.cost(card, sk.area), held, sk.values)
        if not pays:
            return None
        area = sk.area
        kappa = _C["kappa"] in area
        gargoyle = _C["gargoyle"] in area
        phoenix = _C["phoenix"] in area
        best: tuple[float, tuple[int, int, int]] | None = None
        for pay in pays:
            after = [held[0] - pay[0], held[1] - pay[1], held[2] - pay[2]]
            loss = self.stone_worth(list(held), sk.values) - self.stone_worth(after, sk.values)
            if kappa and pay[1]:
                loss -= 2
            if gargoyle and pay[2]:
                loss -= 3
            if phoenix:
                loss -= pay[0]
            if best is None or loss < best[0] - 1e-9:
                best = (loss, pay)
        return best

    def summons(self, sk: Sketch) -> list[str]:
        """Greedy summons on the sketch (mutated); their notations in order."""
        out: list[str] = []
        for _ in range(6):
            removable = -1
            if sk.room <= 0:
                removable = self.dead_card(sk)
                if removable < 0:
                    break
            best = self._best_summon(sk, out, removable)
            if best is None:
                break
            card, pay, removable = best
            if removable >= 0:
                rem = self.removal_payment(sk)
                if rem is None:
                    break
                out.append(f"remove {CARD_NAME[removable]} pay {_pay_text(rem)}")
                for i in range(3):
                    sk.stones[i] -= rem[i]
                sk.area.remove(removable)
                sk.room += 1
                paid2 = self.best_payment(card, sk)
                if paid2 is None:
                    break
                pay = paid2[1]
            if not self._summon_on_sketch(sk, card, pay, out):
                break
        return out

    def _best_summon(
        self, sk: Sketch, out: list[str], removable: int
    ) -> tuple[int, tuple[int, int, int], int] | None:
        """The hand card whose summon gains most over the threshold: (card, payment,
        `removable`, the area card to remove first or -1), or None."""
        best_gain = self.threshold
        best: tuple[int, tuple[int, int, int], int] | None = None
        for card in list(sk.hand):
            if out and card in RECOVERS and f"summon {CARD_NAME[card]}" in " ".join(out):
                continue
            paid = self.best_payment(card, sk)
            if paid is None:
                continue
            loss, pay = paid
            gain = self.worth(card, sk) - loss
            if card not in RECOVERS and card != _C["boreas"]:
                gain -= self.in_hand(card, sk)  # it leaves the hand for good
            if self.left == 0:
                gain += 0.5  # the last round: a card in the area breaks ties
            if _C["sylph"] in sk.area:
                gain += 1
            if card in STONE_GAIN:
                gain += self.stone_gain_value(sk, pay, STONE_GAIN[card])
            if sk.room <= 0:
                gain -= self.future(removable, sk.area) + self.rate * self.round * 1.2 + 1.0
            if gain > best_gain:
                best_gain, best = gain, (card, pay, removable)
        return best

    def _summon_on_sketch(
        self, sk: Sketch, card: int, pay: tuple[int, int, int], out: list[str]
    ) -> bool:
        """Summon `card` paying `pay` on the sketch; False when the turn's summons end here."""
        for i in range(3):
            sk.stones[i] -= pay[i]
        out.append(f"summon {CARD_NAME[card]}" + (f" pay {_pay_text(pay)}" if any(pay) else ""))
        sk.hand.remove(card)
        sk.area.append(card)
        sk.room -= 1
        sk.points += self.instant(card, sk) + self.future(card, sk.area, sk)
        if _C["sylph"] in sk.area[:-1]:
            sk.points += 1
        if card in STONE_GAIN:
            got = STONE_GAIN[card]
            for i in range(3):
                sk.stones[i] += got[i]
            fit_stones(sk.stones, sk.limit, sk.values)
        if card in (_C["boreas"],):
            sk.area.pop()
            sk.room += 1
            sk.hand.append(card)
            return False  # boreas comes back to hand: replaying it is for another turn
        if card == _C["tengu"]:
            sk.area.pop()
            sk.room += 1
        if card in RECOVERS:
            sk.points += self.in_hand(card, sk)  # it comes back at resolution
        if self.left == 0:
            sk.points += 0.5
        return True

    def stone_gain_value(
        self, sk: Sketch, pay: tuple[int, int, int], gain: tuple[int, int, int]
    ) -> float:
        after = [sk.stones[i] - pay[i] for i in range(3)]
        before = self.stone_worth(after, sk.values)
        for i in range(3):
            after[i] += gain[i]
        fit_stones(after, sk.limit, sk.values)
        return self.stone_worth(after, sk.values) - before

    def dead_card(self, sk: Sketch) -> int:
        """The area card with the least left to give, if removing it is affordable."""
        if self.removal_payment(sk) is None:
            return -1
        worst, pick = float("inf"), -1
        for c in sk.area:
            value = self.future(c, sk.area)
            if value < worst:
                worst, pick = value, c
        return pick if worst < 2.5 else -1

    def removal_payment(self, sk: Sketch) -> tuple[int, int, int] | None:
        held = (sk.stones[0], sk.stones[1], sk.stones[2])
        pays = payments(self.round, held, sk.values)
        if not pays:
            return None
        best, low = pays[0], math.inf  # min() by cost, written out (compiled: docs/compiled.md)
        for pay in pays:
            cost = sum(pay[i] * sk.values[i] for i in range(3)) + 0.1 * pay[2]
            if cost < low:
                best, low = pay, cost
        return best

    # ================================================================== resolution
    def _resolve_order(self, texts: list[str]) -> str | None:
        best, pick = float("inf"), None
        hand, area = len(self.hand), len(self.area)
        for text in texts:
            card = _C[text.split()[1]]
            name = CARD_NAME[card]
            if name == "harpy":
                rank = -2.0 if hand == area else 5.0
            elif name == "goblin-soldier":
                rank = -1.0 if self.behind else 11.0
            elif name == "burning-skull" and self.stones[0] > 1:
                rank = 2.5  # a spare red: spend it before the gains overflow
            else:
                rank = float(RESOLVE_RANK.get(card, 6))
            if rank < best:
                best, pick = rank, text
        return pick

    # ================================================================== choices
    def _choice(self, view: ValeView, pending: ValePending, texts: list[str]) -> str | None:
        best, pick = float("-inf"), None
        tile = pending.get("artifact") is not None
        for text in texts:
            value = (
                self.artifact_choice(pending, text) if tile else self.choice_value(pending, text)
            )
            if value > best + 1e-9:
                best, pick = value, text
        return pick

    def choice_value(self, pending: ValePending, text: str) -> float:
        """How good answering the pending choice with `text` is for this seat."""
        words = text.split()
        verb = words[0]
        source = pending.get("card")
        if verb == "discard-stone":
            return self._stone_loss_value(COLOUR[words[1]])
        if verb == "target":
            return self._target_value(int(words[1].removeprefix("seat-")), source)
        if verb == "done":
            return 0.0
        if verb == "choose":
            return self.option_value(words[1], source)
        if verb == "upgrade":  # Duduri
            return self.upgrade_worth(COLOUR[words[1]])
        if len(words) < 2 or words[1] not in _C:
            return 0.0
        return self._card_choice_value(verb, _C[words[1]], pending, source)

    def _stone_loss_value(self, colour: int) -> float:
        """Discarding a stone of `colour`: its value, and what the area's cards lose by it."""
        value = -float(self.values[colour])
        if colour == 0 and _C["burning-skull"] in self.area:
            value -= 1.0
        if colour == 1 and (_C["charybdis"] in self.area or _C["kappa"] in self.area):
            value -= 2.0
        if colour == 2 and (_C["troll"] in self.area or _C["gargoyle"] in self.area):
            value -= 2.0
        return value

    def _target_value(self, seat: int, source: str | None) -> float:
        """Targeting `seat` with an attack: the leader, never oneself."""
        if seat == self.me:
            return -100.0
        if source == "goblin":
            return float(min(1, self.scores[seat])) * 10 + self.scores[seat] * 0.01
        return float(self.scores[seat]) + 0.1 * len(self.areas[seat])

    def _card_choice_value(
        self, verb: str, card: int, pending: ValePending, source: str | None
    ) -> float:
        """A choice that names `card`: discard, recover, copy, take, summon or resolve it."""
        if verb == "discard":
            return self._discard_value(card, pending, source)
        if verb == "recover":
            if source == "aeris":
                return CARD_COST[card] - self.future(card, self.area) + 0.3 * self.in_hand(card)
            return self.instant_guess(card, self.area) - self.future(card, self.area)
        if verb == "copy":
            if source == "scorch":
                return self.instant(card, self._sketch())
            return self.active_worth(card, self.area)
        if verb == "take":
            return self.in_hand(card)
        if verb == "summon":
            return self.worth(card, self._sketch())
        if verb == "resolve":  # Genie: every one is used; order like the resolution phase
            return -float(RESOLVE_RANK.get(card, 6))
        return 0.0

    def _discard_value(self, card: int, pending: ValePending, source: str | None) -> float:
        """Discarding `card`: from one's own area under an attack (keep the best), or from
        the hand for what the source gives for it."""
        me = self.me
        if pending.get("for_seat") != me or (source == "cerberus" and card in self.area):
            owner = me if card in self.area else -1
            if source == "cerberus":
                return (0.5 if self._room() <= 0 else -1.0) - self.future(card, self.area)
            return -self.future(card, self.area if owner == me else [])
        if source == "forest-spirit":
            return CARD_COST[card] - self.in_hand(card)
        if source == "melusine":  # 4 points a card
            return 4.0 - self.in_hand(card)
        if source == "taweret":  # a blue stone a card
            return self.stone_gain_value(self._sketch(), (0, 0, 0), (0, 1, 0)) - (
                self.in_hand(card)
            )
        return -self.in_hand(card)

    def option_value(self, option: str, source: str | None) -> float:
        count = sum(self.stones)
        room = self.limit - count
        rate = self.rate
        if option in FAMILIES:  # Kraken, Rukh, Loki: the family the area holds most of
            fam = FAMILIES.index(option)
            return float(sum(1 for c in self.area if CARD_FAMILY[c] == fam))
        if option == "three-red":  # Hephaestus
            return self.stone_gain_value(self._sketch(), (0, 0, 0), (3, 0, 0))
        if option == "discard":  # Mandrake leaves (or `lose-points`: 2 points)
            return -self.future(_C["mandrake"], self.area) / max(1, self.left + 1)
        if option == "lose-points":
            return -2.0
        if option == "points":
            return 2.0 if source == "hephaestus" else 4.0
        if option == "draw":
            return 1.5
        if option == "purple":
            stone = 6 * rate if room >= 1 else max(0.0, (6 - min(self.values)) * rate)
            return stone - (2.0 if source == "basilisk" else 0.0)
        if option == "blue":
            n = 2 if source == "hydra" else 1
            stone = 3 * rate * min(n, max(room, 0)) if room > 0 else 0.0
            return stone - (1.0 if source == "basilisk" else 0.0)
        if option == "red":
            return rate if room >= 1 else 0.0
        if option == "blue-to-purple":
            return 3 * rate + (1.0 if _C["troll"] in self.area else 0.0)
        if option == "purple-to-blue":
            return (3 * rate if room >= 2 else -1.0) + 0.5 * (_C["charybdis"] in self.area)
        return 0.0


def _pay_text(pay: tuple[int, int, int]) -> str:
    r, b, p = pay
    return "+".join(["purple"] * p + ["blue"] * b + ["red"] * r)
