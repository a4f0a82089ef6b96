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

from __future__ import annotations

import math
from typing import ClassVar, Final, TypeVar

from mypy_extensions import mypyc_attr

from eterna.core.agent import ViewAgent
from eterna.core.errors import EternaError
from eterna.core.game import Action, AgentParam, View
from eterna.core.rng import choice
from eterna.games.eternity.cards import (
    CARD_FAMILY,
    CARD_VALUE,
)
from eterna.games.eternity.decision import Decision
from eterna.games.eternity.plans import (
    _ACTION,
    _NF,
    _TRUMP_KEY,
    _p_none,
    _plan_sums,
    _tree_plans,
    _trump_of,
)
from eterna.games.eternity.views import EternityLogEntry, as_eternity_view

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


# What `act` picks from: the engine's actions, or their notation strings.
Move = TypeVar("Move", Action, str)


def _higher_first(card: int) -> int:
    return -CARD_VALUE[card]


def _first_desc(item: tuple[float, float, int]) -> float:
    return -item[0]


@mypyc_attr(native_class=False)  # an agent: a Python class (ViewAgent is one), its code compiled
class EternityHeuristic(ViewAgent):
    """Pledges trees to its expected tricks, then wins or sheds tricks to match."""

    name = "heuristic"
    # The ISMCTS agent's defaults with this heuristic as its rollout policy (a spec overrides
    # them; docs/agents.md): a rollout stops when the round ends and its scores are known.
    search_defaults: ClassVar[dict[str, AgentParam]] = {
        "iterations": 100,
        "cut": "score",
        "trust": 0.5,
    }

    def __init__(self, seed: int | None = None, **params: AgentParam) -> None:
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
    def act(self, view: View, legal: list[Move]) -> Move:
        """One of `legal`, as given: actions, or their notation (a type variable, which the
        compiled build does not check, where `Action` would refuse a string)."""
        if len(legal) == 1:
            return legal[0]
        decision = Decision(self, as_eternity_view(view))
        values: list[tuple[float, Move]] = []
        for action in legal:
            values.append((decision.value(action), action))
        top = max(v for v, _ in values)
        best = [a for v, a in values if v >= top - 1e-9]
        return best[0] if len(best) == 1 else choice(self.rng, best)

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
        for c in sorted(hand, key=_higher_first):
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
        cards.sort(key=_first_desc)
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
