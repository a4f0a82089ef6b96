"""The arithmetic under Eternity's heuristic (heuristic.py): the tables it reads actions and
cards with, the chance a hand holds none of some cards, the tree totals a set of pledges can
reach, the trump a board gives, and the running sums its plans are valued with."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from eterna.games.eternity.cards import CARD_BY_NAME, FAMILIES

_NF: Final = len(FAMILIES)
_SLOT_USE: Final = 0.6  # prior share of pledge slots used per trick, before the log tells
_TRUMP_KEY: Final = 64  # a trump outranks every card of the led family

# Action notation -> (is a pledge, card), for both interned actions and plain strings.
_ACTION: Final[dict[str, tuple[bool, int]]] = {}
for _name, _card in CARD_BY_NAME.items():
    _ACTION[f"play {_name}"] = (False, _card)
    _ACTION[f"pledge {_name}"] = (True, _card)


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
