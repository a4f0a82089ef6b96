"""One decision of Eternity's heuristic (heuristic.py's module docstring, steps 1-4): what the
agent reads of its view, the hand's strengths under each trump and trump board, and the value
of each position and action, each cached for the decision."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from eterna.core.game import Action
from eterna.games.eternity.cards import (
    CARD_BY_NAME,
    CARD_FAMILY,
    CARD_TREES,
    CHUNK,
    FAMILY_INDEX,
    PER_FAMILY,
)
from eterna.games.eternity.plans import _ACTION, _NF, _SLOT_USE, _trump_of
from eterna.games.eternity.views import EternityView

if TYPE_CHECKING:
    from eterna.games.eternity.heuristic import EternityHeuristic


class Decision:
    """One decision of the agent (the module docstring's steps): what it reads of the view, the
    hand's strengths under each trump (`strengths`) and trump board (`mixed`), the plan value of
    each position (`position`), each cached for the decision, and an action's value (`value`)."""

    def __init__(self, agent: EternityHeuristic, view: EternityView) -> None:
        self.agent = agent
        seat = view["seat"]
        names = view["hand"]
        assert seat is not None and names is not None, "an agent's view is a seat's"
        self.seat = seat
        self.players = view["players"]
        self.hand = [CARD_BY_NAME[c] for c in names]
        self.columns = [FAMILY_INDEX[f] for f in view["columns"]]
        self.trump = FAMILY_INDEX[view["trump"]]
        self.bonus = view["harmony_bonus"]
        self.won = view["tricks"][seat]
        self.trees = view["trees"][seat]
        self.supply = view.get("tree_supply")  # None: unlimited (option tree_supply)
        self.per_trick = view["pledges_left"] + len(view["pledges"])  # the cap (rules §5.4)
        self._read_cards(view)
        self._read_trick(view)
        self._read_future(view)
        self.strength_cache: dict[int, dict[int, tuple[float, float]]] = {}
        self.mix_cache: dict[tuple[int, ...], dict[int, tuple[float, float]]] = {}
        self.value_cache: dict[tuple[Any, ...], float] = {}

    def _read_cards(self, view: EternityView) -> None:
        """1. What is where: unseen cards per family (14-bit chunks), board counts, voids."""
        agent = self.agent
        seat = self.seat
        players = self.players
        seen = 0
        for c in self.hand:
            seen |= 1 << c
        counts = [0] * _NF
        for names in view["board"].values():
            for name in names:
                c = CARD_BY_NAME[name]
                seen |= 1 << c
                counts[CARD_FAMILY[c]] += 1
        for name in view["display"]:
            seen |= 1 << CARD_BY_NAME[name]
        voids = [0] * players
        per_trick = self.per_trick
        pledged, chances = agent._read_log(
            view["log"], counts, self.columns, self.trump, voids, seat, per_trick
        )
        rate = (pledged + 4 * agent._prior) / (chances + 4)  # how often the others pledge
        self.rate = rate
        self.free = agent._free_slot(players, per_trick, rate)
        for entry in view["log"]:
            action = entry.get("action")
            if action is not None:
                seen |= 1 << _ACTION[action][1]
        self.unseen = [CHUNK & ~(seen >> (PER_FAMILY * f)) for f in range(_NF)]
        sizes = view["hand_sizes"]
        self.opponents = [(s, sizes[s], voids[s]) for s in range(players) if s != seat and sizes[s]]
        # Trump for the next trick: the pending pledges join the board after this trick.
        after = counts[:]
        for pledge in view["pledges"]:
            after[CARD_FAMILY[CARD_BY_NAME[pledge["card"]]]] += 1
        self.after = after
        self.next_board = tuple(after)

    def _read_trick(self, view: EternityView) -> None:
        """2. The current trick: who is still to act, what is winning."""
        trump = self.trump
        seat = self.seat
        players = self.players
        trick = view["trick"]
        led_name = view["led"]
        led = -1 if led_name is None else FAMILY_INDEX[led_name]
        best_key = -1
        for played in trick:
            c = CARD_BY_NAME[played["card"]]
            best_key = max(best_key, self.agent._key(c, led, trump))
        acted = len(trick) + len(view["pledges"])
        followers = [(seat + i) % players for i in range(1, players - acted)]
        self.led = led
        self.best_key = best_key
        self.slots_now = view["pledges_left"]
        self.after_me = [o for o in self.opponents if o[0] in followers]

    def _read_future(self, view: EternityView) -> None:
        """Trump may still move: the others' pledges to come, spread over the three columns."""
        per_trick = self.per_trick
        done = view["trick_number"] - 1
        all_pledges = sum(1 for e in view["log"] if e.get("action", "").startswith("pledge"))
        use = (all_pledges - len(view["pledges"]) + 2 * _SLOT_USE) / (done * per_trick + 2)
        self.future = (len(self.hand) - 1) * per_trick * use

    def strengths(self, t: int) -> dict[int, tuple[float, float]]:
        """The hand's (p, q) per card with `t` trump (EternityHeuristic._strengths)."""
        got = self.strength_cache.get(t)
        if got is None:
            got = self.strength_cache[t] = self.agent._strengths(
                self.hand, self.unseen, t, self.opponents
            )
        return got

    def mixed(self, board: tuple[int, ...]) -> dict[int, tuple[float, float]]:
        """Strengths once `board` is the trump board: those under its trump, blended with
        those under each family that may overtake it (`_overtaking`)."""
        got = self.mix_cache.get(board)
        if got is not None:
            return got
        t0 = _trump_of(list(board), self.columns)
        base = self.strengths(t0)
        weights = self._overtaking(board, t0)
        if not weights:
            self.mix_cache[board] = base
            return base
        moved = sum(w for w, _ in weights)
        if moved > 0.9:
            weights = [(w * 0.9 / moved, other) for w, other in weights]
            moved = 0.9
        stay = 1.0 - moved
        got = {}
        for c, (p, q) in base.items():
            p_mix = stay * p
            q_mix = stay * q
            for w, other in weights:
                p_mix += w * other[c][0]
                q_mix += w * other[c][1]
            got[c] = (p_mix, q_mix)
        self.mix_cache[board] = got
        return got

    def _overtaking(
        self, board: tuple[int, ...], t0: int
    ) -> list[tuple[float, dict[int, tuple[float, float]]]]:
        """(weight, strengths) of each family that may overtake trump `t0` on `board` (needing
        `need` more pledged cards than the trump column gets; the difference of two Poisson
        counts, as normal), weighted by that chance over the half of the round it would last
        on average."""
        weights: list[tuple[float, dict[int, tuple[float, float]]]] = []
        vol = self.agent._vol
        future = self.future
        if vol and future > 0.0:
            columns = self.columns
            spread = math.sqrt(2.0 * future / 3.0)
            for f in columns:
                if f == t0:
                    continue
                need = board[t0] - board[f] + (columns.index(f) > columns.index(t0))
                flip = 0.5 * (1.0 - math.erf((need - 0.5) / spread * 0.7071067811865476))
                if flip > 0.01:
                    weights.append((vol * 0.5 * flip, self.strengths(f)))
        return weights

    def position(self, k: int, t_: int, without: int, board: tuple[int, ...]) -> float:
        """Plan value with `k` tricks, `t_` trees, the hand less `without`, trump board
        `board`. Cards alike in (p, q, trees) leave the same hand: one evaluation."""
        strength = self.mixed(board)
        key = (k, t_, board, strength[without], CARD_TREES[without])
        got = self.value_cache.get(key)
        if got is None:
            cards = [(pq[0], pq[1], CARD_TREES[c]) for c, pq in strength.items() if c != without]
            lead_next = k > self.won
            got = self.value_cache[key] = self.agent._plan_value(
                k, t_, cards, self.free, lead_next, self.bonus
            )
        return got

    def value(self, action: Action | str) -> float:
        """4. An action's value: a pledge by the position with the card's trees added and the
        board as the pledge leaves it; a play by its chance of winning the trick."""
        pledge, card = _ACTION[str(action)]
        won = self.won
        trees = self.trees
        if pledge:
            counts_after = self.after[:]
            counts_after[CARD_FAMILY[card]] += 1
            supply = self.supply
            gain = CARD_TREES[card] if supply is None else min(CARD_TREES[card], supply)
            return self.position(won, trees + gain, card, tuple(counts_after))
        win = self.agent._win_chance(
            card,
            self.led,
            self.trump,
            self.best_key,
            self.after_me,
            self.unseen,
            self.rate,
            self.slots_now,
        )
        next_board = self.next_board
        value = 0.0
        if win > 0.0:
            value += win * self.position(won + 1, trees, card, next_board)
        if win < 1.0:
            value += (1.0 - win) * self.position(won, trees, card, next_board)
        return value
