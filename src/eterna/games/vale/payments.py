"""Paying with stones (§5.3.2, §5.4, Q15): which stone sets pay a cost, and why one does not."""

from __future__ import annotations

from eterna.games.vale.cards import COLOURS, PAYMENTS, payment_text

# Memo of `payments`, keyed by one int packing its arguments, 6 bits each (a tuple key cost a
# tenth of a random Vale playout: building, hashing and comparing it)
_PAY_CACHE: dict[int, tuple[int, ...]] = {}


def payments(
    cost: int, held: tuple[int, int, int], values: tuple[int, int, int], superfluous: bool
) -> tuple[int, ...]:
    """Indexes (into PAYMENTS) of the distinct stone sets from `held` that pay `cost` (§5.3:
    value at least the cost, no change). Q15: no stone may be superfluous (taking any one
    stone away would no longer cover the cost) unless `superfluous`."""
    r, b, p = held
    vr, vb, vp = values
    if (cost | r | b | p | vr | vb | vp) >> 6:  # some argument outside 0..63: no memo
        return _payments(cost, held, values, superfluous)
    key = (((((cost << 6 | r) << 6 | b) << 6 | p) << 6 | vr) << 6 | vb) << 7 | vp << 1
    if superfluous:
        key |= 1
    found = _PAY_CACHE.get(key)
    if found is None:
        found = _PAY_CACHE[key] = _payments(cost, held, values, superfluous)
    return found


def _payments(
    cost: int, held: tuple[int, int, int], values: tuple[int, int, int], superfluous: bool
) -> tuple[int, ...]:
    vr, vb, vp = values
    out = []
    for i, (x, y, z) in enumerate(PAYMENTS):
        if x > held[0] or y > held[1] or z > held[2]:
            continue
        v = x * vr + y * vb + z * vp
        if v < cost:
            continue
        if not superfluous and (
            (x and v - vr >= cost) or (y and v - vb >= cost) or (z and v - vp >= cost)
        ):
            continue
        out.append(i)
    return tuple(out)


def payment_problem(
    pay: tuple[int, int, int],
    held: tuple[int, int, int],
    values: tuple[int, int, int],
    cost: int,
    what: str,
    superfluous: bool,
) -> str:
    """Why `pay` does not pay `cost` (`what` says what the cost is for), or "" if it does."""
    if any(pay[i] > held[i] for i in range(3)):
        have = payment_text(held) or "no stones"
        return f"you do not hold {payment_text(pay)}: you hold {have} (rules §5.3.2)"
    value = sum(pay[i] * values[i] for i in range(3))
    if value < cost:
        return f"{payment_text(pay) or 'nothing'} is worth {value}; {what} (rules §5.3.2)"
    if not superfluous:
        for i in range(3):
            if pay[i] and value - values[i] >= cost:
                return (
                    f"a {COLOURS[i]} stone is superfluous: {what} and the rest covers it "
                    "(rules Q15: no stone the cost does not need; no change is given)"
                )
    return ""
