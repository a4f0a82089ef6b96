"""Eternity's heuristic agent: count the cards, estimate tricks, pledge to match, win or duck.

It decides from the seat's view and the legal actions only (never the state). Each decision:

1. Card knowledge. Every card not in the hand, on the trump board, in the 3-player display or
   in this round's log is in an opponent's hand ("unseen"). The log is replayed with the trump
   of each trick to learn voids (a player who did not follow holds none of the led family; one
   who played neither the led family nor trump holds no trump either).
   The log also tells how often the others pledge when a pledge slot is free.
2. Card strength. Each card in hand gets `p`, the chance it takes a trick when used to win, from
   how many unseen cards of its family outrank it, whether it is trump, and the chance that an
   opponent void in its family trumps it; and `q`, the chance it takes a trick even when played
   to lose (high trumps cannot be ducked). Trump can still move (pledged cards join the board),
   so the strengths under the other families are blended in by the chance that they become
   trump before the round ends.
3. Plan value. For a position (tricks won, trees taken, cards left) the agent scores the best
   plan: win with the `k` strongest cards, duck with the rest, pledge some of the rest so the
   trees reach a target `X`. Pledge chances to come are a Poisson count: tricks it will not lead
   (it leads after each trick it wins) times the chance the slot is still free at its turn; a
   plan needing more pledges than come falls back to one needing fewer. With the tricks
   modelled as a normal variable, a plan is worth P(tricks == X) * (X + bonus) + P(tricks > X) * X
   (more trees than tricks scores nothing). The position is worth its best plan.
4. One-ply choice. Every legal action is valued: a play by its chance of winning the current
   trick (who is still to act, what they may hold) times the position after winning, plus the
   position after losing; a pledge by the position with the card's trees added and the trump
   board as the pledge will leave it. Ties break with the agent's own generator.

The same arithmetic makes the agent pledge high-tree cards it cannot use to win, dump a hopeless
hand to take nothing (0 trees and 0 tricks keeps the bonus), win cheaply when it has trees to
cover and count exactly at the end of a round.
"""
# Over 600 lines: the four steps above are one model sharing its parameters and tables.

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, ClassVar, Final

from eterna.core.agent import ViewAgent
from eterna.core.errors import EternaError
from eterna.core.game import Action, View
from eterna.games.eternity.cards import (
    CARD_BY_NAME,
    CARD_FAMILY,
    CARD_TREES,
    CARD_VALUE,
    CHUNK,
    FAMILIES,
    FAMILY_INDEX,
    PER_FAMILY,
)
from eterna.games.eternity.views import EternityLogEntry, EternityView, as_eternity_view

_NF: Final = len(FAMILIES)
_SLOT_USE: Final = 0.6  # prior share of pledge slots used per trick, before the log tells
_TRUMP_KEY: Final = 64  # a trump outranks every card of the led family

# Action notation -> (is a pledge, card), for both interned actions and plain strings.
_ACTION: Final[dict[str, tuple[bool, int]]] = {}
for _name, _card in CARD_BY_NAME.items():
    _ACTION[f"play {_name}"] = (False, _card)
    _ACTION[f"pledge {_name}"] = (True, _card)

DEFAULTS: Final[dict[str, float]] = {
    # chance an opponent able to beat a card in the current trick does so
    "beat": 0.75,
    # chance a card wins later, by how many unseen cards of its family outrank it
    "off0": 0.85,
    "off1": 0.4,
    "off2": 0.15,
    "off3": 0.05,
    "trump0": 0.97,
    "trump1": 0.6,
    "trump2": 0.3,
    "trump3": 0.12,
    # a low trump once the opponents' trumps are drawn
    "long_trump": 0.8,
    # chance an opponent void in a family, holding trump, ruffs a winner of that family
    "ruff": 0.8,
    # q = p ** duck: the chance a card wins even when played to lose
    "duck": 2.0,
    # how often opponents pledge when they can, before the round's log tells (prior weight 4)
    "pledge_prior": 0.4,
    # scales the pledge chances expected in the tricks still to come
    "pledge_rate": 1.0,
    # spread of the trick count a plan is judged with, as a share of its variance
    "spread": 0.5,
    # how much the chance of a later change of trump blends in the other families' strength
    "volatility": 1.5,
}


@lru_cache(maxsize=4096)
def _p_none(special: int, drawn: int, pool: int) -> float:
    """Chance that `drawn` cards dealt from `pool` hold none of `special` given cards."""
    if special <= 0 or drawn <= 0:
        return 1.0
    if special + drawn > pool:
        return 0.0
    out = 1.0
    for i in range(drawn):
        out *= (pool - special - i) / (pool - i)
    return out


@lru_cache(maxsize=4096)
def _tree_plans(twos: int, ones: int) -> tuple[tuple[int, int, int], ...]:
    """(tree total, 2-tree cards, 1-tree cards) reaching every total these cards can reach,
    each with the fewest pledges, by total."""
    best: dict[int, tuple[int, int]] = {}
    for i in range(twos + 1):
        for j in range(ones + 1):
            s = 2 * i + j
            if s not in best or i + j < sum(best[s]):
                best[s] = (i, j)
    return tuple((s, i, j) for s, (i, j) in sorted(best.items()))


def _trump_of(counts: list[int], columns: list[int]) -> int:
    best = columns[0]
    for f in columns[1:]:
        if counts[f] > counts[best]:
            best = f
    return best


def _plan_sums(
    cards: list[tuple[float, float, int]],
) -> tuple[
    list[float],
    list[float],
    tuple[list[float], ...],
    tuple[list[float], ...],
    list[list[int]],
]:
    """Running sums for the plans over `cards` (strongest first): per k, the sums of q and of
    q(1-q) over cards[k:]; per tree count, the running sums of q and q(1-q) over its cards in
    order; per k, how many cards of each tree count precede k. The plan for k wins with
    cards[:k], ducks cards[k:] and pledges some of those (the ducked 2- and 1-tree cards most
    likely to win anyway go first)."""
    n = len(cards)
    suf_q = [0.0] * (n + 1)
    suf_vq = [0.0] * (n + 1)
    for i in range(n - 1, -1, -1):
        q = cards[i][1]
        suf_q[i] = suf_q[i + 1] + q
        suf_vq[i] = suf_vq[i + 1] + q * (1.0 - q)
    cum: tuple[list[float], ...] = ([0.0], [0.0], [0.0])  # by trees: running sums of q
    cumv: tuple[list[float], ...] = ([0.0], [0.0], [0.0])
    before = [[0, 0, 0]]  # by k: how many cards of each tree count precede k
    for _, q, t in cards:
        cum[t].append(cum[t][-1] + q)
        cumv[t].append(cumv[t][-1] + q * (1.0 - q))
        row = before[-1][:]
        row[t] += 1
        before.append(row)
    return suf_q, suf_vq, cum, cumv, before


class EternityHeuristic(ViewAgent):
    """Pledges trees to its expected tricks, then wins or sheds tricks to match."""

    name = "heuristic"
    # The ISMCTS agent's defaults with this heuristic as its rollout policy (a spec overrides
    # them; docs/agents.md): a rollout stops when the round ends and its scores are known.
    search_defaults: ClassVar[dict[str, Any]] = {"iterations": 100, "cut": "score", "trust": 0.5}

    def __init__(self, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed)
        unknown = sorted(set(params) - set(DEFAULTS))
        if unknown:
            raise EternaError(
                f"unknown parameter(s) for Eternity's heuristic: {', '.join(unknown)}; "
                f"known: {', '.join(DEFAULTS)}"
            )
        values = dict(DEFAULTS)
        for key, value in params.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise EternaError(f"heuristic parameter {key} must be a number >= 0, not {value!r}")
            values[key] = float(value)
        self.params: dict[str, float] = values
        self._beat = values["beat"]
        self._off = (values["off0"], values["off1"], values["off2"], values["off3"])
        self._trump = (values["trump0"], values["trump1"], values["trump2"], values["trump3"])
        self._long = values["long_trump"]
        self._ruff = values["ruff"]
        self._duck = values["duck"]
        self._rate = values["pledge_rate"]
        self._prior = values["pledge_prior"]
        self._spread = values["spread"]
        self._vol = values["volatility"]

    # ------------------------------------------------------------------ the decision
    def act(self, view: View, legal: list[Any]) -> Action:
        if len(legal) == 1:
            only: Action = legal[0]
            return only
        decision = _Decision(self, as_eternity_view(view))
        values: list[tuple[float, Any]] = []
        for action in legal:
            values.append((decision.value(action), action))
        top = max(v for v, _ in values)
        best = [a for v, a in values if v >= top - 1e-9]
        choice: Action = best[0] if len(best) == 1 else self.rng.choice(best)
        return choice

    # ------------------------------------------------------------------ knowledge
    @staticmethod
    def _key(card: int, led: int, trump: int) -> int:
        family = CARD_FAMILY[card]
        if family == trump:
            return CARD_VALUE[card] + _TRUMP_KEY
        if family == led:
            return CARD_VALUE[card]
        return 0

    @staticmethod
    def _read_log(
        log: list[EternityLogEntry],
        counts: list[int],
        columns: list[int],
        trump: int,
        voids: list[int],
        me: int,
        per_trick: int,
    ) -> tuple[int, int]:
        """Voids from this round's log, and how often the others pledged when they could
        (pledges, chances). `counts` (the board now) is left unchanged."""
        tricks: list[list[tuple[int, bool, int]]] = [[]]
        for entry in log:
            if "trick_won_by" in entry:
                tricks.append([])
            else:
                pledge, card = _ACTION[entry["action"]]
                tricks[-1].append((entry["seat"], pledge, card))
        # The board at the start of the round: take back the pledges of finished tricks.
        board = counts[:]
        for done in tricks[:-1]:
            for _, pledge, card in done:
                if pledge:
                    board[CARD_FAMILY[card]] -= 1
        pledges = chances = 0
        for i, entries in enumerate(tricks):
            t = trump if i == len(tricks) - 1 else _trump_of(board, columns)
            led = -1
            taken = 0
            for seat, pledge, card in entries:
                if led >= 0 and seat != me and taken < per_trick:
                    chances += 1
                    pledges += pledge
                if pledge:
                    board[CARD_FAMILY[card]] += 1
                    taken += 1
                    continue
                family = CARD_FAMILY[card]
                if led < 0:
                    led = family
                elif family != led:
                    voids[seat] |= 1 << led
                    if family != t:
                        voids[seat] |= 1 << t
        return pledges, chances

    # ------------------------------------------------------------------ strength
    def _strengths(
        self, hand: list[int], unseen: list[int], trump: int, opponents: list[tuple[int, int, int]]
    ) -> dict[int, tuple[float, float]]:
        """(p, q) per card: chance it wins when used to win, and when played to lose."""
        pool = sum(o[1] for o in opponents)
        n_unseen = [u.bit_count() for u in unseen]
        trumps_out = n_unseen[trump]
        m = len(opponents)
        # per opponent: chance to hold a trump
        has_trump = [
            0.0 if v >> trump & 1 else 1.0 - _p_none(trumps_out, hs, pool) for _, hs, v in opponents
        ]
        rank = [0] * _NF
        out: dict[int, tuple[float, float]] = {}
        for c in sorted(hand, key=lambda c: -CARD_VALUE[c]):
            f = CARD_FAMILY[c]
            v = CARD_VALUE[c]
            i = rank[f]
            rank[f] = i + 1
            higher = (unseen[f] >> v).bit_count()
            if f == trump:
                p = self._trump[higher] if higher < 4 else 0.0
                if i >= trumps_out and self._long > p:
                    p = self._long
            else:
                p = self._off[higher] if higher < 4 else 0.0
                if p > 0.0 and trumps_out:
                    left_f = max(0, n_unseen[f] - i * m)
                    safe = 1.0
                    for (_, hs, vd), ht in zip(opponents, has_trump, strict=True):
                        void = 1.0 if vd >> f & 1 else _p_none(left_f, hs, pool)
                        safe *= 1.0 - self._ruff * void * ht
                    p *= safe
            out[c] = (p, p**self._duck)
        return out

    def _win_chance(
        self,
        card: int,
        led: int,
        trump: int,
        best_key: int,
        after_me: list[tuple[int, int, int]],
        unseen: list[int],
        rate: float,
        slots: int,
    ) -> float:
        """Chance that playing `card` now takes the current trick. A follower beats it if
        they can, with chance `beat`, unless they pledge instead (with chance `rate` while
        one of the trick's `slots` pledge slots is free)."""
        family = CARD_FAMILY[card]
        if led < 0:
            led = family
        if self._key(card, led, trump) <= best_key:
            return 0.0
        if not after_me:
            return 1.0
        value = CARD_VALUE[card]
        total = sum(u.bit_count() for u in unseen)
        n_led = unseen[led].bit_count()
        n_trump = unseen[trump].bit_count()
        if family == trump:
            higher_trump = (unseen[trump] >> value).bit_count()
            higher_led = 0
        else:
            higher_trump = n_trump
            higher_led = (unseen[led] >> value).bit_count()
        hold = 1.0
        taken = [1.0] + [0.0] * slots  # chance that t pledge slots are taken before a follower
        for _, hs, vd in after_me:
            no_trump = vd >> trump & 1
            void_led = 1.0 if vd >> led & 1 else _p_none(n_led, hs, total)
            if family == trump:
                can = 0.0 if no_trump else 1.0 - _p_none(higher_trump, hs, total)
                if led != trump:
                    can *= void_led
            else:
                follow = 0.0 if vd >> led & 1 else 1.0 - _p_none(higher_led, hs, total)
                ruff = 0.0 if no_trump else void_led * (1.0 - _p_none(higher_trump, hs, total))
                can = 1.0 - (1.0 - follow) * (1.0 - ruff)
            if slots:
                pledges = rate * (1.0 - taken[slots])
                hold *= 1.0 - self._beat * can * (1.0 - pledges)
                for t in range(slots - 1, -1, -1):
                    move = taken[t] * rate
                    taken[t] -= move
                    taken[t + 1] += move
            else:
                hold *= 1.0 - self._beat * can
        return hold

    # ------------------------------------------------------------------ planning
    @staticmethod
    def _free_slot(players: int, per_trick: int, rate: float) -> float:
        """Chance a pledge slot is still free at my turn when I do not lead, if each player
        before me pledges with chance `rate` (my place in the trick taken as uniform)."""
        keep = 1.0 - rate
        total = 0.0
        for before in range(players - 1):
            free = keep**before
            if per_trick > 1 and before:
                free += before * rate * keep ** (before - 1)
            total += free
        return total / (players - 1)

    def _plan_value(
        self,
        won: int,
        trees: int,
        cards: list[tuple[float, float, int]],
        free: float,
        lead_next: bool,
        bonus: int,
    ) -> float:
        """Expected round score of the best plan from here (see the module docstring)."""
        if not cards:
            if trees > won:
                return 0.0
            return float(trees + bonus) if trees == won else float(trees)
        cards.sort(key=lambda x: -x[0])
        n = len(cards)
        suf_q, suf_vq, cum, cumv, before = _plan_sums(cards)
        rate = self._rate
        best = -1.0
        pre_p = 0.0
        pre_v = 0.0
        for k in range(n + 1):
            if k:
                p = cards[k - 1][0]
                if p < 0.02:  # winning with hopeless cards only takes pledges away
                    break
                pre_p += p
                pre_v += p * (1.0 - p)
            mu_k = won + pre_p + suf_q[k]
            var_k = pre_v + suf_vq[k]
            # Pledge chances come when I do not lead (I lead after each trick I win) and the
            # slot is still free: their number is taken as Poisson.
            leading = lead_next + (mu_k - won) * (n - 1) / n
            chances = max(0.0, n - leading) * free * rate
            value = self._best_pledges(mu_k, var_k, trees, bonus, chances, cum, cumv, before[k])
            if value > best:
                best = value
        if best < 0.0:  # every plan leaves more trees than tricks can cover
            best = 0.0
        return best

    def _best_pledges(
        self,
        mu_k: float,
        var_k: float,
        trees: int,
        bonus: int,
        chances: float,
        cum: tuple[list[float], ...],
        cumv: tuple[list[float], ...],
        before_k: list[int],
    ) -> float:
        """The best plan winning with the k strongest cards (`mu_k` tricks expected, variance
        `var_k`, `chances` pledge chances to come) over the tree totals it can pledge to."""
        spread = self._spread
        erf = math.erf
        cum2, cum1, cumv2, cumv1 = cum[2], cum[1], cumv[2], cumv[1]
        n_two, n_one = len(cum2) - 1, len(cum1) - 1
        tail = 1.0  # P(at least j chances)
        term = math.exp(-chances)  # P(exactly j chances)
        tails = [1.0]
        best_at = [0.0] * (n_two + n_one + 1)  # best value of a plan with exactly j pledges
        best = -1.0
        b2, b1 = before_k[2], before_k[1]
        for s, i2, i1 in _tree_plans(n_two - b2, n_one - b1):
            j = i2 + i1
            while len(tails) <= j:
                tail -= term
                term *= chances / len(tails)
                tails.append(tail if tail > 0.0 else 0.0)
            mu, var = mu_k, var_k
            if i2:
                mu -= cum2[b2 + i2] - cum2[b2]
                var -= cumv2[b2 + i2] - cumv2[b2]
            if i1:
                mu -= cum1[b1 + i1] - cum1[b1]
                var -= cumv1[b1 + i1] - cumv1[b1]
            x = trees + s
            scale = 0.7071067811865476 / math.sqrt(spread * (var if var > 0.0 else 0.0) + 0.04)
            z_hi = (x + 0.5 - mu) * scale
            if z_hi < -3.0:  # surely more tricks than trees: the trees score
                sure = float(x)
            else:
                z_lo = (x - 0.5 - mu) * scale
                if z_lo > 3.0:  # surely more trees than tricks: nothing, nor beyond
                    break
                hi = 0.5 * (1.0 + erf(z_hi))
                lo = 0.5 * (1.0 + erf(z_lo))
                sure = (hi - lo) * (x + bonus) + (1.0 - hi) * x
            if j:
                a = tails[j]
                value = a * sure + (1.0 - a) * max(best_at[:j])
            else:
                value = sure
            if value > best_at[j]:
                best_at[j] = value
            if value > best:
                best = value
        return best


class _Decision:
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

    def value(self, action: Any) -> float:
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
